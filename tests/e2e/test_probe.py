"""The emulator against the real discord.py client, through the probe bot (probe_bot.py).

One probe process serves the whole module (its state does not matter between tests), so these
tests share a module-scoped event loop; the restart test runs last. The shard test runs two
probes of its own, one per shard.
"""

from __future__ import annotations

import sys
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import aiohttp
import pytest
import pytest_asyncio

from tests.e2e.botprocess import BotProcess
from tests.e2e.conftest import BOT_KEY, EMULATOR_KEY
from tests.e2e.emulator import DiscordEmulator, EmulatorError
from tests.e2e.ratelimits import DISCORD_LIMITS
from tests.e2e.transcript import IS_COMPONENTS_V2
from tests.e2e.world import Channel, World

pytestmark = pytest.mark.asyncio(loop_scope="module")


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def probe_emulator() -> AsyncIterator[DiscordEmulator]:
    emulator = DiscordEmulator(World.default())
    await emulator.start()
    yield emulator
    await emulator.stop()
    assert not emulator.internal_errors and not emulator.unhandled


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def probe(
    probe_emulator: DiscordEmulator, tmp_path_factory: pytest.TempPathFactory
) -> AsyncIterator[BotProcess]:
    workdir: Path = tmp_path_factory.mktemp("probe")
    process = BotProcess(
        probe_emulator, workdir, command=[sys.executable, "-m", "tests.e2e.probe_bot"]
    )
    await process.start()
    yield process
    await process.stop()


@pytest.fixture
def emu(
    probe_emulator: DiscordEmulator, probe: BotProcess, request: pytest.FixtureRequest
) -> Iterator[DiscordEmulator]:
    request.node.stash[BOT_KEY] = probe
    request.node.stash[EMULATOR_KEY] = probe_emulator
    yield probe_emulator
    probe_emulator.response_deadline = 3.0


async def test_a_public_answer_carries_the_user_and_server_locales(emu: DiscordEmulator) -> None:
    bar, pub = emu.channel("bar", "comptoir"), emu.channel("pub", "general")
    french = await (await emu.slash("alice", bar, "echo", {"text": "salut"})).reply()
    english = await (await emu.slash("carol", pub, "echo", {"text": "hi"})).reply()
    forced = await (await emu.slash("bob", bar, "echo", {"text": "x"}, locale="de")).reply()
    assert [french.content, english.content, forced.content] == [
        "salut [fr/fr]",
        "hi [en-US/en-US]",
        "x [de/fr]",
    ]
    assert not french.ephemeral and french in emu.transcript.public(bar.id)
    assert emu.transcript.last(pub.id) is english


async def test_an_ephemeral_answer_is_seen_by_its_user_only(emu: DiscordEmulator) -> None:
    bar = emu.channel("bar", "terrasse")
    alice, bob = emu.user("alice"), emu.user("bob")
    interaction = await emu.slash(alice, bar, "echo", {"text": "secret", "private": True})
    message = await interaction.reply()
    assert message.ephemeral and message.audience == alice.id
    assert emu.transcript.ephemeral_to(alice.id, bar.id) == [message]
    assert message not in emu.transcript.public(bar.id)
    assert message not in emu.transcript.visible_to(bob.id, bar.id)
    assert interaction.latency is not None and 0 < interaction.latency < 3


async def test_a_deferred_answer_is_replaced_by_the_first_followup(emu: DiscordEmulator) -> None:
    bar = emu.channel("bar", "comptoir")
    interaction = await emu.slash("alice", bar, "think", {"private": True})
    callback = await interaction.response()
    assert callback.type == 5 and callback.ephemeral
    message = await interaction.reply()
    assert message.content == "thought" and message.ephemeral and not message.loading
    assert interaction.messages == [message]


async def test_an_answer_can_be_edited_and_followed_up(emu: DiscordEmulator) -> None:
    bar = emu.channel("bar", "comptoir")
    interaction = await emu.slash("bob", bar, "edit")
    original, extra = await interaction.replies(2)
    await emu.wait_for(lambda: original.content == "v2", what="the edit")
    assert [h["content"] for h in original.history] == ["v1"]
    assert original.edited_timestamp is not None
    assert extra.content == "extra" and extra.ephemeral and not original.ephemeral


