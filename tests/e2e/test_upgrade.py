"""A database written before the games moved into their packages still resumes its games.

``fixtures/before_registry.db`` was written by the bot of commit f7479a9 (the code before
issue 10), through its own ``TableRunner``: four running games, one per channel of the default
world, each waiting for a human — a Maya party with a contested fault being voted, a Mia
game with a CPU, a Yadès duel after a first roll, a menteur round with a CPU's bid on the
table. Its snapshots, event logs and table data are in the format of that time.
"""

from __future__ import annotations

import json
import shutil
import sqlite3
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from tests.e2e.botprocess import BotProcess
from tests.e2e.emulator import DiscordEmulator
from tests.e2e.transcript import Message

FIXTURE = Path(__file__).parent / "fixtures" / "before_registry.db"
FACES = "⚀⚁⚂⚃⚄⚅"


def snapshots(database: Path) -> dict[str, dict[str, Any]]:
    """Each running game's stored state, by kind and preset (maya, mia, yades, menteur)."""
    with sqlite3.connect(database) as db:
        rows = db.execute("SELECT kind, state_json FROM games WHERE status = 'active'").fetchall()
    found = {}
    for kind, raw in rows:
        state = json.loads(raw)
        if kind == "maya" and state["rules"]["preset"] == "vies":
            kind = "mia"
        found[kind] = state
    return found


@pytest.fixture
async def bot(emulator: DiscordEmulator, tmp_path: Path) -> AsyncIterator[BotProcess]:
    """The bot started on a copy of the old database (its turn deadlines moved ahead, as if
    the bot had been down for a moment only: an overdue turn would be played at once)."""
    database = tmp_path / "gobelet.db"
    shutil.copy(FIXTURE, database)
    with sqlite3.connect(database) as db:
        db.execute(
            "UPDATE games SET meta_json = json_set(meta_json, '$.deadline', ?)",
            (time.time() + 600,),
        )
    process = BotProcess(emulator, tmp_path, database=database)
    try:
        await process.start()
        yield process
    finally:
        await process.stop()


def shown(dice: list[int]) -> str:
    return " ".join(f"{FACES[pip - 1]}{pip}" for pip in dice)


async def test_a_database_from_before_the_change_resumes_its_running_games(
    emulator: DiscordEmulator, bot: BotProcess
) -> None:
    old = snapshots(FIXTURE)
    assert sorted(old) == ["maya", "menteur", "mia", "yades"]
    comptoir = emulator.channel("bar", "comptoir")
    terrasse = emulator.channel("bar", "terrasse")
    general = emulator.channel("pub", "general")
    games = emulator.channel("pub", "games")

    def table_in(channel: Any, title: str) -> Message:
        return next(
            m
            for m in reversed(emulator.transcript.public(channel.id))
            if m.embeds and title in m.text
        )

    for channel in (comptoir, terrasse):
        await emulator.wait_message(channel, containing="La table est de retour")
    for channel in (general, games):
        await emulator.wait_message(channel, containing="The table is back")

    # Maya party: the same turn (patron answers alice's 41), the fault still being voted.
    party = old["maya"]
    patron = emulator.user("patron")
    assert party["current"] == patron.id
    assert "▶️ <@" + str(patron.id) + ">" in table_in(comptoir, "Maya").text
    lifted = await (await emulator.slash(patron, comptoir, "soulever")).reply()
    assert sorted(party["cup"]) == [1, 4]
    assert "soulève : ⚀ ⚃ (41)" in lifted.text  # the same dice under the cup

    # Mia: bob still holds the same dice, and announces.
    mia = old["mia"]
    bob = emulator.user("bob")
    assert mia["current"] == bob.id
    mine = await (await emulator.slash(bob, terrasse, "maya des")).reply()
    a, b = mia["cup"]
    high, low = max(a, b), min(a, b)
    assert f"({high}{low})" in mine.text and mine.ephemeral
    said = await (await emulator.slash(bob, terrasse, "maya annoncer", {"valeur": "32"})).reply()
    # Answered privately, or with the table's new copy when a human is up next.
    assert "annonce **32**" in said.text and (said.ephemeral or bool(said.embeds))

    # Yadès: the same dice on the table, and alice scores.
    duel = old["yades"]
    alice = emulator.user("alice")
    assert duel["current"] == alice.id
    await emulator.wait_for(
        lambda: shown(duel["dice"]) in table_in(general, "Yadès").text, what="the same dice"
    )
    scored = await (
        await emulator.slash(alice, general, "yades marquer", {"case": "chance"})
    ).reply()
    assert not scored.ephemeral and "15" in scored.text

    # Menteur: dave's dice are the same, and he challenges the CPU's bid.
    round_ = old["menteur"]
    dave = emulator.user("dave")
    assert round_["current"] == dave.id
    hand = next(seat["hand"] for seat in round_["seats"] if seat["player"] == dave.id)
    mine = await (await emulator.slash(dave, games, "menteur des")).reply()
    assert shown(hand) in mine.text and mine.ephemeral
    challenged = await (await emulator.slash(dave, games, "soulever")).reply()
    assert not challenged.ephemeral and "All the dice" in challenged.text
    for seat in round_["seats"]:  # every hand revealed as it was stored
        assert shown(seat["hand"]) in challenged.text
    log = bot.log()
    assert "Traceback" not in log and " ERROR " not in log, log[-3000:]
