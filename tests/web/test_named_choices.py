"""A menu's label may name a seat ("Make {1} start player"): the seat page, the
confirm page and the turn mail show the player's name there, escaped, never the
placeholder."""

from __future__ import annotations

import pytest
from games.draw_game import Ziehen

from pbem.games import registered
from pbem.games.protocol import Choice
from pbem.games.render import named_choices
from pbem.lifecycle import create
from pbem.models import Game, Outbox, Seat
from pbem.web import create_app


class ZiehenMitNamen(Ziehen):
    """Ziehen whose step names the next seat in its label and help."""

    name = "ziehen-namen"

    def menu(self, state, seat, lang="en"):
        other = f"{{{1 - seat}}}"
        return [Choice(c.move, f"{c.label} (then {other})", c.group, f"{other} waits")
                if c.move == "step" else c for c in super().menu(state, seat, lang)]


@pytest.fixture
def game_rules():
    rules = ZiehenMitNamen()
    with registered(rules):
        yield rules


def test_named_choices_fill_names_as_plain_text():
    choices = [Choice("a", "Make {1} start player", "g", "{0} chose"), Choice("b", "Plain")]
    filled = named_choices(choices, ["Alex", "<b>Bo</b>"])
    assert filled[0].label == "Make <b>Bo</b> start player"  # escaped where shown
    assert filled[0].help == "Alex chose" and filled[1] is choices[1]


def test_pages_and_mails_show_the_name_in_a_label(ctx, database, game_rules):
    alice = create.get_or_create_player("alice@example.org", "Alice")
    bob = create.get_or_create_player("bob@example.org", "<i>Bob</i>")
    game = create.create_game(ctx, "ziehen-namen", alice, ["bob@example.org"], seed="tide")
    create.accept_invite(ctx, game, Seat.get(Seat.game == game, Seat.index == 1), bob)
    game = Game.get_by_id(game.id)
    mail = Outbox.get(Outbox.kind == "turn", Outbox.to_address == "alice@example.org")
    assert "(then <i>Bob</i>)" in mail.text_body and "{1}" not in mail.text_body
    assert "(then &lt;i&gt;Bob&lt;/i&gt;)" in mail.html_body

    from web_helpers import move_paths, seat_path
    client = create_app(ctx).test_client()
    seat_page = client.get(seat_path(mail)).text
    assert "(then &lt;i&gt;Bob&lt;/i&gt;)" in seat_page and "{1}" not in seat_page
    assert "&lt;i&gt;Bob&lt;/i&gt; waits" in seat_page
    [step] = [p for p in move_paths(mail)][:1]
    confirm = client.get(step).text
    assert "(then &lt;i&gt;Bob&lt;/i&gt;)" in confirm and "{1}" not in confirm
