"""Tables in threads through the real bot: ``fil:`` on a ``start`` (or the server's
setting) runs the table in a public thread of the channel, which keeps one line linking to
it and, at the end, how the game ended; the thread is then archived. Without the
permission to start a thread, the table runs in the channel and its opener is told why."""

from __future__ import annotations

import re

import pytest

from tests.e2e.botprocess import BotProcess
from tests.e2e.emulator import DiscordEmulator
from tests.e2e.transcript import Message
from tests.e2e.world import (
    ANNOUNCEMENT_CHANNEL,
    ANNOUNCEMENT_THREAD,
    CREATE_PUBLIC_THREADS,
    Channel,
    User,
)

LINK = re.compile(r"dans le fil <#(\d+)>")


def is_table(message: object) -> bool:
    return bool(getattr(message, "embeds", None)) and bool(getattr(message, "table_controls", []))


async def test_a_table_opened_in_a_thread_plays_there_and_the_channel_keeps_one_line(
    emulator: DiscordEmulator, bot: BotProcess
) -> None:
    alice, bob = emulator.user("alice"), emulator.user("bob")
    comptoir = emulator.channel("bar", "comptoir")
    line = await (await emulator.slash(alice, comptoir, "menteur start", {"fil": True})).reply()
    assert not line.ephemeral and line.channel_id == comptoir.id
    found = LINK.search(line.text)
    assert found, line.text
    thread = emulator.world.channel(int(found.group(1)))
    assert thread.is_thread and thread.parent_id == comptoir.id
    assert thread.name == "Dés du menteur — Alice"

    lobby = await emulator.wait_message(thread, where=is_table)
    await (await emulator.click(bob, lobby, label="Rejoindre")).response()
    await (await emulator.click(alice, lobby, label="Commencer")).response()
    await emulator.wait_message(thread, containing="La partie commence")
    await (await emulator.slash(bob, thread, "menteur quitter")).reply()

    await emulator.wait_for(
        lambda: "🏁" in emulator.transcript.get(line.id).text, what="the channel told the end"
    )
    ended = emulator.transcript.get(line.id)
    assert f"🏁 Partie de Dés du menteur terminée dans <#{thread.id}>" in ended.text
    assert f"<@{alice.id}>" in ended.text  # the winner, with the final standings
    # The channel shows the one line; the game itself is in the thread.
    assert [m.id for m in emulator.transcript.public(comptoir.id)] == [line.id]
    # An archived thread takes no edit: it stays open while the rematch offer does.
    assert not thread.archived

    # A rematch is played in the same thread, and the channel's line follows it too.
    last = next(m for m in emulator.transcript.public(thread.id) if m.rematch_offered)
    offer = next(c for c in last.custom_ids if c.startswith("gobre:"))
    await (await emulator.click(bob, last, offer)).response()
    again = await emulator.wait_message(thread, containing="Revanche !")
    await (await emulator.click(alice, again, label="Rejoindre")).response()
    await emulator.wait_message(
        thread, containing="La partie commence", where=lambda m: m.id >= again.id
    )
    await (await emulator.slash(alice, thread, "menteur quitter")).reply()
    await emulator.wait_for(
        lambda: f"1. 🏆 <@{bob.id}>" in emulator.transcript.get(line.id).text,
        what="the channel's line telling the rematch's winner",
    )
    assert [m.id for m in emulator.transcript.public(comptoir.id)] == [line.id]
    assert not thread.archived  # the rematch's own offer stands
    assert emulator.http_errors == [] and emulator.rate_limited == []


async def menteur_in_thread(emulator: DiscordEmulator, opener: User) -> tuple[Channel, Message]:
    """A Dés du menteur table opened by ``opener`` in a thread of comptoir: the thread, and
    its lobby."""
    comptoir = emulator.channel("bar", "comptoir")
    line = await (await emulator.slash(opener, comptoir, "menteur start", {"fil": True})).reply()
    found = LINK.search(line.text)
    assert found, line.text
    thread = emulator.world.channel(int(found.group(1)))
    return thread, await emulator.wait_message(thread, where=is_table)


