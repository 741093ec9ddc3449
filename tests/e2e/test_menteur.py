"""Dés du menteur through the real bot: a table with CPUs to the end, the tutorial, refusals,
no leak of hidden dice, a restart mid-round, the leaderboard."""

from __future__ import annotations

import re

import pytest

from tests.e2e.botprocess import BotProcess
from tests.e2e.emulator import DiscordEmulator
from tests.e2e.transcript import Message
from tests.e2e.world import Channel, User

TURN = re.compile(r"👉 <@(\d+)>")
STEP = re.compile(r"^gob:(\d+):(\d+):")
GLYPHS = "⚀⚁⚂⚃⚄⚅"
MINE = re.compile(r"Tes dés \(\d+\) : (.*)$", re.MULTILINE)
HAND = re.compile(r"^　<@(\d+)> : (.*)$", re.MULTILINE)


def step_of(message: Message) -> int:
    steps = [int(m.group(2)) for c in message.custom_ids if (m := STEP.match(c))]
    return max(steps, default=-1)


def is_table(message: Message) -> bool:
    return bool(message.embeds) and "Dés du menteur" in message.text


class Game:
    """Plays a menteur table through its public message, /menteur des and the select."""

    def __init__(self, emulator: DiscordEmulator, channel: Channel, users: list[User]) -> None:
        self.emulator = emulator
        self.channel = channel
        self.users = {user.id: user for user in users}
        self.last = -1
        self.turns = 0
        self.seen: dict[int, str] = {}  # human -> the dice they last saw privately
        self.checked = 0  # reveals compared with what the players saw
        self.compared = 0  # hands compared

    async def table(self) -> Message:
        def ready() -> Message | None:
            for message in reversed(self.emulator.transcript.public(self.channel.id)):
                if not is_table(message):
                    continue
                if not message.table_controls and "Partie terminée" in message.text:
                    return message
                if step_of(message) > self.last and TURN.search(message.text):
                    return message
                if step_of(message) > self.last and "👉" in message.text:
                    return message  # a CPU's turn: wait for it
            return None

        message = await self.emulator.wait_for(ready, what="the next menteur decision")
        self.last = step_of(message)
        return message

    def reveals(self) -> list[str]:
        """Every reveal the channel showed (its "Tous les dés" line and the hands), in order,
        once each. A reveal told in a table's story scrolls out of it as the game goes on,
        and a table's old copy is deleted: every version of every public message counts."""
        found: dict[str, None] = {}
        for event in self.emulator.transcript.events:
            message = event.message
            if message.channel_id != self.channel.id or message.ephemeral:
                continue
            lines = str(event.snapshot["text"]).splitlines()
            for index, line in enumerate(lines):
                if "Tous les dés" not in line:
                    continue
                block = [line]
                for after in lines[index + 1 :]:
                    if not after.startswith("　"):
                        break
                    block.append(after)
                found.setdefault("\n".join(block))
        return list(found)

    def check_reveals(self) -> None:
        """Each reveal shows the hands the players saw privately."""
        reveals = self.reveals()
        for text in reveals[self.checked :]:
            for player, hand in HAND.findall(text):
                if int(player) in self.seen:
                    assert self.seen.pop(int(player)) == hand, text
                    self.compared += 1
        self.checked = len(reveals)

    async def my_dice(self, user: User) -> Message:
        mine = await (await self.emulator.slash(user, self.channel, "menteur des")).reply()
        assert mine.ephemeral and mine.audience == user.id
        found = MINE.search(mine.text)
        assert found, mine.text
        self.check_reveals()
        self.seen[user.id] = found.group(1)
        return mine

    async def play(self, *, max_decisions: int = 600) -> Message:
        for _ in range(max_decisions):
            message = await self.table()
            if not message.table_controls:
                return message
            found = TURN.search(message.text)
            if found is None:
                continue  # the CPU plays
            user = self.users[int(found.group(1))]
            self.turns += 1
            mine = await self.my_dice(user)
            bid_on_table = "Annonce à battre" in mine.text
            if bid_on_table and self.turns % 3 == 0:
                lifted = await (await self.emulator.slash(user, self.channel, "soulever")).reply()
                assert not lifted.ephemeral and "Tous les dés" in lifted.text
            elif bid_on_table and self.turns % 3 == 1:
                dudo = next(b for b in message.buttons if (b.custom_id or "").endswith(":dudo"))
                await (await self.emulator.click(user, message, dudo)).response()
            elif self.turns % 4 == 2:
                select = mine.selects[0]
                quantity, face = select.values[0].split("_")
                said = await (
                    await self.emulator.slash(
                        user,
                        self.channel,
                        "menteur annoncer",
                        {"quantite": int(quantity), "valeur": int(face)},
                    )
                ).reply()
                # Answered privately, or with the table's new copy when a human is up next.
                assert "annonce" in said.text and (said.ephemeral or bool(said.embeds))
            else:
                select = mine.selects[0]
                await (await self.emulator.choose(user, mine, select.values[0], select)).response()
        raise AssertionError("the game did not end")


