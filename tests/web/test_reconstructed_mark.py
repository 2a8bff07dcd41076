"""A reconstructed value is marked where players read it: in every game, a card or value
no source prints carries ◇ on the seat page (the card help of the picture and the menu,
the table in words) and in the turn mail, each explained in the reader's language (a
help carries its own line, the table in words ends with the sign's note once)."""

from __future__ import annotations

import html
import random

import pytest
from freezegun import freeze_time
from web_helpers import latest_mail, player, seat_path

from pbem.games import game_names, get_game
from pbem.games.datafile import MARK, note_lines
from pbem.lifecycle import create, moves
from pbem.models import Game, Player, Seat

ALICE, BOB = "alice@example.org", "bob@example.org"
EN = "◇ Cost and points reconstructed: printed in no public source"
DE = "◇ Kosten und Punkte rekonstruiert: in keiner öffentlichen Quelle gedruckt"
#: what a card's help says beside the sign, and the word of the note, per language
HELP = {"en": "reconstructed: printed in no public source",
        "de": "rekonstruiert: in keiner öffentlichen Quelle gedruckt"}
WORD = {"en": "reconstructed", "de": "rekonstruiert"}


def _table(ctx, name: str, seed: int = 11) -> Game:
    """Alice (English) and Bob (German) at a table of ``name``."""
    alice, bob = player(ALICE, "Alice"), player(BOB, "Bob")
    Player.update(language="de").where(Player.id == bob.id).execute()
    game = create.create_game(ctx, name, alice, [BOB], seed=seed)
    create.accept_invite(ctx, game, Seat.get(Seat.game == game, Seat.index == 1),
                         Player.get_by_id(bob.id))
    return Game.get_by_id(game.id)


def _play_until(ctx, game: Game, done, moves_at_most: int = 300) -> Game:
    """Bot moves for whoever is to move until ``done(game)``."""
    rules, rng = get_game(game.game), random.Random(5)
    for _ in range(moves_at_most):
        game = Game.get_by_id(game.id)
        if done(game):
            return game
        seat = rng.choice(rules.to_move(game.state))
        moves.play(ctx, game.id, seat, rules.bot_move(game.state, seat, rng))
    raise AssertionError(f"{game.game}: not done after {moves_at_most} moves")


def _both_mailed_a_mark(game: Game) -> bool:
    mails = [latest_mail(a) for a in (ALICE, BOB)]
    return all(m is not None and m.game_id == game.id and MARK in m.text_body for m in mails)


@pytest.mark.parametrize("name", game_names())
def test_every_game_marks_in_the_seat_page_and_the_mail_in_the_readers_language(
        ctx, sqlite_client, name):
    with freeze_time("2026-03-02 12:00:00"):
        _play_until(ctx, _table(ctx, name), _both_mailed_a_mark)
        for address, lang, other in ((ALICE, "en", "de"), (BOB, "de", "en")):
            mail = latest_mail(address).text_body
            assert WORD[lang] in mail and WORD[other] not in mail, (name, lang)
            page = html.unescape(sqlite_client.get(seat_path(latest_mail(address))).text)
            # the card help of the picture and the menu, in the reader's language
            assert f"{MARK} " in page and HELP[lang] in page, (name, lang)
            assert HELP[other] not in page and WORD[other] not in page, (name, lang)


@pytest.mark.parametrize("name", ["visby", "tallinn", "riga", "macao"])
def test_a_value_marked_in_the_table_in_words_has_the_note_once(ctx, sqlite_client, name):
    """Where the table in words marks a value with the sign alone, its last lines say
    what the sign means, once, in the mail and on the seat page."""
    with freeze_time("2026-03-02 12:00:00"):
        _play_until(ctx, _table(ctx, name), _both_mailed_a_mark)
        for address, lang in ((ALICE, "en"), (BOB, "de")):
            mail = latest_mail(address)
            note = "\n".join(note_lines(lang, 76 if name == "riga" else 72))
            assert mail.text_body.count(note) == 1, (name, lang)
            page = html.unescape(sqlite_client.get(seat_path(mail)).text)
            assert page.count(note) == 1, (name, lang)


def _both_hold_buildings(game: Game) -> bool:
    rules = get_game("riga")
    views = [rules.view(game.state, s) for s in (0, 1)]
    return all((v.get("hand") or {}).get("gebaeude") for v in views)


def test_riga_building_help_says_what_is_reconstructed(ctx, client):
    with freeze_time("2026-03-02 12:00:00"):
        _play_until(ctx, _table(ctx, "riga"), _both_hold_buildings)
        for address, mark, other in ((ALICE, EN, DE), (BOB, DE, EN)):
            mail = latest_mail(address)
            assert mark in mail.text_body and other not in mail.text_body
            page = html.unescape(client.get(seat_path(mail)).text)
            assert mark in page and other not in page
