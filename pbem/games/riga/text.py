"""Riga's view as plain text, for mails: reads without markup, lines mostly within 72
columns, in English or German (``lang`` "de").

Everything here comes from the view (``GAME.view(state, seat)``), so a mail shows
no more than that seat may see: the viewer's own hand and private draw, every
seat's display and counts, never another seat's hand (only the all-seeing view
of the archive holds every hand, and then it is shown).  Building names are
German as printed (Festung, Kontor, ...), and so are the commodities (Tuch, Glas,
Wein, Korn), as the menus and the events name them; in English the key line gives
each its English gloss.
"""

from __future__ import annotations

import textwrap
from typing import Any

from pbem.games.render import seat_text
from pbem.games.riga import data, words
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
SEASON_DE = {"setup": "Vorbereitung", "summer": "Sommer", "autumn": "Herbst",
             "winter": "Winter", "spring": "Frühling", "over": "Spielende"}
DOING_DE = {
    "choose_start": "den Startspieler bestimmen",
    "keep": "eines von zwei Gebäuden behalten (geheim)",
    "take": "ein Gebäude oder eine Warenreihe nehmen",
    "build": "Gebäude bauen (oder den Zug beenden)",
    "winter": "bis zum Handlimit abwerfen",
}


def ware_name(code: str) -> str:
    """``Korn`` for ``Getreide``: a commodity by its printed name, as menus and events
    name it (the key line gives the English gloss)."""
    return data.WARE_NAME.get(code, code)


def _name(names: list[str], seat: int, lang: str = "en") -> str:
    if 0 <= seat < len(names):
        return names[seat]
    return f"Platz {seat + 1}" if lang == "de" else f"seat {seat + 1}"


def _plural(n: int, one: str, many: str) -> str:
    return f"{n} {one if n == 1 else many}"


def _points(n: Any, lang: str) -> str:
    if not isinstance(n, int):
        return str(n)
    if lang == "de":
        return _plural(n, "Siegpunkt", "Siegpunkte")
    return _plural(n, "point", "points")


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
    """``Tuch –, Glas 4, Wein 5!, Korn 2``: ``!`` marks a value above the regular."""
    parts = []
    for code in data.WAREN:
        value = values.get(code)
        if value is None:
            parts.append(f"{ware_name(code)} –")
        else:
            mark = "!" if value > data.WERT[code] else ""
            parts.append(f"{ware_name(code)} {value}{mark}")
    return ", ".join(parts)


def building_line(b: dict[str, Any], lang: str = "en") -> str:
    """A building as one line: name and city, cost, points, what each commodity pays."""
    de = lang == "de"
    line = (f"{building_name(b)}: {'kostet' if de else 'cost'} {b.get('cost', '?')}, "
            f"{_points(b.get('points', 0), lang)}; "
            f"{values_text(b.get('values') or {})}")
    if b.get("ware"):
        line += f"; {'zeigt' if de else 'shows'} {ware_name(b['ware'])}"
    return line


def _display_item(d: dict[str, Any], lang: str = "en") -> str:
    de = lang == "de"
    notes = []
    face = d.get("face")
    if face is not None and face != "":
        notes.append(f"{face} {'Dukaten' if de else 'ducats'}" if isinstance(face, int)
                     else str(face))
    if d.get("ware"):
        notes.append(ware_name(d["ware"]))
    if d.get("used"):
        notes.append("genutzt" if de else "used")
    if d.get("new"):
        notes.append("neu: zählt ab dem nächsten Zug" if de
                     else "new: counts from the next turn")
    name = building_name(d)
    if not notes:
        return name
    if name.endswith(")"):
        return f"{name[:-1]}, {', '.join(notes)})"
    return f"{name} ({', '.join(notes)})"


def waren_text(waren: dict[str, int], lang: str = "en") -> str:
    """``2 Wein, 1 Korn`` (most valuable first), or ``no commodities``."""
    parts = [f"{waren[c]} {ware_name(c)}" for c in data.WAREN if waren.get(c)]
    if parts:
        return ", ".join(parts)
    return "keine Waren" if lang == "de" else "no commodities"


