"""The Yadès expert's tables and the CPU levels, in figures.

    .venv/bin/python bench/yades.py [--games 10000] [--seed 1] [--workers 2] [--no-build]

For each preset (``yades``, ``classique``):

- the expert's table: how long solving the sheet takes here (unless ``--no-build``), the
  size of its file in data/, and the expected final score of an empty sheet under optimal
  solitaire play (plus, for ``classique``, the same with Verhoeff's free joker: 254.5896);
- ``--games`` solitaire sheets per level (played as duels between two CPUs of that level:
  a CPU ignores the other sheet, so each sheet is a solitaire game), their average final
  score with a 95% interval, and the gap between the expert's average and the table's value;
- the expert's decision time, p50 / p99 / max over its decisions after a roll (the first
  decision of a turn solves the turn; the others reuse it).
"""

import argparse
import dataclasses
import math
import multiprocessing
import random
import statistics
import time
from pathlib import Path

from bot import yades_tables
from bot.games import yades as y
from bot.games.yades import cpu as cpu
from bot.games.yades import solver

DATA = Path(__file__).resolve().parents[1] / "data"


def duels(job: tuple[str, str, int, int]) -> list[int]:
    """Final totals of ``count`` duels between two CPUs of ``level`` (two sheets per duel)."""
    preset, level, count, seed = job
    rules = y.Rules.for_preset(preset)
    yades_tables.load(rules, DATA)
    rng = random.Random(seed)
    totals = []
    for _ in range(count):
        state = y.new_game([1, 2], rules)
        while not state.over:
            player = state.current
            assert player is not None
            legal = y.legal_actions(state, player)
            action = cpu.choose(y.view(state, player), legal, level, rng)
            state, _ = y.apply(state, y.complete(state, action, rng))
        totals.extend(y.totals(state, player).total for player in (1, 2))
    return totals


def simulate(preset: str, level: str, sheets: int, seed: int, workers: int) -> list[int]:
    games = (sheets + 1) // 2
    shares = [games // workers + (1 if i < games % workers else 0) for i in range(workers)]
    jobs = [(preset, level, share, seed * 1000 + i) for i, share in enumerate(shares) if share]
    if workers == 1:
        results = [duels(job) for job in jobs]
    else:
        with multiprocessing.Pool(workers) as pool:
            results = pool.map(duels, jobs)
    return [total for result in results for total in result][:sheets]


def decision_times(preset: str, decisions: int, seed: int) -> list[float]:
    """Seconds per expert decision after a roll, over fresh games."""
    rules = y.Rules.for_preset(preset)
    rng = random.Random(seed)
    times: list[float] = []
    while len(times) < decisions:
        state = y.new_game([1, 2], rules)
        while not state.over:
            player = state.current
            assert player is not None
            legal = y.legal_actions(state, player)
            seen = y.view(state, player)
            start = time.perf_counter()
            action = cpu.choose(seen, legal, cpu.EXPERT, rng)
            elapsed = time.perf_counter() - start
            if state.rolls:
                times.append(elapsed)
            state, _ = y.apply(state, y.complete(state, action, rng))
    return times


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def table_figures(preset: str, build: bool) -> solver.Strategy:
    rules = y.Rules.for_preset(preset)
    path = yades_tables.path_for(rules, DATA)
    if build:
        solver.uninstall(rules.sheet)
        start = time.perf_counter()
        strategy = solver.build(rules.sheet)
        seconds = time.perf_counter() - start
        shipped = path.exists() and solver.Strategy.from_bytes(path.read_bytes(), rules.sheet)
        same = bool(shipped) and shipped.expected == strategy.expected
        print(f"  table build      {seconds:8.1f} s   (matches the shipped file: {same})")
        solver.install(strategy)
        if not path.exists():
            yades_tables.save(strategy, path)
    else:
        strategy = yades_tables.load(rules, DATA)
        assert strategy is not None
    reachable = int(strategy.model.reachable().sum())
    print(
        f"  table file       {path.stat().st_size / 1e6:8.2f} MB  {path.name}"
        f"  ({strategy.values.size:,} turn-start states, {reachable:,} reachable)"
    )
    print(f"  expected score   {strategy.expected:10.4f}   (empty sheet, optimal solitaire play)")
    if preset == y.CLASSIQUE and build:
        free = solver.build(dataclasses.replace(rules.sheet, joker=y.FREE_JOKER))
        print(f"  free joker       {free.expected:10.4f}   (Verhoeff's rules: 254.5896)")
    return strategy


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000, help="sheets per level (10000)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=2, help="processes simulating (2)")
    parser.add_argument("--decisions", type=int, default=5000, help="expert decisions timed")
    parser.add_argument("--no-build", action="store_true", help="load the tables, don't solve")
    args = parser.parse_args()
    print(f"{args.games} sheets per level, {args.workers} worker(s), seed {args.seed}")
    for preset in y.PRESETS:
        print()
        print(f"{preset}")
        strategy = table_figures(preset, not args.no_build)
        print(f"  {'level':<8} {'average':>9}   95% interval       sd    time")
        for level in cpu.LEVELS:
            start = time.perf_counter()
            totals = simulate(preset, level, args.games, args.seed, args.workers)
            seconds = time.perf_counter() - start
            mean = statistics.fmean(totals)
            sd = statistics.stdev(totals)
            half = 1.96 * sd / math.sqrt(len(totals))
            line = f"  {level:<8} {mean:>9.2f}   [{mean - half:.2f}, {mean + half:.2f}] {sd:6.1f} {seconds:6.0f} s"
            if level == cpu.EXPERT:
                line += f"   (table {strategy.expected:.2f}, gap {mean - strategy.expected:+.2f})"
            print(line)
        times = decision_times(preset, args.decisions, args.seed)
        print(
            f"  expert decision  p50 {1e3 * percentile(times, 0.5):.2f} ms"
            f"  p99 {1e3 * percentile(times, 0.99):.2f} ms"
            f"  max {1e3 * max(times):.2f} ms  ({len(times)} decisions after a roll)"
        )


if __name__ == "__main__":
    main()