def assert_no_leak(emulator: DiscordEmulator, channel: Channel) -> None:
    """Only reveals show die faces in public."""
    for message in emulator.transcript.public(channel.id):
        if any(glyph in message.text for glyph in GLYPHS):
            assert "Tous les dés" in message.text, message.text


async def open_table(
    emulator: DiscordEmulator, channel: Channel, starter: User, others: list[User], **options: int
) -> None:
    started = await emulator.slash(starter, channel, "menteur start", options)
    assert not (await started.reply()).ephemeral
    for other in others:
        await (await emulator.slash(other, channel, "menteur rejoindre")).reply()
    await (await emulator.slash(starter, channel, "menteur commencer")).response()


async def test_two_humans_and_two_cpus_play_to_the_end_without_leaks(
    emulator: DiscordEmulator, bot: BotProcess
) -> None:
    alice, bob = emulator.user("alice"), emulator.user("bob")
    comptoir = emulator.channel("bar", "comptoir")
    await open_table(emulator, comptoir, alice, [bob], cpu=2, des=3)
    game = Game(emulator, comptoir, [alice, bob])
    end = await game.play()
    assert "Partie terminée" in end.text
    game.check_reveals()
    assert game.compared > 0
    assert emulator.transcript.containing("gagne la partie")
    assert emulator.transcript.containing("Tous les dés")
    assert emulator.transcript.containing("perd un dé")
    assert_no_leak(emulator, comptoir)
    board = await (
        await emulator.slash(alice, comptoir, "classement", {"jeu": "menteur", "critere": "games"})
    ).reply()
    assert f"<@{alice.id}>" in board.text and f"<@{bob.id}>" in board.text
    lost = await (
        await emulator.slash(
            alice, comptoir, "classement", {"jeu": "menteur", "critere": "dice_lost"}
        )
    ).reply()
    assert "dés perdus" in lost.text


async def test_refusals_name_the_smallest_raise_and_whose_turn_it_is(
    emulator: DiscordEmulator, bot: BotProcess
) -> None:
    alice, bob = emulator.user("alice"), emulator.user("bob")
    comptoir = emulator.channel("bar", "comptoir")
    await open_table(emulator, comptoir, alice, [bob])
    game = Game(emulator, comptoir, [alice, bob])
    message = await game.table()
    found = TURN.search(message.text)
    assert found
    first = game.users[int(found.group(1))]
    second = bob if first is alice else alice
    button = await (await emulator.click(first, message, label="Mes dés")).reply()
    assert button.ephemeral and button.audience == first.id and MINE.search(button.text)
    dave = emulator.user("dave")
    stranger = await (await emulator.click(dave, message, label="Mes dés")).reply()
    assert stranger.ephemeral and stranger.audience == dave.id
    assert not any(glyph in stranger.text for glyph in GLYPHS)
    nothing = await (await emulator.slash(first, comptoir, "soulever")).reply()
    assert nothing.ephemeral and "pas encore d'annonce" in nothing.text
    wrong = await (
        await emulator.slash(second, comptoir, "menteur annoncer", {"quantite": 2, "valeur": 3})
    ).reply()
    assert wrong.ephemeral and "pas ton tour" in wrong.text
    said = await (
        await emulator.slash(first, comptoir, "menteur annoncer", {"quantite": 3, "valeur": 4})
    ).reply()
    assert not said.ephemeral
    low = await (
        await emulator.slash(second, comptoir, "menteur annoncer", {"quantite": 2, "valeur": 5})
    ).reply()
    assert low.ephemeral and "sur les 5, il faut au moins trois 5 ;" in low.text
    huge = await (
        await emulator.slash(second, comptoir, "menteur annoncer", {"quantite": 30, "valeur": 5})
    ).reply()
    assert huge.ephemeral and "Annonce impossible" in huge.text
    assert_no_leak(emulator, comptoir)


