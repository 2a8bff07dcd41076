"""Visby's rules as pure functions over a JSON state.

State layout (all lists are indexed by seat)::

    round        Durchgang number, from 1
    phase        "choose" (II, secret card play), "trade" (7, Kaufmann), "over"
    tracks       {"Feldzug": seals, "Handelsfahrt": goods, "Markt": purse field}
    goods, seals per seat
    hand, discard, chosen (secret, this round), played (last revealed cards)
    trading      seats still trading in this round's Kaufmann step
    kurs_feld    the Markt field whose rate (or any lower) merchants may use
    events       what the last resolution did, in words with {seat} placeholders
    events_round the round those events belong to

Readings of the rulebook we had to choose, each with its reason:

* *Restwaren* (tie-breaker): the goods left over after the final 3:1
  conversion (0–2), since "Rest" names what remains of that conversion.
* Kaufmann trades are made one unit at a time ("trade 3:2" gives 3 goods for
  2 seals) and end with "done"; merchants trade independently, so they are
  asked at the same time.
* The game end is checked after phase III of a round, as the rulebook says
  ("spielt ihr den Durchgang noch zu Ende").
"""

from __future__ import annotations

import random
from typing import Any

from pbem.games import rng
from pbem.games.protocol import IllegalMoveError, OptionError, State
from pbem.games.visby import data
from pbem.games.visby.data import KARTEN
from pbem.games.visby.moves import DONE, PLAYS, Done, Move, Play, Trade

RULES_VERSION = "1"
_ORDER = {k: i for i, k in enumerate(KARTEN)}


# -- state helpers -------------------------------------------------------------


def copy_state(state: State) -> State:
    """A copy deep enough that ``apply`` can change it without touching the input."""
    new = dict(state)
    new["tracks"] = dict(state["tracks"])
    for key in ("goods", "seals", "trading"):
        new[key] = list(state[key])
    for key in ("hand", "discard", "chosen", "played"):
        new[key] = [list(cards) for cards in state[key]]
    new["events"] = list(state["events"])
    return new


def cards_held(state: State, seat: int) -> list[str]:
    """The cards ``seat`` holds as a player sees them.

    The state keeps this round's revealed cards in ``hand`` until the round
    ends (the Bettelmönch takes back the discard pile only then), but at the
    table they lie face up in front of the player while the merchants trade,
    so the views leave them out.
    """
    if state["phase"] != "trade":
        return list(state["hand"][seat])
    played = state["played"][seat]
    return [card for card in state["hand"][seat] if card not in played]


def cards_per_round(state: State) -> int:
    return data.KARTEN_PRO_DURCHGANG[state["players"]]


def new_state(players: int, options: dict[str, Any], seed: str) -> State:
    if players not in data.NACHSCHUB:
        raise OptionError(f"Visby is for 2 to 6 players, not {players}")
    state: State = {
        "game": "visby",
        "rules_version": RULES_VERSION,
        "players": players,
        "options": dict(options),
        "seed": seed,
        "draws": 0,  # Visby has no chance; kept so every game's state has it
        "round": 0,
        "phase": "choose",
        "tracks": {"Feldzug": data.TRACK_START, "Handelsfahrt": data.TRACK_START,
                   "Markt": data.TRACK_START},
        "goods": [players] * players,
        "seals": [0] * players,
        "hand": [list(KARTEN) for _ in range(players)],
        "discard": [[] for _ in range(players)],
        "chosen": [[] for _ in range(players)],
        "played": [[] for _ in range(players)],
        "trading": [],
        "kurs_feld": None,
        "events": [],
        "events_round": 0,
    }
    _start_round(state)
    return state


def _start_round(state: State) -> None:
    """Phase I, Nachschub: every board marker advances, capped at field 15."""
    state["round"] += 1
    steps = data.NACHSCHUB[state["players"]]
    for track in state["tracks"]:
        state["tracks"][track] = min(data.TRACK_END, state["tracks"][track] + steps)
    state["phase"] = "choose"


def to_move(state: State) -> list[int]:
    if state["phase"] == "choose":
        need = cards_per_round(state)
        return [s for s in range(state["players"]) if len(state["chosen"][s]) < need]
    if state["phase"] == "trade":
        return list(state["trading"])
    return []


