"""A view of Ziehen as plain text, for mails and the seat page: one renderer for
every language (the words are in ``words``)."""

from __future__ import annotations

from pbem.games.protocol import View
from pbem.games.ziehen.words import words


def render(view: View, names: list[str], lang: str = "en") -> str:
    w = words(lang)
    lines = [w["heading"].format(round=view["round"], rounds=view["rounds"],
                                 deck=view["deck_count"])]
    for entry in view["seats"]:
        hand = f": {', '.join(entry['hand'])}" if "hand" in entry else ""
        lines.append(w["seat"].format(name=names[entry["seat"]], cards=entry["cards"],
                                      hand=hand))
    return "\n".join(lines)
