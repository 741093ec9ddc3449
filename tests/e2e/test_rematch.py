"""**Revanche** through the real bot: an ended game's last message offers the same table
again; one click by one of its players opens it, the others join with one click and the
game starts with the last of them; the offer ends after two turns' time, its button with
it; against CPU players alone, the rematch starts at once."""

from __future__ import annotations

import json

import pytest

from tests.e2e.botprocess import BotProcess
from tests.e2e.emulator import DiscordEmulator
from tests.e2e.transcript import Message
from tests.e2e.world import Channel, User

REMATCH = "gobre:"


def offers_rematch(message: Message) -> bool:
    return any(custom_id.startswith(REMATCH) for custom_id in message.custom_ids)


def stored_tables(bot: BotProcess) -> list[dict]:
    """Every table stored, oldest first: its starter, rules and CPU players."""
    rows = bot.query("SELECT meta_json FROM games ORDER BY id")
    return [json.loads(str(meta)) for (meta,) in rows]


async def ended_menteur(
    emulator: DiscordEmulator, channel: Channel, people: list[User], **options: object
) -> Message:
    """A menteur table of ``people`` (and the CPU players of ``options``) opened, started,
    then left by all but its opener, who stops it: its last message."""
    opener, *others = people
    await (await emulator.slash(opener, channel, "menteur start", options)).reply()
    for other in others:
        await (await emulator.slash(other, channel, "menteur rejoindre")).reply()
    await (await emulator.slash(opener, channel, "menteur commencer")).response()
    for other in others:
        await (await emulator.slash(other, channel, "menteur quitter")).reply()
    if options.get("cpu"):
        await (await emulator.slash(opener, channel, "menteur stop")).response()
    return await emulator.wait_message(channel, where=offers_rematch)


async def test_a_rematch_seats_the_same_table_and_starts_once_everyone_has_joined(
    emulator: DiscordEmulator, bot: BotProcess
) -> None:
    alice, bob, carol = emulator.user("alice"), emulator.user("bob"), emulator.user("carol")
    comptoir = emulator.channel("bar", "comptoir")
    last = await ended_menteur(
        emulator, comptoir, [alice, bob], des=3, jokers=False, cpu=1, niveau="difficile"
    )
    offer = last.button(custom_id=REMATCH)

    stranger = await (await emulator.click(carol, last, offer, locale="fr")).reply()
    assert stranger.ephemeral and "Seuls les joueurs de cette partie" in stranger.text
    await (await emulator.click(bob, last, offer)).response()
    opened = await emulator.wait_message(comptoir, containing="Revanche !")
    assert f"Revanche ! <@{bob.id}> relance la même table" in opened.text
    assert f"On attend <@{alice.id}>" in opened.text
    call = await emulator.wait_message(comptoir, containing="revanche ?")
    assert call.pings == [alice.id] and opened.pings == []  # the one ping: those awaited
    await emulator.wait_for(
        lambda: not offers_rematch(emulator.transcript.get(last.id)), what="the offer taken off"
    )
    again = await (await emulator.click(alice, last, offer, stale=True, locale="fr")).reply()
    assert again.ephemeral and "n'est plus proposée" in again.text

    first, rematch = stored_tables(bot)
    assert rematch["starter"] == bob.id
    assert rematch["rules"] == first["rules"]
    assert list(rematch["cpus"].values()) == list(first["cpus"].values())
    assert [cpu[1] for cpu in rematch["cpus"].values()] == ["difficile"]

    await (await emulator.click(alice, opened, label="Rejoindre")).response()
    started = await emulator.wait_message(
        comptoir, containing="La partie commence", where=lambda m: m.id >= opened.id
    )
    assert f"<@{alice.id}>" in started.text and f"<@{bob.id}>" in started.text


@pytest.mark.bot_env(GOBELET_TURN_SECONDS="2")
async def test_a_rematch_offer_ends_after_two_turns_time_and_its_button_goes(
    emulator: DiscordEmulator, bot: BotProcess
) -> None:
    alice, bob = emulator.user("alice"), emulator.user("bob")
    comptoir = emulator.channel("bar", "comptoir")
    last = await ended_menteur(emulator, comptoir, [alice, bob])
    offer = last.button(custom_id=REMATCH)
    await emulator.wait_for(
        lambda: not offers_rematch(emulator.transcript.get(last.id)),
        what="the offer's end",
        timeout=15,
    )
    late = await (await emulator.click(bob, last, offer, stale=True, locale="fr")).reply()
    assert late.ephemeral and "n'est plus proposée" in late.text
    assert len(stored_tables(bot)) == 1  # no table opened


async def test_a_rematch_against_the_cpu_starts_at_once(
    emulator: DiscordEmulator, bot: BotProcess
) -> None:
    alice = emulator.user("alice")
    comptoir = emulator.channel("bar", "comptoir")
    await (await emulator.slash(alice, comptoir, "yades defi", {"cpu": True})).reply()
    await (await emulator.slash(alice, comptoir, "yades abandon")).response()
    last = await emulator.wait_message(comptoir, where=offers_rematch)
    await (await emulator.click(alice, last, custom_id(last))).response()
    opened = await emulator.wait_message(comptoir, containing="Revanche !")
    await emulator.wait_message(
        comptoir, containing="La partie commence", where=lambda m: m.id >= opened.id
    )
    first, rematch = stored_tables(bot)
    assert rematch["rules"] == first["rules"] and rematch["cpus"] == first["cpus"]


def custom_id(message: Message) -> str:
    return next(found for found in message.custom_ids if found.startswith(REMATCH))


async def test_a_rematch_of_a_duel_with_a_stake_stakes_nothing(
    emulator: DiscordEmulator, bot: BotProcess
) -> None:
    alice, bob = emulator.user("alice"), emulator.user("bob")
    comptoir = emulator.channel("bar", "comptoir")
    defi = await emulator.slash(alice, comptoir, "yades defi", {"adversaire": bob, "mise": 10})
    challenge = await defi.reply()
    await (await emulator.click(bob, challenge, label="Accepter")).response()
    await emulator.wait_message(comptoir, containing="La partie commence")
    await (await emulator.slash(alice, comptoir, "yades abandon")).response()
    last = await emulator.wait_message(comptoir, where=offers_rematch)
    await (await emulator.click(bob, last, custom_id(last))).response()
    await emulator.wait_message(comptoir, containing="Revanche !")
    duel, rematch = stored_tables(bot)
    assert duel["rules"]["mise"] == 10 and rematch["rules"]["mise"] == 0
    assert rematch["rules"]["rules"] == duel["rules"]["rules"]


async def test_a_rematch_click_sent_on_another_message_is_refused(
    emulator: DiscordEmulator, bot: BotProcess
) -> None:
    alice, bob = emulator.user("alice"), emulator.user("bob")
    comptoir = emulator.channel("bar", "comptoir")
    last = await ended_menteur(emulator, comptoir, [alice, bob])
    said = await emulator.wait_message(comptoir, containing="menteur", where=lambda m: m != last)
    forged = await (
        await emulator.click(alice, said, custom_id(last), forged=True, locale="fr")
    ).reply()
    assert forged.ephemeral and "n'est plus proposée" in forged.text
    assert offers_rematch(emulator.transcript.get(last.id))  # the offer still stands
    assert len(stored_tables(bot)) == 1
