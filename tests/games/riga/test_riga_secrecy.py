"""What a seat may not see, and what the sentences may not say.

Three kinds of check:

* structure: a view holds the viewer's own hand only (a spectator none), the
  piles only as counts, another seat's setup buildings and draws never, and
  neither the seed nor the draw counter;
* non-interference: change what a viewer may not know (the order of every pile,
  which cards another seat holds, its setup buildings, its open draw) and the
  viewer's view, plain text and picture stay exactly the same;
* private choices: whichever building a seat keeps at setup, whichever card it
  keeps from a Bauhof or Schatzkammer draw, whichever building it discards in
  winter, every other seat and a spectator read the same view and the same
  sentence; the author (and the archive) read what it was.
"""

from __future__ import annotations

import copy
import random

import msgspec
import pytest
from riga_helpers import NAMES, SEED, give_display, play, random_steps, started

from pbem.games.protocol import EVERYTHING, SPECTATOR
from pbem.games.riga import GAME, data

#: a view as canonical JSON, keys sorted: what ``json.dumps(view, sort_keys=True)`` writes
#: but for its spaces, which no check here reads, in a ninth of the time (a Riga view
#: 12 against 108 µs); that every game's views are JSON the contract test checks
_CANONICAL = msgspec.json.Encoder(order="sorted")


def as_json(view) -> str:
    return _CANONICAL.encode(view).decode()


def viewers(state, but=None):
    return [v for v in range(state["players"]) if v != but] + [SPECTATOR]


def everything_a_viewer_reads(state, viewer, pictures=True, seen=None):
    """The view as JSON, its text and (with ``pictures``) its pictures; ``seen`` is the
    view and its JSON when already made for this state and viewer."""
    names = NAMES[:state["players"]]
    if seen is None:
        view = GAME.view(state, viewer)
        seen = view, as_json(view)
    view, text = seen
    out = (text, GAME.render_text(view, names))
    if pictures:
        out += (GAME.picture(view, names), GAME.picture(view, names, "de"))
    return out


# -- structure -------------------------------------------------------------------------------


def check_structure(state) -> dict:
    """Checks every viewer's view; returns them with their JSON, by viewer."""
    seed = state["seed"]
    seen = {}
    for viewer in viewers(state):
        view = GAME.view(state, viewer)
        text = as_json(view)
        seen[viewer] = (view, text)
        assert seed not in text and '"draws"' not in text and '"seed"' not in text
        assert all(isinstance(k, int) for k in view["piles"].values())
        for pile in ("waren_pile", "bau_pile", "separated", "waren_discard", "bau_discard"):
            assert pile not in view
        if viewer is SPECTATOR:
            assert view["hand"] is None and view["you"] is None
        else:
            hand = state["hand"][viewer]
            assert view["hand"]["waren"] == hand["waren"]
            assert sorted(b["id"] for b in view["hand"]["gebaeude"]) == sorted(hand["gebaeude"])
        for entry in view["seats"]:
            s = entry["seat"]
            assert "hand" not in entry and "keep_offer" not in entry
            assert entry["hand_count"] == (sum(state["hand"][s]["waren"].values())
                                           + len(state["hand"][s]["gebaeude"]))
        if state["pending_draw"] is not None and viewer != state["current"]:
            assert view["pending_draw"] is None
        if view.get("keep_offer") is not None:
            assert [b["id"] for b in view["keep_offer"]] == state["keep_offer"][viewer]
        assert "keep_offers" not in view and "kept_all" not in view
    everything = GAME.view(state, EVERYTHING)
    assert seed not in as_json(everything)
    assert [e["hand"]["waren"] for e in everything["seats"]] == [h["waren"] for h in state["hand"]]
    return seen


# -- non-interference --------------------------------------------------------------------------


