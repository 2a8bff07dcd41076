"""Shared fixtures: a context on a temporary instance, a database, a real SMTP server,
a browser.

``database`` runs every test that uses it on SQLite, and again on PostgreSQL
when ``PBEM_TEST_DATABASE_URL`` names one that answers; otherwise the
PostgreSQL run is skipped with the reason.

Every test makes contexts and apps of its own, each with Jinja environments of
its own; ``_shared_template_code`` lets them share the compiled templates, and
``_url_builders_compiled_once`` the code werkzeug writes to build each route's URLs.
``_pictures_rendered_once``: resvg draws each different mail picture once per run.
"""

from __future__ import annotations

import email
import email.policy
import gc
import hashlib
import os
import shutil
import socket
import tempfile
import threading
from collections import OrderedDict
from collections.abc import Iterator
from dataclasses import dataclass, field
from email.message import EmailMessage
from pathlib import Path
from typing import Any

import freezegun
import jinja2
import pytest
from jinja2.bccache import Bucket

from pbem.context import Context, make_context
from pbem.heap import keep_freed_memory
from pbem.models import MODELS, create_tables, db, drop_tables, open_database

# pytest times a test through ``_pytest.timing``, which freezegun's clock replaced: a test
# that froze the clock in a fixture took 1.8 billion seconds by ``--durations`` (freezegun
# leaves the real clock to the modules it ignores, pytest's older timing modules among them)
freezegun.configure(extend_ignore_list=["_pytest.timing"])

PG_URL = os.environ.get("PBEM_TEST_DATABASE_URL", "")
#: the suite's searching bots think a few iterations per move, not their level's seconds:
#: their moves repeat, and a game against bots stays quick (servers the tests start in
#: another process read it too)
os.environ.setdefault("PBEM_BOTS_MAX_ITERATIONS", "4")


def _pg_skip_reason() -> str | None:
    if not PG_URL:
        return "PostgreSQL tests need PBEM_TEST_DATABASE_URL (e.g. postgresql://user@host/db)"
    try:
        import psycopg2

        psycopg2.connect(PG_URL, connect_timeout=3).close()
    except Exception as exc:  # noqa: BLE001 - any failure means: no usable server
        return f"PostgreSQL at PBEM_TEST_DATABASE_URL is not reachable: {exc}".strip()
    return None


_PG_SKIP = _pg_skip_reason()


#: the least free room a RAM-backed folder needs to take the suite's temporary files (a
#: whole run leaves some tens of MB; pytest keeps the folders of the last three runs)
RAM_FOLDER_ROOM = 1 << 30


# the tests' own processes draw pictures and pages as the server's do: their heap kept as
# the server keeps it (pbem.heap), a test process as fast at them as the service
keep_freed_memory()


def pytest_configure(config: pytest.Config) -> None:
    """The suite's temporary files in memory (``/dev/shm``) where the machine has a
    RAM-backed folder with room and nobody chose a place (``TMPDIR``, ``--basetemp``).

    Every test's SQLite database, the archive tests' sites of thousands of pages, the
    mail pictures the workers share and chromium's profiles are files under
    ``tmp_path``.  On the 2-core machine of issue 23 (ext4 on a virtual disk) creating
    a file took 100 to 1,300 µs against 25 µs in memory, and the archive site and
    ratings tests took 130-155 s against 73-110 s, the difference waiting for the disk
    (issue 23): what a test checks does not depend on the disk the files are on.  Set
    here, in the process that starts the pytest-xdist workers, before it starts them, it
    holds for the workers and every process a test starts (servers, chromium)."""
    if config.option.basetemp or os.environ.get("TMPDIR") \
            or os.environ.get("PYTEST_XDIST_WORKER"):
        return
    try:
        room = os.statvfs("/dev/shm")
    except OSError:  # no such folder (macOS): the system's temporary folder
        return
    if room.f_bavail * room.f_frsize >= RAM_FOLDER_ROOM and os.access("/dev/shm", os.W_OK):
        os.environ["TMPDIR"] = "/dev/shm"
        tempfile.tempdir = None  # gettempdir() reads TMPDIR again


def pytest_collection_finish(session: pytest.Session) -> None:
    """What this test process holds once it has collected the tests (every module it
    imported, pbem's game data, the tests themselves: 70,000 to 100,000 objects) is
    moved out of the garbage collector's sight (``gc.freeze``): it lives as long as the
    process, and every full collection walked all of it again.  In the contract test
    that was 0.3 of 0.46 s of collecting in 6.8 s of CPU, in web and archive tests
    0.5 of 0.8 s in 21 s (issue 23, bench/suite_cpu.py's "gc" figures).  What a test
    makes is collected as before; no test looks at the collector."""
    gc.collect()  # the garbage of collecting, not kept for good
    gc.freeze()


