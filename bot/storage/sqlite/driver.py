"""SQLite's driver and its write path: one long-lived aiosqlite connection shared by every
call, a connection of the moves' own on the event loop's thread (``InlineWriter``), the
queue of the moves that must wait for the file, and the WAL's checkpoints."""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import logging
import os
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

import aiosqlite

from bot.storage import sql
from bot.storage.base import GameResults, StorageError
from bot.storage.driver import (
    Dialect,
    Execute,
    ExecuteMany,
    Fetch,
    FetchRow,
    Move,
    Plan,
    Row,
    Step,
    UniqueViolation,
)
from bot.storage.sqlite.inline import SLOW_PAUSE, SLOW_SECONDS, InlineWriter
from bot.storage.sqlite.now import began, ended, give_now, iso_now

# How long a checkpoint waits for the write in progress and the reads of an older snapshot
# before it gives the end of the WAL up until the next one (moves wait behind it meanwhile).
CHECKPOINT_WAIT = 0.5
# How many pages the WAL may reach before a checkpoint lets it start over: a bound on the
# file, high enough that the moves are seldom held off for it.
RESTART_FRAMES = 10_000

log = logging.getLogger(__name__)

R = TypeVar("R")


def _any_of(column: str, values: Sequence[int]) -> tuple[str, tuple[Any, ...]]:
    return f"{column} IN ({','.join('?' * len(values))})", tuple(values)


def _forget_name(
    table: str, column: str, guild_id: int, user_id: int
) -> tuple[str, tuple[Any, ...]]:
    name = f'$.names."{int(user_id)}"'
    return (
        f"UPDATE {table} SET {column} = json_remove({column}, ?)"
        f" WHERE guild_id = ? AND json_extract({column}, ?) IS NOT NULL",
        (name, guild_id, name),
    )


DIALECT = Dialect(
    any_of=_any_of,
    forget_name=_forget_name,
    history_tiebreak="rowid",
    epoch="((julianday('now') - 2440587.5) * 86400.0)",
)


@contextlib.contextmanager
def _storage_errors() -> Iterator[None]:
    """sqlite3's errors as the callers of every backend catch them."""
    try:
        yield
    except sqlite3.IntegrityError as error:
        if getattr(error, "sqlite_errorcode", None) in _UNIQUE:
            raise UniqueViolation(str(error)) from error
        raise StorageError(str(error)) from error
    except sqlite3.Error as error:
        raise StorageError(str(error)) from error


_UNIQUE = (sqlite3.SQLITE_CONSTRAINT_UNIQUE, sqlite3.SQLITE_CONSTRAINT_PRIMARYKEY)


