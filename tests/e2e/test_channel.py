"""What the channel sees over whole games with CPU seats, in each of the four games: the
current player's controls always at hand (the newest message, or the one just above, even
when people chat), few public messages per move, and one ping per turn, to the player whose
turn it is, read from the bodies' ``allowed_mentions``.

Each game prints its figures: the public messages it added to the channel per accepted
player move (the budget: 0.6), and how many it posted in all (copies of the table moved
down included, each replacing the one above).
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from typing import Any

import pytest

from tests.e2e.botprocess import BotProcess
from tests.e2e.emulator import DiscordEmulator
from tests.e2e.maya_driver import MayaTableDriver, dice_in
from tests.e2e.test_maya_vies import pick_announcement
from tests.e2e.test_menteur import Game
from tests.e2e.transcript import Message
from tests.e2e.world import Channel, User

BUDGET = 0.6  # public messages per accepted player move, over a whole game
MENTION_AT_START = re.compile(r"^<@(\d+)>")
YADES_TURN = re.compile(r"🎯 (?:Au tour de|Turn:?) (<@\d+>|\*\*)")
MENTEUR_TURN = re.compile(r"^👉 <@(\d+)>", re.MULTILINE)
CHATTER = ("allez !", "sérieux ?", "santé 🍻", "je le sens pas", "bluff !")

TurnOf = Callable[[dict[str, Any]], int | None]


def embed_text(snapshot: dict[str, Any]) -> str:
    parts: list[str] = []
    for embed in snapshot.get("embeds", []):
        parts += [embed.get("title") or "", embed.get("description") or ""]
        parts += [f"{f.get('name', '')}\n{f.get('value', '')}" for f in embed.get("fields", [])]
    return "\n".join(parts)


def maya_turn(snapshot: dict[str, Any]) -> int | None:
    """The human a Maya table shows to play (its "Au tour de" field starts with them)."""
    for embed in snapshot.get("embeds", []):
        for embed_field in embed.get("fields", []):
            if embed_field.get("name") in ("Au tour de", "Turn"):
                found = MENTION_AT_START.match(embed_field.get("value", ""))
                return int(found.group(1)) if found else None
    return None


def yades_turn(snapshot: dict[str, Any]) -> int | None:
    found = re.search(r"🎯 Au tour de <@(\d+)>", embed_text(snapshot))
    return int(found.group(1)) if found else None


def menteur_turn(snapshot: dict[str, Any]) -> int | None:
    found = MENTEUR_TURN.search(embed_text(snapshot))
    return int(found.group(1)) if found else None


class Watch:
    """Watches one table's channel over a game: the position of its controls after each
    move, the messages it posts, the pings it sends."""

    def __init__(
        self, emulator: DiscordEmulator, channel: Channel, humans: list[User], seed: int
    ) -> None:
        self.emulator = emulator
        self.channel = channel
        self.humans = humans
        self.rng = random.Random(seed)
        self.start = len(emulator.transcript.events)
        self.moves = 0
        self.chat: list[int] = []  # the ids of what people said in the channel
        self.below: list[int] = []  # messages under the controls, after each move
        self.begun: int | None = None  # the event the game's start was asked at
        self.starter: int | None = None

    def starting(self, starter: User) -> None:
        """``starter`` starts the game now (their first turn, if it is, pings nobody)."""
        self.begun, self.starter = len(self.emulator.transcript.events), starter.id

    async def chatter(self) -> None:
        """Now and then people talk in the channel (one message, or two in a row)."""
        if self.rng.random() < 0.25:
            for _ in range(self.rng.choice((1, 1, 2))):
                user = self.rng.choice(self.humans)
                said = await self.emulator.say(user, self.channel, self.rng.choice(CHATTER))
                self.chat.append(int(said.payload["id"]))

    def moved(self, count: int = 1) -> None:
        """``count`` accepted player moves were made, and the table waits on a human again:
        the message that carries the controls is the newest, or the one just above."""
        self.moves += count
        table = self.controls()
        newer = [m for m in self.emulator.transcript.public(self.channel.id) if m.id > table.id]
        said = [m for m in self.chat if m > table.id]
        self.below.append(len(newer) + len(said))
        assert self.below[-1] <= 1, (
            f"{self.below[-1]} messages below the controls after move {self.moves}: "
            f"{[m.text[:60] for m in newer]} and {len(said)} said\n"
            + self.emulator.transcript.dump()[-4000:]
        )

    def controls(self) -> Message:
        table = self.emulator.transcript.table(self.channel.id)
        assert table is not None and table.table_controls, (
            f"the table message carries no controls: {table.custom_ids if table else None}"
        )
        return table

    def created(self) -> list[Message]:
        """The public messages the bot posted in the channel since the watch began."""
        return [
            event.message
            for event in self.emulator.transcript.events[self.start :]
            if event.kind == "create"
            and not event.message.ephemeral
            and event.message.channel_id == self.channel.id
        ]

    def ping_problems(self, turn_of: TurnOf) -> tuple[list[str], int, int]:
        """Every new public message pings nobody, or exactly the player whose turn it shows;
        every human's turn starts with exactly one ping to them, but the starter's first
        turn when the start shows it (they just acted). Returns the problems, the turns
        counted and the pings sent."""
        humans = {user.id for user in self.humans}
        problems: list[str] = []
        turns = pings = 0
        current: int | None = None
        opening = self.begun
        for index, event in enumerate(self.emulator.transcript.events):
            message = event.message
            if index < self.start or message.channel_id != self.channel.id or message.ephemeral:
                continue
            pinged = event.snapshot["pings"] if event.kind == "create" else []
            pings += len(pinged)
            shown = turn_of(event.snapshot) if event.snapshot["embeds"] else None
            if pinged and pinged != [shown]:
                problems.append(f"{message.id} pings {pinged}, the turn is {shown}: {message.text}")
            if not event.snapshot["embeds"] or event.kind == "delete":
                continue
            if opening is not None and index >= opening:
                opening = None  # the start's drawing
                if shown == self.starter:
                    if pinged:
                        problems.append(f"the starter, who just started, is pinged: {pinged}")
                    current = shown
                    continue
            if shown != current and shown in humans:
                turns += 1
                if pinged != [shown]:
                    problems.append(
                        f"<@{shown}>'s turn started with pings {pinged} ({event.kind}): "
                        f"{event.snapshot['text'][:120]!r}"
                    )
            current = shown
        return problems, turns, pings

    def report(self, game: str, turn_of: TurnOf, capsys: pytest.CaptureFixture[str]) -> None:
        created = self.created()
        left = [m for m in created if not m.deleted]
        ratio = len(created) / self.moves
        problems, turns, pings = self.ping_problems(turn_of)
        with capsys.disabled():
            print(
                f"\n{game}: {self.moves} player moves, {len(created)} public messages posted "
                f"({ratio:.2f} per move), {len(left)} left in the channel "
                f"({len(left) / self.moves:.2f} per move); controls at most "
                f"{max(self.below)} message(s) up after {len(self.below)} checks; "
                f"{pings} pings for {turns} human turns"
            )
        assert problems == [], "\n".join(problems)
        assert turns > 0 and pings == turns
        # The budget counts the messages the game adds to the channel: a copy of the table
        # moved down replaces the one above (deleted), it adds none.
        assert len(left) / self.moves <= BUDGET, f"{game}: {len(left) / self.moves:.2f} per move"
        assert len(self.chat) > 0  # people did talk over the game


# --------------------------------------------------------------------------- Maya and Mia


async def play_maya(emulator: DiscordEmulator, watch: Watch, mode: str, rounds: int) -> None:
    """Buttons and panels only, as people play; ``rounds``: a soirée is stopped after it."""
    humans = {user.id: user for user in watch.humans}
    driver = MayaTableDriver(emulator, watch.channel)
    starter, *others = watch.humans
    options: dict[str, Any] = {"mode": mode, "cpu": 1}
    if mode == "vies":
        options["vies"] = 3
    await (await driver.slash(starter, "maya start", options)).reply()
    await driver.find_table()
    for user in others:
        await driver.click(user, "join")
    await emulator.wait_for(
        lambda: all(f"<@{u}>" in (driver.table.text if driver.table else "") for u in humans)
    )
    watch.starting(starter)
    await driver.click(starter, "start")
    turn = await driver.wait_turn()
    watch.moved(0)
    for _ in range(400):
        if turn.phase == "over":
            return
        if mode == "soiree" and driver.round() > rounds:
            stopped = await (await driver.slash(starter, "maya stop")).reply()
            assert not stopped.ephemeral and "Bilan" in stopped.text
            return
        await watch.chatter()
        user = humans[turn.player or 0]
        if turn.phase == "maya" or (turn.phase == "respond" and watch.rng.random() < 0.35):
            await driver.click(user, "lift")
            made, after = 1, turn.step
        else:
            if turn.phase == "announce":
                panel = await driver.show_dice(user)
                made = 1
            else:
                panel = await driver.click(user, "roll" if turn.phase == "open" else "believe")
                made = 2
            assert panel is not None and panel.selects, panel.text if panel else None
            offered = list(reversed(driver.menu_values(panel)))
            dice = dice_in(panel.text)
            choice = pick_announcement(watch.rng, dice[0][2] if dice else None, offered)
            after = int((panel.selects[0].custom_id or "").split(":")[2])
            await driver.announce(user, panel, choice)
        turn = await driver.wait_turn(after=after)
        if turn.phase != "over":
            watch.moved(made)
        else:
            watch.moves += made
    raise AssertionError("the game did not end")


@pytest.mark.parametrize(("mode", "seed"), [("soiree", 21), ("vies", 22)], ids=["maya", "mia"])
async def test_a_maya_or_mia_table_keeps_its_controls_at_hand_with_few_messages(
    emulator: DiscordEmulator,
    bot: BotProcess,
    capsys: pytest.CaptureFixture[str],
    mode: str,
    seed: int,
) -> None:
    humans = [emulator.user(name) for name in ("alice", "bob", "carol")]
    watch = Watch(emulator, emulator.channel("bar", "comptoir"), humans, seed)
    await play_maya(emulator, watch, mode, rounds=6)
    watch.report("Maya (soirée)" if mode == "soiree" else "Mia", maya_turn, capsys)


# --------------------------------------------------------------------------- Yadès


async def play_yades(emulator: DiscordEmulator, watch: Watch) -> Message:
    """The watch's humans play a duel through the table's buttons and menu, to the end: one
    against the CPU (``/yades defi cpu``), or two (a table one opens, the other joins, the
    first starts); returns the table's last message."""
    alice, *others = watch.humans
    if not others:
        watch.starting(alice)
        await (await emulator.slash(alice, watch.channel, "yades defi", {"cpu": True})).reply()
    else:
        await (await emulator.slash(alice, watch.channel, "yades start")).reply()
        lobby = await emulator.wait_message(watch.channel, where=lambda m: bool(m.buttons))
        for other in others:
            await (await emulator.click(other, lobby, label="Rejoindre")).response()
            await emulator.wait_for(lambda who=other: f"<@{who.id}>" in lobby.text, what="seat")
        watch.starting(alice)
        await (await emulator.click(alice, lobby, label="Commencer")).response()
    humans = {user.id: user for user in watch.humans}
    last = -1

    async def decision() -> Message:
        """The table once it asks a person for a new decision (or shows the end)."""

        def ready() -> Message | None:
            table = emulator.transcript.table(watch.channel.id)
            if table is None:
                return None
            if not table.table_controls and "🏁" in table.text:
                return table
            shown = yades_turn(table.snapshot())
            return table if shown in humans and decision_of(table) > last else None

        return await emulator.wait_for(ready, what="a person's next decision")

    message = await decision()
    watch.moved(0)
    for _ in range(400):
        if not message.table_controls:
            break
        last = decision_of(message)
        await watch.chatter()
        user = humans[yades_turn(message.snapshot()) or 0]
        rolls = [b for b in message.buttons if (b.custom_id or "").endswith(":roll")]
        rerolls = [b for b in message.buttons if ":reroll" in (b.custom_id or "")]
        if rolls:
            await (await emulator.click(user, message, rolls[0])).response()
        elif rerolls and watch.rng.random() < 0.5:
            await (await emulator.click(user, message, rerolls[0])).response()
        else:
            select = message.selects[0]
            await (await emulator.choose(user, message, select.values[0], select)).response()
        message = await decision()
        if message.table_controls:
            watch.moved()
        else:
            watch.moves += 1
    return message


