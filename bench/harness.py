"""What the end-to-end benchmarks share (``bench/e2e_latency.py``, ``bench/soak.py``): the
database the bot runs on, a transcript fit for tens of thousands of messages, figures
(percentiles, CPU, memory) and the run itself (signals, no bot outliving the run).

Not a benchmark itself: nothing here plays.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import math
import os
import random
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections import Counter, defaultdict
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Literal, TypeVar

if __package__ in (None, ""):  # imported by a benchmark run as a file: python bench/x.py
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import aiohttp
import uvloop
from aiohttp import web
from prometheus_client.parser import text_string_to_metric_families

from bot.i18n import keys, template
from tests.e2e.botprocess import BotProcess
from tests.e2e.emulator import (
    DiscordEmulator,
    InjectedInteraction,
    InteractionExpired,
    SessionStartLimit,
)
from tests.e2e.ratelimits import DISCORD_LIMITS, WEBHOOK_BUCKETS, globally_limited
from tests.e2e.transcript import OTHER_COMMANDS, Message, Transcript
from tests.e2e.world import Channel, User, World
from tests.postgres import PostgresServer

T = TypeVar("T")

BACKENDS = ("sqlite", "postgres")

STORAGE_REFUSAL = template("fr", "err.storage")
# "Too late: this button is from a turn already played": the move may have been stored
# before an answer was lost (a restart), so the player reads the table again.
STALE_REFUSAL = template("fr", "err.stale_turn")
# What the bot says when it refuses something (the French texts, up to their first field).
REFUSALS = tuple(
    text.split("{")[0].strip()
    for text in (template("fr", key) for key in keys("fr") if key.startswith("err."))
    if len(text.split("{")[0].strip()) >= 8
)


def refusal(interaction: InjectedInteraction) -> str | None:
    """The bot's private explanation, when its answer to ``interaction`` was a refusal."""
    for message in interaction.messages:
        if message.ephemeral and message.content.startswith(REFUSALS):
            return message.content
    return None


# Discord caps a server at 500 channels; tables are spread over servers of this many.
CHANNELS_PER_SERVER = 100


# --------------------------------------------------------------------------- the world


def build_world(
    tables: int, seed: int, sizes: Sequence[int] = (2, 3), shards: int = 1
) -> tuple[World, list[tuple[Channel, list[User]]]]:
    """French servers of up to CHANNELS_PER_SERVER channels, a channel per table, and at each
    table a number of users drawn from ``sizes``; the servers on ``shards`` shards in turn."""
    world = World.empty()
    world.add_user("patron")
    chooser = random.Random(seed)
    seating: list[tuple[Channel, list[User]]] = []
    for number in range(tables):
        server = f"bench-{number // CHANNELS_PER_SERVER}"
        if server not in world.guilds:
            shard = len(world.guilds) % shards, shards
            world.add_guild(server, owner="patron", locale="fr", shard=shard)
        channel = world.add_channel(server, f"table-{number:02d}")
        users = []
        for seat in range(chooser.choice(sizes)):
            user = world.add_user(f"t{number:02d}p{seat}")
            world.join(server, user.name)
            users.append(user)
        seating.append((channel, users))
    return world, seating


# --------------------------------------------------------------------------- the transcript


