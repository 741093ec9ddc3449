"""``apply`` and ``replay`` for Yadès: each action's decider, each event's evolver."""

from __future__ import annotations

from collections.abc import Sequence

from bot.games.yades import decide
from bot.games.yades.actions import Action, Leave, Roll, Score, Stop
from bot.games.yades.evolve import EVOLVERS
from bot.games.yades.state import State
from bot.kernel import engine
from bot.kernel.engine import Decider
from bot.kernel.events import Event

DECIDERS: dict[type, Decider] = {
    Roll: decide.decide_roll,
    Score: decide.decide_score,
    Leave: decide.decide_leave,
    Stop: decide.decide_stop,
}


def apply(state: State, action: Action) -> tuple[State, list[Event]]:
    """Check ``action`` against the rules and return the next state and what happened."""
    return engine.apply(state, action, DECIDERS, EVOLVERS)


def replay(state: State, events: Sequence[Event]) -> State:
    """Fold ``events`` onto a copy of ``state``."""
    return engine.replay(state, events, EVOLVERS)
