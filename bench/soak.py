"""A soak of the real bot on PostgreSQL: every game at once, SIGKILLs and database stalls.

    .venv/bin/python bench/soak.py [--tables 40] [--actions 3000] [--kill-every 20]
        [--stall-every 45] [--stall-seconds 2:14] [--think 0] [--database-url URL]
    .venv/bin/python bench/soak.py --tables 60 --actions 100000      # the issue's figure

One bot (``python -m bot``) against the Discord emulator of the end-to-end tests, on a new
database of a throwaway PostgreSQL cluster (``tests/postgres.py``; or ``--database-url``).
Each table has a channel; the channels take the four games in turn: Maya (a soirée, stopped
after a few rounds), Mia (lives), Yadès and Dés du menteur, 2 or 3 people at each, with a
one-hour turn timer so that every move is a person's. People play as they do: they open a
table with the slash command, join and start it with the lobby's buttons, and play with
the table's buttons and menus and their private panel (their dice). When a game ends, the
table opens another.

Meanwhile the bot is SIGKILLed every ``--kill-every`` seconds (give or take a quarter) and
started again on the same database, and now and then (``--stall-every``) another
connection locks the ``games`` table (``LOCK TABLE games IN ACCESS EXCLUSIVE MODE``) for
``--stall-seconds`` inside a transaction: some stalls outlast the bot's 10-second statement
timeout, so that moves are refused with "try again". A person whose move got no answer, or
a "try again", tries again once the bot is back; whoever sees that the table moved on
(their move was stored, its answer lost in a crash) plays the next decision. A move is
*accepted* when the bot answered it without a refusal and the player saw its effect (the
table moved past the decision it was made on). A crash can leave two copies of a table in
its channel (see ``Table.table``): people follow the one that moves, and the figures count
the copies left behind.

After ``--actions`` accepted moves the crashes and stalls stop; the bot is killed one last
time, every table must answer again, the bot is stopped, and the database is checked:

- lost: per game and player, fewer stored moves than accepted ones (0 expected);
- applied twice: more stored moves than moves tried (each tried move, retries included,
  may be stored once; 0 expected);
- each game's version is the number of its stored moves (a move is one transaction: its
  events share one ``created_at``), and its event log replays, with the engine, to its
  stored snapshot;
- leaks: no public message of a Maya, Mia or menteur table ever showed a hidden die
  (``tests.e2e.maya_driver.public_dice_leaks``, and menteur's reveals only), and every
  private message went to the user of its interaction (``audience_problems``);
- resumed: after each restart, which tables answered before the next crash; after the
  last one, every table.

Printed: a markdown table of the figures (and the machine's load), then the tracebacks the
bot logged over all its runs, by the innermost frame of its own code. Ctrl-C stops the run
early and checks what was played so far.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import re
import signal
import sys
import time
from collections import Counter, defaultdict
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import ClassVar, Literal

import asyncpg

if __package__ in (None, ""):  # run as a file: python bench/soak.py
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.harness import (
    STALE_REFUSAL,
    STORAGE_REFUSAL,
    BenchEmulator,
    IndexedTranscript,
    build_world,
    cpu_seconds,
    database,
    describe_database,
    load_note,
    machine_cpu_seconds,
    refusal,
    run,
)
from bot.games import REGISTRY
from bot.i18n import template
from tests.e2e.botprocess import BotDied, BotProcess, BotStartError
from tests.e2e.emulator import EmulatorError, InjectedInteraction
from tests.e2e.maya_driver import (
    MayaTableDriver,
    audience_problems,
    dice_in,
    public_dice_leaks,
)
from tests.e2e.test_maya_vies import pick_announcement
from tests.e2e.transcript import Message, Transcript, TranscriptEvent
from tests.e2e.world import Channel, User, World

BOT_ENV = {
    "GOBELET_CPU_DELAY_SECONDS": "0",
    "GOBELET_TURN_SECONDS": "3600",  # no timer plays for anyone: every move is a person's
    "GOBELET_LOG_LEVEL": "INFO",
}
GAMES = ("soiree", "vies", "yades", "menteur")
NAMES = {"soiree": "Maya soirée", "vies": "Mia (vies)", "yades": "Yadès", "menteur": "menteur"}
SOIREE_ROUNDS = 6  # a soirée never ends by itself: its starter stops it after this many
# How long a person waits for the answer to one try: a stall (up to its length) plus the
# bot's statement timeout (10 s) plus the watchdog's margin, before trying again.
ANSWER_WAIT = 30.0
TRIES = 40  # tries of one move before the player gives up on it (the bot never comes back)
LAST_ANSWERS_WAIT = 90.0  # after the last restart, how long every table has to answer
START_TIMEOUT = 90.0
GOB = re.compile(r"^gob(?:sel)?:(\d+):(\d+)(?::(\w+))?$")
YADES_TURN = re.compile(r"🎯 .*?<@(\d+)>")
MENTEUR_TURN = re.compile(r"👉 <@(\d+)>")
GLYPHS = "⚀⚁⚂⚃⚄⚅"
# "This button belongs to a game that is over", "no game here": a table message that a
# crash kept from its last redraw still shows the buttons of a game since ended.
OVER_REFUSAL = template("fr", "err.stale")
NO_TABLE_REFUSAL = template("fr", "err.no_table").split("{")[0]
BUSY_REFUSAL = template("fr", "err.table_busy").split("{")[0]
# Who made a stored move: its first event's ``player``, but a Maya roll opens a round, and
# its first event is the round's start, naming the opener.
ACTORS = {("maya", "round_started"): "opener"}
MENTEUR_REVEAL = "Tous les dés"
MENTEUR_HAND = "　"  # each hand of a reveal is a line of its own, indented so


# --------------------------------------------------------------------------- reading a table


def controls(message: Message) -> list[tuple[int, int, str]]:
    """A message's table components: (table, step, action); a menu's action is "announce"."""
    found = []
    for custom_id in message.custom_ids:
        matched = GOB.match(custom_id)
        if matched:
            found.append((int(matched[1]), int(matched[2]), matched[3] or "announce"))
    return found


def step_of(message: Message) -> int:
    return max((step for _, step, _ in controls(message)), default=-1)


def table_of(message: Message) -> int | None:
    return next((table for table, _, _ in controls(message)), None)


def button(message: Message, action: str) -> str | None:
    """The custom_id of the message's button for ``action`` (``reroll`` matches any mask)."""
    for custom_id in message.custom_ids:
        matched = GOB.match(custom_id)
        if matched and matched[3] and (matched[3] == action or matched[3].startswith(action)):
            return custom_id
    return None


