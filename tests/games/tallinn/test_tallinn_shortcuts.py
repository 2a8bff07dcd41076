"""What Tallinn keeps per data version, or sums in a shorter way, is what the full
computation gives (issue 23: the seat page's engine work): a menu's choices kept by the
move alone (a half played, a tower from the hand or the display, no tower), a display's
persons summed by estate, a start card's entry in a view, whether a text marks a card,
a picture's persons kept by their place and its help per data version.
Checked at every state of random games with and without the variants, every seat, in
English and German; what is kept stays kept across the states and games of the test,
so a key that leaves out what the answer depends on meets a state that tells."""

from __future__ import annotations

import json

import pytest
from games.kept_menu import kept_menu_is_full
from tallinn_helpers import NAMES, random_steps

from pbem.games import svg
from pbem.games.datafile import marked
from pbem.games.protocol import EVERYTHING
from pbem.games.tallinn import GAME, data, menu, picture, rules, sentences, text, view
from pbem.games.tallinn.moves import Tower
from pbem.games.tallinn.words import card_name, half_text

GAMES = [(2, 1, {}), (3, 2, {"legat": True}), (4, 3, {"tower_order": True}),
         (3, 4, {"legat": True, "tower_order": True}), (2, 5, {"legat": True})]


def _display_counts(state: dict, seat: int) -> dict[str, int]:
    """The persons of a seat's display by estate, one dict per half (the code before)."""
    counts = data.STARTKARTEN[state["start"][seat]].persons.persons()
    for card, half in state["display"][seat]:
        for code, n in rules.half_of(card, half).persons().items():
            counts[code] += n
    return counts


def _states(players: int, seed: int, options: dict) -> list[dict]:
    return [state for state, _, _ in random_steps(players, seed, **options)]


@pytest.mark.parametrize(("players", "seed", "options"), GAMES)
def test_a_menu_kept_by_the_move_is_the_full_menu(players, seed, options):
    towers = set()
    for state in _states(players, seed, options):
        for seat in range(players):
            for lang in ("en", "de"):
                moves = rules.legal(state, seat)
                kept_menu_is_full(menu, moves, state, seat, lang)
                towers.update((m.card, m.card in state["hand"][seat]) for m in moves
                              if isinstance(m, Tower))
    # a tower from the hand and from the display were both offered (the kept key's source)
    assert {False, True} <= {source for _, source in towers}


@pytest.mark.parametrize(("players", "seed", "options"), GAMES)
def test_display_counts_start_cards_and_marks_are_the_full_ones(players, seed, options):
    for state in _states(players, seed, options):
        for seat in range(players):
            assert rules.display_counts(state, seat) == _display_counts(state, seat)
            start = data.STARTKARTEN[state["start"][seat]]
            assert view.start_view(start.name) == {
                "card": start.name, "persons": start.persons.persons(),
                "text": half_text(start.persons), "text_de": half_text(start.persons, "de")}
            for card, half in state["display"][seat]:  # a reveal's line, kept
                assert rules._played(card, half) == \
                    f"{card_name(card)}: {half_text(rules.half_of(card, half))}"
            cards = [start.name] + [card for card, _ in state["display"][seat]]
            for card in cards:
                assert text._reconstructed(card) == (data.status(card) != data.PRINTED)
                assert text._number(card) == marked(card, data.status(card) != data.PRINTED)


def test_a_start_card_entry_is_a_view_of_its_own():
    name = next(iter(data.STARTKARTEN))
    first = view.start_view(name)
    first["persons"]["K"] += 5
    assert view.start_view(name)["persons"] == data.STARTKARTEN[name].persons.persons()


def _halves_of(shown: dict) -> list[dict]:
    """Every half's entry in a view: displays, played, chosen, hands, towers turned up."""
    found = []
    for entry in shown["seats"]:
        found += entry["display"] + [h for h in (entry["played"], entry.get("chosen")) if h]
        for card in entry.get("hand", []) + [t for t in entry["towers"] if "halves" in t]:
            found += card["halves"]
    return found


