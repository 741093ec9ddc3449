"""Evolvers: each event folded onto the state (a copy: ``bot.games.maya.engine``)."""

from __future__ import annotations

from bot.games.maya.events import (
    Announced,
    Believed,
    CupDice,
    DirectionReversed,
    Drank,
    FaultAccepted,
    FaultAppealed,
    FaultContested,
    FaultDropped,
    FaultJudged,
    FaultRaised,
    GameEnded,
    GameWon,
    LifeLost,
    Lifted,
    MayaBelieved,
    PlayerEliminated,
    PlayerJoined,
    PlayerLeft,
    Revealed,
    Rolled,
    RoundAbandoned,
    RoundEnded,
    RoundStarted,
    SecondChanceTaken,
    Tapped,
    TurnPassed,
    VoteCast,
    VoteWithdrawn,
    WarriorRolled,
)
from bot.games.maya.legal import cast_vote
from bot.games.maya.rules import (
    ANNOUNCE,
    AVEUGLE,
    IN,
    LEFT,
    OPEN,
    OUT,
    OVER,
    RESPOND,
    SECONDE_CHANCE,
    TAPOTE,
    WAITING,
    FaultStatus,
)
from bot.games.maya.state import Fault, Seat, State
from bot.kernel.engine import Evolver
from bot.kernel.events import PRIVATE, Event
from bot.kernel.spec import Ending


def _seat_of(state: State, player: int) -> Seat:
    seat = state.seat(player)
    assert seat is not None
    return seat


def _clear_round(state: State) -> None:
    state.cup = state.seen = None
    state.holder = state.announced = state.announcer = None
    state.play = None
    state.photo = state.blind_announce = False


def _on_direction_reversed(state: State, event: DirectionReversed) -> None:
    state.direction = event.direction


def _on_round_started(state: State, event: RoundStarted) -> None:
    state.round = event.round
    state.may_reverse = False
    for seat in state.seats:
        if seat.status == WAITING:
            seat.status = IN
    # The appeal window of a guilty verdict closes when the next round starts.
    state.faults = [fault for fault in state.faults if fault.status != "guilty"]


def _on_rolled(state: State, event: Rolled) -> None:
    player = event.player
    state.phase = ANNOUNCE
    state.step += 1
    state.current = state.holder = player
    state.play = AVEUGLE if event.blind else None
    state.seen = None


def _on_dice(state: State, event: CupDice) -> None:
    dice = event.dice
    state.cup = (dice[0], dice[1])
    if event.visibility == PRIVATE:
        state.seen = state.cup


def _on_tapped(state: State, event: Tapped) -> None:
    state.play = TAPOTE


def _on_second_chance(state: State, event: SecondChanceTaken) -> None:
    state.play = SECONDE_CHANCE


def _on_announced(state: State, event: Announced) -> None:
    state.announced = event.value
    state.announcer = event.player
    state.photo = event.photo
    state.blind_announce = event.blind
    state.phase = RESPOND
    state.current = event.next
    state.step += 1


def _nothing(
    state: State, event: Believed | Lifted | Revealed | MayaBelieved | WarriorRolled
) -> None:
    """Events that only tell the story (the state changes come in the events that follow)."""


def _on_drank(state: State, event: Drank) -> None:
    seat = _seat_of(state, event.player)
    seat.sips += event.sips
    seat.glasses += event.glasses


def _on_life_lost(state: State, event: LifeLost) -> None:
    _seat_of(state, event.player).lives = event.remaining


def _on_eliminated(state: State, event: PlayerEliminated) -> None:
    _seat_of(state, event.player).status = OUT


def _on_round_ended(state: State, event: RoundEnded) -> None:
    _clear_round(state)
    state.phase = OPEN
    state.current = event.opener
    state.may_reverse = event.may_reverse
    state.step += 1


def _on_game_won(state: State, event: GameWon) -> None:
    _clear_round(state)
    state.phase = OVER
    state.current = None
    state.winner = event.player
    state.ending = Ending.WON
    state.step += 1


def _on_game_ended(state: State, event: GameEnded) -> None:
    _clear_round(state)
    state.phase = OVER
    state.current = None
    state.ending = Ending.STOPPED if event.reason == "stopped" else Ending.ABANDONED
    state.step += 1


