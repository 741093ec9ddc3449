"""How fast the real bot answers when many tables play Mia at once (end to end).

    .venv/bin/python -m bench.e2e_latency [--tables 50] [--seconds 20] [--think 0]
        [--backend sqlite|postgres] [--database-url URL]
    .venv/bin/python bench/e2e_latency.py --tables 500 --seconds 120 --think 3 --backend postgres

Starts the Discord emulator of the end-to-end tests (``tests/e2e``) in this process and the
real bot (``python -m bot``) as a subprocess against it, with ``GOBELET_CPU_DELAY_SECONDS=0``
and a one-hour turn timer, on a fresh database: a SQLite file in a temporary directory, or
(``--backend postgres``) a new database on a throwaway PostgreSQL cluster started from the
machine's binaries (``tests/postgres.py``), or the database ``--database-url`` names. Each
table has a channel of its own (servers of 100 channels: Discord caps a server at 500);
each table (2 or 3 users) opens a Mia game (``/maya start mode:vies``), the others click
"Rejoindre", the starter clicks "Commencer", and they play through the buttons and the
announcement menu only, as people do, every table at once. A table whose game ends opens a
new one, until ``--seconds`` have passed (or each table has made ``--actions`` moves). A
refusal that asks to try again (the storage one) is retried, as a person would, up to 5
times; every refusal is counted and printed.

Every Discord limit of the emulator is on (per route, per channel, the token's global 50
requests a second, and the interaction webhooks' 5 calls per 2 s a token and 30 followups a
minute a channel): printed too are the bot's globally limited calls (all but the
interaction callbacks and webhooks), per move and at their peak in one second, the 429s by
scope, the webhooks' 429s by bucket, and the invalid requests (401, 403, 429) of the worst
10 minutes.

The figure is the emulator's: from the injection of each interaction on the gateway to the
arrival of the bot's first answer to it (``InjectedInteraction.latency``, the same numbers
as ``DiscordEmulator.latencies``). Printed: p50, p90, p99, max and count, overall and per
action; how many interactions were answered after Discord's 3 seconds or never, and how
many expired (the emulator's 10062 "Unknown interaction"); interactions per second; the CPU
used by the bot and by this process (the emulator and the players); and the bot's memory
(``/proc``: RSS, and PSS) once it is up with no table, once every table has a game under
way, and at the end with every game still under way (once the moves in flight are over), with
what each table added. Since both run on the same machine, this process's own event-loop
lag and collector pauses are printed too: when they are high, part of the latency is the
emulator's, not the bot's. Its full collections are held off during the run
(``CollectorPauses``): each would walk every message kept so far, and its pause would count
as the bot's. The targets at people's pace are
checked last: p99 under 20 ms, nothing past 3 s, under 20 KiB per table, no global 429,
under 40 globally limited calls in any second, no webhook 429 and fewer than 10 invalid
requests in any 10 minutes.

``--processes N`` runs N bot processes of one shard each on the one database, the servers
spread over the shards (the memory and CPU printed are then the first process's).
``--restart`` (one process) then SIGKILLs the bot, every table's game under way, starts it again and
times it: back on the gateway, the first interaction answered (a player of the table
restored last asks to see it), every table back; with the globally limited calls it made.

``--think S`` makes every user wait a random 0..2*S seconds before each interaction (S on
average; 3 is people's pace): before a click, and before announcing once their dice are
shown, as a person reads their dice first. The default 0 is a closed loop: every table acts as soon as it can,
which measures the bot's capacity rather than its latency at a human pace (the emulator
and the players then compete with the bot for the CPU). ``--profile FILE``
records the bot with py-spy (installed separately, not a project dependency) during the run.

Ctrl-C (or SIGTERM) stops the run; the bot is stopped in every case, and killed by the
kernel should this process die first.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
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
from typing import TypeVar

import aiohttp

if __package__ in (None, ""):  # run as a file: python bench/e2e_latency.py
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench import memtrace
from bench.harness import (
    BACKENDS,
    STORAGE_REFUSAL,
    BenchEmulator,
    CollectorPauses,
    LoopLag,
    Memory,
    bot_pauses,
    build_world,
    cpu_seconds,
    database,
    describe_database,
    free_port,
    load_note,
    machine_cpu_seconds,
    per_table,
    percentile,
    quiet,
    refusal,
    run,
    start_profiler,
    stop_profiler,
    summary,
)
from bot.i18n import t
from tests.e2e.botprocess import BotDied, BotProcess
from tests.e2e.emulator import InjectedInteraction
from tests.e2e.maya_driver import ORDER, MayaDriver, Turn, dice_in, rank
from tests.e2e.transcript import Message
from tests.e2e.world import Channel, User

T = TypeVar("T")
MEMTRACE = Path(memtrace.__file__).resolve()

# The figures at people's pace: interaction -> first answer, and the bot's memory.
TARGET_P99_MS = 20.0
TARGET_KIB_PER_TABLE = 20.0
BACK_FR = t("fr", "note.back")  # what a table says once it has resumed after a restart
RESTORED = re.compile(r"restored (\d+) running tables")  # the bot's log at a start
TARGET_RESTART_S = 10.0  # from a restart to its first interaction answered, at most
TARGET_GLOBAL_PEAK = 40  # globally limited calls in one second, at most (Discord allows 50)
TARGET_INVALID = 10  # invalid requests (401, 403, 429) in any 10 minutes (a ban at 10,000)
LATE = 3.0  # Discord's window for the first answer: later, the user sees "interaction failed"
LIVES = 3
BOT_ENV = {
    "GOBELET_CPU_DELAY_SECONDS": "0",
    "GOBELET_TURN_SECONDS": "3600",
    "GOBELET_LOG_LEVEL": "INFO",
}
WAIT = 15.0  # how long a player waits for the bot before giving up on a move
RETRIES = 5  # a refusal that says "try again in a moment" is retried this often
MAX_ERRORS_PER_TABLE = 20


# --------------------------------------------------------------------------- the players


@dataclass
class Counters:
    moves: int = 0
    games_started: int = 0
    games_finished: int = 0
    tables_live: int = 0  # tables whose first game has started
    retries: int = 0
    refusals: Counter[str] = field(default_factory=Counter)
    errors: Counter[str] = field(default_factory=Counter)


class Refused(Exception):
    """The bot refused a move with a private explanation (that is not worth retrying)."""


class Table:
    """The users of one channel playing Mia through buttons, game after game."""

    def __init__(
        self,
        emulator: BenchEmulator,
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
        self.live = False  # its first game has started

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
            await self.emulator.answered(interaction, WAIT)
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
        custom_id = next((c for c in table.custom_ids if c.split(":")[-1] == action), None)
        if custom_id is None:
            raise LookupError(f"no {action!r} button on the table")
        return await self.act(lambda: self.emulator.click(user, table, custom_id))

    async def panel(self, user: User, action: str) -> Message:
        """Click a button whose answer is the user's private panel (dice and menu)."""
        clicked = await self.click(user, action)
        return await self.emulator.replied(clicked, WAIT)

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
        seen = self.emulator.indexed.newest(self.channel.id)
        await self.act(
            lambda: self.emulator.slash(
                starter, self.channel, "maya start", {"mode": "vies", "vies": LIVES}
            )
        )
        await self.until(lambda: self.new_table_message(seen), "the table message")
        self.counters.games_started += 1
        for user in others:
            await self.pause()
            await self.click(user, "join")
            await self.until(
                lambda user=user: user.mention in self.table_text(), f"{user.name} at the table"
            )
        await self.pause()
        await self.click(starter, "start")
        if not self.live:
            self.live = True
            self.counters.tables_live += 1
        turn = await self.wait_turn()
        while turn.phase != "over":
            if self.done():  # the game stays unfinished: the bot and its database go away
                return
            await self.pause()
            played = await self.move(turn)
            self.moves += 1
            self.counters.moves += 1
            turn = await self.wait_turn(after=played)
        self.counters.games_finished += 1

    async def until(self, predicate: Callable[[], T | None], what: str) -> T:
        return await self.emulator.until(self.channel.id, predicate, timeout=WAIT, what=what)

    async def wait_turn(self, *, after: int = -1) -> Turn:
        """The next decision point (step > ``after``) that is a human's, or the end."""

        def ready() -> Turn | None:
            turn = self.driver.turn()
            if turn.phase == "over" or (turn.step > after and turn.player is not None):
                return turn
            return None

        return await self.until(ready, "a human's turn")

    def new_table_message(self, seen: int) -> Message | None:
        """The first public message with the table's buttons posted in the channel after
        message ``seen``."""
        for message in self.emulator.transcript.public(self.channel.id):
            if message.id > seen and any(c.startswith("gob:") for c in message.custom_ids):
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
            await self.pause()  # reading their dice
            return await self.announce_from(user, panel)
        if turn.phase == "announce":  # rolled, not announced yet (after an error)
            return await self.announce_from(user, await self.panel(user, "dice"))
        if turn.phase == "respond":
            if self.rng.random() < 0.3:
                await self.click(user, "lift")
                return turn.step
            panel = await self.panel(user, "believe")
            await self.pause()
            return await self.announce_from(user, panel)
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


