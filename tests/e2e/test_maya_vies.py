"""Mia (the lives preset) end to end, and what every Maya/Mia table must never show.

The real bot runs against the emulator. Players only read what Discord would show them: the
public table message and story lines, and their own ephemeral answers.

- a whole 3-player Mia game through slash commands only, then through buttons only;
- long random games (both presets, humans and CPUs) checked for leaks: no die on a public
  message except a lift's reveal or a Warrior's roll, each reveal equal to what the announcer
  saw, every private answer to the right person, nobody shown someone else's dice;
- the turn timer: an absent player is played for, then leaves after 3 turns;
- several tables at once in two servers (French and English).
"""

from __future__ import annotations

import asyncio
import random
from dataclasses import dataclass, field

import pytest

from tests.e2e.botprocess import BotProcess
from tests.e2e.emulator import DiscordEmulator
from tests.e2e.maya_driver import (
    ELIMINATED_LINE,
    LIFE_LOST_LINE,
    MENTION,
    ORDER,
    MayaTableDriver,
    Turn,
    audience_problems,
    collapse,
    dice_in,
    private_dice_in_database,
    public_dice_leaks,
    rank,
    reveal_problems,
    sightings,
    story_lines,
    turn_problems,
    user_id_of,
)
from tests.e2e.transcript import Message, Transcript
from tests.e2e.world import Channel, User

SEED = "20240607"


def legal_above(announced: int | None) -> list[str]:
    """The values one may announce over ``announced`` in Mia (strictly stronger)."""
    floor = -1 if announced is None else rank(announced)
    return [str(v) for v in ORDER if rank(v) > floor]


def pick_announcement(rng: random.Random, dice_value: int | None, offered: list[str]) -> str:
    """Tell the truth when it is allowed, else bluff with one of the smallest values."""
    if dice_value is not None and str(dice_value) in offered and rng.random() < 0.8:
        return str(dice_value)
    low = [v for v in offered if v != "photo"][:3] or offered
    return rng.choice(low)


def wants_to_lift(rng: random.Random, announced: int) -> bool:
    return rng.random() < 0.15 + 0.04 * rank(announced)


@dataclass
class MiaRecord:
    """What the test itself saw of a Mia game, to check the bot's story against."""

    lives: dict[int, int]
    out: set[int] = field(default_factory=set)
    refusals_checked: int = 0


def follow_lives(record: MiaRecord, lines: list[str]) -> None:
    """Lives go down by exactly what each public "perd N vies (reste R)" line says."""
    for line in lines:
        lost = LIFE_LOST_LINE.match(line)
        if lost:
            player = user_id_of(lost.group(1))
            count, remaining = int(lost.group(2)), int(lost.group(3))
            assert player in record.lives, line
            assert count in (1, 2), line
            assert remaining == max(0, record.lives[player] - count), (line, record.lives)
            record.lives[player] = remaining
        gone = ELIMINATED_LINE.match(line)
        if gone:
            player = user_id_of(gone.group(1))
            assert player is not None and record.lives[player] == 0, line
            record.out.add(player)


def check_finished_mia(
    emulator: DiscordEmulator, driver: MayaTableDriver, record: MiaRecord, lives: int
) -> int:
    """The winner line is public, lives went down as announced, nobody out played again."""
    channel = driver.channel
    lines = story_lines(emulator.transcript, channel.id)
    replayed = MiaRecord({p: lives for p in record.lives})
    follow_lives(replayed, lines)
    assert replayed.lives == record.lives
    survivors = [p for p, left in record.lives.items() if left > 0]
    assert len(survivors) == 1, record.lives
    winner = survivors[0]
    winner_lines = emulator.transcript.containing("gagne la partie", channel.id)
    assert winner_lines, "no winner line"
    assert all(not m.ephemeral for m in winner_lines)
    assert f"<@{winner}> gagne la partie" in winner_lines[-1].text
    assert driver.hearts() == record.lives
    assert driver.table is not None and f"🏆 <@{winner}>" in driver.table.text
    assert turn_problems(emulator.transcript, channel.id) == []
    assert public_dice_leaks(emulator.transcript, channel.id) == []
    assert audience_problems(emulator) == []
    problems, _ = reveal_problems(emulator.transcript, channel.id)
    assert problems == []
    return winner


async def start_mia_with_slash(
    emulator: DiscordEmulator, driver: MayaTableDriver, starter: User, others: list[User]
) -> None:
    started = await driver.slash(starter, "maya start", {"mode": "vies"})
    opened = await started.reply()
    assert not opened.ephemeral and "Mia" in opened.text
    await driver.find_table()
    for user in others:
        joined = await (await driver.slash(user, "maya rejoindre")).reply()
        # Answered privately; the lobby shows who sits at the table.
        assert joined.ephemeral and f"<@{user.id}> rejoint" in joined.text
        told = f"<@{user.id}> rejoint"
        await driver.emulator.wait_for(
            lambda told=told: driver.table is not None and told in driver.table.text,
            what="the join told on the lobby",
        )
    began = await (await driver.slash(starter, "maya commencer")).reply()
    assert not began.ephemeral and "La partie commence" in began.text


