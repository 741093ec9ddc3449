"""The SQLite repository: one long-lived aiosqlite connection, WAL, numbered migrations."""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import functools
import json
import logging
import os
import sqlite3
import threading
import time
from collections.abc import Callable, Coroutine, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Concatenate, ParamSpec, TypeVar

import aiosqlite

from bot.kernel.achievements import Awards
from bot.kernel.spec import Board, Metric
from bot.storage import sql
from bot.storage.base import (
    ALL_SHARDS,
    ChannelBusy,
    EventRecord,
    GameRecord,
    GameResults,
    Held,
    Rating,
    RatingPoint,
    Repository,
    Season,
    Shards,
    Standing,
    StorageError,
    Timer,
    VersionConflict,
    WebPage,
)
from bot.storage.sql import RUNNING
from bot.storage.sqlite.inline import SLOW_PAUSE, SLOW_SECONDS, InlineWriter

# How long a checkpoint waits for the write in progress and the reads of an older snapshot
# before it gives the end of the WAL up until the next one (moves wait behind it meanwhile).
CHECKPOINT_WAIT = 0.5
# How long the WAL may grow before a checkpoint lets it start over (pages: 40 MB of 4 KiB;
# a few minutes of moves at 500 tables).
RESTART_FRAMES = 10_000

log = logging.getLogger(__name__)


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")


def _seconds(stamp: str) -> float:
    """Unix seconds of a time written by ``_now``."""
    return datetime.fromisoformat(stamp).timestamp()


