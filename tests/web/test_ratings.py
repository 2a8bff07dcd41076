"""Ratings (issue 26, item 3): openskill's Weng-Lin model, a rating per player per game
kind, updated in the transaction that ends a game, the bots rated apart, a game decided
by timeouts or a dropped player marked; ``pbem ratings`` rates every game again in finish
order, idempotent."""

from __future__ import annotations

import shutil

import pytest
from browser_support import live_server, needs_browser
from click.testing import CliRunner
from openskill.models import PlackettLuce
from web_helpers import finish, player, table

from pbem.archive import build, paths, site_dir
from pbem.cli import main
from pbem.lifecycle import create, ratings
from pbem.mail import compose
from pbem.models import Game, Move, Player, Rating, RatingChange, Seat, shown_rating
from pbem.web import create_app
from pbem.web.mine import signed
from pbem.web.play import path_of


@pytest.fixture
def cli(tmp_path, monkeypatch, sqlite_database):
    """``pbem`` on the test's own database (the ``ctx`` fixture's instance folder)."""
    monkeypatch.setenv("PBEM_SERVER_INSTANCE", str(tmp_path / "instance"))
    monkeypatch.setenv("PBEM_SERVER_BASE_URL", "http://pbem.test")
    monkeypatch.setenv("PBEM_ARCHIVE_SITE_DIR", str(tmp_path / "site"))
    monkeypatch.setenv("PBEM_DATABASE_URL", "")
    monkeypatch.delenv("DATABASE_URL", raising=False)
    runner = CliRunner()
    return lambda *args: runner.invoke(main, list(args), catch_exceptions=False)


def _changes(game: Game) -> list[RatingChange]:
    return list(RatingChange.select().where(RatingChange.game == game.id)
                .order_by(RatingChange.seat))


def test_a_finished_game_moves_its_players_ratings_by_their_places(ctx, database):
    game = finish(ctx, table(ctx, humans=3))
    ranks = game.result["ranks"]
    changes = _changes(game)
    assert [c.rank for c in changes] == ranks
    assert all(c.marked == "" and c.kind == "visby" for c in changes)
    # the model's own answer for three newcomers with these places
    model = PlackettLuce()
    expected = model.rate([[model.rating()] for _ in ranks], ranks=ranks)
    for change, [want] in zip(changes, expected, strict=True):
        assert (change.mu_before, change.sigma_before) == (model.mu, model.sigma)
        assert abs(change.mu_after - want.mu) < 1e-9
        assert abs(change.sigma_after - want.sigma) < 1e-9
    best = min(range(3), key=lambda i: ranks[i])
    worst = max(range(3), key=lambda i: ranks[i])
    assert changes[best].mu_after > model.mu > changes[worst].mu_after
    for change in changes:
        rating = Rating.get(Rating.player == change.player_id, Rating.kind == "visby")
        assert (rating.mu, rating.sigma, rating.games) == (change.mu_after,
                                                           change.sigma_after, 1)
        assert rating.shown == shown_rating(change.mu_after, change.sigma_after)
    # a second call changes nothing
    assert ratings.rate(Game.get_by_id(game.id), Seat.of(game)) == []
    assert RatingChange.select().count() == 3


def test_the_bots_are_rated_apart_and_the_next_game_starts_from_the_last(ctx, database):
    first = finish(ctx, table(ctx, humans=2, bots=1))
    bot = Rating.get(Rating.who == "bot", Rating.kind == "visby")
    assert bot.player_id is None and bot.games == 1
    assert Rating.select().where(Rating.player.is_null(False)).count() == 2
    alice = player("alice@example.org", "Alice")
    second = create.create_game(ctx, "visby", alice, [None], seed=9)
    second = finish(ctx, second)
    [mine, bots] = _changes(second)
    before = [c for c in _changes(first) if c.player_id == alice.id][0]
    assert (mine.mu_before, mine.sigma_before) == (before.mu_after, before.sigma_after)
    assert (bots.who, bots.mu_before) == ("bot", bot.mu)
    assert Rating.get(Rating.who == "bot").games == 2


