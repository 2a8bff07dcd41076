"""The game contract (DESIGN.md, "The game contract"), checked over every registered game.

Every game of ``pbem.games.all_games()`` (and the suite's own game Ziehen,
registered for the run), every player count, and every combination of option
values the game accepts is played to the end a few times by its own bots
(with now and then the timeout default), and at every state and move:

* ``apply`` never changes its input; states survive JSON; an illegal move is
  refused with a ``MoveError`` and leaves the state as it was; replaying the
  move log from setup gives the final state;
* every seat to move has legal moves within ``MENU_CAP``, a legal
  ``default_move`` and ``bot_move``, and a ``formality`` that is ``None`` or its
  only move; ``menu`` lists exactly ``legal_moves`` in "en" and "de" with a
  label for each; the notation is canonical; a seat not to move has no moves;
* ``view``, ``render_text`` (the table in words of pages and mails) and
  ``picture`` (``None`` or an SVG document without script, names escaped) work
  for every seat, a spectator and ``EVERYTHING``, in "en" and "de" (and a
  language no game speaks, which reads English); views are JSON (the German text
  and picture, and the language nobody speaks, for every viewer at the first and
  the last state and for one viewer in turn at the others: each game's own tests
  draw its German pictures);
* the seed shows in no view, text, picture, menu or sentence, and no
  view has a ``seed`` or ``draws`` key;
* ``describe`` gives a sentence in "en" and "de" (and a language no game
  speaks: English), or none to anyone (a move not told), reads the same for
  the author and ``EVERYTHING`` in each, and names only seats of the game;
* during a secret choice with other seats still to choose, nothing another
  seat or a spectator sees or reads, in any language, depends on which move
  the mover made;
* the game is over exactly when nobody is to move; ``turn_over`` is True when
  the mover is no longer to move; ``move_facts`` answers ``round``, ``turn_over``
  and ``is_commit_point`` of every move at once, the same; ``result`` ranks every seat
  and the winners are the seats ranked 1.
* key order never decides: at every state and for every move, the state as the
  database gives it back (JSON with sorted keys) and the state with the keys of
  every dict reversed give, byte for byte as canonical JSON, the same state after
  the move, the same sentences (every viewer, "en" and "de"), ``turn_over`` and
  commit point, the same views, menus, default and bot moves (the same bot move
  from the same random generator, which it leaves in the same state) and result,
  and for one viewer in turn (every viewer at the start and the end) the same text,
  and at every third state the picture, drawn from the view with its keys
  sorted or reversed.
  The server stores states as sorted JSON and replays logs from states that
  never saw the database, so a game whose rules iterate a dict in key order
  would play differently from its record (issue 28).

What it cannot check for every game: that a view hides what the rules keep
secret outside a secret choice (a private draw: the suite's game and each
game's own tests do), that the default move is neutral, that scores follow the
rulebook, or that a commit point falls where hidden information was revealed.

Each case (game, player count, options) plays one playout, a new random game each
run: the suite (the README's test command, and CI) stays within its minutes, and the
playouts add up over the runs.  ``PBEM_CONTRACT_PLAYOUTS=3`` plays more per case, each
a test of its own, so that pytest-xdist spreads them; a long game plays fewer playouts
than a short one (the move budget), so a playout whose case would have spent its
budget already is skipped.  ``PBEM_CONTRACT_SEED`` replays the playout of a failure
(its message names the seed; the first playout of each case plays it).
"""

from __future__ import annotations

import copy
import inspect
import itertools
import json
import os
import random
import re
import sys
import xml.parsers.expat
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import msgspec
import pytest

# tests/ is on the import path (its conftest.py), as for the server's tests of Ziehen
from games.draw_game import GAME as ZIEHEN

from pbem.games import all_games, game_names, get_game, registered
from pbem.games.protocol import (
    EVERYTHING,
    MENU_CAP,
    SPECTATOR,
    MoveError,
    OptionError,
    PositionError,
    Rules,
    State,
    new_seed,
)

TEMPLATES = Path(__file__).resolve().parents[2] / "templates"
#: playouts per case (one by default: a playout checks every state of a whole game in
#: every view, language and key order, and three per case cost the suite minutes of
#: CPU) and moves per case after which no new playout starts, so that a long game
#: gets fewer playouts than a short one
PLAYOUTS = int(os.environ.get("PBEM_CONTRACT_PLAYOUTS", "1"))
MOVE_BUDGET = 400
MAX_MOVES = 5_000  # a random game longer than this hangs
#: the key-order check compares the pictures at every this many states (they cost
#: more than the rest of the check together; every state's view is compared)
ORDER_PICTURES_EVERY = 3
DEFAULT_SHARE = 0.15  # how often a playout plays the timeout default instead of the bot
#: how deep the menu's reach follows moves that only browse (pages, rows), and how many
#: moves with a number changed each state tries against it
REACH_DEPTH = 3
REACH_SAMPLES = 6
#: the numbers a candidate move puts in place of one of a menu move's numbers
REACH_NUMBERS = range(0, 41)
LANGS = ("en", "de")
#: a language no game speaks: it must read English, never fail
UNSPOKEN = "xx"
HOSTILE = "<script>alert('x')</script>"
#: names as people type them, and worse: markup, an ampersand, a control character
#: (which XML forbids even escaped: a picture must drop it), a name far too long
NAMES = [HOSTILE, "Anne & Bob", "Hei\x01ke", "Malte " * 20, "Jule", "Ole", "Karin", "Piet"]
_PLACEHOLDER = re.compile(r"\{(\d+)\}")
#: a script element in a picture, its name in any case: what ``"<script" in svg.lower()``
#: finds (``str.lower`` makes those letters only of their ASCII capitals: "İ" lowers to
#: "i" and a combining dot), without lowering a picture of 80 kB each time (0.5 ms)
_SCRIPT = re.compile("<script", re.IGNORECASE | re.ASCII)


def well_formed(svg: str) -> None:
    """Raise ``ExpatError`` unless ``svg`` is well-formed XML with its namespaces bound.

    ``ElementTree.fromstring`` parses with this same expat parser (prefixes resolved,
    as here) and builds a tree the checks never read: three quarters of its time (3 of
    4 ms for a picture of Macao), and each state parses several pictures.  It accepts
    exactly what this accepts."""
    xml.parsers.expat.ParserCreate(namespace_separator="}").Parse(svg, True)


def combinations(game: Rules) -> Iterator[dict[str, Any]]:
    """Every combination of option values, accepted or not."""
    names = [o.name for o in game.options]
    for values in itertools.product(*(o.choices for o in game.options)):
        yield dict(zip(names, values, strict=True))


def accepted(game: Rules, players: int, options: dict[str, Any]) -> bool:
    try:
        game.resolve_options(options, players)
    except OptionError:
        return False
    return True


def games() -> list[Rules]:
    """Every registered game, the suite's own included."""
    if ZIEHEN.name in game_names():  # inside the module's fixture
        return all_games()
    with registered(ZIEHEN):
        return all_games()