def _hand_lines(hand: dict[str, Any], indent: str, lang: str = "en") -> list[str]:
    de = lang == "de"
    lines = [f"{indent}{'Waren' if de else 'commodities'}: "
             f"{waren_text(hand.get('waren') or {}, lang)}"]
    buildings = hand.get("gebaeude") or []
    if buildings:
        lines.append(f"{indent}{'Gebäude' if de else 'buildings'}:")
        for b in buildings:
            lines.append(f"{indent}  {building_line(b, lang)}")
            help_line = b.get("help_de") if de else b.get("help")
            if help_line:
                lines.append(f"{indent}    {help_line}")
    else:
        lines.append(f"{indent}{'Gebäude: keine' if de else 'buildings: none'}")
    return lines


#: the parts of a seat's final scoring, in the order they add up, with their words
FINAL_PARTS = (("seals", "buildings {n}"), ("archiv", "Archiv {n:+d}"), ("loge", "Loge {n:+d}"),
               ("hand", "buildings in hand {n:+d}"), ("riga", "Riga buildings not erected {n:+d}"))
FINAL_PARTS_DE = (("seals", "Gebäude {n}"), ("archiv", "Archiv {n:+d}"),
                  ("loge", "Loge {n:+d}"), ("hand", "Gebäude auf der Hand {n:+d}"),
                  ("riga", "nicht gebaute Riga-Gebäude {n:+d}"))


def _final_lines(final: Any, names: list[str], lang: str = "en") -> list[str]:
    """The final scoring: a list per seat (or a dict with it under "seats")."""
    de = lang == "de"
    rows = final.get("seats") if isinstance(final, dict) else final
    if not isinstance(rows, list):
        return []
    lines = []
    for i, f in enumerate(rows):
        if not isinstance(f, dict):
            continue
        seat = f.get("seat", i)
        total = f.get("total", f.get("points", "?"))
        parts = [label.format(n=f[key]) for key, label in (FINAL_PARTS_DE if de else FINAL_PARTS)
                 if isinstance(f.get(key), int) and (f[key] or key == "seals")]
        line = f"  {_name(names, seat, lang)}: {_points(total, lang)}"
        if parts:
            line += f" ({', '.join(parts)})"
        if isinstance(f.get("money"), int):
            line += (f"; Geld {f['money']} bei Gleichstand" if de
                     else f"; money {f['money']} for a tie")
        lines.append(line)
        lines.extend(f"    {seat_text(words.event(str(x), lang), names)}"
                     for x in f.get("lines", []))
    return lines


def sub_sentence(view: dict[str, Any], names: list[str], you_word: str = "You",
                 lang: str = "en") -> str | None:
    """A public step in progress (the Kloster's swap, the Schule's side) as a sentence."""
    sub = view.get("sub")
    owner = view.get("current")
    if not isinstance(sub, dict) or owner is None:
        return None
    mine = owner == view.get("you")
    kind = sub.get("kind")
    if lang == "de":
        who = "Du" if mine else _name(names, owner, lang)
        if kind == "kloster":
            line = f"{who} nutzt das Kloster"
            if sub.get("from") is not None:
                line += f": eine Karte aus Reihe {sub['from'] + 1}"
                if sub.get("give"):
                    line += f" ({ware_name(sub['give'])})"
                if sub.get("to") is not None:
                    line += f" gegen eine aus Reihe {sub['to'] + 1}"
            return line + "."
        if kind == "kloster_take":
            i, j = (k + 1 for k in sub.get("sets", [0, 0])[:2])
            return (f"{who} {'hast' if mine else 'hat'} mit dem Kloster zwei Karten getauscht "
                    f"und {'nimmst' if mine else 'nimmt'} Reihe {i} oder Reihe {j}.")
        if kind == "school":
            return (f"{who} {'wählst' if mine else 'wählt'} die Seite der Schule: Ritter oder "
                    "Kaufmann.")
        return None
    who = you_word if mine else _name(names, owner)
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