class SqliteDriver:
    dialect = DIALECT

    def __init__(
        self,
        connection: aiosqlite.Connection,
        path: Path | str = ":memory:",
        inline: InlineWriter | None = None,
    ) -> None:
        self._db = connection
        self._path = str(path)
        # The moves' own connection (a file only: ``:memory:`` would be another database).
        self._inline = inline
        self._inline_after = 0.0  # monotonic time before which moves are queued (a slow disk)
        # The checkpoint's thread is starting the WAL over: moves are queued meanwhile (set
        # and read across threads: a plain attribute, which the GIL keeps whole).
        self._restarting = False
        self._checkpointing: asyncio.Task[None] | None = None
        self._leases: dict[int, int] = {}  # shard -> the descriptor of its locked file
        # Every call shares this one connection: without the lock, another call's statements
        # would run inside (or BEGIN during) a transaction that is still open.
        self._lock = asyncio.Lock()
        # The moves waiting to be written, and the task writing them (``_write_queued``).
        self._queued: list[_Queued] = []
        self._writer: asyncio.Task[None] | None = None
        self._writing: list[_Queued] = []  # the moves of the hop running now
        self._closing = False
        self._clocked = False  # whether the shared connection has ``now()`` (``_hop``)

    @classmethod
    async def connect(cls, path: Path | str) -> SqliteDriver:
        if str(path) != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        try:
            connection = await aiosqlite.connect(str(path), isolation_level=None)
        except sqlite3.Error as error:
            raise StorageError(f"cannot open the database {path}: {error}") from error
        connection.row_factory = aiosqlite.Row
        try:
            await connection._execute(give_now, connection._conn)
            await connection.execute("PRAGMA journal_mode=WAL")
            await connection.execute("PRAGMA foreign_keys=ON")
            await connection.execute("PRAGMA busy_timeout=2000")
            await connection.execute("PRAGMA synchronous=NORMAL")
            # Half a MiB of page cache rather than SQLite's 2: the moves' connection writes
            # between two reads here, which throws this cache away each time, and the file's
            # pages stay in the system's cache anyway.
            await connection.execute("PRAGMA cache_size=-512")
        except sqlite3.Error as error:
            await connection.close()
            raise StorageError(f"cannot prepare the database {path}: {error}") from error
        driver = cls(connection, path)
        driver._clocked = True
        return driver

    def write_inline(self) -> None:
        """Write the moves on a connection of their own from now on (a file only)."""
        if self._path != ":memory:":
            self._inline = InlineWriter.open(self._path)

    async def migrate(
        self, shipped: list[tuple[int, str]], replays: Mapping[int, Callable[[], sql.Replay]]
    ) -> int:
        """Apply every migration of ``shipped`` newer than the database's; returns the
        schema version."""
        async with self._lock:
            db = self._db
            await db.execute(
                "CREATE TABLE IF NOT EXISTS schema_migrations ("
                "version INTEGER PRIMARY KEY, applied_at TEXT NOT NULL)"
            )
            async with db.execute("SELECT COALESCE(MAX(version), 0) FROM schema_migrations") as cur:
                row = await cur.fetchone()
            current = row[0] if row else 0
            for version, script in shipped:
                if version <= current:
                    continue
                # One transaction per migration: the schema, what its replay of the past
                # games writes, and its version number move together.
                try:
                    await db.executescript(
                        f"BEGIN IMMEDIATE;\n{script}\n;"
                        f"INSERT INTO schema_migrations (version, applied_at)"
                        f" VALUES ({version}, '{iso_now()}');"
                    )
                    replay = replays.get(version)
                    if replay is not None:
                        await self._hop(_run, sql.replay(replay()))
                    await db.execute("COMMIT")
                except BaseException:
                    await _rollback(db)
                    raise
                current = version
            return current

    async def close(self) -> None:
        # The moves queued before the close are written first; none is queued after it.
        self._closing = True
        if self._writer is not None and not self._writer.done():
            with contextlib.suppress(Exception):
                await asyncio.shield(self._writer)
        if self._checkpointing is not None:
            with contextlib.suppress(Exception):
                await asyncio.shield(self._checkpointing)
        if self._inline is not None:
            self._inline.close()
        async with self._lock:
            for descriptor in self._leases.values():
                os.close(descriptor)  # which releases its lock
            self._leases.clear()
            await self._db.close()

    # ---- shard leases: a file lock each

    async def try_lock_shard(self, shard: int, count: int) -> bool:
        """Hold shard ``shard`` of ``count`` for this process, if no other process does: a
        lock on a file beside the database, released by the system when the process dies."""
        if shard in self._leases or self._path == ":memory:":
            return True
        name = f"{self._path}.shard-{shard}-of-{count}.lock"
        descriptor = os.open(name, os.O_RDWR | os.O_CREAT, 0o600)
        try:
            fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            os.close(descriptor)
            return False
        self._leases[shard] = descriptor
        return True

    async def release_shard(self, shard: int) -> None:
        descriptor = self._leases.pop(shard, None)
        if descriptor is not None:
            os.close(descriptor)

    async def keep_shards(self, shards: Sequence[int], count: int) -> list[int]:
        # A file lock lasts as long as the process: none breaks unseen.
        if self._path == ":memory:":
            return []
        return [shard for shard in shards if shard not in self._leases]

    async def _hop(self, function: Callable[..., R], *args: Any) -> R:
        """``function(connection, *args)`` on the shared connection's own thread, in one
        hop. aiosqlite runs every call of a connection this way, one at a time, on that
        thread; it only names it privately."""
        if not self._clocked:  # a connection opened elsewhere (a test's read-only one)
            self._clocked = True
            await self._db._execute(give_now, self._db._conn)
        return await self._db._execute(function, self._db._conn, *args)

    # ---- statements

    async def fetch(
        self, query: str, params: Sequence[Any] = (), *, small: bool = False
    ) -> Sequence[Row]:
        if small:
            return await self._rows(query, params)
        with _storage_errors():
            async with self._lock:
                rows: Sequence[Row] = await self._hop(_fetch_all, query, params)
        return rows

    async def fetchrow(self, query: str, params: Sequence[Any] = ()) -> Row | None:
        rows = await self.fetch(query, params)
        return rows[0] if rows else None

    async def fetchval(self, query: str, params: Sequence[Any] = ()) -> Any:
        row = await self.fetchrow(query, params)
        return row[0] if row else None

    async def execute(self, query: str, params: Sequence[Any] = ()) -> int:
        changed: int = await self._run_alone(Execute(query, params))
        return changed

    async def executemany(self, query: str, rows: Sequence[Sequence[Any]]) -> None:
        await self._run_alone(ExecuteMany(query, rows))

    async def _run_alone(self, step: Step) -> Any:
        """One statement on the shared connection, committed on its own, in one hop."""
        with _storage_errors():
            async with self._lock:
                return await self._hop(_run, _single(step))

    async def transaction(self, plan: Plan[R]) -> R:
        with _storage_errors():
            async with self._lock:
                return await self._transaction(lambda db: _run(db, plan))

    async def insert(self, query: str, params: Sequence[Any]) -> Any:
        """Like a move: at once on the moves' connection when the write lock is free, else
        on the shared connection (not queued behind the moves)."""
        created: list[Any] = []

        def work(db: sqlite3.Connection) -> None:
            created.append(_run(db, _single(FetchRow(query, params)))[0])

        with _storage_errors():
            if not self._write_now(work):
                created.clear()  # rolled back, even a commit that had to wait
            if not created:
                async with self._lock:
                    row = await self._hop(_run, _single(FetchRow(query, params)))
                created.append(row[0])
        return created[0]

    async def save_move(self, move: Move) -> bool:
        """A move's statements one after the other (``_move``), in a transaction of its own,
        on the moves' connection or queued (``_write_move``). Its rows are made (its JSON
        encoded) before: the file's write lock is held only for the statements."""
        rows = _MoveRows.of(move)
        stored: list[bool] = []

        def work(db: sqlite3.Connection) -> None:
            stored[:] = [_run(db, _move(rows))]

        with _storage_errors():
            await self._write_move(work)
        return stored == [True]

    # ---- the write path

    async def _transaction(self, work: Callable[[sqlite3.Connection], R]) -> R:
        """Run ``work`` in one transaction on the connection's own thread, in one go: a
        write of several statements costs one hop to that thread and back rather than one
        per statement (each hop waits for the event loop's turn, and the other tables'
        writes wait behind ``_lock`` meanwhile). The caller holds ``_lock``.

        A caller cancelled meanwhile gets its ``CancelledError`` once the transaction is
        over: rolled back, unless it was already committing. aiosqlite runs every call of
        a connection this way, one at a time, on that thread; it only names it privately."""
        abandoned = threading.Event()

        def transaction(db: sqlite3.Connection) -> R:
            db.execute("BEGIN IMMEDIATE")
            try:
                done = work(db)
                if abandoned.is_set():
                    raise _Abandoned
                db.execute("COMMIT")
            except BaseException:
                if db.in_transaction:
                    db.execute("ROLLBACK")
                raise
            return done

        running = asyncio.ensure_future(self._hop(transaction))
        try:
            return await asyncio.shield(running)
        except asyncio.CancelledError:
            abandoned.set()
            with contextlib.suppress(_Abandoned, sqlite3.Error, StorageError):
                await running
            raise

    async def _write_move(self, work: Callable[[sqlite3.Connection], None]) -> None:
        """A move's transaction: on the moves' own connection at once when the write lock
        is free (``InlineWriter``), else queued for the shared connection's thread."""
        if self._closing:
            raise StorageError("the database is being closed")
        if not self._write_now(work):
            await self._queue_transaction(work)

    def _write_now(self, work: Callable[[sqlite3.Connection], None]) -> bool:
        """Write ``work`` at once on the moves' connection (``InlineWriter.write``) if it
        may be used now: True if it was written, False if it is for the shared connection
        (nothing written). Has the WAL checkpointed once enough was written there."""
        if not self._inline_now():
            return False
        assert self._inline is not None
        began = _clock()
        written = self._inline.write(work)
        self._timed(began, "a write waited %.0f ms")
        if (
            written
            and (self._checkpointing is None or self._checkpointing.done())
            and self._inline.checkpoint_due()
        ):
            self._checkpointing = asyncio.create_task(self._checkpoint())
        return written

    def _timed(self, began: tuple[float, float], what: str) -> None:
        """Work on the loop's thread that began at ``began`` (``_clock``) is over: if it
        waited long (a disk that stalls), the next reads and moves go through aiosqlite's
        thread for a while. What the thread computed meanwhile is not waiting: a run of
        the cycle collector that a write's allocations set off is no reason to send the
        moves away for 30 s."""
        wall, cpu = _clock()
        waited = (wall - began[0]) - (cpu - began[1])
        if waited > SLOW_SECONDS:
            self._inline_after = time.monotonic() + SLOW_PAUSE
            log.warning(
                what + " on the event loop: the database is used through aiosqlite's thread"
                " for %.0f s",
                1000 * waited,
                SLOW_PAUSE,
            )

    async def _rows(self, query: str, params: Sequence[Any] = ()) -> list[sqlite3.Row]:
        """The rows of a small read: at once on the moves' connection when it may be used
        on the loop's thread now (``InlineWriter.read``), else in one hop to the shared
        connection's thread."""
        try:
            # Not while a hop of the shared connection writes: a move whose outcome its
            # caller asks about may still be committing there.
            if (
                self._inline is not None
                and not self._writing
                and time.monotonic() >= self._inline_after
            ):
                began = _clock()
                rows = self._inline.read(query, params)
                self._timed(began, "a read waited %.0f ms")
                if rows is not None:
                    return rows
            async with self._lock:
                return await self._hop(_fetch_all, query, params)
        except sqlite3.Error as error:  # what the callers of every backend catch
            raise StorageError(str(error)) from error

    def _inline_now(self) -> bool:
        """Whether a move may be written on the loop's thread now: not while moves queued
        before it wait (they are written first, in their order), nor while the WAL starts
        over, nor for a while after a slow write."""
        return (
            self._inline is not None
            and not self._queued
            and not self._writing
            and not self._restarting
            and time.monotonic() >= self._inline_after
        )

    async def _checkpoint(self) -> None:
        """Copy the moves' pages from the WAL into the file, and let the WAL start over
        once it is long (``_checkpoint_file``: writers wait only for the last few pages,
        and only then): on a worker thread, through a connection of its own, since
        copying and syncing thousands of pages takes a while, and the shared connection
        must not wait behind it."""
        await asyncio.to_thread(_checkpoint_file, self._path, self._hold_moves)

    def _hold_moves(self, restarting: bool) -> None:
        """From the checkpoint's thread: the WAL is starting over (True), or has (False)."""
        self._restarting = restarting

    async def _queue_transaction(self, work: Callable[[sqlite3.Connection], None]) -> None:
        """``_transaction`` for the moves: each in a transaction of its own, but every move
        waiting meanwhile written in the same hop to the connection's thread (a group
        commit). Under load a hop waits for the event loop's turn, and the lock is held
        meanwhile: one hop per move made every write wait behind all the others' hops.

        Cancelled while still queued, the move is dropped at once; cancelled while its
        hop runs, as ``_transaction``: rolled back unless already committing, and the
        caller gets its ``CancelledError`` once that is settled. An outcome the writer
        could not learn (it was stopped) is a ``StorageError``: ask the database."""
        if self._closing:
            raise StorageError("the database is being closed")
        queued = _Queued(work, threading.Event(), asyncio.get_running_loop().create_future())
        self._queued.append(queued)
        if self._writer is None or self._writer.done():
            self._writer = asyncio.create_task(self._write_queued())
            self._writer.add_done_callback(self._writer_ended)
        try:
            await asyncio.shield(queued.done)
        except asyncio.CancelledError:
            if queued in self._queued:  # not begun: nothing to settle
                self._queued.remove(queued)
                raise
            queued.abandoned.set()
            with contextlib.suppress(Exception):
                await queued.done
            raise

    async def _write_queued(self) -> None:
        while self._queued:
            try:
                async with self._lock:
                    # Taken once the connection is ours: a move cancelled meanwhile has
                    # left the queue.
                    self._writing, self._queued = self._queued[:BATCH], self._queued[BATCH:]
                    if not self._writing:
                        continue
                    outcomes = await self._hop(_write_all, self._writing)
            except Exception as error:  # the connection itself failed (closed, say)
                outcomes = [_failure(error) for _ in self._writing]
            for queued, outcome in zip(self._writing, outcomes, strict=True):
                if queued.done.done():
                    continue
                if outcome is None:
                    queued.done.set_result(None)
                else:
                    queued.done.set_exception(outcome)
            self._writing = []

    def _writer_ended(self, writer: asyncio.Task[None]) -> None:
        """Stopped (cancelled, even before it began) with outcomes untold: nobody waits
        for ever. A move whose hop was running may have been written: its caller asks."""
        if writer is not self._writer:
            return  # a newer writer took the queue over since this one ended
        for queued in [*self._writing, *self._queued]:
            if not queued.done.done():
                queued.done.set_exception(StorageError("the write was interrupted"))
        self._writing = []
        self._queued = []


