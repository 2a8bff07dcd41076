"""The archive reads the sentences stored on the move rows and groups a round's steps by
turn; games written without the service (``pbem import``, the sample games) get the rows
the service would have written; the seed is published with a finished game, never before.
"""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest
from archive_data import Archive, leave_only

from pbem.archive import build
from pbem.archive.text import fill, md_name
from pbem.gamelog.history import is_told
from pbem.gamelog.records import replay_steps
from pbem.gamelog.rows import kind_of, move_rows
from pbem.games import get_game
from pbem.games.protocol import EVERYTHING, new_seed
from pbem.lifecycle import create, moves
from pbem.lifecycle.records import game_record, import_record
from pbem.models import Game, Move, Seat

#: the columns the service writes for a move, beside its game, id and time
COLUMNS = ("seq", "seat", "move", "kind", "menu_seq", "turn_seq", "round", "commit",
           "turn_end", "said_author", "said_others")
STEP = re.compile(r"^( *)- \[(\d+)\]\(#m\2\)\{#m\2\} (.*)$")
TURN = re.compile(r"^- Turn of (.*?), moves (\d+)–(\d+):( .*)?$")


def _rows(game: Game) -> list[Move]:
    return list(Move.select().where(Move.game == game).order_by(Move.seq))


def _names(game: Game) -> list[str]:
    return [md_name(s.display) for s in game.seats.order_by(Seat.index)]


def _steps_on_page(text: str) -> dict[int, str]:
    """Every step line of a game page by move number: its sentence (after the link)."""
    out = {}
    for line in text.splitlines():
        m = STEP.match(line)
        if m:
            out[int(m.group(2))] = m.group(3)
    return out


# -- move lines come from the rows --------------------------------------------------


def test_move_lines_are_the_sentences_stored_on_the_rows(archive: Archive, monkeypatch):
    game = archive.games[0]
    Move.update(said_author="{0} did what only the row says").where(
        Move.game == game, Move.seq == 2).execute()
    # were the page to describe a move from the replay, it would fail here
    for rules in {type(get_game(g.game)) for g in archive.games}:
        def refuse(*args, **kwargs):
            raise AssertionError("a move with a stored sentence was described again")
        monkeypatch.setattr(rules, "describe", refuse)
    build(archive.site)
    for g in archive.games:
        shown = _steps_on_page((archive.site / f"games/{g.id}.md").read_text(encoding="utf-8"))
        names = _names(g)
        stored = _rows(g)
        rows = [r for r in stored if is_told(r)]  # menu navigation is never told
        assert len(shown) == len(rows) and len(stored) == g.seq
        for row in rows:
            assert shown[row.seq] == fill(row.said_author, names, name_escape=str)
    seat = _rows(game)[1].seat
    assert _steps_on_page((archive.site / f"games/{game.id}.md").read_text())[2] == (
        f"{_names(game)[seat]} did what only the row says")


def test_a_row_without_a_sentence_is_described_from_the_replay(sqlite_archive: Archive):
    """Rows of an older pbem have no sentence: the archive writes it as it did before."""
    game = sqlite_archive.games[0]
    rules = get_game(game.game)
    # as an older pbem left them: no sentence in any language (a row with its languages
    # but no sentence is a move the game does not tell)
    Move.update(said_author="", said_others="", said_in={}).where(
        Move.game == game, Move.seq <= 10).execute()
    leave_only(game)
    build(sqlite_archive.site)
    shown = _steps_on_page((sqlite_archive.site / f"games/{game.id}.md").read_text())
    names = _names(game)
    rows = _rows(game)
    assert len(shown) == game.seq
    for index, seat, move, before, after in replay_steps(game_record(game)):
        n = index + 1
        said = (rules.describe(before, seat, move, after, EVERYTHING) if n <= 10
                else rows[index].said_author)
        assert shown[n] == fill(said, names, name_escape=str)


def test_a_degraded_page_still_shows_the_stored_sentences(sqlite_archive: Archive):
    game = sqlite_archive.games[0]
    Game.update(rules_version="0").where(Game.id == game.id).execute()
    Move.update(said_author="").where(Move.game == game, Move.seq == 1).execute()
    leave_only(game)
    build(sqlite_archive.site)
    text = (sqlite_archive.site / f"games/{game.id}.md").read_text(encoding="utf-8")
    assert "does not replay" in text
    shown = _steps_on_page(text)
    rows = _rows(game)
    assert shown[1] == f"{_names(game)[rows[0].seat]}: {rows[0].move}"  # notation: no row text
    for row in rows[1:]:
        assert shown[row.seq] == fill(row.said_author, _names(game), name_escape=str)


# -- a round's steps by turn --------------------------------------------------------


