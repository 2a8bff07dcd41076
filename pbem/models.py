"""The database: Peewee models behind a deferred database.

The move log (``Move``) is the truth; ``Game.state`` is a snapshot of the
state after ``Game.seq`` moves so that a move costs the same at move 5 and
move 500.  All times are naive UTC datetimes.  SQLite (WAL) is the default;
a ``postgresql://`` URL switches to PostgreSQL.
"""

from __future__ import annotations

import fcntl
import json
import os
import threading
import uuid
from collections.abc import Iterator
from contextlib import contextmanager, nullcontext
from datetime import UTC, datetime
from typing import Any

import peewee as pw
from playhouse.db_url import connect

from pbem.sqlcache import Prepared

db = pw.DatabaseProxy()


def utcnow() -> datetime:
    """Now as naive UTC, the form every stored time has (freezegun drives it in tests)."""
    return datetime.now(UTC).replace(tzinfo=None)


class JSONField(pw.TextField):
    """JSON in a text column: portable across SQLite and PostgreSQL."""

    def db_value(self, value: Any) -> str | None:
        if value is None:
            return None
        return json.dumps(value, ensure_ascii=False, sort_keys=True, separators=(",", ":"))

    def python_value(self, value: str | None) -> Any:
        return None if value is None else json.loads(value)


class BaseModel(pw.Model):
    class Meta:
        database = db


class Player(BaseModel):
    """A person with an email address; no password, personal signed links instead."""

    email = pw.CharField(max_length=254, unique=True)
    name = pw.CharField(max_length=80)
    timezone = pw.CharField(max_length=64, default="UTC")
    language = pw.CharField(max_length=8, default="en")
    quiet_start = pw.CharField(max_length=5, default="22:00")  # local HH:MM
    quiet_end = pw.CharField(max_length=5, default="08:00")
    digest = pw.BooleanField(default=False)  # one mail a day instead of one per turn
    mail_enabled = pw.BooleanField(default=True)  # false after "stop all mail"
    #: the kinds of mail (``pbem.mail.kinds.SWITCHABLE``) the player switched off, one by
    #: one (the one-click unsubscribe of a mail of that kind, the settings page): a
    #: space-separated list, so a kind added later is on for everyone
    mail_off = pw.CharField(max_length=120, default="")
    vacation_until = pw.DateTimeField(null=True, index=True)
    vacation_days_used = pw.IntegerField(default=0)
    vacation_year = pw.IntegerField(default=0)
    #: bumping it revokes every personal link handed out before
    link_version = pw.IntegerField(default=1)
    #: when the player proved the address is theirs (a link mailed to it was opened);
    #: until then, invitations of games they create are held
    confirmed_at = pw.DateTimeField(null=True)
    created_at = pw.DateTimeField(default=utcnow)

    @property
    def display(self) -> str:
        return self.name

    def takes(self, mail_list: str) -> bool:
        """Whether the player takes mail of ``mail_list`` (a kind they may switch off)."""
        return self.mail_enabled and mail_list not in self.mail_off.split()


class Game(BaseModel):
    """One game: what is played, by which rules, and the snapshot of its state."""

    OPEN, ACTIVE, FINISHED, ABORTED = "open", "active", "finished", "aborted"
    #: created from the open form under an address that has not confirmed it for this
    #: game yet: nothing starts and nothing is mailed but the request to confirm
    #: (``pbem.lifecycle.create``)
    HELD = "held"

    game = pw.CharField(max_length=32)  # registry name, e.g. "visby"
    options = JSONField(default=dict)
    #: rebuilds every deck and die: never sent to a player while the game runs
    #: (``pbem.games.protocol.new_seed``); published with the record once it is over
    seed = pw.CharField(max_length=64)
    #: who asked for the game: a keyed hash of the client's address, for the daily limits
    client_key = pw.CharField(max_length=32, null=True, index=True)
    #: names the game's mail thread; random, so that it reveals nothing
    thread_key = pw.CharField(max_length=32, default=lambda: uuid.uuid4().hex)
    #: bots still owe moves that a request's cap left over; the tick plays them
    bots_pending = pw.BooleanField(default=False, index=True)
    #: scheduled work for this game that failed in a row; at ``steps.PARK_AFTER``
    #: the game is parked: the ticks leave it alone until an operator releases it
    failures = pw.IntegerField(default=0)
    parked_at = pw.DateTimeField(null=True)
    parked_reason = pw.TextField(null=True)
    rules_version = pw.CharField(max_length=16)
    data_version = pw.CharField(max_length=32)
    status = pw.CharField(max_length=12, default=OPEN, index=True)
    clock = JSONField(default=dict)  # see pbem.time.clock
    creator = pw.ForeignKeyField(Player, null=True, backref="created_games")
    seq = pw.IntegerField(default=0)  # moves applied; the snapshot is after move ``seq``
    #: the latest move after which a notice or table talk was written (-1: none yet), so
    #: that a history after it asks for neither (``pbem.gamelog.history``): most pages
    #: and turn mails of a game come after its last aside, and ask two statements less
    aside_seq = pw.IntegerField(default=-1)
    state = JSONField(null=True)
    result = JSONField(null=True)
    created_at = pw.DateTimeField(default=utcnow)
    started_at = pw.DateTimeField(null=True)
    finished_at = pw.DateTimeField(null=True, index=True)
    archived_at = pw.DateTimeField(null=True)
    #: the finished game this one is the rematch of (one rematch per game: a double
    #: click on "rematch" starts one game)
    rematch_of = pw.IntegerField(null=True, unique=True)

    def aside_after(self, seq: int) -> None:
        """A notice or table talk was written after move ``seq`` (``aside_seq``)."""
        known = self.__data__.get("aside_seq")  # None: a row read without it
        if known is None or seq > known:
            self.aside_seq = seq
            Game.update(aside_seq=seq).where(Game.id == self.id, Game.aside_seq < seq).execute()

    class Meta:
        # the tick's questions, each answered from an index of its own rather than from
        # every game of a status: bots owe moves (``moves.pending_bots``), a finished
        # game waits for the archive (``pbem.archive.pipeline.needs_build``)
        indexes = ((("bots_pending", "status"), False),
                   (("status", "archived_at"), False))

    def thread_id(self, domain: str, player_id: int | None = None) -> str:
        """Message-ID of the game's thread root in the mailbox of ``player_id``
        (``pbem.mail.compose.queue``): the first mail of the game to that player carries
        it, every later one refers to it.  ``domain`` is the sender's."""
        who = f".p{player_id}" if player_id is not None else ""
        return f"<game-{self.id}-{self.thread_key}{who}@{domain}>"