def played_combinations(game: Rules, players: int) -> Iterator[dict[str, Any]]:
    """The combinations of option values the playouts play: every combination of the
    variants, with each rule read the game's own way; and once, at the fewest players,
    each other reading of a rule (``Option.reading``) on its own.  A reading changes
    one rule, which a playout of its own checks; every combination of them would cost
    the suite minutes and check no more of the contract."""
    readings = [o for o in game.options if o.reading]
    own = {o.name: o.default for o in readings}
    for options in combinations(game):
        if all(options[name] == value for name, value in own.items()):
            yield options
    if players == game.min_players:
        defaults = {o.name: o.default for o in game.options}
        for o in readings:
            for value in o.choices:
                if value != o.default:
                    yield {**defaults, o.name: value}


def cases() -> list[Any]:
    out = []
    for game in games():
        for players in range(game.min_players, game.max_players + 1):
            for options in played_combinations(game, players):
                if accepted(game, players, options):
                    label = "".join(f"-{k}={v}" for k, v in options.items())
                    out.append(pytest.param(game, players, options,
                                            id=f"{game.name}-{players}p{label}"))
    return out


@pytest.fixture(scope="module", autouse=True)
def ziehen_registered() -> Iterator[None]:
    with registered(ZIEHEN):
        yield


#: how the checks write a value as JSON to compare or search it: keys sorted, compact,
#: by msgspec's encoder (a sixth of the time of the standard library's C encoder, which
#: was a tenth of a playout: the views' and states' JSON at every state and move).  Two
#: values read the same exactly when the standard library's canonical JSON of them
#: would (both write a dict's keys as strings, tuples as lists); whether a value is JSON
#: at all, as the server stores it, the standard library's round trip checks.
_ENCODER = msgspec.json.Encoder(order="sorted")
#: JSON text back to Python values: msgspec's decoder gives the same values as
#: ``json.loads`` (dicts in the text's key order, integers of any size) in a quarter of
#: its time; the standard library still writes what the server stores (``sorted_keys``,
#: and ``check_state``'s round trip)
_from_json = msgspec.json.decode
#: a value as JSON with its keys in their own order: what tells two views apart that
#: differ only in key order (``secret_reading``), as ``json.dumps`` would, in a fifth of
#: its time
_in_own_order = msgspec.json.Encoder().encode


def as_json(value: Any) -> bytes:
    """``value`` as JSON written by ``_ENCODER``: what a check searches (a view's keys, the
    seed) and what two readings are compared as (``canonical``).  It stays the encoder's
    UTF-8 bytes: making text of them took a quarter of the time of writing them, and
    a text is in the JSON exactly when its UTF-8 is in these bytes (``Playout.hidden``)."""
    return _ENCODER.encode(value)


def keys_of(value: Any) -> Iterator[str]:
    if isinstance(value, dict):
        for key, inner in value.items():
            yield str(key)
            yield from keys_of(inner)
    elif isinstance(value, list):
        for inner in value:
            yield from keys_of(inner)


def keys_named(value: Any, dumped: bytes, names: tuple[str, ...]) -> set[str]:
    """Those of ``names`` that are a key of a dict in ``value``, at any level; ``dumped``
    is ``value`` as ``as_json`` writes it.  A key is written there as ``"name":`` (a
    string that is not a key is followed by a comma or a bracket, and a quote inside a
    string is escaped), so a name not written so is no key, and ``value`` is only
    walked (``keys_of``, the suite's dearest part of a view's check) when one is."""
    if not any(f'"{name}":'.encode() in dumped for name in names):
        return set()
    return set(names) & set(keys_of(value))


def canonical(value: Any) -> bytes:
    """``value`` as canonical JSON: what two readings that must agree are compared as."""
    return as_json(value)


#: what ``read_back`` gives for a value that does not come back as it was
_NOT_BACK = object()


def read_back(value: Any, dumped: bytes | None = None,
              read: Callable[[bytes], Any] = _from_json) -> Any:
    """``value`` through ``as_json`` and back, when that gives a value equal to it (no
    tuple, set, number as a key, infinity or NaN in it), else ``_NOT_BACK``.
    ``dumped`` is ``value`` as ``as_json`` wrote it already, ``read`` what reads it back
    (``Reading.from_json``)."""
    try:
        back = read(as_json(value) if dumped is None else dumped)
    except (TypeError, msgspec.EncodeError):  # a number as a key, a value not JSON
        return _NOT_BACK
    return back if back == value else _NOT_BACK


def sorted_keys(value: Any, dumped: bytes | None = None,
                read: Callable[[bytes], Any] = _from_json) -> Any:
    """``value`` as the database gives it back: through JSON with its keys sorted.

    The server writes it with the standard library (``json.dumps``, ``sort_keys``), in
    a third of the time here by ``as_json``: both write a dict's text keys in the order
    of their code points, and a value that comes back from ``as_json`` as it was
    (``read_back``) comes back from the standard library the same, key for key; any
    other value goes the server's way."""
    back = read_back(value, dumped, read)
    return back if back is not _NOT_BACK else _from_json(json.dumps(value, sort_keys=True))


def survives_json(state: State) -> bool:
    """``state`` comes back equal through JSON as the server stores it (the standard
    library's ``json``): certainly when it comes back from ``as_json`` (``read_back``:
    the same JSON values, in a fifth of the time); any other state goes the server's way."""
    return read_back(state) is not _NOT_BACK or json.loads(json.dumps(state)) == state


def copy_of(state: State, dumped: bytes | None = None) -> State:
    """A copy of ``state`` to compare it with after a call that must leave it as it was:
    read back from its JSON (``read_back``: equal to it, and in a fifth of the time of
    ``copy.deepcopy``), or a deep copy of a state that JSON would not give back."""
    back = read_back(state, dumped)
    return back if back is not _NOT_BACK else copy.deepcopy(state)


#: what ``reversed_keys`` looks into
_NESTED = (dict, list)


def reversed_keys(value: Any) -> Any:
    """``value`` with the keys of every dict in it, at every level, in reverse order.
    A number or text inside is kept without a call for it (most of what a state holds:
    a call each took a third of the time)."""
    if isinstance(value, dict):
        return {key: reversed_keys(inner) if isinstance(inner, _NESTED) else inner
                for key, inner in reversed(value.items())}
    if isinstance(value, list):
        return [reversed_keys(inner) if isinstance(inner, _NESTED) else inner
                for inner in value]
    return value


def as_built(value: Any) -> Any:
    return value


#: the key orders a state (and a view) may come in besides the one it was built in: a
#: state read back from the database has its keys sorted; reversed, every dict's order
#: differs from the built one (a dict the game happened to build in sorted order too)
KEY_ORDERS: tuple[tuple[str, Callable[[Any], Any]], ...] = (
    ("sorted", sorted_keys), ("reversed", reversed_keys))


def first_difference(expected: str | bytes, got: str | bytes, context: int = 70) -> str:
    """Where two readings part, with a little of each around it (JSON read as text)."""
    expected, got = _as_text(expected), _as_text(got)
    at = next((i for i, (a, b) in enumerate(zip(expected, got, strict=False)) if a != b),
              min(len(expected), len(got)))
    start = max(0, at - context)
    return (f"…{got[start:at + context]!r}… where the state as built reads "
            f"…{expected[start:at + context]!r}… (character {at})")


