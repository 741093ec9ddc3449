"""The PostgreSQL repository: an asyncpg pool that several bot processes share, numbered
migrations each in one transaction, and an advisory lock per shard (one process runs a
shard at a time; another waits and takes it over when the first dies)."""

from __future__ import annotations

import asyncio
import functools
import json
import re
from collections.abc import AsyncIterator, Mapping, Sequence
from contextlib import asynccontextmanager
from datetime import UTC, datetime
from typing import Any

import asyncpg

from bot.config import database_password
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

# A statement that takes longer is a stalled database: the move is refused and retried,
# rather than holding its table's lock for ever.
COMMAND_TIMEOUT = 10.0
# Two processes starting at once must not both apply a migration: they take this lock
# (an advisory lock key of the project's own) for the time of the migrations.
MIGRATION_LOCK = 0x60BE1E7
MIGRATION_WAIT = 3600.0  # seconds a process waits for another's migrations
# Shard leases: the two-key advisory locks (SHARD_LOCK, shard id), and every process's
# shared (COUNT_LOCK, its shard count); both keys are 32-bit, and PostgreSQL keeps them
# apart from the one-key locks.
SHARD_LOCK = 0x60BE0000
COUNT_LOCK = 0x60BE0001
LEASE_CHECK_TIMEOUT = 5.0

# A pooled connection or a plain one: the queries run on either.
Connection = asyncpg.Connection | asyncpg.pool.PoolConnectionProxy

# What asyncpg raises when the server refuses, breaks the connection or stalls.
_FAILURES: tuple[type[BaseException], ...] = (
    asyncpg.PostgresError,
    asyncpg.InterfaceError,
    # A connection the server ended while it was idle can be caught mid-state by the next
    # query: asyncpg says so with this one (not an InterfaceError).
    asyncpg.InternalClientError,
    OSError,
    TimeoutError,
)

_OPEN_FAILURES: tuple[type[BaseException], ...] = (ValueError, *_FAILURES)  # ValueError: a bad URL


def migrations() -> list[tuple[int, str]]:
    """The numbered ``NNNN_name.sql`` files shipped with this backend, in order."""
    return sql.migrations("bot.storage.postgres")