def _items(text: str) -> list[list[int]]:
    """The top-level items of the move lists of a page: the move numbers of each."""
    items: list[list[int]] = []
    for line in text.splitlines():
        turn, step = TURN.match(line), STEP.match(line)
        if turn:
            items.append([])
        elif step and step.group(1):
            items[-1].append(int(step.group(2)))
        elif step:
            items.append([int(step.group(2))])
    return items


def test_the_steps_of_one_turn_are_one_item(archive: Archive, built_site):
    longest = 0
    for game in archive.games:
        text = (archive.site / f"games/{game.id}.md").read_text(encoding="utf-8")
        rows = {row.seq: row for row in _rows(game)}
        items = _items(text)
        names = _names(game)  # read once a game, not once an item
        turns = [line for line in text.splitlines() if line.startswith("- Turn of ")]
        assert [n for item in items for n in item] == [n for n in range(1, game.seq + 1)
                                                       if is_told(rows[n])]
        for item in items:
            steps = [rows[n] for n in item]
            # one seat's turn: the same seat and turn, and no step ended it before the last
            assert len({(r.seat, r.turn_seq) for r in steps}) == 1
            assert not any(r.turn_end for r in steps[:-1])
            if len(item) > 1:
                heading = f"- Turn of {names[steps[0].seat]}, moves {item[0]}–{item[-1]}: "
                # the turn told in one sentence, as pages and mails tell it
                assert any(line.startswith(heading) for line in turns)
            longest = max(longest, len(item))
        for before, after in zip(items, items[1:], strict=False):
            last, first = rows[before[-1]], rows[after[0]]
            # a step that goes on the same turn is never an item of its own
            assert (last.turn_end or (last.seat, last.turn_seq) != (first.seat, first.turn_seq)
                    or rows[after[0]].round != last.round)
    assert longest >= 3  # merchants trade several times in one turn


def test_turns_are_nested_lists_with_a_permalink_per_step(sqlite_archive: Archive,
                                                          sqlite_built_site):
    game = max(sqlite_archive.games, key=lambda g: g.seq)
    html = (sqlite_archive.site / f"games/{game.id}.html").read_text(encoding="utf-8")
    assert re.search(r"<li>Turn of [^<]*, moves \d+–\d+: [^\n]*<ul>\n<li><a href=\"#m(\d+)\" "
                     r"id=\"m\1\">\1</a>", html)
    told = {row.seq: is_told(row) for row in _rows(game)}
    for n in range(1, game.seq + 1):
        assert html.count(f'<a href="#m{n}" id="m{n}">{n}</a>') == int(told[n])


# -- rows written without the service -----------------------------------------------


def _play_humans(ctx, humans: int, bots: int, until: int | None = None,
                 seed: str = "rows") -> Game:
    """A Visby game played through the service by ``humans`` people and ``bots`` bots,
    to its end or to ``until`` moves; every person picks a random legal move."""
    people = [create.get_or_create_player(f"p{i}@example.org", f"P{i}",
                                          quiet_start="00:00", quiet_end="00:00")
              for i in range(humans)]
    game = create.create_game(ctx, "visby", people[0],
                              [p.email for p in people[1:]] + [None] * bots, seed=seed)
    for i, person in enumerate(people[1:], start=1):
        create.accept_invite(ctx, game, Seat.get(Seat.game == game, Seat.index == i), person)
    rules = get_game("visby")
    rng = random.Random(seed)
    while True:
        game = Game.get_by_id(game.id)
        if game.status != Game.ACTIVE or (until is not None and game.seq >= until):
            return game
        seat = rng.choice(rules.to_move(game.state))
        moves.play(ctx, game.id, seat, rng.choice(rules.legal_moves(game.state, seat)))


def _columns(rows) -> list[tuple]:
    return [tuple(getattr(r, c) if not isinstance(r, dict) else r[c] for c in COLUMNS)
            for r in rows]


def test_sample_games_get_the_rows_the_service_writes(ctx, database):
    """The helper the sample games use, on a game the service played with a bot."""
    game = _play_humans(ctx, humans=2, bots=1)
    assert game.status == Game.FINISHED
    rules = get_game("visby")
    record = game_record(game)
    steps = list(replay_steps(record))
    kinds = list(map(kind_of(rules, [2]), steps))
    rows, seats = move_rows(rules, rules.setup(3, game.options, game.seed), steps, kinds, 3)
    served = _rows(game)
    assert {r.kind for r in served} >= {Move.PLAYER, Move.BOT}
    assert _columns(rows) == _columns(served)
    assert [(s.turn_seq, s.menu_seq, s.in_turn) for s in seats] == [
        (s.turn_seq, s.menu_seq, s.in_turn) for s in game.seats.order_by(Seat.index)]


