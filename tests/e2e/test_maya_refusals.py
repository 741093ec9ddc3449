"""Maya refusals, end to end: every one private to the user, clear, and in their language.

docs/rules.md#every-game: one game per channel; the starter (or Manage Server) stops it; only the
player whose turn it is acts, anyone else gets a private refusal naming whose turn it is.
carol's client is en-US: her refusals are in English; the others' in French.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable

import pytest

from tests.e2e.botprocess import BotProcess
from tests.e2e.emulator import DiscordEmulator
from tests.e2e.handles import InjectedInteraction
from tests.e2e.maya_driver import (
    ORDER,
    MayaDriver,
    Turn,
    announcement_shown,
    dice_in,
    lines_since,
    mark,
    public_since,
    rank,
    slash_unchecked,
    table_id_of,
)
from tests.e2e.transcript import Message
from tests.e2e.world import Channel, User

pytestmark = pytest.mark.bot_env(GOBELET_DICE_SEED="4242")

VALUES_HINT_FR = (
    "Valeurs : 31 … 65, les doubles 11 … 66 (« double 1 » … « double 6 »), et 21 (le Maya, ou Mia)."
)
VALUES_HINT_EN = (
    "Values: 31 … 65, the doubles 11 … 66 (“double 1” … “double 6”), and 21 (the Maya, or Mia)."
)


def said(value: int) -> str:
    """A value as the players say it at a soirée: 53, double 3, MAYA (21)."""
    if value == 21:
        return "MAYA (21)"
    return f"double {value // 11}" if value % 11 == 0 else str(value)


async def refused(interaction: InjectedInteraction) -> Message:
    """The bot's answer, which must be a private message to the one who acted."""
    reply = await interaction.reply()
    assert reply.ephemeral, f"a refusal must be private: {reply.text!r}"
    assert reply.audience == interaction.user.id
    return reply


def no_traceback(bot: BotProcess) -> None:
    log = bot.log()
    assert "Traceback" not in log and "interaction failed" not in log, log[-4000:]


async def open_game(
    emulator: DiscordEmulator,
    channel: Channel,
    starter: User,
    others: list[User],
    options: dict[str, object] | None = None,
) -> MayaDriver:
    """``starter`` opens a table, ``others`` join with the button, the game starts."""
    driver = MayaDriver(emulator, channel)
    started = await emulator.slash(starter, channel, "maya start", options or {})
    assert not (await started.reply()).ephemeral
    await driver.find_table()
    for user in others:
        await driver.click(user, "join")
        await emulator.wait_for(
            lambda who=user: f"<@{who.id}>" in (driver.table.text if driver.table else ""),
            what=f"{user.name} at the table",
        )
    await driver.click(starter, "start")
    await driver.wait_turn()
    return driver


def announced_value(driver: MayaDriver) -> int:
    assert driver.table is not None
    shown = announcement_shown(driver.table)
    assert shown is not None, driver.table.text
    value = shown.split("**")[1]
    if value.startswith("double "):
        return 11 * int(value.removeprefix("double "))
    return 21 if "MAYA" in value else int(value)


async def advance_until(
    driver: MayaDriver, users: dict[int, User], done: Callable[[Turn], bool], limit: int = 40
) -> Turn:
    """Play plain, lowest-value turns until ``done(turn)``."""
    turn = await driver.wait_turn()
    for _ in range(limit):
        if turn.phase == "announce":  # the holder's choice is on its way
            turn = await driver.wait_turn(after=turn.step)
            continue
        if done(turn):
            return turn
        assert turn.player is not None, turn
        user = users[turn.player]
        if turn.phase == "open":
            panel = await driver.click(user, "roll")
            assert panel is not None
            await driver.announce(user, panel, driver.menu_values(panel)[-1])
        elif turn.phase == "respond" and rank(announced_value(driver)) < rank(66):
            panel = await driver.click(user, "believe")
            assert panel is not None
            await driver.announce(user, panel, driver.menu_values(panel)[-1])
        elif turn.phase == "respond":
            await driver.click(user, "lift")
        else:
            await driver.click(user, "fragile")
        turn = await driver.wait_turn(after=turn.step)
    raise AssertionError(f"no such turn in {limit} moves; last: {turn}")


