"""Macao's rules as pure functions over a JSON state.

State layout (lists indexed by seat)::

    game, rules_version, data_version, players
    seed, draws     the random generator (pbem.games.rng); never shown
    round           Runde 1..12 (0 before the game: draft and start cubes)
    phase           "draft", "start", "cards", "dice", "actions", "over"
    queue           seats still to act in this phase, the one to move first
    decision        bumped at every phase change and every reveal (cards, dice)
    deck            the face-down B/P deck, top first (hidden); discard: Ablagestapel
    offices         the 12 pairs of office cards, face up, pair i for round i+1
    display         the cards on offer this round (or in the draft)
    tribute         [gold, prestige] of the Tributleiste this round
    dice            [[colour, value], ...] this round, sorted by value
    wall            16 stacks of seats, bottom first
    city            district (str) -> seat that owns it; tiles: district -> good or "Joker"
    harbours        harbour -> the seats' deliveries on its spaces, highest first
    seats           per seat: gold, pp, penalties, tableau, active, rose (7 dicts of
                    colour -> cubes; rose[0] is the Aktionsvorrat at the arrow), goods,
                    jokers, ship, used (cards used this round), and this turn's flags
    pending         the open step of the seat to move: a tagged value of ``steps`` as
                    its JSON (``{"pay": 2}``), or None
    final           the end scoring per seat, once over

Moves (``moves``: values parsed once from this notation): ``take K7`` (draft, card
phase), ``discard K7`` (a sixth card), ``one r`` / ``two b`` (start cubes), ``die r``
(a die, twice), and in the action
phase ``activate K7``, ``district 12``, ``row 2`` (narrows a long district menu),
``wall 3``, ``sail Lisboa``, ``deliver``, ``tribute``, ``use K7`` / ``use K7 2``,
``joker gold`` / ``joker cube``, then ``pay r:3,v:2`` / ``gain r`` / ``give r`` /
``done`` to settle a step, or the action and its payment in one (``wall 3 pay r:3,v:2``),
and ``end`` (or ``finish``: the end that first uses the cards that only give).
``legal`` lists them as values, ``apply`` takes one and copies only what it changes
(``_Draft``); the action phase's moves act through the table ``_ACTIONS``, one function
per kind.

Readings of the rulebook (../shared/rules/macao-de.txt) we chose, with reasons:

* *Turn order within a phase* is fixed when the phase starts (wall order: the front
  field first, a stack from the top; R 1.4, 2.2, 3).  Advancing on the wall during
  the action phase changes the order from the next phase on.
* *Dice are chosen in wall order* (R 2.2: the simultaneous way is optional).
* *Paying cubes of any colour* (wall, ship, Herold, Goldsucher, Schiffsjunge) and
  *taking cubes of any colour* (Gesandter, joker, Edler…) is one move: the action with
  its whole payment (``wall 3 pay r:3,v:2``, ``tribute gain b``) where there is one
  sensible way to pay, else the action opens a step whose menu lists the whole ways to
  pay (``pay r:3,v:2``), or where they are more than a menu holds, parts of one colour
  each.  A way is *sensible* (``sensible_payments``) if it pays with the colours nothing
  this turn can still ask for (no card of the tableau, no district within reach, no
  Kathedrale) before any other, and takes only colours something can ask for: a cube
  of a colour asked for does all that one of another colour does, and more.  Any
  payment that settles the step is legal, offered or not; ``pay r`` / ``gain r`` (one
  cube, the notation of older logs) mean what they always meant.
* *The last wall field*: a disc moving onto it goes on top of its stack, which is
  the logic R gives for passing it; moving "beyond" buys nothing more, so the
  menu stops at the last field.
* *Delivering* is a move of its own (``deliver``), free, at any time the ship is in a
  harbour whose good is aboard; all such tiles go at once onto the highest free
  spaces (R 3.4).  Free ship moves of Segelmacherei and Steuermann are spent before
  cubes, field by field, so a delivery can happen mid-move (R "Erläuterungen").
* *Penalty markers* are unlimited (R "Limitierungen").
* *Cards that only give* (an office's PP, Kapitän, Amtsstube; Pfandleihe and Soldat
  give gold) are used by ``finish``, the end of a turn the menu offers where there are
  any: using them last is never worse, since their conditions only grow in a turn.
  Those that give prestige only are not offered one by one then; those that give gold
  are, since the gold may still buy the tribute.  ``end`` alone stays legal, and an end
  that is the seat's only move is a formality the server plays.

* *The Graf lowers no activation costs* (rules version 2).  R names it once, in the
  HANDWERKER's note: "Anders als Archiv, Graf, Kran and Heiler kann der Handwerker nur
  einmal pro Runde genutzt werden.  Der Spieler muss alle für die Aktivierung
  notwendigen AS in seinem Vorrat haben, auch wenn er eine der Karten (Archiv, Kran
  oder Heiler) besitzt, welche die Aktivierungskosten reduzieren würden."  The cards
  that reduce costs are named, and the Graf is not among them; what the Graf does R
  does not say, so here it does nothing when used.  Rules version 1 read it as a fourth
  reducer (of grey cubes); games started under it keep that, and the option
  ``graf_senkt`` (a variant) plays it (``graf_senkt``; test: test_macao_rules.py,
  test_the_graf_lowers_no_costs_unless_the_option_or_rules_version_1_says_so).

Readings for the twelve reconstructed cards (data version 2; ``data._RECONSTRUCTED``):

* *Brunnen* moves the disc at once when the district is taken (automatic, like the
  Turm); it is not the turn's one advance, and it may land on a Kanonier.
* *Herold*: its odd cube is used only when the district's exact cubes are not all
  there, so a menu never offers the same district twice; the cubes of the district's
  colours are paid first, then one ``pay c`` of any colour.
* *Leuchtturm* is spent on the round's first sail into a harbour, before the free
  fields of a Segelmacherei or Steuermann, so those stay for the open sea.
* *Kanonier* pays each time a disc comes to lie on its owner's (a Turm's owner is
  never under another); *Wachposten* looks at the stack before the disc moves.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Callable
from typing import Any

from pbem.games import rng
from pbem.games.macao import data, steps
from pbem.games.macao.moves import (
    BACK,
    DELIVER,
    DONE,
    END,
    FINISH,
    SKIP,
    TRIBUTE,
    Activate,
    Back,
    Deliver,
    Die,
    Discard,
    District,
    Done,
    End,
    Finish,
    Gain,
    Give,
    Joker,
    Move,
    One,
    Pay,
    Row,
    Sail,
    Show,
    Skip,
    Take,
    Tribute,
    Two,
    Use,
    Wall,
    With,
    bare,
    cubes_count,
    cubes_of,
)
from pbem.games.protocol import MENU_CAP, IllegalMoveError

RULES_VERSION = "2"
#: the older rules versions a game may have started with (see ``graf_senkt``)
OLDER_RULES_VERSIONS = ("1",)
State = dict[str, Any]


# -- setup -----------------------------------------------------------------------------

def new_state(players: int, seed: str, data_version: str = data.DATA_VERSION,
              options: dict[str, Any] | None = None,
              rules_version: str = RULES_VERSION) -> State:
    """The state before the draft: offices laid out in pairs, the deck shuffled, the
    draft's ``players + 2`` cards revealed.  ``data_version`` picks the deck (one of
    ``data.DATA_VERSIONS``); a game keeps it to the end, since its cards are named by
    that version's ids.  A game of rules version 1 keeps no options (it had none)."""
    deck = data.deck_ids(data_version)     # refuses an unknown version before anything
    state: State = {
        "game": "macao", "rules_version": rules_version, "data_version": data_version,
        "players": players, "seed": seed, "draws": 0, "round": 0, "phase": "draft",
        "decision": 0, "queue": [], "discard": [], "display": [], "tribute": [0, 0],
        "dice": [], "pending": None, "final": None,
        # seat 0 on top of the start stack: first in wall order, last to draft
        "wall": [list(range(players - 1, -1, -1))] + [[] for _ in range(data.WALL_FIELDS - 1)],
        "city": {}, "harbours": {h: [None] * len(v[1]) for h, v in data.HARBOURS.items()},
    }
    offices = rng.shuffled(state, data.OFFICE_IDS)
    state["offices"] = [offices[2 * i:2 * i + 2] for i in range(data.ROUNDS)]
    state["deck"] = rng.shuffled(state, deck)
    goods = [g for g in data.GOODS for _ in range(data.TILES_PER_GOOD)]
    light = [d for d in data.DISTRICT_COST if d not in data.DARK_DISTRICTS]
    state["tiles"] = {str(d): "Joker" for d in data.DARK_DISTRICTS}
    tiles = rng.shuffled(state, goods)
    state["tiles"].update({str(d): g for d, g in zip(light, tiles, strict=True)})
    state["seats"] = [_new_seat() for _ in range(players)]
    if rules_version != "1":
        state["options"] = {"graf_senkt": bool((options or {}).get("graf_senkt"))}
    state["display"] = _draw(state, players + 2)
    state["queue"] = list(reversed(wall_order(state)))
    return state