def _head(view: dict[str, Any], lang: str) -> str:
    over = view.get("phase", "") == "over"
    years = view.get("years", "?")
    if lang == "de":
        if over:
            head = f"Riga, nach {years} Jahren: das Spiel ist zu Ende."
        elif (view.get("season") or "setup") == "setup":
            head = f"Riga, Vorbereitung: {years} Jahre zu spielen."
        else:
            season = SEASON_DE.get(view.get("season"), view.get("season"))
            head = f"Riga, Jahr {view.get('year', '?')} von {years}, {season}."
        if (view.get("options") or {}).get("riga"):
            head += " Mit den Riga-Gebäuden."
        return head
    if over:
        head = f"Riga, after {years} years: the game is over."
    elif (view.get("season") or "setup") == "setup":
        head = f"Riga, setting up: {years} years to play."
    else:
        season = SEASON.get(view.get("season"), view.get("season"))
        head = f"Riga, year {view.get('year', '?')} of {years}, {season}."
    if (view.get("options") or {}).get("riga"):
        head += " With the Riga buildings."
    return head


def _table_lines(view: dict[str, Any], names: list[str], lang: str) -> list[str]:
    """Who is to move, the key, the row, the sets and the piles."""
    de = lang == "de"
    phase = view.get("phase", "")
    over = phase == "over"
    you = view.get("you")
    lines = []
    moving = list(view.get("to_move") or [])
    if not over and moving and phase in DOING:
        if de:
            who = ", ".join(("Du" if s == you else _name(names, s, lang)) for s in moving)
            lines.append(f"Am Zug: {who} – {DOING_DE[phase]}.")
        else:
            who = ", ".join(("you" if s == you else _name(names, s)) for s in moving)
            verb = "are" if len(moving) > 1 or moving == [you] else "is"
            if who.startswith("you"):
                who = "Y" + who[1:]
            lines.append(f"{who} {verb} {DOING[phase]}.")
    if view.get("start") is not None and not over:
        lines.append(f"{'Startspieler' if de else 'Start player'}: "
                     f"{_name(names, view['start'], lang)}.")
    if de:
        lines.append("Waren und ihr Grundwert: " + ", ".join(
            f"{ware_name(c)} {data.WERT[c]}" for c in data.WAREN)
            + ". Auf einem Gebäude markiert ! eine Ware, die in seiner Stadt mehr wert ist, "
              "– eine, die dort nicht zahlt.")
    else:
        lines.append("Commodities and their regular value: " + ", ".join(
            f"{ware_name(c)} ({data.WARE_ENGLISH[c]}) {data.WERT[c]}" for c in data.WAREN)
            + ". On a building, ! marks one worth more in its city, – one it refuses.")

    row = view.get("row") or []
    if row:
        lines.append("")
        lines.append("Gebäude in der Auslage, neueste zuerst:" if de
                     else "Buildings in the row, newest first:")
        below = int(view.get("below") or 0)
        for i, b in enumerate(reversed(row)):
            if below and i == len(row) - below:
                lines.append("  -- Trenn-Karte: darunter die Gebäude des Vorjahres, im "
                             "Frühling abgeworfen --" if de else
                             "  -- separation card: below it, last year's buildings, "
                             "discarded in spring --")
            lines.append(f"  {building_line(b, lang)}")
    sets = view.get("sets") or []
    if sets:
        lines.append("")
        lines.append("Warenreihen:" if de else "Commodity sets:")
        for i, s in enumerate(sets):
            cards = ", ".join(ware_name(c) for c in s.get("waren", [])) or (
                "leer" if de else "empty")
            if de:
                lines.append(f"  Reihe {i + 1}: {cards} = {s.get('value', '?')} Dukaten")
            else:
                lines.append(f"  set {i + 1}: {cards} = {s.get('value', '?')} ducats")
    piles = view.get("piles")
    if piles and de:
        lines.append(f"Stapel: Waren {piles.get('waren', 0)} (Ablage "
                     f"{piles.get('waren_discard', 0)}), Gebäude {piles.get('bau', 0)} "
                     f"(Ablage {piles.get('bau_discard', 0)}), abgetrennt "
                     f"{piles.get('separated', 0)}.")
    elif piles:
        lines.append(f"Piles: commodities {piles.get('waren', 0)} (discard "
                     f"{piles.get('waren_discard', 0)}), buildings {piles.get('bau', 0)} "
                     f"(discard {piles.get('bau_discard', 0)}), set apart "
                     f"{piles.get('separated', 0)}.")
    return lines


