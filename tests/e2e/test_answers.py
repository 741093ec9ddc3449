"""Every interaction gets its answer, whatever happens around it: slow or locked storage,
an answer Discord refuses, a click on a button its message no longer shows."""

from __future__ import annotations

import asyncio
import re
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from tests.e2e.botprocess import BotProcess
from tests.e2e.emulator import DiscordEmulator
from tests.e2e.handles import InjectedInteraction
from tests.e2e.maya_driver import MayaDriver
from tests.e2e.transcript import Message
from tests.e2e.world import Channel, User

GAMES_WITH_A_LOBBY = ("menteur", "yades")
FRENCH_NUMBERS = ["un", "deux", "trois", "quatre", "cinq", "six", "sept", "huit", "neuf", "dix"]
TURN = re.compile(r"🎯 [^\n]*?<@(\d+)>")


def answered_messages(interaction: InjectedInteraction) -> list[Message]:
    return [m for m in interaction.touched if not m.deleted]


async def settled(emulator: DiscordEmulator, seconds: float = 0.5) -> None:
    """Let the bot finish what it does after an answer (nothing else to wait on)."""
    await emulator.ping()
    await asyncio.sleep(seconds)


@contextmanager
def locked(database: Path) -> Iterator[None]:
    """Another process holds the bot's SQLite file locked for writing."""
    other = sqlite3.connect(database, isolation_level=None)
    try:
        other.execute("BEGIN EXCLUSIVE")
        yield
        other.execute("ROLLBACK")
    finally:
        other.close()


# --------------------------------------------------------------------------- slash commencer


@pytest.mark.parametrize("game", GAMES_WITH_A_LOBBY)
async def test_slash_commencer_always_finishes_its_answer(
    emulator: DiscordEmulator, bot: BotProcess, game: str
) -> None:
    alice = emulator.user("alice")
    comptoir = emulator.channel("bar", "comptoir")
    await (await emulator.slash(alice, comptoir, f"{game} start", {"cpu": 1})).reply()
    begun = await emulator.slash(alice, comptoir, f"{game} commencer")
    answer = await begun.reply()
    assert not answer.ephemeral
    assert "La partie commence" in answer.text
    await settled(emulator)
    # Nothing this command made is left "thinking" in the channel.
    assert [m for m in answered_messages(begun) if m.loading] == []
    assert [m for m in emulator.transcript.public(comptoir.id) if m.loading] == []


@pytest.mark.parametrize("game", GAMES_WITH_A_LOBBY)
async def test_a_refused_slash_commencer_is_answered_privately(
    emulator: DiscordEmulator, bot: BotProcess, game: str
) -> None:
    alice = emulator.user("alice")
    comptoir = emulator.channel("bar", "comptoir")
    await (await emulator.slash(alice, comptoir, f"{game} start")).reply()
    refused = await (await emulator.slash(alice, comptoir, f"{game} commencer")).reply()
    assert refused.ephemeral and refused.audience == alice.id
    assert refused.text == "Il faut au moins 2 joueurs (CPU compris) pour commencer."
    await settled(emulator)
    public = [m.text for m in emulator.transcript.public(comptoir.id)]
    assert not any("Il faut au moins 2 joueurs" in text for text in public)
    assert [m for m in emulator.transcript.public(comptoir.id) if m.loading] == []


# --------------------------------------------------------------------------- stale buttons


async def maya_turn_for(emulator: DiscordEmulator, driver: MayaDriver, opener: User) -> None:
    """``opener`` opens the round and announces 31: the next player may believe or lift."""
    turn = await driver.wait_turn()
    assert turn.player == opener.id and turn.phase == "open", turn
    panel = await driver.click(opener, "roll")
    assert panel is not None
    await driver.announce(opener, panel, "31")
    await emulator.wait_for(lambda: driver.turn().phase == "respond", what="the answer to 31")


async def test_a_click_on_a_button_of_a_turn_already_played_is_answered_privately(
    emulator: DiscordEmulator, bot: BotProcess
) -> None:
    alice, bob = emulator.user("alice"), emulator.user("bob")
    comptoir = emulator.channel("bar", "comptoir")
    driver = MayaDriver(emulator, comptoir)
    await (await emulator.slash(alice, comptoir, "maya start")).reply()
    await driver.find_table()
    await (await emulator.slash(bob, comptoir, "maya rejoindre")).reply()
    await (await emulator.slash(alice, comptoir, "maya commencer")).reply()
    turn = await driver.wait_turn()
    opener = alice if turn.player == alice.id else bob
    other = bob if opener is alice else alice
    await maya_turn_for(emulator, driver, opener)
    table = driver.table
    assert table is not None
    believe = table.button(custom_id=next(c for c in table.custom_ids if c.endswith(":believe")))
    lift = table.button(custom_id=next(c for c in table.custom_ids if c.endswith(":lift")))
    await (await emulator.click(other, table, believe)).response()
    await emulator.wait_for(lambda: believe.raw not in [c.raw for c in table.all_components()])
    # The same buttons again, from a screen not yet redrawn: Discord sends the click with the
    # message as it is now, which no longer shows them. The bot still answers, privately.
    for button in (believe, lift):
        again = await emulator.click(other, table, button, stale=True)
        answer = await again.reply()
        assert answer.ephemeral and answer.audience == other.id
        assert answer.text == "Trop tard : ce bouton date d'un tour déjà joué."


