"""The real bot against the emulator: login, command sync, Discord's response rules, restarts;
and the emulator's shards and rate limits against bare clients.

The bot's tests hold whatever the cogs do: they need no particular command, and prove the bot
is alive with a gateway heartbeat (``emulator.ping``), which discord.py answers by itself. The
others speak HTTP and the gateway by hand, as a second process of the bot would.
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import aiohttp
import pytest

from tests.e2e.botprocess import BotProcess
from tests.e2e.emulator import DEFAULT_WAIT, DiscordEmulator, InjectedInteraction
from tests.e2e.identifies import IDENTIFY_WINDOW
from tests.e2e.ratelimits import Limit, RateLimits
from tests.e2e.world import ANNOUNCEMENT_CHANNEL, SEND_MESSAGES_IN_THREADS, World, shard_of


async def _post_callback(
    emulator: DiscordEmulator, interaction: InjectedInteraction, body: dict[str, Any]
) -> tuple[int, dict[str, Any] | None]:
    """Answer an interaction by hand, as a second client holding its token would."""
    url = f"{emulator.api_url}/interactions/{interaction.id}/{interaction.token}/callback"
    async with (
        aiohttp.ClientSession() as session,
        session.post(url, json=body, params={"with_response": "1"}) as response,
    ):
        data = await response.json() if response.content_length else None
        return response.status, data


async def _unknown_command(emulator: DiscordEmulator, name: str) -> InjectedInteraction:
    """A slash command Discord never registered for the bot (a stale client could send it)."""
    return await emulator.slash(
        "alice", emulator.channel("bar", "comptoir"), name, {"x": 1}, allow_unknown=True
    )


@pytest.mark.rate_limits
async def test_the_bot_logs_in_and_syncs_its_commands(
    emulator: DiscordEmulator, bot: BotProcess
) -> None:
    assert bot.alive
    session = emulator.session
    assert session is not None and session.identify is not None
    assert session.identify["token"] == emulator.token
    assert [call.path for call in emulator.calls[:2]] == [
        "/api/v10/users/@me",
        "/api/v10/oauth2/applications/@me",
    ]
    # One global bulk overwrite, which passed Discord's checks on names, descriptions,
    # options and localizations (the emulator refuses what Discord refuses).
    [sync] = emulator.syncs
    assert sync.guild_id is None
    app_id = str(emulator.world.application_id)
    assert all(command["id"] and command["application_id"] == app_id for command in sync.commands)
    assert await emulator.ping() < 1
    # Under Discord's rate limits (on for this test), as discord.py reads their headers.
    assert emulator.rate_limits is not None and emulator.rate_limited == []


async def test_an_unknown_command_does_not_crash_the_bot(
    emulator: DiscordEmulator, bot: BotProcess
) -> None:
    emulator.response_deadline = 1.0
    alice = emulator.user("alice")
    session = emulator.session
    for name in ("nope", "nope-again"):
        interaction = await _unknown_command(emulator, name)

        def settled(interaction: InjectedInteraction = interaction) -> bool:
            return interaction.callback is not None or interaction.expired

        await emulator.wait_for(settled, what=f"/{name} to be answered or to expire")
    assert bot.alive and emulator.session is session  # no crash, no reconnection
    await emulator.ping()
    # Whatever the bot says about it, it says it to alice alone.
    assert emulator.transcript.public() == []
    assert all(m.audience == alice.id for m in emulator.transcript.messages)


async def test_an_unanswered_interaction_expires_after_the_deadline(
    emulator: DiscordEmulator, bot: BotProcess
) -> None:
    emulator.response_deadline = 0.2
    async with bot.frozen():
        interaction = await _unknown_command(emulator, "nope")
        await interaction.expiry()
        assert emulator.expired == [interaction]
        assert interaction.callback is None and interaction.latency is None
        # An answer after the window is refused as Discord refuses it.
        status, body = await _post_callback(emulator, interaction, {"type": 4, "data": {}})
        assert (status, body and body["code"]) == (404, 10062)
        assert interaction.latency is not None and interaction.latency > 0.2
    # Thawed, the bot meets the same refusal with its own late answer, and survives it.
    await emulator.ping()
    assert bot.alive


async def test_an_interaction_takes_one_initial_answer(
    emulator: DiscordEmulator, bot: BotProcess
) -> None:
    async with bot.frozen():  # so that the bot's own answer cannot come first
        interaction = await _unknown_command(emulator, "nope")
        answer = {"type": 4, "data": {"content": "hi"}}
        first = await _post_callback(emulator, interaction, answer)
        second = await _post_callback(emulator, interaction, answer)
    assert first[0] == 200 and first[1] is not None
    assert first[1]["resource"]["message"]["content"] == "hi"
    assert (second[0], second[1] and second[1]["code"]) == (400, 40060)
    assert interaction.callback is not None and not interaction.expired
    assert [m.content for m in emulator.transcript.public()] == ["hi"]


async def test_the_bot_logs_in_again_after_being_killed(
    emulator: DiscordEmulator, bot: BotProcess
) -> None:
    first_session = emulator.session
    first_pid = bot.pid
    assert first_session is not None
    await bot.kill()
    assert not bot.alive
    await emulator.wait_for(lambda: first_session.closed, what="the gateway to see the kill")
    await bot.start()
    assert bot.pid != first_pid
    assert emulator.session is not None and emulator.session is not first_session
    assert len(emulator.syncs) == 2
    # Discord keeps a command's id when the same name is synced again.
    assert [c["id"] for c in emulator.syncs[1].commands] == [
        c["id"] for c in emulator.syncs[0].commands
    ]
    await emulator.ping()


# --------------------------------------------------------------------------- bare clients


@asynccontextmanager
async def serving(emulator: DiscordEmulator) -> AsyncIterator[aiohttp.ClientSession]:
    """The emulator started, and an HTTP session holding the bot's token."""
    await emulator.start()
    try:
        headers = {"Authorization": f"Bot {emulator.token}"}
        async with aiohttp.ClientSession(headers=headers) as http:
            yield http
    finally:
        await emulator.stop()
    assert not emulator.internal_errors and not emulator.unhandled


