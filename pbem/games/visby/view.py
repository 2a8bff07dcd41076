"""What one seat of Visby may see, and how it reads as plain text.

Everyone holds the same eight cards and the discard piles lie open, so hands
are public knowledge in principle; the only secret is the card a player has
chosen this round before all cards are revealed.  A seat's view therefore has
its own hand and pending choice, and of the others only how many cards they
have chosen so far.
"""

from __future__ import annotations

from typing import Any

from pbem.games.protocol import EVERYTHING, View
from pbem.games.render import seat_text
from pbem.games.visby import data, rules, words


def build_view(state: dict[str, Any], seat: int | None) -> View:
    n = state["players"]
    sees_all = seat == EVERYTHING
    kurs_feld = state["kurs_feld"] if state["kurs_feld"] is not None else state["tracks"]["Markt"]
    kurs = data.MARKT[kurs_feld]
    moving = rules.to_move(state)
    seats = []
    for s in range(n):
        hand = rules.cards_held(state, s)
        entry: dict[str, Any] = {
            "seat": s,
            "goods": state["goods"][s],
            "seals": state["seals"][s],
            "hand_count": len(hand),
            "discard": list(state["discard"][s]),
            "chosen_count": len(state["chosen"][s]),
            "choosing": state["phase"] == "choose" and s in moving,
            "trading": state["phase"] == "trade" and s in moving,
            "played": list(state["played"][s]),
        }
        if sees_all or s == seat:
            entry["hand"] = hand
            entry["chosen"] = list(state["chosen"][s])
        seats.append(entry)
    view: View = {
        "game": "visby",
        "you": seat if seat is not None and seat >= 0 else None,
        "round": state["round"],
        "phase": state["phase"],
        "players": n,
        "target": state["options"]["target"],
        "cards_per_round": rules.cards_per_round(state),
        "tracks": dict(state["tracks"]),
        "kurs_feld": kurs_feld,
        "kurs": str(kurs) if kurs else None,
        "to_move": moving,
        "seats": seats,
        "events": list(state["events"]),
        # the same lines in German, for a German page (the template reads no Python)
        "events_de": [words.event(e, "de") for e in state["events"]],
        "events_round": state["events_round"],
    }
    if state["phase"] == "trade":
        view["rates"] = [f"{w}:{s}" for w, s in rules.rates_up_to(state["kurs_feld"])]
    if state["phase"] == "over":
        view["final"] = [
            {"seat": s, "seals": rules.final_seals(state, s),
             "restwaren": rules.restwaren(state, s)}
            for s in range(n)
        ]
    return view


def _cards(cards: list[str], lang: str = "en") -> str:
    return ", ".join(cards) if cards else ("keine" if lang == "de" else "none")