async def refuse_the_eliminated(
    driver: MayaTableDriver, record: MiaRecord, users: dict[int, User], known_out: set[int]
) -> None:
    """Someone just went out: whatever they try now is refused, privately."""
    for player in sorted(record.out - known_out):
        user = users[player]
        for command in ("maya lancer", "soulever"):
            answer = await (await driver.slash(user, command)).reply()
            assert answer.ephemeral and answer.audience == player
            assert "éliminé" in answer.text or "You are out" in answer.text, answer.text
            record.refusals_checked += 1
        known_out.add(player)


# ------------------------------------------------------------------------------ 1. slash only


def panel_step(panel: Message) -> int:
    """The decision point a private panel belongs to (its select's ``gobsel:table:step``)."""
    assert panel.selects, panel.text
    return int((panel.selects[0].custom_id or "").split(":")[2])


async def slash_announce(
    emulator: DiscordEmulator,
    driver: MayaTableDriver,
    user: User,
    panel: Message,
    announced: int | None,
    rng: random.Random,
    others: list[User],
) -> int:
    """Read the dice in the private answer, ask the autocomplete, announce with /maya annoncer."""
    assert panel.ephemeral and panel.audience == user.id
    ((_, _, value),) = dice_in(panel.text)
    if user.locale.startswith("en"):
        assert "Your dice" in panel.text
    again = await (await driver.slash(user, "maya des")).reply()
    assert again.ephemeral and again.audience == user.id
    assert dice_in(again.text) == dice_in(panel.text)
    typed = await emulator.autocomplete(
        user, driver.channel, "maya annoncer", {"valeur": ""}, "valeur"
    )
    offered = [choice["value"] for choice in await typed.autocomplete_choices()]
    assert offered == legal_above(announced)
    labels = {c["value"]: c["name"] for c in typed.choices or []}
    assert labels["21"] == "🔥 MIA (21)"  # Mia's players call 21 the Mia
    assert all(labels[v] == f"double {v[0]}" for v in labels if v[0] == v[-1] and len(v) == 2)
    # Someone else typing sees nothing to announce: it is not their turn.
    nosy = await emulator.autocomplete(
        others[0], driver.channel, "maya annoncer", {"valeur": ""}, "valeur"
    )
    assert list(await nosy.autocomplete_choices()) == []
    choice = pick_announcement(rng, value, offered)
    said = await (await driver.slash(user, "maya annoncer", {"valeur": choice})).reply()
    assert not said.ephemeral
    shown = "**MIA**" if choice == "21" else f"**{choice}**"
    if len(choice) == 2 and choice[0] == choice[1]:
        shown = f"**double {choice[0]}**"
    assert f"<@{user.id}> annonce {shown}" in said.text, said.text
    assert not dice_in(said.text)
    return int(choice)


@pytest.mark.bot_env(GOBELET_DICE_SEED=SEED)
async def test_three_players_play_mia_to_the_winner_with_slash_commands_only(
    emulator: DiscordEmulator, bot: BotProcess
) -> None:
    alice, bob, carol = (emulator.user(n) for n in ("alice", "bob", "carol"))
    users = {u.id: u for u in (alice, bob, carol)}
    driver = MayaTableDriver(emulator, emulator.channel("bar", "comptoir"))
    await start_mia_with_slash(emulator, driver, alice, [bob, carol])
    rng = random.Random(1)
    record = MiaRecord({p: 3 for p in users})
    known_out: set[int] = set()
    announced: int | None = None
    turn = await driver.wait_turn()
    turns = consumed = 0
    while turn.phase != "over":
        acted_at = turn.step
        turns += 1
        assert turns < 300, "the game does not end"
        user = users[turn.player]
        others = [u for u in users.values() if u.id != user.id and u.id not in record.out]
        if turn.phase == "open":
            announced = None
            panel = await (await driver.slash(user, "maya lancer")).reply()
            acted_at = panel_step(panel)
            announced = await slash_announce(emulator, driver, user, panel, announced, rng, others)
        elif turn.phase == "respond":
            assert announced is not None
            if wants_to_lift(rng, announced):
                lifted = await (await driver.slash(user, "soulever")).reply()
                assert not lifted.ephemeral and "soulève" in lifted.text
                assert len(dice_in(lifted.text)) == 1
            else:
                panel = await (await driver.slash(user, "croire")).reply()
                acted_at = panel_step(panel)
                announced = await slash_announce(
                    emulator, driver, user, panel, announced, rng, others
                )
        elif turn.phase == "maya":
            command = "soulever" if rng.random() < 0.5 else "croire"
            answer = await (await driver.slash(user, command)).reply()
            assert not answer.ephemeral and "perd" in answer.text
        elif turn.phase == "announce":  # a panel to open again: /maya des
            panel = await (await driver.slash(user, "maya des")).reply()
            announced = await slash_announce(emulator, driver, user, panel, announced, rng, others)
        else:
            raise AssertionError(f"unexpected turn {turn}")
        turn = await driver.wait_turn(after=acted_at)
        lines = story_lines(emulator.transcript, driver.channel.id)
        follow_lives(record, lines[consumed:])
        consumed = len(lines)
        assert driver.hearts() == record.lives
        if turn.phase != "over":
            await refuse_the_eliminated(driver, record, users, known_out)
    check_finished_mia(emulator, driver, record, 3)
    assert record.out and record.refusals_checked >= 2


