"""Persistence behind ports by concern (games, figures, settings, timers), one
``Repository`` for all four: SQLite through aiosqlite by default, PostgreSQL through
asyncpg for several processes."""

from bot.storage.base import (
    ALL_SHARDS,
    ChannelBusy,
    EventRecord,
    FigureStore,
    GameRecord,
    GameResults,
    GameStore,
    Rating,
    Repository,
    SettingsStore,
    Shards,
    Standing,
    StorageError,
    Timer,
    TimerStore,
)
from bot.storage.sqlite import SqliteRepository, open_repository

__all__ = [
    "ALL_SHARDS",
    "ChannelBusy",
    "EventRecord",
    "FigureStore",
    "GameRecord",
    "GameResults",
    "GameStore",
    "Rating",
    "Repository",
    "SettingsStore",
    "Shards",
    "SqliteRepository",
    "Standing",
    "StorageError",
    "Timer",
    "TimerStore",
    "open_repository",
]