def _single(step: Step) -> Plan[Any]:
    """A plan of one statement, whose outcome is the plan's."""
    return (yield step)


def _run(db: sqlite3.Connection, plan: Plan[R]) -> R:
    """Run ``plan``'s statements on ``db`` (on its thread), each sent its outcome; the
    plan's value. The transaction, if any, is the caller's."""
    began()
    try:
        outcome: Any = None
        while True:
            try:
                step = plan.send(outcome)
            except StopIteration as done:
                return done.value
            if isinstance(step, Execute):
                outcome = db.execute(step.query, step.params).rowcount
            elif isinstance(step, ExecuteMany):
                db.executemany(step.query, step.rows)
                outcome = None
            elif isinstance(step, Fetch):
                outcome = db.execute(step.query, step.params).fetchall()
            else:
                outcome = db.execute(step.query, step.params).fetchone()
    finally:
        ended()


_SAVE_GAME = (
    "UPDATE games SET version = ?, status = ?, state_json = ?, meta_json = ?,"
    " updated_at = now(), finished_at = COALESCE(finished_at, CASE WHEN ? THEN now() END)"
    " WHERE id = ? AND version = ?"
)
# Each row numbers itself after the previous one (no MAX(seq) read first).
_LOG_EVENT = (
    "INSERT INTO game_events (game_id, seq, type, visibility, recipient, payload_json,"
    " created_at) VALUES (?, (SELECT COALESCE(MAX(seq), 0) + 1 FROM game_events"
    " WHERE game_id = ?), ?, ?, ?, ?, now())"
)


