"""A game's card and board data as a data file beside its rules, and its versions.

Each game keeps its values in ``pbem/games/<game>/data.toml`` (shipped with the package),
read once at import with :func:`tomllib` and checked against the game's schema, a
:mod:`msgspec` structure: a missing or mistyped value, or a key the schema does not know,
is refused with the path of the value.  Every value carries its source in a ``quelle``
next to it; a value no source gives says ``"reconstructed: <why this value>"``.

An operator's corrected file (``[games] data_dir``) is read by the lifecycle, never by a
game, and handed to :meth:`DataSets.load` as text: it is checked, compared with the
shipped file (a value whose shipped source is not a reconstruction cannot change) and
kept under a version of its own, ``<its version>+<hash of its text>``.  A game's state
names the version it started with (``state["data_version"]``); while a method of the
game's :class:`~pbem.games.protocol.Rules` runs on that state, :meth:`DataSets.using`
makes that version the one the game's ``data`` module answers with, so the games read
``data.X`` as before and play on the values they started with.  Pure: the same state and
the same registered texts give the same answers; no game reads a file at play time.
"""

from __future__ import annotations

import builtins
import functools
import hashlib
import inspect
import textwrap
import tomllib
import types
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from importlib import resources
from typing import Any, Generic, TypeVar

import msgspec

from pbem.games.protocol import OptionError

#: how a source says that no source gives the value
RECONSTRUCTED = "reconstructed"
#: the sign beside a reconstructed value where players read it (card help, menus, picture)
MARK = "◇"
#: the one line that explains the sign, per language
MARK_NOTE = {
    "en": f"{MARK} reconstructed: no public source prints this value; pbem chose it to "
          "agree with the rulebook.",
    "de": f"{MARK} rekonstruiert: keine öffentliche Quelle nennt diesen Wert; pbem hat "
          "ihn passend zur Spielregel gewählt.",
}
#: the longest version a file may name (the Game row keeps ``version+hash`` in 32)
MAX_VERSION = 20


def mark_note(lang: str | None) -> str:
    return MARK_NOTE["de" if (lang or "").startswith("de") else "en"]


def is_reconstructed(quelle: str) -> bool:
    return quelle.strip().lower().startswith(RECONSTRUCTED)


def marked(text: str, reconstructed: bool) -> str:
    """``text`` (a value as players read it: "3:1", "card 7") with the sign after it
    when no source gives it."""
    return f"{text}{MARK}" if reconstructed else text


def with_note(text: str, lang: str | None, width: int = 72) -> str:
    """A text view with the note that explains the sign at its end, once, when the sign
    stands in it (a value marked in a line of its own needs the line that says what the
    sign means; a help that carries its own explanation reads alone); the note broken
    into lines of ``width``, as a plain-text mail reads."""
    return text + "\n\n" + "\n".join(note_lines(lang, width)) if MARK in text else text


def note_lines(lang: str | None, width: int = 72) -> list[str]:
    """The sign's note (:func:`mark_note`) in lines of at most ``width``."""
    return list(_note_lines(mark_note(lang), width))


# every text view with a marked value ends with the note, at every move and for every
# reader: the two notes are broken into lines once per width
@functools.lru_cache(maxsize=64)
def _note_lines(note: str, width: int) -> tuple[str, ...]:
    return tuple(textwrap.wrap(note, width, subsequent_indent="  "))


class DataFileError(ValueError):
    """A data file that cannot be used; the message names the value and why."""


class Wert(msgspec.Struct, forbid_unknown_fields=True):
    """One number with its source (a table of them is the usual shape of a data file)."""

    wert: int
    quelle: str


T = TypeVar("T", bound=msgspec.Struct)


def parse(text: str, schema: type[T], name: str = "data file") -> T:
    """``text`` (TOML) as ``schema``, or :class:`DataFileError` naming the wrong value."""
    try:
        raw = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise DataFileError(f"{name}: not TOML: {exc}") from exc
    try:
        data = msgspec.convert(raw, schema, strict=True)
    except msgspec.ValidationError as exc:
        raise DataFileError(f"{name}: {exc}") from exc
    version = getattr(data, "version", "")
    if not version or len(version) > MAX_VERSION or "+" in version:
        raise DataFileError(f"{name}: version must be 1 to {MAX_VERSION} characters "
                            f"without '+', not {version!r}")
    return data


def text_hash(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:8]