def test_timeouts_and_a_dropped_player_are_marked(ctx, database):
    timed_out = finish(ctx, table(ctx, humans=2))
    dropped = finish(ctx, table(ctx, humans=2, seed=6))
    Move.update(kind=Move.TIMEOUT).where(Move.game == timed_out.id, Move.seq == 2).execute()
    Seat.update(bot=True).where(Seat.game == dropped.id, Seat.index == 1).execute()
    assert ratings.marked(timed_out, Seat.of(timed_out)) == ratings.TIMEOUTS
    assert ratings.marked(dropped, Seat.of(dropped)) == ratings.DROPPED
    rated, changed = ratings.rebuild()
    assert rated == 2 and changed
    assert {c.marked for c in _changes(timed_out)} == {"timeouts"}
    assert {c.marked for c in _changes(dropped)} == {"dropped"}
    # the dropped player is still rated as themselves, not as a bot
    assert _changes(dropped)[1].who == f"p{Seat.of(dropped)[1].player_id}"


def test_rebuilding_rates_in_finish_order_and_twice_the_same(ctx, cli):
    games = [finish(ctx, table(ctx, humans=2, seed=seed)) for seed in (5, 6, 7)]
    as_played = [(c.game_id, c.seat, c.mu_after, c.sigma_after)
                 for c in RatingChange.select().order_by(RatingChange.id)]
    kept = sorted(as_played)
    assert ratings.rebuild() == (3, False)  # the same order: the same ratings
    assert sorted((c.game_id, c.seat, c.mu_after, c.sigma_after)
                  for c in RatingChange.select()) == kept
    # the first game is said to have ended last: its players' ratings come out otherwise
    Game.update(finished_at=games[-1].finished_at.replace(year=2099)).where(
        Game.id == games[0].id).execute()
    result = cli("ratings")
    assert result.exit_code == 0 and "rated 3 finished games" in result.output
    assert "rebuilt the archive" in result.output
    first = _changes(Game.get_by_id(games[0].id))
    assert first[0].mu_before != PlackettLuce().mu, "rated after the others"
    again = cli("ratings")
    assert "rated 3 finished games" in again.output and "rebuilt" not in again.output


def test_a_game_without_a_person_is_not_rated(ctx, database):
    alice = player("alice@example.org", "Alice")
    game = create.create_game(ctx, "visby", alice, [None], seed=3)
    Seat.update(player=None, bot=True).where(Seat.game == game.id, Seat.index == 0).execute()
    game = Game.get_by_id(game.id)
    game.status, game.result = Game.FINISHED, {"ranks": [1, 2], "scores": [1, 0]}
    assert ratings.rate(game, Seat.of(game)) == []


# -- where ratings are shown: all your games, the archive's player pages -----------------


def _my_games(client, ctx, email: str):
    return client.get(path_of(compose.my_games_url(ctx, Player.get(Player.email == email))))


def test_all_your_games_shows_the_change_and_the_ratings(client, ctx):
    game = finish(ctx, table(ctx, humans=2, bots=1))
    alice = RatingChange.get(RatingChange.game == game.id, RatingChange.seat == 0)
    page = _my_games(client, ctx, "alice@example.org").text
    words = (f"Rating {alice.before:.1f} → {alice.after:.1f} "
             f"({signed(alice.after - alice.before)})")
    assert words in page
    assert "Your ratings" in page
    assert f"Visby: {alice.after:.1f} after 1 game" in page
    bots = Rating.get(Rating.who == "bot")
    assert f"(the bots: {bots.shown:.1f})" in page
    Move.update(kind=Move.TIMEOUT).where(Move.game == game.id, Move.seq == 1).execute()
    ratings.rebuild()
    assert "decided partly by timeouts" in _my_games(client, ctx, "alice@example.org").text


def test_all_your_games_speaks_german_about_ratings(client, ctx):
    finish(ctx, table(ctx, humans=2))
    Player.update(language="de").where(Player.email == "bob@example.org").execute()
    page = _my_games(client, ctx, "bob@example.org").text
    assert "Wertung 0,0 → " in page and "Deine Wertungen" in page
    assert "nach 1 Partie" in page