def _dumps(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


P = ParamSpec("P")
R = TypeVar("R")


def _serialised(
    method: Callable[Concatenate[SqliteRepository, P], Coroutine[Any, Any, R]],
) -> Callable[Concatenate[SqliteRepository, P], Coroutine[Any, Any, R]]:
    """One repository call at a time on the shared connection (see ``SqliteRepository``)."""

    @functools.wraps(method)
    async def run(self: SqliteRepository, *args: P.args, **kwargs: P.kwargs) -> R:
        async with self._lock:
            return await method(self, *args, **kwargs)

    return run


# The schema's types (``bot/storage/migrations``): times are ISO text, in UTC.
TYPES = {
    "serial": "INTEGER PRIMARY KEY",
    "bigint": "INTEGER",
    "real": "REAL",
    "json": "TEXT",
    "stamp": "TEXT NOT NULL",
    "time": "TEXT",
    "rowid": " WITHOUT ROWID",
}


def migrations() -> list[tuple[int, str]]:
    """The numbered migrations as this database runs them, in order."""
    return sql.migrations("bot.storage.sqlite", TYPES)


class SqliteRepository:
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
        # The tables share this one connection: without the lock, another table's statements
        # would run inside (or BEGIN during) a transaction that is still open.
        self._lock = asyncio.Lock()
        # The moves waiting to be written, and the task writing them (``_write_queued``).
        self._queued: list[_Queued] = []
        self._writer: asyncio.Task[None] | None = None
        self._writing: list[_Queued] = []  # the moves of the hop running now
        self._closing = False

    @classmethod
    async def open(cls, path: Path | str, *, inline_writes: bool = True) -> SqliteRepository:
        """``inline_writes=False``: every move goes through the shared connection's queue
        (the tests of that queue)."""
        if str(path) != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        try:
            connection = await aiosqlite.connect(str(path), isolation_level=None)
        except sqlite3.Error as error:
            raise StorageError(f"cannot open the database {path}: {error}") from error
        connection.row_factory = aiosqlite.Row
        repository = cls(connection, path)
        try:
            await connection.execute("PRAGMA journal_mode=WAL")
            await connection.execute("PRAGMA foreign_keys=ON")
            await connection.execute("PRAGMA busy_timeout=2000")
            await connection.execute("PRAGMA synchronous=NORMAL")
            # Half a MiB of page cache rather than SQLite's 2: the moves' connection writes
            # between two reads here, which throws this cache away each time, and the file's
            # pages stay in the system's cache anyway.
            await connection.execute("PRAGMA cache_size=-512")
            await repository.migrate()
            if inline_writes and str(path) != ":memory:":
                repository._inline = InlineWriter.open(path)
        except sqlite3.Error as error:
            await connection.close()
            raise StorageError(f"cannot prepare the database {path}: {error}") from error
        return repository

    @_serialised
    async def migrate(self) -> int:
        """Apply every migration newer than the database's; returns the schema version."""
        db = self._db
        await db.execute(
            "CREATE TABLE IF NOT EXISTS schema_migrations ("
            "version INTEGER PRIMARY KEY, applied_at TEXT NOT NULL)"
        )
        async with db.execute("SELECT COALESCE(MAX(version), 0) FROM schema_migrations") as cur:
            row = await cur.fetchone()
        current = row[0] if row else 0
        shipped = migrations()
        if not shipped:
            raise StorageError("no SQL migrations found in bot/storage: broken install")
        replays = sql.replays()
        for version, script in shipped:
            if version <= current:
                continue
            # One transaction per migration: the schema, what its replay of the past games
            # writes, and its version number move together.
            try:
                await db.executescript(
                    f"BEGIN IMMEDIATE;\n{script}\n;"
                    f"INSERT INTO schema_migrations (version, applied_at)"
                    f" VALUES ({version}, '{_now()}');"
                )
                replay = replays.get(version)
                if replay is not None:
                    step = replay()
                    await db._execute(_replay, db._conn, step)
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
        await self._close()

    @_serialised
    async def _close(self) -> None:
        for descriptor in self._leases.values():
            os.close(descriptor)  # which releases its lock
        self._leases.clear()
        await self._db.close()

    # ---- shard leases

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

    # ---- games

    async def create_game(
        self, *, guild_id: int, channel_id: int, kind: str, meta: dict[str, Any]
    ) -> int:
        now = _now()
        insert = (
            "INSERT INTO games (guild_id, channel_id, kind, status, version, meta_json,"
            " created_at, updated_at) VALUES (?, ?, ?, 'lobby', 0, ?, ?, ?)"
        )
        row = (guild_id, channel_id, kind, _dumps(meta), now, now)
        created: list[int | None] = []
        try:
            # Like a move: at once on the moves' connection when the write lock is free.
            if not self._write_now(lambda db: created.append(db.execute(insert, row).lastrowid)):
                created.clear()  # rolled back, even a commit that had to wait
            if not created:
                async with self._lock:
                    cursor = await self._db.execute(insert, row)
                created.append(cursor.lastrowid)
        except sqlite3.IntegrityError as error:
            raise ChannelBusy(f"channel {channel_id} already has a running game") from error
        except sqlite3.Error as error:
            raise StorageError(str(error)) from error
        game_id = created[0]
        assert game_id is not None
        return game_id

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

        running = asyncio.ensure_future(self._db._execute(transaction, self._db._conn))
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
        the cycle collector that a write's allocations set off (tens of ms at 500 tables)
        is no reason to send the moves away for 30 s."""
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
                return await self._db._execute(_fetch_all, self._db._conn, query, params)
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
                    outcomes = await self._db._execute(_write_all, self._db._conn, self._writing)
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

    async def save_game(
        self,
        game_id: int,
        *,
        previous_version: int,
        version: int,
        status: str,
        state: dict[str, Any] | None,
        meta: dict[str, Any],
        events: Sequence[EventRecord] = (),
        results: GameResults | None = None,
        timers: Mapping[str, Timer | None] | None = None,
    ) -> None:
        now = _now()
        finished = now if status not in RUNNING else None
        game = (
            version,
            status,
            None if state is None else _dumps(state),
            _dumps(meta),
            now,
            finished,
            game_id,
            previous_version,
        )
        rows = [
            (game_id, game_id, e.type, e.visibility, e.recipient, _dumps(e.payload), now)
            for e in events
        ]
        changed = [
            (key, None if timer is None else _timer_row(timer, now))
            for key, timer in (timers or {}).items()
        ]

        def write(db: sqlite3.Connection) -> None:
            cursor = db.execute(
                "UPDATE games SET version = ?, status = ?, state_json = ?, meta_json = ?,"
                " updated_at = ?, finished_at = COALESCE(finished_at, ?)"
                " WHERE id = ? AND version = ?",
                game,
            )
            if cursor.rowcount != 1:
                raise VersionConflict(f"game {game_id} is not at version {previous_version}")
            if rows:
                # Each row numbers itself after the previous one (no MAX(seq) read first).
                db.executemany(
                    "INSERT INTO game_events (game_id, seq, type, visibility, recipient,"
                    " payload_json, created_at) VALUES (?, (SELECT COALESCE(MAX(seq), 0) + 1"
                    " FROM game_events WHERE game_id = ?), ?, ?, ?, ?, ?)",
                    rows,
                )
            if results is not None:
                _count(db, game_id, results, now=now)
            for key, row in changed:
                if row is None:
                    db.execute("DELETE FROM timers WHERE key = ?", (key,))
                else:
                    db.execute(_SET_TIMER, row)

        try:
            await self._write_move(write)
        except sqlite3.Error as error:
            raise StorageError(str(error)) from error

    # ---- leaderboards

    async def ratings(self, guild_id: int, game: str, users: Sequence[int]) -> dict[int, Rating]:
        if not users:
            return {}
        marks = ",".join("?" * len(users))
        rows = await self._rows(
            f"SELECT user_id, rating, games FROM ratings WHERE guild_id = ? AND game = ?"
            f" AND user_id IN ({marks})",
            (guild_id, game, *users),
        )
        return {row[0]: Rating(row[1], row[2]) for row in rows}

    @_serialised
    async def leaderboard(
        self,
        guild_id: int,
        game: str,
        criterion: Metric | str,
        since: str | None,
        *,
        offset: int,
        limit: int,
        until: str | None = None,
        season: int | None = None,
    ) -> tuple[list[Standing], int]:
        totals, params = sql.totals(guild_id, game, criterion, since, until, season)
        async with self._db.execute(
            sql.page_query(totals, criterion), (*params, limit, offset)
        ) as cursor:
            rows = list(await cursor.fetchall())
        if not rows:
            if offset == 0:
                return [], 0
            async with self._db.execute(sql.count_query(totals, criterion), params) as cursor:
                count = await cursor.fetchone()
            return [], count[0] if count else 0
        return [Standing(row[2], row[0], row[1]) for row in rows], rows[0][3]

    @_serialised
    async def standing(
        self,
        guild_id: int,
        game: str,
        criterion: Metric | str,
        since: str | None,
        user_id: int,
        *,
        until: str | None = None,
        season: int | None = None,
    ) -> Standing | None:
        totals, params = sql.totals(guild_id, game, criterion, since, until, season)
        async with self._db.execute(
            sql.standing_query(totals, criterion), (*params, user_id)
        ) as cursor:
            row = await cursor.fetchone()
        return Standing(row[1], user_id, row[0]) if row else None

    @_serialised
    async def player_figures(
        self, guild_id: int, user_id: int, boards: Sequence[Board]
    ) -> dict[str, dict[str, float]]:
        async with self._db.execute(
            "SELECT game, metric, SUM(value), MAX(value) FROM stat_values"
            " WHERE guild_id = ? AND user_id = ? GROUP BY game, metric",
            (guild_id, user_id),
        ) as cursor:
            return sql.figures(await cursor.fetchall(), boards)

    @_serialised
    async def player_ratings(self, guild_id: int, user_id: int) -> dict[str, Rating]:
        async with self._db.execute(
            "SELECT game, rating, games FROM ratings WHERE guild_id = ? AND user_id = ?",
            (guild_id, user_id),
        ) as cursor:
            return {row[0]: Rating(row[1], row[2]) for row in await cursor.fetchall()}

    @_serialised
    async def last_figure_days(self, guild_id: int) -> dict[str, str]:
        async with self._db.execute(sql.LAST_FIGURE_DAYS, (guild_id,)) as cursor:
            return {row[0]: row[1] for row in await cursor.fetchall()}

    # ---- achievements

    async def achievements(self, guild_id: int, users: Sequence[int]) -> dict[int, list[Held]]:
        if not users:
            return {}
        marks = ",".join("?" * len(users))
        rows = await self._rows(
            f"SELECT user_id, code, game_id, earned_at FROM achievements WHERE guild_id = ?"
            f" AND user_id IN ({marks}) ORDER BY earned_at, game_id, code",
            (guild_id, *users),
        )
        held: dict[int, list[Held]] = {}
        for row in rows:
            earned_at = datetime.fromisoformat(row[3])
            held.setdefault(row[0], []).append(Held(row[1], row[2], earned_at))
        return held

    async def streak_runs(self, guild_id: int, users: Sequence[int]) -> dict[tuple[int, str], int]:
        if not users:
            return {}
        marks = ",".join("?" * len(users))
        rows = await self._rows(
            f"SELECT user_id, code, run FROM achievement_runs WHERE guild_id = ?"
            f" AND user_id IN ({marks})",
            (guild_id, *users),
        )
        return {(row[0], row[1]): row[2] for row in rows}

    @_serialised
    async def rating_history(self, guild_id: int, user_id: int) -> list[RatingPoint]:
        async with self._db.execute(
            "SELECT game, at, rating FROM rating_history WHERE guild_id = ? AND user_id = ?"
            " ORDER BY at, rowid",
            (guild_id, user_id),
        ) as cursor:
            rows = await cursor.fetchall()
        return [RatingPoint(row[0], _seconds(row[1]), row[2]) for row in rows]

    @_serialised
    async def forget_player(self, guild_id: int, user_id: int) -> int:
        db = self._db
        try:
            await db.execute("BEGIN IMMEDIATE")
            rows = 0
            for table in sql.PLAYER_TABLES:
                cursor = await db.execute(
                    f"DELETE FROM {table} WHERE guild_id = ? AND user_id = ?", (guild_id, user_id)
                )
                rows += cursor.rowcount
            # The display name they joined tables with (kept for the Yadès sheet pictures).
            name = f'$.names."{int(user_id)}"'
            third = await db.execute(
                "UPDATE games SET meta_json = json_remove(meta_json, ?)"
                " WHERE guild_id = ? AND json_extract(meta_json, ?) IS NOT NULL",
                (name, guild_id, name),
            )
            await db.execute("COMMIT")
        except sqlite3.Error as error:
            await _rollback(db)
            raise StorageError(str(error)) from error
        except BaseException:
            await _rollback(db)
            raise
        return rows + third.rowcount

    # ---- web pages

    @_serialised
    async def web_page(self, guild_id: int) -> WebPage | None:
        async with self._db.execute(
            "SELECT guild_id, token, guild_name FROM web_pages WHERE guild_id = ?", (guild_id,)
        ) as cursor:
            row = await cursor.fetchone()
        return WebPage(row[0], row[1], row[2]) if row else None

    @_serialised
    async def web_page_of(self, token: str) -> WebPage | None:
        async with self._db.execute(
            "SELECT guild_id, token, guild_name FROM web_pages WHERE token = ?", (token,)
        ) as cursor:
            row = await cursor.fetchone()
        return WebPage(row[0], row[1], row[2]) if row else None

    @_serialised
    async def open_web_page(self, page: WebPage) -> None:
        try:
            await self._db.execute(
                "INSERT INTO web_pages (guild_id, token, guild_name, updated_at)"
                " VALUES (?, ?, ?, ?) ON CONFLICT (guild_id) DO UPDATE SET token = excluded.token,"
                " guild_name = excluded.guild_name, updated_at = excluded.updated_at",
                (page.guild_id, page.token, page.guild_name, _now()),
            )
        except sqlite3.Error as error:
            raise StorageError(str(error)) from error

    @_serialised
    async def close_web_page(self, guild_id: int) -> bool:
        try:
            cursor = await self._db.execute("DELETE FROM web_pages WHERE guild_id = ?", (guild_id,))
        except sqlite3.Error as error:
            raise StorageError(str(error)) from error
        return cursor.rowcount > 0

    async def player_names(self, guild_id: int, users: Sequence[int]) -> dict[int, str]:
        if not users:
            return {}
        marks = ",".join("?" * len(users))
        rows = await self._rows(
            f"SELECT user_id, name FROM player_names WHERE guild_id = ? AND user_id IN ({marks})",
            (guild_id, *users),
        )
        return {row[0]: row[1] for row in rows}

    # ---- seasons

    async def seasons(self, guild_id: int) -> list[Season]:
        rows = await self._rows(
            f"SELECT {sql.SEASON_COLUMNS} FROM seasons WHERE guild_id = ? ORDER BY number",
            (guild_id,),
        )
        return [sql.season(row) for row in rows]

    @_serialised
    async def first_figure_day(self, guild_id: int) -> str | None:
        async with self._db.execute(
            "SELECT MIN(day) FROM stat_values WHERE guild_id = ?", (guild_id,)
        ) as cursor:
            row = await cursor.fetchone()
        return row[0] if row else None

    @_serialised
    async def open_season(self, guild_id: int, season: Season, timer: Timer) -> Season:
        now = _now()

        def write(db: sqlite3.Connection) -> Season:
            row = db.execute(
                f"SELECT {sql.SEASON_COLUMNS} FROM seasons"
                " WHERE guild_id = ? AND closed_at IS NULL",
                (guild_id,),
            ).fetchone()
            if row is not None:
                return sql.season(row)
            db.execute(
                "INSERT INTO seasons (guild_id, number, started, ends) VALUES (?, ?, ?, ?)",
                (guild_id, season.number, season.started, season.ends),
            )
            db.execute(_SET_TIMER, _timer_row(timer, now))
            return season

        try:
            return await self._transaction(write)
        except sqlite3.Error as error:
            raise StorageError(str(error)) from error

    @_serialised
    async def move_season_end(self, guild_id: int, number: int, ends: str, timer: Timer) -> bool:
        now = _now()

        def write(db: sqlite3.Connection) -> bool:
            cursor = db.execute(
                "UPDATE seasons SET ends = ? WHERE guild_id = ? AND number = ?"
                " AND closed_at IS NULL",
                (ends, guild_id, number),
            )
            if cursor.rowcount != 1:
                return False
            db.execute(_SET_TIMER, _timer_row(timer, now))
            return True

        try:
            return await self._transaction(write)
        except sqlite3.Error as error:
            raise StorageError(str(error)) from error

    @_serialised
    async def close_season(
        self,
        guild_id: int,
        number: int,
        *,
        following: Season,
        timers: Sequence[Timer],
        carry: float,
        initial: float,
    ) -> bool:
        now = _now()

        def write(db: sqlite3.Connection) -> bool:
            cursor = db.execute(
                "UPDATE seasons SET closed_at = ? WHERE guild_id = ? AND number = ?"
                " AND closed_at IS NULL",
                (now, guild_id, number),
            )
            if cursor.rowcount != 1:
                return False
            db.execute(
                "INSERT INTO season_ratings (guild_id, number, game, user_id, rating, games)"
                " SELECT guild_id, ?, game, user_id, rating, games FROM ratings"
                " WHERE guild_id = ? AND games > 0",
                (number, guild_id),
            )
            db.execute(
                "UPDATE ratings SET rating = ? + ? * (rating - ?), games = 0, updated_at = ?"
                " WHERE guild_id = ?",
                (initial, carry, initial, now, guild_id),
            )
            db.execute(
                "INSERT INTO rating_history (guild_id, game, user_id, at, rating)"
                " SELECT guild_id, game, user_id, ?, rating FROM ratings WHERE guild_id = ?",
                (now, guild_id),
            )
            db.execute(
                "INSERT INTO seasons (guild_id, number, started, ends) VALUES (?, ?, ?, ?)",
                (guild_id, following.number, following.started, following.ends),
            )
            for timer in timers:
                db.execute(_SET_TIMER, _timer_row(timer, now))
            return True

        try:
            return await self._transaction(write)
        except sqlite3.Error as error:
            raise StorageError(str(error)) from error

    # ---- server settings

    async def guild_settings(self, guild_id: int) -> dict[str, Any]:
        rows = await self._rows(
            "SELECT settings_json FROM guild_settings WHERE guild_id = ?", (guild_id,)
        )
        return json.loads(rows[0][0]) if rows else {}

    @_serialised
    async def save_guild_settings(self, guild_id: int, settings: dict[str, Any]) -> None:
        try:
            await self._db.execute(
                "INSERT INTO guild_settings (guild_id, settings_json, updated_at) VALUES (?, ?, ?)"
                " ON CONFLICT (guild_id) DO UPDATE SET settings_json = excluded.settings_json,"
                " updated_at = excluded.updated_at",
                (guild_id, _dumps(settings), _now()),
            )
        except sqlite3.Error as error:
            raise StorageError(str(error)) from error

    # ---- games

    @_serialised
    async def running_games(self, shards: Shards = ALL_SHARDS) -> list[GameRecord]:
        mine, params = sql.shard_filter(shards)
        async with self._db.execute(
            f"SELECT * FROM games WHERE status IN ('lobby', 'active'){mine} ORDER BY id", params
        ) as cursor:
            return [sql.game_record(row) for row in await cursor.fetchall()]

    # ---- timers

    @_serialised
    async def set_timer(self, timer: Timer) -> None:
        try:
            await self._db.execute(_SET_TIMER, _timer_row(timer, _now()))
        except sqlite3.Error as error:
            raise StorageError(str(error)) from error

    @_serialised
    async def cancel_timer(self, key: str, due: float | None = None) -> bool:
        try:
            if due is None:
                cursor = await self._db.execute("DELETE FROM timers WHERE key = ?", (key,))
            else:
                cursor = await self._db.execute(
                    "DELETE FROM timers WHERE key = ? AND due = ?", (key, due)
                )
        except sqlite3.Error as error:
            raise StorageError(str(error)) from error
        return cursor.rowcount > 0

    @_serialised
    async def reschedule_timer(self, key: str, due: float, timer: Timer) -> bool:
        try:
            cursor = await self._db.execute(
                "UPDATE timers SET due = ?, attempts = ?, updated_at = ? WHERE key = ? AND due = ?",
                (timer.due, timer.attempts, _now(), key, due),
            )
        except sqlite3.Error as error:
            raise StorageError(str(error)) from error
        return cursor.rowcount > 0

    @_serialised
    async def timers(self, shards: Shards = ALL_SHARDS) -> list[Timer]:
        mine, params = sql.shard_filter(shards)
        async with self._db.execute(
            f"SELECT {sql.TIMER_COLUMNS} FROM timers WHERE 1 = 1{mine} ORDER BY due, key",
            params,
        ) as cursor:
            rows = await cursor.fetchall()
        return [sql.timer(row) for row in rows]

    async def last_ended_game(self, guild_id: int, channel_id: int, kind: str) -> GameRecord | None:
        rows = await self._rows(
            "SELECT * FROM games WHERE guild_id = ? AND kind = ?"
            " AND status IN ('finished', 'stopped') AND channel_id = ?"
            " AND state_json IS NOT NULL ORDER BY id DESC LIMIT 1",
            (guild_id, kind, channel_id),
        )
        return sql.game_record(rows[0]) if rows else None

    async def game(self, game_id: int) -> GameRecord | None:
        rows = await self._rows("SELECT * FROM games WHERE id = ?", (game_id,))
        return sql.game_record(rows[0]) if rows else None

    async def events(self, game_id: int) -> list[EventRecord]:
        rows = await self._rows(
            "SELECT type, visibility, recipient, payload_json FROM game_events"
            " WHERE game_id = ? ORDER BY seq",
            (game_id,),
        )
        return [EventRecord(r[0], r[1], r[2], json.loads(r[3])) for r in rows]


def _count(db: sqlite3.Connection, game_id: int, results: GameResults, *, now: str) -> None:
    """Add a finished game to the leaderboards, once (inside ``save_game``'s transaction)."""
    cursor = db.execute(
        "INSERT OR IGNORE INTO counted_games (game_id, counted_at) VALUES (?, ?)",
        (game_id, now),
    )
    if cursor.rowcount != 1:
        return
    row = db.execute("SELECT guild_id FROM games WHERE id = ?", (game_id,)).fetchone()
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
        db.executemany(insert + " DO UPDATE SET value = value + excluded.value", sums)
    if maxima:
        db.executemany(insert + " DO UPDATE SET value = MAX(value, excluded.value)", maxima)
    if results.names:
        db.executemany(
            "INSERT INTO player_names (guild_id, user_id, name, game_id) VALUES (?, ?, ?, ?)"
            " ON CONFLICT (guild_id, user_id) DO UPDATE SET name = excluded.name,"
            " game_id = excluded.game_id",
            [(guild_id, user, name, game_id) for user, name in sorted(results.names.items())],
        )
    _award(db, guild_id, game_id, results.awards, now)
    if results.ratings:
        # Add the change rather than overwrite: another game may have moved the rating since
        # it was read (without a ``rated_from`` entry, COALESCE makes it a plain set).
        db.executemany(
            "INSERT INTO ratings (guild_id, game, user_id, rating, games, updated_at)"
            " VALUES (?, ?, ?, ?, 1, ?) ON CONFLICT (guild_id, game, user_id) DO UPDATE"
            " SET rating = rating + excluded.rating - COALESCE(?, rating),"
            " games = games + 1, updated_at = excluded.updated_at",
            [
                (guild_id, game, user_id, rating, now, results.rated_from.get(user_id))
                for user_id, rating in results.ratings.items()
            ],
        )
        rated = sorted(results.ratings)
        db.execute(
            "INSERT INTO rating_history (guild_id, game, user_id, at, rating)"
            " SELECT guild_id, game, user_id, ?, rating FROM ratings"
            f" WHERE guild_id = ? AND game = ? AND user_id IN ({','.join('?' * len(rated))})",
            (now, guild_id, game, *rated),
        )


def _award(
    db: sqlite3.Connection, guild_id: int, game_id: int, awards: Awards, earned_at: str
) -> None:
    """Write what a game earned (a game's end, or the replay of a past one)."""
    earned, restarted, continued = sql.award_rows(guild_id, game_id, awards, earned_at)
    if earned:
        db.executemany(sql.AWARD, earned)
    if restarted:
        db.executemany(sql.RUN_RESTARTED, restarted)
    if continued:
        db.executemany(sql.RUN_CONTINUED, continued)


def _replay(db: sqlite3.Connection, step: sql.Replay) -> None:
    """Show ``step`` every counted game, in order, and write what each awards (inside a
    migration's transaction, on the connection's own thread)."""
    games = db.execute(sql.COUNTED_GAMES).fetchall()
    for game_id, finished_at in games:
        row = db.execute("SELECT * FROM games WHERE id = ?", (game_id,)).fetchone()
        assert row is not None  # read in the same transaction as its id
        logged = db.execute(
            "SELECT type, visibility, recipient, payload_json FROM game_events"
            " WHERE game_id = ? ORDER BY seq",
            (game_id,),
        ).fetchall()
        events = [EventRecord(r[0], r[1], r[2], json.loads(r[3])) for r in logged]
        record = sql.game_record(row)
        awards = step.game(record, events)
        if awards is not None:
            _award(db, record.guild_id, game_id, awards, finished_at)


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
    it never caught up: at 500 tables the WAL reached 512 MB in 12 minutes, and would have
    grown as long as the bot was busy. So once the WAL holds ``RESTART_FRAMES``, a RESTART
    follows: it copies what came during the PASSIVE one with the writers held off (a move
    finding the lock taken is queued), a few pages and a sync. Not every time: that would
    hold the moves off every few seconds. A reader still on an old snapshot past
    ``CHECKPOINT_WAIT`` leaves it for the next checkpoint.

    The write that starts the WAL over syncs it (its new header). Left to the next move, it
    did on the event loop: 100 to 250 ms, and the moves sent to aiosqlite's thread for 30 s
    as after any slow write. So this thread makes that write itself, at once, and ``hold``
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


_SET_TIMER = (
    "INSERT INTO timers (key, due, guild_id, payload_json, attempts, updated_at)"
    " VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (key) DO UPDATE SET due = excluded.due,"
    " guild_id = excluded.guild_id, payload_json = excluded.payload_json,"
    " attempts = excluded.attempts, updated_at = excluded.updated_at"
)


def _timer_row(timer: Timer, now: str) -> tuple[Any, ...]:
    return (timer.key, timer.due, timer.guild_id, _dumps(timer.payload), timer.attempts, now)


async def _rollback(db: aiosqlite.Connection) -> None:
    # Nothing may have been begun, or the connection may be gone: then nothing to undo.
    with contextlib.suppress(sqlite3.Error):
        await db.execute("ROLLBACK")


async def open_sqlite(path: str) -> Repository:
    """Typed as the ports, which is what makes mypy check that ``SqliteRepository``
    implements every one."""
    return await SqliteRepository.open(path)