# --------------------------------------------------------------------------- the record


@dataclass
class Move:
    """One move a person set out to make (whatever the tries it took)."""

    kind: str
    table: int  # the game's id
    player: int
    tried: bool = False  # at least one interaction reached the emulator
    accepted: bool = False


@dataclass
class Tally:
    actions: Counter[str] = field(default_factory=Counter)  # accepted, by kind
    tried: Counter[str] = field(default_factory=Counter)  # set out to, by kind
    sent: int = 0  # interactions
    applied_unanswered: int = 0  # the effect seen, no success answer (a crash between)
    no_answer: int = 0  # tries without an answer (the bot down, or too slow)
    refusals: Counter[str] = field(default_factory=Counter)
    retried: int = 0  # "try again" refusals tried again
    errors: Counter[str] = field(default_factory=Counter)
    moves: list[Move] = field(default_factory=list)
    games: Counter[str] = field(default_factory=Counter)  # opened, by game
    orphans: int = 0  # table copies a crash left frozen at the bottom of their channel
    dead_tables: int = 0  # ended games whose table still showed buttons (a crash)
    done: bool = False

    @property
    def accepted_moves(self) -> int:
        return sum(1 for move in self.moves if move.accepted)

    def error(self, error: BaseException) -> None:
        first_line = (str(error) or repr(error)).splitlines()[0]
        first_line = re.sub(r"\d{6,}", "…", first_line)  # ids differ, errors do not
        self.errors[f"{type(error).__name__}: {first_line[:160]}"] += 1


class Life:
    """The bot's lives: up or down, how often it was killed and restarted."""

    def __init__(self, bot: BotProcess) -> None:
        self.bot = bot
        self.up = asyncio.Event()
        self.kills = 0
        self.restarts: list[float] = []  # monotonic times the bot was back
        self.downs: list[float] = []  # monotonic times it went down (killed, or died)
        self.cpu = 0.0  # CPU seconds of its runs so far (a run's own ends with it)
        self.failed_starts = 0
        self.crashes: list[str] = []  # deaths nobody asked for: the end of each log
        self.answered: dict[int, list[float]] = defaultdict(list)  # channel -> times
        self._lock = asyncio.Lock()

    async def wait_up(self) -> None:
        await self.up.wait()

    async def start(self) -> None:
        """Start the bot, again and again until it is up (a start may fail in a stall)."""
        while True:
            try:
                await self.bot.start(timeout=START_TIMEOUT)
            except BotStartError as error:
                self.failed_starts += 1
                print(f"a start failed: {str(error).splitlines()[0][:200]}", flush=True)
                await self.bot.kill()
                await asyncio.sleep(1.0)
                continue
            self.restarts.append(time.monotonic())
            self.up.set()
            return

    async def restart(self) -> None:
        """SIGKILL, then start again on the same database."""
        async with self._lock:
            self.up.clear()
            self.kills += 1
            self.downs.append(time.monotonic())
            self.count_cpu()
            await self.bot.kill()
            await self.start()

    def count_cpu(self) -> None:
        pid = self.bot.pid
        if pid is not None and self.bot.alive:
            self.cpu += cpu_seconds(pid) or 0.0

    async def watch(self) -> None:
        """A bot that dies on its own is a defect: note it, and start it again."""
        while True:
            await asyncio.sleep(0.5)
            if self.up.is_set() and not self.bot.alive and not self._lock.locked():
                async with self._lock:
                    self.up.clear()
                    self.downs.append(time.monotonic())
                    self.crashes.append(self.bot.log()[-3000:])
                    print(f"the bot died by itself (code {self.bot.returncode})", flush=True)
                    await self.start()


# --------------------------------------------------------------------------- the players


class Refused(Exception):
    """The bot refused a move for a reason a retry would not change."""


class Vanished(Exception):
    """What the player meant to click is not on the screen any more: read it again."""


Send = Callable[[], Awaitable[InjectedInteraction]]
Outcome = Literal["accepted", "applied", "no answer"]