def _on_fault_raised(state: State, event: FaultRaised) -> None:
    state.faults.append(Fault(event.fault, event.accuser, event.accused, event.motive))
    state.next_fault = event.fault + 1


def _drop_fault(state: State, fault_id: int) -> None:
    state.faults = [fault for fault in state.faults if fault.id != fault_id]


def _on_fault_closed(state: State, event: FaultAccepted | FaultAppealed | FaultDropped) -> None:
    _drop_fault(state, event.fault)


def _on_fault_contested(state: State, event: FaultContested) -> None:
    fault = state.fault(event.fault)
    assert fault is not None
    fault.status = FaultStatus.VOTING
    fault.voters = list(event.voters)


def _on_vote_cast(state: State, event: VoteCast) -> None:
    fault = _voted_on(state, event)  # a changed vote replaces the one before
    votes = fault.guilty_votes if event.guilty else fault.innocent_votes
    votes.append(event.player)


def _on_vote_withdrawn(state: State, event: VoteWithdrawn) -> None:
    _voted_on(state, event)


def _voted_on(state: State, event: VoteCast | VoteWithdrawn) -> Fault:
    """The fault voted on, without ``event.player``'s vote."""
    fault = state.fault(event.fault)
    assert fault is not None
    player = event.player
    fault.guilty_votes = [p for p in fault.guilty_votes if p != player]
    fault.innocent_votes = [p for p in fault.innocent_votes if p != player]
    return fault


def _on_fault_judged(state: State, event: FaultJudged) -> None:
    if event.guilty:
        fault = state.fault(event.fault)
        assert fault is not None
        fault.status = FaultStatus.GUILTY
    else:
        _drop_fault(state, event.fault)


def _on_player_joined(state: State, event: PlayerJoined) -> None:
    status = IN if event.seated else WAITING
    seat = state.seat(event.player)
    if seat is None:
        state.seats.append(Seat(event.player, status, lives=event.lives))
    else:
        seat.status = status
        seat.lives = event.lives


def _on_player_left(state: State, event: PlayerLeft) -> None:
    player = event.player
    _seat_of(state, player).status = LEFT
    for fault in state.faults:
        # A voter who leaves without having voted no longer holds the vote up.
        if fault.status == "voting" and player in fault.voters and cast_vote(fault, player) is None:
            fault.voters.remove(player)


def _seat_waiting(state: State, players: list[int]) -> None:
    for seat in state.seats:
        if seat.player in players:
            seat.status = IN


def _on_turn_passed(state: State, event: TurnPassed) -> None:
    _seat_waiting(state, event.seated)
    state.current = event.player
    # Reversing was the Maya receiver's right, not the next opener's.
    state.may_reverse = False
    state.step += 1


def _on_round_abandoned(state: State, event: RoundAbandoned) -> None:
    _clear_round(state)
    _seat_waiting(state, event.seated)
    state.phase = OPEN
    state.current = event.opener
    state.may_reverse = False
    state.step += 1


EVOLVERS: dict[type[Event], Evolver] = {
    DirectionReversed: _on_direction_reversed,
    RoundStarted: _on_round_started,
    Rolled: _on_rolled,
    CupDice: _on_dice,
    Tapped: _on_tapped,
    SecondChanceTaken: _on_second_chance,
    Announced: _on_announced,
    Believed: _nothing,
    Lifted: _nothing,
    Revealed: _nothing,
    MayaBelieved: _nothing,
    WarriorRolled: _nothing,
    Drank: _on_drank,
    LifeLost: _on_life_lost,
    PlayerEliminated: _on_eliminated,
    RoundEnded: _on_round_ended,
    GameWon: _on_game_won,
    GameEnded: _on_game_ended,
    FaultRaised: _on_fault_raised,
    FaultAccepted: _on_fault_closed,
    FaultContested: _on_fault_contested,
    VoteCast: _on_vote_cast,
    VoteWithdrawn: _on_vote_withdrawn,
    FaultJudged: _on_fault_judged,
    FaultAppealed: _on_fault_closed,
    FaultDropped: _on_fault_closed,
    PlayerJoined: _on_player_joined,
    PlayerLeft: _on_player_left,
    TurnPassed: _on_turn_passed,
    RoundAbandoned: _on_round_abandoned,
}