async def test_a_click_on_a_button_of_a_stopped_table_is_answered_privately(
    emulator: DiscordEmulator, bot: BotProcess
) -> None:
    alice = emulator.user("alice")
    comptoir = emulator.channel("bar", "comptoir")
    driver = MayaDriver(emulator, comptoir)
    await (await emulator.slash(alice, comptoir, "maya start", {"cpu": 1})).reply()
    await driver.find_table()
    await (await emulator.slash(alice, comptoir, "maya commencer")).reply()
    await driver.wait_turn()
    table = driver.table
    assert table is not None
    # Her turn's first button: Lancer when she opens, Croire when the CPU opened.
    turn_button = next(b for b in table.buttons if not (b.custom_id or "").endswith(":join"))
    await (await emulator.slash(alice, comptoir, "maya stop")).reply()
    # The stopped table is shown anew without buttons; a screen that still shows them
    # (the copy above, not yet gone from it) sends the click all the same.
    stopped = await emulator.wait_for(
        lambda: driver.table if driver.table and not driver.table.table_controls else None,
        what="the stopped table without buttons",
    )
    answer = await (await emulator.click(alice, stopped, turn_button, stale=True)).reply()
    assert answer.ephemeral and answer.audience == alice.id
    assert answer.text == "Ce bouton appartient à une partie terminée."


# --------------------------------------------------------------------------- refused answers


async def test_a_stored_move_moves_the_table_on_even_when_discord_refuses_its_answer(
    emulator: DiscordEmulator, bot: BotProcess
) -> None:
    alice = emulator.user("alice")
    comptoir = emulator.channel("bar", "comptoir")
    await (await emulator.slash(alice, comptoir, "menteur start", {"cpu": 1, "des": 3})).reply()
    lobby = await emulator.wait_message(comptoir, where=lambda m: bool(m.buttons))
    await (await emulator.click(alice, lobby, label="Commencer")).response()

    def my_turn() -> Message | None:
        for message in reversed(emulator.transcript.public(comptoir.id)):
            if message.embeds and "Dés du menteur" in message.text:
                return message if f"👉 <@{alice.id}>" in message.text else None
        return None

    await emulator.wait_for(my_turn, what="alice's turn")
    mine = await (await emulator.slash(alice, comptoir, "menteur des")).reply()
    quantity, face = mine.selects[0].values[0].split("_")
    # Discord refuses the bot's answer (it comes after the 3 s window, as behind a slow disk).
    emulator.response_deadline = 0.0
    late = await emulator.slash(
        alice, comptoir, "menteur annoncer", {"quantite": int(quantity), "valeur": int(face)}
    )
    await late.expiry()
    emulator.response_deadline = 3.0
    # The bid was stored: the channel is told, the table redrawn, and the CPU plays next.
    told = await emulator.wait_message(comptoir, containing=f"📣 <@{alice.id}> annonce")
    assert not told.ephemeral
    said = f"<@{alice.id}> : **{FRENCH_NUMBERS[int(quantity) - 1]} {face}**"  # "trois 4"
    await emulator.wait_for(
        lambda: said in getattr(emulator.transcript.table(comptoir.id), "text", ""),
        what="the redrawn table",
    )
    cpu_moved = ("📣 **Dédé** 🤖 annonce", "Tous les dés")
    await emulator.wait_message(
        comptoir, where=lambda m: any(text in m.text for text in cpu_moved) and m is not told
    )


# --------------------------------------------------------------------------- locked storage


@pytest.mark.backends("sqlite")  # it locks the SQLite file from another process
@pytest.mark.bot_env(GOBELET_CPU_DELAY_SECONDS="0")
async def test_every_interaction_is_answered_in_time_while_the_database_is_locked(
    emulator: DiscordEmulator, bot: BotProcess
) -> None:
    alice = emulator.user("alice")
    channels = [
        emulator.channel("bar", "comptoir"),
        emulator.channel("bar", "terrasse"),
        emulator.channel("pub", "games"),
    ]
    tables: list[Message] = []
    for channel in channels:
        await (await emulator.slash(alice, channel, "yades defi", {"cpu": True})).reply()
        tables.append(await yades_turn_of(emulator, channel, alice))
    with locked(bot.database):
        moves = [
            await emulator.click(alice, tables[0], roll_button(tables[0])),
            await emulator.click(alice, tables[1], roll_button(tables[1])),
            await emulator.slash(alice, channels[2], "yades lancer"),
        ]
        await asyncio.sleep(emulator.response_deadline + 0.5)
        # Within Discord's three seconds, each got its answer (a deferral at the least).
        assert [move.expired for move in moves] == [False, False, False]
        assert all(move.acknowledged for move in moves)
        assert all(move.latency is not None and move.latency < 3 for move in moves)
    # Once the database is back, each move was either played or refused privately.
    for move, table in zip(moves, tables, strict=True):

        def outcome(move: InjectedInteraction = move, table: Message = table) -> bool:
            refused = any(m.ephemeral for m in answered_messages(move))
            played = re.search(r"(lancer|roll) 1/3", table.text) is not None
            return refused or played

        await emulator.wait_for(outcome, timeout=15, what="the move played or refused")
    assert "Traceback" not in bot.log()


async def yades_turn_of(emulator: DiscordEmulator, channel: Channel, user: User) -> Message:
    def ready() -> Message | None:
        for message in reversed(emulator.transcript.public(channel.id)):
            if message.embeds and "Yadès" in message.text:
                turn = TURN.search(message.text)
                mine = turn is not None and int(turn.group(1)) == user.id
                return (
                    message
                    if mine and any(c.endswith(":roll") for c in message.custom_ids)
                    else None
                )
        return None

    return await emulator.wait_for(ready, what=f"{user.name}'s Yadès turn")


def roll_button(table: Message) -> str:
    return next(c for c in table.custom_ids if c.endswith(":roll"))