class Table:
    """The people of one channel, playing one game after another of one kind."""

    command: ClassVar[str] = ""

    def __init__(
        self,
        emulator: BenchEmulator,
        channel: Channel,
        users: list[User],
        *,
        game: str,
        rng: random.Random,
        life: Life,
        tally: Tally,
        think: float,
    ) -> None:
        self.emulator = emulator
        self.channel = channel
        self.users = users
        self.by_id = {user.id: user for user in users}
        self.game = game
        self.rng = rng
        self.life = life
        self.tally = tally
        self.think = think
        self.over: set[int] = set()  # games the bot said are over, whatever their buttons
        self.orphans: set[int] = set()  # frozen copies seen (see ``table``)
        self.copies: dict[int, int] = {}  # message -> the game whose buttons it showed
        self.last_error = ""

    # ---- what the channel shows

    def table(self) -> Message | None:
        """The table the channel shows: its newest copy, as a rule. But a crash between
        posting a new copy and storing its id leaves that copy at the bottom, frozen, while
        the bot goes on drawing the one above: people then follow the copy that moves, the
        one showing the latest decision."""
        indexed = self.emulator.indexed
        newest = indexed.table(self.channel.id)
        game = table_of(newest) if newest is not None else None
        if newest is None or game is None or game in self.over:
            return newest
        copies = []
        for message in indexed.with_embeds(self.channel.id):
            shown = table_of(message)
            if shown is not None:
                self.copies[message.id] = shown
            if self.copies.get(message.id) == game:
                copies.append(message)
                if shown is None:  # the copy the bot draws shows the game's end
                    return message
        best = max(copies, key=lambda message: (step_of(message), message.id))
        if best is not newest and newest.id not in self.orphans:
            self.orphans.add(newest.id)
            self.tally.orphans += 1
        return best

    def running(self) -> int | None:
        """The game the channel's table message shows under way, if any."""
        message = self.table()
        shown = table_of(message) if message is not None else None
        return None if shown in self.over else shown

    def moved_past(self, table_id: int, step: int) -> Callable[[], bool]:
        """The effect of a move made at decision ``step``: the table shows a later decision,
        or the game's end (no components), or another table already."""

        def seen() -> bool:
            message = self.table()
            if message is None:
                return False
            shown = table_of(message)
            return shown is None or shown != table_id or step_of(message) > step

        return seen

    def panel(self, user: User, table_id: int, step: int) -> Message | None:
        """The user's newest private panel with a menu for this decision."""
        wanted = f"gobsel:{table_id}:{step}"
        for message in reversed(self.emulator.transcript.ephemeral_to(user.id, self.channel.id)):
            if any(select.custom_id == wanted for select in message.selects):
                return message
        return None

    # ---- playing

    async def run(self) -> None:
        while not self.tally.done:
            if self.think > 0:
                await asyncio.sleep(self.rng.uniform(0, 2 * self.think))
            sent = self.tally.sent
            try:
                await self.life.wait_up()
                await self.step()
                if self.tally.sent == sent:  # nothing to do yet: the screen is to change
                    await self.emulator.changed(self.channel.id, 0.5)
            except asyncio.CancelledError:
                raise
            except BotDied:
                await asyncio.sleep(0.2)  # the bot was killed under a wait: it comes back
            except Exception as error:
                self.tally.error(error)
                self.last_error = f"{type(error).__name__}: {str(error)[:200]}"
                await asyncio.sleep(0.5)

    async def step(self) -> None:
        """One decision of what the channel shows: open a table, seat the lobby, or play."""
        message = self.table()
        table_id = self.running()
        if message is None or table_id is None:
            await self.open(message)
            return
        if button(message, "start"):
            missing = [user for user in self.users[1:] if user.mention not in message.text]
            if missing:
                await self.join(missing[0], table_id)
            else:
                await self.begin(table_id)
            return
        await self.turn(message, table_id)

    async def turn(self, message: Message, table_id: int) -> None:
        """One decision of the game under way (each game's own)."""
        raise NotImplementedError

    async def open(self, before: Message | None) -> None:
        starter = self.users[0]
        old = table_of(before) if before is not None else None
        options = dict(self.options())

        def opened() -> bool:
            message = self.table()
            return (
                message is not None and bool(button(message, "join")) and (table_of(message) != old)
            )

        try:
            await self.intent(
                "open",
                lambda: self.emulator.slash(
                    starter, self.channel, f"{self.command} start", options
                ),
                opened,
            )
        except Refused as refused:
            if BUSY_REFUSAL not in str(refused):
                raise
            # A game runs here that the channel does not show (its table message was not
            # redrawn): its starter stops it, as a person would, to play again.
            self.tally.refusals["busy channel: stopped"] += 1
            await self.stop(None)
            return
        self.tally.games[self.game] += 1

    async def stop(self, table_id: int | None) -> None:
        """``/… stop`` by the starter: the table shows the game's end (or another table)."""
        starter = self.users[0]

        def stopped() -> bool:
            return self.running() != table_id

        await self.intent(
            "stop",
            lambda: self.emulator.slash(starter, self.channel, f"{self.command} stop"),
            stopped,
            reply=(lambda i: any(not m.loading for m in i.touched)) if table_id is None else None,
        )

    def options(self) -> dict[str, object]:
        return {}

    async def join(self, user: User, table_id: int) -> None:
        def seated() -> bool:
            message = self.table()
            return message is not None and (
                table_of(message) != table_id or user.mention in message.text
            )

        await self.intent("join", self.clicking(user, "join"), seated)

    async def begin(self, table_id: int) -> None:
        def started() -> bool:
            message = self.table()
            return message is not None and (
                table_of(message) != table_id or not button(message, "start")
            )

        await self.intent("start", self.clicking(self.users[0], "start"), started)

    def clicking(self, user: User, action: str) -> Send:
        """A click on the table's newest copy, as the user's screen shows it then."""

        async def send() -> InjectedInteraction:
            message = self.table()
            custom_id = button(message, action) if message is not None else None
            if message is None or custom_id is None:
                raise Vanished(f"no {action!r} button on the table")
            return await self.emulator.click(user, message, custom_id)

        return send

    def choosing(self, user: User, source: Callable[[], Message | None], value: str) -> Send:
        """A choice in a menu: of the private panel, or of the table's newest copy."""
        wanted = f"{value}"

        async def send() -> InjectedInteraction:
            message = source()
            if message is None or not message.selects or message.deleted:
                raise Vanished("the menu is gone")
            if not message.selects[0].clickable:
                raise Vanished(f"the menu is disabled: {message.text[:150]!r}")
            return await self.emulator.choose(user, message, [wanted])

        return send

    async def play(self, kind: str, user: User, table_id: int, step: int, send: Send) -> None:
        """A move made at decision ``step``: accepted once the table moved past it."""
        move = Move(kind, table_id, user.id)
        self.tally.moves.append(move)
        await self.intent(kind, send, self.moved_past(table_id, step), move=move)

    async def intent(
        self,
        kind: str,
        send: Send,
        effect: Callable[[], bool],
        *,
        move: Move | None = None,
        reply: Callable[[InjectedInteraction], bool] | None = None,
    ) -> InjectedInteraction | None:
        """Try something until its effect shows, as a person does: the same click again
        when it got no answer (the bot down, or stalled) or a "try again" refusal; nothing
        more once its effect shows (a crash lost the answer, not the move). ``reply``: what
        is tried is a private answer (a panel), its effect the answer itself. Returns the
        interaction that succeeded, if one did."""
        self.tally.tried[kind] += 1
        tries: list[InjectedInteraction] = []
        for attempt in range(TRIES):
            await self.life.wait_up()
            if effect():
                break
            try:
                interaction = await send()
            except (EmulatorError, OSError, Vanished):
                # The bot is down (no gateway), or the screen changed under the player.
                if not self.life.up.is_set() or effect():
                    continue
                raise
            tries.append(interaction)
            self.tally.sent += 1
            if move is not None:
                move.tried = True
            outcome = await self.settle(interaction, effect, reply)
            if outcome == "accepted":
                self.succeeded(kind, move)
                return interaction
            if outcome == "applied":
                break
            if outcome == "no answer":
                self.tally.no_answer += 1
                continue
            self.tally.refusals[outcome.split(":")[0].split(".")[0][:60]] += 1
            if outcome.startswith(STORAGE_REFUSAL):
                self.tally.retried += 1
                await asyncio.sleep(0.2 * min(attempt + 1, 10))
                continue
            if outcome.startswith((OVER_REFUSAL, NO_TABLE_REFUSAL)):
                # The game ended, but its table still shows buttons: a crash came between
                # storing its last move and redrawing it. People open another one.
                game = self.running()
                if game is not None:
                    self.over.add(game)
                    self.tally.dead_tables += 1
                return None
            if outcome.startswith(STALE_REFUSAL) and await self.catches_up(effect):
                break  # stored before a crash: the table shows it once redrawn
            raise Refused(f"{kind}: {outcome}")
        else:
            raise TimeoutError(f"{kind} at #{self.channel.name}: no effect after {TRIES} tries")
        # The effect shows. It was accepted if the bot answered one of the tries without a
        # refusal (its answer came before a crash, the redraw after the restart).
        if tries and any(i.callback is not None and refusal(i) is None for i in tries):
            self.succeeded(kind, move)
        elif tries:
            self.tally.applied_unanswered += 1
        return None

    async def catches_up(self, effect: Callable[[], bool]) -> bool:
        """Whether ``effect`` shows within a few seconds (a redraw on its way)."""
        try:
            await self.emulator.until(self.channel.id, effect, timeout=5.0, what="a redraw")
        except (TimeoutError, BotDied):
            return False
        return True

    def succeeded(self, kind: str, move: Move | None) -> None:
        self.tally.actions[kind] += 1
        self.life.answered[self.channel.id].append(time.monotonic())
        if move is not None:
            move.accepted = True

    async def settle(
        self,
        interaction: InjectedInteraction,
        effect: Callable[[], bool],
        reply: Callable[[InjectedInteraction], bool] | None,
    ) -> Outcome | str:
        """How one try ended: accepted, its effect applied without a success answer, no
        answer, or the text of a refusal."""

        def ended() -> Outcome | str | None:
            refused = refusal(interaction)
            if refused is not None:
                return refused
            if reply is not None and reply(interaction):
                return "accepted"
            if effect():
                return "accepted" if interaction.callback is not None else "applied"
            if interaction.callback is None and interaction.expired:
                return "no answer"
            if not self.life.up.is_set():
                return "no answer"
            return None

        try:
            return await self.emulator.until(
                self.channel.id, ended, timeout=ANSWER_WAIT, what=repr(interaction)
            )
        except (TimeoutError, BotDied):
            return "no answer"
        finally:
            # The message a click was on, copied into the payload: the bot has read it, and
            # over a long run those copies would hold gigabytes.
            interaction.payload.pop("message", None)