@pytest.mark.parametrize(("players", "seed", "options"), GAMES[:3])
def test_a_half_entry_is_shared_and_stays_as_made(players, seed, options):
    """A half's entry is made once per data version and shared by every view that shows
    it; drawing the views (text and picture, with links, both languages) changes none,
    and a view read back from JSON (its halves its own, its picture kept by what they
    hold, not by the shared halves' pieces) looks the same."""
    shared = []
    for state in _states(players, seed, options) + [_last(players, seed, options)]:
        for seat in [*range(players), None, EVERYTHING]:
            shown = view.build(state, seat)
            links = {c.region: f"/m/{i}" for i, c in enumerate(
                menu.menu(state, seat, "en") if seat not in (None, EVERYTHING) else [])
                if c.region}
            copy = json.loads(json.dumps(shown))
            for lang in ("en", "de"):
                text.render(shown, NAMES, lang)
                assert picture.draw(shown, NAMES, lang, links) == \
                    picture.draw(copy, NAMES, lang, links)
            for half in _halves_of(shown):
                assert half is view.half_view(half["card"], half["half"])
                shared.append(half)
    assert shared
    version = data.SETS.active.version
    for half in shared:
        assert half == view._half.__wrapped__(version, half["card"], half["half"])


@pytest.mark.parametrize(("players", "seed", "options"), GAMES[:3])
def test_a_picture_with_kept_persons_and_help_is_the_full_one(players, seed, options,
                                                              monkeypatch):
    """A person's markup and a seat's pieces (halves of the display, hand cards, towers)
    kept by their places, a seat's block kept whole, a half's and a card's help kept per
    data version and escaped once: the picture is the one drawn element by element from
    the full words (every kept drawing forgotten before it), for every seat and a
    spectator, with links."""
    for state in _states(players, seed, options) + [_last(players, seed, options)]:
        for seat in [*range(players), None]:
            shown = view.build(state, seat)
            links = {c.region: f"/m/{i}" for i, c in enumerate(
                menu.menu(state, seat, "en") if seat is not None else []) if c.region}
            for lang in ("en", "de"):
                got = picture.draw(shown, NAMES, lang, links)
                with monkeypatch.context() as full:
                    full.setattr(picture, "_symbol", picture.draw_symbol)
                    full.setattr(picture, "_unlinked", picture._unlinked.__wrapped__)
                    full.setattr(picture, "_half_help", picture.full_half_help)
                    full.setattr(picture, "_card_help", picture.full_card_help)
                    svg.forget()
                    assert got == picture.draw(shown, NAMES, lang, links)
                    svg.forget()


def test_forget_forgets_what_the_picture_keeps():
    """``picture.forget`` empties the look-ups beside the canvas's, as ``svg.forget``
    empties the canvas's (a bench's round draws as a fresh process would)."""
    state = _states(3, 2, {"legat": True})[-1]
    picture.draw(view.build(state, 0), NAMES, "en")
    kept = (picture._unlinked, picture._person)
    assert all(f.cache_info().currsize for f in kept)
    picture.forget()
    assert not any(f.cache_info().currsize for f in kept)


def _last(players: int, seed: int, options: dict) -> dict:
    """The game's last state (the towers turned up)."""
    for state, seat, move in random_steps(players, seed, **options):
        last = (state, seat, move)
    return GAME.apply(*last)


@pytest.mark.parametrize(("players", "seed", "options"), GAMES)
def test_an_event_kept_is_the_event_told(players, seed, options):
    """Each line of the events, kept by data version, line and language (``Retold``), is
    the line told from the patterns; a language it does not speak is told, not kept."""
    for state in _states(players, seed, options):
        for line in state["events"]:
            for lang in ("en", "de", "de-AT", "fr"):
                assert sentences.event(line, lang) == sentences.full_event(line, lang)
    assert not {lang for _, _, lang in sentences._RETOLD.kept} - {"en", "de"}
