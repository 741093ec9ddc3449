"""The emulator's rules for what the interaction endpoints and threads allow, each proved
by hand, without the bot: the interaction webhooks' own rate limits (5 calls per 2 s per
token, 30 followups per minute per channel), 401 50027 for an expired token whatever the
call, the invalid requests Discord counts towards a ban, and archived threads read-only."""

from __future__ import annotations

from typing import Any

import aiohttp
import pytest

from tests.e2e.emulator import DiscordEmulator, EmulatorError, InjectedInteraction
from tests.e2e.ratelimits import INTERACTION_WEBHOOK_LIMITS, Limit, RateLimits
from tests.e2e.test_emulator import Gateway, _command, serving
from tests.e2e.world import Channel

BUTTON_ROW = [
    {"type": 1, "components": [{"type": 2, "style": 1, "label": "Go", "custom_id": "go"}]}
]


def webhook_of(emulator: DiscordEmulator, interaction: InjectedInteraction) -> str:
    return f"{emulator.api_url}/webhooks/{emulator.world.application_id}/{interaction.token}"


def callback_of(emulator: DiscordEmulator, interaction: InjectedInteraction) -> str:
    return f"{emulator.api_url}/interactions/{interaction.id}/{interaction.token}/callback"


async def answered(
    http: aiohttp.ClientSession, emulator: DiscordEmulator, interaction: InjectedInteraction
) -> None:
    body = {"type": 4, "data": {"content": "ok", "flags": 64}}
    async with http.post(callback_of(emulator, interaction), json=body) as done:
        assert done.status == 204


# ------------------------------------------------------------- interaction webhooks


async def test_an_interaction_token_makes_5_calls_in_2_s_then_gets_a_429() -> None:
    emulator = DiscordEmulator(rate_limits=INTERACTION_WEBHOOK_LIMITS)
    async with serving(emulator) as http:
        gateway = await Gateway.identify(http, emulator)
        await gateway.login()
        comptoir = emulator.channel("bar", "comptoir")
        command = await _command(emulator, "alice", comptoir)
        remaining = []
        async with http.post(callback_of(emulator, command), json={"type": 5}) as deferred:
            assert deferred.status == 204
            assert deferred.headers["X-RateLimit-Limit"] == "5"
            remaining.append(deferred.headers["X-RateLimit-Remaining"])
        webhook = webhook_of(emulator, command)
        for number in range(4):
            async with http.post(webhook, json={"content": f"f{number}"}) as followed:
                assert followed.status == 204
                remaining.append(followed.headers["X-RateLimit-Remaining"])
                assert 0 < float(followed.headers["X-RateLimit-Reset-After"]) <= 2
        assert remaining == ["4", "3", "2", "1", "0"]
        # The sixth call of the token in 2 s, an edit as well as a followup, is refused.
        async with http.patch(f"{webhook}/messages/@original", json={"content": "!"}) as refused:
            assert refused.status == 429
            body = await refused.json()
            assert body["global"] is False and 0 < body["retry_after"] <= 2
            assert refused.headers["X-RateLimit-Scope"] == "user" and refused.headers["Via"]
            assert int(refused.headers["Retry-After"]) >= body["retry_after"]
        [hit] = emulator.rate_limited
        assert (hit.method, hit.bucket, hit.channel_id) == (
            "PATCH",
            "interaction_token",
            comptoir.id,
        )
        # Another interaction's token has a bucket of its own; the window runs on the
        # emulator's clock.
        other = await _command(emulator, "bob", comptoir)
        await answered(http, emulator, other)
        emulator.travel(2)
        async with http.patch(f"{webhook}/messages/@original", json={"content": "!"}) as edited:
            assert edited.status == 200
        assert len(emulator.rate_limited) == 1


async def test_a_channel_takes_30_followups_a_minute_whatever_their_tokens() -> None:
    emulator = DiscordEmulator(rate_limits=INTERACTION_WEBHOOK_LIMITS)
    async with serving(emulator) as http:
        gateway = await Gateway.identify(http, emulator)
        await gateway.login()
        comptoir = emulator.channel("bar", "comptoir")
        terrasse = emulator.channel("bar", "terrasse")
        ids: list[str] = []
        for number in range(10):  # ten interactions, three followups each (some private)
            command = await _command(emulator, "alice", comptoir)
            await answered(http, emulator, command)
            for second in range(3):
                flags = 64 if second == 0 else 0
                async with http.post(
                    webhook_of(emulator, command),
                    params={"wait": "true"},
                    json={"content": f"{number}.{second}", "flags": flags},
                ) as followed:
                    assert followed.status == 200
                    ids.append((await followed.json())["id"])
            emulator.travel(2.0)  # each token stays inside its own 5 per 2 s
        last = await _command(emulator, "bob", comptoir)
        await answered(http, emulator, last)  # an answer is no followup
        async with http.post(webhook_of(emulator, last), json={"content": "31"}) as refused:
            assert refused.status == 429 and refused.headers["X-RateLimit-Scope"] == "user"
            assert refused.headers["X-RateLimit-Limit"] == "30"
            retry = (await refused.json())["retry_after"]
            assert 30 < retry <= 60  # the minute opened with the first followup, 20 s ago
        [hit] = emulator.rate_limited
        assert (hit.bucket, hit.channel_id) == ("webhook_channel", comptoir.id)
        # Editing a followup creates no message; another channel has its own count.
        async with http.patch(
            f"{webhook_of(emulator, command)}/messages/{ids[-1]}", json={"content": "e"}
        ) as edited:
            assert edited.status == 200
        there = await _command(emulator, "bob", terrasse)
        await answered(http, emulator, there)
        async with http.post(webhook_of(emulator, there), json={"content": "t"}) as followed:
            assert followed.status == 204
        emulator.travel(retry)
        async with http.post(webhook_of(emulator, last), json={"content": "31"}) as followed:
            assert followed.status == 204