class Following(MayaTableDriver):
    """The Maya driver, reading the copy of the table people follow (``Table.table``)."""

    def __init__(
        self, emulator: BenchEmulator, channel: Channel, shown: Callable[[], Message | None]
    ) -> None:
        super().__init__(emulator, channel)
        self.shown = shown

    @property
    def table(self) -> Message | None:
        return self.shown()


class MayaTable(Table):
    """Maya (a soirée) or Mia (lives): the table's buttons and the private panel."""

    command = "maya"
    MAYA_MOVES = ("lift", "fragile", "warrior", "accept_maya")

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self.driver = Following(self.emulator, self.channel, self.table)

    def options(self) -> dict[str, object]:
        return {"mode": "vies", "vies": 3} if self.game == "vies" else {"mode": "soiree"}

    async def turn(self, message: Message, table_id: int) -> None:
        turn = self.driver.turn()
        if turn.phase == "over":
            return
        if self.game == "soiree" and self.driver.round() > SOIREE_ROUNDS:
            await self.stop(table_id)
            return
        user = self.by_id.get(turn.player or 0)
        if user is None:  # nobody's turn shows (a redraw on its way)
            return
        step = turn.step
        if turn.phase == "open":
            await self.play("roll", user, table_id, step, self.clicking(user, "roll"))
        elif turn.phase == "announce":
            panel = self.panel(user, table_id, step) or await self.dice(user, table_id, step)
            if panel is not None:
                await self.announce(user, panel, table_id, step)
        elif turn.phase == "respond":
            action = "lift" if self.rng.random() < 0.3 else "believe"
            await self.play(action, user, table_id, step, self.clicking(user, action))
        elif turn.phase == "maya":
            offered = [a for a in turn.actions if a in self.MAYA_MOVES]
            action = self.rng.choice(offered)
            await self.play(action, user, table_id, step, self.clicking(user, action))

    async def dice(self, user: User, table_id: int, step: int) -> Message | None:
        """The user's panel from the table's "Mes dés" (rolled, the roll's panel gone)."""
        answered = await self.intent(
            "dice",
            self.clicking(user, "dice"),
            lambda: self.panel(user, table_id, step) is not None,
            reply=lambda i: any(not m.loading for m in i.touched),
        )
        return self.panel(user, table_id, step) if answered is not None else None

    async def announce(self, user: User, panel: Message, table_id: int, step: int) -> None:
        offered = list(reversed(self.driver.menu_values(panel)))
        found = dice_in(panel.text)
        value = pick_announcement(self.rng, found[0][2] if found else None, offered)
        send = self.choosing(user, lambda: panel, value)
        await self.play("announce", user, table_id, step, send)