@dataclass(frozen=True, slots=True)
class _MoveRows:
    """A move's parameters, ready for its statements."""

    game_id: int
    game: tuple[Any, ...]  # ``_SAVE_GAME``'s
    events: list[tuple[Any, ...]]  # ``_LOG_EVENT``'s
    timers: list[tuple[str, tuple[Any, ...] | None]]  # key, ``SET_TIMER``'s (None: cancel)
    results: GameResults | None

    @classmethod
    def of(cls, move: Move) -> _MoveRows:
        game_id = move.game_id
        game = (
            move.version,
            move.status,
            None if move.state is None else sql.dumps(move.state),
            sql.dumps(move.meta),
            move.status not in sql.RUNNING,
            game_id,
            move.previous_version,
        )
        events = [
            (game_id, game_id, e.type, e.visibility, e.recipient, sql.dumps(e.payload))
            for e in move.events
        ]
        timers = [
            (key, None if timer is None else sql.timer_row(timer))
            for key, timer in move.timers.items()
        ]
        return cls(game_id, game, events, timers, move.results)


def _move(move: _MoveRows) -> Plan[bool]:
    """A move's statements, one by one (SQLite writes one table per statement): False,
    and nothing written, if the game is not at the version the move started from."""
    if (yield Execute(_SAVE_GAME, move.game)) != 1:
        return False
    if move.events:
        yield ExecuteMany(_LOG_EVENT, move.events)
    if move.results is not None:
        yield from _count(move.game_id, move.results)
    for key, timer in move.timers:
        if timer is None:
            yield Execute(sql.CANCEL_TIMER, (key,))
        else:
            yield Execute(sql.SET_TIMER, timer)
    return True