async def test_other_figures_for_the_interaction_limits_can_be_set() -> None:
    limits = RateLimits(interaction_token=Limit(2, 1.0), webhook_channel=None)
    emulator = DiscordEmulator(rate_limits=limits)
    async with serving(emulator) as http:
        gateway = await Gateway.identify(http, emulator)
        await gateway.login()
        command = await _command(emulator, "alice", emulator.channel("bar", "comptoir"))
        await answered(http, emulator, command)
        webhook = webhook_of(emulator, command)
        async with http.post(webhook, json={"content": "1"}) as followed:
            assert followed.status == 204
        async with http.post(webhook, json={"content": "2"}) as refused:
            assert refused.status == 429


async def test_an_expired_token_answers_401_50027_whatever_the_call() -> None:
    emulator = DiscordEmulator()
    async with serving(emulator) as http:
        gateway = await Gateway.identify(http, emulator)
        await gateway.login()
        comptoir = emulator.channel("bar", "comptoir")
        answered_one = await _command(emulator, "alice", comptoir)
        await answered(http, emulator, answered_one)
        never = await _command(emulator, "bob", comptoir)  # never answered
        emulator.travel(15 * 60 + 1)
        for interaction in (answered_one, never):
            webhook = webhook_of(emulator, interaction)
            async with http.post(webhook, json={"content": "late"}) as refused:
                assert refused.status == 401
                assert (await refused.json())["code"] == 50027
            async with http.patch(f"{webhook}/messages/@original", json={"content": "!"}) as e:
                assert e.status == 401 and (await e.json())["code"] == 50027
        async with http.post(callback_of(emulator, never), json={"type": 5}) as late:
            assert late.status == 401 and (await late.json())["code"] == 50027
        assert len(emulator.invalid_requests) == 5  # every 401 counts towards a ban


async def test_invalid_requests_count_401_403_and_429s_but_shared_ones() -> None:
    emulator = DiscordEmulator(rate_limits=RateLimits(channel_writes=Limit(1, 10.0)))
    async with serving(emulator) as http:
        comptoir = emulator.channel("bar", "comptoir")
        url = f"{emulator.api_url}/channels/{comptoir.id}/messages"
        async with http.post(url, json={"content": "a"}) as posted:
            assert posted.status == 200
        async with http.post(url, json={"content": "b"}) as shared:
            assert shared.status == 429 and shared.headers["X-RateLimit-Scope"] == "shared"
        assert emulator.invalid_requests == []
        emulator.world.overwrite(comptoir, emulator.world.bot, deny=1 << 11)
        emulator.travel(10)
        async with http.post(url, json={"content": "c"}) as forbidden:
            assert forbidden.status == 403
        async with (
            aiohttp.ClientSession() as anonymous,  # no token: 401
            anonymous.get(f"{emulator.api_url}/users/@me") as unauthorized,
        ):
            assert unauthorized.status == 401
        assert [call.status for call in emulator.invalid_requests] == [403, 401]
        assert emulator.invalid_per_window() == 2
        emulator.travel(600)
        async with http.post(url, json={"content": "d"}) as forbidden:
            assert forbidden.status == 403
        assert emulator.invalid_per_window() == 2  # ten minutes apart: never three at once


# ------------------------------------------------------------------ archived threads


async def thread_of(http: aiohttp.ClientSession, emulator: DiscordEmulator) -> Channel:
    comptoir = emulator.channel("bar", "comptoir")
    body = {"name": "fil", "type": 11, "auto_archive_duration": 60}
    async with http.post(f"{emulator.api_url}/channels/{comptoir.id}/threads", json=body) as made:
        assert made.status == 201
        return emulator.world.channel(int((await made.json())["id"]))


