"""Riga (Stefan Risthaus, OSTIA-Spiele 2017), by its full rules, with the Riga
buildings (Riga-Gebäude) as the option ``riga``.

See ``rules`` for the state and the readings we chose, ``data`` for the card
values with their sources, ``view`` for what a seat sees, ``words`` for the
menus, ``bot`` for the bot.  ``text`` (the mail) and ``picture`` (the SVG) are
drawn from a view alone.
"""

from __future__ import annotations

import random
from typing import Any

from pbem.games.protocol import (
    EVERYTHING,
    Choice,
    Option,
    Result,
    Rules,
    State,
    View,
    rank_by,
)
from pbem.games.riga import bot, data, rules, words
from pbem.games.riga.moves import Choose, Discard, End, School, Use, parse
from pbem.games.riga.picture import draw
from pbem.games.riga.text import render_text
from pbem.games.riga.view import build_view

DEFAULT_TIMEOUT_NOTE = (
    "On timeout a seat names itself start player, keeps the cheaper of its two "
    "buildings, takes the commodity set of the highest regular value (the first building "
    "of the row when no set lies out), builds nothing and ends its turn; a building "
    "project in progress is cancelled (cards back to hand), a Bauhof draw keeps none, "
    "a Schatzkammer draw keeps its most valuable commodity, a Schule gives a Ritter, an "
    "open Kloster swap or Wechselstube charge is abandoned.  In winter it discards its "
    "commodity of the lowest regular value, a hand building only when no commodity is left; "
    "in the last winter its hand buildings first (each would cost 2 points at the end)."
)

DEFAULT_TIMEOUT_NOTE_DE = (
    "Läuft die Zeit ab, bestimmt ein Spieler sich selbst zum Startspieler, behält das "
    "billigere seiner zwei Gebäude, nimmt die Warenreihe mit dem höchsten Grundwert (das "
    "erste Gebäude der Auslage, wenn keine Reihe ausliegt), baut nichts und beendet seinen "
    "Zug; ein begonnener Bau wird abgebrochen (die Karten kommen zurück auf die Hand), aus "
    "einem Bauhof-Zug behält er keines, aus einem Schatzkammer-Zug die wertvollste Ware, "
    "eine Schule zeigt einen Ritter, ein offener Kloster-Tausch oder ein begonnenes Aufladen "
    "der Wechselstube wird aufgegeben.  Im Winter wirft er seine Ware mit dem niedrigsten "
    "Grundwert ab, ein Gebäude von der Hand nur, wenn er keine Ware mehr hat; im letzten "
    "Winter zuerst seine Gebäude von der Hand (jedes kostete am Ende 2 Punkte)."
)


