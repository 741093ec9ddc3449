"""A table opens only where the bot can play it: a channel where the bot lacks what a table
needs (seeing the channel, posting, embeds, reading back its messages) gets a private
refusal at ``start`` naming what is missing, instead of a table whose every move then fails.
Where only Maya's *faute* votes would suffer (no Add Reactions, no Manage Messages), the
table opens and its opener is told privately what will not work."""

from __future__ import annotations

import asyncio

import pytest

from tests.e2e.botprocess import BotProcess
from tests.e2e.emulator import DiscordEmulator
from tests.e2e.handles import InjectedInteraction
from tests.e2e.transcript import Message
from tests.e2e.world import (
    ADD_REACTIONS,
    EMBED_LINKS,
    MANAGE_MESSAGES,
    READ_MESSAGE_HISTORY,
    SEND_MESSAGES,
    VIEW_CHANNEL,
    Channel,
)

OOPS = "Oups"

# What the bot may lack -> its name, as a French and an English client show it.
NEEDED = {
    VIEW_CHANNEL: ("Voir le salon", "View Channel"),
    SEND_MESSAGES: ("Envoyer des messages", "Send Messages"),
    EMBED_LINKS: ("Intégrer des liens", "Embed Links"),
    READ_MESSAGE_HISTORY: ("Voir les anciens messages", "Read Message History"),
}

# Every way to open a table, as its command and options.
OPENINGS = [
    ("maya start", {}),
    ("maya start", {"mode": "vies"}),  # Mia
    ("yades start", {}),
    ("yades defi", {"adversaire": "bob"}),  # a duel, once accepted
    ("yades defi", {"cpu": True}),  # a duel against the CPU, at once
    ("menteur start", {"cpu": 1}),
]


def denied(emulator: DiscordEmulator, channel: Channel, permissions: int) -> None:
    """The bot is denied ``permissions`` in ``channel`` (a channel overwrite)."""
    emulator.world.overwrite(channel, emulator.world.bot, deny=permissions)


def calm(bot: BotProcess) -> None:
    log = bot.log()
    assert "Traceback" not in log and " ERROR " not in log, log[-4000:]


async def settled(emulator: DiscordEmulator) -> None:
    await emulator.ping()
    await asyncio.sleep(0.5)


@pytest.mark.parametrize("missing", list(NEEDED), ids=[name for _, name in NEEDED.values()])
async def test_no_table_opens_where_the_bot_lacks_what_it_needs(
    emulator: DiscordEmulator, bot: BotProcess, missing: int
) -> None:
    terrasse = emulator.channel("bar", "terrasse")
    denied(emulator, terrasse, missing)
    french, _ = NEEDED[missing]
    for command, options in OPENINGS:
        answer = await (await emulator.slash("alice", terrasse, command, options)).reply()
        assert answer.ephemeral and answer.audience == emulator.user("alice").id, answer.text
        assert answer.text == (
            f"Je ne peux pas jouer dans ce salon, il me manque cette permission : {french}."
            " Demande à quelqu'un qui gère le serveur de me la donner ici, ou ouvre la table"
            " dans un autre salon."
        ), (command, options)
    assert emulator.transcript.public(terrasse.id) == []
    # Nothing was opened: the channel has no table to join.
    joined = await (await emulator.slash("bob", terrasse, "maya rejoindre")).reply()
    assert joined.text.startswith("Il n'y a pas de partie de Maya ou de Mia dans ce salon")
    calm(bot)


async def test_an_english_client_is_told_every_missing_permission_in_english(
    emulator: DiscordEmulator, bot: BotProcess
) -> None:
    terrasse = emulator.channel("bar", "terrasse")
    denied(emulator, terrasse, EMBED_LINKS | READ_MESSAGE_HISTORY)
    answer = await (await emulator.slash("carol", terrasse, "menteur start")).reply()
    assert answer.ephemeral and answer.audience == emulator.user("carol").id
    assert answer.text == (
        "I cannot play in this channel, I lack these permissions: Embed Links,"
        " Read Message History. Please ask someone who manages the server to grant them to"
        " me here, or open the table in another channel."
    )
    assert emulator.transcript.public(terrasse.id) == []
    calm(bot)


