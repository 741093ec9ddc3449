import sqlite3

import pytest

from bot.storage import ChannelBusy, EventRecord, StorageError, open_repository
from bot.storage.sqlite import SqliteRepository, migrations


@pytest.fixture
async def repository(tmp_path):
    repo = await open_repository(f"sqlite:///{tmp_path}/gobelet.db")
    yield repo
    await repo.close()


async def test_an_empty_file_migrates_to_the_latest_schema(tmp_path):
    path = tmp_path / "fresh.db"
    repo = await SqliteRepository.open(path)
    await repo.close()
    with sqlite3.connect(path) as db:
        version = db.execute("SELECT MAX(version) FROM schema_migrations").fetchone()[0]
        journal = db.execute("PRAGMA journal_mode").fetchone()[0]
    assert version == migrations()[-1][0]
    assert journal == "wal"


async def test_opening_twice_applies_nothing_new(tmp_path):
    path = tmp_path / "twice.db"
    await (await SqliteRepository.open(path)).close()
    repo = await SqliteRepository.open(path)
    assert await repo.migrate() == migrations()[-1][0]
    await repo.close()


async def test_a_channel_holds_one_running_game(repository):
    await repository.create_game(guild_id=1, channel_id=10, kind="maya", meta={})
    with pytest.raises(ChannelBusy):
        await repository.create_game(guild_id=1, channel_id=10, kind="maya", meta={})
    other = await repository.create_game(guild_id=1, channel_id=11, kind="maya", meta={})
    assert other > 0


async def test_a_finished_game_frees_its_channel(repository):
    game = await repository.create_game(guild_id=1, channel_id=10, kind="maya", meta={})
    await repository.save_game(
        game, previous_version=0, version=1, status="finished", state={"s": 1}, meta={}
    )
    assert await repository.running_games() == []
    await repository.create_game(guild_id=1, channel_id=10, kind="maya", meta={})


async def test_events_and_snapshot_are_written_together_in_order(repository):
    game = await repository.create_game(guild_id=1, channel_id=10, kind="maya", meta={"a": 1})
    first = [EventRecord("announced", "public", None, {"value": 53})]
    second = [
        EventRecord("rolled", "public", None, {"player": 2}),
        EventRecord("dice", "private", 2, {"dice": [5, 3]}),
    ]
    await repository.save_game(
        game, previous_version=0, version=1, status="active", state={"v": 1}, meta={}, events=first
    )
    await repository.save_game(
        game, previous_version=1, version=2, status="active", state={"v": 2}, meta={}, events=second
    )
    record = await repository.game(game)
    assert record is not None
    assert (record.version, record.state) == (2, {"v": 2})
    assert await repository.events(game) == first + second


async def test_a_write_from_a_stale_version_is_refused_and_changes_nothing(repository):
    game = await repository.create_game(guild_id=1, channel_id=10, kind="maya", meta={})
    await repository.save_game(
        game, previous_version=0, version=1, status="active", state={"v": 1}, meta={}
    )
    with pytest.raises(StorageError):
        await repository.save_game(
            game,
            previous_version=0,
            version=1,
            status="active",
            state={"v": "other"},
            meta={},
            events=[EventRecord("x", "public", None, {})],
        )
    record = await repository.game(game)
    assert record is not None and record.state == {"v": 1}
    assert await repository.events(game) == []
