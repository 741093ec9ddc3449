"""The two Dés du menteur variants through the real bot: Calza (a die back, or one lost) and
Palifico (a round without jokers on one face), with the reveal and the dice checked.

Two people play heads-up, so between them they know every die: the tests read both hands
privately (``/menteur des``), then make the bids and calls whose outcome they know.
"""

from __future__ import annotations

import re

from tests.e2e.botprocess import BotProcess
from tests.e2e.emulator import DiscordEmulator
from tests.e2e.test_menteur import MINE, TURN, Game, assert_no_leak, open_table
from tests.e2e.transcript import Message
from tests.e2e.world import Channel, User

FACE = re.compile(r"[⚀⚁⚂⚃⚄⚅](\d)")
SEAT = "<@{}> : {}"


def counted(hands: dict[int, list[int]], face: int, jokers: bool) -> int:
    wild = jokers and face != 1
    return sum(1 for dice in hands.values() for d in dice if d == face or (wild and d == 1))


async def whose_turn(game: Game) -> tuple[User, Message]:
    message = await game.table()
    found = TURN.search(message.text)
    assert found, message.text
    return game.users[int(found.group(1))], message


async def hands(game: Game) -> dict[int, list[int]]:
    """Every player's dice, as each sees them privately."""
    found = {}
    for player, user in game.users.items():
        mine = MINE.search((await game.my_dice(user)).text)
        assert mine
        found[player] = [int(d) for d in FACE.findall(mine.group(1))]
    return found


async def bid(game: Game, user: User, quantity: int, face: int) -> Message:
    said = await (
        await game.emulator.slash(
            user, game.channel, "menteur annoncer", {"quantite": quantity, "valeur": face}
        )
    ).reply()
    assert "annonce" in said.text, said.text
    return said


async def lift(game: Game, user: User) -> Message:
    lifted = await (await game.emulator.slash(user, game.channel, "soulever")).reply()
    assert not lifted.ephemeral and "Tous les dés" in lifted.text, lifted.text
    return lifted


async def reveal(emulator: DiscordEmulator, channel: Channel, saying: str) -> str:
    """The public reveal that says ``saying`` (waited for: the table may move down after the
    interaction is answered)."""

    def found() -> str | None:
        for message in reversed(emulator.transcript.public(channel.id)):
            if "Tous les dés" in message.text and saying in message.text:
                return message.text
        return None

    return await emulator.wait_for(found, what=f"a reveal saying {saying!r}")


async def heads_up(
    emulator: DiscordEmulator, channel: Channel, **options: bool
) -> tuple[Game, User, User, Message]:
    """Alice and Bob at a 3-dice table with ``options``: the game, who opens, the other one,
    and the table as the opener's turn shows it."""
    alice, bob = emulator.user("alice"), emulator.user("bob")
    await open_table(emulator, channel, alice, [bob], des=3, **options)
    game = Game(emulator, channel, [alice, bob])
    first, table = await whose_turn(game)
    return game, first, bob if first is alice else alice, table


async def test_a_calza_gives_a_die_back_when_exact_and_costs_one_when_not(
    emulator: DiscordEmulator, bot: BotProcess
) -> None:
    comptoir = emulator.channel("bar", "comptoir")
    game, first, second, table = await heads_up(emulator, comptoir, calza=True)
    assert "Calza" in table.text  # the rules label names the variant

    # No bid yet: nothing to call exact.
    early = await (await emulator.slash(first, comptoir, "menteur calza")).reply()
    assert early.ephemeral and "pas encore d'annonce à dire exacte" in early.text

    # Round 1: a true bid, challenged: the challenger is down to two dice.
    dice = await hands(game)
    face = max(range(2, 7), key=lambda f: counted(dice, f, True))
    await bid(game, first, counted(dice, face, True), face)
    await lift(game, second)
    await reveal(emulator, comptoir, f"<@{second.id}> perd un dé (2 restants)")

    # Round 2, opened by the loser: the other bids the exact count, the loser calls calza.
    opener, _ = await whose_turn(game)
    assert opener is second
    dice = await hands(game)
    await bid(game, second, 1, 2)
    exact = [
        (counted(dice, f, True), f)
        for f in range(2, 7)
        if counted(dice, f, True) > 1 or (f > 2 and counted(dice, f, True) == 1)
    ]
    quantity, face = exact[0]
    await bid(game, first, quantity, face)
    caller, table = await whose_turn(game)
    assert caller is second
    await (await emulator.click(second, table, label="Calza ! (exacte)")).response()
    shown = await reveal(emulator, comptoir, "Calza !")
    assert f"<@{second.id}> dit « Calza ! » : l'annonce de <@{first.id}>" in shown
    counts = "dé compte" if quantity == 1 else "dés comptent"
    assert f"Exactement **{quantity}** {counts} pour {face}" in shown
    assert "la calza est juste" in shown
    assert f"<@{second.id}> récupère un dé (3 dés)" in shown
    game.check_reveals()
    assert game.compared == 4  # both hands of both reveals, as the players saw them
    opener, table = await whose_turn(game)
    assert opener is second  # the caller opens
    assert SEAT.format(second.id, "🎲🎲🎲 (3)") in table.text
    assert SEAT.format(first.id, "🎲🎲🎲 (3)") in table.text

    # Round 3: a bid one above the count; calling it exact costs the caller a die.
    dice = await hands(game)
    face = min(range(2, 7), key=lambda f: counted(dice, f, True))
    wrong = counted(dice, face, True) + 1
    await bid(game, second, wrong, face)
    await whose_turn(game)
    called_wrong = await (await emulator.slash(first, comptoir, "menteur calza")).reply()
    assert not called_wrong.ephemeral
    shown = await reveal(emulator, comptoir, "la calza est ratée")
    assert f"pas {wrong} : la calza est ratée" in shown
    assert f"<@{first.id}> perd un dé (2 restants)" in shown
    opener, table = await whose_turn(game)
    assert opener is first
    assert SEAT.format(first.id, "🎲🎲 (2)") in table.text
    assert_no_leak(emulator, comptoir)


