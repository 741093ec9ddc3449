"""Persistence behind one repository interface (SQLite through aiosqlite by default)."""

from bot.storage.base import ChannelBusy, EventRecord, GameRecord, Repository, StorageError
from bot.storage.sqlite import SqliteRepository, open_repository

__all__ = [
    "ChannelBusy",
    "EventRecord",
    "GameRecord",
    "Repository",
    "SqliteRepository",
    "StorageError",
    "open_repository",
]