# PostgreSQL guesses from its statistics that many games are finished and many not
# archived, and would read the table for the few that are both; an index of just those
# games is small, and it knows (SQLite takes the index of the two columns above)
Game.add_index(Game.index(Game.finished_at, name="game_to_archive",
                          where=(Game.status == Game.FINISHED) & Game.archived_at.is_null()))


class Seat(BaseModel):
    """A place at a game's table: a player, an invitation not yet accepted, or a bot."""

    game = pw.ForeignKeyField(Game, backref="seats", on_delete="CASCADE")
    index = pw.IntegerField()
    player = pw.ForeignKeyField(Player, null=True, backref="seats")
    invite_email = pw.CharField(max_length=254, null=True)
    #: when the invitation was queued; None while the creator has not confirmed
    invited_at = pw.DateTimeField(null=True)
    bot = pw.BooleanField(default=False)
    #: left open by the creator for anyone: the lobby's list of open games offers it, and
    #: whoever confirms their address takes it (``pbem.lifecycle.join``)
    open_to_all = pw.BooleanField(default=False)
    #: the seat was human and a bot took over after timeouts; the owner can reclaim it
    bot_replaced = pw.BooleanField(default=False)
    #: how strongly a bot plays this seat: a key of ``pbem.games.search.LEVELS`` ("easy":
    #: the game's own bot; "normal", "strong": searching ones).  Seats of an older pbem
    #: get the default, the level of a bot the server seats by itself
    bot_level = pw.CharField(max_length=16, default="normal")
    #: version of this seat's menu, raised by each of its moves and each new turn:
    #: together with the move it names a link, so that one link plays once
    menu_seq = pw.IntegerField(default=0)
    #: the seat's turns so far; a move link is good while its turn is this one
    turn_seq = pw.IntegerField(default=0)
    #: the seat has a decision open (its turn began and has not ended)
    in_turn = pw.BooleanField(default=False)
    deadline = pw.DateTimeField(null=True, index=True)
    deadline_started = pw.DateTimeField(null=True)
    reminders_sent = pw.IntegerField(default=0)
    #: when the next reminder is due (already moved out of the player's quiet hours)
    remind_at = pw.DateTimeField(null=True, index=True)
    #: the deadline passed once and ``deadline`` now marks the end of the grace period
    in_grace = pw.BooleanField(default=False)
    timeouts_in_row = pw.IntegerField(default=0)
    bank_seconds = pw.IntegerField(null=True)  # time-bank clocks
    #: the last table talk (``Talk.id``) that went out to this seat's player in a mail:
    #: each message reaches each other player once (``pbem.lifecycle.talk``)
    talk_mailed = pw.IntegerField(default=0)
    #: when the oldest table talk of others that this seat's player has not been mailed
    #: yet was written; ``None`` when nothing waits (or nothing can go: a bot, mail off).
    #: The tick finds readers to mail by it alone, ``talk_mail_after_minutes`` later
    #: (``pbem.lifecycle.talk``), never by looking at every seat
    talk_waiting_since = pw.DateTimeField(null=True, index=True)

    class Meta:
        indexes = ((("game", "index"), True),)

    @classmethod
    def of(cls, game: Game | int) -> list[Seat]:
        """The seats of ``game`` in table order, each with its player read in the same
        query: the one way every part reads a table (names, mails, turns); its SQL is
        built once (``pbem.sqlcache``: every request of a game reads its table)."""
        game_id = game.id if isinstance(game, Game) else game
        if type(game_id) is int:
            return _SEATS_OF.rows(game_id)
        return list(cls.select(cls, Player).join(Player, pw.JOIN.LEFT_OUTER)
                    .where(cls.game == game).order_by(cls.index))

    @property
    def display(self) -> str:
        if self.player_id is not None:
            suffix = " (bot playing)" if self.bot else ""
            return self.player.name + suffix
        if self.bot:
            return f"Bot {self.index + 1}"
        if self.open_to_all:
            return f"(open: seat {self.index + 1})"
        return f"(invited: seat {self.index + 1})"


