"""What survives the bot: games killed mid-round, server settings, statistics and their erasure,
and the paged leaderboard.

A restart here is a SIGKILL (the bot gets no chance to save or say anything), then a new
``python -m bot`` on the same SQLite file. Every check reads what people see (public lines,
table embeds, private panels); the database file is opened only to check that erased rows are
really gone.
"""

from __future__ import annotations

import json
import re
import time
from collections import Counter

import pytest

from tests.e2e.botprocess import BotProcess
from tests.e2e.emulator import DiscordEmulator, EmulatorError
from tests.e2e.maya_driver import (
    LIFE_LOST_LINE,
    REVEAL_LINE,
    MayaDriver,
    Turn,
    dice_in,
    lines_since,
    mark,
    rank,
    slash_unchecked,
    tallies,
    user_id_of,
    wait_line,
)
from tests.e2e.transcript import Message
from tests.e2e.world import Channel, User

pytestmark = pytest.mark.bot_env(GOBELET_DICE_SEED="7031")

BACK_FR = "🔁 La table est de retour après un redémarrage du bot. On reprend !"
BACK_EN = "🔁 The table is back after a bot restart. Let's go on!"
NO_DICE_FR = "Tu n'as pas de dés sous le gobelet en ce moment."
EMPTY_BOARD_FR = "Personne n'est encore classé ici. À vos gobelets !"
NEED_MANAGE_GUILD_FR = "Il faut la permission « Gérer le serveur » pour changer les réglages."
STAT_LINE = re.compile(r"^(.+?) : \*\*([\d.]+)\*\*$")
ROW = re.compile(r"^(🥇|🥈|🥉|`\s*(\d+)\.`) <@(\d+)> — \*\*([\d.]+)\*\*$")
MEDALS = {"🥇": 1, "🥈": 2, "🥉": 3}
TIMESTAMP = re.compile(r"<t:(\d+):R>")
# /stats labels (French server) of the Mia figures a public reveal line lets anyone count.
WINS, GAMES, LIVES_LOST = "victoires", "parties", "vies perdues"
DOUBTS_RIGHT, DOUBTS_WRONG, BLUFFS_CAUGHT = "doutes justes", "doutes ratés", "bluffs démasqués"


# --------------------------------------------------------------------------- helpers


class Game:
    """A Maya or Mia table in one channel, played through buttons and the private panels."""

    def __init__(self, emulator: DiscordEmulator, channel: Channel, people: list[User]) -> None:
        self.emulator = emulator
        self.channel = channel
        self.driver = MayaDriver(emulator, channel)
        self.people = people
        self.users = {user.id: user for user in people}

    @property
    def table(self) -> Message:
        assert self.driver.table is not None
        return self.driver.table

    async def open(self, lives: int | None) -> Turn:
        """The first person opens the table (``lives`` None: the server's default rules), the
        others join, and the first one starts."""
        starter, *others = self.people
        options = {} if lives is None else {"mode": "vies", "vies": lives}
        opened = await self.emulator.slash(starter, self.channel, "maya start", options)
        assert not (await opened.reply()).ephemeral
        await self.driver.find_table()
        for user in others:
            await self.driver.click(user, "join")
            await self.emulator.wait_for(
                lambda who=user: f"<@{who.id}>" in self.table.text, what=f"{user.name} seated"
            )
        await self.driver.click(starter, "start")
        return await self.driver.wait_turn()

    async def settle(self, after: int, phase: str) -> Turn:
        def ready() -> Turn | None:
            turn = self.driver.turn()
            return turn if turn.step > after and turn.phase == phase and turn.player else None

        return await self.emulator.wait_for(ready, what=f"the {phase} phase after step {after}")

    async def roll(self) -> tuple[User, Message, tuple[int, int, int]]:
        """The opener rolls: them, their private panel and the dice it shows."""
        turn = self.driver.turn()
        assert turn.phase == "open", turn
        user = self.users[turn.player]
        panel = await self.driver.click(user, "roll")
        assert panel is not None and panel.ephemeral and panel.audience == user.id
        (dice,) = dice_in(panel.text)
        await self.settle(turn.step, "announce")
        return user, panel, dice

    async def believe(self) -> tuple[User, Message, tuple[int, int, int]]:
        turn = self.driver.turn()
        assert turn.phase == "respond", turn
        user = self.users[turn.player]
        panel = await self.driver.click(user, "believe")
        assert panel is not None and panel.ephemeral and panel.audience == user.id
        (dice,) = dice_in(panel.text)
        await self.settle(turn.step, "announce")
        return user, panel, dice

    async def announce(self, user: User, panel: Message, value: str) -> Turn:
        step = self.driver.turn().step
        await self.driver.announce(user, panel, value)
        return await self.settle(step, "maya" if value == "21" else "respond")

    async def lift(self) -> Turn:
        turn = self.driver.turn()
        assert turn.phase in ("respond", "maya"), turn
        await self.driver.click(self.users[turn.player], "lift")
        return await self.driver.wait_turn(after=turn.step)

    async def play_to_the_end(self) -> Turn:
        """Openers announce what they rolled, or bluff 54 on a weak throw; a believer announces
        their dice when they beat the announcement, else the lowest value allowed; every
        other answer is a lift (and a Mia is always lifted)."""
        turn = self.driver.turn()
        for _ in range(60):
            if turn.phase == "over":
                return turn
            if turn.phase == "open":
                user, panel, (_, _, value) = await self.roll()
                said = str(value) if rank(value) >= rank(54) else "54"
                turn = await self.announce(user, panel, said)
            elif turn.phase == "respond" and turn.step % 3 == 1:
                user, panel, (_, _, value) = await self.believe()
                values = self.driver.menu_values(panel)
                turn = await self.announce(
                    user, panel, str(value) if str(value) in values else values[-1]
                )
            else:
                turn = await self.lift()
        raise AssertionError(f"no winner after 60 decisions: {self.table.text}")


