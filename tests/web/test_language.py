"""Mails in the player's own language: German from the catalog, English otherwise.

Bob reads German and Alice English at the same table; the game's own words
(the view, the move names) read the same for both.  Players choose the
language on their seat settings and when they accept an invitation.
"""

from __future__ import annotations

import re
from datetime import datetime, timedelta

import jinja2
from freezegun import freeze_time
from web_helpers import (
    confirm_address,
    csrf_of,
    forms_in,
    latest_mail,
    paths_in,
    player,
    post_form,
    seat_path,
    table,
)

from pbem.context import TEMPLATES_DIR
from pbem.games import get_game
from pbem.i18n import DEFAULT, LANGUAGES, catalog_path, phrase, say
from pbem.lifecycle import create, moves
from pbem.mail import compose, flowed
from pbem.mail.outbox import SMTPTransport, build_message, deliver_due
from pbem.models import Game, Outbox, Player, Seat
from pbem.time import vacation
from pbem.time.scheduler import tick

ALICE, BOB = "alice@example.org", "bob@example.org"
START = datetime(2026, 3, 2, 12, 0)  # a Monday; with days_per_move = 3 the deadline is Thursday


def _players(bob_language: str = "de") -> None:
    """Alice (English, the default) and Bob in ``bob_language``, before the game starts."""
    player(ALICE, "Alice")
    bob = player(BOB, "Bob")
    Player.update(language=bob_language).where(Player.id == bob.id).execute()


def _language(ctx, mail: Outbox) -> str:
    return build_message(mail, ctx.config)["Content-Language"]


#: the subject of every mail of the game once it has started, in every language
THREAD = "Visby #1 — Alice, Bob"


def said(mail: Outbox) -> str:
    """What a mail of a game's thread is: its body's first line, in the reader's words."""
    assert mail.subject == THREAD, mail.subject
    return mail.text_body.splitlines()[0]


def _mails(address: str) -> list[Outbox]:
    return list(Outbox.select().where(Outbox.to_address == address).order_by(Outbox.id))


@freeze_time(START)
def test_a_german_player_reads_german_and_an_english_one_english(ctx, database, smtp_server):
    _players()
    table(ctx)
    bob, alice = latest_mail(BOB), latest_mail(ALICE)

    assert said(bob) == "Visby #1: du bist am Zug"
    assert "in Visby #1 wählen alle gleichzeitig" in bob.text_body
    assert "Deine Züge (jeder Link fragt nach" in bob.text_body
    assert "Bitte zieh bis Do 05.03.2026, 12:00 (UTC)." in bob.text_body
    assert '<html lang="de">' in bob.html_body and "<h3>Deine Züge</h3>" in bob.html_body
    assert "Du bekommst diese Mail, weil du Visby #1 auf pbem spielst." in bob.html_body
    assert _language(ctx, bob) == "de"

    assert said(alice) == "Visby #1: your move"
    assert "Everyone chooses at the same time in Visby #1" in alice.text_body
    assert "Please move by Thu 05 Mar 2026, 12:00 (UTC)." in alice.text_body
    assert '<html lang="en">' in alice.html_body and "<h3>Your moves</h3>" in alice.html_body
    assert "Deine" not in alice.text_body + alice.html_body
    assert _language(ctx, alice) == "en"

    # the view's text and the menu are in each reader's language, card names as printed
    assert "Deine Hand:" in bob.text_body and "Your hand:" not in bob.text_body
    assert "Your hand:" in alice.text_body
    assert re.search(r"^  \d+\. Ritter ausspielen", bob.text_body, re.M)
    assert re.search(r"^  \d+\. Play Ritter", alice.text_body, re.M)
    assert "ausspielen" not in alice.text_body
    assert said(latest_mail(BOB, "notice")) == "Visby #1 hat begonnen"
    assert said(latest_mail(ALICE, "notice")) == "Visby #1 has started"
    # Bob played here before the invitation, so it came in his language
    assert latest_mail(BOB, "invite").subject == "Alice lädt dich zu Visby #1 ein"

    # and the header arrives over real SMTP
    deliver_due(ctx.config, SMTPTransport(smtp_server.host, smtp_server.port))
    [received] = [m for m in smtp_server.to(BOB) if m["Message-ID"] == bob.message_id]
    assert received["Content-Language"] == "de"
    assert received["Subject"] == THREAD
    assert flowed.text_of(received.get_body(preferencelist=("plain",))).splitlines()[0] == (
        "Visby #1: du bist am Zug")


