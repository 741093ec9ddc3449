"""Odd input, as a modified client or a raw API call can send it: every one gets a clear,
private refusal, never "Oups" and never a traceback; words the bot keeps are bounded."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from tests.e2e.botprocess import BotProcess
from tests.e2e.emulator import DiscordEmulator
from tests.e2e.maya_driver import MayaDriver
from tests.e2e.transcript import Message
from tests.e2e.world import Channel, User

OOPS = "Oups"


async def refusal(
    emulator: DiscordEmulator,
    channel: Channel,
    command: str,
    options: dict[str, Any] | None = None,
    user: str = "alice",
) -> Message:
    answer = await (
        await emulator.slash(user, channel, command, options or {}, forged=True)
    ).reply()
    assert answer.ephemeral and answer.audience == emulator.user(user).id, answer.text
    assert OOPS not in answer.text, answer.text
    assert len(answer.text) <= 2000
    return answer


async def settled(emulator: DiscordEmulator) -> None:
    """Let the bot finish what it does after an answer (nothing else to wait on)."""
    await emulator.ping()
    await asyncio.sleep(0.5)


async def first_roll(emulator: DiscordEmulator, channel: Channel) -> str:
    """Alice and Bob start a Yadès duel; whoever plays first rolls. Returns their name."""
    await (await emulator.slash("alice", channel, "yades start")).reply()
    await (await emulator.slash("bob", channel, "yades rejoindre")).reply()
    await (await emulator.slash("alice", channel, "yades commencer")).reply()
    table = await emulator.wait_message(
        channel, where=lambda m: any(":roll" in c for c in m.custom_ids)
    )
    first = "alice" if f"Au tour de <@{emulator.user('alice').id}>" in table.text else "bob"
    roll = next(c for c in table.custom_ids if ":roll" in c)
    await (await emulator.click(first, table, roll)).response()
    return first


async def bid_panel(emulator: DiscordEmulator, channel: Channel, user: User) -> Message:
    """``user``'s private menteur panel once it offers their bids (it is their turn)."""
    while True:
        mine = await (await emulator.slash(user, channel, "menteur des")).reply()
        if mine.selects:
            return mine
        await emulator.wait_message(channel, containing="annonce")


def calm(bot: BotProcess) -> None:
    log = bot.log()
    assert "Traceback" not in log and " ERROR " not in log, log[-4000:]


@pytest.mark.parametrize("value", ["²¹", "①②", "٦٢x", ""])
async def test_an_announcement_in_odd_digits_is_refused_as_no_value(
    emulator: DiscordEmulator, bot: BotProcess, value: str
) -> None:
    comptoir = emulator.channel("bar", "comptoir")
    await (await emulator.slash("alice", comptoir, "maya start")).reply()
    answer = await refusal(emulator, comptoir, "maya annoncer", {"valeur": value})
    assert "n'est pas une valeur du jeu" in answer.text
    calm(bot)


async def test_keeping_dice_named_in_odd_digits_is_refused(
    emulator: DiscordEmulator, bot: BotProcess
) -> None:
    comptoir = emulator.channel("bar", "comptoir")
    first = await first_roll(emulator, comptoir)
    answer = await refusal(emulator, comptoir, "yades garder", {"des": "²"}, user=first)
    assert answer.text.startswith("Dés à garder invalides")
    calm(bot)


@pytest.mark.parametrize("value", ["abc", "1_2_3", "", "none", "9_x"])
async def test_a_bid_menu_value_that_is_no_bid_is_refused(
    emulator: DiscordEmulator, bot: BotProcess, value: str
) -> None:
    comptoir = emulator.channel("bar", "comptoir")
    alice = emulator.user("alice")
    await (await emulator.slash(alice, comptoir, "menteur start", {"cpu": 1})).reply()
    await (await emulator.slash(alice, comptoir, "menteur commencer")).reply()

    panel = await bid_panel(emulator, comptoir, alice)
    chosen = await emulator.choose(alice, panel, [value], forged=True)
    answer = await chosen.reply()
    assert answer.ephemeral and OOPS not in answer.text
    assert answer.text == "Annonce impossible : ce choix ne correspond à aucune annonce."
    calm(bot)


@pytest.mark.parametrize(("game", "most"), [("maya", 9), ("yades", 5), ("menteur", 5)])
async def test_more_cpu_seats_than_a_table_holds_is_refused(
    emulator: DiscordEmulator, bot: BotProcess, game: str, most: int
) -> None:
    comptoir = emulator.channel("bar", "comptoir")
    answer = await refusal(emulator, comptoir, f"{game} start", {"cpu": most + 1})
    assert answer.text == f"Nombre de CPU impossible : de 0 à {most} à cette table."
    assert emulator.transcript.public(comptoir.id) == []
    calm(bot)


