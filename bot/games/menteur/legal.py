"""What a player may do now at a menteur table, and the dice a round's deal rolls."""

from __future__ import annotations

import random

from bot.games.menteur.actions import Action, Bid, Calza, Challenge, Leave, Roll
from bot.games.menteur.rules import FACES, IN, ROLL
from bot.games.menteur.state import State, dice_in_play, minimal_raises


def legal_actions(state: State, player: int) -> list[Action]:
    """What ``player`` may do now. A ``Roll`` comes with ``dice=None``: see ``complete``."""
    if state.over:
        return []
    seat = state.seat(player)
    if seat is None or seat.status != IN:
        return []
    return [*turn_actions(state, player), Leave(player)]


def turn_actions(state: State, player: int) -> list[Action]:
    """The legal actions that play ``player``'s turn (no leaving): what a CPU may do."""
    seat = state.seat(player)
    if state.over or seat is None or seat.status != IN or state.current != player:
        return []
    if state.phase == ROLL:
        return [Roll(player)]
    total = dice_in_play(state)
    bids = [
        Bid(player, q, face)
        for quantity, face in minimal_raises(state)
        for q in range(quantity, total + 1)
    ]
    bids.sort(key=lambda bid: (bid.quantity, bid.face))
    actions: list[Action] = [*bids]
    if state.bid is not None:
        actions.append(Challenge(player))
        if state.rules.calza:
            actions.append(Calza(player))
    return actions


def complete(state: State, action: Action, rng: random.Random) -> Action:
    """Fill in the dice a ``Roll`` rolls, from the caller's generator (no-op otherwise)."""
    if isinstance(action, Roll) and action.dice is None:
        hands = tuple(
            tuple(rng.randint(1, FACES) for _ in range(seat.dice))
            for seat in state.seats
            if seat.status == IN
        )
        return Roll(action.player, hands)
    return action
