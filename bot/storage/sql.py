"""The SQL both databases run, written with ``?`` marks (a driver with numbered marks
renumbers them): the leaderboard queries, the shard filter, reading a figure, writing
achievements, timers, the migrations (their files and their Python steps)."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping, Sequence
from importlib import resources
from typing import Any

from bot.kernel.achievements import Awards
from bot.kernel.spec import RATING, Aggregate, Better, Board, Metric
from bot.storage.base import GAMES, EventRecord, GameRecord, Season, Shards, Timer
from bot.storage.driver import ExecuteMany, Fetch, FetchRow, Plan, Replay, Row

RUNNING = ("lobby", "active")


def dumps(value: Any) -> str:
    """JSON as it is stored: compact, and not escaped to ASCII."""
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


# Every table holding rows of a player on a server (what forgetting them deletes).
PLAYER_TABLES = (
    "stat_values",
    "ratings",
    "season_ratings",
    "rating_history",
    "player_names",
    "achievements",
    "achievement_runs",
)


def _scripts(package: str) -> dict[int, str]:
    """The numbered ``NNNN_name.sql`` files shipped in ``package``'s ``migrations``."""
    found = {}
    for entry in (resources.files(package) / "migrations").iterdir():
        name = entry.name
        if name.endswith(".sql") and name[:4].isdigit():
            found[int(name[:4])] = entry.read_text(encoding="utf-8")
    return found


def migrations(package: str, types: Mapping[str, str]) -> list[tuple[int, str]]:
    """The migrations of the database whose driver is ``package``, in order: each shared
    script of ``bot/storage/migrations``, its ``{type}`` names written as ``types`` says,
    followed by the package's own script of that number, if any (SQL that differs)."""
    shared = _scripts("bot.storage")
    own = _scripts(package)
    return [
        (
            number,
            "\n".join(filter(None, (shared.get(number, "").format_map(types), own.get(number)))),
        )
        for number in sorted(shared.keys() | own.keys())
    ]


def replays() -> dict[int, Callable[[], Replay]]:
    """The migrations (by number) whose SQL is followed by a replay of the past games."""
    # Imported when migrating: the games' code, which the replay runs, imports these ports.
    from bot.table.backfill import Backfill

    return {5: Backfill}


# The games a replay is shown, in the order they were counted: (id, when they finished).
COUNTED_GAMES = (
    "SELECT games.id, COALESCE(games.finished_at, games.updated_at) FROM games"
    " JOIN counted_games ON counted_games.game_id = games.id"
    " ORDER BY counted_games.counted_at, games.id"
)


def numbered(sql: str) -> str:
    """``?`` marks as ``$1, $2, …`` (PostgreSQL); no query here has a ``?`` in a literal."""
    parts = sql.split("?")
    out = [parts[0]]
    for number, part in enumerate(parts[1:], start=1):
        out.append(f"${number}{part}")
    return "".join(out)


def shard_filter(shards: Shards, column: str = "guild_id") -> tuple[str, tuple[Any, ...]]:
    """An ``AND …`` clause keeping the rows of the servers of ``shards`` (empty when the
    process runs every shard)."""
    if shards.all:
        return "", ()
    marks = ", ".join("?" * len(shards.ids))
    return (
        f" AND ((COALESCE({column}, 0) >> 22) % ?) IN ({marks})",
        (shards.count, *sorted(shards.ids)),
    )


# After every day a figure can be stored on: the end of a span with no end.
NO_END = "9999-12-31"


