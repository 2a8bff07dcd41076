"""A reconstructed value is marked where players read it: a Riga building's help on the
seat page and in the turn mail carries ◇ and one line, in the reader's language."""

from __future__ import annotations

import html
import random

from freezegun import freeze_time
from web_helpers import latest_mail, player, seat_path

from pbem.games import get_game
from pbem.lifecycle import create, moves
from pbem.models import Game, Player, Seat

ALICE, BOB = "alice@example.org", "bob@example.org"
EN = "◇ Cost and points reconstructed: printed in no public source"
DE = "◇ Kosten und Punkte rekonstruiert: in keiner öffentlichen Quelle gedruckt"


def _riga_with_buildings_in_hand(ctx) -> Game:
    """Alice (English) and Bob (German) at a Riga table, played by bot moves until both
    hold a building in hand (its help stands under it in the table in words)."""
    alice, bob = player(ALICE, "Alice"), player(BOB, "Bob")
    Player.update(language="de").where(Player.id == bob.id).execute()
    game = create.create_game(ctx, "riga", alice, [BOB], seed=11)
    create.accept_invite(ctx, game, Seat.get(Seat.game == game, Seat.index == 1),
                         Player.get_by_id(bob.id))
    rules, rng = get_game("riga"), random.Random(5)
    for _ in range(300):
        game = Game.get_by_id(game.id)
        views = [rules.view(game.state, s) for s in (0, 1)]
        if all((v.get("hand") or {}).get("gebaeude") for v in views):
            break
        seat = rng.choice(rules.to_move(game.state))
        moves.play(ctx, game.id, seat, rules.bot_move(game.state, seat, rng))
    return Game.get_by_id(game.id)


def test_the_mark_is_in_the_card_help_of_the_seat_page_and_the_mail(ctx, client):
    with freeze_time("2026-03-02 12:00:00"):
        _riga_with_buildings_in_hand(ctx)
        for address, mark, other in ((ALICE, EN, DE), (BOB, DE, EN)):
            mail = latest_mail(address)
            assert mark in mail.text_body and other not in mail.text_body
            page = html.unescape(client.get(seat_path(mail)).text)
            assert mark in page and other not in page
