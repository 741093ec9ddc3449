"""Tables whose place goes away through the real bot: a channel or thread deleted, the bot
removed from a server, a channel gone while the bot was down or unannounced. Each table is
stored as stopped, uncounted, its timers cancelled, and the bot never calls Discord about
it again (each 403 or 404 counts toward Discord's invalid-request limit)."""

from __future__ import annotations

import json

import pytest

from tests.e2e.botprocess import BotProcess
from tests.e2e.emulator import DiscordEmulator
from tests.e2e.world import Channel


def is_table(message: object) -> bool:
    return bool(getattr(message, "embeds", None)) and bool(getattr(message, "table_controls", []))


async def open_table(emulator: DiscordEmulator, channel: Channel, who: str = "alice") -> None:
    """A Maya game against a CPU, started."""
    await (await emulator.slash(who, channel, "maya start", {"cpu": 1})).reply()
    lobby = await emulator.wait_message(channel, where=is_table)
    start = next(c for c in lobby.custom_ids if c.endswith(":start"))
    await (await emulator.click(who, lobby, start)).response()
    await emulator.wait_message(channel, where=lambda m: is_table(m) and m.id != lobby.id)
    # The start is drawn to its end: the lobby's copy moved out of the way (deleted, or its
    # controls taken off), so that nothing of it is still in flight.
    await emulator.wait_for(
        lambda: lobby.deleted or not lobby.table_controls, what="the lobby's copy moved away"
    )


def game(bot: BotProcess, channel: Channel) -> tuple[int, str]:
    ((game_id, status),) = bot.query(
        "SELECT id, status FROM games WHERE channel_id = ?", channel.id
    )
    return int(str(game_id)), str(status)


def timers_of(bot: BotProcess, game_id: int) -> list[str]:
    """The stored timers about the game (its turn's, its votes')."""
    rows = bot.query("SELECT key, payload_json FROM timers")
    return [str(key) for key, payload in rows if json.loads(str(payload)).get("table") == game_id]


def counted(bot: BotProcess, game_id: int) -> int:
    ((count,),) = bot.query("SELECT COUNT(*) FROM counted_games WHERE game_id = ?", game_id)
    return int(str(count))


async def closed(emulator: DiscordEmulator, bot: BotProcess, channel: Channel) -> int:
    """The game of ``channel`` once stored as stopped, with no timer left and uncounted."""
    await emulator.wait_for(lambda: game(bot, channel)[1] == "stopped", what="the table closed")
    game_id, _ = game(bot, channel)
    assert timers_of(bot, game_id) == [] and counted(bot, game_id) == 0
    return game_id


def calls_about(emulator: DiscordEmulator, channel: Channel, since: int) -> list[str]:
    return [
        f"{c.method} {c.path} {c.status}"
        for c in emulator.calls[since:]
        if f"/channels/{channel.id}" in c.path
    ]


async def restarted_without_calling(
    emulator: DiscordEmulator, bot: BotProcess, *gone: Channel
) -> None:
    """The bot restarted: nothing called about the places ``gone``, and no 403 or 404 at all
    (a closed table's timers do not come back, nor is it redrawn)."""
    since = len(emulator.calls)
    await bot.restart()
    await emulator.ping()
    for place in gone:
        assert calls_about(emulator, place, since) == []
    assert not [c for c in emulator.http_errors if c.status in (403, 404)]


async def test_a_table_whose_channel_is_deleted_is_closed_and_never_called_about(
    emulator: DiscordEmulator, bot: BotProcess
) -> None:
    comptoir = emulator.channel("bar", "comptoir")
    await open_table(emulator, comptoir)
    game_id, _ = game(bot, comptoir)
    await emulator.wait_for(lambda: timers_of(bot, game_id), what="its turn's timer")
    await emulator.delete_channel(comptoir)
    await closed(emulator, bot, comptoir)
    await restarted_without_calling(emulator, bot, comptoir)


async def test_a_table_in_a_deleted_thread_or_its_deleted_channel_is_closed(
    emulator: DiscordEmulator, bot: BotProcess
) -> None:
    comptoir, terrasse = emulator.channel("bar", "comptoir"), emulator.channel("bar", "terrasse")
    for channel in (comptoir, terrasse):
        await (await emulator.slash("alice", channel, "yades start", {"fil": True})).reply()
    bar = emulator.guild("bar")
    await emulator.wait_for(lambda: len(bar.threads) == 2, what="two threads")
    in_comptoir, in_terrasse = sorted(bar.threads, key=lambda t: t.parent_id == terrasse.id)
    for thread in (in_comptoir, in_terrasse):
        await emulator.wait_message(thread, where=is_table)
    await emulator.delete_channel(in_comptoir)  # THREAD_DELETE
    await closed(emulator, bot, in_comptoir)
    await emulator.delete_channel(terrasse)  # CHANNEL_DELETE only: its thread goes with it
    await closed(emulator, bot, in_terrasse)
    await restarted_without_calling(emulator, bot, in_comptoir, in_terrasse, terrasse)


async def test_the_bot_removed_from_a_server_closes_its_tables_there_only(
    emulator: DiscordEmulator, bot: BotProcess
) -> None:
    comptoir, general = emulator.channel("bar", "comptoir"), emulator.channel("pub", "general")
    await open_table(emulator, comptoir)
    await open_table(emulator, general, "carol")
    await emulator.remove_bot("bar")
    await closed(emulator, bot, comptoir)
    assert game(bot, general)[1] == "active"
    await restarted_without_calling(emulator, bot, comptoir)
    await emulator.wait_for(lambda: game(bot, general)[1] == "active", what="the other table")


async def test_a_restart_closes_a_table_whose_channel_went_meanwhile_without_a_404(
    emulator: DiscordEmulator, bot: BotProcess
) -> None:
    comptoir = emulator.channel("bar", "comptoir")
    await open_table(emulator, comptoir)
    await bot.kill()
    await emulator.delete_channel(comptoir)  # nobody to tell: the bot is down
    since = len(emulator.calls)
    await bot.start()
    await closed(emulator, bot, comptoir)
    assert calls_about(emulator, comptoir, since) == []
    assert not [c for c in emulator.http_errors if c.status in (403, 404)]


@pytest.mark.bot_env(GOBELET_TURN_SECONDS="2")
async def test_a_table_whose_redraw_gets_unknown_channel_is_closed(
    emulator: DiscordEmulator, bot: BotProcess
) -> None:
    comptoir = emulator.channel("bar", "comptoir")
    await open_table(emulator, comptoir)
    await emulator.delete_channel(comptoir, told=False)  # an event the bot never got
    emulator.travel(16 * 60)  # the interactions' tokens are dead: the bot token draws
    await closed(emulator, bot, comptoir)
    refused = [c for c in emulator.http_errors if f"/channels/{comptoir.id}" in c.path]
    assert refused and {c.status for c in refused} == {404}
    since = len(emulator.calls)
    await bot.restart()
    await emulator.ping()
    assert calls_about(emulator, comptoir, since) == []
