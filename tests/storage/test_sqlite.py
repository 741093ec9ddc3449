"""What only the SQLite adapter does: its file, its schema migrations, its URL (what any
backend must do is in ``test_contract.py``)."""

from __future__ import annotations

import asyncio
import sqlite3
import threading
import time
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import Any

import pytest

from bot.storage import (
    ChannelBusy,
    EventRecord,
    StorageError,
    VersionConflict,
    open_repository,
)
from bot.storage.sqlite import SqliteRepository, inline, migrations
from bot.storage.sqlite import driver as sqlite_backend
from bot.storage.sqlite.driver import _Queued, _write_all
from bot.storage.sqlite.inline import CHECKPOINT_EVERY, InlineWriter


async def test_an_empty_file_migrates_to_the_latest_schema(tmp_path: Path) -> None:
    path = tmp_path / "fresh.db"
    repo = await SqliteRepository.open(path)
    await repo.close()
    with sqlite3.connect(path) as db:
        version = db.execute("SELECT MAX(version) FROM schema_migrations").fetchone()[0]
        journal = db.execute("PRAGMA journal_mode").fetchone()[0]
    assert version == migrations()[-1][0]
    assert journal == "wal"


async def test_opening_twice_applies_nothing_new(tmp_path: Path) -> None:
    path = tmp_path / "twice.db"
    await (await SqliteRepository.open(path)).close()
    repo = await SqliteRepository.open(path)
    assert await repo.migrate() == migrations()[-1][0]
    await repo.close()


async def test_the_url_names_the_file_and_its_folders_are_made(tmp_path: Path) -> None:
    path = tmp_path / "deep" / "er" / "gobelet.db"
    repo = await open_repository(f"sqlite:///{path}")
    await repo.close()
    assert path.is_file()


@pytest.mark.parametrize("url", ["mysql://localhost/gobelet", "data/gobelet.db", ""])
async def test_a_url_for_another_database_is_refused(url: str) -> None:
    with pytest.raises(StorageError, match="unsupported database URL"):
        await open_repository(url)


def move(
    repo: SqliteRepository, game: int, previous: int, state: Any = None
) -> Coroutine[Any, Any, None]:
    return repo.save_game(
        game,
        previous_version=previous,
        version=previous + 1,
        status="active",
        state=state if state is not None else {"step": previous + 1},
        meta={},
        events=[EventRecord("moved", "public", None, {"n": previous + 1})],
    )


class Hops:
    """Counts the trips to the shared connection's thread (aiosqlite's calls), until stopped."""

    def __init__(self, repo: SqliteRepository) -> None:
        self.count = 0
        self._repo = repo
        self._execute = execute = repo.driver._db._execute

        async def counted(*args: object, **kwargs: object) -> object:
            self.count += 1
            return await execute(*args, **kwargs)  # type: ignore[arg-type]

        repo.driver._db._execute = counted  # type: ignore[method-assign]

    def stop(self) -> None:
        self._repo.driver._db._execute = self._execute  # type: ignore[method-assign]


def table_file(path: Path) -> InlineWriter:
    """A WAL file with one table ``t (n)``, and an inline writer on it."""
    db = sqlite3.connect(path, isolation_level=None)
    db.execute("PRAGMA journal_mode=WAL")
    db.execute("CREATE TABLE t (n INTEGER)")
    db.close()
    return InlineWriter.open(path)


async def test_moves_arriving_together_are_written_in_one_hop_each_in_its_transaction(
    tmp_path: Path,
) -> None:
    repo = await SqliteRepository.open(tmp_path / "grouped.db", inline_writes=False)
    try:
        games = [
            await repo.create_game(guild_id=1, channel_id=channel, kind="maya", meta={})
            for channel in range(20)
        ]
        hops = Hops(repo)

        # Twenty moves at once, one of them from a stale version: it alone is refused.
        outcomes = await asyncio.gather(
            *(move(repo, game, 5 if game == games[7] else 0) for game in games),
            return_exceptions=True,
        )
        assert hops.count <= 2  # the first move's hop, then every move queued meanwhile
        assert [type(o).__name__ for o in outcomes].count("VersionConflict") == 1
        assert isinstance(outcomes[7], VersionConflict)
        for game in games:
            record = await repo.game(game)
            assert record is not None
            assert record.version == (0 if game == games[7] else 1)
            assert len(await repo.events(game)) == (0 if game == games[7] else 1)
    finally:
        await repo.close()