class Riga(Rules):
    name = "riga"
    title = "Riga"
    min_players = 2
    max_players = 4
    rules_version = rules.RULES_VERSION
    data_version = data.DATA_VERSION
    template = "games/riga/view.html"
    stylesheet = "games/riga/style.css"
    default_move_note = DEFAULT_TIMEOUT_NOTE
    options = (
        Option("riga", "Riga buildings (Riga-Gebäude)", (False, True), False,
               "Each player also holds Kloster, Schule, Speicher and Wechselstube face down "
               "and may erect them like other buildings; each one not erected costs 2 points."),
    )
    description = (
        "Card game for 2-4 players over 8 years (9 with 3 players): each turn take a "
        "building or a whole set of commodities from the table, then erect up to three "
        "buildings in Visby, Tallinn, Stockholm and Danzig, paying with commodities whose "
        "value depends on the city. Buildings give victory points, knights and merchants, "
        "money and cheaper building; buildings left in hand cost 2 points each. "
        + DEFAULT_TIMEOUT_NOTE
    )
    translations = {"de": {
        "description": (
            "Kartenspiel für 2-4 Spieler über 8 Jahre (9 zu dritt): In jedem Zug nimmst Du "
            "ein Gebäude oder eine ganze Warenreihe aus der Auslage und baust danach bis zu "
            "drei Gebäude in Visby, Tallinn, Stockholm und Danzig; Du bezahlst mit Waren, "
            "deren Wert von der Stadt abhängt. Gebäude bringen Siegpunkte, Ritter und "
            "Kaufleute, Geld und günstigeres Bauen; jedes Gebäude, das am Ende noch auf der "
            "Hand ist, kostet 2 Siegpunkte. " + DEFAULT_TIMEOUT_NOTE_DE),
        "default_move_note": DEFAULT_TIMEOUT_NOTE_DE,
        "options": {"riga": (
            "Riga-Gebäude",
            "Jeder Spieler hat außerdem Kloster, Schule, Speicher und Wechselstube verdeckt "
            "vor sich und darf sie wie andere Gebäude bauen; jedes nicht gebaute kostet 2 "
            "Siegpunkte.")},
    }}
    about_data = (
        "Printed in the rulebook (Riga, OSTIA-Spiele 2017) and used as printed: the rules, the "
        "card counts (8 Tuch, 10 Glas, 12 Wein, 14 Korn; 12 buildings in each of the four "
        "cities; 4 Riga buildings per player), every building's function, the Markthalle in "
        "Danzig costing 8, the Archiv and the Schatzkammer in Visby costing 16 together, the "
        "Loge table's value for three Logen (19), and the values Danzig Tuch 5 and Visby Wein "
        "5, Korn 2, Glas 4.\n\n"
        "From public sources (reviews and the publisher's pages, listed in pbem's sources "
        "file): the regular values Tuch 5, Glas 4, Wein 3, Korn 2; Korn worth 4 in Tallinn "
        "and unusable in Danzig; Tuch unusable where Wein is worth 5 (Visby); that every "
        "commodity is worth 2 more in one city and unusable in one; scoring buildings worth "
        "3 to 6 points, some buildings worth none.\n\n"
        "Reconstructed by pbem, because no source we could read prints them: Stockholm Tuch 7 "
        "and Danzig Glas 6 (the rulebook's cost box '5 6 3 –' agrees), which of Wein and Glas "
        "is unusable in Tallinn and in Stockholm (we chose Glas in Tallinn, Wein in "
        "Stockholm), the cost and points of all 48 buildings except the two printed costs "
        "above, which commodity each Manufactur and Markthalle shows, the Loge table for 1, 2 "
        "and 4 Logen (4, 10, 30), and the cost and points of the Riga buildings. The "
        "publisher corrected misprinted values on the three Markthalle cards; those "
        "corrections could not be read. Games here are played with these values; the "
        "printed cards differ.\n\n"
        f"Data version {data.DATA_VERSION}. Every value, with its source, is in pbem's file "
        "pbem/games/riga/data.py; a corrected value there gets a new data version."
    )

    # -- setup and turn order ---------------------------------------------------

    def setup(self, players: int, options: dict[str, Any] | None, seed: str | int) -> State:
        return rules.new_state(players, self.resolve_options(options, players), str(seed))

    def to_move(self, state: State) -> list[int]:
        return rules.to_move(state)

    def legal_moves(self, state: State, seat: int) -> list[str]:
        return [move.notation() for move in rules.legal(state, seat)]

    def is_secret(self, state: State) -> bool:
        return rules.is_secret(state)

    def apply(self, state: State, seat: int, move: str) -> State:
        return rules.apply(state, seat, parse(move))

    def formality(self, state: State, seat: int) -> str | None:
        # a forced step (nothing left to build: "end"; one kind of card to discard) is
        # played at once; a menu step or the take never is
        moves = rules.legal(state, seat)
        if len(moves) == 1 and isinstance(moves[0], End | Discard | Choose | School):
            return moves[0].notation()
        return None

    def parse(self, move: str) -> str:
        return parse(move).notation()

    def is_over(self, state: State) -> bool:
        return state["phase"] == "over"

    def round(self, state: State) -> int:
        return max(1, int(state["year"]))

    # -- menus -------------------------------------------------------------------

    def menu(self, state: State, seat: int, lang: str = "en") -> list[Choice]:
        return [words.choice(state, seat, m.notation(), lang) for m in rules.legal(state, seat)]

    # -- scores ----------------------------------------------------------------

    def scores(self, state: State) -> list[int]:
        return [rules.score(state, s) for s in range(state["players"])]

    def result(self, state: State) -> Result:
        if not self.is_over(state):
            raise ValueError("the game is not over yet")
        n = state["players"]
        scores = self.scores(state)
        money = [rules.money(state, s) for s in range(n)]
        ranks = rank_by([(scores[s], money[s]) for s in range(n)])
        details, german = [], []
        for s in range(n):
            f = rules.score_parts(state, s)
            details.append(f"{{{s}}}: buildings {f['seals']}, Archiv {f['archiv']}, Logen "
                           f"{f['loge']}, buildings in hand {f['hand']}, Riga buildings not "
                           f"erected {f['riga']} = {scores[s]}; money {money[s]}")
            german.append(f"{{{s}}}: Gebäude {f['seals']}, Archiv {f['archiv']}, Logen "
                          f"{f['loge']}, Gebäude auf der Hand {f['hand']}, nicht gebaute "
                          f"Riga-Gebäude {f['riga']} = {scores[s]}; Geldwert {money[s]}")
        return Result(scores=scores, ranks=ranks, winners=[s for s in range(n) if ranks[s] == 1],
                      tiebreaks=[[money[s]] for s in range(n)],
                      tiebreak_names=["money"],
                      details=details,
                      # the rulebook: "der größte Geldwert"
                      tiebreak_names_in={"de": ["Geldwert"]},
                      details_in={"de": german})

    # -- information ------------------------------------------------------------

    def view(self, state: State, seat: int | None) -> View:
        return build_view(state, seat)

    def render_text(self, view: View, names: list[str], lang: str = "en") -> str:
        return render_text(view, names, lang)

    def picture(self, view: View, names: list[str], lang: str = "en") -> str | None:
        return draw(view, names, lang)

    def describe(self, before: State, seat: int, move: str, after: State,
                 viewer: int | None, lang: str = "en") -> str:
        return describe(before, seat, parse(move).notation(), after, viewer, lang)

    # -- server support -----------------------------------------------------------

    def default_move(self, state: State, seat: int) -> str:
        return bot.timeout_move(state, seat).notation()

    def bot_move(self, state: State, seat: int, rng: random.Random) -> str:
        return bot.choose(state, seat, rng).notation()

    def turn_over(self, before: State, seat: int, move: str, after: State) -> bool:
        # the player right of the start player has two turns back to back
        return seat not in rules.to_move(after) or after["decision"] != before["decision"]

    def is_commit_point(self, before: State, seat: int, move: str, after: State) -> bool:
        if parse(move) in (Use("Bauhof"), Use("Schatzkammer")):
            return True  # a private draw: hidden cards were seen
        if after["decision"] != before["decision"]:
            return True
        return not rules.is_secret(before) and seat not in rules.to_move(after)


