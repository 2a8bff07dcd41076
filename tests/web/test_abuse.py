"""Nobody can use the server to mail strangers: invitations wait for the creator's
confirmed address, daily limits stop a flood with a page that says so, and every mail
to an address that has not joined offers "never mail me again", which every later
mail heeds."""

from __future__ import annotations

import pytest
from web_helpers import confirm_address, forms_in, paths_in, post_form, snapshot

from pbem.context import make_context
from pbem.mail.outbox import deliver_due
from pbem.models import Blocked, Game, Outbox, Player, utcnow
from pbem.time.scheduler import tick
from pbem.web import create_app

LIMITS = {"games_per_creator": "2", "invitations_per_creator": "5",
          "games_per_client": "3", "invitations_per_invitee": "2"}


@pytest.fixture
def limited(tmp_path, database):
    ctx = make_context(server={"instance": str(tmp_path / "instance"),
                               "base_url": "http://pbem.test"},
                       archive={"site_dir": str(tmp_path / "site")}, limits=LIMITS)
    return ctx, create_app(ctx).test_client()


def _create(client, email: str, *invited: str, name: str = "Mallory"):
    page = client.get("/new/visby")
    form = next(f for f in forms_in(page.text) if f.action == "/new/visby")
    seats = {f"seat-{i}": address for i, address in enumerate(invited, start=1)}
    return post_form(client, form, name=name, email=email, players=str(1 + len(invited)),
                     **seats)


def test_an_unconfirmed_creators_invitations_never_leave(limited):
    ctx, client = limited
    assert _create(client, "mallory@example.org", "victim@example.org").status_code == 303
    tick(ctx)
    deliver_due(ctx.config, _Sink())
    kinds = [(m.kind, m.to_address) for m in Outbox.select()]
    assert kinds == [("confirm", "mallory@example.org")]
    assert not any("victim" in m.to_address for m in Outbox.select())
    created = client.get(f"/created/{Game.get().id}")
    assert "confirm your address" in created.text
    # confirming sends them: the creator proved the address is theirs
    confirm_address(client, "mallory@example.org")
    assert [m.to_address for m in Outbox.select().where(Outbox.kind == "invite")] == [
        "victim@example.org"]
    confirm_address(client, "mallory@example.org")  # again: nothing more goes out
    assert Outbox.select().where(Outbox.kind == "invite").count() == 1


def test_a_flood_is_refused_past_the_daily_limits(limited):
    ctx, client = limited
    Player.create(email="mallory@example.org", name="Mallory", confirmed_at=utcnow())
    for n in range(2):
        assert _create(client, "mallory@example.org", f"v{n}@example.org").status_code == 303
    before = snapshot()
    third = _create(client, "mallory@example.org", "v9@example.org")
    assert third.status_code == 429
    assert "2 games in the last 24 hours" in third.text and "tomorrow" in third.text
    assert snapshot() == before  # nothing queued, nothing stored
    # another address from the same client: one more game, then the client's limit
    assert _create(client, "trudy@example.org", "w1@example.org").status_code == 303
    refused = _create(client, "oscar@example.org", "w2@example.org")
    assert refused.status_code == 429 and "from your network" in refused.text
    # one address is invited at most twice a day, whoever invites it
    other = create_app(ctx).test_client()
    environ = {"REMOTE_ADDR": "192.0.2.7"}
    for name in ("peggy", "victor"):
        page = other.get("/new/visby", environ_base=environ)
        form = next(f for f in forms_in(page.text) if f.action == "/new/visby")
        response = other.post(form.action, environ_base=environ, data={
            **form.fields, "name": name, "email": f"{name}@example.org", "players": "2",
            "seat-1": "v0@example.org"})
        expected = 303 if name == "peggy" else 429
        assert response.status_code == expected, response.text
    assert "v0@example.org has been invited 2 times" in response.text


def test_never_mail_me_again_is_offered_and_heeded(limited):
    ctx, client = limited
    Player.create(email="alice@example.org", name="Alice", confirmed_at=utcnow())
    _create(client, "alice@example.org", "stranger@example.org", name="Alice")
    invite = Outbox.get(Outbox.kind == "invite")
    assert invite.unsubscribe_url and "/never/" in invite.unsubscribe_url
    [never] = [p for p in paths_in(invite.text_body) if p.startswith("/never/")]
    assert never in (invite.html_body or "")
    # the mail provider's one-click POST needs no cookie (RFC 8058)
    stranger = create_app(ctx).test_client()
    done = stranger.post(never, data={"List-Unsubscribe": "One-Click"})
    assert done.status_code == 200
    assert Blocked.has("stranger@example.org")
    # no later mail of any kind: a new invitation is refused in words, nothing is queued
    before = Outbox.select().count()
    again = _create(client, "alice@example.org", "stranger@example.org", name="Alice")
    assert again.status_code == 400 and "never to mail them" in again.text
    assert Outbox.select().count() == before
    # and should the address create a game itself, its own mails are not sent either
    _create(stranger, "stranger@example.org", name="Stranger")
    assert not Outbox.select().where(Outbox.to_address == "stranger@example.org",
                                     Outbox.kind != "invite").exists()


def test_never_page_asks_first(limited):
    ctx, client = limited
    Player.create(email="alice@example.org", name="Alice", confirmed_at=utcnow())
    _create(client, "alice@example.org", "stranger@example.org", name="Alice")
    [never] = [p for p in paths_in(Outbox.get(Outbox.kind == "invite").text_body)
               if p.startswith("/never/")]
    page = client.get(never)
    assert page.status_code == 200 and "stranger@example.org" in page.text
    assert not Blocked.has("stranger@example.org")  # looking is not asking
    [form] = [f for f in forms_in(page.text) if f.action == never]
    assert post_form(client, form).status_code == 200
    assert Blocked.has("stranger@example.org")


class _Sink:
    """A transport that takes every mail (the test reads the outbox, not a mailbox)."""

    def send(self, message) -> None:  # noqa: D401 - the transport protocol
        pass
