"""Persistence behind one repository interface (SQLite through aiosqlite by default)."""

from bot.storage.base import (
    ChannelBusy,
    EventRecord,
    GameRecord,
    GameResults,
    Rating,
    Repository,
    Standing,
    StorageError,
)
from bot.storage.sqlite import SqliteRepository, open_repository

__all__ = [
    "ChannelBusy",
    "EventRecord",
    "GameRecord",
    "GameResults",
    "Rating",
    "Repository",
    "SqliteRepository",
    "Standing",
    "StorageError",
    "open_repository",
]
