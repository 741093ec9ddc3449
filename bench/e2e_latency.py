"""How fast the real bot answers when many tables play Mia at once (end to end).

    .venv/bin/python -m bench.e2e_latency [--tables 50] [--seconds 20] [--think 0]
    .venv/bin/python bench/e2e_latency.py --tables 50 --seconds 20

Starts the Discord emulator of the end-to-end tests (``tests/e2e``) in this process and the
real bot (``python -m bot``) as a subprocess against it, on a fresh database in a temporary
directory, with ``GOBELET_CPU_DELAY_SECONDS=0`` and a one-hour turn timer. One server gets a
channel per table; each table (2 or 3 users) opens a Mia game (``/maya start mode:vies``),
the others click "Rejoindre", the starter clicks "Commencer", and they play through the
buttons and the announcement menu only, as people do, every table at once. A table whose
game ends opens a new one, until ``--seconds`` have passed (or each table has made
``--actions`` moves). A refusal that asks to try again (the storage one) is retried, as a
person would, up to 5 times; every refusal is counted and printed.

The figure is the emulator's: from the injection of each interaction on the gateway to the
arrival of the bot's first answer to it (``InjectedInteraction.latency``, the same numbers
as ``DiscordEmulator.latencies``). Printed: p50, p90, p99, max and count, overall and per
action, interactions per second, and the CPU used by the bot and by this process (the
emulator and the players). Since both run on the same machine, this process's own event-loop
lag is printed too: when it is high, part of the latency is the emulator's, not the bot's.

``--think S`` makes every user wait a random 0..2*S seconds before each move (S on average);
the default 0 is a closed loop: every table acts as soon as it can, which measures the
bot's capacity rather than its latency at a human pace (on 2 cores, the emulator and the
players then need about as much CPU as the bot). ``--profile FILE`` records the
bot with py-spy (installed separately, not a project dependency) during the run.

Ctrl-C (or SIGTERM) stops the run; the bot is stopped in every case, and killed by the
kernel should this process die first.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import math
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter, defaultdict
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

if __package__ in (None, ""):  # run as a file: python bench/e2e_latency.py
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.i18n import keys, template
from tests.e2e.botprocess import BotDied, BotProcess
from tests.e2e.emulator import DiscordEmulator, InjectedInteraction
from tests.e2e.maya_driver import ORDER, MayaDriver, Turn, dice_in, rank
from tests.e2e.transcript import Message, Transcript
from tests.e2e.world import Channel, User, World

TARGET_P99_MS = 100.0
LIVES = 3
BOT_ENV = {
    "GOBELET_CPU_DELAY_SECONDS": "0",
    "GOBELET_TURN_SECONDS": "3600",
    "GOBELET_LOG_LEVEL": "INFO",
}
WAIT = 15.0  # how long a player waits for the bot before giving up on a move
RETRIES = 5  # a refusal that says "try again in a moment" is retried this often
MAX_ERRORS_PER_TABLE = 20

STORAGE_REFUSAL = template("fr", "err.storage")
# What the bot says when it refuses something (the French texts, up to their first field).
REFUSALS = tuple(
    text.split("{")[0].strip()
    for text in (template("fr", key) for key in keys("fr") if key.startswith("err."))
    if len(text.split("{")[0].strip()) >= 8
)


# --------------------------------------------------------------------------- the world


@dataclass
class IndexedTranscript(Transcript):
    """``Transcript`` with ``get`` by id in constant time. The emulator looks up the message
    of every table edit with ``get``, a scan of every message so far: over a run of tens of
    thousands of messages that scan became the emulator's main cost, and its delay showed in
    the bot's latency."""

    def __post_init__(self) -> None:
        self._by_id = {message.id: message for message in self.messages}

    def record(
        self, kind: Literal["create", "edit", "delete"], message: Message, at: float
    ) -> None:
        super().record(kind, message, at)
        self._by_id[message.id] = message

    def get(self, message_id: int) -> Message:
        try:
            return self._by_id[message_id]
        except KeyError:
            raise LookupError(f"the bot never produced message {message_id}") from None