async def private_answer(
    emulator: DiscordEmulator,
    user: User,
    channel: Channel,
    command: str,
    options: dict | None = None,
) -> Message:
    answer = await (await emulator.slash(user, channel, command, options or {})).reply()
    assert answer.ephemeral and answer.audience == user.id, answer
    return answer


async def my_dice(emulator: DiscordEmulator, user: User, channel: Channel) -> str:
    """What ``/maya des`` privately shows ``user``."""
    return (await private_answer(emulator, user, channel, "maya des")).text


def expected_figures(lines: list[str], players: list[int]) -> dict[int, dict[str, int]]:
    """The figures of one finished Mia game that its public lines prove."""
    labels = (WINS, LIVES_LOST, DOUBTS_RIGHT, DOUBTS_WRONG, BLUFFS_CAUGHT)
    figures = {player: Counter({GAMES: 1, **dict.fromkeys(labels, 0)}) for player in players}
    for line in lines:
        reveal = REVEAL_LINE.search(line)
        if reveal:
            lifter, announcer = user_id_of(reveal.group(1)), user_id_of(reveal.group(5))
            assert lifter is not None and announcer is not None, line
            if "**vrai**" in line:
                figures[lifter][DOUBTS_WRONG] += 1
            else:
                assert "**du bluff**" in line, line
                figures[lifter][DOUBTS_RIGHT] += 1
                figures[announcer][BLUFFS_CAUGHT] += 1
        lost = LIFE_LOST_LINE.match(line)
        if lost:
            loser = user_id_of(lost.group(1))
            assert loser is not None, line
            figures[loser][LIVES_LOST] += int(lost.group(2))
        won = re.match(r"^🏆 <@(\d+)> gagne la partie !$", line)
        if won:
            figures[int(won.group(1))][WINS] += 1
    return {player: dict(counts) for player, counts in figures.items()}


def shown_stats(message: Message, game: str = "Mia (vies)") -> dict[str, float]:
    """The figures ``/stats`` (or ``/donnees voir``) shows for one game."""
    for embed in message.embeds:
        for embed_field in embed.get("fields", []):
            if embed_field.get("name") == game:
                found = [STAT_LINE.match(line) for line in embed_field["value"].splitlines()]
                assert all(found), embed_field["value"]
                return {m.group(1): float(m.group(2)) for m in found if m}
    raise AssertionError(f"no {game!r} figures in {message.text!r}")


def leaderboard_rows(message: Message) -> list[tuple[int, int, str]]:
    """(rank, user id, value as shown) for each row of a ``/classement`` embed."""
    rows: list[tuple[int, int, str]] = []
    description = message.embeds[0].get("description") or ""
    if description == EMPTY_BOARD_FR:
        return rows
    for line in description.splitlines():
        found = ROW.match(line)
        assert found, f"not a leaderboard row: {line!r}"
        medal, number, user, value = found.groups()
        rows.append((MEDALS.get(medal) or int(number), int(user), value))
    return rows


def footer(message: Message) -> str:
    return (message.embeds[0].get("footer") or {}).get("text", "")


def games_naming(bot: BotProcess, guild_id: int, user_id: int) -> int:
    """The games of a server that keep ``user_id``'s display name."""
    rows = bot.query("SELECT meta_json FROM games WHERE guild_id = ?", guild_id)
    return sum(str(user_id) in json.loads(str(meta)).get("names", {}) for (meta,) in rows)


def database_rows(bot: BotProcess, table: str, guild_id: int, user_id: int) -> int:
    ((count,),) = bot.query(
        f"SELECT COUNT(*) FROM {table} WHERE guild_id = ? AND user_id = ?", guild_id, user_id
    )
    return int(str(count))


def messages_stored(bot: BotProcess, tables: int) -> bool:
    """Whether the bot stored the message id of each of its ``tables`` tables (a table's
    copy is posted first, then its id stored: a kill in between leaves a copy it never
    learnt of)."""
    rows = bot.query("SELECT messages_json FROM games")
    stored = [json.loads(str(messages)) if messages else {} for (messages,) in rows]
    return len(stored) == tables and all(messages.get("table") for messages in stored)


async def check_counted_once(
    emulator: DiscordEmulator, channel: Channel, people: list[User], since: int
) -> None:
    """``/classement jeu:mia critere:wins`` and ``/stats`` show exactly the game played in
    ``channel`` after ``since`` (its public lines say who lifted what and who lost lives)."""
    lines = lines_since(emulator, channel, since)
    figures = expected_figures(lines, [user.id for user in people])
    (winner,) = [player for player, counts in figures.items() if counts[WINS] == 1]
    first = people[0]
    board = await (
        await emulator.slash(first, channel, "classement", {"jeu": "mia", "critere": "wins"})
    ).reply()
    assert not board.ephemeral
    assert leaderboard_rows(board) == [(1, winner, "1")], board.text
    assert not board.buttons
    mine = "Ton rang : 1 (1) · " if first.id == winner else ""
    assert footer(board) == f"{mine}page 1/1"
    for user in people:
        shown = await (await emulator.slash(user, channel, "stats")).reply()
        assert not shown.ephemeral
        stats = shown_stats(shown)
        assert {label: stats[label] for label in figures[user.id]} == figures[user.id], (
            user.name,
            shown.text,
        )
        assert "Maya (soirée)" not in shown.text


