"""``/aide``: how to play each game, privately, in the reader's language, with the commands
as the reader's client shows them."""

from __future__ import annotations

import asyncio

import pytest

from tests.e2e.botprocess import BotProcess
from tests.e2e.emulator import DiscordEmulator

GAMES = {
    # game: (French title, French start command, English title, English start command)
    "maya": ("Maya et Mia", "/maya start", "Maya and Mia", "/maya start"),
    "yades": ("Yadès", "/yades defi", "Yadès", "/yades challenge"),
    "menteur": ("Dés du menteur", "/menteur start", "Liar's dice", "/liarsdice start"),
}


@pytest.mark.parametrize("game", sorted(GAMES))
async def test_aide_explains_each_game_privately_in_both_languages(
    emulator: DiscordEmulator, bot: BotProcess, game: str
) -> None:
    comptoir = emulator.channel("bar", "comptoir")
    fr_title, fr_start, en_title, en_start = GAMES[game]
    for name, title, start, words in (
        ("alice", fr_title, fr_start, ("Les commandes", "Les options de la table")),
        ("dave", en_title, en_start, ("The commands", "The table's options")),
    ):
        user = emulator.user(name)
        answer = await (await emulator.slash(user, comptoir, "aide", {"jeu": game})).reply()
        assert answer.ephemeral and answer.audience == user.id
        assert title in answer.embeds[0]["title"], answer.embeds[0]["title"]
        text = answer.text
        for word in words:
            assert word in text, text
        assert f"`{start}`" in text, text  # listed as the reader's client shows it
        assert not any(face in text for face in "⚀⚁⚂⚃⚄⚅")
    # The French and English texts are not mixed: no French command in the English help.
    english = await (await emulator.slash("dave", comptoir, "aide", {"jeu": game})).reply()
    assert "/reglages" not in english.text and "/soulever" not in english.text
    assert "Traceback" not in bot.log()


async def test_aide_without_a_game_lists_every_game_and_the_shared_commands(
    emulator: DiscordEmulator, bot: BotProcess
) -> None:
    comptoir = emulator.channel("bar", "comptoir")
    answer = await (await emulator.slash("alice", comptoir, "aide")).reply()
    assert answer.ephemeral
    for title, start in ((t, s) for t, s, _, _ in GAMES.values()):
        assert title in answer.text and start in answer.text, answer.text
    for shared in ("`/classement`", "`/stats`", "`/reglages voir`", "`/donnees voir`"):
        assert shared in answer.text
    english = await (await emulator.slash("carol", comptoir, "aide")).reply()  # en-US
    assert "`/leaderboard`" in english.text and "`/help`" in english.text
    assert "Liar's dice" in english.text
    assert "Traceback" not in bot.log()


@pytest.mark.parametrize("game", sorted(GAMES))
async def test_a_lobby_says_in_two_lines_how_to_play_and_where_to_read_more(
    emulator: DiscordEmulator, bot: BotProcess, game: str
) -> None:
    comptoir = emulator.channel("bar", "comptoir")
    opened = await (await emulator.slash("alice", comptoir, f"{game} start")).reply()
    assert not opened.ephemeral

    def lobby() -> object | None:
        for message in emulator.transcript.public(comptoir.id):
            # Commands are mentions: each client shows them in its own language.
            shown = emulator.as_read(message.text)
            if message.embeds and f"/aide jeu:{GAMES[game][0]}" in shown:
                return message
        return None

    table = await emulator.wait_for(lobby, what="the lobby with its hint")
    assert "🎯" in table.text  # the two lines: how a turn goes, then where the rules are
    assert "Traceback" not in bot.log()


async def test_mentioning_the_bot_points_to_aide_once_in_a_while_and_pings_nobody(
    emulator: DiscordEmulator, bot: BotProcess
) -> None:
    comptoir = emulator.channel("bar", "comptoir")
    before = len(emulator.transcript.public(comptoir.id))
    mention = f"<@{emulator.world.bot.id}>"
    heard = await emulator.say("alice", comptoir, f"{mention} on joue comment ?")
    assert heard.delivered  # the bot asks for guild messages (not their privileged text)
    pointer = await heard.reply(comptoir.id)
    # Its commands are mentions, which each client names in its own language.
    assert "</aide:" in pointer.content and not pointer.ephemeral
    assert "/aide" in emulator.as_read(pointer.content)
    assert "/help" in emulator.as_read(pointer.content, "en-US")
    assert pointer.allowed_mentions is not None and not pointer.allowed_mentions.get("parse")
    assert not pointer.allowed_mentions.get("users")
    # Said again at once, and without a mention: nothing more.
    await emulator.say("bob", comptoir, f"{mention} ?")
    await emulator.say("bob", comptoir, "on joue ?")
    await emulator.ping()
    await asyncio.sleep(0.5)  # what the bot might still post (nothing else to wait on)
    assert len(emulator.transcript.public(comptoir.id)) == before + 1
    # An English server reads English.
    pub = emulator.channel("pub", "games")
    english = await (await emulator.say("carol", pub, f"hey {mention}")).reply(pub.id)
    assert "/help" in emulator.as_read(english.content, "en-US")
    assert "/maya start" in emulator.as_read(english.content, "en-GB")
    assert "Traceback" not in bot.log() and "CommandNotFound" not in bot.log()
