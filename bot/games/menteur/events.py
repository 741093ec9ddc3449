"""What happens at a menteur table, as typed events (stored under the names below).

Each hand travels only in an event private to its owner (``HandDealt``); all the hands
become public together, in the ``Revealed`` of a challenge.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bot.kernel.events import PRIVATE, Event, EventTypes

EVENTS = EventTypes("menteur")


@EVENTS.register("round_started")
@dataclass(frozen=True, slots=True)
class RoundStarted(Event):
    round: int
    opener: int
    counts: list[dict[str, int]]  # {"player", "count"}: each active player's dice, public
    total: int
    palifico: int | None = None  # whose Palifico round this is (ones not jokers, face kept)


@EVENTS.register("dice")
@dataclass(frozen=True, slots=True)
class HandDealt(Event):
    """A player's hand for the round, to them alone."""

    player: int
    dice: list[int]

    @classmethod
    def to_owner(cls, player: int, dice: list[int]) -> HandDealt:
        return cls(player, dice, visibility=PRIVATE, to=player)


@EVENTS.register("bid_made")
@dataclass(frozen=True, slots=True)
class BidMade(Event):
    player: int
    quantity: int
    face: int
    next: int


@EVENTS.register("challenged")
@dataclass(frozen=True, slots=True)
class Challenged(Event):
    player: int
    bidder: int
    quantity: int
    face: int


@EVENTS.register("calza_called")
@dataclass(frozen=True, slots=True)
class CalzaCalled(Event):
    """``player`` says the last bid (``bidder``'s) is exact."""

    player: int
    bidder: int
    quantity: int
    face: int


@EVENTS.register("revealed")
@dataclass(frozen=True, slots=True)
class Revealed(Event):
    """A challenge (or a calza): every hand in play is public by the rules, with the count.
    ``challenger`` is whoever called; ``call`` says how ("challenge" or "calza")."""

    hands: list[dict[str, Any]]  # {"player", "dice"}
    quantity: int
    face: int
    jokers: bool
    actual: int
    holds: bool
    challenger: int
    bidder: int
    call: str = "challenge"
    exact: bool = False  # the count is the bid's quantity exactly


@EVENTS.register("die_lost")
@dataclass(frozen=True, slots=True)
class DieLost(Event):
    player: int
    remaining: int
    # "challenge" (a true bid was challenged), "bid" (a false bid) or "calza" (a wrong calza)
    reason: str


@EVENTS.register("die_gained")
@dataclass(frozen=True, slots=True)
class DieGained(Event):
    """An exact calza: the caller gets a die back, unless ``capped`` (already at the
    starting count: ``remaining`` unchanged)."""

    player: int
    remaining: int
    capped: bool = False


@EVENTS.register("eliminated")
@dataclass(frozen=True, slots=True)
class PlayerEliminated(Event):
    player: int


@EVENTS.register("round_ended")
@dataclass(frozen=True, slots=True)
class RoundEnded(Event):
    loser: int | None  # None after an exact calza: nobody lost a die
    opener: int
    palifico: int | None = None  # the next round is this player's Palifico round


@EVENTS.register("round_abandoned")
@dataclass(frozen=True, slots=True)
class RoundAbandoned(Event):
    opener: int
    palifico: int | None = None  # a Palifico round cut short by someone else: played again


@EVENTS.register("player_left")
@dataclass(frozen=True, slots=True)
class PlayerLeft(Event):
    player: int
    dice_count: int


@EVENTS.register("turn_passed")
@dataclass(frozen=True, slots=True)
class TurnPassed(Event):
    player: int


@EVENTS.register("game_won")
@dataclass(frozen=True, slots=True)
class GameWon(Event):
    player: int


@EVENTS.register("game_ended")
@dataclass(frozen=True, slots=True)
class GameEnded(Event):
    reason: str