class YadesTable(Table):
    """Yadès: roll, sometimes hold a die and roll again, fill a box; all on the table."""

    command = "yades"

    async def turn(self, message: Message, table_id: int) -> None:
        found = YADES_TURN.search(message.text)
        user = self.by_id.get(int(found.group(1))) if found else None
        if user is None:  # nobody's turn shows (a redraw on its way)
            return
        step = step_of(message)
        if button(message, "roll"):
            await self.play("roll", user, table_id, step, self.clicking(user, "roll"))
            return
        draw = self.rng.random()
        reroll = button(message, "reroll")
        holds = [c for c in message.custom_ids if ":hold" in c]
        if reroll and holds and draw < 0.25:
            await self.hold(user, self.rng.choice(holds), reroll)
        elif reroll and draw < 0.6:
            await self.play("reroll", user, table_id, step, self.clicking(user, "reroll"))
        elif message.selects:
            value = self.rng.choice(message.selects[0].values)
            send = self.choosing(user, self.table, value)
            await self.play("score", user, table_id, step, send)

    async def hold(self, user: User, custom_id: str, reroll: str) -> None:
        """Toggle a die (no move: the table redraws its buttons with the other dice held)."""

        def redrawn() -> bool:
            message = self.table()
            return message is None or button(message, "reroll") != reroll

        async def send() -> InjectedInteraction:
            message = self.table()
            if message is None or custom_id not in message.custom_ids:
                raise Vanished("the die's button is gone")
            return await self.emulator.click(user, message, custom_id)

        await self.intent("hold", send, redrawn)


class MenteurTable(Table):
    """Dés du menteur: the private panel's menu to raise, the table's button to call."""

    command = "menteur"

    def options(self) -> dict[str, object]:
        return {"des": 3}

    async def turn(self, message: Message, table_id: int) -> None:
        found = MENTEUR_TURN.search(message.text)
        user = self.by_id.get(int(found.group(1))) if found else None
        if user is None:  # nobody's turn shows (a redraw on its way)
            return
        step = step_of(message)
        panel = self.panel(user, table_id, step) or await self.dice(user, table_id, step)
        if panel is None:
            return
        select = panel.selects[0]
        bid_to_beat = "Annonce à battre" in panel.text and button(message, "dudo")
        # Nothing above the bid to beat (every die on it): the menu is off, the bid is called.
        if bid_to_beat and (self.rng.random() < 0.3 or not select.clickable):
            await self.play("dudo", user, table_id, step, self.clicking(user, "dudo"))
            return
        value = select.values[self.rng.randrange(min(3, len(select.values)))]
        await self.play("bid", user, table_id, step, self.choosing(user, lambda: panel, value))

    async def dice(self, user: User, table_id: int, step: int) -> Message | None:
        answered = await self.intent(
            "dice",
            self.clicking(user, "dice"),
            lambda: self.panel(user, table_id, step) is not None,
            reply=lambda i: any(not m.loading for m in i.touched),
        )
        return self.panel(user, table_id, step) if answered is not None else None


TABLES: dict[str, type[Table]] = {
    "soiree": MayaTable,
    "vies": MayaTable,
    "yades": YadesTable,
    "menteur": MenteurTable,
}


# --------------------------------------------------------------------------- the transcript


class SoakTranscript(IndexedTranscript):
    """Checks every public version of every message as it is shown (hidden dice), and
    keeps no history: over a long run, every version of every message would hold gigabytes
    (the players read the current ones only)."""

    games: dict[int, str]  # channel -> the game its tables play
    leaks: list[str]

    def record(
        self, kind: Literal["create", "edit", "delete"], message: Message, at: float
    ) -> None:
        super().record(kind, message, at)
        event = self.events.pop()
        message.history.clear()
        if kind == "delete" or message.ephemeral:
            return
        game = self.games.get(message.channel_id)
        if game in ("soiree", "vies"):
            self.leaks += public_dice_leaks(Transcript(events=[event]))
        elif game == "menteur":
            self.leaks += menteur_leaks(event)


def menteur_leaks(event: TranscriptEvent) -> list[str]:
    """Public lines showing dice outside a reveal (a "Tous les dés" line and its hands)."""
    leaks = []
    in_reveal = False
    for line in str(event.snapshot["text"]).splitlines():
        if MENTEUR_REVEAL in line:
            in_reveal = True
            continue
        in_reveal = in_reveal and line.startswith(MENTEUR_HAND)
        if not in_reveal and any(glyph in line for glyph in GLYPHS):
            leaks.append(f"message {event.message.id}: {line}")
    return leaks


class SoakEmulator(BenchEmulator):
    def __init__(self, world: World, games: dict[int, str]) -> None:
        super().__init__(world)
        transcript = SoakTranscript(changed=self._channel_changed)
        transcript.games = games
        transcript.leaks = []
        self.transcript = transcript


# --------------------------------------------------------------------------- trouble


async def killer(life: Life, every: float, rng: random.Random, quiet: asyncio.Event) -> None:
    while not quiet.is_set():
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(quiet.wait(), rng.uniform(0.75, 1.25) * every)
        if not quiet.is_set():
            await life.restart()


@dataclass
class Stalls:
    seconds: list[float] = field(default_factory=list)
    failed: int = 0