def determinize(state: State, seat: int, chance: random.Random) -> State:
    """The state as ``seat`` might take it to be: everything on the table is open, so
    only the deck's order (shuffled anew) and the dice to come (a new seed) are hidden."""
    return dict(state, deck=rng.deal(state["deck"], [len(state["deck"])], chance)[0],
                seed=rng.reseeded(chance))


def _new_seat() -> dict[str, Any]:
    return {"gold": data.START_GOLD, "pp": 0, "penalties": 0, "tableau": [], "active": [],
            "rose": [{} for _ in range(7)], "goods": [], "jokers": 0, "ship": data.START_FIELD,
            "used": [], "moved": 0, "got_gold": False, "office_used": False,
            "district": False, "walled": False, "bought": False, "free_moves": 0, "craft": False}


def _draw(state: State, n: int) -> list[str]:
    out, state["deck"] = state["deck"][:n], state["deck"][n:]
    return out


# -- order -----------------------------------------------------------------------------

def wall_order(state: State) -> list[int]:
    """Seats in wall order: the front field first, in a stack from the top; a Turm's
    owner always lies on top of its stack (R "Erläuterungen": TURM)."""
    order: list[int] = []
    for stack in reversed(state["wall"]):
        # most stacks hold one disc or none: nothing to order, and no call for it (a
        # view, a new round and a result ask all sixteen)
        order += stack if len(stack) < 2 else _top_first(state, stack)
    return order


def wall_position(state: State, seat: int) -> int:
    return next(i for i, stack in enumerate(state["wall"]) if seat in stack)


def graf_senkt(state: State) -> bool:
    """Whether the Graf lowers activation costs (of grey cubes): the reading of rules
    version 1, and the option ``graf_senkt``; by R's words it does not."""
    return bool(state.get("options", {}).get("graf_senkt", state["rules_version"] == "1"))


def has_effect(state: State, seat: int, kind: str) -> list[str]:
    """The seat's activated cards whose effect is of ``kind`` (a Graf lowers costs only
    where ``graf_senkt``)."""
    cards = data.CARDS   # once: the rules ask this at every step
    out = [c for c in state["seats"][seat]["active"] if cards[c].effect[0] == kind]
    if kind == "reduce" and out and not graf_senkt(state):
        out = [c for c in out if cards[c].name != "Graf"]
    return out


def to_move(state: State) -> list[int]:
    return [] if state["phase"] == "over" else state["queue"][:1]


# -- cubes -----------------------------------------------------------------------------

def pool(state: State, seat: int) -> dict[str, int]:
    return state["seats"][seat]["rose"][0]


def pool_size(state: State, seat: int) -> int:
    return sum(pool(state, seat).values())


def _add(cubes: dict[str, int], colour: str, n: int = 1) -> None:
    cubes[colour] = cubes.get(colour, 0) + n
    if cubes[colour] == 0:
        del cubes[colour]


@functools.lru_cache(maxsize=512)
def _counts(cost: str) -> tuple[tuple[str, int], ...]:
    """A cost ("rrb") as (colour, cubes) pairs, read once per cost."""
    return tuple((c, cost.count(c)) for c in sorted(set(cost)))


def _can_pay_exact(cubes: dict[str, int], cost: str) -> bool:
    # a loop, not ``all`` over a generator: the menus ask this of every district and
    # card for every action they play out (a third of a Macao playout's rules time)
    for c, n in _counts(cost):
        if cubes.get(c, 0) < n:
            return False
    return True


def _pay_exact(cubes: dict[str, int], cost: str) -> None:
    for c in cost:
        _add(cubes, c, -1)


# -- legal moves -----------------------------------------------------------------------

def legal(state: State, seat: int) -> list[Move]:
    """The moves ``seat`` may play now, at most ``MENU_CAP`` (a long action menu is
    split into pages and rows); empty when it is not to move."""
    if seat not in to_move(state):
        return []
    out = _moves(state, seat)
    assert len(out) <= MENU_CAP, out
    return out


def _moves(state: State, seat: int) -> list[Move]:
    phase, me = state["phase"], state["seats"][seat]
    step = steps.read(state["pending"])
    if phase in ("draft", "cards"):
        if isinstance(step, steps.MustDiscard):
            return [Discard(c) for c in me["tableau"]]
        takes: list[Move] = [Take(c) for c in state["display"]]
        return takes + ([SKIP] if phase == "cards" and has_effect(state, seat, "muessig") else [])
    if phase == "start":
        cube = Two if step else One
        return [cube(c) for c in data.COLOURS]
    if phase == "dice":
        taken = step.colour if isinstance(step, steps.SecondDie) else None
        return [Die(c) for c, _ in state["dice"] if c != taken]
    return _action_moves(state, seat, step)