async def archive(http: aiohttp.ClientSession, emulator: DiscordEmulator, thread: Channel) -> None:
    async with http.patch(
        f"{emulator.api_url}/channels/{thread.id}", json={"archived": True}
    ) as done:
        assert done.status == 200 and thread.archived


async def test_an_archived_thread_refuses_edits_deletions_and_reactions_with_50083() -> None:
    emulator = DiscordEmulator()
    async with serving(emulator) as http:
        thread = await thread_of(http, emulator)
        url = f"{emulator.api_url}/channels/{thread.id}/messages"
        async with http.post(url, json={"content": "a", "components": BUTTON_ROW}) as posted:
            message_id = (await posted.json())["id"]
        await archive(http, emulator, thread)
        refused: list[Any] = [
            http.patch(f"{url}/{message_id}", json={"content": "b"}),
            http.delete(f"{url}/{message_id}"),
            http.put(f"{url}/{message_id}/reactions/%E2%9C%85/@me"),
            http.delete(f"{url}/{message_id}/reactions"),
            http.patch(f"{emulator.api_url}/channels/{thread.id}", json={"name": "x"}),
        ]
        for call in refused:
            async with call as answer:
                assert answer.status == 400 and (await answer.json())["code"] == 50083
        message = emulator.transcript.get(int(message_id))
        assert message.content == "a" and not message.deleted
        # People cannot use a command or react there either.
        gateway = await Gateway.identify(http, emulator)
        await gateway.login()
        with pytest.raises(EmulatorError, match="archived"):
            await emulator.slash("alice", thread, "x", allow_unknown=True)
        with pytest.raises(EmulatorError, match="archived"):
            await emulator.react("alice", message, "✅")


async def test_a_click_in_an_archived_thread_cannot_update_its_message() -> None:
    emulator = DiscordEmulator()
    async with serving(emulator) as http:
        gateway = await Gateway.identify(http, emulator)
        await gateway.login()
        thread = await thread_of(http, emulator)
        url = f"{emulator.api_url}/channels/{thread.id}/messages"
        async with http.post(url, json={"content": "a", "components": BUTTON_ROW}) as posted:
            message = emulator.transcript.get(int((await posted.json())["id"]))
        command = await _command(emulator, "alice", thread)
        public = {"type": 4, "data": {"content": "public"}}
        async with http.post(callback_of(emulator, command), json=public) as done:
            assert done.status == 204
        await archive(http, emulator, thread)
        click = await emulator.click("alice", message, "go")
        assert click.payload["channel"]["thread_metadata"]["archived"] is True
        update = {"type": 7, "data": {"content": "b", "components": []}}
        async with http.post(callback_of(emulator, click), json=update) as refused:
            assert refused.status == 400 and (await refused.json())["code"] == 50083
        assert message.content == "a"
        # Nor can a webhook edit or delete what an interaction posted there.
        webhook = webhook_of(emulator, command)
        async with http.patch(f"{webhook}/messages/@original", json={"content": "c"}) as edit:
            assert edit.status == 400 and (await edit.json())["code"] == 50083
        async with http.delete(f"{webhook}/messages/@original") as deleted:
            assert deleted.status == 400 and (await deleted.json())["code"] == 50083
        # An ephemeral answer is possible, and leaves the thread archived.
        await answered(http, emulator, click)
        assert thread.archived


async def test_a_new_message_unarchives_a_thread_and_one_idle_past_its_duration_archives() -> None:
    emulator = DiscordEmulator()
    async with serving(emulator) as http:
        gateway = await Gateway.identify(http, emulator)
        await gateway.login()
        thread = await thread_of(http, emulator)
        url = f"{emulator.api_url}/channels/{thread.id}/messages"
        await archive(http, emulator, thread)
        async with http.post(url, json={"content": "back"}) as posted:
            assert posted.status == 200
            message_id = (await posted.json())["id"]
        assert not thread.archived
        async with http.patch(f"{url}/{message_id}", json={"content": "edited"}) as edited:
            assert edited.status == 200
        # An hour without a message (the thread's auto-archive duration): archived.
        emulator.travel(59 * 60)
        async with http.patch(f"{url}/{message_id}", json={"content": "again"}) as edited:
            assert edited.status == 200
        emulator.travel(61)
        async with http.patch(f"{url}/{message_id}", json={"content": "late"}) as refused:
            assert refused.status == 400 and (await refused.json())["code"] == 50083
        assert thread.archived
        # Someone posting there unarchives it too.
        await emulator.say("alice", thread, "hello")
        assert not thread.archived
        # Discord takes four auto-archive durations only.
        comptoir = emulator.channel("bar", "comptoir")
        body = {"name": "fil", "type": 11, "auto_archive_duration": 120}
        async with http.post(
            f"{emulator.api_url}/channels/{comptoir.id}/threads", json=body
        ) as refused:
            assert refused.status == 400
