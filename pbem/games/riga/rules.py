"""Riga's rules as pure functions over a JSON state.

State layout (lists indexed by seat; ``view`` says which parts a seat may
see)::

    game, rules_version, data_version, players, options {"riga": bool}
    seed, draws     the random generator (pbem.games.rng); never shown
    decision        bumped whenever a new turn or decision starts
    year, years     Jahr (from 1) and how many (8; 9 with 3 players)
    season          "setup", "summer" (Sommer), "autumn" (Herbst), "winter", "over"
    phase           "choose_start", "keep", "take", "build", "winter", "over"
    prelim, start   the preliminary start player; the start player (Startspieler)
    revealed        setup: the commodities each seat revealed (public)
    keep_offer      setup: the two buildings each seat drew (private)
    kept            setup: the building each seat keeps (secret until all chose)
    order           this season's turn order; turn_index into it; turn: global count
    current         seat whose turn it is, or None
    hand            [{"waren": {code: k}, "gebaeude": [ids]}] (private)
    display         Auslage: [{"id", "built_turn", "used", "face"}] ("face": Schule
                    "Ritter"/"Kaufmann", Wechselstube 0/8, else None)
    riga_left       Riga buildings not yet erected, per seat (face down, public)
    row             building row (Auslage), oldest first; below: how many of them
                    lie below the separation card (Trenn-Karte)
    sets            commodity sets (Reihen), each a list of codes
    waren_pile, waren_discard, bau_pile, bau_discard, separated (gesonderter
                    Stapel): piles, top = last
    project         the building project in progress: {"stadt", "buildings",
                    "paid": {code: k}, "functions": [display ids]}, or None
    built_this_turn buildings erected this turn (at most 3)
    pending_draw    a Bauhof or Schatzkammer draw waiting for its choice (private)
    sub             a sub-step in progress (a menu group, the Kloster, the Schule,
                    charging the Wechselstube), or None
    log             this year's public events, with {seat} placeholders
    final           per-seat breakdown once over

Readings of the rulebook we chose (the German rulebook is the authority; section
names as in ../shared/rules/riga-de.txt):

* *Start player* (Spielvorbereitung): the preliminary start player is drawn by
  the game's random generator; each seat from there clockwise reveals
  commodities until their value reaches 6; the lowest total names the start
  player; among several lowest the one nearest clockwise from the preliminary
  start player (itself included) names it.
* *Keeping a building*: the two buildings are drawn at setup; each seat keeps
  one in secret, all at once; the other goes face down to the discard pile.
* *Years by the separated pile*: the top 8 (9 with 3 players) buildings are set
  apart after the keep; each spring the first new building of the row comes
  from it, or, when no building is needed, its top card goes onto the draw pile;
  the year in which it becomes empty is the last ("Ist der gesonderte Stapel
  leer, beginnt das letzte Jahr"), so the game has exactly 8 (9) years.
* *Sets in spring*: the sets left over stay and new sets are dealt until there
  are 2 more than players; with the Riga buildings a leftover set under 9 (after
  a Kloster swap) is topped up first.  When both commodity piles are empty a
  set stays short.
* *Functions* count from the owner's next turn on (``built_turn`` < ``turn``),
  knights and merchants too; the player right of the start player has two
  turns back to back, and a building of the summer turn counts in the autumn
  turn.  The Speicher raises the hand limit in the winter after it was built
  (winter is no turn).
* *Paying* (Gebäude bauen): one project at a time, of one or more buildings of
  one city (Riga's buildings are one city), at most 3 buildings a turn; cards
  are paid one by one and only while the paid value is below the cost, so only
  the last card can be worth more than needed (surplus lost, "kein
  Wechselgeld").  ``cancel`` takes every card and function back.
* *Kran* halves one building's cost, rounded up (7 becomes 4): "Kran: Du darfst
  die Baukosten eines Gebäudes halbieren (1x)" says nothing of an odd cost, and
  rounding up leaves the payer at least half.  The option ``kran_abrunden``
  (a variant) rounds down instead (7 becomes 3); test: test_riga_rules.py,
  test_a_kran_halves_an_odd_cost_rounded_up_or_down_with_the_option.  In a
  project each Kran halves the most expensive building without a Kran so far,
  the best use, so the order of use does not matter; one Kran per building.
* *Manufactur*: +1 per card of its commodity paid where that commodity is
  usable (also through a Markthalle of it); several Manufacturen of one
  commodity add +1 each.  *Markthalle*: its commodity pays where the card shows
  "–", at its regular value (+1 per Manufactur of it).
* *Bank / Wirtshaus* give 2 per merchant / knight that counts now.
* *Bauhof*: "Du ziehst 5 Gebäude vom Stapel … Sind weniger als 5 Gebäude
  vorhanden, ziehst Du alle Gebäude."  Drawing follows the general rule "Ist
  der Nachziehstapel leer, mischt den Ablagestapel und macht ihn zum neuen
  Nachziehstapel": a pile that runs out mid-draw is refilled from the discard
  pile, so fewer than 5 are drawn only when pile and discard pile together
  hold fewer than 5 ("vorhanden": there to draw; rules version 2).  Rules
  version 1 drew only what lay on the pile (1 on the pile drew 1, though an
  empty pile was refilled and drew 5); games started under it keep that, and
  the option ``bauhof_nur_stapel`` (a variant) plays it; test:
  test_riga_rules.py, test_a_bauhof_draws_5_refilling_the_pile_from_the_discards.
  Keeping one is optional ("darfst").  *Schatzkammer*: 3 commodities, one must
  be kept.  Both are private draws.
* *Kloster* (1x): in the take phase, swap one card of one set with a card of a
  different commodity in another set, then take one of these two sets.
* *Wechselstube*: built showing 0; at the end of a later turn the owner may
  discard commodities of regular value 6 or more to turn it to 8, which ends
  the turn; in a later turn its 8 Dukaten pay towards a project, and it may be
  charged again in that same turn.
* *Winter*: all seats over their limit discard at once, in public, one card a
  step; wares by name, buildings face down.  The last year has its winter too
  (the rulebook checks the end only after the winter: "Ist das Spielende noch
  nicht erreicht, wird das nächste Jahr … begonnen").
* *Nothing to take*: a turn whose row and sets are both empty (only when every
  pile is exhausted) starts in the build phase.
* *A forced step* (only ``end`` left, one kind of card to discard, one kind of
  commodity drawn) is a formality the server plays at once.
* *Tie-break money*: regular value of hand commodities plus unused benefits:
  Kontor 4, Bank 2 per merchant, Wirtshaus 2 per knight, a Wechselstube showing 8.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

from pbem.games.protocol import MENU_CAP, IllegalMoveError, State
from pbem.games.riga import data
from pbem.games.riga.moves import (
    BACK,
    CANCEL,
    CHARGE,
    END,
    FINISH,
    KLOSTER,
    MORE,
    Add,
    Back,
    Build,
    Cancel,
    Charge,
    Choose,
    Discard,
    End,
    Finish,
    Get,
    Give,
    Keep,
    Kloster,
    Menu,
    More,
    Move,
    Pay,
    School,
    Start,
    SwapFrom,
    SwapTo,
    Take,
    TakeSet,
    Use,
)
from pbem.games.rng import choice_index, deal, reseeded, shuffled

RULES_VERSION = "2"
#: the older rules versions a game may have started with (see ``bauhof_nur_stapel``)
OLDER_RULES_VERSIONS = ("1",)
#: the options of rules version 1, the only ones its states keep
V1_OPTIONS = ("riga",)

#: moves per page of a menu group that does not fit one step
PAGE = 10
MONEY_ARTS = ("Kontor", "Bank", "Wirtshaus", "Kran", "Wechselstube")
DRAW_ARTS = ("Bauhof", "Schatzkammer")
SCHOOL_FACES = ("Ritter", "Kaufmann")
#: a commodity discarded (in winter, for the Wechselstube), made once: a winter's menus
#: list them at every call, and a move is a value
DISCARD_WARE = {w: Discard(w) for w in data.WAREN}


# -- setup ------------------------------------------------------------------------------


def years_for(players: int) -> int:
    return 9 if players == 3 else 8


def new_state(players: int, options: dict[str, Any], seed: str,
              rules_version: str = RULES_VERSION) -> State:
    """The state before the first move; a game of an older ``rules_version`` keeps the
    options that version had (the readings it lacks an option for are its own)."""
    n = players
    if rules_version == "1":
        options = {k: v for k, v in options.items() if k in V1_OPTIONS}
    state: State = {
        "game": "riga", "rules_version": rules_version, "data_version": data.DATA_VERSION,
        "players": n, "options": dict(options), "seed": seed, "draws": 0, "decision": 0,
        "year": 0, "years": years_for(n), "season": "setup", "phase": "choose_start",
        "prelim": 0, "start": 0, "revealed": [[] for _ in range(n)],
        "keep_offer": [[] for _ in range(n)], "kept": [None] * n,
        "order": [], "turn_index": 0, "turn": 0, "current": None,
        "hand": [{"waren": {w: 0 for w in data.WAREN}, "gebaeude": []} for _ in range(n)],
        "display": [[] for _ in range(n)],
        "riga_left": [list(data.RIGA_ARTEN) if options.get("riga") else [] for _ in range(n)],
        "row": [], "below": 0, "sets": [],
        "waren_pile": [], "waren_discard": [], "bau_pile": [], "bau_discard": [],
        "separated": [],
        "project": None, "built_this_turn": 0, "pending_draw": None, "sub": None,
        "log": [], "final": None,
    }
    waren = [w for w in data.WAREN for _ in range(data.ANZAHL[w])]
    state["waren_pile"] = shuffled(state, waren)
    state["bau_pile"] = shuffled(state, sorted(data.GEBAEUDE))
    prelim = choice_index(state, n)
    state["prelim"] = prelim
    _event(state, f"{{{prelim}}} is the preliminary start player")
    totals = {}
    for step in range(n):
        seat = (prelim + step) % n
        total = 0
        while total < data.START_MINDESTWERT:
            ware = _draw_ware(state)
            if ware is None:
                break
            state["revealed"][seat].append(ware)
            state["hand"][seat]["waren"][ware] += 1
            total += data.WERT[ware]
        totals[seat] = total
        shown = ", ".join(data.WARE_NAME[w] for w in state["revealed"][seat])
        _event(state, f"{{{seat}}} reveals {shown} (value {total})")
    lowest = min(totals.values())
    chooser = next((prelim + step) % n for step in range(n)
                   if totals[(prelim + step) % n] == lowest)
    state["current"] = chooser
    for seat in range(n):
        state["keep_offer"][seat] = [state["bau_pile"].pop(), state["bau_pile"].pop()]
    _event(state, f"{{{chooser}}} has the lowest total and names the start player")
    return state


def _clone(value: Any) -> Any:
    # a state is JSON: dicts, lists and scalars; this is several times faster than deepcopy
    if type(value) is dict:
        return {k: _clone(v) for k, v in value.items()}
    if type(value) is list:
        return [_clone(v) for v in value]
    return value


#: the parts of the state that are lists of scalars, and lists of such lists (the
#: layout above); ``_copy`` copies them, the hands and the displays as deep as they go
_FLAT = frozenset({"order", "kept", "row", "waren_pile", "waren_discard", "bau_pile",
                   "bau_discard", "separated", "log"})
_NESTED = frozenset({"revealed", "keep_offer", "riga_left", "sets"})


def _copy(state: State) -> State:
    """A copy of ``state`` that ``apply`` may change, each part as deep as its layout goes
    (a sixth of ``_clone``'s cost, which was most of a replayed move's); any other part
    (a project, a draw, a new part) whole by ``_clone``."""
    new = {}
    for key, value in state.items():
        if type(value) is not list:
            new[key] = _clone(value) if type(value) is dict else value
        elif key in _FLAT:
            new[key] = value[:]
        elif key in _NESTED:
            new[key] = [inner[:] for inner in value]
        elif key == "hand":  # per seat: {"waren": {code: k}, "gebaeude": [ids]}
            new[key] = [{part: cards.copy() for part, cards in hand.items()} for hand in value]
        elif key == "display":  # per seat: its buildings, each a dict of scalars
            new[key] = [[building.copy() for building in row] for row in value]
        else:
            new[key] = _clone(value)
    return new


def _event(state: State, text: str) -> None:
    state["log"].append(text)


# -- determinization ---------------------------------------------------------------------

_PILES_WAREN = ("waren_pile", "waren_discard")
_PILES_BAU = ("bau_pile", "bau_discard", "separated")


def determinize(state: State, seat: int, chance: random.Random) -> State:
    """The state as ``seat`` might take it to be.

    Hidden from it: the rivals' hands (commodities and buildings apart, their counts
    are public), a rival's two setup buildings and which it keeps, a rival's Bauhof or
    Schatzkammer draw, and every pile.  Those commodities and those buildings are two
    pools, dealt anew to the same places in the same numbers; the commodities a rival
    revealed at setup stay in its hand while the setup lasts (everyone saw them).
    """
    new = _copy(state)
    new["seed"] = reseeded(chance)
    if state["phase"] == "over":
        return new
    n = state["players"]
    rivals = [s for s in range(n) if s != seat]
    setup = state["phase"] in ("choose_start", "keep")
    draw = state["pending_draw"]
    rival_draw = draw is not None and state["current"] != seat
    waren_pool: list[str] = []
    bau_pool: list[str] = []
    waren_sizes: list[int] = []
    bau_sizes: list[int] = []
    for s in rivals:
        hand = state["hand"][s]
        known = _revealed_counts(state, s) if setup else {}
        hidden = [w for w, k in hand["waren"].items() for _ in range(k - known.get(w, 0))]
        waren_pool += hidden
        waren_sizes.append(len(hidden))
        # after the setup the offer is history, its cards in hands and piles
        offer = state["keep_offer"][s] if setup else []
        bau_pool += hand["gebaeude"] + offer
        bau_sizes += [len(hand["gebaeude"]), len(offer)]
    if rival_draw:
        (bau_pool if draw["kind"] == "Bauhof" else waren_pool).extend(draw["cards"])
        (bau_sizes if draw["kind"] == "Bauhof" else waren_sizes).append(len(draw["cards"]))
    for key in _PILES_WAREN:
        waren_pool += state[key]
        waren_sizes.append(len(state[key]))
    for key in _PILES_BAU:
        bau_pool += state[key]
        bau_sizes.append(len(state[key]))
    waren = iter(deal(waren_pool, waren_sizes, chance))
    bau = iter(deal(bau_pool, bau_sizes, chance))
    for s in rivals:
        counts = dict.fromkeys(state["hand"][s]["waren"], 0)
        if setup:
            for w, k in _revealed_counts(state, s).items():
                counts[w] += k
        for w in next(waren):
            counts[w] += 1
        new["hand"][s] = {"waren": counts, "gebaeude": next(bau)}
        new["keep_offer"][s] = next(bau)
        kept = state["kept"][s]
        new["kept"][s] = chance.choice(new["keep_offer"][s]) if setup and kept else None
    if rival_draw:
        new["pending_draw"]["cards"] = next(bau if draw["kind"] == "Bauhof" else waren)
    for key in _PILES_WAREN:
        new[key] = next(waren)
    for key in _PILES_BAU:
        new[key] = next(bau)
    return new


def _revealed_counts(state: State, seat: int) -> dict[str, int]:
    counts: dict[str, int] = {}
    for w in state["revealed"][seat]:
        counts[w] = counts.get(w, 0) + 1
    return counts


# -- piles ------------------------------------------------------------------------------


def _draw_ware(state: State) -> str | None:
    if not state["waren_pile"]:
        if not state["waren_discard"]:
            return None
        state["waren_pile"] = shuffled(state, sorted(state["waren_discard"]))
        state["waren_discard"] = []
    return state["waren_pile"].pop()


def _draw_building(state: State) -> str | None:
    if not state["bau_pile"]:
        if not state["bau_discard"]:
            return None
        state["bau_pile"] = shuffled(state, sorted(state["bau_discard"]))
        state["bau_discard"] = []
    return state["bau_pile"].pop()


# -- facts about a seat ---------------------------------------------------------------------


def set_value(cards: list[str]) -> int:
    # each set of every view, menu and spring: the values looked up in one C loop
    return sum(map(data.WERT.__getitem__, cards))


def hand_count(state: State, seat: int) -> int:
    hand = state["hand"][seat]
    return sum(hand["waren"].values()) + len(hand["gebaeude"])


def hand_limit(state: State, seat: int) -> int:
    built = any(e["id"] == "Speicher" for e in state["display"][seat])
    return data.HANDLIMIT_SPEICHER if built else data.HANDLIMIT


def is_active(state: State, entry: dict[str, Any]) -> bool:
    """A building's function, knights and merchants count from its owner's next turn."""
    return entry["built_turn"] < state["turn"] or state["phase"] in ("over", "winter")


def persons(state: State, seat: int, active_only: bool = True) -> tuple[int, int]:
    """(Ritter, Kaufleute) of a seat's display; only those that count now by default."""
    # asked at every menu, score and view: by the arts' table, ``is_active`` inlined
    r = k = 0
    turn = state["turn"] if active_only and state["phase"] not in ("over", "winter") else None
    personen = data.PERSONEN
    for e in state["display"][seat]:
        if turn is not None and e["built_turn"] >= turn:
            continue
        ident = e["id"]
        ritter, kaufleute = personen[ident]
        r += ritter
        k += kaufleute
        if ident == "Schule":
            r += e["face"] == "Ritter"
            k += e["face"] == "Kaufmann"
    return r, k


