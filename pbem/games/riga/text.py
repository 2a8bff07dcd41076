"""Riga's view as plain text, for mails: reads without markup, lines mostly within 72
columns.

Everything here comes from the view (``GAME.view(state, seat)``), so a mail shows
no more than that seat may see: the viewer's own hand and private draw, every
seat's display and counts, never another seat's hand (only the all-seeing view
of the archive holds every hand, and then it is shown).  Building names are
German as printed (Festung, Kontor, ...), and so are the commodities (Tuch, Glas,
Wein, Korn), as the menus and the events name them; the key line gives each its
English gloss.  Everything else reads in English.
"""

from __future__ import annotations

import textwrap
from typing import Any

from pbem.games.render import seat_text
from pbem.games.riga import data
from pbem.games.riga.view import building_view

SEASON = {"setup": "setting up", "summer": "summer", "autumn": "autumn",
          "winter": "winter", "spring": "spring", "over": "the end"}
DOING = {
    "choose_start": "to choose the start player",
    "keep": "to keep one of two buildings (in secret)",
    "take": "to take a building or a commodity set",
    "build": "to erect buildings (or end the turn)",
    "winter": "to discard down to the hand limit",
}


def ware_name(code: str) -> str:
    """``Korn`` for ``Getreide``: a commodity by its printed name, as menus and events
    name it (the key line gives the English gloss)."""
    return data.WARE_NAME.get(code, code)


def _name(names: list[str], seat: int) -> str:
    return names[seat] if 0 <= seat < len(names) else f"seat {seat + 1}"


def _plural(n: int, one: str, many: str) -> str:
    return f"{n} {one if n == 1 else many}"


def building_name(b: Any) -> str:
    """``Festung (Danzig)`` for a building view or id; a Riga building by its name."""
    if isinstance(b, dict):
        name, stadt = b.get("name") or b.get("art") or b.get("id"), b.get("stadt")
    elif isinstance(b, str) and data.is_building(b):
        g = data.gebaeude(b)
        name, stadt = g.art, g.stadt
    else:
        return str(b)
    return f"{name} ({stadt})" if stadt and stadt != data.RIGA else str(name)


def values_text(values: dict[str, int | None]) -> str:
    """``cloth –, glass 4, wine 5!, grain 2``: ``!`` marks a value above the regular."""
    parts = []
    for code in data.WAREN:
        value = values.get(code)
        if value is None:
            parts.append(f"{ware_name(code)} –")
        else:
            mark = "!" if value > data.WERT[code] else ""
            parts.append(f"{ware_name(code)} {value}{mark}")
    return ", ".join(parts)


def building_line(b: dict[str, Any]) -> str:
    """A building as one line: name and city, cost, points, what each commodity pays."""
    line = (f"{building_name(b)}: cost {b.get('cost', '?')}, "
            f"{_plural(b.get('points', 0), 'point', 'points')}; "
            f"{values_text(b.get('values') or {})}")
    if b.get("ware"):
        line += f"; shows {ware_name(b['ware'])}"
    return line


def _display_item(d: dict[str, Any]) -> str:
    notes = []
    face = d.get("face")
    if face is not None and face != "":
        notes.append(f"{face} ducats" if isinstance(face, int) else str(face))
    if d.get("ware"):
        notes.append(ware_name(d["ware"]))
    if d.get("used"):
        notes.append("used")
    if d.get("new"):
        notes.append("new: counts from the next turn")
    name = building_name(d)
    if not notes:
        return name
    if name.endswith(")"):
        return f"{name[:-1]}, {', '.join(notes)})"
    return f"{name} ({', '.join(notes)})"


def waren_text(waren: dict[str, int]) -> str:
    """``2 wine, 1 grain`` (most valuable first), or ``no commodities``."""
    parts = [f"{waren[c]} {ware_name(c)}" for c in data.WAREN if waren.get(c)]
    return ", ".join(parts) if parts else "no commodities"


def _hand_lines(hand: dict[str, Any], indent: str) -> list[str]:
    lines = [f"{indent}commodities: {waren_text(hand.get('waren') or {})}"]
    buildings = hand.get("gebaeude") or []
    if buildings:
        lines.append(f"{indent}buildings:")
        for b in buildings:
            lines.append(f"{indent}  {building_line(b)}")
            if b.get("help"):
                lines.append(f"{indent}    {b['help']}")
    else:
        lines.append(f"{indent}buildings: none")
    return lines


#: the parts of a seat's final scoring, in the order they add up, with their words
FINAL_PARTS = (("seals", "buildings {n}"), ("archiv", "Archiv {n:+d}"), ("loge", "Loge {n:+d}"),
               ("hand", "buildings in hand {n:+d}"), ("riga", "Riga buildings not erected {n:+d}"))