@dataclass
class IndexedTranscript(Transcript):
    """``Transcript`` with live messages indexed by id, by channel and by audience. The
    emulator looks up the message of every edit with ``get``, and players read their
    channel's table and their own panels: the tests' transcript scans every message so far
    for each, and over a run of tens of thousands of messages those scans would be the
    emulator's main cost, its delay showing in the bot's latency. ``changed`` hears of every
    message created, edited or deleted, by channel."""

    changed: Callable[[int], None] | None = None

    def __post_init__(self) -> None:
        self._by_id = {message.id: message for message in self.messages}
        # Live messages only, oldest first (ids grow): a table's old copies are deleted as
        # it moves down, and a deleted message is shown to nobody.
        self._public: defaultdict[int, dict[int, Message]] = defaultdict(dict)
        self._private: defaultdict[tuple[int, int | None], dict[int, Message]] = defaultdict(dict)
        self._audiences: defaultdict[int, set[int | None]] = defaultdict(set)
        self._with_embeds: defaultdict[int, dict[int, Message]] = defaultdict(dict)
        for message in self.messages:
            self._index(message)

    def record(
        self, kind: Literal["create", "edit", "delete"], message: Message, at: float
    ) -> None:
        super().record(kind, message, at)
        if kind == "create":
            self._by_id[message.id] = message
        self._index(message)
        if self.changed is not None:
            self.changed(message.channel_id)

    def _index(self, message: Message) -> None:
        channel = message.channel_id
        if message.ephemeral:
            self._audiences[channel].add(message.audience)
            live = self._private[(channel, message.audience)]
        else:
            live = self._public[channel]
        tables = self._with_embeds[channel]
        if message.deleted:
            live.pop(message.id, None)
            tables.pop(message.id, None)
            return
        live.setdefault(message.id, message)
        if message.ephemeral or not message.embeds:
            tables.pop(message.id, None)
        elif message.id not in tables:
            older = bool(tables) and max(tables) > message.id  # given an embed by an edit
            tables[message.id] = message
            if older:  # keep the oldest first
                self._with_embeds[channel] = dict(sorted(tables.items()))

    def get(self, message_id: int) -> Message:
        try:
            return self._by_id[message_id]
        except KeyError:
            raise LookupError(f"the bot never produced message {message_id}") from None

    def _live(self, channel_id: int | None) -> list[Message]:
        if channel_id is None:
            return super()._live(None)
        private = (self._private[(channel_id, who)] for who in self._audiences[channel_id])
        found = [*self._public[channel_id].values()]
        for messages in private:
            found += messages.values()
        return sorted(found, key=lambda message: message.id)

    def public(self, channel_id: int | None = None) -> list[Message]:
        if channel_id is None:
            return super().public(None)
        return list(self._public[channel_id].values())

    def ephemeral_to(self, user_id: int, channel_id: int | None = None) -> list[Message]:
        if channel_id is None:
            return super().ephemeral_to(user_id, None)
        return list(self._private[(channel_id, user_id)].values())

    def with_embeds(self, channel_id: int) -> list[Message]:
        """A channel's live public messages with an embed (its table's copies), oldest first."""
        return list(self._with_embeds[channel_id].values())

    def table(self, channel_id: int) -> Message | None:
        """As ``Transcript.table``: the newest public message with an embed that answers no
        other command."""
        for message in reversed(self._with_embeds[channel_id].values()):
            if (message.interaction_name or "").split(" ")[0] not in OTHER_COMMANDS:
                return message
        return None

    def newest(self, channel_id: int) -> int:
        """The id of a channel's newest live public message (0: none), to look past later."""
        live = self._public[channel_id]
        return next(reversed(live)) if live else 0


@dataclass(frozen=True)
class GlobalUse:
    """The globally limited calls of a run: in all, the most in one second of the emulator's
    clock, and the 429s answered by scope; the interaction webhooks' own 429s by bucket
    (``interaction_token``, ``webhook_channel``); and the most invalid requests (401, 403,
    429 but shared ones) any 10 minutes held, of Discord's 10,000 before a ban."""

    calls: int
    peak: int
    refused: Counter[str]
    webhooks: Counter[str]
    invalid: int

    def describe(self, count: int, unit: str = "move") -> str:
        scopes = ", ".join(f"{n} {scope}" for scope, n in sorted(self.refused.items()))
        return (
            f"{self.calls} globally limited calls ({self.calls / max(1, count):.3f} per {unit}), "
            f"peak {self.peak} in a second; 429s: {scopes or 'none'}"
        )

    def describe_webhooks(self) -> str:
        buckets = ", ".join(f"{n} {bucket}" for bucket, n in sorted(self.webhooks.items()))
        return (
            f"interaction webhooks' 429s: {buckets or 'none'}; "
            f"invalid requests: {self.invalid} in the worst 10 minutes"
        )