#: the suite's longest tests and the seconds each took in a whole run (``longest.txt``)
LONGEST = Path(__file__).with_name("longest.txt")


def longest_tests(path: Path = LONGEST) -> dict[str, float]:
    """Test id -> seconds, as ``bench/suite_cpu.py --suite-cpu-longest`` wrote them."""
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except FileNotFoundError:
        return {}
    seconds: dict[str, float] = {}
    for line in lines:
        if line.strip() and not line.startswith("#"):
            took, nodeid = line.split(maxsplit=1)
            seconds[nodeid] = float(took)
    return seconds


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The longest tests first, longest first (``longest.txt``), then the contract test's
    other playouts, the games of most players first; every other test keeps its place.

    pytest-xdist (``--dist worksteal``) gives each worker an equal run of the tests in
    this order and lets an idle worker take the back half of a busy one's run, but never
    the test a worker is running nor its next one.  A long test met there keeps its
    worker busy for up to half a minute after the other has run out (a browser page, a
    whole game played from the mails): begun first, it runs while there is still plenty
    to share.  (In the whole suite with this order, all the listed tests ran on the first
    worker, one after the other, and the two workers ended 3 s apart.)"""
    longest = longest_tests()

    def longest_first(item: pytest.Item) -> tuple[int, float]:
        if item.nodeid in longest:
            return (0, -longest[item.nodeid])
        callspec = getattr(item, "callspec", None)
        if item.name.startswith("test_random_playouts_keep_the_contract") and callspec:
            return (1, -int(callspec.params.get("players", 0)))
        return (2, 0)

    items.sort(key=longest_first)  # stable: every other test keeps its place


@pytest.fixture(scope="session")
def pg_url() -> Iterator[str]:
    """A database of this test run's own on the PostgreSQL server, dropped at the end.

    Two test runs at once (two developers, or CI beside a developer) must not
    drop each other's tables; where the role may not create databases, the
    given one is used as it is.
    """
    if _PG_SKIP:
        pytest.skip(_PG_SKIP)
    import psycopg2
    from psycopg2.extensions import ISOLATION_LEVEL_AUTOCOMMIT

    name = f"pbem_test_{os.getpid()}"
    admin = psycopg2.connect(PG_URL)
    admin.set_isolation_level(ISOLATION_LEVEL_AUTOCOMMIT)
    try:
        with admin.cursor() as cur:
            cur.execute(f"DROP DATABASE IF EXISTS {name}")
            cur.execute(f"CREATE DATABASE {name}")
            # a commit returns before its WAL is on the disk, in every session of this
            # database (the servers a test starts too): a crash of PostgreSQL itself
            # could lose the last commits of a database dropped at the end anyway, while
            # transactions, locks and what each session sees stay the same.  The PostgreSQL
            # runs of four mail and time test files took 65 and 94 s, against 74 and
            # 101 s waiting for the disk at each commit (issue 23, load 10, in turns).
            cur.execute(f"ALTER DATABASE {name} SET synchronous_commit = off")
    except psycopg2.Error:
        admin.close()
        yield PG_URL
        return
    base, _, _old = PG_URL.rpartition("/")
    try:
        yield f"{base}/{name}"
    finally:
        db.close()
        with admin.cursor() as cur:
            cur.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
        admin.close()


@pytest.fixture
def ctx(tmp_path) -> Context:
    return make_context(
        server={"instance": str(tmp_path / "instance"), "base_url": "http://pbem.test"},
        archive={"site_dir": str(tmp_path / "site")},
    )


#: the shape of pbem's tables on this run's PostgreSQL database as ``create_tables`` left
#: them (columns, indexes), once they were made: a test that finds them so only empties them
_pg_shape: tuple[int, int] | None = None


def _pg_tables_shape() -> tuple[int, int]:
    """How many columns and indexes the tables of the schema have, read from PostgreSQL's
    own catalog: ``information_schema.columns`` and ``pg_indexes`` (views over it) gave
    the same counts for 3.3 ms of the server's CPU a test, this 0.5 ms."""
    return tuple(db.execute_sql(
        "SELECT (SELECT count(*) FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid"
        " WHERE c.relnamespace = 'public'::regnamespace"
        " AND c.relkind IN ('r', 'p', 'v', 'm', 'f') AND a.attnum > 0 AND NOT a.attisdropped),"
        " (SELECT count(*) FROM pg_index i JOIN pg_class c ON c.oid = i.indrelid"
        " WHERE c.relnamespace = 'public'::regnamespace)").fetchone())


