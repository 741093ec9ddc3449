"""The bot's channel traffic goes through the interaction endpoints: a table is answered,
drawn, brought down and moved out of the way through its players' interactions, so that a
game spends next to nothing of the bot token's global limit (50 requests a second for every
table of every process). The bot token is used only when no interaction's token is alive.

Played with every Discord limit of the emulator on, the global one included."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

import pytest

from tests.e2e.botprocess import BotProcess
from tests.e2e.emulator import DiscordEmulator
from tests.e2e.handles import HttpCall
from tests.e2e.maya_driver import MayaTableDriver, wait_line
from tests.e2e.ratelimits import globally_limited
from tests.e2e.test_channel import (
    Watch,
    decision_of,
    play_maya,
    play_menteur,
    play_yades,
    yades_turn,
)
from tests.e2e.transcript import Message

PER_MOVE = 0.1  # globally limited calls per accepted player move, at most


def limited(calls: list[HttpCall]) -> list[str]:
    """The calls that count against the bot token's global limit."""
    return [f"{c.method} {c.path}" for c in calls if globally_limited(c.path)]


Play = Callable[[DiscordEmulator, Watch], Awaitable[object]]


async def _maya(emulator: DiscordEmulator, watch: Watch) -> None:
    await play_maya(emulator, watch, "soiree", 4)


async def _mia(emulator: DiscordEmulator, watch: Watch) -> None:
    await play_maya(emulator, watch, "vies", 4)


async def _menteur(emulator: DiscordEmulator, watch: Watch) -> None:
    await play_menteur(emulator, watch, 3)


GAMES: dict[str, tuple[tuple[str, ...], Play]] = {
    "maya": (("alice", "bob", "carol"), _maya),
    "mia": (("alice", "bob", "carol"), _mia),
    "yades-cpu": (("alice",), play_yades),
    "yades-duel": (("alice", "bob"), play_yades),
    "menteur": (("alice", "bob"), _menteur),
}


@pytest.mark.rate_limits
@pytest.mark.parametrize("game", list(GAMES))
async def test_a_game_played_with_buttons_spends_almost_nothing_of_the_global_limit(
    emulator: DiscordEmulator, bot: BotProcess, game: str
) -> None:
    names, play = GAMES[game]
    watch = Watch(
        emulator, emulator.channel("bar", "comptoir"), [emulator.user(n) for n in names], 7
    )
    first = len(emulator.calls)
    await play(emulator, watch)
    spent = limited(emulator.calls[first:])
    assert watch.moves >= 10
    assert len(spent) <= PER_MOVE * watch.moves, (watch.moves, spent)
    assert emulator.rate_limited == []


@pytest.mark.rate_limits
@pytest.mark.bot_env(GOBELET_TURN_SECONDS="4")
async def test_once_every_token_at_the_table_expired_the_bot_token_draws_the_table(
    emulator: DiscordEmulator, bot: BotProcess
) -> None:
    alice, bob = emulator.user("alice"), emulator.user("bob")
    comptoir = emulator.channel("bar", "comptoir")
    driver = MayaTableDriver(emulator, comptoir)
    await (await driver.slash(alice, "maya start", {"mode": "vies"})).reply()
    await driver.find_table()
    await driver.click(bob, "join")
    await driver.click(alice, "start")
    turn = await driver.wait_turn()
    since = len(emulator.transcript.events)
    old = await driver.find_table()
    # Nobody plays for a quarter of an hour: every token the bot holds has expired when the
    # turn's time runs out, so the timeout's story reaches the channel with the bot token.
    emulator.travel(15 * 60 + 1)
    first = len(emulator.calls)
    await wait_line(emulator, comptoir, "pas joué à temps", since=since)
    # The CPU played the absent opener's turn; the other one is asked to respond.
    after = await emulator.wait_for(
        lambda: (
            (shown := driver.turn()).player not in (None, turn.player)
            and "lift" in shown.actions
            and shown
        ),
        what="the other's response",
    )
    await emulator.wait_for(lambda: old.deleted, what="the copy above deleted")
    spent = limited(emulator.calls[first:])
    assert f"DELETE /api/v10/channels/{comptoir.id}/messages/{old.id}" in spent, spent
    assert any(call.startswith(("POST", "PATCH")) for call in spent), spent
    # The next click brings a live token again: the move is answered and drawn through it.
    first = len(emulator.calls)
    await driver.click(alice if after.player == alice.id else bob, "lift")
    await driver.wait_turn(after=after.step)
    assert limited(emulator.calls[first:]) == []
    assert emulator.rate_limited == []