def flatten(value: Any, path: str = "", quelle: str = "") -> Iterator[tuple[str, Any, str]]:
    """Every value of a parsed file as (path, value, its source): the source is the
    ``quelle`` nearest to the value (its own table's, else an enclosing one's)."""
    if isinstance(value, msgspec.Struct):
        value = msgspec.structs.asdict(value)
    if isinstance(value, Mapping):
        quelle = str(value.get("quelle", quelle))
        for key, item in value.items():
            if key != "quelle":
                yield from flatten(item, f"{path}.{key}" if path else str(key), quelle)
    elif isinstance(value, list | tuple) and any(isinstance(v, Mapping | msgspec.Struct)
                                                 for v in value):
        for i, item in enumerate(value):
            yield from flatten(item, f"{path}[{i}]", quelle)
    else:
        yield path, value, quelle


@dataclass
class Difference:
    """One value an operator's file changes: where, from what, to what, and whether the
    shipped file's source for it is a reconstruction (only those may change)."""

    path: str
    shipped: Any
    corrected: Any
    quelle: str

    @property
    def allowed(self) -> bool:
        return is_reconstructed(self.quelle) or self.path == "version"

    def __str__(self) -> str:
        return f"{self.path}: {_show(self.shipped)} -> {_show(self.corrected)}"


def _show(value: Any) -> str:
    return "(none)" if value is None else repr(value)


def differences(shipped: msgspec.Struct, corrected: msgspec.Struct) -> list[Difference]:
    """What ``corrected`` changes against ``shipped``, value by value (sources aside)."""
    old = {p: (v, q) for p, v, q in flatten(shipped)}
    new = {p: v for p, v, _q in flatten(corrected)}
    out = []
    for path in sorted(set(old) | set(new)):
        before, quelle = old.get(path, (None, RECONSTRUCTED))
        after = new.get(path)
        if before != after:
            out.append(Difference(path, before, after, quelle))
    return out


@dataclass
class DataSet(Generic[T]):
    """One version of a game's data: the parsed file and what the game derives from it."""

    version: str
    data: T
    text: str
    derived: Any
    #: what a game's code makes of this version's values as it plays (a building's view,
    #: a line of text), kept here by the game's own keys: it lives and goes with the version
    memo: dict[Any, Any] = field(default_factory=dict, compare=False, repr=False)

    def kept(self, key: Any, make: Callable[..., Any], *args: Any) -> Any:
        """``make(*args)``, made once for this version and kept in ``memo`` by ``key``
        (which must say everything the answer depends on besides the version)."""
        found = self.memo.get(key)
        if found is None:
            found = self.memo[key] = make(*args)
        return found


@dataclass
class Checked:
    """What :meth:`DataSets.check` found: refusals (the file cannot be used), warnings,
    and the values it changes against the shipped file."""

    errors: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    changes: list[Difference] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.errors


class _Active:
    """``DataSets.active``: the version of the context variable.  While the shipped
    version is the only one, it is the only one the variable can hold, and the instance
    keeps it as a plain attribute that shadows this descriptor (one with ``__get__``
    alone): the games ask for it millions of times a game, and a property with its
    variable cost as much as the lookups they made with it."""

    def __get__(self, sets: DataSets[Any] | None, owner: type | None = None) -> Any:
        if sets is None:
            return self
        return sets._active.get()


