"""How strong the dés du menteur CPU levels are: against the reference player and each other.

    PYTHONPATH=. .venv/bin/python bench/cpu_menteur.py [--games 2000] [--seed 1] [--jobs 2]
        [--section reference|table|ladder|mixing|variants|time ...]

Sections (all of them unless ``--section`` names some):

- ``reference``: difficile heads-up against the tuned binomial reference player
  (``bench/menteur_reference.py``), 3, 4 and 5 dice, jokers on and off.
- ``table``: a 4-seat table, difficile and three references (5 dice, jokers on), the
  difficile seat rotated over the four positions; fair share 25%.
- ``ladder``: difficile vs moyen and moyen vs facile heads-up (5 dice, jokers on and off).
- ``mixing``: difficile heads-up against a copy of itself that always plays its best
  choice (``difficile-pur``: no drawing among close choices), 5 dice, jokers on. Each
  reads the other's bids with the same model: a win rate above 50% says the mixing
  keeps difficile's hand from being read.
- ``variants``: the same matches with both table options on (Calza and Palifico, 5 dice,
  jokers on): difficile against the reference (who never calls a calza), difficile
  against moyen, moyen against facile; then, per level, how many calzas it called and
  how many were exact (a calza gains a die only when exact: calling one is worth it
  above one in two when a die can come back).
- ``time``: difficile's decision time at a 6-seat table of difficile CPUs (5 dice,
  jokers on), in this process alone after the other sections: p50, p99, max; and the
  same heads-up against the reference.

Heads-up rows alternate the first seat. Every game draws its dice and the CPUs' choices
from generators seeded by ``--seed``, the row and the game's number, so a row's figures
do not depend on ``--jobs``. Win rates come with a 95% Wilson interval; the rows print as
a markdown table.

Targets: difficile beats the reference >= 80% (5 dice, jokers) and >= 75% in the other
rows; >= 40% of the wins at the 4-seat table; each ladder step >= 65%; p99 < 50 ms.
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import random
import time
from collections.abc import Iterator
from dataclasses import dataclass, replace

import menteur_reference as reference  # bench/ is the script's folder, first on sys.path

from bot.games import menteur
from bot.games.menteur import cpu
from bot.kernel.levels import DIFFICILE, FACILE, MOYEN

REFERENCE = "reference"
PURE = "difficile-pur"  # difficile always playing its best choice
PURE_TUNING = replace(cpu.TUNING, mix_slack=0.0)
MAX_ACTIONS = 20_000
SECTIONS = ("reference", "table", "ladder", "mixing", "variants", "time")
VARIANTS = ("calza", "palifico")
CHUNK = 25  # games per task handed to a worker


@dataclass(frozen=True, slots=True)
class Row:
    """One line of figures: ``games`` games of ``players`` seated in turn (heads-up: the
    first seat alternating; more seats: ``players[0]`` rotated over every position)."""

    section: str
    players: tuple[str, ...]
    dice: int
    jokers: bool
    games: int
    options: tuple[str, ...] = ()  # table options on (``VARIANTS``)

    @property
    def rules(self) -> menteur.Rules:
        return menteur.Rules(
            dice=self.dice, jokers=self.jokers, **dict.fromkeys(self.options, True)
        )

    @property
    def label(self) -> str:
        if len(self.players) == 2:
            return f"{self.players[0]} vs {self.players[1]}"
        others = self.players[1:]
        if len(set(others)) == 1:
            return f"{self.players[0]} vs {len(others)} × {others[0]}"
        return " + ".join(self.players)


def seating(row: Row, game: int) -> tuple[str, ...]:
    """The players in seat order for ``game``: ``players[0]`` moves a seat every game."""
    seats = len(row.players)
    hero, others = row.players[0], list(row.players[1:])
    position = game % seats
    return (*others[:position], hero, *others[position:])


def decide(
    level: str, view: menteur.View, legal: list[menteur.Action], rng: random.Random
) -> menteur.Action:
    if level == REFERENCE:
        return reference.choose(view, legal)
    if level == PURE:
        # The mixing knobs only steer difficile's last draw (no table of the model
        # depends on them), so a swap for one decision changes nothing else.
        kept, cpu.TUNING = cpu.TUNING, PURE_TUNING
        try:
            return cpu.choose(view, legal, DIFFICILE, rng)
        finally:
            cpu.TUNING = kept
    return cpu.choose(view, legal, level, rng)


Calzas = dict[str, list[int]]  # level -> [calzas called, exact ones]


def play(
    levels: tuple[str, ...],
    rules: menteur.Rules,
    key: str,
    times: list[float] | None = None,
    calzas: Calzas | None = None,
) -> int:
    """One game; the seat index of the winner. ``times`` collects difficile's decisions,
    ``calzas`` each level's calzas."""
    dice_rng = random.Random(f"dice-{key}")
    minds = random.Random(f"cpu-{key}")
    state = menteur.new_game(list(range(len(levels))), rules)
    for _ in range(MAX_ACTIONS):
        if state.over:
            assert state.winner is not None
            return state.winner
        player = state.current
        assert player is not None
        level = levels[player]
        legal = menteur.turn_actions(state, player)
        seen = menteur.view(state, player)
        start = time.perf_counter()
        action = decide(level, seen, legal, minds)
        if times is not None and level == DIFFICILE and not isinstance(action, menteur.Roll):
            times.append(time.perf_counter() - start)
        state, events = menteur.apply(state, menteur.complete(state, action, dice_rng))
        if calzas is not None and isinstance(action, menteur.Calza):
            exact = any(isinstance(e, menteur.Revealed) and e.exact for e in events)
            counted = calzas.setdefault(level, [0, 0])
            counted[0] += 1
            counted[1] += exact
    raise RuntimeError(f"no end after {MAX_ACTIONS} actions")


