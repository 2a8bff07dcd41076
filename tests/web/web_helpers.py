"""Helpers for the web tests: links in mails, forms in pages, database snapshots."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from email.message import EmailMessage
from html.parser import HTMLParser
from urllib.parse import urlsplit

from owed_bots import table_after_owed_bots

from pbem.lifecycle import create, moves
from pbem.mail import flowed
from pbem.models import MODELS, Game, Outbox, Player, Seat, utcnow

BASE = "http://pbem.test"
_URL = re.compile(r"https?://pbem\.test/\S+")


def paths_in(text: str) -> list[str]:
    """The paths of every link to our server in a text, in order."""
    return [urlsplit(url.rstrip(".,)")).path for url in _URL.findall(text)]


def text_part(msg: EmailMessage) -> str:
    """The plain text as a reader's program shows it (format=flowed joined again)."""
    return flowed.text_of(msg.get_body(preferencelist=("plain",)))


def html_part(msg: EmailMessage) -> str:
    return msg.get_body(preferencelist=("html",)).get_content()


@dataclass
class Form:
    action: str
    method: str
    fields: dict[str, str] = field(default_factory=dict)
    button: str = ""


class _FormParser(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.forms: list[Form] = []
        self._current: Form | None = None
        self._in_button = False

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "form":
            self._current = Form(a.get("action") or "", (a.get("method") or "get").lower())
        elif self._current is not None and tag == "input" and a.get("name"):
            if a.get("type") in ("checkbox", "radio") and "checked" not in a:
                return
            self._current.fields[a["name"]] = a.get("value") or ""
        elif self._current is not None and tag == "button":
            self._in_button = True

    def handle_endtag(self, tag):
        if tag == "form" and self._current is not None:
            self.forms.append(self._current)
            self._current = None
        elif tag == "button":
            self._in_button = False

    def handle_data(self, data):
        if self._in_button and self._current is not None:
            self._current.button += data.strip()


#: one form's markup, from its start tag to its end tag (forms do not nest in HTML)
_FORM = re.compile(r"<form\b.*?</form\s*>", re.S | re.I)


def forms_in(html: str) -> list[Form]:
    """The forms of a page, each with its fields and its button's words.

    Only the forms' own markup is parsed: what lies outside every form (the table's
    picture, hundreds of SVG tags) adds no form, field or button, and Python's HTML
    parser took most of a long web test's time going through it."""
    parser = _FormParser()
    for form in _FORM.findall(html):
        parser.feed(form)
    return parser.forms


def post_form(client, form: Form, **extra: str):
    assert form.method == "post", form
    return client.post(form.action, data={**form.fields, **extra})


def move_forms(html: str) -> list[Form]:
    return [f for f in forms_in(html) if f.action.endswith("/play")]


def play_first_move(client, seat_path: str) -> bool:
    """Play the first move the seat page at ``seat_path`` offers (the page answers it
    with 303); False where it offers none."""
    forms = move_forms(client.get(seat_path).text)
    if not forms:
        return False
    assert post_form(client, forms[0]).status_code == 303
    return True


def csrf_of(html: str) -> str:
    match = re.search(r'name="csrf_token" value="([^"]+)"', html)
    assert match, "no CSRF field on the page"
    return match.group(1)


def snapshot() -> dict[str, list[tuple]]:
    """Every row of every table, for "nothing changed" comparisons."""
    result = {}
    for model in MODELS:
        columns = list(model._meta.sorted_fields)
        rows = model.select(*columns).order_by(model._meta.primary_key).tuples()
        result[model._meta.table_name] = [tuple(map(_value, row)) for row in rows]
    return result


def _value(value: object) -> str:
    # PostgreSQL hands a blob out as a memoryview, whose repr is its address: its bytes
    # are what must stay the same
    return repr(bytes(value) if isinstance(value, memoryview) else value)


def player(email: str, name: str, confirmed: bool = True) -> Player:
    """A player with no quiet hours, so mails leave at any hour the test runs, who has
    confirmed their address (their invitations go out at once) unless told otherwise."""
    return create.get_or_create_player(email, name, quiet_start="00:00", quiet_end="00:00",
                                       confirmed_at=utcnow() if confirmed else None)


def table(ctx, humans: int = 2, bots: int = 0, seed: int = 5) -> Game:
    """A started game: Alice, Bob (and Carol) who accepted their invitations, then bots."""
    people = [player(e, n) for e, n in (("alice@example.org", "Alice"),
                                         ("bob@example.org", "Bob"),
                                         ("carol@example.org", "Carol"))[:humans]]
    game = create.create_game(ctx, "visby", people[0],
                               [p.email for p in people[1:]] + [None] * bots, seed=seed)
    for index, person in enumerate(people[1:], start=1):
        create.accept_invite(ctx, game, Seat.get(Seat.game == game, Seat.index == index),
                              person)
    return Game.get_by_id(game.id)


def latest_mail(address: str, kind: str = "turn") -> Outbox:
    return (Outbox.select().where(Outbox.to_address == address, Outbox.kind == kind)
            .order_by(Outbox.id.desc()).first())


def confirm_address(client, address: str):
    """The creator opens the confirmation mail pbem sent to ``address`` and confirms."""
    mail = latest_mail(address, "confirm")
    assert mail is not None, f"no confirmation mail to {address}"
    [path] = [p for p in paths_in(mail.text_body) if p.startswith("/c/")]
    page = client.get(path)
    assert page.status_code == 200
    [form] = [f for f in forms_in(page.text) if f.action == path]
    done = post_form(client, form)
    assert done.status_code == 200 and "confirmed" in done.text
    return done


def move_paths(mail: Outbox) -> list[str]:
    return [p for p in paths_in(mail.text_body) if p.startswith("/m/")]


def seat_path(mail: Outbox) -> str:
    return next(p for p in paths_in(mail.text_body) if p.startswith("/s/"))


def finish(ctx, game: Game, seed: int = 1) -> Game:
    """Play ``game`` to its end with random moves through the service."""
    import random

    from pbem.games import get_game

    rng = random.Random(seed)
    rules = get_game(game.game)
    game, seats = table_after_owed_bots(ctx, game.id)
    while game.status == Game.ACTIVE:
        seat = rng.choice(rules.to_move(game.state))
        menu = next(s for s in seats if s.index == seat).menu_seq
        moves.play(ctx, game.id, seat, rng.choice(rules.legal_moves(game.state, seat)),
                     menu_seq=menu)
        game, seats = table_after_owed_bots(ctx, game.id)
    return Game.get_by_id(game.id)


def all_mailed_paths() -> list[str]:
    """Every link to our server in every mail ever queued, headers included, in order."""
    seen: dict[str, None] = {}
    for mail in Outbox.select().order_by(Outbox.id):
        for text in (mail.text_body, mail.html_body or "", mail.unsubscribe_url or ""):
            for path in paths_in(text.replace('"', " ").replace("<", " ").replace(">", " ")):
                seen.setdefault(path, None)
    return list(seen)


def free_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def hrefs(html: str) -> list[str]:
    """The targets of the links on a page."""
    import html as html_lib

    return [html_lib.unescape(h) for h in re.findall(r'href="([^"]*)"', html)]


def mid_game(ctx, name: str, turns: int = 14) -> Game:
    """Alice (English), Bob (German) and a bot, ``turns`` moves into a game of ``name``."""
    import random

    from pbem.games import get_game

    alice = player("alice@example.org", "Alice")
    bob = player("bob@example.org", "Bob")
    Player.update(language="de").where(Player.id == bob.id).execute()
    game = create.create_game(ctx, name, alice, [bob.email, None], seed=7)
    create.accept_invite(ctx, game, Seat.get(Seat.game == game, Seat.index == 1),
                         Player.get_by_id(bob.id))
    rules, rng = get_game(name), random.Random(3)
    for _ in range(turns):
        game, seats = table_after_owed_bots(ctx, game.id)
        if game.status != Game.ACTIVE:
            break
        seat = min(rules.to_move(game.state))
        menu = next(s for s in seats if s.index == seat).menu_seq
        moves.play(ctx, game.id, seat, rng.choice(rules.legal_moves(game.state, seat)),
                   menu_seq=menu)
    game = Game.get_by_id(game.id)
    assert game.status == Game.ACTIVE, f"{name} ended too soon for the test"
    return game
