"""The server's web page in a real browser (headless Chromium on a phone-sized screen),
served by the real bot: turned on and off with `/reglages web`, it shows the figures
`/classement` shows for every game, criterion, period and season, a player's figures as
`/stats` lists them with their picture, and a wrong or retired address is a 404.

Set ``GOBELET_WEB_SCREENSHOT=docs/web-page.png`` to keep the screenshot of the page
``docs/playing.md`` shows (the every-board test's Mia board, on a phone's screen)."""

from __future__ import annotations

import calendar
import os
import random
import re
import time
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from urllib.parse import urlencode

import pytest
from playwright.async_api import Page

from bot.leaderboards import BOARDS
from bot.storage import GameResults, WebPage, open_repository
from bot.storage.base import GAMES
from tests.e2e.botprocess import BotProcess
from tests.e2e.browser import browser, phone
from tests.e2e.conftest import BOT_KEY
from tests.e2e.emulator import DiscordEmulator
from tests.e2e.test_operations import free_port
from tests.e2e.test_persistence import (
    STAT_LINE,
    Game,
    footer,
    leaderboard_rows,
    private_answer,
)
from tests.e2e.test_seasons import first_of_next_month, wall
from tests.e2e.tournament_driver import (
    by_id,
    give_up,
    people,
    places,
    present,
    round_called,
    signed_up,
    started,
)
from tests.e2e.world import Channel, User

SEEDED_TOKEN = "every-figure-of-the-bar-page"
ADDRESS = re.compile(r"(http://127\.0\.0\.1:\d+/s/[A-Za-z0-9_-]{22})")


class Served:
    def __init__(self, bot: BotProcess, port: int) -> None:
        self.bot = bot
        self.base = f"http://127.0.0.1:{port}"


@pytest.fixture
async def served(
    emulator: DiscordEmulator, tmp_path: Path, database_url: str, request: pytest.FixtureRequest
) -> AsyncIterator[Served]:
    port = free_port()
    env = {
        "GOBELET_WEB_PORT": str(port),
        "GOBELET_WEB_URL": f"http://127.0.0.1:{port}",
        "GOBELET_DICE_SEED": "7031",
    }
    process = BotProcess(emulator, tmp_path, env=env, database_url=database_url)
    request.node.stash[BOT_KEY] = process
    try:
        await process.start()
        yield Served(process, port)
    finally:
        await process.stop()


async def web_rows(page: Page) -> list[tuple[int, int, str]]:
    """(rank, user id, value) of each row the page shows (every page of it)."""
    found: list[tuple[int, int, str]] = []
    while True:
        for row in await page.locator("tr[data-user]").all():
            rank = (await row.locator("td.rank").inner_text()).strip()
            medal = {"🥇": 1, "🥈": 2, "🥉": 3}.get(rank)
            user = int(await row.get_attribute("data-user") or 0)
            value = (await row.locator("td.value").inner_text()).strip()
            found.append((medal or int(rank.rstrip(".")), user, value))
        following = page.locator('a[rel="next"]')
        if not await following.count():
            return found
        await following.click()
        await page.wait_for_load_state()


async def discord_rows(
    emulator: DiscordEmulator, user: User, channel: Channel, options: dict[str, object]
) -> list[tuple[int, int, str]]:
    shown = await (await emulator.slash(user, channel, "classement", options)).reply()
    return leaderboard_rows(shown)


async def show(page: Page, *, metric: str | None = None, when: str | None = None) -> None:
    if metric is not None:
        await page.select_option("select[name=critere]", metric)
    if when is not None:
        await page.select_option("select[name=quand]", when)
    async with page.expect_navigation():
        await page.get_by_role("button", name="Afficher").click()


async def fits_the_screen(page: Page) -> bool:
    return bool(
        await page.evaluate("document.documentElement.scrollWidth <= window.innerWidth + 1")
    )


