"""Riga's text keeps a building's line and the commodities' key once per data version
and language (``text.building_line``, ``text.key_line``), a year's events once per data
version, line and language (``sentences.event``) and as the text lists them, names
filled in (``sentences.event_lines``), and its menu the entries the move alone words
(``menu.choice``): every mail and seat page names the row's buildings and the viewer's
hand again.  Checked against the full computation at every state of
whole games, for every seat and a spectator, in both languages."""

from __future__ import annotations

import json
import random

import pytest

from pbem.games.datafile import DataSet
from pbem.games.protocol import EVERYTHING
from pbem.games.render import seat_text
from pbem.games.riga import GAME, data, menu, picture, rules, sentences, text, view
from pbem.games.riga.moves import Choose, Discard, End, School
from pbem.games.riga.words import words


def _states(players: int, riga: bool, seed: str) -> list[dict]:
    chance = random.Random(seed)
    state = GAME.setup(players, {"riga": riga}, seed)
    out = [state]
    while not GAME.is_over(state):
        seat = chance.choice(GAME.to_move(state))
        options = GAME.legal_moves(state, seat)
        move = chance.choice(options) if chance.random() < 0.5 else \
            GAME.default_move(state, seat)
        state = GAME.apply(state, seat, move)
        out.append(state)
    return out


def _buildings(view: dict) -> list[dict]:
    """Every building view a text names as a line: the row, the hands, the setup offer
    and a draw's buildings."""
    found = list(view.get("row") or []) + list(view.get("keep_offer") or [])
    hands = [view.get("hand")] + [e.get("hand") for e in view.get("seats") or []]
    for hand in hands:
        if hand:
            found += hand.get("gebaeude") or []
    draw = view.get("pending_draw") or {}
    found += [c for c in draw.get("cards", []) if isinstance(c, dict)]
    return found


@pytest.mark.parametrize(("players", "riga", "seed"), [(2, False, "zeile-a"), (4, True, "zeile-b")])
def test_kept_lines_are_the_full_computation(players, riga, seed, monkeypatch):
    names = ["Malte", "Heike", "Anne", "Bob"][:players]
    checked = 0
    for n, state in enumerate(_states(players, riga, seed)):
        for seat in [*range(players), None]:
            view = GAME.view(state, seat)
            for lang in ("en", "de"):
                w = words(lang)
                assert text.key_line(w) == text._key_line(w)
                for b in _buildings(view):
                    assert text.building_line(b, w) == text._building_line(b, w), (n, b)
                    checked += 1
                kept = GAME.render_text(view, names, lang)
                with monkeypatch.context() as patch:
                    patch.setattr(text, "building_line", text._building_line)
                    patch.setattr(text, "key_line", text._key_line)
                    assert kept == GAME.render_text(view, names, lang), (n, seat, lang)
    assert checked > 100


@pytest.mark.parametrize(("players", "riga", "seed"), [(3, True, "wahl-a"), (4, False, "wahl-b")])
def test_kept_choices_are_the_full_computation(players, riga, seed):
    kept = 0
    for state in _states(players, riga, seed):
        for seat in GAME.to_move(state):
            for move in rules.legal(state, seat):
                for lang in ("en", "de"):
                    assert menu.choice(state, seat, move, lang) == \
                        menu._choice(state, seat, move, lang), (move, lang)
                    kept += menu._kept_by(state, seat, move, lang) is not None
    assert kept > 100


@pytest.mark.parametrize(("players", "riga", "seed"), [(2, False, "jahr-a"), (4, True, "jahr-b")])
def test_an_event_kept_is_the_event_told(players, riga, seed):
    told = 0
    for state in _states(players, riga, seed):
        for line in GAME.view(state, None).get("events") or []:
            for lang in ("en", "de", "de-AT", "fr"):
                assert sentences.event(line, lang) == sentences.full_event(line, lang), line
                told += 1
    assert told > 50
    assert not {lang for _, _, lang in sentences._RETOLD.kept} - {"en", "de"}


@pytest.mark.parametrize(("players", "riga", "seed"), [(3, False, "liste-a"), (4, True, "liste-b")])
def test_kept_event_lines_are_the_events_told(players, riga, seed):
    names = ("Malte", "Heike {1}", "Anne", "<Bob>")[:players]
    listed = 0
    for state in _states(players, riga, seed)[::3]:
        events = tuple(GAME.view(state, None).get("events") or [])
        for lang in ("en", "de", "fr"):
            told = tuple(f"  {seat_text(sentences.full_event(e, lang), names)}" for e in events)
            # twice: made, then kept
            for _ in range(2):
                assert sentences.event_lines(events, lang, names) == told
            listed += len(events)
    assert listed > 100


