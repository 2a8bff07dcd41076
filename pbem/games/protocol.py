"""The contract every game implements (see DESIGN.md, "The game contract").

A game is a pure, deterministic state machine.  The server, the mails, the
scheduler and the archive only ever talk to a game through this interface, so
none of them knows which game it is running.

Conventions shared by every game:

* A **state** is a plain JSON-serialisable ``dict``.  It carries everything,
  including the seed and the draw counter of its random generator, so a
  snapshot plus the move log is the whole truth.
* A **move** is its own stable text notation (a short ``str`` such as
  ``"play Ritter"``).  The move log, links and game records carry the
  notation; people read a :class:`Choice`'s label instead (``menu``).
* A **seed** is a string (128 random bits in hex for a new game, from
  :func:`new_seed`); older records with an integer seed replay the same, since
  the random generator reads the seed as text.  The seed rebuilds every deck
  and every die, so no view, sentence or menu ever contains it.
* A **turn** and a **commit point** are two things.  A seat's turn ends when
  it has nothing more to do in the current decision (``turn_over``); that
  drives deadlines, "your move" mails, time-bank bonuses and the timeout
  ladder.  A commit point (``is_commit_point``) only ends "take back": the
  turn ended, or hidden information was revealed (a card drawn mid-turn is a
  commit point that ends no turn).
* **Seats** are numbered from 0.  Texts meant for people (``describe``, events
  in a view) name seats by ``str.format`` placeholders ``{0}``, ``{1}``…, which
  the caller fills with display names, escaped for the medium it writes to.
* **Languages.**  What a game says to people (``menu``, ``render_text``,
  ``describe``, ``picture``, and ``texts`` for the lobby)
  takes the reader's language as ``lang`` (``"en"``, ``"de"``…, the codes of
  ``pbem.i18n.LANGUAGES``).  A game says what it has no words for in English,
  and never fails for a language it does not speak.  Its words live in its own
  package and template folder: a game needs no shared catalog.  Card names
  stay as printed.  ``result`` has no ``lang``: it gives its lines and tie-breaker
  names in English and in every other language it speaks at once
  (:class:`Result`), since the result is stored once for every reader.
* ``apply`` never mutates its input; an illegal move raises a ``MoveError``
  subclass whose message says what is wrong, and the caller's state is
  untouched.

The shape of a game
-------------------

Every game is a package ``pbem/games/<name>/`` with the same modules, each with one
job; the example game ``pbem/games/ziehen`` (not offered to players, see
``pbem.games.EXAMPLES``) shows each of them in a few lines.  A new game starts as a
copy of it.  Module and public names are in the game's own words (Visby's ``Karte``,
Riga's ``Ware``), its moves' notation too.

``__init__``
    the game's :class:`Rules` class and ``GAME = …()``: the protocol's methods, each a
    few lines that say what the protocol asks (parse the move once, ask the module
    whose job it is).  No helpers: they live in the modules below.
``rules``
    the state (its layout in the docstring), ``legal(state, seat)`` (move values),
    ``apply(state, seat, move)``, scoring, the timeout move; the readings of the
    rulebook chosen, each with its reason.
``data``
    the card and board values, each with its source (printed, public, reconstructed)
    and ``DATA_VERSION``: data, not code.
``moves``
    the moves as small frozen values, one class per kind (Visby's ``Play``, ``Trade``,
    ``Done``), each with ``notation()``, and ``Move``, their union; ``parse(text)``
    reads the notation once, raising ``MalformedMoveError`` (Ziehen, with one kind,
    also spells it ``Move.from_notation``).  Rules, menu, sentences and bot take these
    values; only ``__init__`` sees the text (as python-chess's ``Move.uci()`` and
    ``Move.from_uci()``).
``menu``
    the legal moves as :class:`Choice` (label, group, help) and the steps a large
    decision is split into.
``sentences``
    ``describe``: a move told as a sentence, per viewer.
``view``
    what one seat may see (a JSON-able dict).
``text``
    a view as plain text (mails, the seat page).
``picture``
    a view as SVG, drawn on the shared canvas (:class:`pbem.games.svg.Canvas`); what a
    move or a card acts on is drawn as a named region that can carry a link and help.
``bot``
    what a bot plays.
``moves`` also reads a finished game's log for the archive's statistics:
    ``uses(log)``, which named cards, buildings or offices each seat took, played or
    built (:class:`Use`), and ``start_seat(log)``, the seat that began; from the
    notation alone (``log`` is ``(seat, move)`` in order), never by replaying.
``words``
    everything the game says to people, one table per language (``EN = {…}``,
    ``DE = {…}``, chosen by :func:`pbem.games.language.table_for`).  ``menu``,
    ``sentences``, ``text`` and ``picture`` are one renderer each that reads the
    reader's table: no function has a copy for another language, and a new language
    is a new table.

A game may add modules for a part of its own (Riga's payment steps), named in its words.
"""