def _b(ident: str) -> str:
    """A building as a sentence names it: "Loge in Stockholm", "Kloster (Riga)" (the
    same in German)."""
    return words.sentence_building(ident)


def describe(before: State, seat: int, move: str, after: State, viewer: int | None,
             lang: str = "en") -> str:
    """A sentence for ``move`` in ``lang`` ("de" German, else English); draws and the
    setup keep read as such to others, in either language."""
    de = lang == "de"
    sees = viewer == seat or viewer == EVERYTHING
    w = move.split()
    verb, arg = w[0], (w[1] if len(w) > 1 else "")
    me = f"{{{seat}}}"

    def ware(code: str) -> str:
        return data.WARE_NAME[code]

    if verb == "start":
        other = f"{{{int(arg) - 1}}}"
        return (f"{me} bestimmt {other} zum Startspieler" if de
                else f"{me} names {other} start player")
    if verb == "keep":
        if de:
            text = (f"{me} behält {_b(arg)}" if sees
                    else f"{me} behält eines von zwei Gebäuden")
            return text + ("; alle haben gewählt" if after["phase"] != "keep" else "")
        text = f"{me} keeps {_b(arg)}" if sees else f"{me} keeps one of two buildings"
        return text + ("; all have chosen" if after["phase"] != "keep" else "")
    if verb == "take":
        if arg == "set":
            k = int(w[2]) - 1
            cards = ", ".join(ware(c) for c in before["sets"][k])
            return (f"{me} nimmt Reihe {k + 1} ({cards})" if de
                    else f"{me} takes set {k + 1} ({cards})")
        return (f"{me} nimmt {_b(arg)} aus der Auslage" if de
                else f"{me} takes {_b(arg)} from the row")
    if verb == "kloster":
        return f"{me} nutzt das Kloster" if de else f"{me} uses the Kloster"
    if verb == "from":
        return (f"{me} wählt für den Tausch mit dem Kloster eine Karte aus Reihe {arg}" if de
                else f"{me} picks a card of set {arg} for the Kloster swap")
    if verb == "give":
        return (f"{me} bietet {ware(arg)} für den Tausch mit dem Kloster an" if de
                else f"{me} offers {ware(arg)} for the Kloster swap")
    if verb == "to":
        return f"{me} tauscht mit Reihe {arg}" if de else f"{me} swaps with set {arg}"
    if verb == "get":
        sub = before["sub"] or {}
        i, j = int(sub.get("from", 0)) + 1, int(sub.get("to", 0)) + 1
        if de:
            give = data.WARE_NAME.get(sub.get("give", ""), "eine Karte")
            return (f"{me} tauscht mit dem Kloster {give} aus Reihe {i} gegen {ware(arg)} "
                    f"aus Reihe {j}")
        give = data.WARE_NAME.get(sub.get("give", ""), "a card")
        return f"{me} swaps {give} of set {i} for {ware(arg)} of set {j} with the Kloster"
    if verb == "use":
        if arg in rules.DRAW_ARTS:
            cards = after["pending_draw"]["cards"] if after["pending_draw"] else []
            if de:
                if sees:
                    drawn = ", ".join(data.WARE_NAME.get(c, c) for c in cards) or "nichts"
                    return f"{me} nutzt {words.ART_EIN[arg]} und zieht {drawn}"
                n = len(cards)
                return (f"{me} nutzt {words.ART_EIN[arg]} und zieht {n} "
                        f"{'Karte' if n == 1 else 'Karten'}")
            if sees:
                names = ", ".join(data.WARE_NAME.get(c, c) for c in cards) or "nothing"
                return f"{me} uses a {arg} and draws {names}"
            return f"{me} uses a {arg} and draws {len(cards)} cards"
        if de:
            return f"{me} nutzt {words.ART_EIN.get(arg, arg)}"
        return f"{me} uses a {arg}"
    if verb == "choose":
        kind = before["pending_draw"]["kind"]
        if arg == "none":
            return (f"{me} behält keines der mit dem Bauhof gezogenen Gebäude" if de
                    else f"{me} keeps none of the buildings drawn with the Bauhof")
        what = _b(arg) if kind == "Bauhof" else ware(arg)
        if de:
            source = words.ART_DEM.get(kind, kind)
            if sees:
                return f"{me} behält {what} aus {source}"
            return f"{me} behält eine Karte aus {source}"
        if sees:
            return f"{me} keeps {what} from the {kind}"
        return f"{me} keeps one card from the {kind}"
    if verb == "build":
        return (f"{me} beginnt, {_b(arg)} zu bauen" if de
                else f"{me} starts building {_b(arg)}")
    if verb == "add":
        return (f"{me} nimmt {_b(arg)} zum Bauvorhaben dazu" if de
                else f"{me} adds {_b(arg)} to the project")
    if verb == "pay":
        return f"{me} zahlt 1 {ware(arg)}" if de else f"{me} pays 1 {ware(arg)}"
    if verb == "finish":
        project = before["project"]
        cost = rules.project_cost(before, project)
        paid = rules.project_paid(before, seat, project)
        if de:
            return (f"{me} baut {' und '.join(map(_b, project['buildings']))} "
                    f"(Kosten {cost}, bezahlt {paid})")
        return (f"{me} erects {' and '.join(map(_b, project['buildings']))} "
                f"(cost {cost}, paid {paid})")
    if verb == "cancel":
        return f"{me} bricht ab" if de else f"{me} cancels"
    if verb == "school":
        return (f"{me} dreht die Schule auf 1 {arg}" if de
                else f"{me} turns the Schule to 1 {arg}")
    if verb == "charge":
        return (f"{me} beginnt, die Wechselstube aufzuladen" if de
                else f"{me} begins to charge the Wechselstube")
    if verb == "discard":
        if data.is_building(arg):
            if de:
                return f"{me} wirft {_b(arg)} ab" if sees else f"{me} wirft ein Gebäude ab"
            return f"{me} discards {_b(arg)}" if sees else f"{me} discards a building"
        if before["phase"] != "winter" and (after["sub"] or {}).get("kind") != "charge":
            return (f"{me} wirft {ware(arg)} ab und dreht die Wechselstube auf 8" if de
                    else f"{me} discards {ware(arg)} and turns the Wechselstube to 8")
        return f"{me} wirft {ware(arg)} ab" if de else f"{me} discards {ware(arg)}"
    if verb == "end":
        return f"{me} beendet den Zug" if de else f"{me} ends the turn"
    if verb == "back" and (before["sub"] or {}).get("kind") == "kloster":
        return (f"{me} nutzt das Kloster doch nicht" if de
                else f"{me} decides not to use the Kloster")
    return f"{me} blättert im Menü" if de else f"{me} looks through the menu"


GAME = Riga()