async def test_a_yades_duel_against_the_cpu_keeps_its_controls_at_hand_with_few_messages(
    emulator: DiscordEmulator, bot: BotProcess, capsys: pytest.CaptureFixture[str]
) -> None:
    watch = Watch(emulator, emulator.channel("bar", "comptoir"), [emulator.user("alice")], 23)
    message = await play_yades(emulator, watch)
    assert "🏁" in message.text
    watch.report("Yadès vs CPU", yades_turn, capsys)


async def test_a_yades_duel_between_two_people_keeps_its_controls_at_hand_with_few_messages(
    emulator: DiscordEmulator, bot: BotProcess, capsys: pytest.CaptureFixture[str]
) -> None:
    people = [emulator.user("alice"), emulator.user("bob")]
    watch = Watch(emulator, emulator.channel("bar", "comptoir"), people, 29)
    message = await play_yades(emulator, watch)
    assert "🏁" in message.text
    watch.report("Yadès duel", yades_turn, capsys)


def decision_of(message: Message) -> int:
    """The decision a table message's components belong to (``gob:…`` and ``gobsel:…``)."""
    steps = [int(c.split(":")[2]) for c in message.custom_ids if c.startswith("gob")]
    return max(steps, default=-1)


# --------------------------------------------------------------------------- Dés du menteur


