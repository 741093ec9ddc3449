"""What a finished game earned, as its end computes it (for the games' achievement tests)."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from bot.kernel.achievements import Finished, award
from bot.kernel.events import Event
from bot.kernel.spec import GameSpec
from tests.games.randomplay import forced_steps


def finished(
    spec: GameSpec, state: Any, events: Sequence[Event], humans: Sequence[int], rules: Any
) -> Finished:
    results = spec.results(state, events, list(humans), rules)
    return Finished(state, list(events), tuple(humans), results)


def earned(
    spec: GameSpec,
    state: Any,
    events: Sequence[Event],
    humans: Sequence[int] | None = None,
    rules: Any = None,
) -> set[tuple[int, str]]:
    """(player, code) of every achievement earned (every seat a human unless told)."""
    if humans is None:
        humans = [seat.player for seat in state.seats]
    game = finished(spec, state, events, humans, rules if rules is not None else state.rules)
    return {(e.user_id, e.code) for e in award(spec.achievements, game).earned}


def cpu_game(
    spec: GameSpec,
    rules: Any,
    players: list[int],
    levels: dict[int, str],
    seed: int,
    opening: Sequence[Any] = (),
) -> tuple[Any, list[Event]]:
    """A whole game played by CPUs of ``levels`` (per player), dice from ``seed``, after
    the ``opening`` actions."""
    rng = random.Random(seed)
    state, events = forced_steps(spec, spec.new_game(players, rules), rng)
    for action in opening:
        state, more = spec.apply(state, action)
        events += more
    while not state.over:
        move = spec.cpu_action(state, state.current, levels[state.current], rng)
        assert move is not None, f"{spec.name}: the CPU to play has no move"
        state, more = spec.apply(state, move)
        state, forced = forced_steps(spec, state, rng)
        events += [*more, *forced]
    return state, events