# --------------------------------------------------------------------------- 1. restarts


async def test_a_mia_game_killed_after_an_announcement_goes_on_where_it_was(
    emulator: DiscordEmulator, bot: BotProcess
) -> None:
    alice, bob = emulator.user("alice"), emulator.user("bob")
    comptoir = emulator.channel("bar", "comptoir")
    game = Game(emulator, comptoir, [alice, bob])
    since = mark(emulator)
    await game.open(lives=2)
    announcer, panel, (first, second, value) = await game.roll()
    turn = await game.announce(announcer, panel, str(value))
    responder = game.users[turn.player]
    assert responder != announcer
    # The table came down for the responder's turn: once the copy above is gone, the new
    # one is the table's (stored before the old one goes).
    await emulator.wait_for(
        lambda: sum(bool(m.buttons) for m in emulator.transcript.public(comptoir.id)) == 1,
        what="one table message",
    )
    table_id, before = game.table.id, game.table.embeds
    dice_before = {user.id: await my_dice(emulator, user, comptoir) for user in (alice, bob)}
    assert dice_before == {alice.id: NO_DICE_FR, bob.id: NO_DICE_FR}  # the cup is closed

    killed = mark(emulator)
    assert await bot.kill() == -9
    await bot.start()

    await wait_line(emulator, comptoir, BACK_FR, since=killed)
    assert game.table.id == table_id and game.table.embeds == before
    assert {user.id: await my_dice(emulator, user, comptoir) for user in (alice, bob)} == (
        dice_before
    )
    assert game.driver.turn() == turn
    # The table's Soulever button, on the message posted before the kill, lifts the cup that
    # was rolled before it: the same dice, and a true announcement.
    lifted = mark(emulator)
    turn = await game.lift()
    line = await wait_line(emulator, comptoir, "soulève", since=lifted)
    assert line.startswith(f"🫣 <@{responder.id}> soulève : ")
    assert sorted(dice_in(line)[0][:2]) == sorted((first, second)), (line, panel.text)
    assert f"<@{announcer.id}> avait annoncé" in line and "**vrai**" in line
    lost = 2 if value == 21 else 1  # a true Mia lifted costs two lives
    told = f"💔 <@{responder.id}> perd {lost} {'vies' if lost > 1 else 'vie'} (reste {2 - lost})."
    await wait_line(emulator, comptoir, told, since=lifted)

    await game.play_to_the_end()
    await check_counted_once(emulator, comptoir, [alice, bob], since)


async def test_a_mia_game_killed_while_the_believer_holds_the_dice_goes_on_from_their_panel(
    emulator: DiscordEmulator, bot: BotProcess
) -> None:
    alice, bob = emulator.user("alice"), emulator.user("bob")
    terrasse = emulator.channel("bar", "terrasse")
    game = Game(emulator, terrasse, [bob, alice])
    since = mark(emulator)
    await game.open(lives=2)
    announcer, panel, (_, _, value) = await game.roll()
    await game.announce(
        announcer, panel, "65" if value == 21 else str(value)
    )  # a Mia: no believing
    believer, panel, (first, second, seen) = await game.believe()
    assert f"🤝 <@{believer.id}> croit <@{announcer.id}> et relance." in lines_since(
        emulator, terrasse, since
    )
    held = await my_dice(emulator, believer, terrasse)
    assert dice_in(held) == [(first, second, seen)] and held == panel.text
    turn, before = game.driver.turn(), game.table.embeds

    killed = mark(emulator)
    await bot.restart(hard=True)

    await wait_line(emulator, terrasse, BACK_FR, since=killed)
    assert game.table.embeds == before and game.driver.turn() == turn
    assert await my_dice(emulator, believer, terrasse) == held
    assert await my_dice(emulator, announcer, terrasse) == NO_DICE_FR
    # The announcement menu of the panel sent before the kill still works.
    values = game.driver.menu_values(panel)
    said = str(seen) if str(seen) in values else values[-1]
    announced = mark(emulator)
    await game.announce(believer, panel, said)
    await emulator.wait_for(lambda: panel.text.startswith("📣"), what="the panel's answer")
    line = await wait_line(emulator, terrasse, f"<@{believer.id}> annonce", since=announced)
    shown = "MAYA" if said == "21" else said
    assert f"**{shown}**" in line and f"<@{announcer.id}>" in line, line
    # The other player lifts: the dice are those the believer was shown before the kill.
    await game.lift()
    line = await wait_line(emulator, terrasse, "soulève", since=announced)
    assert sorted(dice_in(line)[0][:2]) == sorted((first, second)), line
    assert ("**vrai**" in line) == (rank(seen) >= rank(int(said))), line

    await game.play_to_the_end()
    await check_counted_once(emulator, terrasse, [bob, alice], since)


def copies_with_controls(emulator: DiscordEmulator, channel: Channel) -> list[int]:
    """The public messages of ``channel`` that carry a table's buttons or menus."""
    return [
        message.id
        for message in emulator.transcript.public(channel.id)
        if any(c.startswith(("gob:", "gobsel:")) for c in message.custom_ids)
    ]