async def test_the_page_shows_what_classement_shows_and_only_while_it_is_on(
    emulator: DiscordEmulator, served: Served
) -> None:
    bot = served.bot
    alice, bob, carol = emulator.user("alice"), emulator.user("bob"), emulator.user("carol")
    comptoir = emulator.channel("bar", "comptoir")

    # Two seasons: a game in the first, the month turns, a game in the second.
    first = Game(emulator, comptoir, [alice, bob, carol])
    await first.open(lives=1)
    await first.play_to_the_end()
    ends = first_of_next_month(datetime.fromtimestamp(wall(emulator), UTC).date())
    await bot.kill()
    emulator.travel(calendar.timegm(ends.timetuple()) + 3600 - wall(emulator))
    await bot.start()
    second = Game(emulator, comptoir, [alice, bob])
    await second.open(lives=1)
    await second.play_to_the_end()

    # Off until a manager turns it on; the answer gives its address.
    turned_on = await private_answer(emulator, carol, comptoir, "reglages web", {"activer": True})
    (address,) = ADDRESS.findall(turned_on.text)
    assert turned_on.text.startswith("🌐 The server's web page is on: ")

    async with browser() as launched, phone(launched) as page:
        answer = await page.goto(address)
        assert answer is not None and answer.status == 200
        assert await page.title() == "Classements de bar"
        assert await fits_the_screen(page)
        # Nobody plays Maya (party) here: the page opens on the game played last, Mia.
        assert await page.locator("nav.games a[aria-current=page]").inner_text() == "Mia (vies)"
        assert "Personne n'est encore classé ici" not in await page.inner_text("main")
        assert await page.locator("tr[data-user]").count() > 0
        await page.get_by_role("link", name="Maya (soirée)").click()
        await page.wait_for_load_state()
        assert "Personne n'est encore classé ici" in await page.inner_text("main")
        await page.get_by_role("link", name="Mia (vies)").click()
        await page.wait_for_load_state()
        assert await page.locator("nav.games a[aria-current=page]").inner_text() == "Mia (vies)"

        # Every criterion, every period and both seasons: the page's figures are Discord's.
        criteria = await page.locator("select[name=critere] option").evaluate_all(
            "options => options.map(o => o.value)"
        )
        assert criteria[0] == "wins" and criteria[-1] == "rating"
        whens = await page.locator("select[name=quand] option").evaluate_all(
            "options => options.map(o => o.value)"
        )
        assert whens == ["semaine", "mois", "tout", "s2", "s1"]
        compared = 0
        for metric in criteria:
            for when in whens:
                await show(page, metric=metric, when=when)
                options: dict[str, object] = {"jeu": "mia", "critere": metric}
                if when in ("semaine", "mois", "tout"):
                    options["periode"] = when
                else:
                    options["saison"] = int(when.removeprefix("s"))
                expected = await discord_rows(emulator, alice, comptoir, options)
                assert await web_rows(page) == expected, (metric, when)
                compared += bool(expected)
        assert compared >= len(criteria)  # not a comparison of empty boards

        # A player's page: their /stats figures, and their picture.
        await show(page, metric="wins", when="tout")
        first = page.locator("tr[data-user] td.player a").first
        user = int(await page.locator("tr[data-user]").first.get_attribute("data-user") or 0)
        await first.click()
        await page.wait_for_load_state()
        stats = await (await emulator.slash(alice, comptoir, "stats", {"joueur": user})).reply()
        mia = next(f for f in stats.embeds[0]["fields"] if f["name"] == "Mia (vies)")
        listed = [STAT_LINE.match(line).groups() for line in mia["value"].splitlines()]  # type: ignore[union-attr]
        card = page.locator('section.card[data-game="mia"]')
        labels = await card.locator("dt").all_inner_texts()
        values = await card.locator("dd").all_inner_texts()
        assert list(zip(labels, values, strict=True)) == listed
        loaded = await page.locator("img.picture").evaluate("image => image.naturalWidth")
        assert loaded > 500
        assert await fits_the_screen(page)

        # A wrong address, then the page turned off: 404.
        wrong = await page.goto(address[:-3] + "xyz")
        assert wrong is not None and wrong.status == 404
        assert "Page introuvable" in await page.inner_text("main")
        off = await private_answer(emulator, carol, comptoir, "reglages web", {"activer": False})
        assert off.text == "🌐 The server's web page is off: its address leads nowhere now."
        gone = await page.goto(address)
        assert gone is not None and gone.status == 404
        # Turned on again with a new address: the old one stays dead.
        again = await private_answer(
            emulator, carol, comptoir, "reglages web", {"activer": True, "nouvelle_adresse": True}
        )
        (renewed,) = ADDRESS.findall(again.text)
        assert renewed != address
        assert (await page.goto(address)).status == 404  # type: ignore[union-attr]
        assert (await page.goto(renewed)).status == 200  # type: ignore[union-attr]