# --------------------------------------------------------------------------- out of turn


async def test_acting_out_of_turn_is_refused_privately_naming_whose_turn_it_is(
    emulator: DiscordEmulator, bot: BotProcess
) -> None:
    alice, bob, carol = emulator.user("alice"), emulator.user("bob"), emulator.user("carol")
    comptoir = emulator.channel("bar", "comptoir")
    users = {u.id: u for u in (alice, bob, carol)}
    driver = await open_game(emulator, comptoir, alice, [bob, carol])
    # A turn that is neither carol's nor everybody's: someone French and carol both wait.
    turn = await advance_until(driver, users, lambda t: t.player != carol.id)
    current = turn.player
    french = next(u for u in (alice, bob) if u.id != current)
    action = "roll" if turn.phase == "open" else "lift"
    before = mark(emulator)

    for who, expected in (
        (french, f"Ce n'est pas ton tour : c'est à <@{current}> de jouer."),
        (carol, f"It is not your turn: <@{current}> is to play."),
    ):
        custom_id = next(c for c in driver.table.custom_ids if c.endswith(f":{action}"))
        answer = await refused(await emulator.click(who, driver.table, custom_id))
        assert answer.text == expected

    # The same through the slash commands.
    for command in ("soulever", "croire"):
        answer = await refused(await emulator.slash(french, comptoir, command))
        assert answer.text == f"Ce n'est pas ton tour : c'est à <@{current}> de jouer."
    answer = await refused(await emulator.slash(carol, comptoir, "maya lancer"))
    assert answer.text == f"It is not your turn: <@{current}> is to play."

    # Spectators (not at the table) are told too, and whose turn it is.
    custom_id = next(c for c in driver.table.custom_ids if c.endswith(f":{action}"))
    for who, expected in (
        ("patron", f"Tu ne joues pas à cette table : c'est à <@{current}> de jouer."),
        ("dave", f"You are not playing at this table: <@{current}> is to play."),
    ):
        answer = await refused(await emulator.click(who, driver.table, custom_id))
        assert answer.text == expected

    # Only players can be accused of a foul; the accuser is told who is not playing.
    dave = emulator.user("dave")
    accusation = {"joueur": dave, "motif": "regarde par-dessus l'épaule"}
    answer = await refused(await emulator.slash(french, comptoir, "faute", accusation))
    assert (
        answer.text
        == f"<@{dave.id}> ne joue pas à cette table : seuls les joueurs peuvent être accusés."
    )
    answer = await refused(await emulator.slash(carol, comptoir, "faute", accusation))
    assert answer.text == f"<@{dave.id}> is not playing at this table: only players can be accused."

    assert driver.turn() == turn, "a refused action must not change the table"
    assert public_since(emulator, comptoir, before) == []
    no_traceback(bot)


# --------------------------------------------------------------------------- /maya annoncer