def _seat_lines(view: dict[str, Any], entry: dict[str, Any], names: list[str],
                lang: str) -> list[str]:
    de = lang == "de"
    phase = view.get("phase", "")
    over = phase == "over"
    you = view.get("you")
    s = entry["seat"]
    lines = [""]
    title = _name(names, s, lang) + ((" (Du)" if de else " (you)") if s == you else "")
    if s == view.get("start") and not over:
        title += " [Startspieler]" if de else " [start player]"
    limit = entry.get("hand_limit", 8 if entry.get("speicher") else 6)
    if de:
        lines.append(
            f"{title}: {_points(entry.get('points', 0), lang)}; Hand "
            f"{entry.get('hand_count', 0)} ("
            f"{_plural(entry.get('waren_count', 0), 'Ware', 'Waren')}, "
            f"{entry.get('gebaeude_count', 0)} Gebäude); "
            f"Ritter {entry.get('ritter', 0)}, Kaufleute {entry.get('kaufleute', 0)}"
            + (f"; Handlimit {entry.get('hand_limit', 8)} (Speicher)" if limit > 6 else ""))
    else:
        lines.append(
            f"{title}: {_points(entry.get('points', 0), lang)}; hand "
            f"{entry.get('hand_count', 0)} ("
            f"{_plural(entry.get('waren_count', 0), 'commodity', 'commodities')}, "
            f"{_plural(entry.get('gebaeude_count', 0), 'building', 'buildings')}); "
            f"knights {entry.get('ritter', 0)}, merchants {entry.get('kaufleute', 0)}"
            + (f"; hand limit {entry.get('hand_limit', 8)} (Speicher)" if limit > 6 else ""))
    if entry.get("revealed") and phase in ("reveal", "choose_start", "keep"):
        cards = entry["revealed"]
        lines.append(f"  {'zu Beginn aufgedeckt' if de else 'revealed at the start'}: "
                     f"{', '.join(ware_name(c) for c in cards)}"
                     f" = {sum(data.WERT.get(c, 0) for c in cards)}")
    display = entry.get("display") or []
    empty = "noch keine Gebäude" if de else "no buildings yet"
    lines.append(f"  {'Auslage' if de else 'display'}: "
                 + ("; ".join(_display_item(d, lang) for d in display) if display else empty))
    if entry.get("riga_left"):
        lines.append(f"  {'Riga-Gebäude verdeckt' if de else 'Riga buildings face down'}: "
                     + ", ".join(entry["riga_left"]))
    if s != you and entry.get("hand"):  # only the archive's view holds other hands
        lines.extend(_hand_lines(entry["hand"], "  Hand " if de else "  hand ", lang))
    return lines


