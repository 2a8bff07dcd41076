"""Tallinn's rules as pure functions over a JSON state.

State layout (lists indexed by seat)::

    game, rules_version, data_version, players
    options        {"legat": bool, "tower_order": bool}
    seed, draws    the random generator (pbem.games.rng); never shown
    round          Runde, from 1
    phase          "choose" (1.-2., secret card choice), "legat" (the Wappen's estate),
                   "tower" (3., Turm-Bau), "over"
    decision       bumped whenever a new decision starts (a phase, a variant tower turn)
    points         Siegpunkte
    start          the start card (Start-Karte) of each seat
    pile           own draw pile (Nachziehstapel), top first; hidden
    hand           hand cards, sorted by number; hidden from the others
    display        Auslage: [card, half] in the order played ("a"/"b": the active half)
    towers         Türme: {"card", "from": "display"|"hand", "round"}, face down
    chosen         this round's secret choice [card, half], or None
    played         this round's revealed choice [card, half], or None
    legat          estate chosen for a Wappen played this round, or None
    builders       seats that triggered a contest this round (may build a tower)
    tower_queue    tower-order variant: the builders in the order they decide
    tower_choice   {"from", "card"} or "none": a decided tower (secret until all decided)
    events         what the last reveal did, in words with {seat} placeholders
    events_round   the round those events belong to
    contests       the contests of that reveal as data (``_contest_record``); not in
                   states of rules version 1
    final          the final scoring, once over (see ``final_scoring``)

Cards are strings: "1"…"10" for the influence cards, "L" for Der Legat des
Kaisers, "S1"…"S6" for the start cards (contents in ``data``).

Readings of the rulebook we chose, each with its reason (section names as in
../shared/rules/tallinn-de.txt):

* *Who plays.*  A seat without hand cards sits the round out ("sofern noch
  vorhanden", phase 1).  The game ends at the start of a round in which no
  seat has a card left ("wenn alle Spieler alle Karten ausgespielt haben").
* *Contests* (3. Wettstreit): each coin half played triggers one contest,
  compared in seat order (clockwise) against each other seat: 2 points for
  more persons of that estate, 1 for a tie; only the triggering seat scores.
  Contests are resolved in seat order; the order cannot change any score,
  since displays do not change during the contests.
* *No points for a tie at zero.*  The Anmerkung after the tower scoring
  ("keine Punkte, wenn Du überhaupt keinen Ritter, Mönch oder Kaufmann hast,
  selbst wenn ein anderer Spieler auch keine Person der jeweiligen Art hat.
  Dasselbe gilt, wenn Du keinen einzigen Turm ausgelegt hast") names the
  estates, so it covers the estate contests of the final scoring as well as
  the towers; we apply it to every comparison (during play a tie at zero
  cannot happen: the coin half itself shows a person of its estate).
* *The 5-person transfer* (Schlusswertung, "Achtung") belongs to the estate
  contests of the final scoring only: the tower paragraph names 6 and 3
  points and nothing else.
* *Towers.*  Any seat that triggered a contest this round may build one tower
  after all contests: an influence card from its display (this round's card
  included; never the start card, which is no "Einfluss-Karte") or from its
  hand, or none.  Without the variant the builders decide at the same time,
  in secret; the decisions are revealed together.  A decision is one move
  ("tower 7": a card is never in display and hand at once, so its number
  says where from; or "no tower"), so no step of it shows before the others
  have decided, and the menu always fits a mail: a seat holds in display and
  hand together at most the cards it has drawn, 10 (11 with the Legat), so
  with "no tower" at most 12 choices.  With the variant ("Variante") the builders decide one
  after another, in the open, by most points, then most towers built before,
  then seat order (the rulebook leaves the last tie to the players; this is
  the fixed order we state).  A tower's face stays hidden until the final
  scoring; a tower taken from the display leaves a visible gap, as at the table.
* *Tower scoring.*  A tower counts every person printed on both halves of
  its card; a seat's tower value is the count of its most frequent estate on
  all its tower cards together; compared with each other seat, 6 for more, 3
  for a tie (none for a tie at zero, i.e. without towers).
* *Tie-breaker* (Spielende): the total of persons on a seat's tower cards,
  the Legat's two persons included; then a shared victory.
* *Der Legat des Kaisers.*  Its Wappen half always holds its contest (holding
  it can only gain points, and building a tower stays optional).  The estate
  is chosen after all cards are revealed, when the contests are resolved,
  so the seat sees every display; the two extra persons count for that
  contest only, and in the display the Wappen counts no person until the end.
  At the end a Wappen lying in the display adds two persons to the estate
  with the fewest persons in that display; when several estates tie for
  fewest, the one that scores the seat the most final points against the
  others' displays (before their own Legat bonus), else the first in the
  printed order (Kaufleute, Ritter, Mönche).  The Legat as a tower counts its
  three persons (1 of each) and its two Wappen persons join the estate with
  the fewest persons on that seat's tower cards (which of several such
  estates cannot change the tower value).
* *The Legat in the display at the end* gives its two persons whichever half
  shows (rules version 2): "Liegt die Karte „Legat des Kaisers“ bei Spielende
  **in Deiner Auslage**, addierst Du sofort deren beiden Personen zu dem Stand
  mit den wenigsten Personen in Deiner Auslage" names the card, not a half.
  Rules version 1 read it as the Wappen half only (the two persons belong to
  the Wappen); games started under version 1 keep that reading
  (``legat_any_half``; test: test_tallinn_rules.py,
  test_the_legat_in_the_display_gives_its_two_persons_whichever_half_shows).
"""