@freeze_time(START)
def test_a_language_we_have_no_mails_in_falls_back_to_english(ctx, database):
    _players(bob_language="fr")  # stored before it was checked, or edited by hand
    table(ctx)
    bob = latest_mail(BOB)
    assert said(bob) == "Visby #1: your move"
    assert "Please move by Thu 05 Mar 2026" in bob.text_body
    assert '<html lang="en">' in bob.html_body and _language(ctx, bob) == "en"


def test_a_string_not_translated_yet_reads_in_english_and_the_rest_in_german(ctx):
    templates = jinja2.DictLoader({
        "mail/hello.txt": '{{ _("Hello %(name)s,", name=name) }} {{ _("Brand new words") }} '
                          "({{ lang }})",
        "mail/hello.html": "<p>{{ _('Hello %(name)s,', name=name) }} ({{ lang }})</p>",
    })
    ctx.text.loader = ctx.html.loader = templates
    assert compose.render_mail(ctx, "hello", "de", name="Bob") == (
        "Hallo Bob, Brand new words (de)", "<p>Hallo Bob, (de)</p>")
    # a language we cannot write in is English, and says so
    assert compose.render_mail(ctx, "hello", "fr", name="<b>") == (
        "Hello <b>, Brand new words (en)", "<p>Hello &lt;b&gt;, (en)</p>")


def test_every_language_players_may_choose_has_a_catalog_and_one_template_per_mail():
    folder = TEMPLATES_DIR / "mail"
    kinds = {p.name.split(".")[0] for p in folder.glob("*.txt") if not p.name.startswith("_")}
    assert {"invite", "started", "turn", "reminder", "timeout", "notice", "result",
            "digest"} <= kinds
    for kind in kinds:
        assert (folder / f"{kind}.html").exists(), kind
    # no German copies of the templates any more: their words are in the catalog
    assert not list(folder.glob("*.*.txt")) and not list(folder.glob("*.*.html"))
    for lang in set(LANGUAGES) - {DEFAULT}:
        assert catalog_path(lang).is_file(), lang
        assert say(phrase("{title}: your move", title="X"), lang) != "X: your move", lang


def test_reminders_timeouts_and_notices_come_in_each_players_language(ctx, database):
    _players()
    rules = get_game("visby")
    with freeze_time(START) as frozen:
        game = table(ctx)
        while 0 in rules.to_move(Game.get_by_id(game.id).state):  # Alice chooses, Bob not
            state = Game.get_by_id(game.id).state
            moves.play(ctx, game.id, 0, rules.legal_moves(state, 0)[0],
                         menu_seq=Seat.get(Seat.game == game, Seat.index == 0).menu_seq)
        # a reminder at half time, the deadline and its grace period, the default move
        for later in (timedelta(hours=36, minutes=1), timedelta(days=3, minutes=1),
                      timedelta(days=3, hours=12, minutes=2)):
            frozen.move_to(START + later)
            tick(ctx)
        vacation.start(ctx, Player.get(Player.email == ALICE).id, 1, START + later)

    subjects = [said(m) for m in _mails(BOB) if m.kind != "invite"]
    assert any(s.startswith("Visby #1: noch ") and s.endswith(" für deinen Zug")
               for s in subjects)
    assert "Visby #1: deine Zeit ist abgelaufen" in subjects
    assert "Visby #1: ein Standardzug für dich" in subjects
    assert "Visby #1: Alice ist im Urlaub" in subjects
    grace = next(m for m in _mails(BOB)
                 if m.text_body.splitlines()[0].endswith("deine Zeit ist abgelaufen"))
    assert "Eine Nachfrist von 12 Stunden hat begonnen" in grace.text_body
    assert "Wenn du bis Fr 06.03.2026, 00:01 (UTC) ziehst" in grace.text_body
    # the default move as the game's German menu says it, not its notation ("play …")
    assert re.search(r"^\(\S+ ausspielen\) für dich gespielt", grace.text_body, re.M)
    assert "(play " not in grace.text_body
    # the clock's words too
    assert "Wenn die Zeit um ist, erfahren es alle" in grace.text_body
    reminder = next(m for m in _mails(BOB) if m.kind == "reminder")
    assert "eine Erinnerung: Dein Zug in Visby #1 ist bis Do 05.03.2026" in reminder.text_body
    assert "Du hast noch 1 Tag 11 Stunden (3 Tage pro Zug)." in reminder.text_body
    for mail in _mails(BOB):
        assert _language(ctx, mail) == "de", mail.subject

    subjects = [said(m) for m in _mails(ALICE) if m.kind != "confirm"]
    assert "Visby #1: Bob ran out of time" in subjects
    assert "Visby #1: default move for Bob" in subjects
    for mail in _mails(ALICE):
        assert _language(ctx, mail) == "en", mail.subject


