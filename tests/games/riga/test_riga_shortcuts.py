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

from pbem.games.protocol import EVERYTHING
from pbem.games.render import seat_text
from pbem.games.riga import GAME, menu, rules, sentences, text, view
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