async def test_an_illegal_announcement_says_the_minimum_or_the_valid_values(
    emulator: DiscordEmulator, bot: BotProcess
) -> None:
    alice, bob, carol = emulator.user("alice"), emulator.user("bob"), emulator.user("carol")
    comptoir = emulator.channel("bar", "comptoir")
    users = {u.id: u for u in (alice, bob, carol)}
    driver = await open_game(emulator, comptoir, alice, [bob, carol])

    # A French player holding the cup after someone announced.
    turn = await advance_until(
        driver, users, lambda t: t.phase == "respond" and t.player != carol.id
    )
    player = users[turn.player]
    previous = announced_value(driver)
    minimum = ORDER[rank(previous) + 1]
    panel = await driver.click(player, "believe")
    assert panel is not None and dice_in(panel.text)
    await driver.wait_turn(after=turn.step)  # the table told the believe
    before = mark(emulator)

    too_low = await refused(
        await emulator.slash(player, comptoir, "maya annoncer", {"valeur": str(previous)})
    )
    # What was wrong and what is possible: at least the next value, or a Photo.
    assert too_low.text == (
        f"Annonce trop basse : il faut au moins {said(minimum)}, ou 📸 Photo "
        f"(l'annonce à battre est {said(previous)})."
    )
    for typed in ("27", "bof", "7"):
        answer = await refused(
            await emulator.slash(player, comptoir, "maya annoncer", {"valeur": typed})
        )
        assert answer.text == f"« {typed} » n'est pas une valeur du jeu. {VALUES_HINT_FR}"
    assert public_since(emulator, comptoir, before) == []

    # A legal one goes through, publicly.
    accepted = await emulator.slash(player, comptoir, "maya annoncer", {"valeur": str(minimum)})
    reply = await accepted.reply()
    assert not reply.ephemeral and f"annonce **{said(minimum)}**" in reply.text

    # carol, in English, when she holds the cup.
    turn = await advance_until(driver, users, lambda t: t.phase == "respond")
    if turn.player != carol.id:
        turn = await advance_until(
            driver, users, lambda t: t.phase == "respond" and t.player == carol.id
        )
    previous = announced_value(driver)
    minimum = ORDER[rank(previous) + 1]
    assert await driver.click(carol, "believe") is not None
    too_low = await refused(
        await emulator.slash(carol, comptoir, "maya annoncer", {"valeur": "31"})
    )
    assert too_low.text == (
        f"Too low: you need at least {said(minimum)}, or 📸 Photo "
        f"(the announcement to beat is {said(previous)})."
    )
    answer = await refused(await emulator.slash(carol, comptoir, "maya annoncer", {"valeur": "x"}))
    assert answer.text == f"“x” is not a value of the game. {VALUES_HINT_EN}"
    no_traceback(bot)


# --------------------------------------------------------------------------- stale buttons


async def test_buttons_of_a_stopped_game_are_refused_as_stale(
    emulator: DiscordEmulator, bot: BotProcess
) -> None:
    alice, bob, carol = emulator.user("alice"), emulator.user("bob"), emulator.user("carol")
    comptoir = emulator.channel("bar", "comptoir")
    users = {u.id: u for u in (alice, bob, carol)}
    driver = await open_game(emulator, comptoir, alice, [bob, carol])
    turn = await driver.wait_turn()
    holder = users[turn.player]
    panel = await driver.click(holder, "roll")  # a private panel: announcements, Tapote …
    assert panel is not None and panel.selects
    accuser = next(u for u in (alice, bob) if u.id != holder.id)
    accused = next(u for u in (bob, carol) if u.id != accuser.id)
    accusation = await (
        await emulator.slash(accuser, comptoir, "faute", {"joueur": accused, "motif": "26"})
    ).reply()
    assert accusation.buttons

    stopped = await (await emulator.slash(alice, comptoir, "maya stop")).reply()
    assert not stopped.ephemeral and f"🛑 <@{alice.id}> arrête la partie." in stopped.text
    await emulator.wait_for(
        lambda: not driver.table.table_controls, what="the table without buttons"
    )

    # A new table in the same channel: the old buttons must not reach it.
    await (await emulator.slash(bob, comptoir, "maya start")).reply()
    new_table = await driver.find_table()
    lobby = new_table.text
    before = mark(emulator)

    stale_fr = "Ce bouton appartient à une partie terminée."
    stale_en = "This button belongs to a finished game."
    expected = stale_en if holder is carol else stale_fr
    chosen = await emulator.choose(holder, panel, [driver.menu_values(panel)[-1]])
    assert (await refused(chosen)).text == expected
    tap = next(c for c in panel.custom_ids if c.endswith(":tap0"))
    assert (await refused(await emulator.click(holder, panel, tap))).text == expected
    accept = next(c for c in accusation.custom_ids if c.endswith(":accept"))
    answer = await refused(await emulator.click(accused, accusation, accept))
    assert answer.text == (stale_en if accused is carol else stale_fr)

    assert public_since(emulator, comptoir, before) == []
    assert new_table.text == lobby
    no_traceback(bot)


