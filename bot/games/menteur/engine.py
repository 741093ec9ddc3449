"""``apply`` and ``replay`` for Dés du menteur: each action's decider, each event's evolver."""

from __future__ import annotations

from collections.abc import Sequence

from bot.games.menteur import decide
from bot.games.menteur.actions import Action, Bid, Calza, Challenge, Leave, Roll, Stop
from bot.games.menteur.evolve import EVOLVERS
from bot.games.menteur.state import State
from bot.kernel import engine
from bot.kernel.engine import Decider
from bot.kernel.events import Event

DECIDERS: dict[type, Decider] = {
    Roll: decide.decide_roll,
    Bid: decide.decide_bid,
    Challenge: decide.decide_challenge,
    Calza: decide.decide_calza,
    Leave: decide.decide_leave,
    Stop: decide.decide_stop,
}


def apply(state: State, action: Action) -> tuple[State, list[Event]]:
    """Check ``action`` against the rules and return the next state and what happened."""
    return engine.apply(state, action, DECIDERS, EVOLVERS)


def replay(state: State, events: Sequence[Event]) -> State:
    """Fold ``events`` onto a copy of ``state``."""
    return engine.replay(state, events, EVOLVERS)