async def test_a_table_copy_posted_just_before_a_kill_is_the_table_after_the_restart(
    emulator: DiscordEmulator, bot: BotProcess
) -> None:
    alice, bob = emulator.user("alice"), emulator.user("bob")
    comptoir = emulator.channel("bar", "comptoir")
    game = Game(emulator, comptoir, [alice, bob])
    await game.open(lives=2)
    announcer, panel, (_, _, value) = await game.roll()
    await emulator.wait_for(
        lambda: copies_with_controls(emulator, comptoir) == [game.table.id], what="one table"
    )
    old = game.table
    # The responder's turn brings the table down: Discord posts the new copy, and the bot is
    # killed before it learns the copy's id, so before it could store it.
    posted = emulator.hold_message("POST", comptoir, processed=True)
    await game.driver.announce(announcer, panel, str(value))
    await emulator.wait_for(lambda: posted.path, what="the new copy posted")
    new = emulator.transcript.public(comptoir.id)[-1]
    assert new.id != old.id and copies_with_controls(emulator, comptoir) == [old.id, new.id]

    killed = mark(emulator)
    assert await bot.kill() == -9
    await bot.start()

    await wait_line(emulator, comptoir, BACK_FR, since=killed)
    # The newest copy is the table the bot goes on with; the one above is gone, as it would
    # have been without the kill.
    await emulator.wait_for(
        lambda: copies_with_controls(emulator, comptoir) == [new.id], what="one table left"
    )
    assert BACK_FR in new.content and old.deleted
    assert game.table.id == new.id and game.driver.turn().player != announcer.id
    turn = await game.lift()
    await emulator.wait_for(
        lambda: copies_with_controls(emulator, comptoir) == [game.table.id], what="one table"
    )
    assert turn.phase in ("open", "over"), turn


async def test_a_reveal_on_a_copy_posted_just_before_a_kill_stays_in_the_channel(
    emulator: DiscordEmulator, bot: BotProcess
) -> None:
    alice, bob = emulator.user("alice"), emulator.user("bob")
    comptoir = emulator.channel("bar", "comptoir")
    game = Game(emulator, comptoir, [alice, bob])
    await game.open(lives=3)
    announcer, panel, (_, _, value) = await game.roll()
    bluffs = [v for v in game.driver.menu_values(panel) if v.isdigit() and v != "21"]
    bluff = next(v for v in reversed(bluffs) if rank(int(v)) > rank(value))
    turn = await game.announce(announcer, panel, bluff)
    lifter = game.users[turn.player]
    # The bluff is caught: the reveal heads a new copy, posted for the announcer's turn to
    # open the next round, and the bot is killed before it learns that copy's id.
    posted = emulator.hold_message("POST", comptoir, processed=True)
    await game.driver.click(lifter, "lift")
    await emulator.wait_for(lambda: posted.path, what="the new copy posted")
    new = emulator.transcript.public(comptoir.id)[-1]
    *told, whose_turn = new.content.split("\n")
    assert told[0].startswith(f"🫣 <@{lifter.id}> soulève"), told
    assert whose_turn == f"🔔 À toi de jouer, <@{announcer.id}> !"

    killed = mark(emulator)
    assert await bot.kill() == -9
    await bot.start()

    await wait_line(emulator, comptoir, BACK_FR, since=killed)
    await emulator.wait_for(
        lambda: copies_with_controls(emulator, comptoir) == [new.id], what="one table left"
    )
    assert new.content.split("\n") == [*told, BACK_FR, whose_turn]
    # The next human turn brings the table down: the copy keeps its reveal, as any does.
    opener, panel, (_, _, value) = await game.roll()
    assert opener == announcer
    await game.announce(opener, panel, str(value))
    await emulator.wait_for(lambda: not new.custom_ids, what="the copy moved out of the way")
    assert not new.deleted and new.content.split("\n") == told and not new.embeds
    assert copies_with_controls(emulator, comptoir) == [game.table.id]


async def test_a_copy_a_kill_kept_from_being_moved_away_loses_its_controls_after_it(
    emulator: DiscordEmulator, bot: BotProcess
) -> None:
    alice, bob = emulator.user("alice"), emulator.user("bob")
    comptoir = emulator.channel("bar", "comptoir")
    game = Game(emulator, comptoir, [alice, bob])
    await game.open(lives=2)
    announcer, panel, (_, _, value) = await game.roll()
    await emulator.wait_for(
        lambda: copies_with_controls(emulator, comptoir) == [game.table.id], what="one table"
    )
    old = game.table
    # The new copy is posted and its id stored; the bot is killed as it deletes the old one.
    deleting = emulator.hold_message("DELETE", comptoir, old.id)
    await game.driver.announce(announcer, panel, str(value))
    await emulator.wait_for(lambda: deleting.path, what="the old copy being deleted")
    new = game.table
    assert new.id != old.id and copies_with_controls(emulator, comptoir) == [old.id, new.id]

    killed = mark(emulator)
    assert await bot.kill() == -9
    await bot.start()

    await wait_line(emulator, comptoir, BACK_FR, since=killed)
    await emulator.wait_for(
        lambda: copies_with_controls(emulator, comptoir) == [new.id], what="one table left"
    )
    assert BACK_FR in new.content and not old.embeds
    assert "À toi de jouer" not in old.content, old.content


