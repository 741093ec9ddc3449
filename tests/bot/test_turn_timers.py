"""A turn's deadline is a stored timer, written with the move that starts the turn: it
survives a restart at its time, a game stored before the timers table gets one from its
deadline, and the absent player's turn is played when it is due."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from bot.config import load_settings
from bot.games import maya
from bot.games import yades as y
from bot.games.yades.metrics import YadesSetup
from bot.storage import StorageError, Timer
from bot.storage.sqlite import SqliteRepository
from bot.table import Table, TableRunner
from bot.table.clock import RETRY_SECONDS, Clock
from tests.bot.wall import START, FakeTime, eventually

GUILD, CHANNEL = 1, 10
A, B = 101, 102
TURN = 45.0


def tables_on(repository: SqliteRepository, wall: FakeTime) -> TableRunner:
    clock = Clock(repository, now=wall.now, sleep=wall.sleep)
    return TableRunner(
        repository, load_settings({"GOBELET_DICE_SEED": "3"}, dotenv=False), clock=clock
    )


@pytest.fixture
def wall() -> FakeTime:
    return FakeTime()


@pytest.fixture
async def tables(tmp_path: Path, wall: FakeTime) -> AsyncIterator[TableRunner]:
    made = tables_on(await SqliteRepository.open(tmp_path / "turns.db"), wall)
    yield made
    await made.close()


async def a_started_game(tables: TableRunner) -> Table:
    table = await tables.open(
        kind="maya",
        guild_id=GUILD,
        channel_id=CHANNEL,
        starter=A,
        rules=maya.Rules.for_preset("vies"),
        lang="fr",
        turn_seconds=TURN,
    )
    await tables.join_lobby(table, B)
    await tables.start(table)
    return table


def turn_of(table: Table) -> Timer:
    assert table.state is not None
    payload = {"table": table.id, "step": table.state.step}
    return Timer(f"turn:{table.id}", START + TURN, GUILD, payload)


async def test_a_human_turn_stores_its_timer_with_the_move(tables: TableRunner) -> None:
    table = await a_started_game(tables)
    assert table.deadline == START + TURN
    assert await tables.repository.timers() == [turn_of(table)]
    assert tables.clock.get(f"turn:{table.id}") == turn_of(table)


async def test_a_restarted_table_keeps_its_turn_deadline(tmp_path: Path, wall: FakeTime) -> None:
    first = tables_on(await SqliteRepository.open(tmp_path / "restart.db"), wall)
    table = await a_started_game(first)
    stored = turn_of(table)
    await first.close()
    wall.advance(20)  # the bot was down for a while: the turn keeps its deadline
    second = tables_on(await SqliteRepository.open(tmp_path / "restart.db"), wall)
    try:
        (restored,) = await second.restore()
        assert restored.deadline == START + TURN
        assert second.clock.get(stored.key) == stored
    finally:
        await second.close()


async def test_a_game_stored_before_the_timers_table_gets_its_timer_from_its_deadline(
    tmp_path: Path, wall: FakeTime
) -> None:
    repository = await SqliteRepository.open(tmp_path / "old.db")
    game = await repository.create_game(guild_id=GUILD, channel_id=CHANNEL, kind="maya", meta={})
    table = Table(game, GUILD, CHANNEL, "maya", A, "fr", maya.Rules.for_preset("vies"), [A, B])
    state = maya.new_game([A, B], table.rules)
    # The previous release kept the turn's deadline in the table's data, and no timer.
    meta = {**table.meta(), "deadline": START + 12}
    await repository.save_game(
        game, previous_version=0, version=1, status="active", state=state.to_json(), meta=meta
    )
    tables = tables_on(repository, wall)
    try:
        (restored,) = await tables.restore()
        timer = Timer(f"turn:{game}", START + 12, GUILD, {"table": game, "step": state.step})
        assert restored.deadline == START + 12
        assert tables.clock.get(timer.key) == timer
        assert await repository.timers() == [timer]
    finally:
        await tables.close()


async def test_an_absent_players_turn_is_played_for_them_when_its_timer_is_due(
    tables: TableRunner, wall: FakeTime
) -> None:
    table = await a_started_game(tables)
    assert table.state is not None
    absent, version = table.state.current, table.version
    await tables.clock.start()
    wall.advance(TURN - 1)
    for _ in range(50):  # whatever was ready to run has run
        await asyncio.sleep(0)
    assert table.version == version  # not before its time

    async def played() -> bool:
        return table.version > version

    wall.advance(1)
    await eventually(played, "the absent player's turn played")
    assert table.timeouts == {absent: 1}
    record = await tables.repository.game(table.id)
    assert record is not None and record.meta["timeouts"] == {str(absent): 1}
    # The next decision has its own timer, a whole turn from now.
    assert tables.clock.get(f"turn:{table.id}") == Timer(
        f"turn:{table.id}",
        wall.now() + TURN,
        GUILD,
        {"table": table.id, "step": table.state.step},
    )


async def test_a_game_that_ends_cancels_every_timer_of_its_table(tables: TableRunner) -> None:
    table = await a_started_game(tables)
    other = await tables.open(
        kind="maya",
        guild_id=GUILD,
        channel_id=CHANNEL + 1,
        starter=B,
        rules=maya.Rules.for_preset("soiree"),
        lang="fr",
    )
    await tables.clock.set(Timer(f"vote:{table.id}:1", START + 60, GUILD, {"table": table.id}))
    await tables.clock.set(Timer(f"vote:{other.id}:1", START + 60, GUILD, {"table": other.id}))
    async with table.lock:
        await tables.stop(table)
    # The table's timers are gone; the other table's stays, and the season's the game's
    # results began (no table's).
    keys = [t.key for t in await tables.repository.timers()]
    assert sorted(keys) == sorted([f"vote:{other.id}:1", f"season:{GUILD}"])
    assert tables.clock.get(f"turn:{table.id}") is None


async def test_a_timed_out_turn_that_fails_halfway_is_finished_soon_and_counted_once(
    tables: TableRunner, wall: FakeTime, monkeypatch: pytest.MonkeyPatch
) -> None:
    table = await tables.open(
        kind="yades",
        guild_id=GUILD,
        channel_id=CHANNEL,
        starter=A,
        rules=YadesSetup(y.Rules.for_preset("yades")),
        lang="fr",
        turn_seconds=TURN,
    )
    await tables.join_lobby(table, B)
    await tables.start(table)
    assert table.state is not None
    absent = table.state.current
    repository = tables.repository
    save_game = repository.save_game
    writes = 0

    async def second_write_refused(*args: Any, **kwargs: Any) -> None:
        nonlocal writes
        writes += 1
        if writes == 2:  # the turn's roll is stored, its next move is not
            raise StorageError("locked")
        await save_game(*args, **kwargs)

    monkeypatch.setattr(repository, "save_game", second_write_refused)
    await tables.clock.start()
    wall.advance(TURN)

    async def halfway() -> bool:
        turn = tables.clock.get(f"turn:{table.id}")
        return turn is not None and turn.payload.get("counted") is True

    await eventually(halfway, "the rest of the turn due again")
    assert table.state.current == absent and table.timeouts == {absent: 1}
    wall.advance(RETRY_SECONDS[0])

    async def passed() -> bool:
        return table.state is not None and table.state.current != absent

    await eventually(passed, "the rest of the turn played")
    assert table.timeouts == {absent: 1}  # one turn timed out, counted once
    record = await repository.game(table.id)
    assert record is not None and record.meta["timeouts"] == {str(absent): 1}