@pytest.mark.parametrize(
    ("names", "dice"),
    [(("alice", "bob"), 3), (("alice",), 4)],
    ids=["2-people-2-cpus", "1-person-3-cpus"],
)
# Seeded dice: with random ones a person who loses every round is out after a handful of
# moves, and the rounds' revealed dice then weigh more than the budget measures.
@pytest.mark.bot_env(GOBELET_DICE_SEED="24")
async def test_a_menteur_table_of_four_keeps_its_controls_at_hand_with_few_messages(
    emulator: DiscordEmulator,
    bot: BotProcess,
    capsys: pytest.CaptureFixture[str],
    names: tuple[str, ...],
    dice: int,
) -> None:
    people = [emulator.user(name) for name in names]
    watch = Watch(emulator, emulator.channel("bar", "comptoir"), people, 24)
    message = await play_menteur(emulator, watch, dice)
    assert "Partie terminée" in message.text or "gagne" in message.text
    watch.report(f"Dés du menteur (4 places, {len(people)} humain·s)", menteur_turn, capsys)


async def play_menteur(emulator: DiscordEmulator, watch: Watch, dice: int) -> Message:
    """The watch's humans and CPUs (four seats, ``dice`` dice each) play a game to the end,
    through the private panels and the table's buttons; returns the table's last message."""
    people = watch.humans
    alice = people[0]
    options = {"cpu": 4 - len(people), "des": dice}
    await (await emulator.slash(alice, watch.channel, "menteur start", options)).reply()
    lobby = await emulator.wait_message(watch.channel, where=lambda m: bool(m.buttons))
    for other in people[1:]:
        await (await emulator.click(other, lobby, label="Rejoindre")).response()
        await emulator.wait_for(lambda who=other: f"<@{who.id}>" in lobby.text, what="seated")
    watch.starting(alice)
    await (await emulator.slash(alice, watch.channel, "menteur commencer")).response()
    game = Game(emulator, watch.channel, people)
    panels: dict[int, Message] = {}
    message = await game.table()
    watch.moved(0)
    for _ in range(600):
        if not message.table_controls:
            break
        found = re.search(r"👉 <@(\d+)>", message.text)
        if found is None:
            message = await game.table()  # a CPU plays
            continue
        await watch.chatter()
        user = game.users[int(found.group(1))]
        panel = panels.get(user.id)
        if panel is None or not panel.selects:
            panel = panels[user.id] = await game.my_dice(user)
        else:
            # The panel opened earlier shows this turn already: one click, no "Mes dés".
            await emulator.wait_for(
                lambda p=panel: step_of_select(p) == game.last, what="the live panel"
            )
        if "Annonce à battre" in panel.text and watch.rng.random() < 0.3:
            dudo = next(b for b in message.buttons if (b.custom_id or "").endswith(":dudo"))
            await (await emulator.click(user, message, dudo)).response()
        else:
            select = panel.selects[0]
            value = select.values[min(len(select.values) - 1, watch.rng.randrange(3))]
            await (await emulator.choose(user, panel, value, select)).response()
        message = await game.table()
        if message.table_controls:
            watch.moved()
        else:
            watch.moves += 1
    return message


