"""The games' own words in the reader's language: a German player reads Visby and
Tallinn in German (the sentences of the moves, the text view of a mail, the table in
words of the HTML mail and the seat page), an English player in English, card and
estate names as printed.

The sentences are written once, when a move is recorded, in every language
(``Move.said_in``); a row recorded before that reads English.
"""

from __future__ import annotations

import html
import random
import re
from datetime import datetime, timedelta

import pytest
from freezegun import freeze_time
from web_helpers import latest_mail, player, seat_path

from pbem.games import get_game
from pbem.lifecycle import create, moves
from pbem.models import Game, Move, Notice, Outbox, Player, Seat
from pbem.time.scheduler import tick

ALICE, BOB = "alice@example.org", "bob@example.org"
START = datetime(2026, 3, 2, 12, 0)

#: per game: German words its text view (in the plain-text mail, and as the table in
#: words of pages and HTML mails) and sentences show, and English words of the game (not
#: ours) that must not reach a German reader
WORDS = {
    "visby": {
        "text": ("Deine Hand:", "Spielplan: Feldzug", "Durchgang"),
        "said": (" wählt ", " tauscht ", " beendet den Handel"),
        "english": ("Your hand", "Board:", "chooses", "cards in hand", "discard",
                    "Your cards", "trades", "seals", " goods", "round ", "Round ",
                    "Players", "is done trading", "reveals", "takes "),
        "english_says": ("Your hand:", "chooses"),
    },
    "tallinn": {
        "text": ("Deine Hand:", "Personen:", "Auslage:", "Durchgang"),
        "said": (" wählt ", " entscheidet ", " baut ", " hält "),
        "english": ("Your hand", "chooses", "in hand", "on the pile", "display:",
                    "persons", "Points", "builds", "plays ", "Round ", "round ",
                    "Players", "Displays", "card in secret", "tower"),
        "english_says": ("Your hand:", "chooses"),
    },
}


def _table(ctx, name: str) -> Game:
    """A started game of ``name``: Alice (English) and Bob (German)."""
    alice, bob = player(ALICE, "Alice"), player(BOB, "Bob")
    Player.update(language="de").where(Player.id == bob.id).execute()
    game = create.create_game(ctx, name, alice, [BOB], seed=11)
    create.accept_invite(ctx, game, Seat.get(Seat.game == game, Seat.index == 1),
                         Player.get_by_id(bob.id))
    return Game.get_by_id(game.id)


def _play(ctx, game: Game, until_round: int, seed: int = 3) -> Game:
    """Bots' moves through the service until round ``until_round`` has begun, and then
    Alice's first choice of it, so that Bob reads what happened."""
    rules = get_game(game.game)
    rng = random.Random(seed)
    for _ in range(200):
        game = Game.get_by_id(game.id)
        to_move = rules.to_move(game.state)
        if not to_move:
            break
        if rules.round(game.state) >= until_round and 0 in to_move and 1 in to_move:
            seat = 0
            moves.play(ctx, game.id, seat, rules.bot_move(game.state, seat, rng))
            break
        seat = rng.choice(to_move)
        moves.play(ctx, game.id, seat, rules.bot_move(game.state, seat, rng))
    return Game.get_by_id(game.id)


def _mail_of(address: str, game: Game, heading: str) -> Outbox:
    """The latest turn mail to ``address`` that retells moves (under ``heading``)."""
    mails = (Outbox.select().where(Outbox.to_address == address, Outbox.kind == "turn",
                                   Outbox.game == game)
             .order_by(Outbox.id.desc()))
    return next(m for m in mails if heading in m.text_body)


def _game_part(page: str) -> str:
    """The game's own part of a page or mail: the table in words, as its reader reads it."""
    found = re.findall(r'<pre class="view-text"[^>]*>(.*?)</pre>', page, re.S)
    assert len(found) == 1, "no table in words on the page"
    return html.unescape(found[0])


@pytest.mark.parametrize("name", ["visby", "tallinn"])
def test_a_german_players_turn_mail_and_seat_page_speak_the_games_german(ctx, client, name):
    words = WORDS[name]
    with freeze_time(START):
        game = _play(ctx, _table(ctx, name), until_round=3)
    bob = _mail_of(BOB, game, "Was seit deinem letzten Zug geschah")
    alice = _mail_of(ALICE, game, "What happened since your last turn")

    # the plain-text mail: history lines and the text view in German
    for word in words["text"]:
        assert word in bob.text_body, word
    recent = bob.text_body.split("Runde ")[1].split("\n\n")[0]  # what happened
    assert any(w in recent for w in words["said"]), recent
    left = [w for w in words["english"] if w in bob.text_body]
    assert not left, left
    # the HTML mail: the table in words in German
    part = _game_part(bob.html_body)
    for word in words["text"]:
        assert word in part, word
    left = [w for w in words["english"] if w in part]
    assert not left, left

    # the seat page: the table in words, the history
    page = client.get(seat_path(latest_mail(BOB))).text
    assert '<html lang="de">' in page
    part = _game_part(page)
    for word in words["text"]:
        assert word in part, word
    recent = page[page.index('<section class="recent"'):]
    recent = re.sub(r"<[^>]*>", " ", recent[:recent.index("</section>")])
    assert any(w in recent for w in words["said"]), recent
    left = [w for w in words["english"] if w in part + recent]
    assert not left, left

    # an English player reads the same game in English
    for word in words["english_says"]:
        assert word in alice.text_body, word
    assert "Deine Hand" not in alice.text_body and " wählt " not in alice.text_body
    page = client.get(seat_path(latest_mail(ALICE))).text
    assert '<html lang="en">' in page
    assert "Deine" not in _game_part(page) and " wählt " not in page