def _own_lines(view: dict[str, Any], names: list[str], lang: str) -> list[str]:
    """The viewer's hand, a step in progress, the setup offer, the project, a draw."""
    de = lang == "de"
    you = view.get("you")
    lines: list[str] = []
    if you is not None and view.get("hand") is not None:
        lines.append("")
        lines.append("Deine Hand:" if de else "Your hand:")
        lines.extend(_hand_lines(view["hand"], "  ", lang))
    step = sub_sentence(view, names, lang=lang)
    if step:
        lines.append("")
        lines.append(step)
    offer = view.get("keep_offer")
    if you is not None and offer:
        lines.append("")
        lines.append("Behalte eines dieser zwei Gebäude (das andere wird abgeworfen):" if de
                     else "Keep one of these two buildings (the other is discarded):")
        lines.extend(f"  {building_line(b, lang)}" for b in offer)
        if view.get("kept"):
            kept = building_name(view["kept"])
            lines.append(f"Du behältst {kept} (geheim, bis alle gewählt haben)." if de
                         else f"You keep {kept} (secret until all have chosen).")
    project = view.get("project")
    if project:
        names_ = " + ".join(building_name(b) for b in project.get("buildings", []))
        paid = waren_text(project.get("paid") or {}, lang)
        lines.append("")
        owner = view.get("current")
        mine = owner == you and you is not None
        if de:
            who = "Du baust" if mine else (
                f"{_name(names, owner, lang)} baut" if owner is not None else "Bau:")
            lines.append(f"{who} {names_}: Kosten {project.get('cost', '?')}, bezahlt "
                         f"{project.get('paid_value', 0)} ({paid}).")
        else:
            who = "You are building" if mine else (
                f"{_name(names, owner)} is building" if owner is not None else "Building")
            lines.append(f"{who} {names_}: cost {project.get('cost', '?')}, paid "
                         f"{project.get('paid_value', 0)} ({paid}).")
        if project.get("functions"):
            lines.append(("  genutzt: " if de else "  using ")
                         + ", ".join(building_name(f) for f in project["functions"]))
    pending = view.get("pending_draw")
    if pending:
        cards = pending.get("cards", [])
        lines.append("")
        buildings = any(isinstance(c, dict) or data.is_building(str(c)) for c in cards)
        if de:
            kind = pending.get("kind", "Bauhof" if buildings else "Schatzkammer")
            source = words.ART_DEM.get(kind, kind)
            if buildings:
                lines.append(f"Mit {source} gezogen: behalte eines dieser Gebäude oder "
                             "keines:")
            else:
                lines.append(f"Mit {source} gezogen, behalte eine: "
                             + (", ".join(ware_name(c) for c in cards)
                                or "nichts mehr zu ziehen") + ".")
        elif buildings:
            lines.append(f"Your {pending.get('kind', 'Bauhof')} draw: keep one of these "
                         "buildings, or none:")
        else:
            lines.append(f"Your {pending.get('kind', 'draw')} draw, keep one: "
                         + (", ".join(ware_name(c) for c in cards) or "nothing left to draw")
                         + ".")
        if buildings:
            lines.extend(
                f"  {building_line(c if isinstance(c, dict) else building_view(c), lang)}"
                for c in cards)
    elif view.get("drawing") and view.get("current") is not None:
        lines.append("")
        if de:
            lines.append(f"{_name(names, view['current'], lang)} zieht mit "
                         f"{words.ART_DEM.get(view['drawing'], view['drawing'])}.")
        else:
            lines.append(f"{_name(names, view['current'])} is drawing with the "
                         f"{view['drawing']}.")
    return lines


def render_text(view: dict[str, Any], names: list[str], lang: str = "en") -> str:
    """``view`` as plain text for a mail; ``names`` are the players' names by seat;
    ``lang`` "de" German, anything else English."""
    lang = "de" if lang == "de" else "en"
    de = lang == "de"
    lines = [_head(view, lang)]
    lines.extend(_table_lines(view, names, lang))
    for entry in view.get("seats") or []:
        lines.extend(_seat_lines(view, entry, names, lang))
    lines.extend(_own_lines(view, names, lang))

    events = view.get("events") or []
    if events:
        lines.append("")
        lines.append("Dieses Jahr:" if de else "This year:")
        lines.extend(f"  {seat_text(words.event(str(e), lang), names)}" for e in events)
    final = view.get("final")
    if final:
        rows = _final_lines(final, names, lang)
        if rows:
            lines.append("")
            lines.append("Schlusswertung:" if de else "Final scoring:")
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