async def test_a_locked_database_refuses_every_queued_move_and_writes_none(tmp_path: Path) -> None:
    path = tmp_path / "locked.db"
    repo = await SqliteRepository.open(path)
    games = [
        await repo.create_game(guild_id=1, channel_id=channel, kind="maya", meta={})
        for channel in range(3)
    ]
    await repo.driver._db.execute("PRAGMA busy_timeout=50")
    other = sqlite3.connect(path, isolation_level=None)
    other.execute("BEGIN IMMEDIATE")  # another process holds the write lock
    try:
        outcomes = await asyncio.gather(
            *(
                repo.save_game(g, previous_version=0, version=1, status="active", state={}, meta={})
                for g in games
            ),
            return_exceptions=True,
        )
        assert all(isinstance(outcome, StorageError) for outcome in outcomes), outcomes
    finally:
        other.execute("ROLLBACK")
        other.close()
    try:
        assert [(await repo.game(g)).version for g in games] == [0, 0, 0]  # type: ignore[union-attr]
        # Once the lock is gone, the moves go through.
        await repo.save_game(
            games[0], previous_version=0, version=1, status="active", state={}, meta={}
        )
        assert (await repo.game(games[0])).version == 1  # type: ignore[union-attr]
    finally:
        await repo.close()


async def new_games(repo: SqliteRepository, count: int) -> list[int]:
    return [
        await repo.create_game(guild_id=1, channel_id=channel, kind="maya", meta={})
        for channel in range(count)
    ]


def first_move(repo: SqliteRepository, game: int) -> Coroutine[Any, Any, None]:
    return repo.save_game(game, previous_version=0, version=1, status="active", state={}, meta={})


async def test_a_move_cancelled_while_queued_is_dropped_at_once(tmp_path: Path) -> None:
    repo = await SqliteRepository.open(tmp_path / "dropped.db", inline_writes=False)
    try:
        dropped, kept = await new_games(repo, 2)
        async with repo.driver._lock:  # another call holds the connection: the moves queue
            cancelled = asyncio.create_task(first_move(repo, dropped))
            written = asyncio.create_task(first_move(repo, kept))
            await asyncio.sleep(0)
            cancelled.cancel()
            with pytest.raises(asyncio.CancelledError):
                # At once, while the connection is still held (a guard: never a hang).
                await asyncio.wait_for(cancelled, 5)
        await asyncio.wait_for(written, 5)
        assert (await repo.game(dropped)).version == 0  # type: ignore[union-attr]
        assert (await repo.game(kept)).version == 1  # type: ignore[union-attr]
    finally:
        await repo.close()


async def test_a_stopped_writer_tells_its_moves_they_were_interrupted(tmp_path: Path) -> None:
    repo = await SqliteRepository.open(tmp_path / "stopped.db", inline_writes=False)
    try:
        (game,) = await new_games(repo, 1)
        async with repo.driver._lock:
            move = asyncio.create_task(first_move(repo, game))
            await asyncio.sleep(0)
            assert repo.driver._writer is not None
            repo.driver._writer.cancel()  # the process is being torn down, say
            await asyncio.sleep(0)
        with pytest.raises(StorageError, match="interrupted"):
            await asyncio.wait_for(move, 5)  # never left waiting for ever
        # Nothing was written; the next move goes through.
        assert (await repo.game(game)).version == 0  # type: ignore[union-attr]
        await first_move(repo, game)
        assert (await repo.game(game)).version == 1  # type: ignore[union-attr]
    finally:
        await repo.close()


