"""Games that look like a server's after a while, written fast: the database behind
``bench/tick.py`` and behind the test of the tick's query plans
(``tests/time/test_tick_follows_due_work.py``).

A few template games are played through the lifecycle, as players would play
them: created, invitations accepted, moves through ``moves.play`` (bots
answer), a message or two of table talk, every mail queued, delivered and the
talk mailed by a tick two hours later.  Every other game is a copy of one of
them, written with bulk inserts under new ids, with its players drawn from a
pool: seats in turn with deadlines and reminders ahead, its move log, notices,
talk, and its mails as sent (bodies cut short: a tick never reads a sent mail).
A share of the copies is finished and archived, a few mails failed for good,
some players are on vacation, digest readers have mail held for tomorrow, a third
of the running games have a follower whose digest is due later, and a few games are
parked with a deadline past.

At ``fixture.now`` nothing is due: a tick then is the idle tick.  ``arm``
makes a given amount of work due on games not used before (default moves after
a grace period, reminders, table talk waiting, mail to deliver, a digest, a
vacation's end), as a busy minute of a real server would have it.
"""

from __future__ import annotations

import random
import uuid
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

import peewee as pw

from pbem.context import Context
from pbem.games import get_game
from pbem.lifecycle import create, moves, talk
from pbem.models import Game, Outbox, Player, Seat, db, utcnow, write_transaction
from pbem.time import scheduler

#: (game, players, bot seats, human moves played, a digest reader among them)
TEMPLATES = [
    ("visby", 2, 0, 6, False), ("visby", 3, 1, 9, True), ("visby", 4, 0, 14, False),
    ("tallinn", 2, 0, 8, False), ("tallinn", 3, 0, 12, True), ("riga", 2, 0, 7, False),
    ("riga", 3, 1, 10, False), ("macao", 2, 0, 5, True),
]
#: the share of copies that are finished (and archived)
FINISHED = 0.3
#: players per game in the pool (a player sits at about this many tables at once)
GAMES_PER_PLAYER = 3
#: parked games, whatever the size: each has a seat whose deadline passed
PARKED = 3
#: rows per INSERT
CHUNK = 2_000


class NullTransport:
    """Renders each message, as a real transport would, and keeps nothing."""

    def __init__(self) -> None:
        self.sent = 0

    def send(self, message: Any) -> None:
        bytes(message)
        self.sent += 1


@dataclass
class Template:
    rows: dict[str, list[dict[str, Any]]]  # table -> raw rows of the game
    players: list[int]  # the template's players, in seat order


@dataclass
class Fixture:
    ctx: Context
    now: datetime  # the instant every tick of the bench runs at
    templates: list[Template] = field(default_factory=list)
    pool: tuple[int, int] = (0, 0)  # first id and count of the pool's players
    games: int = 0
    used: int = 0  # the last game id armed with due work

    @property
    def postgres(self) -> bool:
        return not isinstance(db.obj, pw.SqliteDatabase)


# -- templates: played through the lifecycle ----------------------------------------