def kind(interaction: InjectedInteraction) -> str:
    if interaction.command:
        return f"/{interaction.command}"
    custom_id = str(interaction.payload.get("data", {}).get("custom_id", "?"))
    if custom_id.startswith("gobsel:"):
        return "announce"
    return custom_id.split(":")[-1]


# --------------------------------------------------------------------------- the run


async def bench(
    args: argparse.Namespace, workdir: Path, bots: list[BotProcess], stopping: asyncio.Event
) -> int:
    world, seating = build_world(args.tables, args.seed, shards=args.processes)
    emulator = BenchEmulator(world, shards=args.processes)
    await emulator.start()
    try:
        async with database(args.backend, workdir, args.database_url) as url:
            command = [sys.executable, "-m", "bot"]
            if args.trace_memory:
                command = [sys.executable, "-X", "tracemalloc=8", str(MEMTRACE), str(workdir)]
            port = free_port()
            env = {**BOT_ENV, "GOBELET_HTTP_PORT": str(port)}
            if args.processes > 1:  # one shard each; the first is the one measured
                env |= {"GOBELET_SHARD_COUNT": str(args.processes), "GOBELET_SHARD_IDS": "0"}
            bot = BotProcess(emulator, workdir, env=env, database_url=url, command=command)
            bots.append(bot)
            try:
                await bot.start(timeout=600 if args.trace_memory else 60)
                for shard in range(1, args.processes):
                    folder = workdir / f"shard-{shard}"
                    folder.mkdir(exist_ok=True)
                    shard_env = {**BOT_ENV, "GOBELET_SHARD_COUNT": str(args.processes)}
                    shard_env["GOBELET_SHARD_IDS"] = str(shard)
                    other = BotProcess(emulator, folder, env=shard_env, database_url=url)
                    bots.append(other)
                    await other.start(timeout=60)
                assert bot.pid is not None
                # Up, on_ready done, no table yet: what the tables' memory is counted from.
                await asyncio.sleep(1.0)
                idle = Memory.of(bot.pid)
                if args.trace_memory:
                    await memory_snapshot(bot, workdir, 1)
                players = sum(len(users) for _, users in seating)
                print(
                    f"bot pid {bot.pid} ready; {args.tables} tables, {players} users, "
                    f"{args.seconds:g} s, think {args.think:g} s, {describe_database(url)}; "
                    f"{load_note()}",
                    flush=True,
                )
                code = await measure(args, emulator, bot, seating, stopping, idle, workdir, port)
                if args.restart and code == 0 and args.processes == 1:
                    await measure_restart(emulator, bot, seating)
                return code
            finally:
                for running in bots:
                    code = await running.stop()
                    if code not in (0, None, -signal.SIGINT):
                        log = running.log_paths[-1]
                        print(f"a bot exited with code {code}; its log: {log}")
    finally:
        await emulator.stop()


