"""The SQL repository: every storage port, each statement written once, over a driver
(``bot.storage.driver``) for SQLite or PostgreSQL."""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from typing import Any

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
    Season,
    Shards,
    Standing,
    StorageError,
    Timer,
    TournamentRecord,
    VersionConflict,
    WebPage,
)
from bot.storage.driver import (
    Driver,
    Execute,
    FetchRow,
    Move,
    Plan,
    Row,
    UniqueViolation,
    moment,
)


class SqlRepository:
    """Every port (``bot.storage.base.Repository``) on one database."""

    def __init__(self, driver: Driver) -> None:
        self.driver = driver
        self._dialect = driver.dialect

    def migrations(self) -> list[tuple[int, str]]:
        """The numbered migrations as this database runs them, in order."""
        raise NotImplementedError

    async def migrate(self) -> int:
        """Apply every migration newer than the database's; returns the schema version."""
        shipped = self.migrations()
        if not shipped:
            raise StorageError("no SQL migrations found in bot/storage: broken install")
        return await self.driver.migrate(shipped, sql.replays())

    async def close(self) -> None:
        await self.driver.close()

    # ---- shard leases: the database's own kind of lock

    async def try_lock_shard(self, shard: int, count: int) -> bool:
        return await self.driver.try_lock_shard(shard, count)

    async def release_shard(self, shard: int) -> None:
        await self.driver.release_shard(shard)

    async def keep_shards(self, shards: Sequence[int], count: int) -> list[int]:
        return await self.driver.keep_shards(shards, count)

    # ---- gateway identifies

    async def take_identify_slot(self, bucket: int, window: float) -> float:
        now = self._dialect.epoch

        def plan() -> Plan[float]:
            yield Execute(
                "INSERT INTO identify_slots (bucket, identified_at) VALUES (?, 0)"
                " ON CONFLICT (bucket) DO NOTHING",
                (bucket,),
            )
            # One statement: a concurrent taker's update makes this one's condition false.
            taken = yield Execute(
                f"UPDATE identify_slots SET identified_at = {now}"
                f" WHERE bucket = ? AND identified_at <= {now} - ?",
                (bucket, float(window)),
            )
            if taken:
                return 0.0
            row = yield FetchRow(
                f"SELECT identified_at + ? - {now} FROM identify_slots WHERE bucket = ?",
                (float(window), bucket),
            )
            return max(0.0, float(row[0])) if row is not None else 0.0

        return await self.driver.transaction(plan())

    async def record_start(self, shards: Sequence[int], within: float) -> int:
        now = self._dialect.epoch

        def plan() -> Plan[int]:
            streak = 0
            for shard in shards:
                row = yield FetchRow(
                    f"SELECT streak, started_at > {now} - ? FROM shard_starts WHERE shard = ?",
                    (float(within), shard),
                )
                mine = int(row[0]) + 1 if row is not None and row[1] else 0
                yield Execute(
                    f"INSERT INTO shard_starts (shard, started_at, streak) VALUES (?, {now}, ?)"
                    " ON CONFLICT (shard) DO UPDATE SET started_at = excluded.started_at,"
                    " streak = excluded.streak",
                    (shard, mine),
                )
                streak = max(streak, mine)
            return streak

        return await self.driver.transaction(plan())

    async def forget_starts(self, shards: Sequence[int]) -> None:
        for shard in shards:
            await self.driver.execute("DELETE FROM shard_starts WHERE shard = ?", (shard,))

    # ---- games

    async def create_game(
        self, *, guild_id: int, channel_id: int, kind: str, meta: dict[str, Any]
    ) -> int:
        try:
            game_id = await self.driver.insert(
                "INSERT INTO games (guild_id, channel_id, kind, status, version, meta_json,"
                " created_at, updated_at) VALUES (?, ?, ?, 'lobby', 0, ?, now(), now())"
                " RETURNING id",
                (guild_id, channel_id, kind, sql.dumps(meta)),
            )
        except UniqueViolation as error:
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
        move = Move(
            game_id, previous_version, version, status, state, meta, events, results, timers or {}
        )
        if not await self.driver.save_move(move):
            raise VersionConflict(f"game {game_id} is not at version {previous_version}")

    async def running_games(self, shards: Shards = ALL_SHARDS) -> list[GameRecord]:
        mine, params = sql.shard_filter(shards)
        rows = await self.driver.fetch(
            f"SELECT * FROM games WHERE status IN ('lobby', 'active'){mine} ORDER BY id", params
        )
        return [sql.game_record(row) for row in rows]

    async def game(self, game_id: int) -> GameRecord | None:
        rows = await self.driver.fetch(sql.GAME, (game_id,), small=True)
        return sql.game_record(rows[0]) if rows else None

    async def last_ended_game(self, guild_id: int, channel_id: int, kind: str) -> GameRecord | None:
        rows = await self.driver.fetch(
            "SELECT * FROM games WHERE guild_id = ? AND kind = ?"
            " AND status IN ('finished', 'stopped') AND channel_id = ?"
            " AND state_json IS NOT NULL ORDER BY id DESC LIMIT 1",
            (guild_id, kind, channel_id),
            small=True,
        )
        return sql.game_record(rows[0]) if rows else None

    async def save_messages(self, game_id: int, messages: Mapping[str, Any]) -> None:
        await self.driver.execute(
            "UPDATE games SET messages_json = ? WHERE id = ?", (sql.dumps(messages), game_id)
        )

    async def messages(self, game_ids: Sequence[int]) -> dict[int, dict[str, Any]]:
        if not game_ids:
            return {}
        mine, params = self._dialect.any_of("id", game_ids)
        rows = await self.driver.fetch(f"SELECT id, messages_json FROM games WHERE {mine}", params)
        return {int(row[0]): json.loads(row[1]) if row[1] else {} for row in rows}

    async def events(self, game_id: int) -> list[EventRecord]:
        rows = await self.driver.fetch(sql.EVENTS, (game_id,), small=True)
        return [sql.event(row) for row in rows]

    # ---- leaderboards

    async def ratings(self, guild_id: int, game: str, users: Sequence[int]) -> dict[int, Rating]:
        if not users:
            return {}
        mine, params = self._dialect.any_of("user_id", users)
        rows = await self.driver.fetch(
            f"SELECT user_id, rating, games FROM ratings WHERE guild_id = ? AND game = ?"
            f" AND {mine}",
            (guild_id, game, *params),
            small=True,
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
        rows = await self.driver.fetch(sql.page_query(totals, criterion), (*params, limit, offset))
        if not rows:
            if offset == 0:
                return [], 0
            count = await self.driver.fetchval(sql.count_query(totals, criterion), params)
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
        row = await self.driver.fetchrow(sql.standing_query(totals, criterion), (*params, user_id))
        return Standing(row[1], user_id, row[0]) if row else None

    async def player_figures(
        self, guild_id: int, user_id: int, boards: Sequence[Board]
    ) -> dict[str, dict[str, float]]:
        rows = await self.driver.fetch(
            "SELECT game, metric, SUM(value), MAX(value) FROM stat_values"
            " WHERE guild_id = ? AND user_id = ? GROUP BY game, metric",
            (guild_id, user_id),
        )
        return sql.figures(rows, boards)

    async def player_ratings(self, guild_id: int, user_id: int) -> dict[str, Rating]:
        rows = await self.driver.fetch(
            "SELECT game, rating, games FROM ratings WHERE guild_id = ? AND user_id = ?",
            (guild_id, user_id),
        )
        return {row[0]: Rating(row[1], row[2]) for row in rows}

    async def last_figure_days(self, guild_id: int) -> dict[str, str]:
        rows = await self.driver.fetch(
            "SELECT game, MAX(day) FROM stat_values WHERE guild_id = ? GROUP BY game", (guild_id,)
        )
        return {row[0]: row[1] for row in rows}

    async def rating_history(self, guild_id: int, user_id: int) -> list[RatingPoint]:
        rows = await self.driver.fetch(
            "SELECT game, at, rating FROM rating_history WHERE guild_id = ? AND user_id = ?"
            f" ORDER BY at, {self._dialect.history_tiebreak}",
            (guild_id, user_id),
        )
        return [RatingPoint(row[0], moment(row[1]).timestamp(), row[2]) for row in rows]

    async def forget_player(self, guild_id: int, user_id: int) -> int:
        return await self.driver.transaction(self._forget(guild_id, user_id))

    def _forget(self, guild_id: int, user_id: int) -> Plan[int]:
        rows = 0
        for table in sql.PLAYER_TABLES:
            rows += yield Execute(
                f"DELETE FROM {table} WHERE guild_id = ? AND user_id = ?", (guild_id, user_id)
            )
        # The display name they joined tables with (kept for the Yadès sheet pictures), and
        # signed up to tournaments with (the web page's).
        rows += yield Execute(*self._dialect.forget_name("games", "meta_json", guild_id, user_id))
        rows += yield Execute(
            *self._dialect.forget_name("tournaments", "data_json", guild_id, user_id)
        )
        return rows

    # ---- achievements

    async def achievements(self, guild_id: int, users: Sequence[int]) -> dict[int, list[Held]]:
        if not users:
            return {}
        mine, params = self._dialect.any_of("user_id", users)
        rows = await self.driver.fetch(
            f"SELECT user_id, code, game_id, earned_at FROM achievements WHERE guild_id = ?"
            f" AND {mine} ORDER BY earned_at, game_id, code",
            (guild_id, *params),
            small=True,
        )
        held: dict[int, list[Held]] = {}
        for row in rows:
            held.setdefault(row[0], []).append(Held(row[1], row[2], moment(row[3])))
        return held

    async def streak_runs(self, guild_id: int, users: Sequence[int]) -> dict[tuple[int, str], int]:
        if not users:
            return {}
        mine, params = self._dialect.any_of("user_id", users)
        rows = await self.driver.fetch(
            f"SELECT user_id, code, run FROM achievement_runs WHERE guild_id = ? AND {mine}",
            (guild_id, *params),
            small=True,
        )
        return {(row[0], row[1]): row[2] for row in rows}

    # ---- server settings

    async def guild_settings(self, guild_id: int) -> dict[str, Any]:
        rows = await self.driver.fetch(
            "SELECT settings_json FROM guild_settings WHERE guild_id = ?", (guild_id,), small=True
        )
        return json.loads(rows[0][0]) if rows else {}

    async def save_guild_settings(self, guild_id: int, settings: dict[str, Any]) -> None:
        await self.driver.execute(
            "INSERT INTO guild_settings (guild_id, settings_json, updated_at) VALUES (?, ?, now())"
            " ON CONFLICT (guild_id) DO UPDATE SET settings_json = excluded.settings_json,"
            " updated_at = excluded.updated_at",
            (guild_id, sql.dumps(settings)),
        )

    # ---- timers

    async def set_timer(self, timer: Timer) -> None:
        await self.driver.execute(sql.SET_TIMER, sql.timer_row(timer))

    async def cancel_timer(self, key: str, due: float | None = None) -> bool:
        if due is None:
            return await self.driver.execute(sql.CANCEL_TIMER, (key,)) > 0
        return (
            await self.driver.execute("DELETE FROM timers WHERE key = ? AND due = ?", (key, due))
            > 0
        )

    async def reschedule_timer(self, key: str, due: float, timer: Timer) -> bool:
        changed = await self.driver.execute(
            "UPDATE timers SET due = ?, attempts = ?, updated_at = now() WHERE key = ? AND due = ?",
            (timer.due, timer.attempts, key, due),
        )
        return changed > 0

    async def timers(self, shards: Shards = ALL_SHARDS) -> list[Timer]:
        mine, params = sql.shard_filter(shards)
        rows = await self.driver.fetch(
            f"SELECT {sql.TIMER_COLUMNS} FROM timers WHERE 1 = 1{mine} ORDER BY due, key", params
        )
        return [sql.timer(row) for row in rows]

    # ---- tournaments

    async def create_tournament(
        self,
        *,
        guild_id: int,
        channel_id: int,
        game: str,
        data: dict[str, Any],
        timer: Callable[[int], Timer],
    ) -> int:
        try:
            return await self.driver.transaction(
                _create_tournament(guild_id, channel_id, game, data, timer)
            )
        except UniqueViolation as error:
            raise ChannelBusy(f"channel {channel_id} already has a tournament") from error

    async def save_tournament(
        self,
        tournament_id: int,
        *,
        status: str,
        data: dict[str, Any],
        timers: Mapping[str, Timer | None] | None = None,
    ) -> None:
        await self.driver.transaction(_save_tournament(tournament_id, status, data, timers or {}))

    async def tournament(self, tournament_id: int) -> TournamentRecord | None:
        rows = await self.driver.fetch(
            f"SELECT {_TOURNAMENT} FROM tournaments WHERE id = ?", (tournament_id,), small=True
        )
        return _tournament(rows[0]) if rows else None

    async def open_tournaments(self, shards: Shards = ALL_SHARDS) -> list[TournamentRecord]:
        mine, params = sql.shard_filter(shards)
        rows = await self.driver.fetch(
            f"SELECT {_TOURNAMENT} FROM tournaments WHERE status IN ('signup', 'running')"
            f"{mine} ORDER BY id",
            params,
        )
        return [_tournament(row) for row in rows]

    async def tournaments(self, guild_id: int, limit: int = 10) -> list[TournamentRecord]:
        rows = await self.driver.fetch(
            f"SELECT {_TOURNAMENT} FROM tournaments WHERE guild_id = ?"
            " AND status <> 'cancelled' ORDER BY id DESC LIMIT ?",
            (guild_id, limit),
            small=True,
        )
        return [_tournament(row) for row in rows]

    async def award(self, guild_id: int, user_id: int, code: str, game_id: int) -> bool:
        added = await self.driver.execute(sql.AWARD, (guild_id, user_id, code, game_id, None))
        return added > 0

    # ---- web pages

    async def web_page(self, guild_id: int) -> WebPage | None:
        row = await self.driver.fetchrow(
            "SELECT guild_id, token, guild_name FROM web_pages WHERE guild_id = ?", (guild_id,)
        )
        return WebPage(row[0], row[1], row[2]) if row else None

    async def web_page_of(self, token: str) -> WebPage | None:
        row = await self.driver.fetchrow(
            "SELECT guild_id, token, guild_name FROM web_pages WHERE token = ?", (token,)
        )
        return WebPage(row[0], row[1], row[2]) if row else None

    async def open_web_page(self, page: WebPage) -> None:
        await self.driver.execute(
            "INSERT INTO web_pages (guild_id, token, guild_name, updated_at)"
            " VALUES (?, ?, ?, now()) ON CONFLICT (guild_id) DO UPDATE SET token = excluded.token,"
            " guild_name = excluded.guild_name, updated_at = excluded.updated_at",
            (page.guild_id, page.token, page.guild_name),
        )

    async def close_web_page(self, guild_id: int) -> bool:
        changed = await self.driver.execute("DELETE FROM web_pages WHERE guild_id = ?", (guild_id,))
        return changed > 0

    async def player_names(self, guild_id: int, users: Sequence[int]) -> dict[int, str]:
        if not users:
            return {}
        mine, params = self._dialect.any_of("user_id", users)
        rows = await self.driver.fetch(
            f"SELECT user_id, name FROM player_names WHERE guild_id = ? AND {mine}",
            (guild_id, *params),
            small=True,
        )
        return {row[0]: row[1] for row in rows}

    # ---- seasons

    async def seasons(self, guild_id: int) -> list[Season]:
        rows = await self.driver.fetch(
            f"SELECT {sql.SEASON_COLUMNS} FROM seasons WHERE guild_id = ? ORDER BY number",
            (guild_id,),
            small=True,
        )
        return [sql.season(row) for row in rows]

    async def first_figure_day(self, guild_id: int) -> str | None:
        day: str | None = await self.driver.fetchval(
            "SELECT MIN(day) FROM stat_values WHERE guild_id = ?", (guild_id,)
        )
        return day

    async def open_season(self, guild_id: int, season: Season, timer: Timer) -> Season:
        return await self.driver.transaction(_open_season(guild_id, season, timer))

    async def move_season_end(self, guild_id: int, number: int, ends: str, timer: Timer) -> bool:
        return await self.driver.transaction(_move_season_end(guild_id, number, ends, timer))

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
        plan = _close_season(guild_id, number, following, timers, carry, initial)
        return await self.driver.transaction(plan)


_TOURNAMENT = "id, guild_id, channel_id, game, status, data_json"


def _tournament(row: Row) -> TournamentRecord:
    return TournamentRecord(row[0], row[1], row[2], row[3], row[4], json.loads(row[5]))


def _create_tournament(
    guild_id: int, channel_id: int, game: str, data: dict[str, Any], timer: Callable[[int], Timer]
) -> Plan[int]:
    row = yield FetchRow(
        "INSERT INTO tournaments (guild_id, channel_id, game, status, data_json, created_at,"
        " updated_at) VALUES (?, ?, ?, 'signup', ?, now(), now()) RETURNING id",
        (guild_id, channel_id, game, sql.dumps(data)),
    )
    assert row is not None
    tournament_id = int(row[0])
    yield Execute(sql.SET_TIMER, sql.timer_row(timer(tournament_id)))
    return tournament_id


def _save_tournament(
    tournament_id: int, status: str, data: dict[str, Any], timers: Mapping[str, Timer | None]
) -> Plan[None]:
    yield Execute(
        "UPDATE tournaments SET status = ?, data_json = ?, updated_at = now() WHERE id = ?",
        (status, sql.dumps(data), tournament_id),
    )
    for key, timer in timers.items():
        if timer is None:
            yield Execute(sql.CANCEL_TIMER, (key,))
        else:
            yield Execute(sql.SET_TIMER, sql.timer_row(timer))


_NEW_SEASON = "INSERT INTO seasons (guild_id, number, started, ends) VALUES (?, ?, ?, ?)"


def _open_season(guild_id: int, season: Season, timer: Timer) -> Plan[Season]:
    # One current season per server (a unique index): a second opener inserts nothing.
    inserted = yield Execute(
        _NEW_SEASON + " ON CONFLICT DO NOTHING",
        (guild_id, season.number, season.started, season.ends),
    )
    if inserted == 1:
        yield Execute(sql.SET_TIMER, sql.timer_row(timer))
        return season
    row = yield FetchRow(
        f"SELECT {sql.SEASON_COLUMNS} FROM seasons WHERE guild_id = ? AND closed_at IS NULL",
        (guild_id,),
    )
    if row is None:  # a season of that number, closed: the caller's number was stale
        raise StorageError(f"season {season.number} of server {guild_id} exists, closed")
    return sql.season(row)


def _move_season_end(guild_id: int, number: int, ends: str, timer: Timer) -> Plan[bool]:
    moved = yield Execute(
        "UPDATE seasons SET ends = ? WHERE guild_id = ? AND number = ? AND closed_at IS NULL",
        (ends, guild_id, number),
    )
    if moved != 1:
        return False
    yield Execute(sql.SET_TIMER, sql.timer_row(timer))
    return True


def _close_season(
    guild_id: int,
    number: int,
    following: Season,
    timers: Sequence[Timer],
    carry: float,
    initial: float,
) -> Plan[bool]:
    closed = yield Execute(
        "UPDATE seasons SET closed_at = now() WHERE guild_id = ? AND number = ?"
        " AND closed_at IS NULL",
        (guild_id, number),
    )
    if closed != 1:
        return False
    yield Execute(
        "INSERT INTO season_ratings (guild_id, number, game, user_id, rating, games)"
        " SELECT guild_id, ?, game, user_id, rating, games FROM ratings"
        " WHERE guild_id = ? AND games > 0",
        (number, guild_id),
    )
    yield Execute(
        "UPDATE ratings SET rating = ? + ? * (rating - ?), games = 0, updated_at = now()"
        " WHERE guild_id = ?",
        (initial, carry, initial, guild_id),
    )
    yield Execute(
        "INSERT INTO rating_history (guild_id, game, user_id, at, rating)"
        " SELECT guild_id, game, user_id, now(), rating FROM ratings WHERE guild_id = ?",
        (guild_id,),
    )
    yield Execute(_NEW_SEASON, (guild_id, following.number, following.started, following.ends))
    for timer in timers:
        yield Execute(sql.SET_TIMER, sql.timer_row(timer))
    return True
