"""How Riga's moves read, in English and German, with one line of help each; and the
German of the year's events (which ``rules`` writes in English into the state).

Buildings and commodities keep their printed German names in both languages
(Getreide is printed "Korn"); English readers get a gloss where it helps.  The
move sentences (``describe``) and the mail text (``text``) keep their two
languages side by side in their own modules; the page template has its own words.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from pbem.games.protocol import Choice, State
from pbem.games.riga import data, rules


def ware(code: str, lang: str = "en") -> str:
    """``Korn`` (German) or ``Korn (grain)`` (English)."""
    name = data.WARE_NAME.get(code, code)
    return name if lang == "de" else f"{name} ({data.WARE_ENGLISH.get(code, code)})"


def building(ident: str, lang: str = "en") -> str:
    """``Kran in Visby`` / ``Kran (crane) in Visby``; Riga buildings without a city."""
    g = data.gebaeude(ident)
    name = g.art if lang == "de" else f"{g.art} ({data.ART_ENGLISH[g.art]})"
    if g.stadt == data.RIGA:
        return f"{name} ({'Riga-Gebäude' if lang == 'de' else 'Riga building'})"
    return f"{name} in {g.stadt}"


def building_facts(ident: str, lang: str = "en") -> str:
    g = data.gebaeude(ident)
    if lang == "de":
        return f"kostet {g.kosten}, {g.punkte} Siegpunkte"
    return f"costs {g.kosten}, {g.punkte} points"


_GROUP = {
    "en": {"row": "buildings in the row", "sets": "commodity sets",
           "functions": "your buildings' functions", "add": "add a building of the same city",
           "buildings": "buildings in your hand"},
    "de": {"row": "Gebäude der Auslage", "sets": "Warenreihen",
           "functions": "Funktionen Deiner Gebäude", "add": "Gebäude derselben Stadt dazunehmen",
           "buildings": "Gebäude auf der Hand"},
}

_USE = {
    "en": {"Kontor": ("Use a Kontor: +4 Dukaten", "Once per Kontor: 4 Dukaten towards this "
                      "project."),
           "Bank": ("Use a Bank: +{money} Dukaten", "Once per Bank: 2 Dukaten per Kaufmann."),
           "Wirtshaus": ("Use a Wirtshaus: +{money} Dukaten",
                         "Once per Wirtshaus: 2 Dukaten per Ritter."),
           "Kran": ("Use a Kran: halve a building's cost",
                    "Once per Kran: the most expensive building without a Kran costs half, "
                    "rounded up."),
           "Wechselstube": ("Turn the Wechselstube to 0: +8 Dukaten",
                            "Its 8 Dukaten pay towards this project."),
           "Bauhof": ("Use a Bauhof: draw 5 buildings", "Once per Bauhof: keep one of them "
                      "(or none), the rest are discarded."),
           "Schatzkammer": ("Use a Schatzkammer: draw 3 commodities",
                            "Once per Schatzkammer: keep one of them, discard the others.")},
    "de": {"Kontor": ("Kontor nutzen: +4 Dukaten", "1x je Kontor: 4 Dukaten für diesen Bau."),
           "Bank": ("Bank nutzen: +{money} Dukaten", "1x je Bank: 2 Dukaten je Kaufmann."),
           "Wirtshaus": ("Wirtshaus nutzen: +{money} Dukaten",
                         "1x je Wirtshaus: 2 Dukaten je Ritter."),
           "Kran": ("Kran nutzen: Baukosten halbieren", "1x je Kran: das teuerste Gebäude ohne "
                    "Kran kostet die Hälfte, aufgerundet."),
           "Wechselstube": ("Wechselstube auf 0 drehen: +8 Dukaten",
                            "Ihre 8 Dukaten zahlen für diesen Bau."),
           "Bauhof": ("Bauhof nutzen: 5 Gebäude ziehen", "1x je Bauhof: eines davon (oder "
                      "keines) auf die Hand, den Rest ablegen."),
           "Schatzkammer": ("Schatzkammer nutzen: 3 Waren ziehen",
                            "1x je Schatzkammer: eine davon auf die Hand, den Rest ablegen.")},
}


def choice(state: State, seat: int, move: str, lang: str = "en") -> Choice:
    """A move as a menu entry in ``lang``: label, group and one line of help."""
    de = lang == "de"
    words = move.split()
    verb, args = words[0], words[1:]
    arg = args[0] if args else ""

    def c(label_en: str, label_de: str, group: str = "", help_en: str = "",
          help_de: str = "") -> Choice:
        return Choice(move, label_de if de else label_en, group,
                      help_de if de else help_en)

    if verb == "start":
        k = int(arg) - 1
        return c(f"Make {{{k}}} start player", f"{{{k}}} wird Startspieler",
                 "Startspieler" if de else "start player",
                 "The start player takes the first turn of the summer." if k >= 0 else "",
                 "Der Startspieler macht den ersten Zug im Sommer.")
    if verb in ("keep", "take", "build", "add", "choose") and data.is_building(arg):
        facts = building_facts(arg, lang)
        name = building(arg, lang)
        help_line = data.help_line(arg, lang)
        if verb == "keep":
            return c(f"Keep {name} ({facts})", f"{name} behalten ({facts})",
                     "Gebäude" if de else "building", help_line, help_line)
        if verb == "take":
            return c(f"Take {name} from the row ({facts})", f"{name} aus der Auslage nehmen "
                     f"({facts})", _GROUP[lang if de else "en"]["row"], help_line, help_line)
        if verb == "build":
            return c(f"Build {name} ({facts})", f"{name} bauen ({facts})",
                     data.gebaeude(arg).stadt, help_line, help_line)
        if verb == "add":
            return c(f"Add {name} to this project ({facts})", f"{name} dazunehmen ({facts})",
                     _GROUP["de" if de else "en"]["add"],
                     "Buildings of one city are paid together.",
                     "Gebäude derselben Stadt werden zusammen bezahlt.")
        return c(f"Keep {name} ({facts})", f"{name} auf die Hand nehmen ({facts})",
                 "Bauhof", help_line, help_line)
    if verb == "take" and arg == "set":
        k = int(args[1]) - 1
        cards = state["sets"][k]
        listed = ", ".join(data.WARE_NAME[w] for w in cards)
        value = rules.set_value(cards)
        return c(f"Take set {k + 1}: {listed} (value {value})",
                 f"Reihe {k + 1} nehmen: {listed} (Wert {value})",
                 "Waren" if de else "commodities", "All its cards go to your hand.",
                 "Alle ihre Karten kommen auf Deine Hand.")
    if verb == "choose":
        if arg == "none":
            return c("Keep none of them", "Keines davon nehmen", "Bauhof",
                     "All drawn buildings are discarded.", "Alle gezogenen Gebäude abwerfen.")
        return c(f"Keep {ware(arg, lang)}", f"{ware(arg, lang)} behalten", "Schatzkammer",
                 "The other drawn commodities are discarded.",
                 "Die anderen gezogenen Waren kommen auf den Ablagestapel.")
    if verb == "kloster":
        return c("Use the Kloster: swap two commodities of two sets",
                 "Kloster nutzen: zwei Waren zweier Reihen tauschen", "Kloster",
                 data.help_line("Kloster", "en"), data.help_line("Kloster", "de"))
    if verb in ("from", "to"):
        k = int(arg) - 1
        listed = ", ".join(data.WARE_NAME[w] for w in state["sets"][k])
        first = verb == "from"
        return c(f"{'Take a card from' if first else 'Swap with'} set {arg} ({listed})",
                 f"{'Karte aus' if first else 'Tauschen mit'} Reihe {arg} ({listed})", "Kloster",
                 "Choose the sets of the swap one by one.",
                 "Die Reihen des Tauschs nacheinander wählen.")
    if verb in ("give", "get"):
        first = verb == "give"
        return c(f"{'Give' if first else 'Get'} {ware(arg, lang)}",
                 f"{ware(arg, lang)} {'abgeben' if first else 'bekommen'}", "Kloster",
                 "The two cards change sets.", "Die beiden Karten wechseln die Reihe.")
    if verb == "use":
        label, help_line = _USE["de" if de else "en"][arg]
        r, k = rules.persons(state, seat)
        amount = {"Bank": 2 * k, "Wirtshaus": 2 * r}.get(arg, 0)
        return Choice(move, label.format(money=amount), "Funktionen" if de else "functions",
                      help_line)
    if verb == "pay":
        project = state["project"]
        value = rules.ware_value(state, seat, arg, project["stadt"]) if project else None
        return c(f"Pay 1 {ware(arg, lang)} (worth {value})",
                 f"1 {ware(arg, lang)} zahlen (Wert {value})", "bezahlen" if de else "pay",
                 "The card is discarded when the building is erected.",
                 "Die Karte wird beim Bau abgeworfen.")
    if verb == "finish":
        return c("Erect the building(s): payment complete", "Bauen: Bezahlung vollständig",
                 "bezahlen" if de else "pay", "Any surplus is lost (no change).",
                 "Überzählige Dukaten verfallen.")
    if verb == "cancel" and (state["sub"] or {}).get("kind") == "charge":
        return c("Cancel: keep the commodities", "Abbrechen: Waren behalten", "Wechselstube",
                 "The Wechselstube stays at 0; the cards go back to your hand.",
                 "Die Wechselstube bleibt auf 0; die Karten kommen zurück auf die Hand.")
    if verb == "cancel":
        return c("Cancel: take the cards back", "Abbrechen: Karten zurücknehmen",
                 "bezahlen" if de else "pay", "Nothing is built; cards and functions stay yours.",
                 "Nichts wird gebaut; Karten und Funktionen bleiben.")
    if verb == "school":
        return c(f"Turn the Schule to 1 {arg}", f"Schule auf 1 {arg} drehen", "Schule",
                 "For good: the Schule gives this person.", "Für immer: die Schule zeigt ihn.")
    if verb == "charge":
        return c("Charge the Wechselstube (discard commodities worth 6+, ends the turn)",
                 "Wechselstube aufladen (Waren ab Wert 6 abwerfen, beendet den Zug)",
                 "Wechselstube", data.help_line("Wechselstube", "en"),
                 data.help_line("Wechselstube", "de"))
    if verb == "discard":
        if data.is_building(arg):
            return c(f"Discard {building(arg, lang)}", f"{building(arg, lang)} abwerfen",
                     "Winter", "Down to the hand limit; a building in hand costs 2 at the end.",
                     "Bis zum Handlimit; ein Gebäude auf der Hand kostet am Ende 2 Punkte.")
        return c(f"Discard 1 {ware(arg, lang)} (value {data.WERT[arg]})",
                 f"1 {ware(arg, lang)} abwerfen (Wert {data.WERT[arg]})",
                 "Winter" if state["phase"] == "winter" else "Wechselstube",
                 "One card a step.", "Eine Karte je Schritt.")
    if verb == "end":
        return c("End your turn", "Zug beenden", "Zug" if de else "turn",
                 "Nothing more this turn.", "In diesem Zug nichts mehr.")
    if verb == "menu":
        group = " ".join(args)
        name = _GROUP["de" if de else "en"].get(group, group)
        if group in data.STAEDTE or group == data.RIGA:
            name = f"Gebäude in {group} bauen" if de else f"build in {group}"
        return c(f"Show {name}…", f"{name} zeigen…", "Menü" if de else "menu",
                 "Opens a smaller menu.", "Öffnet ein kleineres Menü.")
    if verb == "more":
        return c("More…", "Weitere…", "Menü" if de else "menu", "The next page of choices.",
                 "Die nächste Seite.")
    if verb == "back":
        return c("Back", "Zurück", "Menü" if de else "menu", "Back to the previous choices.",
                 "Zurück zur vorigen Auswahl.")
    return Choice(move, move)


# -- sentences and events in German ------------------------------------------------------

#: "einen Bauhof": a building art in the accusative with its indefinite article
ART_EIN = {"Bauhof": "einen Bauhof", "Schatzkammer": "eine Schatzkammer",
           "Kontor": "ein Kontor", "Bank": "eine Bank", "Wirtshaus": "ein Wirtshaus",
           "Kran": "einen Kran", "Wechselstube": "eine Wechselstube"}
#: "dem Bauhof": a drawing building in the dative with its definite article
ART_DEM = {"Bauhof": "dem Bauhof", "Schatzkammer": "der Schatzkammer"}
#: "den Bauhof": the same in the accusative
ART_DEN = {"Bauhof": "den Bauhof", "Schatzkammer": "die Schatzkammer"}


def sentence_building(ident: str) -> str:
    """A building as sentences name it, in both languages: "Loge in Stockholm",
    "Kloster (Riga)"."""
    g = data.gebaeude(ident)
    return f"{g.art} (Riga)" if g.stadt == data.RIGA else f"{g.art} in {g.stadt}"


def _ids(text: str) -> str:
    """``Archiv-Visby, Kran-Danzig`` (the events' building ids) as "Archiv in Visby, …"."""
    return ", ".join(sentence_building(i) if data.is_building(i) else i
                     for i in text.split(", "))


def _de_paid(text: str) -> str:
    return "nichts" if text == "nothing" else text


#: the year's events (rules.py writes them in English into the state, where older
#: snapshots keep them): each English pattern with its German sentence
_EVENTS: tuple[tuple[str, str | Callable[[re.Match[str]], str]], ...] = (
    (r"(\{\d+\}) is the preliminary start player", r"\1 ist vorläufiger Startspieler"),
    (r"(\{\d+\}) reveals (.*) \(value (\d+)\)", r"\1 deckt \2 auf (Wert \3)"),
    (r"(\{\d+\}) has the lowest total and names the start player",
     r"\1 hat die kleinste Summe und bestimmt den Startspieler"),
    (r"(\{\d+\}) names (\{\d+\}) start player", r"\1 bestimmt \2 zum Startspieler"),
    (r"Everyone keeps one of their two buildings and discards the other",
     "Alle behalten eines ihrer zwei Gebäude und werfen das andere ab"),
    (r"Year (\d+): spring", r"Jahr \1: Frühling"),
    (r"(\d+) sets and (\d+) buildings lie out; (\d+) cards left on the separated pile",
     r"\1 Warenreihen und \2 Gebäude liegen aus; \3 Karten bleiben auf dem abgetrennten "
     r"Stapel"),
    (r"Winter: hand limit", "Winter: Handlimit"),
    (r"(\{\d+\}) is the new start player", r"\1 ist neuer Startspieler"),
    (r"The game is over: final scoring", "Das Spiel ist zu Ende: Schlusswertung"),
    (r"(\{\d+\}): buildings (-?\d+), Archiv (-?\d+), Logen (-?\d+), hand (-?\d+), Riga (-?\d+): "
     r"(-?\d+) points \(money (-?\d+)\)",
     r"\1: Gebäude \2, Archiv \3, Logen \4, Hand \5, Riga \6: \7 Siegpunkte (Geld \8)"),
    (r"(\{\d+\}) takes set (\d+): (.*)", r"\1 nimmt Reihe \2: \3"),
    (r"(\{\d+\}) takes (\S+)", lambda m: f"{m[1]} nimmt {_ids(m[2])}"),
    (r"(\{\d+\}) uses the Kloster: (\w+) of set (\d+) for (\w+) of set (\d+)",
     r"\1 nutzt das Kloster: \2 aus Reihe \3 gegen \4 aus Reihe \5"),
    (r"(\{\d+\}) uses the (\w+) and draws (\d+) cards",
     lambda m: f"{m[1]} nutzt {ART_DEN.get(m[2], m[2])} und zieht {m[3]} Karten"),
    (r"(\{\d+\}) keeps none of the drawn buildings",
     r"\1 behält keines der gezogenen Gebäude"),
    (r"(\{\d+\}) keeps one of the drawn buildings", r"\1 behält eines der gezogenen Gebäude"),
    (r"(\{\d+\}) keeps one of the drawn commodities",
     r"\1 behält eine der gezogenen Waren"),
    (r"(\{\d+\}) builds (.*) \(cost (\d+)\) paying (.*) \((\d+)\)",
     lambda m: f"{m[1]} baut {_ids(m[2])} (Kosten {m[3]}) und zahlt mit {_de_paid(m[4])} "
               f"({m[5]})"),
    (r"(\{\d+\}) turns the Schule to 1 (\w+)", r"\1 dreht die Schule auf 1 \2"),
    (r"(\{\d+\}) discards a building", r"\1 wirft ein Gebäude ab"),
    (r"(\{\d+\}) discards (.*) and turns the Wechselstube to 8",
     r"\1 wirft \2 ab und dreht die Wechselstube auf 8"),
    (r"(\{\d+\}) discards (.*)", r"\1 wirft \2 ab"),
    (r"(\{\d+\}) ends the turn", r"\1 beendet den Zug"),
)
_EVENT_PATTERNS = tuple((re.compile(p), r) for p, r in _EVENTS)


def event(text: str, lang: str = "en") -> str:
    """One of the year's events (``view["events"]``) in ``lang``; an event this
    table does not know stays as written."""
    if lang != "de":
        return text
    for pattern, replacement in _EVENT_PATTERNS:
        m = pattern.fullmatch(text)
        if m:
            return m.expand(replacement) if isinstance(replacement, str) else replacement(m)
    return text