@pytest.mark.parametrize("command", ["maya start", "menteur start", "yades start"])
async def test_a_lobby_whose_first_message_a_kill_hid_from_the_bot_is_its_lobby_after_it(
    emulator: DiscordEmulator, bot: BotProcess, command: str
) -> None:
    alice, bob = emulator.user("alice"), emulator.user("bob")
    comptoir = emulator.channel("bar", "comptoir")
    # The lobby is stored, then posted as the command's answer; the bot is killed before it
    # learns that answer's id.
    answered = emulator.hold("POST", "/callback", processed=True)
    await emulator.slash(alice, comptoir, command)
    await emulator.wait_for(lambda: answered.path, what="the lobby posted")
    [lobby] = emulator.transcript.public(comptoir.id)

    killed = mark(emulator)
    assert await bot.kill() == -9
    await bot.start()

    await wait_line(emulator, comptoir, BACK_FR, since=killed)
    await emulator.wait_for(
        lambda: copies_with_controls(emulator, comptoir) == [lobby.id], what="one lobby"
    )
    assert BACK_FR in lobby.content
    await (await emulator.click(bob, lobby, label="Rejoindre")).response()
    await emulator.wait_for(lambda: f"<@{bob.id}>" in lobby.text, what="bob seated")
    assert copies_with_controls(emulator, comptoir) == [lobby.id]


async def test_lobbies_of_every_game_come_back_from_a_restart_without_an_error(
    emulator: DiscordEmulator, bot: BotProcess
) -> None:
    lobbies = [
        (emulator.channel("bar", "comptoir"), "maya start", {}, BACK_FR),
        (emulator.channel("bar", "terrasse"), "maya start", {"mode": "vies"}, BACK_FR),
        (emulator.channel("pub", "general"), "menteur start", {}, BACK_EN),
        (emulator.channel("pub", "games"), "yades start", {}, BACK_EN),
    ]
    for channel, command, options, _ in lobbies:
        opened = await (await emulator.slash("alice", channel, command, options)).reply()
        assert not opened.ephemeral
    await emulator.wait_for(lambda: messages_stored(bot, len(lobbies)), what="the lobbies stored")

    killed = mark(emulator)
    await bot.restart(hard=True)

    for channel, _, _, back in lobbies:
        await wait_line(emulator, channel, back, since=killed)
    # A lobby has no game yet, hence no story to tell: nothing went wrong to log.
    restarted = bot.log().split("----- bot run 2 -----")[1]
    assert " ERROR " not in restarted and "Traceback" not in restarted, restarted[-4000:]


async def test_a_faute_vote_interrupted_by_a_kill_is_finished_after_the_restart(
    emulator: DiscordEmulator, bot: BotProcess
) -> None:
    alice, bob, patron = (emulator.user(name) for name in ("alice", "bob", "patron"))
    comptoir = emulator.channel("bar", "comptoir")
    game = Game(emulator, comptoir, [alice, bob, patron])
    await game.open(lives=None)  # the party preset: sips, glasses and fautes
    assert tallies(game.table) == {alice.id: (0, 0), bob.id: (0, 0), patron.id: (0, 0)}
    opener, panel, (first, second, value) = await game.roll()
    accuser, voter = (user for user in game.people if user != opener)

    since = mark(emulator)
    accused = await emulator.slash(
        accuser, comptoir, "faute", {"joueur": opener, "motif": "a regardé sous le gobelet"}
    )
    accusation = await accused.reply()
    assert not accusation.ephemeral and sorted(b.label for b in accusation.buttons) == [
        "Accepter",
        "Contester",
    ]
    await (await emulator.click(opener, accusation, label="Contester")).response()
    await wait_line(emulator, comptoir, f"⚖️ <@{opener.id}> conteste !", since=since)
    await emulator.wait_for(
        lambda: accusation.reacted("✅") and accusation.reacted("❌"), what="the vote reactions"
    )
    voted = await emulator.react(accuser, accusation, "✅")
    assert voted.delivered
    await voted.reply(comptoir.id)  # the table message is refreshed once the vote is stored
    held = await my_dice(emulator, opener, comptoir)
    assert dice_in(held) == [(first, second, value)]
    turn, before = game.driver.turn(), game.table.embeds

    killed = mark(emulator)
    await bot.restart(hard=True)

    await wait_line(emulator, comptoir, BACK_FR, since=killed)
    assert game.table.embeds == before and game.driver.turn() == turn
    assert await my_dice(emulator, opener, comptoir) == held
    # The vote cast before the kill still counts: the second vote closes it, 2 to 0.
    await emulator.react(voter, accusation, "✅")
    verdict = await wait_line(emulator, comptoir, "Verdict", since=killed)
    assert (
        verdict
        == f"⚖️ Verdict : <@{opener.id}> est **coupable** (✅ coupable : 2, ❌ innocent : 0)."
    )
    await wait_line(emulator, comptoir, f"🍺 <@{opener.id}> prend 1 gorgée.", since=killed)
    expected = {alice.id: (0, 0), bob.id: (0, 0), patron.id: (0, 0)}
    expected[opener.id] = (1, 0)
    await emulator.wait_for(lambda: tallies(game.table) == expected, what="the faute's sip")
    # The accusation's button, on a message posted before the kill, still answers.
    await emulator.wait_for(
        lambda: [b.label for b in accusation.buttons] == ["Faire appel"], what="the appeal"
    )
    await (await emulator.click(opener, accusation, label="Faire appel")).response()
    await wait_line(emulator, comptoir, f"⚖️ <@{opener.id}> fait appel…", since=killed)

    # The round goes on: the opener announces from the panel sent before the kill, and the
    # lift shows the dice rolled before it.
    turn = await game.announce(opener, panel, str(value))
    lifter = game.users[turn.player]
    lifted = mark(emulator)
    await game.lift()
    line = await wait_line(emulator, comptoir, "soulève", since=lifted)
    assert sorted(dice_in(line)[0][:2]) == sorted((first, second)) and "**vrai**" in line, line
    sips, glasses = expected[lifter.id]
    expected[lifter.id] = (sips, glasses + 1) if value == 21 else (sips + 1, glasses)
    await emulator.wait_for(lambda: tallies(game.table) == expected, what="the lifter's penalty")


