"""What only the PostgreSQL adapter does: its migrations, processes sharing one database,
shard leases, a database that stalls or goes away (what any backend must do is in
``test_contract.py``)."""

from __future__ import annotations

import asyncio

import asyncpg
import pytest

from bot.storage import Shards, StorageError, Timer, open_repository
from bot.storage.postgres import MIGRATION_LOCK, PostgresRepository, migrations

LATEST = migrations()[-1][0]


async def test_an_empty_database_migrates_to_the_latest_schema_once(postgres_url: str) -> None:
    repo = await open_repository(postgres_url)
    await repo.close()
    again = await PostgresRepository.open(postgres_url)
    assert await again.migrate() == LATEST
    await again.close()
    connection = await asyncpg.connect(postgres_url)
    try:
        versions = [r[0] for r in await connection.fetch("SELECT version FROM schema_migrations")]
    finally:
        await connection.close()
    assert sorted(versions) == [number for number, _ in migrations()]


async def test_processes_starting_at_once_apply_each_migration_once(postgres_url: str) -> None:
    repos = await asyncio.gather(*(PostgresRepository.open(postgres_url) for _ in range(4)))
    assert [await repo.migrate() for repo in repos] == [LATEST] * 4
    for repo in repos:
        await repo.close()


async def test_a_failing_migration_leaves_the_schema_as_it_was(
    postgres_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    shipped = migrations()
    broken = [*shipped, (LATEST + 1, "CREATE TABLE extra (id INT); SELECT no_such_function();")]
    monkeypatch.setattr("bot.storage.postgres.migrations", lambda: broken)
    with pytest.raises(StorageError):
        await PostgresRepository.open(postgres_url)
    connection = await asyncpg.connect(postgres_url)
    try:
        version = await connection.fetchval("SELECT MAX(version) FROM schema_migrations")
        extra = await connection.fetchval("SELECT to_regclass('extra')")
    finally:
        await connection.close()
    assert (version, extra) == (LATEST, None)


async def test_migrations_on_a_stalled_database_give_up_after_a_statement_timeout(
    postgres_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Only the wait for another process's migrations is unbounded: a statement that the
    database holds up is refused, and the process says so, rather than hang at its start."""
    await (await open_repository(postgres_url)).close()
    monkeypatch.setattr("bot.storage.postgres.COMMAND_TIMEOUT", 0.5)
    blocker = await asyncpg.connect(postgres_url)
    try:
        held = blocker.transaction()
        await held.start()
        await blocker.execute("LOCK TABLE schema_migrations IN ACCESS EXCLUSIVE MODE")
        with pytest.raises(StorageError, match="cannot prepare the database"):
            await asyncio.wait_for(PostgresRepository.open(postgres_url), 5)
        await held.rollback()
    finally:
        await blocker.close()


async def test_two_processes_see_each_others_games_and_timers(postgres_url: str) -> None:
    first, second = await open_repository(postgres_url), await open_repository(postgres_url)
    game = await first.create_game(guild_id=1, channel_id=10, kind="maya", meta={"a": 1})
    await first.set_timer(Timer("vote:1", 5.0, 1, {"fault": 2}))
    record = await second.game(game)
    assert record is not None and record.meta == {"a": 1}
    assert await second.timers() == [Timer("vote:1", 5.0, 1, {"fault": 2})]
    # The one who wrote a stale version is refused, whoever it is.
    await second.save_game(
        game, previous_version=0, version=1, status="active", state={"s": 1}, meta={}
    )
    with pytest.raises(StorageError):
        await first.save_game(
            game, previous_version=0, version=1, status="active", state={"s": 2}, meta={}
        )
    await first.close()
    await second.close()


async def test_a_move_is_one_statement_and_its_connection_goes_back_as_it_is(
    postgres_url: str,
) -> None:
    """What the database last heard from each of the repository's connections: the move
    itself, not a statement resetting the session after it (asyncpg's default on release,
    a second round trip each answer waited for). The migrations' lock is gone with them."""
    repo = await open_repository(postgres_url)
    game = await repo.create_game(guild_id=1, channel_id=10, kind="maya", meta={})
    await repo.save_game(game, previous_version=0, version=1, status="active", state={}, meta={})
    observer = await asyncpg.connect(postgres_url)
    try:
        last = await observer.fetch(
            "SELECT query FROM pg_stat_activity WHERE datname = current_database()"
            " AND pid <> pg_backend_pid() AND backend_type = 'client backend'"
        )
        locks = await observer.fetchval(
            "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND objid = $1::bigint",
            MIGRATION_LOCK,
        )
    finally:
        await observer.close()
        await repo.close()
    assert [row["query"].split(" SET ")[0].strip() for row in last] == [
        "WITH game AS (UPDATE games"
    ]
    assert locks == 0


async def test_a_shard_is_held_by_one_process_until_it_lets_go(postgres_url: str) -> None:
    first, second = await open_repository(postgres_url), await open_repository(postgres_url)
    assert await first.try_lock_shard(1, 2)
    assert await first.keep_shards([1], 2) == [] and await second.keep_shards([1], 2) == [1]
    assert not await second.try_lock_shard(1, 2)
    assert await second.try_lock_shard(0, 2)  # another shard is free
    await first.close()  # a process that dies closes its connections just the same
    assert await second.try_lock_shard(1, 2)
    assert await second.keep_shards([1], 2) == []
    await second.close()


async def test_a_stalled_database_refuses_the_write_instead_of_waiting_for_ever(
    postgres_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("bot.storage.postgres.COMMAND_TIMEOUT", 0.5)
    repo = await open_repository(postgres_url)
    game = await repo.create_game(guild_id=1, channel_id=10, kind="maya", meta={})
    blocker = await asyncpg.connect(postgres_url)
    try:
        # Another session holds the game's row: the write waits on it, then gives up.
        transaction = blocker.transaction()
        await transaction.start()
        await blocker.execute("SELECT * FROM games WHERE id = $1 FOR UPDATE", game)
        with pytest.raises(StorageError):
            await repo.save_game(
                game, previous_version=0, version=1, status="active", state={}, meta={}
            )
        await transaction.rollback()
    finally:
        await blocker.close()
    # Once the database answers again, the same write goes through.
    await repo.save_game(game, previous_version=0, version=1, status="active", state={}, meta={})
    record = await repo.game(game)
    assert record is not None and record.version == 1
    await repo.close()


async def test_an_unreachable_database_is_a_clear_error_without_the_password() -> None:
    with pytest.raises(StorageError, match="cannot open the database") as refused:
        await open_repository("postgresql://gobelet:s3cret-pw@127.0.0.1:1/gobelet")
    assert "s3cret-pw" not in str(refused.value)


async def test_the_games_of_a_shard_are_read_by_the_process_running_it(postgres_url: str) -> None:
    repo = await open_repository(postgres_url)
    shard_one = (3 << 22) | 7  # (id >> 22) % 2 == 1
    await repo.create_game(guild_id=shard_one, channel_id=10, kind="maya", meta={})
    assert await repo.running_games(Shards(2, frozenset({0}))) == []
    assert len(await repo.running_games(Shards(2, frozenset({1})))) == 1
    await repo.close()


async def terminate_leases(url: str) -> None:
    """What a broken network does to an idle connection: the server ends the sessions that
    hold advisory locks."""
    connection = await asyncpg.connect(url)
    try:
        await connection.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_locks"
            " WHERE locktype = 'advisory' AND pid <> pg_backend_pid()"
        )
    finally:
        await connection.close()


async def test_a_broken_lease_is_seen_and_taken_back_when_no_one_took_it(
    postgres_url: str,
) -> None:
    repo = await open_repository(postgres_url)
    assert await repo.try_lock_shard(0, 2) and await repo.try_lock_shard(1, 2)
    await terminate_leases(postgres_url)
    assert await repo.keep_shards([0, 1], 2) == []  # seen, and taken back
    other = await open_repository(postgres_url)
    assert not await other.try_lock_shard(0, 2) and not await other.try_lock_shard(1, 2)
    await other.close()
    await repo.close()


async def test_a_broken_lease_another_process_took_meanwhile_is_lost(postgres_url: str) -> None:
    repo, other = await open_repository(postgres_url), await open_repository(postgres_url)
    assert await repo.try_lock_shard(1, 2)
    await terminate_leases(postgres_url)
    assert await other.try_lock_shard(1, 2)  # the standby was quicker
    assert await repo.keep_shards([1], 2) == [1]
    await other.close()
    await repo.close()


async def test_a_shard_let_go_can_be_taken(postgres_url: str) -> None:
    repo, other = await open_repository(postgres_url), await open_repository(postgres_url)
    assert await repo.try_lock_shard(1, 2)
    await repo.release_shard(1)
    assert await other.try_lock_shard(1, 2)
    assert await repo.keep_shards([1], 2) == [1]
    await other.close()
    await repo.close()


async def test_processes_counting_the_shards_otherwise_wait_for_the_old_count_to_go(
    postgres_url: str,
) -> None:
    old, new = await open_repository(postgres_url), await open_repository(postgres_url)
    assert await old.try_lock_shard(0, 2)
    # Shard 3 of 4 holds servers of shard 1 of 2 too: it waits while a process counts 2.
    assert not await new.try_lock_shard(3, 4)
    await old.close()
    assert await new.try_lock_shard(3, 4)
    await new.close()
