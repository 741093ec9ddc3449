"""The end of a game as the table runtime writes it: the achievements its humans earned
that they did not hold yet on the server (what the end announces), stored with its
figures, and the streaks carried from one game to the next."""

from __future__ import annotations

import importlib
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.config import load_settings
from bot.games import REGISTRY, maya
from bot.games.maya.values import MAYA
from bot.i18n import t
from bot.kernel.achievements import Earned
from bot.storage.sqlite import SqliteRepository
from bot.table import Table, TableRunner
from bot.table.scoring import rebuilt
from cogs.table import TableCog

GUILD, CHANNEL = 1, 10
A, B = 101, 102


@pytest.fixture
async def tables(tmp_path: Path) -> AsyncIterator[TableRunner]:
    repository = await SqliteRepository.open(tmp_path / "achievements.db")
    made = TableRunner(repository, load_settings({"GOBELET_DICE_SEED": "3"}, dotenv=False))
    yield made
    await made.close()


async def a_soiree(tables: TableRunner, cpu: int = 0) -> Table:
    table = await tables.open(
        kind="maya",
        guild_id=GUILD,
        channel_id=CHANNEL,
        starter=A,
        rules=maya.Rules.for_preset(maya.SOIREE),
        lang="fr",
        cpu_count=cpu,
    )
    await tables.join_lobby(table, B)
    await tables.start(table)
    return table


def other(table: Table, player: int) -> int:
    return next(seat.player for seat in table.view().seats if seat.player != player)


async def round_(table: Table, tables: TableRunner, dice: tuple[int, int], value: int) -> None:
    """The current player rolls ``dice`` and announces ``value``; the next one lifts."""
    player = table.current
    assert player is not None
    await tables.act(table, maya.Roll(player, dice=dice))
    await tables.act(table, maya.Announce(player, value))
    assert table.current is not None
    await tables.act(table, maya.Lift(table.current))


async def maya_by(table: Table, tables: TableRunner, player: int) -> None:
    """``player`` announces a real Maya and is lifted (after losing a round to open it)."""
    if table.current != player:
        await round_(table, tables, (6, 6), 66)  # the other's true 66: player lifted, opens
    assert table.current == player
    await round_(table, tables, (2, 1), MAYA)


async def test_an_achievement_is_earned_once_and_the_next_game_has_nothing_new(
    tables: TableRunner,
) -> None:
    first = await a_soiree(tables)
    await maya_by(first, tables, A)
    await tables.stop(first)
    assert first.results is not None
    assert first.results.awards.earned == (Earned(A, "maya_real_maya"),)
    held = await tables.repository.achievements(GUILD, [A, B])
    assert [(h.code, h.game_id) for h in held[A]] == [("maya_real_maya", first.id)]
    assert B not in held

    second = await a_soiree(tables)
    await maya_by(second, tables, A)
    await tables.stop(second)
    assert second.results is not None
    assert second.results.awards.earned == ()  # held already: nothing to announce
    held = await tables.repository.achievements(GUILD, [A])
    assert [(h.code, h.game_id) for h in held[A]] == [("maya_real_maya", first.id)]


async def test_a_streak_carries_over_to_the_next_game(tables: TableRunner) -> None:
    first = await a_soiree(tables)
    liar = first.current
    assert liar is not None
    lifter = other(first, liar)
    for _ in range(6):  # the liar drinks and opens again
        await round_(first, tables, (3, 1), 62)
    await tables.stop(first)
    assert first.results is not None and first.results.awards.earned == ()
    assert await tables.repository.streak_runs(GUILD, [lifter]) == {(lifter, "maya_ten_lifts"): 6}

    second = await a_soiree(tables)
    if second.current == lifter:
        await round_(second, tables, (6, 6), 66)  # the liar lifts a true 66, and opens
    for _ in range(4):
        assert second.current == liar
        await round_(second, tables, (3, 1), 62)
    await tables.stop(second)
    assert second.results is not None
    assert Earned(lifter, "maya_ten_lifts") in second.results.awards.earned
    runs = await tables.repository.streak_runs(GUILD, [lifter])
    assert runs == {(lifter, "maya_ten_lifts"): 10}


async def test_a_cpu_earns_nothing(tables: TableRunner) -> None:
    table = await a_soiree(tables, cpu=1)
    cpu = next(iter(table.cpus))
    while table.current != cpu:
        await round_(table, tables, (6, 6), 66)  # the lifter is wrong, and opens
    await round_(table, tables, (2, 1), MAYA)
    await tables.stop(table)
    assert table.results is not None and table.results.awards.earned == ()
    assert await tables.repository.achievements(GUILD, [cpu]) == {}


def test_every_achievement_has_a_name_and_a_description_in_both_languages() -> None:
    # A text missing from English would be said in French: both must be there, and differ
    # where the words do.
    for spec in REGISTRY:
        assert t("fr", f"ach.game.{spec.name}") and t("en", f"ach.game.{spec.name}")
        for achievement in spec.achievements:
            for part in ("name", "description"):
                french = t("fr", f"ach.{achievement.code}.{part}")
                english = t("en", f"ach.{achievement.code}.{part}")
                assert french and english
                assert part == "name" or french != english, achievement.code


def cog_of(game: str) -> type[TableCog]:
    # From the module itself: a bot started and closed earlier in the process may have
    # unloaded the extension, its class gone from TableCog.__subclasses__(); imported again,
    # it derives from the TableCog imported again with it, not from this module's.
    module = importlib.import_module(f"cogs.{game}.cog")
    base = importlib.import_module("cogs.table.cog").TableCog
    return next(
        found
        for found in vars(module).values()
        if isinstance(found, type)
        and issubclass(found, base)
        and getattr(found, "spec", None) is not None
        and found.spec.name == game
    )


@pytest.mark.parametrize("game", [spec.name for spec in REGISTRY])
def test_every_game_s_end_is_told_with_what_it_earned(game: str) -> None:
    """A game's cog tells the achievements with the events that end its games (won, or
    stopped), whichever way they come."""
    spec = REGISTRY[game]
    endings = cog_of(game).endings
    for rules in spec.variants():
        state = spec.new_game([1, 2], rules)
        _, stopped = spec.apply(state, spec.stop())
        _, left = spec.apply(state, spec.leave(2))
        assert any(isinstance(event, endings) for event in stopped), (game, rules)
        assert any(isinstance(event, endings) for event in left), (game, rules)


def test_the_backfill_looks_for_the_expert_tables_where_the_bot_does(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    from bot.table import backfill

    monkeypatch.delenv("GOBELET_DATA_DIR", raising=False)
    (tmp_path / "shipped").mkdir()
    monkeypatch.setenv("GOBELET_SHIPPED_DIR", str(tmp_path / "shipped"))
    monkeypatch.setenv("GOBELET_DATABASE_URL", f"sqlite:///{tmp_path}/base/gobelet.db")
    # The cache beside the SQLite file, as the bot's own settings put it.
    assert backfill._table_folders() == (tmp_path / "shipped", tmp_path / "base")
    monkeypatch.setenv("GOBELET_DATA_DIR", str(tmp_path / "cache"))
    assert backfill._table_folders() == (tmp_path / "shipped", tmp_path / "cache")


async def test_a_game_s_end_keeps_the_whole_log_it_was_scored_from(tables: TableRunner) -> None:
    """What the end's standings are told from is the game's stored log, read once."""
    table = await a_soiree(tables)
    await maya_by(table, tables, A)
    await tables.stop(table)
    stored = await tables.repository.events(table.id)
    assert table.event_log == rebuilt(REGISTRY["maya"], stored)
    assert len(table.event_log) == len(stored)
