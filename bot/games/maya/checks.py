"""Checks every Maya decider shares: who may act, and whether dice are dice."""

from __future__ import annotations

from bot.games.maya.rules import IN, LEFT, OUT
from bot.games.maya.state import Seat, State
from bot.games.maya.values import Dice
from bot.kernel.errors import Eliminated, InvalidDice, NotNow, NotYourTurn, UnknownPlayer


def check_seated(state: State, player: int) -> Seat:
    seat = state.seat(player)
    if seat is None or seat.status == LEFT:
        raise UnknownPlayer(player=player)
    if seat.status == OUT:
        raise Eliminated(player=player)
    return seat


def check_turn(state: State, player: int, phase: str, action: str) -> None:
    seat = check_seated(state, player)
    if seat.status != IN or state.current != player:
        raise NotYourTurn(player=player, current=state.current)
    if state.phase != phase:
        raise NotNow(action=action, phase=state.phase)


def check_dice(dice: Dice | None) -> Dice:
    if (
        dice is None
        or len(dice) != 2
        or not all(isinstance(pip, int) and 1 <= pip <= 6 for pip in dice)
    ):
        raise InvalidDice(dice=dice)
    return (dice[0], dice[1])