@pytest.mark.bot_env(GOBELET_DICE_SEED="7031", GOBELET_TURN_SECONDS="600")
async def test_a_faute_vote_closes_at_its_time_whatever_the_restarts_meanwhile(
    emulator: DiscordEmulator, bot: BotProcess
) -> None:
    alice, bob, patron = (emulator.user(name) for name in ("alice", "bob", "patron"))
    comptoir = emulator.channel("bar", "comptoir")
    game = Game(emulator, comptoir, [alice, bob, patron])
    await game.open(lives=None)
    opener, _, _ = await game.roll()
    accuser = next(user for user in game.people if user != opener)
    accusation = await (
        await emulator.slash(accuser, comptoir, "faute", {"joueur": opener, "motif": "triche"})
    ).reply()
    await (await emulator.click(opener, accusation, label="Contester")).response()
    await emulator.wait_for(
        lambda: accusation.reacted("✅") and accusation.reacted("❌"), what="the vote reactions"
    )
    (closes,) = TIMESTAMP.findall(accusation.text)
    voted = await emulator.react(accuser, accusation, "✅")
    await voted.reply(comptoir.id)

    # Down for half the vote: back, the vote still closes when it said it would.
    await bot.kill()
    emulator.travel(30)
    edits = len(accusation.history)
    back = mark(emulator)
    await bot.start()
    await wait_line(emulator, comptoir, BACK_FR, since=back)
    await emulator.wait_for(lambda: len(accusation.history) > edits, what="the vote redrawn")
    assert TIMESTAMP.findall(accusation.text) == [closes], accusation.text
    assert "Verdict" not in "\n".join(lines_since(emulator, comptoir, back))

    # Down past the vote's close: it is closed as soon as the bot is back, on the vote cast.
    await bot.kill()
    emulator.travel(31)
    back = mark(emulator)
    await bot.start()
    verdict = await wait_line(emulator, comptoir, "Verdict", since=back)
    assert (
        verdict
        == f"⚖️ Verdict : <@{opener.id}> est **coupable** (✅ coupable : 1, ❌ innocent : 0)."
    )


# --------------------------------------------------------------------------- 2. settings


async def test_settings_are_for_managers_survive_a_restart_and_shape_new_tables(
    emulator: DiscordEmulator, bot: BotProcess
) -> None:
    alice, bob, carol = emulator.user("alice"), emulator.user("bob"), emulator.user("carol")
    comptoir = emulator.channel("bar", "comptoir")
    changes = [
        ("reglages minuteur", {"secondes": 45}),
        ("reglages langue", {"langue": "en"}),
        ("reglages maya", {"mode": "vies", "vies": 2}),
        ("reglages menteur", {"calza": True, "des": 4}),
    ]
    defaults = (
        "⚙️ **Server settings**\n⏱️ Turn timer: default\n"
        "🌐 Language of public messages: the server's\n"
        "🏁 Seasons: 1 month; podium not announced (pick a channel with /settings season "
        "channel:)\n🧵 Tables: in the channel (/settings threads to open them in a thread)\n"
        "🏆 Tournaments: organized by those who manage the server (/settings tournaments for a"
        " role)\n"
        "🍺 Forfeit (party): sip\n"
        "🎲 Maya: mode soiree; options: —\n🎲 Yadès: yades sheet; boxes removed: —; added: —\n"
        "🎲 Liar's dice: 5 dice, ones wild"
    )
    for command, options in changes:
        # Discord's client does not even offer the command to alice (no Manage Server) …
        with pytest.raises(EmulatorError, match="hides /reglages"):
            await emulator.slash(alice, comptoir, command, options)
        # … and when it reaches the bot anyway (a server that opened it to everyone in its
        # integration settings), the bot refuses, privately.
        refused = await (await slash_unchecked(emulator, alice, comptoir, command, options)).reply()
        assert refused.ephemeral and refused.audience == alice.id
        assert refused.text == NEED_MANAGE_GUILD_FR
    assert (await private_answer(emulator, carol, comptoir, "reglages voir")).text == defaults

    for command, options in changes:
        saved = await private_answer(emulator, carol, comptoir, command, options)
        assert saved.text.startswith("✅ Settings saved (they apply to new tables).")
    await bot.restart(hard=True)
    shown = await private_answer(emulator, carol, comptoir, "reglages voir")
    assert shown.text == (
        "⚙️ **Server settings**\n⏱️ Turn timer: 45 s\n🌐 Language of public messages: en\n"
        "🏁 Seasons: 1 month; podium not announced (pick a channel with /settings season "
        "channel:)\n🧵 Tables: in the channel (/settings threads to open them in a thread)\n"
        "🏆 Tournaments: organized by those who manage the server (/settings tournaments for a"
        " role)\n"
        "🍺 Forfeit (party): sip\n🎲 Maya: mode vies; options: vies=2\n"
        "🎲 Yadès: yades sheet; boxes removed: —; added: —\n"
        "🎲 Liar's dice: 4 dice, ones wild · Calza"
    )

    # A table opened without options follows them: Mia with 2 lives, English public lines in
    # the French server, 45 seconds a turn; private texts stay in each person's language.
    since = mark(emulator)
    opened = await (await emulator.slash(alice, comptoir, "maya start")).reply()
    assert opened.content == f"🎲 <@{alice.id}> opens a Mia table (2 lives)."
    game = Game(emulator, comptoir, [alice, bob])
    await game.driver.find_table()
    await game.driver.click(bob, "join")
    await emulator.wait_for(lambda: f"<@{bob.id}>" in game.table.text, what="bob seated")
    await game.driver.click(alice, "start")
    turn = await game.driver.wait_turn()
    told = lines_since(emulator, comptoir, since)
    assert any(line.startswith("🎲 The game starts! Order of play: ") for line in told), told
    assert game.table.embeds[0]["title"] == "🎲 Mia — 2 lives"
    seats = game.table.embeds[0]["fields"][0]
    assert seats["name"].startswith("Players ") and seats["value"].count("❤️") == 4, seats
    (deadline,) = TIMESTAMP.findall(game.table.text)
    assert 40 <= int(deadline) - time.time() <= 46, game.table.text
    opener = game.users[turn.player]
    panel = await game.driver.click(opener, "roll")
    assert panel is not None and panel.text.startswith("🎲 Tes dés : ")  # alice and bob: fr