# ------------------------------------------------------------------------------ 1. buttons only


async def button_announce(
    emulator: DiscordEmulator,
    driver: MayaTableDriver,
    user: User,
    panel: Message,
    announced: int | None,
    rng: random.Random,
) -> int:
    """Read the private panel; sometimes open it again with "Mes dés"; pick in its menu."""
    assert panel.ephemeral and panel.audience == user.id
    if rng.random() < 0.3:
        again = await driver.show_dice(user)
        assert again.ephemeral and again.audience == user.id and again is not panel
        assert dice_in(again.text) == dice_in(panel.text)
        panel = again
    ((_, _, value),) = dice_in(panel.text)
    if user.locale.startswith("en"):
        assert "Your dice" in panel.text
    offered = driver.menu_values(panel)
    assert offered == list(reversed(legal_above(announced))), offered  # strongest first
    assert driver.panel_actions(panel) == []  # no blind plays in Mia
    choice = pick_announcement(rng, value, list(reversed(offered)))
    step = panel_step(panel)
    await driver.announce(user, panel, choice)
    # The private panel becomes the receipt of the announcement, without the dice.
    await emulator.wait_for(lambda: "📣" in panel.text and not panel.selects)
    assert not dice_in(panel.text)
    await driver.wait_turn(after=step)
    return int(choice)


async def nosy_click(
    driver: MayaTableDriver, user: User, current: int, *, out: bool = False
) -> Message:
    """Someone whose turn it is not clicks the table: a private refusal naming the player
    whose turn it is (or saying they are out); "Mes dés" shows them no dice."""
    assert driver.table is not None
    button = next(c for c in driver.table.custom_ids if not c.endswith(":join"))
    clicked = await driver.emulator.click(user, driver.table, button)
    answer = await clicked.reply()
    assert answer.ephemeral and answer.audience == user.id
    assert not dice_in(answer.text)
    if out and not button.endswith(":dice"):
        assert "éliminé" in answer.text or "You are out" in answer.text, answer.text
    elif not button.endswith(":dice"):
        assert f"<@{current}>" in answer.text, answer.text
    return answer


@pytest.mark.bot_env(GOBELET_DICE_SEED=SEED)
async def test_three_players_play_mia_to_the_winner_with_buttons_only(
    emulator: DiscordEmulator, bot: BotProcess
) -> None:
    alice, bob, carol = (emulator.user(n) for n in ("alice", "bob", "carol"))
    users = {u.id: u for u in (alice, bob, carol)}
    driver = MayaTableDriver(emulator, emulator.channel("bar", "terrasse"))
    assert not (await (await driver.slash(alice, "maya start", {"mode": "vies"})).reply()).ephemeral
    await driver.find_table()
    for user in (bob, carol):
        await driver.click(user, "join")
        await emulator.wait_for(lambda u=user: f"<@{u.id}>" in (driver.table.text or ""))
    await driver.click(alice, "start")
    rng = random.Random(2)
    record = MiaRecord({p: 3 for p in users})
    eliminated_refused: set[int] = set()
    announced: int | None = None
    turn = await driver.wait_turn()
    turns = consumed = 0
    while turn.phase != "over":
        turns += 1
        assert turns < 300, "the game does not end"
        user = users[turn.player]
        others = [u for u in users.values() if u.id != user.id and u.id not in record.out]
        if rng.random() < 0.2:
            await nosy_click(driver, rng.choice(others), user.id)
        for player in sorted(record.out - eliminated_refused):
            if turn.phase in ("open", "respond", "maya"):
                await nosy_click(driver, users[player], user.id, out=True)
                eliminated_refused.add(player)
        acted_at = turn.step
        if turn.phase == "open":
            panel = await driver.click(user, "roll")
            assert panel is not None
            announced = await button_announce(emulator, driver, user, panel, None, rng)
        elif turn.phase == "respond":
            assert announced is not None
            if wants_to_lift(rng, announced):
                await driver.click(user, "lift")
            else:
                panel = await driver.click(user, "believe")
                assert panel is not None
                announced = await button_announce(emulator, driver, user, panel, announced, rng)
        elif turn.phase == "maya":
            assert set(turn.actions) == {"lift", "accept_maya"}
            await driver.click(user, "lift" if rng.random() < 0.5 else "accept_maya")
        elif turn.phase == "announce":
            panel = await driver.show_dice(user)
            announced = await button_announce(emulator, driver, user, panel, announced, rng)
        else:
            raise AssertionError(f"unexpected turn {turn}")
        turn = await driver.wait_turn(after=acted_at)
        lines = story_lines(emulator.transcript, driver.channel.id)
        follow_lives(record, lines[consumed:])
        consumed = len(lines)
        assert driver.hearts() == record.lives
    check_finished_mia(emulator, driver, record, 3)
    assert record.out and eliminated_refused
    # Nothing but buttons and the menu after /maya start.
    commands = [i for i in emulator.interactions if i.type in (2, 4)]
    assert [i.command for i in commands] == ["maya start"]