def build_world(tables: int, seed: int) -> tuple[World, list[tuple[Channel, list[User]]]]:
    """One French server, a channel per table, 2 or 3 users per table."""
    world = World.empty()
    world.add_user("patron")
    world.add_guild("bench", owner="patron", locale="fr")
    chooser = random.Random(seed)
    seating: list[tuple[Channel, list[User]]] = []
    for number in range(tables):
        channel = world.add_channel("bench", f"table-{number:02d}")
        users = []
        for seat in range(chooser.choice((2, 3))):
            user = world.add_user(f"t{number:02d}p{seat}")
            world.join("bench", user.name)
            users.append(user)
        seating.append((channel, users))
    return world, seating


# --------------------------------------------------------------------------- the players


@dataclass
class Counters:
    moves: int = 0
    games_started: int = 0
    games_finished: int = 0
    retries: int = 0
    refusals: Counter[str] = field(default_factory=Counter)
    errors: Counter[str] = field(default_factory=Counter)


class Refused(Exception):
    """The bot refused a move with a private explanation (that is not worth retrying)."""


def refusal(interaction: InjectedInteraction) -> str | None:
    """The bot's private explanation, when its answer to ``interaction`` was a refusal."""
    for message in interaction.messages:
        if message.ephemeral and message.content.startswith(REFUSALS):
            return message.content
    return None


