"""Achievements, end to end: earned in a game played through the emulator, announced once
in the channel at its end, listed by ``/succes`` (the ones not earned yet locked) and named
by ``/stats``; and backfilled, unannounced, for the games a database held before them.

The dice are seeded; the players drive the game adaptively: each opener reads their
private dice, announces a real Maya when the player under test rolled one (and otherwise
the lowest value, always true), and the next player lifts.
"""

from __future__ import annotations

import importlib
import itertools
import re
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.games import maya
from bot.games.maya.values import MAYA
from bot.storage import open_repository
from tests.e2e.botprocess import BotProcess
from tests.e2e.emulator import DiscordEmulator
from tests.e2e.maya_driver import MayaDriver, Turn, dice_in, lines_since, mark, wait_line
from tests.e2e.transcript import Message
from tests.e2e.world import User
from tests.storage.past_games import store_finished

SEED = "1414"
pytestmark = pytest.mark.bot_env(GOBELET_DICE_SEED=SEED)

EARNED = "🏅 Succès débloqué pour"
REAL_MAYA = (
    "**Maya pour de vrai** — Annoncer Maya avec un vrai Maya sous le gobelet, et se faire soulever."
)
LOCKED_WARRIOR = "🔒 Warrior — Face à un Maya, le croire en Warrior et faire un Maya."
MOST_ROUNDS = 150


class Soiree:
    """A Maya party between two friends in `bar`/#comptoir."""

    def __init__(self, emulator: DiscordEmulator, names: tuple[str, str]) -> None:
        self.emulator = emulator
        self.channel = emulator.channel("bar", "comptoir")
        self.driver = MayaDriver(emulator, self.channel)
        self.people = [emulator.user(name) for name in names]
        self.users = {user.id: user for user in self.people}

    @property
    def table(self) -> Message:
        assert self.driver.table is not None
        return self.driver.table

    async def settle(self, after: int, phase: str) -> Turn:
        def ready() -> Turn | None:
            turn = self.driver.turn()
            return turn if turn.step > after and turn.phase == phase and turn.player else None

        return await self.emulator.wait_for(ready, what=f"the {phase} phase after step {after}")

    async def start(self) -> None:
        starter, other = self.people
        opened = await self.emulator.slash(starter, self.channel, "maya start")
        assert not (await opened.reply()).ephemeral
        await self.emulator.wait_for(
            lambda: self.driver.table is not None and self.driver.turn().phase == "lobby",
            what="the lobby",
        )
        await self.driver.click(other, "join")
        await self.emulator.wait_for(
            lambda: f"<@{other.id}>" in self.table.text, what=f"{other.name} seated"
        )
        await self.driver.click(starter, "start")
        await self.settle(-1, "open")

    async def round(self, maya_for: User) -> bool:
        """One round: the opener rolls; a real Maya of ``maya_for`` is announced and lifted
        (True); any other roll is announced at the lowest value, which it beats, and lifted."""
        turn = self.driver.turn()
        assert turn.phase == "open", turn
        opener = self.users[turn.player]
        panel = await self.driver.click(opener, "roll")
        assert panel is not None and panel.ephemeral
        turn = await self.settle(turn.step, "announce")
        ((_, _, value),) = dice_in(panel.text)
        real_maya = value == MAYA and opener.id == maya_for.id
        values = [v for v in self.driver.menu_values(panel) if v != "photo"]
        await self.driver.announce(opener, panel, "21" if real_maya else values[-1])
        turn = await self.settle(turn.step, "maya" if real_maya else "respond")
        await self.driver.click(self.users[turn.player], "lift")
        await self.settle(turn.step, "open")
        return real_maya

    async def until_real_maya_lifted(self, player: User) -> None:
        for _ in range(MOST_ROUNDS):
            if await self.round(player):
                return
        raise AssertionError(f"no real Maya for {player.name} in {MOST_ROUNDS} rounds")

    async def stop(self) -> None:
        since = mark(self.emulator)
        await self.emulator.slash(self.people[0], self.channel, "maya stop")
        await wait_line(self.emulator, self.channel, "Bilan de la soirée", since=since)


async def listed(emulator: DiscordEmulator, asker: str, player: User) -> Message:
    comptoir = emulator.channel("bar", "comptoir")
    shown = await (await emulator.slash(asker, comptoir, "succes", {"joueur": player})).reply()
    assert not shown.ephemeral
    return shown


def fields(message: Message) -> dict[str, str]:
    return {f["name"]: f["value"] for embed in message.embeds for f in embed.get("fields", [])}


async def test_an_achievement_earned_in_a_game_is_announced_once_and_listed(
    emulator: DiscordEmulator, bot: BotProcess
) -> None:
    alice, bob = emulator.user("alice"), emulator.user("bob")
    party = Soiree(emulator, ("alice", "bob"))
    first = mark(emulator)
    await party.start()
    await party.until_real_maya_lifted(alice)
    await party.stop()
    announced = [line for line in lines_since(emulator, party.channel, first) if EARNED in line]
    assert announced == [f"{EARNED} <@{alice.id}> : {REAL_MAYA}"]

    # Listed by /succes (asked by someone else, French server), every other one locked.
    shown = await listed(emulator, "bob", alice)
    assert f"<@{alice.id}> sur ce serveur : 1/14" in shown.text
    maya_field = fields(shown)["Maya et Mia"]
    assert maya_field.startswith(f"🏅 {REAL_MAYA} (<t:")
    assert LOCKED_WARRIOR in maya_field
    assert "🔒 Yadès de Yadès" in fields(shown)["Yadès"]
    assert "🔒 Sans une égratignure" in fields(shown)["Dés du menteur"]
    assert "🏅" not in fields(await listed(emulator, "alice", bob))["Maya et Mia"]
    stats = await (await emulator.slash("bob", party.channel, "stats", {"joueur": alice})).reply()
    assert fields(stats)["🏅 Succès"] == "Maya pour de vrai"

    # A second game where alice lifts a real Maya again: she holds it, nothing is announced.
    second = mark(emulator)
    await party.start()
    await party.until_real_maya_lifted(alice)
    await party.stop()
    assert [line for line in lines_since(emulator, party.channel, second) if EARNED in line] == []
    again = await listed(emulator, "bob", alice)
    assert f"<@{alice.id}> sur ce serveur : 1/14" in again.text
    assert fields(again)["Maya et Mia"].count("🏅") == 1
    assert "Traceback" not in bot.log()