from __future__ import annotations

import functools
import json
import random
import secrets
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, NamedTuple

State = dict[str, Any]
View = dict[str, Any]

#: what a move does with a named card, building or office (:class:`Use`)
TAKE, PLAY, BUILD = "take", "play", "build"
#: a finished game's move log as its rows say it: ``(seat, move notation)``, in order
Log = Sequence[tuple[int, str]]


@dataclass(frozen=True)
class Use:
    """A seat took (``TAKE``), played (``PLAY``) or built (``BUILD``) the card, building
    or office ``name`` (as printed), for the archive's statistics."""

    seat: int
    verb: str
    name: str


class MoveFacts(NamedTuple):
    """What the server records of a move beside its sentences (:meth:`Rules.move_facts`):
    the round it was played in (``round`` of the state before it), whether it ended its
    seat's turn (``turn_over``) and whether it is a commit point (``is_commit_point``)."""

    round: int
    turn_over: bool
    commit: bool


#: Pass as ``seat`` to :meth:`Game.view` to see everything (the archive, after
#: the game is over).
EVERYTHING = -1
#: Pass as ``seat`` to :meth:`Game.view` for a spectator who sits at no seat.
SPECTATOR = None


class MoveError(ValueError):
    """A move that cannot be applied; the message says why."""


class MalformedMoveError(MoveError):
    """The text is not a move of this game at all (bad notation)."""


class IllegalMoveError(MoveError):
    """A well-formed move that is not allowed in this state or for this seat."""


class OptionError(ValueError):
    """Setup was asked for an option value or player count the game does not have."""


class PositionError(ValueError):
    """A position built for a test or a tool (:meth:`Rules.position`) is no state the
    game could be in; the message says what is wrong."""


#: the most choices one step of a menu offers, so that every step fits in a mail
MENU_CAP = 12


def entry_of(moves: Iterable[Any], notation: str, label: Callable[[Any], Choice]
             ) -> Choice | None:
    """What ``label`` makes of the move among ``moves`` (values with ``notation()``, as a
    game's rules list them) written ``notation``; None where none is (``menu_entry``)."""
    for move in moves:
        if move.notation() == notation:
            return label(move)
    return None


def _defined_in(cls: type, name: str) -> type:
    """The class of ``cls``'s MRO whose own body defines ``name``."""
    return next(c for c in cls.__mro__ if name in c.__dict__)


@functools.cache
def _labels_alone(cls: type) -> bool:
    """Whether the class of ``cls``'s MRO that words its ``menu`` also labels one move
    alone (``menu_entry``), asked once per class: every confirm page asks ``choice``."""
    return _defined_in(cls, "menu") is _defined_in(cls, "menu_entry")


@functools.cache
def _facts_alone(cls: type) -> bool:
    """Whether the class of ``cls``'s MRO that answers ``move_facts`` knows the three
    answers it gives: none of ``round``, ``turn_over`` and ``is_commit_point`` is
    answered by a class below it (a subclass that rewords one of them alone, as a test's
    game does, would find its own answer passed over)."""
    owner = _defined_in(cls, "move_facts")
    return all(issubclass(owner, _defined_in(cls, name))
               for name in ("round", "turn_over", "is_commit_point"))


def facts_of(rules: Rules, before: State, seat: int, move: str, after: State) -> MoveFacts:
    """What the server records of a move (``Rules.move_facts``), asked of the game at once
    where its ``move_facts`` knows the three answers (``_facts_alone``), else of the three
    methods."""
    if _facts_alone(type(rules)):
        return rules.move_facts(before, seat, move, after)
    return MoveFacts(rules.round(before), rules.turn_over(before, seat, move, after),
                     rules.is_commit_point(before, seat, move, after))


def new_seed() -> str:
    """A fresh seed for a new game: 128 random bits, as 32 hex digits."""
    return secrets.token_hex(16)


