"""Discord's identify budget and concurrency: as the emulator enforces them (``identifies.py``),
against bare gateway connections; and the bot within them, one process or several."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from bot.identifies import RESERVE
from tests.e2e.botprocess import BotProcess
from tests.e2e.emulator import DEFAULT_WAIT, DiscordEmulator, SessionStartLimit
from tests.e2e.identifies import CONCURRENCY, EXHAUSTED, IDENTIFY_WINDOW, READY, busiest_window
from tests.e2e.test_emulator import Gateway, serving
from tests.e2e.world import World


async def limit(http: aiohttp.ClientSession, emulator: DiscordEmulator) -> dict[str, Any]:
    async with http.get(f"{emulator.api_url}/gateway/bot") as answer:
        assert answer.status == 200
        return dict((await answer.json())["session_start_limit"])


async def answer(gateway: Gateway) -> tuple[int, Any]:
    """The first frame the gateway sends after IDENTIFY or RESUME: its op and data (a close:
    -1 and its code)."""
    frame = await gateway.ws.receive(timeout=DEFAULT_WAIT)
    if frame.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED):
        return -1, gateway.ws.close_code
    message = json.loads(frame.data)
    return message["op"], message["d"]


async def resume(
    http: aiohttp.ClientSession, emulator: DiscordEmulator, session_id: str
) -> Gateway:
    ws = await http.ws_connect(emulator.gateway_url)
    assert (await ws.receive_json(timeout=DEFAULT_WAIT))["op"] == 10
    data = {"token": emulator.token, "session_id": session_id, "seq": 1}
    await ws.send_json({"op": 6, "d": data})
    return Gateway(ws)


async def test_gateway_bot_reports_discord_s_figures_and_what_identifies_spent() -> None:
    emulator = DiscordEmulator()
    async with serving(emulator) as http:
        first = await limit(http, emulator)
        assert first["total"] == 1000 and first["remaining"] == 1000
        assert first["max_concurrency"] == 1
        assert 86_399_000 <= first["reset_after"] <= 86_400_000
        await (await Gateway.identify(http, emulator)).login()
        emulator.travel(60)
        after = await limit(http, emulator)
        assert after["remaining"] == 999
        assert after["reset_after"] <= first["reset_after"] - 60_000


async def test_a_second_identify_of_a_bucket_within_5_s_is_invalidated_whatever_its_process() -> (
    None
):
    emulator = DiscordEmulator(World.default(shards=2))
    async with serving(emulator) as http:
        zero = await Gateway.identify(http, emulator, [0, 2])
        await zero.login()
        # Another connection (another process) for the other shard: bucket 1 % 1 == 0 too.
        refused = await Gateway.identify(http, emulator, [1, 2])
        assert await answer(refused) == (9, False)
        emulator.travel(IDENTIFY_WINDOW)
        one = await Gateway.identify(http, emulator, [1, 2])
        ready, _ = await one.login()
        assert ready["shard"] == [1, 2]
        assert [(i.shard, i.bucket, i.outcome) for i in emulator.identifies] == [
            ((0, 2), 0, READY),
            ((1, 2), 0, CONCURRENCY),
            ((1, 2), 0, READY),
        ]
        # The refused one spent one of the day's too.
        assert (await limit(http, emulator))["remaining"] == 997
        assert [s.shard for s in emulator.open_sessions()] == [(0, 2), (1, 2)]


async def test_max_concurrency_buckets_shards_by_their_id_modulo() -> None:
    world = World.default(shards=2)
    world.add_guild("cave", owner="patron", locale="fr", channels=["salle"], shard=(2, 4))
    emulator = DiscordEmulator(world, session_start_limit=SessionStartLimit(max_concurrency=2))
    async with serving(emulator) as http:
        assert (await limit(http, emulator))["max_concurrency"] == 2
        zero = await Gateway.identify(http, emulator, [0, 4])
        one = await Gateway.identify(http, emulator, [1, 4])
        two = await Gateway.identify(http, emulator, [2, 4])  # bucket 0 again
        await zero.login()
        await one.login()
        assert await answer(two) == (9, False)
        assert [(i.bucket, i.outcome) for i in emulator.identifies] == [
            (0, READY),
            (1, READY),
            (0, CONCURRENCY),
        ]
        assert busiest_window(emulator.identifies) == 2


async def test_the_last_identify_resets_the_token_then_every_identify_fails_with_4004() -> None:
    emulator = DiscordEmulator(session_start_limit=SessionStartLimit(remaining=2))
    async with serving(emulator) as http:
        token = emulator.token
        await (await Gateway.identify(http, emulator)).login()
        assert (await limit(http, emulator))["remaining"] == 1
        emulator.travel(IDENTIFY_WINDOW)
        await (await Gateway.identify(http, emulator)).login()  # the last one is served
        assert emulator.token != token and emulator.revoked_tokens == [token]
        emulator.travel(IDENTIFY_WINDOW)
        ws = await http.ws_connect(emulator.gateway_url)
        assert (await ws.receive_json(timeout=DEFAULT_WAIT))["op"] == 10
        await ws.send_json({"op": 2, "d": {"token": token, "intents": 1, "properties": {}}})
        assert await answer(Gateway(ws)) == (-1, 4004)
        assert emulator.identifies[-1].outcome == EXHAUSTED
        async with http.get(f"{emulator.api_url}/users/@me") as refused:  # the old token
            assert refused.status == 401
        # The new token (the one an operator puts in) works, once the day's budget renews.
        emulator.travel(86_400)
        http.headers["Authorization"] = f"Bot {emulator.token}"
        assert (await limit(http, emulator))["remaining"] == 1000
        await (await Gateway.identify(http, emulator)).login()


async def test_a_resume_spends_nothing_and_skips_the_concurrency_an_unknown_one_is_invalidated() -> (
    None
):
    emulator = DiscordEmulator()
    async with serving(emulator) as http:
        ready, _ = await (await Gateway.identify(http, emulator)).login()
        resumed = await resume(http, emulator, ready["session_id"])
        assert await answer(resumed) == (0, {})  # RESUMED, within the identify window
        assert (await limit(http, emulator))["remaining"] == 999
        assert len(emulator.identifies) == 1
        unknown = await resume(http, emulator, "no-such-session")
        assert await answer(unknown) == (9, False)


# --------------------------------------------------------------------------- the bot


def last_run(bot: BotProcess) -> str:
    """What the bot's latest run printed."""
    return bot.log_paths[-1].read_text(errors="replace")


