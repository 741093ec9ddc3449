"""Persistence behind ports by concern (games, figures, settings, timers, seasons, web
pages), one ``Repository`` for all of them: SQLite through aiosqlite by default,
PostgreSQL through asyncpg for several processes."""

from bot.storage.base import (
    ALL_SHARDS,
    AchievementStore,
    ChannelBusy,
    EventRecord,
    FigureStore,
    GameRecord,
    GameResults,
    GameStore,
    Held,
    IdentifySlots,
    Rating,
    RatingPoint,
    Repository,
    Season,
    SeasonStore,
    SettingsStore,
    ShardLeases,
    Shards,
    Standing,
    StorageError,
    Timer,
    TimerStore,
    TournamentRecord,
    TournamentStore,
    VersionConflict,
    WebPage,
    WebStore,
)
from bot.storage.sqlite import SqliteRepository, open_sqlite

SQLITE_PREFIX = "sqlite:///"
POSTGRES_SCHEMES = ("postgresql://", "postgres://")


async def open_repository(url: str) -> Repository:
    """The repository a ``GOBELET_DATABASE_URL`` names: ``sqlite:///PATH`` (a file, or
    ``:memory:``) or ``postgresql://user:password@host:port/database``."""
    if url.startswith(SQLITE_PREFIX):
        return await open_sqlite(url[len(SQLITE_PREFIX) :])
    if url.startswith(POSTGRES_SCHEMES):
        from bot.storage.postgres import open_postgres

        return await open_postgres(url)
    raise StorageError(
        "unsupported database URL (expected sqlite:///PATH or postgresql://USER@HOST/DATABASE)"
    )


__all__ = [
    "ALL_SHARDS",
    "AchievementStore",
    "ChannelBusy",
    "EventRecord",
    "FigureStore",
    "GameRecord",
    "GameResults",
    "GameStore",
    "Held",
    "IdentifySlots",
    "Rating",
    "RatingPoint",
    "Repository",
    "Season",
    "SeasonStore",
    "SettingsStore",
    "ShardLeases",
    "Shards",
    "SqliteRepository",
    "Standing",
    "StorageError",
    "Timer",
    "TimerStore",
    "TournamentRecord",
    "TournamentStore",
    "VersionConflict",
    "WebPage",
    "WebStore",
    "open_repository",
]