def _play_template(ctx: Context, n: int, spec: tuple, t0: datetime, rng: random.Random) -> Game:
    name, players, bots, human_moves, digest = spec
    rules = get_game(name)
    quiet_off = {"quiet_start": "00:00", "quiet_end": "00:00"}
    people = []
    for k in range(players - bots):
        fields = dict(quiet_off)
        if digest and k == 1:  # held mail goes out in the reader's morning, 12 hours on
            fields = {"quiet_start": (t0 + timedelta(hours=11)).strftime("%H:00"),
                      "quiet_end": (t0 + timedelta(hours=12)).strftime("%H:00"),
                      "digest": True}
        person = create.get_or_create_player(f"t{n}-{k}@bench.example", f"T{n} {k}", **fields)
        person.confirmed_at = t0
        person.save()
        people.append(person)
    host, *others = people
    invited: list[str | None] = [p.email for p in others] + [None] * bots
    game = create.create_game(ctx, name, host, invited, seed=f"bench-{n}")
    for index, person in enumerate(others, start=1):
        create.accept_invite(ctx, game, Seat.get(Seat.game == game, Seat.index == index), person)
    for played in range(human_moves):
        game = Game.get_by_id(game.id)
        if game.status != Game.ACTIVE:
            break
        humans = {s.index: s for s in game.seats if not s.bot}
        ready = [i for i in rules.to_move(game.state) if i in humans]
        if not ready:
            break
        seat = humans[rng.choice(ready)]
        move = rng.choice(rules.legal_moves(game.state, seat.index))
        moves.play(ctx, game.id, seat.index, move, menu_seq=seat.menu_seq, now=t0)
        if played in (1, human_moves // 2):
            talk.post(ctx, Game.get_by_id(game.id), Seat.get_by_id(seat.id),
                      f"Well played, table {n}!", now=t0)
    return Game.get_by_id(game.id)


def _raw(table: str, column: str, value: int) -> list[dict[str, Any]]:
    cursor = db.execute_sql(f'SELECT * FROM "{table}" WHERE "{column}" = {db.param} '
                            f'ORDER BY "id"', (value,))
    names = [d[0] for d in cursor.description]
    return [dict(zip(names, row, strict=True)) for row in cursor.fetchall()]


def _template_rows(game_id: int) -> Template:
    rows = {"game": _raw("game", "id", game_id)}
    for table in ("seat", "move", "notice", "talk", "outbox"):
        rows[table] = _raw(table, "game_id", game_id)
    players = [s["player_id"] for s in rows["seat"] if s["player_id"] is not None]
    return Template(rows, players)


# -- copies: bulk inserts -------------------------------------------------------------


def _insert(table: str, rows: list[dict[str, Any]]) -> None:
    if not rows:
        return
    columns = list(rows[0])
    names = ", ".join(f'"{c}"' for c in columns)
    values = [tuple(r[c] for c in columns) for r in rows]
    cursor = db.cursor()
    if isinstance(db.obj, pw.SqliteDatabase):
        marks = ", ".join("?" for _ in columns)
        cursor.executemany(f'INSERT INTO "{table}" ({names}) VALUES ({marks})', values)
    else:
        from psycopg2.extras import execute_values

        execute_values(cursor, f'INSERT INTO "{table}" ({names}) VALUES %s', values,
                       page_size=1_000)


def _copy(fx: Fixture, n: int, game_id: int, talk_id: int, rows: dict[str, list]) -> int:
    """Rows of copy ``n`` (game id ``game_id``) into ``rows``; the talk ids it took."""
    template = fx.templates[n % len(fx.templates)]
    first, count = fx.pool
    ours = {p: first + (n * 5 + k) % count for k, p in enumerate(template.players)}
    finished = (n * 7919) % 100 < FINISHED * 100
    game = dict(template.rows["game"][0], id=game_id, thread_key=uuid.uuid4().hex,
                creator_id=ours.get(template.rows["game"][0]["creator_id"]), rematch_of=None)
    if finished:
        game.update(status=Game.FINISHED, finished_at=fx.now - timedelta(days=2),
                    archived_at=fx.now - timedelta(days=2), bots_pending=False)
    rows["game"].append(game)
    talk_ids = {}
    for k, row in enumerate(template.rows["talk"]):
        talk_ids[row["id"]] = talk_id + k
        rows["talk"].append(dict(row, id=talk_id + k, game_id=game_id))
    for row in template.rows["seat"]:
        seat = {c: v for c, v in row.items() if c != "id"}
        seat.update(game_id=game_id, player_id=ours.get(row["player_id"]),
                    talk_mailed=talk_ids.get(row["talk_mailed"], 0))
        if finished:
            seat.update(deadline=None, deadline_started=None, remind_at=None, in_turn=False,
                        in_grace=False, talk_waiting_since=None)
        rows["seat"].append(seat)
    for table in ("move", "notice"):
        rows[table] += [{**{c: v for c, v in r.items() if c != "id"}, "game_id": game_id}
                        for r in template.rows[table]]
    for k, row in enumerate(template.rows["outbox"]):
        player = ours.get(row["player_id"])
        mail = {c: v for c, v in row.items() if c != "id"}
        mail.update(game_id=game_id, player_id=player, message_id=f"<copy-{game_id}-{k}@bench>",
                    to_address=f"p{player}@bench.example", text_body=row["text_body"][:200],
                    html_body=None)
        if k == 0 and n % 100 == 0:  # given up on after its attempts: never due again
            mail.update(sent_at=None, failed_at=fx.now - timedelta(days=1), attempts=5)
        rows["outbox"].append(mail)
    if not finished and n % 3 == 0:  # a visitor follows it: a digest due later today
        rows["follower"].append(dict(
            game_id=game_id, email=f"fan{game_id}@bench.example", key=uuid.uuid4().hex,
            language="en", client_key=None, confirmed_at=fx.now - timedelta(days=1),
            told_seq=game["seq"], digest_due=fx.now + timedelta(hours=1 + n % 20),
            created_at=fx.now - timedelta(days=1)))
    return len(template.rows["talk"])


def _next_id(table: str) -> int:
    return (db.execute_sql(f'SELECT MAX("id") FROM "{table}"').fetchone()[0] or 0) + 1


def grow(fx: Fixture, games: int) -> None:
    """Copies of the templates until the database holds ``games`` games."""
    _grow_pool(fx, games)
    game_id, talk_id = _next_id("game"), _next_id("talk")
    n = fx.games
    while n < games:
        rows: dict[str, list] = {t: [] for t in ("game", "seat", "move", "notice", "talk",
                                                 "outbox", "follower")}
        for _ in range(min(CHUNK // 4, games - n)):
            talk_id += _copy(fx, n, game_id, talk_id, rows)
            game_id += 1
            n += 1
        with db.atomic():
            for table in ("game", "talk", "seat", "move", "notice", "outbox", "follower"):
                for start in range(0, len(rows[table]), CHUNK):
                    _insert(table, rows[table][start:start + CHUNK])
    fx.games = games
    if fx.postgres:  # ids were given: the sequences go on after them
        for table in ("game", "talk"):
            db.execute_sql(f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), "
                           f'(SELECT MAX("id") FROM "{table}"))')


def _grow_pool(fx: Fixture, games: int) -> None:
    wanted = max(50, games // GAMES_PER_PLAYER)
    first, count = fx.pool
    if count >= wanted:
        return
    start = _next_id("player")
    people = [dict(id=start + k, email=f"p{start + k}@bench.example", name=f"Player {start + k}",
                   timezone="UTC", language="de" if k % 5 == 0 else "en", quiet_start="00:00",
                   quiet_end="00:00", digest=False, mail_enabled=True, mail_off="",
                   vacation_until=fx.now + timedelta(days=5) if k % 100 == 7 else None,
                   vacation_days_used=0, vacation_year=0, link_version=1,
                   confirmed_at=fx.now, created_at=fx.now)
              for k in range(wanted - count)]
    with db.atomic():
        for begin in range(0, len(people), CHUNK):
            _insert("player", people[begin:begin + CHUNK])
    if fx.postgres:
        db.execute_sql("SELECT setval(pg_get_serial_sequence('player', 'id'), "
                       '(SELECT MAX("id") FROM "player"))')
    # the pool grows on from where it was: copies made already keep their players
    fx.pool = (first or start, wanted)


def build(ctx: Context, games: int, templates: list[tuple] = TEMPLATES,
          seed: int = 1) -> Fixture:
    """A fixture of ``games`` games in the (empty) database that is open."""
    t0 = utcnow().replace(microsecond=0)
    fx = Fixture(ctx, now=t0 + timedelta(hours=2))
    rng = random.Random(seed)
    played = [_play_template(ctx, n, spec, t0, rng) for n, spec in enumerate(templates)]
    # what the templates queued counts as sent (sending it draws every picture: minutes)
    (Outbox.update(sent_at=t0, attempts=1)
     .where(Outbox.sent_at.is_null(), Outbox.digest == False).execute())  # noqa: E712
    transport = NullTransport()
    for _ in range(10):  # the talk nobody was mailed goes now, and any mail that is left
        if not scheduler.did_work(scheduler.tick(ctx, fx.now, transport=transport)):
            break
    fx.templates = [_template_rows(g.id) for g in played]
    fx.games = len(played)
    grow(fx, games)
    _park(fx)
    return fx


def _park(fx: Fixture) -> None:
    """A few parked games with a deadline past: the ticks leave them alone."""
    seats = (Seat.select(Seat.id, Seat.game).join(Game)
             .where(Game.status == Game.ACTIVE, Seat.in_turn == True)  # noqa: E712
             .order_by(Game.id.desc()).limit(PARKED))
    for seat in list(seats):
        Game.update(parked_at=fx.now - timedelta(days=1), failures=3,
                    parked_reason="bench: parked").where(Game.id == seat.game_id).execute()
        Seat.update(deadline=fx.now - timedelta(hours=1)).where(Seat.id == seat.id).execute()


# -- due work ---------------------------------------------------------------------------


def due_split(due: int) -> dict[str, int]:
    """What ``arm`` makes due of ``due`` items: a third default moves after a grace
    period, a fifth reminders, a fifth table talk waiting, the rest mail to deliver,
    and one digest and one vacation's end."""
    timeouts, reminders, talks = due // 3, due // 5, due // 5
    return {"timeouts": timeouts, "reminders": reminders, "talk": talks,
            "mails": max(0, due - timeouts - reminders - talks), "digests": 1,
            "vacations": 1}


def arm(fx: Fixture, due: int) -> dict[str, int]:
    """Make ``due`` items due at ``fx.now`` on games not armed before (``due_split``)."""
    split = due_split(due)
    timeouts, reminders, talks, mails = (split["timeouts"], split["reminders"], split["talk"],
                                         split["mails"])
    # seats of players who are here (a vacation stops their clocks and reminders)
    seats = list(Seat.select(Seat.id, Seat.game, Seat.index).join(Game)
                 .switch(Seat).join(Player, on=(Seat.player == Player.id))
                 .where(Game.status == Game.ACTIVE, Game.parked_at.is_null(),
                        Game.id > fx.used, Seat.in_turn == True,  # noqa: E712
                        Seat.bot == False, Seat.deadline > fx.now,  # noqa: E712
                        Player.vacation_until.is_null())
                 .order_by(Game.id).limit(3 * (timeouts + reminders + talks)))
    by_game = list({s.game_id: s for s in seats}.values())
    if len(by_game) < timeouts + reminders + talks:
        raise SystemExit("the fixture has too few running games left for the due work: "
                         "fewer repeats, or less --due")
    chosen = by_game[:timeouts + reminders + talks]
    fx.used = chosen[-1].game_id
    past = fx.now - timedelta(minutes=1)
    with write_transaction():
        for seat in chosen[:timeouts]:  # the grace period ended: the default move is played
            Seat.update(deadline=past, in_grace=True, remind_at=None).where(
                Seat.id == seat.id).execute()
        for seat in chosen[timeouts:timeouts + reminders]:
            Seat.update(remind_at=past).where(Seat.id == seat.id).execute()
        waited = fx.now - timedelta(
            minutes=fx.ctx.config.getint("limits", "talk_mail_after_minutes") + 1)
        for seat in chosen[timeouts + reminders:]:
            talk.post(fx.ctx, Game.get_by_id(seat.game_id), Seat.get_by_id(seat.id),
                      "Anyone still there?", now=waited)
        first, count = fx.pool
        who = [first + (fx.used + k) % count for k in range(mails + 2)]
        _insert("outbox", [dict(player_id=p, kind="notice", to_address=f"p{p}@bench.example",
                                to_name=f"Player {p}", subject="Something happened",
                                text_body="Something happened.", message_id=f"<due-{p}-"
                                f"{uuid.uuid4().hex}@bench>", created_at=past, not_before=past,
                                attempts=0, digest=k == mails, composed=True)
                           for k, p in enumerate(who[:mails + 1])])
        Player.update(digest=True).where(Player.id == who[mails]).execute()
        Player.update(vacation_until=past).where(Player.id == who[mails + 1]).execute()
    return split
