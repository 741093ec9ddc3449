"""The words players use, through the real bot: facing a Maya, ``/croire`` asks how; Mia
mode says Mia; doubles read "double 3"; a menteur bid reads "cinq 4" and its challenge
"Menteur !"."""

from __future__ import annotations

import re

from tests.e2e.botprocess import BotProcess
from tests.e2e.emulator import DiscordEmulator
from tests.e2e.maya_driver import MayaDriver, lines_since, mark, wait_line
from tests.e2e.test_maya_soiree import Party
from tests.e2e.world import User


async def test_croire_facing_a_maya_without_a_style_asks_fragile_or_warrior(
    emulator: DiscordEmulator, bot: BotProcess
) -> None:
    party = Party(emulator, ("alice", "bob", "patron"))
    await party.start()
    opener, panel, _ = await party.roll()
    # The opener may announce anything: a Maya, true or not.
    facing = await party.announce(opener, panel, "21")
    assert facing.phase == "maya"
    believer = party.users[facing.player or 0]
    since = mark(emulator)
    asked = await (await emulator.slash(believer, party.channel, "croire")).reply()
    # Nothing was played: the believer is asked, privately, with both choices explained.
    assert asked.ephemeral and asked.audience == believer.id
    assert "Fragile" in asked.text and "Warrior" in asked.text and "1 gorgée" in asked.text
    labels = sorted(b.label or "" for b in asked.buttons)
    assert labels == ["Fragile (1 gorgée)", "Warrior"]
    assert party.turn().step == facing.step and party.turn().phase == "maya"
    assert not any("gorgée" in line for line in lines_since(emulator, party.channel, since))
    # One of them is the move: the Fragile drinks a sip.
    await (await emulator.click(believer, asked, label="Fragile (1 gorgée)")).response()
    told = await wait_line(emulator, party.channel, "Fragile", since=since)
    assert told == f"🙇 <@{believer.id}> croit le Maya et se soumet (Fragile)."


async def mia_table(emulator: DiscordEmulator, users: list[User]) -> MayaDriver:
    channel = emulator.channel("bar", "comptoir")
    driver = MayaDriver(emulator, channel)
    starter, *others = users
    await (await emulator.slash(starter, channel, "maya start", {"mode": "vies"})).reply()
    await driver.find_table()
    for user in others:
        await driver.click(user, "join")
        await emulator.wait_for(
            lambda who=user: f"<@{who.id}>" in (driver.table.text if driver.table else "")
        )
    await driver.click(starter, "start")
    return driver


async def test_mia_says_mia_and_doubles_read_as_doubles(
    emulator: DiscordEmulator, bot: BotProcess
) -> None:
    alice, bob = emulator.user("alice"), emulator.user("bob")
    driver = await mia_table(emulator, [alice, bob])
    users = {alice.id: alice, bob.id: bob}
    turn = await driver.wait_turn()
    opener = users[turn.player or 0]
    panel = await driver.click(opener, "roll")
    assert panel is not None
    # The menu names 21 as the players of Mia do, and the doubles by their die.
    labels = [o["label"] for o in panel.selects[0].options]
    assert "🔥 MIA (21)" in labels and "double 3" in labels and not any("MAYA" in x for x in labels)
    since = mark(emulator)
    await driver.announce(opener, panel, "33")
    said = await wait_line(emulator, driver.channel, "annonce", since=since)
    assert said.startswith(f"📣 <@{opener.id}> annonce **double 3** →"), said
    turn = await driver.wait_turn(after=turn.step)
    believer = users[turn.player or 0]
    panel = await driver.click(believer, "believe")
    assert panel is not None
    since = mark(emulator)
    await driver.announce(believer, panel, "21")
    said = await wait_line(emulator, driver.channel, "annonce", since=since)
    assert said.startswith(f"🔥 <@{believer.id}> annonce **MIA** (21)"), said
    await driver.wait_turn(after=turn.step)
    assert driver.table is not None
    assert "doit répondre au Mia de" in driver.table.text
    assert "Accepter le Mia" in [b.label for b in driver.table.buttons]


async def test_a_menteur_bid_reads_in_words_and_its_challenge_is_menteur(
    emulator: DiscordEmulator, bot: BotProcess
) -> None:
    alice, bob = emulator.user("alice"), emulator.user("bob")
    comptoir = emulator.channel("bar", "comptoir")
    await (await emulator.slash(alice, comptoir, "menteur start", {"des": 3})).reply()
    await (await emulator.slash(bob, comptoir, "menteur rejoindre")).reply()
    await (await emulator.slash(alice, comptoir, "menteur commencer")).response()

    def table_turn() -> int | None:
        table = emulator.transcript.table(comptoir.id)
        found = re.search(r"^👉 <@(\d+)>", table.text if table else "", re.MULTILINE)
        return int(found.group(1)) if found else None

    first = await emulator.wait_for(table_turn, what="the first turn")
    bidder = alice if first == alice.id else bob
    said = await (
        await emulator.slash(bidder, comptoir, "menteur annoncer", {"quantite": 2, "valeur": 5})
    ).reply()
    assert f"<@{bidder.id}> annonce **deux 5**" in said.text, said.text
    table = await emulator.wait_message(comptoir, containing="**deux 5**")
    # The challenge is called as in French: « Menteur ! ».
    assert "Menteur ! (contester)" in [b.label for b in table.buttons]
    assert "contester : « Menteur ! »" in table.text
    other = bob if bidder is alice else alice
    low = await (
        await emulator.slash(other, comptoir, "menteur annoncer", {"quantite": 1, "valeur": 5})
    ).reply()
    assert low.ephemeral
    # What was wrong, and what is possible (jokers: half as many 1s, rounded up).
    assert low.text == (
        "Annonce trop basse : sur les 5, il faut au moins trois 5 ; "
        "sur les autres valeurs : un 1, trois 2, trois 3, trois 4, deux 6."
    )
    english = await (
        await emulator.slash(
            other, comptoir, "menteur annoncer", {"quantite": 1, "valeur": 5}, locale="en-US"
        )
    ).reply()
    assert english.text.endswith(
        "on the other values: one 1, three 2s, three 3s, three 4s, two 6s."
    )