class Gateway:
    """One gateway connection opened by hand: HELLO, IDENTIFY, then the events it is sent."""

    def __init__(self, ws: aiohttp.ClientWebSocketResponse) -> None:
        self.ws = ws

    @classmethod
    async def identify(
        cls, http: aiohttp.ClientSession, emulator: DiscordEmulator, shard: Any = None
    ) -> Gateway:
        ws = await http.ws_connect(emulator.gateway_url)
        assert (await ws.receive_json(timeout=DEFAULT_WAIT))["op"] == 10
        data: dict[str, Any] = {"token": emulator.token, "intents": 1, "properties": {}}
        if shard is not None:
            data["shard"] = shard
        await ws.send_json({"op": 2, "d": data})
        return cls(ws)

    async def event(self) -> tuple[str, dict[str, Any]]:
        """The next dispatched event (its name and data)."""
        while True:
            frame = await self.ws.receive(timeout=DEFAULT_WAIT)
            assert frame.type == aiohttp.WSMsgType.TEXT, f"the gateway closed: {frame}"
            message = json.loads(frame.data)
            if message["op"] == 0:
                return message["t"], message["d"]

    async def login(self) -> tuple[dict[str, Any], list[int]]:
        """READY, and the ids of the servers the GUILD_CREATEs after it bring."""
        name, ready = await self.event()
        assert name == "READY"
        guilds = []
        for _ in ready["guilds"]:
            name, guild = await self.event()
            assert name == "GUILD_CREATE"
            guilds.append(int(guild["id"]))
        return ready, guilds

    async def interactions(self, count: int) -> list[int]:
        """The ids of the next ``count`` interactions sent to this connection."""
        found = []
        while len(found) < count:
            name, data = await self.event()
            if name == "INTERACTION_CREATE":
                found.append(int(data["id"]))
        return found

    async def close_code(self) -> int | None:
        frame = await self.ws.receive(timeout=DEFAULT_WAIT)
        assert frame.type == aiohttp.WSMsgType.CLOSE, frame
        return self.ws.close_code


async def _command(emulator: DiscordEmulator, user: str, where: Any) -> InjectedInteraction:
    return await emulator.slash(user, where, "x", allow_unknown=True)


# --------------------------------------------------------------------------- holds