#: what the game reads from a state or a move, by what it is: canonical JSON (``as_json``)
#: or a text as the game wrote it
Readings = dict[str, str | bytes]


def _as_text(reading: str | bytes) -> str:
    return reading.decode("utf-8") if isinstance(reading, bytes) else reading


class Reading:
    """What the game reads from one state, each reading made once.

    The checks at a state ask for the same view, text, picture, menu and moves more
    than once (each check for what it checks, the key-order check for all of them as
    the state was built); each is asked of the game once, and every check compares or
    examines that one answer.  A view is rendered after ``reorder`` (as a view read
    back from the database would be: the key-order check's other orders)."""

    def __init__(self, game: Rules, state: State, names: list[str],
                 reorder: Callable[[Any], Any] = as_built,
                 decoded: dict[bytes, Any] | None = None) -> None:
        self.game, self.state, self.names, self.reorder = game, state, names, reorder
        self._made: dict[tuple[Any, ...], Any] = {}
        #: JSON read back (``from_json``), shared by the readings of one state in every
        #: key order: their views' JSON is the same unless the key-order check fails
        self.decoded: dict[bytes, Any] = {} if decoded is None else decoded

    def _once(self, key: tuple[Any, ...], make: Callable[[], Any]) -> Any:
        if key not in self._made:
            self._made[key] = make()
        return self._made[key]

    def legal(self, seat: int) -> list[str]:
        return self._once(("legal", seat), lambda: self.game.legal_moves(self.state, seat))

    def default(self, seat: int) -> str:
        return self._once(("default", seat), lambda: self.game.default_move(self.state, seat))

    def formality(self, seat: int) -> str | None:
        return self._once(("formality", seat), lambda: self.game.formality(self.state, seat))

    def menu(self, seat: int, lang: str) -> list[Any]:
        return self._once(("menu", seat, lang), lambda: self.game.menu(self.state, seat, lang))

    def view(self, viewer: int | None) -> Any:
        return self._once(("view", viewer), lambda: self.game.view(self.state, viewer))

    def json(self, viewer: int | None) -> bytes:
        """The view as JSON (``as_json``: keys sorted): the view's own check reads it,
        and the key-order check compares it with the other orders'."""
        return self._once(("json", viewer), lambda: as_json(self.view(viewer)))

    def from_json(self, dumped: bytes) -> Any:
        """``dumped`` read back, once for the state's readings: the view's own check
        reads its JSON back, and so does ``sorted_keys`` the view of the state read
        back sorted, which has the same JSON."""
        if dumped not in self.decoded:
            self.decoded[dumped] = _from_json(dumped)
        return self.decoded[dumped]

    def shown(self, viewer: int | None) -> Any:
        """The view as the game renders it: after ``reorder``; read back sorted, from its
        JSON (``json``, which the key-order check compares)."""
        if self.reorder is sorted_keys:
            return self._once(("shown", viewer), lambda: sorted_keys(
                self.view(viewer), self.json(viewer), self.from_json))
        return self._once(("shown", viewer), lambda: self.reorder(self.view(viewer)))

    def text(self, viewer: int | None, lang: str) -> str:
        return self._once(("text", viewer, lang), lambda: self.game.render_text(
            self.shown(viewer), self.names, lang))

    def picture(self, viewer: int | None, lang: str) -> str | None:
        return self._once(("picture", viewer, lang), lambda: self.game.picture(
            self.shown(viewer), self.names, lang))


