"""The database under stress: old schemas, many tables at once, a database that refuses writes."""

from __future__ import annotations

import asyncio
import json
import random
import sqlite3
import threading
from contextlib import closing
from pathlib import Path

import aiosqlite
import pytest

from bot.config import load_settings
from bot.games import maya
from bot.games.maya.metrics import MIA_BOARD
from bot.storage import EventRecord, StorageError
from bot.storage.sqlite import SqliteDriver, SqliteRepository, migrations
from bot.table import Table, TableRunner

GUILD = 1
A, B = 101, 102
LATEST = migrations()[-1][0]
WINS, GAMES = MIA_BOARD.metric("wins"), MIA_BOARD.metric("games")
assert WINS is not None and GAMES is not None


def settings():
    return load_settings({"GOBELET_DICE_SEED": "7"}, dotenv=False)


# --------------------------------------------------------------------------- migrations


def build_at_schema(path: Path, version: int) -> None:
    """A database as an older bot left it: migrations up to ``version`` only, with some data."""
    with closing(sqlite3.connect(path)) as db, db:
        db.execute(
            "CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, applied_at TEXT NOT NULL)"
        )
        for number, script in migrations():
            if number > version:
                break
            db.executescript(script)
            db.execute(
                "INSERT INTO schema_migrations VALUES (?, ?)", (number, "2024-01-01T00:00:00")
            )
        if version >= 1:
            state = maya.new_game([A, B], maya.Rules.for_preset("vies")).to_json()
            db.execute(
                "INSERT INTO games (id, guild_id, channel_id, kind, status, version, state_json,"
                " meta_json, created_at, updated_at) VALUES"
                " (1, ?, 10, 'maya', 'active', 2, ?, '{\"starter\":101}', 't0', 't1'),"
                " (2, ?, 11, 'maya', 'finished', 5, NULL, '{}', 't0', 't2')",
                (GUILD, json.dumps(state), GUILD),
            )
            db.executemany(
                "INSERT INTO game_events VALUES (?, ?, ?, ?, ?, ?, ?)",
                [
                    (1, 1, "rolled", "public", None, '{"player":101}', "t1"),
                    (1, 2, "dice", "private", A, '{"player":101,"dice":[5,2]}', "t1"),
                    (2, 1, "game_won", "public", None, '{"player":102}', "t2"),
                ],
            )
        if version >= 2:
            db.execute(
                "INSERT INTO stat_values VALUES (?, 'mia', ?, 'wins', '2024-01-01', 1)", (GUILD, B)
            )
            db.execute("INSERT INTO counted_games VALUES (2, 't2')")
            db.execute(
                "INSERT INTO ratings VALUES (?, 'mia', ?, 1016.0, 1, 't2')",
                (GUILD, B),
            )
            db.execute("INSERT INTO guild_settings VALUES (?, '{\"lang\":\"fr\"}', 't2')", (GUILD,))


def table_rows(path: Path) -> dict[str, tuple[list[str], list[tuple]]]:
    """Every user table's columns and rows (sorted), the migrations' own table aside."""
    with closing(sqlite3.connect(path)) as db, db:
        names = [
            row[0]
            for row in db.execute(
                "SELECT name FROM sqlite_master WHERE type = 'table'"
                " AND name NOT LIKE 'sqlite_%' AND name != 'schema_migrations'"
            )
        ]
        found = {}
        for name in names:
            columns = [row[1] for row in db.execute(f"PRAGMA table_info({name})")]
            found[name] = (columns, sorted(db.execute(f"SELECT * FROM {name}"), key=repr))
        return found


def schema(path: Path) -> list[tuple[str, str, str | None]]:
    with closing(sqlite3.connect(path)) as db, db:
        return sorted(
            db.execute(
                "SELECT type, name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite_%'"
            ).fetchall()
        )