async def test_an_english_browser_reads_the_page_in_english(
    emulator: DiscordEmulator, served: Served
) -> None:
    dave = emulator.user("dave")
    general = emulator.channel("pub", "general")
    turned_on = await private_answer(emulator, dave, general, "reglages web", {"activer": True})
    (address,) = ADDRESS.findall(turned_on.text)
    async with browser() as launched, phone(launched, locale="en-GB") as page:
        await page.goto(address)
        assert await page.title() == "pub's leaderboards"
        assert "Nobody is ranked here yet" in await page.inner_text("main")
        await page.get_by_role("link", name="Français").click()
        await page.wait_for_load_state()
        assert await page.title() == "Classements de pub"


@pytest.fixture
async def seeded(
    emulator: DiscordEmulator, tmp_path: Path, database_url: str, request: pytest.FixtureRequest
) -> AsyncIterator[Served]:
    """The bot on a database holding figures of every board over several periods (and the
    page on), as years of play would have left them."""
    guild = emulator.guild("bar").id
    rng = random.Random(1414)
    today = datetime.fromtimestamp(time.time(), UTC).date()
    players = list(range(900_001, 900_031))  # 30: the page's second page, Discord's third
    repository = await open_repository(database_url)
    try:
        for board in BOARDS.values():
            for days_ago in (0, 3, 12, 45):
                figures: dict[int, dict[str, float]] = {}
                for player in rng.sample(players, 12):
                    mine = {GAMES: float(rng.randint(1, 4))}
                    for metric in board.metrics:
                        mine[metric.column] = float(rng.choice((0, 0, 1, 2, 3, 7, 12, 25)))
                    figures[player] = mine
                game = await repository.create_game(
                    guild_id=guild, channel_id=rng.randint(1, 10**9), kind=board.name, meta={}
                )
                ratings = {p: 1000.0 + rng.randint(-200, 200) for p in figures}
                await repository.save_game(
                    game,
                    previous_version=0,
                    version=1,
                    status="finished",
                    state={"over": True},
                    meta={},
                    results=GameResults(
                        board,
                        (today - timedelta(days=days_ago)).isoformat(),
                        figures,
                        ratings,
                        names={p: f"joueur {p % 100}" for p in figures},
                    ),
                )
        await repository.open_web_page(WebPage(guild, SEEDED_TOKEN, "bar"))
    finally:
        await repository.close()
    port = free_port()
    env = {"GOBELET_WEB_PORT": str(port), "GOBELET_WEB_URL": f"http://127.0.0.1:{port}"}
    process = BotProcess(emulator, tmp_path, env=env, database_url=database_url)
    request.node.stash[BOT_KEY] = process
    try:
        await process.start()
        yield Served(process, port)
    finally:
        await process.stop()


async def test_every_board_criterion_and_period_shows_the_figures_classement_shows(
    emulator: DiscordEmulator, seeded: Served
) -> None:
    alice = emulator.user("alice")
    comptoir = emulator.channel("bar", "comptoir")
    compared = 0
    async with browser() as launched, phone(launched) as page:
        for game, board in BOARDS.items():
            for metric in board.criteria:
                for when in ("tout", "mois", "semaine"):
                    query = urlencode({"jeu": game, "critere": metric, "quand": when})
                    answer = await page.goto(f"{seeded.base}/s/{SEEDED_TOKEN}?{query}")
                    assert answer is not None and answer.status == 200
                    shown = await web_rows(page)
                    options = {"jeu": game, "critere": metric, "periode": when}
                    expected = await every_discord_row(emulator, alice, comptoir, options)
                    assert shown == expected, (game, metric, when)
                    compared += len(expected)
        if os.environ.get("GOBELET_WEB_SCREENSHOT"):
            query = urlencode({"jeu": "mia", "critere": "wins", "quand": "tout"})
            await page.goto(f"{seeded.base}/s/{SEEDED_TOKEN}?{query}")
            await page.screenshot(path=os.environ["GOBELET_WEB_SCREENSHOT"])
    # Hundreds of figures, means with decimals and fewest-first boards among them.
    assert compared > 1000


