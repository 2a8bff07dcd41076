"""Golden outputs: what a fixed set of finished games renders to, as sha256 per file.

    python bench/golden.py                 # compare with bench/golden-manifest.txt
    python bench/golden.py --write         # make that the new baseline
    python bench/golden.py --out DIR       # where the outputs go (default: a folder
                                           # under the system's temp folder, not in git)

A refactoring of the games (or of what renders them) must leave every output byte for
byte as it was, unless a fix is intended: then its commit says so and rewrites the
manifest in the same commit.  On a difference the script names the files that differ
and keeps both runs' outputs (``DIR/new`` beside the previous ``DIR/new`` copied to
``DIR/old`` when ``--keep-old`` is given), so that ``diff -r`` shows what changed.

What it renders, every game (Visby, Riga, Tallinn, Macao) in several player counts and
options, with fixed seeds:

``engine/<config>/``
    the game's own outputs, pure: each move's menu for each seat to move in English and
    German (move, label, group, help), formality and default move, its sentences for
    every viewer in both languages, turn and commit point; at four points of the game
    (start, a third, two thirds, end) every seat's view, spectator's and the archive's,
    as JSON, as plain text (``render_text``) and as picture (``picture``), in both
    languages; the result.  Seats play their game's bot or a seeded random move.
``mail/<config>/``
    every mail the server composed for a game played through the lifecycle (Alice
    reads English, Bob German, one bot seat) under a frozen clock: kind, address,
    subject, text and HTML body, in the order queued.
``site/``
    the archive (``pbem build-site``) of those games and of one finished game per
    engine configuration: Markdown, HTML, round pictures, indexes, feed.

The mail and archive outputs pass through the lifecycle, mail and archive code, which
other work changes too: a difference there that the games did not cause is someone
else's change (see ``git log``), to rebaseline with a note in the commit.
``tests/test_golden.py`` runs the engine part (fast, and the games' own business)
on every test run.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import shutil
import sys
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
MANIFEST = ROOT / "bench" / "golden-manifest.txt"
LANGS = ("en", "de")
#: names that test escaping and shortening in texts and pictures
NAMES = ["Alice", "Bob <&> \"Co\"", "Carol Longname-Overflowingsson", "Dörte", "Eve", "Ferdinand"]


@dataclass(frozen=True)
class Config:
    key: str
    game: str
    players: int
    options: dict[str, Any] = field(default_factory=dict)
    seed: str = "golden"
    #: seats that play the game's bot (the others a seeded random legal move)
    bots: tuple[int, ...] = ()


CONFIGS = (
    Config("visby-2", "visby", 2, {}, "v2", (0,)),
    Config("visby-3-45", "visby", 3, {"target": 45}, "v3", (0, 2)),
    Config("visby-4", "visby", 4, {}, "v4", (0, 2)),
    Config("visby-6", "visby", 6, {}, "v6", (1, 3, 5)),
    Config("riga-2", "riga", 2, {}, "r2", (0,)),
    Config("riga-3-buildings", "riga", 3, {"riga": True}, "r3", (0, 1)),
    Config("riga-4-buildings", "riga", 4, {"riga": True}, "r4", (2,)),
    Config("tallinn-2", "tallinn", 2, {}, "t2", (0,)),
    Config("tallinn-3-legat", "tallinn", 3, {"legat": True}, "t3", (0, 1)),
    Config("tallinn-4-both", "tallinn", 4, {"legat": True, "tower_order": True}, "t4", (3,)),
    Config("macao-2", "macao", 2, {}, "m2", (0,)),
    Config("macao-4", "macao", 4, {}, "m4", (0, 2)),
)

#: played through the lifecycle, for the mails: Alice (English), Bob (German), a bot
SERVER_CONFIGS = (
    Config("visby-3", "visby", 3, {}, "sv3"),
    Config("riga-3-buildings", "riga", 3, {"riga": True}, "sr3"),
    Config("tallinn-3-legat", "tallinn", 3, {"legat": True, "tower_order": True}, "st3"),
    Config("macao-3", "macao", 3, {}, "sm3"),
)


# -- the games' own outputs ---------------------------------------------------------


def _menus(rules: Any, state: Any, seat: int) -> list[str]:
    lines = []
    for lang in LANGS:
        for c in rules.menu(state, seat, lang):
            lines.append(f"  menu[{lang}] {c.move} | {c.label} | {c.group} | {c.help}")
    lines.append(f"  formality {rules.formality(state, seat)!r}")
    lines.append(f"  default {rules.default_move(state, seat)!r}")
    return lines


def _sentences(rules: Any, before: Any, seat: int, move: str, after: Any,
               viewers: list[int | None]) -> list[str]:
    lines = []
    for viewer in viewers:
        for lang in LANGS:
            said = rules.describe(before, seat, move, after, viewer, lang)
            lines.append(f"  said[{viewer}][{lang}] {said}")
    lines.append(f"  turn_over {rules.turn_over(before, seat, move, after)} "
                 f"commit {rules.is_commit_point(before, seat, move, after)}")
    return lines


def _views(rules: Any, state: Any, players: int, point: str,
           viewers: list[int | None]) -> Iterator[tuple[str, str]]:
    names = NAMES[:players]
    for viewer in viewers:
        view = rules.view(state, viewer)
        who = "everything" if viewer == -1 else "spectator" if viewer is None else f"seat{viewer}"
        yield f"{point}-{who}.json", json.dumps(view, sort_keys=True, indent=1,
                                                ensure_ascii=False, default=str)
        for lang in LANGS:
            yield f"{point}-{who}-{lang}.txt", rules.render_text(view, names, lang)
            picture = rules.picture(view, names, lang)
            if picture is not None:
                yield f"{point}-{who}-{lang}.svg", picture


def engine_outputs(config: Config) -> Iterator[tuple[str, str]]:
    """The files of one engine configuration: (name, text)."""
    from pbem.games import get_game
    from pbem.games.protocol import EVERYTHING, SPECTATOR

    rules = get_game(config.game)
    rng = random.Random(f"golden:{config.seed}")
    state = rules.setup(config.players, config.options, config.seed)
    viewers: list[int | None] = [*range(config.players), SPECTATOR, EVERYTHING]
    played: list[tuple[int, str]] = []
    states = [state]
    log = [f"setup {config}"]
    while not rules.is_over(state):
        to_move = rules.to_move(state)
        log.append(f"#{len(played)} round {rules.round(state)} to_move {to_move} "
                   f"secret {rules.is_secret(state)} scores {rules.scores(state)}")
        for seat in to_move:
            log += _menus(rules, state, seat)
        seat = rng.choice(to_move)
        move = (rules.bot_move(state, seat, rng) if seat in config.bots
                else rng.choice(rules.legal_moves(state, seat)))
        after = rules.apply(state, seat, move)
        log.append(f" {seat} plays {move}")
        log += _sentences(rules, state, seat, move, after, viewers)
        played.append((seat, move))
        state = after
        states.append(state)
    log.append(f"result {json.dumps(rules.result(state).to_json(), ensure_ascii=False)}")
    yield "log.txt", "\n".join(log) + "\n"
    n = len(states) - 1
    for point in sorted({0, n // 3, 2 * n // 3, n}):
        yield from _views(rules, states[point], config.players, f"at{point:04d}", viewers)


def write_engine(out: Path, configs: tuple[Config, ...] = CONFIGS) -> None:
    for config in configs:
        folder = out / "engine" / config.key
        folder.mkdir(parents=True, exist_ok=True)
        for name, text in engine_outputs(config):
            (folder / name).write_text(text, encoding="utf-8")


# -- the server's mails and the archive -----------------------------------------------

START = datetime(2026, 3, 2, 9, 0, 0)


def _server_game(ctx: Any, config: Config, clock: Any) -> None:
    """One game through the lifecycle: Alice creates it, Bob (German) accepts, one bot."""
    from pbem.games import get_game
    from pbem.lifecycle import create, moves
    from pbem.models import Game, Player, Seat, utcnow

    def person(address: str, name: str, lang: str) -> Player:
        p = create.get_or_create_player(address, name, quiet_start="00:00",
                                        quiet_end="00:00", confirmed_at=utcnow())
        Player.update(language=lang).where(Player.id == p.id).execute()
        return Player.get_by_id(p.id)

    alice = person("alice@example.org", "Alice", "en")
    bob = person("bob@example.org", "Bob <&> \"Co\"", "de")
    others: list[str | None] = ["bob@example.org"] + [None] * (config.players - 2)
    # the game's own bot ("easy"): the outputs stay those of the manifest whatever the
    # searching levels do
    game = create.create_game(ctx, config.game, alice, others, options=config.options,
                              seed=config.seed, bot_levels=["easy"] * len(others))
    create.accept_invite(ctx, game, Seat.get(Seat.game == game, Seat.index == 1), bob)
    rules = get_game(config.game)
    rng = random.Random(f"golden:{config.seed}")
    game = Game.get_by_id(game.id)
    while game.status == Game.ACTIVE:
        clock.tick(timedelta(minutes=37))
        if game.bots_pending:
            moves.continue_bots(ctx, game.id)
        else:
            seat = rng.choice(rules.to_move(game.state))
            menu = Seat.get(Seat.game == game, Seat.index == seat).menu_seq
            move = rules.bot_move(game.state, seat, rng)
            moves.play(ctx, game.id, seat, move, menu_seq=menu)
        game = Game.get_by_id(game.id)


def write_server(out: Path) -> None:
    """The mails of the server games, then the archive of every game."""
    from freezegun import freeze_time

    from pbem.archive import pipeline
    from pbem.archive.sample import add_finished_game, add_player
    from pbem.context import make_context
    from pbem.models import Game, Outbox, create_tables, db, open_database

    work = Path(tempfile.mkdtemp(prefix="pbem-golden-"))
    ctx = make_context(server={"instance": str(work / "instance"),
                               "base_url": "http://pbem.test"},
                       archive={"site_dir": str(out / "site")})
    open_database(f"sqlite:///{work / 'golden.sqlite'}")
    try:
        create_tables()
        with freeze_time(START) as clock:
            for config in SERVER_CONFIGS:
                first = Outbox.select().count()
                _server_game(ctx, config, clock)
                folder = out / "mail" / config.key
                folder.mkdir(parents=True, exist_ok=True)
                for i, mail in enumerate(Outbox.select().order_by(Outbox.id).offset(first)):
                    head = (f"kind: {mail.kind}\nto: {mail.to_name} <{mail.to_address}>\n"
                            f"subject: {mail.subject}\nnot_before: {mail.not_before}\n\n")
                    stem = f"{i:04d}-{mail.kind}-{mail.to_address.split('@')[0]}"
                    (folder / f"{stem}.txt").write_text(head + mail.text_body, encoding="utf-8")
                    if mail.html_body:
                        (folder / f"{stem}.html").write_text(mail.html_body, encoding="utf-8")
            people = [add_player(name, email=f"p{i}@example.org")
                      for i, name in enumerate(NAMES)]
            for n, config in enumerate(CONFIGS):
                seats = [people[i] if i not in config.bots else None
                         for i in range(config.players)]
                add_finished_game(config.game, seats, config.seed,
                                  START + timedelta(days=10 + n), config.options)
            assert Game.select().where(Game.status == Game.FINISHED).count() == (
                len(CONFIGS) + len(SERVER_CONFIGS))
            pipeline.build(out / "site", full=True)
    finally:
        db.close()
        shutil.rmtree(work, ignore_errors=True)


# -- the manifest ----------------------------------------------------------------------

#: files of the archive that record the build (code fingerprints, times), not a page
BUILD_RECORDS = (".pbem-manifest", ".manifest", ".lock")


def manifest(out: Path) -> dict[str, str]:
    """sha256 per output file, by its path under ``out``."""
    sums = {}
    for path in sorted(out.rglob("*")):
        if path.is_file() and not any(path.name.startswith(r) for r in BUILD_RECORDS):
            sums[path.relative_to(out).as_posix()] = hashlib.sha256(
                path.read_bytes()).hexdigest()
    return sums


def read_manifest(path: Path = MANIFEST) -> dict[str, str]:
    sums = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            digest, name = line.split(None, 1)
            sums[name] = digest
    return sums


def write_manifest(sums: dict[str, str], path: Path = MANIFEST) -> None:
    lines = ["# sha256 of every output of bench/golden.py (see its docstring)"]
    lines += [f"{digest}  {name}" for name, digest in sorted(sums.items())]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def differences(old: dict[str, str], new: dict[str, str], prefix: str = "") -> list[str]:
    """The paths (under ``prefix``) that are missing, new or changed."""
    names = sorted(n for n in set(old) | set(new) if n.startswith(prefix))
    return [f"{'missing' if n not in new else 'new' if n not in old else 'changed'} {n}"
            for n in names if old.get(n) != new.get(n)]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", type=Path,
                        default=Path(tempfile.gettempdir()) / "pbem-golden")
    parser.add_argument("--write", action="store_true", help="rewrite the manifest")
    parser.add_argument("--engine-only", action="store_true",
                        help="only the games' own outputs (no lifecycle, mail, archive)")
    parser.add_argument("--keep-old", action="store_true",
                        help="move the previous outputs to OUT/old first")
    args = parser.parse_args(argv)
    sys.path.insert(0, str(ROOT))
    new = args.out / "new"
    if args.keep_old and new.exists():
        shutil.rmtree(args.out / "old", ignore_errors=True)
        new.rename(args.out / "old")
    shutil.rmtree(new, ignore_errors=True)
    new.mkdir(parents=True)
    write_engine(new)
    if not args.engine_only:
        write_server(new)
    sums = manifest(new)
    if args.write:
        write_manifest(sums)
        print(f"wrote {MANIFEST.relative_to(ROOT)}: {len(sums)} files")
        return 0
    found = differences(read_manifest(), sums, "engine/" if args.engine_only else "")
    for line in found:
        print(line)
    print(f"{len(sums)} files in {new}: "
          f"{'identical' if not found else f'{len(found)} differ'}")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