def _active_arts(state: State, seat: int, art: str) -> list[dict[str, Any]]:
    art_von = data.ART_VON
    return [e for e in state["display"][seat] if art_von[e["id"]] == art and is_active(state, e)]


def ware_value(state: State, seat: int, ware: str, stadt: str) -> int | None:
    """What one card of ``ware`` pays towards a building of ``stadt``; None: unusable."""
    base = data.STADTWERT[stadt][ware]
    # one pass over the display for both arts (asked for each commodity at every menu)
    art_von = data.ART_VON
    markthalle = False
    bonus = 0
    for e in state["display"][seat]:
        art = art_von[e["id"]]
        if (art == "Manufactur" or art == "Markthalle") and is_active(state, e) \
                and data.gebaeude(e["id"]).ware == ware:
            if art == "Manufactur":
                bonus += 1
            else:
                markthalle = True
    if base is None:
        if not markthalle:
            return None
        base = data.WERT[ware]
    return base + bonus


def function_money(state: State, seat: int, art: str) -> int:
    r, k = persons(state, seat)
    return {"Kontor": data.KONTOR_DUKATEN, "Bank": data.BANK_JE_KAUFMANN * k,
            "Wirtshaus": data.WIRTSHAUS_JE_RITTER * r,
            "Wechselstube": data.WECHSELSTUBE_DUKATEN, "Kran": 0}[art]