def _count(game_id: int, results: GameResults) -> Plan[None]:
    """Add a finished game to the leaderboards, once (inside the move's transaction)."""
    counted = yield Execute(
        "INSERT INTO counted_games (game_id, counted_at) VALUES (?, now()) ON CONFLICT DO NOTHING",
        (game_id,),
    )
    if counted != 1:
        return
    row = yield FetchRow("SELECT guild_id FROM games WHERE id = ?", (game_id,))
    assert row is not None
    guild_id = row[0]
    game = results.board.name
    kept_max = results.maxima
    # (guild, board, user, figure, day, value) rows
    sums: list[tuple[int, str, int, str, str, float]] = []
    maxima: list[tuple[int, str, int, str, str, float]] = []
    for user_id, metrics in results.figures.items():
        for metric, value in metrics.items():
            target = maxima if metric in kept_max else sums
            target.append((guild_id, game, user_id, metric, results.day, value))
    insert = (
        "INSERT INTO stat_values (guild_id, game, user_id, metric, day, value)"
        " VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (guild_id, game, metric, day, user_id)"
    )
    if sums:
        yield ExecuteMany(insert + " DO UPDATE SET value = value + excluded.value", sums)
    if maxima:
        yield ExecuteMany(insert + " DO UPDATE SET value = MAX(value, excluded.value)", maxima)
    if results.names:
        yield ExecuteMany(
            "INSERT INTO player_names (guild_id, user_id, name, game_id) VALUES (?, ?, ?, ?)"
            " ON CONFLICT (guild_id, user_id) DO UPDATE SET name = excluded.name,"
            " game_id = excluded.game_id",
            [(guild_id, user, name, game_id) for user, name in sorted(results.names.items())],
        )
    yield from sql.award(guild_id, game_id, results.awards)
    if results.ratings:
        # Add the change rather than overwrite: another game may have moved the rating since
        # it was read (without a ``rated_from`` entry, COALESCE makes it a plain set).
        yield ExecuteMany(
            "INSERT INTO ratings (guild_id, game, user_id, rating, games, updated_at)"
            " VALUES (?, ?, ?, ?, 1, now()) ON CONFLICT (guild_id, game, user_id) DO UPDATE"
            " SET rating = rating + excluded.rating - COALESCE(?, rating),"
            " games = games + 1, updated_at = excluded.updated_at",
            [
                (guild_id, game, user_id, rating, results.rated_from.get(user_id))
                for user_id, rating in results.ratings.items()
            ],
        )
        rated = sorted(results.ratings)
        yield Execute(
            "INSERT INTO rating_history (guild_id, game, user_id, at, rating)"
            " SELECT guild_id, game, user_id, now(), rating FROM ratings"
            f" WHERE guild_id = ? AND game = ? AND user_id IN ({','.join('?' * len(rated))})",
            (guild_id, game, *rated),
        )