async def test_a_hold_keeps_a_call_from_discord_and_a_processed_one_only_its_answer() -> None:
    emulator = DiscordEmulator(rate_limits=None)
    async with serving(emulator) as http:
        comptoir = emulator.channel("bar", "comptoir")
        url = f"{emulator.api_url}/channels/{comptoir.id}/messages"

        async def post(content: str) -> int:
            async with http.post(url, json={"content": content}) as answer:
                assert answer.status == 200
                return int((await answer.json())["id"])

        held = emulator.hold("POST", f"/channels/{comptoir.id}/messages")
        posting = asyncio.create_task(post("held"))
        await emulator.wait_for(lambda: held.path, what="the call held")
        assert emulator.transcript.public(comptoir.id) == [] and not posting.done()
        held.release()
        made_id = await posting
        assert [m.id for m in emulator.transcript.public(comptoir.id)] == [made_id]

        done = emulator.hold("POST", f"/channels/{comptoir.id}/messages", processed=True)
        posting = asyncio.create_task(post("done"))
        await emulator.wait_for(lambda: done.path, what="the call done")
        # The message is in the channel, but whoever posted it does not know its id yet.
        made = emulator.transcript.public(comptoir.id)[-1]
        assert made.content == "done" and not posting.done()
        await asyncio.sleep(0.1)
        assert not posting.done()
        done.release()
        assert await posting == made.id


# --------------------------------------------------------------------------- shards


async def test_each_server_s_events_go_to_every_session_of_its_shard_only() -> None:
    world = World.default(shards=2)
    bar, pub = world.guild("bar"), world.guild("pub")
    assert (shard_of(bar.id, 2), shard_of(pub.id, 2)) == (0, 1)
    emulator = DiscordEmulator(world, shards=2)
    async with serving(emulator) as http:
        async with http.get(f"{emulator.api_url}/gateway/bot") as answer:
            assert (await answer.json())["shards"] == 2
        zero = await Gateway.identify(http, emulator, [0, 2])
        ready, guilds = await zero.login()
        assert ready["shard"] == [0, 2] and guilds == [bar.id]
        sessions = []
        for _ in range(2):  # the bot run twice
            # Discord takes one identify per 5 s (max_concurrency 1): the clock moves past.
            emulator.travel(IDENTIFY_WINDOW)
            sessions.append(await Gateway.identify(http, emulator, [1, 2]))
            ready, guilds = await sessions[-1].login()
            assert ready["shard"] == [1, 2] and guilds == [pub.id]
        one, twin = sessions
        assert (await emulator.wait_shard(1)).shard == (1, 2)
        assert [s.shard for s in emulator.open_sessions()] == [(0, 2), (1, 2), (1, 2)]
        comptoir, general = bar.channel("comptoir"), pub.channel("general")
        sent = [
            await _command(emulator, "carol", general),
            await _command(emulator, "alice", comptoir),
            await _command(emulator, "alice", emulator.dm("alice")),
            await _command(emulator, "dave", general),
            await _command(emulator, "bob", comptoir),
        ]
        ids = [interaction.id for interaction in sent]
        # Each connection receives in order: what it got shows what it was not sent.
        assert await zero.interactions(3) == [ids[1], ids[2], ids[4]]
        assert await one.interactions(2) == [ids[0], ids[3]]
        assert await twin.interactions(2) == [ids[0], ids[3]]
        assert all(interaction.delivered for interaction in sent)


async def test_an_interaction_for_a_shard_nobody_serves_is_dropped_and_expires() -> None:
    emulator = DiscordEmulator(World.default(shards=2), response_deadline=0.2)
    async with serving(emulator) as http:
        zero = await Gateway.identify(http, emulator, [0, 2])
        await zero.login()
        lost = await _command(emulator, "carol", emulator.channel("pub", "general"))
        served = await _command(emulator, "alice", emulator.channel("bar", "comptoir"))
        await lost.expiry()
        assert not lost.delivered and lost.expired and served.delivered
        assert await zero.interactions(1) == [served.id]


@pytest.mark.parametrize("shard", [[2, 2], [-1, 2], [0, 0], [0], "0/2", [0, 3]], ids=str)
async def test_an_invalid_shard_is_closed_with_4010(shard: Any) -> None:
    emulator = DiscordEmulator(World.default(shards=2))
    async with serving(emulator) as http:
        first = await Gateway.identify(http, emulator, [1, 2])
        await first.login()
        # [0, 3] is a valid pair, but another count than the open session's: with both,
        # some servers would have two shards, or none.
        emulator.travel(IDENTIFY_WINDOW)  # past the first one's identify window
        refused = await Gateway.identify(http, emulator, shard)
        assert await refused.close_code() == 4010
        assert [s.shard for s in emulator.open_sessions()] == [(1, 2)]