# --------------------------------------------------------------------------- 3. /donnees


async def test_erasing_my_data_asks_first_then_removes_every_row(
    emulator: DiscordEmulator, bot: BotProcess
) -> None:
    alice, bob = emulator.user("alice"), emulator.user("bob")
    comptoir = emulator.channel("bar", "comptoir")
    guild = emulator.guild("bar")
    game = Game(emulator, comptoir, [alice, bob])
    await game.open(lives=1)
    await game.play_to_the_end()

    stats = await (await emulator.slash(alice, comptoir, "stats")).reply()
    assert shown_stats(stats)[GAMES] == 1
    mine = await private_answer(emulator, alice, comptoir, "donnees voir")
    assert mine.text.startswith("Voici ce que Gobelet garde de toi sur ce serveur")
    assert shown_stats(mine)[GAMES] == 1
    figures = database_rows(bot, "stat_values", guild.id, alice.id)
    ratings = database_rows(bot, "ratings", guild.id, alice.id)
    named = games_naming(bot, guild.id, alice.id)
    history = database_rows(bot, "rating_history", guild.id, alice.id)  # the game's point
    shown_name = database_rows(bot, "player_names", guild.id, alice.id)  # for the web page
    assert figures > 0 and ratings == 1 and named == 1 and history == 1 and shown_name == 1
    # Her achievements and streaks (the run of lifts right she has going, if she lifted).
    held = sum(
        database_rows(bot, kept, guild.id, alice.id)
        for kept in ("achievements", "achievement_runs")
    )

    asked = await private_answer(emulator, alice, comptoir, "donnees effacer")
    assert asked.text == (
        "Effacer toutes tes statistiques, tes succès, ton classement et ton nom gardé sur ce"
        " serveur ? C'est définitif."
    )
    assert [b.label for b in asked.buttons] == ["Oui, tout effacer"]
    # Asking erases nothing.
    assert database_rows(bot, "stat_values", guild.id, alice.id) == figures
    await (await emulator.click(alice, asked, label="Oui, tout effacer")).response()
    await emulator.wait_for(lambda: not asked.buttons, what="the confirmation answered")
    erased = figures + ratings + history + shown_name + held + named
    assert asked.text == f"🗑️ C'est fait : {erased} lignes effacées."
    assert games_naming(bot, guild.id, alice.id) == 0
    for kept in ("achievements", "achievement_runs"):
        assert database_rows(bot, kept, guild.id, alice.id) == 0
    assert games_naming(bot, guild.id, bob.id) == 1

    stats = await (await emulator.slash(alice, comptoir, "stats")).reply()
    assert stats.text == (
        f"📊 Statistiques de <@{alice.id}> sur ce serveur\nAucune partie comptée pour l'instant."
    )
    # bob's figures stay, and only his are listed.
    bobs = shown_stats(await (await emulator.slash(bob, comptoir, "stats")).reply())
    assert bobs[GAMES] == 1 and bobs[LIVES_LOST] + bobs[WINS] == 1
    for metric, label in (("games", GAMES), ("wins", WINS), ("lives_lost", LIVES_LOST)):
        board = await (
            await emulator.slash(alice, comptoir, "classement", {"jeu": "mia", "critere": metric})
        ).reply()
        listed = [user for _, user, _ in leaderboard_rows(board)]
        assert listed == ([bob.id] if bobs[label] else []), (metric, board.text)
        assert "Ton rang" not in footer(board), board.text
    assert database_rows(bot, "stat_values", guild.id, alice.id) == 0
    assert database_rows(bot, "ratings", guild.id, alice.id) == 0
    assert database_rows(bot, "ratings", guild.id, bob.id) == 1
    assert database_rows(bot, "rating_history", guild.id, alice.id) == 0
    assert database_rows(bot, "rating_history", guild.id, bob.id) == 1
    assert database_rows(bot, "player_names", guild.id, alice.id) == 0
    assert database_rows(bot, "player_names", guild.id, bob.id) == 1


