"""What one seat of Tallinn may see, and how it reads as plain text.

Public: every display (Auslage) and start card, points, how many cards each
seat holds and has on its pile, how many towers each built and where from,
who has still to decide.  Private to a seat: its hand, its pending card
choice and orientation, its pending tower decision, the faces of its own
towers.  Never in a view before the end: the seed, the draw counter, the
order of any pile, another seat's hand, choice or tower faces.  Once the
game is over the towers are turned up for everyone (the final scoring);
``EVERYTHING`` sees all at any time (for the archive).
"""

from __future__ import annotations

from typing import Any

from pbem.games.protocol import EVERYTHING, View
from pbem.games.render import seat_text
from pbem.games.tallinn import data, rules, words
from pbem.games.tallinn.words import card_name, card_text, count, half_text


def half_view(card: str, half: str) -> dict[str, Any]:
    h = rules.half_of(card, half)
    return {
        "card": card,
        "half": half,
        "persons": h.persons(),
        "coin": h.coin_estate(),
        "wappen": h.wappen,
        "text": half_text(h),
        "text_de": half_text(h, "de"),
    }


def card_view(card: str) -> dict[str, Any]:
    """Both halves of a card, for a hand or a turned-up tower."""
    return {
        "card": card,
        "name": card_name(card),
        "text": card_text(card),
        "text_de": card_text(card, "de"),
        "halves": [half_view(card, h) for h in rules.HALVES],
    }


def _status(state: dict[str, Any], seat: int, moving: list[int]) -> str:
    phase = state["phase"]
    if phase == "over":
        return "done"
    if phase == "choose":
        if not state["hand"][seat]:
            return "out of cards"
        return "choosing" if seat in moving else "has chosen"
    if phase == "legat":
        return "choosing the Legat's estate" if seat in moving else "waiting"
    if seat in moving:
        return "deciding about a tower"
    if seat in state["builders"]:
        return "has decided about a tower"
    return "waiting"


def build_view(state: dict[str, Any], seat: int | None) -> View:
    n = state["players"]
    sees_all = seat == EVERYTHING
    over = state["phase"] == "over"
    moving = rules.to_move(state)
    seats = []
    for s in range(n):
        mine = sees_all or s == seat
        start = data.STARTKARTEN[state["start"][s]]
        entry: dict[str, Any] = {
            "seat": s,
            "points": state["points"][s],
            "start": {"card": start.name, "persons": start.persons.persons(),
                      "text": half_text(start.persons),
                      "text_de": half_text(start.persons, "de")},
            "display": [half_view(c, h) for c, h in state["display"][s]],
            "counts": rules.display_counts(state, s),
            "hand_count": len(state["hand"][s]),
            "pile_count": len(state["pile"][s]),
            "tower_count": len(state["towers"][s]),
            "towers": [
                dict({"from": t["from"], "round": t["round"]},
                     **(card_view(t["card"]) if mine or over else {}))
                for t in state["towers"][s]
            ],
            "status": _status(state, s, moving),
            "status_de": words.STATUS_DE.get(_status(state, s, moving), ""),
            "to_move": s in moving,
            "played": half_view(*state["played"][s]) if state["played"][s] else None,
        }
        if state["phase"] == "legat" and state["legat"][s]:
            entry["legat"] = state["legat"][s]  # public: the cards are revealed
        if mine:
            entry["hand"] = [card_view(c) for c in state["hand"][s]]
            chosen = state["chosen"][s]
            entry["chosen"] = half_view(*chosen) if chosen else None
            choice = state["tower_choice"][s]
            entry["tower_choice"] = choice if choice is None or choice == "none" else dict(choice)
        if state["options"]["tower_order"] and state["phase"] == "tower":
            # decided in the open: the source (never the card) is public
            choice = state["tower_choice"][s]
            if choice is not None:
                entry["tower_public"] = "none" if choice == "none" else choice["from"]
        seats.append(entry)
    view: View = {
        "game": "tallinn",
        "you": seat if seat is not None and seat >= 0 else None,
        "round": state["round"],
        "max_rounds": rules.max_rounds(state),
        "phase": state["phase"],
        "players": n,
        "options": dict(state["options"]),
        "to_move": moving,
        "secret": rules.is_secret(state),
        "builders": list(state["builders"]),
        "tower_queue": list(state["tower_queue"]) if state["options"]["tower_order"] else [],
        "seats": seats,
        "events": list(state["events"]),
        # the same lines in German, for a German page (the template reads no Python)
        "events_de": [words.event(e, "de") for e in state["events"]],
        "events_round": state["events_round"],
        "data_version": state.get("data_version", data.DATA_VERSION),
    }
    if over and state["final"]:
        f = state["final"]
        view["final"] = [
            {"seat": s, "before": f["before"][s], "gain": f["gain"][s],
             "points": state["points"][s], "counts": f["counts"][s],
             "legat_bonus": f["legat_bonus"][s], "towers": f["towers"][s],
             "tower_value": f["tower_value"][s], "tower_estate": f["tower_estate"][s],
             "tower_persons": f["tower_persons"][s], "lines": list(f["lines"][s])}
            for s in range(n)
        ]
    return view