@pytest.mark.parametrize("version", [0, *(number for number, _ in migrations())])
async def test_a_database_at_any_older_schema_migrates_to_the_latest_and_keeps_its_rows(
    tmp_path, version
):
    old = tmp_path / f"schema{version}.db"
    build_at_schema(old, version)
    before = table_rows(old)

    repo = await SqliteRepository.open(old)
    try:
        assert await repo.migrate() == LATEST
        if version >= 1:
            record = await repo.game(1)
            assert record is not None and (record.status, record.version) == ("active", 2)
            assert [g.id for g in await repo.running_games()] == [1]
            assert await repo.events(1) == [
                EventRecord("rolled", "public", None, {"player": A}),
                EventRecord("dice", "private", A, {"player": A, "dice": [5, 2]}),
            ]
        if version >= 2:
            # The figures and ratings an older bot stored still rank, as declared.
            wins, ranked = await repo.leaderboard(GUILD, "mia", WINS, None, offset=0, limit=10)
            assert ([(s.rank, s.user_id, s.value) for s in wins], ranked) == ([(1, B, 1.0)], 1)
            assert await repo.player_figures(GUILD, B, [MIA_BOARD]) == {"mia": {"wins": 1.0}}
            assert (await repo.player_ratings(GUILD, B))["mia"].rating == 1016.0
    finally:
        await repo.close()

    with closing(sqlite3.connect(old)) as db, db:
        versions = [row[0] for row in db.execute("SELECT version FROM schema_migrations")]
    assert versions == [number for number, _ in migrations()]
    fresh = tmp_path / "fresh.db"
    await (await SqliteRepository.open(fresh)).close()
    assert schema(old) == schema(fresh)
    after = table_rows(old)
    for name, (columns, rows) in before.items():
        kept_columns, kept_rows = after[name]
        # A later migration may add columns: the old ones keep their values, row for row.
        index = [kept_columns.index(column) for column in columns]
        assert sorted((tuple(row[i] for i in index) for row in kept_rows), key=repr) == rows


# --------------------------------------------------------------------------- many tables at once


async def play_one_game(tables: TableRunner, table: Table, rng: random.Random) -> list[maya.Event]:
    produced: list[maya.Event] = []
    while table.state is not None and not table.state.over:
        state = table.state
        player = state.current
        assert player is not None
        legal = maya.turn_actions(state, player)
        action = maya.complete(state, rng.choice(legal), rng)
        async with table.lock:
            produced += await tables.act(table, action)
    return produced


async def test_fifty_tables_writing_at_once_lose_nothing(tmp_path):
    repo = await SqliteRepository.open(tmp_path / "busy.db")
    tables = TableRunner(repo, settings())
    rng = random.Random(2024)
    pool = list(range(1000, 1020))  # players sit at several tables at once
    games = []
    for channel in range(50):
        players = rng.sample(pool, rng.randint(2, 5))
        rules = maya.Rules.for_preset("vies", vies=rng.randint(1, 3))
        table = await tables.open(
            kind="maya",
            guild_id=GUILD,
            channel_id=channel,
            starter=players[0],
            rules=rules,
            lang="fr",
        )
        for player in players[1:]:
            await tables.join_lobby(table, player)
        await tables.start(table)
        assert table.state is not None
        initial = maya.State.from_json(table.state.to_json())
        games.append((table, initial, random.Random(rng.random())))

    try:
        produced = await asyncio.gather(*(play_one_game(tables, t, r) for t, _, r in games))
        for (table, initial, _), events in zip(games, produced, strict=True):
            assert table.state is not None and table.state.over and table.status == "finished"
            record = await repo.game(table.id)
            assert record is not None and record.state is not None
            assert (record.status, record.version) == ("finished", table.version)
            assert maya.State.from_json(record.state) == table.state
            stored = await repo.events(table.id)
            assert len(stored) == len(events)
            replayed = maya.replay(
                initial,
                [maya.EVENTS.build(e.type, e.payload, e.visibility, e.recipient) for e in stored],
            )
            assert replayed == maya.State.from_json(record.state)
        assert tables.by_id == {}

        wins, ranked = await repo.leaderboard(GUILD, "mia", WINS, None, offset=0, limit=100)
        assert sum(s.value for s in wins) == len(games)
        assert ranked == len({t.state.winner for t, _, _ in games if t.state is not None})
        played, _ = await repo.leaderboard(GUILD, "mia", GAMES, None, offset=0, limit=100)
        seats = sum(len(t.players) for t, _, _ in games)
        assert sum(s.value for s in played) == seats
        ratings = await repo.ratings(GUILD, "mia", pool)
        assert sum(r.games for r in ratings.values()) == seats
        # Elo moves points from losers to winners: a rating update lost to a race shows here.
        assert sum(r.rating for r in ratings.values()) == pytest.approx(1000.0 * len(ratings))
    finally:
        await tables.close()