async def measure_restart(
    emulator: BenchEmulator, bot: BotProcess, seating: list[tuple[Channel, list[User]]]
) -> None:
    """SIGKILL the bot, every table's game under way, and start it again; time the gateway
    back, the first interaction answered (a player of the last table restored asks to see
    it, ``/maya table``), and every table said to be back (in the background)."""
    await bot.kill()
    first_call, sessions = len(emulator.calls), len(emulator.sessions)
    began = time.monotonic()
    bot.launch()
    await emulator.wait_for(
        lambda: any(s.guilds_sent_at is not None for s in emulator.sessions[sessions:]),
        timeout=300,
        what="the bot back on the gateway",
    )
    connected = time.monotonic() - began
    channel, users = seating[-1]
    asked = await emulator.slash(users[0], channel, "maya table")
    await emulator.answered(asked, 60)
    answered = time.monotonic() - began

    def back(number: int) -> bool:
        table = emulator.transcript.table(seating[number][0].id)
        return table is not None and BACK_FR in table.text

    # A table whose game had just ended when the bot was killed has nothing to resume: the
    # bot says how many tables it restored.
    restored = await emulator.wait_for(
        lambda: (
            (found := RESTORED.search(bot.log().split("----- bot run")[-1])) and int(found.group(1))
        ),
        timeout=60,
        what="the count of tables restored",
    )
    waiting = list(range(len(seating)))
    while len(seating) - len(waiting) < restored and time.monotonic() - began < 600:
        waiting = [number for number in waiting if not back(number)]
        await asyncio.sleep(0.2)
    resumed = time.monotonic() - began
    missing = restored - (len(seating) - len(waiting))
    spent = emulator.global_use(first_call)
    late = "" if asked.latency is None else f" ({1000 * asked.latency:.0f} ms after it was sent)"
    print(
        f"restart           {restored} live tables: on the gateway after {connected:.1f} s, "
        f"first interaction answered after {answered:.1f} s{late}, "
        + (
            f"every table back after {resumed:.1f} s"
            if missing <= 0
            else f"{missing} tables not back after {resumed:.0f} s"
        )
    )
    print(f"  global limit    {spent.describe(restored, 'table')}")
    print(
        f"targets           first interaction answered within {TARGET_RESTART_S:g} s of the "
        f"start: {verdict(answered < TARGET_RESTART_S)} ({answered:.1f} s)"
    )


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