async def test_an_erasure_asked_before_a_restart_can_be_confirmed_after_it(
    emulator: DiscordEmulator, bot: BotProcess
) -> None:
    alice = emulator.user("alice")
    comptoir = emulator.channel("bar", "comptoir")
    asked = await private_answer(emulator, alice, comptoir, "donnees effacer")
    await bot.restart()
    await (await emulator.click(alice, asked, label="Oui, tout effacer")).response()
    await emulator.wait_for(lambda: not asked.buttons, what="the confirmation answered")
    assert asked.text.startswith("🗑️ C'est fait"), asked.text


async def test_an_erasure_not_confirmed_within_five_minutes_erases_nothing(
    emulator: DiscordEmulator, bot: BotProcess
) -> None:
    alice = emulator.user("alice")
    comptoir = emulator.channel("bar", "comptoir")
    asked = await private_answer(emulator, alice, comptoir, "donnees effacer")
    await bot.kill()
    emulator.travel(301)  # the bot was down past the confirmation's window
    await bot.start()
    await (await emulator.click(alice, asked, label="Oui, tout effacer")).response()
    await emulator.wait_for(lambda: not asked.buttons, what="the refusal")
    assert asked.text == (
        "⌛ Cette demande a expiré : rien n'a été effacé. Relance /donnees effacer pour recommencer."
    )


# --------------------------------------------------------------------------- 4. /classement


def mia_places(lines: list[str]) -> list[int]:
    """A finished Mia game's players, best first: the winner, then the last one out, …"""
    out = [int(found) for found in re.findall(r"^☠️ <@(\d+)> ", "\n".join(lines), re.M)]
    (winner,) = re.findall(r"^🏆 <@(\d+)> gagne la partie !$", "\n".join(lines), re.M)
    return [int(winner), *reversed(out)]


def shown_rating(places: list[int]) -> dict[int, float]:
    """Everyone at 1000 before the game: each duel with another player is won by the better
    placed (K = 32), and a player's change is the average over their duels."""
    duels = len(places) - 1
    return {player: 1000 + 16 * (duels - 2 * place) / duels for place, player in enumerate(places)}


def number(value: float) -> str:
    return f"{value:.0f}" if float(value).is_integer() else f"{value:.1f}"


async def test_the_leaderboard_pages_ten_by_ten_and_shows_my_rank(
    emulator: DiscordEmulator, bot: BotProcess
) -> None:
    world = emulator.world
    for number_ in range(1, 8):
        world.add_user(f"client{number_}")
        world.join("bar", f"client{number_}")
    regulars = [emulator.user(name) for name in ("patron", "alice", "bob", "carol", "dave")]
    clients = [emulator.user(f"client{n}") for n in range(1, 8)]
    comptoir, terrasse = emulator.channel("bar", "comptoir"), emulator.channel("bar", "terrasse")

    ratings: dict[int, float] = {}
    for channel, people in ((comptoir, regulars + clients[:5]), (terrasse, clients[5:])):
        since = mark(emulator)
        game = Game(emulator, channel, people)
        await game.open(lives=1)
        assert (await game.play_to_the_end()).phase == "over"
        ratings.update(shown_rating(mia_places(lines_since(emulator, channel, since))))
    assert len(ratings) == 12
    board_order = sorted(ratings, key=lambda user: (-ratings[user], user))
    expected = [
        (1 + sum(ratings[other] > ratings[user] for other in ratings), user, number(ratings[user]))
        for user in board_order
    ]
    last = board_order[-1]  # on the second page

    shown = await (
        await emulator.slash(last, comptoir, "classement", {"jeu": "mia", "critere": "rating"})
    ).reply()
    assert not shown.ephemeral
    assert shown.embeds[0]["title"] == "🏆 Mia (vies) — classement Elo (depuis toujours)"
    assert leaderboard_rows(shown) == expected[:10]
    mine = f"Ton rang : {expected[-1][0]} ({expected[-1][2]})"
    assert footer(shown) == f"{mine} · page 1/2"
    assert [(b.label, b.disabled) for b in shown.buttons] == [("◀", True), ("▶", False)]

    await (await emulator.click(last, shown, label="▶")).response()
    await emulator.wait_for(lambda: "page 2/2" in footer(shown), what="the second page")
    assert leaderboard_rows(shown) == expected[10:]
    assert footer(shown) == f"{mine} · page 2/2"
    assert [(b.label, b.disabled) for b in shown.buttons] == [("◀", False), ("▶", True)]

    # Whoever pages sees their own rank in the footer.
    best = board_order[0]
    await (await emulator.click(best, shown, label="◀")).response()
    await emulator.wait_for(lambda: "page 1/2" in footer(shown), what="the first page again")
    assert leaderboard_rows(shown) == expected[:10]
    assert footer(shown) == f"Ton rang : 1 ({expected[0][2]}) · page 1/2"


async def test_stats_and_the_leaderboard_speak_the_language_the_server_chose(
    emulator: DiscordEmulator, bot: BotProcess
) -> None:
    comptoir = emulator.channel("bar", "comptoir")  # a French server
    await (await emulator.slash("carol", comptoir, "reglages langue", {"langue": "en"})).reply()
    stats = await (await emulator.slash("alice", comptoir, "stats")).reply()
    assert not stats.ephemeral and "statistics" in stats.text.lower(), stats.text
    board = await (await emulator.slash("alice", comptoir, "classement")).reply()
    assert not board.ephemeral and "Maya (party) — sips drunk (all time)" in board.text