@pytest.mark.bot_env(GOBELET_TURN_SECONDS="2")
async def test_a_thread_is_archived_once_its_rematch_offer_ended_and_nothing_was_refused(
    emulator: DiscordEmulator, bot: BotProcess
) -> None:
    alice, bob = emulator.user("alice"), emulator.user("bob")
    thread, lobby = await menteur_in_thread(emulator, alice)
    await (await emulator.click(bob, lobby, label="Rejoindre")).response()
    await (await emulator.click(alice, lobby, label="Commencer")).response()
    await emulator.wait_message(thread, containing="La partie commence")
    await (await emulator.slash(bob, thread, "menteur quitter")).reply()
    last = await emulator.wait_message(thread, where=lambda m: m.rematch_offered)
    assert not thread.archived
    # Two turns' time (4 s here): the offer's button goes, then the thread is archived.
    await emulator.wait_for(lambda: thread.archived, what="the thread archived", timeout=20)
    assert not emulator.transcript.get(last.id).rematch_offered
    assert emulator.http_errors == [] and emulator.rate_limited == []


async def test_a_click_in_an_archived_thread_is_answered_there(
    emulator: DiscordEmulator, bot: BotProcess
) -> None:
    """A thread archived under a live button (Discord archives one idle for a day): the
    click that edits its message unarchives it first, and is answered."""
    alice, bob = emulator.user("alice"), emulator.user("bob")
    thread, lobby = await menteur_in_thread(emulator, alice)
    await emulator.archive(thread)  # as Discord does after a day without a message
    assert thread.archived
    joined = await emulator.click(bob, lobby, label="Rejoindre")
    await joined.response()
    await emulator.wait_for(
        lambda: bool(emulator.transcript.get(lobby.id).history), what="the lobby redrawn"
    )
    assert not joined.errors and not thread.archived
    assert emulator.http_errors == []


async def test_the_servers_setting_opens_threads_and_without_the_permission_a_table_stays(
    emulator: DiscordEmulator, bot: BotProcess
) -> None:
    patron, alice = emulator.user("patron"), emulator.user("alice")
    comptoir, terrasse = emulator.channel("bar", "comptoir"), emulator.channel("bar", "terrasse")
    saved = await (
        await emulator.slash(patron, comptoir, "reglages fils", {"activer": True})
    ).reply()
    assert saved.ephemeral and "chacune dans un fil public" in saved.text

    emulator.world.overwrite(comptoir, emulator.world.bot, deny=CREATE_PUBLIC_THREADS)
    here = await (await emulator.slash(alice, comptoir, "maya start")).reply()
    assert not here.ephemeral and here.embeds and here.channel_id == comptoir.id
    told = await emulator.wait_message(comptoir, containing="non dans un fil", user=alice)
    assert told.ephemeral and told.audience == alice.id and "Créer des fils publics" in told.text
    assert not any(isinstance(c, Channel) and c.is_thread for c in bar_threads(emulator))

    line = await (await emulator.slash(alice, terrasse, "yades start")).reply()
    found = LINK.search(line.text)
    assert found and line.channel_id == terrasse.id
    thread = emulator.world.channel(int(found.group(1)))
    assert thread.parent_id == terrasse.id and thread.name == "Yadès — Alice"
    await emulator.wait_message(thread, where=is_table)
    # Chosen at start, the channel wins over the setting.
    cave = emulator.world.add_channel("bar", "cave")
    kept = await (await emulator.slash(alice, cave, "menteur start", {"fil": False})).reply()
    assert kept.embeds and not LINK.search(kept.text)


def bar_threads(emulator: DiscordEmulator) -> list[Channel]:
    return list(emulator.world.guild("bar").threads)


async def test_a_table_in_an_announcement_channel_runs_in_an_announcement_thread(
    emulator: DiscordEmulator, bot: BotProcess
) -> None:
    alice = emulator.user("alice")
    annonces = await emulator.add_channel("bar", "annonces", type=ANNOUNCEMENT_CHANNEL)
    await emulator.ping()  # the bot has heard of it
    line = await (await emulator.slash(alice, annonces, "maya start", {"fil": True})).reply()
    found = LINK.search(line.text)
    assert found, line.text
    thread = emulator.world.channel(int(found.group(1)))
    assert (thread.type, thread.parent_id) == (ANNOUNCEMENT_THREAD, annonces.id)
    await emulator.wait_message(thread, where=is_table)
    assert not emulator.http_errors