def test_a_german_digest(ctx, database):
    _players()
    Player.update(digest=True).where(Player.email == BOB).execute()
    with freeze_time(START) as frozen:
        table(ctx)
        frozen.move_to(START + timedelta(hours=12, minutes=1))  # Bob's morning: midnight
        tick(ctx)
    digest = latest_mail(BOB, "digest")
    assert digest.subject == "Deine tägliche Übersicht: du bist in 1 Spiel am Zug"
    assert "du bist am Zug in:\n" in digest.text_body
    assert "Visby #1: bis Do 05.03.2026, 12:00 (UTC)" in digest.text_body
    assert "Mo 02.03.2026, 12:00 (UTC): Visby #1: du bist am Zug" in digest.text_body
    assert "<title>pbem: dein Tag (1 am Zug)</title>" in digest.html_body
    assert _language(ctx, digest) == "de"


def test_an_invitation_reads_in_the_invited_players_language_else_the_hosts(ctx, database):
    _players(bob_language="en")
    carol = player("carol@example.org", "Carol")
    Player.update(language="de").where(Player.id == carol.id).execute()
    create.create_game(ctx, "visby", Player.get_by_id(carol.id),
                        [BOB, "dora@example.org"], seed=1)
    assert latest_mail(BOB, "invite").subject == "Carol invites you to Visby #1"
    dora = latest_mail("dora@example.org", "invite")  # nobody yet: Carol's language
    assert dora.subject == "Carol lädt dich zu Visby #1 ein"
    assert "Um deinen Platz einzunehmen, öffne diesen Link:" in dora.text_body
    assert _language(ctx, dora) == "de"


# -- choosing the language -------------------------------------------------------------


def _settings_form(client, path: str):
    page = client.get(path + "/settings")
    assert page.status_code == 200
    assert '<option value="de" lang="de">Deutsch</option>' in page.text
    [form] = [f for f in forms_in(page.text) if f.action.endswith("/settings")]
    return form, page


def test_the_settings_page_chooses_the_language_and_refuses_others(ctx, client):
    table(ctx)
    path = seat_path(latest_mail(BOB))
    form, page = _settings_form(client, path)
    saved = post_form(client, form, timezone="UTC", mail="on", language="de")
    assert saved.status_code == 303
    assert Player.get(Player.email == BOB).language == "de"
    assert '<option value="de" lang="de" selected>' in client.get(path + "/settings").text
    for bogus in ("fr", "de-DE", "x" * 500, "'><script>"):
        refused = client.post(path + "/settings", data={
            "csrf_token": csrf_of(page.text), "timezone": "UTC", "language": bogus})
        assert refused.status_code == 400, bogus
        assert 'data-reason="bad-form"' in refused.text
        assert "schreiben wir keine Mails" in refused.text  # Bob reads German now
        assert "<script>" not in refused.text
    assert Player.get(Player.email == BOB).language == "de"
    # a form without the field (an older page) leaves the language as it is
    post_form(client, form, timezone="UTC")
    assert Player.get(Player.email == BOB).language == "de"


@freeze_time(START)
def test_the_invitation_page_chooses_the_language_and_refuses_others(client, app):
    page = client.get("/new/visby")
    form = next(f for f in forms_in(page.text) if f.action == "/new/visby")
    post_form(client, form, name="Alice", email=ALICE, players="2", **{"seat-1": BOB})
    confirm_address(client, ALICE)
    invite = latest_mail(BOB, "invite")
    assert invite.subject == "Alice invites you to Visby #1"  # Alice reads English
    [path] = [p for p in paths_in(invite.text_body) if p.startswith("/i/")]
    bob = app.test_client()
    page = bob.get(path, headers={"Accept-Language": "de-AT,de;q=0.9,en;q=0.5"})
    assert '<option value="de" lang="de" selected>Deutsch</option>' in page.text
    [form] = [f for f in forms_in(page.text) if f.action == path]

    refused = post_form(bob, form, name="Bob", timezone="UTC", language="tlh")
    assert refused.status_code == 400 and 'data-reason="bad-form"' in refused.text
    assert Player.get_or_none(Player.email == BOB) is None  # nothing was taken
    assert Seat.get(Seat.index == 1).player_id is None

    joined = post_form(bob, form, name="Bob", timezone="UTC", language="de")
    assert joined.status_code == 303
    assert Player.get(Player.email == BOB).language == "de"
    assert said(latest_mail(BOB, "notice")) == "Visby #1 hat begonnen"
    assert said(latest_mail(BOB)) == "Visby #1: du bist am Zug"
    assert said(latest_mail(ALICE)) == "Visby #1: your move"