# ------------------------------------------------------------------------------ 2. leaks

SLASH_FOR = {
    "roll": ("maya lancer", {}),
    "roll_blind": ("maya lancer", {"aveugle": True}),
    "roll_reverse": ("maya lancer", {"inverser": True}),
    "believe": ("croire", {}),
    "believe_blind": ("croire", {"aveugle": True}),
    "lift": ("soulever", {}),
    "fragile": ("croire", {"style": "fragile"}),
    "warrior": ("croire", {"style": "warrior"}),
    "accept_maya": ("croire", {}),
}
PANEL_ACTIONS = {"roll", "roll_blind", "roll_reverse", "believe", "believe_blind"}


@dataclass
class RandomGame:
    """Humans acting at random among what their own messages offer; CPUs in the other seats."""

    emulator: DiscordEmulator
    driver: MayaTableDriver
    humans: list[User]
    rng: random.Random
    seen: dict[str, int] = field(default_factory=dict)  # what happened, for coverage
    turn: Turn = field(default_factory=lambda: Turn(0, None, "lobby", ()))

    def count(self, what: str) -> None:
        self.seen[what] = self.seen.get(what, 0) + 1

    @property
    def by_id(self) -> dict[int, User]:
        return {user.id: user for user in self.humans}

    async def open(self, preset: str, cpus: int) -> None:
        starter, *others = self.humans
        level = self.rng.choice(["facile", "moyen", "difficile"])
        options = {"mode": preset, "cpu": cpus, "niveau": level}
        if preset == "vies":
            options["vies"] = LEAK_LIVES
        started = await self.driver.slash(starter, "maya start", options)
        assert not (await started.reply()).ephemeral
        await self.driver.find_table()
        for user in others:
            if self.rng.random() < 0.5:
                await self.driver.click(user, "join")
            else:
                await (await self.driver.slash(user, "maya rejoindre")).reply()
        await self.emulator.wait_for(
            lambda: all(f"<@{u.id}>" in (self.driver.table.text or "") for u in self.humans)
        )
        if self.rng.random() < 0.5:
            await self.driver.click(starter, "start")
        else:
            await (await self.driver.slash(starter, "maya commencer")).reply()

    async def noise(self, current: int) -> None:
        """Someone else does something that must not change the game nor leak anything."""
        user = self.rng.choice([u for u in self.humans if u.id != current])
        what = self.rng.choice(["click", "des", "table", "regles"])
        self.count("noise_" + what)
        if what == "click":
            out = any(
                line.startswith(f"☠️ <@{user.id}>")
                for line in story_lines(self.emulator.transcript, self.driver.channel.id)
            )
            await nosy_click(self.driver, user, current, out=out)
            return
        command = {"des": "maya des", "table": "maya table", "regles": "maya regles"}[what]
        answer = await (await self.driver.slash(user, command)).reply()
        assert answer.ephemeral and answer.audience == user.id
        assert not dice_in(answer.text), answer.text

    async def announce(self, user: User, panel: Message) -> int:
        """Maybe a blind play from the panel, then a random legal announcement from its menu."""
        assert panel.ephemeral and panel.audience == user.id
        step = panel_step(panel)
        blind_plays = self.driver.panel_actions(panel)
        if blind_plays and self.rng.random() < 0.2:
            play = self.rng.choice(blind_plays)
            self.count(play)
            await self.driver.panel_click(user, panel, play)
            await self.emulator.wait_for(lambda: self.driver.panel_actions(panel) == [])
            assert "Avant" in panel.text or "Before" in panel.text, panel.text
            step = panel_step(panel)
        offered = self.driver.menu_values(panel)
        assert offered, panel.text
        dice = dice_in(panel.text)
        truth = str(dice[0][2]) if dice and "Avant" not in panel.text else None
        if truth in offered and self.rng.random() < 0.6:
            choice = truth
        else:
            choice = self.rng.choice(offered[-4:] + (["photo"] if "photo" in offered else []))
        self.count("photo" if choice == "photo" else "announce")
        await self.driver.announce(user, panel, choice)
        await self.emulator.wait_for(lambda: "📣" in panel.text and not panel.selects)
        return step

    async def act(self, turn: Turn) -> int:
        """The current human plays one random action; returns the step to wait beyond."""
        user = self.by_id[turn.player]
        if turn.phase == "announce":
            panel = await self.driver.show_dice(user)
            return await self.announce(user, panel)
        choices = [a for a in turn.actions if a not in ("join", "dice")]
        weights = [1 if a.endswith("_blind") else 3 for a in choices]
        action = self.rng.choices(choices, weights)[0]
        self.count(action)
        if self.rng.random() < 0.25:  # the same through its slash command
            command, options = SLASH_FOR[action]
            answer = await (await self.driver.slash(user, command, options)).reply()
            if action in PANEL_ACTIONS:
                return await self.announce(user, answer)
            assert not answer.ephemeral, answer.text
            return turn.step
        panel = await self.driver.click(user, action)
        if action in PANEL_ACTIONS:
            assert panel is not None
            if self.rng.random() < 0.2:
                panel = await self.driver.show_dice(user)
            return await self.announce(user, panel)
        return turn.step

    async def begin(self) -> None:
        self.turn = await self.driver.wait_turn()

    async def step(self, rounds: int | None = None) -> bool:
        """One human action (or ``/maya stop`` after ``rounds``); False once the game is over."""
        turn = self.turn
        if turn.phase == "over":
            return False
        if rounds is not None and self.driver.round() > rounds:
            self.count(f"stopped_at_round_{self.driver.round()}")
            starter = self.humans[0]
            stopped = await (await self.driver.slash(starter, "maya stop")).reply()
            assert not stopped.ephemeral
            said = stopped.text
            assert "arrête la partie" in said or "stops the game" in said, said
            assert "La partie est terminée" in said or "The game is over" in said, said
            assert "Bilan" in said or "Final tally" in said, said
            await self.emulator.wait_for(self.driver.over)
            return False
        if self.rng.random() < 0.15:
            await self.noise(turn.player or 0)
        after = await self.act(turn)
        self.turn = await self.driver.wait_turn(after=after)
        return True

    async def play(self, *, rounds: int | None = None, limit: int = 400) -> None:
        await self.begin()
        for _ in range(limit):
            if not await self.step(rounds):
                return
        raise AssertionError(f"no end after {limit} turns")

    def check(self, bot: BotProcess) -> int:
        """Everything docs/rules.md#hidden-dice promises; returns the reveals checked."""
        transcript = self.emulator.transcript
        channel = self.driver.channel.id
        assert public_dice_leaks(transcript, channel) == []
        assert audience_problems(self.emulator) == []
        problems, checked = reveal_problems(transcript, channel)
        assert problems == []
        truth = private_dice_in_database(bot, self.driver.table_id())
        for user in self.humans:
            shown = [(a, b) for a, b, _ in sightings(transcript, user.id, channel)]
            assert collapse(shown) == collapse(truth.get(user.id, [])), user.name
            for other in self.humans:
                if other is not user:  # their ephemerals are all theirs, never someone else's
                    assert all(
                        m.audience == other.id for m in transcript.ephemeral_to(other.id, channel)
                    )
        return checked


