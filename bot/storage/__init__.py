"""Persistence behind ports by concern (games, figures, settings), one ``Repository`` for
all three (SQLite through aiosqlite by default)."""

from bot.storage.base import (
    ChannelBusy,
    EventRecord,
    FigureStore,
    GameRecord,
    GameResults,
    GameStore,
    Rating,
    Repository,
    SettingsStore,
    Standing,
    StorageError,
)
from bot.storage.sqlite import SqliteRepository, open_repository

__all__ = [
    "ChannelBusy",
    "EventRecord",
    "FigureStore",
    "GameRecord",
    "GameResults",
    "GameStore",
    "Rating",
    "Repository",
    "SettingsStore",
    "SqliteRepository",
    "Standing",
    "StorageError",
    "open_repository",
]