async def test_an_english_client_reads_achievements_in_english_on_an_english_server(
    emulator: DiscordEmulator, bot: BotProcess
) -> None:
    general = emulator.channel("pub", "general")
    shown = await (await emulator.slash("carol", general, "succes")).reply()
    assert "achievements on this server: 0/14" in shown.text
    assert (
        "🔒 The real thing — Announce Maya with a real Maya under the cup"
        in (fields(shown)["Maya and Mia"])
    )


# Table 1's dice with this seed (``TableRunner`` seeds a table's dice with the seed and its id):
# alice is seated first and her first roll is five 6s.
YADES_AT_ONCE = "4030"


@pytest.mark.bot_env(GOBELET_DICE_SEED=YADES_AT_ONCE)
async def test_a_yades_on_the_first_roll_is_announced_when_the_duel_ends(
    emulator: DiscordEmulator, bot: BotProcess
) -> None:
    alice, bob = emulator.user("alice"), emulator.user("bob")
    comptoir = emulator.channel("bar", "comptoir")
    since = mark(emulator)
    await (await emulator.slash(alice, comptoir, "yades start")).reply()
    lobby = await emulator.wait_message(comptoir, where=lambda m: bool(m.buttons))
    await (await emulator.click(bob, lobby, label="Rejoindre")).response()
    await emulator.wait_for(lambda: f"<@{bob.id}>" in lobby.text, what="bob seated")
    await (await emulator.slash(alice, comptoir, "yades commencer")).response()
    rolled = await (await emulator.slash(alice, comptoir, "yades lancer")).reply()
    assert re.findall(r"[⚀⚁⚂⚃⚄⚅](\d)", rolled.text) == ["6"] * 5, rolled.text
    await (await emulator.slash(alice, comptoir, "yades marquer", {"case": "yades"})).reply()
    await (await emulator.slash(bob, comptoir, "yades abandon")).reply()
    line = await wait_line(emulator, comptoir, EARNED, since=since)
    assert line == (
        f"{EARNED} <@{alice.id}> : **Yadès sec** — Faire un Yadès dès le premier lancer d'un tour."
    )
    assert [line for line in lines_since(emulator, comptoir, since) if EARNED in line] == [line]
    shown = await listed(emulator, "bob", alice)
    assert fields(shown)["Yadès"].startswith("🏅 **Yadès sec**")


# --------------------------------------------------------------------------- backfill

_channels = itertools.count(900_000)


@pytest.fixture
async def old_bot(
    emulator: DiscordEmulator,
    tmp_path: Path,
    database_url: str,
    backend: str,
    monkeypatch: pytest.MonkeyPatch,
) -> AsyncIterator[BotProcess]:
    """The bot started on a database written before achievements: a finished soirée in
    `bar` where bob lifted alice's real Maya, counted on the leaderboards."""
    module = f"bot.storage.{backend}"
    shipped = importlib.import_module(module).migrations
    alice, bob = emulator.user("alice"), emulator.user("bob")
    with monkeypatch.context() as before:
        before.setattr(f"{module}.migrations", lambda: [m for m in shipped() if m[0] < 5])
        repository = await open_repository(database_url)
        try:
            await store_finished(
                repository,
                "maya",
                maya.Rules.for_preset(maya.SOIREE),
                [alice.id, bob.id],
                [
                    maya.Roll(alice.id, dice=(2, 1)),
                    maya.Announce(alice.id, MAYA),
                    maya.Lift(bob.id),
                ],
                guild=emulator.guild("bar").id,
                channel=next(_channels),
            )
        finally:
            await repository.close()
    env = {"GOBELET_DICE_SEED": SEED}
    process = BotProcess(emulator, tmp_path, env=env, database_url=database_url)
    try:
        await process.start()
        yield process
    finally:
        await process.stop()


async def test_the_achievements_of_past_games_are_backfilled_and_never_announced(
    emulator: DiscordEmulator, old_bot: BotProcess
) -> None:
    alice = emulator.user("alice")
    shown = await listed(emulator, "alice", alice)
    assert f"<@{alice.id}> sur ce serveur : 1/14" in shown.text
    assert fields(shown)["Maya et Mia"].startswith(f"🏅 {REAL_MAYA} (<t:")

    # She lifts a real Maya again in a new game: held since the backfill, never announced.
    party = Soiree(emulator, ("alice", "bob"))
    since = mark(emulator)
    await party.start()
    await party.until_real_maya_lifted(alice)
    await party.stop()
    assert [line for line in lines_since(emulator, party.channel, since) if EARNED in line] == []
    comptoir = emulator.channel("bar", "comptoir")
    assert not any(EARNED in m.text for m in emulator.transcript.public(comptoir.id))
    assert "Traceback" not in old_bot.log()
