"""The decide/evolve loop every game runs.

A game *decides* the events an action causes (raising a ``GameError`` when the rules
refuse it) and *evolves* a copy of its state by folding them, one evolver per event type.
``apply`` and ``replay`` run that loop for any game, given its tables.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, Protocol, TypeVar

from bot.kernel.errors import GameOver, NotNow
from bot.kernel.events import Event


class GameState(Protocol):
    @property
    def over(self) -> bool: ...

    def copy(self) -> Any: ...


S = TypeVar("S", bound=GameState)
Decider = Callable[[Any, Any], list[Event]]
Evolver = Callable[[Any, Any], None]


def apply(
    state: S,
    action: object,
    deciders: Mapping[type, Decider],
    evolvers: Mapping[type[Event], Evolver],
) -> tuple[S, list[Event]]:
    """Check ``action``, decide its events, and fold them onto a copy of ``state``."""
    decide = deciders.get(type(action))
    if decide is None:
        raise NotNow(action=type(action).__name__)
    if state.over:
        raise GameOver()
    events = decide(state, action)
    return replay(state, events, evolvers), events


def replay(state: S, events: Sequence[Event], evolvers: Mapping[type[Event], Evolver]) -> S:
    """Fold ``events`` onto a copy of ``state``."""
    new: S = state.copy()
    for event in events:
        evolvers[type(event)](new, event)
    return new
