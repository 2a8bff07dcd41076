"""A greedy bot for Riga that plays from what its seat may see, never more.

It reads only its own hand and draw, the displays, the row, the sets and the
number of years left (the separated pile's size is public).  Each decision is
scored by a one-turn estimate:

* a building is worth its points plus the 2 points a hand building would cost
  at the end, plus a guess for its function while turns remain (``FUNKTION``);
* a Dukat in hand is worth ``PER_DUKAT`` points while turns remain, almost
  nothing in the seat's last turn (only the tie-break);
* it takes the set or building that leaves the best position after the best
  building it could then erect this turn;
* it always builds when it can pay (the best project first, same-city
  buildings together when that pays off), pays with the cards that waste the
  fewest Dukaten, uses a Kran on any building of cost 5 or more, uses money
  functions when they fit the rest of the cost or the cards cannot pay;
* in winter it discards the card it values least, and in the last winter a
  hand building first (each one is 2 points back); it never declines a
  Schatzkammer or Bauhof draw it can use, and never uses the Kloster.

Ties are broken by ``rng``.  ``choose`` decides among all legal moves and
then follows the menu to it (``rules.route``).
"""

from __future__ import annotations

import itertools
import random
from typing import Any

from pbem.games.protocol import IllegalMoveError, State
from pbem.games.riga import data, rules
from pbem.games.riga.moves import (
    BACK,
    CANCEL,
    CHARGE,
    END,
    FINISH,
    Add,
    Build,
    Choose,
    Discard,
    Keep,
    Move,
    Pay,
    School,
    Start,
    Take,
    TakeSet,
    Use,
)

#: points a Dukat in hand is worth while turns remain (a building of cost 7 scores
#: about 3-4 points, and avoids the 2-point penalty)
PER_DUKAT = 0.45
#: points-equivalent of a building's function while turns remain
FUNKTION: dict[str, float] = {
    "Kontor": 2.0, "Kran": 2.0, "Bank": 1.0, "Wirtshaus": 1.0, "Bauhof": 1.0,
    "Schatzkammer": 1.5, "Manufactur": 1.0, "Markthalle": 0.8, "Festung": 1.0,
    "Gildenhaus": 1.0, "Speicher": 0.5, "Wechselstube": 1.5, "Schule": 0.5, "Kloster": 0.2,
}


class _Me:
    """The parts of the table the bot reasons about (all visible to its seat)."""

    def __init__(self, state: State, seat: int) -> None:
        self.state, self.seat = state, seat
        self.turns_left = _turns_left(state, seat)
        self.per_dukat = PER_DUKAT if self.turns_left > 0 else 0.02
        self.r, self.k = rules.persons(state, seat, active_only=False)

    def points(self, ident: str) -> float:
        """What erecting ``ident`` adds to this seat's final score, and a bit for its
        function while turns remain."""
        g = data.gebaeude(ident)
        st, s = self.state, self.seat
        value = float(g.punkte)
        display = [data.ART_VON[e["id"]] for e in st["display"][s]]
        if g.art == "Loge":
            n = display.count("Loge")
            value += data.LOGE_PUNKTE[n + 1] - data.LOGE_PUNKTE[n]
        r, k = self.r + g.ritter, self.k + g.kaufleute
        if g.art == "Schule":
            r, k = (r + 1, k) if self.r <= self.k else (r, k + 1)
        archive = display.count("Archiv") + (g.art == "Archiv")
        sets_now = min(self.r, self.k, data.ARCHIV_MAX_SETS)
        sets_after = min(r, k, data.ARCHIV_MAX_SETS)
        value += data.ARCHIV_JE_SET * (archive * sets_after - display.count("Archiv") * sets_now)
        if g.art == "Archiv" and self.turns_left > 0:
            value += 1.0  # more knights and merchants may come
        if self.turns_left > 0:
            value += FUNKTION.get(g.art, 0.0) * min(1.0, self.turns_left / 3)
        return value

    def hold_value(self, ident: str) -> float:
        """What a building in hand is worth: a chance to erect it later."""
        if self.turns_left <= 0:
            return 0.0
        g = data.gebaeude(ident)
        chance = min(0.9, 0.35 + 0.1 * self.turns_left)
        return max(0.0, chance * (self.points(ident) + data.MINUS_HAND)
                   - self.per_dukat * g.kosten * 0.8)


