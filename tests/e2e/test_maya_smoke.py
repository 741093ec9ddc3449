"""A first whole Mia game through buttons only."""

from __future__ import annotations

from tests.e2e.botprocess import BotProcess
from tests.e2e.emulator import DiscordEmulator
from tests.e2e.maya_driver import MayaDriver, dice_in


async def test_two_users_play_mia_to_the_winner_with_buttons(
    emulator: DiscordEmulator, bot: BotProcess
) -> None:
    alice, bob = emulator.user("alice"), emulator.user("bob")
    comptoir = emulator.channel("bar", "comptoir")
    driver = MayaDriver(emulator, comptoir)
    started = await emulator.slash(alice, comptoir, "maya start", {"mode": "vies", "vies": 2})
    assert not (await started.reply()).ephemeral
    await driver.find_table()
    await driver.click(bob, "join")
    await emulator.wait_for(lambda: f"<@{bob.id}>" in (driver.table.text if driver.table else ""))
    await driver.click(alice, "start")
    users = {alice.id: alice, bob.id: bob}
    turn = await driver.wait_turn()
    for _ in range(200):
        if turn.phase == "over":
            break
        user = users[turn.player]
        if turn.phase == "open":
            panel = await driver.click(user, "roll")
            assert panel is not None and panel.ephemeral and panel.audience == user.id
            ((_, _, value),) = dice_in(panel.text)
            await driver.announce(user, panel, str(value))
        elif turn.phase == "respond":
            if turn.step % 3 == 0:
                await driver.click(user, "lift")
            else:
                panel = await driver.click(user, "believe")
                assert panel is not None
                values = driver.menu_values(panel)
                if values:
                    await driver.announce(user, panel, values[-1])
                else:
                    raise AssertionError(f"no announcement offered: {panel.text}")
        elif turn.phase == "maya":
            await driver.click(user, "lift")
        turn = await driver.wait_turn(after=turn.step)
    assert turn.phase == "over"
    winner_lines = emulator.transcript.containing("gagne la partie")
    assert winner_lines and not winner_lines[-1].ephemeral