def test_formality_is_the_full_computation():
    """``rules.formality`` answers the take without listing its moves: the same as the
    only legal move where it is ``end``, a discard, a draw's choice or a school, at every
    state of whole games, for every seat."""
    forced = 0
    for players, riga, seed in [(2, False, "form-a"), (3, False, "form-c"), (4, True, "form-b")]:
        for state in _states(players, riga, seed):
            for seat in range(players):
                moves = rules.legal(state, seat)
                full = moves[0] if len(moves) == 1 and isinstance(
                    moves[0], End | Discard | Choose | School) else None
                assert rules.formality(state, seat) == full, (state["phase"], seat, moves)
                forced += full is not None
    assert forced  # some states have such a move


@pytest.mark.parametrize(("players", "riga", "seed"),
                         [(3, True, "geteilt-a"), (2, False, "geteilt-b")])
def test_a_building_entry_is_shared_and_stays_as_made(players, riga, seed):
    """A building's entry (the row's, a hand's, an offer's) is made once per data version
    and shared by every view; drawing the views (text and picture, with links, both
    languages) changes none, and a view read back from JSON (its entries its own, its
    text and picture kept by them, not by the buildings' ids) reads and looks the same."""
    names = ["Malte", "Heike", "Anne"][:players]
    shared = []
    for n, state in enumerate(_states(players, riga, seed)):
        for seat in [*range(players), None, EVERYTHING]:
            shown = GAME.view(state, seat)
            links = {c.region: f"/m/{i}" for i, c in enumerate(
                GAME.menu(state, seat, "en") if seat in range(players) else []) if c.region}
            copy = json.loads(json.dumps(shown))
            for lang in ("en", "de"):
                assert GAME.render_text(shown, names, lang) == \
                    GAME.render_text(copy, names, lang), (n, seat, lang)
                if n % 5 == 0:
                    assert GAME.picture(shown, names, lang, links) == \
                        GAME.picture(copy, names, lang, links), (n, seat, lang)
            for b in _buildings(shown):
                assert b is view.building_view(b["id"])
                shared.append(b)
    assert len(shared) > 100
    for b in shared:
        assert b == view._building_words(b["id"])


def _played(players: int, riga: bool, seed: str) -> list[dict]:
    """The states of a whole game the bots play (they build, where random moves mostly
    do not: displays of many buildings, used, turned, new)."""
    chance = random.Random(seed)
    state = GAME.setup(players, {"riga": riga}, seed)
    out = [state]
    while not GAME.is_over(state):
        seat = chance.choice(GAME.to_move(state))
        state = GAME.apply(state, seat, GAME.bot_move(state, seat, chance))
        out.append(state)
    return out


def _as_made(state: dict, e: dict) -> dict:
    """A display's building as a view showed it when each view made its own entries."""
    active = rules.is_active(state, e)
    art = data.ART_VON[e["id"]]
    usable = active and ((art == "Wechselstube" and e["face"] == data.WECHSELSTUBE_DUKATEN)
                         or (art in data.EINMALIG and not e["used"]))
    return {**view.building_view(e["id"]), "used": e["used"], "usable": bool(usable),
            "face": e["face"], "built_turn": e["built_turn"], "new": not active}


@pytest.mark.parametrize(("players", "riga", "seed"),
                         [(3, True, "auslage-a"), (4, False, "auslage-b")])
def test_a_display_entry_is_shared_and_stays_as_made(players, riga, seed):
    """A display's building is one entry per data version and what the view shows of it
    (``view.display_view``), shared by every view of every seat, the same as each view
    made of its own before; drawing the views (text and picture, with links, both
    languages) changes none, and a view read back from JSON (its entries its own: its
    text and picture made from them, not from the pieces kept with the shared ones)
    reads and looks the same."""
    names = ["Malte", "Heike", "Anne", "Bob"][:players]
    shared = []
    for n, state in enumerate(_played(players, riga, seed)):
        first = None
        for seat in [*range(players), None, EVERYTHING]:
            shown = GAME.view(state, seat)
            displays = [e["display"] for e in shown["seats"]]
            for s, display in enumerate(displays):
                assert [json.dumps(d) for d in display] == \
                    [json.dumps(_as_made(state, e)) for e in state["display"][s]]
                for d in display:
                    assert view.is_shared_display(d)
                    assert d is view.display_view(d["id"], d["used"], d["face"],
                                                  d["built_turn"], not d["new"])
            if first is None:
                first = displays
            else:  # every seat's view shows the very entries of the first
                assert all(d is e for a, b in zip(first, displays, strict=True)
                           for d, e in zip(a, b, strict=True))
            shared += [d for display in displays for d in display]
            if n % 8:
                continue
            links = {c.region: f"/m/{i}" for i, c in enumerate(
                GAME.menu(state, seat, "en") if seat in range(players) else []) if c.region}
            copy = json.loads(json.dumps(shown))
            assert not any(view.is_shared_display(d) for e in copy["seats"]
                           for d in e["display"])
            for lang in ("en", "de"):
                assert GAME.render_text(shown, names, lang) == \
                    GAME.render_text(copy, names, lang), (n, seat, lang)
                assert GAME.picture(shown, names, lang, links) == \
                    GAME.picture(copy, names, lang, links), (n, seat, lang)
    assert len({id(d) for d in shared}) > 50 and len(shared) > 10_000
    assert any(d["used"] for d in shared) and any(d["new"] for d in shared)
    for d in shared:  # as made, after every drawing
        assert d == view._display_words(d["id"], d["used"], d["face"], d["built_turn"],
                                        not d["new"])