class Move(BaseModel):
    """One entry of the move log: the truth from which every state is replayed."""

    #: a move by the seat's player, a bot, the timeout ladder, or the server
    #: playing a formality (the seat's only move, e.g. "done" with nothing to trade)
    PLAYER, BOT, TIMEOUT, FORMALITY = "player", "bot", "timeout", "formality"

    game = pw.ForeignKeyField(Game, backref="moves", on_delete="CASCADE")
    seq = pw.IntegerField()  # 1-based
    seat = pw.IntegerField()
    move = pw.CharField(max_length=120)  # the game's notation
    kind = pw.CharField(max_length=10, default=PLAYER)
    #: the seat's menu version of the link or form the move was played from:
    #: the same link clicked twice finds its move here and plays once
    menu_seq = pw.IntegerField(default=0)
    #: the seat's turn (``Seat.turn_seq``) the move was played in
    turn_seq = pw.IntegerField(default=0)
    #: the round (``Rules.round`` before the move), for grouping histories
    round = pw.IntegerField(default=0)
    #: whether earlier steps became final with this move (no take-back past it)
    commit = pw.BooleanField(default=True)
    #: whether the seat's turn ended with this move
    turn_end = pw.BooleanField(default=True)
    #: the move in words, written once when it was recorded (``{0}`` placeholders):
    #: as its author (and the archive) reads it, and as everyone else does
    said_author = pw.TextField(default="")
    said_others = pw.TextField(default="")
    #: the same two sentences in every other language pbem speaks (``pbem.i18n.LANGUAGES``
    #: but English, which the two columns above hold): ``{"de": [author, others]}``.
    #: A row recorded before (``{}``), or without a language, reads English
    #: (``pbem.gamelog.history.said``)
    said_in = JSONField(default=dict)
    #: the seat's clock as it stood before a move that ended its turn (JSON of
    #: ``clock.snapshot``), so that taking that move back reopens the turn with the
    #: deadline, reminders and bank it had, not with a fresh turn's time
    clock_before = pw.TextField(default="")
    created_at = pw.DateTimeField(default=utcnow)

    class Meta:
        indexes = (
            (("game", "seq"), True),
            # a link's move is looked up by its turn (``moves.link_refusal``)
            (("game", "seat", "turn_seq"), False),
        )


class Notice(BaseModel):
    """Something that happened to a game outside the move log (timeouts, bots, vacations)."""

    game = pw.ForeignKeyField(Game, backref="notices", on_delete="CASCADE")
    seq = pw.IntegerField()  # the move number it happened after
    seat = pw.IntegerField(null=True)
    text = pw.TextField()  # with {0}-style seat placeholders, in English
    #: ``text`` in every other language pbem speaks, ``{"de": "…"}``; a notice written
    #: before, or without a language, reads English
    said_in = JSONField(default=dict)
    created_at = pw.DateTimeField(default=utcnow)


class Talk(BaseModel):
    """Table talk: a short message a player wrote to the table from the seat page."""

    game = pw.ForeignKeyField(Game, backref="talk", on_delete="CASCADE")
    seat = pw.IntegerField()  # the writer's seat index
    text = pw.TextField()  # as typed, control characters removed; escaped where shown
    #: the move it followed (``Game.seq`` when it was written): it stands after that move
    after_move_seq = pw.IntegerField()
    created_at = pw.DateTimeField(default=utcnow, index=True)

    class Meta:
        indexes = ((("game", "after_move_seq"), False),)


class Note(BaseModel):
    """A seat's private note, written on its seat page: only that seat's page ever reads
    it (no mail, no other page, not the archive, which never selects this table)."""

    seat = pw.ForeignKeyField(Seat, unique=True, backref="notes", on_delete="CASCADE")
    text = pw.TextField(default="")  # as typed; escaped where shown
    updated_at = pw.DateTimeField(default=utcnow)


class Rating(BaseModel):
    """A multiplayer rating (openskill's Weng-Lin model, ``pbem.lifecycle.ratings``) per
    player per game kind, or of that game's bots (``player`` None), rated apart."""

    #: who: ``"p<player id>"``, or ``"bot"`` for the bots of a game kind
    who = pw.CharField(max_length=24)
    player = pw.ForeignKeyField(Player, null=True, backref="ratings", on_delete="CASCADE")
    kind = pw.CharField(max_length=32)  # registry name, e.g. "visby"
    #: skill and its uncertainty, in double precision (PostgreSQL's REAL would round them,
    #: and a rebuild would then disagree with the ratings made as games ended)
    mu = pw.DoubleField()
    sigma = pw.DoubleField()
    games = pw.IntegerField(default=0)  # rated games so far
    updated_at = pw.DateTimeField(default=utcnow)

    class Meta:
        indexes = ((("who", "kind"), True),)

    @property
    def shown(self) -> float:
        return shown_rating(self.mu, self.sigma)


