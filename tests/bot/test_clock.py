"""The dispatcher of every deadline (``bot.table.clock``), on a SQLite file, with a wall clock
that only moves when a test moves it."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from bot.storage import Shards, StorageError, Timer
from bot.storage.sqlite import SqliteRepository
from bot.table.clock import MAX_RETRIES, RETRY_SECONDS, SLACK, Clock
from tests.bot.wall import START, FakeTime, eventually

GUILD = 1
WAIT = 5.0  # a safety net for what must happen: never what a test measures


class Fired:
    """A handler that records what it was given, and fails when told to."""

    def __init__(self) -> None:
        self.queue: asyncio.Queue[Timer] = asyncio.Queue()
        self.failures: list[Exception] = []

    async def __call__(self, timer: Timer) -> None:
        await self.queue.put(timer)
        if self.failures:
            raise self.failures.pop(0)

    async def next(self) -> Timer:
        return await asyncio.wait_for(self.queue.get(), WAIT)

    async def nothing(self) -> bool:
        """Nothing fired once everything that was ready to run has run."""
        for _ in range(50):
            await asyncio.sleep(0)
        return self.queue.empty()


@pytest.fixture
async def repository(tmp_path: Path) -> AsyncIterator[SqliteRepository]:
    repo = await SqliteRepository.open(tmp_path / "clock.db")
    yield repo
    await repo.close()


@pytest.fixture
def wall() -> FakeTime:
    return FakeTime()


@pytest.fixture
async def clock(repository: SqliteRepository, wall: FakeTime) -> AsyncIterator[Clock]:
    made = Clock(repository, now=wall.now, sleep=wall.sleep)
    yield made
    await made.close()


def timer(key: str, seconds: float, **payload: object) -> Timer:
    return Timer(key, START + seconds, GUILD, dict(payload))


async def test_timers_fire_each_at_its_time_soonest_first(clock: Clock, wall: FakeTime) -> None:
    fired = Fired()
    clock.handle("turn", fired)
    await clock.start()
    for key, seconds in (("turn:3", 30), ("turn:1", 10), ("turn:2", 20)):
        await clock.set(timer(key, seconds))
    assert await fired.nothing()
    for expected in ("turn:1", "turn:2", "turn:3"):
        wall.advance(10)
        assert (await fired.next()).key == expected
        assert await fired.nothing()


async def test_a_sooner_timer_set_while_the_clock_sleeps_fires_first(
    clock: Clock, wall: FakeTime
) -> None:
    fired = Fired()
    clock.handle("vote", fired)
    await clock.start()
    await clock.set(timer("vote:1:1", 100))
    await clock.set(timer("vote:1:2", 5))
    wall.advance(5)
    assert (await fired.next()).key == "vote:1:2"
    assert await fired.nothing()


async def test_overdue_timers_fire_at_once_when_the_clock_starts(
    repository: SqliteRepository, clock: Clock
) -> None:
    await repository.set_timer(timer("turn:1", -60, step=4))
    fired = Fired()
    clock.handle("turn", fired)
    await clock.start()
    assert (await fired.next()).payload == {"step": 4}


async def test_a_handled_timer_is_deleted(repository: SqliteRepository, clock: Clock) -> None:
    fired = Fired()
    clock.handle("turn", fired)
    await clock.start()
    await clock.set(timer("turn:1", -1))
    await fired.next()

    async def gone() -> bool:
        return clock.get("turn:1") is None and await repository.timers() == []

    await eventually(gone, "the handled timer deleted")


async def test_a_cancelled_timer_never_fires(
    repository: SqliteRepository, clock: Clock, wall: FakeTime
) -> None:
    fired = Fired()
    clock.handle("challenge", fired)
    await clock.start()
    await clock.set(timer("challenge:7", 10))
    await clock.cancel("challenge:7")
    assert clock.get("challenge:7") is None and await repository.timers() == []
    wall.advance(60)
    assert await fired.nothing()


async def test_setting_a_key_again_replaces_its_timer(
    repository: SqliteRepository, clock: Clock, wall: FakeTime
) -> None:
    fired = Fired()
    clock.handle("turn", fired)
    await clock.start()
    await clock.set(timer("turn:1", 10, step=1))
    await clock.set(timer("turn:1", 30, step=2))
    assert clock.get("turn:1") == timer("turn:1", 30, step=2)
    assert await repository.timers() == [timer("turn:1", 30, step=2)]
    wall.advance(10)
    assert await fired.nothing()
    wall.advance(20)
    assert (await fired.next()).payload == {"step": 2}
    assert await fired.nothing()


async def test_a_handler_that_sets_its_key_again_keeps_the_new_timer(
    repository: SqliteRepository, clock: Clock, wall: FakeTime
) -> None:
    fired = Fired()

    async def again(due: Timer) -> None:
        await fired(due)
        if due.payload["step"] == 1:
            await clock.set(timer("turn:1", 50, step=2))

    clock.handle("turn", again)
    await clock.start()
    await clock.set(timer("turn:1", 10, step=1))
    wall.advance(10)
    assert (await fired.next()).payload == {"step": 1}
    await asyncio.sleep(0.05)  # the fired timer's deletion, which must spare the new one
    assert await repository.timers() == [timer("turn:1", 50, step=2)]
    wall.advance(40)
    assert (await fired.next()).payload == {"step": 2}


async def test_a_failing_handler_is_tried_again_later_with_its_attempts_stored(
    repository: SqliteRepository, clock: Clock, wall: FakeTime
) -> None:
    fired = Fired()
    fired.failures = [StorageError("locked"), StorageError("locked")]
    clock.handle("turn", fired)
    await clock.start()
    await clock.set(timer("turn:1", 10))
    wall.advance(10)
    first = await fired.next()
    assert first.attempts == 0

    async def stored(attempts: int) -> bool:
        rows = await repository.timers()
        return [(t.attempts, t.due) for t in rows] == [
            (attempts, wall.now() + RETRY_SECONDS[attempts - 1])
        ]

    await eventually(lambda: stored(1), "the first failure stored")
    assert await fired.nothing()  # not before its pause
    wall.advance(RETRY_SECONDS[0])
    assert (await fired.next()).attempts == 1
    await eventually(lambda: stored(2), "the second failure stored, with a longer pause")
    assert RETRY_SECONDS[1] > RETRY_SECONDS[0]
    wall.advance(RETRY_SECONDS[1])
    assert (await fired.next()).attempts == 2

    async def gone() -> bool:
        return await repository.timers() == []

    await eventually(gone, "the timer deleted once its handler succeeded")


async def test_a_handler_failing_for_another_reason_than_the_database_is_given_up(
    repository: SqliteRepository, clock: Clock, wall: FakeTime
) -> None:
    fired = Fired()
    fired.failures = [RuntimeError("bug")] * (MAX_RETRIES + 5)
    clock.handle("turn", fired)
    await clock.start()
    await clock.set(timer("turn:1", 0))
    for attempt in range(MAX_RETRIES + 1):
        assert (await fired.next()).attempts == attempt
        wall.advance(max(RETRY_SECONDS))

    async def gone() -> bool:
        return clock.get("turn:1") is None and await repository.timers() == []

    await eventually(gone, "the timer given up")
    assert await fired.nothing()


async def test_a_restarted_clock_keeps_every_timer_and_its_attempts(
    tmp_path: Path, wall: FakeTime
) -> None:
    path = tmp_path / "restart.db"
    repository = await SqliteRepository.open(path)
    first = Clock(repository, now=wall.now, sleep=wall.sleep)
    fired = Fired()
    fired.failures = [StorageError("locked")]
    first.handle("turn", fired)
    await first.start()
    await first.set(timer("turn:1", 10, step=3))
    await first.set(timer("vote:1:2", 60, fault=2))
    wall.advance(10)
    await fired.next()

    async def failed_once() -> bool:
        return [t.attempts for t in await repository.timers() if t.kind == "turn"] == [1]

    await eventually(failed_once, "the failure stored")
    retry = first.get("turn:1")
    await first.close()
    await repository.close()

    reopened = await SqliteRepository.open(path)
    try:
        second = Clock(reopened, now=wall.now, sleep=wall.sleep)
        await second.load()
        assert second.get("turn:1") == retry and retry is not None and retry.attempts == 1
        assert second.get("vote:1:2") == timer("vote:1:2", 60, fault=2)
        again = Fired()
        second.handle("turn", again)
        second.handle("vote", again)
        await second.start()
        wall.advance(retry.due - wall.now())
        assert (await again.next()).key == "turn:1"
        assert await again.nothing()  # the vote still waits for its own time
        wall.advance(START + 60 - wall.now())
        assert (await again.next()).key == "vote:1:2"
        await second.close()
    finally:
        await reopened.close()


async def test_timers_written_with_a_move_fire_when_told(
    repository: SqliteRepository, clock: Clock, wall: FakeTime
) -> None:
    game = await repository.create_game(guild_id=GUILD, channel_id=10, kind="maya", meta={})
    written = {"turn:1": timer("turn:1", 10, step=1)}
    await repository.save_game(
        game, previous_version=0, version=1, status="active", state=None, meta={}, timers=written
    )
    fired = Fired()
    clock.handle("turn", fired)
    await clock.start()
    clock.stored(written)
    assert clock.pending("turn") == [timer("turn:1", 10, step=1)]
    wall.advance(10)
    assert (await fired.next()).payload == {"step": 1}
    clock.stored({"turn:2": timer("turn:2", 20)})
    clock.stored({"turn:2": None})
    wall.advance(20)
    assert await fired.nothing()


async def test_a_clock_loads_and_fires_only_its_own_shards(
    repository: SqliteRepository, wall: FakeTime
) -> None:
    mine, theirs = 0, 1 << 22  # shards 0 and 1 of two
    await repository.set_timer(Timer("turn:1", START - 1, mine))
    await repository.set_timer(Timer("turn:2", START - 1, theirs))
    clock = Clock(repository, Shards(2, frozenset({0})), now=wall.now, sleep=wall.sleep)
    fired = Fired()
    clock.handle("turn", fired)
    try:
        await clock.start()
        assert clock.get("turn:2") is None
        assert (await fired.next()).key == "turn:1"
        assert await fired.nothing()
    finally:
        await clock.close()


async def test_a_paused_clock_finishes_the_handler_running_and_fires_no_other(
    repository: SqliteRepository, clock: Clock, wall: FakeTime
) -> None:
    release, finished = asyncio.Event(), []

    async def slow(fired: Timer) -> None:
        await release.wait()
        finished.append(fired.key)

    later = Fired()
    clock.handle("turn", slow)
    clock.handle("vote", later)
    await clock.start()
    await clock.set(timer("turn:1", -1))
    await clock.set(timer("vote:1:1", 10))
    for _ in range(50):  # the turn's handler is running, waiting on ``release``
        await asyncio.sleep(0)
    pausing = asyncio.create_task(clock.pause())
    for _ in range(50):
        await asyncio.sleep(0)
    assert not pausing.done()  # it waits for the move a timer began
    release.set()
    await asyncio.wait_for(pausing, WAIT)
    assert finished == ["turn:1"]
    wall.advance(60)
    assert await later.nothing()
    assert [t.key for t in await repository.timers()] == ["vote:1:1"]  # kept for the next start


class MoveLandsFirst(SqliteRepository):
    """A database where a move's write lands while the clock stores a retry."""

    move: Any = None

    async def _move_first(self) -> None:
        move, self.move = self.move, None
        if move is not None:
            await move()

    async def set_timer(self, timer: Timer) -> None:
        if timer.attempts:
            await self._move_first()
        await super().set_timer(timer)

    async def reschedule_timer(self, key: str, due: float, timer: Timer) -> bool:
        await self._move_first()
        return await super().reschedule_timer(key, due, timer)