# --------------------------------------------------------------------------- double clicks


async def test_a_double_click_is_applied_once_and_the_second_is_refused_politely(
    emulator: DiscordEmulator, bot: BotProcess
) -> None:
    alice, bob = emulator.user("alice"), emulator.user("bob")
    comptoir = emulator.channel("bar", "comptoir")
    users = {u.id: u for u in (alice, bob)}
    driver = await open_game(emulator, comptoir, alice, [bob])
    too_late = "Trop tard : ce bouton date d'un tour déjà joué."

    for action, story in (("believe", "croit"), ("lift", "soulève")):
        turn = await advance_until(
            driver, users, lambda t: t.phase == "respond" and announced_value(driver) != 21
        )
        player = users[turn.player]
        custom_id = next(c for c in driver.table.custom_ids if c.endswith(f":{action}"))
        before = mark(emulator)
        async with bot.frozen():  # both clicks arrive before the bot handled the first
            first = await emulator.click(player, driver.table, custom_id)
            second = await emulator.click(player, driver.table, custom_id)
        await first.response()
        await second.response()
        # The first click is played (a private panel for Croire, nothing for Soulever) …
        refusal = await refused(second)
        assert refusal.text == too_late
        assert [m for m in first.touched if m.text == too_late] == []
        await driver.wait_turn(after=turn.step)
        told = [line for line in lines_since(emulator, comptoir, before) if story in line]
        assert len(told) == 1, told
        if action == "believe":
            panel = await first.reply()
            assert panel.ephemeral and panel.audience == player.id
            assert dice_in(panel.text), panel.text
            await driver.announce(player, panel, driver.menu_values(panel)[-1])
        else:
            sips = [line for line in lines_since(emulator, comptoir, before) if "🍺" in line]
            assert len(sips) == 1, sips
    no_traceback(bot)


# --------------------------------------------------------------------------- /maya stop


async def test_a_lobby_stopped_after_its_message_was_deleted_posts_no_table_again(
    emulator: DiscordEmulator, bot: BotProcess
) -> None:
    alice = emulator.user("alice")
    comptoir = emulator.channel("bar", "comptoir")
    driver = MayaDriver(emulator, comptoir)
    assert not (await (await emulator.slash(alice, comptoir, "maya start")).reply()).ephemeral
    lobby = await driver.find_table()
    emulator._delete(lobby)  # someone removed the lobby message
    stopped = await (await emulator.slash(alice, comptoir, "maya stop")).reply()
    assert f"🛑 <@{alice.id}> arrête la partie." in stopped.text
    await emulator.ping()
    await asyncio.sleep(0.5)  # what the bot does after its answer (nothing else to wait on)
    # Only the stop's answer: no new table message for a table that no longer exists.
    after = [m for m in emulator.transcript.public(comptoir.id) if m.id > stopped.id]
    assert after == [], [m.text for m in after]
    assert [m for m in emulator.transcript.public(comptoir.id) if m.embeds] == []
    no_traceback(bot)