def _action_moves(state: State, seat: int, step: steps.Step | None) -> list[Move]:
    if step is not None:
        return _step_moves(state, seat, step)
    groups, last = _turn_groups(state, seat)
    flat = [m for moves in groups.values() for m in moves] + [last]
    if len(flat) <= MENU_CAP:
        return _with_payments(state, seat, flat)
    out: list[Move] = []
    for name, moves in groups.items():
        if len(moves) == 1:
            out.append(moves[0])
        else:
            out += [Show(name, p) for p in range((len(moves) + PAGE - 1) // PAGE)]
    return out + [last]


def _turn_groups(state: State, seat: int, offer: bool = True
                 ) -> tuple[dict[str, list[Move]], Move]:
    """The action menu's groups (``_action_groups``, as offered or with ``offer`` False
    bare) and the end of the turn it offers: ``finish`` where there are cards it uses,
    else ``end``."""
    groups = _action_groups(state, seat, offer)
    uses, last = _menu_uses(state, seat, groups.get("use", []))
    if last == FINISH:
        groups["use"] = uses
        groups = {k: v for k, v in groups.items() if v}
    return groups, last


def _menu_uses(state: State, seat: int, uses: list[Move]) -> tuple[list[Move], Move]:
    """The use group ``uses`` as the action menu offers it, and the turn's end it offers
    (``_turn_end``): beside ``finish``, the cards it uses that only give prestige are not
    offered on their own.  The menu (``_turn_groups``), ``formality`` and a page of the
    group (``_extra_legal``) read the group so."""
    free = _free_use_moves(state, seat)
    last = _turn_end(state, seat, free)
    if last == FINISH and uses:
        prestige = [m for m in free if _prestige_only(m.card)]
        uses = [m for m in uses if m not in prestige]
    return uses, last


def _turn_end(state: State, seat: int, free: list[Use] | None = None) -> Move:
    """The end of the turn the action menu offers: ``finish`` where there are cards it
    uses (``free_uses``), else ``end``.  ``free``: the seat's ``_free_use_moves`` now,
    where the caller has them."""
    # ``free_uses`` is empty exactly where the first card it would use is none: asked
    # without playing the uses out on a copy of the state
    return FINISH if (_free_use_moves(state, seat) if free is None else free) else END


def _turn_to_end(state: State, seat: int) -> bool:
    """Whether ``seat`` is to move in the action phase with no step open: its menu then
    ends with the end of its turn (``_turn_groups``)."""
    return (seat in to_move(state) and state["phase"] == "actions"
            and steps.read(state["pending"]) is None)


#: the kinds of cards that only give prestige or gold when used: ``finish`` uses them
#: (those that give gold are offered on their own too: the gold may buy the tribute)
_FREE = ("gain", "office_pp", "kapitaen", "amtsstube", "pfandleihe", "soldat")


def _prestige_only(card: str) -> bool:
    """A card whose use gives prestige and nothing else: using it later in the turn is
    never worse, so ``finish`` uses it and the menu does not offer it on its own."""
    kind, *params = data.CARDS[card].effect
    return kind in ("office_pp", "kapitaen", "amtsstube") or kind == "gain" and set(
        k for k, v in params[0].items() if v) == {"pp"}


def _free_use_moves(state: State, seat: int) -> list[Use]:
    me = state["seats"][seat]
    return [Use(c) for c in me["active"] if c not in me["used"]
            and data.CARDS[c].effect[0] in _FREE
            and not (data.CARDS[c].effect[0] == "gain" and data.CARDS[c].effect[1].get("any"))
            and _use_options(state, seat, c) == [1]]


def free_uses(state: State, seat: int) -> list[str]:
    """The cards ``finish`` uses, in the order it uses them: each card that only gives
    prestige or gold and can be used now, and those that this makes usable (an
    Amtsstube after an office card, a Pfandleihe after gold)."""
    d = _Draft(state)
    out: list[str] = []
    while True:
        usable = _free_use_moves(d.state, seat)
        if not usable:
            return out
        _use(d, seat, usable[0], None)
        out.append(usable[0].card)


def _finish(d: _Draft, seat: int, move: Finish, step: None) -> None:
    """Use every card that only gives (``free_uses``), then end the turn."""
    while usable := _free_use_moves(d.state, seat):
        _use(d, seat, usable[0], None)
    _end(d, seat, END, None)


def _step_moves(state: State, seat: int, step: steps.Step) -> list[Move]:
    """The moves that settle an open step, or a row or page of the action menu."""
    cubes = pool(state, seat)
    if isinstance(step, steps.Paying):
        return [Pay(cubes_of(way)) for way in payment_menu(state, seat, step)]
    if isinstance(step, steps.Gaining):
        return [Gain(cubes_of(way)) for way in payment_menu(state, seat, step)]
    if isinstance(step, steps.Giving):
        return [Give(c) for c in data.COLOURS if cubes.get(c) and c not in step.given] + [DONE]
    if isinstance(step, steps.InRow):
        return [_offer(state, seat, District(d)) for d in _affordable_districts(state, seat)
                if (d - 1) // data.CITY_COLUMNS == step.row] + [BACK]
    assert isinstance(step, steps.Showing), step
    # the group as the action menu counted its pages (``_turn_groups``: without the uses
    # that ``finish`` makes), or a page would hold more than it counted and its last
    # moves would be on a page never offered
    group = _turn_groups(state, seat)[0].get(step.group, [])
    return group[step.page * PAGE:(step.page + 1) * PAGE] + [BACK]


# -- payments ----------------------------------------------------------------------------

def needed_colours(state: State, seat: int) -> set[str]:
    """The colours something can still ask for this turn (cubes are lost at its end): a
    card of the tableau or a district within reach (any, where cubes may still arrive
    this turn), all six with a Kathedrale to use.  A cube of another colour is good only
    for what takes cubes of any colour (wall, ship, Goldsucher)."""
    me, cubes = state["seats"][seat], pool(state, seat)
    if any(data.CARDS[c].effect[0] == "colours_pp" and c not in me["used"]
           for c in me["tableau"] + me["active"]):
        return set(data.COLOURS)
    more = _may_gain(state, seat)
    # a cost whose colours are all asked for already asks for nothing new: it is not
    # looked at (the menus ask this for every action they play out, and the districts'
    # costs were most of it)
    found: set[str] = set()
    reducers = _reducer_colours(state, seat)
    for c in me["tableau"]:
        cost = data.CARDS[c].cost
        if not found.issuperset(cost) and (more or _can_pay_exact(cubes,
                                                                  _reduced(cost, reducers))):
            found.update(cost)
    if not me["district"]:
        swap = _swap_card(state, seat) is not None
        city, size = state["city"], _size(cubes)
        for _, key, cost in data.DISTRICTS:
            if found.issuperset(cost) or key in city:
                continue
            if more or len(cost) <= size and (_can_pay_exact(cubes, cost)
                                              or swap and _one_short(cubes, cost)):
                found.update(cost)
    return found


def _size(cubes: dict[str, int]) -> int:
    """The cubes of a supply: no district or card of more cubes can be paid from it,
    exactly or with a Herold (``_can_pay_exact``, ``_one_short``), which spares
    looking at each."""
    return sum(n for n in cubes.values() if n > 0)


def _may_gain(state: State, seat: int) -> bool:
    """Whether cubes may still arrive in the supply this turn (a step of taking cubes,
    a joker, a card that gives cubes, the tribute with a Gesandter)."""
    me = state["seats"][seat]
    if me["jokers"] or isinstance(steps.read(state["pending"]), steps.Gaining):
        return True
    for c in me["active"]:
        kind, *params = data.CARDS[c].effect
        if c in me["used"]:
            continue
        if kind == "gain" and params[0].get("any") or kind == "convert" and "gold" in params[0]:
            return True
    return bool(has_effect(state, seat, "gesandter")) and not me["bought"]


def sensible_payments(state: State, seat: int, owed: int, gain: bool = False,
                      most: int = MENU_CAP + 1, needed: set[str] | None = None
                      ) -> list[dict[str, int]]:
    """The sensible ways (colour -> cubes) to pay ``owed`` cubes of any colour from the
    supply, or with ``gain`` to take them, at most ``most`` of them: first the colours
    nothing asks for (``needed_colours``, or ``needed`` where the caller has them),
    which are all alike, so chosen for the player; then each way to pay the rest with
    the colours asked for."""
    cubes = pool(state, seat)
    if needed is None:
        needed = needed_colours(state, seat)
    if gain:
        colours = [c for c in data.COLOURS if c in needed] or [data.COLOURS[0]]
        return list(_multisets(colours, {c: owed for c in colours}, owed, most))
    spare = sorted((c for c in data.COLOURS if cubes.get(c) and c not in needed),
                   key=lambda c: -cubes[c])
    base: dict[str, int] = {}
    for c in spare:
        k = min(cubes[c], owed - sum(base.values()))
        if k:
            base[c] = k
    rest = owed - sum(base.values())
    if not rest:
        return [base]
    colours = [c for c in data.COLOURS if cubes.get(c) and c in needed]
    return [base | way for way in _multisets(colours, cubes, rest, most)]


def offered(state: State, seat: int, move: Move) -> Move:
    """``move`` (legal) as the menu offers it: a whole payment or taking of cubes with
    the sensible way (``sensible_payments``) that does all it does: it pays no more
    cubes of any colour asked for, or takes no fewer.  Other moves as they are."""
    action, settle = (move.action, move.settle) if isinstance(move, With) else (None, move)
    if not isinstance(settle, (Pay, Gain)):
        return move
    after, step = opened(state, seat, action) if action else \
        (state, steps.read(state["pending"]))
    gain = isinstance(settle, Gain)
    if not isinstance(step, steps.Gaining if gain else steps.Paying) \
            or cubes_count(settle.cubes) != step.cubes:
        return move        # a part of a payment: the step's menu offers parts as they are
    needed, given = needed_colours(after, seat), dict(settle.cubes)
    for way in sensible_payments(after, seat, step.cubes, gain, most=10**6):
        if all(way.get(c, 0) >= given.get(c, 0) if gain else way.get(c, 0) <= given.get(c, 0)
               for c in needed):
            found = (Gain if gain else Pay)(cubes_of(way))
            return With(action, found) if action else found
    return move


def _multisets(colours: list[str], have: dict[str, int], n: int, most: int):
    """Each way to take ``n`` cubes of ``colours`` (at most ``have`` of each), the first
    colour's most first; at most ``most`` ways."""
    found = 0
    # the cubes ``colours[i:]`` hold together: a branch that cannot reach ``n`` with them
    # is not walked (it yields nothing; walked, it was most of a menu's time)
    room = [0] * (len(colours) + 1)
    for i in range(len(colours) - 1, -1, -1):
        room[i] = room[i + 1] + max(0, have.get(colours[i], 0))

    def ways(i: int, n: int):
        if n == 0:
            yield {}
            return
        if n > room[i]:
            return
        c = colours[i]
        for k in range(min(have.get(c, 0), n), -1, -1):
            for rest in ways(i + 1, n - k):
                yield ({c: k} if k else {}) | rest

    for way in ways(0, n):
        yield way
        found += 1
        if found >= most:
            return


def payment_menu(state: State, seat: int, step: steps.Paying | steps.Gaining
                 ) -> list[dict[str, int]]:
    """What the menu of an open payment (or taking) offers: the whole sensible ways
    where they fit in a menu, else parts of it, each of one colour (one cube, or as many
    as it can pay), after the colours nothing asks for."""
    gain = isinstance(step, steps.Gaining)
    ways = sensible_payments(state, seat, step.cubes, gain)
    if len(ways) <= MENU_CAP:
        return ways
    cubes = {c: step.cubes for c in data.COLOURS} if gain else pool(state, seat)
    needed = needed_colours(state, seat)
    base = {} if gain else {c: n for c, n in ways[0].items() if c not in needed}
    rest = step.cubes - sum(base.values())
    out: list[dict[str, int]] = []
    for c in data.COLOURS:
        if c in needed and cubes.get(c) and c not in base:
            for k in sorted({1, min(cubes[c], rest)}):
                out.append(base | {c: k})
    return out


def _with_payments(state: State, seat: int, flat: list[Move]) -> list[Move]:
    """A menu that has room for them: an action whose payment has a few sensible ways
    offered once for each way (``sail Lisboa pay r``, ``sail Lisboa pay b``), so that
    paying costs no click of its own, as long as the menu stays within ``MENU_CAP``."""
    out = list(flat)
    for move in flat:
        if not isinstance(move, _PAYING) or not _may_open(state, seat, move):
            continue
        after, step = opened(state, seat, move)
        if not isinstance(step, (steps.Paying, steps.Gaining)):
            continue
        gain = isinstance(step, steps.Gaining)
        ways = sensible_payments(after, seat, step.cubes, gain, most=MENU_CAP)
        if len(out) - 1 + len(ways) > MENU_CAP:
            continue
        at = out.index(move)
        out[at:at + 1] = [With(move, (Gain if gain else Pay)(cubes_of(w))) for w in ways]
    return out


def _may_open(state: State, seat: int, action: Move) -> bool:
    """Whether ``action`` may open a payment or a taking of cubes (a quick look, so that
    the menu plays out only those actions)."""
    me = state["seats"][seat]
    if isinstance(action, District):
        return not _can_pay_exact(pool(state, seat), data.DISTRICT_COST[action.number])
    if isinstance(action, Sail):
        return not me["free_moves"] and not (action.field in data.HARBOURS
                                             and _free_harbour(state, seat))
    if isinstance(action, Tribute):
        return bool(has_effect(state, seat, "gesandter"))
    if isinstance(action, Joker):
        return action.what != "gold"
    if isinstance(action, Use):
        kind, *params = data.CARDS[action.card].effect
        return (kind in ("convert", "free_move") or kind == "gain"
                and bool(params[0].get("any")))
    return isinstance(action, Wall)


def opened(state: State, seat: int, action: Move) -> tuple[State, steps.Step | None]:
    """The state after ``action`` alone, and the step it opens."""
    d = _Draft(state)
    d.state["pending"] = None
    _ACTIONS[type(action)](d, seat, action, None)
    return d.state, steps.read(d.state["pending"])


def supply_after(state: State, seat: int, action: Move) -> dict[str, int]:
    """The seat's supply after ``action`` alone (``opened``), before its payment: a move
    on the wall or at sea leaves it as it is (``_offer_moving``), so it is not played
    out (the menu tells each payment what it leaves)."""
    if isinstance(action, (Wall, Sail)):
        return pool(state, seat)
    return pool(opened(state, seat, action)[0], seat)


#: the actions that may open a payment or a taking of cubes
_PAYING = (District, Wall, Sail, Tribute, Use, Joker)


def _offer(state: State, seat: int, action: Move, kept: dict[Any, Any] | None = None) -> Move:
    """``action`` as the menu offers it: with its payment where that has one sensible
    way (no click for it), else alone (its step's menu comes next).  ``kept``: where
    the menu keeps what its moves on the wall and at sea have in common
    (``_offer_moving``)."""
    if not isinstance(action, _PAYING) or not _may_open(state, seat, action):
        return action
    if kept is not None and isinstance(action, (Wall, Sail)):
        return _offer_moving(state, seat, action, kept)
    after, step = opened(state, seat, action)
    if not isinstance(step, (steps.Paying, steps.Gaining)):
        return action
    gain = isinstance(step, steps.Gaining)
    ways = sensible_payments(after, seat, step.cubes, gain, most=2)
    if len(ways) != 1:
        return action
    return With(action, (Gain if gain else Pay)(cubes_of(ways[0])))


def _offer_moving(state: State, seat: int, action: Wall | Sail, kept: dict[Any, Any]) -> Move:
    """``_offer`` of a move on the wall or at sea that may open a payment (``_may_open``),
    without playing it out: it asks ``wall_price`` (``_wall``) or a field's cube
    (``_sail``) of the supply as it is, and changes nothing ``needed_colours`` reads (the
    supply, the cards and which are used, the districts, a step of taking cubes), so its
    ways to pay are the state's for as many cubes, found once for all such moves of the
    menu (``kept``).  Most of the menu's moves are these."""
    owed = wall_price(state, seat, action.fields) if isinstance(action, Wall) else _FIELD_CUBES
    if not owed:
        return action
    if owed not in kept:
        if "needed" not in kept:
            kept["needed"] = needed_colours(state, seat)
        kept[owed] = sensible_payments(state, seat, owed, most=2, needed=kept["needed"])
    ways = kept[owed]
    if len(ways) != 1:
        return action
    return With(action, Pay(cubes_of(ways[0])))


#: moves per page of a group when the action menu is too long for one step
PAGE = MENU_CAP - 1


def _action_groups(state: State, seat: int, offer: bool = True) -> dict[str, list[Move]]:
    """The action moves by group: activate, city, wall, ship, tribute, use, joker
    (``_GROUPS``), those that have any; each as the menu offers it (``_offer``: with its
    payment where that has one sensible way), or with ``offer`` False the bare action
    (what ``bare`` makes of the offered move, without playing each action out to find
    its payment)."""
    groups = {name: found for name, group in _GROUPS.items() if (found := group(state, seat))}
    if not offer:
        return groups
    kept: dict[Any, Any] = {}
    return {k: [_offer(state, seat, m, kept) for m in v] for k, v in groups.items()}


def _activate_moves(state: State, seat: int) -> list[Move]:
    me, cubes = state["seats"][seat], pool(state, seat)
    # with the Handwerker in use: the full printed cubes
    reducers = [] if me["craft"] else _reducer_colours(state, seat)
    return [Activate(c) for c in me["tableau"]
            if _can_pay_exact(cubes, _reduced(data.CARDS[c].cost, reducers))]


def _city_moves(state: State, seat: int) -> list[Move]:
    if state["seats"][seat]["district"]:   # from the turn's last district (R 3.2; Zimmermann: 2)
        return []
    districts = _affordable_districts(state, seat)
    if len(districts) > PAGE:
        return [Row(r) for r in sorted({(d - 1) // data.CITY_COLUMNS for d in districts})]
    return [District(d) for d in districts]


def _wall_moves(state: State, seat: int) -> list[Move]:
    fields = 0 if state["seats"][seat]["walled"] else _wall_steps(state, seat)
    # every advance the seat can pay, the furthest first: apply accepts each of them
    return [Wall(k) for k in range(fields, 0, -1)]


def _tribute_moves(state: State, seat: int) -> list[Move]:
    me = state["seats"][seat]
    return [TRIBUTE] if not me["bought"] and me["gold"] >= tribute_rate(state, seat)[0] else []


def _joker_moves(state: State, seat: int) -> list[Move]:
    if not state["seats"][seat]["jokers"]:
        return []
    double = [Joker("mixed")] if has_effect(state, seat, "gaukler") else []
    return [Joker("gold"), Joker("cube")] + double


def _ship_moves(state: State, seat: int) -> list[Move]:
    me = state["seats"][seat]
    out: list[Move] = []
    if pool_size(state, seat) or me["free_moves"]:
        out = [Sail(f) for f in data.sea_neighbours(me["ship"])]
    elif _free_harbour(state, seat):    # Leuchtturm: only a harbour is free to enter
        out = [Sail(f) for f in data.sea_neighbours(me["ship"]) if f in data.HARBOURS]
    if _deliverable(state, seat):
        out.append(DELIVER)
    return out


def _extra_legal(state: State, seat: int, move: Move) -> bool:
    """Moves legal but not listed as such: any action move hidden behind ``show`` or
    ``row`` (the menu reaches it through them), an action alone (the menu offers it with
    its payment) or with any payment (checked as it is made), and any payment or taking
    of cubes in its step (``pay r``, one cube at a time, as older logs have it); ``end``
    where ``finish`` is offered, and a card ``finish`` would use; a page or a row of the
    menu that exists, though the menu is short enough to list it whole (older logs
    browsed menus that were longer)."""
    step = steps.read(state["pending"])
    if state["phase"] != "actions":
        return False
    if isinstance(step, steps.Paying):
        return isinstance(move, Pay)
    if isinstance(step, steps.Gaining):
        return isinstance(move, Gain)
    if step is not None and not isinstance(step, steps.BROWSING):
        return False
    move = bare(move)
    me = state["seats"][seat]
    # bare actions: the same groups, and the same moves once ``bare`` (``_offer`` adds a
    # payment or nothing), so the same answer without playing out each payment; and of
    # them only the group that holds the move's kind (``_GROUP_OF``): a move equals no
    # move of another kind
    if isinstance(move, Show):   # a page of a group, where a longer menu had it (old logs)
        shown = _GROUPS[move.group](state, seat) if move.group in _GROUPS else []
        if move.group == "use" and shown and state["rules_version"] != "1":
            # the use group as the menu has it, as every game of these rules had it (the
            # logs of rules version 1 browsed the whole group); a page past it was a move
            # the menu never offers (the contract test's reach found one)
            shown = _menu_uses(state, seat, shown)[0]
        return bool(shown) and move.page * PAGE < len(shown)
    if isinstance(move, Row):
        return not me["district"] and any((d - 1) // data.CITY_COLUMNS == move.row
                                          for d in _affordable_districts(state, seat))
    if move == END or isinstance(move, Use) and move in _free_use_moves(state, seat):
        return True   # ``end`` without the uses of ``finish``, or one of them on its own
    if type(move) in _GROUP_OF and move in _GROUPS[_GROUP_OF[type(move)]](state, seat):
        return True
    if isinstance(move, District):
        return not me["district"] and move.number in _affordable_districts(state, seat)
    if isinstance(move, Wall):
        return not me["walled"] and 1 <= move.fields <= _wall_steps(state, seat)
    if isinstance(move, Use) and move.times is not None:
        card = move.card
        return (card in me["active"] and card not in me["used"]
                and move.times in _use_options(state, seat, card)
                and data.CARDS[card].effect[0] == "convert")
    return False


def _wall_steps(state: State, seat: int) -> int:
    """Fields the seat can advance at most (the menu offers ``wall n`` for each n up to
    it, the most first)."""
    room = data.WALL_FIELDS - 1 - wall_position(state, seat)
    have = pool_size(state, seat)
    terms = _wall_terms(state, seat)   # once, not once per field
    return max((k for k in range(1, room + 1) if _wall_price(k, *terms) <= have), default=0)


def wall_price(state: State, seat: int, fields: int) -> int:
    """Cubes to advance ``fields`` fields: 1/3/5/7 (R 3.3); with a Tor each field 1;
    with a Wachposten 1 less while another disc lies on this seat's."""
    if fields <= 0:
        return 0
    return _wall_price(fields, *_wall_terms(state, seat))


def _wall_terms(state: State, seat: int) -> tuple[int | None, int]:
    """What ``wall_price`` reads of the seat's cards: the price of a field with a Tor
    (None without), and what a Wachposten takes off (0 unless a disc lies on this one)."""
    tor = [data.CARDS[c].effect[1] for c in has_effect(state, seat, "wall_cost")]
    less = 0
    if below_another(state, seat):
        less = sum(data.CARDS[c].effect[1] for c in has_effect(state, seat, "wall_below"))
    return (min(tor) if tor else None), less


def _wall_price(fields: int, tor: int | None, less: int) -> int:
    price = tor * fields if tor is not None else data.wall_cost(fields)
    return max(0, price - less)


def below_another(state: State, seat: int) -> bool:
    """Whether another disc lies on this seat's in its wall stack (a Turm's owner
    never lies under another: R "Erläuterungen", TURM)."""
    stack = state["wall"][wall_position(state, seat)]
    return _top_first(state, stack)[0] != seat


def _top_first(state: State, stack: list[int]) -> list[int]:
    if len(stack) < 2:   # most stacks: nothing to order (wall_order asks all sixteen)
        return list(stack)
    top_first = list(reversed(stack))
    towers = [s for s in top_first if has_effect(state, s, "turm")]
    return towers + [s for s in top_first if s not in towers]


def _affordable_districts(state: State, seat: int) -> list[int]:
    cubes, city = pool(state, seat), state["city"]
    swap = _swap_card(state, seat) is not None
    size = _size(cubes)
    return [d for d, key, cost in data.DISTRICTS
            if key not in city and len(cost) <= size
            and (_can_pay_exact(cubes, cost) or swap and _one_short(cubes, cost))]


def _one_short(cubes: dict[str, int], cost: str) -> bool:
    """Exactly one cube of ``cost`` is missing and another cube can stand in for it
    (the Herold's district)."""
    short = sum(max(0, cost.count(c) - cubes.get(c, 0)) for c in set(cost))
    return short == 1 and sum(cubes.values()) >= len(cost)


def _swap_card(state: State, seat: int) -> str | None:
    """An activated Herold not yet used this round."""
    used = state["seats"][seat]["used"]
    return next((c for c in has_effect(state, seat, "district_swap") if c not in used), None)


def _free_harbour(state: State, seat: int) -> str | None:
    """An activated Leuchtturm not yet used this round."""
    used = state["seats"][seat]["used"]
    return next((c for c in has_effect(state, seat, "free_harbour") if c not in used), None)


def tribute_rate(state: State, seat: int) -> tuple[int, int]:
    """The tribute (gold, PP) this seat pays and gets: the Tributleiste (R 3.5), changed
    by Diplomat (gold) and Botschaft (PP)."""
    gold, pp = state["tribute"]
    for c in has_effect(state, seat, "tribute_mod"):
        gold += data.CARDS[c].effect[1]
        pp += data.CARDS[c].effect[2]
    return max(0, gold), pp


def _deliverable(state: State, seat: int) -> bool:
    me = state["seats"][seat]
    spec = data.HARBOURS.get(me["ship"])
    return bool(spec and spec[0] in me["goods"] and None in state["harbours"][me["ship"]])


def _use_moves(state: State, seat: int) -> list[Move]:
    me = state["seats"][seat]
    out: list[Move] = []
    for c in me["active"]:
        if c in me["used"]:
            continue
        times = _use_options(state, seat, c)
        if times == [1]:
            out.append(Use(c))
        else:   # each number of repetitions, the most first: apply accepts each of them
            out += [Use(c, t) for t in sorted(times, reverse=True)]
    return out


def _use_options(state: State, seat: int, card: str) -> list[int]:
    """How often a usable card can be applied now (``[1]`` for a plain use, ``[]`` when
    it cannot be used now)."""
    me, effect = state["seats"][seat], data.CARDS[card].effect
    kind = effect[0]
    if kind == "gain":
        return [1]
    if kind == "office_pp":
        return [1] if _offices_of(state, seat, effect[1]) else []
    if kind == "convert":
        give = effect[1]
        if "gold" in give:
            n = me["gold"] // give["gold"]
        else:
            n = pool_size(state, seat) // give["any"]
        return list(range(1, n + 1))
    if kind == "colours_pp":
        return [1] if pool_size(state, seat) else []
    if kind == "kapitaen":
        return [1] if me["moved"] >= 2 else []
    if kind == "amtsstube":
        return [1] if me["office_used"] else []
    if kind == "pfandleihe":
        return [1] if me["got_gold"] else []
    if kind == "soldat":
        return [1] if _markers_in_city(state, seat) >= 4 else []
    if kind == "free_move":
        cubes = effect[3] if len(effect) > 3 else 0   # Schiffsjunge: a cube, not gold
        return [1] if me["gold"] >= effect[1] and pool_size(state, seat) >= cubes else []
    if kind == "handwerker":
        cubes = pool(state, seat)
        return [1] if any(_can_pay_exact(cubes, data.CARDS[c].cost) for c in me["tableau"]) else []
    return []


def activation_cost(state: State, seat: int, card: str) -> str:
    """The cubes an activation takes: the printed cost less one cube per reducer of a
    colour in it, never below one cube."""
    return _reduced(data.CARDS[card].cost, _reducer_colours(state, seat))


def _reducer_colours(state: State, seat: int) -> list[str]:
    """The colour each of the seat's reducers takes off a cost, in their order."""
    return [data.CARDS[reducer].effect[1] for reducer in has_effect(state, seat, "reduce")]


def _reduced(cost: str, reducers: list[str]) -> str:
    """``cost`` less one cube per reducer of a colour in it, never below one cube."""
    for colour in reducers:
        if colour in cost and len(cost) > 1:
            cost = cost.replace(colour, "", 1)
    return cost


def _offices_of(state: State, seat: int, category: str) -> int:
    cards = [data.CARDS[c] for c in state["seats"][seat]["active"]]
    return sum(1 for c in cards if c.kind == "amt" and data.OFFICE_CATEGORY[c.cost[0]] == category)


def _markers_in_city(state: State, seat: int) -> int:
    return sum(1 for owner in state["city"].values() if owner == seat)


#: the action menu's groups, in its order, each by the function that lists its moves
_GROUPS: dict[str, Callable[[State, int], list[Move]]] = {
    "activate": _activate_moves, "city": _city_moves, "wall": _wall_moves,
    "ship": _ship_moves, "tribute": _tribute_moves, "use": _use_moves, "joker": _joker_moves,
}
#: the group each kind of action move is listed in
_GROUP_OF: dict[type, str] = {
    Activate: "activate", District: "city", Row: "city", Wall: "wall", Sail: "ship",
    Deliver: "ship", Tribute: "tribute", Use: "use", Joker: "joker",
}


def timeout_move(state: State, seat: int) -> Move:
    """The move played when the seat's clock runs out (``words.DEFAULT_TIMEOUT_NOTE``):
    in the action phase it ends the turn (``finish``: using the cards that only give,
    as the menu's end of a turn does), in a step of giving it is done, else it takes
    the first card, die or way to pay on offer."""
    if _turn_to_end(state, seat):   # the menu's last move, without the menu
        return _turn_end(state, seat)
    options = legal(state, seat)
    if not options:
        raise ValueError(f"seat {seat} is not to move")
    for last in (END, FINISH, DONE):
        if last in options:
            return last
    return options[0]


def formality(state: State, seat: int) -> Move | None:
    """The seat's only move where it is the end of its turn (nothing else is left to do
    in the action phase): the server plays it at once."""
    # only the end of a turn with no step open can be one: its menu is the end alone
    # where no group has a move, which the bare actions tell without playing out their
    # payments (the server asks this after every move, and the seat page again)
    if not _turn_to_end(state, seat):
        return None
    # no group with a move (``_turn_groups``, bare), asked group by group, the cheapest
    # first, and left at the first with a move: the server asks after every move, for
    # every seat to move, and listing every group (and the turn's end, which plays out
    # the cards it would use) was most of a Macao click's POST in the engines
    if any(_ANY.get(name, _GROUPS[name])(state, seat) for name in _FORMALITY_ORDER):
        return None
    uses, last = _menu_uses(state, seat, _use_moves(state, seat))
    return None if uses else last


#: the action groups ``formality`` asks, the cheapest first; the use group after them
#: (what is left of it depends on the turn's end)
_FORMALITY_ORDER = ("tribute", "joker", "ship", "wall", "city", "activate")


def _wall_any(state: State, seat: int) -> bool:
    """Whether the wall group has a move (``_wall_moves``): a field's price grows with
    the fields, so the first one's tells (``_wall_steps`` prices every field there is)."""
    if state["seats"][seat]["walled"] or wall_position(state, seat) >= data.WALL_FIELDS - 1:
        return False
    return _wall_price(1, *_wall_terms(state, seat)) <= pool_size(state, seat)


#: whether a group has a move, where that is cheaper to tell than its moves
_ANY: dict[str, Callable[[State, int], Any]] = {"wall": _wall_any}


# -- apply -----------------------------------------------------------------------------

class _Draft:
    """The state a move makes, copied on write: the top level at once, a container
    below it only when the move changes it (:meth:`own`, :meth:`seat`), so that
    ``apply`` costs what the move touches and never changes the caller's state."""

    def __init__(self, state: State) -> None:
        self.state: State = dict(state)
        #: ids of the containers this move copied (alive in ``state``, so never reused)
        self._own: set[int] = set()

    def own(self, *path: str | int) -> Any:
        """The list or dict at ``path`` from the top, each step this move's copy."""
        node: Any = self.state
        for key in path:
            child = node[key]
            if id(child) not in self._own:
                child = child.copy()
                node[key] = child
                self._own.add(id(child))
            node = child
        return node

    def seat(self, seat: int) -> dict[str, Any]:
        """The seat's dict, this move's copy with its cards and wind rose."""
        seats = self.own("seats")
        me = seats[seat]
        if id(me) not in self._own:
            me = seats[seat] = _copied(me)
            self._own.add(id(me))
        return me


def _copied(value: Any) -> Any:
    """A copy of a seat: numbers, lists of card ids and goods, and the wind rose, a list
    of dicts of numbers (one level deeper than the rest: copied one level deeper)."""
    out = {}
    for k, v in value.items():
        if isinstance(v, list):   # each of a seat's lists holds dicts only or none
            out[k] = [x.copy() for x in v] if v and isinstance(v[0], dict) else v.copy()
        elif isinstance(v, dict):
            out[k] = v.copy()
        else:
            out[k] = v
    return out


def apply(state: State, seat: int, move: Move) -> State:
    if seat not in to_move(state):
        raise IllegalMoveError(f"seat {seat} is not to move")
    # the cheaper question first: in the action phase it answers most moves without
    # building the whole menu (every action played out for its payment), which made
    # ``apply`` cost more than a deep copy of the state (issue 23)
    if not _extra_legal(state, seat, move) and not _listed(state, seat, move):
        raise IllegalMoveError(f"{move.notation()} is not a legal move now")
    return apply_legal(state, seat, move)


def _listed(state: State, seat: int, move: Move) -> bool:
    """Whether ``legal`` lists ``move``: ``finish`` at the end of an action turn is
    listed exactly where it is the menu's end (``_turn_end``), which needs no menu (most
    action turns end with it)."""
    if move == FINISH and _turn_to_end(state, seat):
        return _turn_end(state, seat) == FINISH
    return move in _moves(state, seat)


def apply_legal(state: State, seat: int, move: Move) -> State:
    """``apply`` of a move known to be legal (one of ``legal``'s: a bot's), unchecked."""
    draft = _Draft(state)
    _PHASES[state["phase"]](draft, seat, move)
    return draft.state


def _next(d: _Draft) -> None:
    d.state["queue"] = d.state["queue"][1:]
    d.state["pending"] = None


def _draft(d: _Draft, seat: int, move: Take) -> None:
    s = d.state
    d.own("display").remove(move.card)
    d.seat(seat)["tableau"].append(move.card)
    _next(d)
    if not s["queue"]:
        d.own("discard").extend(s["display"])
        s["display"] = []
        _phase(s, "start")


def _start_cubes(d: _Draft, seat: int, move: One | Two) -> None:
    rose = d.seat(seat)["rose"]
    if isinstance(move, One):
        _add(rose[1], move.colour)
        d.state["pending"] = steps.write(steps.SecondCube(move.colour))
        return
    _add(rose[2], move.colour, 2)
    _next(d)
    if not d.state["queue"]:
        _start_round(d)


def _phase(s: State, phase: str) -> None:
    s["phase"] = phase
    s["decision"] += 1
    s["pending"] = None
    s["queue"] = wall_order(s)


def _start_round(d: _Draft) -> None:
    """1.1-1.3: reveal 4 cards beside the round's 2 offices, set the tribute, remove
    the last revealed cards by player count."""
    s = d.state
    s["round"] += 1
    for seat in range(s["players"]):
        me = d.seat(seat)
        me.update(used=[], moved=0, got_gold=False, office_used=False, district=False,
                  walled=False, bought=False, free_moves=0, craft=False)
        me.pop("districts", None)   # the Zimmermann's count, kept only while needed
    revealed = _draw(s, 4)
    offices = s["offices"][s["round"] - 1]
    shown = revealed + offices
    s["tribute"] = [sum(data.CARDS[c].tribute[0] for c in shown),
                    sum(data.CARDS[c].tribute[1] for c in shown)]
    removed = data.REMOVED[s["players"]]
    if removed:
        d.own("discard").extend(revealed[-removed:])
        revealed = revealed[:-removed]
    s["display"] = revealed + offices
    _phase(s, "cards")


def _cards(d: _Draft, seat: int, move: Take | Discard | Skip) -> None:
    s = d.state
    if isinstance(move, Take):
        d.own("display").remove(move.card)
        me = d.seat(seat)
        me["tableau"].append(move.card)
        if len(me["tableau"]) > data.TABLEAU:
            s["pending"] = steps.write(steps.MustDiscard())
            return
    elif isinstance(move, Discard):   # a sixth card: discard one, take a Strafmarker
        me = d.seat(seat)              # (R 1.4 "Achtung")
        me["tableau"].remove(move.card)
        d.own("discard").append(move.card)
        me["penalties"] += 1
    # Skip (Müßiggänger): no card this round
    _next(d)
    if not s["queue"]:
        d.own("discard").extend(s["display"])
        s["display"] = []
        _roll(s)


def _roll(s: State) -> None:
    """2.1: roll the six dice and sort them; from round 8 high values are turned to 1."""
    late = data.LATE_DICE.get(s["round"])
    dice = []
    for colour in data.COLOURS:
        value = rng.choice_index(s, 6) + 1
        if late and value >= late:
            value = 1
        dice.append([colour, value])
    s["dice"] = sorted(dice, key=lambda d: (d[1], data.COLOURS.index(d[0])))
    _phase(s, "dice")


def _die(d: _Draft, seat: int, move: Die) -> None:
    s, colour = d.state, move.colour
    value = next(v for c, v in s["dice"] if c == colour)
    me = d.seat(seat)
    _add(me["rose"][value], colour, value)
    if value == 1:
        _gold(me, len(has_effect(s, seat, "professor")))
    if not s["pending"]:
        s["pending"] = steps.write(steps.SecondDie(colour))
        return
    # 2.3: turn the wind rose one step; the former 1-field is now at the arrow
    me["rose"] = [me["rose"][1]] + me["rose"][2:] + [{}]
    if not me["rose"][0]:
        me["penalties"] += 1
    _next(d)
    if not s["queue"]:
        _phase(s, "actions")


def _action(d: _Draft, seat: int, move: Move) -> None:
    step = steps.read(d.state["pending"])
    if isinstance(step, steps.BROWSING) and not isinstance(move, (Row, Show)):
        d.state["pending"] = step = None
    _ACTIONS[type(move)](d, seat, move, step)


def _pending(d: _Draft, step: steps.Step | None) -> None:
    d.state["pending"] = steps.write(step)


def _pay(d: _Draft, seat: int, move: Pay, step: steps.Paying) -> None:
    me = d.seat(seat)
    paid = cubes_count(move.cubes)
    if paid > step.cubes:
        raise IllegalMoveError(f"{move.notation()} pays {paid} cubes, {step.cubes} are owed")
    for colour, n in move.cubes:
        have = me["rose"][0].get(colour, 0)
        if have < n:
            raise IllegalMoveError(f"{move.notation()}: the supply has {have} of {colour}")
        _add(me["rose"][0], colour, -n)
    if step.cubes > paid:
        _pending(d, steps.Paying(step.cubes - paid, step.gold))
        return
    _pending(d, None)
    if step.gold is not None:   # a card that converts cubes into gold: now the gold
        _gold(me, step.gold)


def _gain(d: _Draft, seat: int, move: Gain, step: steps.Gaining) -> None:
    taken = cubes_count(move.cubes)
    if taken > step.cubes:
        raise IllegalMoveError(f"{move.notation()} takes {taken} cubes, {step.cubes} are open")
    for colour, n in move.cubes:
        _add(d.seat(seat)["rose"][0], colour, n)
    _pending(d, steps.Gaining(step.cubes - taken) if step.cubes > taken else None)


def _with(d: _Draft, seat: int, move: With, step: None) -> None:
    """The action, then its whole payment (or the cubes it gives), which must settle
    the step the action opens."""
    _ACTIONS[type(move.action)](d, seat, move.action, None)
    opened = steps.read(d.state["pending"])
    kind = steps.Paying if isinstance(move.settle, Pay) else steps.Gaining
    if not isinstance(opened, kind):
        raise IllegalMoveError(f"{move.action.notation()} opens no {move.settle.notation()[:4]}"
                               f" of cubes now")
    if cubes_count(move.settle.cubes) != opened.cubes:
        raise IllegalMoveError(f"{move.action.notation()} asks for {opened.cubes} cubes, "
                               f"not {cubes_count(move.settle.cubes)}")
    _ACTIONS[type(move.settle)](d, seat, move.settle, opened)


def _give(d: _Draft, seat: int, move: Give, step: steps.Giving) -> None:
    me = d.seat(seat)
    _add(me["rose"][0], move.colour, -1)
    me["pp"] += 1
    given = step.given + (move.colour,)
    _pending(d, None if len(given) == len(data.COLOURS) else steps.Giving(given))


def _activate(d: _Draft, seat: int, move: Activate, step: None) -> None:
    me = d.seat(seat)
    cubes = me["rose"][0]
    if me["craft"]:
        # Handwerker: the full printed cubes, reducers ignored, need only be there
        if not _can_pay_exact(cubes, data.CARDS[move.card].cost):
            raise IllegalMoveError("the Handwerker needs the card's full cubes in the supply")
        me["craft"] = False
    else:
        _pay_exact(cubes, activation_cost(d.state, seat, move.card))
    me["tableau"].remove(move.card)
    me["active"].append(move.card)


def _wall(d: _Draft, seat: int, move: Wall, step: None) -> None:
    d.seat(seat)["walled"] = True
    price = wall_price(d.state, seat, move.fields)   # before moving: a Wachposten looks
    _advance(d, seat, move.fields)                      # at the stack
    if price:
        _pending(d, steps.Paying(price))


def _sail(d: _Draft, seat: int, move: Sail, step: None) -> None:
    light = _free_harbour(d.state, seat) if move.field in data.HARBOURS else None
    me = d.seat(seat)
    me["ship"] = move.field
    me["moved"] += 1
    if light:                         # Leuchtturm first: it keeps the free moves
        me["used"].append(light)
    elif me["free_moves"]:
        me["free_moves"] -= 1
    else:
        _pending(d, steps.Paying(_FIELD_CUBES))


#: what a field at sea costs without a free move (R 3.4): a cube of any colour
_FIELD_CUBES = 1


def _tribute(d: _Draft, seat: int, move: Tribute, step: None) -> None:
    gold, pp = tribute_rate(d.state, seat)
    me = d.seat(seat)
    me["gold"] -= gold
    me["pp"] += pp
    me["bought"] = True
    envoys = len(has_effect(d.state, seat, "gesandter"))
    if envoys:
        _pending(d, steps.Gaining(envoys))


def _joker(d: _Draft, seat: int, move: Joker, step: None) -> None:
    me = d.seat(seat)
    me["jokers"] -= 1
    times = 2 if has_effect(d.state, seat, "gaukler") else 1   # R 3.2: the Gaukler doubles
    if move.what == "gold":
        _gold(me, data.JOKER_GOLD * times)
    elif move.what == "cube":
        _pending(d, steps.Gaining(times))
    else:
        _gold(me, data.JOKER_GOLD)
        _pending(d, steps.Gaining(1))


def _end(d: _Draft, seat: int, move: End, step: None) -> None:
    me = d.seat(seat)
    me["rose"][0] = {}   # 3.7: unused cubes are lost
    me["free_moves"] = 0
    _next(d)
    if not d.state["queue"]:
        _end_round(d)


def _gold(me: dict[str, Any], n: int) -> None:
    if n > 0:
        me["gold"] += n
        me["got_gold"] = True


def _take_district(d: _Draft, seat: int, move: District, step: None) -> None:
    s, number = d.state, move.number
    me = d.seat(seat)
    cubes, cost = me["rose"][0], data.DISTRICT_COST[number]
    s["pending"] = None
    if _can_pay_exact(cubes, cost):
        _pay_exact(cubes, cost)
    else:   # a Herold: the cubes there are paid, one cube of any colour stands in
        _pay_exact(cubes, "".join(c * min(cost.count(c), cubes.get(c, 0)) for c in set(cost)))
        me["used"].append(_swap_card(s, seat))
        _pending(d, steps.Paying(1))
    d.own("city")[str(number)] = seat
    tile = d.own("tiles").pop(str(number))
    if tile == "Joker":
        me["jokers"] += 1
    else:
        me["goods"].append(tile)
    limit = max([data.CARDS[c].effect[1] for c in has_effect(s, seat, "districts")],
                default=1)
    if limit > 1:   # a Zimmermann: count this turn's districts (only then, so that
        me["districts"] = me.get("districts", 0) + 1    # states without one keep their keys)
        me["district"] = me["districts"] >= limit
    else:
        me["district"] = True
    for c in has_effect(s, seat, "on_district"):
        _, res, where = data.CARDS[c].effect
        if where == "dark" and number not in data.DARK_DISTRICTS:
            continue
        me["pp"] += res.get("pp", 0)
        _gold(me, res.get("gold", 0))
        if res.get("wall"):   # Brunnen: on along the wall, free; not the turn's advance
            _advance(d, seat, res["wall"])


def _advance(d: _Draft, seat: int, n: int) -> None:
    """Move the disc ``n`` fields on; on an occupied field it goes on top (R 3.3), and
    each Kanonier of a disc it now lies on pays that disc's owner."""
    s = d.state
    here = wall_position(s, seat)
    d.own("wall", here).remove(seat)
    there = min(here + n, data.WALL_FIELDS - 1)   # beyond the last field: on top there
    d.own("wall", there).append(seat)
    order = _top_first(s, s["wall"][there])
    for other in order[order.index(seat) + 1:]:
        for c in has_effect(s, other, "landed_on"):
            _gold(d.seat(other), data.CARDS[c].effect[1].get("gold", 0))


def _deliver(d: _Draft, seat: int, move: Deliver, step: None) -> None:
    """Put every tile of the harbour's good aboard onto its highest free spaces (R 3.4);
    a Lager doubles a tile's prestige, the Böttcherei adds 1 PP that no Lager doubles."""
    s = d.state
    me = d.seat(seat)
    harbour = me["ship"]
    good, values = data.HARBOURS[harbour]
    spaces = d.own("harbours", harbour)
    lager = any(data.CARDS[c].effect[1] == good for c in has_effect(s, seat, "lager"))
    bonus = len(has_effect(s, seat, "boettcherei"))
    while good in me["goods"] and None in spaces:
        i = spaces.index(None)
        spaces[i] = seat
        me["goods"].remove(good)
        me["pp"] += values[i] * (2 if lager else 1) + bonus


def _use(d: _Draft, seat: int, move: Use, step: None) -> None:
    s, card, times = d.state, move.card, move.times or 1
    me, effect = d.seat(seat), data.CARDS[card].effect
    kind = effect[0]
    me["used"].append(card)
    if data.CARDS[card].kind == "amt":
        me["office_used"] = True
    if kind == "gain":
        res = effect[1]
        me["pp"] += res.get("pp", 0)
        _gold(me, res.get("gold", 0))
        if res.get("any"):
            _pending(d, steps.Gaining(res["any"]))
    elif kind == "office_pp":
        me["pp"] += _offices_of(s, seat, effect[1])
    elif kind == "convert":
        give, get = effect[1], effect[2]
        if "gold" in give:
            me["gold"] -= give["gold"] * times
            _pending(d, steps.Gaining(get["any"] * times))
        else:
            _pending(d, steps.Paying(give["any"] * times, get["gold"] * times))
    elif kind == "colours_pp":
        _pending(d, steps.Giving())
    elif kind in ("kapitaen", "amtsstube"):
        me["pp"] += 1
    elif kind == "pfandleihe":
        _gold(me, 1)
    elif kind == "soldat":
        _gold(me, _markers_in_city(s, seat) // 4)
    elif kind == "handwerker":
        me["craft"] = True
    elif kind == "free_move":
        me["gold"] -= effect[1]
        me["free_moves"] += effect[2]
        if len(effect) > 3:     # Schiffsjunge: its cube first, then the free fields
            _pending(d, steps.Paying(effect[3]))


def _end_round(d: _Draft) -> None:
    s = d.state
    if s["round"] < data.ROUNDS:
        _start_round(d)
        return
    s["final"] = [final_scoring(s, seat) for seat in range(s["players"])]
    for seat, f in enumerate(s["final"]):
        me = d.seat(seat)
        me["penalties"] += f["tableau_penalties"]
        me["pp"] = f["total"]
    s["phase"] = "over"
    s["decision"] += 1
    s["queue"] = []


def _set_pending(step: steps.Step | None) -> Callable[[_Draft, int, Move, Any], None]:
    def act(d: _Draft, seat: int, move: Any, current: Any) -> None:
        _pending(d, step)
    return act


#: the action phase's moves by kind: what each does to the draft state
_ACTIONS: dict[type, Callable[[_Draft, int, Any, Any], None]] = {
    Back: _set_pending(None),
    Done: _set_pending(None),
    Show: lambda d, seat, move, step: _pending(d, steps.Showing(move.group, move.page)),
    Row: lambda d, seat, move, step: _pending(d, steps.InRow(move.row)),
    Pay: _pay, Gain: _gain, Give: _give,
    Activate: _activate, District: _take_district, Wall: _wall, Sail: _sail,
    Deliver: _deliver, Tribute: _tribute, Joker: _joker, Use: _use, End: _end,
    Finish: _finish, With: _with,
}

#: the phases' moves: each phase's handler
_PHASES: dict[str, Callable[[_Draft, int, Any], None]] = {
    "draft": _draft, "start": _start_cubes, "cards": _cards, "dice": _die,
    "actions": _action,
}


# -- scoring ---------------------------------------------------------------------------

def largest_area(city: dict[str, int], seat: int) -> int:
    """Markers in the seat's largest connected group of own districts."""
    own = {int(d) for d, owner in city.items() if owner == seat}
    best, seen = 0, set()
    for start in own:
        if start in seen:
            continue
        size, todo = 0, [start]
        seen.add(start)
        while todo:
            d = todo.pop()
            size += 1
            for n in data.district_neighbours(d):
                if n in own and n not in seen:
                    seen.add(n)
                    todo.append(n)
        best = max(best, size)
    return best


def final_scoring(s: State, seat: int) -> dict[str, int]:
    """R "Spielende": a Strafmarker per tableau card (not with an Abt), -3 per
    Strafmarker, the end cards, 2 PP per marker in the largest area."""
    me = s["seats"][seat]
    tableau = 0 if has_effect(s, seat, "abt") else len(me["tableau"])
    penalties = me["penalties"] + tableau
    end_cards = sum(data.CARDS[c].effect[1] for c in has_effect(s, seat, "end_pp"))
    scoring_cards = len(has_effect(s, seat, "end_pp")) + len(has_effect(s, seat, "palast"))
    end_cards += 2 * scoring_cards * len(has_effect(s, seat, "palast"))
    area = data.AREA_POINTS * largest_area(s["city"], seat)
    total = me["pp"] - data.PENALTY * penalties + end_cards + area
    return {"before": me["pp"], "tableau_penalties": tableau, "penalties": penalties,
            "end_cards": end_cards, "area": area, "total": total}


# -- every card once (positions for tests and tools) ------------------------------------


def cards_problem(state: State) -> str | None:
    """What is wrong with where the cards and discs of ``state`` lie (every card of its
    data version's deck and every office card once; each seat's disc once on the
    wall), or None."""
    from collections import Counter  # for import cost only: positions are for tools

    # the pairs of rounds begun lie out as the display (the state keeps them listed)
    held = Counter(state["deck"] + state["discard"] + state["display"]
                   + [c for pair in state["offices"][max(0, state["round"]):] for c in pair])
    for me in state["seats"]:
        held.update(me["tableau"] + me["active"])
    full = Counter(data.deck_ids(state["data_version"]) + list(data.OFFICE_IDS))
    if held != full:
        return (f"the cards are not the deck's, each once: {sorted(held - full)} too many, "
                f"{sorted(full - held)} missing")
    discs = sorted(s for stack in state["wall"] for s in stack)
    if discs != list(range(state["players"])):
        return f"each seat's disc must lie on the wall once, not {discs}"
    return None