class BenchEmulator(DiscordEmulator):
    """The tests' emulator, with waits fit for hundreds of tables at once.

    ``DiscordEmulator.wait_for`` wakes every waiter at every change anywhere (each request
    the bot makes): with hundreds of tables waiting, the emulator would spend its time
    evaluating predicates that could not have changed, its delay showing in the bot's
    latency.
    ``until`` wakes the waiters of one channel when a message of that channel changes or an
    interaction there is answered, and every ``POLL`` seconds whatever happens (a deadline
    passed, the bot's death). And a failed wait says what it waited for, not the whole
    transcript, which takes seconds to write once it holds a long run."""

    POLL = 1.0

    def __init__(self, world: World, shards: int = 1) -> None:
        # Every Discord limit on, the global one and the identify budget included: no figure
        # is measured without them.
        super().__init__(
            world,
            rate_limits=DISCORD_LIMITS,
            shards=shards,
            session_start_limit=SessionStartLimit(),
        )
        self._channel_changes: dict[int, asyncio.Event] = {}
        self.transcript = IndexedTranscript(changed=self._channel_changed)

    @property
    def indexed(self) -> IndexedTranscript:
        assert isinstance(self.transcript, IndexedTranscript)
        return self.transcript

    async def _answer(
        self, request: web.Request, interaction: InjectedInteraction, now: float
    ) -> web.StreamResponse:
        try:
            return await super()._answer(request, interaction, now)
        finally:  # an answer that is no message (a deferral) wakes its channel's waiters too
            self._channel_changed(interaction.channel.id)

    def _channel_changed(self, channel_id: int) -> None:
        event = self._channel_changes.pop(channel_id, None)
        if event is not None:
            event.set()

    def global_use(self, first_call: int) -> GlobalUse:
        """What the bot spent of its token's global limit since call ``first_call``."""
        per_second: Counter[int] = Counter(
            int(call.at) for call in self.calls[first_call:] if globally_limited(call.path)
        )
        hits = Counter(hit.scope for hit in self.rate_limited)
        webhooks = Counter(hit.bucket for hit in self.rate_limited if hit.bucket in WEBHOOK_BUCKETS)
        return GlobalUse(
            per_second.total(),
            max(per_second.values(), default=0),
            hits,
            webhooks,
            self.invalid_per_window(),
        )

    def describe(self) -> str:
        return (
            f"({len(self.transcript.messages)} messages, {len(self.interactions)} interactions; "
            "the transcript is not printed in a benchmark)"
        )

    async def until(
        self, channel_id: int, predicate: Callable[[], T | None], *, timeout: float, what: str
    ) -> T:
        """``predicate()`` once truthy, rechecked at each change in ``channel_id``;
        TimeoutError after ``timeout`` (and the watchdog's error once the bot died)."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            changed = self._channel_changes.setdefault(channel_id, asyncio.Event())
            value = predicate()
            if value:
                return value
            if self.watchdog is not None:
                self.watchdog()
            remaining = deadline - loop.time()
            if remaining <= 0:
                raise TimeoutError(f"waited {timeout:g}s for {what}")
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(changed.wait(), min(remaining, self.POLL))

    async def changed(self, channel_id: int, timeout: float) -> None:
        """Until a message of ``channel_id`` changes, or ``timeout`` seconds."""
        change = self._channel_changes.setdefault(channel_id, asyncio.Event())
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(change.wait(), timeout)

    async def answered(self, interaction: InjectedInteraction, timeout: float) -> None:
        """The bot's accepted first answer to ``interaction`` (InteractionExpired: none came
        within Discord's window)."""

        def done() -> bool:
            if interaction.callback is None and interaction.expired:
                raise InteractionExpired(f"{interaction!r} expired unanswered")
            return interaction.callback is not None

        await self.until(interaction.channel.id, done, timeout=timeout, what=repr(interaction))

    async def replied(self, interaction: InjectedInteraction, timeout: float) -> Message:
        """The first message answering ``interaction`` that is not "thinking" any more."""

        def ready() -> Message | None:
            if interaction.callback is None and interaction.expired:
                raise InteractionExpired(f"{interaction!r} expired unanswered")
            return next((m for m in interaction.touched if not m.loading), None)

        return await self.until(
            interaction.channel.id, ready, timeout=timeout, what=f"a reply to {interaction!r}"
        )


# --------------------------------------------------------------------------- the database


@contextlib.asynccontextmanager
async def database(backend: str, workdir: Path, url: str | None = None) -> AsyncIterator[str]:
    """The bot's GOBELET_DATABASE_URL: ``url`` as given, a SQLite file in ``workdir``, or a
    new database on a throwaway PostgreSQL cluster (``tests.postgres``), removed after."""
    if url:
        yield url
    elif backend == "sqlite":
        yield f"sqlite:///{workdir / 'gobelet.db'}"
    else:
        server = await asyncio.to_thread(PostgresServer.start)
        try:
            yield await server.new_database()
        finally:
            await asyncio.to_thread(server.stop)


def describe_database(url: str) -> str:
    """The database named by a URL, for a report (without the password)."""
    if url.startswith("sqlite:///"):
        return f"SQLite {url.removeprefix('sqlite:///')}"
    host = url.split("@")[-1]
    return f"PostgreSQL {host}"


# --------------------------------------------------------------------------- figures


def percentile(ordered: Sequence[float], p: float) -> float:
    """Nearest rank: the smallest value with at least p% of the values at or below it."""
    if not ordered:
        return math.nan
    return ordered[max(0, math.ceil(p / 100 * len(ordered)) - 1)]


def summary(values: Sequence[float]) -> str:
    ordered = sorted(values)
    ms = [1000 * percentile(ordered, p) for p in (50, 90, 99)]
    top = 1000 * ordered[-1] if ordered else math.nan
    return (
        f"p50 {ms[0]:7.1f}  p90 {ms[1]:7.1f}  p99 {ms[2]:7.1f}  max {top:7.1f} ms"
        f"  count {len(ordered)}"
    )


