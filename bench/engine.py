"""How fast the Maya/Mia engine runs on one core.

    .venv/bin/python bench/engine.py [--seconds 2] [--seed 1]

For each preset, with 3 players playing uniformly random legal turn actions (never
Leave nor a faute): engine actions per second with ``legal_actions`` + ``complete`` +
``apply``; then ``apply`` alone, replaying the actions recorded during that run; then
whole 3-player Mia (``vies``) games per second, random and CPU-played.
"""

import argparse
import random
import time
from collections.abc import Callable

from bot.games import maya
from bot.games.maya import cpu as cpu
from bot.kernel.levels import DIFFICILE

PLAYERS = [0, 1, 2]
PARTY_ROUNDS = 200  # a party has no end: start a new one after this many rounds


def random_step(state: maya.State, rng: random.Random) -> maya.Action:
    player = state.current
    assert player is not None
    legal = maya.turn_actions(state, player)
    return maya.complete(state, rng.choice(legal), rng)


def cpu_step(state: maya.State, rng: random.Random) -> maya.Action:
    player = state.current
    assert player is not None
    legal = maya.legal_actions(state, player)
    action = cpu.choose(maya.view(state, player), legal, DIFFICILE, rng)
    return maya.complete(state, action, rng)


def finished(state: maya.State) -> bool:
    return state.over or (state.round >= PARTY_ROUNDS and state.phase == maya.OPEN)


def random_play(
    preset: str, seconds: float, rng: random.Random
) -> tuple[float, list[list[maya.Action]]]:
    """Actions per second of random play; the actions, game by game, for the replay."""
    rules = maya.Rules.for_preset(preset)
    games: list[list[maya.Action]] = []
    actions = 0
    start = time.perf_counter()
    deadline = start + seconds
    while time.perf_counter() < deadline:
        state = maya.new_game(PLAYERS, rules)
        played: list[maya.Action] = []
        while not finished(state):
            action = random_step(state, rng)
            state, _ = maya.apply(state, action)
            played.append(action)
        games.append(played)
        actions += len(played)
    return actions / (time.perf_counter() - start), games


def replay(preset: str, games: list[list[maya.Action]], seconds: float) -> float:
    """Actions per second of ``apply`` alone, over the recorded games (again until time is up)."""
    rules = maya.Rules.for_preset(preset)
    actions = 0
    start = time.perf_counter()
    deadline = start + seconds
    while time.perf_counter() < deadline:
        for played in games:
            state = maya.new_game(PLAYERS, rules)
            for action in played:
                state, _ = maya.apply(state, action)
            actions += len(played)
            if time.perf_counter() >= deadline:
                break
    return actions / (time.perf_counter() - start)


def games_per_second(
    step: Callable[[maya.State, random.Random], maya.Action], seconds: float, rng: random.Random
) -> tuple[float, float]:
    """Whole Mia games per second, and actions per game."""
    rules = maya.Rules.for_preset(maya.VIES)
    games = actions = 0
    start = time.perf_counter()
    deadline = start + seconds
    while time.perf_counter() < deadline:
        state = maya.new_game(PLAYERS, rules)
        while not state.over:
            state, _ = maya.apply(state, step(state, rng))
            actions += 1
        games += 1
    return games / (time.perf_counter() - start), actions / games


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="per figure (default 2)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)

    print(f"Maya engine, one core, 3 players, {args.seconds:g} s per figure")
    print(f"  {'preset':<8} {'legal+complete+apply':>22} {'apply alone':>14}")
    for preset in (maya.VIES, maya.SOIREE):
        played, games = random_play(preset, args.seconds, rng)
        alone = replay(preset, games, args.seconds)
        print(f"  {preset:<8} {played:>14,.0f} act/s {alone:>8,.0f} act/s")
    print()
    print(f"  {'vies games':<22} {'games/s':>8} {'actions/game':>13}")
    for name, step in (("random legal play", random_step), ("CPU difficile x3", cpu_step)):
        rate, length = games_per_second(step, args.seconds, rng)
        print(f"  {name:<22} {rate:>8,.0f} {length:>13.1f}")


if __name__ == "__main__":
    main()