class RatingChange(BaseModel):
    """What one finished game did to the rating of one of its seats (written when it
    finished, or again by ``pbem ratings``, which rebuilds every rating in finish order)."""

    game = pw.ForeignKeyField(Game, backref="rating_changes", on_delete="CASCADE")
    seat = pw.IntegerField()
    who = pw.CharField(max_length=24)  # as ``Rating.who``
    player = pw.ForeignKeyField(Player, null=True, backref="rating_changes",
                                on_delete="CASCADE")
    kind = pw.CharField(max_length=32)
    rank = pw.IntegerField()
    mu_before = pw.DoubleField()  # as ``Rating.mu``, double precision
    sigma_before = pw.DoubleField()
    mu_after = pw.DoubleField()
    sigma_after = pw.DoubleField()
    #: why the result says less than usual: "" (played out), "timeouts" (a seat's move
    #: was played by the timeout ladder) or "dropped" (a player left, a bot finished)
    marked = pw.CharField(max_length=12, default="")
    finished_at = pw.DateTimeField(null=True)

    class Meta:
        indexes = ((("game", "seat"), True), (("player", "kind"), False))

    @property
    def before(self) -> float:
        return shown_rating(self.mu_before, self.sigma_before)

    @property
    def after(self) -> float:
        return shown_rating(self.mu_after, self.sigma_after)


def shown_rating(mu: float, sigma: float) -> float:
    """The number a rating is shown as: its skill less three uncertainties (openskill's
    "ordinal"), so that a newcomer starts at 0 and climbs as the games make it sure."""
    return round(mu - 3 * sigma, 1)


class Outbox(BaseModel):
    """A mail waiting for delivery; written in the same transaction as its cause."""

    game = pw.ForeignKeyField(Game, null=True, backref="mails", on_delete="CASCADE")
    player = pw.ForeignKeyField(Player, null=True, backref="mails")
    kind = pw.CharField(max_length=16)  # turn, reminder, invite, notice, result
    to_address = pw.CharField(max_length=254)
    to_name = pw.CharField(max_length=80, default="")
    subject = pw.CharField(max_length=200)
    text_body = pw.TextField()
    html_body = pw.TextField(null=True)
    message_id = pw.CharField(max_length=200, unique=True)
    in_reply_to = pw.CharField(max_length=200, null=True)
    unsubscribe_url = pw.CharField(max_length=500, null=True)
    created_at = pw.DateTimeField(default=utcnow)
    not_before = pw.DateTimeField(default=utcnow, index=True)  # quiet hours, backoff
    attempts = pw.IntegerField(default=0)
    claimed_until = pw.DateTimeField(null=True)  # a delivering tick holds it until then
    sent_at = pw.DateTimeField(null=True, index=True)
    #: given up: after max attempts, or a "your move" mail no longer true (``last_error``)
    failed_at = pw.DateTimeField(null=True)
    last_error = pw.TextField(null=True)
    #: held for the player's daily digest (``not_before`` is the digest's time), never
    #: delivered on its own
    digest = pw.BooleanField(default=False)
    #: a "your move" mail's decision: the seat (its index) and that seat's turn it asks
    #: for; delivery leaves the mail unsent once that turn is over (``outbox.stale_turn``)
    seat_index = pw.IntegerField(null=True)
    turn_seq = pw.IntegerField(null=True)
    #: the mail's personal reply address (``Reply-To``), where a reply plays or talks
    #: (``pbem.lifecycle.replies``); its token names this row
    reply_to = pw.CharField(max_length=200, null=True)
    #: what a reply to it may name (JSON): the decision it was sent for (turn, menu
    #: version) and its choices' notations in the order the mail numbered them
    choices = pw.TextField(null=True)
    #: the table talk the mail carries to its reader: their seats' ``talk_mailed`` before
    #: it took the talk and after (``pbem.mail.talk``), so that a turn mail never sent
    #: (its turn ended first) can give the talk back to be mailed
    talk_from = pw.IntegerField(null=True)
    talk_to = pw.IntegerField(null=True)
    #: False while only addressed: a player's click queues the next player's "your
    #: move" row and the tick writes its body (``pbem.mail.later``); no delivery before
    composed = pw.BooleanField(default=True)

    class Meta:
        # mail still to go (neither sent nor given up) by when it may go: the tick's
        # delivery and digests find it here, however much mail went before
        indexes = ((("sent_at", "failed_at", "not_before"), False),)


# PostgreSQL reads mail due in the order it is due and stops at a batch: through the
# index of every mail's time it would walk all mail ever sent; this one holds mail to go
Outbox.add_index(Outbox.index(Outbox.not_before, Outbox.id, name="outbox_to_send",
                              where=Outbox.sent_at.is_null() & Outbox.failed_at.is_null()))
# the rows still to be written, which the tick finds without reading the mail to go
Outbox.add_index(Outbox.index(Outbox.composed, Outbox.id, name="outbox_to_compose",
                              where=(Outbox.composed == False)  # noqa: E712
                              & Outbox.failed_at.is_null()))
# and mail held for digests by when its digest is due: without it PostgreSQL found the
# digests due by walking all mail still to go, which grows with the games (a digest's mail
# waits for its day), and an idle tick read 14,000 rows at 8,000 games (bench/tick.py)
Outbox.add_index(Outbox.index(Outbox.not_before, name="outbox_digest_due",
                              where=Outbox.sent_at.is_null() & Outbox.failed_at.is_null()
                              & Outbox.digest))


class Blocked(BaseModel):
    """An address that asked never to be mailed again ("never mail me again" in a mail
    to an address that has not joined); every kind of mail heeds it."""

    email = pw.CharField(max_length=254, unique=True)
    created_at = pw.DateTimeField(default=utcnow)

    @classmethod
    def has(cls, email: str) -> bool:
        return cls.select().where(cls.email == email.lower()).exists()