# -- legal moves -------------------------------------------------------------


def rates_up_to(field: int | None) -> list[tuple[int, int]]:
    """Distinct rates on the Markt fields 0..``field``, best (most seals per good) first."""
    if field is None:
        return []
    rates = {(k.waren, k.siegel) for k in data.MARKT[: field + 1] if k is not None}
    return sorted(rates, key=lambda r: (-r[1] / r[0], r[0]))


def legal(state: State, seat: int) -> list[Move]:
    """The moves ``seat`` may make now (none when it is not to move)."""
    if seat not in to_move(state):
        return []
    if state["phase"] == "choose":
        chosen = state["chosen"][seat]
        return [PLAYS[card] for card in state["hand"][seat] if card not in chosen]
    goods = state["goods"][seat]
    return [Trade(*r) for r in rates_up_to(state["kurs_feld"]) if r[0] <= goods] + [DONE]


#: The cards a seat that times out chooses, best first.  Bettelmönch and Schmied
#: touch nobody else: the Bettelmönch's goods and the Schmied's come from the
#: supply, and no card counts a rival's Bettelmönch or Schmied.  The Zöllner's
#: seals come from the supply too, so it touches nobody either, unless those
#: seals lift the seat to the target and so end the game: it comes third.
TIMEOUT_CARDS: tuple[str, ...] = ("Bettelmönch", "Schmied", "Zöllner")
#: Only when none of those is left in hand (2-3 players: the seat itself played
#: Schmied and Zöllner in earlier rounds, and its other card this round is the
#: Bettelmönch) must the default touch a track or the purse.  Then the later
#: card of each pair first, since it takes only what the earlier one leaves and
#: feeds a rival less (a Schiff gives a rival Zöllner 1 seal, a Flotte 3; a
#: Ritter gives a rival Schmied 2 goods, Truppen 4), and the Kaufmann last,
#: since it moves the purse for everyone and makes the absent seat trade.
TIMEOUT_LAST_RESORT: tuple[str, ...] = ("Schiff", "Ritter", "Flotte", "Truppen", "Kaufmann")


def timeout_move(state: State, seat: int) -> Move:
    """What ``seat`` plays when its clock runs out (see ``TIMEOUT_CARDS``).

    A merchant stops trading.  The choice reads only the seat's own hand, never
    a rival's pending choice, so it reveals nothing to the absent seat.
    """
    moves = legal(state, seat)
    if not moves:
        raise IllegalMoveError(f"seat {seat} is not to move")
    if state["phase"] == "trade":
        return DONE
    for card in TIMEOUT_CARDS + TIMEOUT_LAST_RESORT:
        if PLAYS[card] in moves:
            return PLAYS[card]
    raise AssertionError(f"no card to choose for seat {seat}: {moves}")  # pragma: no cover


# -- apply ------------------------------------------------------------------


def apply(state: State, seat: int, move: Move) -> State:
    if state["phase"] == "over":
        raise IllegalMoveError("the game is over")
    if not 0 <= seat < state["players"]:
        raise IllegalMoveError(f"there is no seat {seat} in this game")
    if seat not in to_move(state):
        doing = "choosing cards" if state["phase"] == "choose" else "trading"
        raise IllegalMoveError(f"seat {seat} is not to move; waiting for others {doing}")
    if state["phase"] == "choose":
        if not isinstance(move, Play):
            raise IllegalMoveError("now every player chooses a card: 'play <card>'")
        return _choose(state, seat, move.karte)
    if isinstance(move, Play):
        raise IllegalMoveError("the cards are revealed; merchants now trade or say 'done'")
    return _trade(state, seat, move)


def _choose(state: State, seat: int, card: str) -> State:
    if card not in state["hand"][seat]:
        raise IllegalMoveError(f"{card} is not in your hand (it is on your discard pile)")
    if card in state["chosen"][seat]:
        raise IllegalMoveError(f"you have already chosen {card} this round")
    # a choice changes the seat's chosen cards only (the rest is shared with ``state``,
    # which no one changes); the last one reveals the round, which changes most of it
    new = dict(state)
    chosen = new["chosen"] = list(state["chosen"])
    chosen[seat] = sorted([*chosen[seat], card], key=_ORDER.__getitem__)
    if not to_move(new):
        new = copy_state(new)
        _reveal_and_resolve(new)
    return new