def free_port() -> int:
    """A TCP port nothing listens on now (for the bot's /health and /metrics endpoint)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


async def bot_pauses(port: int) -> list[str]:
    """What the bot's own telemetry says of its pauses (``GOBELET_HTTP_PORT``'s /metrics):
    its event loop's lag and its cycle collector's runs, as lines to print."""
    async with (
        aiohttp.ClientSession() as session,
        session.get(f"http://127.0.0.1:{port}/metrics") as response,
    ):
        text = await response.text()
    lines = []
    for family in text_string_to_metric_families(text):
        if family.name not in (
            "gobelet_interaction_first_answer_seconds",
            "gobelet_storage_write_seconds",
            "gobelet_event_loop_lag_seconds",
            "gobelet_gc_pause_seconds",
        ):
            continue
        series: dict[str, dict[str, float]] = defaultdict(dict)
        for sample in family.samples:
            labels = ",".join(
                f"{k}={v}" for k, v in sample.labels.items() if k not in ("le", "shard")
            )
            if sample.name.endswith("_bucket"):
                series[labels][sample.labels["le"]] = sample.value
            elif sample.name.endswith(("_count", "_sum")):
                series[labels][sample.name.rsplit("_", 1)[1]] = sample.value
        for labels, values in sorted(series.items()):
            count = values.get("count", 0.0)
            over = [
                f"{100 * (count - values[le]) / count:.1f}% over {float(le) * 1000:g} ms"
                for le in ("0.005", "0.01", "0.02", "0.05")
                if count and le in values
            ]
            name = family.name.removeprefix("gobelet_").removesuffix("_seconds")
            lines.append(
                f"{name}{f' ({labels})' if labels else ''}: {count:.0f}, "
                f"{1000 * values.get('sum', 0.0):.0f} ms in all; " + ", ".join(over)
            )
    return lines


class LoopLag:
    """How late this process's event loop wakes up: the emulator's own share of the latency."""

    def __init__(self, period: float = 0.01) -> None:
        self.period = period
        self.lags: list[float] = []
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        self._task = asyncio.create_task(self._run())

    async def _run(self) -> None:
        while True:  # the monotonic clock: uvloop's own counts whole milliseconds
            before = time.monotonic()
            await asyncio.sleep(self.period)
            self.lags.append(max(0.0, time.monotonic() - before - self.period))

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task


class CollectorPauses:
    """How long this process's cycle collector stops it, by generation: while it runs, the
    emulator receives nothing, and every answer in flight is counted that much later.

    The emulator keeps every message, call and interaction of the run, so each full
    collection would walk them all, and its pause would count as the bot's latency. So
    from ``start`` to ``stop`` the full collections wait: what was built before is frozen
    out of reach, and the young generations are still collected as usual."""

    def __init__(self) -> None:
        self.pauses: dict[int, list[float]] = {0: [], 1: [], 2: []}
        self._began = 0.0
        self._thresholds = gc.get_threshold()

    def _callback(self, phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            self._began = time.perf_counter()
        else:
            self.pauses[info["generation"]].append(time.perf_counter() - self._began)

    def start(self) -> None:
        gc.collect()
        gc.freeze()
        self._thresholds = gc.get_threshold()
        young, middle, _ = self._thresholds
        gc.set_threshold(young, middle, 1_000_000_000)
        gc.callbacks.append(self._callback)

    def stop(self) -> None:
        with contextlib.suppress(ValueError):
            gc.callbacks.remove(self._callback)
        gc.set_threshold(*self._thresholds)
        gc.unfreeze()


def cpu_seconds(pid: int) -> float | None:
    """User + system CPU time of a process (Linux /proc), or None."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def quiet(pid: int, *, busy: float = 0.05, window: float = 0.5, most: float = 60.0) -> None:
    """Until process ``pid`` used under ``busy`` of a core over ``window`` seconds (the moves
    in flight are over), or ``most`` seconds passed."""
    loop = asyncio.get_running_loop()
    give_up = loop.time() + most
    while loop.time() < give_up:
        before = cpu_seconds(pid)
        await asyncio.sleep(window)
        after = cpu_seconds(pid)
        if before is None or after is None or after - before < busy * window:
            return


