"""How strong the Maya/Mia CPU levels are against each other.

    .venv/bin/python bench/cpu_maya.py [--games 2000] [--party-games 300] [--rounds 100] [--seed 1]

Mia (``vies``, 3 lives): 3-player games with one CPU of each level, the seats rotated
over all 6 orders so no level gains from its seat; the win rate of each level with a
95% Wilson interval. Maya (``soiree``): the same tables played for a fixed number of
rounds (a party has no winner); what each level drank, sips + 5 per glass, per 100
rounds, with a 95% interval over the games. Lower is better there.
"""

import argparse
import itertools
import math
import random
import statistics
import time

from bot.games import maya
from bot.games.maya import cpu as cpu
from bot.kernel.levels import LEVELS

SEATINGS = list(itertools.permutations(LEVELS))
MAX_ACTIONS = 20_000


class Table:
    """Plays CPU games, timing the decisions of each level."""

    def __init__(self, seed: int) -> None:
        self.dice = random.Random(f"dice-{seed}")
        self.minds = random.Random(f"cpu-{seed}")
        self.decisions = dict.fromkeys(LEVELS, 0)
        self.seconds = dict.fromkeys(LEVELS, 0.0)

    def play(self, seating: tuple[str, ...], preset: str, rounds: int | None = None) -> maya.State:
        state = maya.new_game(list(range(len(seating))), maya.Rules.for_preset(preset))
        for _ in range(MAX_ACTIONS):
            if state.over or (
                rounds is not None and state.round >= rounds and state.phase == maya.OPEN
            ):
                return state
            player = state.current
            assert player is not None
            level = seating[player]
            legal = maya.legal_actions(state, player)
            seen = maya.view(state, player)
            start = time.perf_counter()
            action = cpu.choose(seen, legal, level, self.minds)
            self.seconds[level] += time.perf_counter() - start
            self.decisions[level] += 1
            state, _ = maya.apply(state, maya.complete(state, action, self.dice))
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


def lives_table(table: Table, games: int) -> dict[str, int]:
    wins = dict.fromkeys(LEVELS, 0)
    for game in range(games):
        seating = SEATINGS[game % len(SEATINGS)]
        state = table.play(seating, maya.VIES)
        assert state.winner is not None
        wins[seating[state.winner]] += 1
    return wins


def party_table(table: Table, games: int, rounds: int) -> dict[str, list[float]]:
    drunk: dict[str, list[float]] = {level: [] for level in LEVELS}
    for game in range(games):
        seating = SEATINGS[game % len(SEATINGS)]
        state = table.play(seating, maya.SOIREE, rounds)
        for seat in state.seats:
            total = seat.sips + cpu.GLASS_SIPS * seat.glasses
            drunk[seating[seat.player]].append(100 * total / state.round)
    return drunk


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000, help="Mia games (default 2000)")
    parser.add_argument("--party-games", type=int, default=300, help="Maya parties (default 300)")
    parser.add_argument("--rounds", type=int, default=100, help="rounds per party (default 100)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    table = Table(args.seed)

    wins = lives_table(table, args.games)
    print(f"Mia (vies, 3 lives): {args.games} games, 3 players, one per level, seats rotated")
    print(f"  {'level':<10} {'wins':>6} {'win rate':>9}   95% interval")
    for level in LEVELS:
        low, high = wilson(wins[level], args.games)
        rate = wins[level] / args.games
        print(f"  {level:<10} {wins[level]:>6} {rate:>8.1%}   [{low:.1%}, {high:.1%}]")

    drunk = party_table(table, args.party_games, args.rounds)
    print()
    print(f"Maya (soiree): {args.party_games} parties of {args.rounds} rounds, same seating")
    print(f"  {'level':<10} {'drunk / 100 rounds':>19}   95% interval   (sips + 5 per glass)")
    for level in LEVELS:
        values = drunk[level]
        mean = statistics.fmean(values)
        half = 1.96 * statistics.stdev(values) / math.sqrt(len(values)) if len(values) > 1 else 0.0
        print(f"  {level:<10} {mean:>19.1f}   [{mean - half:.1f}, {mean + half:.1f}]")

    print()
    print("Decision time (mean over every decision above)")
    for level in LEVELS:
        count = table.decisions[level]
        micro = 1e6 * table.seconds[level] / count if count else 0.0
        print(f"  {level:<10} {micro:>7.1f} µs   ({count} decisions)")


if __name__ == "__main__":
    main()
