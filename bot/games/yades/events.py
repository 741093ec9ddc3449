"""What happens at a Yadès table, as typed events (stored under the names below).

Every roll is public: the dice travel in public events."""

from __future__ import annotations

from dataclasses import dataclass

from bot.kernel.events import Event, EventTypes

EVENTS = EventTypes("yades")


@EVENTS.register("rolled")
@dataclass(frozen=True, slots=True)
class Rolled(Event):
    player: int
    roll: int  # 1, 2 or 3
    kept: list[int]  # the positions kept from the roll before
    dice: list[int]  # the five dice now on the table


@EVENTS.register("scored")
@dataclass(frozen=True, slots=True)
class Scored(Event):
    player: int
    box: str
    points: int
    scratched: bool
    joker: bool
    dice: list[int]


@EVENTS.register("bonus_earned")
@dataclass(frozen=True, slots=True)
class BonusEarned(Event):
    player: int
    bonus: str  # "upper" or "five_of_a_kind"
    points: int


@EVENTS.register("turn_passed")
@dataclass(frozen=True, slots=True)
class TurnPassed(Event):
    player: int
    turn: int


@EVENTS.register("player_left")
@dataclass(frozen=True, slots=True)
class PlayerLeft(Event):
    player: int


@EVENTS.register("game_won")
@dataclass(frozen=True, slots=True)
class GameWon(Event):
    winners: list[int]
    reason: str  # "sheets_full" or "players_left"
    ranking: list[dict[str, int]]  # {"player", "total"}, best first


@EVENTS.register("game_ended")
@dataclass(frozen=True, slots=True)
class GameEnded(Event):
    """Stopped by the table: no winner."""

    winners: list[int]
    reason: str
    ranking: list[dict[str, int]]
