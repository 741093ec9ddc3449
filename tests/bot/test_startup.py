"""The bot's start-up while its database does not answer: it waits for it, asking again
after a pause that grows, and a stop ends the wait at once (the whole start against a
stalled PostgreSQL is in ``tests/e2e/test_operations.py``)."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator

import pytest

from bot.client import Gobelet
from bot.config import Settings
from bot.storage import StorageError

WAIT = 5.0  # a safety net for what must happen: never what a test measures


@pytest.fixture
async def bot() -> AsyncIterator[Gobelet]:
    made = Gobelet(Settings(token=None), sync_commands=False)
    async with made:
        yield made


async def test_the_start_asks_a_silent_database_again_after_a_pause_that_grows(
    bot: Gobelet, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    asked: list[int] = []
    monkeypatch.setattr("bot.client.backoff", lambda attempt: asked.append(attempt) or 0.0)
    failures = [StorageError("canceling statement due to statement timeout")] * 3

    async def restore() -> list[str]:
        if failures:
            raise failures.pop()
        return ["table"]

    with caplog.at_level(logging.INFO, logger="bot.client"):
        restored = await asyncio.wait_for(bot.patiently("restore the tables", restore), WAIT)
    assert restored == ["table"]
    assert asked == [0, 1, 2]  # each pause the next of bot.table.clock.RETRY_SECONDS
    warnings = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    assert len(warnings) == 3
    assert all("cannot restore the tables: the database does not answer" in w for w in warnings)


async def test_a_stop_ends_the_wait_for_the_database_even_in_the_middle_of_a_try(
    bot: Gobelet,
) -> None:
    trying = asyncio.Event()
    cancelled = asyncio.Event()

    async def stalled() -> list[str]:
        trying.set()
        try:
            await asyncio.sleep(3600)  # a statement the database holds
        except asyncio.CancelledError:
            cancelled.set()
            raise
        return []

    waiting = asyncio.create_task(bot.patiently("restore the tables", stalled))
    await asyncio.wait_for(trying.wait(), WAIT)
    await bot.close()
    assert await asyncio.wait_for(waiting, WAIT) is None
    assert cancelled.is_set()


async def test_a_stop_ends_the_pause_before_the_next_try(
    bot: Gobelet, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("bot.client.backoff", lambda attempt: 3600.0)
    tries = 0

    async def refused() -> list[str]:
        nonlocal tries
        tries += 1
        raise StorageError("database is locked")

    waiting = asyncio.create_task(bot.patiently("restore the tables", refused))
    for _ in range(50):
        await asyncio.sleep(0)
    await bot.close()
    assert await asyncio.wait_for(waiting, WAIT) is None
    assert tries == 1