async def test_closing_writes_the_moves_queued_before_and_refuses_the_next(
    tmp_path: Path,
) -> None:
    path = tmp_path / "closing.db"
    repo = await SqliteRepository.open(path, inline_writes=False)
    games = await new_games(repo, 2)
    async with repo.driver._lock:
        moves = [asyncio.create_task(first_move(repo, game)) for game in games]
        await asyncio.sleep(0)
        closing = asyncio.create_task(repo.close())
        await asyncio.sleep(0)
    await asyncio.wait_for(asyncio.gather(*moves, closing), 5)
    with pytest.raises(StorageError):
        await first_move(repo, games[0])
    with sqlite3.connect(path) as db:
        versions = [row[0] for row in db.execute("SELECT version FROM games ORDER BY id")]
    assert versions == [1, 1]


async def test_a_move_that_fails_oddly_is_rolled_back_and_the_next_ones_still_written(
    tmp_path: Path,
) -> None:
    db = sqlite3.connect(tmp_path / "odd.db", isolation_level=None)
    db.execute("CREATE TABLE t (n INTEGER)")
    loop = asyncio.get_running_loop()

    def insert(n: int) -> Callable[[sqlite3.Connection], None]:
        return lambda c: c.execute("INSERT INTO t VALUES (?)", (n,))

    def interrupted(c: sqlite3.Connection) -> None:
        c.execute("INSERT INTO t VALUES (2)")
        raise KeyboardInterrupt  # not an Exception: it must not escape the batch

    batch = [
        _Queued(work, threading.Event(), loop.create_future())
        for work in (insert(1), interrupted, insert(3))
    ]
    outcomes = _write_all(db, batch)
    assert outcomes[0] is None and outcomes[2] is None
    assert isinstance(outcomes[1], StorageError)
    assert not db.in_transaction
    assert [n for (n,) in db.execute("SELECT n FROM t ORDER BY n")] == [1, 3]
    db.close()


async def test_a_move_is_written_at_once_on_its_own_connection_without_a_hop(
    tmp_path: Path,
) -> None:
    repo = await SqliteRepository.open(tmp_path / "inline.db")
    try:
        games = await new_games(repo, 3)
        hops = Hops(repo)
        for previous in range(5):
            for game in games:
                await move(repo, game, previous)
        # A stale version is refused and writes nothing, on this path too.
        with pytest.raises(VersionConflict):
            await move(repo, games[0], 2)
        assert hops.count == 0  # not one trip to the shared connection's thread
        hops.stop()
        for game in games:
            record = await repo.game(game)
            assert record is not None and record.version == 5
            assert record.state == {"step": 5}
            assert [e.payload["n"] for e in await repo.events(game)] == [1, 2, 3, 4, 5]
    finally:
        await repo.close()


async def test_a_game_is_created_and_its_start_and_end_reads_made_without_a_hop(
    tmp_path: Path,
) -> None:
    repo = await SqliteRepository.open(tmp_path / "reads.db")
    try:
        await repo.save_guild_settings(1, {"maya": {"preset": "soiree"}})
        hops = Hops(repo)
        (game,) = await new_games(repo, 1)
        with pytest.raises(ChannelBusy):  # refused on this path too
            await new_games(repo, 1)
        await move(repo, game, 0)
        await move(repo, game, 1)
        record = await repo.game(game)
        assert record is not None and (record.id, record.version) == (game, 2)
        assert record.state == {"step": 2} and record.kind == "maya"
        assert [e.payload["n"] for e in await repo.events(game)] == [1, 2]
        assert await repo.guild_settings(1) == {"maya": {"preset": "soiree"}}
        assert await repo.guild_settings(2) == {}
        assert await repo.ratings(1, "maya", [10, 11]) == {}
        assert await repo.achievements(1, [10, 11]) == {}
        assert await repo.streak_runs(1, [10, 11]) == {}
        assert await repo.player_names(1, [10]) == {}
        assert await repo.seasons(1) == []
        assert await repo.last_ended_game(1, 0, "maya") is None
        assert await repo.game(game + 1) is None
        assert hops.count == 0  # not one trip to the shared connection's thread
    finally:
        await repo.close()