# -- plain text ---------------------------------------------------------------------


def counts_text(counts: dict[str, int]) -> str:
    """``Kaufleute 9, Ritter 3, Mönche 6`` (zeros included: they decide contests)."""
    return ", ".join(f"{data.STAND_NAME[c]} {counts[c]}" for c in data.STAENDE)


def _tower_text(towers: list[dict[str, Any]]) -> str:
    if not towers:
        return "no towers"
    parts = []
    for t in towers:
        where = f"from {'the display' if t['from'] == 'display' else 'the hand'}"
        parts.append(f"{t['text']} ({where})" if "text" in t else f"face down ({where})")
    return f"{len(towers)} tower{'s' if len(towers) != 1 else ''}: " + "; ".join(parts)


def render_text(view: View, names: list[str], lang: str = "en") -> str:
    """A view as plain text for a mail in ``lang`` (German or English): reads without
    markup, fits 72 columns mostly."""
    if words.is_german(lang):
        return _render_text_de(view, names)
    phase = view["phase"]
    head = f"Tallinn, round {view['round']} of at most {view['max_rounds']}."
    variants = [v for v, on in (("Der Legat des Kaisers", view["options"]["legat"]),
                                ("tower-order variant", view["options"]["tower_order"])) if on]
    if variants:
        head += f" With {' and '.join(variants)}."
    lines = [head]
    if phase == "over":
        lines.append("The game is over.")
    lines.append("")
    you = view["you"]
    for entry in view["seats"]:
        s = entry["seat"]
        name = names[s] + (" (you)" if s == you else "")
        lines.append(f"{name}: {entry['points']} points; {entry['hand_count']} in hand, "
                     f"{entry['pile_count']} on the pile; {entry['status']}")
        lines.append(f"  persons: {counts_text(entry['counts'])}")
        shown = [entry["start"]["text"] + " (start)"] + [
            f"{d['card']}: {d['text']}" for d in entry["display"]]
        lines.append(f"  display: {'; '.join(shown)}")
        lines.append(f"  {_tower_text(entry['towers'])}")
        if "legat" in entry:
            lines.append(f"  Legat's contest: {data.STAND_NAME[entry['legat']]}")
        if entry.get("tower_public"):
            lines.append(f"  tower decision: {entry['tower_public']}")
        if you is None and "hand" in entry:
            # only the all-seeing view (the archive) has other seats' hands
            hand = ", ".join(c["text"] for c in entry["hand"]) or "none"
            lines.append(f"  hand: {hand}")
            if entry["chosen"]:
                lines.append(f"  chosen: card {entry['chosen']['card']}, "
                             f"{entry['chosen']['text']}")
    if you is not None:
        me = view["seats"][you]
        lines.append("")
        lines.append("Your hand:" if me["hand"] else "Your hand is empty.")
        for card in me["hand"]:
            lines.append(f"  {card['text']}")
        if me["chosen"]:
            lines.append(f"You have chosen card {me['chosen']['card']} with "
                         f"{me['chosen']['text']} active (secret until all have chosen).")
        choice = me["tower_choice"]
        if choice and choice != "none" and phase == "tower":
            lines.append(f"Your tower: card {choice['card']} from your {choice['from']} "
                         "(secret until all have decided).")
        elif choice == "none" and phase == "tower":
            lines.append("You build no tower this round (secret until all have decided).")
    if phase != "over" and view["to_move"]:
        lines.append("")
        waiting = ", ".join(names[s] for s in view["to_move"])
        doing = {"choose": "choosing a card", "legat": "choosing the Legat's estate",
                 "tower": "deciding about a tower"}[phase]
        lines.append(f"Still {doing}: {waiting}")
        if view["tower_queue"]:
            order = ", ".join(names[s] for s in view["tower_queue"])
            lines.append(f"Tower order (variant): {order}")
    if view["events"]:
        lines.append("")
        lines.append(f"Round {view['events_round']}:")
        lines.extend(f"  {seat_text(e, names)}" for e in view["events"])
    if view.get("final"):
        lines.append("")
        lines.append("Final scoring:")
        for f in view["final"]:
            bonus = (f", Legat +2 {data.STAND_NAME[f['legat_bonus']]}"
                     if f["legat_bonus"] else "")
            tower = (f"{count(f['tower_value'], f['tower_estate'])}"
                     if f["tower_estate"] else "none")
            sign = "+" if f["gain"] >= 0 else ""
            lines.append(f"  {names[f['seat']]}: {f['before']} {sign}{f['gain']} = "
                         f"{f['points']}; {counts_text(f['counts'])}{bonus}; "
                         f"towers {tower} ({f['tower_persons']} persons)")
    return "\n".join(lines)


