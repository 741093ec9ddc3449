"""The real bot against the emulator: login, command sync, Discord's response rules, restarts.

These tests hold whatever the cogs do: they need no particular command, and prove the bot is
alive with a gateway heartbeat (``emulator.ping``), which discord.py answers by itself.
"""

from __future__ import annotations

from typing import Any

import aiohttp

from tests.e2e.botprocess import BotProcess
from tests.e2e.emulator import DiscordEmulator, InjectedInteraction


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