#: every table emptied, children first, and every sequence of the schema set back to its
#: start (as ``ALTER SEQUENCE ... RESTART`` does: the next id is the first), sent as one
#: text: one statement and one answer at a time took 7 ms of the server's CPU and 1.3 ms
#: of the test's a test, this 1.7 and 0.25 (with the shape above)
_EMPTY_PG_TABLES = "; ".join(
    [f'DELETE FROM "{model._meta.table_name}"' for model in reversed(MODELS)]
    + ["SELECT setval(format('%%I.%%I', schemaname, sequencename)::regclass, start_value,"
       " false) FROM pg_sequences WHERE schemaname = 'public'"])


def _fresh_pg_tables() -> None:
    """pbem's tables, empty, their ids counting from 1 again.

    Dropping and creating them costs PostgreSQL about 0.3 s a test (DDL, files made and
    synced), emptying them 3 ms: where the tables have the shape ``create_tables`` gave
    them (a test may have dropped or altered some: test_migrate does), they are emptied
    in one transaction, children first; else made anew."""
    global _pg_shape
    if _pg_shape is not None and _pg_tables_shape() == _pg_shape:
        with db.atomic():
            db.execute_sql(_EMPTY_PG_TABLES)
        return
    drop_tables()
    create_tables()
    _pg_shape = _pg_tables_shape()


#: an SQLite file with pbem's tables and nothing else, as ``create_tables`` made it once
#: in this process (``_fresh_sqlite``)
_sqlite_template: Path | None = None


def _fresh_sqlite(url: str, tmp_path_factory: pytest.TempPathFactory) -> None:
    """Open ``url`` with pbem's tables, empty (an SQLite file that is not there yet).

    ``create_tables`` on a new file costs about 12 ms of CPU and 50 ms of waiting for
    the disk (DDL, each table a transaction synced), for a thousand tests; the file it
    makes is the same each time, so it is made once per process and copied (1 ms)."""
    global _sqlite_template
    path = Path(url.split("sqlite:///", 1)[-1])
    if not url.startswith("sqlite:///") or path.exists():  # not a new file: as pbem does
        open_database(url)
        create_tables()
        return
    if _sqlite_template is None:
        made = tmp_path_factory.mktemp("sqlite-template") / "pbem.sqlite"
        open_database(f"sqlite:///{made}")
        create_tables()
        db.obj.close_all()  # the last connection of a WAL database checkpoints it
        assert not Path(f"{made}-wal").exists() or not Path(f"{made}-wal").stat().st_size
        _sqlite_template = made
    path.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(_sqlite_template, path)
    open_database(url)


@pytest.fixture(params=["sqlite", "postgresql"])
def database(request, ctx: Context, tmp_path_factory) -> Iterator[str]:
    """An empty database with pbem's tables; yields its kind."""
    if request.param == "postgresql":
        open_database(request.getfixturevalue("pg_url"))
        _fresh_pg_tables()
    else:
        _fresh_sqlite(ctx.config.database_url, tmp_path_factory)
    yield request.param
    db.close()


@pytest.fixture
def sqlite_database(ctx: Context, tmp_path_factory) -> Iterator[str]:
    """SQLite only, for tests about the embedded default itself."""
    _fresh_sqlite(ctx.config.database_url, tmp_path_factory)
    yield "sqlite"
    db.close()


@pytest.fixture(scope="session")
def _chromium() -> Iterator[object]:
    """One chromium for this test process (one per pytest-xdist worker), started when a
    test first asks for it: starting one costs about a second on a busy machine."""
    import browser_support

    reason = browser_support.skip_reason()
    if reason:
        pytest.skip(reason)
    with browser_support.launched() as chromium:
        yield chromium


@pytest.fixture
def browser(_chromium) -> Iterator[object]:
    """Debian's chromium for a browser test (see tests/browser_support.py).  Each
    ``browser.new_page`` has a context of its own; what the test leaves open is closed
    after it, so nothing carries over to the next test."""
    import browser_support

    try:
        yield _chromium
    finally:
        browser_support.close_pages(_chromium)