def _tower_text_de(towers: list[dict[str, Any]]) -> str:
    if not towers:
        return "keine Türme"
    parts = []
    for t in towers:
        where = f"aus der {words.SOURCE_DE.get(t['from'], t['from'])}"
        parts.append(f"{t['text_de']} ({where})" if "text_de" in t else f"verdeckt ({where})")
    return f"{len(towers)} {'Turm' if len(towers) == 1 else 'Türme'}: " + "; ".join(parts)


def _render_text_de(view: View, names: list[str]) -> str:
    """``render_text`` in German (estate names as printed)."""
    phase = view["phase"]
    head = f"Tallinn, Durchgang {view['round']} von höchstens {view['max_rounds']}."
    variants = [v for v, on in (("Der Legat des Kaisers", view["options"]["legat"]),
                                ("Variante Turmreihenfolge", view["options"]["tower_order"]))
                if on]
    if variants:
        head += f" Mit {' und '.join(variants)}."
    lines = [head]
    if phase == "over":
        lines.append("Das Spiel ist aus.")
    lines.append("")
    you = view["you"]
    for entry in view["seats"]:
        s = entry["seat"]
        name = names[s] + (" (du)" if s == you else "")
        status = entry.get("status_de") or entry["status"]
        lines.append(f"{name}: {entry['points']} Punkte; {entry['hand_count']} auf der Hand, "
                     f"{entry['pile_count']} im Stapel; {status}")
        lines.append(f"  Personen: {counts_text(entry['counts'])}")
        shown = [entry["start"].get("text_de", entry["start"]["text"]) + " (Start)"] + [
            f"{d['card']}: {d['text_de']}" for d in entry["display"]]
        lines.append(f"  Auslage: {'; '.join(shown)}")
        lines.append(f"  {_tower_text_de(entry['towers'])}")
        if "legat" in entry:
            lines.append(f"  Wettstreit des Legaten: {data.STAND_NAME[entry['legat']]}")
        if entry.get("tower_public"):
            public = entry["tower_public"]
            said = "kein Turm" if public == "none" else f"aus der {words.SOURCE_DE[public]}"
            lines.append(f"  Turmentscheidung: {said}")
        if you is None and "hand" in entry:
            # only the all-seeing view (the archive) has other seats' hands
            hand = ", ".join(c["text_de"] for c in entry["hand"]) or "keine"
            lines.append(f"  Hand: {hand}")
            if entry["chosen"]:
                lines.append(f"  gewählt: Karte {entry['chosen']['card']}, "
                             f"{entry['chosen']['text_de']}")
    if you is not None:
        me = view["seats"][you]
        lines.append("")
        lines.append("Deine Hand:" if me["hand"] else "Deine Hand ist leer.")
        for card in me["hand"]:
            lines.append(f"  {card['text_de']}")
        if me["chosen"]:
            lines.append(f"Du hast Karte {me['chosen']['card']} mit "
                         f"{me['chosen']['text_de']} aktiv gewählt (geheim, bis alle gewählt "
                         "haben).")
        choice = me["tower_choice"]
        if choice and choice != "none" and phase == "tower":
            lines.append(f"Dein Turm: Karte {choice['card']} aus deiner "
                         f"{words.SOURCE_DE[choice['from']]} (geheim, bis alle entschieden "
                         "haben).")
        elif choice == "none" and phase == "tower":
            lines.append("Du baust in diesem Durchgang keinen Turm (geheim, bis alle "
                         "entschieden haben).")
    if phase != "over" and view["to_move"]:
        lines.append("")
        waiting = ", ".join(names[s] for s in view["to_move"])
        doing = {"choose": "Wählen noch eine Karte", "legat": "Wählen noch den Stand des "
                 "Legaten", "tower": "Entscheiden noch über einen Turm"}[phase]
        lines.append(f"{doing}: {waiting}")
        if view["tower_queue"]:
            order = ", ".join(names[s] for s in view["tower_queue"])
            lines.append(f"Turmreihenfolge (Variante): {order}")
    if view["events"]:
        lines.append("")
        lines.append(f"Durchgang {view['events_round']}:")
        lines.extend(f"  {seat_text(words.event(e, 'de'), names)}" for e in view["events"])
    if view.get("final"):
        lines.append("")
        lines.append("Schlusswertung:")
        for f in view["final"]:
            bonus = (f", Legat +2 {data.STAND_NAME[f['legat_bonus']]}"
                     if f["legat_bonus"] else "")
            tower = (f"{count(f['tower_value'], f['tower_estate'])}"
                     if f["tower_estate"] else "keine")
            sign = "+" if f["gain"] >= 0 else ""
            lines.append(f"  {names[f['seat']]}: {f['before']} {sign}{f['gain']} = "
                         f"{f['points']}; {counts_text(f['counts'])}{bonus}; "
                         f"Türme {tower} ({f['tower_persons']} Personen)")
    return "\n".join(lines)