def _final_lines(final: Any, names: list[str]) -> list[str]:
    """The final scoring: a list per seat (or a dict with it under "seats")."""
    rows = final.get("seats") if isinstance(final, dict) else final
    if not isinstance(rows, list):
        return []
    lines = []
    for i, f in enumerate(rows):
        if not isinstance(f, dict):
            continue
        seat = f.get("seat", i)
        total = f.get("total", f.get("points", "?"))
        parts = [label.format(n=f[key]) for key, label in FINAL_PARTS
                 if isinstance(f.get(key), int) and (f[key] or key == "seals")]
        score = _plural(total, "point", "points") if isinstance(total, int) else total
        line = f"  {_name(names, seat)}: {score}"
        if parts:
            line += f" ({', '.join(parts)})"
        if isinstance(f.get("money"), int):
            line += f"; money {f['money']} for a tie"
        lines.append(line)
        lines.extend(f"    {seat_text(str(x), names)}" for x in f.get("lines", []))
    return lines


def sub_sentence(view: dict[str, Any], names: list[str], you_word: str = "You") -> str | None:
    """A public step in progress (the Kloster's swap, the Schule's side) as a sentence."""
    sub = view.get("sub")
    owner = view.get("current")
    if not isinstance(sub, dict) or owner is None:
        return None
    mine = owner == view.get("you")
    who = you_word if mine else _name(names, owner)
    kind = sub.get("kind")
    if kind == "kloster":
        line = f"{who} {'are' if mine else 'is'} using the Kloster"
        if sub.get("from") is not None:
            line += f": a card of set {sub['from'] + 1}"
            if sub.get("give"):
                line += f" ({ware_name(sub['give'])})"
            if sub.get("to") is not None:
                line += f" for one of set {sub['to'] + 1}"
        return line + "."
    if kind == "kloster_take":
        i, j = (k + 1 for k in sub.get("sets", [0, 0])[:2])
        return (f"{who} swapped two cards with the Kloster and take{'' if mine else 's'} "
                f"set {i} or set {j}.")
    if kind == "school":
        return f"{who} {'are' if mine else 'is'} choosing the Schule's side: Ritter or Kaufmann."
    return None


