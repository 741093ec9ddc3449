"""Several bot processes on one PostgreSQL database, each running its own shards: each
server's tables are answered by the process of its shard, a second process for a shard
waits for it, and when the first is killed the second resumes its games where they were,
with the leaderboards the first one wrote."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from bot.storage import open_repository
from tests.e2e.botprocess import BotProcess
from tests.e2e.emulator import DiscordEmulator
from tests.e2e.maya_driver import REVEAL_LINE, mark
from tests.e2e.test_persistence import (
    BACK_FR,
    Game,
    check_counted_once,
    leaderboard_rows,
    wait_line,
)
from tests.e2e.world import Channel, User, World, shard_of
from tests.storage.test_postgres import terminate_leases

WAITING = "waiting to take them over"


@pytest.fixture
def world() -> World:
    world = World.default(shards=2)  # bar on shard 0 of 2, pub on shard 1
    world.add_guild("cave", owner="patron", locale="fr", channels=["salle"], shard=(1, 2))
    for name in ["alice", "bob"]:
        world.join("cave", name)
    return world


def process(emulator: DiscordEmulator, tmp_path: Path, name: str, shards: str, url: str):
    folder = tmp_path / name
    folder.mkdir()
    env = {"GOBELET_SHARD_COUNT": "2", "GOBELET_SHARD_IDS": shards}
    return BotProcess(emulator, folder, env=env, database_url=url)


async def logged(bot: BotProcess, text: str, timeout: float = 20.0) -> None:
    """Wait until the bot's log says ``text`` (nothing on the wire tells a waiting process)."""
    for _ in range(int(timeout / 0.1)):
        if text in bot.log():
            return
        await asyncio.sleep(0.1)
    raise AssertionError(f"the bot never logged {text!r}:\n{bot.log()[-3000:]}")


async def wins(emulator: DiscordEmulator, user: User, channel: Channel) -> list:
    board = await (
        await emulator.slash(user, channel, "classement", {"jeu": "mia", "critere": "wins"})
    ).reply()
    return leaderboard_rows(board)


@pytest.mark.backends("postgres")
async def test_a_replacement_process_takes_over_a_killed_shard_and_resumes_its_games(
    emulator: DiscordEmulator, tmp_path: Path, database_url: str
) -> None:
    zero = process(emulator, tmp_path, "zero", "0", database_url)
    one = process(emulator, tmp_path, "one", "1", database_url)
    standby = process(emulator, tmp_path, "standby", "0", database_url)
    try:
        await zero.start()
        await one.start()
        assert [s.shard for s in emulator.open_sessions()] == [(0, 2), (1, 2)]
        assert shard_of(emulator.guild("cave").id, 2) == 1
        alice, bob = emulator.user("alice"), emulator.user("bob")
        comptoir = emulator.channel("bar", "comptoir")  # shard 0
        salle = emulator.channel("cave", "salle")  # shard 1

        # A whole Mia game on shard 0, counted by its process.
        since = mark(emulator)
        finished = Game(emulator, comptoir, [alice, bob])
        await finished.open(lives=1)
        await finished.play_to_the_end()
        await check_counted_once(emulator, comptoir, [alice, bob], since)
        first_board = await wins(emulator, alice, comptoir)

        # A game left mid-round on shard 0, and one on shard 1.
        game = Game(emulator, emulator.channel("bar", "terrasse"), [bob, alice])
        await game.open(lives=2)
        announcer, panel, (_, _, value) = await game.roll()
        turn = await game.announce(announcer, panel, str(value))
        table_id, before = game.table.id, game.table.embeds
        other = Game(emulator, salle, [alice, bob])
        await other.open(lives=2)
        other_turn = other.driver.turn()

        # A second process for shard 0 waits, connected to nothing, while the first runs it.
        takeover = asyncio.create_task(standby.start(timeout=60))
        await logged(standby, WAITING)
        assert len(emulator.open_sessions(0)) == 1

        old = emulator.session_on(0)
        killed = mark(emulator)
        assert await zero.kill() == -9
        await emulator.wait_shard(0, newer_than=old, timeout=60)
        await takeover
        assert len(emulator.open_sessions(0)) == 1

        # Its games go on where they were, in the process that took the shard over.
        await wait_line(emulator, game.channel, BACK_FR, since=killed)
        assert game.table.id == table_id and game.table.embeds == before
        assert game.driver.turn() == turn
        lifter = game.users[turn.player]
        turn = await game.lift()
        # The new process played the lift: its reveal is in the channel. (The dice are not
        # seeded here: a true Mia lifted costs two lives and may end the game at once.)
        reveal = await wait_line(emulator, game.channel, f"<@{lifter.id}> soulève", since=killed)
        assert REVEAL_LINE.search(reveal), reveal
        assert turn.phase == "over" or turn.step > 0, turn
        await game.play_to_the_end()
        # The leaderboards are the database's: what the killed process counted is there,
        # and the game it left is counted once, by the process that finished it.
        ((_, first_winner, _),) = first_board
        now = {user: int(value) for _, user, value in await wins(emulator, alice, comptoir)}
        assert sum(now.values()) == 2 and now[first_winner] >= 1, (first_board, now)

        # Shard 1 never stopped: its process alone answers there, its game untouched.
        assert other.driver.turn() == other_turn
        assert len(emulator.open_sessions(1)) == 1
        await other.play_to_the_end()
        await check_counted_once(emulator, salle, [alice, bob], since)
    finally:
        for bot in (zero, one, standby):
            await bot.stop()