async def test_a_player_down_to_one_die_opens_a_palifico_round(
    emulator: DiscordEmulator, bot: BotProcess
) -> None:
    comptoir = emulator.channel("bar", "comptoir")
    game, first, second, table = await heads_up(emulator, comptoir, palifico=True)
    assert "Palifico" in table.text and "Manche Palifico" not in table.text

    # Calza is not played at this table.
    off = await (await emulator.slash(first, comptoir, "menteur calza")).reply()
    assert off.ephemeral and "La Calza n'est pas jouée à cette table" in off.text

    # Two false bids, challenged: the first player is down to one die.
    for left in (2, 1):
        if left == 1:
            opener, _ = await whose_turn(game)
            assert opener is first  # the loser opens
        dice = await hands(game)
        face = min(range(2, 7), key=lambda f: counted(dice, f, True))
        await bid(game, first, counted(dice, face, True) + 1, face)
        await lift(game, second)
        shown = await reveal(emulator, comptoir, f"<@{first.id}> perd un dé ({left} restant")
        assert "l'annonce tombe" in shown

    # Their Palifico round: announced, opened by them, on ones if they like (no jokers).
    opener, table = await whose_turn(game)
    assert opener is first
    assert f"🌴 **Palifico** : <@{first.id}> n'a plus qu'un dé" in "\n".join(
        m.text for m in emulator.transcript.public(comptoir.id)
    )
    assert f"Manche Palifico de <@{first.id}>" in table.text
    dice = await hands(game)
    (mine,) = dice[first.id]
    await bid(game, first, 1, mine)

    # The face is kept: the menu offers it alone, another face is refused.
    caller, table = await whose_turn(game)
    assert caller is second
    assert f"on reste sur les {mine}" in table.text
    panel = await game.my_dice(second)
    values = panel.selects[0].values
    assert values and all(value.endswith(f"_{mine}") for value in values)
    other = mine % 6 + 1
    refused = await (
        await emulator.slash(second, comptoir, "menteur annoncer", {"quantite": 3, "valeur": other})
    ).reply()
    assert refused.ephemeral and f"en manche Palifico, on reste sur les {mine}" in refused.text

    # Ones are not jokers: the reveal counts the face alone. The second player bids one
    # above that count (the first lifts), or lifts the opening when nothing is above.
    plain = counted(dice, mine, False)
    if plain + 1 <= sum(len(hand) for hand in dice.values()):
        await bid(game, second, plain + 1, mine)
        await whose_turn(game)
        await lift(game, first)
        verdict = "l'annonce tombe"
    else:
        await lift(game, second)
        verdict = "l'annonce tient"
    shown = await reveal(emulator, comptoir, f"<@{second.id}> perd un dé")
    count_line = next(line for line in shown.splitlines() if "pour " + str(mine) in line)
    assert "joker" not in count_line
    assert f"**{plain}**" in count_line
    assert verdict in shown

    # The next round is an ordinary one again.
    opener, table = await whose_turn(game)
    assert opener is second
    assert "Manche Palifico" not in table.text
    game.check_reveals()
    assert_no_leak(emulator, comptoir)


async def test_a_server_plays_the_variants_by_default_once_its_settings_say_so(
    emulator: DiscordEmulator, bot: BotProcess
) -> None:
    patron, alice = emulator.user("patron"), emulator.user("alice")
    comptoir = emulator.channel("bar", "comptoir")
    saved = await (
        await emulator.slash(patron, comptoir, "reglages menteur", {"des": 4, "calza": True})
    ).reply()
    assert saved.ephemeral and "Dés du menteur : 4 dés, les 1 sont jokers · Calza" in saved.text
    shown = await (await emulator.slash(patron, comptoir, "reglages voir")).reply()
    assert "Dés du menteur : 4 dés, les 1 sont jokers · Calza" in shown.text
    # A new table takes the server's rules; the starter's options come on top.
    started = await (
        await emulator.slash(alice, comptoir, "menteur start", {"palifico": True})
    ).reply()
    assert "4 dés, les 1 sont jokers · Calza · Palifico" in started.text
    await (await emulator.slash(alice, comptoir, "menteur stop")).reply()
    back = await (
        await emulator.slash(patron, comptoir, "reglages menteur", {"calza": False, "des": 5})
    ).reply()
    assert "Dés du menteur : 5 dés, les 1 sont jokers" in back.text and "Calza" not in back.text