class Follower(BaseModel):
    """An address that follows a running game by mail (``pbem.lifecycle.follow``): once
    confirmed from that mailbox, at most one digest a day of the game's public moves."""

    game = pw.ForeignKeyField(Game, backref="followers", on_delete="CASCADE")
    email = pw.CharField(max_length=254)
    #: in the follower's links, so that a link of an unfollowed (deleted) row never
    #: works for a later one that got its id
    key = pw.CharField(max_length=32, default=lambda: uuid.uuid4().hex)
    language = pw.CharField(max_length=8, default="en")
    #: who asked: a keyed hash of the client's address, for the daily limit
    client_key = pw.CharField(max_length=32, null=True, index=True)
    #: when a click from the mailbox confirmed it; nothing but the request goes out before
    confirmed_at = pw.DateTimeField(null=True)
    #: the moves (``Game.seq``) the follower has been told of
    told_seq = pw.IntegerField(default=0)
    #: when the next digest is due; ``None`` before the confirmation and after the game
    #: ended (its last digest told the result).  The tick finds digests by it alone
    digest_due = pw.DateTimeField(null=True, index=True)
    created_at = pw.DateTimeField(default=utcnow, index=True)

    class Meta:
        indexes = ((("game", "email"), True),)


class JoinAsk(BaseModel):
    """Someone asked for an open seat of a game under an address (``pbem.lifecycle.join``):
    kept for the daily limit of the client that asked."""

    game = pw.ForeignKeyField(Game, backref="join_asks", on_delete="CASCADE")
    email = pw.CharField(max_length=254)
    #: a keyed hash of the client's address
    client_key = pw.CharField(max_length=32, null=True)
    created_at = pw.DateTimeField(default=utcnow)

    class Meta:
        indexes = ((("client_key", "created_at"), False),)


# the lobby's open games: the few seats still open to anyone, whatever the seats of all games
# (``Seat.index`` is the seat's column, so the index is made from its fields)
Seat.add_index(Seat.game, name="seat_open_to_all",
               where=Seat.open_to_all & Seat.player.is_null())
class Inbound(BaseModel):
    """A mail that came in and was acted on (played, talked or answered): its key is
    written in the same transaction as what it did, so it is processed once however
    often it arrives (a retrying mail server, a crash before the mailbox was told)."""

    #: its Message-ID, or a digest of the whole message where it has none
    key = pw.CharField(max_length=200, unique=True)
    sender = pw.CharField(max_length=254, index=True)
    #: indexed: the tick forgets old rows (``replies.forget_old``) by it
    received_at = pw.DateTimeField(default=utcnow, index=True)
    #: played, talked, refused
    outcome = pw.CharField(max_length=16)
    #: whether an answer was queued (answers to one address are bounded per hour)
    answered = pw.BooleanField(default=False)


class Drawn(BaseModel):
    """The table as one reader's "your move" mail showed it: its picture (SVG) and its
    words (``render_text``), under a digest of what names that table for that reader
    (``pbem.mail.picture.picture_key``: the game's thread key, move number, menu
    versions, the viewer, the names, the language).  The mail is written by the tick
    or by whatever began the turn; the confirm page of its link is served by another
    process and would draw the same table again: it reads it here (one row per game
    and viewer, the latest; the game's rows go when it ends).  Pictures drawn by an
    older pbem stay until the next move: the mail shows that drawing too.  ``choices``:
    the menu the mail listed, names filled in (JSON, ``pbem.mail.picture.kept_choices``),
    from which the confirm page names the link's move without asking the game again;
    empty in a row an older pbem kept."""

    game = pw.ForeignKeyField(Game, backref="drawn", on_delete="CASCADE")
    viewer = pw.IntegerField()
    key = pw.CharField(max_length=64, unique=True)
    svg = pw.TextField()
    text = pw.TextField()
    choices = pw.TextField(default="")

    class Meta:
        indexes = ((("game", "viewer"), False),)


class RoundsDrawn(BaseModel):
    """A finished game's tables as its archive page shows them: at the setup and at the
    end of each round, each as the game's picture (SVG) and its words (``render_text``),
    with the replay's course (its rounds, scores and result: the page is made without a
    replay), compressed (``pbem.archive.drawn``: about 40 KiB a game).

    They are a pure function of the game's record, its players' names and the code that
    replays and draws it, which ``fingerprint`` names: the archive writes the row when it
    first renders the game's page (the build at the game's end), and every later build
    whose fingerprint is the same reads it instead of drawing every round again; a row of
    another fingerprint (new drawing code, a renamed player) is drawn again and replaced.
    """

    game = pw.ForeignKeyField(Game, primary_key=True, backref="rounds_drawn",
                              on_delete="CASCADE")
    fingerprint = pw.CharField(max_length=64)
    tables = pw.BlobField()


_SEATS_OF = Prepared(Seat, lambda game_id: (
    Seat.select(Seat, Player).join(Player, pw.JOIN.LEFT_OUTER)
    .where(Seat.game == game_id).order_by(Seat.index)), 1)

MODELS: list[type[BaseModel]] = [Player, Game, Seat, Move, Notice, Talk, Note, Rating,
                                  RatingChange, Outbox, Blocked, Follower, JoinAsk, Inbound,
                                  Drawn, RoundsDrawn]