LEAK_GAMES = [
    pytest.param("soiree", ("alice", "bob", "carol"), 2, 30, 11, id="soiree-3-users-2-cpus"),
    pytest.param("soiree", ("bob", "alice", "carol", "dave"), 1, 30, 12, id="soiree-4-users-1-cpu"),
    pytest.param("vies", ("carol", "alice", "bob"), 2, None, 13, id="vies-3-users-2-cpus"),
    pytest.param("vies", ("alice", "bob", "carol", "dave"), 1, None, 14, id="vies-4-users-1-cpu"),
]
LEAK_LIVES = 6  # a long Mia: 6 lives each


@pytest.mark.bot_env(GOBELET_DICE_SEED=SEED)
@pytest.mark.parametrize(("preset", "names", "cpus", "rounds", "seed"), LEAK_GAMES)
async def test_long_random_games_never_show_a_hidden_die(
    emulator: DiscordEmulator,
    bot: BotProcess,
    preset: str,
    names: tuple[str, ...],
    cpus: int,
    rounds: int | None,
    seed: int,
) -> None:
    humans = [emulator.user(name) for name in names]
    game = RandomGame(
        emulator,
        MayaTableDriver(emulator, emulator.channel("bar", "comptoir")),
        humans,
        random.Random(seed),
    )
    await game.open(preset, cpus)
    await game.play(rounds=rounds)
    checked = game.check(bot)
    assert checked >= 2, game.seen
    if preset == "vies":
        assert emulator.transcript.containing("gagne la partie", game.driver.channel.id)
    else:  # stopped with /maya stop once past the last round
        assert rounds is not None
        stops = [int(k.rsplit("_", 1)[1]) for k in game.seen if k.startswith("stopped_at_round_")]
        assert len(stops) == 1 and stops[0] > rounds, game.seen


# ------------------------------------------------------------------------------ 3. timers

TIMED_OUT = "n'a pas joué à temps"
LEFT_AFTER_3 = "a laissé passer 3 tours de suite"


async def play_simply(driver: MayaTableDriver, user: User, turn: Turn, rng: random.Random) -> int:
    """A quick, plain turn through buttons; returns the step to wait beyond."""
    if (turn.phase == "respond" and rng.random() < 0.3) or turn.phase == "maya":
        await driver.click(user, "lift")
        return turn.step
    if turn.phase == "announce":
        panel = await driver.show_dice(user)
    else:
        panel = await driver.click(user, "roll" if turn.phase == "open" else "believe")
    assert panel is not None and panel.ephemeral and panel.audience == user.id
    if not panel.selects:
        # The bot played on meanwhile (the absent player's last turn, then their leaving).
        assert "Trop tard" in panel.text, panel.text
        return turn.step
    offered = list(reversed(driver.menu_values(panel)))  # weakest first
    dice = dice_in(panel.text)
    choice = pick_announcement(rng, dice[0][2] if dice else None, offered)
    step = panel_step(panel)
    await driver.announce(user, panel, choice)
    return step