async def test_the_tutorial_is_private_with_hints_and_never_on_the_leaderboard(
    emulator: DiscordEmulator, bot: BotProcess
) -> None:
    alice = emulator.user("alice")
    comptoir = emulator.channel("bar", "comptoir")
    message = await (await emulator.slash(alice, comptoir, "menteur tutoriel", {"cpu": 1})).reply()
    for turn in range(300):
        assert message.ephemeral and message.audience == alice.id
        if "Tutoriel terminé" in message.text or "gagné le tutoriel" in message.text:
            break
        assert "Un bon joueur" in message.text, message.text
        dudo = [b for b in message.buttons if (b.custom_id or "").endswith(":dudo")]
        if dudo and turn % 2:
            assert "vu tes dés et les annonces des autres" in message.text, message.text
            assert "Pourquoi :" in message.text, message.text
            handle = await emulator.click(alice, message, dudo[0])
        else:
            select = message.selects[0]
            handle = await emulator.choose(alice, message, select.values[0], select)
        message = await handle.reply()
    else:
        raise AssertionError("the tutorial did not end")
    assert not emulator.transcript.public(comptoir.id)
    board = await (
        await emulator.slash(alice, comptoir, "classement", {"jeu": "menteur", "critere": "games"})
    ).reply()
    assert f"<@{alice.id}>" not in board.text


async def test_a_killed_bot_comes_back_with_the_same_dice(
    emulator: DiscordEmulator, bot: BotProcess
) -> None:
    alice, bob = emulator.user("alice"), emulator.user("bob")
    comptoir = emulator.channel("bar", "comptoir")
    await open_table(emulator, comptoir, alice, [bob], cpu=1)
    game = Game(emulator, comptoir, [alice, bob])
    await game.table()
    before = MINE.search((await game.my_dice(alice)).text)
    assert before
    await bot.restart()
    await emulator.wait_message(comptoir, containing="de retour")
    after = MINE.search((await game.my_dice(alice)).text)
    assert after and after.group(1) == before.group(1)
    game.last = -1
    end = await game.play()
    assert "Partie terminée" in end.text
    game.check_reveals()
    assert_no_leak(emulator, comptoir)


@pytest.mark.bot_env(GOBELET_TURN_SECONDS="1")
async def test_an_absent_player_is_played_for_by_the_cpu(
    emulator: DiscordEmulator, bot: BotProcess
) -> None:
    alice = emulator.user("alice")
    comptoir = emulator.channel("bar", "comptoir")
    await open_table(emulator, comptoir, alice, [], cpu=1)
    said = await emulator.wait_message(comptoir, containing="n'a pas joué à temps")
    assert f"<@{alice.id}>" in said.text
    await emulator.wait_message(comptoir, containing="quitte la table", timeout=30)
    assert_no_leak(emulator, comptoir)


async def test_an_english_server_gets_english_texts(
    emulator: DiscordEmulator, bot: BotProcess
) -> None:
    carol = emulator.user("carol")
    general = emulator.channel("pub", "general")
    await open_table(emulator, general, carol, [], cpu=1)
    table = await emulator.wait_message(general, where=is_english_table)
    assert "dice in play" in table.text
    mine = await (await emulator.slash(carol, general, "menteur des")).reply()
    assert mine.ephemeral and "Your dice" in mine.text
    assert_no_leak(emulator, general)


def is_english_table(message: Message) -> bool:
    return bool(message.embeds) and "Liar's dice" in message.text and "👉" in message.text


async def test_a_player_who_leaves_mid_game_hands_the_win_to_the_last_one(
    emulator: DiscordEmulator, bot: BotProcess
) -> None:
    alice, bob = emulator.user("alice"), emulator.user("bob")
    comptoir = emulator.channel("bar", "comptoir")
    await open_table(emulator, comptoir, alice, [bob])
    game = Game(emulator, comptoir, [alice, bob])
    await game.table()
    left = await (await emulator.slash(alice, comptoir, "menteur quitter")).reply()
    assert not left.ephemeral and f"<@{alice.id}>" in left.text
    won = await emulator.wait_message(comptoir, containing="gagne la partie")
    assert f"<@{bob.id}>" in won.text
    # The channel is free again.
    again = await (await emulator.slash(bob, comptoir, "menteur start")).reply()
    assert not again.ephemeral


