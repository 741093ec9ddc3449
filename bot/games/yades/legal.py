"""What a player may do now at a Yadès table, and the dice a roll rolls."""

from __future__ import annotations

import random

from bot.games.yades.actions import Action, Leave, Roll, Score, kept_positions
from bot.games.yades.rules import DICE, FACES, IN, MAX_ROLLS, InvalidKeep
from bot.games.yades.scoring import allowed_boxes
from bot.games.yades.state import State

_KEEPS: tuple[tuple[int, ...], ...] = tuple(
    tuple(i for i in range(DICE) if mask >> i & 1) for mask in range((1 << DICE) - 1)
)  # every proper subset of the five positions: keeping all five is no roll


def legal_actions(state: State, player: int) -> list[Action]:
    """What ``player`` may do now. Rolls come with ``dice=None``: see ``complete``."""
    if state.over:
        return []
    seat = state.seat(player)
    if seat is None or seat.status != IN:
        return []
    actions: list[Action] = []
    if state.current == player:
        if state.rolls == 0:
            actions.append(Roll(player))
        else:
            if state.rolls < MAX_ROLLS:
                actions.extend(Roll(player, keep) for keep in _KEEPS)
            assert state.dice is not None
            boxes = allowed_boxes(state.sheet, seat.boxes, state.dice)
            actions.extend(Score(player, box.id) for box in boxes)
    actions.append(Leave(player))
    return actions


def complete(state: State, action: Action, rng: random.Random) -> Action:
    """Fill in the dice a ``Roll`` rolls, from the caller's generator (no-op otherwise)."""
    if type(action) is Roll and action.dice is None:
        try:
            kept = kept_positions(action.keep)
        except InvalidKeep:
            return action
        fresh = tuple(rng.randint(1, FACES) for _ in range(DICE - len(kept)))
        return Roll(action.player, action.keep, fresh)
    return action