@pytest.mark.parametrize(
    ("options", "text"),
    [
        ({"jeu": "poker"}, "Jeu inconnu. Jeux : `maya`, `mia`, `yades`, `menteur`"),
        ({"periode": "siecle"}, "Période inconnue. Périodes : `semaine`, `mois`, `tout`"),
    ],
)
async def test_a_leaderboard_for_an_unknown_game_or_period_is_refused(
    emulator: DiscordEmulator, bot: BotProcess, options: dict[str, str], text: str
) -> None:
    comptoir = emulator.channel("bar", "comptoir")
    answer = await refusal(emulator, comptoir, "classement", options)
    assert answer.text == text
    calm(bot)


async def test_settings_out_of_their_range_are_refused(
    emulator: DiscordEmulator, bot: BotProcess
) -> None:
    comptoir = emulator.channel("bar", "comptoir")
    timer = await refusal(emulator, comptoir, "reglages minuteur", {"secondes": -5}, user="carol")
    assert timer.text == "The timer goes from 15 to 600 seconds."
    language = await refusal(emulator, comptoir, "reglages langue", {"langue": "xx"}, user="carol")
    assert language.text == "Unknown language: fr, en, auto."
    calm(bot)


@pytest.mark.parametrize("die", [0, 3, 6])
async def test_tapping_a_die_that_is_not_in_the_cup_is_refused(
    emulator: DiscordEmulator, bot: BotProcess, die: int
) -> None:
    comptoir = emulator.channel("bar", "comptoir")
    driver = MayaDriver(emulator, comptoir)
    await (await emulator.slash("alice", comptoir, "maya start")).reply()
    await driver.find_table()
    await (await emulator.slash("bob", comptoir, "maya rejoindre")).reply()
    await (await emulator.slash("alice", comptoir, "maya commencer")).reply()
    turn = await driver.wait_turn()
    opener = "alice" if turn.player == emulator.user("alice").id else "bob"
    await driver.click(opener, "roll")  # the dice are in the cup: only die 1 or 2 may be tapped
    answer = await refusal(emulator, comptoir, "maya tapote", {"de": die}, user=opener)
    assert answer.text == "Dés invalides."
    calm(bot)


# --------------------------------------------------------------------------- words kept


async def test_a_very_long_gage_is_refused_in_a_short_private_answer(
    emulator: DiscordEmulator, bot: BotProcess
) -> None:
    comptoir = emulator.channel("bar", "comptoir")
    answer = await refusal(emulator, comptoir, "maya start", {"gage": "piment " * 700})
    assert answer.text == "Texte trop long : 30 caractères au plus."
    assert emulator.transcript.public(comptoir.id) == []


@pytest.mark.parametrize(
    "gage", ["[gratuit](https://x.io)", "https://x.io", "www.x.io", "discord.gg/abc"]
)
async def test_a_gage_with_a_link_is_refused(
    emulator: DiscordEmulator, bot: BotProcess, gage: str
) -> None:
    comptoir = emulator.channel("bar", "comptoir")
    answer = await refusal(emulator, comptoir, "maya start", {"gage": gage})
    assert answer.text == "Pas de lien ici, s'il te plaît : juste des mots."
    server = await refusal(emulator, comptoir, "reglages gage", {"mot": gage}, user="carol")
    assert server.text == "No links here, please: just words."
    assert emulator.transcript.public(comptoir.id) == []


async def test_a_motive_with_a_link_is_refused(emulator: DiscordEmulator, bot: BotProcess) -> None:
    comptoir = emulator.channel("bar", "comptoir")
    await (await emulator.slash("alice", comptoir, "maya start")).reply()
    await (await emulator.slash("bob", comptoir, "maya rejoindre")).reply()
    await (await emulator.slash("alice", comptoir, "maya commencer")).reply()
    bob = emulator.user("bob")
    answer = await refusal(
        emulator, comptoir, "faute", {"joueur": bob, "motif": "voir [ici](https://x.io)"}
    )
    assert answer.text == "Pas de lien ici, s'il te plaît : juste des mots."


async def test_a_gage_in_markdown_is_shown_as_typed(
    emulator: DiscordEmulator, bot: BotProcess
) -> None:
    comptoir = emulator.channel("bar", "comptoir")
    await (await emulator.slash("alice", comptoir, "maya start", {"gage": "**shot**"})).reply()
    rules = await (await emulator.slash("alice", comptoir, "maya regles")).reply()
    assert "\\*\\*shot\\*\\*" in rules.text