def _turns_left(state: State, seat: int) -> int:
    """Turns this seat still has after the current decision (a guess from public facts)."""
    years_after = len(state["separated"])
    season = state["season"]
    later = 2 * years_after
    if season in ("setup",):
        return later + 2
    if season == "summer":
        later += 1
    if season == "winter":
        later = 2 * years_after
    return later


def _payment(values: dict[str, int], counts: dict[str, int], need: int) -> list[str] | None:
    """Cards to pay ``need`` with the least surplus, then the least regular value; None
    when the cards cannot pay it."""
    wares = [w for w in data.WAREN if counts.get(w) and values.get(w)]
    if need <= 0:
        return []
    ranges = [range(min(counts[w], -(-need // values[w])) + 1) for w in wares]
    best: tuple[int, int, list[str]] | None = None
    for combo in itertools.product(*ranges):
        total = sum(c * values[w] for c, w in zip(combo, wares, strict=True))
        if total < need:
            continue
        key = (total - need, sum(c * data.WERT[w] for c, w in zip(combo, wares, strict=True)))
        if best is None or key < best[:2]:
            cards = [w for c, w in zip(combo, wares, strict=True) for _ in range(c)]
            best = (key[0], key[1], cards)
    return None if best is None else best[2]


def _projects(me: _Me) -> list[tuple[float, list[str]]]:
    """Affordable projects (same-city buildings paid together) with their value."""
    st, s = me.state, me.seat
    left = data.MAX_BAUTEN - st["built_this_turn"]
    if left <= 0:
        return []
    by_city: dict[str, list[str]] = {}
    for b in sorted(set(st["hand"][s]["gebaeude"])):
        by_city.setdefault(rules.stadt_of(b), []).append(b)
    if st["riga_left"][s]:
        by_city[data.RIGA] = list(st["riga_left"][s])
    out = []
    for stadt, ids in by_city.items():
        for size in range(1, min(left, len(ids)) + 1):
            for combo in itertools.combinations(ids, size):
                money, cost = rules.max_money(st, s, stadt, list(combo))
                if money < cost:
                    continue
                value = sum(me.points(b) + data.MINUS_HAND for b in combo)
                value -= me.per_dukat * cost
                out.append((value, list(combo)))
    return out


def _best_project(me: _Me, rng: random.Random) -> list[str] | None:
    projects = _projects(me)
    if not projects:
        return None
    return max(projects, key=lambda p: (p[0], len(p[1]), rng.random()))[1]


def _evaluate(me: _Me) -> float:
    """The seat's position: score, hand money, hand buildings, the best build now."""
    st, s = me.state, me.seat
    hand = st["hand"][s]
    total = rules.score(st, s) + me.per_dukat * sum(
        data.WERT[w] * k for w, k in hand["waren"].items())
    total += sum(me.hold_value(b) for b in hand["gebaeude"])
    projects = _projects(me)
    if projects:
        value, combo = max(projects, key=lambda p: p[0])
        total += max(0.0, value + sum(0 for _ in combo))
    return total


def _after_take(state: State, seat: int, move: Take | TakeSet) -> float:
    new = rules._copy(state)
    if isinstance(move, TakeSet):
        for w in new["sets"][move.index]:
            new["hand"][seat]["waren"][w] += 1
        new["sets"].pop(move.index)
    else:
        new["row"].remove(move.building)
        new["hand"][seat]["gebaeude"].append(move.building)
    new["phase"] = "build"
    return _evaluate(_Me(new, seat))


def _decide(state: State, seat: int, full: list[Any], rng: random.Random) -> Move:
    me = _Me(state, seat)
    phase = state["phase"]
    hand = state["hand"][seat]
    if phase == "choose_start":
        return Start(seat)
    if phase == "keep":
        return max(full, key=lambda m: (me.hold_value(m.building) + me.points(m.building)
                                        - me.per_dukat * data.gebaeude(m.building).kosten,
                                        rng.random()))
    if phase == "winter":
        def keep_value(move: Discard) -> float:
            arg = move.card
            if data.is_building(arg):
                return me.hold_value(arg) - (data.MINUS_HAND if me.turns_left <= 0 else 0)
            return me.per_dukat * data.WERT[arg] + (0.01 * data.WERT[arg])
        return min(full, key=lambda m: (keep_value(m), rng.random()))
    draw = state["pending_draw"]
    if draw is not None:
        if draw["kind"] == "Schatzkammer":
            return Choose(max(draw["cards"], key=lambda w: data.WERT[w]))
        scored = [(me.hold_value(b), b) for b in draw["cards"]]
        best = max(scored, key=lambda x: (x[0], rng.random()), default=(0.0, ""))
        return Choose(best[1]) if best[0] > 0.5 else Choose(None)
    sub = state["sub"] or {}
    if sub.get("kind") == "school":
        return School("Ritter") if me.r <= me.k else School("Kaufmann")
    if sub.get("kind") == "kloster":
        return BACK
    if sub.get("kind") == "charge":
        wares = [m for m in full if isinstance(m, Discard)]
        return min(wares, key=lambda m: data.WERT[m.card])
    if sub.get("kind") == "kloster_take":
        return max(full, key=lambda m: rules.set_value(state["sets"][m.index]))
    # free draws first: they only add cards
    for art, turns in (("Schatzkammer", 0), ("Bauhof", 1)):
        if Use(art) in full and me.turns_left >= turns:
            return Use(art)
    if phase == "take":
        takes = [m for m in full if isinstance(m, Take | TakeSet)]
        return max(takes, key=lambda m: (_after_take(state, seat, m), rng.random()))
    project = state["project"]
    if project is None:
        plan = _best_project(me, rng)
        if plan is not None:
            return Build(plan[0])
        if CHARGE in full and me.turns_left > 0:
            money = sum(data.WERT[w] * k for w, k in hand["waren"].items())
            if money >= 10:
                return CHARGE
        return END
    return _pay_step(state, seat, me, project, full, rng)


def _pay_step(state: State, seat: int, me: _Me, project: dict[str, Any], full: list[Any],
              rng: random.Random) -> Move:
    if FINISH in full:
        return FINISH
    # add the rest of the best project of this city, when it includes what is started
    adds = [m for m in full if isinstance(m, Add)]
    if adds:
        started = set(project["buildings"])
        plans = [p for p in _projects(_WithProject(me, project)) if started <= set(p[1])]
        if plans:
            plan = max(plans, key=lambda p: (p[0], len(p[1]), rng.random()))[1]
            for m in adds:
                if m.building in plan:
                    return m
    stadt = project["stadt"]
    cost = rules.project_cost(state, project)
    need = cost - rules.project_paid(state, seat, project)
    values = {w: rules.ware_value(state, seat, w, stadt) or 0 for w in data.WAREN}
    counts = dict(state["hand"][seat]["waren"])
    money_uses = [m for m in full if isinstance(m, Use) and m.art != "Kran"
                  and m.art in rules.MONEY_ARTS]
    if Use("Kran") in full:
        krans = rules.project_krans(project)
        costs = sorted((data.gebaeude(b).kosten for b in project["buildings"]), reverse=True)
        raise_ = sum(values[w] * k for w, k in counts.items()) + sum(
            rules.function_money(state, seat, m.art) for m in money_uses)
        if krans < len(costs) and (costs[krans] >= 5 or raise_ < need):
            return Use("Kran")
    fitting = [m for m in money_uses if rules.function_money(state, seat, m.art) <= need]
    if fitting:
        return max(fitting, key=lambda m: rules.function_money(state, seat, m.art))
    cards = _payment(values, counts, need)
    if cards:
        return Pay(cards[0])
    if money_uses:
        return min(money_uses, key=lambda m: rules.function_money(state, seat, m.art))
    pays = [m for m in full if isinstance(m, Pay)]
    if pays:
        return max(pays, key=lambda m: values[m.ware])
    return CANCEL


class _WithProject(_Me):
    """A view of the seat with the started project's buildings back in hand, to plan adds."""

    def __init__(self, me: _Me, project: dict[str, Any]) -> None:
        st = rules._copy(me.state)
        s = me.seat
        for w, k in project["paid"].items():
            st["hand"][s]["waren"][w] += k
        for b in project["buildings"]:
            if b in data.RIGA_GEBAEUDE:
                st["riga_left"][s].append(b)
            else:
                st["hand"][s]["gebaeude"].append(b)
        st["project"] = None
        super().__init__(st, s)
        self.started = list(project["buildings"])


def choose(state: State, seat: int, rng: random.Random) -> Move:
    legal = rules.legal(state, seat)
    if not legal:
        raise IllegalMoveError(f"seat {seat} has no move to make")
    full = rules.every_move(state, seat)
    move = _decide(state, seat, full, rng)
    if move not in full and move not in legal:
        move = rng.choice(legal)
    return rules.route(state, seat, move)


def timeout_move(state: State, seat: int) -> Move:
    """The documented timeout move (``words.DEFAULT_TIMEOUT_NOTE``): no greed, the
    cheapest way through the decision."""
    moves = rules.legal(state, seat)
    if not moves:
        raise IllegalMoveError(f"seat {seat} is not to move")
    full = rules.every_move(state, seat)

    def pick(move: Move) -> Move:
        return rules.route(state, seat, move)

    phase = state["phase"]
    if phase == "choose_start":
        return Start(seat)
    if phase == "keep":
        offer = state["keep_offer"][seat]
        return Keep(min(offer, key=lambda b: (data.gebaeude(b).kosten, b)))
    if phase == "winter":
        return pick(_winter_discard(state, full))
    draw = state["pending_draw"]
    if draw is not None:
        if draw["kind"] == "Bauhof":
            return Choose(None)
        return Choose(max(draw["cards"], key=lambda w: data.WERT[w]))
    sub = state["sub"] or {}
    if sub.get("kind") == "school":
        return School("Ritter")
    if sub.get("kind") in ("kloster", "charge"):
        return BACK if sub["kind"] == "kloster" else CANCEL
    if sub.get("kind") == "kloster_take":
        return max(moves, key=lambda m: rules.set_value(state["sets"][m.index]))
    if phase == "take":
        sets = [m for m in full if isinstance(m, TakeSet)]
        if sets:
            return pick(max(sets, key=lambda m: (
                rules.set_value(state["sets"][m.index]), -m.index)))
        return pick(next(m for m in full if isinstance(m, Take | TakeSet)))
    if state["project"] is not None:
        return pick(CANCEL)
    return pick(END)


def _winter_discard(state: State, full: list[Any]) -> Discard:
    discards = [m for m in full if isinstance(m, Discard)]
    if state["year"] >= state["years"]:
        # the last winter: a building kept in hand costs 2 points at the end, a
        # commodity only counts as tie-break money, so the buildings go first
        building = next((m for m in discards if data.is_building(m.card)), None)
        if building is not None:
            return building
    for ware in reversed(data.WAREN):
        if Discard(ware) in full:
            return Discard(ware)
    return discards[0]