class Playout:
    """One random game of ``game`` and the checks at each of its states and moves."""

    def __init__(self, game: Rules, players: int, options: dict[str, Any], seed: str) -> None:
        self.game, self.players, self.options, self.seed = game, players, options, seed
        self.names = NAMES[:players]
        self.viewers: list[int | None] = [*range(players), SPECTATOR, EVERYTHING]
        self.where = f"{game.name}, {players} players, {options}, PBEM_CONTRACT_SEED={seed}"
        self.seed_utf8 = seed.encode("utf-8")  # what the seed is in JSON (``as_json``)

    # -- what nobody may read: the seed -----------------------------------------------

    def hidden(self, text: str | bytes, what: str) -> None:
        """The seed is not in ``text``, a text or JSON as ``as_json`` writes it."""
        seed = self.seed if isinstance(text, str) else self.seed_utf8
        assert seed not in text, f"the seed shows in {what} ({self.where})"

    # -- per state -------------------------------------------------------------------

    def read(self, state: State) -> Reading:
        return Reading(self.game, state, self.names)

    def check_state(self, state: State, thorough: int | None = None) -> None:
        """Checks at one state.  The German text and picture are drawn, the text in a
        language nobody speaks compared with the English and the pictures parsed as
        XML for the viewer ``thorough`` (all viewers when ``None``): they take most of
        the time, and all are drawn from the view, which every viewer's check covers
        (the English text and picture of every viewer at every state).  The checks
        share one ``Reading`` of the state: each asks the game for nothing another has
        asked it already."""
        game, reading = self.game, self.read(state)
        assert survives_json(state), f"state is not JSON ({self.where})"
        movers = game.to_move(state)
        assert game.is_over(state) == (not movers), \
            f"is_over must be exactly 'nobody to move' ({self.where})"
        assert len(set(movers)) == len(movers) and set(movers) <= set(range(self.players))
        for seat in range(self.players):
            self.check_moves(reading, seat, seat in movers)
        for seat in movers:
            if thorough is None or thorough % len(self.viewers) == seat:
                self.check_regions(reading, seat)
        for i, viewer in enumerate(self.viewers):
            self.check_view(reading, viewer,
                            thorough is None or thorough % len(self.viewers) == i)
        self.check_refusals(state, movers, reading)
        game.check_position(state)   # a state met in play passes what a built one must
        for seat in movers:
            self.check_reach(state, seat, random.Random(f"{self.seed}:{thorough}:{seat}"),
                             reading)
        if thorough is None:
            self.check_order(reading, self.viewers, self.viewers)
        else:
            drawn = thorough % ORDER_PICTURES_EVERY == 0
            self.check_order(reading, [self.viewers[thorough % len(self.viewers)]],
                             [self.viewers[thorough // ORDER_PICTURES_EVERY
                                           % len(self.viewers)]] if drawn else [])

    def check_moves(self, reading: Reading, seat: int, moving: bool) -> None:
        game, state, where = self.game, reading.state, f"seat {seat} ({self.where})"
        legal = reading.legal(seat)
        if not moving:
            assert legal == [], f"a seat not to move has moves: {legal} {where}"
            assert reading.menu(seat, "en") == []
            return
        assert legal, f"a seat to move has no move {where}"
        assert len(legal) <= MENU_CAP, f"{len(legal)} moves > MENU_CAP {where}"
        assert len(set(legal)) == len(legal), f"a move twice in {legal} {where}"
        for move in legal:
            assert game.parse(move) == move, f"{move!r} is not canonical notation {where}"
            self.hidden(move, "a move")
        assert reading.default(seat) in legal, f"default move not legal {where}"
        bot = game.bot_move(state, seat, random.Random(f"{self.seed}:{seat}"))
        assert bot in legal, f"bot move {bot!r} not legal {where}"
        formality = reading.formality(seat)
        assert formality is None or legal == [formality], \
            f"formality {formality!r} is not the only move {legal} {where}"
        for lang in LANGS:
            menu = reading.menu(seat, lang)
            assert [c.move for c in menu] == legal, f"menu in {lang} is not legal_moves {where}"
            for c in menu:
                assert isinstance(c.label, str) and c.label.strip(), f"empty label {where}"
                for text in (c.label, c.group, c.help):
                    self.hidden(text, f"a menu label ({lang})")

    def check_regions(self, reading: Reading, seat: int) -> None:
        """Every choice names the place of the picture it acts on (``Choice.region``),
        the same in every language, and the seat's picture, given a link for each such
        place (as the seat page gives), draws each one as that link."""
        game, where = self.game, f"seat {seat} ({self.where})"
        menus = {lang: reading.menu(seat, lang) for lang in LANGS}
        regions = [c.region for c in menus[LANGS[0]]]
        assert all(regions), f"a choice names no place of the picture: " \
            f"{[c.move for c in menus[LANGS[0]] if not c.region]} {where}"
        for lang in LANGS[1:]:
            assert [c.region for c in menus[lang]] == regions, \
                f"the places of the menu differ in {lang} {where}"
        links = {region: f"#tap-{i}" for i, region in enumerate(sorted(set(regions)))}
        svg = game.picture(reading.view(seat), self.names, LANGS[0], links)
        # the picture drawn from the view itself (not a copy) must leave it as it was
        assert as_json(reading.view(seat)) == reading.json(seat), \
            f"the picture changed the view {where}"
        if svg is None:
            return
        well_formed(svg)
        drawn = set(re.findall(r'<a data-region="[^"]*" href="(#tap-\d+)"', svg))
        missing = sorted(r for r, href in links.items() if href not in drawn)
        assert not missing, f"the picture draws no place for {missing} {where}"

    def check_view(self, reading: Reading, viewer: int | None, thorough: bool = True) -> None:
        game, where = self.game, f"viewer {viewer} ({self.where})"
        view = reading.view(viewer)
        dumped = reading.json(viewer)  # a view must be JSON as it is
        assert reading.from_json(dumped) == view, f"view changes through JSON {where}"
        self.hidden(dumped, f"the view of {viewer}")
        assert not {"seed", "draws"} & keys_named(view, dumped, ("seed", "draws")), \
            f"seed or draws in a view {where}"
        text = reading.text(viewer, "en")  # what a call without a language gives: the
        # default is "en" (test_the_static_facts_of_every_game)
        assert isinstance(text, str) and text.strip(), f"empty render_text {where}"
        self.hidden(text, f"the text of {viewer}")
        self.check_picture(reading.picture(viewer, LANGS[0]), where, thorough)
        if not thorough:
            return
        assert game.render_text(view, self.names, UNSPOKEN) == text, \
            f"render_text in a language the game lacks is not English {where}"
        # a view is read, never changed (``Rules.view``): games share its unchanging parts
        # between views, so words drawn from it must leave it as it was
        assert as_json(view) == dumped, f"render_text changed the view {where}"
        german = reading.text(viewer, "de")
        assert isinstance(german, str) and german.strip(), f"empty German text {where}"
        self.hidden(german, f"the German text of {viewer}")
        self.check_picture(reading.picture(viewer, "de"), where)

    def check_picture(self, svg: str | None, where: str, parse: bool = True) -> None:
        if svg is None:
            return
        assert svg.startswith("<svg"), f"a picture is an SVG document {where}"
        self.hidden(svg, "a picture")
        # the name given as markup (``HOSTILE``) begins with "<script": a picture that
        # shows it unescaped is one this finds, without a search of its own for it
        assert not _SCRIPT.search(svg), f"script in picture {where}"
        if parse:
            well_formed(svg)  # so names are escaped

    def check_refusals(self, state: State, movers: list[int], reading: Reading) -> None:
        """An illegal move raises ``MoveError`` and leaves the state as it was (``reading``
        is the state's, which knows its legal moves already)."""
        game = self.game
        frozen = copy_of(state)
        tries: list[tuple[int, str]] = [(movers[0] if movers else 0, "~ no such move ~")]
        if movers:
            move = reading.legal(movers[0])[0]
            tries += [(s, move) for s in range(self.players) if s not in movers][:1]
            tries.append((self.players, move))  # no such seat
        for seat, move in tries:
            with pytest.raises(MoveError):
                game.apply(state, seat, move)
            assert state == frozen, f"a refused move changed the state ({self.where})"

    def reach(self, state: State, seat: int, reading: Reading | None = None) -> set[str]:
        """The moves the menu of ``seat`` reaches: its moves, and behind each move that
        only browses (a page, a row: the table, as the archive sees it, stays as it was
        and the seat stays to move) the moves of the menu it opens, ``REACH_DEPTH`` deep.
        ``reading`` (of ``state``) gives the state's own view and moves, read already."""
        game = self.game
        reached: set[str] = set()
        seen = {canonical(state)}
        todo = [(state, 0)]
        while todo:
            here, depth = todo.pop()
            first = reading is not None and here is state
            table = reading.json(EVERYTHING) if first else as_json(game.view(here, EVERYTHING))
            for move in (reading.legal(seat) if first else game.legal_moves(here, seat)):
                reached.add(move)
                if depth >= REACH_DEPTH:
                    continue
                after = game.apply(here, seat, move)
                key = canonical(after)
                if key in seen or seat not in game.to_move(after) or \
                        as_json(game.view(after, EVERYTHING)) != table:
                    continue
                seen.add(key)
                todo.append((after, depth + 1))
        return reached

    def check_reach(self, state: State, seat: int, rng: random.Random,
                    reading: Reading | None = None) -> None:
        """Every move ``apply`` accepts is in the menu's reach (``reach``): a move a
        player cannot choose from the menu, links or a mail's list is a rule nobody can
        play, or a gap in the menu.  The candidates are the reach's moves and their
        beginnings, each with one number changed or none (``wall 3`` → ``wall 1``,
        ``use K7 2`` → ``use K7 1``, ``district 12`` → ``district 5``, ``wall 4 pay r:7``
        → ``wall 4``), ``REACH_SAMPLES`` of them at random.  A move that the reach
        offers only with more said (the action with its payment, ``wall 1 pay r:1``)
        counts as reached: its step's menu offers the rest.  So does a move the game
        offers with a choice made for the player that leaves them no worse off
        (``offered``: Macao pays with the spare colours it picks).  And so does a move
        said whole that the menu offers in two steps, the rest on the next step's menu
        (``district 17 pay b``: ``district 17``, then ``pay b`` of the colours a player
        chooses from)."""
        game = self.game
        reached = self.reach(state, seat, reading)
        candidates = sorted({c for move in reached for c in _numbers_changed(move)} - reached)
        for move in rng.sample(candidates, min(REACH_SAMPLES, len(candidates))):
            try:
                game.apply(state, seat, move)
            except MoveError:
                continue
            canon = game.offered(state, seat, move)
            assert canon in reached or any(r.startswith(canon + " ") for r in reached) \
                or self._offered_in_steps(state, seat, canon, reached), (
                f"apply accepts {move!r} from seat {seat}, which the menu never offers "
                f"(its reach: {sorted(reached)}) ({self.where})")

    def _offered_in_steps(self, state: State, seat: int, canon: str, reached: set[str]) -> bool:
        """Whether ``canon`` is a move of the reach followed by a move that the menu of
        the step it opens offers (as ``offered`` writes it)."""
        game = self.game
        for first in reached:
            if not canon.startswith(first + " "):
                continue
            rest = canon[len(first) + 1:]
            step = game.apply(state, seat, first)
            if seat not in game.to_move(step):
                continue
            try:
                game.apply(step, seat, rest)
            except MoveError:
                continue
            if game.offered(step, seat, rest) in game.legal_moves(step, seat):
                return True
        return False

    # -- per move ---------------------------------------------------------------------

    def check_move(self, state: State, seat: int, move: str) -> State:
        game, where = self.game, f"seat {seat} plays {move!r} ({self.where})"
        dumped = as_json(state)
        frozen = copy_of(state, dumped)
        after = game.apply(state, seat, move)
        assert state == frozen and as_json(state) == dumped, f"apply changed its input: {where}"
        assert after is not state
        # a stored log replays through ``apply_played`` (the archive): the same state
        assert game.apply_played(state, seat, move) == after, f"apply_played differs: {where}"
        assert state == frozen and as_json(state) == dumped, \
            f"apply_played changed its input: {where}"
        turn_over = game.turn_over(state, seat, move, after)
        assert isinstance(turn_over, bool)
        if seat not in game.to_move(after):
            assert turn_over, f"the mover is no longer to move but its turn is not over: {where}"
        commit = game.is_commit_point(state, seat, move, after)
        assert isinstance(commit, bool)
        # what the server records of the move, asked at once: the same three answers
        facts = game.move_facts(state, seat, move, after)
        assert facts == (game.round(state), turn_over, commit) and \
            type(facts.round) is int and type(facts.turn_over) is bool \
            and type(facts.commit) is bool, \
            f"move_facts {facts} is not round, turn_over and is_commit_point: {where}"
        # each viewer's sentence without a language: what "en" and a language nobody
        # speaks must read, and the author's tells whether the move is told at all
        english = {viewer: game.describe(state, seat, move, after, viewer)
                   for viewer in self.viewers}
        said: dict[str, dict[int | None, str]] = {}
        for lang in (*LANGS, UNSPOKEN):
            sentences = said[lang] = {}
            for viewer in self.viewers:
                text = game.describe(state, seat, move, after, viewer, lang)
                # empty: the move is not told (navigation), to nobody in no language
                assert isinstance(text, str) and (text.strip() or not text) and (
                    bool(text) == bool(english[seat])), \
                    f"blank describe, or empty for some only ({lang}): {where}"
                self.hidden(text, f"describe for {viewer} in {lang}")
                for index in _PLACEHOLDER.findall(text):
                    assert int(index) < self.players, f"{text!r} names seat {index}: {where}"
                if lang != "de":
                    assert text == english[viewer], \
                        f"describe in {lang!r} is not the English: {where}"
                sentences[viewer] = text
            assert sentences[seat] == sentences[EVERYTHING], \
                f"the author and EVERYTHING read {sentences[seat]!r} / {sentences[EVERYTHING]!r}"
        if game.is_secret(state) and set(game.to_move(state)) - {seat}:
            self.check_secret(state, seat)
        self.check_move_order(state, seat, move, after, said)
        # what the server stores when it records the move: the same sentences, asked at once
        langs = (*LANGS, UNSPOKEN)
        assert game.describe_all(state, seat, move, after, langs) == {
            lang: (said[lang][seat], said[lang][SPECTATOR]) for lang in langs}, \
            f"describe_all is not describe's sentences: {where}"
        return after

    def check_secret(self, state: State, seat: int) -> None:
        """Whatever ``seat`` chooses, the others see and read the same (the choice
        cannot end the secret phase: other seats still have to choose).

        Views and sentences suffice: ``render_text`` (the table in words) and
        ``picture`` are drawn from the view alone.
        """
        game = self.game
        moves = game.legal_moves(state, seat)
        afters = {move: game.apply(state, seat, move) for move in moves}
        for viewer in self.viewers:
            if viewer == seat or viewer == EVERYTHING:
                continue
            texts: dict[tuple[bytes, str], str] = {}
            seen = {self.secret_reading(state, seat, move, after, viewer, texts)
                    for move, after in afters.items()}
            assert len(seen) == 1, (f"viewer {viewer} can tell which of {moves} seat {seat} "
                                    f"chose in secret ({self.where})")

    def secret_reading(self, state: State, seat: int, move: str, after: State,
                       viewer: int | None, texts: dict[tuple[bytes, str], str],
                       ) -> tuple[str | bytes, ...]:
        """What ``viewer`` sees and reads after ``seat`` played ``move``: the view, the
        sentences and the table in words (from that one view) in every language.

        The table in words is rendered once per view as it is, keys in their order
        (``texts``): the views after the seat's moves are alike when nothing leaks, and
        rendering the same view again would give the same text."""
        game = self.game
        view = game.view(after, viewer)
        exact = _in_own_order(view)
        for lang in LANGS:
            if (exact, lang) not in texts:
                texts[(exact, lang)] = game.render_text(view, self.names, lang)
        return (as_json(view),
                *(game.describe(state, seat, move, after, viewer, lang) for lang in LANGS),
                *(texts[(exact, lang)] for lang in LANGS))

    # -- key order never decides ------------------------------------------------------

    def check_order(self, reading: Reading, told: list[int | None],
                    drawn: list[int | None]) -> None:
        """``state`` in every key order reads the same; the texts of the viewers ``told``
        and the pictures of those ``drawn`` are compared too (they take most
        of the time, and are drawn from the view, which is compared for every viewer)."""
        expected = self.state_readings(reading, told, drawn)
        for order, reorder in KEY_ORDERS:
            got = self.state_readings(Reading(self.game, reorder(reading.state), self.names,
                                              reorder, reading.decoded), told, drawn)
            self.same_readings(expected, got, order, "at this state")

    def check_move_order(self, state: State, seat: int, move: str, after: State,
                         said: dict[str, dict[int | None, str]] | None = None) -> None:
        """The move applied to ``state`` in every key order does and says the same
        (as built, the sentences ``said`` in each language, when given)."""
        expected = self.move_readings(state, seat, move, after, said)
        for order, reorder in KEY_ORDERS:
            before = reorder(state)
            got = self.move_readings(before, seat, move, self.game.apply(before, seat, move))
            self.same_readings(expected, got, order, f"when seat {seat} plays {move!r}")

    def state_readings(self, reading: Reading, told: list[int | None],
                       drawn: list[int | None]) -> Readings:
        """What the game reads from the state, by what it is, as canonical JSON or text;
        each view is rendered after the reading's ``reorder`` (as a view read back
        would be)."""
        game, state = self.game, reading.state
        movers = game.to_move(state)
        out = {"who is to move": canonical([movers, game.is_over(state), game.round(state)])}
        for seat in movers:
            rng = random.Random(f"{self.seed}:order:{seat}")
            # the bot's move and what it left of the generator, which plays on for the
            # next bot in the server's chain
            out[f"the moves of seat {seat}"] = canonical({
                "legal": reading.legal(seat), "default": reading.default(seat),
                "formality": reading.formality(seat), "secret": game.is_secret(state),
                "bot": [game.bot_move(state, seat, rng), rng.random()]})
            for lang in LANGS:
                out[f"the menu of seat {seat} in {lang}"] = canonical(
                    [[c.move, c.label, c.group, c.help] for c in reading.menu(seat, lang)])
        for viewer in self.viewers:
            out[f"the view of {viewer}"] = reading.json(viewer)
            if viewer in told:
                for lang in LANGS:
                    out[f"the text of {viewer} in {lang}"] = reading.text(viewer, lang)
            if viewer not in drawn:
                continue
            out[f"the picture of {viewer}"] = canonical(reading.picture(viewer, LANGS[0]))
        if not movers:
            out["the result"] = canonical(game.result(state).to_json())
        return out

    def move_readings(self, before: State, seat: int, move: str, after: State,
                      said: dict[str, dict[int | None, str]] | None = None) -> Readings:
        """What a move does and says, by what it is, as canonical JSON or text (the
        sentences ``said`` already, when given)."""
        game = self.game
        out = {"the state after the move": canonical(after),
               "turn over, commit point": canonical([
                   game.turn_over(before, seat, move, after),
                   game.is_commit_point(before, seat, move, after)])}
        for lang in LANGS:
            for viewer in self.viewers:
                out[f"the sentence for {viewer} in {lang}"] = said[lang][viewer] if said \
                    else game.describe(before, seat, move, after, viewer, lang)
        return out

    def same_readings(self, expected: Readings, got: Readings, order: str, when: str) -> None:
        for what, reading in expected.items():
            assert got.get(what) == reading, (
                f"key order decides {what} {when}: with its keys {order} the state gives "
                f"{first_difference(reading, got.get(what) or '')} "
                f"({self.where})")

    # -- the whole game ---------------------------------------------------------------

    def play(self, rng: random.Random) -> int:
        game = self.game
        state = game.setup(self.players, self.options, self.seed)
        assert game.setup(self.players, self.options, self.seed) == state, \
            f"setup is not deterministic ({self.where})"
        log: list[tuple[int, str]] = []
        while True:
            movers = game.to_move(state)
            # every viewer in full at the start and the end, one in turn between
            self.check_state(state, len(log) if log and movers else None)
            if not movers:
                break
            assert len(log) < MAX_MOVES, f"the game did not end ({self.where})"
            seat, move = self.next_move(state, movers, rng)
            state = self.check_move(state, seat, move)
            log.append((seat, move))
        self.check_replay(log, state)
        self.check_result(state)
        return len(log)

    def next_move(self, state: State, movers: list[int], rng: random.Random) -> tuple[int, str]:
        """The playout's next move: a bot's, now and then the timeout default."""
        seat = rng.choice(movers)
        if rng.random() < DEFAULT_SHARE:
            return seat, self.game.default_move(state, seat)
        return seat, self.game.bot_move(state, seat, rng)

    def length(self, rng: random.Random) -> int:
        """How many moves :meth:`play` makes with ``rng``: the same game without the checks."""
        state = self.game.setup(self.players, self.options, self.seed)
        moves = 0
        while (movers := self.game.to_move(state)) and moves < MAX_MOVES:
            seat, move = self.next_move(state, movers, rng)
            state = self.game.apply(state, seat, move)
            moves += 1
        return moves

    def check_replay(self, log: list[tuple[int, str]], final: State) -> None:
        game = get_game(self.game.name)  # through the registry, as the server replays
        state = game.setup(self.players, self.options, self.seed)
        for seat, move in log:
            state = game.apply(state, seat, move)
        assert state == final, f"replaying the log does not give the final state ({self.where})"

    def check_result(self, state: State) -> None:
        n, where = self.players, self.where
        result = self.game.result(state)
        assert len(result.scores) == len(result.ranks) == n, where
        assert result.scores == self.game.scores(state), where
        assert all(1 <= r <= n for r in result.ranks), where
        assert result.winners == [s for s in range(n) if result.ranks[s] == 1], where
        assert result.winners, where
        assert result.tiebreaks == [] or len(result.tiebreaks) == n, where
        json.dumps(result.to_json())
        self.check_result_words(result)

    def check_result_words(self, result: Any) -> None:
        """The result's words in other languages: every real game gives its details and
        tie-breakers in German, line for line naming the same seats and numbers as the
        English, and without English words; a language nobody speaks reads English."""
        where = self.where
        if self.game.name != ZIEHEN.name:
            assert "de" in result.details_in, f"no German details ({where})"
            assert "de" in result.tiebreak_names_in, f"no German tie-breakers ({where})"
        assert result.details_for("xx") == result.details, where
        assert result.tiebreak_names_for("xx") == result.tiebreak_names, where
        for lang, lines in result.details_in.items():
            assert len(lines) == len(result.details), f"{lang}: {where}"
            for english, said in zip(result.details, lines, strict=True):
                assert _seats_and_numbers(said) == _seats_and_numbers(english), (
                    f"{lang} {said!r} does not say what {english!r} says ({where})")
                if lang == "de":
                    assert not _ENGLISH.search(said), f"English in {said!r} ({where})"
            assert result.details_for(lang) == lines, where
        for lang, names in result.tiebreak_names_in.items():
            assert len(names) == len(result.tiebreak_names), f"{lang}: {where}"
            assert all(name.strip() for name in names), f"{lang}: {where}"
            if lang == "de":
                assert not any(_ENGLISH.search(name) for name in names), f"{names} ({where})"