@pytest.mark.bot_env(GOBELET_TURN_SECONDS="1", GOBELET_DICE_SEED=SEED)
async def test_an_absent_player_is_played_for_then_leaves_after_three_turns(
    emulator: DiscordEmulator, bot: BotProcess
) -> None:
    alice, bob, carol = (emulator.user(n) for n in ("alice", "bob", "carol"))
    players = {u.id: u for u in (alice, bob)}  # carol never acts once seated
    driver = MayaTableDriver(emulator, emulator.channel("bar", "comptoir"))
    await (await driver.slash(alice, "maya start", {"mode": "vies", "vies": 6})).reply()
    await driver.find_table()
    for user in (bob, carol):
        await (await driver.slash(user, "maya rejoindre")).reply()
    await (await driver.slash(alice, "maya commencer")).reply()
    rng = random.Random(3)
    channel = driver.channel.id
    carol_turns = 0
    turn = await driver.wait_turn()
    # The very first turn shows its countdown too.
    assert turn.step == 0 and "⏱️ <t:" in (driver.table.text if driver.table else "")
    carol_timed_out = f"⏱️ <@{carol.id}> {TIMED_OUT}"
    for _ in range(300):
        if turn.phase == "over":
            break
        if turn.player == carol.id:
            carol_turns += 1
            assert carol_turns <= 3, "carol got a turn after leaving"
            # The table shows the turn's deadline; nobody clicks; the CPU plays for her.
            assert driver.table is not None and "⏱️ <t:" in driver.table.text
            shown = emulator.transcript.shown_lines
            before = sum(carol_timed_out in line for line in shown(channel))
            while turn.player == carol.id and turn.phase != "over":  # her whole turn
                turn = await driver.wait_turn(after=turn.step, timeout=5)
            notes = sum(carol_timed_out in line for line in shown(channel))
            # The third time she is not played for: she leaves instead (told in public).
            assert notes == before + (1 if carol_turns < 3 else 0)
            continue
        after = await play_simply(driver, players[turn.player], turn, rng)
        turn = await driver.wait_turn(after=after, timeout=5)
    assert turn.phase == "over"
    assert carol_turns == 3
    lines = story_lines(emulator.transcript, channel)
    timed_out = [i for i, line in enumerate(lines) if carol_timed_out in line]
    left = [i for i, line in enumerate(lines) if LEFT_AFTER_3 in line]
    assert len(timed_out) == 2 and len(left) == 1
    assert lines[left[0]] == f"⏱️ <@{carol.id}> {LEFT_AFTER_3}."
    assert lines[left[0] + 1] == f"🚪 <@{carol.id}> quitte la table."
    assert sum("quitte la table" in line for line in lines) == 1
    assert left[0] > timed_out[-1]
    # The game went on between alice and bob, to a winner, with carol shown as gone.
    assert any("Manche" in line for line in lines[left[0] :])
    winner_lines = emulator.transcript.containing("gagne la partie", channel)
    assert winner_lines and not winner_lines[-1].ephemeral
    assert any(f"<@{p}> gagne" in winner_lines[-1].text for p in players)
    assert f"~~<@{carol.id}>~~ — parti·e" in (driver.table.text if driver.table else "")
    assert turn_problems(emulator.transcript, channel) == []
    assert public_dice_leaks(emulator.transcript, channel) == []
    # Nobody answered for carol: her only private message is the answer to her joining.
    (joined,) = emulator.transcript.ephemeral_to(carol.id)
    assert "rejoint" in joined.text


@pytest.mark.bot_env(GOBELET_TURN_SECONDS="1", GOBELET_DICE_SEED=SEED)
async def test_when_the_last_human_times_out_the_cpus_do_not_play_on_alone(
    emulator: DiscordEmulator, bot: BotProcess
) -> None:
    alice = emulator.user("alice")
    driver = MayaTableDriver(emulator, emulator.channel("bar", "comptoir"))
    await (await driver.slash(alice, "maya start", {"mode": "soiree", "cpu": 2})).reply()
    await driver.find_table()
    await (await driver.slash(alice, "maya commencer")).reply()
    channel = driver.channel.id
    ended = await emulator.wait_message(
        driver.channel, containing="La partie est terminée", timeout=10
    )
    lines = story_lines(emulator.transcript, channel)
    assert sum(TIMED_OUT in line for line in lines) == 2
    assert lines.index(next(line for line in lines if LEFT_AFTER_3 in line)) < lines.index(
        ended.text.splitlines()[0]
    )
    await emulator.wait_for(driver.over)
    await emulator.wait_for(  # the table's copies above the last are gone
        lambda: not any(m.table_controls for m in emulator.transcript.public(driver.channel.id)),
        what="the table settled",
    )
    quiet = len(emulator.transcript.events)
    await asyncio.sleep(0.5)  # CPUs play at once (no delay): they would have spoken by now
    assert len(emulator.transcript.events) == quiet
    # The channel is free again.
    again = await (await driver.slash(alice, "maya start", {"mode": "vies"})).reply()
    assert not again.ephemeral and "ouvre une table" in again.text