async def wait_exit(bot: BotProcess, timeout: float = 30.0) -> int | None:
    for _ in range(int(timeout / 0.1)):
        if not bot.alive:
            break
        await asyncio.sleep(0.1)
    return bot.returncode


@pytest.mark.backends("sqlite")
async def test_the_bot_refuses_to_start_when_the_day_s_identifies_are_nearly_spent(
    emulator: DiscordEmulator, tmp_path: Path, database_url: str
) -> None:
    emulator.session_start.remaining = RESERVE  # one short of its shard plus the reserve
    bot = BotProcess(emulator, tmp_path, database_url=database_url)
    try:
        bot.launch()
        assert await wait_exit(bot) == 5, bot.log()[-3000:]
        log = bot.log()
        assert f"Discord allows {RESERVE} more gateway identifies today" in log
        assert "Refusing to start" in log and "Traceback" not in log
        assert emulator.identifies == []  # it spent none of them
    finally:
        await bot.stop()


@pytest.mark.backends("sqlite")
async def test_a_token_reset_before_the_identify_stops_the_bot_saying_so(
    emulator: DiscordEmulator, tmp_path: Path, database_url: str
) -> None:
    bot = BotProcess(emulator, tmp_path, database_url=database_url)
    synced = emulator.hold("PUT", "/commands", processed=True)
    try:
        bot.launch()
        await emulator.wait_for(lambda: synced.path, timeout=30, what="the command sync")
        emulator.reset_token()  # another process spent the day's last identify
        synced.release()
        assert await wait_exit(bot) == 2, bot.log()[-3000:]
        log = bot.log()
        assert "rejected DISCORD_TOKEN (close 4004)" in log and "Traceback" not in log
        assert [i.outcome for i in emulator.identifies] == [EXHAUSTED]
    finally:
        await bot.stop()


@pytest.fixture
def world() -> World:
    return World.default(shards=2)  # bar on shard 0 of 2, pub on shard 1


@pytest.mark.backends("postgres")
async def test_two_processes_restarted_together_never_identify_past_max_concurrency(
    emulator: DiscordEmulator, tmp_path: Path, database_url: str
) -> None:
    processes = [
        BotProcess(
            emulator,
            tmp_path / name,
            env={"GOBELET_SHARD_COUNT": "2", "GOBELET_SHARD_IDS": str(shard)},
            database_url=database_url,
        )
        for shard, name in enumerate(["zero", "one"])
    ]
    for process in processes:
        process.workdir.mkdir()
    try:
        for round in range(6):  # the first start, then five restarts
            before = [emulator.session_on(shard) for shard in (0, 1)]
            for process in processes:
                process.launch()
            for shard in (0, 1):
                await emulator.wait_shard(shard, newer_than=before[shard], timeout=40)
                await emulator.ping(shard=shard)
            if round == 5:
                break
            # A crash (no clean stop: the next start is a quick restart), then an
            # orchestrator's restart (SIGTERM), in turn.
            for process in processes:
                if round % 2:
                    assert await process.terminate() == 0
                else:
                    await process.kill()
        accepted = [i for i in emulator.identifies if i.accepted]
        assert len(accepted) == len(emulator.identifies) == 12  # no op 9, no close
        assert busiest_window(emulator.identifies) <= emulator.session_start.max_concurrency
        assert emulator.session_start.remaining == 1000 - 12
        assert all("Traceback" not in process.log() for process in processes)
    finally:
        for process in processes:
            await process.stop()


@pytest.mark.backends("sqlite")
async def test_a_process_restarting_in_a_loop_waits_longer_each_time(
    emulator: DiscordEmulator, tmp_path: Path, database_url: str
) -> None:
    bot = BotProcess(
        emulator, tmp_path, env={"GOBELET_SHARD_COUNT": "1"}, database_url=database_url
    )
    try:
        await bot.start(timeout=40)
        await bot.restart(timeout=40)  # a crash: one quick restart in a row waits nothing
        assert "restarted" not in last_run(bot)
        await bot.restart(timeout=40)  # the second in a row waits
        said = "restarted 2 times in a row within 120 s of each other: waiting 5 s"
        assert said in last_run(bot)
        await bot.stop()  # a clean stop: the next start begins no streak
        await bot.start(timeout=40)
        assert "restarted" not in last_run(bot)
        assert all(i.accepted for i in emulator.identifies) and len(emulator.identifies) == 4
    finally:
        await bot.stop()