def disguise(state, viewer, rng) -> dict:
    """The same table as ``viewer`` may know it, with everything else changed: every
    pile reshuffled, another seat's commodities and buildings swapped for others of the
    same number, its setup buildings and its open draw exchanged."""
    other = copy.deepcopy(state)
    for pile in ("waren_pile", "bau_pile", "separated", "waren_discard", "bau_discard"):
        rng.shuffle(other[pile])
    for seat in range(other["players"]):
        if seat == viewer:
            continue
        hand = other["hand"][seat]
        # swap every commodity for a pile card (the pile keeps its size)
        for ware, k in list(hand["waren"].items()):
            for _ in range(k):
                if not other["waren_pile"]:
                    break
                new = other["waren_pile"].pop(0)
                hand["waren"][ware] -= 1
                hand["waren"][new] += 1
                other["waren_pile"].append(ware)
        for i, b in enumerate(hand["gebaeude"]):
            if other["bau_pile"]:
                hand["gebaeude"][i] = other["bau_pile"].pop(0)
                other["bau_pile"].append(b)
        if other["phase"] in ("choose_start", "keep"):
            offer = other["keep_offer"][seat]
            if other["bau_pile"]:
                new = other["bau_pile"].pop(0)
                other["bau_pile"].append(offer[1])
                offer[1] = new
            if other["kept"][seat] is not None:
                other["kept"][seat] = offer[0]
    draw = other["pending_draw"]
    if draw is not None and other["current"] != viewer:
        pile = "bau_pile" if draw["kind"] == "Bauhof" else "waren_pile"
        for i, card in enumerate(draw["cards"]):
            if other[pile]:
                draw["cards"][i] = other[pile].pop(0)
                other[pile].append(card)
    return other


def check_non_interference(state, rng, pictures, seen=None) -> bool:
    """Whether something hidden was changed (and no viewer saw it); ``seen`` holds the
    state's views and their JSON by viewer (``check_structure``'s)."""
    changed = False
    for viewer in viewers(state):
        other = disguise(state, viewer, rng)
        changed |= other != state
        assert everything_a_viewer_reads(other, viewer, pictures) == (
            everything_a_viewer_reads(state, viewer, pictures, (seen or {}).get(viewer))), (
            f"seat {viewer} sees a change")
    return changed


# -- private choices ----------------------------------------------------------------------------


def private_groups(state, seat) -> list[list[str]]:
    """Moves of ``seat`` that differ only in what the others may not know."""
    moves = GAME.legal_moves(state, seat)
    if state["phase"] == "keep":
        return [moves]
    draw = state["pending_draw"]
    if draw is not None:
        return [[m for m in moves if m != "choose none"]]
    if state["phase"] == "winter":
        full = [m for m in moves if m.startswith("discard ") and data.is_building(m.split()[1])]
        return [full]
    return []


def check_private_choice(state, seat, group) -> int:
    afters = [GAME.apply(state, seat, move) for move in group]
    for viewer in viewers(state, seat):
        sentences = {GAME.describe(state, seat, m, a, viewer) for m, a in zip(group, afters,
                                                                            strict=True)}
        assert len(sentences) == 1, sentences
        seen = {everything_a_viewer_reads(a, viewer, pictures=False) for a in afters}
        assert len(seen) == 1, f"seat {viewer} can tell what seat {seat} chose"
    for viewer in (seat, EVERYTHING):
        sentences = {GAME.describe(state, seat, m, a, viewer) for m, a in zip(group, afters,
                                                                            strict=True)}
        assert len(sentences) == len(group), "the author reads what was chosen"
    return len(group)


@pytest.mark.parametrize("riga", [False, True], ids=["base", "riga"])
@pytest.mark.parametrize("players", [2, 3, 4])
def test_nothing_hidden_reaches_another_seat(players, riga):
    rng = random.Random(players)
    compared = changed = choices = 0
    for n, (state, seat, move) in enumerate(random_steps(players, players * 7 + riga, riga)):
        seen = check_structure(state)
        if n % 3 == 0:  # every move reads as a sentence naming its author, to everyone
            after = GAME.apply(state, seat, move)
            for viewer in viewers(state) + [EVERYTHING]:
                assert GAME.describe(state, seat, move, after, viewer).startswith(f"{{{seat}}}")
        if n % 9 == 0 or state["pending_draw"] is not None or state["phase"] == "keep":
            changed += check_non_interference(state, rng, n % 45 == 0, seen)
            compared += 1
        for group in private_groups(state, seat):
            if len(group) > 1:
                choices += check_private_choice(state, seat, group)
    assert compared > 20 and changed > 20 and choices >= 2 * players, (compared, changed,
                                                                      choices)


