"""Random legal games of any registered game, through its ``GameSpec`` alone.

A game is played as the table runtime plays it: a move, then the forced steps that follow
it (a menteur deal). Every seated player's legal actions are candidates, not only the
current player's (joining, leaving, accusing are moves too), and so are the CPU's moves;
players who are not seated yet sit in the pool, so that a game that lets them join gets
joined. Some games never end by themselves (fautes and votes can go on forever): after
``moves`` moves the table stops the game, as ``/… stop`` would.

Every decision point is recorded (``Step``) for the conformance suite to check; the
purity test plays the same games with the global random, the clocks and ``open`` trapped,
so this module uses nothing but the ``random.Random`` it is given.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from bot.kernel.errors import GameError
from bot.kernel.events import Event
from bot.kernel.levels import LEVELS
from bot.kernel.spec import GameSpec

MAX_FORCED_STEPS = 16  # a forced step that never ends would hang a table
NEWCOMERS = 2  # players in the pool who are not seated when the game starts
CPU_SHARE = 0.6  # how often the move is a CPU's (the game moves on; random moves explore)
LEAVE_SHARE = 0.03  # how often someone leaves (leaving often ends a game at once)


@dataclass(slots=True)
class Step:
    """A decision point: the state (forced steps done) and what each player may do in it."""

    state: Any
    json: dict[str, Any]  # ``state.to_json()`` when it was reached
    events: int  # how many events led here from the initial state
    legal: dict[int, list[Any]]  # every pool player's legal actions (dice not rolled)
    cpu: dict[int, tuple[str, Any]]  # who has a CPU move now: its level and move (rolled)


@dataclass(slots=True)
class Game:
    spec: GameSpec
    rules: Any
    players: list[int]  # seated at the start, in seating order
    pool: list[int]  # the seated players and the newcomers
    initial: Any  # ``new_game``'s state, before any forced step
    steps: list[Step] = field(default_factory=list)
    events: list[Event] = field(default_factory=list)

    @property
    def final(self) -> Any:
        return self.steps[-1].state


def forced_steps(spec: GameSpec, state: Any, rng: random.Random) -> tuple[Any, list[Event]]:
    """The steps nobody decides that ``state`` calls for, applied (as the runtime does)."""
    events: list[Event] = []
    for _ in range(MAX_FORCED_STEPS):
        action = spec.forced(state, rng)
        if action is None:
            return state, events
        state, more = spec.apply(state, action)
        events += more
    raise AssertionError(f"{spec.name}: more than {MAX_FORCED_STEPS} forced steps in a row")


def observe(
    spec: GameSpec, state: Any, events: int, pool: list[int], level: str, rng: random.Random
) -> Step:
    """The decision point ``state``, reached after ``events`` events; CPUs play ``level``."""
    legal = {player: spec.legal_actions(state, player) for player in pool}
    cpu = {}
    for player in pool:
        move = spec.cpu_action(state, player, level, rng)
        if move is not None:
            cpu[player] = (level, move)
    return Step(state, state.to_json(), events, legal, cpu)


def choose(spec: GameSpec, step: Step, pool: list[int], rng: random.Random) -> Any:
    """A CPU's move, someone leaving, or any other legal action, its dice rolled."""
    if step.cpu and rng.random() < CPU_SHARE:
        return rng.choice(list(step.cpu.values()))[1]
    leaves = [spec.leave(player) for player in pool]
    options = [action for actions in step.legal.values() for action in actions]
    leaving = [action for action in options if action in leaves]
    staying = [action for action in options if action not in leaves]
    if not staying or (leaving and rng.random() < LEAVE_SHARE):
        staying = leaving
    if not staying:
        # Nobody may move in a game that goes on: the suite reports it; stop to end it.
        return spec.stop()
    return spec.complete(step.state, rng.choice(staying), rng)


def play(spec: GameSpec, rules: Any, players: list[int], rng: random.Random, moves: int) -> Game:
    """A random legal game of ``players`` (stopped after ``moves`` moves if still going)."""
    pool = [*players, *range(max(players) + 1, max(players) + 1 + NEWCOMERS)]
    game = Game(spec, rules, list(players), pool, spec.new_game(list(players), rules))
    state, game.events = forced_steps(spec, game.initial, rng)
    # One more decision point than moves: the state the table's Stop leads to.
    for move in range(moves + 2):
        level = LEVELS[move % len(LEVELS)]  # every level plays, in turn
        step = observe(spec, state, len(game.events), pool, level, rng)
        game.steps.append(step)
        if state.over:
            return game
        if move > moves:
            break
        action = spec.stop() if move == moves else choose(spec, step, pool, rng)
        try:
            state, events = spec.apply(state, action)
        except GameError as error:
            raise AssertionError(f"{spec.name}: {action!r}, offered, refused: {error!r}") from error
        state, forced = forced_steps(spec, state, rng)
        game.events += [*events, *forced]
    raise AssertionError(f"{spec.name}: the game goes on after {spec.stop()!r}")