@pytest.fixture
def tab(browser) -> Iterator[object]:
    """One page, in a browser context of its own, for a test that looks at one given
    page after another: ``browser_support.show`` puts each in it in a new document, so
    chromium starts one renderer for all such tests of this process, not one per page
    or test.  Left on an empty document after the test (``browser_support.LENT``)."""
    import browser_support

    page = browser_support.lent_tab(browser)
    yield page
    browser_support.give_back(page)


@dataclass
class MailSink:
    """Messages a real SMTP server on loopback received, parsed."""

    host: str
    port: int
    messages: list[EmailMessage] = field(default_factory=list)
    #: each message as it came over the wire, for what parsing would hide (encoded words)
    raw: list[bytes] = field(default_factory=list)

    async def handle_DATA(self, server, session, envelope):  # noqa: N802 - aiosmtpd's name
        msg = email.message_from_bytes(envelope.content, policy=email.policy.default)
        self.raw.append(envelope.content)
        self.messages.append(msg)
        return "250 OK"

    def to(self, address: str) -> list[EmailMessage]:
        return [m for m in self.messages if address in str(m["To"])]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def smtp_server() -> Iterator[MailSink]:
    """A real aiosmtpd server on 127.0.0.1 that keeps what it receives."""
    from aiosmtpd.controller import Controller

    for attempt in range(5):
        # a port free a moment ago may be taken by another process by now (pytest-xdist
        # runs the suite in several): take another one
        sink = MailSink("127.0.0.1", free_port())
        controller = Controller(sink, hostname=sink.host, port=sink.port)
        try:
            controller.start()
            break
        except OSError:
            if attempt == 4:
                raise
    try:
        yield sink
    finally:
        controller.stop()


@pytest.fixture
def smtp_ctx(tmp_path, smtp_server: MailSink) -> Context:
    """A context whose mail goes by SMTP to ``smtp_server``."""
    return make_context(
        server={"instance": str(tmp_path / "instance"), "base_url": "http://pbem.test"},
        mail={"transport": "smtp", "smtp_host": smtp_server.host,
              "smtp_port": str(smtp_server.port), "backoff_seconds": "60"},
    )


def _compile_settings(env: jinja2.Environment, name: str) -> tuple[object, ...]:
    """What the code Jinja compiles a template to depends on, besides its source."""
    autoescape = env.autoescape(name) if callable(env.autoescape) else env.autoescape
    return (env.block_start_string, env.block_end_string, env.variable_start_string,
            env.variable_end_string, env.comment_start_string, env.comment_end_string,
            env.line_statement_prefix, env.line_comment_prefix, env.trim_blocks,
            env.lstrip_blocks, env.newline_sequence, env.keep_trailing_newline,
            tuple(sorted(env.extensions)), env.optimized, autoescape, env.is_async,
            tuple(sorted(env.filters)), tuple(sorted(env.tests)), env.finalize is None,
            env.code_generator_class, env.context_class)


class SharedTemplateCode(jinja2.BytecodeCache):
    """Compiled templates kept in memory for every Jinja environment of this process.

    Compiling the same templates again for each test's environments was about a
    quarter of the web tests' time.  A template's code is reused only for the same
    source (its checksum) under the same settings, so each environment still runs
    exactly the code it would have compiled itself.
    """

    def __init__(self) -> None:
        self.code: dict[tuple[str, str], object] = {}

    def get_bucket(self, environment: jinja2.Environment, name: str, filename: str | None,
                   source: str) -> Bucket:
        key = repr((name, filename, _compile_settings(environment, name)))
        bucket = Bucket(environment, key, self.get_source_checksum(source))
        self.load_bytecode(bucket)
        return bucket

    def load_bytecode(self, bucket: Bucket) -> None:
        bucket.code = self.code.get((bucket.key, bucket.checksum))

    def dump_bytecode(self, bucket: Bucket) -> None:
        self.code[(bucket.key, bucket.checksum)] = bucket.code