# --------------------------------------------------------------------------- refused writes

OPENING = (maya.Roll(A, (5, 2)), maya.Announce(A, 61))
REFUSED = {
    "a turn": maya.Believe(B, (4, 1)),
    "the last action": maya.Lift(B),  # the bluff is caught: A, on one life, is out
}


async def a_game_in_progress(
    path: Path, *, turn_seconds: float | None = None, inline_writes: bool = True
) -> tuple[TableRunner, Table]:
    tables = TableRunner(await SqliteRepository.open(path, inline_writes=inline_writes), settings())
    table = await tables.open(
        kind="maya",
        guild_id=GUILD,
        channel_id=10,
        starter=A,
        rules=maya.Rules.for_preset("vies", vies=1),
        lang="fr",
        turn_seconds=turn_seconds,
    )
    await tables.join_lobby(table, B)
    await tables.start(table)
    table.state = maya.new_game([A, B], table.rules)  # A opens
    table.timeouts = {B: 1}  # B acting in person clears it: unless the write is refused
    for action in OPENING:
        await tables.act(table, action, in_person=False)
    return tables, table


def snapshot_of(table: Table) -> tuple:
    assert table.state is not None
    return (
        table.state.to_json(),
        table.version,
        table.status,
        table.deadline,
        dict(table.timeouts),
    )


async def assert_refused_and_unchanged(
    tables: TableRunner, table: Table, action: maya.Action, reader: SqliteRepository, reason: str
) -> None:
    before = snapshot_of(table)
    stored_before = await reader.game(table.id)
    events_before = await reader.events(table.id)
    with pytest.raises(StorageError, match=reason):
        async with table.lock:
            await tables.act(table, action)
    assert snapshot_of(table) == before
    assert tables.in_channel(table.channel_id) is table
    assert await reader.game(table.id) == stored_before
    assert await reader.events(table.id) == events_before
    assert await reader.leaderboard(GUILD, "mia", GAMES, None, offset=0, limit=10) == ([], 0)


async def assert_accepted(tables: TableRunner, table: Table, action: maya.Action) -> None:
    version = table.version
    async with table.lock:
        events = await tables.act(table, action)
    assert events and table.version == version + 1 and table.timeouts == {}
    record = await tables.repository.game(table.id)
    assert record is not None and record.version == table.version
    assert table.state is not None and record.state == table.state.to_json()
    if table.state.over:
        assert tables.in_channel(table.channel_id) is None
        _, ranked = await tables.repository.leaderboard(
            GUILD, "mia", GAMES, None, offset=0, limit=10
        )
        assert ranked == 2


@pytest.mark.parametrize("refused", REFUSED.values(), ids=REFUSED.keys())
async def test_a_locked_database_refuses_the_action_and_the_table_stays_as_it_was(
    tmp_path, refused
):
    path = tmp_path / "locked.db"
    tables, table = await a_game_in_progress(path)
    repo = tables.repository
    assert isinstance(repo, SqliteRepository)
    await repo.driver._db.execute("PRAGMA busy_timeout=50")  # refuse fast rather than after 2 s
    other = sqlite3.connect(path, isolation_level=None)
    try:
        other.execute("BEGIN EXCLUSIVE")
        await assert_refused_and_unchanged(tables, table, refused, repo, "locked")
        other.execute("ROLLBACK")
        await assert_accepted(tables, table, refused)
    finally:
        other.close()
        await tables.close()


@pytest.mark.parametrize("refused", REFUSED.values(), ids=REFUSED.keys())
async def test_a_read_only_database_refuses_the_action_and_the_table_stays_as_it_was(
    tmp_path, refused
):
    path = tmp_path / "readonly.db"
    tables, table = await a_game_in_progress(path)
    writable = tables.repository
    # Root ignores file modes: a read-only connection is what a read-only disk looks like.
    connection = await aiosqlite.connect(f"file:{path}?mode=ro", uri=True, isolation_level=None)
    connection.row_factory = aiosqlite.Row
    read_only = SqliteRepository(SqliteDriver(connection))
    try:
        tables.repository = read_only
        await assert_refused_and_unchanged(tables, table, refused, read_only, "readonly")
        tables.repository = writable
        await assert_accepted(tables, table, refused)
    finally:
        await read_only.close()
        await tables.close()


