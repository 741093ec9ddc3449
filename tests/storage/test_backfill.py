"""The migration that brings achievements (0005) backfills them from the games finished
before it: every counted game's event log replayed with the games' own detection, in the
order the games were counted, in the migration's transaction, once. Run on each backend."""

from __future__ import annotations

import importlib
import itertools
from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest

from bot.games import maya, yades
from bot.games.maya import Announce, Lift, Roll, Warrior
from bot.games.maya.values import MAYA
from bot.games.menteur.metrics import BOARD as MENTEUR_BOARD
from bot.games.yades.metrics import YadesSetup
from bot.storage import EventRecord, GameResults, Repository, open_repository
from tests.postgres import NoPostgres, PostgresServer, server_or_skip
from tests.storage.past_games import DAY, store_finished

GUILD, OTHER_GUILD = 1, 2
A, B, CPU = 101, 102, -1
ACHIEVEMENTS = 5  # the migration that brings them
_channels = itertools.count(7000)


async def _sqlite_url(tmp_path: Path, server: PostgresServer | NoPostgres) -> str:
    return f"sqlite:///{tmp_path}/old.db"


async def _postgres_url(tmp_path: Path, server: PostgresServer | NoPostgres) -> str:
    return await server_or_skip(server).new_database()


URLS: dict[str, Callable[[Path, PostgresServer | NoPostgres], Awaitable[str]]] = {
    "sqlite": _sqlite_url,
    "postgres": _postgres_url,
}


@pytest.fixture(params=list(URLS))
async def old_database(
    request: pytest.FixtureRequest,
    tmp_path: Path,
    postgres_server: PostgresServer | NoPostgres,
    monkeypatch: pytest.MonkeyPatch,
) -> str:
    """A database at the schema before achievements (its URL); opening it again upgrades it."""
    url = await URLS[request.param](tmp_path, postgres_server)
    module = f"bot.storage.{request.param}"
    shipped = importlib.import_module(module).migrations
    with monkeypatch.context() as before:
        before.setattr(
            f"{module}.migrations", lambda: [m for m in shipped() if m[0] < ACHIEVEMENTS]
        )
        repo = await open_repository(url)
        try:
            await play_past_games(repo)
        finally:
            await repo.close()
    return url


def bluffs_caught(times: int) -> list[object]:
    """A two-player soirée: A bluffs and B lifts, ``times`` times (A, who drinks, opens)."""
    return [
        action for _ in range(times) for action in (Roll(A, dice=(3, 1)), Announce(A, 62), Lift(B))
    ]


GAMES: dict[str, int] = {}  # what each past game is called in the tests -> its id


async def play_past_games(repo: Repository) -> None:
    soiree = maya.Rules.for_preset(maya.SOIREE)

    async def store(name: str, kind: str, rules, players, actions, guild=GUILD) -> None:
        GAMES[name] = await store_finished(
            repo, kind, rules, players, actions, guild=guild, channel=next(_channels)
        )

    # A's real Maya lifted by B; the CPU (who receives the next Maya) makes it as a Warrior.
    await store(
        "maya",
        "maya",
        soiree,
        [A, B, CPU],
        [
            Roll(A, dice=(2, 1)),
            Announce(A, MAYA),
            Lift(B),
            Roll(B, dice=(1, 2)),
            Announce(B, MAYA),
            Warrior(CPU, dice=(2, 1)),
        ],
    )
    # B lifts six bluffs in a row, then four: ten, earned in the second game.
    await store("six lifts", "maya", soiree, [A, B], bluffs_caught(6))
    await store("four lifts", "maya", soiree, [A, B], bluffs_caught(4))
    # The same on another server counts there alone: four lifts are not ten.
    await store("elsewhere", "maya", soiree, [A, B], bluffs_caught(4), guild=OTHER_GUILD)
    # A Yadès rolled at once (its figures need the expert's tables, which the replay loads).
    six = (6, 6, 6, 6, 6)
    await store(
        "yades",
        "yades",
        YadesSetup(yades.Rules.for_preset(yades.YADES)),
        [A, B],
        [yades.Roll(A, dice=six), yades.Score(A, "yades")],
    )
    # A game whose log the code of today cannot read: it earns nothing, the upgrade goes on.
    broken = await repo.create_game(
        guild_id=GUILD, channel_id=next(_channels), kind="menteur", meta={}
    )
    await repo.save_game(
        broken,
        previous_version=0,
        version=1,
        status="finished",
        state={"garbage": True},
        meta={},
        events=[EventRecord("no_such_event", "public", None, {})],
        results=GameResults(board=MENTEUR_BOARD, day=DAY, figures={A: {"games": 1}}, ratings={}),
    )
    # A game stopped before it was counted (nothing of it reached the leaderboards) is not
    # replayed: B's real Maya in it earns nothing.
    uncounted = await repo.create_game(
        guild_id=GUILD, channel_id=next(_channels), kind="maya", meta={}
    )
    state = maya.new_game([B, A], soiree)
    events = []
    for action in (Roll(B, dice=(2, 1)), Announce(B, MAYA), Lift(A)):
        state, produced = maya.apply(state, action)
        events += produced
    await repo.save_game(
        uncounted,
        previous_version=0,
        version=1,
        status="stopped",
        state=state.to_json(),
        meta={},
        events=[EventRecord(e.type, e.visibility, e.to, e.data) for e in events],
    )


async def test_an_upgrade_backfills_the_achievements_of_past_games(old_database: str) -> None:
    repo = await open_repository(old_database)
    try:
        held = await repo.achievements(GUILD, [A, B, CPU])
        assert {h.code: h.game_id for h in held[A]} == {
            "maya_real_maya": GAMES["maya"],
            "yades_first_roll": GAMES["yades"],
        }
        assert {h.code: h.game_id for h in held[B]} == {"maya_ten_lifts": GAMES["four lifts"]}
        assert CPU not in held  # its Warrior earns nothing
        assert await repo.achievements(OTHER_GUILD, [A, B]) == {}
        assert await repo.streak_runs(GUILD, [B]) == {(B, "maya_ten_lifts"): 10}
        assert await repo.streak_runs(OTHER_GUILD, [B]) == {(B, "maya_ten_lifts"): 4}
    finally:
        await repo.close()


async def test_the_backfill_runs_once(old_database: str) -> None:
    first = await open_repository(old_database)
    held = await first.achievements(GUILD, [A, B])
    runs = await first.streak_runs(GUILD, [B])
    await first.close()
    again = await open_repository(old_database)
    try:
        assert await again.achievements(GUILD, [A, B]) == held
        assert await again.streak_runs(GUILD, [B]) == runs  # not 20
    finally:
        await again.close()