async def test_an_identify_without_shard_gets_every_server() -> None:
    emulator = DiscordEmulator(World.default(shards=2))
    async with serving(emulator) as http:
        ready, guilds = await (await Gateway.identify(http, emulator)).login()
        assert ready["shard"] == [0, 1]
        assert sorted(guilds) == sorted(g.id for g in emulator.world.guilds.values())


# --------------------------------------------------------------------------- rate limits


async def test_message_posts_count_down_their_bucket_and_the_sixth_in_5_s_gets_a_429() -> None:
    emulator = DiscordEmulator()
    async with serving(emulator) as http:
        comptoir, terrasse = (
            emulator.channel("bar", "comptoir"),
            emulator.channel("bar", "terrasse"),
        )
        url = f"{emulator.api_url}/channels/{comptoir.id}/messages"
        remaining, buckets = [], set()
        for number in range(5):
            async with http.post(url, json={"content": f"m{number}"}) as posted:
                assert posted.status == 200 and posted.headers["X-RateLimit-Limit"] == "5"
                remaining.append(posted.headers["X-RateLimit-Remaining"])
                buckets.add(posted.headers["X-RateLimit-Bucket"])
                reset_after = float(posted.headers["X-RateLimit-Reset-After"])
                assert 0 < reset_after <= 5
                assert float(posted.headers["X-RateLimit-Reset"]) > time.time()
        assert remaining == ["4", "3", "2", "1", "0"] and len(buckets) == 1
        async with http.post(url, json={"content": "m5"}) as refused:
            assert refused.status == 429
            body = await refused.json()
            assert body["message"] == "You are being rate limited." and body["global"] is False
            assert 0 < body["retry_after"] <= 5
            assert int(refused.headers["Retry-After"]) >= body["retry_after"]
            assert refused.headers["X-RateLimit-Scope"] == "user" and refused.headers["Via"]
        assert [m.content for m in emulator.transcript.public(comptoir.id)] == [
            f"m{number}" for number in range(5)
        ]
        [hit] = emulator.rate_limited
        assert (hit.method, hit.bucket, hit.channel_id, hit.scope) == (
            "POST",
            "message_create",
            comptoir.id,
            "user",
        )
        # Another channel has a bucket of its own, and so has an edit.
        other = f"{emulator.api_url}/channels/{terrasse.id}/messages"
        async with http.post(other, json={"content": "t"}) as posted:
            assert (posted.status, posted.headers["X-RateLimit-Remaining"]) == (200, "4")
        first = emulator.transcript.public(comptoir.id)[0]
        async with http.patch(f"{url}/{first.id}", json={"content": "m0!"}) as edited:
            assert (edited.status, edited.headers["X-RateLimit-Remaining"]) == (200, "4")
            assert edited.headers["X-RateLimit-Bucket"] not in buckets
        # The window runs on the emulator's clock.
        emulator.travel(5)
        async with http.post(url, json={"content": "m6"}) as posted:
            assert (posted.status, posted.headers["X-RateLimit-Remaining"]) == (200, "4")
        assert len(emulator.rate_limited) == 1


async def test_thread_creation_has_a_per_server_bucket_of_minutes() -> None:
    emulator = DiscordEmulator()
    async with serving(emulator) as http:
        comptoir, terrasse = (
            emulator.channel("bar", "comptoir"),
            emulator.channel("bar", "terrasse"),
        )
        general = emulator.channel("pub", "general")

        def start(channel: Any, name: str) -> Any:
            url = f"{emulator.api_url}/channels/{channel.id}/threads"
            return http.post(url, json={"name": name, "type": 11})

        remaining, buckets = [], set()
        for number in range(10):  # the server's channels share one bucket
            async with start(comptoir if number % 2 else terrasse, f"t{number}") as started:
                assert started.status == 201 and started.headers["X-RateLimit-Limit"] == "10"
                remaining.append(started.headers["X-RateLimit-Remaining"])
                buckets.add(started.headers["X-RateLimit-Bucket"])
                assert 299 < float(started.headers["X-RateLimit-Reset-After"]) <= 300
        assert remaining == [str(n) for n in range(9, -1, -1)] and len(buckets) == 1
        async with start(comptoir, "t10") as refused:
            assert refused.status == 429
            body = await refused.json()
            assert body["global"] is False and 299 < body["retry_after"] <= 300
            assert int(refused.headers["Retry-After"]) >= body["retry_after"]
            assert refused.headers["X-RateLimit-Scope"] == "user" and refused.headers["Via"]
            assert refused.headers["X-RateLimit-Remaining"] == "0"
        assert len(emulator.world.guild("bar").threads) == 10
        [hit] = emulator.rate_limited
        assert (hit.method, hit.bucket, hit.channel_id, hit.scope) == (
            "POST",
            "thread_create",
            comptoir.id,
            "user",
        )
        # Another server has a bucket of its own; the window runs on the emulator's clock.
        async with start(general, "g") as started:
            assert (started.status, started.headers["X-RateLimit-Remaining"]) == (201, "9")
        emulator.travel(300)
        async with start(comptoir, "t11") as started:
            assert (started.status, started.headers["X-RateLimit-Remaining"]) == (201, "9")
        assert len(emulator.rate_limited) == 1


