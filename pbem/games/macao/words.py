"""How Macao's cards, cubes, goods and moves read in German (as printed) and English."""

from __future__ import annotations

from pbem.games.macao import data

#: English glosses of the card names R prints
GLOSS = {
    "Amtsstube": "office room", "Böttcherei": "cooperage", "Edler": "nobleman",
    "Festung": "fortress", "Gericht": "court", "Gesandter": "envoy",
    "Goldsucher": "gold prospector", "Handwerker": "craftsman", "Kapitän": "captain",
    "Kathedrale": "cathedral", "Gaukler": "juggler", "Müßiggänger": "idler",
    "Professor": "professor", "Archiv": "archive", "Graf": "count", "Kran": "crane",
    "Heiler": "healer", "Baronesse": "baroness", "Gouverneur": "governor",
    "Hebamme": "midwife", "Präfektur": "prefecture", "Ratsherr": "councillor",
    "Residenz": "residence", "Sitzungssaal": "council chamber",
    "Vizegouverneur": "vice governor",
    "Palast": "palace", "Pfandleihe": "pawnshop", "Rathaus": "town hall",
    "Schatzkammer": "treasury", "Segelmacherei": "sail maker", "Soldat": "soldier",
    "Steinbruch": "quarry", "Steuermann": "helmsman", "Turm": "tower",
    "Zollstation": "customs house", "Abt": "abbot", "Statue": "statue", "Schmiede": "smithy",
    "Militärwesen": "military", "Justiz": "justice", "Verwaltung": "administration",
    "Finanzen": "finance", "Bau": "building", "Zoll": "customs",
    # the twelve of data version 2 (effects reconstructed, names as R prints them)
    "Brunnen": "fountain", "Kanonier": "gunner", "Tor": "gate", "Wachposten": "sentry post",
    "Herold": "herald", "Nachtwächter": "night watchman", "Spekulant": "speculator",
    "Zimmermann": "carpenter", "Leuchtturm": "lighthouse", "Schiffsjunge": "ship's boy",
    "Botschaft": "embassy", "Diplomat": "diplomat",
}

#: one line of what a card does, in English (German: the card's text from ``data``)
HELP_EN = {
    "gain": "Once per round: {what}.",
    "office_pp": "Once per round: 1 PP per own activated office card „{0}“.",
    "convert": "Once per round: any multiple of: give {give}, take {take}.",
    "colours_pp": "Once per round: give cubes of different colours (up to 6), 1 PP each.",
    "end_pp": "Game end: {0} PP.",
    "palast": "Game end: 2 PP per own activated card that scores at game end (this one too).",
    "turm": "Your disc always lies on top of its stack on the wall.",
    "abt": "Game end: no penalty markers for cards left on your tableau.",
    "boettcherei": "Each goods tile you deliver: 1 PP more.",
    "lager": "Each tile of {0} you deliver: double prestige.",
    "kapitaen": "Once per round: 1 PP if your ship moved at least 2 fields.",
    "amtsstube": "Once per round: 1 PP if you used an office card.",
    "gesandter": "Whenever you buy prestige at the tribute: 1 cube of any colour.",
    "pfandleihe": "Once per round: 1 gold if you received gold this round.",
    "soldat": "Once per round: 1 gold per 4 own markers in the city.",
    "handwerker": "Once per round: your next activation needs its cubes only in your supply.",
    "gaukler": "Each joker counts twice: 2 cubes, 1 cube and 3 gold, or 6 gold.",
    "muessig": "Card phase: you need not take a card.",
    "professor": "Dice phase: 1 gold for each die showing 1 that you take.",
    "reduce": "Each activation costs you 1 {0} cube less (at least 1 cube).",
    "free_move": "Once per round: pay {0} gold, move your ship up to {1} fields for free.",
    "free_move_cube": "Once per round: pay {2} cube(s) of any colour, move your ship up to "
                      "{1} fields for free.",
    "on_district": "Whenever you take a district: {what}.",
    "on_district_dark": "Whenever you take a dark district (with a joker): {what}.",
    "districts": "You may take up to {0} districts in your turn.",
    "district_swap": "Once per round: one cube of a district's cost may be of any colour.",
    "wall_cost": "Each field you advance on the wall costs only {0} cube.",
    "wall_below": "While another disc lies on yours, advancing on the wall costs {0} cube "
                  "less.",
    "landed_on": "Whenever another disc lands on yours on the wall: {what}.",
    "free_harbour": "Once per round: sail into a harbour without paying a cube.",
    "tribute_mod": "Whenever you buy prestige at the tribute: {what}.",
}


def _res(res: dict[str, int]) -> str:
    parts = []
    for key, word in (("gold", "gold"), ("pp", "PP"), ("any", "cube(s) of any colour")):
        if res.get(key):
            parts.append(f"{res[key]} {word}")
    return " and ".join(parts)


def card_name(cid: str, lang: str = "en") -> str:
    """``Turm`` (German) or ``Turm (tower)`` (English)."""
    card = data.CARDS[cid]
    base = card.name.rsplit(" ", 1)[0] if card.kind == "amt" else card.name
    if lang == "de":
        return card.name
    if card.name.endswith("lager"):     # the eight Lager: "Reislager (rice warehouse)"
        good = card.name[:-len("lager")]
        return f"{card.name} ({data.GOODS_EN.get(good, good)} warehouse)"
    gloss = GLOSS.get(base)
    return f"{card.name} ({gloss})" if gloss else card.name


def card_help(cid: str, lang: str = "en") -> str:
    """One line of what the card does, from the data file."""
    card = data.CARDS[cid]
    if lang == "de":
        return card.text
    kind, *params = card.effect
    if card.name.endswith("lager"):
        return HELP_EN["lager"].format(f"{params[0]} ({data.GOODS_EN[params[0]]})")
    if kind == "gain":
        return HELP_EN["gain"].format(what=_res(params[0]))
    if kind == "convert":
        return HELP_EN["convert"].format(give=_res(params[0]), take=_res(params[1]))
    if kind == "free_move" and len(params) > 2:
        return HELP_EN["free_move_cube"].format(*params)
    if kind == "on_district" and params[0].get("wall"):
        return ("Whenever you take a district: your disc moves 1 field on along the wall, "
                "free (your own advance this turn stays yours).")
    if kind == "on_district":
        key = "on_district_dark" if params[1] == "dark" else "on_district"
        return HELP_EN[key].format(what=_res(params[0]))
    if kind == "landed_on":
        return HELP_EN[kind].format(what=_res(params[0]))
    if kind == "tribute_mod":
        gold, pp = params
        what = [f"pay {-gold} gold less" if gold < 0 else "", f"{pp} PP more" if pp else ""]
        return HELP_EN[kind].format(what=" and ".join(w for w in what if w))
    return HELP_EN[kind].format(*params)


def cubes(cost: str, lang: str = "en") -> str:
    """``2 rot, 1 blau``: a cube cost or a pool, colours named (not only shown)."""
    names = data.COLOUR_NAME["de" if lang == "de" else "en"]
    return ", ".join(f"{cost.count(c)} {names[c]}" for c in data.COLOURS if c in cost) or "-"


def pool_text(pool: dict[str, int], lang: str = "en") -> str:
    return cubes("".join(c * n for c, n in pool.items()), lang)


def colour(code: str, lang: str = "en") -> str:
    return data.COLOUR_NAME["de" if lang == "de" else "en"][code]


def good(name: str, lang: str = "en") -> str:
    return name if lang == "de" else f"{name} ({data.GOODS_EN[name]})"
