"""What every game engine shares: events, the error family, the decide/evolve loop.

An engine *decides* the events an action causes (raising a ``GameError`` when the rules
refuse it) and *evolves* a copy of its state by folding them, one evolver per event type.
``apply`` and ``replay`` below run that loop for any engine, given its tables.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar, Protocol, TypeVar

# Event visibilities.
PUBLIC = "public"
PRIVATE = "private"  # to ``Event.to`` only
SECRET = "secret"  # to nobody: replay and persistence only


class GameError(Exception):
    """An action the rules do not allow now. ``code`` and ``params`` are for the UI to word."""

    code: ClassVar[str] = "game_error"

    def __init__(self, **params: Any) -> None:
        super().__init__(f"{self.code} {params}" if params else self.code)
        self.params = params


class NotNow(GameError):
    """The action exists but not in this phase (e.g. lifting when nothing was announced)."""

    code = "not_now"


class GameOver(GameError):
    code = "game_over"


@dataclass(frozen=True, slots=True)
class Event:
    """Something that happened, in the past tense. ``data`` is plain JSON."""

    type: str
    data: dict[str, Any]
    visibility: str = PUBLIC
    to: int | None = None

    @property
    def public(self) -> bool:
        return self.visibility == PUBLIC

    def visible_to(self, player: int | None) -> bool:
        """Whether ``player`` (None: anyone watching the channel) may see this event."""
        if self.visibility == PUBLIC:
            return True
        return self.visibility == PRIVATE and player is not None and player == self.to

    def to_json(self) -> dict[str, Any]:
        return {"type": self.type, "data": self.data, "visibility": self.visibility, "to": self.to}

    @classmethod
    def from_json(cls, raw: dict[str, Any]) -> Event:
        return cls(raw["type"], raw["data"], raw.get("visibility", PUBLIC), raw.get("to"))


class GameState(Protocol):
    @property
    def over(self) -> bool: ...

    def copy(self) -> Any: ...


S = TypeVar("S", bound=GameState)
Decider = Callable[[Any, Any], list[Event]]
Evolver = Callable[[Any, Event], None]


def apply(
    state: S, action: object, deciders: Mapping[type, Decider], evolvers: Mapping[str, Evolver]
) -> tuple[S, list[Event]]:
    """Check ``action``, decide its events, and fold them onto a copy of ``state``."""
    decide = deciders.get(type(action))
    if decide is None:
        raise NotNow(action=type(action).__name__)
    if state.over:
        raise GameOver()
    events = decide(state, action)
    return replay(state, events, evolvers), events


def replay(state: S, events: list[Event], evolvers: Mapping[str, Evolver]) -> S:
    """Fold ``events`` onto a copy of ``state``."""
    new = state.copy()
    for event in events:
        evolvers[event.type](new, event)
    return new