def _trade(state: State, seat: int, move: Trade | Done) -> State:
    # a trade changes the seat's goods and seals only, "done" the merchants trading (the
    # rest is shared with ``state``); the last "done" ends the round, which changes most
    new = dict(state)
    if not isinstance(move, Trade):
        new["trading"] = [s for s in state["trading"] if s != seat]
        if not new["trading"]:
            new = copy_state(new)
            _finish_round(new)
        return new
    rate = (move.waren, move.siegel)
    allowed = rates_up_to(state["kurs_feld"])
    if rate not in allowed:
        shown = ", ".join(f"{w}:{s}" for w, s in allowed) or "none"
        raise IllegalMoveError(
            f"the rate {rate[0]}:{rate[1]} is not on the Markt at or below field "
            f"{state['kurs_feld']}; available: {shown}"
        )
    if state["goods"][seat] < rate[0]:
        raise IllegalMoveError(
            f"a trade at {rate[0]}:{rate[1]} needs {rate[0]} goods; you have {state['goods'][seat]}"
        )
    new["goods"] = list(state["goods"])
    new["seals"] = list(state["seals"])
    new["goods"][seat] -= rate[0]
    new["seals"][seat] += rate[1]
    return new


# -- resolution (phase III) -----------------------------------------------------


def _who_played(state: State, card: str) -> list[int]:
    return [s for s in range(state["players"]) if card in state["played"][s]]


def distribute(available: int, takers: int, each: int | None) -> tuple[int, int]:
    """The general distribution rule: ``(per taker, left on the track)``.

    Every taker gets the same amount, at most ``each`` (``None``: no limit),
    and what cannot be shared equally stays on the track.
    """
    if takers == 0:
        return 0, available
    share = available // takers
    if each is not None:
        share = min(share, each)
    return share, available - share * takers


def _gain_goods(state: State, seat: int, amount: int) -> int:
    """Add goods, keeping at most 15; returns how many were lost to the cap."""
    total = state["goods"][seat] + amount
    state["goods"][seat] = min(total, data.GOODS_MAX)
    return max(0, total - data.GOODS_MAX)


def _event(state: State, text: str) -> None:
    state["events"].append(text)


def amount(n: int, noun: str) -> str:
    """``1 seal``, ``2 seals``: "goods" is the same in both."""
    if noun == "goods" or n == 1:
        return f"{n} {'good' if noun == 'goods' and n == 1 else noun}"
    return f"{n} {noun}s"


def _take_from_track(state: State, card: str, track: str, each: int | None, what: str) -> None:
    takers = _who_played(state, card)
    if not takers:
        return
    share, left = distribute(state["tracks"][track], len(takers), each)
    state["tracks"][track] = left
    for seat in takers:
        if what == "seals":
            state["seals"][seat] += share
            _event(state, f"{card}: {{{seat}}} takes {amount(share, 'seal')} from {track}")
        else:
            lost = _gain_goods(state, seat, share)
            note = f" ({lost} lost above 15)" if lost else ""
            _event(state, f"{card}: {{{seat}}} takes {amount(share, 'goods')} from {track}{note}")


def _rival_count(state: State, seat: int, card: str) -> int:
    return sum(1 for s in _who_played(state, card) if s != seat)