async def test_a_panel_menu_sent_on_the_public_table_is_refused_and_changes_nothing(
    emulator: DiscordEmulator, bot: BotProcess
) -> None:
    # A modified client sends the holder's announcement menu (a private panel's) as a click
    # on the public table: Discord delivers it; the bot must not play it, nor answer it by
    # editing the table into the panel's state.
    alice, bob = emulator.user("alice"), emulator.user("bob")
    comptoir = emulator.channel("bar", "comptoir")
    driver = MayaDriver(emulator, comptoir)
    await (await emulator.slash(alice, comptoir, "maya start", {"mode": "vies"})).reply()
    await driver.find_table()
    await driver.click(bob, "join")
    await emulator.wait_for(lambda: f"<@{bob.id}>" in (driver.table.text if driver.table else ""))
    await driver.click(alice, "start")
    turn = await driver.wait_turn()
    holder = emulator.world.user(turn.player)
    panel = await driver.click(holder, "roll")
    assert panel is not None and panel.selects
    menu = next(c for c in panel.custom_ids if c.startswith("gobsel:"))
    value = driver.menu_values(panel)[0]
    table = driver.table
    assert table is not None
    await settled(emulator)  # the roll's redraw of the table
    shown = (table.text, table.custom_ids)
    rolled = driver.turn()

    forged = await emulator.choose(holder, table, [value], select=menu, forged=True)
    answer = await forged.reply()
    assert answer.ephemeral and answer.audience == holder.id, answer.text
    assert OOPS not in answer.text
    await settled(emulator)
    assert (table.text, table.custom_ids) == shown  # the table as it was
    assert driver.turn() == rolled  # nothing played
    # The panel's own menu still plays the announcement.
    await driver.announce(holder, panel, value)
    assert (await driver.wait_turn(after=rolled.step)).step > rolled.step
    calm(bot)


async def test_a_bid_menu_sent_on_the_public_table_is_refused_and_plays_nothing(
    emulator: DiscordEmulator, bot: BotProcess
) -> None:
    comptoir = emulator.channel("bar", "comptoir")
    alice = emulator.user("alice")
    await (await emulator.slash(alice, comptoir, "menteur start", {"cpu": 1})).reply()
    await (await emulator.slash(alice, comptoir, "menteur commencer")).reply()

    panel = await bid_panel(emulator, comptoir, alice)
    menu = next(c for c in panel.custom_ids if c.startswith("gobsel:"))
    value = panel.select(menu).values[0]
    await settled(emulator)  # the CPUs' moves drawn
    table = emulator.transcript.table(comptoir.id)
    assert table is not None and any(c.startswith("gob:") for c in table.custom_ids)
    shown = (table.text, table.custom_ids)

    forged = await emulator.choose(alice, table, [value], select=menu, forged=True)
    answer = await forged.reply()
    assert answer.ephemeral and answer.audience == alice.id, answer.text
    assert OOPS not in answer.text
    await settled(emulator)
    assert (table.text, table.custom_ids) == shown
    # The bid was not played: the panel's own menu still offers it and plays it.
    played = await emulator.choose(alice, panel, [value])
    await played.response()
    await emulator.wait_for(lambda: table.deleted or (table.text, table.custom_ids) != shown)
    calm(bot)


async def test_a_die_toggle_sent_on_another_public_message_is_refused_and_changes_it_not(
    emulator: DiscordEmulator, bot: BotProcess
) -> None:
    # A modified client sends the current hold toggle on another of the bot's public
    # messages (here a leaderboard): the toggle answers by redrawing the message clicked,
    # so it would put the table's dice buttons there.
    comptoir = emulator.channel("bar", "comptoir")
    first = await first_roll(emulator, comptoir)
    await settled(emulator)
    table = emulator.transcript.table(comptoir.id)
    assert table is not None
    toggle = next(c for c in table.custom_ids if ":hold" in c)
    board = await (await emulator.slash(first, comptoir, "classement", {"jeu": "yades"})).reply()
    assert not board.ephemeral
    shown = (board.text, board.custom_ids)
    forged = await emulator.click(first, board, toggle, forged=True)
    answer = await forged.reply()
    assert answer.ephemeral and OOPS not in answer.text, answer.text
    await settled(emulator)
    assert (board.text, board.custom_ids) == shown
    calm(bot)