async def test_the_thread_figure_is_a_knob() -> None:
    emulator = DiscordEmulator(rate_limits=RateLimits(thread_create=Limit(1, 600.0)))
    async with serving(emulator) as http:
        url = f"{emulator.api_url}/channels/{emulator.channel('bar', 'comptoir').id}/threads"
        async with http.post(url, json={"name": "a", "type": 11}) as started:
            assert started.status == 201 and started.headers["X-RateLimit-Remaining"] == "0"
        async with http.post(url, json={"name": "b", "type": 11}) as refused:
            assert refused.status == 429 and 599 < (await refused.json())["retry_after"] <= 600


async def test_the_shared_channel_write_limit_refuses_with_20028() -> None:
    emulator = DiscordEmulator(rate_limits=RateLimits(channel_writes=Limit(3, 10.0)))
    async with serving(emulator) as http:
        comptoir, terrasse = (
            emulator.channel("bar", "comptoir"),
            emulator.channel("bar", "terrasse"),
        )
        url = f"{emulator.api_url}/channels/{comptoir.id}/messages"
        for number in range(2):
            async with http.post(url, json={"content": f"m{number}"}) as posted:
                assert posted.status == 200
        first = emulator.transcript.public(comptoir.id)[0]
        async with http.patch(f"{url}/{first.id}", json={"content": "m0!"}) as edited:
            assert edited.status == 200
        # Each route's own bucket has room; the channel's writes do not.
        async with http.delete(f"{url}/{first.id}") as refused:
            assert refused.status == 429 and refused.headers["X-RateLimit-Scope"] == "shared"
            assert refused.headers["X-RateLimit-Remaining"] == "5"
            body = await refused.json()
            assert body["code"] == 20028 and 0 < body["retry_after"] <= 10
        assert not first.deleted
        other = f"{emulator.api_url}/channels/{terrasse.id}/messages"
        async with http.post(other, json={"content": "t"}) as posted:
            assert posted.status == 200
        [hit] = emulator.rate_limited
        assert (hit.method, hit.bucket, hit.channel_id, hit.scope) == (
            "DELETE",
            "channel_writes",
            comptoir.id,
            "shared",
        )


async def test_the_global_limit_refuses_the_51st_request_in_a_second_whatever_its_route() -> None:
    emulator = DiscordEmulator()
    async with serving(emulator) as http:
        headers = {"Authorization": f"Bot {emulator.token}"}
        # Two processes of the bot share one token, so one global limit.
        async with aiohttp.ClientSession(headers=headers) as other_process:
            channels = [emulator.channel("bar", "comptoir"), emulator.channel("bar", "terrasse")]
            for number in range(50):
                channel = channels[number % len(channels)]
                client = http if number % 2 else other_process
                if number % 5:
                    request = client.get(f"{emulator.api_url}/channels/{channel.id}")
                else:
                    url = f"{emulator.api_url}/channels/{channel.id}/messages"
                    request = client.post(url, json={"content": f"m{number}"})
                async with request as answered:
                    assert answered.status == 200, await answered.text()
            comptoir = emulator.channel("bar", "comptoir")
            async with other_process.get(f"{emulator.api_url}/channels/{comptoir.id}") as refused:
                assert refused.status == 429
                assert refused.headers["X-RateLimit-Global"] == "true"
                assert refused.headers["X-RateLimit-Scope"] == "global"
                assert refused.headers["Via"]
                body = await refused.json()
                assert body["global"] is True and 0 < body["retry_after"] <= 1
        [hit] = emulator.rate_limited
        assert (hit.method, hit.bucket, hit.channel_id, hit.scope) == (
            "GET",
            "global",
            comptoir.id,
            "global",
        )
        # The window is one second on the emulator's clock.
        emulator.travel(1)
        async with http.get(f"{emulator.api_url}/channels/{comptoir.id}") as answered:
            assert answered.status == 200


