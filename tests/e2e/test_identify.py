"""Discord's identify budget and concurrency, as the emulator enforces them (``identifies.py``),
against bare gateway connections."""

from __future__ import annotations

import json
from typing import Any

import aiohttp

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