TUTORIAL_STEP = re.compile(r"^gobtuto:\d+:(\d+):")


def tutorial_step(message: Message) -> int:
    (step,) = {int(m.group(1)) for c in message.custom_ids if (m := TUTORIAL_STEP.match(c))}
    return step


async def test_a_tutorial_plays_on_after_a_restart_from_where_it_was(
    emulator: DiscordEmulator, bot: BotProcess
) -> None:
    alice = emulator.user("alice")
    comptoir = emulator.channel("bar", "comptoir")
    first = await (await emulator.slash(alice, comptoir, "menteur tutoriel")).reply()
    select = first.selects[0]
    moved = await (await emulator.choose(alice, first, [select.values[0]], select)).reply()
    assert moved.ephemeral and tutorial_step(moved) > tutorial_step(first)
    await bot.restart()
    # The menu from before the move is a turn already played; the latest one plays on.
    stale = await (await emulator.choose(alice, first, [select.values[0]], select)).reply()
    assert stale.ephemeral and stale.text.startswith("Trop tard")
    select = moved.selects[0]
    after = await (await emulator.choose(alice, moved, [select.values[0]], select)).reply()
    assert after.ephemeral and after.audience == alice.id
    assert "Un bon joueur" in after.text, after.text  # five dice each: far from over
    assert tutorial_step(after) > tutorial_step(moved)


async def test_a_member_has_a_tutorial_of_their_own_in_each_server(
    emulator: DiscordEmulator, bot: BotProcess
) -> None:
    alice = emulator.user("alice")
    comptoir, general = emulator.channel("bar", "comptoir"), emulator.channel("pub", "general")
    here = await (await emulator.slash(alice, comptoir, "menteur tutoriel")).reply()
    there = await (await emulator.slash(alice, general, "menteur tutoriel")).reply()
    select = here.selects[0]
    moved = await (await emulator.choose(alice, here, [select.values[0]], select)).reply()
    assert tutorial_step(moved) > tutorial_step(here)  # the one here goes on ...
    select = there.selects[0]
    other = await (await emulator.choose(alice, there, [select.values[0]], select)).reply()
    # ... and so does the one there, from its own first turn (not replaced by the other)
    assert other.ephemeral and not other.text.startswith(("Trop tard", "Too late"))
    assert tutorial_step(other) > tutorial_step(there)


async def test_a_tutorial_left_alone_for_an_hour_is_over(
    emulator: DiscordEmulator, bot: BotProcess
) -> None:
    alice = emulator.user("alice")
    comptoir = emulator.channel("bar", "comptoir")
    tutorial = await (await emulator.slash(alice, comptoir, "menteur tutoriel")).reply()
    assert tutorial.ephemeral and tutorial.selects
    await bot.kill()
    emulator.travel(3601)
    await bot.start()
    select = tutorial.selects[0]
    answer = await (await emulator.choose(alice, tutorial, [select.values[0]], select)).reply()
    assert answer.ephemeral and answer.audience == alice.id
    assert answer.text == "Ce tutoriel est terminé. Relance-le avec /menteur tutoriel."


@pytest.mark.bot_env(GOBELET_LOG_LEVEL="DEBUG")
async def test_interaction_tokens_stay_out_of_the_log_at_debug_level(
    emulator: DiscordEmulator, bot: BotProcess
) -> None:
    alice, bob = emulator.user("alice"), emulator.user("bob")
    comptoir = emulator.channel("bar", "comptoir")
    await open_table(emulator, comptoir, alice, [bob], cpu=1, des=3)
    mine = await (await emulator.slash(alice, comptoir, "menteur des")).reply()
    table = await emulator.wait_message(
        comptoir, where=lambda m: any(":dice" in c for c in m.custom_ids)
    )
    await (
        await emulator.click(bob, table, next(c for c in table.custom_ids if ":dice" in c))
    ).reply()
    await emulator.ping()
    log = bot.log()
    assert "WebSocket Event" in log  # discord.py logged the gateway payloads, at DEBUG
    tokens = [interaction.token for interaction in emulator.interactions]
    assert len(tokens) >= 5 and mine.text
    leaked = [token for token in tokens if token in log]
    assert leaked == []
    assert bot.env()["DISCORD_TOKEN"] not in log
