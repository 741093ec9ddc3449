"""What one player may know of a Maya/Mia game: public facts and their own looked-at dice."""

from __future__ import annotations

from dataclasses import dataclass

from bot.games.maya.rules import ANNOUNCE, Phase, Play, Rules, Status
from bot.games.maya.state import State
from bot.games.maya.values import Dice

# --------------------------------------------------------------------------- what a player knows


@dataclass(frozen=True, slots=True)
class SeatView:
    player: int
    status: Status
    sips: int
    glasses: int
    lives: int


@dataclass(frozen=True, slots=True)
class View:
    """What one player may know of the game: public facts and their own looked-at dice.

    CPU policies decide from this, never from ``State``, so they cannot peek under a cup;
    ``player`` None is what anyone watching the channel may know.
    """

    player: int | None
    rules: Rules
    phase: Phase
    current: int | None
    round: int
    direction: int
    seats: tuple[SeatView, ...]
    announced: int | None
    announcer: int | None
    photo: bool
    blind_announce: bool
    may_reverse: bool
    my_dice: Dice | None  # the dice this player last looked at in their own cup
    my_play: Play | None  # the blind play this player made this turn


def view(state: State, player: int | None) -> View:
    holding = player is not None and state.holder == player and state.phase == ANNOUNCE
    return View(
        player=player,
        rules=state.rules,
        phase=state.phase,
        current=state.current,
        round=state.round,
        direction=state.direction,
        seats=tuple(SeatView(s.player, s.status, s.sips, s.glasses, s.lives) for s in state.seats),
        announced=state.announced,
        announcer=state.announcer,
        photo=state.photo,
        blind_announce=state.blind_announce,
        may_reverse=state.may_reverse,
        my_dice=state.seen if holding else None,
        my_play=state.play if holding else None,
    )
