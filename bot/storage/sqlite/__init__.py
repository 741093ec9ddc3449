"""The SQLite repository: the SQL repository over one file (WAL, numbered migrations),
through ``SqliteDriver`` and its write path."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from bot.storage import sql
from bot.storage.base import Repository, StorageError
from bot.storage.repository import SqlRepository
from bot.storage.sqlite.driver import SqliteDriver

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
    """The numbered migrations as SQLite runs them, in order."""
    return sql.migrations("bot.storage.sqlite", TYPES)


class SqliteRepository(SqlRepository):
    driver: SqliteDriver

    def __init__(self, driver: SqliteDriver) -> None:
        super().__init__(driver)

    @classmethod
    async def open(cls, path: Path | str, *, inline_writes: bool = True) -> SqliteRepository:
        """``inline_writes=False``: every move goes through the shared connection's queue
        (the tests of that queue)."""
        driver = await SqliteDriver.connect(path)
        repository = cls(driver)
        try:
            await repository.migrate()
            if inline_writes:
                driver.write_inline()
        except (sqlite3.Error, StorageError) as error:
            await driver.close()
            if isinstance(error, StorageError):
                raise
            raise StorageError(f"cannot prepare the database {path}: {error}") from error
        return repository

    def migrations(self) -> list[tuple[int, str]]:
        return migrations()  # looked up when called: the tests ship fewer, or a broken one


async def open_sqlite(path: str) -> Repository:
    """Typed as the ports, which is what makes mypy check that ``SqliteRepository``
    implements every one."""
    return await SqliteRepository.open(path)


__all__ = ["SqliteDriver", "SqliteRepository", "migrations", "open_sqlite"]