def test_sample_games_store_sentences_rounds_and_turns(sqlite_archive: Archive):
    game = sqlite_archive.games[-1]
    rules = get_game(game.game)
    rows = _rows(game)
    for row, (_index, seat, move, before, after) in zip(rows, replay_steps(game_record(game)),
                                                         strict=True):
        assert row.said_author == rules.describe(before, seat, move, after, seat)
        assert row.said_others == rules.describe(before, seat, move, after, None)
        # a move without a sentence is stored as not told (menu navigation), never as a
        # row of an older pbem, which the archive would describe again
        assert is_told(row) == (row.said_author != "")
        assert row.round == rules.round(before)
        assert row.turn_end == rules.turn_over(before, seat, move, after)
    assert max(r.round for r in rows) > 1 and max(r.turn_seq for r in rows) > 1


@pytest.mark.parametrize("until", [None, 40], ids=["finished", "active"])
def test_an_imported_record_gets_the_rows_the_service_wrote(ctx, database, until):
    played = _play_humans(ctx, humans=2, bots=0, until=until)
    imported = Game.get_by_id(import_record(ctx, game_record(played)).id)
    served = _rows(played)
    assert any(r.kind == Move.FORMALITY for r in served) or until  # nothing to trade: done
    assert _columns(_rows(imported)) == _columns(served)
    seats = [(s.turn_seq, s.menu_seq, s.in_turn) for s in played.seats.order_by(Seat.index)]
    assert [(s.turn_seq, s.menu_seq, s.in_turn)
            for s in imported.seats.order_by(Seat.index)] == seats
    if until is None:
        return
    # the imported game plays on from its seats' open turn, as a link would
    rules = get_game("visby")
    seat_index = rules.to_move(imported.state)[0]
    seat = Seat.get(Seat.game == imported, Seat.index == seat_index)
    move = rules.legal_moves(imported.state, seat_index)[0]
    outcome = moves.play(ctx, imported.id, seat_index, move, menu_seq=seat.menu_seq,
                         turn_seq=seat.turn_seq)
    assert outcome.moves[0].seq == imported.seq + 1
    assert outcome.moves[0].turn_seq == seat.turn_seq


def test_an_imported_game_reads_in_the_archive_from_its_rows(ctx, database, tmp_path):
    played = _play_humans(ctx, humans=2, bots=0)
    imported = import_record(ctx, game_record(played))
    Move.update(said_author="{0} imported this").where(Move.game == imported,
                                                        Move.seq == 1).execute()
    build(tmp_path / "site")
    text = (tmp_path / "site" / f"games/{imported.id}.md").read_text(encoding="utf-8")
    first = _rows(imported)[0]
    assert _steps_on_page(text)[1] == f"{_names(imported)[first.seat]} imported this"


# -- the seed -------------------------------------------------------------------------


def _files(site: Path) -> dict[str, str]:
    return {p.relative_to(site).as_posix(): p.read_bytes().decode("utf-8", "replace").lower()
            for p in site.rglob("*") if p.is_file()}


def test_the_seed_is_published_once_the_game_is_over_and_never_before(ctx, archive: Archive):
    seed = new_seed()
    alice = archive.players[0]
    game = create.create_game(ctx, "visby", alice, [None, None], seed=seed)
    rules = get_game("visby")
    for _ in range(4):  # Alice plays; the bots answer at once
        state = Game.get_by_id(game.id).state
        moves.play(ctx, game.id, 0, rules.default_move(state, 0))
    game = Game.get_by_id(game.id)
    assert game.status == Game.ACTIVE and game.seq > 4
    build(archive.site)
    site = _files(archive.site)
    assert len(site) > 10
    for name, text in site.items():
        assert seed.lower() not in text, name
    assert not list(archive.site.glob(f"games/{game.id}.*"))

    # the same game, once over: its page and its record publish the seed
    rng = random.Random(1)
    while Game.get_by_id(game.id).status == Game.ACTIVE:
        state = Game.get_by_id(game.id).state
        moves.play(ctx, game.id, 0, rules.bot_move(state, 0, rng))
    build(archive.site)
    page = (archive.site / f"games/{game.id}.md").read_text(encoding="utf-8")
    assert f"- Seed: {seed}" in page.splitlines()
    assert seed in (archive.site / f"games/{game.id}.html").read_text(encoding="utf-8")
    assert f'"seed": "{seed}"' in (archive.site / f"games/{game.id}.json").read_text()
    published = [name for name, text in _files(archive.site).items() if seed in text]
    assert sorted(published) == [f"games/{game.id}.{ext}" for ext in ("html", "json", "md")]