def step_of_select(panel: Message) -> int:
    """The decision a private panel's menu belongs to (``gobsel:table:step``)."""
    if not panel.selects:
        return -1
    return int((panel.selects[0].custom_id or "").split(":")[2])


async def test_a_lobby_closed_while_people_chat_under_it_says_so_in_place(
    emulator: DiscordEmulator, bot: BotProcess
) -> None:
    alice, bob = emulator.user("alice"), emulator.user("bob")
    comptoir = emulator.channel("bar", "comptoir")
    await (await emulator.slash(alice, comptoir, "maya start")).reply()
    lobby = await emulator.wait_message(comptoir, where=lambda m: bool(m.buttons))
    for said in ("on attend qui ?", "j'arrive"):
        await emulator.say(bob, comptoir, said)
    stopped = await (await emulator.slash(alice, comptoir, "maya stop")).reply()
    # Answered (privately), and the lobby itself says it is closed: no new copy of a table
    # that will never be played, no buttons left to click.
    assert stopped.ephemeral and "arrête la partie" in stopped.text
    await emulator.wait_for(lambda: not lobby.buttons, what="the lobby closed")
    assert "arrête la partie" in lobby.text
    assert [m.id for m in emulator.transcript.public(comptoir.id) if m.embeds] == [lobby.id]


