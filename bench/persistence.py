"""How long a persisted action takes when many tables play at once.

    .venv/bin/python bench/persistence.py [--tables 100] [--games 3] [--seed 1]

``--tables`` Mia tables (2 to 5 players, 1 to 3 lives) play at the same time in one
asyncio loop, on one SQLite file in a temporary directory, through ``TableRunner.act``:
apply, then the events and the snapshot written in one transaction (and, for the last
action of a game, its leaderboard figures and ratings). Each table plays ``--games``
random games one after the other (uniformly random legal turn actions, never Leave,
Join nor a faute), each of its actions waiting for the previous one (and, with
``--think``, a random pause averaging that many seconds: 0 saturates the database). Every ``act`` call
is timed from the call to its return, waiting for the shared connection included.
"""

import argparse
import asyncio
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.config import load_settings
from bot.games import maya
from bot.storage.sqlite import SqliteRepository
from bot.table import TableRunner

GUILD = 1


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


async def play_table(
    tables: TableRunner,
    channel: int,
    games: int,
    rng: random.Random,
    pool: list[int],
    turns: list[float],
    endings: list[float],
    think: float,
) -> int:
    """Play ``games`` games in one channel; returns the number of events written."""
    written = 0
    for _ in range(games):
        players = rng.sample(pool, rng.randint(2, 5))
        rules = maya.Rules.for_preset("vies", vies=rng.randint(1, 3))
        table = await tables.open(
            kind="maya",
            guild_id=GUILD,
            channel_id=channel,
            starter=players[0],
            rules=rules,
            lang="fr",
        )
        for player in players[1:]:
            await tables.join_lobby(table, player)
        await tables.start(table)
        while table.state is not None and not table.state.over:
            state = table.state
            assert state.current is not None
            legal = maya.turn_actions(state, state.current)
            action = maya.complete(state, rng.choice(legal), rng)
            if think:
                await asyncio.sleep(rng.uniform(0, 2 * think))
            async with table.lock:
                started = time.perf_counter()
                events = await tables.act(table, action)
                elapsed = time.perf_counter() - started
            (endings if table.state.over else turns).append(elapsed)
            written += len(events)
    return written


def line(name: str, values: list[float]) -> str:
    ms = [v * 1000 for v in values]
    return (
        f"  {name:<16}{len(ms):>8,}{statistics.median(ms):>9.2f}{percentile(ms, 0.90):>9.2f}"
        f"{percentile(ms, 0.99):>9.2f}{max(ms):>9.2f}"
    )


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=100)
    parser.add_argument("--games", type=int, default=3, help="games per table, one after another")
    parser.add_argument(
        "--think", type=float, default=0.0, help="mean seconds a player takes before acting"
    )
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    rng = random.Random(args.seed)
    pool = list(range(10_000, 10_000 + max(10, 3 * args.tables)))
    turns: list[float] = []
    endings: list[float] = []
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "bench.db"
        repository = await SqliteRepository.open(path)
        tables = TableRunner(repository, load_settings({"GOBELET_DICE_SEED": "1"}, dotenv=False))
        started = time.perf_counter()
        try:
            written = await asyncio.gather(
                *(
                    play_table(
                        tables,
                        channel,
                        args.games,
                        random.Random(rng.random()),
                        pool,
                        turns,
                        endings,
                        args.think,
                    )
                    for channel in range(args.tables)
                )
            )
        finally:
            await tables.close()
        wall = time.perf_counter() - started
        size = path.stat().st_size + (
            path.with_name(path.name + "-wal").stat().st_size
            if path.with_name(path.name + "-wal").exists()
            else 0
        )

    actions = len(turns) + len(endings)
    print(
        f"Persisted actions: {args.tables} Mia tables at once, {args.games} games each,"
        f" {args.think:g} s mean think time, one SQLite file (WAL, synchronous=NORMAL),"
        f" seed {args.seed}"
    )
    print(
        f"  {actions:,} actions, {sum(written):,} events, {len(endings):,} games"
        f" in {wall:.2f} s: {actions / wall:,.0f} actions/s ({sum(written) / wall:,.0f} events/s);"
        f" database {size / 1e6:.1f} MB"
    )
    print(f"  {'act latency ms':<16}{'count':>8}{'p50':>9}{'p90':>9}{'p99':>9}{'max':>9}")
    print(line("all actions", turns + endings))
    print(line("turns", turns))
    print(line("game endings", endings))


if __name__ == "__main__":
    asyncio.run(main())