@pytest.mark.parametrize("name", ["visby", "tallinn"])
def test_every_move_is_stored_in_every_language(ctx, database, name):
    with freeze_time(START):
        game = _play(ctx, _table(ctx, name), until_round=2)
    rows = list(Move.select().where(Move.game == game))
    assert rows
    for row in rows:
        author, others = row.said_in["de"]
        assert author and others and author != row.said_author
        # a secret stays secret in German too: the others' sentence names no card
        if "in secret" in row.said_others:
            assert "verdeckt" in others
            assert not re.search(r"Karte \d|Ritter|Truppen|Schiff|Kaufmann", others), others


def test_a_row_recorded_without_german_reads_english(ctx, client):
    """A move recorded by an older pbem (no ``said_in``) shows, in English, to a German
    reader; new rows read German."""
    with freeze_time(START):
        game = _play(ctx, _table(ctx, "visby"), until_round=2)
    Move.update(said_in={}).where(Move.game == game).execute()
    page = client.get(seat_path(latest_mail(BOB))).text
    recent = page[page.index('<section class="recent"'):]
    recent = recent[:recent.index("</section>")]
    assert "chooses" in recent and " wählt " not in recent


def test_a_timeout_notice_reads_in_each_players_language(ctx, client):
    with freeze_time(START):
        game = _table(ctx, "visby")
        seat = Seat.get(Seat.game == game, Seat.index == 1)
        rules = get_game("visby")
        # Bob chooses his cards; Alice does not, and her time runs out
        while 1 in rules.to_move(Game.get_by_id(game.id).state):
            state = Game.get_by_id(game.id).state
            moves.play(ctx, game.id, 1, rules.legal_moves(state, 1)[0])
    deadline = Seat.get(Seat.game == game, Seat.index == 0).deadline
    assert deadline is not None and seat.player.language == "de"
    with freeze_time(deadline + timedelta(minutes=1)):
        tick(ctx, deadline + timedelta(minutes=1))
    told = (Outbox.select().where(Outbox.to_address == BOB, Outbox.kind == "notice")
            .order_by(Outbox.id.desc()).first())
    assert "Alice hat bis zur Frist nicht gezogen" in told.text_body, told.text_body
    assert "did not move" not in told.text_body
    notice = Notice.select().where(Notice.game == game).order_by(Notice.id.desc()).first()
    assert notice.text.startswith("{0} did not move by the deadline")
    assert notice.said_in["de"].startswith("{0} hat bis zur Frist nicht gezogen")
    # the seat pages retell it: Bob in German, Alice in English
    page = client.get(seat_path(latest_mail(BOB))).text
    assert "Alice hat bis zur Frist nicht gezogen" in page
    page = client.get(seat_path(latest_mail(ALICE))).text
    assert "Alice did not move by the deadline" in page


def test_the_new_game_page_speaks_the_games_german(client):
    for name, german in (("visby", "Siegel, mit denen das Spiel endet"),
                         ("tallinn", "Variante Turmreihenfolge")):
        page = client.get(f"/new/{name}", headers={"Accept-Language": "de"}).text
        rules = get_game(name)
        texts = rules.texts("de")
        assert german in page
        assert texts.description.split(":")[0] in page
        assert rules.description.split(":")[0] not in page
        assert texts.default_move_note[:40] in page
        english = client.get(f"/new/{name}", headers={"Accept-Language": "en"}).text
        assert german not in english and rules.options[0].label in english


def test_a_vacation_notice_reads_in_each_players_language(ctx, database):
    from pbem.time import vacation

    with freeze_time(START):
        game = _table(ctx, "visby")
        bob = Player.get(Player.email == BOB)
        vacation.start(ctx, bob.id, 2, START)
    notices = {m.to_address: m.text_body for m in Outbox.select().where(
        Outbox.kind == "notice", Outbox.game == game).order_by(Outbox.id)}
    assert "Bob ist 2 Tage im Urlaub: die Uhr steht still bis zur Rückkehr." in notices[BOB]
    assert "Bob is on vacation for 2 days: their clock stands still" in notices[ALICE]
    notice = Notice.get(Notice.game == game)
    assert notice.said_in == {"de": "{1} ist 2 Tage im Urlaub: die Uhr steht still bis zur "
                                    "Rückkehr"}