async def staller(
    url: str,
    every: float,
    span: tuple[float, float],
    rng: random.Random,
    quiet: asyncio.Event,
    stalls: Stalls,
) -> None:
    """Now and then another connection holds the games table, as a stuck migration or a
    long report would."""
    while not quiet.is_set():
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(quiet.wait(), rng.uniform(0.5, 1.5) * every)
        if quiet.is_set():
            return
        seconds = rng.uniform(*span)
        try:
            connection = await asyncpg.connect(url)
            try:
                async with connection.transaction():
                    await connection.execute("LOCK TABLE games IN ACCESS EXCLUSIVE MODE")
                    stalls.seconds.append(seconds)
                    await asyncio.sleep(seconds)
            finally:
                await connection.close()
        except (OSError, asyncpg.PostgresError):
            stalls.failed += 1


# --------------------------------------------------------------------------- the checks


@dataclass
class Verdict:
    games: int = 0
    versions_ok: int = 0
    replays_ok: int = 0
    replayed: int = 0
    stored_moves: int = 0
    lost: int = 0
    twice: int = 0
    # The moves as stored, by their first event: whose (a player's) or none (a deal, a stop).
    first_events: Counter[str] = field(default_factory=Counter)
    problems: list[str] = field(default_factory=list)


async def verify(url: str, moves: Sequence[Move]) -> Verdict:
    """The database against what people saw (see the module docstring)."""
    connection = await asyncpg.connect(url)
    try:
        games = await connection.fetch(
            "SELECT id, kind, status, version, state_json, meta_json FROM games ORDER BY id"
        )
        events = await connection.fetch(
            "SELECT game_id, seq, type, visibility, recipient, payload_json, created_at"
            " FROM game_events ORDER BY game_id, seq"
        )
    finally:
        await connection.close()
    by_game: defaultdict[int, list[asyncpg.Record]] = defaultdict(list)
    for row in events:
        by_game[row["game_id"]].append(row)
    verdict = Verdict(games=len(games))
    stored: Counter[tuple[int, int]] = Counter()  # (game, player) -> stored moves
    for game in games:
        log = by_game.get(game["id"], [])
        # A move is one transaction, and its events share the transaction's now().
        acts: list[list[asyncpg.Record]] = []
        for row in log:
            if acts and acts[-1][0]["created_at"] == row["created_at"]:
                acts[-1].append(row)
            else:
                acts.append([row])
        for act in acts:
            first = json.loads(act[0]["payload_json"])
            player = first.get(ACTORS.get((game["kind"], act[0]["type"]), "player"))
            mine = isinstance(player, int) and player > 0
            verdict.first_events[
                f"{game['kind']}.{act[0]['type']}{'' if mine else ' (no one)'}"
            ] += 1
            if mine:
                stored[(game["id"], player)] += 1
                verdict.stored_moves += 1
        if game["version"] == len(acts):
            verdict.versions_ok += 1
        else:
            verdict.problems.append(
                f"game {game['id']} ({game['kind']}): version {game['version']}, "
                f"{len(acts)} stored moves"
            )
        if game["state_json"] is not None:
            verdict.replayed += 1
            problem = replay_problem(game, log)
            if problem is None:
                verdict.replays_ok += 1
            else:
                verdict.problems.append(problem)
    accepted: Counter[tuple[int, int]] = Counter()
    tried: Counter[tuple[int, int]] = Counter()
    for move in moves:
        accepted[(move.table, move.player)] += move.accepted
        tried[(move.table, move.player)] += move.tried
    for key in set(accepted) | set(stored):
        if stored[key] < accepted[key]:
            verdict.lost += accepted[key] - stored[key]
            verdict.problems.append(
                f"game {key[0]}, player {key[1]}: {accepted[key]} accepted, {stored[key]} stored"
            )
        if stored[key] > tried[key]:
            verdict.twice += stored[key] - tried[key]
            verdict.problems.append(
                f"game {key[0]}, player {key[1]}: {stored[key]} stored, {tried[key]} tried"
            )
    return verdict


def replay_problem(game: asyncpg.Record, log: Sequence[asyncpg.Record]) -> str | None:
    """None if the game's event log, replayed by its engine from a new game of the same
    seats and rules, gives its stored snapshot; else what differs."""
    spec = REGISTRY[game["kind"]]
    state = spec.state_from_json(json.loads(game["state_json"]))
    rules = spec.rules_from_json(json.loads(game["meta_json"])["rules"])
    initial = spec.new_game([seat.player for seat in state.seats], rules)
    logged = [
        spec.events.build(r["type"], json.loads(r["payload_json"]), r["visibility"], r["recipient"])
        for r in log
    ]
    try:
        replayed = spec.replay(initial, logged)
    except Exception as error:
        return f"game {game['id']} ({game['kind']}): its log does not replay: {error!r}"
    if replayed.to_json() != state.to_json():
        return f"game {game['id']} ({game['kind']}): the replayed log differs from the snapshot"
    return None


# --------------------------------------------------------------------------- the run


async def soak(
    args: argparse.Namespace, workdir: Path, bots: list[BotProcess], stopping: asyncio.Event
) -> int:
    world, seating = build_world(args.tables, args.seed)
    games = {channel.id: GAMES[number % len(GAMES)] for number, (channel, _) in enumerate(seating)}
    emulator = SoakEmulator(world, games)
    await emulator.start()
    try:
        async with database("postgres", workdir, args.database_url) as url:
            bot = BotProcess(emulator, workdir, env=BOT_ENV, database_url=url)
            bots.append(bot)
            life = Life(bot)
            try:
                await life.start()
                print(
                    f"bot ready; {args.tables} tables, {describe_database(url)}; {load_note()}",
                    flush=True,
                )
                return await play(args, emulator, bot, life, seating, games, url, stopping)
            finally:
                code = await bot.stop()
                if code not in (0, None, -signal.SIGINT):
                    print(f"the bot exited with code {code}; its log: {bot.log_paths[-1]}")
    finally:
        await emulator.stop()


