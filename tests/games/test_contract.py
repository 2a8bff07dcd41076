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
* ``view``, ``render_text``, ``picture`` (``None`` or an SVG document without
  script) and the page template work for every seat, a spectator and
  ``EVERYTHING``, in "en" and "de" (and a language no game speaks, which reads
  English); views are JSON; names are escaped;
* the seed shows in no view, text, picture, page, menu or sentence, and no
  view has a ``seed`` or ``draws`` key;
* ``describe`` gives a sentence in "en" and "de" (and a language no game
  speaks: English), reads the same for the author and ``EVERYTHING`` in each,
  and names only seats of the game;
* during a secret choice with other seats still to choose, nothing another
  seat or a spectator sees or reads, in any language, depends on which move
  the mover made;
* the game is over exactly when nobody is to move; ``turn_over`` is True when
  the mover is no longer to move; ``result`` ranks every seat and the winners
  are the seats ranked 1.

What it cannot check for every game: that a view hides what the rules keep
secret outside a secret choice (a private draw: the suite's game and each
game's own tests do), that the default move is neutral, that scores follow the
rulebook, or that a commit point falls where hidden information was revealed.

``PBEM_CONTRACT_SEED`` replays the playouts of a failure (its message names the
seed); ``CI`` plays fewer of them.
"""

from __future__ import annotations

import copy
import itertools
import json
import os
import random
import re
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import jinja2
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
    Rules,
    State,
    new_seed,
)
from pbem.games.render import seat_filter

TEMPLATES = Path(__file__).resolve().parents[2] / "templates"
#: playouts per case and moves per case after which no new playout starts, so a
#: long game gets fewer playouts than a short one
PLAYOUTS, MOVE_BUDGET = (1, 250) if os.environ.get("CI") else (3, 400)
MAX_MOVES = 5_000  # a random game longer than this hangs
DEFAULT_SHARE = 0.15  # how often a playout plays the timeout default instead of the bot
LANGS = ("en", "de")
#: a language no game speaks: it must read English, never fail
UNSPOKEN = "xx"
HOSTILE = "<script>alert('x')</script>"
#: names as people type them, and worse: markup, an ampersand, a control character
#: (which XML forbids even escaped: a picture must drop it), a name far too long
NAMES = [HOSTILE, "Anne & Bob", "Hei\x01ke", "Malte " * 20, "Jule", "Ole", "Karin", "Piet"]
_PLACEHOLDER = re.compile(r"\{(\d+)\}")


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


def cases() -> list[Any]:
    out = []
    for game in games():
        for players in range(game.min_players, game.max_players + 1):
            for options in combinations(game):
                if accepted(game, players, options):
                    label = "".join(f"-{k}={v}" for k, v in options.items())
                    out.append(pytest.param(game, players, options,
                                            id=f"{game.name}-{players}p{label}"))
    return out


@pytest.fixture(scope="module", autouse=True)
def ziehen_registered() -> Iterator[None]:
    with registered(ZIEHEN):
        yield


@pytest.fixture(scope="module")
def env() -> jinja2.Environment:
    # as the pages render a game's template (pbem.context.Context.html)
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(str(TEMPLATES)), autoescape=True,
                             undefined=jinja2.StrictUndefined, trim_blocks=True,
                             lstrip_blocks=True)
    env.filters["seats"] = seat_filter
    return env


def as_json(value: Any) -> str:
    return json.dumps(value, sort_keys=True, ensure_ascii=False)


def keys_of(value: Any) -> Iterator[str]:
    if isinstance(value, dict):
        for key, inner in value.items():
            yield str(key)
            yield from keys_of(inner)
    elif isinstance(value, list):
        for inner in value:
            yield from keys_of(inner)


class Playout:
    """One random game of ``game`` and the checks at each of its states and moves."""

    def __init__(self, game: Rules, players: int, options: dict[str, Any], seed: str,
                 env: jinja2.Environment) -> None:
        self.game, self.players, self.options, self.seed = game, players, options, seed
        self.env = env
        self.names = NAMES[:players]
        self.viewers: list[int | None] = [*range(players), SPECTATOR, EVERYTHING]
        self.where = f"{game.name}, {players} players, {options}, PBEM_CONTRACT_SEED={seed}"

    # -- what nobody may read: the seed -----------------------------------------------

    def hidden(self, text: str, what: str) -> None:
        assert self.seed not in text, f"the seed shows in {what} ({self.where})"

    # -- per state -------------------------------------------------------------------

    def check_state(self, state: State, thorough: int | None = None) -> None:
        """Checks at one state.  The page template is rendered and the picture parsed
        as XML for the viewer ``thorough`` (all viewers when ``None``): they take
        most of the time, and both are drawn from the view, which every viewer's
        check covers."""
        game = self.game
        assert json.loads(json.dumps(state)) == state, f"state is not JSON ({self.where})"
        movers = game.to_move(state)
        assert game.is_over(state) == (not movers), \
            f"is_over must be exactly 'nobody to move' ({self.where})"
        assert len(set(movers)) == len(movers) and set(movers) <= set(range(self.players))
        for seat in range(self.players):
            self.check_moves(state, seat, seat in movers)
        for i, viewer in enumerate(self.viewers):
            self.check_view(state, viewer, thorough is None or thorough % len(self.viewers) == i)
        self.check_refusals(state, movers)

    def check_moves(self, state: State, seat: int, moving: bool) -> None:
        game, where = self.game, f"seat {seat} ({self.where})"
        legal = game.legal_moves(state, seat)
        if not moving:
            assert legal == [], f"a seat not to move has moves: {legal} {where}"
            assert game.menu(state, seat, "en") == []
            return
        assert legal, f"a seat to move has no move {where}"
        assert len(legal) <= MENU_CAP, f"{len(legal)} moves > MENU_CAP {where}"
        assert len(set(legal)) == len(legal), f"a move twice in {legal} {where}"
        for move in legal:
            assert game.parse(move) == move, f"{move!r} is not canonical notation {where}"
            self.hidden(move, "a move")
        assert game.default_move(state, seat) in legal, f"default move not legal {where}"
        bot = game.bot_move(state, seat, random.Random(f"{self.seed}:{seat}"))
        assert bot in legal, f"bot move {bot!r} not legal {where}"
        formality = game.formality(state, seat)
        assert formality is None or legal == [formality], \
            f"formality {formality!r} is not the only move {legal} {where}"
        for lang in LANGS:
            menu = game.menu(state, seat, lang)
            assert [c.move for c in menu] == legal, f"menu in {lang} is not legal_moves {where}"
            for c in menu:
                assert isinstance(c.label, str) and c.label.strip(), f"empty label {where}"
                for text in (c.label, c.group, c.help):
                    self.hidden(text, f"a menu label ({lang})")

    def check_view(self, state: State, viewer: int | None, thorough: bool = True) -> None:
        game, where = self.game, f"viewer {viewer} ({self.where})"
        view = game.view(state, viewer)
        dumped = as_json(view)  # a view must be JSON as it is
        assert json.loads(dumped) == view, f"view changes through JSON {where}"
        self.hidden(dumped, f"the view of {viewer}")
        assert not {"seed", "draws"} & set(keys_of(view)), f"seed or draws in a view {where}"
        text = game.render_text(view, self.names)
        assert isinstance(text, str) and text.strip(), f"empty render_text {where}"
        self.hidden(text, f"the text of {viewer}")
        assert game.render_text(view, self.names, "en") == text, \
            f"render_text in 'en' is not the default {where}"
        assert game.render_text(view, self.names, UNSPOKEN) == text, \
            f"render_text in a language the game lacks is not English {where}"
        if thorough:
            german = game.render_text(view, self.names, "de")
            assert isinstance(german, str) and german.strip(), f"empty German text {where}"
            self.hidden(german, f"the German text of {viewer}")
        for lang in LANGS:
            self.check_picture(game.picture(view, self.names, lang), where,
                               thorough and lang == LANGS[0])
        if game.template and thorough:
            page = self.env.get_template(game.template).render(view=view, names=self.names)
            self.hidden(page, f"the page of {viewer}")
            assert HOSTILE not in page, f"a name is not escaped on the page {where}"
            for lang in LANGS:
                page = self.env.get_template(game.template).render(view=view,
                                                                   names=self.names,
                                                                   lang=lang)
                self.hidden(page, f"the page of {viewer} in {lang}")
                assert HOSTILE not in page, f"a name is not escaped on the {lang} page {where}"

    def check_picture(self, svg: str | None, where: str, parse: bool = True) -> None:
        if svg is None:
            return
        assert svg.startswith("<svg"), f"a picture is an SVG document {where}"
        self.hidden(svg, "a picture")
        assert "<script" not in svg.lower() and HOSTILE not in svg, f"script in picture {where}"
        if parse:
            ET.fromstring(svg)  # well-formed, so names are escaped

    def check_refusals(self, state: State, movers: list[int]) -> None:
        """An illegal move raises ``MoveError`` and leaves the state as it was."""
        game = self.game
        frozen = copy.deepcopy(state)
        tries: list[tuple[int, str]] = [(movers[0] if movers else 0, "~ no such move ~")]
        if movers:
            move = game.legal_moves(state, movers[0])[0]
            tries += [(s, move) for s in range(self.players) if s not in movers][:1]
            tries.append((self.players, move))  # no such seat
        for seat, move in tries:
            with pytest.raises(MoveError):
                game.apply(state, seat, move)
            assert state == frozen, f"a refused move changed the state ({self.where})"

    # -- per move ---------------------------------------------------------------------

    def check_move(self, state: State, seat: int, move: str) -> State:
        game, where = self.game, f"seat {seat} plays {move!r} ({self.where})"
        frozen, dumped = copy.deepcopy(state), as_json(state)
        after = game.apply(state, seat, move)
        assert state == frozen and as_json(state) == dumped, f"apply changed its input: {where}"
        assert after is not state
        turn_over = game.turn_over(state, seat, move, after)
        assert isinstance(turn_over, bool)
        if seat not in game.to_move(after):
            assert turn_over, f"the mover is no longer to move but its turn is not over: {where}"
        assert isinstance(game.is_commit_point(state, seat, move, after), bool)
        for lang in (*LANGS, UNSPOKEN):
            sentences = {}
            for viewer in self.viewers:
                text = game.describe(state, seat, move, after, viewer, lang)
                assert isinstance(text, str) and text.strip(), f"empty describe ({lang}): {where}"
                self.hidden(text, f"describe for {viewer} in {lang}")
                for index in _PLACEHOLDER.findall(text):
                    assert int(index) < self.players, f"{text!r} names seat {index}: {where}"
                if lang != "de":
                    assert text == game.describe(state, seat, move, after, viewer), \
                        f"describe in {lang!r} is not the English: {where}"
                sentences[viewer] = text
            assert sentences[seat] == sentences[EVERYTHING], \
                f"the author and EVERYTHING read {sentences[seat]!r} / {sentences[EVERYTHING]!r}"
        if game.is_secret(state) and set(game.to_move(state)) - {seat}:
            self.check_secret(state, seat)
        return after

    def check_secret(self, state: State, seat: int) -> None:
        """Whatever ``seat`` chooses, the others see and read the same (the choice
        cannot end the secret phase: other seats still have to choose).

        Views and sentences suffice: ``render_text``, ``picture`` and the page
        are drawn from the view alone.
        """
        game = self.game
        moves = game.legal_moves(state, seat)
        afters = {move: game.apply(state, seat, move) for move in moves}
        for viewer in self.viewers:
            if viewer == seat or viewer == EVERYTHING:
                continue
            seen = {(as_json(game.view(after, viewer)),
                     *(game.describe(state, seat, move, after, viewer, lang) for lang in LANGS),
                     *(game.render_text(game.view(after, viewer), self.names, lang)
                       for lang in LANGS))
                    for move, after in afters.items()}
            assert len(seen) == 1, (f"viewer {viewer} can tell which of {moves} seat {seat} "
                                    f"chose in secret ({self.where})")

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
            seat = rng.choice(movers)
            if rng.random() < DEFAULT_SHARE:
                move = game.default_move(state, seat)
            else:
                move = game.bot_move(state, seat, rng)
            state = self.check_move(state, seat, move)
            log.append((seat, move))
        self.check_replay(log, state)
        self.check_result(state)
        return len(log)

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


def _seats_and_numbers(line: str) -> tuple[list[str], list[str]]:
    """The seat placeholders and the numbers a line names, each sorted."""
    seats = re.findall(r"\{\d+\}", line)
    numbers = re.findall(r"-?\d+", re.sub(r"\{\d+\}", "", line))
    return sorted(seats), sorted(numbers)


@pytest.mark.parametrize("game, players, options", cases())
def test_random_playouts_keep_the_contract(game, players, options, env):
    fixed = os.environ.get("PBEM_CONTRACT_SEED")
    moves = playouts = 0
    while playouts < PLAYOUTS and moves < MOVE_BUDGET:
        seed = fixed or new_seed()
        moves += Playout(game, players, options, seed, env).play(random.Random(seed))
        playouts += 1


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


def test_the_static_facts_of_every_game():
    for game in all_games():
        assert game.name and game.title and game.rules_version
        assert 1 <= game.min_players <= game.max_players
        assert game.default_move_note, f"{game.name} documents no default move"
        if game.template:
            assert (TEMPLATES / game.template).is_file(), game.template
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


# -- the checks can fail ------------------------------------------------------------------


def test_the_secrecy_check_catches_a_leaky_view(env, monkeypatch):
    """A view that shows a rival's pending choice, or a sentence naming it, is caught."""
    game = get_game("visby")
    playout = Playout(game, 3, {"target": 30}, new_seed(), env)
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


def test_the_seed_check_catches_a_seed_in_a_view(env, monkeypatch):
    game = get_game("visby")
    playout = Playout(game, 2, {"target": 30}, new_seed(), env)
    state = game.setup(2, None, playout.seed)
    real_view = type(game).view
    monkeypatch.setattr(type(game), "view",
                        lambda self, s, seat: {**real_view(self, s, seat), "id": s["seed"]})
    with pytest.raises(AssertionError, match="seed shows"):
        playout.check_view(state, 0)
    monkeypatch.setattr(type(game), "view",
                        lambda self, s, seat: {**real_view(self, s, seat), "draws": 0})
    with pytest.raises(AssertionError, match="seed or draws"):
        playout.check_view(state, 0)


def test_the_mutation_check_catches_an_apply_that_changes_its_input(env, monkeypatch):
    game = ZIEHEN
    playout = Playout(game, 2, {}, new_seed(), env)
    state = game.setup(2, None, playout.seed)
    real_apply = type(game).apply

    def careless(self, state, seat, move):
        after = real_apply(self, state, seat, move)
        state["step"] = after["step"]
        return after

    monkeypatch.setattr(type(game), "apply", careless)
    with pytest.raises(AssertionError, match="changed its input"):
        playout.check_move(state, 0, "step")