async def test_the_interaction_endpoints_are_outside_the_global_limit() -> None:
    # Their own limits (5 calls per 2 s a token, 30 followups a minute a channel) are off
    # here, to show that the bot token's limit does not count them at all
    # (test_emulator_limits.py proves those).
    emulator = DiscordEmulator(rate_limits=RateLimits(interaction_token=None, webhook_channel=None))
    async with serving(emulator) as http:
        await (await Gateway.identify(http, emulator)).login()
        comptoir = emulator.channel("bar", "comptoir")
        command = await _command(emulator, "alice", comptoir)
        for _ in range(60):  # the bot token's second is used up
            await (await http.get(f"{emulator.api_url}/channels/{comptoir.id}")).release()
        assert [hit.scope for hit in emulator.rate_limited] == ["global"] * 10
        base = f"{emulator.api_url}/interactions/{command.id}/{command.token}"
        async with http.post(f"{base}/callback", json={"type": 4, "data": {"content": "a"}}) as ok:
            assert ok.status == 204
        webhook = f"{emulator.api_url}/webhooks/{emulator.world.application_id}/{command.token}"
        followups = []
        for number in range(55):
            async with http.post(
                webhook, params={"wait": "true"}, json={"content": f"f{number}"}
            ) as followed:
                assert followed.status == 200 and "X-RateLimit-Global" not in followed.headers
                followups.append((await followed.json())["id"])
        async with http.patch(f"{webhook}/messages/@original", json={"content": "a!"}) as edited:
            assert edited.status == 200
        async with http.patch(f"{webhook}/messages/{followups[0]}", json={"content": "0"}) as e:
            assert e.status == 200
        async with http.get(f"{webhook}/messages/{followups[1]}") as read:
            assert read.status == 200
        async with http.delete(f"{webhook}/messages/{followups[2]}") as deleted:
            assert deleted.status == 204
        assert len(emulator.rate_limited) == 10  # the refused GETs, and nothing since
        assert command.original is not None and command.original.content == "a!"
        assert emulator.transcript.get(int(followups[2])).deleted


# --------------------------------------------------------------------------- places gone


async def test_a_bot_removed_from_a_server_gets_guild_delete_then_403s_there() -> None:
    emulator = DiscordEmulator(rate_limits=None)
    async with serving(emulator) as http:
        gateway = await Gateway.identify(http, emulator)
        await gateway.login()
        bar, pub = emulator.guild("bar"), emulator.guild("pub")
        comptoir, general = emulator.channel("bar", "comptoir"), emulator.channel("pub", "general")
        await emulator.remove_bot("bar")
        name, data = await gateway.event()
        assert (name, data) == ("GUILD_DELETE", {"id": str(bar.id)})  # no "unavailable"
        api = emulator.api_url
        for method, path in [
            ("GET", f"/guilds/{bar.id}"),
            ("GET", f"/guilds/{bar.id}/channels"),
            ("GET", f"/channels/{comptoir.id}"),
            ("GET", f"/channels/{comptoir.id}/messages"),
            ("POST", f"/channels/{comptoir.id}/messages"),
        ]:
            async with http.request(method, f"{api}{path}", json={"content": "?"}) as refused:
                assert refused.status == 403, path
                assert (await refused.json())["code"] == 50001
        # The other server is as it was; the next identify does not bring the one left.
        async with http.post(f"{api}/channels/{general.id}/messages", json={"content": "!"}) as ok:
            assert ok.status == 200
        async with http.get(f"{api}/guilds/{pub.id}") as ok:
            assert ok.status == 200
        emulator.travel(5)  # one identify per 5 s: the next one is Discord's to take
        _, guilds = await (await Gateway.identify(http, emulator)).login()
        assert guilds == [pub.id]


