"""The servers' web pages over HTTP (aiohttp's test client), on a real SQLite store: only a
page that is on is served, it shows the standings ``bot.leaderboards`` reads, names are
escaped, the language follows the browser, and nothing else is reachable."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from html import unescape
from pathlib import Path

import pytest
from aiohttp.test_utils import TestClient, TestServer

from bot import plots
from bot.games.maya.metrics import MIA_BOARD
from bot.games.yades.metrics import BOARD as YADES_BOARD
from bot.kernel.achievements import Awards, Earned
from bot.kernel.spec import Board
from bot.storage import GameResults, Repository, Season, Timer, WebPage, open_repository
from bot.web import PAGE, WAITING_PICTURES, WebServer, preferred_language

GUILD, OTHER = 1, 2
TOKEN = "k3y-0f-th3-p4g3-xxxxx"
DAY = "2026-03-10"
ROW = re.compile(
    r'<tr data-user="(\d+)"><td class="rank">(.+?)</td><td class="player">'
    r'<a href="(.+?)">(.+?)</a></td><td class="value">(.+?)</td></tr>'
)
CURRENT_GAME = re.compile(r'<a href="[^"]*" aria-current="page">(.+?)</a>')


@pytest.fixture
async def repository(tmp_path: Path) -> AsyncIterator[Repository]:
    repo = await open_repository(f"sqlite:///{tmp_path}/web.db")
    yield repo
    await repo.close()


@pytest.fixture
async def client(repository: Repository) -> AsyncIterator[TestClient]:
    server = WebServer(lambda: repository, "127.0.0.1", 0)
    async with TestClient(TestServer(server.runner.app)) as test_client:
        yield test_client


_channels = iter(range(1000, 10**6))


async def counted(
    repo: Repository,
    figures: dict[int, dict[str, float]],
    *,
    board: Board = MIA_BOARD,
    ratings: dict[int, float] | None = None,
    names: dict[int, str] | None = None,
    guild: int = GUILD,
    day: str = DAY,
    awards: Awards | None = None,
) -> None:
    game = await repo.create_game(
        guild_id=guild, channel_id=next(_channels), kind=board.name, meta={}
    )
    await repo.save_game(
        game,
        previous_version=0,
        version=1,
        status="finished",
        state={"over": True},
        meta={},
        results=GameResults(
            board, day, figures, ratings or {}, names=names or {}, awards=awards or Awards()
        ),
    )


def rows(html: str) -> list[tuple[str, str, str]]:
    """(rank, name, value) of each row of a leaderboard page."""
    return [(unescape(r[1]), unescape(r[3]), unescape(r[4])) for r in ROW.findall(html)]


def shown_game(html: str) -> str:
    """The game whose board the page shows (its link in the games' list is the current one)."""
    (game,) = CURRENT_GAME.findall(html)
    return unescape(game)


async def test_a_page_that_is_off_or_unknown_is_a_404_that_tells_nothing(
    client: TestClient, repository: Repository
) -> None:
    await counted(repository, {101: {"wins": 1, "games": 1}})
    for path in (f"/s/{TOKEN}", "/s/", "/", "/metrics", f"/s/{TOKEN}/joueur/101", "/health"):
        answer = await client.get(path)
        assert answer.status == 404, path
        assert "Page introuvable" in await answer.text()
    await repository.open_web_page(WebPage(GUILD, TOKEN, "Le bar"))
    assert (await client.get(f"/s/{TOKEN}")).status == 200
    assert (await client.get(f"/s/{TOKEN.upper()}")).status == 404
    await repository.close_web_page(GUILD)
    assert (await client.get(f"/s/{TOKEN}")).status == 404
    assert (await client.post(f"/s/{TOKEN}")).status in (404, 405)


async def test_the_board_shows_the_standings_with_names_escaped(
    client: TestClient, repository: Repository
) -> None:
    await repository.open_web_page(WebPage(GUILD, TOKEN, "Le <b>bar</b>"))
    await counted(
        repository,
        {101: {"wins": 2, "games": 3}, 102: {"wins": 1, "games": 3}, 103: {"games": 3}},
        names={101: "<script>alert(1)</script>", 102: "Bob & Co"},
    )
    await counted(repository, {104: {"wins": 9, "games": 9}}, guild=OTHER, names={104: "Elsewhere"})
    answer = await client.get(f"/s/{TOKEN}", params={"jeu": "mia", "critere": "wins"})
    html = await answer.text()
    assert answer.status == 200
    assert "<script>" not in html and "<b>bar</b>" not in html
    assert "Le &lt;b&gt;bar&lt;/b&gt;" in html
    # 103 has no win: not ranked by wins; 104 plays on another server.
    assert rows(html) == [("🥇", "<script>alert(1)</script>", "2"), ("🥈", "Bob & Co", "1")]
    assert "Mia (vies) — victoires (depuis toujours)" in unescape(html)


async def test_a_player_without_a_known_name_is_shown_by_their_ids_end(
    client: TestClient, repository: Repository
) -> None:
    await repository.open_web_page(WebPage(GUILD, TOKEN, "Le bar"))
    await counted(repository, {123456789: {"wins": 1, "games": 1}})
    html = await (await client.get(f"/s/{TOKEN}", params={"jeu": "mia"})).text()
    assert [name for _, name, _ in rows(html)] == ["Joueur n° 6789"]


async def test_without_a_game_asked_the_page_opens_on_the_one_played_last(
    client: TestClient, repository: Repository
) -> None:
    await repository.open_web_page(WebPage(GUILD, TOKEN, "Le bar"))
    # Nothing played yet: the first game's board, empty.
    html = unescape(await (await client.get(f"/s/{TOKEN}")).text())
    assert "Personne n'est encore classé ici" in html
    assert shown_game(html) == "Maya (soirée)"
    # Only Mia played here (Yadès on another server, and later): Mia's board, with its player.
    await counted(repository, {101: {"wins": 1, "games": 1}}, names={101: "Alice"})
    await counted(
        repository,
        {104: {"wins": 1, "games": 1}},
        board=YADES_BOARD,
        guild=OTHER,
        day="2026-03-12",
    )
    answer = await client.get(f"/s/{TOKEN}")
    html = unescape(await answer.text())
    assert answer.status == 200
    assert "Personne n'est encore classé ici" not in html
    assert shown_game(html) == "Mia (vies)"
    assert rows(html) == [("🥇", "Alice", "1")]
    assert "Mia (vies) — victoires (depuis toujours)" in html
    # A Yadès game the day after: the page opens on Yadès; Mia's board still when asked for.
    await counted(
        repository,
        {102: {"wins": 1, "games": 1}},
        board=YADES_BOARD,
        names={102: "Bob"},
        day="2026-03-11",
    )
    html = unescape(await (await client.get(f"/s/{TOKEN}")).text())
    assert shown_game(html) == "Yadès" and rows(html) == [("🥇", "Bob", "1")]
    html = unescape(await (await client.get(f"/s/{TOKEN}", params={"jeu": "mia"})).text())
    assert shown_game(html) == "Mia (vies)" and rows(html) == [("🥇", "Alice", "1")]
    html = unescape(await (await client.get(f"/s/{TOKEN}", params={"jeu": "maya"})).text())
    assert shown_game(html) == "Maya (soirée)"
    assert "Personne n'est encore classé ici" in html


async def test_pages_go_on_past_the_first_twenty(
    client: TestClient, repository: Repository
) -> None:
    await repository.open_web_page(WebPage(GUILD, TOKEN, "Le bar"))
    everyone = {user: {"wins": float(user - 100), "games": 1.0} for user in range(101, 126)}
    await counted(repository, everyone, names={u: f"p{u}" for u in everyone})
    first = await (await client.get(f"/s/{TOKEN}", params={"jeu": "mia"})).text()
    assert len(rows(first)) == PAGE
    assert rows(first)[0] == ("🥇", "p125", "25")
    assert "Page 1 sur 2 · 25 joueurs classés" in unescape(first)
    assert 'rel="next"' in first and 'rel="prev"' not in first
    second = await (await client.get(f"/s/{TOKEN}", params={"jeu": "mia", "page": "2"})).text()
    assert rows(second) == [(f"{n}.", f"p{126 - n}", str(26 - n)) for n in range(21, 26)]
    # A page past the last shows the last one.
    beyond = await (await client.get(f"/s/{TOKEN}", params={"jeu": "mia", "page": "9"})).text()
    assert rows(beyond) == rows(second)


async def test_a_bad_choice_in_the_address_is_a_404(
    client: TestClient, repository: Repository
) -> None:
    await repository.open_web_page(WebPage(GUILD, TOKEN, "Le bar"))
    for params in (
        {"jeu": "poker"},
        {"jeu": "mia", "critere": "sips"},
        {"quand": "hier"},
        {"quand": "s1"},  # no season yet
        {"page": "0"},
        {"page": "-1"},
        {"page": "deux"},
        {"page": "²"},  # a digit to str.isdigit, not to int()
        {"page": "1000000000000000000"},
        {"quand": "s²"},
        {"quand": "s" + "1" * 5000},
    ):
        answer = await client.get(f"/s/{TOKEN}", params=params)
        assert answer.status == 404, params
        assert "Page introuvable" in await answer.text()
    await counted(repository, {101: {"wins": 1, "games": 1}})
    for path in ("99999999999999999999", "9223372036854775808", "١٢٣"):
        answer = await client.get(f"/s/{TOKEN}/joueur/{path}")
        assert answer.status == 404, path
        assert (await client.get(f"/s/{TOKEN}/joueur/{path}.png")).status == 404, path


async def test_a_player_of_another_server_is_nobody_here(
    client: TestClient, repository: Repository
) -> None:
    await repository.open_web_page(WebPage(GUILD, TOKEN, "Le bar"))
    await counted(repository, {104: {"wins": 2, "games": 2}}, guild=OTHER, names={104: "Ailleurs"})
    assert (await client.get(f"/s/{TOKEN}/joueur/104")).status == 404
    assert (await client.get(f"/s/{TOKEN}/joueur/104.png")).status == 404


async def test_too_many_pictures_at_once_is_a_503_to_try_again(
    client: TestClient, repository: Repository, monkeypatch: pytest.MonkeyPatch
) -> None:
    await repository.open_web_page(WebPage(GUILD, TOKEN, "Le bar"))
    await counted(repository, {101: {"wins": 1, "games": 1}})
    monkeypatch.setattr(plots, "_waiting", WAITING_PICTURES)  # the queue is full
    plots._drawn.clear()
    answer = await client.get(f"/s/{TOKEN}/joueur/101.png")
    assert answer.status == 503 and answer.headers["Retry-After"] == "5"
    assert "réessaie dans quelques secondes" in await answer.text()
    assert (await client.get(f"/s/{TOKEN}/joueur/101")).status == 200  # the page itself is up


async def test_an_unexpected_failure_is_a_plain_500_page(
    client: TestClient, repository: Repository, monkeypatch: pytest.MonkeyPatch
) -> None:
    await repository.open_web_page(WebPage(GUILD, TOKEN, "Le bar"))

    async def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError("a bug")

    monkeypatch.setattr("bot.web.ranking", broken)
    answer = await client.get(f"/s/{TOKEN}")
    assert answer.status == 500
    assert answer.headers["Referrer-Policy"] == "no-referrer"
    text = await answer.text()
    assert "Traceback" not in text and "a bug" not in text and TOKEN not in text


async def test_seasons_are_offered_and_a_closed_one_ranks_its_archive(
    client: TestClient, repository: Repository
) -> None:
    await repository.open_web_page(WebPage(GUILD, TOKEN, "Le bar"))
    first = Season(1, "2026-03-01", "2026-04-01")
    await repository.open_season(GUILD, first, Timer(f"season:{GUILD}", 1.0, GUILD))
    await counted(
        repository,
        {101: {"wins": 1, "games": 1}, 102: {"games": 1}},
        ratings={101: 1016.0, 102: 984.0},
        names={101: "Alice", 102: "Bob"},
    )
    await repository.close_season(
        GUILD,
        1,
        following=Season(2, "2026-04-01", "2026-05-01"),
        timers=[],
        carry=0.5,
        initial=1000.0,
    )
    html = unescape(await (await client.get(f"/s/{TOKEN}", params={"jeu": "mia"})).text())
    assert '<option value="s2">saison 2 (01/04/2026 – 30/04/2026), en cours</option>' in html
    assert '<option value="s1">saison 1 (01/03/2026 – 31/03/2026)</option>' in html
    archived = await client.get(
        f"/s/{TOKEN}", params={"jeu": "mia", "critere": "rating", "quand": "s1"}
    )
    assert rows(await archived.text()) == [("🥇", "Alice", "1016"), ("🥈", "Bob", "984")]
    current = await client.get(
        f"/s/{TOKEN}", params={"jeu": "mia", "critere": "rating", "quand": "s2"}
    )
    assert rows(await current.text()) == []


async def test_a_players_page_lists_their_figures_and_draws_their_picture(
    client: TestClient, repository: Repository
) -> None:
    await repository.open_web_page(WebPage(GUILD, TOKEN, "Le bar"))
    await counted(
        repository,
        {101: {"wins": 1, "games": 1, "total_score": 250}, 102: {"games": 1, "total_score": 180}},
        board=YADES_BOARD,
        ratings={101: 1016.0, 102: 984.0},
        names={101: "Alice", 102: "Bob"},
        awards=Awards(earned=(Earned(101, "yades_first_roll"),)),
    )
    answer = await client.get(f"/s/{TOKEN}/joueur/101")
    html = unescape(await answer.text())
    assert answer.status == 200
    assert "📊 Alice sur Le bar" in html
    assert '<section class="card" data-game="yades">' in html
    assert "<dt>victoires</dt><dd>1</dd>" in html
    assert "<dt>classement Elo</dt><dd>1016</dd>" in html
    # The achievements held, with the day each was earned.
    (held,) = re.findall(r'<section class="achievements">(.*?)</section>', html, re.S)
    assert "<strong>Yadès sec</strong> — Faire un Yadès dès le premier lancer d'un tour." in held
    assert re.search(r"\(le \d\d/\d\d/\d{4}\)", held)
    bobs = unescape(await (await client.get(f"/s/{TOKEN}/joueur/102")).text())
    assert 'class="achievements"' not in bobs
    assert 'src="101.png"' in html and 'href="../../' + TOKEN + '"' in html
    picture = await client.get(f"/s/{TOKEN}/joueur/101.png")
    assert picture.status == 200 and picture.content_type == "image/png"
    assert (await picture.read()).startswith(b"\x89PNG")
    # Someone the server has no figure of is nobody here.
    assert (await client.get(f"/s/{TOKEN}/joueur/999")).status == 404
    assert (await client.get(f"/s/{TOKEN}/joueur/999.png")).status == 404


async def test_the_language_follows_the_browser_unless_chosen(
    client: TestClient, repository: Repository
) -> None:
    await repository.open_web_page(WebPage(GUILD, TOKEN, "The pub"))
    english = await client.get(f"/s/{TOKEN}", headers={"Accept-Language": "en-GB,en;q=0.9"})
    assert "The pub's leaderboards" in unescape(await english.text())
    french = await client.get(f"/s/{TOKEN}", headers={"Accept-Language": "fr-FR,en;q=0.5"})
    assert "Classements de The pub" in await french.text()
    chosen = await client.get(
        f"/s/{TOKEN}", params={"lang": "en"}, headers={"Accept-Language": "fr"}
    )
    assert "The pub's leaderboards" in unescape(await chosen.text())
    missing = await client.get("/nowhere", headers={"Accept-Language": "en-US"})
    assert missing.status == 404 and "Page not found" in await missing.text()


def test_the_preferred_language_weighs_the_browsers_list() -> None:
    assert preferred_language(None) == "fr"
    assert preferred_language("") == "fr"
    assert preferred_language("de-DE,en;q=0.8") == "en"
    assert preferred_language("en;q=0.4, fr;q=0.9") == "fr"
    assert preferred_language("fr;q=0, en") == "en"
    assert preferred_language("en-US,fr-FR") == "en"
    assert preferred_language("es, it;q=0.8") == "fr"
    assert preferred_language("en;q=abc, fr") == "fr"


async def test_pages_leak_their_address_nowhere_and_are_not_indexed(
    client: TestClient, repository: Repository
) -> None:
    await repository.open_web_page(WebPage(GUILD, TOKEN, "Le bar"))
    answer = await client.get(f"/s/{TOKEN}")
    assert answer.headers["Referrer-Policy"] == "no-referrer"
    assert "noindex" in answer.headers["X-Robots-Tag"]
    assert "default-src 'none'" in answer.headers["Content-Security-Policy"]
    html = await answer.text()
    assert "http://" not in html and "https://" not in html  # no resource of another site
    assert '<meta name="viewport" content="width=device-width, initial-scale=1">' in html


async def test_a_store_that_does_not_answer_is_a_503(client: TestClient) -> None:
    server = WebServer(lambda: None, "127.0.0.1", 0)
    async with TestClient(TestServer(server.runner.app)) as down:
        answer = await down.get(f"/s/{TOKEN}")
        assert answer.status == 503
        assert "Les classements ne répondent pas" in await answer.text()


async def test_a_server_the_bot_leaves_has_its_page_turned_off(
    client: TestClient, repository: Repository
) -> None:
    from types import SimpleNamespace

    from cogs.classement import ClassementCog

    await repository.open_web_page(WebPage(GUILD, TOKEN, "Le bar"))
    await repository.open_web_page(WebPage(OTHER, "another-key-of-a-page", "Le pub"))
    bot = SimpleNamespace(tables=SimpleNamespace(repository=repository))
    await ClassementCog(bot).on_guild_remove(SimpleNamespace(id=GUILD))  # type: ignore[arg-type]
    assert (await client.get(f"/s/{TOKEN}")).status == 404
    assert (await client.get("/s/another-key-of-a-page")).status == 200