def test_a_display_entry_is_its_data_versions_own(monkeypatch):
    """The entries, and the picture's and the text's pieces kept with them, are the
    active data version's: a view made while another version is active (an operator's
    file, its own memo) shares none of the first version's entries, draws and reads as a
    view read back from JSON does, and the first version's entries are not taken for its
    own."""
    state = next(s for s in _played(3, False, "fassung") if sum(map(len, s["display"])) > 4)
    names = ["Malte", "Heike", "Anne"]

    def drawn(shown: dict) -> tuple[str, str]:
        return picture.draw(shown, names, "de"), text.render(shown, names, "de")

    before = view.build_view(state, 0)
    as_drawn = drawn(before)
    shipped = data.SETS.active
    other = DataSet(f"{shipped.version}+anders", shipped.data, shipped.text, shipped.derived)
    monkeypatch.setitem(data.SETS.__dict__, "active", other)
    assert data.SETS.active is other
    after = view.build_view(state, 0)
    pairs = [(d, e) for a, b in zip(before["seats"], after["seats"], strict=True)
             for d, e in zip(a["display"], b["display"], strict=True)]
    assert len(pairs) > 4
    for d, e in pairs:
        assert d == e and d is not e
        assert view.is_shared_display(e) and not view.is_shared_display(d)
    assert all(d is e for a, b in zip(after["seats"], view.build_view(state, 1)["seats"],
                                      strict=True)
               for d, e in zip(a["display"], b["display"], strict=True))
    # the shipped version's entries read as entries of no version's, and the same
    assert drawn(before) == drawn(json.loads(json.dumps(before))) == drawn(after)
    monkeypatch.undo()
    assert data.SETS.active is shipped
    assert view.is_shared_display(before["seats"][0]["display"][0]) or \
        not before["seats"][0]["display"]
    assert drawn(before) == as_drawn


def test_a_display_entry_of_other_kinds_is_its_own():
    """A display's values of kinds a state does not hold (``1`` for ``True``) make an
    entry of their own: the shared one (``used`` a truth value) would show the other."""
    state = next(s for s in _played(2, False, "sorten") if s["display"][0])
    shared = view.build_view(state, 0)["seats"][0]["display"][0]
    odd = json.loads(json.dumps(state))
    odd["display"][0][0]["used"] = int(odd["display"][0][0]["used"])
    mine = view.build_view(odd, 0)["seats"][0]["display"][0]
    assert mine == shared and mine is not shared and not view.is_shared_display(mine)
    assert type(mine["used"]) is int and type(shared["used"]) is bool


def test_the_display_entries_kept_are_bounded(monkeypatch):
    """A data version keeps at most ``view.DISPLAYS_MOST`` display entries (one a turn a
    building was built in, and a server plays for months), and the picture and the text
    as many of their pieces: then all are forgotten at once; a view made before reads as
    a view read back from JSON does, and draws and reads the same."""
    most = 6
    monkeypatch.setattr(view, "DISPLAYS_MOST", most)  # the picture's and text's bound too
    kept = ["display views", "picture display faces", ("text display items", "de"),
            ("text display items", "en")]
    for key in kept:  # what the tests before kept (safe: a view's entries are its own)
        data.SETS.active.memo.pop(key, None)
    names = ["Malte", "Heike", "Anne"]
    views = []
    for n, state in enumerate(_played(3, False, "grenze")):
        if n % 10:
            continue
        shown = GAME.view(state, 1)
        views.append((shown, GAME.picture(shown, names, "de"), GAME.render_text(shown, names)))
        assert all(len(data.SETS.active.kept(key, dict)) <= most for key in kept)
    forgotten = 0
    for shown, drawn, written in views:
        forgotten += not all(view.is_shared_display(d) for e in shown["seats"]
                             for d in e["display"])
        assert GAME.picture(shown, names, "de") == drawn
        assert GAME.render_text(shown, names) == written
        copy = json.loads(json.dumps(shown))
        assert GAME.picture(copy, names, "de") == drawn
        assert GAME.render_text(copy, names) == written
    assert forgotten > 5