async def test_buttons_update_their_message_and_selects_answer(emu: DiscordEmulator) -> None:
    bar = emu.channel("bar", "comptoir")
    message = await (await emu.slash("alice", bar, "counter")).reply()
    assert message.custom_ids == ["probe:count:0", "probe:pick"]
    clicked = await emu.click("bob", message, label="+1 (0)")
    assert (await clicked.response()).type == 7
    assert await clicked.reply() is message and message.content == "count 1"
    await (await emu.click("carol", message, "probe:count:")).reply()
    assert message.content == "count 2" and len(message.history) == 2
    picked = await emu.choose("dave", message, ["a", "c"], "probe:pick")
    answer = await picked.reply()
    assert answer.content == "picked a,c" and answer.audience == emu.user("dave").id
    with pytest.raises(EmulatorError):
        await emu.choose("dave", message, ["z"], "probe:pick")


async def test_files_are_recorded_with_their_bytes(emu: DiscordEmulator) -> None:
    message = await (await emu.slash("alice", emu.channel("bar", "comptoir"), "file")).reply()
    [attachment] = message.attachments
    assert (attachment.filename, attachment.data, attachment.description) == (
        "hello.txt",
        b"hello",
        "greeting",
    )


async def test_a_modal_is_shown_and_submitted(emu: DiscordEmulator) -> None:
    shown = await emu.slash("alice", emu.channel("bar", "comptoir"), "form")
    modal = await shown.shown_modal()
    assert modal["title"] == "Form"
    submitted = await emu.submit_modal(shown, {"probe:answer": "bonjour"})
    answer = await submitted.reply()
    assert answer.content == "you said bonjour" and answer.ephemeral


async def test_autocomplete_returns_the_choices(emu: DiscordEmulator) -> None:
    bar = emu.channel("bar", "comptoir")
    typed = await emu.autocomplete("alice", bar, "fruit", {"name": "b"}, focused="name")
    assert [c["value"] for c in await typed.autocomplete_choices()] == ["banana", "blueberry"]
    nothing = await emu.autocomplete("alice", bar, "fruit", {"name": "z"}, focused="name")
    assert await nothing.autocomplete_choices() == []


async def test_commands_for_managers_are_hidden_from_others(emu: DiscordEmulator) -> None:
    bar = emu.channel("bar", "comptoir")
    with pytest.raises(EmulatorError, match="hides /admin"):
        await emu.slash("alice", bar, "admin")
    with pytest.raises(EmulatorError, match="not available in DMs"):
        await emu.slash("carol", emu.dm("carol"), "admin")
    answer = await (await emu.slash("carol", bar, "admin")).reply()
    assert answer.content == "admin True"


async def test_user_options_arrive_resolved(emu: DiscordEmulator) -> None:
    bar = emu.channel("bar", "comptoir")
    answer = await (await emu.slash("alice", bar, "whois", {"who": "bob"})).reply()
    assert answer.content == "bob Member"


async def test_subcommand_groups_and_option_bounds(emu: DiscordEmulator) -> None:
    bar = emu.channel("bar", "comptoir")
    answer = await (await emu.slash("alice", bar, "game table open", {"size": 4})).reply()
    assert answer.content == "open 4"
    with pytest.raises(EmulatorError, match="outside"):
        await emu.slash("alice", bar, "game table open", {"size": 9})
    with pytest.raises(EmulatorError, match="requires"):
        await emu.slash("alice", bar, "game table open")