def totals(
    guild_id: int,
    game: str,
    criterion: Metric | str,
    since: str | None,
    until: str | None = None,
    season: int | None = None,
) -> tuple[str, tuple[Any, ...]]:
    """The per-player totals query of a criterion, aggregated as declared over the days
    from ``since`` to the day before ``until``, and its parameters (a mean: the stored
    figure summed over the player's games, divided by their games). Ratings: the current
    ones of the players who played this season, or closed ``season``'s final ones."""
    if not isinstance(criterion, Metric):
        if criterion != RATING:
            raise ValueError(f"{criterion!r} is neither a declared metric nor {RATING!r}")
        if season is not None:
            return (
                "SELECT user_id, rating AS total FROM season_ratings"
                " WHERE guild_id = ? AND number = ? AND game = ?",
                (guild_id, season, game),
            )
        return (
            "SELECT user_id, rating AS total FROM ratings"
            " WHERE guild_id = ? AND game = ? AND games > 0",
            (guild_id, game),
        )
    column, first, end = criterion.column, since or "", until or NO_END
    if criterion.aggregate is Aggregate.MEAN:
        return (
            # No game to divide by (a figure without its games): no mean, never a failure
            # (PostgreSQL raises on a division by zero where SQLite gives NULL).
            "SELECT user_id, SUM(CASE WHEN metric = ? THEN value END)"
            " / NULLIF(SUM(CASE WHEN metric = ? THEN value END), 0) AS total FROM stat_values"
            " WHERE guild_id = ? AND game = ? AND metric IN (?, ?) AND day >= ? AND day < ?"
            " GROUP BY user_id",
            (column, GAMES, guild_id, game, column, GAMES, first, end),
        )
    aggregate = "MAX" if criterion.aggregate is Aggregate.MAX else "SUM"
    return (
        f"SELECT user_id, {aggregate}(value) AS total FROM stat_values"
        " WHERE guild_id = ? AND game = ? AND metric = ? AND day >= ? AND day < ?"
        " GROUP BY user_id",
        (guild_id, game, column, first, end),
    )


def order(criterion: Metric | str) -> tuple[str, str, str]:
    """(direction, better-than comparison, who is ranked) for a criterion."""
    if isinstance(criterion, Metric) and criterion.better is Better.LOWER:
        # Fewer is better, and zero is the best of all: everyone who played is ranked.
        return "ASC", "<", "total IS NOT NULL"
    return "DESC", ">", "total > 0"


def page_query(totals_sql: str, criterion: Metric | str) -> str:
    """One page of standings, with each row's rank and how many are ranked (parameters:
    the totals', then limit and offset)."""
    direction, _, ranked = order(criterion)
    return (
        f"WITH totals AS ({totals_sql}) SELECT user_id, total,"
        f" RANK() OVER (ORDER BY total {direction}) AS place, COUNT(*) OVER () AS ranked"
        f" FROM totals WHERE {ranked} ORDER BY total {direction}, user_id LIMIT ? OFFSET ?"
    )


def count_query(totals_sql: str, criterion: Metric | str) -> str:
    _, _, ranked = order(criterion)
    return f"WITH totals AS ({totals_sql}) SELECT COUNT(*) FROM totals WHERE {ranked}"


def standing_query(totals_sql: str, criterion: Metric | str) -> str:
    """A player's total and rank (parameters: the totals', then the player)."""
    _, better, ranked = order(criterion)
    return (
        f"WITH totals AS ({totals_sql}) SELECT mine.total,"
        f" (SELECT COUNT(*) FROM totals AS other WHERE other.total {better} mine.total) + 1"
        f" FROM totals AS mine WHERE mine.user_id = ? AND mine.{ranked}"
    )


def shown(metric: Metric, stored: dict[str, tuple[float, float]]) -> float | None:
    """A metric's value from a player's (sum, max) of each stored figure, as a leaderboard
    ranks it; None without any figure to show (a mean without a game to divide by)."""
    if metric.column not in stored:
        return None
    total, best = stored[metric.column]
    if metric.aggregate is Aggregate.MAX:
        return best
    if metric.aggregate is Aggregate.MEAN:
        games = stored.get(GAMES, (0.0, 0.0))[0]
        return total / games if games else None
    return total


def figures(rows: Iterable[Row], boards: Sequence[Board]) -> dict[str, dict[str, float]]:
    """``player_figures`` from the player's (board, stored figure, sum, max) rows."""
    stored: dict[str, dict[str, tuple[float, float]]] = {}
    for row in rows:
        stored.setdefault(row[0], {})[row[1]] = (row[2], row[3])
    found: dict[str, dict[str, float]] = {}
    for board in boards:
        if board.name in stored:
            mine = stored[board.name]
            values = ((m.name, shown(m, mine)) for m in board.metrics)
            found[board.name] = {name: value for name, value in values if value is not None}
    return found


def game_record(row: Row) -> GameRecord:
    """A ``games`` row as the ports return it."""
    return GameRecord(
        id=row["id"],
        guild_id=row["guild_id"],
        channel_id=row["channel_id"],
        kind=row["kind"],
        status=row["status"],
        version=row["version"],
        state=json.loads(row["state_json"]) if row["state_json"] else None,
        meta=json.loads(row["meta_json"]),
    )