class DataSets(Generic[T]):
    """The data versions a game can play: its packaged file (and older packaged ones) and
    the operators' files handed in; which one the game's ``data`` module answers with."""

    #: the version a game's code reads now (see ``using``)
    active: DataSet[T] = _Active()  # type: ignore[assignment]

    def __init__(self, package: str, schema: type[T],
                 derive: Callable[[T], Any],
                 constraints: Callable[[T], tuple[list[str], list[str]]] | None = None,
                 filename: str = "data.toml") -> None:
        self.package = package
        self.schema = schema
        self.derive = derive
        self.constraints = constraints or (lambda _data: ([], []))
        text = resources.files(package).joinpath(filename).read_text(encoding="utf-8")
        data = parse(text, schema, f"{package}/{filename}")
        errors, _warnings = self.constraints(data)
        if errors:
            raise DataFileError(f"{package}/{filename}: " + "; ".join(errors))
        self.shipped: DataSet[T] = DataSet(data.version, data, text, derive(data))
        self.versions: dict[str, DataSet[T]] = {self.shipped.version: self.shipped}
        self._active: ContextVar[DataSet[T]] = ContextVar(f"{package}.data",
                                                          default=self.shipped)
        # the one version there is, until ``load`` registers another (``_Active``)
        self.__dict__["active"] = self.shipped
        #: the data module's globals and the names ``install`` put there
        self._namespace: dict[str, Any] | None = None
        self._installed: list[str] = []

    # -- reading an operator's file ---------------------------------------------------

    def check(self, text: str, name: str = "data file") -> tuple[Checked, T | None]:
        """Everything wrong with ``text`` as this game's data, and what it changes."""
        checked = Checked()
        try:
            data = parse(text, self.schema, name)
        except DataFileError as exc:
            checked.errors.append(str(exc))
            return checked, None
        checked.changes = differences(self.shipped.data, data)
        for diff in checked.changes:
            if not diff.allowed:
                checked.errors.append(
                    f"{diff.path} is given by a source ({diff.quelle}): "
                    f"{_show(diff.shipped)}, not {_show(diff.corrected)}")
        errors, warnings = self.constraints(data)
        checked.errors += errors
        checked.warnings += warnings
        if data.version == self.shipped.version and checked.changes:
            checked.errors.append(f"version: a corrected file needs a version of its own, "
                                  f"not the shipped {self.shipped.version!r}")
        return checked, data

    def load(self, text: str, name: str = "data file") -> str:
        """Register ``text`` (checked) and return its version, which a new game records.
        A file equal in values to the shipped one is the shipped version."""
        checked, data = self.check(text, name)
        if not checked.ok or data is None:
            raise DataFileError("; ".join(checked.errors))
        if not checked.changes:
            return self.shipped.version
        version = f"{data.version}+{text_hash(text)}"
        if version not in self.versions:
            self._answer_by_version()  # before the version can be asked for
            self.versions[version] = DataSet(version, data, text, self.derive(data))
        return version

    def install(self, namespace: dict[str, Any]) -> None:
        """Make the shipped values plain globals of the data module (``namespace``, called
        last in it, so that a name the module defines itself stays its own) while the
        shipped version is the only one: the engines read ``data.X`` in their innermost
        loops, and the module's ``__getattr__`` with its context variable made whole
        games 5-25% slower.  Once another version is registered (``load``), they leave
        again and ``__getattr__`` answers with the active version's values."""
        if len(self.versions) > 1:
            return
        self._namespace = namespace
        self._installed = [name for name in self.shipped.derived if name not in namespace]
        namespace.update({name: self.shipped.derived[name] for name in self._installed})

    def _answer_by_version(self) -> None:
        """From now on the data module answers ``data.X`` through its ``__getattr__``,
        and ``active`` through the context variable."""
        self.__dict__.pop("active", None)
        namespace, self._namespace = self._namespace, None
        for name in self._installed if namespace is not None else ():
            namespace.pop(name, None)
        self._installed = []

    # -- which version answers ------------------------------------------------------------

    def get(self, version: str | None) -> DataSet[T]:
        if not version:
            return self.shipped
        try:
            return self.versions[version]
        except KeyError:
            raise DataFileError(
                f"{self.package}: no data version {version} here (a corrected file of the "
                f"operator's that a game started on must stay readable)") from None

    @contextmanager
    def using(self, version: str | None) -> Iterator[DataSet[T]]:
        token = self._active.set(self.get(version))
        try:
            yield self._active.get()
        finally:
            self._active.reset(token)

    def attribute(self, name: str) -> Any:
        """``data.<name>`` of the game's data module: the active version's value (the
        module's ``__getattr__`` calls this for the names it derives from the file)."""
        # the rules read the data through here at every step: the active version
        # without the property's call
        derived = self._active.get().derived
        try:
            return derived[name]
        except KeyError:
            raise AttributeError(f"module {self.package}.data has no attribute {name}") \
                from None


#: the protocol's methods whose first argument is a state or a view (``data_version``)
_STATE_METHODS = ("to_move", "legal_moves", "menu", "choice", "is_secret", "formality", "apply",
                  "apply_played", "is_over", "result", "scores", "round", "view",
                  "render_text", "picture", "describe", "describe_all", "default_move", "bot_move",
                  "turn_over", "is_commit_point", "move_facts")