BATCH = 64  # moves written in one hop at most (reads wait behind a hop)


class _Abandoned(Exception):
    """The caller of a transaction was cancelled before it committed: it is rolled back."""


@dataclass(slots=True)
class _Queued:
    """A move waiting for ``_write_queued``: its writes, whether its caller gave up, and
    where its outcome goes."""

    work: Callable[[sqlite3.Connection], None]
    abandoned: threading.Event
    done: asyncio.Future[None]


def _write_all(db: sqlite3.Connection, batch: Sequence[_Queued]) -> list[BaseException | None]:
    """On the connection's thread: each queued move in a transaction of its own, in order;
    the outcome of each (None: committed). Never raises: every move learns its outcome. A
    database that stays locked past the busy timeout (or a transaction that could not be
    rolled back) fails the moves after it at once, rather than each waiting it out."""
    outcomes: list[BaseException | None] = []
    stuck: BaseException | None = None
    for queued in batch:
        if queued.abandoned.is_set():
            outcomes.append(_Abandoned())
            continue
        if stuck is not None:
            outcomes.append(_failure(stuck))
            continue
        try:
            db.execute("BEGIN IMMEDIATE")
        except sqlite3.Error as error:
            stuck = error
            outcomes.append(error)
            continue
        try:
            queued.work(db)
            if queued.abandoned.is_set():
                raise _Abandoned
            db.execute("COMMIT")
        except BaseException as error:
            outcomes.append(error if isinstance(error, Exception) else _failure(error))
            try:
                if db.in_transaction:
                    db.execute("ROLLBACK")
            except sqlite3.Error as failed:
                stuck = failed
            if db.in_transaction:  # not rolled back: no later move may write inside it
                stuck = stuck or StorageError("a transaction could not be rolled back")
        else:
            outcomes.append(None)
    return outcomes