async def test_a_deleted_channel_or_thread_is_told_then_unknown_and_its_threads_go_too() -> None:
    emulator = DiscordEmulator(rate_limits=None)
    async with serving(emulator) as http:
        gateway = await Gateway.identify(http, emulator)
        await gateway.login()
        api, bar = emulator.api_url, emulator.guild("bar")
        comptoir, terrasse = (
            emulator.channel("bar", "comptoir"),
            emulator.channel("bar", "terrasse"),
        )
        threads = []
        for parent in (comptoir, terrasse):
            body = {"name": "fil", "type": 11, "auto_archive_duration": 1440}
            async with http.post(f"{api}/channels/{parent.id}/threads", json=body) as made:
                assert made.status == 201
                threads.append(emulator.world.channel(int((await made.json())["id"])))
            assert (await gateway.event())[0] == "THREAD_CREATE"
        in_comptoir, in_terrasse = threads

        await emulator.delete_channel(in_terrasse)
        assert await gateway.event() == (
            "THREAD_DELETE",
            {
                "id": str(in_terrasse.id),
                "guild_id": str(bar.id),
                "parent_id": str(terrasse.id),
                "type": 11,
            },
        )
        await emulator.delete_channel(comptoir)
        name, data = await gateway.event()
        assert (name, data["id"], data["type"]) == ("CHANNEL_DELETE", str(comptoir.id), 0)
        # The thread of a deleted channel goes with it (Discord tells only of the channel).
        for gone in (in_terrasse, comptoir, in_comptoir):
            for method, path in [
                ("GET", f"/channels/{gone.id}"),
                ("POST", f"/channels/{gone.id}/messages"),
                ("GET", f"/channels/{gone.id}/messages"),
                ("PATCH", f"/channels/{gone.id}"),
            ]:
                async with http.request(method, f"{api}{path}", json={"content": "?"}) as answer:
                    assert answer.status == 404, (gone.name, path)
                    assert (await answer.json())["code"] == 10003
        assert [c.id for c in bar.channels] == [terrasse.id] and bar.threads == []
        # Unannounced (a missed event): nothing is sent, the channel is as unknown.
        await emulator.delete_channel(terrasse, told=False)
        async with http.get(f"{api}/channels/{terrasse.id}") as answer:
            assert answer.status == 404


async def test_an_announcement_channel_starts_announcement_threads_only() -> None:
    world = World.default()
    annonces = world.add_channel("bar", "annonces", type=ANNOUNCEMENT_CHANNEL)
    emulator = DiscordEmulator(world, rate_limits=None)
    async with serving(emulator) as http:
        api, comptoir = emulator.api_url, emulator.channel("bar", "comptoir")
        async with http.get(f"{api}/channels/{annonces.id}") as shown:
            assert (await shown.json())["type"] == 5

        async def start(channel_id: int, **kind: int) -> tuple[int, dict[str, Any]]:
            body = {"name": "fil", "auto_archive_duration": 1440, **kind}
            async with http.post(f"{api}/channels/{channel_id}/threads", json=body) as made:
                return made.status, await made.json()

        for refused in ({"type": 11}, {"type": 12}, {}):  # no type: a private thread
            status, body = await start(annonces.id, **refused)
            assert (status, body["code"]) == (400, 50035), refused
        status, body = await start(annonces.id, type=10)
        assert (status, body["type"], body["parent_id"]) == (201, 10, str(annonces.id))
        thread = emulator.world.channel(int(body["id"]))
        assert thread.is_thread and "thread_metadata" in body
        # Its permissions are its channel's: the bot may post there, in a thread's own right.
        async with http.post(f"{api}/channels/{thread.id}/messages", json={"content": "!"}) as ok:
            assert ok.status == 200
        emulator.world.overwrite(annonces, emulator.world.bot, deny=SEND_MESSAGES_IN_THREADS)
        async with http.post(f"{api}/channels/{thread.id}/messages", json={"content": "!"}) as no:
            assert (no.status, (await no.json())["code"]) == (403, 50013)
        # A text channel starts public (and private) threads, never announcement ones.
        status, body = await start(comptoir.id, type=10)
        assert status == 400
        status, body = await start(comptoir.id, type=11)
        assert (status, body["type"]) == (201, 11)
        status, body = await start(thread.id, type=10)
        assert (status, body["code"]) == (400, 50024)  # no thread of a thread