# -- Bauhof and Schatzkammer draws, explicitly ----------------------------------------------


@pytest.mark.parametrize("art", ["Bauhof", "Schatzkammer"])
def test_a_draw_is_seen_by_its_owner_only(art):
    state = started(3)
    give_display(state, 0, [f"{art}-Visby"])
    after = play(state, 0, f"use {art}")
    cards = after["pending_draw"]["cards"]
    assert len(cards) == {"Bauhof": 5, "Schatzkammer": 3}[art]
    named = [data.WARE_NAME.get(c, c) for c in cards]
    own = GAME.describe(state, 0, f"use {art}", after, 0)
    assert all(name in own for name in named)
    assert GAME.describe(state, 0, f"use {art}", after, EVERYTHING) == own
    assert GAME.view(after, 0)["pending_draw"]["cards"] == cards
    for viewer in (1, 2, SPECTATOR):
        sentence = GAME.describe(state, 0, f"use {art}", after, viewer)
        assert sentence.startswith("{0}") and art in sentence and str(len(cards)) in sentence
        assert not any(name in sentence for name in named if name not in art)
        view = GAME.view(after, viewer)
        assert view["pending_draw"] is None and view["drawing"] == art
        text = as_json(view) + GAME.render_text(view, NAMES[:3])
        if art == "Bauhof":  # building ids are unique: none of them may show
            assert not any(c in text for c in cards if c not in after["row"])
    pick = f"choose {cards[-1]}"
    done = play(after, 0, pick)
    if art == "Bauhof":  # a sentence names a building as people read it
        g = data.gebaeude(cards[-1])
        kept = f"{g.art} in {g.stadt}"
    else:
        kept = data.WARE_NAME[cards[-1]]
    for viewer in (1, 2, SPECTATOR):
        sentence = GAME.describe(after, 0, pick, done, viewer)
        assert sentence.startswith("{0}") and kept not in sentence
    assert kept in GAME.describe(after, 0, pick, done, 0)
    assert kept in GAME.describe(after, 0, pick, done, EVERYTHING)


def test_the_seed_is_in_no_view_text_picture_menu_or_sentence():
    for state, seat, move in random_steps(2, 3, True, game_seed=SEED):
        assert state["seed"] == SEED
        after = GAME.apply(state, seat, move)
        for viewer in viewers(state) + [EVERYTHING]:
            assert state["seed"] not in GAME.describe(state, seat, move, after, viewer)
        if state["turn"] % 5 == 0 and state["phase"] == "take":
            for viewer in viewers(state):
                for text in everything_a_viewer_reads(state, viewer):
                    assert state["seed"] not in text
            labels = " ".join(c.label + c.help for c in GAME.menu(state, seat))
            assert state["seed"] not in labels


def test_the_secrecy_checks_would_catch_a_leak(monkeypatch):
    import pbem.games.riga as riga

    honest = riga.build_view
    state = started(2)
    give_display(state, 0, ["Schatzkammer-Visby"])
    state = play(state, 0, "use Schatzkammer")
    check_non_interference(state, random.Random(1), pictures=False)  # honest: passes

    def leaky(state, seat):
        view = honest(state, seat)
        view["leak"] = [h["gebaeude"] for h in state["hand"]]
        return view

    monkeypatch.setattr(riga, "build_view", leaky)
    with pytest.raises(AssertionError, match="sees a change"):
        check_non_interference(state, random.Random(1), pictures=False)