SLASH_PER_MOVE = 0.3  # slash-command play: globally limited calls per accepted move, at most


@pytest.mark.rate_limits
async def test_a_game_played_with_slash_commands_spends_little_of_the_global_limit(
    emulator: DiscordEmulator, bot: BotProcess
) -> None:
    alice, bob = emulator.user("alice"), emulator.user("bob")
    users = {alice.id: alice, bob.id: bob}
    comptoir = emulator.channel("bar", "comptoir")
    driver = MayaTableDriver(emulator, comptoir)
    first = len(emulator.calls)
    await (await driver.slash(alice, "maya start", {"mode": "vies", "vies": 2})).reply()
    await driver.find_table()
    await (await driver.slash(bob, "maya rejoindre")).reply()
    await emulator.wait_for(lambda: f"<@{bob.id}>" in (driver.table.text if driver.table else ""))
    await (await driver.slash(alice, "maya commencer")).reply()
    moves = 3
    turn = await driver.wait_turn()
    for _ in range(200):
        if turn.phase == "over":
            break
        user = users[turn.player or 0]
        if turn.phase in ("maya", "respond") and (turn.phase == "maya" or moves % 3 == 0):
            await (await emulator.slash(user, comptoir, "soulever")).reply()
            moves += 1
        else:
            if turn.phase == "open":
                await (await emulator.slash(user, comptoir, "maya lancer")).reply()
            elif turn.phase == "respond":
                await (await emulator.slash(user, comptoir, "croire")).reply()
            typed = await emulator.autocomplete(
                user, comptoir, "maya annoncer", {"valeur": ""}, "valeur"
            )
            values = [choice["value"] for choice in await typed.autocomplete_choices()]
            told = {"valeur": values[0]}
            await (await emulator.slash(user, comptoir, "maya annoncer", told)).reply()
            moves += 2
        turn = await driver.wait_turn(after=turn.step)
    assert turn.phase == "over"
    spent = limited(emulator.calls[first:])
    assert len(spent) <= SLASH_PER_MOVE * moves, (moves, spent)
    assert emulator.rate_limited == []


@pytest.mark.rate_limits
async def test_a_yades_duel_played_with_slash_commands_spends_little_of_the_global_limit(
    emulator: DiscordEmulator, bot: BotProcess
) -> None:
    alice, comptoir = emulator.user("alice"), emulator.channel("bar", "comptoir")
    first = len(emulator.calls)
    await (await emulator.slash(alice, comptoir, "yades defi", {"cpu": True})).reply()
    moves, last = 0, -1

    def alices_turn() -> Message | None:
        table = emulator.transcript.table(comptoir.id)
        if table is None:
            return None
        if not table.table_controls and "🏁" in table.text:
            return table
        mine = yades_turn(table.snapshot()) == alice.id and decision_of(table) > last
        return table if mine else None

    for _ in range(60):
        table = await emulator.wait_for(alices_turn, what="alice's turn")
        if not table.table_controls:
            break
        last = decision_of(table)
        rolled = await (await emulator.slash(alice, comptoir, "yades lancer")).reply()
        if "pas ton tour" in rolled.text:  # the table was read before the CPU's turn began
            continue
        typed = await emulator.autocomplete(alice, comptoir, "yades marquer", {"case": ""}, "case")
        boxes = [choice["value"] for choice in await typed.autocomplete_choices()]
        await (await emulator.slash(alice, comptoir, "yades marquer", {"case": boxes[0]})).reply()
        moves += 2
    assert moves >= 20 and "🏁" in (emulator.transcript.table(comptoir.id) or table).text
    spent = limited(emulator.calls[first:])
    assert len(spent) <= SLASH_PER_MOVE * moves, (moves, spent)
    assert emulator.rate_limited == []
