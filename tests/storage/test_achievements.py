"""What every storage backend must do with achievements: written with a finished game's
results, each earned once per server and player, the streaks' runs, and forgetting a
player (``bot.storage.base.AchievementStore``), run against each backend."""

from __future__ import annotations

import itertools
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from bot.kernel.achievements import Awards, Earned, Run
from bot.kernel.spec import Board, Metric
from bot.storage import GameResults, Repository
from tests.postgres import NoPostgres, PostgresServer
from tests.storage.test_contract import BACKENDS

GUILD, OTHER_GUILD = 1, 2
A, B = 101, 102
BOARD = Board("dice", (Metric("games"),))
_channels = itertools.count(5000)


@pytest.fixture(params=list(BACKENDS))
async def repository(
    request: pytest.FixtureRequest, tmp_path: Path, postgres_server: PostgresServer | NoPostgres
) -> AsyncIterator[Repository]:
    repo = await BACKENDS[request.param](tmp_path, postgres_server)
    yield repo
    await repo.close()


async def finish(
    repo: Repository,
    earned: tuple[Earned, ...] = (),
    runs: tuple[Run, ...] = (),
    *,
    guild: int = GUILD,
    game: int | None = None,
) -> int:
    """A game finished with these awards (``game``: write the end of that one again)."""
    if game is None:
        game = await repo.create_game(guild_id=guild, channel_id=next(_channels), kind="x", meta={})
        version = 0
    else:
        record = await repo.game(game)
        assert record is not None
        version = record.version
    await repo.save_game(
        game,
        previous_version=version,
        version=version + 1,
        status="finished",
        state={"over": True},
        meta={},
        results=GameResults(
            board=BOARD,
            day="2026-03-10",
            figures={A: {"games": 1}},
            ratings={},
            awards=Awards(earned, runs),
        ),
    )
    return game


def codes(held: dict[int, list], user: int) -> list[tuple[str, int]]:
    return [(h.code, h.game_id) for h in held.get(user, [])]


async def test_achievements_are_written_with_the_game_that_earned_them(
    repository: Repository,
) -> None:
    before = datetime.now(UTC) - timedelta(seconds=5)
    game = await finish(repository, (Earned(A, "warrior"), Earned(B, "maya")))
    held = await repository.achievements(GUILD, [A, B])
    assert codes(held, A) == [("warrior", game)]
    assert codes(held, B) == [("maya", game)]
    earned_at = held[A][0].earned_at
    assert earned_at.tzinfo is not None
    assert before <= earned_at <= datetime.now(UTC) + timedelta(seconds=5)


async def test_an_achievement_is_earned_once_per_server_the_first_game_keeps_it(
    repository: Repository,
) -> None:
    first = await finish(repository, (Earned(A, "warrior"),))
    await finish(repository, (Earned(A, "warrior"), Earned(A, "maya")))
    elsewhere = await finish(repository, (Earned(A, "warrior"),), guild=OTHER_GUILD)
    held = await repository.achievements(GUILD, [A])
    assert [code for code, _ in codes(held, A)] == ["warrior", "maya"]  # in the order earned
    assert codes(held, A)[0] == ("warrior", first)
    assert codes(await repository.achievements(OTHER_GUILD, [A]), A) == [("warrior", elsewhere)]


async def test_a_player_without_achievements_is_left_out(repository: Repository) -> None:
    await finish(repository, (Earned(A, "warrior"),))
    assert set(await repository.achievements(GUILD, [A, B])) == {A}
    assert await repository.achievements(GUILD, []) == {}
    assert await repository.achievements(OTHER_GUILD, [A]) == {}


async def test_a_streak_run_grows_with_each_game_and_starts_again_after_a_wrong_try(
    repository: Repository,
) -> None:
    assert await repository.streak_runs(GUILD, [A]) == {}
    await finish(repository, runs=(Run(A, "lifts", 3, restarted=False),))
    await finish(repository, runs=(Run(A, "lifts", 2, restarted=False),))
    assert await repository.streak_runs(GUILD, [A, B]) == {(A, "lifts"): 5}
    await finish(
        repository,
        runs=(Run(A, "lifts", 1, restarted=True), Run(B, "lifts", 4, restarted=False)),
    )
    assert await repository.streak_runs(GUILD, [A, B]) == {(A, "lifts"): 1, (B, "lifts"): 4}
    assert await repository.streak_runs(OTHER_GUILD, [A, B]) == {}
    assert await repository.streak_runs(GUILD, []) == {}


async def test_a_game_counted_twice_earns_and_adds_to_runs_once(repository: Repository) -> None:
    awards = ((Earned(A, "warrior"),), (Run(A, "lifts", 2, restarted=False),))
    game = await finish(repository, *awards)
    await finish(repository, *awards, game=game)
    assert codes(await repository.achievements(GUILD, [A]), A) == [("warrior", game)]
    assert await repository.streak_runs(GUILD, [A]) == {(A, "lifts"): 2}


async def test_forgetting_a_player_forgets_their_achievements_and_runs_on_that_server(
    repository: Repository,
) -> None:
    await finish(repository, (Earned(A, "warrior"),), (Run(A, "lifts", 2, restarted=False),))
    await finish(repository, (Earned(B, "warrior"),), (Run(B, "lifts", 1, restarted=False),))
    await finish(repository, (Earned(A, "maya"),), guild=OTHER_GUILD)
    # Their achievement, their run, and their figures of the day (one row, summed).
    assert await repository.forget_player(GUILD, A) == 3
    assert await repository.achievements(GUILD, [A]) == {}
    assert await repository.streak_runs(GUILD, [A]) == {}
    assert codes(await repository.achievements(GUILD, [B]), B) != []
    assert await repository.streak_runs(GUILD, [B]) == {(B, "lifts"): 1}
    assert set(await repository.achievements(OTHER_GUILD, [A])) == {A}