def test_the_archive_shows_ratings_on_the_player_pages(ctx, database):
    game = finish(ctx, table(ctx, humans=2, bots=1))
    build(site_dir(ctx), site_key=ctx.base_url)
    alice = Player.get(Player.email == "alice@example.org")
    change = RatingChange.get(RatingChange.game == game.id, RatingChange.player == alice.id)
    page = (site_dir(ctx) / f"{paths.player_page(alice.id)}.md").read_text()
    assert f"- Rating at Visby: {change.after:.1f} after 1 rated game" in page
    assert "| Rating after |" in page
    assert f"| {change.after:.1f} ({change.after - change.before:+.1f}) |" in page
    players = (site_dir(ctx) / f"{paths.PLAYERS_INDEX}.md").read_text()
    assert "## Ratings" in players and "### Visby" in players
    assert f"The bots: {Rating.get(Rating.who == 'bot').shown:.1f} after 1 rated game." \
        in players
    html = (site_dir(ctx) / f"{paths.player_page(alice.id)}.html").read_text()
    assert "Rating at Visby" in html
    # a game decided by timeouts is marked there once the ratings are rebuilt
    Move.update(kind=Move.TIMEOUT).where(Move.game == game.id, Move.seq == 1).execute()
    ratings.rebuild()
    build(site_dir(ctx), site_key=ctx.base_url, full=True)
    page = (site_dir(ctx) / f"{paths.player_page(alice.id)}.md").read_text()
    assert "(decided partly by timeouts)" in page



def _site_files(folder) -> dict[str, bytes]:
    """Every page of a site by path (not the manifest's own files, which say how a build
    came to the pages)."""
    return {str(f.relative_to(folder)): f.read_bytes() for f in sorted(folder.rglob("*"))
            if f.is_file() and not f.name.startswith(".")}


def test_new_ratings_make_the_index_pages_again_and_no_game_page(ctx, database, tmp_path):
    for seed in (5, 6):
        finish(ctx, table(ctx, humans=2, bots=1, seed=seed))
    # games imported without their ratings, archived, then rated by ``pbem ratings``
    RatingChange.delete().execute()
    Rating.delete().execute()
    build(site_dir(ctx), site_key=ctx.base_url)
    shutil.copytree(site_dir(ctx), tmp_path / "full")
    assert ratings.rebuild() == (2, True)
    report = build(site_dir(ctx), site_key=ctx.base_url, indexes=True)
    assert report.rendered_games == 0 and report.rendered_indexes > 0
    alice = Player.get(Player.email == "alice@example.org")
    page = (site_dir(ctx) / f"{paths.player_page(alice.id)}.md").read_text()
    assert "- Rating at Visby:" in page
    # the very pages a full build makes of the same database
    build(tmp_path / "full", site_key=ctx.base_url, full=True)
    assert _site_files(site_dir(ctx)) == _site_files(tmp_path / "full")

@needs_browser
def test_a_rating_changes_after_a_finished_game_at_390_pixels(ctx, sqlite_database, browser):
    first = finish(ctx, table(ctx, humans=2))
    with live_server(create_app(ctx)) as origin:
        page = browser.new_page(viewport={"width": 390, "height": 844})
        page.goto(origin + path_of(compose.my_games_url(
            ctx, Player.get(Player.email == "alice@example.org"))))
        before = page.locator("#ratings-h + p + ul li").inner_text()
        assert before.startswith("Visby: ") and "after 1 game" in before
        assert page.locator("li.game .rating").count() == 1
        second = table(ctx, humans=2, seed=6)
        assert second.id != first.id
        finish(ctx, second)
        page.reload()
        after = page.locator("#ratings-h + p + ul li").inner_text()
        assert "after 2 games" in after and after != before
        assert page.locator("li.game .rating").count() == 2
        latest = page.locator("li.game .rating").first.inner_text()
        mine = RatingChange.get(RatingChange.game == second.id, RatingChange.seat == 0)
        assert latest.startswith(f"Rating {mine.before:.1f} → {mine.after:.1f}")
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= 390, f"all your games scrolls sideways: {width}px"
