"""A graceful stop waits for the moves in flight, and for nothing else."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import pytest

from bot.config import load_settings
from bot.games import maya
from bot.storage import open_repository
from bot.table import Table, TableRunner


@pytest.fixture
async def tables(tmp_path) -> AsyncIterator[TableRunner]:
    repository = await open_repository(f"sqlite:///{tmp_path}/g.db")
    opened = TableRunner(repository, load_settings({}))
    yield opened
    await opened.close()


async def open_table(tables: TableRunner, channel: int, *, cpu: int = 0) -> Table:
    rules = maya.Rules.for_preset("vies", vies=1)
    return await tables.open(
        kind="maya",
        guild_id=1,
        channel_id=channel,
        starter=10,
        rules=rules,
        lang="fr",
        cpu_count=cpu,
    )


async def test_the_drain_waits_for_the_move_in_flight(tables: TableRunner) -> None:
    busy, idle = await open_table(tables, 1), await open_table(tables, 2)
    finished: list[str] = []

    async def move() -> None:
        async with busy.lock:
            await asyncio.sleep(0.05)  # the write and the telling of a move
            finished.append("move")

    in_flight = asyncio.create_task(move())
    await asyncio.sleep(0)  # the move holds its table's lock
    assert await tables.drain(5.0)
    assert finished == ["move"] and in_flight.done()
    assert not busy.lock.locked() and not idle.lock.locked()


async def test_the_drain_gives_up_on_a_move_that_never_ends(tables: TableRunner) -> None:
    stuck = await open_table(tables, 1)
    await stuck.lock.acquire()
    assert not await tables.drain(0.05)
    stuck.lock.release()


async def test_once_draining_no_cpu_turn_is_armed(tables: TableRunner) -> None:
    table = await open_table(tables, 1, cpu=1)
    table.players = [-1, 10]  # the CPU opens
    await tables.start(table)
    table.state = maya.new_game(table.players, table.rules)
    assert table.current == -1
    assert await tables.drain(1.0)
    async with table.lock:
        tables.schedule(table)
    assert table.timer is None  # the CPU would have been set to play