async def test_an_open_maya_panel_offers_its_players_turn_so_a_turn_takes_no_trip_to_the_table(
    emulator: DiscordEmulator, bot: BotProcess
) -> None:
    alice, bob = emulator.user("alice"), emulator.user("bob")
    users = {alice.id: alice, bob.id: bob}
    driver = MayaTableDriver(emulator, emulator.channel("bar", "comptoir"))
    await (await driver.slash(alice, "maya start", {"mode": "vies"})).reply()
    await driver.find_table()
    await driver.click(bob, "join")
    await emulator.wait_for(lambda: f"<@{bob.id}>" in (driver.table.text if driver.table else ""))
    await driver.click(alice, "start")
    turn = await driver.wait_turn()
    opener = users[turn.player or 0]
    other = bob if opener is alice else alice
    panel = await driver.click(opener, "roll")
    assert panel is not None and panel.selects
    await driver.announce(opener, panel, driver.menu_values(panel)[-1])  # the weakest

    def turn_of(player: User) -> Any:
        shown = driver.turn()
        return shown if shown.player == player.id else None

    turn = await emulator.wait_for(lambda: turn_of(other), what="the other's turn")
    answer = await driver.click(other, "believe")
    assert answer is not None
    await driver.announce(other, answer, driver.menu_values(answer)[-1])  # not a Mia
    turn = await emulator.wait_for(lambda: turn_of(opener), what="the opener's turn")
    assert turn.phase == "respond"
    # The opener's panel, open since their roll, now offers their turn's moves.
    await emulator.wait_for(
        lambda: "Croire" in [b.label for b in panel.buttons], what="the turn on the panel"
    )
    assert panel.text.startswith("C'est à toi !") and "Soulever" in [b.label for b in panel.buttons]
    before = len(emulator.transcript.ephemeral_to(opener.id))
    await (await emulator.click(opener, panel, label="Croire")).response()
    # Believing from the panel turns it into the cup's panel, in place: dice and menu.
    await emulator.wait_for(lambda: bool(panel.selects), what="the dice on the same panel")
    assert len(emulator.transcript.ephemeral_to(opener.id)) == before
    assert dice_in(panel.text) and not panel.buttons
    # Played: it offers nothing more, whatever happens next at the table.
    await driver.announce(opener, panel, driver.menu_values(panel)[-1])
    await emulator.wait_for(lambda: "📣" in panel.text, what="the announcement's receipt")
    assert not panel.buttons and not panel.selects