#: connections a process keeps open between requests (each thread holds one at a time)
POOL_SIZE = 32
#: a pooled connection unused this long is closed rather than handed out again
POOL_STALE_SECONDS = 300
#: how long a request waits for a connection when all ``POOL_SIZE`` are in use (more
#: threads than connections: ``pbem serve`` starts a thread per request, and a client's
#: next request can arrive before the last one's thread has handed its connection back)
#: before it fails with ``playhouse.pool.MaxConnectionsExceeded``
POOL_WAIT_SECONDS = 30


def open_database(url: str) -> pw.Database:
    """Connect the deferred database to ``url`` (SQLite in WAL mode by default).

    Connections are pooled: closing one at the end of a request hands it back, so
    the next request does not pay for a new connection (on SQLite, closing the last
    connection of a WAL database also checkpoints it).
    """
    from playhouse.pool import PooledPostgresqlDatabase, PooledSqliteDatabase

    if isinstance(db.obj, PooledSqliteDatabase | PooledPostgresqlDatabase):
        db.obj.close_all()  # a database opened again (tests, commands): drop the old pool
    global _writer
    if _writer is not None:  # a database opened again: its old lock file is let go
        _writer.close()
    if url.startswith("sqlite:"):
        from pathlib import Path

        path = url.split("sqlite:///", 1)[-1]
        on_disk = bool(path) and path != ":memory:"
        if on_disk:
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        database: pw.Database = PooledSqliteDatabase(
            path,
            pragmas={"journal_mode": "wal", "foreign_keys": 1, "busy_timeout": 10_000,
                     "synchronous": "normal"},
            check_same_thread=False, max_connections=POOL_SIZE,
            stale_timeout=POOL_STALE_SECONDS, timeout=POOL_WAIT_SECONDS,
        )
        _writer = _SqliteWriter(f"{path}.writer" if on_disk else None)
    else:
        if url.startswith(("postgres://", "postgresql://")):
            url = "postgresql+pool://" + url.split("://", 1)[1]
        options = {"options": _lock_timeout_option(url)}
        database = connect(url, max_connections=POOL_SIZE, stale_timeout=POOL_STALE_SECONDS,
                           timeout=POOL_WAIT_SECONDS, **options) if "+pool://" in url else (
            connect(url, **options))
        _writer = None
    db.initialize(database)
    return database


def _lock_timeout_option(url: str) -> str:
    """The connection's ``options``: every wait for a row lock (``lock_row``) gives up
    after ``LOCK_TIMEOUT_SECONDS``, set once per connection rather than once per
    transaction (a statement on every move); options the URL gives come first."""
    from urllib.parse import parse_qs, urlsplit

    given = parse_qs(urlsplit(url).query).get("options", [])
    return " ".join([*given, f"-c lock_timeout={int(LOCK_TIMEOUT_SECONDS * 1000)}"])


class _SqliteWriter:
    """One SQLite writer at a time, handed over without sleeping.

    SQLite lets one transaction write; a second one that finds the database
    locked sleeps and retries (its busy timeout), and under load the sleeps add
    up.  Writers queue here instead: threads of a process on a lock, processes
    (web workers, a cron tick) on a ``flock`` of a file beside the database; the
    kernel wakes the next one the moment the lock is released.
    """

    def __init__(self, path: str | None):
        self.lock = threading.RLock()
        self.path = path
        self.depth = 0
        self.fd: int | None = None

    @contextmanager
    def hold(self) -> Iterator[None]:
        with self.lock:
            if self.depth == 0 and self.path is not None:
                if self.fd is None:
                    self.fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o600)
                fcntl.flock(self.fd, fcntl.LOCK_EX)
            self.depth += 1
            try:
                yield
            finally:
                self.depth -= 1
                if self.depth == 0 and self.fd is not None:
                    fcntl.flock(self.fd, fcntl.LOCK_UN)

    def close(self) -> None:
        """Let go of the lock file, unless a writer holds it now (then it stays open
        with its holder, as a file of a process that ends does)."""
        with self.lock:
            if self.depth == 0 and self.fd is not None:
                os.close(self.fd)
                self.fd = None


_writer: _SqliteWriter | None = None


def create_tables() -> None:
    """Create the tables, or bring the tables of an older pbem up to these models.

    Only additions: a column is never dropped or renamed here (but for the seed,
    which was an integer and is text now), so an older pbem's data stays readable.
    """
    from playhouse.migrate import PostgresqlMigrator, SqliteMigrator

    database = db.obj
    migrator = (SqliteMigrator(database) if isinstance(database, pw.SqliteDatabase)
                else PostgresqlMigrator(database))
    existing = set(database.get_tables())
    sqlite = isinstance(database, pw.SqliteDatabase)
    if sqlite and not database.in_transaction():
        # SQLite adds a NOT NULL column by making the table anew and dropping the old
        # one, and dropping a table deletes its rows first: with foreign keys on, that
        # would delete every seat, move and mail of every game through their ON DELETE
        # CASCADE. SQLite's own advice for such changes: foreign keys off meanwhile.
        database.pragma("foreign_keys", 0)
        try:
            _bring_up_to_date(database, migrator, existing)
        finally:
            database.pragma("foreign_keys", 1)
        return
    _bring_up_to_date(database, migrator, existing)