async def test_when_the_last_human_leaves_the_cpus_do_not_play_on_alone(
    emulator: DiscordEmulator, bot: BotProcess
) -> None:
    alice = emulator.user("alice")
    driver = MayaTableDriver(emulator, emulator.channel("bar", "terrasse"))
    await (await driver.slash(alice, "maya start", {"mode": "soiree", "cpu": 2})).reply()
    await driver.find_table()
    await (await driver.slash(alice, "maya commencer")).reply()
    await driver.wait_turn()
    left = await (await driver.slash(alice, "maya quitter")).reply()
    assert f"<@{alice.id}> quitte la table" in left.text
    await emulator.wait_message(driver.channel, containing="La partie est terminée")
    await emulator.wait_for(driver.over)
    await emulator.wait_for(  # the table's copies above the last are gone
        lambda: not any(m.table_controls for m in emulator.transcript.public(driver.channel.id)),
        what="the table settled",
    )
    quiet = len(emulator.transcript.events)
    await asyncio.sleep(0.5)
    assert len(emulator.transcript.events) == quiet


# ------------------------------------------------------------------------------ 4. channels

FRENCH_WORDS = ("annonce ", "soulève", "Manche", " ouvre", " perd ", " croit ", "gagne", "Bilan")
ENGLISH_WORDS = ("announces", "lifts", "Round", " opens", " loses ", " believes ", " wins ")


def public_text(emulator: DiscordEmulator, channel: Channel) -> list[str]:
    """Every version of every public message in a channel."""
    return [
        event.snapshot["text"]
        for event in emulator.transcript.events
        if event.message.channel_id == channel.id
        and not event.message.ephemeral
        and event.kind != "delete"
    ]


@pytest.mark.bot_env(GOBELET_DICE_SEED=SEED)
async def test_three_tables_in_two_servers_play_at_once_without_interfering(
    emulator: DiscordEmulator, bot: BotProcess
) -> None:
    def game(guild: str, channel: str, names: tuple[str, ...], seed: int) -> RandomGame:
        driver = MayaTableDriver(emulator, emulator.channel(guild, channel))
        users = [emulator.user(name) for name in names]
        return RandomGame(emulator, driver, users, random.Random(seed))

    comptoir = game("bar", "comptoir", ("alice", "bob"), 31)  # Mia, with a CPU
    terrasse = game("bar", "terrasse", ("carol", "dave", "bob"), 32)  # Maya, stopped
    general = game("pub", "general", ("dave", "alice", "carol"), 33)  # Mia, in English
    games = [(comptoir, "vies", 1, None), (terrasse, "soiree", 1, 8), (general, "vies", 0, None)]
    for each, preset, cpus, _ in games:
        await each.open(preset, cpus)
    for each, *_ in games:
        await each.begin()
    busy = list(games)
    for _ in range(600):  # one action at each table in turn
        busy = [g for g in busy if await g[0].step(g[3])]
        if not busy:
            break
    assert not busy, "some table did not finish"

    tables = {g.driver.channel.id: g.driver.table_id() for g, *_ in games}
    assert len(set(tables.values())) == 3
    players = {g.driver.channel.id: {u.id for u in g.humans} for g, *_ in games}
    for message in emulator.transcript.messages:
        # Each table's buttons, menus and panels stay in its own channel...
        for custom_id in message.custom_ids:
            if custom_id.startswith(("gob:", "gobsel:")):
                assert int(custom_id.split(":")[1]) == tables[message.channel_id], custom_id
        # ...and its story names only its own players.
        if not message.ephemeral and message.channel_id in players:
            for mentioned in MENTION.findall(message.content):
                assert int(mentioned) in players[message.channel_id], message.content
    for each, preset, *_ in games:
        each.check(bot)
        if preset == "vies":
            won = [
                line
                for line in story_lines(emulator.transcript, each.driver.channel.id)
                if "🏆" in line
            ]
            assert won, each.driver.channel
    # The English server's public lines are English; the French server's are French.
    english = "\n".join(public_text(emulator, general.driver.channel))
    assert "announces" in english and "wins the game" in english
    assert not [w for w in FRENCH_WORDS if w in english], english[-2000:]
    for each in (comptoir, terrasse):
        french = "\n".join(public_text(emulator, each.driver.channel))
        assert "annonce" in french
        assert not [w for w in ENGLISH_WORDS if w in french], french[-2000:]
    # Private answers follow the reader's client: carol (English) reads English at a French table.
    carol = emulator.user("carol")
    hers = emulator.transcript.ephemeral_to(carol.id, terrasse.driver.channel.id)
    assert hers
    for message in hers:
        assert not [w for w in ("Tes dés", "Tu ", "Ce n'est", "Choisis") if w in message.text]