@dataclass(frozen=True)
class Choice:
    """One entry of a seat's menu: the move in notation and what people read.

    ``label`` is the choice in the reader's language ("Ritter ausspielen",
    "trade 3 goods for 2 seals"); ``group`` what it is about (a card, a
    city, a payment…), so that pages can group a long menu; ``help`` one line
    of what it does, where the game has that.  Label and help may name seats by
    ``{0}``-style placeholders ("Make {1} start player"), which the server fills
    with the players' names (:func:`pbem.games.render.named_choices`).

    ``region`` names what the move acts on in the game's picture (a card, a row, a
    district: a region the picture draws with :meth:`pbem.games.svg.Canvas.region`), so
    that tapping it on the seat page plays the move; several choices may share one
    region (tapping it lists them), and ``""`` means the picture has no place for it
    (the list of moves is always there).
    """

    move: str
    label: str
    group: str = ""
    help: str = ""
    region: str = ""


@dataclass(frozen=True)
class Option:
    """One setup option a rulebook offers (a variant, a game length), or another reading
    of a rule the rulebook leaves open (``reading``: played instead of the game's own
    reading, which the rules module quotes and names a test for)."""

    name: str
    label: str
    choices: tuple[Any, ...]
    default: Any
    help: str = ""
    reading: bool = False

    @property
    def is_yes_no(self) -> bool:
        """A variant that is either played or not (choices ``False`` and ``True``)."""
        return set(self.choices) == {False, True}


@dataclass(frozen=True)
class GameTexts:
    """What the lobby says about a game, in one language (:meth:`Rules.texts`)."""

    description: str
    default_move_note: str
    options: tuple[Option, ...]
    #: one sentence: how much of the game's data is reconstructed (:attr:`Rules.data_note`)
    data_note: str = ""
    #: the "about this game's data" page's paragraphs (:attr:`Rules.about_data`)
    about_data: str = ""


@dataclass(frozen=True)
class Result:
    """Final standing of a finished game.

    ``scores`` is the headline number per seat (victory points, seals…);
    ``tiebreaks`` the rulebook's tie-breaker values per seat, in the order the
    rulebook applies them; ``ranks`` the placing per seat (1 = winner, equal
    numbers for a shared place); ``winners`` the seats ranked 1.

    ``tiebreak_names`` (one per tie-breaker) and ``details`` (lines on how the final
    values came about, with ``{0}``-style seat placeholders) are English; a game that
    speaks other languages gives them in those too, by language code, in
    ``tiebreak_names_in`` and ``details_in`` (``{"de": [...]}``, the same lines in the
    same order, naming the same seats and numbers).  :meth:`details_for` and
    :meth:`tiebreak_names_for` read them with an English fallback, and so does
    :func:`result_words` for a result stored as JSON (one stored by an older pbem
    has no ``…_in`` keys and reads in English).
    """

    scores: list[int]
    ranks: list[int]
    winners: list[int]
    tiebreaks: list[list[int]] = field(default_factory=list)
    tiebreak_names: list[str] = field(default_factory=list)
    details: list[str] = field(default_factory=list)
    tiebreak_names_in: dict[str, list[str]] = field(default_factory=dict)
    details_in: dict[str, list[str]] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {
            "scores": self.scores,
            "ranks": self.ranks,
            "winners": self.winners,
            "tiebreaks": self.tiebreaks,
            "tiebreak_names": self.tiebreak_names,
            "details": self.details,
            "tiebreak_names_in": self.tiebreak_names_in,
            "details_in": self.details_in,
        }

    def details_for(self, lang: str | None) -> list[str]:
        return result_words(self.to_json(), "details", lang)

    def tiebreak_names_for(self, lang: str | None) -> list[str]:
        return result_words(self.to_json(), "tiebreak_names", lang)


#: the keys of :meth:`Result.to_json` that hold a result's words in other languages than
#: English (a result stored by an older pbem has none of them)
RESULT_LANGUAGE_KEYS = ("tiebreak_names_in", "details_in")


def result_words(data: dict[str, Any], key: str, lang: str | None) -> list[str]:
    """``data[key]`` (``"details"`` or ``"tiebreak_names"`` of a result's JSON) for a
    reader of ``lang``: the game's words in that language where it gave them, else the
    English ones."""
    english = list(data.get(key) or [])
    code = str(lang or "").split("-")[0].lower()
    words = (data.get(f"{key}_in") or {}).get(code) if code else None
    if not isinstance(words, list) or len(words) != len(english):
        return english
    return [str(w) for w in words]


def told_by_viewer(describe: Callable[[State, int, Any, State, int | None, str], str],
                   before: State, seat: int, move: Any, after: State,
                   langs: Sequence[str]) -> dict[str, tuple[str, str]]:
    """``Rules.describe_all`` made of a ``describe`` that takes the move as it is given:
    a game hands its sentences' ``describe`` and the move parsed once, the default the
    notation itself."""
    return {lang: (describe(before, seat, move, after, seat, lang),
                   describe(before, seat, move, after, SPECTATOR, lang))
            for lang in langs}