def render_text(view: View, names: list[str], lang: str = "en") -> str:
    """A view as plain text in ``lang`` (German or English): fits a 72-column mail and
    reads without markup."""
    if words.lang_of(lang) == "de":
        return _render_text_de(view, names)
    lines = [f"Visby, round {view['round']}. Game ends at {view['target']} seals."]
    t = view["tracks"]
    kurs = view["kurs"] or "no exchange"
    lines.append(
        f"Board: Feldzug {rules.amount(t['Feldzug'], 'seal')}, "
        f"Handelsfahrt {rules.amount(t['Handelsfahrt'], 'goods')}, "
        f"Markt field {view['kurs_feld']} (rate {kurs})."
    )
    lines.append("")
    width = max(len(n) for n in names)
    for entry in view["seats"]:
        name = names[entry["seat"]].ljust(width)
        status = ""
        if entry["choosing"]:
            status = f"  - choosing ({entry['chosen_count']}/{view['cards_per_round']} chosen)"
        elif entry["trading"]:
            status = "  - trading"
        lines.append(
            f"{name}  {entry['seals']:>2} seals  {entry['goods']:>2} goods  "
            f"{entry['hand_count']} cards in hand{status}"
        )
        lines.append(f"{' ' * width}  discard: {_cards(entry['discard'])}")
        if view["you"] is None and "hand" in entry:
            # Only the all-seeing view (the archive) has other seats' hands.
            lines.append(f"{' ' * width}  hand: {_cards(entry['hand'])}")
            if entry["chosen"]:
                lines.append(f"{' ' * width}  chosen: {_cards(entry['chosen'])}")
    you = view["you"]
    if you is not None:
        me = view["seats"][you]
        lines.append("")
        lines.append(f"Your hand: {_cards(me['hand'])}")
        if me["chosen"]:
            lines.append(f"You have chosen: {_cards(me['chosen'])} (secret until all have chosen)")
    if view["events"]:
        lines.append("")
        lines.append(f"Round {view['events_round']}:")
        lines.extend(f"  {seat_text(e, names)}" for e in view["events"])
    if view.get("rates"):
        lines.append("")
        lines.append(f"Rates at or below the purse: {', '.join(view['rates'])}")
    if view.get("final"):
        lines.append("")
        lines.append("Final seals (goods converted 3:1):")
        for f in view["final"]:
            lines.append(f"  {names[f['seat']]}: {f['seals']} ({f['restwaren']} goods left over)")
    return "\n".join(lines)


def _render_text_de(view: View, names: list[str]) -> str:
    """``render_text`` in German (card and track names as printed)."""
    lines = [f"Visby, Durchgang {view['round']}. Das Spiel endet bei {view['target']} Siegeln."]
    t = view["tracks"]
    kurs = view["kurs"] or "kein Tausch"
    lines.append(
        f"Spielplan: Feldzug {words.seals(t['Feldzug'])}, "
        f"Handelsfahrt {words.goods(t['Handelsfahrt'])}, "
        f"Markt Feld {view['kurs_feld']} (Kurs {kurs})."
    )
    lines.append("")
    width = max(len(n) for n in names)
    for entry in view["seats"]:
        name = names[entry["seat"]].ljust(width)
        status = ""
        if entry["choosing"]:
            status = (f"  - wählt ({entry['chosen_count']}/{view['cards_per_round']} "
                      "gewählt)")
        elif entry["trading"]:
            status = "  - handelt"
        lines.append(
            f"{name}  {entry['seals']:>2} Siegel  {entry['goods']:>2} Waren  "
            f"{entry['hand_count']} Karten auf der Hand{status}"
        )
        lines.append(f"{' ' * width}  Ablage: {_cards(entry['discard'], 'de')}")
        if view["you"] is None and "hand" in entry:
            # Only the all-seeing view (the archive) has other seats' hands.
            lines.append(f"{' ' * width}  Hand: {_cards(entry['hand'], 'de')}")
            if entry["chosen"]:
                lines.append(f"{' ' * width}  gewählt: {_cards(entry['chosen'], 'de')}")
    you = view["you"]
    if you is not None:
        me = view["seats"][you]
        lines.append("")
        lines.append(f"Deine Hand: {_cards(me['hand'], 'de')}")
        if me["chosen"]:
            lines.append(f"Du hast gewählt: {_cards(me['chosen'], 'de')} (geheim, bis alle "
                         "gewählt haben)")
    if view["events"]:
        lines.append("")
        lines.append(f"Durchgang {view['events_round']}:")
        lines.extend(f"  {seat_text(words.event(e, 'de'), names)}" for e in view["events"])
    if view.get("rates"):
        lines.append("")
        lines.append(f"Kurse bis zum Geldbeutel: {', '.join(view['rates'])}")
    if view.get("final"):
        lines.append("")
        lines.append("Siegel am Ende (Waren 3:1 umgetauscht):")
        for f in view["final"]:
            lines.append(f"  {names[f['seat']]}: {f['seals']} ({words.goods(f['restwaren'])} "
                         "übrig)")
    return "\n".join(lines)
