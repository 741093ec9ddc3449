"""What one Yadès player knows: everything (all rolls are public), from their seat."""

from __future__ import annotations

from dataclasses import dataclass

from bot.games.yades.rules import OVER, Dice, Phase, Status
from bot.games.yades.scoring import (
    BonusProgress,
    Totals,
    allowed_boxes,
    points,
    sheet_bonus_progress,
    sheet_totals,
)
from bot.games.yades.sheet import Rules, Sheet
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
    step: int = 0  # the decision point: a component drawn for another one is out of date
    winners: tuple[int, ...] = ()

    @property
    def over(self) -> bool:
        return self.phase == OVER

    @property
    def sheet(self) -> Sheet:
        return self.rules.sheet

    def seat(self, player: int) -> SeatView | None:
        return next((seat for seat in self.seats if seat.player == player), None)

    def totals(self, player: int) -> Totals:
        """The totals of ``player``'s sheet by section, bonuses included."""
        seat = self.seat(player)
        if seat is None:
            return sheet_totals(self.sheet, {})
        return sheet_totals(self.sheet, seat.boxes, seat.five_bonus)

    def bonus_progress(self, player: int) -> BonusProgress:
        seat = self.seat(player)
        return sheet_bonus_progress(self.sheet, seat.boxes if seat is not None else {})

    def scores(self) -> dict[str, int]:
        """What each box the current player may fill now would score (empty before a roll)."""
        seat = self.seat(self.current) if self.current is not None else None
        if self.over or seat is None or self.dice is None:
            return {}
        sheet, dice = self.sheet, self.dice
        return {
            box.id: points(sheet, box, dice, seat.boxes)
            for box in allowed_boxes(sheet, seat.boxes, dice)
        }


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
        step=state.step,
        winners=tuple(state.winners),
    )