def plays_on(sets: DataSets[Any]) -> Callable[[type], type]:
    """Class decorator for a game's ``Rules``: each method over a state or a view runs on
    the data version that state names, and ``setup_version`` sets a game up on any
    registered version (the state then names it)."""

    def wrap(method: Callable[..., Any]) -> Callable[..., Any]:
        # around every call of a game's methods (a replay, a seat page, a search): the
        # version looked up in the registered ones first, ``get`` only for the rest
        is_view = method.__name__ == "view"
        versions, shipped = sets.versions, sets.shipped

        def on_version(self: Any, first: Any, *args: Any, **kwargs: Any) -> Any:
            version = (first.get("data_version")
                       if type(first) is dict or isinstance(first, Mapping) else None)
            wanted = versions.get(version, shipped) if version else shipped
            if wanted is shipped and version and version != shipped.version:
                # an operator's version ("+") must be registered (``get`` says so);
                # another one the game's own code keeps (an older packaged deck) plays
                # on the values the game picks
                wanted = sets.get(version if "+" in version else None)
            if sets.active is wanted:  # the common case: no switch to pay for
                out = method(self, first, *args, **kwargs)
            else:
                with sets.using(wanted.version):
                    out = method(self, first, *args, **kwargs)
            if is_view and version and version != shipped.version and isinstance(out, dict):
                out.setdefault("data_version", version)
            return out
        return functools.wraps(method)(_on_shipped(method, on_version, sets))

    def decorate(cls: type) -> type:
        for name in _STATE_METHODS:
            method = getattr(cls, name, None)
            if method is not None:
                setattr(cls, name, wrap(method))

        own = cls.__dict__.get("setup_version")

        def setup_version(self: Any, players: int, options: dict[str, Any] | None,
                          seed: str | int, data_version: str | None,
                          rules_version: str | None = None) -> Any:
            operators = bool(data_version) and "+" in str(data_version)
            if operators or data_version in ("", None, self.data_version):
                try:
                    chosen = sets.get(None if data_version == self.data_version
                                      else data_version)
                except DataFileError as exc:
                    raise OptionError(
                        f"this server's {self.title} has no card data version "
                        f"{data_version}, which this game was started with") from exc
            elif own is None or data_version not in getattr(self, "packaged_data_versions", ()):
                raise OptionError(
                    f"this server's {self.title} has card data version {self.data_version}, "
                    f"not {data_version}, which this game was started with")
            else:  # an older packaged version the game's own setup_version keeps (Macao)
                chosen = sets.shipped
            with sets.using(chosen.version):
                if own is None:
                    self.check_rules_version(rules_version)
                    state = self.setup(players, options, seed)
                else:
                    # the game's own keeps older rules readings (and Macao its older decks):
                    # the data version is this wrapper's to choose, which it did above
                    state = own(self, players, options, seed,
                                data_version if getattr(self, "packaged_data_versions", ())
                                else None, rules_version)
            if chosen is not sets.shipped:
                state["data_version"] = chosen.version
            return state

        def load_data(self: Any, text: str, name: str = "data file") -> str:
            return sets.load(text, name)

        cls.setup_version = setup_version  # type: ignore[attr-defined]
        cls.load_data = load_data  # type: ignore[attr-defined]
        cls.data_sets = sets  # type: ignore[attr-defined]
        return cls

    return decorate


def _on_shipped(method: Callable[..., Any], on_version: Callable[..., Any],
                sets: DataSets[Any]) -> Callable[..., Any]:
    """``on_version`` (``plays_on``'s wrapper of ``method``) with the common case first: a
    state (or view) as a plain dict that names no version or the shipped one, while the
    shipped version is active, runs ``method`` at once.  Written with ``method``'s own
    parameters, so that the call is passed on as it came: every call of a game's methods
    goes through here (some twenty a click, thousands a bot's search), and packing its
    arguments (``*args, **kwargs``) and looking the version up cost more than many of the
    methods themselves (issue 23).  A method whose parameters are not all plain (``*``,
    keyword-only) keeps ``on_version`` alone."""
    params = list(inspect.signature(method).parameters.values())
    if len(params) < 2 or any(p.kind is not p.POSITIONAL_OR_KEYWORD for p in params):
        return on_version
    names = tuple(p.name for p in params)
    space: dict[str, Any] = {"_method": method, "_slow": on_version, "_sets": sets,
                             "_shipped": sets.shipped, "_version": sets.shipped.version,
                             "__builtins__": builtins}
    if set(names) & {*space, "_named"}:
        return on_version  # a parameter named as one of the text's own names
    defaults = tuple(p.default for p in params if p.default is not p.empty)
    # one code for every method of these parameters (a game's methods share a few), each
    # function with its own method, versions and defaults
    return types.FunctionType(_fast_code(names), space, method.__name__, defaults or None)


@functools.cache
def _fast_code(names: tuple[str, ...]) -> types.CodeType:
    """The code of ``_on_shipped``'s function for a method of the parameters ``names``."""
    passed = ", ".join(names)
    source = (
        f"def fast({passed}):\n"
        f"    if type({names[1]}) is dict and _sets.active is _shipped:\n"
        f"        _named = {names[1]}.get('data_version')\n"
        f"        if not _named or _named == _version:\n"
        f"            return _method({passed})\n"
        f"    return _slow({passed})\n")
    space: dict[str, Any] = {}
    exec(source, space)  # noqa: S102 - the text above, of the method's parameter names
    return space["fast"].__code__