async def test_a_failed_timers_retry_never_overwrites_the_timer_a_move_set_meanwhile(
    tmp_path: Path, wall: FakeTime
) -> None:
    repository = await MoveLandsFirst.open(tmp_path / "race.db")
    clock = Clock(repository, now=wall.now, sleep=wall.sleep)
    newer = timer("turn:1", 90, step=5)

    async def the_move() -> None:  # the player moves: it stores the next turn's timer
        await repository.set_timer(newer)
        clock.stored({newer.key: newer})

    async def failing(fired: Timer) -> None:
        repository.move = the_move
        raise StorageError("locked")

    clock.handle("turn", failing)
    await clock.start()
    await clock.set(timer("turn:1", -1, step=4))

    async def kept() -> bool:
        return await repository.timers() == [newer] and clock.get("turn:1") == newer

    try:
        await eventually(kept, "the move's timer kept, in the database and in the clock")
    finally:
        await clock.close()
        await repository.close()


async def test_a_deadline_moved_again_and_again_is_kept_once_not_once_per_move(
    clock: Clock, wall: FakeTime
) -> None:
    # Each move of a long game sets its turn's timer again: what the clock keeps must not
    # grow with the moves (a turn lasts minutes, a process runs for weeks).
    fired = Fired()
    clock.handle("turn", fired)
    await clock.start()
    for move in range(1000):
        clock.stored({"turn:1": timer("turn:1", 600 + move, table=1, step=move)})
    clock.stored({"turn:2": timer("turn:2", 30, table=2, step=0), "turn:3": None})
    # Two live timers: the entries superseded are let go, not kept until they would be due.
    assert len(clock._heap) <= 2 * 2 + SLACK
    wall.advance(30)
    assert (await fired.next()).key == "turn:2"
    wall.advance(600 + 999 - 30)
    due = await fired.next()
    assert (due.key, due.payload["step"]) == ("turn:1", 999)
    assert await fired.nothing()