async def play(
    args: argparse.Namespace,
    emulator: SoakEmulator,
    bot: BotProcess,
    life: Life,
    seating: list[tuple[Channel, list[User]]],
    games: dict[int, str],
    url: str,
    stopping: asyncio.Event,
) -> int:
    tally = Tally()
    rng = random.Random(args.seed)
    tables = [
        TABLES[games[channel.id]](
            emulator,
            channel,
            users,
            game=games[channel.id],
            rng=random.Random(f"{args.seed}:{number}"),
            life=life,
            tally=tally,
            think=args.think,
        )
        for number, (channel, users) in enumerate(seating)
    ]
    quiet = asyncio.Event()
    stalls = Stalls()
    began = time.monotonic()
    machine_before, own_before = machine_cpu_seconds(), time.process_time()
    tasks = [asyncio.ensure_future(table.run()) for table in tables]
    trouble = [
        asyncio.ensure_future(killer(life, args.kill_every, rng, quiet)),
        asyncio.ensure_future(
            staller(url, args.stall_every, args.stall_seconds, rng, quiet, stalls)
        ),
        asyncio.ensure_future(life.watch()),
    ]
    last_report = began
    try:
        while tally.accepted_moves < args.actions and not stopping.is_set():
            if args.seconds and time.monotonic() - began > args.seconds:
                break
            await asyncio.sleep(1.0)
            if time.monotonic() - last_report >= 60:
                last_report = time.monotonic()
                elapsed = last_report - began
                print(
                    f"{elapsed:6.0f} s: {tally.accepted_moves} moves accepted "
                    f"({tally.accepted_moves / elapsed:.1f}/s), {life.kills} kills, "
                    f"{len(stalls.seconds)} stalls, {sum(tally.errors.values())} errors; "
                    f"{load_note()}",
                    flush=True,
                )
        played = time.monotonic() - began
        # The trouble stops; one last crash, and every table must answer after it.
        quiet.set()
        await asyncio.wait(trouble[:2], timeout=START_TIMEOUT)
        if not stopping.is_set():
            await life.restart()
        last = life.restarts[-1]
        deadline = time.monotonic() + LAST_ANSWERS_WAIT
        while time.monotonic() < deadline and not stopping.is_set():
            if all(any(at > last for at in life.answered[t.channel.id]) for t in tables):
                break
            await asyncio.sleep(0.5)
    finally:
        tally.done = True
        for task in trouble[2:]:
            task.cancel()
        _, pending = await asyncio.wait(tasks, timeout=ANSWER_WAIT + 5)
        for task in pending:
            task.cancel()
        await asyncio.wait([*tasks, *trouble], timeout=5)
    life.count_cpu()
    machine_after = machine_cpu_seconds()
    elapsed = time.monotonic() - began
    await bot.stop()  # a quiet database to check
    transcript = emulator.transcript
    assert isinstance(transcript, SoakTranscript)
    verdict = await verify(url, tally.moves)
    audience = audience_problems(emulator)
    resumed = resumed_after_restarts(life, tables)
    report(args, tally, life, stalls, verdict, transcript.leaks, audience, resumed, tables)
    print(f"\n{emulator.global_use(0).describe_webhooks()}")
    busy = ""
    if machine_before is not None and machine_after is not None:
        share = (machine_after - machine_before) / elapsed / (os.cpu_count() or 1)
        busy = f"the machine busy {100 * share:.0f}% of its {os.cpu_count()} cores; "
    print(
        f"\n{played:.0f} s of play ({tally.accepted_moves / played:.1f} moves/s), {elapsed:.0f} s "
        f"in all; CPU: the bot {life.cpu:.0f} s, the emulator and players "
        f"{time.process_time() - own_before:.0f} s; {busy}{load_note()}"
    )
    for error, count in tally.errors.most_common(8):
        print(f"  error {count:5} x {error}")
    print(
        "  stored moves by first event: "
        + ", ".join(f"{name} {count}" for name, count in sorted(verdict.first_events.items()))
    )
    for problem in verdict.problems[:15]:
        print(f"  database: {problem}")
    for leak in (transcript.leaks + audience)[:10]:
        print(f"  leak: {leak}")
    last = life.restarts[-1] if life.restarts else 0.0
    for table in tables:
        if not any(at > last for at in life.answered[table.channel.id]):
            shown = table.table()
            print(
                f"  #{table.channel.name} ({table.game}) did not answer after the last restart;"
                f" it shows {shown.text[:200]!r}; its last error: {table.last_error}"
                if shown is not None
                else f"  #{table.channel.name} shows nothing"
            )
    for crash in life.crashes[:2]:
        print(f"  crash, the end of its log:\n{crash[-1500:]}")
    for (frame, error), count in tracebacks(bot.log_paths).most_common(8):
        print(f"  bot log {count:5} x {error} at {frame}")
    clean = verdict.lost == verdict.twice == 0 and not verdict.problems
    clean = clean and not transcript.leaks and not audience and resumed[2]
    return 0 if clean and not stopping.is_set() else 1


TRACEBACK_FRAME = re.compile(r'File ".*?/((?:bot|cogs)/[^"]+)", line (\d+), in (\S+)')


def tracebacks(logs: Sequence[Path]) -> Counter[tuple[str, str]]:
    """The tracebacks the bot logged over all its runs, by the innermost frame of its own
    code and the exception: what went wrong inside it while people played."""
    found: Counter[tuple[str, str]] = Counter()
    for path in logs:
        frame = ""
        for line in path.read_text(errors="replace").splitlines():
            matched = TRACEBACK_FRAME.search(line)
            if matched:
                frame = f"{matched[1]}:{matched[3]}:{matched[2]}"
            elif frame and re.match(r"^[A-Za-z_][\w.]*(:|$)", line):  # the exception
                found[(frame, re.sub(r"\d+", "N", line)[:90])] += 1
                frame = ""
    return found