async def memory_once_live(pid: int, counters: Counters, tables: int) -> Memory | None:
    """The bot's memory the first time every table has a game under way."""
    while counters.tables_live < tables:
        await asyncio.sleep(0.2)
    return Memory.of(pid)


async def measure(
    args: argparse.Namespace,
    emulator: BenchEmulator,
    bot: BotProcess,
    seating: list[tuple[Channel, list[User]]],
    stopping: asyncio.Event,
    idle: Memory | None,
    workdir: Path,
    port: int,
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
    collector = CollectorPauses()
    collector.start()  # first: its own collection is not the loop's lag
    lag = LoopLag()
    lag.start()
    all_live = asyncio.ensure_future(memory_once_live(bot.pid, counters, len(tables)))
    bot_cpu_before, own_cpu_before = cpu_seconds(bot.pid), time.process_time()
    machine_before = machine_cpu_seconds()
    began = time.monotonic()
    try:
        finished = await play_all(tables, stopping)
    finally:
        collector.stop()
        elapsed = time.monotonic() - began
        bot_cpu_after, own_cpu_after = cpu_seconds(bot.pid), time.process_time()
        machine_after = machine_cpu_seconds()
        # The tables' games are still under way in the bot: once the moves in flight are
        # over, what it holds is what its live tables cost.
        await quiet(bot.pid)
        at_end = Memory.of(bot.pid)
        if args.trace_memory:
            await memory_snapshot(bot, workdir, 2)
        live = all_live.result() if all_live.done() else None
        all_live.cancel()
        await lag.stop()
        await stop_profiler(profiler, args.profile)
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
    spent = emulator.global_use(first_call)
    print(f"global limit      {spent.describe(counters.moves)}")
    print(f"webhook limits    {spent.describe_webhooks()}")
    unanswered = len(interactions) - len(answered)
    late = sum(1 for value in latencies if value > LATE)
    expired = sum(1 for i in interactions if i.expired)
    refused = sum(1 for i in answered if refusal(i) is not None)
    print(
        f"past {LATE:g} s         {late + unanswered} ({late} answered late, {unanswered} never "
        f"answered); {expired} expired (10062 Unknown interaction)"
    )
    print(
        f"problems          {refused} refused ({counters.retries} retried), "
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
    print(f"machine           {load_note()} at the end")
    print(f"emulator loop lag {summary(lag.lags)}")
    for generation, pauses in collector.pauses.items():
        print(f"emulator gc gen{generation} {summary(pauses)}")
    with contextlib.suppress(OSError, aiohttp.ClientError):
        for line in await bot_pauses(port):
            print(f"bot {line}")
    live_tables = sum(1 for table in tables if table.live)
    print(
        f"bot memory        idle (up, no table) {idle}; every table live "
        f"{live if live is not None else 'never reached'}; at the end {at_end}"
    )
    print(
        f"  per table       {per_table(idle, at_end, live_tables)} at the end "
        f"({live_tables} tables live)"
        + (f"; {per_table(idle, live, len(tables))} once all were live" if live else "")
    )
    if args.trace_memory:
        print_growth(workdir, len(tables))
    for error, count in counters.errors.most_common(5):
        print(f"  error   {count:5} x {error[:110]}")
    for problem in emulator.internal_errors[:10] + emulator.unhandled[:10]:
        print(f"  emulator: {problem}")
    p99 = 1000 * percentile(sorted(latencies), 99)
    kib = (at_end.rss - idle.rss) / max(1, live_tables) if idle and at_end else float("nan")
    print(
        f"targets           p99 < {TARGET_P99_MS:g} ms: {verdict(p99 < TARGET_P99_MS)} "
        f"(p99 {p99:.1f} ms); 0 past {LATE:g} s: {verdict(late + unanswered == 0)}; "
        f"memory < {TARGET_KIB_PER_TABLE:g} KiB per table: {verdict(kib < TARGET_KIB_PER_TABLE)} "
        f"({kib:.1f} KiB RSS); 0 global 429s: {verdict(not spent.refused['global'])}; "
        f"peak globally limited < {TARGET_GLOBAL_PEAK}/s: "
        f"{verdict(spent.peak < TARGET_GLOBAL_PEAK)} ({spent.peak}/s); "
        f"0 webhook 429s: {verdict(not spent.webhooks)}; "
        f"invalid requests < {TARGET_INVALID} per 10 minutes: "
        f"{verdict(spent.invalid < TARGET_INVALID)} ({spent.invalid})"
    )
    if not finished:
        return 130
    return 0 if latencies else 1


async def memory_snapshot(bot: BotProcess, workdir: Path, number: int) -> None:
    """Ask the traced bot for snapshot ``number`` and wait until it is written."""
    assert bot.pid is not None
    os.kill(bot.pid, signal.SIGUSR1)
    path = memtrace.snapshot_path(workdir, number)
    for _ in range(1200):
        if path.exists():
            return
        await asyncio.sleep(0.1)
    raise TimeoutError(f"the bot wrote no memory snapshot {number}")


def print_growth(workdir: Path, tables: int) -> None:
    grown = memtrace.growth(memtrace.snapshot_path(workdir, 1), memtrace.snapshot_path(workdir, 2))
    print(
        f"memory traced     {grown.total / 1024:.0f} KiB more at the end than idle, "
        f"{grown.total / 1024 / tables:.1f} KiB per table (tracemalloc: Python's own "
        "allocations, without the allocator's slack or the tracer's)"
    )
    for title, rows in (("allocated at", grown.innermost), ("through the bot's", grown.ours)):
        print(f"memory grown, by where it was {title} (KiB in all, KiB per table):")
        for place, size in rows:
            print(f"  {size / 1024:9.1f} {size / 1024 / tables:7.2f}  {place}")


def verdict(met: bool) -> str:
    return "met" if met else "NOT met"


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
        "--processes",
        type=int,
        default=1,
        help="bot processes, one shard each, the servers shared among them (1); the memory "
        "and CPU printed are the first process's",
    )
    parser.add_argument(
        "--restart",
        action="store_true",
        help="then SIGKILL the bot, games under way, and time its restart",
    )
    parser.add_argument(
        "--backend", choices=BACKENDS, default="sqlite", help="the bot's database (sqlite)"
    )
    parser.add_argument(
        "--database-url",
        metavar="URL",
        help="a database of your own (postgresql://…) instead of a throwaway one",
    )
    parser.add_argument(
        "--profile", metavar="FILE", help="record the bot with py-spy (.svg, .json or .txt)"
    )
    parser.add_argument(
        "--trace-memory",
        action="store_true",
        help="run the bot under tracemalloc and print what grew (slow: no latency figures)",
    )
    parser.add_argument(
        "--keep", action="store_true", help="keep the temporary directory (database, bot log)"
    )
    args = parser.parse_args(argv)
    if args.tables < 1 or args.seconds <= 0 or args.processes < 1:
        parser.error("--tables, --seconds and --processes must be positive")
    return args


def main(argv: Sequence[str] | None = None) -> int:
    args = parse(argv)
    return run(lambda workdir, bots, stopping: bench(args, workdir, bots, stopping), keep=args.keep)


if __name__ == "__main__":
    sys.exit(main())