class Table:
    """The users of one channel playing Mia through buttons, game after game."""

    def __init__(
        self,
        emulator: DiscordEmulator,
        channel: Channel,
        users: list[User],
        *,
        rng: random.Random,
        think: float,
        stop_at: float,
        stopping: asyncio.Event,
        max_moves: int,
        counters: Counters,
    ) -> None:
        self.emulator = emulator
        self.channel = channel
        self.users = users
        self.by_id = {user.id: user for user in users}
        self.rng = rng
        self.think = think
        self.stop_at = stop_at
        self.stopping = stopping
        self.max_moves = max_moves
        self.counters = counters
        self.driver = MayaDriver(emulator, channel)
        self.moves = 0
        self.errors = 0

    def done(self) -> bool:
        if self.stopping.is_set() or (self.max_moves and self.moves >= self.max_moves):
            return True
        return time.monotonic() >= self.stop_at

    async def pause(self) -> None:
        if self.think > 0:
            await asyncio.sleep(self.rng.uniform(0, 2 * self.think))

    async def run(self) -> None:
        while not self.done():
            try:
                await self.game()
            except BotDied:
                self.stopping.set()
                return
            except Exception as error:  # count it, and go on with a fresh game
                if self.done():
                    return
                first_line = (str(error) or repr(error)).splitlines()[0]
                first_line = re.sub(r"\d{6,}", "…", first_line)  # ids differ, errors do not
                self.counters.errors[f"{type(error).__name__}: {first_line[:200]}"] += 1
                self.errors += 1
                if self.errors >= MAX_ERRORS_PER_TABLE:
                    print(f"#{self.channel.name} gives up after {self.errors} errors", flush=True)
                    return
                await self.abandon()

    # ---- one interaction, as a person does it: click, read the answer, try again if told to

    async def act(self, send: Callable[[], Awaitable[InjectedInteraction]]) -> InjectedInteraction:
        """Send an interaction and wait for the bot's first answer. A refusal that says "try
        again" (the storage one) is retried a few times; any other refusal raises Refused."""
        for attempt in range(RETRIES + 1):
            interaction = await send()
            await interaction.response(timeout=WAIT)
            refused = refusal(interaction)
            if refused is None:
                return interaction
            self.counters.refusals[refused] += 1
            if not refused.startswith(STORAGE_REFUSAL) or attempt == RETRIES:
                raise Refused(refused)
            self.counters.retries += 1
            await asyncio.sleep(0.01 * (attempt + 1))
        raise AssertionError("unreachable")

    async def click(self, user: User, action: str) -> InjectedInteraction:
        table = self.driver.table
        assert table is not None
        custom_id = next(c for c in table.custom_ids if c.split(":")[-1] == action)
        return await self.act(lambda: self.emulator.click(user, table, custom_id))

    async def panel(self, user: User, action: str) -> Message:
        """Click a button whose answer is the user's private panel (dice and menu)."""
        clicked = await self.click(user, action)
        return await clicked.reply(timeout=WAIT)

    async def announce(self, user: User, panel: Message, value: str) -> None:
        await self.act(lambda: self.emulator.choose(user, panel, [value]))

    async def abandon(self) -> None:
        """After an error, or when time is up: stop the channel's game, if any."""
        with contextlib.suppress(Exception):
            await self.act(lambda: self.emulator.slash(self.users[0], self.channel, "maya stop"))

    # ---- a game

    async def game(self) -> None:
        starter, *others = self.users
        await self.pause()
        seen = len(self.emulator.transcript.messages)
        await self.act(
            lambda: self.emulator.slash(
                starter, self.channel, "maya start", {"mode": "vies", "vies": LIVES}
            )
        )
        self.driver.table = await self.emulator.wait_for(
            lambda: self.new_table_message(seen), timeout=WAIT, what="the table message"
        )
        self.counters.games_started += 1
        for user in others:
            await self.pause()
            await self.click(user, "join")
            await self.emulator.wait_for(
                lambda user=user: user.mention in self.table_text(),
                timeout=WAIT,
                what=f"{user.name} at the table",
            )
        await self.pause()
        await self.click(starter, "start")
        turn = await self.driver.wait_turn(timeout=WAIT)
        while turn.phase != "over":
            if self.done():  # the game stays unfinished: the bot and its database go away
                return
            await self.pause()
            played = await self.move(turn)
            self.moves += 1
            self.counters.moves += 1
            turn = await self.driver.wait_turn(after=played, timeout=WAIT)
        self.counters.games_finished += 1

    def new_table_message(self, seen: int) -> Message | None:
        """The first public message with the table's buttons posted since ``seen``."""
        for message in self.emulator.transcript.messages[seen:]:
            if (
                message.channel_id == self.channel.id
                and not message.ephemeral
                and not message.deleted
                and any(c.startswith("gob:") for c in message.custom_ids)
            ):
                return message
        return None

    def table_text(self) -> str:
        return self.driver.table.text if self.driver.table is not None else ""

    async def move(self, turn: Turn) -> int:
        """Play ``turn`` (one decision, or a roll and its announcement); returns the step of
        the last decision played, to wait past it."""
        assert turn.player is not None
        user = self.by_id[turn.player]
        if turn.phase == "open":
            panel = await self.panel(user, "roll")
            return await self.announce_from(user, panel)
        if turn.phase == "announce":  # rolled, not announced yet (after an error)
            return await self.announce_from(user, await self.panel(user, "dice"))
        if turn.phase == "respond":
            if self.rng.random() < 0.3:
                await self.click(user, "lift")
                return turn.step
            return await self.announce_from(user, await self.panel(user, "believe"))
        if turn.phase == "maya":
            await self.click(user, self.rng.choice([a for a in turn.actions if a != "join"]))
            return turn.step
        raise AssertionError(f"unexpected turn {turn}")

    async def announce_from(self, user: User, panel: Message) -> int:
        """Announce with the private panel: the truth when allowed (usually), else the lowest
        value offered (a bluff)."""
        offered = self.driver.menu_values(panel)
        if not offered or not panel.selects:
            raise AssertionError(f"no announcement offered: {panel.text!r}")
        found = dice_in(panel.text)
        truth = str(found[-1][2]) if found else ""
        if truth in offered and self.rng.random() < 0.8:
            value = truth
        else:
            numbers = [v for v in offered if v.isdigit() and int(v) in ORDER]
            value = min(numbers, key=lambda v: rank(int(v))) if numbers else offered[-1]
        step = int(str(panel.selects[0].custom_id).split(":")[-1])
        await self.announce(user, panel, value)
        return step


# --------------------------------------------------------------------------- measuring


def percentile(ordered: Sequence[float], p: float) -> float:
    """Nearest rank: the smallest value with at least p% of the values at or below it."""
    if not ordered:
        return math.nan
    return ordered[max(0, math.ceil(p / 100 * len(ordered)) - 1)]