def _bring_up_to_date(database: pw.Database, migrator: Any, existing: set[str]) -> None:
    from playhouse.migrate import migrate

    for model in MODELS:
        table = model._meta.table_name
        if table not in existing:
            model.create_table(safe=True)
            continue
        columns = {c.name: c.data_type.lower() for c in database.get_columns(table)}
        if model is Game and not any(t in columns.get("seed", "char") for t in ("char", "text")):
            _seed_to_text(database, migrator)
        for field in model._meta.sorted_fields:
            if field.column_name in columns:
                continue
            with database.atomic():
                migrate(migrator.add_column(table, field.column_name, field))
            if field is Game.thread_key:  # one key per game, not one for all
                for row in Game.select(Game.id):
                    Game.update(thread_key=uuid.uuid4().hex).where(Game.id == row.id).execute()
            if field is Seat.talk_waiting_since and Talk._meta.table_name in existing:
                talk_waiting_from_log()
            if field is Game.aside_seq:
                asides_from_log(existing)
        model._schema.create_indexes(safe=True)


def talk_waiting_from_log(*where: Any) -> int:
    """Set ``Seat.talk_waiting_since`` of the seats ``where`` names (all, without) from
    the talk itself: each seat's oldest message of others it has not been mailed.

    For table talk written before the column existed, and for a reader who can be
    mailed again (back from a bot, mail turned on); one statement, however many seats.
    """
    oldest = (Talk.select(pw.fn.MIN(Talk.created_at))
              .where(Talk.game == Seat.game, Talk.id > Seat.talk_mailed,
                     Talk.seat != Seat.index))
    with db.atomic():
        return (Seat.update(talk_waiting_since=oldest)
                .where(Seat.player.is_null(False), Seat.bot == False, *where)  # noqa: E712
                .execute())


def asides_from_log(tables: set[str]) -> None:
    """``Game.aside_seq`` of every game from its notices and talk (for a database from
    before the column, whose default would say "none")."""
    with db.atomic():
        for model, seq in ((Notice, Notice.seq), (Talk, Talk.after_move_seq)):
            if model._meta.table_name not in tables:
                continue
            latest = model.select(pw.fn.MAX(seq)).where(model.game == Game.id)
            (Game.update(aside_seq=latest)
             .where(Game.aside_seq < latest).execute())


def _seed_to_text(database: pw.Database, migrator: Any) -> None:
    """Seeds were 31-bit integers; they are text now (an integer seed replays the same)."""
    from playhouse.migrate import migrate

    with database.atomic():
        if isinstance(database, pw.PostgresqlDatabase):
            database.execute_sql("ALTER TABLE game ALTER COLUMN seed TYPE VARCHAR(64) "
                                 "USING seed::text")
            return
        # SQLite keeps the INTEGER affinity of a column: copy into a new text column
        migrate(migrator.rename_column("game", "seed", "seed_int"))
        migrate(migrator.add_column("game", "seed", pw.CharField(max_length=64, default="")))
        database.execute_sql("UPDATE game SET seed = CAST(seed_int AS TEXT)")
        migrate(migrator.drop_column("game", "seed_int"))


def drop_tables() -> None:
    kwargs = {"cascade": True} if isinstance(db.obj, pw.PostgresqlDatabase) else {}
    db.drop_tables(MODELS, safe=True, **kwargs)


#: how long a transaction waits for a row another one holds (PostgreSQL) before it
#: gives up: a web request answers "busy", a tick leaves the row for the next tick
LOCK_TIMEOUT_SECONDS = 10


def lock_row(model: type[BaseModel], row_id: int) -> Any:
    """The row of ``model`` with ``row_id`` (or ``None``), locked against other writers
    until the transaction ends.

    PostgreSQL takes a row lock (``SELECT … FOR UPDATE``), waiting at most
    ``LOCK_TIMEOUT_SECONDS`` (the connection's ``lock_timeout``, set by
    ``open_database``; then ``peewee.OperationalError``); SQLite has one
    writer already (``write_transaction`` begins ``IMMEDIATE``, within its
    ``busy_timeout``), so the read is enough there.
    """
    sqlite = isinstance(db.obj, pw.SqliteDatabase)
    if type(row_id) is int:  # the SQL built once per model (``pbem.sqlcache``)
        key = (model, sqlite)
        if key not in _LOCKS:
            _LOCKS[key] = Prepared(model, lambda i: _lock_query(model, i, sqlite), 1)
        return _LOCKS[key].first(row_id)
    return _lock_query(model, row_id, sqlite).get_or_none()


def _lock_query(model: type[BaseModel], row_id: Any, sqlite: bool) -> pw.ModelSelect:
    query = model.select().where(model.id == row_id)
    return query if sqlite else query.for_update()


_LOCKS: dict[tuple[type[BaseModel], bool], Prepared] = {}