def unused_function(state: State, seat: int, art: str,
                    taken: list[str] | None = None) -> str | None:
    """The first display building of ``art`` whose function can be used now."""
    taken = taken or []
    for e in _active_arts(state, seat, art):
        if e["id"] in taken:
            continue
        if art == "Wechselstube":
            if e["face"] == data.WECHSELSTUBE_DUKATEN:
                return e["id"]
        elif art in data.EINMALIG and not e["used"]:
            return e["id"]
    return None


def _entry(state: State, seat: int, ident: str) -> dict[str, Any]:
    return next(e for e in state["display"][seat] if e["id"] == ident)


def kran_abrunden(state: State) -> bool:
    """Whether a Kran rounds an odd cost down (the variant), not up."""
    return bool(state["options"].get("kran_abrunden", False))


def bauhof_nur_stapel(state: State) -> bool:
    """Whether a Bauhof draws only what lies on the draw pile (rules version 1, and the
    variant), not 5 from pile and discard pile together."""
    return bool(state["options"].get("bauhof_nur_stapel", state["rules_version"] == "1"))


def _with_krans(state: State, costs: list[int], krans: int) -> int:
    """The cost of buildings costing ``costs`` with ``krans`` Krans, each halving the
    most expensive building without one (an odd cost rounded up; down with
    ``kran_abrunden``)."""
    down = kran_abrunden(state)
    ordered = sorted(costs, reverse=True)
    return sum((c // 2 if down else (c + 1) // 2) if i < krans else c
               for i, c in enumerate(ordered))


def project_cost(state: State, project: dict[str, Any]) -> int:
    """Total cost of the project's buildings, each Kran halving the most expensive
    building without one (``_with_krans``)."""
    return _with_krans(state, [data.gebaeude(b).kosten for b in project["buildings"]],
                       project_krans(project))


def project_krans(project: dict[str, Any]) -> int:
    """How many Krans the project uses."""
    return sum(1 for f in project["functions"] if data.ART_VON[f] == "Kran")


def project_paid(state: State, seat: int, project: dict[str, Any]) -> int:
    total = 0
    for ware, k in project["paid"].items():
        if k:
            total += k * (ware_value(state, seat, ware, project["stadt"]) or 0)
    for f in project["functions"]:
        total += function_money(state, seat, data.ART_VON[f])
    return total


def max_money(state: State, seat: int, stadt: str, ids: list[str]) -> tuple[int, int]:
    """(money that could be raised for ``ids`` of ``stadt`` from hand and functions,
    their cost with every usable Kran): whether such a project can be paid at all."""
    money = 0
    for ware, k in state["hand"][seat]["waren"].items():
        if k:
            value = ware_value(state, seat, ware, stadt)
            if value:
                money += k * value
    # asked for every building of every menu: the display once, for every money art
    krans = 0
    art_von = data.ART_VON
    for e in state["display"][seat]:
        art = art_von[e["id"]]
        if art not in MONEY_ARTS or not is_active(state, e):
            continue
        if art == "Wechselstube":
            money += data.WECHSELSTUBE_DUKATEN if e["face"] == data.WECHSELSTUBE_DUKATEN else 0
        elif not e["used"]:
            if art == "Kran":
                krans += 1
            else:
                money += function_money(state, seat, art)
    return money, _with_krans(state, [data.gebaeude(b).kosten for b in ids], krans)


def affordable(state: State, seat: int, stadt: str, ids: list[str]) -> bool:
    money, cost = max_money(state, seat, stadt, ids)
    return money >= cost


def stadt_of(ident: str) -> str:
    return data.gebaeude(ident).stadt


# -- scores -------------------------------------------------------------------------------


def score_parts(state: State, seat: int) -> dict[str, int]:
    """The final scoring of a seat as it would stand now."""
    # every view scores every seat: one pass over the display
    seals = archive = logen = 0
    for e in state["display"][seat]:
        g = data.gebaeude(e["id"])
        seals += g.punkte
        archive += g.art == "Archiv"
        logen += g.art == "Loge"
    r, k = persons(state, seat, active_only=False)
    sets = min(r, k, data.ARCHIV_MAX_SETS)
    return {
        "seals": seals,
        "archiv": archive * data.ARCHIV_JE_SET * sets,
        "loge": data.LOGE_PUNKTE[logen],
        "hand": -data.MINUS_HAND * len(state["hand"][seat]["gebaeude"]),
        "riga": -data.MINUS_RIGA * len(state["riga_left"][seat]),
    }


def score(state: State, seat: int) -> int:
    return sum(score_parts(state, seat).values())


def money(state: State, seat: int) -> int:
    """Tie-break: regular value of hand commodities plus unused benefits."""
    total = sum(data.WERT[w] * k for w, k in state["hand"][seat]["waren"].items())
    r, k = persons(state, seat, active_only=False)
    for e in state["display"][seat]:
        art = data.ART_VON[e["id"]]
        if art == "Wechselstube":
            total += data.WECHSELSTUBE_DUKATEN if e["face"] == data.WECHSELSTUBE_DUKATEN else 0
        elif not e["used"]:
            total += {"Kontor": data.KONTOR_DUKATEN, "Bank": data.BANK_JE_KAUFMANN * k,
                      "Wirtshaus": data.WIRTSHAUS_JE_RITTER * r}.get(art, 0)
    return total


# -- who moves -------------------------------------------------------------------------------


def to_move(state: State) -> list[int]:
    phase = state["phase"]
    if phase == "over":
        return []
    if phase == "keep":
        return [s for s in range(state["players"]) if state["kept"][s] is None]
    if phase == "winter":
        return [s for s in range(state["players"]) if _over_limit(state, s)]
    return [state["current"]]


def is_to_move(state: State, seat: int) -> bool:
    """``seat in to_move(state)``: each menu, move and page asks it of one seat, in
    winter a dozen times a click (each seat's cards counted for one)."""
    if state["phase"] == "winter":
        return seat in range(state["players"]) and _over_limit(state, seat)
    return seat in to_move(state)


def _over_limit(state: State, seat: int) -> bool:
    """Whether ``seat`` holds more cards than its limit (it discards in winter)."""
    # the cards counted here, and the Speicher looked for only past the lower limit (it
    # can only raise the limit)
    hand = state["hand"][seat]
    held = sum(hand["waren"].values()) + len(hand["gebaeude"])
    return held > data.HANDLIMIT and held > hand_limit(state, seat)


def is_secret(state: State) -> bool:
    return state["phase"] == "keep"


# -- menus ------------------------------------------------------------------------------------

Entry = tuple[Move, str]  # (move, group); group "" is never folded away


def _entries(state: State, seat: int) -> list[Entry]:
    """Every legal move of ``seat`` with the group it folds into when the menu is long."""
    if not is_to_move(state, seat):
        return []
    return _mover_entries(state, seat)


def _mover_entries(state: State, seat: int) -> list[Entry]:
    """``_entries`` of a seat that is to move (``apply`` has asked already)."""
    phase = state["phase"]
    n = state["players"]
    if phase == "choose_start":
        return [(Start(k), "") for k in range(n)]
    if phase == "keep":
        return [(Keep(b), "") for b in state["keep_offer"][seat]]
    if phase == "winter":
        hand = state["hand"][seat]
        out: list[Entry] = [(DISCARD_WARE[w], "") for w in data.WAREN if hand["waren"][w]]
        out += [(Discard(b), "buildings") for b in sorted(set(hand["gebaeude"]))]
        return out
    draw = state["pending_draw"]
    if draw is not None:
        if draw["kind"] == "Bauhof":
            return [(Choose(b), "") for b in draw["cards"]] + [(Choose(None), "")]
        return [(Choose(w), "") for w in data.WAREN if w in draw["cards"]]
    sub = state["sub"] or {}
    kind = sub.get("kind")
    if kind == "school":
        return [(School(f), "") for f in SCHOOL_FACES]
    if kind == "charge":
        hand = state["hand"][seat]["waren"]
        return [(DISCARD_WARE[w], "") for w in data.WAREN if hand[w]] + [(CANCEL, "")]
    if kind == "kloster":
        return _kloster_entries(state, sub)
    if kind == "kloster_take":
        return [(TakeSet(k), "") for k in sub["sets"]]
    if phase == "take":
        return _take_entries(state, seat)
    if state["project"] is None:
        return _build_entries(state, seat)
    return _project_entries(state, seat)


def _take_entries(state: State, seat: int) -> list[Entry]:
    """The take phase: a building of the row, a set, the Kloster, a draw."""
    out: list[Entry] = [(Take(b), "row") for b in state["row"]]
    out += [(TakeSet(k), "sets") for k in range(len(state["sets"]))]
    if _kloster_swaps(state) and unused_function(state, seat, "Kloster"):
        out.append((KLOSTER, "functions"))
    out += _draw_entries(state, seat)
    return out


def _build_entries(state: State, seat: int) -> list[Entry]:
    """The build phase without a project: a building to start, a draw, charge, end."""
    out: list[Entry] = []
    left = data.MAX_BAUTEN - state["built_this_turn"]
    if left > 0:
        for b in sorted(set(state["hand"][seat]["gebaeude"])):
            if affordable(state, seat, stadt_of(b), [b]):
                out.append((Build(b), stadt_of(b)))
        for b in state["riga_left"][seat]:
            if affordable(state, seat, data.RIGA, [b]):
                out.append((Build(b), data.RIGA))
    out += _draw_entries(state, seat)
    if _can_charge(state, seat):
        out.append((CHARGE, ""))
    out.append((END, ""))
    return out


def _project_entries(state: State, seat: int) -> list[Entry]:
    """A project in progress: pay, use a function, finish, cancel, add, draw."""
    out: list[Entry] = []
    project = state["project"]
    stadt = project["stadt"]
    cost = project_cost(state, project)
    paid = project_paid(state, seat, project)
    hand = state["hand"][seat]
    if paid < cost:
        out += [(Pay(w), "") for w in data.WAREN
                if hand["waren"][w] and ware_value(state, seat, w, stadt)]
        for art in MONEY_ARTS:
            if unused_function(state, seat, art, project["functions"]) is None:
                continue
            if art == "Kran":
                if project_krans(project) >= len(project["buildings"]):
                    continue
            elif function_money(state, seat, art) <= 0:
                continue
            out.append((Use(art), "functions"))
    else:
        out.append((FINISH, ""))
    out.append((CANCEL, ""))
    if state["built_this_turn"] + len(project["buildings"]) < data.MAX_BAUTEN:
        pool = (state["riga_left"][seat] if stadt == data.RIGA
                else sorted(set(state["hand"][seat]["gebaeude"])))
        # the cards already paid count towards the larger project too
        paid_cards = sum(k * (ware_value(state, seat, w, stadt) or 0)
                         for w, k in project["paid"].items())
        for b in pool:
            if stadt_of(b) == stadt and b not in project["buildings"]:
                money, total = max_money(state, seat, stadt, project["buildings"] + [b])
                if money + paid_cards >= total:
                    out.append((Add(b), "add"))
    out += _draw_entries(state, seat)
    return out


def _draw_entries(state: State, seat: int) -> list[Entry]:
    out: list[Entry] = []
    if unused_function(state, seat, "Bauhof") and (state["bau_pile"] or state["bau_discard"]):
        out.append((Use("Bauhof"), "functions"))
    if unused_function(state, seat, "Schatzkammer") and (
            state["waren_pile"] or state["waren_discard"]):
        out.append((Use("Schatzkammer"), "functions"))
    return out


def _can_charge(state: State, seat: int) -> bool:
    for e in _active_arts(state, seat, "Wechselstube"):
        if e["face"] != data.WECHSELSTUBE_DUKATEN:
            hand = state["hand"][seat]["waren"]
            return sum(data.WERT[w] * k for w, k in hand.items()) >= data.WECHSELSTUBE_ABWURF
    return False


def _kloster_swaps(state: State) -> bool:
    """Whether two sets hold cards of different commodities (a swap that changes anything)."""
    kinds = [set(s) for s in state["sets"]]
    return any(len(a | b) > 1 for i, a in enumerate(kinds) for b in kinds[i + 1:])


def _kloster_entries(state: State, sub: dict[str, Any]) -> list[Entry]:
    sets = state["sets"]
    if sub.get("from") is None:
        out: list[Entry] = [(SwapFrom(k), "") for k in range(len(sets))
               if any(set(sets[j]) - {w} for w in set(sets[k])
                      for j in range(len(sets)) if j != k)]
    elif sub.get("give") is None:
        k = sub["from"]
        out = [(Give(w), "") for w in data.WAREN if w in sets[k]
               and any(set(sets[j]) - {w} for j in range(len(sets)) if j != k)]
    elif sub.get("to") is None:
        out = [(SwapTo(j), "") for j in range(len(sets))
               if j != sub["from"] and set(sets[j]) - {sub["give"]}]
    else:
        out = [(Get(w), "") for w in data.WAREN
               if w in sets[sub["to"]] and w != sub["give"]]
    return out + [(BACK, "")]


def _fold(entries: list[Entry]) -> tuple[list[Move], dict[str, list[Move]]]:
    """The top-level menu (groups folded into ``menu <group>`` until it fits) and the
    moves of each folded group."""
    if len(entries) <= MENU_CAP:  # most menus: nothing to fold
        return [move for move, _ in entries], {}
    groups: dict[str, list[Move]] = {}
    for move, group in entries:
        if group:
            groups.setdefault(group, []).append(move)
    folded: set[str] = set()
    size = len(entries)
    for group in sorted(groups, key=lambda g: (-len(groups[g]), g)):
        if size <= MENU_CAP:
            break
        if len(groups[group]) > 1:
            folded.add(group)
            size -= len(groups[group]) - 1
    top: list[Move] = []
    for move, group in entries:
        if group in folded:
            header = Menu(group)
            if header not in top:
                top.append(header)
        else:
            top.append(move)
    return top, {g: groups[g] for g in folded}


def _page(moves: list[Move], page: int) -> list[Move]:
    if len(moves) <= MENU_CAP - 1:
        return moves + [BACK]
    pages = (len(moves) + PAGE - 1) // PAGE
    return moves[(page % pages) * PAGE:(page % pages + 1) * PAGE] + [MORE, BACK]


def legal(state: State, seat: int) -> list[Move]:
    """The moves of ``seat`` as its menu lists them now (a long menu folded into steps)."""
    return _listed(state, _entries(state, seat))


def formality(state: State, seat: int) -> Move | None:
    """The seat's only move where playing it is a mere formality (nothing left to build:
    ``end``; one kind of card to discard; the one card a draw offers, or its school); a
    menu step or the take never is."""
    sub = (state["sub"] or {}).get("kind")
    if state["phase"] == "take" and state["pending_draw"] is None and sub in (None, "menu"):
        # the take offers the row and the sets (or a page of them): never such a move,
        # known without listing them, which every move that ends a turn asked
        return None
    moves = legal(state, seat)
    if len(moves) == 1 and isinstance(moves[0], End | Discard | Choose | School):
        return moves[0]
    return None


def every_move(state: State, seat: int) -> list[Move]:
    """Every legal move of ``seat``, also those folded into a smaller menu."""
    return [move for move, _ in _entries(state, seat)]


def _listed(state: State, entries: list[Entry]) -> list[Move]:
    if not entries:
        return []
    top, groups = _fold(entries)
    sub = state["sub"] or {}
    if sub.get("kind") == "menu" and sub["group"] in groups:
        return _page(groups[sub["group"]], sub["page"])
    return top


def route(state: State, seat: int, move: Move) -> Move:
    """The listed move that leads towards ``move`` (itself when listed): for a bot
    that chose among all legal moves."""
    listed = legal(state, seat)
    if move in listed:
        return move
    top, groups = _fold(_entries(state, seat))
    sub = state["sub"] or {}
    if sub.get("kind") == "menu" and sub["group"] in groups:
        if move in groups[sub["group"]] and MORE in listed:
            return MORE
        return BACK
    for group, moves in groups.items():
        if move in moves:
            return Menu(group)
    raise IllegalMoveError(f"{move.notation()!r} is not a legal move now")


# -- apply ----------------------------------------------------------------------------------


def apply(state: State, seat: int, move: Move) -> State:
    if not isinstance(seat, int) or not 0 <= seat < state["players"]:
        raise IllegalMoveError(f"there is no seat {seat} in this game")
    if not is_to_move(state, seat):
        raise IllegalMoveError(_why_not_to_move(state, seat))
    entries = _mover_entries(state, seat)
    # a move of the whole list, or a step of the folded menu (``menu``, ``more``, ``back``):
    # looked up in the lists (a few moves), not hashed into a set
    if move not in [m for m, _ in entries] and move not in _listed(state, entries):
        raise IllegalMoveError(_why_not(state, seat, move))
    return apply_played(state, seat, move)


def apply_played(state: State, seat: int, move: Move) -> State:
    """``apply`` of a move that ``apply`` accepted when it was played, unchecked: building
    the menu to look the move up costs as much as playing it."""
    new = _copy(state)
    if isinstance(move, Menu | More | Back) and not (new["sub"] or {}).get("kind") == "kloster":
        _navigate(new, seat, move)
        return new
    if (new["sub"] or {}).get("kind") == "menu":
        new["sub"] = None
    _HANDLERS[type(move)](new, seat, move)
    return new


def _why_not_to_move(state: State, seat: int) -> str:
    phase = state["phase"]
    if phase == "over":
        return "the game is over"
    if phase == "keep":
        return f"seat {seat} has already kept a building; the others still choose"
    if phase == "winter":
        return (f"seat {seat} holds no more cards than its limit and has nothing to "
                "discard in winter")
    return f"it is not the turn of seat {seat}"


def _why_not(state: State, seat: int, move: Move) -> str:
    listed = ", ".join(m.notation() for m in legal(state, seat))
    return f"{move.notation()!r} is not allowed now; the choices are: {listed}"


def _navigate(state: State, seat: int, move: Menu | More | Back) -> None:
    sub = state["sub"] or {}
    if isinstance(move, Menu):
        state["sub"] = {"kind": "menu", "group": move.group, "page": 0}
    elif isinstance(move, More):
        state["sub"] = dict(sub, page=sub.get("page", 0) + 1)
    else:
        state["sub"] = None


def _start(state: State, seat: int, move: Start) -> None:
    start = move.seat
    state["start"] = start
    state["current"] = None
    state["phase"] = "keep"
    state["decision"] += 1
    _event(state, f"{{{seat}}} names {{{start}}} start player")


def _keep(state: State, seat: int, move: Keep) -> None:
    state["kept"][seat] = move.building
    if to_move(state):
        return
    for s in range(state["players"]):
        kept = state["kept"][s]
        state["hand"][s]["gebaeude"].append(kept)
        state["bau_discard"] += [b for b in state["keep_offer"][s] if b != kept]
    _event(state, "Everyone keeps one of their two buildings and discards the other")
    years = state["years"]
    state["separated"] = [state["bau_pile"].pop() for _ in range(years)][::-1]
    _spring(state)


def _top_up(state: State, cards: list[str]) -> None:
    """Cards drawn onto the set ``cards`` until it is worth the minimum (``set_value``
    added up as they come, not summed again for each card)."""
    value = set_value(cards)
    pile, wert, least = state["waren_pile"], data.WERT, data.REIHE_MINDESTWERT
    while value < least:
        # the top card taken here (a spring deals some fifteen: a call each was a sixth of
        # a year's end); ``_draw_ware`` only for an empty pile, which it refills
        if pile:
            ware = pile.pop()
        else:
            ware = _draw_ware(state)
            if ware is None:
                break
            pile = state["waren_pile"]
        cards.append(ware)
        value += wert[ware]


def _spring(state: State) -> None:
    n = state["players"]
    state["year"] += 1
    state["log"] = []
    _event(state, f"Year {state['year']}: spring")
    # commodity sets: top up short ones (after a Kloster swap), then deal new ones
    for cards in state["sets"]:
        _top_up(state, cards)
    while len(state["sets"]) < n + 2:
        cards = []
        _top_up(state, cards)
        if not cards:
            break
        state["sets"].append(cards)
    # buildings: those below the separation card go, the rest slide below it
    below = state["row"][:state["below"]]
    state["bau_discard"] += below
    state["row"] = state["row"][state["below"]:]
    state["below"] = len(state["row"])
    needed = n + 2 - len(state["row"])
    if needed > 0:
        if state["separated"]:
            state["row"].append(state["separated"].pop())
            needed -= 1
        for _ in range(needed):
            b = _draw_building(state)
            if b is None:
                break
            state["row"].append(b)
    elif state["separated"]:
        state["bau_pile"].append(state["separated"].pop())
    _event(state, f"{len(state['sets'])} sets and {len(state['row'])} buildings lie out; "
                  f"{len(state['separated'])} cards left on the separated pile")
    state["season"] = "summer"
    state["order"] = [(state["start"] + k) % n for k in range(n)]
    state["turn_index"] = 0
    _start_turn(state)


def _start_turn(state: State) -> None:
    state["turn"] += 1
    state["decision"] += 1
    state["current"] = state["order"][state["turn_index"]]
    state["phase"] = "take" if state["row"] or state["sets"] else "build"
    state["project"] = None
    state["built_this_turn"] = 0
    state["pending_draw"] = None
    state["sub"] = None


def _next_turn(state: State) -> None:
    state["turn_index"] += 1
    if state["turn_index"] < len(state["order"]):
        _start_turn(state)
        return
    if state["season"] == "summer":
        state["season"] = "autumn"
        state["order"] = state["order"][::-1]
        state["turn_index"] = 0
        _start_turn(state)
        return
    state["season"] = "winter"
    state["phase"] = "winter"
    state["current"] = None
    state["decision"] += 1
    _event(state, "Winter: hand limit")
    if not to_move(state):
        _end_year(state)


def _end_year(state: State) -> None:
    n = state["players"]
    state["start"] = (state["start"] + 1) % n
    if not state["separated"]:
        _final(state)
        return
    _event(state, f"{{{state['start']}}} is the new start player")
    _spring(state)


def _final(state: State) -> None:
    n = state["players"]
    state["phase"] = "over"
    state["season"] = "over"
    state["current"] = None
    state["decision"] += 1
    state["final"] = [dict(score_parts(state, s), total=score(state, s), money=money(state, s))
                      for s in range(n)]
    _event(state, "The game is over: final scoring")
    for s in range(n):
        f = state["final"][s]
        _event(state, f"{{{s}}}: buildings {f['seals']}, Archiv {f['archiv']}, Logen {f['loge']}, "
                      f"hand {f['hand']}, Riga {f['riga']}: {f['total']} points "
                      f"(money {f['money']})")


def _take(state: State, seat: int, move: Take | TakeSet) -> None:
    if isinstance(move, TakeSet):
        k = move.index
        cards = state["sets"].pop(k)
        for w in cards:
            state["hand"][seat]["waren"][w] += 1
        _event(state, f"{{{seat}}} takes set {k + 1}: "
                      f"{', '.join(data.WARE_NAME[w] for w in cards)}")
    else:
        b = move.building
        i = state["row"].index(b)
        state["row"].pop(i)
        if i < state["below"]:
            state["below"] -= 1
        state["hand"][seat]["gebaeude"].append(b)
        _event(state, f"{{{seat}}} takes {b}")
    state["sub"] = None
    state["phase"] = "build"


def _kloster(state: State, seat: int, move: Move) -> None:
    state["sub"] = {"kind": "kloster", "from": None, "give": None, "to": None}


def _kloster_step(state: State, seat: int, move: SwapFrom | Give | SwapTo | Get) -> None:
    sub = state["sub"]
    if isinstance(move, SwapFrom):
        sub["from"] = move.index
    elif isinstance(move, Give):
        sub["give"] = move.ware
    elif isinstance(move, SwapTo):
        sub["to"] = move.index
    else:
        arg = move.ware
        i, j, give = sub["from"], sub["to"], sub["give"]
        state["sets"][i].remove(give)
        state["sets"][i].append(arg)
        state["sets"][j].remove(arg)
        state["sets"][j].append(give)
        _entry(state, seat, unused_function(state, seat, "Kloster") or "Kloster")["used"] = True
        state["sub"] = {"kind": "kloster_take", "sets": sorted([i, j])}
        _event(state, f"{{{seat}}} uses the Kloster: {data.WARE_NAME[give]} of set {i + 1} "
                      f"for {data.WARE_NAME[arg]} of set {j + 1}")


def _back(state: State, seat: int, move: Move) -> None:
    state["sub"] = None


def _use(state: State, seat: int, move: Use) -> None:
    art = move.art
    project = state["project"]
    if art in MONEY_ARTS:
        assert project is not None
        project["functions"].append(unused_function(state, seat, art, project["functions"]))
        return
    ident = unused_function(state, seat, art)
    _entry(state, seat, ident)["used"] = True
    if art == "Bauhof" and bauhof_nur_stapel(state):
        cards = []
        if not state["bau_pile"]:
            first = _draw_building(state)  # shuffles the discard pile in
            if first is not None:
                state["bau_pile"].append(first)
        for _ in range(min(data.BAUHOF_ZIEHEN, len(state["bau_pile"]))):
            cards.append(state["bau_pile"].pop())
    elif art == "Bauhof":   # the discard pile refills the pile whenever it runs out
        cards = []
        for _ in range(data.BAUHOF_ZIEHEN):
            b = _draw_building(state)
            if b is None:
                break
            cards.append(b)
    else:
        cards = []
        for _ in range(data.SCHATZKAMMER_ZIEHEN):
            w = _draw_ware(state)
            if w is None:
                break
            cards.append(w)
    state["pending_draw"] = {"kind": art, "cards": cards}
    _event(state, f"{{{seat}}} uses the {art} and draws {len(cards)} cards")


def _choose(state: State, seat: int, move: Choose) -> None:
    draw = state["pending_draw"]
    cards = list(draw["cards"])
    arg = move.card
    if draw["kind"] == "Bauhof":
        if arg is not None:
            cards.remove(arg)
            state["hand"][seat]["gebaeude"].append(arg)
        state["bau_discard"] += cards
        _event(state, f"{{{seat}}} {'keeps none' if arg is None else 'keeps one'} of the "
                      "drawn buildings")
    else:
        cards.remove(arg)
        state["hand"][seat]["waren"][arg] += 1
        state["waren_discard"] += cards
        _event(state, f"{{{seat}}} keeps one of the drawn commodities")
    state["pending_draw"] = None


def _build(state: State, seat: int, move: Build) -> None:
    b = move.building
    _take_out(state, seat, b)
    state["project"] = {"stadt": stadt_of(b), "buildings": [b],
                        "paid": {w: 0 for w in data.WAREN}, "functions": []}


def _take_out(state: State, seat: int, b: str) -> None:
    if b in state["riga_left"][seat]:
        state["riga_left"][seat].remove(b)
    else:
        state["hand"][seat]["gebaeude"].remove(b)


def _put_back(state: State, seat: int, b: str) -> None:
    if b in data.RIGA_GEBAEUDE:
        state["riga_left"][seat].append(b)
        state["riga_left"][seat].sort(key=data.RIGA_ARTEN.index)
    else:
        state["hand"][seat]["gebaeude"].append(b)


def _add(state: State, seat: int, move: Add) -> None:
    _take_out(state, seat, move.building)
    state["project"]["buildings"].append(move.building)


def _pay(state: State, seat: int, move: Pay) -> None:
    w = move.ware
    state["hand"][seat]["waren"][w] -= 1
    state["project"]["paid"][w] += 1


def _finish(state: State, seat: int, move: Move) -> None:
    project = state["project"]
    cost = project_cost(state, project)
    paid = project_paid(state, seat, project)
    for f in project["functions"]:
        e = _entry(state, seat, f)
        if data.ART_VON[f] == "Wechselstube":
            e["face"] = 0
        else:
            e["used"] = True
    # The game's own order of commodities, never the dict's: a state read back from the
    # database has its keys sorted, so key order would make the discard pile (and the
    # sentence) differ between the game played and its replay.
    cards_paid = [(w, project["paid"].get(w, 0)) for w in data.WAREN]
    for w, k in cards_paid:
        state["waren_discard"] += [w] * k
    for b in project["buildings"]:
        face = 0 if b == "Wechselstube" else None
        state["display"][seat].append({"id": b, "built_turn": state["turn"], "used": False,
                                       "face": face})
    state["built_this_turn"] += len(project["buildings"])
    cards = [f"{k} {data.WARE_NAME[w]}" for w, k in cards_paid if k]
    uses = [data.ART_VON[f] for f in project["functions"]]
    how = ", ".join(cards + uses) or "nothing"
    _event(state, f"{{{seat}}} builds {', '.join(project['buildings'])} (cost {cost}) "
                  f"paying {how} ({paid})")
    state["project"] = None
    if "Schule" in project["buildings"]:
        state["sub"] = {"kind": "school"}


def _cancel(state: State, seat: int, move: Move) -> None:
    sub = state["sub"] or {}
    if sub.get("kind") == "charge":
        for w in sub["cards"]:
            state["hand"][seat]["waren"][w] += 1
        state["sub"] = None
        return
    project = state["project"]
    for w, k in project["paid"].items():
        state["hand"][seat]["waren"][w] += k
    for b in project["buildings"]:
        _put_back(state, seat, b)
    state["project"] = None


def _school(state: State, seat: int, move: School) -> None:
    _entry(state, seat, "Schule")["face"] = move.face
    state["sub"] = None
    _event(state, f"{{{seat}}} turns the Schule to 1 {move.face}")


def _charge(state: State, seat: int, move: Move) -> None:
    state["sub"] = {"kind": "charge", "cards": []}


def _discard(state: State, seat: int, move: Discard) -> None:
    arg = move.card
    hand = state["hand"][seat]
    if state["phase"] == "winter":
        if arg in data.WERT:
            hand["waren"][arg] -= 1
            state["waren_discard"].append(arg)
            _event(state, f"{{{seat}}} discards {data.WARE_NAME[arg]}")
        else:
            hand["gebaeude"].remove(arg)
            state["bau_discard"].append(arg)
            _event(state, f"{{{seat}}} discards a building")
        if not to_move(state):
            _end_year(state)
        return
    sub = state["sub"]
    hand["waren"][arg] -= 1
    sub["cards"].append(arg)
    if set_value(sub["cards"]) >= data.WECHSELSTUBE_ABWURF:
        state["waren_discard"] += sub["cards"]
        e = next(e for e in _active_arts(state, seat, "Wechselstube"))
        e["face"] = data.WECHSELSTUBE_DUKATEN
        _event(state, f"{{{seat}}} discards {', '.join(data.WARE_NAME[w] for w in sub['cards'])} "
                      "and turns the Wechselstube to 8")
        state["sub"] = None
        _end(state, seat, END)


def _end(state: State, seat: int, move: Move) -> None:
    _event(state, f"{{{seat}}} ends the turn")
    _next_turn(state)


_HANDLERS: dict[type, Any] = {
    Start: _start, Keep: _keep, Take: _take, TakeSet: _take, Kloster: _kloster,
    SwapFrom: _kloster_step, Give: _kloster_step, SwapTo: _kloster_step, Get: _kloster_step,
    Use: _use, Choose: _choose, Build: _build, Add: _add, Pay: _pay,
    Finish: _finish, Cancel: _cancel, School: _school, Charge: _charge,
    Discard: _discard, End: _end, Back: _back,
}


# -- every card once (positions for tests and tools) ------------------------------------


def census(state: State) -> tuple[Counter[str], Counter[str], list[Counter[str]]]:
    """(commodities, buildings, Riga buildings per seat) wherever they lie."""
    waren: Counter[str] = Counter()
    bauten: Counter[str] = Counter()
    riga: list[Counter[str]] = [Counter() for _ in range(state["players"])]
    for seat in range(state["players"]):
        hand = state["hand"][seat]
        waren.update({w: k for w, k in hand["waren"].items() if k})
        bauten.update(hand["gebaeude"])
        for e in state["display"][seat]:
            (riga[seat] if e["id"] in data.RIGA_GEBAEUDE else bauten).update([e["id"]])
        riga[seat].update(state["riga_left"][seat])
        if state["phase"] in ("choose_start", "keep"):
            bauten.update(state["keep_offer"][seat])
    for cards in state["sets"]:
        waren.update(cards)
    waren.update(state["waren_pile"])
    waren.update(state["waren_discard"])
    bauten.update(state["row"])
    bauten.update(state["bau_pile"])
    bauten.update(state["bau_discard"])
    bauten.update(state["separated"])
    project = state["project"]
    if project is not None:
        waren.update({w: k for w, k in project["paid"].items() if k})
        for b in project["buildings"]:
            (riga[state["current"]] if b in data.RIGA_GEBAEUDE else bauten).update([b])
    draw = state["pending_draw"]
    if draw is not None:
        (bauten if draw["kind"] == "Bauhof" else waren).update(draw["cards"])
    sub = state["sub"] or {}
    if sub.get("kind") == "charge":
        waren.update(sub["cards"])
    return waren, bauten, riga


def census_problem(state: State) -> str | None:
    """What is wrong with the cards of ``state`` (each card once: 44 commodities, 48
    buildings, the Riga buildings per seat where the option is on), or None."""
    waren, bauten, riga = census(state)
    if any(k < 0 for hand in state["hand"] for k in hand["waren"].values()):
        return "a hand holds fewer than no commodities"
    full_waren = Counter({w: data.ANZAHL[w] for w in data.WAREN})
    if waren != full_waren:
        return (f"the commodities are not 44, each once: {dict(waren - full_waren)} too "
                f"many, {dict(full_waren - waren)} missing")
    full = Counter(list(data.GEBAEUDE))
    if bauten != full:
        return (f"the buildings are not 48, each once: {sorted(bauten - full)} too many, "
                f"{sorted(full - bauten)} missing")
    per_seat = Counter(data.RIGA_ARTEN) if state["options"].get("riga") else Counter()
    if riga != [per_seat] * state["players"]:
        return "a seat's Riga buildings are not its four, each once"
    return None