def kind(interaction: InjectedInteraction) -> str:
    if interaction.command:
        return f"/{interaction.command}"
    custom_id = str(interaction.payload.get("data", {}).get("custom_id", "?"))
    if custom_id.startswith("gobsel:"):
        return "announce"
    return custom_id.split(":")[-1]


def summary(values: Sequence[float]) -> str:
    ordered = sorted(values)
    ms = [1000 * percentile(ordered, p) for p in (50, 90, 99)]
    top = 1000 * ordered[-1] if ordered else math.nan
    return (
        f"p50 {ms[0]:7.1f}  p90 {ms[1]:7.1f}  p99 {ms[2]:7.1f}  max {top:7.1f} ms"
        f"  count {len(ordered)}"
    )


class LoopLag:
    """How late this process's event loop wakes up: the emulator's own share of the latency."""

    def __init__(self, period: float = 0.01) -> None:
        self.period = period
        self.lags: list[float] = []
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        self._task = asyncio.create_task(self._run())

    async def _run(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            before = loop.time()
            await asyncio.sleep(self.period)
            self.lags.append(max(0.0, loop.time() - before - self.period))

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task


def cpu_seconds(pid: int) -> float | None:
    """User + system CPU time of a process (Linux /proc), or None."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def machine_cpu_seconds() -> float | None:
    """CPU time all processes of the machine used (Linux /proc/stat): busy, not idle."""
    try:
        values = [int(v) for v in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    except (OSError, ValueError):
        return None
    idle = values[3] + (values[4] if len(values) > 4 else 0)  # idle + iowait
    return (sum(values[:8]) - idle) / os.sysconf("SC_CLK_TCK")


# --------------------------------------------------------------------------- the run


def start_profiler(path: str, pid: int, seconds: float) -> subprocess.Popen[bytes]:
    spy = shutil.which("py-spy") or str(Path(sys.executable).with_name("py-spy"))
    if not Path(spy).exists():
        raise SystemExit("--profile needs py-spy: .venv/bin/pip install py-spy")
    formats = {".json": "speedscope", ".txt": "raw"}  # raw: collapsed stacks, for grep
    fmt = formats.get(Path(path).suffix, "flamegraph")
    command = [spy, "record", "--pid", str(pid), "--output", path, "--format", fmt]
    command += ["--duration", str(max(1, round(seconds))), "--rate", "200", "--nonblocking"]
    return subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)


async def bench(
    args: argparse.Namespace, workdir: Path, holder: list[BotProcess], stopping: asyncio.Event
) -> int:
    world, seating = build_world(args.tables, args.seed)
    # Without Discord's rate limits: in a closed loop a table posts faster than 5 messages in
    # 5 s, and the figures would be discord.py's waits on them (bench/rest_calls.py plays at
    # people's pace, with the limits).
    emulator = DiscordEmulator(world, rate_limits=None)
    emulator.transcript = IndexedTranscript()
    await emulator.start()
    bot = BotProcess(emulator, workdir, env=BOT_ENV)
    holder.append(bot)
    try:
        await bot.start(timeout=60)
        assert bot.pid is not None
        players = sum(len(users) for _, users in seating)
        print(
            f"bot pid {bot.pid} ready; {args.tables} tables, {players} users, "
            f"{args.seconds:g} s, think {args.think:g} s, database {bot.database}; "
            f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores",
            flush=True,
        )
        return await measure(args, emulator, bot, seating, stopping)
    finally:
        code = await bot.stop()
        await emulator.stop()
        if code not in (0, None, -signal.SIGINT):
            print(f"the bot exited with code {code}; its log: {bot.log_paths[-1]}")


async def play_all(tables: list[Table], stopping: asyncio.Event) -> bool:
    """Every table at once, until they are done; returns False when stopped early."""
    players = asyncio.ensure_future(asyncio.gather(*(table.run() for table in tables)))
    stopped = asyncio.ensure_future(stopping.wait())
    try:
        await asyncio.wait({players, stopped}, return_when=asyncio.FIRST_COMPLETED)
        if players.done():
            players.result()
            return not stopping.is_set()
        # Stopped (Ctrl-C, SIGTERM, the bot died): the moves under way get a moment to end.
        await asyncio.wait({players}, timeout=2.0)
        return False
    finally:
        for task in (players, stopped):
            task.cancel()
        await asyncio.wait({players, stopped}, timeout=1.0)


async def measure(
    args: argparse.Namespace,
    emulator: DiscordEmulator,
    bot: BotProcess,
    seating: list[tuple[Channel, list[User]]],
    stopping: asyncio.Event,
) -> int:
    assert bot.pid is not None
    first, first_call = len(emulator.interactions), len(emulator.calls)
    counters = Counters()
    stop_at = time.monotonic() + args.seconds
    tables = [
        Table(
            emulator,
            channel,
            users,
            rng=random.Random(f"{args.seed}:{number}"),
            think=args.think,
            stop_at=stop_at,
            stopping=stopping,
            max_moves=args.actions,
            counters=counters,
        )
        for number, (channel, users) in enumerate(seating)
    ]
    profiler = start_profiler(args.profile, bot.pid, args.seconds) if args.profile else None
    lag = LoopLag()
    lag.start()
    bot_cpu_before, own_cpu_before = cpu_seconds(bot.pid), time.process_time()
    machine_before = machine_cpu_seconds()
    began = time.monotonic()
    try:
        finished = await play_all(tables, stopping)
    finally:
        elapsed = time.monotonic() - began
        bot_cpu_after, own_cpu_after = cpu_seconds(bot.pid), time.process_time()
        machine_after = machine_cpu_seconds()
        await lag.stop()
        if profiler is not None:
            if profiler.poll() is None:
                profiler.send_signal(signal.SIGINT)  # py-spy writes what it has so far
            _, errors = await asyncio.to_thread(profiler.communicate)
            if profiler.returncode:
                print(f"py-spy failed: {errors.decode(errors='replace')[-500:]}")
            else:
                print(f"profile written to {args.profile}")
    if not finished:
        print(f"stopped early, after {elapsed:.1f} s: the figures so far")

    interactions = emulator.interactions[first:]
    answered = [i for i in interactions if i.latency is not None]
    latencies = [i.latency for i in answered if i.latency is not None]
    by_kind: dict[str, list[float]] = defaultdict(list)
    for interaction in answered:
        assert interaction.latency is not None
        by_kind[kind(interaction)].append(interaction.latency)

    accepted = [i.latency for i in answered if i.latency is not None and refusal(i) is None]
    refused_latencies = [i.latency for i in answered if i.latency is not None and refusal(i)]
    print()
    print(f"interactions      {summary(latencies)}")
    print(f"  accepted        {summary(accepted)}")
    print(f"  refused         {summary(refused_latencies)}")
    print("  by action (all answers):")
    for name, values in sorted(by_kind.items(), key=lambda item: -len(item[1])):
        print(f"    {name:<14}{summary(values)}")
    print(f"throughput        {len(answered) / elapsed:.1f} interactions/s over {elapsed:.1f} s")
    calls = len(emulator.calls) - first_call
    print(
        f"bot REST calls    {calls} ({calls / max(1, len(answered)):.1f} per interaction: "
        "the answer, story lines, table message edits)"
    )
    print(
        f"games             {counters.games_started} started, {counters.games_finished} "
        f"finished, {counters.moves} moves"
    )
    unanswered = len(interactions) - len(answered)
    refused = sum(1 for i in answered if refusal(i) is not None)
    print(
        f"problems          {unanswered} unanswered, {len(emulator.expired)} expired (>3 s), "
        f"{refused} refused ({counters.retries} retried), "
        f"{len(emulator.http_errors)} HTTP errors, {counters.errors.total()} player errors, "
        f"{len(emulator.internal_errors) + len(emulator.unhandled)} emulator problems"
    )
    for text, count in counters.refusals.most_common(5):
        print(f"  refused {count:5} x {text[:90]!r}")
    if bot_cpu_before is not None and bot_cpu_after is not None:
        bot_cpu = bot_cpu_after - bot_cpu_before
        own_cpu = own_cpu_after - own_cpu_before
        line = (
            f"cpu               bot {100 * bot_cpu / elapsed:.0f}% of a core "
            f"({1000 * bot_cpu / max(1, len(answered)):.1f} ms per interaction), "
            f"emulator+players {100 * own_cpu / elapsed:.0f}%"
        )
        if machine_before is not None and machine_after is not None:
            busy = machine_after - machine_before
            others = max(0.0, busy - bot_cpu - own_cpu)
            line += f", other processes {100 * others / elapsed:.0f}%"
        print(f"{line} ({os.cpu_count()} cores)")
    load = os.getloadavg()[0]
    if load > 0.5 * (os.cpu_count() or 1) + 2:
        print(f"warning           load average {load:.1f}: other work on this machine skews these")
    print(f"emulator loop lag {summary(lag.lags)}")
    for error, count in counters.errors.most_common(5):
        print(f"  error   {count:5} x {error[:110]}")
    for problem in emulator.internal_errors[:10] + emulator.unhandled[:10]:
        print(f"  emulator: {problem}")
    p99 = 1000 * percentile(sorted(latencies), 99)
    verdict = "met" if p99 < TARGET_P99_MS else "NOT met"
    print(f"target            p99 < {TARGET_P99_MS:g} ms: {verdict} (p99 {p99:.1f} ms)")
    if not finished:
        return 130
    return 0 if latencies else 1


def parse(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python -m bench.e2e_latency",
        description="Latency of the real bot against the emulator, many Mia tables at once.",
    )
    parser.add_argument("--tables", type=int, default=50, help="tables playing at once (50)")
    parser.add_argument("--seconds", type=float, default=20.0, help="how long to play (20)")
    parser.add_argument(
        "--actions", type=int, default=0, help="stop a table after this many moves (0: no limit)"
    )
    parser.add_argument(
        "--think", type=float, default=0.0, help="mean pause before each move, seconds (0)"
    )
    parser.add_argument("--seed", type=int, default=1, help="table sizes and players' choices")
    parser.add_argument(
        "--profile", metavar="FILE", help="record the bot with py-spy (.svg, .json or .txt)"
    )
    parser.add_argument(
        "--keep", action="store_true", help="keep the temporary directory (database, bot log)"
    )
    args = parser.parse_args(argv)
    if args.tables < 1 or args.seconds <= 0:
        parser.error("--tables and --seconds must be positive")
    return args


def main(argv: Sequence[str] | None = None) -> int:
    args = parse(argv)
    holder: list[BotProcess] = []
    workdir = Path(tempfile.mkdtemp(prefix="gobelet-bench-"))

    async def run() -> int:
        # First Ctrl-C (or SIGTERM): stop playing, print the figures so far, stop the bot.
        # A second one: skip the figures, stop the bot at once.
        task = asyncio.current_task()
        assert task is not None
        stopping = asyncio.Event()
        signals = 0

        def interrupt() -> None:
            nonlocal signals
            signals += 1
            if signals == 1:
                print("stopping (again to skip the figures)", file=sys.stderr, flush=True)
                stopping.set()
            else:
                task.cancel()

        loop = asyncio.get_running_loop()
        for signum in (signal.SIGINT, signal.SIGTERM):
            loop.add_signal_handler(signum, interrupt)
        return await bench(args, workdir, holder, stopping)

    code = 1
    try:
        code = asyncio.run(run())
    except (KeyboardInterrupt, asyncio.CancelledError):
        print("interrupted", file=sys.stderr)
        code = 130
    finally:
        _kill_leftovers(holder)
        if args.keep:
            print(f"kept {workdir}")
        else:
            shutil.rmtree(workdir, ignore_errors=True)
    return code


def _kill_leftovers(holder: list[BotProcess]) -> None:
    """Whatever interrupted the run (a second Ctrl-C during cleanup): no bot outlives us."""
    for bot in holder:
        process = bot.process
        if process is not None and process.poll() is None:
            process.kill()
            with contextlib.suppress(subprocess.TimeoutExpired):
                process.wait(5)


if __name__ == "__main__":
    sys.exit(main())