#: English words none of the games' German result lines may contain
_ENGLISH = re.compile(r"\b(against|points?|seals?|goods?|money|buildings?|erected|hand"
                      r"|before|scoring|pays|least|more|fewer|penalty|markers|cards?|largest"
                      r"|area|for|at|[Tt]owers?|wall|place|higher|further|persons|merchants"
                      r"|knights|monks|left|over)\b")


def _numbers_changed(move: str) -> Iterator[str]:
    """``move`` and each of its beginnings (``wall 4`` of ``wall 4 pay r:7``), with one
    of its whole-number words changed to each of ``REACH_NUMBERS``."""
    words = move.split(" ")
    for end in range(1, len(words) + 1):
        start = words[:end]
        yield " ".join(start)
        for i, word in enumerate(start):
            if word.isdigit():
                for n in REACH_NUMBERS:
                    if str(n) != word:
                        yield " ".join([*start[:i], str(n), *start[i + 1:]])


def _seats_and_numbers(line: str) -> tuple[list[str], list[str]]:
    """The seat placeholders and the numbers a line names, each sorted."""
    seats = re.findall(r"\{\d+\}", line)
    numbers = re.findall(r"-?\d+", re.sub(r"\{\d+\}", "", line))
    return sorted(seats), sorted(numbers)