@pytest.mark.backends("postgres")
async def test_a_process_whose_lease_another_process_took_stops_with_exit_code_3(
    emulator: DiscordEmulator, tmp_path: Path, database_url: str
) -> None:
    bot = process(emulator, tmp_path, "only", "0-1", database_url)
    thief = await open_repository(database_url)
    try:
        await bot.start()
        # The bot's idle lease connection breaks (the server ends it), and another process
        # takes the shards before the bot looks again.
        await terminate_leases(database_url)
        assert await thief.try_lock_shard(0, 2) and await thief.try_lock_shard(1, 2)
        code = await bot.exit_code(timeout=30)
        assert code == 3, bot.log()[-3000:]
        assert "lost the lease of shards 0, 1" in bot.log()
    finally:
        await thief.close()
        await bot.stop()


@pytest.mark.backends("sqlite")
async def test_without_a_shard_count_the_bot_runs_as_many_shards_as_discord_recommends(
    emulator: DiscordEmulator, tmp_path: Path, database_url: str
) -> None:
    emulator.shards = 2  # what GET /gateway/bot recommends
    bot = BotProcess(emulator, tmp_path, database_url=database_url)
    try:
        await bot.start()
        # discord.py identifies a process's second shard some 5 s after its first.
        await emulator.wait_for(
            lambda: len(emulator.open_sessions()) == 2, timeout=15, what="the second shard"
        )
        assert sorted(s.shard for s in emulator.open_sessions()) == [(0, 2), (1, 2)]
        # Each server's interactions reach the bot on its own shard, and are answered.
        for channel in (emulator.channel("bar", "comptoir"), emulator.channel("cave", "salle")):
            answer = await (await emulator.slash("alice", channel, "maya start")).reply()
            assert not answer.ephemeral and "ouvre une table" in answer.text
        assert "running the 2 shards Discord recommends" in bot.log()
    finally:
        await bot.stop()


@pytest.mark.backends("sqlite")
@pytest.mark.parametrize(
    ("given", "code", "said"), [("1", 2, "GOBELET_SHARD_COUNT=1"), (None, 4, "restarting")]
)
async def test_a_shard_discord_closes_with_4011_stops_the_bot_with_what_to_do(
    emulator: DiscordEmulator,
    tmp_path: Path,
    database_url: str,
    given: str | None,
    code: int,
    said: str,
) -> None:
    # Every server on one shard is past what Discord lets one shard hold.
    emulator.guilds_per_shard = 1
    env = {"GOBELET_SHARD_COUNT": given} if given else None
    bot = BotProcess(emulator, tmp_path, env=env, database_url=database_url)
    bot.launch()
    for _ in range(200):
        if not bot.alive:
            break
        await asyncio.sleep(0.1)
    assert bot.returncode == code, bot.log()[-3000:]
    log = bot.log()
    assert said in log and "4011" in log and "Traceback" not in log
    await bot.stop()