def run_chunk(task: tuple[int, Row, int, int, int]) -> tuple[int, int, Calzas]:
    """(row index, wins of ``players[0]``, calzas by level) over games ``start`` to
    ``stop`` of a row."""
    index, row, seed, start, stop = task
    wins = 0
    calzas: Calzas = {}
    for game in range(start, stop):
        levels = seating(row, game)
        key = f"{seed}-{row.section}-{row.players}-{row.dice}-{row.jokers}-{game}"
        if row.options:
            key += "-" + "-".join(row.options)
        winner = play(levels, row.rules, key, calzas=calzas)
        wins += winner == levels.index(row.players[0])
    return index, wins, calzas


def tasks(rows: list[Row], seed: int) -> Iterator[tuple[int, Row, int, int, int]]:
    for index, row in enumerate(rows):
        for start in range(0, row.games, CHUNK):
            yield index, row, seed, start, min(row.games, start + CHUNK)


def wilson(successes: int, trials: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a proportion."""
    if trials == 0:
        return 0.0, 1.0
    p = successes / trials
    centre = (p + z * z / (2 * trials)) / (1 + z * z / trials)
    half = (
        z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / (1 + z * z / trials)
    )
    return centre - half, centre + half


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return 0.0
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def build_rows(sections: list[str], games: int, table_games: int) -> list[Row]:
    rows = []
    if "reference" in sections:
        for dice in (5, 4, 3):
            for jokers in (True, False):
                rows.append(Row("reference", (DIFFICILE, REFERENCE), dice, jokers, games))
    if "table" in sections:
        players = (DIFFICILE, REFERENCE, REFERENCE, REFERENCE)
        rows.append(Row("table", players, 5, True, table_games))
    if "ladder" in sections:
        for first, second in ((DIFFICILE, MOYEN), (MOYEN, FACILE)):
            for jokers in (True, False):
                rows.append(Row("ladder", (first, second), 5, jokers, games))
    if "mixing" in sections:
        rows.append(Row("mixing", (DIFFICILE, PURE), 5, True, games))
    if "variants" in sections:
        for pair in ((DIFFICILE, REFERENCE), (DIFFICILE, MOYEN), (MOYEN, FACILE)):
            rows.append(Row("variants", pair, 5, True, games, VARIANTS))
    return rows


def print_rows(rows: list[Row], wins: list[int]) -> None:
    print("| section | match | dice | jokers | options | games | wins | win rate | 95% interval |")
    print("|---|---|---|---|---|---|---|---|---|")
    for row, won in zip(rows, wins, strict=True):
        low, high = wilson(won, row.games)
        options = ", ".join(row.options) or "—"
        print(
            f"| {row.section} | {row.label} | {row.dice} | {'on' if row.jokers else 'off'} "
            f"| {options} | {row.games} | {won} | {won / row.games:.1%} "
            f"| [{low:.1%}, {high:.1%}] |"
        )


def print_calzas(calzas: Calzas) -> None:
    print("Calzas called in the variants rows (a calza is right when the count is exact)")
    for level in (DIFFICILE, MOYEN, FACILE, REFERENCE):
        called, exact = calzas.get(level, [0, 0])
        low, high = wilson(exact, called)
        share = f"{exact / called:.1%} [{low:.1%}, {high:.1%}]" if called else "—"
        print(f"  {level:<10} {called:>6} calzas, exact {exact:>6}: {share}")


def time_section(games: int, seed: int) -> None:
    def report(what: str, times: list[float]) -> None:
        p50, p99 = percentile(times, 0.5), percentile(times, 0.99)
        print(
            f"  {what}: p50 {1e3 * p50:.2f} ms, p99 {1e3 * p99:.2f} ms, "
            f"max {1e3 * max(times, default=0.0):.2f} ms ({len(times)} decisions)"
        )

    print(f"Decision time of difficile (5 dice, jokers on, {games} games each, one process)")
    times: list[float] = []
    rules = menteur.Rules(dice=5, jokers=True)
    for game in range(games):
        play((DIFFICILE,) * 6, rules, f"{seed}-time-{game}", times)
    report("6-seat table of difficile CPUs", times)
    times = []
    for game in range(5 * games):
        levels = (DIFFICILE, REFERENCE) if game % 2 == 0 else (REFERENCE, DIFFICILE)
        play(levels, rules, f"{seed}-time-duel-{game}", times)
    report(f"heads-up against the reference ({5 * games} games)", times)


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--games", type=int, default=2000, help="games per row (2000)")
    parser.add_argument("--table-games", type=int, help="4-seat games (default: --games)")
    parser.add_argument("--time-games", type=int, default=20, help="6-seat timed games (20)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=2, help="worker processes (2)")
    parser.add_argument(
        "--section", action="append", choices=SECTIONS, help="run only these (repeatable)"
    )
    args = parser.parse_args()
    sections = args.section or list(SECTIONS)
    started = time.perf_counter()

    rows = build_rows(sections, args.games, args.table_games or args.games)
    if rows:
        wins = [0] * len(rows)
        calzas: Calzas = {}

        def count(index: int, won: int, called: Calzas) -> None:
            wins[index] += won
            for level, (made, exact) in called.items():
                total = calzas.setdefault(level, [0, 0])
                total[0] += made
                total[1] += exact

        work = list(tasks(rows, args.seed))
        if args.jobs > 1:
            with multiprocessing.Pool(args.jobs) as pool:
                for found in pool.imap_unordered(run_chunk, work):
                    count(*found)
        else:
            for task in work:
                count(*run_chunk(task))
        print(
            f"Seed {args.seed}. Heads-up: seats alternated; 4-seat table: difficile's seat "
            f"rotated (fair share 25%). Reference: the tuned binomial player."
        )
        print()
        print_rows(rows, wins)
        print()
        if "variants" in sections:
            print_calzas(calzas)
            print()
    if "time" in sections:
        time_section(args.time_games, args.seed)
    print(f"\nTotal {time.perf_counter() - started:.0f} s")


if __name__ == "__main__":
    main()