class RenderedOnce:
    """resvg's ``svg_to_bytes`` with the PNG of each input kept for this test run.

    A mail's picture is rendered when the mail is delivered (``pbem.mail.picture``), 0.1
    to 2 s of CPU each, and the suite delivers the same table again and again: a test
    runs on SQLite and again on PostgreSQL with the same seeds, and many tests set up the
    same game.  Of 471 pictures the mail-heavy tests rendered, 193 were different (issue
    23).  resvg is deterministic, so an input seen before gets the bytes it gave then;
    every different input (the SVG, its width, the fonts asked for) is still drawn by
    resvg, and every line of pbem runs as it would.  A test that replaces
    ``svg_to_bytes`` (a broken renderer) replaces this too.

    The PNGs are kept in memory for this process, and in ``shared`` (a directory of this
    run's, which every pytest-xdist worker of the run reads) for the others: a table one
    worker drew is not drawn again by another (each file is written whole, then renamed
    into place, so a worker reads a PNG whole or not at all)."""

    def __init__(self, render: Any, keep: int = 256, shared: Path | None = None) -> None:
        self.render, self.keep, self.shared = render, keep, shared
        self.png: OrderedDict[tuple[Any, ...], bytes] = OrderedDict()
        self.lock = threading.Lock()  # a live server's threads deliver mails too

    def __call__(self, **options: Any) -> bytes:
        key = tuple(sorted((name, hashlib.sha256(value.encode()).digest()
                            if name == "svg_string" else repr(value))
                           for name, value in options.items()))
        with self.lock:
            if key in self.png:
                self.png.move_to_end(key)
                return self.png[key]
        path = self.shared / f"{hashlib.sha256(repr(key).encode()).hexdigest()}.png" \
            if self.shared else None
        if path is not None and path.exists():
            png = path.read_bytes()
        else:
            png = bytes(self.render(**options))
            if path is not None:
                part = path.with_name(f"{path.name}.{os.getpid()}.{threading.get_ident()}")
                part.write_bytes(png)
                os.replace(part, path)
        with self.lock:
            self.png[key] = png
            if len(self.png) > self.keep:
                self.png.popitem(last=False)
        return png


@pytest.fixture(autouse=True, scope="session")
def _pictures_rendered_once(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    try:
        import resvg_py
    except ImportError:  # no renderer: the mails go without their picture, as in service
        yield
        return
    # a pytest-xdist worker's base directory lies in the run's, which all workers share
    root = tmp_path_factory.getbasetemp()
    shared = (root.parent if os.environ.get("PYTEST_XDIST_WORKER") else root) / "mail-png"
    shared.mkdir(exist_ok=True)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(resvg_py, "svg_to_bytes", RenderedOnce(resvg_py.svg_to_bytes,
                                                             shared=shared))
        yield


@pytest.fixture
def pictures_drawn_afresh(monkeypatch: pytest.MonkeyPatch) -> None:
    """resvg itself for every picture of this test, for a test about what it draws each
    time (that a retried delivery draws the same PNG)."""
    import resvg_py

    render = resvg_py.svg_to_bytes
    monkeypatch.setattr(resvg_py, "svg_to_bytes", getattr(render, "render", render))


@pytest.fixture(autouse=True, scope="session")
def _shared_template_code() -> Iterator[None]:
    shared = SharedTemplateCode()
    init = jinja2.Environment.__init__

    def init_sharing(self: jinja2.Environment, *args: object, **kwargs: object) -> None:
        init(self, *args, **kwargs)
        if self.bytecode_cache is None:
            self.bytecode_cache = shared

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(jinja2.Environment, "__init__", init_sharing)
        yield


@pytest.fixture(autouse=True, scope="session")
def _url_builders_compiled_once() -> Iterator[None]:
    """werkzeug's URL builders made once per route and process, not once per app.

    Every test makes an app of its own (``create_app``), and werkzeug writes and compiles
    two Python functions for each of its 60 routes (``Rule._compile_builder``): three
    quarters of an app's making, about 18 ms of CPU, for several hundred apps a run.  The
    function it writes is read from the rule's text, its parts (``_trace``) and whether it
    appends unknown arguments, and is bound to each rule (it reaches the rule's converters
    through its first argument): the same route gets the same function.  A rule with
    defaults (whose values the function holds as text) is compiled as werkzeug does."""
    from werkzeug.routing.rules import Rule

    compile_builder = getattr(Rule, "_compile_builder", None)
    if compile_builder is None:  # another werkzeug: every app compiles its own
        yield
        return
    made: dict[tuple[Any, ...], Any] = {}

    def compiled_once(self: Rule, append_unknown: bool = True) -> Any:
        if self.defaults:
            return compile_builder(self, append_unknown)
        key = (self.rule, tuple(self._trace), append_unknown)
        if key not in made:
            made[key] = compile_builder(self, append_unknown)
        return made[key]

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(Rule, "_compile_builder", compiled_once)
        yield