async def test_only_the_starter_or_a_manager_may_stop_a_table(
    emulator: DiscordEmulator, bot: BotProcess
) -> None:
    alice, bob, carol, dave = (emulator.user(n) for n in ("alice", "bob", "carol", "dave"))
    comptoir = emulator.channel("bar", "comptoir")
    driver = await open_game(emulator, comptoir, alice, [bob])
    turn = driver.turn()

    answer = await refused(await emulator.slash(bob, comptoir, "maya stop"))
    assert answer.text == (
        f"Seul·e <@{alice.id}> (ou un membre avec « Gérer le serveur ») peut faire ça."
    )
    answer = await refused(await emulator.slash(dave, comptoir, "maya stop"))  # en-GB
    assert answer.text == f"Only <@{alice.id}> (or a member with Manage Server) can do that."
    assert driver.turn() == turn and driver.table.buttons

    # carol has the Barman role (Manage Server) in `bar`: she may stop it, publicly.
    stopped = await (await emulator.slash(carol, comptoir, "maya stop")).reply()
    assert not stopped.ephemeral
    assert f"🛑 <@{carol.id}> arrête la partie." in stopped.text
    assert "🏁 La partie est terminée." in stopped.text
    await emulator.wait_for(
        lambda: not driver.table.table_controls, what="the table without buttons"
    )
    no_table = await refused(await emulator.slash(alice, comptoir, "maya stop"))
    assert (
        no_table.text
        == "Il n'y a pas de partie de Maya ou de Mia dans ce salon. Lancez-en une avec /maya start."
    )
    no_traceback(bot)


# --------------------------------------------------------------------------- DMs


async def test_commands_in_direct_messages_get_a_clear_refusal(
    emulator: DiscordEmulator, bot: BotProcess
) -> None:
    alice, bob, carol = emulator.user("alice"), emulator.user("bob"), emulator.user("carol")
    not_in_dms = "Les parties se jouent dans un salon de serveur, pas en message privé."
    for command, options in (
        ("maya start", {}),
        ("maya lancer", {}),
        ("maya annoncer", {"valeur": "54"}),
        ("maya stop", {}),
        ("maya des", {}),
        ("croire", {}),
        ("soulever", {}),
        ("faute", {"joueur": bob, "motif": "26"}),
    ):
        answer = await refused(
            await slash_unchecked(emulator, alice, emulator.dm(alice), command, options)
        )
        assert answer.text == not_in_dms, (command, answer.text)
    answer = await refused(await slash_unchecked(emulator, carol, emulator.dm(carol), "maya start"))
    assert answer.text == "Games are played in a server channel, not in direct messages."
    no_traceback(bot)


# --------------------------------------------------------------------------- busy channel


async def test_a_second_table_in_a_busy_channel_is_refused(
    emulator: DiscordEmulator, bot: BotProcess
) -> None:
    alice, bob, carol = emulator.user("alice"), emulator.user("bob"), emulator.user("carol")
    comptoir = emulator.channel("bar", "comptoir")
    terrasse = emulator.channel("bar", "terrasse")
    started = await emulator.slash(alice, comptoir, "maya start")
    assert not (await started.reply()).ephemeral
    driver = MayaDriver(emulator, comptoir)
    table = await driver.find_table()

    answer = await refused(await emulator.slash(bob, comptoir, "maya start"))
    assert answer.text == (
        "Une partie de Maya est déjà en cours dans ce salon ; "
        "terminez-la ou jouez dans un autre salon."
    )
    answer = await refused(await emulator.slash(carol, comptoir, "maya start", {"mode": "vies"}))
    assert answer.text == (
        "A Maya game is already running in this channel; finish it or play in another channel."
    )
    # Once started, still busy; another channel is free.
    await driver.click(bob, "join")
    await driver.click(alice, "start")
    await driver.wait_turn()
    answer = await refused(await emulator.slash(bob, comptoir, "maya start"))
    assert "déjà en cours dans ce salon" in answer.text
    elsewhere = await (await emulator.slash(bob, terrasse, "maya start", {"mode": "vies"})).reply()
    assert not elsewhere.ephemeral
    # A Mia table names its own game.
    answer = await refused(await emulator.slash(alice, terrasse, "maya start"))
    assert answer.text.startswith("Une partie de Mia est déjà en cours dans ce salon")
    # The busy channel still has its own table (the same one, brought down as turns start).
    assert driver.table is not None and table_id_of(driver.table) == table_id_of(table)
    no_traceback(bot)