def render_text(view: dict[str, Any], names: list[str]) -> str:
    """``view`` as plain text for a mail; ``names`` are the players' names by seat."""
    phase = view.get("phase", "")
    over = phase == "over"
    you = view.get("you")
    if over:
        head = f"Riga, after {view.get('years', '?')} years: the game is over."
    elif (view.get("season") or "setup") == "setup":
        head = f"Riga, setting up: {view.get('years', '?')} years to play."
    else:
        season = SEASON.get(view.get("season"), view.get("season"))
        head = f"Riga, year {view.get('year', '?')} of {view.get('years', '?')}, {season}."
    if (view.get("options") or {}).get("riga"):
        head += " With the Riga buildings."
    lines = [head]
    moving = list(view.get("to_move") or [])
    if not over and moving and phase in DOING:
        who = ", ".join(("you" if s == you else _name(names, s)) for s in moving)
        verb = "are" if len(moving) > 1 or moving == [you] else "is"
        if who.startswith("you"):
            who = "Y" + who[1:]
        lines.append(f"{who} {verb} {DOING[phase]}.")
    if view.get("start") is not None and not over:
        lines.append(f"Start player: {_name(names, view['start'])}.")
    lines.append("Commodities and their regular value: " + ", ".join(
        f"{ware_name(c)} ({data.WARE_ENGLISH[c]}) {data.WERT[c]}" for c in data.WAREN)
        + ". On a building, ! marks one worth more in its city, – one it refuses.")

    row = view.get("row") or []
    if row:
        lines.append("")
        lines.append("Buildings in the row, newest first:")
        below = int(view.get("below") or 0)
        for i, b in enumerate(reversed(row)):
            if below and i == len(row) - below:
                lines.append("  -- separation card: below it, last year's buildings, "
                             "discarded in spring --")
            lines.append(f"  {building_line(b)}")
    sets = view.get("sets") or []
    if sets:
        lines.append("")
        lines.append("Commodity sets:")
        for i, s in enumerate(sets):
            cards = ", ".join(ware_name(c) for c in s.get("waren", [])) or "empty"
            lines.append(f"  set {i + 1}: {cards} = {s.get('value', '?')} ducats")
    piles = view.get("piles")
    if piles:
        lines.append(f"Piles: commodities {piles.get('waren', 0)} (discard "
                     f"{piles.get('waren_discard', 0)}), buildings {piles.get('bau', 0)} "
                     f"(discard {piles.get('bau_discard', 0)}), set apart "
                     f"{piles.get('separated', 0)}.")

    for entry in view.get("seats") or []:
        s = entry["seat"]
        lines.append("")
        title = _name(names, s) + (" (you)" if s == you else "")
        if s == view.get("start") and not over:
            title += " [start player]"
        lines.append(
            f"{title}: {_plural(entry.get('points', 0), 'point', 'points')}; hand "
            f"{entry.get('hand_count', 0)} ("
            f"{_plural(entry.get('waren_count', 0), 'commodity', 'commodities')}, "
            f"{_plural(entry.get('gebaeude_count', 0), 'building', 'buildings')}); "
            f"knights {entry.get('ritter', 0)}, merchants {entry.get('kaufleute', 0)}"
            + (f"; hand limit {entry.get('hand_limit', 8)} (Speicher)"
               if entry.get("hand_limit", 8 if entry.get("speicher") else 6) > 6 else ""))
        if entry.get("revealed") and phase in ("reveal", "choose_start", "keep"):
            cards = entry["revealed"]
            lines.append(f"  revealed at the start: {', '.join(ware_name(c) for c in cards)}"
                         f" = {sum(data.WERT.get(c, 0) for c in cards)}")
        display = entry.get("display") or []
        lines.append("  display: " + ("; ".join(_display_item(d) for d in display)
                                      if display else "no buildings yet"))
        if entry.get("riga_left"):
            lines.append("  Riga buildings face down: " + ", ".join(entry["riga_left"]))
        if s != you and entry.get("hand"):  # only the archive's view holds other hands
            lines.extend(_hand_lines(entry["hand"], "  hand "))

    if you is not None and view.get("hand") is not None:
        lines.append("")
        lines.append("Your hand:")
        lines.extend(_hand_lines(view["hand"], "  "))
    step = sub_sentence(view, names)
    if step:
        lines.append("")
        lines.append(step)
    offer = view.get("keep_offer")
    if you is not None and offer:
        lines.append("")
        lines.append("Keep one of these two buildings (the other is discarded):")
        lines.extend(f"  {building_line(b)}" for b in offer)
        if view.get("kept"):
            lines.append(f"You keep {building_name(view['kept'])} (secret until all have "
                         "chosen).")
    project = view.get("project")
    if project:
        names_ = " + ".join(building_name(b) for b in project.get("buildings", []))
        paid = waren_text(project.get("paid") or {})
        lines.append("")
        owner = view.get("current")
        who = "You are building" if owner == you and you is not None else (
            f"{_name(names, owner)} is building" if owner is not None else "Building")
        lines.append(f"{who} {names_}: cost {project.get('cost', '?')}, paid "
                     f"{project.get('paid_value', 0)} ({paid}).")
        if project.get("functions"):
            lines.append("  using " + ", ".join(building_name(f)
                                                for f in project["functions"]))
    pending = view.get("pending_draw")
    if pending:
        cards = pending.get("cards", [])
        lines.append("")
        if any(isinstance(c, dict) or data.is_building(str(c)) for c in cards):
            lines.append(f"Your {pending.get('kind', 'Bauhof')} draw: keep one of these "
                         "buildings, or none:")
            lines.extend(f"  {building_line(c if isinstance(c, dict) else building_view(c))}"
                         for c in cards)
        else:
            lines.append(f"Your {pending.get('kind', 'draw')} draw, keep one: "
                         + (", ".join(ware_name(c) for c in cards) or "nothing left to draw")
                         + ".")
    elif view.get("drawing") and view.get("current") is not None:
        lines.append("")
        lines.append(f"{_name(names, view['current'])} is drawing with the "
                     f"{view['drawing']}.")

    events = view.get("events") or []
    if events:
        lines.append("")
        lines.append("This year:")
        lines.extend(f"  {seat_text(str(e), names)}" for e in events)
    final = view.get("final")
    if final:
        rows = _final_lines(final, names)
        if rows:
            lines.append("")
            lines.append("Final scoring:")
            lines.extend(rows)
    return "\n".join(_wrapped(lines))


def _wrapped(lines: list[str], width: int = 76) -> list[str]:
    """Long lines broken at spaces, each continuation indented two more than its line."""
    out = []
    for line in lines:
        if len(line) <= width:
            out.append(line)
            continue
        indent = " " * (len(line) - len(line.lstrip(" ")))
        out.extend(textwrap.wrap(line, width, initial_indent="", subsequent_indent=indent + "  ",
                                 break_long_words=False, break_on_hyphens=False))
    return out