async def test_reactions_go_both_ways(emu: DiscordEmulator) -> None:
    bar = emu.channel("bar", "terrasse")
    message = await (await emu.slash("alice", bar, "react")).reply()
    bot_id = emu.world.bot.id
    await emu.wait_for(lambda: message.reacted("🎲") == [bot_id], what="the bot's reaction")
    alice = emu.user("alice")
    seen = await (await emu.react(alice, message, "🎲")).reply(bar.id)
    assert seen.content == f"{alice.id} 🎲 normal"
    burst = await (await emu.react("bob", message, "🔥", burst=True)).reply(bar.id)
    assert burst.content == f"{emu.user('bob').id} 🔥 burst"
    assert message.reacted("🎲") == [bot_id, alice.id]


async def test_direct_messages_and_commands_in_dms(emu: DiscordEmulator) -> None:
    alice = emu.user("alice")
    sent = await (await emu.slash(alice, emu.channel("bar", "comptoir"), "dm")).reply()
    assert sent.ephemeral
    await emu.wait_for(lambda: emu.transcript.dms_to(alice.id), what="the DM")
    assert [m.content for m in emu.transcript.dms_to(alice.id)] == ["psst"]
    in_dm = await (await emu.slash(alice, emu.dm(alice), "echo", {"text": "dm"})).reply()
    assert in_dm.content == "dm [fr/dm]" and in_dm.guild_id is None
    assert in_dm not in emu.transcript.visible_to(emu.user("bob").id)


async def test_a_late_answer_is_refused(emu: DiscordEmulator, probe: BotProcess) -> None:
    emu.response_deadline = 0.2
    interaction = await emu.slash("alice", emu.channel("bar", "comptoir"), "slow")
    await interaction.expiry()
    await emu.wait_for(lambda: interaction.errors, what="the late answer")
    assert interaction.errors[0].error == {"message": "Unknown interaction", "code": 10062}
    assert interaction.latency is not None and interaction.latency >= 0.2
    await emu.wait_for(lambda: "10062" in probe.log(), what="the bot to log the refusal")


async def test_channel_messages_are_posted_edited_and_deleted(emu: DiscordEmulator) -> None:
    channel = emu.channel("pub", "games")
    await (await emu.slash("carol", channel, "post")).reply()
    assert [m.content for m in emu.transcript.public(channel.id)] == ["posted!"]
    assert [m.content for m in emu.transcript.deleted(channel.id)] == ["gone"]


async def test_components_v2_cards(emu: DiscordEmulator) -> None:
    channel = emu.channel("pub", "games")
    card = await (await emu.slash("carol", channel, "card")).reply()
    assert card.flags & IS_COMPONENTS_V2
    assert card.text == "## Table\ntwo players"
    joined = await emu.click("dave", card, label="Join")
    assert (await joined.response()).type == 6
    await emu.wait_for(lambda: card.text == "joined", what="the card to change")


async def test_a_forged_click_is_delivered_as_a_modified_client_sends_it(
    emu: DiscordEmulator,
) -> None:
    channel = emu.channel("pub", "games")
    card = await (await emu.slash("carol", channel, "card")).reply()
    with pytest.raises(LookupError):  # an honest client clicks only what the message shows
        await emu.click("dave", card, "probe:count:7")
    forged = await emu.click("dave", card, "probe:count:7", forged=True)
    assert forged.delivered
    assert forged.payload["data"]["custom_id"] == "probe:count:7"
    assert forged.payload["message"]["id"] == str(card.id)
    picked = await emu.choose("dave", card, ["x"], select="probe:pick", forged=True)
    assert picked.delivered and picked.payload["data"]["values"] == ["x"]


async def test_an_interaction_token_lasts_fifteen_minutes(emu: DiscordEmulator) -> None:
    interaction = await emu.slash("alice", emu.channel("bar", "comptoir"), "echo", {"text": "t"})
    await interaction.reply()
    url = f"{emu.api_url}/webhooks/{emu.world.application_id}/{interaction.token}"
    async with aiohttp.ClientSession() as session:
        async with session.post(url, json={"content": "soon"}, params={"wait": "true"}) as ok:
            assert ok.status == 200
        emu.travel(15 * 60 + 1)
        async with session.post(url, json={"content": "late"}, params={"wait": "true"}) as late:
            assert (late.status, (await late.json())["code"]) == (401, 50027)
        # Editing the answer with the expired token is refused the same way.
        edit = f"{url}/messages/@original"
        async with session.patch(edit, json={"content": "edited late"}) as refused:
            assert (refused.status, (await refused.json())["code"]) == (401, 50027)
    assert [m.content for m in interaction.messages][1:] == ["soon"]


