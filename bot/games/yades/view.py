"""What one Yadès player knows: everything (all rolls are public), from their seat."""

from __future__ import annotations

from dataclasses import dataclass

from bot.games.yades.rules import Dice, Phase, Status
from bot.games.yades.sheet import Rules
from bot.games.yades.state import State


@dataclass(frozen=True, slots=True)
class SeatView:
    player: int
    status: Status
    boxes: dict[str, int]
    five_bonus: int


@dataclass(frozen=True, slots=True)
class View:
    """What one player knows: everything (all rolls are public), from their seat.

    CPU policies decide from this, like Maya's, never from ``State``; ``player`` None is
    anyone watching the channel (nothing is hidden in Yadès).
    """

    player: int | None
    rules: Rules
    phase: Phase
    current: int | None
    turn: int
    rolls: int
    dice: Dice | None
    boxes: dict[str, int]  # this player's filled boxes
    five_bonus: int
    seats: tuple[SeatView, ...]


def view(state: State, player: int | None) -> View:
    seats = tuple(
        SeatView(seat.player, seat.status, dict(seat.boxes), seat.five_bonus)
        for seat in state.seats
    )
    mine = next((seat for seat in seats if seat.player == player), None)
    return View(
        player=player,
        rules=state.rules,
        phase=state.phase,
        current=state.current,
        turn=state.turn,
        rolls=state.rolls,
        dice=state.dice,
        boxes=dict(mine.boxes) if mine else {},
        five_bonus=mine.five_bonus if mine else 0,
        seats=seats,
    )