async def test_a_read_the_file_makes_wait_goes_through_the_shared_connection(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = await SqliteRepository.open(tmp_path / "read-busy.db")
    try:
        (game,) = await new_games(repo, 1)
        await move(repo, game, 0)
        assert repo.driver._inline is not None
        monkeypatch.setattr(repo.driver._inline, "read", lambda query, params: None)  # SQLITE_BUSY
        hops = Hops(repo)
        record = await repo.game(game)
        assert record is not None and record.version == 1
        assert [e.payload["n"] for e in await repo.events(game)] == [1]
        assert hops.count == 2  # one hop each
    finally:
        await repo.close()


async def test_a_read_that_fails_is_a_storage_error_on_either_path(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = await SqliteRepository.open(tmp_path / "read-error.db")
    try:
        (game,) = await new_games(repo, 1)
        assert repo.driver._inline is not None

        def broken(query: str, params: Any) -> Any:
            raise sqlite3.OperationalError("disk I/O error")

        monkeypatch.setattr(repo.driver._inline, "read", broken)
        with pytest.raises(StorageError, match="disk I/O error"):
            await repo.game(game)
        with pytest.raises(StorageError):  # the shared connection's path too
            await repo.driver._rows("SELECT * FROM no_such_table")
    finally:
        await repo.close()


async def test_a_read_waits_for_a_hop_that_is_still_writing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = await SqliteRepository.open(tmp_path / "read-behind-hop.db")
    try:
        (game,) = await new_games(repo, 1)
        assert repo.driver._inline is not None
        inline_reads: list[str] = []
        read = repo.driver._inline.read
        monkeypatch.setattr(
            repo.driver._inline,
            "read",
            lambda query, params: inline_reads.append(query) or read(query, params),
        )
        repo.driver._writing = [object()]  # type: ignore[list-item]  # a hop in progress
        hops = Hops(repo)
        assert (await repo.game(game)) is not None
        assert inline_reads == [] and hops.count == 1  # through the shared connection
        repo.driver._writing = []
        assert (await repo.game(game)) is not None
        assert len(inline_reads) == 1 and hops.count == 1
    finally:
        await repo.close()


async def test_a_slow_read_sends_the_next_reads_and_moves_to_the_connections_thread(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = await SqliteRepository.open(tmp_path / "read-slow.db")
    try:
        (game,) = await new_games(repo, 1)
        assert repo.driver._inline is not None
        read = repo.driver._inline.read

        def slow(query: str, params: Any) -> Any:
            time.sleep(inline.SLOW_SECONDS * 1.5)  # the disk stalls
            return read(query, params)

        monkeypatch.setattr(repo.driver._inline, "read", slow)
        hops = Hops(repo)
        assert await repo.game(game) is not None
        assert hops.count == 0  # read, slowly, on the loop's thread
        assert await repo.game(game) is not None
        await move(repo, game, 0)
        assert hops.count == 2  # the next read and move took the thread
    finally:
        await repo.close()


def test_a_read_inside_a_move_transaction_is_left_to_the_shared_connection(
    tmp_path: Path,
) -> None:
    path = tmp_path / "read-in-transaction.db"
    writer = table_file(path)
    seen: list[object] = []

    def move_reading(c: sqlite3.Connection) -> None:
        c.execute("INSERT INTO t VALUES (1)")
        seen.append(writer.read("SELECT n FROM t", ()))

    assert writer.write(move_reading)
    assert seen == [None]  # never a read of what is not committed yet
    rows = writer.read("SELECT n FROM t WHERE n = ?", (1,))
    assert rows is not None and [row["n"] for row in rows] == [1]
    writer.close()
    assert writer.read("SELECT n FROM t", ()) is None  # closed: the shared connection reads


async def test_a_move_finding_the_write_lock_taken_waits_its_turn_in_the_queue(
    tmp_path: Path,
) -> None:
    path = tmp_path / "busy.db"
    repo = await SqliteRepository.open(path)
    try:
        (game,) = await new_games(repo, 1)
        other = sqlite3.connect(path, isolation_level=None)
        other.execute("BEGIN IMMEDIATE")  # another process writes for a moment
        try:
            written = asyncio.create_task(move(repo, game, 0))
            await asyncio.sleep(0.2)
            assert not written.done()  # waiting (the shared connection's busy timeout)
        finally:
            other.execute("ROLLBACK")
            other.close()
        await asyncio.wait_for(written, 5)
        record = await repo.game(game)
        assert record is not None and record.version == 1
    finally:
        await repo.close()


def test_a_move_failing_on_its_own_connection_is_rolled_back_and_the_next_written(
    tmp_path: Path,
) -> None:
    path = tmp_path / "failing.db"
    writer = table_file(path)

    def failing(c: sqlite3.Connection) -> None:
        c.execute("INSERT INTO t VALUES (1)")
        raise ValueError("a bug in a move")

    with pytest.raises(ValueError, match="a bug"):
        writer.write(failing)
    assert writer.write(lambda c: c.execute("INSERT INTO t VALUES (2)") and None)
    writer.close()
    assert not writer.write(lambda c: None)  # closed: the queued way
    with sqlite3.connect(path) as check:
        assert [n for (n,) in check.execute("SELECT n FROM t")] == [2]


async def test_the_moves_pages_are_checkpointed_so_the_wal_starts_over(tmp_path: Path) -> None:
    path = tmp_path / "wal.db"
    repo = await SqliteRepository.open(path)
    wal = Path(f"{path}-wal")
    state = {"filler": "x" * 3000}  # a page or so of state per move
    try:
        (game,) = await new_games(repo, 1)
        moves = 4 * CHECKPOINT_EVERY
        sizes = []
        for previous in range(moves):
            await move(repo, game, previous, state)
            if repo.driver._checkpointing is not None:
                await repo.driver._checkpointing  # as the event loop would, between two moves
            sizes.append(wal.stat().st_size)
        # What the first CHECKPOINT_EVERY moves wrote to the WAL (nothing checkpointed
        # yet) is as large as it gets: never checkpointed, it would reach four times that.
        assert max(sizes) <= 1.5 * sizes[CHECKPOINT_EVERY - 2]
        record = await repo.game(game)
        assert record is not None and record.version == moves
    finally:
        await repo.close()


async def test_the_wal_starts_over_though_moves_keep_coming_while_the_checkpoint_runs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Under load, moves never stop coming: some are written while the checkpoint runs on
    # its thread. A checkpoint copying only what was committed when it began would never
    # catch up with the WAL's end, and the WAL would never start over but grow without end.
    monkeypatch.setattr(inline, "CHECKPOINT_EVERY", 10**9)  # this test's checkpoint alone
    monkeypatch.setattr(sqlite_backend, "RESTART_FRAMES", 1000)  # the test's WAL is long
    path = tmp_path / "wal-restart.db"
    repo = await SqliteRepository.open(path)
    filler = {"filler": "x" * 3000}
    try:
        games = await new_games(repo, 10)
        versions = dict.fromkeys(games, 0)

        async def play(game: int) -> None:
            await move(repo, game, versions[game], filler)
            versions[game] += 1

        for _ in range(150):  # thousands of pages for the checkpoint to copy
            for game in games:
                await play(game)
        checkpoint = asyncio.create_task(repo.driver._checkpoint())
        during = 0
        while not checkpoint.done():  # the tables go on meanwhile
            await play(games[during % len(games)])
            during += 1
            await asyncio.sleep(0)
        await checkpoint
        await play(games[0])
        check = sqlite3.connect(path)
        busy, frames, _ = check.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()
        check.close()
        assert busy == 0
        assert frames < 100  # the last moves' pages alone: the WAL started over
        for game in games:
            record = await repo.game(game)
            assert record is not None and record.version == versions[game]
    finally:
        await repo.close()


def wal_header(path: Path) -> bytes:
    """The WAL's checkpoint sequence number and salts: new each time the WAL starts over."""
    with open(f"{path}-wal", "rb") as wal:
        return wal.read(24)[12:24]


async def test_the_wal_starts_over_on_the_checkpoint_thread_with_the_moves_held(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The write that starts the WAL over syncs its new header. Left to the next move, that
    # sync would be on the event loop (and then every move sent to aiosqlite's thread for
    # 30 s, as after any slow write).
    monkeypatch.setattr(inline, "CHECKPOINT_EVERY", 10**9)  # this test's checkpoint alone
    monkeypatch.setattr(sqlite_backend, "RESTART_FRAMES", 1000)
    path = tmp_path / "wal-header.db"
    repo = await SqliteRepository.open(path)
    real = sqlite_backend._checkpoint_file
    held: list[tuple[bool, bool, bytes]] = []  # (restarting, moves on the loop?, header)

    def watched(path: str, hold: Callable[[bool], None]) -> None:
        def spy(restarting: bool) -> None:
            hold(restarting)
            held.append((restarting, repo.driver._inline_now(), wal_header(Path(path))))

        real(path, spy)

    monkeypatch.setattr(sqlite_backend, "_checkpoint_file", watched)
    try:
        (game,) = await new_games(repo, 1)
        for version in range(300):  # thousands of frames
            await move(repo, game, version, {"filler": "x" * 3000})
        before = wal_header(path)
        await repo.driver._checkpoint()
        assert [(restarting, on_loop) for restarting, on_loop, _ in held] == [
            (True, False),  # moves queued from before the RESTART...
            (False, True),  # ...until the WAL has started over
        ]
        assert held[0][2] == before
        assert held[1][2] != before  # started over by the checkpoint's thread
        await move(repo, game, 300)  # on the loop, in the new WAL
        assert wal_header(path) == held[1][2]
        record = await repo.game(game)
        assert record is not None and record.version == 301
    finally:
        await repo.close()


async def test_a_move_waits_behind_the_moves_queued_before_it(tmp_path: Path) -> None:
    path = tmp_path / "order.db"
    repo = await SqliteRepository.open(path)
    try:
        first, second = await new_games(repo, 2)
        other = sqlite3.connect(path, isolation_level=None)
        async with repo.driver._lock:  # the queue's writer cannot begin yet
            other.execute("BEGIN IMMEDIATE")  # the file is another's: the first move queues
            queued = asyncio.create_task(move(repo, first, 0))
            await asyncio.sleep(0.05)
            other.execute("ROLLBACK")
            other.close()
            # The file is free now, but the first move still waits in the queue: the next
            # one is not written on the loop's thread ahead of it.
            later = asyncio.create_task(move(repo, second, 0))
            await asyncio.sleep(0.05)
            assert not queued.done() and not later.done()
        await asyncio.wait_for(asyncio.gather(queued, later), 5)
        versions = [(await repo.game(g)).version for g in (first, second)]  # type: ignore[union-attr]
        assert versions == [1, 1]
    finally:
        await repo.close()


async def test_a_slow_write_sends_the_next_moves_to_the_connections_thread(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = await SqliteRepository.open(tmp_path / "slow.db")
    try:
        game, other = await new_games(repo, 2)
        hops = Hops(repo)
        assert repo.driver._inline is not None
        write = repo.driver._inline.write

        def slow(work: Callable[[sqlite3.Connection], None]) -> bool:
            time.sleep(inline.SLOW_SECONDS * 1.5)  # the disk stalls
            return write(work)

        monkeypatch.setattr(repo.driver._inline, "write", slow)
        await move(repo, game, 0)
        assert hops.count == 0  # written, slowly, on the loop's thread
        monkeypatch.setattr(repo.driver._inline, "write", write)
        await move(repo, game, 1)
        await move(repo, other, 0)
        assert hops.count == 2  # the next moves took the queue
        assert [(await repo.game(g)).version for g in (game, other)] == [2, 1]  # type: ignore[union-attr]
        # Once the pause is over, the moves are written on the loop's thread again.
        repo.driver._inline_after = 0.0
        before = hops.count
        await move(repo, game, 2)
        assert hops.count == before
    finally:
        await repo.close()


async def test_a_write_slow_to_compute_keeps_the_moves_on_the_loops_thread(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A run of the cycle collector that a write's allocations set off keeps the thread
    # computing: no disk stall, and no reason to send the moves away for 30 s.
    repo = await SqliteRepository.open(tmp_path / "computing.db")
    try:
        game, other = await new_games(repo, 2)
        hops = Hops(repo)
        assert repo.driver._inline is not None
        write = repo.driver._inline.write

        # The two clocks ``_timed`` reads, moved by hand: a machine busy with other work
        # would have the thread wait for a core, which does count as waiting.
        now = {"wall": 100.0, "cpu": 10.0}
        monkeypatch.setattr(sqlite_backend, "_clock", lambda: (now["wall"], now["cpu"]))

        def computing(work: Callable[[sqlite3.Connection], None]) -> bool:
            now["wall"] += inline.SLOW_SECONDS * 1.5  # the collector walks the objects:
            now["cpu"] += inline.SLOW_SECONDS * 1.5  # all of that time on the thread
            return write(work)

        monkeypatch.setattr(repo.driver._inline, "write", computing)
        await move(repo, game, 0)
        monkeypatch.setattr(repo.driver._inline, "write", write)
        await move(repo, game, 1)
        await move(repo, other, 0)
        assert hops.count == 0  # every move written on the loop's thread
        assert [(await repo.game(g)).version for g in (game, other)] == [2, 1]  # type: ignore[union-attr]
    finally:
        await repo.close()


def test_a_busy_file_mid_move_rolls_back_and_sends_the_move_to_the_queue(
    tmp_path: Path,
) -> None:
    path = tmp_path / "busy-mid.db"
    writer = table_file(path)

    def busy(c: sqlite3.Connection) -> None:
        c.execute("INSERT INTO t VALUES (1)")
        error = sqlite3.OperationalError("database is locked")
        error.sqlite_errorcode = sqlite3.SQLITE_BUSY  # type: ignore[attr-defined]
        raise error

    assert writer.write(busy) is False  # nothing written: the caller queues the move
    assert writer.write(lambda c: c.execute("INSERT INTO t VALUES (2)") and None)
    writer.close()
    with sqlite3.connect(path) as check:
        assert [n for (n,) in check.execute("SELECT n FROM t")] == [2]


async def test_a_checkpoint_leaves_the_shared_connection_free_for_reads(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = await SqliteRepository.open(tmp_path / "checkpoint.db")
    started, release = threading.Event(), threading.Event()
    try:
        (game,) = await new_games(repo, 1)
        real = sqlite_backend._checkpoint_file

        def slow(path: str, hold: Callable[[bool], None]) -> None:  # thousands of pages
            started.set()
            release.wait(5)
            real(path, hold)

        monkeypatch.setattr(sqlite_backend, "_checkpoint_file", slow)
        checkpoint = asyncio.create_task(repo.driver._checkpoint())
        assert await asyncio.to_thread(started.wait, 5)
        # A game's start or end reads meanwhile, without waiting for the checkpoint.
        record = await asyncio.wait_for(repo.game(game), 2)
        assert record is not None and not checkpoint.done()
        release.set()
        await asyncio.wait_for(checkpoint, 5)
    finally:
        release.set()
        await repo.close()