async def test_an_action_cancelled_mid_write_leaves_the_table_and_the_database_as_they_were(
    tmp_path,
):
    # A move written on the loop's thread is never cut in half: this is the move that
    # found the write lock taken, and waits on the shared connection's thread.
    tables, table = await a_game_in_progress(tmp_path / "cancelled.db", inline_writes=False)
    repo = tables.repository
    assert isinstance(repo, SqliteRepository)
    before = snapshot_of(table)
    stored_before = await repo.game(table.id)
    writing = asyncio.Event()
    resume = threading.Event()
    loop = asyncio.get_running_loop()

    def stall() -> int:
        # On the database's thread, inside the move's transaction: it waits, half done.
        if repo.driver._db.in_transaction and not resume.is_set():
            loop.call_soon_threadsafe(writing.set)
            resume.wait()
        return 0  # then it goes on

    try:
        await repo.driver._db.set_progress_handler(stall, 1)
        task = asyncio.create_task(tables.act(table, REFUSED["a turn"]))
        await writing.wait()
        assert repo.driver._db.in_transaction
        task.cancel()
        for _ in range(5):  # the cancellation reaches the waiting write
            await asyncio.sleep(0)
        resume.set()
        with pytest.raises(asyncio.CancelledError):
            await task
        await repo.driver._db.set_progress_handler(None, 1)
        assert snapshot_of(table) == before
        assert not repo.driver._db.in_transaction
        assert await repo.game(table.id) == stored_before
        await assert_accepted(tables, table, REFUSED["a turn"])
    finally:
        await tables.close()


async def test_a_timed_out_turn_is_played_once_the_locked_database_is_back(tmp_path):
    path = tmp_path / "timer.db"
    tables, table = await a_game_in_progress(path, turn_seconds=0.2)
    repo = tables.repository
    assert isinstance(repo, SqliteRepository)
    await repo.driver._db.execute("PRAGMA busy_timeout=50")
    assert table.state is not None and table.state.current == B
    version = table.version
    other = sqlite3.connect(path, isolation_level=None)
    try:
        other.execute("BEGIN EXCLUSIVE")
        await tables.clock.start()  # B's turn times out now, the database locked
        await asyncio.sleep(2.0)
        assert table.version == version and table.state.current == B  # nothing stored yet
        turn = tables.clock.get(f"turn:{table.id}")
        assert turn is not None and turn.attempts > 0  # but tried again later
        other.execute("ROLLBACK")
        for _ in range(100):
            if table.version > version:
                break
            await asyncio.sleep(0.1)
        # The CPU played B's timed-out turn, and counted it, as soon as it could be stored.
        assert table.version > version
        record = await repo.game(table.id)
        assert record is not None and record.version == table.version
        assert record.meta["timeouts"] == {str(B): 2}
    finally:
        other.close()
        await tables.close()


async def test_a_turn_still_times_out_when_an_accusation_and_a_vote_come_meanwhile(tmp_path):
    tables = TableRunner(await SqliteRepository.open(tmp_path / "vote.db"), settings())
    c = 103
    try:
        table = await tables.open(
            kind="maya",
            guild_id=GUILD,
            channel_id=12,
            starter=A,
            rules=maya.Rules.for_preset("soiree"),
            lang="fr",
            turn_seconds=0.5,
        )
        for player in (B, c):
            await tables.join_lobby(table, player)
        await tables.start(table)
        table.state = maya.new_game([A, B, c], table.rules)  # A opens
        async with table.lock:
            await tables.act(table, maya.Roll(A, (5, 2)), in_person=False)
            await tables.act(table, maya.Announce(A, 52), in_person=False)
            assert table.state.current == B
            deadline = table.deadline
            # Moves that are not B's decision: an accusation, contested, and a vote.
            await tables.act(table, maya.Accuse(c, A, "dés mal secoués"))
            await tables.act(table, maya.ContestFault(A, 1))
            await tables.act(table, maya.Vote(B, 1, True))
            assert table.state.current == B and table.deadline == deadline  # no more time
            turn = tables.clock.get(f"turn:{table.id}")
            assert turn is not None and turn.due == deadline
        await tables.clock.start()
        version = table.version
        for _ in range(40):
            if table.version > version:
                break
            await asyncio.sleep(0.1)
        # The CPU played B's turn for B, at B's deadline.
        assert table.version > version and table.timeouts == {B: 1}
        assert table.state.current != B or table.state.step > 2
    finally:
        await tables.close()
