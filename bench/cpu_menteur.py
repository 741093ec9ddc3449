"""How strong the dés du menteur CPU levels are against each other.

    .venv/bin/python bench/cpu_menteur.py [--games 2000] [--table-games 1000] [--dice 5] [--seed 1]

Heads-up duels (``--games`` each, the first seat alternating) between difficile and
moyen, moyen and facile, difficile and facile: the first level's win rate with a 95%
Wilson interval, with jokers on, then off. Then a 4-seat table (one CPU of each level
and a second moyen, seats rotated over the 4 positions of a cycle and both orders) with
jokers on: each level's win rate per seat (a fair share is 25%). Last, the decision time
of each level over every decision above: p50 and p99.

Targets (RULES.md §3 CPU brief): difficile beats moyen at least 75% heads-up, moyen beats
facile at least 65% (5 dice, jokers).
"""

import argparse
import math
import random
import time

from bot.games import menteur
from bot.games.menteur import cpu as cpu
from bot.kernel.levels import DIFFICILE, FACILE, LEVELS, MOYEN

MAX_ACTIONS = 5_000
DUELS = ((DIFFICILE, MOYEN), (MOYEN, FACILE), (DIFFICILE, FACILE))
TABLE = (FACILE, MOYEN, DIFFICILE, MOYEN)


class Bench:
    """Plays CPU games, timing each decision of each level."""

    def __init__(self, seed: int, dice: int) -> None:
        self.dice_rng = random.Random(f"dice-{seed}")
        self.minds = random.Random(f"cpu-{seed}")
        self.dice = dice
        self.times: dict[str, list[float]] = {level: [] for level in LEVELS}

    def play(self, seating: tuple[str, ...], jokers: bool) -> int:
        """One game; the seat index of the winner."""
        rules = menteur.Rules(dice=self.dice, jokers=jokers)
        state = menteur.new_game(list(range(len(seating))), rules)
        for _ in range(MAX_ACTIONS):
            if state.over:
                assert state.winner is not None
                return state.winner
            player = state.current
            assert player is not None
            level = seating[player]
            legal = menteur.turn_actions(state, player)
            seen = menteur.view(state, player)
            start = time.perf_counter()
            action = cpu.choose(seen, legal, level, self.minds)
            if not isinstance(action, menteur.Roll):
                self.times[level].append(time.perf_counter() - start)
            state, _ = menteur.apply(state, menteur.complete(state, action, self.dice_rng))
        raise RuntimeError(f"no end after {MAX_ACTIONS} actions")


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


def duel(bench: Bench, first: str, second: str, games: int, jokers: bool) -> int:
    """How many of ``games`` heads-up games ``first`` wins, seats alternating."""
    wins = 0
    for game in range(games):
        seating = (first, second) if game % 2 == 0 else (second, first)
        winner = bench.play(seating, jokers)
        wins += seating[winner] == first
    return wins


def table(bench: Bench, games: int, jokers: bool) -> dict[str, int]:
    """Wins by level at the 4-seat table, the seating rotated and mirrored."""
    seatings = []
    for shift in range(len(TABLE)):
        rotated = TABLE[shift:] + TABLE[:shift]
        seatings += [rotated, tuple(reversed(rotated))]
    wins = dict.fromkeys(LEVELS, 0)
    for game in range(games):
        seating = seatings[game % len(seatings)]
        wins[seating[bench.play(seating, jokers)]] += 1
    return wins


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return 0.0
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000, help="games per duel (default 2000)")
    parser.add_argument("--table-games", type=int, default=1000, help="4-seat games (1000)")
    parser.add_argument("--dice", type=int, default=5, choices=(3, 4, 5))
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    bench = Bench(args.seed, args.dice)
    started = time.perf_counter()

    for jokers in (True, False):
        print(
            f"Heads-up, {args.dice} dice, jokers {'on' if jokers else 'off'}: "
            f"{args.games} games per duel, first seat alternating"
        )
        print(f"  {'duel':<22} {'wins':>6} {'win rate':>9}   95% interval")
        for first, second in DUELS:
            wins = duel(bench, first, second, args.games, jokers)
            low, high = wilson(wins, args.games)
            name = f"{first} vs {second}"
            print(f"  {name:<22} {wins:>6} {wins / args.games:>8.1%}   [{low:.1%}, {high:.1%}]")
        print()

    wins = table(bench, args.table_games, True)
    print(
        f"4-seat table, {args.dice} dice, jokers on: {args.table_games} games, "
        f"{' + '.join(TABLE)}, seats rotated (fair share 25% per seat)"
    )
    print(f"  {'level':<10} {'seats':>5} {'wins':>6} {'per seat':>9}   95% interval")
    for level in LEVELS:
        seats = TABLE.count(level)
        trials = args.table_games * seats
        low, high = wilson(wins[level], trials)
        rate = wins[level] / trials
        print(f"  {level:<10} {seats:>5} {wins[level]:>6} {rate:>8.1%}   [{low:.1%}, {high:.1%}]")

    print()
    print("Decision time (bids and challenges above)")
    for level in LEVELS:
        times = bench.times[level]
        p50, p99 = percentile(times, 0.5), percentile(times, 0.99)
        worst = max(times, default=0.0)
        print(
            f"  {level:<10} p50 {1e3 * p50:6.2f} ms   p99 {1e3 * p99:6.2f} ms   "
            f"max {1e3 * worst:6.2f} ms   ({len(times)} decisions)"
        )
    print(f"\nTotal {time.perf_counter() - started:.0f} s")


if __name__ == "__main__":
    main()