def _clock() -> tuple[float, float]:
    """The time now, and what this thread has computed so far (``_timed``'s two clocks)."""
    return time.perf_counter(), time.thread_time()


def _fetch_all(db: sqlite3.Connection, query: str, params: Sequence[Any]) -> list[sqlite3.Row]:
    return db.execute(query, params).fetchall()


def _checkpoint_file(path: str, hold: Callable[[bool], None]) -> None:
    """Copy the WAL's pages into the file, and let the WAL start over once it is long.

    The WAL starts over only when a write begins with every frame copied into the file.
    Under load moves keep being appended while a PASSIVE checkpoint runs on its thread, so
    it would never catch up and the WAL would grow as long as the bot is busy. So once the
    WAL holds ``RESTART_FRAMES``, a RESTART
    follows: it copies what came during the PASSIVE one with the writers held off (a move
    finding the lock taken is queued), a few pages and a sync. Not every time: that would
    hold the moves off every few seconds. A reader still on an old snapshot past
    ``CHECKPOINT_WAIT`` leaves it for the next checkpoint.

    The write that starts the WAL over syncs it (its new header). Left to the next move, that
    sync would stop the event loop, and send the moves to aiosqlite's thread as any slow
    write does. So this thread makes that write itself, at once, and ``hold``
    (True, then False) has the moves queued from before the RESTART until it is done: a
    move queued meanwhile that begins first starts the WAL over on aiosqlite's thread."""
    with contextlib.suppress(sqlite3.Error):
        db = sqlite3.connect(path, isolation_level=None, timeout=CHECKPOINT_WAIT)
        try:
            db.execute("PRAGMA synchronous=NORMAL")
            _, frames, _ = db.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()
            if frames >= RESTART_FRAMES:
                hold(True)
                try:
                    busy, _, _ = db.execute("PRAGMA wal_checkpoint(RESTART)").fetchone()
                    if not busy:
                        # A write that changes nothing (the bot keeps no user version).
                        (version,) = db.execute("PRAGMA user_version").fetchone()
                        db.execute(f"PRAGMA user_version = {int(version)}")
                finally:
                    hold(False)
        finally:
            db.close()


def _failure(error: BaseException) -> StorageError:
    """A move's own failure, for what failed its whole batch (one exception each)."""
    failure = StorageError(str(error) or type(error).__name__)
    failure.__cause__ = error
    return failure


async def _rollback(db: aiosqlite.Connection) -> None:
    # Nothing may have been begun, or the connection may be gone: then nothing to undo.
    with contextlib.suppress(sqlite3.Error):
        await db.execute("ROLLBACK")