async def test_the_client_waits_out_a_429_and_delivers_every_message(
    emu: DiscordEmulator, probe: BotProcess
) -> None:
    assert emu.rate_limits == DISCORD_LIMITS
    channel = emu.channel("pub", "games")
    before = len(emu.rate_limited)
    # Another process of the same bot has just used up the channel's bucket: the probe's
    # client cannot know it from its own headers, so its first post meets a 429.
    headers = {"Authorization": f"Bot {emu.token}"}
    url = f"{emu.api_url}/channels/{channel.id}/messages"
    async with aiohttp.ClientSession(headers=headers) as session:
        for number in range(5):
            async with session.post(url, json={"content": f"other {number}"}) as posted:
                assert posted.status == 200
    burst = await emu.slash("carol", channel, "burst", {"count": 3})
    answer = await burst.reply(timeout=20)
    assert answer.content == "sent 3" and answer.ephemeral
    assert [m.content for m in emu.transcript.public(channel.id)][-8:] == [
        *(f"other {number}" for number in range(5)),
        *(f"burst {number}" for number in range(3)),
    ]
    met = emu.rate_limited[before:]
    assert met and all(
        (hit.method, hit.bucket, hit.channel_id, hit.scope)
        == ("POST", "message_create", channel.id, "user")
        for hit in met
    )
    assert "We are being rate limited" in probe.log()


async def test_two_processes_serve_one_shard_each_and_a_replacement_takes_over(
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    emulator = DiscordEmulator(World.default(shards=2), shards=2)
    await emulator.start()
    command = [sys.executable, "-m", "tests.e2e.probe_bot"]
    processes = [
        BotProcess(
            emulator,
            tmp_path_factory.mktemp(f"shard{number}"),
            env={"PROBE_SHARD": f"{number}/2"},
            command=command,
        )
        for number in range(2)
    ]
    zero, one = processes
    bar, pub = emulator.channel("bar", "comptoir"), emulator.channel("pub", "general")

    async def answerer(user: str, channel: Channel) -> str:
        return (await (await emulator.slash(user, channel, "whoami")).reply()).content

    try:
        for process in processes:
            await process.start()
        assert [s.shard for s in emulator.open_sessions()] == [(0, 2), (1, 2)]
        assert await answerer("alice", bar) == f"pid {zero.pid}"
        assert await answerer("carol", pub) == f"pid {one.pid}"
        assert await answerer("alice", emulator.dm("alice")) == f"pid {zero.pid}"
        # Killed, shard 1's process closes nothing: the emulator sees its connection drop.
        gone = emulator.session_on(1)
        assert gone is not None
        await one.kill()
        await emulator.wait_for(lambda: gone.closed, what="the killed session to drop")
        await emulator.ping(shard=0)
        emulator.response_deadline = 0.3
        lost = await emulator.slash("carol", pub, "whoami")
        await lost.expiry()
        assert not lost.delivered and lost.callback is None
        emulator.response_deadline = 3.0
        await one.start()
        replacement = await emulator.wait_shard(1, newer_than=gone)
        assert replacement.shard == (1, 2) and replacement is emulator.session_on(1)
        assert await answerer("carol", pub) == f"pid {one.pid}"
        assert await answerer("alice", bar) == f"pid {zero.pid}"
        assert emulator.rate_limited == [] and not emulator.internal_errors
    finally:
        for process in processes:
            await process.stop()
        await emulator.stop()


async def test_buttons_work_after_a_restart(emu: DiscordEmulator, probe: BotProcess) -> None:
    bar = emu.channel("bar", "comptoir")
    message = await (await emu.slash("alice", bar, "counter")).reply()
    await probe.restart()
    await (await emu.click("bob", message, "probe:count:0")).reply()
    assert message.content == "count 1"
