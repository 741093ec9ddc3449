"""What only the SQLite adapter does: its file, its schema migrations, its URL (what any
backend must do is in ``test_contract.py``)."""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import Coroutine
from pathlib import Path
from typing import Any

import pytest

from bot.storage import EventRecord, StorageError, VersionConflict, open_repository
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


async def test_moves_arriving_together_are_written_in_one_hop_each_in_its_transaction(
    tmp_path: Path,
) -> None:
    repo = await SqliteRepository.open(tmp_path / "grouped.db")
    try:
        games = [
            await repo.create_game(guild_id=1, channel_id=channel, kind="maya", meta={})
            for channel in range(20)
        ]
        hops = 0
        execute = repo._db._execute

        async def counted(*args: object, **kwargs: object) -> object:
            nonlocal hops
            hops += 1
            return await execute(*args, **kwargs)  # type: ignore[arg-type]

        repo._db._execute = counted  # type: ignore[method-assign]

        def save(game: int, previous: int) -> Coroutine[Any, Any, None]:
            return repo.save_game(
                game,
                previous_version=previous,
                version=previous + 1,
                status="active",
                state={"step": previous + 1},
                meta={},
                events=[EventRecord("moved", "public", None, {"n": previous + 1})],
            )

        # Twenty moves at once, one of them from a stale version: it alone is refused.
        outcomes = await asyncio.gather(
            *(save(game, 5 if game == games[7] else 0) for game in games),
            return_exceptions=True,
        )
        assert hops <= 2  # the first move's hop, then every move queued meanwhile
        assert [type(o).__name__ for o in outcomes].count("VersionConflict") == 1
        assert isinstance(outcomes[7], VersionConflict)
        for game in games:
            record = await repo.game(game)
            assert record is not None
            assert record.version == (0 if game == games[7] else 1)
            assert len(await repo.events(game)) == (0 if game == games[7] else 1)
    finally:
        await repo.close()


async def test_a_locked_database_refuses_every_queued_move_and_writes_none(tmp_path: Path) -> None:
    path = tmp_path / "locked.db"
    repo = await SqliteRepository.open(path)
    games = [
        await repo.create_game(guild_id=1, channel_id=channel, kind="maya", meta={})
        for channel in range(3)
    ]
    await repo._db.execute("PRAGMA busy_timeout=50")
    other = sqlite3.connect(path, isolation_level=None)
    other.execute("BEGIN IMMEDIATE")  # another process holds the write lock
    try:
        outcomes = await asyncio.gather(
            *(
                repo.save_game(g, previous_version=0, version=1, status="active", state={}, meta={})
                for g in games
            ),
            return_exceptions=True,
        )
        assert all(isinstance(outcome, StorageError) for outcome in outcomes), outcomes
    finally:
        other.execute("ROLLBACK")
        other.close()
    try:
        assert [(await repo.game(g)).version for g in games] == [0, 0, 0]  # type: ignore[union-attr]
        # Once the lock is gone, the moves go through.
        await repo.save_game(
            games[0], previous_version=0, version=1, status="active", state={}, meta={}
        )
        assert (await repo.game(games[0])).version == 1  # type: ignore[union-attr]
    finally:
        await repo.close()