def resumed_after_restarts(life: Life, tables: Sequence[Table]) -> tuple[int, int, bool]:
    """How many restarts every table answered after (before the next crash), of how many
    restarts the play went through, and whether every table answered after the last."""
    restarts = life.restarts[1:]  # the first start is no restart
    ends = [*life.downs[1:], float("inf")]
    every = 0
    for start, end in zip(restarts, ends, strict=False):
        if all(any(start < at < end for at in life.answered[t.channel.id]) for t in tables):
            every += 1
    last = restarts[-1] if restarts else 0.0
    after_last = all(any(at > last for at in life.answered[t.channel.id]) for t in tables)
    return every, len(restarts), after_last


def report(
    args: argparse.Namespace,
    tally: Tally,
    life: Life,
    stalls: Stalls,
    verdict: Verdict,
    leaks: list[str],
    audience: list[str],
    resumed: tuple[int, int, bool],
    tables: Sequence[Table],
) -> None:
    per_game = Counter(table.game for table in tables)
    by_kind = Counter(move.kind for move in tally.moves if move.accepted)
    long_stalls = sum(1 for seconds in stalls.seconds if seconds > 10)
    accepted = sum(tally.actions.values())
    tried = sum(tally.tried.values())
    rows = [
        (
            "tables",
            f"{len(tables)}: "
            + ", ".join(f"{per_game[game]} {NAMES[game]}" for game in GAMES if per_game[game]),
        ),
        ("games opened", ", ".join(f"{tally.games[g]} {NAMES[g]}" for g in GAMES)),
        (
            "actions (interactions people set out to make)",
            f"{tried} tried, {accepted} accepted; {tally.sent} interactions sent",
        ),
        (
            "moves accepted (stored game actions)",
            f"{by_kind.total()}: " + ", ".join(f"{n} {kind}" for kind, n in by_kind.most_common()),
        ),
        ("moves stored (the database)", f"{verdict.stored_moves}"),
        (
            "SIGKILLs and restarts",
            f"{life.kills} kills, {len(life.restarts) - 1} restarts, {life.failed_starts} "
            f"failed starts, {len(life.crashes)} deaths nobody asked for",
        ),
        (
            "database stalls",
            f"{len(stalls.seconds)} ({sum(stalls.seconds):.0f} s in all, longest "
            f"{max(stalls.seconds, default=0):.1f} s, {long_stalls} past the 10 s timeout)",
        ),
        (
            "retries",
            f'{tally.no_answer} tries without an answer, {tally.retried} "try again" '
            f"refusals; {tally.applied_unanswered} moves stored whose answer was lost",
        ),
        ("**moves lost**", f"**{verdict.lost}**"),
        ("**moves applied twice**", f"**{verdict.twice}**"),
        (
            "version = stored moves",
            f"{verdict.versions_ok} of {verdict.games} games",
        ),
        (
            "event log replays to the snapshot",
            f"{verdict.replays_ok} of {verdict.replayed} games",
        ),
        (
            "**leak check**",
            f"**{len(leaks)}** public lines with hidden dice, **{len(audience)}** private "
            "messages to someone else",
        ),
        (
            "**tables resumed**",
            f"every table answered after {resumed[0]} of {resumed[1]} restarts (before the "
            f"next crash); after the last: **{'all' if resumed[2] else 'NOT all'}**",
        ),
        (
            "crash marks left in channels",
            f"{tally.orphans} table copies left frozen under the live one; {tally.dead_tables} "
            "ended games whose table message kept its buttons",
        ),
        (
            "refusals",
            ", ".join(f"{count} x {text!r}" for text, count in tally.refusals.most_common(4))
            or "none",
        ),
        ("player errors", f"{sum(tally.errors.values())}"),
    ]
    print("\n| figure | value |\n| --- | --- |")
    for name, value in rows:
        print(f"| {name} | {value} |")


def span(text: str) -> tuple[float, float]:
    low, _, high = text.partition(":")
    return float(low), float(high or low)


def parse(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python -m bench.soak",
        description="The real bot on PostgreSQL: every game, SIGKILLs and stalls, checked.",
    )
    parser.add_argument("--tables", type=int, default=40, help="tables (channels) at once (40)")
    parser.add_argument(
        "--actions", type=int, default=3000, help="accepted moves before the end (3000)"
    )
    parser.add_argument(
        "--seconds", type=float, default=0.0, help="stop playing after this long (0: no limit)"
    )
    parser.add_argument(
        "--kill-every", type=float, default=20.0, help="seconds between SIGKILLs (20)"
    )
    parser.add_argument(
        "--stall-every", type=float, default=45.0, help="mean seconds between stalls (45)"
    )
    parser.add_argument(
        "--stall-seconds",
        type=span,
        default=(2.0, 14.0),
        metavar="LOW:HIGH",
        help="how long a stall holds the games table (2:14; the bot's timeout is 10 s)",
    )
    parser.add_argument(
        "--think", type=float, default=0.0, help="mean pause before each action, seconds (0)"
    )
    parser.add_argument("--seed", type=int, default=1, help="table sizes and players' choices")
    parser.add_argument(
        "--database-url", metavar="URL", help="a PostgreSQL database of your own to soak"
    )
    parser.add_argument(
        "--keep", action="store_true", help="keep the temporary directory (the bot's logs)"
    )
    args = parser.parse_args(argv)
    if args.tables < 1 or args.actions < 1 or args.kill_every <= 0 or args.stall_every <= 0:
        parser.error("--tables, --actions, --kill-every and --stall-every must be positive")
    return args


def main(argv: Sequence[str] | None = None) -> int:
    args = parse(argv)
    return run(lambda workdir, bots, stopping: soak(args, workdir, bots, stopping), keep=args.keep)


if __name__ == "__main__":
    sys.exit(main())