from __future__ import annotations

import functools
import random
from typing import Any

from pbem.games import rng
from pbem.games.protocol import IllegalMoveError, OptionError, State
from pbem.games.tallinn import data
from pbem.games.tallinn.moves import HALVES, NO_TOWER, Legat, Move, NoTower, Play, Tower
from pbem.games.tallinn.words import card_name, count, estate, half_text

RULES_VERSION = "2"
#: the older rules versions a game may have started with (see ``legat_any_half``)
OLDER_RULES_VERSIONS = ("1",)
DISPLAY, HAND = "display", "hand"


# -- state helpers -------------------------------------------------------------


def _copy(value: Any) -> Any:
    """A deep copy of a JSON value (faster than ``copy.deepcopy`` for small states)."""
    if isinstance(value, dict):
        return {k: _copy(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_copy(v) for v in value]
    return value


#: the parts of a state a move changes in place, each copied one level deeper than the
#: level it is changed at; what they hold below that (a display's ``[card, half]``, a
#: tower choice, a contest record, words) is replaced whole, never changed in place
_FLAT = ("points", "start", "chosen", "played", "legat", "builders", "tower_queue",
         "tower_choice", "events", "contests")
_NESTED = ("pile", "hand", "display")


def _copy_state(state: State) -> State:
    """A copy of ``state`` that the rules may change without changing ``state``: what a
    move changes is copied (``_COPIES``), the rest shared (a full deep copy took a third of
    a searching bot's time, which plays thousands of moves per move); any other dict or
    list whole."""
    new = dict(state)
    copies = _COPIES
    for key, value in state.items():
        copy = copies.get(key)
        if copy is not None:
            new[key] = copy(value)
        elif isinstance(value, (dict, list)):
            new[key] = _copy(value)
    return new


def _copy_nested(parts: list[list[Any]]) -> list[list[Any]]:
    return [list(part) for part in parts]


def _copy_towers(towers: list[list[dict[str, Any]]]) -> list[list[dict[str, Any]]]:
    # a drawn state deals its rivals' tower cards anew
    return [[dict(tower) for tower in seat] for seat in towers]


#: how ``_copy_state`` copies each part a move changes (looked up once a part: a bot's
#: search copies a state per move it plays)
_COPIES: dict[str, Any] = {**dict.fromkeys(_FLAT, list),
                           **dict.fromkeys(_NESTED, _copy_nested), "towers": _copy_towers}


def card_key(card: str) -> tuple[int, str]:
    """Sort order of cards: by printed number, the Legat after 10."""
    return (int(card), "") if card.isdigit() else (99, card)


def half_of(card: str, half: str) -> data.Haelfte:
    """Half ``half`` ("a", "b") of influence card ``card`` or the Legat."""
    return data.HAELFTEN[card, half]


def all_cards(state: State) -> list[str]:
    """Every card of one player's set in this game."""
    cards = list(data.EINFLUSSKARTEN)
    return cards + [data.LEGAT] if state["options"]["legat"] else cards


def new_state(players: int, options: dict[str, Any], seed: str,
              rules_version: str = RULES_VERSION) -> State:
    if not 2 <= players <= 4:
        raise OptionError(f"Tallinn is for 2 to 4 players, not {players}")
    state: State = {
        "game": "tallinn",
        "rules_version": rules_version,
        "data_version": data.DATA_VERSION,
        "players": players,
        "options": {"legat": bool(options.get("legat")),
                    "tower_order": bool(options.get("tower_order"))},
        "seed": seed,
        "draws": 0,
        "round": 0,
        "phase": "choose",
        "decision": 0,
        "points": [data.START_PUNKTE] * players,
        "start": [],
        "pile": [], "hand": [], "display": [[] for _ in range(players)],
        "towers": [[] for _ in range(players)],
        "chosen": [None] * players, "played": [None] * players,
        "legat": [None] * players, "builders": [], "tower_queue": [],
        "tower_choice": [None] * players,
        "events": [], "events_round": 0, "final": None,
    }
    if rules_version != "1":
        state["contests"] = []
    state["start"] = rng.shuffled(state, sorted(data.STARTKARTEN))[:players]
    for _ in range(players):
        pile = rng.shuffled(state, sorted(data.EINFLUSSKARTEN, key=card_key))
        hand = pile[: data.HANDKARTEN]
        if state["options"]["legat"]:
            hand.append(data.LEGAT)  # "zusätzlich auf die Hand"
        state["hand"].append(sorted(hand, key=card_key))
        state["pile"].append(pile[data.HANDKARTEN:])
    _begin_round(state)
    return state


def max_rounds(state: State) -> int:
    """10 rounds, 11 with the Legat ("spätestens nach der 10. Runde")."""
    return len(all_cards(state))


# -- whose move ----------------------------------------------------------------


def to_move(state: State) -> list[int]:
    phase = state["phase"]
    n = state["players"]
    if phase == "choose":
        return [s for s in range(n) if state["hand"][s] and state["chosen"][s] is None]
    if phase == "legat":
        return [s for s in range(n) if _plays_wappen(state, s) and state["legat"][s] is None]
    if phase == "tower":
        waiting = [s for s in _tower_order(state) if state["tower_choice"][s] is None]
        if state["options"]["tower_order"]:
            return waiting[:1]
        return sorted(waiting)
    return []


def _tower_order(state: State) -> list[int]:
    return state["tower_queue"] if state["options"]["tower_order"] else state["builders"]


def _plays_wappen(state: State, seat: int) -> bool:
    played = state["played"][seat]
    return played is not None and half_of(*played).wappen


def is_secret(state: State) -> bool:
    """The card choice always; tower decisions unless the variant orders them."""
    if state["phase"] == "choose":
        return True
    return state["phase"] == "tower" and not state["options"]["tower_order"]


# -- legal moves --------------------------------------------------------------


def display_cards(state: State, seat: int) -> list[str]:
    """The influence cards in a seat's display (what a tower may be taken from)."""
    return sorted((card for card, _ in state["display"][seat]), key=card_key)


def legal(state: State, seat: int) -> list[Move]:
    """The moves ``seat`` may make now (none when it is not to move)."""
    if seat not in to_move(state):
        return []
    phase = state["phase"]
    if phase == "choose":
        return list(_plays(tuple(state["hand"][seat])))
    if phase == "legat":
        return [Legat(s) for s in data.STAENDE]
    # the display's cards, then the hand's, then none (at most 11 + 1, see above)
    cards = display_cards(state, seat) + state["hand"][seat]
    return [Tower(c) for c in cards] + [NO_TOWER]


# a hand's plays are asked for again and again (a click's confirm page, its move, its
# menu; every move a bot searches): made once per hand (a move is a frozen value, shared)
@functools.lru_cache(maxsize=1024)
def _plays(hand: tuple[str, ...]) -> tuple[Play, ...]:
    """Each card of ``hand`` played with each half active."""
    return tuple(Play(card, h) for card in hand for h in HALVES)


def timeout_move(state: State, seat: int) -> Move:
    """What ``seat`` plays when its clock runs out (``DEFAULT_TIMEOUT_NOTE``): its
    lowest-numbered hand card (the Legat last) with the half that shows more persons,
    the first on a tie; a Legat's contest for the estate that scores most, the first
    in printed order on a tie; no tower."""
    moves = legal(state, seat)
    if not moves:
        raise ValueError(f"seat {seat} is not to move")
    phase = state["phase"]
    if phase == "choose":
        card = state["hand"][seat][0]  # sorted: lowest number first, the Legat last
        a, b = (half_of(card, h).total() for h in HALVES)
        return Play(card, "b" if b > a else "a")
    if phase == "legat":
        return Legat(max(data.STAENDE, key=lambda code: (
            contest(state, seat, code, data.LEGAT_PERSONEN)[0], -data.STAENDE.index(code))))
    return NO_TOWER


# -- apply ---------------------------------------------------------------------


def apply(state: State, seat: int, move: Move) -> State:
    if state["phase"] == "over":
        raise IllegalMoveError("the game is over")
    if not isinstance(seat, int) or not 0 <= seat < state["players"]:
        raise IllegalMoveError(f"there is no seat {seat} in this game")
    if seat not in to_move(state):
        raise IllegalMoveError(_why_not_to_move(state, seat))
    phase = state["phase"]
    if phase == "choose":
        if not isinstance(move, Play):
            raise IllegalMoveError(
                "now every player chooses a hand card and its active half, like 'play 7a'")
        return _choose(state, seat, move.card, move.half)
    if phase == "legat":
        if not isinstance(move, Legat):
            raise IllegalMoveError(
                "the cards are revealed; your Legat's Wappen now names the estate of its "
                "contest, like 'legat Ritter'")
        return _legat(state, seat, move.stand)
    if not isinstance(move, (Tower, NoTower)):
        raise IllegalMoveError(
            "the contests are over; builders now say 'tower <card>' or 'no tower'")
    return _tower(state, seat, move)


def _why_not_to_move(state: State, seat: int) -> str:
    phase = state["phase"]
    if phase == "choose":
        if not state["hand"][seat]:
            return f"seat {seat} has no cards left and is not to move; the others play on"
        return f"seat {seat} has already chosen a card this round and is not to move"
    if phase == "legat":
        return (f"seat {seat} is not to move: only players whose Legat shows its Wappen "
                "choose an estate now")
    if seat not in state["builders"]:
        return (f"seat {seat} triggered no contest this round, so it is not to move and may "
                "not build a tower")
    if state["tower_choice"][seat] is not None:
        return f"seat {seat} has already decided about its tower and is not to move"
    first = to_move(state)[0]
    return (f"seat {seat} is not to move yet: in the tower-order variant seat {first} "
            "decides first")


def _choose(state: State, seat: int, card: str, half: str) -> State:
    if card not in state["hand"][seat]:
        where = "in your display" if card in display_cards(state, seat) else (
            "one of your towers" if any(t["card"] == card for t in state["towers"][seat])
            else "not yet drawn" if card in state["pile"][seat] else "not in this game")
        raise IllegalMoveError(f"card {card} is not in your hand ({where})")
    new = _decided(state, "chosen", seat, [card, half])
    if not to_move(new):
        new = _copy_state(new)
        _reveal(new)
    return new


def _decided(state: State, key: str, seat: int, decision: Any) -> State:
    """``state`` with ``seat``'s ``decision`` in ``state[key]`` (its card choice, its
    Legat's estate, its tower): a copy of that list alone, the rest shared; the step the
    last decision sets off (a reveal, the contests, the towers built) changes much more,
    and works on a ``_copy_state`` (most moves decide and wait for the others)."""
    new = dict(state)
    new[key] = list(state[key])
    new[key][seat] = decision
    return new


def _legat(state: State, seat: int, code: str) -> State:
    new = _decided(state, "legat", seat, code)
    if not to_move(new):
        new = _copy_state(new)
        _resolve_contests(new)
    return new


def _tower(state: State, seat: int, move: Tower | NoTower) -> State:
    choice: Any = "none"
    if not isinstance(move, NoTower):
        card = move.card
        if card in display_cards(state, seat):
            source = DISPLAY
        elif card in state["hand"][seat]:
            source = HAND
        else:
            raise IllegalMoveError(
                f"card {card} is neither in your display nor in your hand; a tower is built "
                f"from one of {', '.join(display_cards(state, seat) + state['hand'][seat])}")
        choice = {"from": source, "card": card}
    new = _decided(state, "tower_choice", seat, choice)
    ordered = new["options"]["tower_order"]
    if ordered:
        # decisions in the open, one after another: each takes effect at once
        new = _copy_state(new)
        _build(new, seat)
        new["decision"] += 1
    if not to_move(new):
        if not ordered:
            new = _copy_state(new)
            for builder in new["builders"]:
                _build(new, builder)
        _draw_and_continue(new)
    return new


# -- determinization -----------------------------------------------------------------


def determinize(state: State, seat: int, chance: random.Random) -> State:
    """The state as ``seat`` might take it to be.

    Each seat's cards are its set: what lies in its display is open, the rest (hand,
    pile, face-down towers) is hidden from the others, so a rival's hidden cards are
    dealt anew to its towers, hand and pile (same sizes, towers keeping where they came
    from), its pending card choice is a card of its new hand with a half drawn by
    ``chance``, and its pending secret tower decision one of its tower moves (the
    game's ``determinize`` makes both anew as the rival's bot would).  The seat's own
    pile is shuffled (it knows which cards are on it, not their order).
    """
    new = _copy_state(state)
    new["seed"] = rng.reseeded(chance)
    if state["phase"] == "over":
        return new  # the towers are turned up: nothing is hidden any more
    for s in range(state["players"]):
        if s == seat:
            new["pile"][s] = rng.deal(state["pile"][s], [len(state["pile"][s])], chance)[0]
            continue
        open_cards = {card for card, _ in state["display"][s]}
        hidden = [c for c in all_cards(state) if c not in open_cards]
        towers, hand, pile = rng.deal(
            hidden, [len(state["towers"][s]), len(state["hand"][s]), len(state["pile"][s])],
            chance)
        for tower, card in zip(new["towers"][s], towers, strict=True):
            tower["card"] = card
        new["hand"][s] = sorted(hand, key=card_key)
        new["pile"][s] = pile
        if state["chosen"][s] is not None:
            new["chosen"][s] = [chance.choice(new["hand"][s]), chance.choice(HALVES)]
        if state["tower_choice"][s] is not None and is_secret(state):
            new["tower_choice"][s] = None
            new["tower_choice"][s] = secret_choice(new, s, chance.choice(legal(new, s)))
    return new


def secret_choice(state: State, seat: int, move: Move) -> Any:
    """How ``move``, a secret choice of ``seat`` not yet revealed, is kept in ``state``
    (``chosen`` in the card choice, ``tower_choice`` in the towers' phase)."""
    if isinstance(move, Play):
        return [move.card, move.half]
    if isinstance(move, NoTower):
        return "none"
    assert isinstance(move, Tower)
    return {"from": DISPLAY if move.card in display_cards(state, seat) else HAND,
            "card": move.card}


# -- resolution ------------------------------------------------------------------


def _event(state: State, text: str) -> None:
    state["events"].append(text)


def _begin_round(state: State) -> None:
    if not any(state["hand"]):
        _final(state)
        return
    n = state["players"]
    state["round"] += 1
    state["phase"] = "choose"
    state["decision"] += 1
    state["chosen"] = [None] * n


def _reveal(state: State) -> None:
    """Phase 2: all chosen cards are turned up together and join their displays."""
    n = state["players"]
    state["played"] = state["chosen"]
    state["chosen"] = [None] * n
    state["legat"] = [None] * n
    state["events"] = []
    state["events_round"] = state["round"]
    if state["rules_version"] != "1":   # version-1 states never had it (their snapshots)
        state["contests"] = []
    for seat in range(n):
        played = state["played"][seat]
        if played is None:
            _event(state, f"{{{seat}}} has no card left and plays none")
            continue
        card, half = played
        state["hand"][seat].remove(card)
        state["display"][seat].append([card, half])
        _event(state, f"{{{seat}}} plays {_played(card, half)}")
    if any(_plays_wappen(state, s) for s in range(n)):
        state["phase"] = "legat"
        state["decision"] += 1
        return
    _resolve_contests(state)


def _played(card: str, half: str) -> str:
    """``card 7: 2 Mönche, 1 Ritter``: a half played as the round's events write it (in
    English), made once per data version (a reveal writes it for every seat)."""
    return data.SETS.active.kept(("played", card, half), _played_words, card, half)


def _played_words(card: str, half: str) -> str:
    return f"{card_name(card)}: {half_text(half_of(card, half))}"


def display_counts(state: State, seat: int) -> dict[str, int]:
    """Persons of each estate in a seat's display during play (start card included;
    the Legat's Wappen counts none)."""
    # summed by estate in locals: a view, a menu and every contest ask for it, and a
    # dict per half took most of its time
    start = data.STARTKARTEN[state["start"][seat]].persons
    k, r, m = start.K, start.R, start.M
    halves = data.HAELFTEN
    for card, half in state["display"][seat]:
        h = halves[card, half]
        k, r, m = k + h.K, r + h.R, m + h.M
    return {"K": k, "R": r, "M": m}


def contest(state: State, seat: int, code: str, extra: int = 0) -> tuple[int, list[str]]:
    """Points ``seat`` scores in its contest for estate ``code`` (``extra``: the
    Legat's two persons), and the comparisons in words."""
    n = state["players"]
    mine = display_counts(state, seat)[code] + extra
    gained, parts = 0, []
    for step in range(1, n):
        other = (seat + step) % n  # clockwise
        theirs = display_counts(state, other)[code]
        if mine > theirs:
            points = data.WETTSTREIT_MEHR
        elif mine == theirs and mine > 0:
            points = data.WETTSTREIT_GLEICH
        else:
            points = 0
        gained += points
        parts.append(f"{{{other}}} {theirs}: +{points}")
    return gained, parts


def _contest_record(state: State, seat: int, code: str, extra: int,
                    gained: int) -> dict[str, Any]:
    """One contest as data (the view's ``contests``): who held it for which estate, its
    persons (``legat``: the Legat's two among them), each rival's persons and the points
    against each, in seat order from the holder clockwise, and the points in all."""
    n, mine = state["players"], display_counts(state, seat)[code] + extra
    against = []
    for step in range(1, n):
        other = (seat + step) % n
        theirs = display_counts(state, other)[code]
        points = (data.WETTSTREIT_MEHR if mine > theirs else
                  data.WETTSTREIT_GLEICH if mine == theirs and mine > 0 else 0)
        against.append({"seat": other, "persons": theirs, "points": points})
    return {"seat": seat, "estate": code, "persons": mine, "legat": extra,
            "against": against, "points": gained}


def _resolve_contests(state: State) -> None:
    """Phase 3: every coin half (and Wappen) played this round holds its contest."""
    builders = []
    for seat in range(state["players"]):
        played = state["played"][seat]
        if played is None:
            continue
        half = half_of(*played)
        if half.muenze:
            code, extra = half.coin_estate(), 0
        elif half.wappen:
            code, extra = state["legat"][seat], data.LEGAT_PERSONEN
        else:
            continue
        assert code is not None
        gained, parts = contest(state, seat, code, extra)
        state["points"][seat] += gained
        builders.append(seat)
        mine = display_counts(state, seat)[code]
        if "contests" in state:
            state["contests"].append(_contest_record(state, seat, code, extra, gained))
        legat = f" + {extra} from the Legat" if extra else ""
        _event(state, f"Contest for the {estate(code)}: {{{seat}}} has {mine}{legat}; "
                      f"{', '.join(parts)}; {{{seat}}} scores {gained}")
    state["builders"] = builders
    if not builders:
        _draw_and_continue(state)
        return
    n = state["players"]
    state["phase"] = "tower"
    state["decision"] += 1
    state["tower_choice"] = [None] * n
    # the variant: most points first, then most towers, then seat order
    state["tower_queue"] = sorted(
        builders, key=lambda s: (-state["points"][s], -len(state["towers"][s]), s))
    if state["options"]["tower_order"]:
        order = ", ".join(f"{{{s}}}" for s in state["tower_queue"])
        _event(state, f"Towers are decided in this order: {order}")


def _build(state: State, seat: int) -> None:
    choice = state["tower_choice"][seat]
    if choice == "none":
        _event(state, f"{{{seat}}} builds no tower")
        return
    card = choice["card"]
    if choice["from"] == DISPLAY:
        state["display"][seat] = [e for e in state["display"][seat] if e[0] != card]
        _event(state, f"{{{seat}}} builds a tower from a card of the display")
    else:
        state["hand"][seat].remove(card)
        _event(state, f"{{{seat}}} builds a tower from a hand card")
    state["towers"][seat].append({"card": card, "from": choice["from"],
                                  "round": state["round"]})


def _draw_and_continue(state: State) -> None:
    """Phase 4: everyone with cards on the pile draws one; then the next round."""
    n = state["players"]
    state["builders"] = []
    state["tower_queue"] = []
    state["tower_choice"] = [None] * n
    drawn = []
    for seat in range(n):
        if state["pile"][seat]:
            card = state["pile"][seat].pop(0)
            state["hand"][seat] = sorted(state["hand"][seat] + [card], key=card_key)
            drawn.append(seat)
    if drawn:
        _event(state, f"{', '.join(f'{{{s}}}' for s in drawn)} "
                      f"draw{'s' if len(drawn) == 1 else ''} a card")
    _begin_round(state)


# -- final scoring ---------------------------------------------------------------


def _pair_points(mine: int, theirs: int, more: int, tie: int) -> int:
    if mine > theirs:
        return more
    return tie if mine == theirs and mine > 0 else 0


def _estate_points(mine: dict[str, int], others: list[dict[str, int]]) -> int:
    """What one display scores in the final estate contests against ``others``
    (its own comparisons and the transfers either way)."""
    total = 0
    for theirs in others:
        for code in data.STAENDE:
            total += _pair_points(mine[code], theirs[code], data.SCHLUSS_MEHR,
                                  data.SCHLUSS_GLEICH)
            if mine[code] - theirs[code] >= data.ABSTAND:
                total += data.ABGABE
            elif theirs[code] - mine[code] >= data.ABSTAND:
                total -= data.ABGABE
    return total


def legat_any_half(state: State) -> bool:
    """Whether the Legat in a display at the end gives its two persons whichever half
    shows (the rulebook's words, rules version 2), or only with its Wappen half showing
    (the reading of rules version 1, kept for the games started under it)."""
    return state.get("rules_version") != "1"


def _legat_counts_at_end(state: State, seat: int) -> bool:
    if legat_any_half(state):
        return any(c == data.LEGAT for c, _ in state["display"][seat])
    return any(half_of(c, h).wappen for c, h in state["display"][seat])


def final_counts(state: State) -> tuple[list[dict[str, int]], list[str | None]]:
    """Display counts for the final scoring, with the Legat's two persons added to its
    seat's weakest estate (``legat_any_half``); and the estate they went to."""
    n = state["players"]
    base = [display_counts(state, s) for s in range(n)]
    counts, bonus = [dict(c) for c in base], [None] * n
    for seat in range(n):
        if not _legat_counts_at_end(state, seat):
            continue
        fewest = min(base[seat].values())
        weakest = [code for code in data.STAENDE if base[seat][code] == fewest]
        others = [base[o] for o in range(n) if o != seat]

        def gain(code: str, seat: int = seat, others: list = others) -> int:
            trial = dict(base[seat])
            trial[code] += data.LEGAT_PERSONEN
            return _estate_points(trial, others)

        pick = max(weakest, key=lambda code: (gain(code), -data.STAENDE.index(code)))
        counts[seat][pick] += data.LEGAT_PERSONEN
        bonus[seat] = pick
    return counts, bonus


def tower_counts(state: State, seat: int) -> tuple[dict[str, int], str | None]:
    """Persons of each estate on a seat's tower cards (both halves), with the Legat's
    two persons on the weakest; and the estate those two went to."""
    counts = {code: 0 for code in data.STAENDE}
    legat = False
    for tower in state["towers"][seat]:
        card = data.karte(tower["card"])
        for half in (card.a, card.b):
            legat = legat or half.wappen
            for code, n in half.persons().items():
                counts[code] += n
    if not legat:
        return counts, None
    fewest = min(counts.values())
    pick = next(code for code in data.STAENDE if counts[code] == fewest)
    counts[pick] += data.LEGAT_PERSONEN
    return counts, pick


def tower_value(counts: dict[str, int]) -> tuple[int, str | None]:
    """The count of the most frequent estate on the tower cards, and that estate."""
    best = max(counts.values())
    if best == 0:
        return 0, None
    return best, next(code for code in data.STAENDE if counts[code] == best)


def final_scoring(state: State) -> dict[str, Any]:
    """The Schlusswertung: estate contests, transfers, towers, per seat and in words.

    Returns ``{"gain": [...], "counts": [...], "legat_bonus": [...], "towers": [...],
    "tower_value": [...], "tower_estate": [...], "tower_persons": [...],
    "lines": [[...] per seat]}``; ``gain`` is added to the points.
    """
    n = state["players"]
    counts, bonus = final_counts(state)
    towers = [tower_counts(state, s) for s in range(n)]
    values = [tower_value(t[0]) for t in towers]
    gain = [0] * n
    lines: list[list[str]] = [[] for _ in range(n)]
    for code in data.STAENDE:
        for seat in range(n):
            for other in range(n):
                if other == seat:
                    continue
                mine, theirs = counts[seat][code], counts[other][code]
                points = _pair_points(mine, theirs, data.SCHLUSS_MEHR, data.SCHLUSS_GLEICH)
                gain[seat] += points
                text = f"{estate(code)} {mine} against {{{other}}} {theirs}: +{points}"
                if mine - theirs >= data.ABSTAND:
                    gain[seat] += data.ABGABE
                    gain[other] -= data.ABGABE
                    text += f", and {{{other}}} pays {data.ABGABE} (at least 5 more)"
                elif theirs - mine >= data.ABSTAND:
                    text += f", pays {data.ABGABE} to {{{other}}} (at least 5 fewer)"
                lines[seat].append(text)
    for seat in range(n):
        for other in range(n):
            if other == seat:
                continue
            (mine, code), (theirs, _) = values[seat], values[other]
            points = _pair_points(mine, theirs, data.TURM_MEHR, data.TURM_GLEICH)
            gain[seat] += points
            what = f"{mine} {data.STAND_NAME[code]}" if code else "no tower"
            lines[seat].append(f"Towers: {what} against {{{other}}} {theirs}: +{points}")
    return {
        "gain": gain,
        "counts": counts,
        "legat_bonus": bonus,
        "towers": [t[0] for t in towers],
        "tower_legat_bonus": [t[1] for t in towers],
        "tower_value": [v[0] for v in values],
        "tower_estate": [v[1] for v in values],
        "tower_persons": [sum(t[0].values()) for t in towers],
        "lines": lines,
    }


def _final(state: State) -> None:
    final = final_scoring(state)
    n = state["players"]
    before = list(state["points"])
    for seat in range(n):
        state["points"][seat] += final["gain"][seat]
    final["before"] = before
    state["final"] = final
    state["phase"] = "over"
    state["decision"] += 1
    _event(state, "Nobody has a card left: the final scoring")
    for seat in range(n):
        c = final["counts"][seat]
        parts = ", ".join(count(c[code], code) if c[code] else f"0 {data.STAND_NAME[code]}"
                          for code in data.STAENDE)
        sign = "+" if final["gain"][seat] >= 0 else ""
        _event(state, f"{{{seat}}}: display {parts}; towers {final['tower_value'][seat]}; "
                      f"final scoring {sign}{final['gain'][seat]}, "
                      f"{state['points'][seat]} points")


# -- every card once (positions for tests and tools) ------------------------------------


def cards_problem(state: State) -> str | None:
    """What is wrong with where the cards of ``state`` lie (each seat's set, each card
    once in its hand, pile, display or towers; a start card each), or None."""
    full = sorted(all_cards(state), key=card_key)
    for seat in range(state["players"]):
        held = (state["hand"][seat] + state["pile"][seat]
                + [c for c, _ in state["display"][seat]]
                + [t["card"] for t in state["towers"][seat]])
        if sorted(held, key=card_key) != full:
            return f"seat {seat} does not hold its set of cards, each once: {sorted(held)}"
    if len(state["start"]) != state["players"] or \
            not set(state["start"]) <= set(data.STARTKARTEN):
        return "each seat needs one start card"
    return None
