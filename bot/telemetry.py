"""The bot's telemetry: the Prometheus series it exports, in a registry of their own
(``REGISTRY``); a leaderboard's figures (``bot.kernel.spec.Metric``) are another matter.

What is counted where it happens: each interaction received and the time to its first
answer (``bot.interactions.answers``, which sees every one), each game write and its time
(``bot.table.runner``). What is read when scraped: the live tables, by game and shard
(``watch_tables``). The process's own figures (memory, CPU, open files, garbage
collection) are prometheus_client's. ``bot.health`` serves them over HTTP.

A series about a guild carries its ``shard``: ``(guild_id >> 22) % shard_count``, Discord's
rule (a direct message is shard 0's).
"""

from __future__ import annotations

import asyncio
import gc
import time
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from typing import Any

from prometheus_client import (
    CollectorRegistry,
    GCCollector,
    Histogram,
    PlatformCollector,
    ProcessCollector,
)
from prometheus_client import Counter as PrometheusCounter
from prometheus_client.core import GaugeMetricFamily

REGISTRY = CollectorRegistry()
ProcessCollector(registry=REGISTRY)
PlatformCollector(registry=REGISTRY)
GCCollector(registry=REGISTRY)

# Discord's window for a first answer is 3 s: the buckets are finest around it, and under
# 50 ms, where a bot at people's pace answers.
ANSWER_BUCKETS = (0.005, 0.01, 0.02, 0.05, 0.1, 0.25, 0.5, 1.0, 1.5, 2.0, 2.5, 3.0, 5.0, 10.0)
WRITE_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0)

# discord.InteractionType names (by name: the table runtime, which counts its writes
# here, knows nothing of Discord).
KINDS = {
    "application_command": "command",
    "component": "component",
    "modal_submit": "modal",
    "autocomplete": "autocomplete",
}

INTERACTIONS = PrometheusCounter(
    "gobelet_interactions",
    "Interactions received, by kind (command, component, modal, autocomplete) and shard.",
    ["kind", "shard"],
    registry=REGISTRY,
)
FIRST_ANSWER = Histogram(
    "gobelet_interaction_first_answer_seconds",
    "From an interaction's arrival to its first answer (a message, a deferral or an edit).",
    ["kind", "shard"],
    buckets=ANSWER_BUCKETS,
    registry=REGISTRY,
)
# How late the event loop runs what is due, and how long the cycle collector stops it: the
# two delays every interaction's answer waits through, whatever it does itself.
PAUSE_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.02, 0.05, 0.1, 0.25, 0.5, 1.0)
LOOP_LAG = Histogram(
    "gobelet_event_loop_lag_seconds",
    "How late the event loop wakes a task sleeping a tenth of a second (a busy loop: late).",
    buckets=PAUSE_BUCKETS,
    registry=REGISTRY,
)
GC_PAUSES = Histogram(
    "gobelet_gc_pause_seconds",
    "How long each run of the cycle collector stopped the process, by generation.",
    ["generation"],
    buckets=PAUSE_BUCKETS,
    registry=REGISTRY,
)
LAG_PERIOD = 0.1

# One database for every shard: its writes carry no shard.
STORAGE_WRITES = Histogram(
    "gobelet_storage_write_seconds",
    "Time to store a game move (its events and snapshot in one transaction), failed ones too.",
    buckets=WRITE_BUCKETS,
    registry=REGISTRY,
)


def shard_of(guild_id: int | None, shard_count: int | None) -> str:
    """The shard that receives ``guild_id``'s events (as a label)."""
    if guild_id is None:
        return "0"
    return str((guild_id >> 22) % (shard_count or 1))


def shard_count(client: Any) -> int:
    """How many shards ``client`` runs (1 when it is not sharded)."""
    return getattr(client, "shard_count", None) or 1


def kind_of(interaction: Any) -> str:
    return KINDS.get(getattr(interaction.type, "name", ""), "other")


def received(interaction: Any) -> None:
    shard = shard_of(interaction.guild_id, shard_count(interaction.client))
    INTERACTIONS.labels(kind_of(interaction), shard).inc()


def answered(interaction: Any, seconds: float) -> None:
    shard = shard_of(interaction.guild_id, shard_count(interaction.client))
    FIRST_ANSWER.labels(kind_of(interaction), shard).observe(seconds)


# (game, guild id) of every live table, and the number of shards; None until a bot runs.
TableSource = Callable[[], tuple[Iterable[tuple[str, int]], int]]


class _LiveTables:
    """The live tables by game and shard, counted when scraped (every game and shard is
    listed, at 0 when it has none, so that a dashboard's series never vanish)."""

    def __init__(self) -> None:
        self.source: TableSource | None = None
        self.games: tuple[str, ...] = ()

    def collect(self) -> Iterator[GaugeMetricFamily]:
        family = GaugeMetricFamily(
            "gobelet_live_tables",
            "TableRunner open (in their lobby or playing), by game and shard.",
            labels=["game", "shard"],
        )
        if self.source is not None:
            tables, shards = self.source()
            counts = Counter((game, shard_of(guild, shards)) for game, guild in tables)
            for game in sorted({*self.games, *(game for game, _ in counts)}):
                for shard in range(shards):
                    family.add_metric([game, str(shard)], counts[(game, str(shard))])
        yield family


LIVE_TABLES = _LiveTables()
REGISTRY.register(LIVE_TABLES)


def watch_tables(source: TableSource, games: Iterable[str]) -> None:
    """Count the live tables ``source`` lists (every one of ``games``, at least) when scraped."""
    LIVE_TABLES.source = source
    LIVE_TABLES.games = tuple(games)


async def watch_the_loop() -> None:
    """Observe the event loop's lag every ``LAG_PERIOD`` seconds, until cancelled."""
    while True:
        before = time.monotonic()
        await asyncio.sleep(LAG_PERIOD)
        LOOP_LAG.observe(max(0.0, time.monotonic() - before - LAG_PERIOD))


class _CollectorPauses:
    """A ``gc.callbacks`` entry timing each collection, by generation."""

    def __init__(self) -> None:
        self.began = 0.0

    def __call__(self, phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            self.began = time.perf_counter()
        else:
            GC_PAUSES.labels(str(info["generation"])).observe(time.perf_counter() - self.began)


_PAUSES = _CollectorPauses()


def watch_the_collector() -> None:
    """Time every run of the cycle collector (once per process)."""
    if _PAUSES not in gc.callbacks:
        gc.callbacks.append(_PAUSES)