def _reveal_and_resolve(state: State) -> None:
    state["played"] = state["chosen"]
    state["chosen"] = [[] for _ in range(state["players"])]
    state["events"] = []
    state["events_round"] = state["round"]
    for seat, cards in enumerate(state["played"]):
        _event(state, f"{{{seat}}} reveals {' and '.join(cards)}")

    _take_from_track(state, "Truppen", "Feldzug", data.TRUPPEN_SIEGEL, "seals")
    _take_from_track(state, "Ritter", "Feldzug", data.RITTER_LIMIT, "seals")
    for seat in _who_played(state, "Schmied"):
        gain = (data.SCHMIED_PRO_RITTER * _rival_count(state, seat, "Ritter")
                + data.SCHMIED_PRO_TRUPPEN * _rival_count(state, seat, "Truppen"))
        lost = _gain_goods(state, seat, gain)
        note = f" ({lost} lost above 15)" if lost else ""
        _event(state, f"Schmied: {{{seat}}} gets {amount(gain, 'goods')} from the supply{note}")
    _take_from_track(state, "Flotte", "Handelsfahrt", data.FLOTTE_WAREN, "goods")
    _take_from_track(state, "Schiff", "Handelsfahrt", None, "goods")
    for seat in _who_played(state, "Zöllner"):
        gain = (data.ZOELLNER_PRO_SCHIFF * _rival_count(state, seat, "Schiff")
                + data.ZOELLNER_PRO_FLOTTE * _rival_count(state, seat, "Flotte"))
        state["seals"][seat] += gain
        _event(state, f"Zöllner: {{{seat}}} gets {amount(gain, 'seal')} from the supply")

    merchants = _who_played(state, "Kaufmann")
    if merchants:
        back = data.KAUFMANN_RUECKSCHRITT * (len(merchants) - 1)
        state["tracks"]["Markt"] = max(0, state["tracks"]["Markt"] - back)
        state["kurs_feld"] = state["tracks"]["Markt"]
        state["trading"] = merchants
        state["phase"] = "trade"
        kurs = data.MARKT[state["kurs_feld"]]
        _event(state, f"Kaufmann: the purse stands on field {state['kurs_feld']} "
                      f"(rate {kurs or 'none'})")
        return
    _finish_round(state)


def _finish_round(state: State) -> None:
    """Kaufmann's purse reset, Bettelmönch, discards, the end check, next Nachschub."""
    if state["kurs_feld"] is not None:
        state["tracks"]["Markt"] = 0
        state["kurs_feld"] = None
    state["trading"] = []
    for seat in _who_played(state, "Bettelmönch"):
        count = len(state["discard"][seat]) + len(state["played"][seat])
        gain = (data.BETTELMOENCH_WAREN[count]
                + data.BETTELMOENCH_PRO_KAUFMANN * _rival_count(state, seat, "Kaufmann"))
        lost = _gain_goods(state, seat, gain)
        note = f" ({lost} lost above 15)" if lost else ""
        _event(state, f"Bettelmönch: {{{seat}}} gets {amount(gain, 'goods')}{note} and takes the "
                      "discard pile back")
    for seat in range(state["players"]):
        played = state["played"][seat]
        state["hand"][seat] = [c for c in state["hand"][seat] if c not in played]
        state["discard"][seat] = sorted(state["discard"][seat] + played, key=_ORDER.__getitem__)
        if "Bettelmönch" in played:
            state["hand"][seat] = list(KARTEN)
            state["discard"][seat] = []
    if max(state["seals"]) >= state["options"]["target"]:
        state["phase"] = "over"
        _event(state, f"Someone has {state['options']['target']} seals or more: the game ends")
        return
    _start_round(state)


# -- determinization -------------------------------------------------------------


def determinize(state: State, seat: int, chance: random.Random) -> State:
    """The state as ``seat`` might take it to be: every hand is KARTEN without its open
    discard pile, so the only hidden part is a rival's card chosen this round, drawn
    anew from that rival's hand (as many as it has chosen)."""
    new = copy_state(state)
    new["seed"] = rng.reseeded(chance)
    if state["phase"] != "choose":
        return new
    for s in range(state["players"]):
        if s != seat and state["chosen"][s]:
            hand = sorted(state["hand"][s], key=_ORDER.__getitem__)
            picked = chance.sample(hand, len(state["chosen"][s]))
            new["chosen"][s] = sorted(picked, key=_ORDER.__getitem__)
    return new


# -- scoring -------------------------------------------------------------------


def final_seals(state: State, seat: int) -> int:
    return state["seals"][seat] + state["goods"][seat] // data.SCHLUSSKURS


def restwaren(state: State, seat: int) -> int:
    return state["goods"][seat] % data.SCHLUSSKURS