async def every_discord_row(
    emulator: DiscordEmulator, user: User, channel: Channel, options: dict[str, object]
) -> list[tuple[int, int, str]]:
    """Every row of a `/classement`, paging with ▶ to the last page."""
    shown = await (await emulator.slash(user, channel, "classement", options)).reply()
    rows = leaderboard_rows(shown)
    while any(b.label == "▶" and not b.disabled for b in shown.buttons):
        before = footer(shown)
        await (await emulator.click(user, shown, label="▶")).response()
        await emulator.wait_for(
            lambda was=before: footer(shown) != was,  # type: ignore[misc]
            what="the next page",
        )
        rows += leaderboard_rows(shown)
    return rows


def channel_bracket(text: str) -> list[list[int | None]]:
    """Each round's match winners as the channel's bracket tells them, in order (None: not
    decided, or nobody)."""
    rounds: list[list[int | None]] = []
    section = text.split("__Tableau__", 1)[1].split("__Classement__", 1)[0]
    for line in section.splitlines():
        if re.fullmatch(r"\*\*(Ronde \d+|Finale)\*\*", line):
            rounds.append([])
        elif "→" in line:
            after = re.findall(r"<@(\d+)>", line.split("→", 1)[1].split("(forfait")[0])
            rounds[-1].append(int(after[0]) if after else None)
        elif "exempt" in line:
            rounds[-1].append(int(re.findall(r"<@(\d+)>", line)[0]))
        elif line.strip():
            rounds[-1].append(None)
    return rounds


async def test_a_tournaments_bracket_and_standings_on_the_page_are_the_channels(
    emulator: DiscordEmulator, served: Served
) -> None:

    patron = emulator.user("patron")
    comptoir = emulator.channel("bar", "comptoir")
    players = people(emulator, 5)
    known = by_id(players)
    s1, s2, s3, s4, s5 = (p.id for p in players)
    bracket = {"jeu": "yades", "format": "single_elimination"}
    tournament, _ = await signed_up(emulator, patron, comptoir, bracket, players)
    await (await emulator.slash(patron, comptoir, "tournoi commencer")).reply()
    # Five players: seeds 1, 2 and 3 have a bye, 4 plays 5, who is removed: a forfeit.
    (opening,) = await round_called(emulator, tournament, 1, 1)
    assert opening.players == [s4, s5]
    await (await emulator.slash(patron, comptoir, "tournoi retirer", {"joueur": known[s5]})).reply()
    for number, tables, losers in ((2, 2, {s4, s2}), (3, 1, {s1})):
        for check_in in await round_called(emulator, tournament, number, tables):
            await present(emulator, check_in, [known[p] for p in check_in.players])
            await started(emulator, check_in)
            (loser,) = set(check_in.players) & losers
            await give_up(emulator, "yades", check_in, known[loser])
    won = await emulator.wait_message(comptoir, containing="remporte le tournoi", timeout=20)
    told_places = places(won)
    told_bracket = channel_bracket(won.text)
    assert told_places[0] == (1, s3)
    assert told_bracket == [[s1, s4, s2, s3], [s1, s3], [s3]]

    turned_on = await private_answer(emulator, patron, comptoir, "reglages web", {"activer": True})
    (address,) = ADDRESS.findall(turned_on.text)
    async with browser() as launched, phone(launched) as page:
        await page.goto(address)
        await page.get_by_role("link", name="Tournois").first.click()
        await page.wait_for_load_state()
        await page.locator(f'a[href*="tournois/{tournament}"]').first.click()
        await page.wait_for_load_state()
        assert await fits_the_screen(page)
        shown = [
            (
                int(await row.get_attribute("data-place") or 0),
                int(await row.get_attribute("data-player") or 0),
            )
            for row in await page.locator("section.standings tr[data-player]").all()
        ]
        assert shown == told_places
        drawn: list[list[int | None]] = []
        for section in await page.locator("section.round").all():
            winners = []
            for match in await section.locator("article.match").all():
                winner = await match.get_attribute("data-winner")
                winners.append(int(winner) if winner else None)
            drawn.append(winners)
        assert drawn == told_bracket
        forfeited = page.locator("section.bracket li.forfeited")
        assert await forfeited.count() == 1
        assert await forfeited.get_attribute("data-player") == str(s5)
