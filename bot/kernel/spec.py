"""What a game registers: the ``GameSpec`` the table runtime, the storage, the leaderboards
and the Discord layer use, without knowing any game by name.

A game is one pure package (``bot.games.<name>``) exposing a ``SPEC``, and one Discord
package (``cogs.<name>``); ``bot.games.REGISTRY`` lists the specs.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

from bot.kernel.events import Event, EventTypes
from bot.kernel.results import Results

if TYPE_CHECKING:
    from bot.kernel.achievements import Achievement

__all__ = [
    "RATING",
    "Aggregate",
    "Better",
    "Board",
    "Ending",
    "GameSpec",
    "Metric",
    "Outcome",
    "Results",
]


class Ending(StrEnum):
    """How a game ended."""

    WON = "won"  # it came to its end: ``Outcome.winners`` won (one, or a shared win)
    STOPPED = "stopped"  # stopped by the table (``/… stop``), or everyone but one left
    ABANDONED = "abandoned"  # too few players stayed for it to go on


@dataclass(frozen=True, slots=True)
class Outcome:
    """A finished game: how it ended and who won (no one when it did not come to an end)."""

    ending: Ending
    winners: tuple[int, ...] = ()


class Aggregate(StrEnum):
    """How a metric adds up over a player's games."""

    SUM = "sum"  # e.g. sips drunk
    MAX = "max"  # e.g. best score
    MEAN = "mean"  # stored as a sum, shown per game played (e.g. average score)


class Better(StrEnum):
    HIGHER = "higher"
    LOWER = "lower"


@dataclass(frozen=True, slots=True)
class Metric:
    """One leaderboard figure, declared by its game.

    ``stored``: the figure a game adds up (for a mean, the sum it is the mean of);
    ``name``: what a leaderboard ranks by and ``/stats`` shows."""

    name: str
    aggregate: Aggregate = Aggregate.SUM
    better: Better = Better.HIGHER
    stored: str = ""

    @property
    def column(self) -> str:
        return self.stored or self.name


RATING = "rating"  # every board ranks by its Elo rating too; ratings are stored apart


@dataclass(frozen=True, slots=True)
class Board:
    """A leaderboard: a game's figures (Maya and Mia are two boards of one game)."""

    name: str
    metrics: tuple[Metric, ...]

    def metric(self, name: str) -> Metric | None:
        return next((m for m in self.metrics if m.name == name), None)

    @property
    def criteria(self) -> tuple[str, ...]:
        """What a leaderboard may rank by: the metrics, the default first, and the rating."""
        return (*(m.name for m in self.metrics), RATING)


StateT = TypeVar("StateT")
ActionT = TypeVar("ActionT")
ViewT_co = TypeVar("ViewT_co", covariant=True)  # views only come out of a game


class GameSpec(Protocol[StateT, ActionT, ViewT_co]):
    """One game, as the runtime sees it: its rules and state through JSON, its moves, its
    CPU, its forced steps, its ending and what it adds to the leaderboards. A game's
    ``SPEC`` is a ``GameSpec`` of its own ``State``, ``Action`` and ``View``; what serves
    every game holds a ``GameSpec[Any, Any, Any]``."""

    name: str  # stored with every game: the registry's key, and the Discord package's name
    min_players: int
    max_players: int
    events: EventTypes
    boards: tuple[Board, ...]
    achievements: tuple[Achievement, ...]  # what its players may earn (a code is stored)

    def rules_to_json(self, rules: Any) -> dict[str, Any]: ...

    def rules_from_json(self, raw: Mapping[str, Any]) -> Any: ...

    def state_from_json(self, raw: dict[str, Any]) -> StateT: ...

    def new_game(self, players: list[int], rules: Any) -> StateT: ...

    def legal_actions(self, state: StateT, player: int) -> list[ActionT]: ...

    def apply(self, state: StateT, action: ActionT) -> tuple[StateT, list[Event]]: ...

    def complete(self, state: StateT, action: ActionT, rng: random.Random) -> ActionT:
        """``action`` with the dice it rolls filled from ``rng`` (itself if it rolls none)."""
        ...

    def variants(self) -> tuple[Any, ...]:
        """Table rules that, between them, switch on every option the game has (for demos and
        the conformance suite)."""
        ...

    def replay(self, state: StateT, events: Sequence[Event]) -> StateT: ...

    def view(self, state: StateT, player: int | None) -> ViewT_co:
        """What ``player`` may know (None: what anyone watching the channel may know)."""
        ...

    def forced(self, state: StateT, rng: random.Random) -> ActionT | None:
        """A step nobody decides that must follow ``state`` (dealing a round), dice filled."""
        ...

    def cpu_action(
        self, state: StateT, player: int, level: str, rng: random.Random
    ) -> ActionT | None:
        """The CPU policy's move for ``player`` now, dice filled; None if it has none."""
        ...

    def in_game(self, state: StateT, player: int) -> bool:
        """Seated and not gone (eliminated players still count: they watch the end)."""
        ...

    def still_here(self, state: StateT, player: int) -> bool:
        """At the table in any way, eliminated included: False once they left."""
        ...

    def join(self, player: int) -> ActionT | None:
        """The action that seats ``player`` in a game under way (None: only a lobby seats)."""
        ...

    def leave(self, player: int) -> ActionT: ...

    def stop(self) -> ActionT: ...

    def outcome(self, state: StateT) -> Outcome | None:
        """How the game ended (None while it goes on)."""
        ...

    def results(
        self, state: StateT, events: Sequence[Event], humans: list[int], rules: Any
    ) -> Results:
        """A finished game's figures for ``humans`` (CPUs never count) from its whole event
        log, and their places; ``rules``: the table's (what it agreed beyond the engine's)."""
        ...