GAME = "SELECT * FROM games WHERE id = ?"
EVENTS = (
    "SELECT type, visibility, recipient, payload_json FROM game_events"
    " WHERE game_id = ? ORDER BY seq"
)


def event(row: Row) -> EventRecord:
    """A ``game_events`` row read as ``EVENTS``."""
    return EventRecord(row[0], row[1], row[2], json.loads(row[3]))


TIMER_COLUMNS = "key, due, guild_id, payload_json, attempts"
SET_TIMER = (
    "INSERT INTO timers (key, due, guild_id, payload_json, attempts, updated_at)"
    " VALUES (?, ?, ?, ?, ?, now()) ON CONFLICT (key) DO UPDATE SET due = excluded.due,"
    " guild_id = excluded.guild_id, payload_json = excluded.payload_json,"
    " attempts = excluded.attempts, updated_at = excluded.updated_at"
)
CANCEL_TIMER = "DELETE FROM timers WHERE key = ?"


def timer_row(timer: Timer) -> tuple[Any, ...]:
    """``SET_TIMER``'s parameters."""
    return (timer.key, timer.due, timer.guild_id, dumps(timer.payload), timer.attempts)


def timer(row: Row) -> Timer:
    """A ``timers`` row read as ``TIMER_COLUMNS``."""
    return Timer(row[0], row[1], row[2], json.loads(row[3]), row[4])


SEASON_COLUMNS = "number, started, ends, closed_at IS NOT NULL"


def season(row: Row) -> Season:
    """A ``seasons`` row read as ``SEASON_COLUMNS``."""
    return Season(row[0], row[1], row[2], bool(row[3]))


# Achievements: a player's first of each on a server is kept (earned now, unless told).
AWARD = (
    "INSERT INTO achievements (guild_id, user_id, code, game_id, earned_at)"
    " VALUES (?, ?, ?, ?, COALESCE(?, now())) ON CONFLICT (guild_id, user_id, code) DO NOTHING"
)
_RUN = (
    "INSERT INTO achievement_runs (guild_id, user_id, code, run) VALUES (?, ?, ?, ?)"
    " ON CONFLICT (guild_id, user_id, code) DO UPDATE SET run = "
)
RUN_RESTARTED = _RUN + "excluded.run"
# Added to the run held rather than set: two games ending at once both count.
RUN_CONTINUED = _RUN + "achievement_runs.run + excluded.run"


def award_rows(
    guild_id: int, game_id: int, awards: Awards, earned_at: Any
) -> tuple[list[tuple[Any, ...]], list[tuple[Any, ...]], list[tuple[Any, ...]]]:
    """The rows of ``AWARD``, ``RUN_RESTARTED`` and ``RUN_CONTINUED`` for a game's awards,
    each in one order whatever the game (rows locked in the same order never deadlock)."""
    earned = sorted((guild_id, e.user_id, e.code, game_id, earned_at) for e in awards.earned)
    restarted = sorted((guild_id, r.user_id, r.code, r.length) for r in awards.runs if r.restarted)
    continued = sorted(
        (guild_id, r.user_id, r.code, r.length) for r in awards.runs if not r.restarted
    )
    return earned, restarted, continued


def award(guild_id: int, game_id: int, awards: Awards, earned_at: Any = None) -> Plan[None]:
    """Write what a game earned (a game's end, or the replay of a past one)."""
    earned, restarted, continued = award_rows(guild_id, game_id, awards, earned_at)
    if earned:
        yield ExecuteMany(AWARD, earned)
    if restarted:
        yield ExecuteMany(RUN_RESTARTED, restarted)
    if continued:
        yield ExecuteMany(RUN_CONTINUED, continued)


def replay(step: Replay) -> Plan[None]:
    """Show ``step`` every counted game, in order, and write what each awards (inside a
    migration's transaction)."""
    for game_id, finished_at in (yield Fetch(COUNTED_GAMES)):
        row = yield FetchRow(GAME, (game_id,))
        assert row is not None  # read in the same transaction as its id
        events = [event(logged) for logged in (yield Fetch(EVENTS, (game_id,)))]
        record = game_record(row)
        awards = step.game(record, events)
        if awards is not None:
            yield from award(record.guild_id, game_id, awards, finished_at)