@pytest.mark.parametrize("playout", range(PLAYOUTS), ids=lambda i: f"playout{i + 1}")
@pytest.mark.parametrize("game, players, options", cases())
def test_random_playouts_keep_the_contract(game, players, options, playout):
    fixed = os.environ.get("PBEM_CONTRACT_SEED")
    if fixed and playout:
        pytest.skip("PBEM_CONTRACT_SEED replays one playout per case: the first")
    seed = fixed or new_seed()
    run = Playout(game, players, options, seed)
    # the case's earlier playouts, as long as this one, would have spent its budget
    if playout and playout * run.length(random.Random(seed)) >= MOVE_BUDGET:
        pytest.skip(f"a long game: {MOVE_BUDGET} moves per case leave no room for this playout")
    run.play(random.Random(seed))


#: playouts that once failed, replayed in every run: (game, players, options, seed)
FAILED_BEFORE = [
    # Macao accepted "show use 1" where the menu's use group, without the uses that
    # ``finish`` takes, had one page only (its check counted the group whole)
    ("macao", 2, {"graf_senkt": False}, "7a0d7e73a29596fe90c0bd286c939d52"),
]


@pytest.mark.parametrize("name, players, options, seed", FAILED_BEFORE,
                         ids=[f"{n}-{p}p-{s[:8]}" for n, p, _, s in FAILED_BEFORE])
