"""A write whose answer is lost (a commit that succeeded while its connection timed out)
neither loses the move nor wedges the table: the table reads back what was stored."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from bot.config import load_settings
from bot.games import REGISTRY, maya
from bot.storage import StorageError, VersionConflict
from bot.storage.sqlite import SqliteRepository
from bot.table import Table, TableRunner

GUILD, CHANNEL = 1, 10
A, B = 101, 102


class LosingAnswers(SqliteRepository):
    """Stores every write, then, when told, answers as if the connection broke."""

    lose_next = False
    fail_reads = False

    async def save_game(self, game_id: int, **write: Any) -> None:
        await super().save_game(game_id, **write)
        if self.lose_next:
            self.lose_next = False
            raise StorageError("connection lost while committing")

    async def game(self, game_id: int) -> Any:
        if self.fail_reads:
            raise StorageError("still unreachable")
        return await super().game(game_id)


@pytest.fixture
async def repository(tmp_path: Path) -> AsyncIterator[LosingAnswers]:
    repo = await LosingAnswers.open(tmp_path / "lost.db")
    yield repo  # type: ignore[misc]
    await repo.close()


async def started(repository: LosingAnswers) -> tuple[TableRunner, Table]:
    tables = TableRunner(repository, load_settings({"GOBELET_DICE_SEED": "5"}, dotenv=False))
    table = await tables.open(
        kind="maya",
        guild_id=GUILD,
        channel_id=CHANNEL,
        starter=A,
        rules=maya.Rules.for_preset("vies"),
        lang="fr",
    )
    await tables.join_lobby(table, B)
    await tables.start(table)
    return tables, table


def a_move(table: Table) -> Any:
    assert table.state is not None
    player = table.state.current
    return REGISTRY["maya"].cpu_action(table.state, player, "facile", random.Random(1))


async def test_a_move_stored_though_its_answer_was_lost_stands(
    repository: LosingAnswers,
) -> None:
    tables, table = await started(repository)
    before = table.version
    repository.lose_next = True
    await tables.act(table, a_move(table))  # no error: the move is stored, and it stands
    record = await repository.game(table.id)
    assert record is not None and table.version == record.version == before + 1
    assert table.state is not None and table.state.to_json() == record.state
    await tables.act(table, a_move(table))  # and the table goes on from it
    assert table.version == before + 2
    await tables.close()


async def test_a_table_behind_its_stored_game_takes_it_back_and_the_next_move_goes_through(
    repository: LosingAnswers,
) -> None:
    tables, table = await started(repository)
    before = table.version
    repository.lose_next, repository.fail_reads = True, True
    with pytest.raises(StorageError):  # stored, but nothing could tell: refused for now
        await tables.act(table, a_move(table))
    assert table.version == before
    repository.fail_reads = False
    with pytest.raises(VersionConflict):  # the next write finds the newer game ...
        await tables.act(table, a_move(table))
    record = await repository.game(table.id)
    assert record is not None and table.version == record.version == before + 1  # ... takes it
    assert table.state is not None and table.state.to_json() == record.state
    await tables.act(table, a_move(table))  # and the move after it goes through
    assert table.version == before + 2
    await tables.close()