async def first_turn_after_start(
    emulator: DiscordEmulator, channel: Channel, start: dict[str, Any], turn_of: TurnOf
) -> tuple[int, list[int]]:
    """Alice opens a table, Bob joins, Alice clicks Commencer: whose turn the table shows
    first, and whom that copy pings."""
    alice, bob = emulator.user("alice"), emulator.user("bob")
    await (await emulator.slash(alice, channel, start["name"], start["options"])).reply()
    lobby = await emulator.wait_message(channel, where=lambda m: bool(m.buttons))
    await (await emulator.click(bob, lobby, label="Rejoindre")).response()
    await emulator.wait_for(lambda: f"<@{bob.id}>" in lobby.text, what="bob seated")
    mark = len(emulator.transcript.events)
    await (await emulator.click(alice, lobby, label="Commencer")).response()

    def shown() -> tuple[int, list[int]] | None:
        for event in emulator.transcript.events[mark:]:
            if event.message.channel_id != channel.id or event.message.ephemeral:
                continue
            player = turn_of(event.snapshot) if event.snapshot["embeds"] else None
            if player is not None:
                return player, event.snapshot["pings"] if event.kind == "create" else []
        return None

    return await emulator.wait_for(shown, what="the first turn shown")


@pytest.mark.parametrize(
    ("start", "stop", "turn_of"),
    [
        ({"name": "maya start", "options": {"mode": "vies"}}, "maya stop", maya_turn),
        ({"name": "yades start", "options": {}}, "yades stop", yades_turn),
    ],
    ids=["mia", "yades-duel"],
)
async def test_whoever_starts_a_game_and_plays_first_is_not_pinged(
    emulator: DiscordEmulator,
    bot: BotProcess,
    start: dict[str, Any],
    stop: str,
    turn_of: TurnOf,
) -> None:
    # They just clicked Commencer: a ping goes to whoever the turn passes to, never to the
    # person who just acted. The seats are drawn at random: tables open until the starter
    # plays first (1 chance in 2 each time).
    alice, bob = emulator.user("alice"), emulator.user("bob")
    comptoir = emulator.channel("bar", "comptoir")
    for _ in range(20):
        player, pings = await first_turn_after_start(emulator, comptoir, start, turn_of)
        if player == alice.id:
            assert pings == [], f"the starter pinged: {pings}"
            return
        assert player == bob.id and pings == [bob.id]  # the turn passes to him: one ping
        await (await emulator.slash(alice, comptoir, stop)).reply()
        await emulator.wait_for(
            lambda: not any(m.table_controls for m in emulator.transcript.public(comptoir.id)),
            what="the table stopped",
        )
    raise AssertionError("the starter never played first in 20 games")