async def test_a_duel_challenge_accepted_where_the_bot_cannot_play_opens_nothing(
    emulator: DiscordEmulator, bot: BotProcess
) -> None:
    # Challenged where the bot could play, accepted once it no longer can.
    terrasse = emulator.channel("bar", "terrasse")
    bob = emulator.user("bob")
    posted = await (
        await emulator.slash("alice", terrasse, "yades defi", {"adversaire": bob})
    ).reply()
    denied(emulator, terrasse, SEND_MESSAGES)
    accepted = await emulator.click(bob, posted, label="Accepter")
    answer = await accepted.reply()
    assert answer.ephemeral and answer.audience == bob.id, answer.text
    assert "Envoyer des messages" in answer.text and OOPS not in answer.text
    assert not [m for m in emulator.transcript.public(terrasse.id) if m.embeds]  # no table
    # The challenge still stands: accepted once the bot may post, the duel starts.
    denied(emulator, terrasse, 0)
    await (await emulator.click(bob, posted, label="Accepter")).response()
    await emulator.wait_message(terrasse, where=lambda m: bool(m.embeds))
    calm(bot)


async def test_a_tutorial_plays_where_the_bot_cannot_post(
    emulator: DiscordEmulator, bot: BotProcess
) -> None:
    # A tutorial is only ephemeral answers: it needs nothing of the channel.
    terrasse = emulator.channel("bar", "terrasse")
    denied(emulator, terrasse, SEND_MESSAGES | EMBED_LINKS | READ_MESSAGE_HISTORY)
    answer = await (await emulator.slash("alice", terrasse, "menteur tutoriel")).reply()
    assert answer.ephemeral and answer.text.startswith("🎓 **Apprendre en jouant**")
    calm(bot)


# --------------------------------------------------------------------------- faute votes


async def private_notes(started: InjectedInteraction) -> list[Message]:
    await started.reply()
    await settled(started.emulator)
    return [m for m in started.messages if m.ephemeral]


FAULTS_HEAD = "⚠️ La table est ouverte, mais les votes de *faute de jeu* marcheront moins bien ici"
NO_REACTIONS = (
    "• Je ne pourrai pas mettre ✅ et ❌ sous les accusations : chaque votant devra ajouter"
    " sa réaction lui-même."
)
NO_MANAGING = (
    "• Je ne pourrai pas retirer les réactions de ceux qui ne votent pas : elles resteront"
    " sous les accusations, sans compter."
)


WITHOUT_REACTIONS = [
    f"{FAULTS_HEAD}, il me manque cette permission : Ajouter des réactions.",
    NO_REACTIONS,
]
WITHOUT_MANAGING = [
    f"{FAULTS_HEAD}, il me manque cette permission : Gérer les messages.",
    NO_MANAGING,
]
WITHOUT_BOTH = [
    f"{FAULTS_HEAD}, il me manque ces permissions : Ajouter des réactions, Gérer les messages.",
    NO_REACTIONS,
    NO_MANAGING,
]


@pytest.mark.parametrize(
    ("missing", "lines"),
    [
        (ADD_REACTIONS, WITHOUT_REACTIONS),
        (MANAGE_MESSAGES, WITHOUT_MANAGING),
        (ADD_REACTIONS | MANAGE_MESSAGES, WITHOUT_BOTH),
    ],
    ids=["add_reactions", "manage_messages", "both"],
)
async def test_a_maya_table_opens_without_what_faute_votes_need_and_says_so_privately(
    emulator: DiscordEmulator, bot: BotProcess, missing: int, lines: list[str]
) -> None:
    terrasse = emulator.channel("bar", "terrasse")
    denied(emulator, terrasse, missing)
    started = await emulator.slash("alice", terrasse, "maya start")
    opened = await started.reply()
    assert not opened.ephemeral  # the table opens all the same
    notes = await private_notes(started)
    assert [note.text.split("\n") for note in notes] == [lines]
    assert notes[0].audience == emulator.user("alice").id
    calm(bot)


@pytest.mark.parametrize("options", [{"mode": "vies"}, {"fautes": False}], ids=["mia", "no_fautes"])
async def test_a_table_without_faute_votes_says_nothing_of_reactions(
    emulator: DiscordEmulator, bot: BotProcess, options: dict[str, object]
) -> None:
    terrasse = emulator.channel("bar", "terrasse")
    denied(emulator, terrasse, ADD_REACTIONS | MANAGE_MESSAGES)
    started = await emulator.slash("alice", terrasse, "maya start", options)
    assert not (await started.reply()).ephemeral
    assert await private_notes(started) == []
    calm(bot)


async def test_a_maya_table_where_the_bot_has_everything_says_nothing_more(
    emulator: DiscordEmulator, bot: BotProcess
) -> None:
    comptoir = emulator.channel("bar", "comptoir")
    started = await emulator.slash("alice", comptoir, "maya start")
    assert not (await started.reply()).ephemeral
    assert await private_notes(started) == []
    calm(bot)