def table_of(game_id: int, lock: bool = False, note_of: int | None = None,
             drawn_of: int | None = None, state: bool = True
             ) -> tuple[Game | None, list[Seat]]:
    """The game and its seats in table order, each with its player, in one statement:
    every page and move behind a link reads both, and a round trip saved there is saved
    on every click.  With ``lock``, the game row is locked as ``lock_row`` locks it.
    ``note_of``: the seat whose private note comes along (its seat page shows it:
    ``pbem.lifecycle.notes.read``); no other seat's note is read.  ``drawn_of``: the
    seat whose kept table (``Drawn``) comes along, as ``drawn_key``, ``drawn_svg``,
    ``drawn_text`` and ``drawn_choices`` of its row (``None`` where none is kept; the
    confirm page of a turn mail's link shows it: ``pbem.mail.picture.kept_table``).
    Without ``state`` the game comes without its state (not read, not decoded:
    ``Game.state`` is None, and saving the game leaves the stored one as it is), for a
    caller that has it already.

    The game's columns come with every seat's row, but its state (the one large value)
    only with the first seat's (``_table_query``): it is read and decoded once, and the
    game's other columns are made into one model from the first row (``Prepared``'s
    ``shared``).  A game without seats (none is made so) is read on its own.

    PostgreSQL locks first, in a statement of its own: a ``FOR UPDATE`` that waited for
    another move returns the locked row as that move left it, but the joined rows (the
    seats) as they were before it (its snapshot), so the table is read after the lock."""
    asked = tuple(v for v in (note_of, drawn_of) if v is not None)
    if type(game_id) is not int or any(type(v) is not int for v in asked):
        raise TypeError(f"a game and a seat are whole numbers, not {game_id!r}, {asked!r}")
    if lock and not isinstance(db.obj, pw.SqliteDatabase) and not _GAME_LOCK.rows(game_id):
        return None, []
    kind = (note_of is not None, drawn_of is not None, state)
    if kind not in _TABLES:
        _TABLES[kind] = Prepared(
            Seat, lambda *values: _table_query(*values, with_note=kind[0], with_drawn=kind[1],
                                               with_state=kind[2]),
            1 + len(asked), shared=(Game,))
    seats = _TABLES[kind].rows(game_id, *asked)
    if not seats or seats[0].index != 0:
        game = lock_row(Game, game_id) if lock else Game.get_or_none(Game.id == game_id)
        seats = Seat.of(game) if game is not None else []
        for seat in seats if note_of is not None else ():
            note = Note.get_or_none(Note.seat == seat.id) if seat.index == note_of else None
            seat.note_text = note.text if note is not None else None
        for seat in seats if drawn_of is not None else ():  # none read: drawn afresh
            seat.drawn_key = seat.drawn_svg = seat.drawn_text = seat.drawn_choices = None
        return game, seats
    game = seats[0].game
    if state:  # set as read, not as changed: saving the game writes only what a change set
        game.__data__["state"] = Game.state.python_value(seats[0].table_state)
    for seat in seats:
        seat.__rel__["game"] = game  # one game object for the whole table
    return game, seats


#: the game's columns that every seat's row carries; its state rides on the first only
_GAME_COLUMNS = [f for f in Game._meta.sorted_fields if f.name != "state"]


def _table_query(game_id: Any, *seats: Any, with_note: bool, with_drawn: bool,
                 with_state: bool = True) -> pw.ModelSelect:
    """``table_of``'s statement; ``seats``: the seat whose note comes along, then the
    seat whose kept table does, each if asked."""
    note_of, drawn_of = (seats[0] if with_note else None), seats[-1] if with_drawn else None
    columns = [Seat, Player, *_GAME_COLUMNS]
    if with_state:
        columns.append(pw.Case(None, [(Seat.index == 0, Game.state)]).alias("table_state"))
    if with_note:
        columns.append(pw.Case(None, [(Seat.index == note_of, Note.text)])
                       .alias("note_text"))
    if with_drawn:
        # each as a value of the seat's row (a field of ``Drawn`` would make a model)
        columns += [pw.Case(None, [(Seat.index == drawn_of, field)]).alias(f"drawn_{name}")
                    for name, field in (("key", Drawn.key), ("svg", Drawn.svg),
                                        ("text", Drawn.text), ("choices", Drawn.choices))]
    query = (Seat.select(*columns)
             .join(Player, pw.JOIN.LEFT_OUTER).switch(Seat).join(Game))
    if with_note:
        query = query.switch(Seat).join(Note, pw.JOIN.LEFT_OUTER, on=(Note.seat == Seat.id))
    if with_drawn:  # that one seat's row alone: the others' pictures are never read
        query = query.switch(Seat).join(Drawn, pw.JOIN.LEFT_OUTER, on=(
            (Drawn.game == Seat.game) & (Drawn.viewer == Seat.index)
            & (Seat.index == drawn_of)))
    return query.where(Seat.game == game_id).order_by(Seat.index)


#: ``table_of``'s prepared statements, by whether a seat's note, its kept table and the
#: game's state come
_TABLES: dict[tuple[bool, bool, bool], Prepared] = {}
#: the game's row locked, and nothing read (PostgreSQL: ``table_of``)
_GAME_LOCK = Prepared(Game, lambda game_id: (
    Game.select(Game.id).where(Game.id == game_id).for_update()), 1)


@contextmanager
def write_transaction() -> Iterator[Any]:
    """A transaction that takes the write lock at once.

    On SQLite a deferred transaction that reads and then writes fails with
    "database is locked" when another writer got in between; ``BEGIN
    IMMEDIATE`` makes the second writer wait and then read fresh rows, and
    the writers queue on ``_SqliteWriter`` rather than in SQLite's busy loop.
    PostgreSQL uses row locks (``SELECT … FOR UPDATE``) instead.
    """
    if isinstance(db.obj, pw.SqliteDatabase):
        with (_writer.hold() if _writer is not None else nullcontext()):
            with db.atomic("IMMEDIATE") as transaction:
                yield transaction
    else:
        with db.atomic() as transaction:
            yield transaction
