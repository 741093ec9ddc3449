"""What one player may know of a Maya/Mia game: public facts and their own looked-at dice."""

from __future__ import annotations

from dataclasses import dataclass

from bot.games.maya.rules import ANNOUNCE, OVER, FaultStatus, Phase, Play, Rules, Status
from bot.games.maya.state import Fault, State
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
class FaultView:
    """An accusation and its vote: public (the votes are reactions everyone sees)."""

    id: int
    accuser: int
    accused: int
    motive: str
    status: FaultStatus
    voters: tuple[int, ...]
    guilty_votes: tuple[int, ...]
    innocent_votes: tuple[int, ...]

    def vote_of(self, player: int) -> bool | None:
        """``player``'s vote as it stands: guilty, innocent, or none."""
        if player in self.guilty_votes:
            return True
        if player in self.innocent_votes:
            return False
        return None


def _fault_view(fault: Fault) -> FaultView:
    return FaultView(
        fault.id,
        fault.accuser,
        fault.accused,
        fault.motive,
        fault.status,
        tuple(fault.voters),
        tuple(fault.guilty_votes),
        tuple(fault.innocent_votes),
    )


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
    step: int = 0  # the decision point: a component drawn for another one is out of date
    winner: int | None = None
    faults: tuple[FaultView, ...] = ()

    @property
    def over(self) -> bool:
        return self.phase == OVER

    def fault(self, fault_id: int) -> FaultView | None:
        return next((fault for fault in self.faults if fault.id == fault_id), None)


def view(state: State, player: int | None) -> View:
    holding = player is not None and state.holder == player and state.phase == ANNOUNCE
    return View(
        player=player,
        rules=state.rules,
        phase=state.phase,
        step=state.step,
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
        winner=state.winner,
        faults=tuple(_fault_view(fault) for fault in state.faults),
    )