class FailingDisk(SqliteRepository):
    """A database whose next ``failing`` writes of a timer fail (a disk I/O error)."""

    failing = 0

    def _write(self) -> None:
        if self.failing:
            self.failing -= 1
            raise StorageError("disk I/O error")

    async def reschedule_timer(self, key: str, due: float, timer: Timer) -> bool:
        self._write()
        return await super().reschedule_timer(key, due, timer)

    async def cancel_timer(self, key: str, due: float | None = None) -> bool:
        self._write()
        return await super().cancel_timer(key, due)


async def test_a_timer_outlives_a_disk_that_fails_and_fires_once_writes_work_again(
    tmp_path: Path, wall: FakeTime
) -> None:
    repository = await FailingDisk.open(tmp_path / "disk.db")
    clock = Clock(repository, now=wall.now, sleep=wall.sleep)
    fired = Fired()
    clock.handle("turn", fired)
    try:
        await clock.start()
        await clock.set(timer("turn:1", 10, step=3))
        # The turn's handler fails twice while the disk does; the first retry's new due
        # time cannot be stored either, so the row keeps the deadline it had.
        fired.failures = [StorageError("disk I/O error")] * 2
        repository.failing = 1
        wall.advance(10)
        for attempt in range(2):
            assert (await fired.next()).attempts == attempt
            await asyncio.sleep(0.05)
            assert clock.get("turn:1") is not None, f"forgotten after failure {attempt + 1}"
            wall.advance(max(RETRY_SECONDS))
        assert (await fired.next()).payload == {"step": 3}  # the disk works again

        async def gone() -> bool:
            return clock.get("turn:1") is None and await repository.timers() == []

        await eventually(gone, "the timer handled, and its row deleted")
    finally:
        await clock.close()
        await repository.close()