def test_a_playout_that_failed_before_keeps_the_contract(name, players, options, seed):
    Playout(get_game(name), players, options, seed).play(random.Random(seed))


def test_every_registered_game_is_checked():
    # the module's fixture has Ziehen registered, as cases() had at collection
    ids = {p.id.split("-")[0] for p in cases()}
    assert ids == {g.name for g in all_games()}
    assert "ziehen" in ids


@pytest.mark.parametrize("game", [pytest.param(g, id=g.name) for g in games()])
def test_setup_refuses_what_resolve_options_refuses(game):
    for players in range(game.min_players - 1, game.max_players + 2):
        for options in combinations(game):
            if accepted(game, players, options):
                state = game.setup(players, options, 7)
                assert state == game.setup(players, options, "7"), "a seed is read as text"
            else:
                with pytest.raises(OptionError):
                    game.setup(players, options, 7)
    with pytest.raises(OptionError):
        game.setup(game.min_players, {"no such option": 1}, 7)


def test_the_region_check_catches_a_place_the_picture_does_not_draw(monkeypatch):
    """A menu that names a place of the picture the picture never draws fails."""
    from pbem.games.protocol import Choice
    from pbem.games.ziehen import menu as ziehen_menu

    monkeypatch.setattr(ZIEHEN, "menu", lambda state, seat, lang="en": [
        Choice(c.move, c.label, c.group, c.help, region="nowhere")
        for c in ziehen_menu.menu(state, seat, lang)])
    playout = Playout(ZIEHEN, 2, {}, "regions")
    with pytest.raises(AssertionError, match="draws no place for"):
        playout.check_regions(playout.read(ZIEHEN.setup(2, {}, "regions")), 0)


def test_the_static_facts_of_every_game():
    for game in all_games():
        assert game.name and game.title and game.rules_version
        assert 1 <= game.min_players <= game.max_players
        assert game.default_move_note, f"{game.name} documents no default move"
        if game.stylesheet:
            assert (TEMPLATES / game.stylesheet).is_file(), game.stylesheet
        for option in game.options:
            assert option.default in option.choices, (game.name, option.name)
        # the lobby's words in every language: the same options, each with a label; a
        # language the game lacks reads English
        for lang in (*LANGS, UNSPOKEN):
            texts = game.texts(lang)
            assert texts.description == (game.description if lang != "de"
                                         else texts.description) and texts.default_move_note
            assert [(o.name, o.choices, o.default) for o in texts.options] == \
                [(o.name, o.choices, o.default) for o in game.options], (game.name, lang)
            assert all(o.label for o in texts.options), (game.name, lang)
        assert game.texts(UNSPOKEN) == game.texts("en") == game.texts()
        # a table in words or a picture asked for without a language is the English one
        # (the playouts call them with "en" only)
        for method in (game.render_text, game.picture):
            assert inspect.signature(method).parameters["lang"].default == "en", \
                (game.name, method.__name__)


# -- the checks can fail ------------------------------------------------------------------


def test_the_secrecy_check_catches_a_leaky_view(monkeypatch):
    """A view that shows a rival's pending choice, or a sentence naming it, is caught."""
    game = get_game("visby")
    playout = Playout(game, 3, {"target": 30}, new_seed())
    state = game.setup(3, None, playout.seed)
    playout.check_secret(state, 0)  # as it is: no leak
    real_view = type(game).view

    def leaky(self, state, seat):
        view = real_view(self, state, seat)
        view["pending"] = state["chosen"]
        return view

    monkeypatch.setattr(type(game), "view", leaky)
    with pytest.raises(AssertionError, match="can tell which"):
        playout.check_secret(state, 0)


def test_the_seed_check_catches_a_seed_in_a_view(monkeypatch):
    game = get_game("visby")
    playout = Playout(game, 2, {"target": 30}, new_seed())
    state = game.setup(2, None, playout.seed)
    real_view = type(game).view
    monkeypatch.setattr(type(game), "view",
                        lambda self, s, seat: {**real_view(self, s, seat), "id": s["seed"]})
    with pytest.raises(AssertionError, match="seed shows"):
        playout.check_view(playout.read(state), 0)
    monkeypatch.setattr(type(game), "view",
                        lambda self, s, seat: {**real_view(self, s, seat), "draws": 0})
    with pytest.raises(AssertionError, match="seed or draws"):
        playout.check_view(playout.read(state), 0)


def test_the_mutation_check_catches_an_apply_that_changes_its_input(monkeypatch):
    game = ZIEHEN
    playout = Playout(game, 2, {}, new_seed())
    state = game.setup(2, None, playout.seed)
    real_apply = type(game).apply

    def careless(self, state, seat, move):
        after = real_apply(self, state, seat, move)
        state["step"] = after["step"]
        return after

    monkeypatch.setattr(type(game), "apply", careless)
    with pytest.raises(AssertionError, match="changed its input"):
        playout.check_move(state, 0, "step")


def _first_keys(value: dict[str, Any]) -> list[str]:
    """Two of a dict's keys in the dict's own order: a rule that iterates a dict."""
    return [key for key in value if key in ("round", "turn", "step", "hand")][:2]


def _planted(real: Any, where: str) -> Any:
    """``real`` (a method of Ziehen) with a dependence on key order planted in ``where``."""
    def apply(self, state, seat, move):
        return {**real(self, state, seat, move), "trail": _first_keys(state)}

    def describe(self, before, seat, move, after, viewer, lang="en"):
        return f"{real(self, before, seat, move, after, viewer, lang)} {_first_keys(before)}"

    def view(self, state, seat):
        return {**real(self, state, seat), "trail": _first_keys(state)}

    def render_text(self, view, names, lang="en"):
        return f"{real(self, view, names, lang)}\n{' '.join(view)}"

    def bot_move(self, state, seat, rng):
        if _first_keys(state)[0] == "round":  # draws once more from the generator
            rng.random()
        return real(self, state, seat, rng)

    return locals()[where]


