"""Seasons: their dates, the first one begun by the first game counted, the close on its
date (a stored timer: at once after a restart when overdue) with the ratings archived and
reset, a length changed mid-season."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from datetime import date
from pathlib import Path

import pytest

from bot.config import load_settings
from bot.games import maya
from bot.games.maya.metrics import MAYA_BOARD
from bot.storage import GameResults, Rating, Season
from bot.storage.sqlite import SqliteRepository
from bot.table import Table, TableRunner
from bot.table.clock import Clock
from bot.table.seasons import (
    MONTHS_SETTING,
    end_after,
    midnight,
    podium_key,
    season_key,
)
from tests.bot.wall import FakeTime, eventually

GUILD, CHANNEL = 1, 10
A, B = 101, 102
# Noon, 15 March 2026 (UTC).
NOON = midnight("2026-03-15") + 12 * 3600


def test_a_season_ends_on_the_first_day_of_a_month() -> None:
    assert end_after(date(2026, 3, 15), 1, date(2026, 3, 15)) == date(2026, 4, 1)
    assert end_after(date(2026, 3, 1), 3, date(2026, 3, 1)) == date(2026, 6, 1)
    assert end_after(date(2026, 11, 20), 1, date(2026, 11, 20)) == date(2026, 12, 1)
    assert end_after(date(2026, 12, 2), 1, date(2026, 12, 2)) == date(2027, 1, 1)
    assert end_after(date(2026, 12, 2), 12, date(2026, 12, 2)) == date(2027, 12, 1)
    # Begun long ago (the bot was down): it ends on the first boundary still ahead.
    assert end_after(date(2026, 1, 1), 1, date(2026, 3, 15)) == date(2026, 4, 1)
    assert end_after(date(2026, 1, 1), 3, date(2026, 4, 1)) == date(2026, 7, 1)


def test_midnight_is_the_days_start_in_utc() -> None:
    assert midnight("1970-01-02") == 86400
    assert midnight("2026-04-01") - midnight("2026-03-31") == 86400


def tables_on(repository: SqliteRepository, wall: FakeTime) -> TableRunner:
    clock = Clock(repository, now=wall.now, sleep=wall.sleep)
    return TableRunner(
        repository, load_settings({"GOBELET_DICE_SEED": "3"}, dotenv=False), clock=clock
    )


@pytest.fixture
def wall() -> FakeTime:
    return FakeTime(NOON)


@pytest.fixture
async def tables(tmp_path: Path, wall: FakeTime) -> AsyncIterator[TableRunner]:
    made = tables_on(await SqliteRepository.open(tmp_path / "seasons.db"), wall)
    yield made
    await made.close()


async def a_game_counted(tables: TableRunner, channel: int = CHANNEL) -> Table:
    """A two-player game stopped after its start: counted, and rated."""
    table = await tables.open(
        kind="maya",
        guild_id=GUILD,
        channel_id=channel,
        starter=A,
        rules=maya.Rules.for_preset("vies"),
        lang="fr",
    )
    await tables.join_lobby(table, B)
    await tables.start(table)
    async with table.lock:
        await tables.stop(table)
    return table


async def test_the_first_game_counted_begins_the_servers_first_season(tables: TableRunner) -> None:
    assert await tables.repository.seasons(GUILD) == []
    await a_game_counted(tables)
    assert await tables.repository.seasons(GUILD) == [Season(1, "2026-03-15", "2026-04-01")]
    timer = tables.clock.get(season_key(GUILD))
    assert timer is not None and timer.due == midnight("2026-04-01")
    assert timer.payload == {"season": 1}
    assert timer in await tables.repository.timers()
    await a_game_counted(tables, CHANNEL + 1)  # one season, whatever the games
    assert len(await tables.repository.seasons(GUILD)) == 1


async def test_figures_from_before_seasons_belong_to_the_first(
    tables: TableRunner, wall: FakeTime
) -> None:
    await tables.repository.save_guild_settings(GUILD, {MONTHS_SETTING: 3})
    # A figure of the previous release, on 2 February: the first season begins that day.
    game = await tables.repository.create_game(guild_id=GUILD, channel_id=5, kind="maya", meta={})
    await tables.repository.save_game(
        game,
        previous_version=0,
        version=1,
        status="finished",
        state=None,
        meta={},
        results=GameResults(MAYA_BOARD, "2026-02-02", {A: {"wins": 1}}, {}),
    )
    season = await tables.seasons.current(GUILD)
    assert season == Season(1, "2026-02-02", "2026-05-01")


async def test_a_season_closes_on_its_date_and_the_next_begins(
    tables: TableRunner, wall: FakeTime
) -> None:
    await a_game_counted(tables)
    (rated,) = await tables.repository.player_ratings(GUILD, A)
    before = (await tables.repository.player_ratings(GUILD, A))[rated]
    await tables.clock.start()
    wall.advance(midnight("2026-04-01") - NOON - 1)
    for _ in range(50):
        await asyncio.sleep(0)
    assert len(await tables.repository.seasons(GUILD)) == 1  # not before its time
    wall.advance(1)

    async def closed() -> bool:
        return len(await tables.repository.seasons(GUILD)) == 2

    await eventually(closed, "the season closed")
    assert await tables.repository.seasons(GUILD) == [
        Season(1, "2026-03-15", "2026-04-01", True),
        Season(2, "2026-04-01", "2026-05-01"),
    ]
    after = (await tables.repository.player_ratings(GUILD, A))[rated]
    assert after == Rating(1000 + (before.rating - 1000) / 2, 0)
    following = tables.clock.get(season_key(GUILD))
    assert following is not None and following.due == midnight("2026-05-01")
    assert tables.clock.get(podium_key(GUILD, 1)) is not None  # the announcement's turn


async def test_an_overdue_season_closes_at_once_after_a_restart(
    tmp_path: Path, wall: FakeTime
) -> None:
    first = tables_on(await SqliteRepository.open(tmp_path / "restart.db"), wall)
    await a_game_counted(first)
    await first.close()
    wall.advance(40 * 86400)  # down for 40 days: 24 April
    second = tables_on(await SqliteRepository.open(tmp_path / "restart.db"), wall)
    try:
        await second.clock.start()

        async def closed() -> bool:
            return len(await second.repository.seasons(GUILD)) == 2

        await eventually(closed, "the overdue season closed")
        # The next season takes the days since, and ends on the next boundary ahead.
        assert (await second.repository.seasons(GUILD))[1] == Season(2, "2026-04-01", "2026-05-01")
    finally:
        await second.close()


async def test_a_shorter_length_ends_the_season_on_the_next_boundary_ahead(
    tables: TableRunner, wall: FakeTime
) -> None:
    await tables.repository.save_guild_settings(GUILD, {MONTHS_SETTING: 3})
    await a_game_counted(tables)
    assert (await tables.seasons.current(GUILD)).ends == "2026-06-01"
    await tables.clock.start()
    wall.advance(40 * 86400)  # 24 April: a one-month season begun in March would be over
    moved = await tables.seasons.set_length(GUILD, 1)
    assert moved == Season(1, "2026-03-15", "2026-05-01")  # not closed there and then
    for _ in range(50):
        await asyncio.sleep(0)
    assert len(await tables.repository.seasons(GUILD)) == 1


async def test_the_length_in_use_chosen_again_moves_nothing(
    tables: TableRunner, wall: FakeTime
) -> None:
    # A server that played long before seasons: its first season began on its oldest figure.
    game = await tables.repository.create_game(guild_id=GUILD, channel_id=5, kind="maya", meta={})
    await tables.repository.save_game(
        game,
        previous_version=0,
        version=1,
        status="finished",
        state=None,
        meta={},
        results=GameResults(MAYA_BOARD, "2025-01-15", {A: {"wins": 1}}, {}),
    )
    season = await tables.seasons.current(GUILD)
    assert season == Season(1, "2025-01-15", "2026-04-01")
    await tables.clock.start()
    assert await tables.seasons.set_length(GUILD, 1) == season
    for _ in range(50):
        await asyncio.sleep(0)
    assert await tables.repository.seasons(GUILD) == [season]  # still open
    timer = tables.clock.get(season_key(GUILD))
    assert timer is not None and timer.due == midnight("2026-04-01")


async def test_a_longer_length_moves_the_seasons_end(tables: TableRunner, wall: FakeTime) -> None:
    await a_game_counted(tables)
    moved = await tables.seasons.set_length(GUILD, 6)
    assert moved == Season(1, "2026-03-15", "2026-09-01")
    timer = tables.clock.get(season_key(GUILD))
    assert timer is not None and timer.due == midnight("2026-09-01")
    assert [t.due for t in await tables.repository.timers() if t.kind == "season"] == [
        midnight("2026-09-01")
    ]
    # The old date passes: nothing closes.
    await tables.clock.start()
    wall.advance(midnight("2026-04-02") - NOON)
    for _ in range(50):
        await asyncio.sleep(0)
    assert len(await tables.repository.seasons(GUILD)) == 1


async def test_a_season_timer_fired_again_closes_nothing_more(
    tables: TableRunner, wall: FakeTime
) -> None:
    await a_game_counted(tables)
    timer = tables.clock.get(season_key(GUILD))
    assert timer is not None
    wall.advance(midnight("2026-04-01") - NOON)
    await tables.seasons.close(timer)
    ratings = await tables.repository.player_ratings(GUILD, A)
    await tables.seasons.close(timer)  # a crash before its row was deleted: fired again
    assert len(await tables.repository.seasons(GUILD)) == 2
    assert await tables.repository.player_ratings(GUILD, A) == ratings


async def test_a_season_nobody_played_has_no_podium_to_announce(
    tables: TableRunner, wall: FakeTime
) -> None:
    from cogs.classement import podium_embed

    await a_game_counted(tables)
    played = await tables.repository.seasons(GUILD)
    wall.advance(midnight("2026-04-01") - NOON)
    timer = tables.clock.get(season_key(GUILD))
    assert timer is not None
    await tables.seasons.close(timer)  # season 1, played
    wall.advance(31 * 86400)
    following = tables.clock.get(season_key(GUILD))
    assert following is not None
    await tables.seasons.close(following)  # season 2, nobody played
    first, second, _ = await tables.repository.seasons(GUILD)
    assert first.number == played[0].number
    embed = await podium_embed(tables.repository, GUILD, first, "fr")
    assert embed is not None and [f.name for f in embed.fields] == ["Mia (vies)"]
    assert await podium_embed(tables.repository, GUILD, second, "fr") is None