def machine_cpu_seconds() -> float | None:
    """CPU time all processes of the machine used (Linux /proc/stat): busy, not idle."""
    try:
        values = [int(v) for v in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    except (OSError, ValueError):
        return None
    idle = values[3] + (values[4] if len(values) > 4 else 0)  # idle + iowait
    return (sum(values[:8]) - idle) / os.sysconf("SC_CLK_TCK")


@dataclass(frozen=True)
class Memory:
    """A process's memory (Linux /proc), KiB: resident, and proportional (shared pages
    divided among the processes that map them; what the process costs the machine)."""

    rss: int
    pss: int | None

    @classmethod
    def of(cls, pid: int) -> Memory | None:
        try:
            status = Path(f"/proc/{pid}/status").read_text()
        except OSError:
            return None
        rss = next(int(line.split()[1]) for line in status.splitlines() if line[:6] == "VmRSS:")
        pss = None
        with contextlib.suppress(OSError, StopIteration):
            rollup = Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines()
            pss = next(int(line.split()[1]) for line in rollup if line.startswith("Pss:"))
        return cls(rss, pss)

    def __str__(self) -> str:
        pss = f", PSS {self.pss / 1024:.1f} MiB" if self.pss is not None else ""
        return f"RSS {self.rss / 1024:.1f} MiB{pss}"


def per_table(before: Memory | None, after: Memory | None, tables: int) -> str:
    """What each table added to a process's memory, KiB (RSS, and PSS when known)."""
    if before is None or after is None or tables <= 0:
        return "unknown (no /proc)"
    text = f"{(after.rss - before.rss) / tables:.1f} KiB RSS"
    if before.pss is not None and after.pss is not None:
        text += f", {(after.pss - before.pss) / tables:.1f} KiB PSS"
    return text


def load_note() -> str:
    """The machine's load when a figure was taken (other work on it skews figures)."""
    one, five, _ = os.getloadavg()
    return f"load average {one:.1f} (5 min {five:.1f}) on {os.cpu_count()} cores"


def start_profiler(path: str, pid: int, seconds: float) -> subprocess.Popen[bytes]:
    """py-spy recording ``pid`` for ``seconds`` (py-spy is installed separately)."""
    spy = shutil.which("py-spy") or str(Path(sys.executable).with_name("py-spy"))
    if not Path(spy).exists():
        raise SystemExit("--profile needs py-spy: .venv/bin/pip install py-spy")
    formats = {".json": "speedscope", ".txt": "raw"}  # raw: collapsed stacks, for grep
    fmt = formats.get(Path(path).suffix, "flamegraph")
    command = [spy, "record", "--pid", str(pid), "--output", path, "--format", fmt]
    command += ["--duration", str(max(1, round(seconds))), "--rate", "200", "--nonblocking"]
    return subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)


async def stop_profiler(profiler: subprocess.Popen[bytes] | None, path: str | None) -> None:
    if profiler is None:
        return
    if profiler.poll() is None:
        profiler.send_signal(signal.SIGINT)  # py-spy writes what it has so far
    _, errors = await asyncio.to_thread(profiler.communicate)
    if profiler.returncode:
        print(f"py-spy failed: {errors.decode(errors='replace')[-500:]}")
    else:
        print(f"profile written to {path}")


# --------------------------------------------------------------------------- the run

Body = Callable[[Path, list[BotProcess], asyncio.Event], Awaitable[int]]


def run(body: Body, *, keep: bool = False) -> int:
    """Run ``body(workdir, bots, stopping)`` in a fresh temporary directory.

    First Ctrl-C (or SIGTERM) sets ``stopping``: the body stops playing and prints its
    figures so far. A second one cancels it. Whatever happens, every bot the body put in
    ``bots`` is killed before returning (the kernel kills them too should this process die
    first: ``BotProcess`` asks for it)."""
    bots: list[BotProcess] = []
    workdir = Path(tempfile.mkdtemp(prefix="gobelet-bench-"))

    async def main() -> int:
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
        return await body(workdir, bots, stopping)

    code = 1
    try:
        # The emulator and the players share this process: on uvloop, as the bot runs, so
        # that the harness takes as little of the machine as it can from what it measures.
        code = uvloop.run(main())
    except (KeyboardInterrupt, asyncio.CancelledError):
        print("interrupted", file=sys.stderr)
        code = 130
    finally:
        _kill_leftovers(bots)
        if keep:
            print(f"kept {workdir}")
        else:
            shutil.rmtree(workdir, ignore_errors=True)
    return code


def _kill_leftovers(bots: list[BotProcess]) -> None:
    """Whatever interrupted the run (a second Ctrl-C during cleanup): no bot outlives us."""
    for bot in bots:
        process = bot.process
        if process is not None and process.poll() is None:
            process.kill()
            with contextlib.suppress(subprocess.TimeoutExpired):
                process.wait(5)