def _dumps(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def _count(status: str) -> int:
    """The rows a command changed, from its status line ("UPDATE 1", "INSERT 0 1")."""
    return int(status.rsplit(" ", 1)[-1])


class PostgresRepository:
    def __init__(self, pool: asyncpg.Pool, dsn: str) -> None:
        self._pool = pool
        self._dsn = dsn
        # The connection that holds this process's shard locks (a lock lives as long as
        # its connection: a process that dies gives its shards up with it), and those held.
        self._lease_connection: asyncpg.Connection | None = None
        self._held: set[int] = set()

    @classmethod
    async def open(cls, dsn: str) -> PostgresRepository:
        try:
            pool = await asyncpg.create_pool(
                dsn, min_size=1, max_size=10, command_timeout=COMMAND_TIMEOUT, reset=_as_it_is
            )
        except _OPEN_FAILURES as error:
            raise StorageError(f"cannot open the database: {_safe(error, dsn)}") from error
        repository = cls(pool, dsn)
        try:
            await repository.migrate()
        except StorageError:
            await pool.close()
            raise
        return repository

    @asynccontextmanager
    async def _connection(self) -> AsyncIterator[Connection]:
        """A pooled connection; any failure of the database is a ``StorageError``."""
        try:
            async with self._pool.acquire(timeout=COMMAND_TIMEOUT) as connection:
                yield connection
        except StorageError:
            raise
        except asyncpg.UniqueViolationError:
            raise
        except _FAILURES as error:
            raise StorageError(str(error) or type(error).__name__) from error

    @asynccontextmanager
    async def _transaction(self) -> AsyncIterator[Connection]:
        async with self._connection() as connection, connection.transaction():
            yield connection

    async def migrate(self) -> int:
        """Apply every migration newer than the database's; returns the schema version."""
        shipped = migrations()
        if not shipped:
            raise StorageError("no SQL migrations found in bot/storage/postgres: broken install")
        # A connection of its own, not the pool's: the lock below lives as long as its
        # session, and the pool's connections are handed on as they are (``_as_it_is``).
        try:
            db = await asyncpg.connect(
                self._dsn, timeout=COMMAND_TIMEOUT, command_timeout=COMMAND_TIMEOUT
            )
            try:
                # Another process may be migrating (a backfill replays every past game):
                # wait for it as long as it takes, not one statement's timeout.
                await db.execute(
                    "SELECT pg_advisory_lock($1)", MIGRATION_LOCK, timeout=MIGRATION_WAIT
                )
                current = await _apply(db, shipped)
            finally:
                await _quietly_close(db)  # and the lock with it
        except _FAILURES as error:
            raise StorageError(f"cannot prepare the database: {_safe(error, self._dsn)}") from error
        return current

    async def close(self) -> None:
        await self._drop_lease()
        await self._pool.close()

    # ---- shard leases

    async def try_lock_shard(self, shard: int, count: int) -> bool:
        """Hold shard ``shard`` of ``count`` for this process, if no other process does and
        every process counts the shards alike (during a change of GOBELET_SHARD_COUNT, a
        server would belong to a shard of each count: the new count waits for the old)."""
        if shard in self._held:
            return True
        lease = await self._lease(count)
        try:
            counts = await lease.fetch(
                "SELECT DISTINCT objid FROM pg_locks WHERE locktype = 'advisory'"
                " AND classid = $1::bigint::oid AND objsubid = 2 AND granted",
                COUNT_LOCK,
            )
            if {int(row[0]) for row in counts} - {count}:
                return False
            held = await lease.fetchval("SELECT pg_try_advisory_lock($1, $2)", SHARD_LOCK, shard)
        except _FAILURES as error:
            await self._drop_lease()
            raise StorageError(str(error) or type(error).__name__) from error
        if held:
            self._held.add(shard)
        return bool(held)

    async def release_shard(self, shard: int) -> None:
        if shard not in self._held or self._lease_connection is None:
            return
        self._held.discard(shard)
        try:
            await self._lease_connection.execute(
                "SELECT pg_advisory_unlock($1, $2)", SHARD_LOCK, shard
            )
        except _FAILURES:
            await self._drop_lease()  # its locks go with it

    async def keep_shards(self, shards: Sequence[int], count: int) -> list[int]:
        """Ask the database whether this process's lease still stands (an idle connection
        can break unseen); one that broke is taken again if no other process took it."""
        lease = self._lease_connection
        try:
            if lease is None or lease.is_closed():
                raise ConnectionError("the lease's connection is closed")
            await lease.fetchval("SELECT 1", timeout=LEASE_CHECK_TIMEOUT)
            return [shard for shard in shards if shard not in self._held]
        except _FAILURES:  # ConnectionError is an OSError
            await self._drop_lease()
        lost = []
        for shard in shards:
            try:
                if not await self.try_lock_shard(shard, count):
                    lost.append(shard)
            except StorageError:
                lost.append(shard)
        return lost

    async def _lease(self, count: int) -> asyncpg.Connection:
        """The connection that holds this process's locks (its shards', and a shared lock
        naming its shard count): a process that dies lets them go with it."""
        if self._lease_connection is not None and not self._lease_connection.is_closed():
            return self._lease_connection
        try:
            connection = await asyncpg.connect(self._dsn, timeout=COMMAND_TIMEOUT)
            await connection.execute("SELECT pg_advisory_lock_shared($1, $2)", COUNT_LOCK, count)
        except _FAILURES as error:
            raise StorageError(str(error) or type(error).__name__) from error
        self._lease_connection, self._held = connection, set()
        return connection

    async def _drop_lease(self) -> None:
        if self._lease_connection is not None:
            await _quietly_close(self._lease_connection)
        self._lease_connection, self._held = None, set()

    # ---- games

    async def create_game(
        self, *, guild_id: int, channel_id: int, kind: str, meta: dict[str, Any]
    ) -> int:
        try:
            async with self._connection() as db:
                game_id = await db.fetchval(
                    "INSERT INTO games (guild_id, channel_id, kind, status, version, meta_json)"
                    " VALUES ($1, $2, $3, 'lobby', 0, $4) RETURNING id",
                    guild_id,
                    channel_id,
                    kind,
                    _dumps(meta),
                )
        except asyncpg.UniqueViolationError as error:
            raise ChannelBusy(f"channel {channel_id} already has a running game") from error
        return int(game_id)

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
        game = (
            version,
            status,
            None if state is None else _dumps(state),
            _dumps(meta),
            game_id,
            previous_version,
        )
        # One statement, so one round trip, atomic as any statement is.
        logged = _columns([_event_row(e) for e in events], 4)
        cancelled = [key for key, timer in (timers or {}).items() if timer is None]
        armed = _columns([_timer_row(t) for t in (timers or {}).values() if t is not None], 5)
        move = (*game, *logged, cancelled, *armed)
        async with self._connection() as db:
            if results is None:
                stored = await db.fetchval(_SAVE_MOVE, *move)
            else:  # a game's end: its figures are counted in the same statement
                parts, counted = _results_columns(results)
                stored = await db.fetchval(_end_game(parts), *move, *counted)
        if stored != 1:
            raise VersionConflict(f"game {game_id} is not at version {previous_version}")

    async def running_games(self, shards: Shards = ALL_SHARDS) -> list[GameRecord]:
        mine, params = sql.shard_filter(shards)
        async with self._connection() as db:
            rows = await db.fetch(
                sql.numbered(
                    f"SELECT * FROM games WHERE status IN ('lobby', 'active'){mine} ORDER BY id"
                ),
                *params,
            )
        return [sql.game_record(row) for row in rows]

    async def game(self, game_id: int) -> GameRecord | None:
        async with self._connection() as db:
            row = await db.fetchrow("SELECT * FROM games WHERE id = $1", game_id)
        return sql.game_record(row) if row else None

    async def last_ended_game(self, guild_id: int, channel_id: int, kind: str) -> GameRecord | None:
        async with self._connection() as db:
            row = await db.fetchrow(
                "SELECT * FROM games WHERE guild_id = $1 AND kind = $2"
                " AND status IN ('finished', 'stopped') AND channel_id = $3"
                " AND state_json IS NOT NULL ORDER BY id DESC LIMIT 1",
                guild_id,
                kind,
                channel_id,
            )
        return sql.game_record(row) if row else None

    async def events(self, game_id: int) -> list[EventRecord]:
        async with self._connection() as db:
            rows = await db.fetch(
                "SELECT type, visibility, recipient, payload_json FROM game_events"
                " WHERE game_id = $1 ORDER BY seq",
                game_id,
            )
        return [EventRecord(r[0], r[1], r[2], json.loads(r[3])) for r in rows]

    # ---- leaderboards

    async def ratings(self, guild_id: int, game: str, users: Sequence[int]) -> dict[int, Rating]:
        if not users:
            return {}
        async with self._connection() as db:
            rows = await db.fetch(
                "SELECT user_id, rating, games FROM ratings WHERE guild_id = $1 AND game = $2"
                " AND user_id = ANY($3::bigint[])",
                guild_id,
                game,
                list(users),
            )
        return {row[0]: Rating(row[1], row[2]) for row in rows}

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
        async with self._connection() as db:
            rows = await db.fetch(
                sql.numbered(sql.page_query(totals, criterion)), *params, limit, offset
            )
            if not rows:
                if offset == 0:
                    return [], 0
                count = await db.fetchval(sql.numbered(sql.count_query(totals, criterion)), *params)
                return [], int(count or 0)
        return [Standing(row[2], row[0], row[1]) for row in rows], rows[0][3]

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
        async with self._connection() as db:
            row = await db.fetchrow(
                sql.numbered(sql.standing_query(totals, criterion)), *params, user_id
            )
        return Standing(row[1], user_id, row[0]) if row else None

    async def player_figures(
        self, guild_id: int, user_id: int, boards: Sequence[Board]
    ) -> dict[str, dict[str, float]]:
        async with self._connection() as db:
            rows = await db.fetch(
                "SELECT game, metric, SUM(value), MAX(value) FROM stat_values"
                " WHERE guild_id = $1 AND user_id = $2 GROUP BY game, metric",
                guild_id,
                user_id,
            )
        return sql.figures(rows, boards)

    async def player_ratings(self, guild_id: int, user_id: int) -> dict[str, Rating]:
        async with self._connection() as db:
            rows = await db.fetch(
                "SELECT game, rating, games FROM ratings WHERE guild_id = $1 AND user_id = $2",
                guild_id,
                user_id,
            )
        return {row[0]: Rating(row[1], row[2]) for row in rows}

    async def last_figure_days(self, guild_id: int) -> dict[str, str]:
        async with self._connection() as db:
            rows = await db.fetch(sql.numbered(sql.LAST_FIGURE_DAYS), guild_id)
        return {row[0]: row[1] for row in rows}

    async def rating_history(self, guild_id: int, user_id: int) -> list[RatingPoint]:
        async with self._connection() as db:
            rows = await db.fetch(
                "SELECT game, at, rating FROM rating_history WHERE guild_id = $1"
                " AND user_id = $2 ORDER BY at, game",
                guild_id,
                user_id,
            )
        return [RatingPoint(row[0], row[1].timestamp(), row[2]) for row in rows]

    # ---- achievements

    async def achievements(self, guild_id: int, users: Sequence[int]) -> dict[int, list[Held]]:
        if not users:
            return {}
        async with self._connection() as db:
            rows = await db.fetch(
                "SELECT user_id, code, game_id, earned_at FROM achievements WHERE guild_id = $1"
                " AND user_id = ANY($2::bigint[]) ORDER BY earned_at, game_id, code",
                guild_id,
                list(users),
            )
        held: dict[int, list[Held]] = {}
        for row in rows:
            held.setdefault(row[0], []).append(Held(row[1], row[2], row[3]))
        return held

    async def streak_runs(self, guild_id: int, users: Sequence[int]) -> dict[tuple[int, str], int]:
        if not users:
            return {}
        async with self._connection() as db:
            rows = await db.fetch(
                "SELECT user_id, code, run FROM achievement_runs WHERE guild_id = $1"
                " AND user_id = ANY($2::bigint[])",
                guild_id,
                list(users),
            )
        return {(row[0], row[1]): row[2] for row in rows}

    async def forget_player(self, guild_id: int, user_id: int) -> int:
        async with self._transaction() as db:
            rows = 0
            for table in sql.PLAYER_TABLES:
                rows += _count(
                    await db.execute(
                        f"DELETE FROM {table} WHERE guild_id = $1 AND user_id = $2",
                        guild_id,
                        user_id,
                    )
                )
            # The display name they joined tables with (kept for the Yadès sheet pictures).
            third = await db.execute(
                "UPDATE games SET meta_json = (meta_json::jsonb #- ARRAY['names', $2])::json"
                " WHERE guild_id = $1 AND meta_json->'names'->$2 IS NOT NULL",
                guild_id,
                str(int(user_id)),
            )
        return rows + _count(third)

    # ---- web pages

    async def web_page(self, guild_id: int) -> WebPage | None:
        async with self._connection() as db:
            row = await db.fetchrow(
                "SELECT guild_id, token, guild_name FROM web_pages WHERE guild_id = $1", guild_id
            )
        return WebPage(row[0], row[1], row[2]) if row else None

    async def web_page_of(self, token: str) -> WebPage | None:
        async with self._connection() as db:
            row = await db.fetchrow(
                "SELECT guild_id, token, guild_name FROM web_pages WHERE token = $1", token
            )
        return WebPage(row[0], row[1], row[2]) if row else None

    async def open_web_page(self, page: WebPage) -> None:
        async with self._connection() as db:
            await db.execute(
                "INSERT INTO web_pages (guild_id, token, guild_name) VALUES ($1, $2, $3)"
                " ON CONFLICT (guild_id) DO UPDATE SET token = excluded.token,"
                " guild_name = excluded.guild_name, updated_at = now()",
                page.guild_id,
                page.token,
                page.guild_name,
            )

    async def close_web_page(self, guild_id: int) -> bool:
        async with self._connection() as db:
            status = await db.execute("DELETE FROM web_pages WHERE guild_id = $1", guild_id)
        return _count(status) > 0

    async def player_names(self, guild_id: int, users: Sequence[int]) -> dict[int, str]:
        if not users:
            return {}
        async with self._connection() as db:
            rows = await db.fetch(
                "SELECT user_id, name FROM player_names WHERE guild_id = $1"
                " AND user_id = ANY($2::bigint[])",
                guild_id,
                list(users),
            )
        return {row[0]: row[1] for row in rows}

    # ---- seasons

    async def seasons(self, guild_id: int) -> list[Season]:
        async with self._connection() as db:
            rows = await db.fetch(
                f"SELECT {sql.SEASON_COLUMNS} FROM seasons WHERE guild_id = $1 ORDER BY number",
                guild_id,
            )
        return [sql.season(row) for row in rows]

    async def first_figure_day(self, guild_id: int) -> str | None:
        async with self._connection() as db:
            day: str | None = await db.fetchval(
                "SELECT MIN(day) FROM stat_values WHERE guild_id = $1", guild_id
            )
        return day

    async def open_season(self, guild_id: int, season: Season, timer: Timer) -> Season:
        async with self._transaction() as db:
            # One current season per server (a unique index): a second opener inserts nothing.
            inserted = await db.execute(
                "INSERT INTO seasons (guild_id, number, started, ends) VALUES ($1, $2, $3, $4)"
                " ON CONFLICT DO NOTHING",
                guild_id,
                season.number,
                season.started,
                season.ends,
            )
            if _count(inserted) == 1:
                await db.execute(_SET_TIMER, *_timer_row(timer))
                return season
            row = await db.fetchrow(
                f"SELECT {sql.SEASON_COLUMNS} FROM seasons"
                " WHERE guild_id = $1 AND closed_at IS NULL",
                guild_id,
            )
        if row is None:  # a season of that number, closed: the caller's number was stale
            raise StorageError(f"season {season.number} of server {guild_id} exists, closed")
        return sql.season(row)

    async def move_season_end(self, guild_id: int, number: int, ends: str, timer: Timer) -> bool:
        async with self._transaction() as db:
            moved = await db.execute(
                "UPDATE seasons SET ends = $1 WHERE guild_id = $2 AND number = $3"
                " AND closed_at IS NULL",
                ends,
                guild_id,
                number,
            )
            if _count(moved) != 1:
                return False
            await db.execute(_SET_TIMER, *_timer_row(timer))
        return True

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
        async with self._transaction() as db:
            closed = await db.execute(
                "UPDATE seasons SET closed_at = now() WHERE guild_id = $1 AND number = $2"
                " AND closed_at IS NULL",
                guild_id,
                number,
            )
            if _count(closed) != 1:
                return False
            await db.execute(
                "INSERT INTO season_ratings (guild_id, number, game, user_id, rating, games)"
                " SELECT guild_id, $1, game, user_id, rating, games FROM ratings"
                " WHERE guild_id = $2 AND games > 0",
                number,
                guild_id,
            )
            await db.execute(
                "UPDATE ratings SET rating = $1 + $2 * (rating - $1), games = 0,"
                " updated_at = now() WHERE guild_id = $3",
                initial,
                carry,
                guild_id,
            )
            await db.execute(
                "INSERT INTO rating_history (guild_id, game, user_id, rating)"
                " SELECT guild_id, game, user_id, rating FROM ratings WHERE guild_id = $1",
                guild_id,
            )
            await db.execute(
                "INSERT INTO seasons (guild_id, number, started, ends) VALUES ($1, $2, $3, $4)",
                guild_id,
                following.number,
                following.started,
                following.ends,
            )
            for timer in timers:
                await db.execute(_SET_TIMER, *_timer_row(timer))
        return True

    # ---- server settings

    async def guild_settings(self, guild_id: int) -> dict[str, Any]:
        async with self._connection() as db:
            raw = await db.fetchval(
                "SELECT settings_json FROM guild_settings WHERE guild_id = $1", guild_id
            )
        return json.loads(raw) if raw else {}

    async def save_guild_settings(self, guild_id: int, settings: dict[str, Any]) -> None:
        async with self._connection() as db:
            await db.execute(
                "INSERT INTO guild_settings (guild_id, settings_json) VALUES ($1, $2)"
                " ON CONFLICT (guild_id) DO UPDATE SET settings_json = excluded.settings_json,"
                " updated_at = now()",
                guild_id,
                _dumps(settings),
            )

    # ---- timers

    async def set_timer(self, timer: Timer) -> None:
        async with self._connection() as db:
            await db.execute(_SET_TIMER, *_timer_row(timer))

    async def cancel_timer(self, key: str, due: float | None = None) -> bool:
        async with self._connection() as db:
            if due is None:
                status = await db.execute("DELETE FROM timers WHERE key = $1", key)
            else:
                status = await db.execute(
                    "DELETE FROM timers WHERE key = $1 AND due = $2", key, due
                )
        return _count(status) > 0

    async def reschedule_timer(self, key: str, due: float, timer: Timer) -> bool:
        async with self._connection() as db:
            status = await db.execute(
                "UPDATE timers SET due = $1, attempts = $2, updated_at = now()"
                " WHERE key = $3 AND due = $4",
                timer.due,
                timer.attempts,
                key,
                due,
            )
        return _count(status) > 0

    async def timers(self, shards: Shards = ALL_SHARDS) -> list[Timer]:
        mine, params = sql.shard_filter(shards)
        async with self._connection() as db:
            rows = await db.fetch(
                sql.numbered(
                    f"SELECT {sql.TIMER_COLUMNS} FROM timers WHERE TRUE{mine} ORDER BY due, key"
                ),
                *params,
            )
        return [sql.timer(row) for row in rows]


def _results_columns(results: GameResults) -> tuple[tuple[str, ...], tuple[Any, ...]]:
    """A finished game's results as ``_END_GAME_PARTS``' parameters: the parts with rows,
    and their parameters, in order (each part's columns first, the rows of each in one
    order whatever the game; then its single values)."""
    kept_max = results.maxima
    sums: list[tuple[int, str, float]] = []
    maxima: list[tuple[int, str, float]] = []
    for user_id, metrics in results.figures.items():
        for metric, value in metrics.items():
            target = maxima if metric in kept_max else sums
            target.append((user_id, metric, float(value)))
    # The guild and the game come from the game's row: the award rows' first and fourth
    # columns are the statement's own.
    earned, restarted, continued = sql.award_rows(0, 0, results.awards, None)
    rated = sorted(results.ratings.items())
    board, day = results.board.name, results.day
    columns: dict[str, list[Any]] = {
        "summed": [*_columns(sorted(sums), 3), board, day],
        "kept_best": [*_columns(sorted(maxima), 3), board, day],
        "named": _columns(sorted(results.names.items()), 2),
        "earned": [[r[1] for r in earned], [r[2] for r in earned], datetime.now(UTC)],
        "restarted": _columns([r[1:] for r in restarted], 3),
        "continued": _columns([r[1:] for r in continued], 3),
        "rated": [
            [user_id for user_id, _ in rated],
            [float(rating) for _, rating in rated],
            [results.rated_from.get(user_id) for user_id, _ in rated],
            board,
        ],
    }
    parts = tuple(name for name in _END_GAME_PARTS if columns[name][0])
    return parts, tuple(value for name in parts for value in columns[name])


async def _award(
    db: Connection, guild_id: int, game_id: int, awards: Awards, earned_at: datetime
) -> None:
    """Write what a game earned (a game's end, or the replay of a past one)."""
    earned, restarted, continued = sql.award_rows(guild_id, game_id, awards, earned_at)
    if earned:
        await db.executemany(sql.numbered(sql.AWARD), earned)
    if restarted:
        await db.executemany(sql.numbered(sql.RUN_RESTARTED), restarted)
    if continued:
        await db.executemany(sql.numbered(sql.RUN_CONTINUED), continued)


async def _replay(db: Connection, step: sql.Replay) -> None:
    """Show ``step`` every counted game, in order, and write what each awards (inside a
    migration's transaction)."""
    for game_id, finished_at in await db.fetch(sql.COUNTED_GAMES):
        row = await db.fetchrow("SELECT * FROM games WHERE id = $1", game_id)
        assert row is not None  # read in the same transaction as its id
        logged = await db.fetch(
            "SELECT type, visibility, recipient, payload_json FROM game_events"
            " WHERE game_id = $1 ORDER BY seq",
            game_id,
        )
        events = [EventRecord(r[0], r[1], r[2], json.loads(r[3])) for r in logged]
        record = sql.game_record(row)
        awards = step.game(record, events)
        if awards is not None:
            await _award(db, record.guild_id, game_id, awards, finished_at)


_SAVE_GAME = (
    "UPDATE games SET version = $1, status = $2, state_json = $3, meta_json = $4,"
    " updated_at = now(),"
    " finished_at = CASE WHEN $2 IN ('lobby', 'active') THEN finished_at"
    " ELSE COALESCE(finished_at, now()) END"
    " WHERE id = $5 AND version = $6"
)
# A move's parts after the game's update (the ``game`` CTE, which returns the game's id):
# its events numbered after the last one, its timers set or cancelled. Every part is
# conditioned on the update having found the game at the version expected.
_MOVE_PARTS = """
logged AS (
    INSERT INTO game_events (game_id, seq, type, visibility, recipient, payload_json)
    SELECT game.id, last.seq + e.n, e.type, e.visibility, e.recipient, e.payload::json
    FROM game,
        (SELECT COALESCE(MAX(seq), 0) AS seq FROM game_events WHERE game_id = $5) AS last,
        unnest($7::text[], $8::text[], $9::bigint[], $10::text[])
            WITH ORDINALITY AS e(type, visibility, recipient, payload, n)
),
cancelled AS (
    DELETE FROM timers WHERE key = ANY($11::text[]) AND EXISTS (SELECT FROM game)
),
armed AS (
    INSERT INTO timers (key, due, guild_id, payload_json, attempts)
    SELECT t.key, t.due, t.guild_id, t.payload::json, t.attempts
    FROM game, unnest($12::text[], $13::float8[], $14::bigint[], $15::text[], $16::int[])
        AS t(key, due, guild_id, payload, attempts)
    ON CONFLICT (key) DO UPDATE SET due = excluded.due, guild_id = excluded.guild_id,
        payload_json = excluded.payload_json, attempts = excluded.attempts, updated_at = now()
)"""
# A move in one statement, atomic as any statement is; it says how many games it updated.
_SAVE_MOVE = f"""
WITH game AS ({_SAVE_GAME} RETURNING id),{_MOVE_PARTS}
SELECT count(*) FROM game
"""
# A game's end in one statement too (one round trip where a transaction of a statement
# per table took a dozen): the move, then, once the game is counted for the first time,
# its figures, its players' names, what they earned and their ratings, each added to what
# another game ending at once may have changed. Only the parts with rows are in the
# statement (``_end_game``), each with parameters of its own: {0}, {1}… the columns of its
# rows, then its single values. The rows of each come in one order whatever the game, so
# that two games ending at once with common players take their row locks in the same
# order (and never deadlock).
# A game's figures and its players' streaks: the same rows, each part saying what a
# conflict does (a figure added or kept at its best, a streak set anew or continued).
_STAT_ROWS = """
    INSERT INTO stat_values (guild_id, game, user_id, metric, day, value)
    SELECT game.guild_id, {3}::text, s.user_id, s.metric, {4}::text, s.value
    FROM game, counted, unnest({0}::bigint[], {1}::text[], {2}::float8[])
        WITH ORDINALITY AS s(user_id, metric, value, n)
    ORDER BY s.n
    ON CONFLICT (guild_id, game, metric, day, user_id)"""
_RUN_ROWS = """
    INSERT INTO achievement_runs (guild_id, user_id, code, run)
    SELECT game.guild_id, r.user_id, r.code, r.run
    FROM game, counted, unnest({0}::bigint[], {1}::text[], {2}::int[])
        WITH ORDINALITY AS r(user_id, code, run, n)
    ORDER BY r.n
    ON CONFLICT (guild_id, user_id, code)"""
_END_GAME_PARTS: dict[str, str] = {
    "summed": _STAT_ROWS + "\n        DO UPDATE SET value = stat_values.value + excluded.value",
    "kept_best": _STAT_ROWS
    + "\n        DO UPDATE SET value = GREATEST(stat_values.value, excluded.value)",
    "named": """
    INSERT INTO player_names (guild_id, user_id, name, game_id)
    SELECT game.guild_id, p.user_id, p.name, game.id
    FROM game, counted, unnest({0}::bigint[], {1}::text[]) WITH ORDINALITY AS p(user_id, name, n)
    ORDER BY p.n
    ON CONFLICT (guild_id, user_id) DO UPDATE SET name = excluded.name, game_id = excluded.game_id""",
    "earned": """
    INSERT INTO achievements (guild_id, user_id, code, game_id, earned_at)
    SELECT game.guild_id, a.user_id, a.code, game.id, {2}::timestamptz
    FROM game, counted, unnest({0}::bigint[], {1}::text[]) WITH ORDINALITY AS a(user_id, code, n)
    ORDER BY a.n
    ON CONFLICT (guild_id, user_id, code) DO NOTHING""",
    "restarted": _RUN_ROWS + " DO UPDATE SET run = excluded.run",
    "continued": _RUN_ROWS + " DO UPDATE SET run = achievement_runs.run + excluded.run",
    # The change is added rather than the rating overwritten: another game may have moved
    # it since it was read (with no rating it was computed from, a plain set).
    "rated": """
    INSERT INTO ratings (guild_id, game, user_id, rating, games)
    SELECT game.guild_id, {3}::text, r.user_id, r.rating, 1
    FROM game, counted, unnest({0}::bigint[], {1}::float8[])
        WITH ORDINALITY AS r(user_id, rating, n)
    ORDER BY r.n
    ON CONFLICT (guild_id, game, user_id) DO UPDATE
    SET rating = ratings.rating + excluded.rating - COALESCE(
            (SELECT f.rated_from FROM unnest({0}::bigint[], {2}::float8[]) AS f(user_id, rated_from)
             WHERE f.user_id = excluded.user_id),
            ratings.rating),
        games = ratings.games + 1, updated_at = now()
    RETURNING guild_id, game, user_id, rating
),
history AS (
    INSERT INTO rating_history (guild_id, game, user_id, rating)
    SELECT guild_id, game, user_id, rating FROM rated""",
}


@functools.cache
def _end_game(parts: tuple[str, ...]) -> str:
    """The statement of a game's end whose results have rows for ``parts``."""
    statement = [f"WITH game AS ({_SAVE_GAME} RETURNING id, guild_id),{_MOVE_PARTS}"]
    statement.append(
        "counted AS (\n    INSERT INTO counted_games (game_id) SELECT id FROM game"
        "\n    ON CONFLICT DO NOTHING RETURNING game_id\n)"
    )
    number = 17  # the parameters after the move's
    for name in parts:
        template = _END_GAME_PARTS[name]
        count = len(set(re.findall(r"\{(\d)\}", template)))
        numbered = template.format(*(f"${n}" for n in range(number, number + count)))
        statement.append(f"{name} AS ({numbered}\n)")
        number += count
    return ",\n".join(statement) + "\nSELECT count(*) FROM game"


_SET_TIMER = (
    "INSERT INTO timers (key, due, guild_id, payload_json, attempts) VALUES ($1, $2, $3, $4, $5)"
    " ON CONFLICT (key) DO UPDATE SET due = excluded.due, guild_id = excluded.guild_id,"
    " payload_json = excluded.payload_json, attempts = excluded.attempts, updated_at = now()"
)


def _columns(rows: Sequence[tuple[Any, ...]], width: int) -> list[list[Any]]:
    """Rows as columns (the arrays a statement unnests back into rows)."""
    return [[row[column] for row in rows] for column in range(width)]


def _event_row(event: EventRecord) -> tuple[Any, ...]:
    return (event.type, event.visibility, event.recipient, _dumps(event.payload))


def _timer_row(timer: Timer) -> tuple[Any, ...]:
    return (timer.key, timer.due, timer.guild_id, _dumps(timer.payload), timer.attempts)


def _safe(error: BaseException, dsn: str) -> str:
    """An error's text without the URL's password, which some drivers' messages repeat."""
    text = str(error) or type(error).__name__
    password = database_password(dsn)
    return text.replace(password, "<hidden>") if password else text


async def _apply(db: asyncpg.Connection, shipped: list[tuple[int, str]]) -> int:
    """Apply the migrations in ``shipped`` newer than the database's; its version after."""
    await db.execute(
        "CREATE TABLE IF NOT EXISTS schema_migrations ("
        "version INTEGER PRIMARY KEY, applied_at TIMESTAMPTZ NOT NULL DEFAULT now())"
    )
    current = int(await db.fetchval("SELECT COALESCE(MAX(version), 0) FROM schema_migrations"))
    replays = sql.replays()
    for version, script in shipped:
        if version <= current:
            continue
        # One transaction per migration: the schema, what its replay of the past games
        # writes, and its number move together.
        async with db.transaction():
            await db.execute(script)
            replay = replays.get(version)
            if replay is not None:
                await _replay(db, replay())
            await db.execute("INSERT INTO schema_migrations (version) VALUES ($1)", version)
        current = version
    return current


async def _as_it_is(connection: asyncpg.Connection) -> None:
    """How the pool takes a connection back: as it is. asyncpg's default sends a statement
    that resets the session (advisory locks, cursors, LISTEN, SET), a second round trip
    that every move would wait for; the repository leaves no such state on a pooled
    connection (its locks are held on connections of their own). A transaction left open
    is still rolled back by the pool itself."""


async def _quietly_close(connection: asyncpg.Connection) -> None:
    try:
        await asyncio.wait_for(connection.close(), COMMAND_TIMEOUT)
    except _FAILURES:
        connection.terminate()


async def open_postgres(url: str) -> Repository:
    return await PostgresRepository.open(url)
