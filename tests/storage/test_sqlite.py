"""What only the SQLite adapter does: its file, its schema migrations, its URL (what any
backend must do is in ``test_contract.py``)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from bot.storage import StorageError, open_repository
from bot.storage.sqlite import SqliteRepository, migrations


async def test_an_empty_file_migrates_to_the_latest_schema(tmp_path: Path) -> None:
    path = tmp_path / "fresh.db"
    repo = await SqliteRepository.open(path)
    await repo.close()
    with sqlite3.connect(path) as db:
        version = db.execute("SELECT MAX(version) FROM schema_migrations").fetchone()[0]
        journal = db.execute("PRAGMA journal_mode").fetchone()[0]
    assert version == migrations()[-1][0]
    assert journal == "wal"


async def test_opening_twice_applies_nothing_new(tmp_path: Path) -> None:
    path = tmp_path / "twice.db"
    await (await SqliteRepository.open(path)).close()
    repo = await SqliteRepository.open(path)
    assert await repo.migrate() == migrations()[-1][0]
    await repo.close()


async def test_the_url_names_the_file_and_its_folders_are_made(tmp_path: Path) -> None:
    path = tmp_path / "deep" / "er" / "gobelet.db"
    repo = await open_repository(f"sqlite:///{path}")
    await repo.close()
    assert path.is_file()


@pytest.mark.parametrize("url", ["mysql://localhost/gobelet", "data/gobelet.db", ""])
async def test_a_url_for_another_database_is_refused(url: str) -> None:
    with pytest.raises(StorageError, match="unsupported database URL"):
        await open_repository(url)