def rank_by(keys: list[tuple[int, ...]]) -> list[int]:
    """Competition ranking (1, 2, 2, 4) of seats by descending key tuples."""
    return [1 + sum(1 for other in keys if other > mine) for mine in keys]


class Rules(ABC):
    """Static facts about one game plus the pure functions over its states."""

    #: registry key and URL part, e.g. ``"visby"``
    name: str
    #: printed title
    title: str
    min_players: int
    max_players: int
    #: bump when a rules change could make an old move log replay differently
    rules_version: str
    #: older rules versions this engine still sets up, each with the readings it was
    #: played with (a game records its rules version when it is created, and whatever
    #: rebuilds it from its seed passes that version to :meth:`setup_version`)
    older_rules_versions: tuple[str, ...] = ()
    #: version of the card/board data file (see the game's ``data`` module)
    data_version: str = "1"
    #: the game's data versions (``pbem.games.datafile.DataSets``), set by
    #: ``@datafile.plays_on``; ``None``: the game has no data file of its own yet
    data_sets: Any = None
    options: tuple[Option, ...] = ()
    #: a paragraph for the lobby and the archive: what the game is, in players' words
    #: (nothing about data sources; that is :attr:`about_data`)
    description: str = ""
    #: what the game's card and board data rest on: which values are printed, which
    #: public sources give, and which pbem reconstructed (plain text, paragraphs split
    #: by blank lines). Shown on the game's "about this game's data" page only.
    about_data: str = ""
    #: how many moves a searching bot's playout plays before :meth:`estimate` judges the
    #: table (``pbem.games.search``): a round or so; the whole game where it is short
    #: and the estimate cannot see its second half (Tallinn)
    search_horizon: int = 12
    #: whether a searching bot compares its moves on the same drawn states, each with
    #: the game's bot playing on, by the margin of the final scores, instead of growing
    #: its tree (``pbem.games.search``): where a move's worth is a few points that the
    #: luck of the draws hides (Tallinn)
    search_paired: bool = False
    #: the level of a bot the server seats by itself or offers first (the demo, a seat
    #: given to a bot, one that takes over after timeouts): "normal" where the search
    #: has been measured to beat the game's own bot (``bench/bots.py``), else "easy",
    #: the game's own bot, rather than a search that plays worse than it
    default_bot_level: str = "normal"
    #: one sentence for the lobby, beside the description: how much of the game's card and
    #: board data is reconstructed (the details are :attr:`about_data`'s)
    data_note: str = ""
    #: what :meth:`default_move` plays, in a sentence for the people choosing a clock
    default_move_note: str = ""
    #: the game's own styles for its template (under ``templates/``), e.g.
    #: ``"games/visby/style.css"``; pages and the archive include it
    stylesheet: str = ""
    #: the lobby's words in other languages than English, by language code:
    #: ``{"de": {"description": "…", "default_move_note": "…", "data_note": "…",
    #: "about_data": "…",
    #: "options": {"target": ("label", "help")}}}``; whatever a language leaves out
    #: reads in English (see :meth:`texts`)
    translations: ClassVar[dict[str, dict[str, Any]]] = {}

    def texts(self, lang: str = "en") -> GameTexts:
        """The game's description, default-move note and option labels for a reader of
        ``lang`` (the new-game page, invitations): from :attr:`translations`, English
        where ``lang`` has none."""
        words = self.translations.get(lang.split("-")[0].lower(), {}) if lang else {}
        labels = words.get("options", {})
        options = tuple(
            Option(o.name, labels[o.name][0] or o.label, o.choices, o.default,
                   labels[o.name][1] if len(labels[o.name]) > 1 else o.help, o.reading)
            if o.name in labels else o
            for o in self.options)
        return GameTexts(words.get("description") or self.description,
                         words.get("default_move_note") or self.default_move_note, options,
                         words.get("data_note") or self.data_note,
                         words.get("about_data") or self.about_data)

    # -- setup and turn order -------------------------------------------------

    def resolve_options(self, options: dict[str, Any] | None, players: int) -> dict[str, Any]:
        """Fill defaults and refuse unknown options or values, with a message."""
        if not self.min_players <= players <= self.max_players:
            raise OptionError(
                f"{self.title} is for {self.min_players} to {self.max_players} players, "
                f"not {players}"
            )
        given = dict(options or {})
        known = {o.name: o for o in self.options}
        unknown = sorted(set(given) - set(known))
        if unknown:
            raise OptionError(f"{self.title} has no option {', '.join(unknown)}")
        resolved = {}
        for opt in self.options:
            value = given.get(opt.name, opt.default)
            if value not in opt.choices:
                raise OptionError(
                    f"option {opt.name} of {self.title} must be one of "
                    f"{', '.join(map(str, opt.choices))}, not {value!r}"
                )
            resolved[opt.name] = value
        self.validate_options(resolved, players)
        return resolved

    def validate_options(self, options: dict[str, Any], players: int) -> None:
        """Refuse (``OptionError``) a combination of options the rulebook does not allow
        for ``players`` players, e.g. a variant for 2 or 3 players only."""
        return None

    @abstractmethod
    def setup(self, players: int, options: dict[str, Any] | None, seed: str | int) -> State:
        """The state before the first move (the seed is kept as text, ``str(seed)``)."""

    def setup_version(self, players: int, options: dict[str, Any] | None, seed: str | int,
                      data_version: str | None, rules_version: str | None = None) -> State:
        """``setup`` with the card data of ``data_version`` and the rules of
        ``rules_version``: the versions a game started with (``None`` or ``""``: the
        current ones).

        A game that changed a reading of its rulebook keeps the old reading for the games
        played under the old rules version (:attr:`older_rules_versions`), so that their
        logs replay as they were played; it overrides this method.  A version the engine
        does not know is refused with a message (``OptionError``).

        A running game keeps the data version it started with, so whatever rebuilds a
        game from its seed (take-back, import, verify, the archive) sets it up through
        here.  A game whose package keeps older data versions overrides this; by default
        only the current version can be set up, and an older one is refused with a
        message rather than silently replayed on other cards.
        """
        if data_version and data_version != self.data_version:
            raise OptionError(
                f"this server's {self.title} has card data version {self.data_version}, "
                f"not {data_version}, which this game was started with")
        self.check_rules_version(rules_version)
        return self.setup(players, options, seed)

    def check_rules_version(self, rules_version: str | None) -> str:
        """``rules_version`` (``None`` or ``""``: the current one) if this engine plays
        it, else an ``OptionError`` that says so."""
        if not rules_version:
            return self.rules_version
        if rules_version != self.rules_version and \
                rules_version not in self.older_rules_versions:
            raise OptionError(
                f"the game was played under {self.title} rules version {rules_version}, "
                f"which this engine (rules version {self.rules_version}) does not replay")
        return rules_version
    def load_data(self, text: str, name: str = "data file") -> str:
        """Check and register an operator's corrected data file (its text, read by the
        caller), returning the version a new game on it records; ``@datafile.plays_on``
        gives this to a game with a data file."""
        raise OptionError(f"{self.title} has no data file to correct")

    @abstractmethod
    def to_move(self, state: State) -> list[int]:
        """Seats that must act now: one, several (secret simultaneous choices), none when over."""

    @abstractmethod
    def legal_moves(self, state: State, seat: int) -> list[str]:
        """The moves in notation, at most ``MENU_CAP``; empty when ``seat`` is not to move.

        A decision with more possibilities is split into steps, each a small menu.
        """

    def menu(self, state: State, seat: int, lang: str = "en") -> list[Choice]:
        """``legal_moves`` as choices for people, in the same order, in ``lang``.

        The default labels each move with its notation; a game overrides it with
        words (card names stay as printed).
        """
        return [Choice(move, move) for move in self.legal_moves(state, seat)]

    def choice(self, state: State, seat: int, move: str, lang: str = "en") -> Choice | None:
        """The entry of ``menu`` for ``move`` (in notation), the same ``Choice``; None
        where the menu does not offer it.

        A confirm page names one move: where the class that words the menu also labels
        one move alone (``menu_entry``), that is asked; else (a subclass that rewords
        ``menu`` alone) the whole menu is read."""
        if _labels_alone(type(self)):
            return self.menu_entry(state, seat, move, lang)
        return Rules.menu_entry(self, state, seat, move, lang)

    def menu_entry(self, state: State, seat: int, move: str, lang: str = "en"
                   ) -> Choice | None:
        """``choice`` as the game answers it: a game whose menu labels each move on its
        own overrides this beside ``menu`` to label that move alone (``entry_of``).  By
        default the whole menu is read."""
        for choice in self.menu(state, seat, lang):
            if choice.move == move:
                return choice
        return None

    def is_secret(self, state: State) -> bool:
        """Whether the pending decision is a secret choice: the others learn only
        that a seat has chosen, until the choices are revealed together.

        Several seats to move is not enough to say so (Visby's merchants trade at
        the same time, in public).
        """
        return False

    def formality(self, state: State, seat: int) -> str | None:
        """The seat's only move, when playing it is a mere formality (a merchant
        with nothing left to trade says "done"); the server plays it at once and
        logs it like any move.  ``None`` when the seat has a real choice."""
        return None

    @abstractmethod
    def apply(self, state: State, seat: int, move: str) -> State:
        """The state after ``seat`` plays ``move``; raises ``MoveError`` if it cannot."""

    def apply_played(self, state: State, seat: int, move: str) -> State:
        """:meth:`apply` of a move that ``apply`` accepted when it was played: a move of
        a stored log, replayed (the archive's pages).  A game whose ``apply`` checks a
        move at a cost may skip the check here; by default ``apply``.

        A move that was not so accepted may then give any state or fail in any way:
        whoever replays a log that no ``apply`` has checked uses ``apply`` (an imported
        record, ``pbem verify``, which replays every stored log against the engine)."""
        return self.apply(state, seat, move)

    @abstractmethod
    def is_over(self, state: State) -> bool:
        """Whether the game has ended."""

    @abstractmethod
    def result(self, state: State) -> Result:
        """Final scores with the rulebook's tie-breakers (only when over)."""

    @abstractmethod
    def scores(self, state: State) -> list[int]:
        """The running score per seat, for charts; equals ``result().scores`` at the end."""

    def estimate(self, state: State) -> list[float]:
        """Each seat's final score as the table stands now, for a search that judges a
        position it did not play to the end (``pbem.games.search``): the running scores
        with what the final scoring would add or take (penalties, end bonuses).  By
        default the running scores."""
        return [float(x) for x in self.scores(state)]

    def round(self, state: State) -> int:
        """The round (Durchgang, year…) the game is in, for grouping moves."""
        return int(state.get("round", 1))

    # -- information -------------------------------------------------------

    @abstractmethod
    def view(self, state: State, seat: int | None) -> View:
        """What ``seat`` may see; ``SPECTATOR`` for the public, ``EVERYTHING`` for the archive.

        A view is read, never changed (its text and its picture are drawn from it, it is
        written as JSON): a game may share the parts that read the same in every view of
        its data version (a card's entry, its words) between views, not copy them."""

    @abstractmethod
    def render_text(self, view: View, names: list[str], lang: str = "en") -> str:
        """A view as plain text for a mail (names already fit for plain text), in
        ``lang``; English where the game has no words in ``lang``."""

    def picture(self, view: View, names: list[str], lang: str = "en",
                links: Mapping[str, str] | None = None) -> str | None:
        """The table as a picture: an SVG document drawn from ``view`` alone (no I/O,
        no script), readable on a 390-pixel phone; ``None`` for a game that has none.

        ``names`` are plain text; the picture escapes them itself.  ``links`` (region
        name to URL, from the seat page: the regions of the viewer's :class:`Choice`)
        makes those regions links, marked as the places to tap; the game hands it to
        its :class:`pbem.games.svg.Canvas` and names its regions as its menu does.
        """
        return None

    @abstractmethod
    def describe(self, before: State, seat: int, move: str, after: State,
                 viewer: int | None, lang: str = "en") -> str:
        """A sentence for ``move`` by ``seat`` that led from ``before`` to ``after``,
        as ``viewer`` may read it, in ``lang`` (English where the game has no words in
        ``lang``).

        It sees both states, so it can say what was drawn or rolled.  Uses ``{0}``…
        placeholders for seats.  A secret choice, or a private draw, reads as such
        to anyone but its author, in every language; ``EVERYTHING`` reads what the
        author reads.  The server writes the sentences once, when it records the
        move, in every language it speaks (``pbem.i18n.LANGUAGES``).

        An empty sentence means the move is not told: pure navigation (Riga's
        ``menu``, ``more``, ``back``) changes nothing at the table, and no history
        shows it.  Histories join the sentences (``pbem.gamelog.tell``): one seat's
        steps in one turn read as one line, so a sentence begins with its seat.
        """

    def describe_all(self, before: State, seat: int, move: str, after: State,
                     langs: Sequence[str]) -> dict[str, tuple[str, str]]:
        """``describe`` as the server stores a move: by language of ``langs``, the
        sentence as its author reads it and as everyone else does (``SPECTATOR``), the
        same texts.

        Asked once when the move is recorded, for every language the server speaks: a
        game reads the move once here (its notation parsed once), and tells a move that
        reads the same to every viewer once per language.  By default ``describe`` is
        asked for each."""
        return told_by_viewer(self.describe, before, seat, move, after, langs)

    def together(self, sentence: str, lang: str = "en") -> str | None:
        """``sentence``, as ``describe`` told a move of one seat (that seat written
        ``{n}``), told of several seats at once, ``{n}`` standing for them all:
        ``"{n} chooses a card in secret"`` → ``"{n} choose a card in secret"``.

        Optional: histories tell simultaneous alike moves in one line, and where the
        game gives no such form (None) they say "…, and so does Bot 3".
        """
        return None

    def tell_turn(self, seat: int, said: list[str], lang: str = "en") -> str | None:
        """One sentence for the steps of one turn of ``seat`` (``said``, as
        ``describe`` told them to one reader), or None: histories then join the steps
        ("Bot 3: step one, step two and step three").  Optional."""
        return None

    # -- server support ----------------------------------------------------

    @abstractmethod
    def default_move(self, state: State, seat: int) -> str:
        """The documented move played for ``seat`` when its clock runs out.

        Never silently strong or silently suicidal, and it changes nothing for the
        other players that a move of theirs would not.
        """

    @abstractmethod
    def determinize(self, state: State, seat: int, rng: random.Random) -> State:
        """A full state that ``seat`` cannot tell from ``state``, its hidden parts drawn
        anew by ``rng``: what a searching bot plays on (``pbem.games.search``).

        Every part the seat may not see is redrawn from the pool of what it cannot
        see (a rival's hand, a rival's pending secret choice, the order of every
        pile, its own face-down draw pile) and the seed is replaced (``rng.reseeded``),
        so the future draws and dice are the copy's own.  The seat's view of the
        result equals its view of ``state``, and the result depends only on that
        view and ``rng``: two states that differ only in what the seat cannot see
        give the same result for the same ``rng`` (deal from sorted pools,
        ``rng.deal``).  Pure; ``state`` is not changed.
        """

    def bot_move(self, state: State, seat: int, rng: random.Random) -> str:
        """What a bot plays for ``seat`` (bot seats, the timeout ladder, selfplay).

        Uniformly random among the legal moves unless the game knows better;
        ``rng`` is the only randomness it may use.
        """
        moves = self.legal_moves(state, seat)
        if not moves:
            raise IllegalMoveError(f"seat {seat} has no move to make")
        return rng.choice(moves)

    def bot_plays(self, state: State, seat: int, rng: random.Random) -> State:
        """The state after ``seat`` plays :meth:`bot_move`: a searching bot's playouts
        (``pbem.games.search``).  A game whose ``apply`` checks a move at a cost may
        skip the check here, the bot's move being legal; by default ``apply``."""
        return self.apply(state, seat, self.bot_move(state, seat, rng))

    def searched(self, state: State, seat: int) -> bool:
        """Whether a searching bot thinks about the decision ``seat`` has in ``state``,
        or plays its own bot's move there (``pbem.games.search``): a game whose bot
        plays some steps well and whose search sees little in them (Macao's action
        phase) keeps the search for the others.  By default every decision."""
        return True

    def turn_over(self, before: State, seat: int, move: str, after: State) -> bool:
        """Whether ``move`` ended the turn of ``seat``: it has nothing more to do in
        the decision it was asked for.

        By default: the seat is no longer to move.  A game whose seat moves on
        to a new decision at once (Visby: the last card chosen reveals the round,
        and the merchant trades next) says so here.
        """
        return seat not in self.to_move(after)

    def is_commit_point(self, before: State, seat: int, move: str, after: State) -> bool:
        """Whether this move makes the earlier steps of ``seat`` (and all before it) final.

        True when the seat's turn ended, or hidden information was revealed
        (cards drawn, secret choices opened), which ends no turn.  The server
        offers "take back" only for moves after the last commit point.
        """
        return self.turn_over(before, seat, move, after)

    def move_facts(self, before: State, seat: int, move: str, after: State) -> MoveFacts:
        """``round(before)``, ``turn_over`` and ``is_commit_point`` of one move, asked at
        once: the server records the three with every move it plays or replays, and a
        game answers them in one call, reading the move and the states once (the contract
        test holds them to the three methods).  By default the three methods; the server
        asks through :func:`facts_of`, which asks the three methods of a subclass that
        rewords one of them alone."""
        return MoveFacts(self.round(before), self.turn_over(before, seat, move, after),
                         self.is_commit_point(before, seat, move, after))

    def uses(self, log: Log) -> list[Use]:
        """Which named cards, buildings or offices each seat took, played or built in
        the finished game whose move log is ``log``: read from the notation alone (the
        archive's statistics never replay).  By default none."""
        return []

    def start_seat(self, log: Log) -> int | None:
        """The seat that began the game ``log`` records (``None``: every seat begins
        at once, as in a simultaneous choice).  By default seat 0."""
        return 0

    def parse(self, move: str) -> str:
        """Canonical notation of ``move`` (whitespace folded); games may override."""
        return " ".join(str(move).split())

    def offered(self, state: State, seat: int, move: str) -> str:
        """The move the menu offers for ``move``, a legal move of ``seat``: the move
        itself (canonical notation), or where the menu makes a choice for the player
        that can make them no worse off, the move with the menu's choice (Macao: which
        spare colours pay, since the cubes left at the turn's end are lost).  The
        contract test holds every legal move to be offered so; games may override."""
        return self.parse(move)

    # -- positions for tests and tools ---------------------------------------------

    #: the fields of a state that name the game it belongs to: a position keeps them
    FIXED_FIELDS: ClassVar[tuple[str, ...]] = ("game", "players", "rules_version",
                                               "data_version", "options")

    def position(self, players: int, options: dict[str, Any] | None = None,
                 seed: str | int = "position", **fields: Any) -> State:
        """A position to test or study: the state after ``setup`` with ``fields`` (keys
        of the state's layout, as the game's ``rules`` module documents it) set to the
        values given, then checked like any state (:meth:`check_position`), so that a
        test or a tool never plays on a table the game could not have.

        ``Rules.position(3, None, "s", round=4, hand=[...])``; raises
        :class:`PositionError` with what is wrong.  The fields that name the game
        (:attr:`FIXED_FIELDS`) come from ``players`` and ``options``, not from ``fields``.
        """
        state = self.setup(players, options, seed)
        unknown = sorted(set(fields) - set(state))
        if unknown:
            raise PositionError(f"a state of {self.title} has no field {', '.join(unknown)}")
        fixed = sorted(set(fields) & set(self.FIXED_FIELDS))
        if fixed:
            raise PositionError(f"{', '.join(fixed)} come from the setup, not from a field")
        built = {**state, **json.loads(json.dumps(fields))}
        self.check_position(built)
        return built

    def check_position(self, state: State) -> None:
        """Refuse (:class:`PositionError`) a state that this game could not be in: not
        JSON, fields missing or of another kind than the setup's, a turn nobody can play
        (no seat to move in a running game, a menu over ``MENU_CAP``), a view that cannot
        be drawn; then the game's own invariants (:meth:`check_invariants`: every card
        once, and so on)."""
        try:
            if json.loads(json.dumps(state)) != state:
                raise PositionError("the state does not survive JSON")
        except (TypeError, ValueError) as exc:
            raise PositionError(f"the state is not JSON: {exc}") from exc
        fresh = self.setup(state["players"], state.get("options") or None, state["seed"])
        for key in sorted(set(fresh) | set(state)):
            if key not in state or key not in fresh:
                raise PositionError(f"field {key} is {'missing' if key in fresh else 'unknown'}")
            a, b = fresh[key], state[key]
            if a is not None and b is not None and _kind(a) != _kind(b):
                raise PositionError(f"field {key} must be {_kind(a)}, not {_kind(b)}")
        self.check_invariants(state)
        try:
            movers = self.to_move(state)
            if not movers and not self.is_over(state):
                raise PositionError("nobody is to move in a game that is not over")
            for seat in movers:
                if not 0 <= seat < state["players"]:
                    raise PositionError(f"seat {seat} is to move, but there is no such seat")
                legal = self.legal_moves(state, seat)
                if not legal or len(legal) > MENU_CAP:
                    raise PositionError(f"seat {seat} is to move with {len(legal)} moves")
            self.view(state, EVERYTHING)
        except PositionError:
            raise
        except (KeyError, IndexError, TypeError, ValueError, AssertionError) as exc:
            raise PositionError(f"the game cannot read this state: {exc!r}") from exc

    def check_invariants(self, state: State) -> None:
        """The game's own facts of every state (each card once, each disc once…),
        refused with :class:`PositionError`; by default none."""
        return None


def _kind(value: Any) -> str:
    """The JSON kind of a value, for :meth:`Rules.check_position`'s messages."""
    if isinstance(value, bool):
        return "true or false"
    if isinstance(value, int | float):
        return "a number"
    return {str: "text", list: "a list", dict: "a mapping"}.get(type(value), type(value).__name__)