# ------------------------------------------------------------------------------ the detectors


class FakeChannel:
    """A transcript written by hand, to prove the checks above do catch what they look for."""

    def __init__(self) -> None:
        self.transcript = Transcript()
        self.clock = 0.0

    def say(self, text: str, *, to: int | None = None, embeds: list | None = None) -> Message:
        self.clock += 1
        message = Message(
            id=int(self.clock),
            channel_id=7,
            guild_id=1,
            author_id=99,
            content=text,
            embeds=embeds or [],
            visibility="ephemeral" if to is not None else "public",
            audience=to,
        )
        self.transcript.record("create", message, self.clock)
        return message


def test_the_detectors_catch_a_die_shown_in_public() -> None:
    fake = FakeChannel()
    fake.say("📣 <@1> annonce **53** → à <@2>.")
    fake.say("🫣 <@2> soulève : ⚄ ⚂ (53) — <@1> avait annoncé 53, c'était **vrai** !")
    fake.say("⚔️ <@2> lance ⚀ ⚁ — **MAYA** ! <@3> vérifie et boit.")
    fake.say("🎲 Tes dés : ⚄ ⚂ (53)", to=1)
    assert public_dice_leaks(fake.transcript) == []
    fake.say("📣 <@1> annonce **53** (⚄ ⚂) → à <@2>.")
    assert len(public_dice_leaks(fake.transcript)) == 1


def test_the_detectors_catch_a_reveal_that_is_not_what_the_announcer_saw() -> None:
    fake = FakeChannel()
    fake.say("🎲 Tes dés : ⚄ ⚂ (53)\nChoisis ton annonce.", to=1)
    fake.say("📣 <@1> annonce **53** → à <@2>.")
    fake.say("🫣 <@2> soulève : ⚂ ⚄ (53) — <@1> avait annoncé 53, c'était **vrai** !")
    assert reveal_problems(fake.transcript, 7) == ([], 1)
    fake.say("🎲 Tes dés : ⚅ ⚂ (63)", to=2)
    fake.say("📣 <@2> annonce **63** → à <@1>.")
    fake.say("🫣 <@1> soulève : ⚅ ⚃ (64) — <@2> avait annoncé 63, c'était **vrai** !")
    problems, checked = reveal_problems(fake.transcript, 7)
    assert checked == 2 and len(problems) == 1
    # A blind announcement is not checked against old dice, but must say it is blind.
    fake.say("👆 Tu as tapoté un dé sans regarder. Avant : ⚀ ⚀ (11)", to=3)
    fake.say("📣 <@3> annonce **11** → à <@1>.")
    assert len(reveal_problems(fake.transcript, 7)[0]) == 2


def test_the_detectors_catch_a_turn_given_to_someone_out() -> None:
    fake = FakeChannel()

    def table(current: int) -> list[dict]:
        return [{"fields": [{"name": "Au tour de", "value": f"<@{current}> ouvre la manche."}]}]

    fake.say("", embeds=table(3))
    fake.say("☠️ <@3> est éliminé·e.")
    fake.say("", embeds=table(2))
    assert turn_problems(fake.transcript, 7) == []
    fake.say("", embeds=table(3))
    assert turn_problems(fake.transcript, 7) != []


def test_the_detectors_see_every_private_die_in_order() -> None:
    fake = FakeChannel()
    fake.say("🎲 Tes dés : ⚄ ⚂ (53)", to=1)
    fake.say("🎲 Tes dés : ⚄ ⚂ (53)", to=1)  # "Mes dés" again
    fake.say("🎲 Tes dés : ⚀ ⚀ (11)", to=2)
    fake.say("🎲 Your dice: ⚅ ⚀ (61)", to=1)
    assert sightings(fake.transcript, 1, 7) == [(5, 3, 53), (6, 1, 61)]
    assert collapse([(5, 3), (5, 3), (6, 1), (5, 3)]) == [(5, 3), (6, 1), (5, 3)]


async def test_a_mia_table_offers_joining_to_a_newcomer_while_the_game_goes_on(
    emulator: DiscordEmulator, bot: BotProcess
) -> None:
    # Joining a Mia game under way is allowed (with the fewest lives anyone has): the table
    # offers it, as it offers every legal move.
    alice, bob, carol = (emulator.user(n) for n in ("alice", "bob", "carol"))
    driver = MayaTableDriver(emulator, emulator.channel("bar", "comptoir"))
    await start_mia_with_slash(emulator, driver, alice, [bob])
    turn = await driver.wait_turn()
    assert "join" in turn.actions, turn.actions
    await driver.click(carol, "join")
    await emulator.wait_for(lambda: f"<@{carol.id}>" in (driver.table.text or ""))
    assert emulator.transcript.containing(f"<@{carol.id}> rejoint la table", driver.channel.id)
    assert driver.hearts()[carol.id] == min(driver.hearts()[alice.id], driver.hearts()[bob.id])