@pytest.mark.parametrize("where", ["apply", "describe", "view", "render_text", "bot_move"])
def test_the_order_check_catches_a_rule_that_follows_key_order(where, monkeypatch):
    """A game that iterates a dict in its key order plays, says or shows something else
    for a state read back from the database: the playout fails, naming what differs."""
    seed = new_seed()
    Playout(ZIEHEN, 2, {}, seed).play(random.Random(seed))  # as it is: no dependence
    monkeypatch.setattr(type(ZIEHEN), where, _planted(getattr(type(ZIEHEN), where), where))
    with pytest.raises(AssertionError, match="key order decides"):
        Playout(ZIEHEN, 2, {}, seed).play(random.Random(seed))


def test_reversed_keys_reverses_every_level():
    value = {"a": 1, "b": [{"c": 2, "d": {"e": 3, "f": 4}}]}
    turned = reversed_keys(value)
    assert turned == value and list(turned) == ["b", "a"]
    assert list(turned["b"][0]) == ["d", "c"] and list(turned["b"][0]["d"]) == ["f", "e"]
    assert list(sorted_keys({"b": {"d": 1, "c": 2}, "a": 0})["b"]) == ["c", "d"]


def test_sorted_keys_reads_back_what_the_server_would():
    """``sorted_keys`` writes with msgspec what the server writes with the standard
    library: the same value, key for key, also where msgspec alone would give another
    (a tuple, a number as a key); ``copy_of`` is a copy equal to the state whatever
    it holds."""
    values = [{"z": 1, "ä": [{"é": 1.5, "a": None}], "Z": True, "ﬀ": "😀", "": -0.0},
              {"b": (1, 2), "a": {10: "x", 9: "y"}}, {"n": 10**30, "s": {"y": "\x01"}}]
    for value in values:
        server = _from_json(json.dumps(value, sort_keys=True))
        assert repr(sorted_keys(value)) == repr(server)
        assert copy_of(value) == value and copy_of(value) is not value
    odd = {"t": (1, 2), "inf": float("inf")}
    assert copy_of(odd) == odd and type(copy_of(odd)["t"]) is tuple


@pytest.mark.parametrize("game", [pytest.param(g, id=g.name) for g in games()])
def test_a_position_is_built_from_fields_and_checked(game):
    """``Rules.position``: the setup with the fields given, checked like any state; a
    position made of a played state's fields is that state; a field the state has not,
    or of another kind, or one that names the game, is refused with a message."""
    players = game.min_players
    assert game.position(players, None, "p") == game.setup(players, None, "p")
    state, rng = game.setup(players, None, "p"), random.Random(3)
    for _ in range(12):
        if not game.to_move(state):
            break
        seat = game.to_move(state)[0]
        state = game.apply(state, seat, game.bot_move(state, seat, rng))
    fields = {k: v for k, v in state.items() if k not in Rules.FIXED_FIELDS and k != "seed"}
    assert game.position(players, None, "p", **fields) == state
    with pytest.raises(PositionError, match="no field"):
        game.position(players, None, "p", no_such_field=1)
    with pytest.raises(PositionError, match="come from the setup"):
        game.position(players, None, "p", game="another game")
    listed = next(k for k, v in state.items() if isinstance(v, list))
    with pytest.raises(PositionError, match=f"field {listed} must be a list"):
        game.position(players, None, "p", **{listed: "text"})


def test_a_position_with_a_card_twice_is_refused():
    """The games' own invariants: the example game's deck holds each card once."""
    state = ZIEHEN.setup(2, None, "twice")
    with pytest.raises(PositionError, match="each once"):
        ZIEHEN.position(2, None, "twice", hand=[[state["deck"][0]], []])
    moved = ZIEHEN.position(2, None, "twice", hand=[[state["deck"][0]], []],
                            deck=state["deck"][1:])
    assert moved["hand"][0] == [state["deck"][0]]
    with pytest.raises(PositionError, match="no turn 5"):
        ZIEHEN.position(2, None, "twice", turn=5)


def _macao_at_actions(cubes: str) -> tuple[State, int]:
    """A Macao state in round 1's action phase, the seat to move holding ``cubes``."""
    game = get_game("macao")
    state = game.setup(2, None, "reach")
    while state["phase"] != "actions":
        seat = game.to_move(state)[0]
        state = game.apply(state, seat, game.legal_moves(state, seat)[0])
    seat = game.to_move(state)[0]
    state["seats"][seat]["rose"][0] = {c: cubes.count(c) for c in set(cubes)}
    return state, seat


def test_the_reach_check_catches_a_move_the_menu_never_offers(monkeypatch):
    """A menu that offers only the furthest advance on the wall, while ``apply`` accepts
    a shorter one (as Macao's did), fails: nobody could choose ``wall 1``."""
    game = get_game("macao")
    state, seat = _macao_at_actions("rrrrrrrr")
    monkeypatch.setattr(sys.modules[__name__], "REACH_SAMPLES", 10_000)
    playout = Playout(game, 2, {}, "reach")
    playout.check_reach(state, seat, random.Random(1))   # as it is: every advance offered
    assert any(m.startswith("wall 1") for m in playout.reach(state, seat))
    real = type(game).legal_moves

    def furthest_only(self, state, seat):
        moves = real(self, state, seat)
        walls = [m for m in moves if m.startswith("wall ")]
        return [m for m in moves if not m.startswith("wall ") or m.startswith(walls[0])]

    monkeypatch.setattr(type(game), "legal_moves", furthest_only)
    with pytest.raises(AssertionError, match="which the menu never offers"):
        playout.check_reach(state, seat, random.Random(1))


def test_the_reach_follows_pages_and_rows_of_a_menu():
    """Moves behind a page or a row (``show city 0``, ``row 2``) are in the menu's
    reach, and a move that really changes the table is not followed."""
    game = get_game("macao")
    state, seat = _macao_at_actions("rrrrbbbbggggkkkkyyyyvvvv")
    menu = game.legal_moves(state, seat)
    browse = [m for m in menu if m.split()[0] in ("show", "row")]
    assert browse, menu
    reached = Playout(game, 2, {}, "reach").reach(state, seat)
    behind = set(game.legal_moves(game.apply(state, seat, browse[0]), seat))
    assert behind - set(menu) and behind <= reached


def test_what_the_server_records_of_a_move_follows_a_game_that_rewords_one_answer():
    """``facts_of`` asks ``move_facts`` of a game whose ``move_facts`` knows the three
    answers, and the three methods of a game that rewords one of them alone (a subclass,
    as a test's game): its own answer, never the one ``move_facts`` above it gives."""
    from pbem.games.protocol import MoveFacts, facts_of
    from pbem.games.ziehen import TURN, Ziehen

    class EndTakenBack(Ziehen):
        def is_commit_point(self, before, seat, move, after):
            return move == "draw"

    plain, reworded = Ziehen(), EndTakenBack()
    state = plain.setup(2, None, "facts")
    seat = plain.to_move(state)[0]
    for move in TURN:  # a step, the draw, a step, the end: the end is final in Ziehen
        after = plain.apply(state, seat, move)
        assert facts_of(plain, state, seat, move, after) == plain.move_facts(
            state, seat, move, after)
        assert facts_of(reworded, state, seat, move, after) == MoveFacts(
            plain.round(state), plain.turn_over(state, seat, move, after), move == "draw")
        state = after
