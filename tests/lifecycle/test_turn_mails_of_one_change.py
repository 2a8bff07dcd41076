"""The turn mails one change queues for several seats (Visby's next round begins for
every seat at once) ask the database once for all of them which addresses are blocked
and which threads have their root (``compose.known_for``), and come out as each one
alone would: no mail to a blocked address, the first mail of a thread its root, every
later one a reply to it."""

from __future__ import annotations

from pbem.games import get_game
from pbem.lifecycle import create, moves
from pbem.mail import compose
from pbem.models import Blocked, Game, Outbox, Player, Seat

VISBY = get_game("visby")
PEOPLE = [("anna@example.org", "Anna"), ("ben@example.org", "Ben"), ("cem@example.org", "Cem")]


def _table(ctx) -> Game:
    host, *others = [create.get_or_create_player(e, n) for e, n in PEOPLE]
    game = create.create_game(ctx, "visby", host, [p.email for p in others], seed=3)
    for index, person in enumerate(others, start=1):
        create.accept_invite(ctx, game, Seat.get(Seat.game == game, Seat.index == index),
                             person)
    return Game.get_by_id(game.id)


def _play_round(ctx, game: Game) -> None:
    """Each seat plays the first card of its menu until a change begins several turns."""
    turns = Outbox.select().where(Outbox.kind == "turn").count()
    while Outbox.select().where(Outbox.kind == "turn").count() <= turns + 1:
        game = Game.get_by_id(game.id)
        seat = VISBY.to_move(game.state)[0]
        moves.play(ctx, game.id, seat, VISBY.legal_moves(game.state, seat)[0])


def test_a_change_that_begins_several_turns_mails_each_as_alone(ctx, database):
    game = _table(ctx)
    Blocked.create(email="ben@example.org")
    blocked_at = Outbox.select().count()
    _play_round(ctx, game)
    domain = compose.mail_domain(ctx)
    for address, _name in PEOPLE:
        player = Player.get(Player.email == address)
        mails = list(Outbox.select().where(Outbox.game == game, Outbox.player == player)
                     .order_by(Outbox.id))
        if address.startswith("ben"):
            # never mailed again once blocked, in one change with others or alone
            assert [m.kind for m in mails if m.id > blocked_at] == []
            continue
        turns = [m for m in mails if m.kind == "turn"]
        assert len(turns) >= 2, [m.kind for m in mails]
        root = game.thread_id(domain, player.id)
        # before the start a mail keeps a thread of its own (the table is not known yet)
        [first] = [i for i, m in enumerate(mails) if m.message_id == root]
        assert mails[first].in_reply_to is None and mails[first].kind == "notice"
        assert all(m.in_reply_to == root != m.message_id for m in mails[first + 1:])
        assert all(mails.index(m) > first for m in turns)


def test_known_for_asks_two_statements_and_tells_what_each_mail_would_ask(ctx, database):
    game = _table(ctx)
    players = [Player.get(Player.email == e) for e, _n in PEOPLE]
    Blocked.create(email="cem@example.org")
    known = compose.known_for(ctx, game, players)
    assert known.blocked == {"cem@example.org"}
    # the game's start mailed a root to every address that takes mail
    assert known.roots == {game.thread_id(compose.mail_domain(ctx), p.id) for p in players
                           if Outbox.select().where(Outbox.player == p).exists()}
    assert known.blocked == {p.email for p in players if Blocked.has(p.email)}
