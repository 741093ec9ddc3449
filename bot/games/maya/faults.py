"""*Fautes de jeu* (party preset, docs/rules.md#maya-faute): accusations, the vote, the appeal."""

from __future__ import annotations

from bot.games.maya.actions import (
    AcceptFault,
    Accuse,
    Appeal,
    CloseVote,
    ContestFault,
    Vote,
    WithdrawVote,
)
from bot.games.maya.checks import check_seated
from bot.games.maya.events import (
    Drank,
    FaultAccepted,
    FaultAppealed,
    FaultContested,
    FaultJudged,
    FaultRaised,
    VoteCast,
    VoteWithdrawn,
)
from bot.games.maya.legal import cast_vote
from bot.games.maya.rules import (
    AT_TABLE,
    MAX_MOTIVE,
    AlreadyVoted,
    FaultNotAllowed,
    NotAVoter,
    OptionDisabled,
    UnknownFault,
)
from bot.games.maya.state import Fault, State
from bot.kernel.errors import NotNow, UnknownPlayer
from bot.kernel.events import Event


def _check_fautes(state: State) -> None:
    if state.rules.lives or not state.rules.fautes:
        raise OptionDisabled(option="fautes")


def _open_fault(state: State, fault_id: int) -> Fault:
    fault = state.fault(fault_id)
    if fault is None:
        raise UnknownFault(fault=fault_id)
    return fault


def decide_accuse(state: State, action: Accuse) -> list[Event]:
    _check_fautes(state)
    seat = check_seated(state, action.player)
    if seat.status not in AT_TABLE:
        raise FaultNotAllowed(reason="not_playing")
    accused = state.seat(action.accused)
    # Someone who joined during a round sits at the table already (they play the next one).
    if accused is None or accused.status not in AT_TABLE:
        raise UnknownPlayer(player=action.accused)
    if action.accused == action.player:
        raise FaultNotAllowed(reason="self")
    if any(f.accuser == action.player and f.status in ("pending", "voting") for f in state.faults):
        raise FaultNotAllowed(reason="already_accusing")
    motive = " ".join(action.motive.split())
    if len(motive) > MAX_MOTIVE:
        raise FaultNotAllowed(reason="motive_too_long", limit=MAX_MOTIVE)
    return [
        FaultRaised(
            fault=state.next_fault,
            accuser=action.player,
            accused=action.accused,
            motive=motive,
        )
    ]


def decide_accept_fault(state: State, action: AcceptFault) -> list[Event]:
    _check_fautes(state)
    fault = _open_fault(state, action.fault)
    if fault.accused != action.player or fault.status != "pending":
        raise FaultNotAllowed(reason="not_pending_for_you")
    return [
        FaultAccepted(fault=fault.id, player=action.player),
        Drank(player=action.player, sips=1, glasses=0, reason="faute"),
    ]


def decide_contest_fault(state: State, action: ContestFault) -> list[Event]:
    _check_fautes(state)
    fault = _open_fault(state, action.fault)
    if fault.accused != action.player or fault.status != "pending":
        raise FaultNotAllowed(reason="not_pending_for_you")
    voters = [
        seat.player
        for seat in state.seats
        if seat.status in AT_TABLE and seat.player != fault.accused
    ]
    return [FaultContested(fault=fault.id, player=action.player, voters=voters)]


def decide_vote(state: State, action: Vote) -> list[Event]:
    _check_fautes(state)
    fault = _open_fault(state, action.fault)
    _check_voter(state, fault, action.player)
    cast = cast_vote(fault, action.player)
    if cast == bool(action.guilty):
        raise AlreadyVoted(fault=fault.id, player=action.player)
    events: list[Event] = [
        VoteCast(fault=fault.id, player=action.player, guilty=bool(action.guilty))
    ]
    guilty = len(fault.guilty_votes) - (cast is True) + (1 if action.guilty else 0)
    innocent = len(fault.innocent_votes) - (cast is False) + (0 if action.guilty else 1)
    if guilty + innocent == len(fault.voters):
        events.extend(judged(fault, guilty, innocent))
    return events


def _check_voter(state: State, fault: Fault, player: int) -> None:
    """``player`` votes on ``fault`` now: one of its voters, still at the table (a voter who
    left keeps the vote they cast, but may no longer change it)."""
    seat = state.seat(player)
    at_table = seat is not None and seat.status in AT_TABLE
    if fault.status != "voting" or player not in fault.voters or not at_table:
        raise NotAVoter(fault=fault.id, player=player)


def decide_withdraw_vote(state: State, action: WithdrawVote) -> list[Event]:
    _check_fautes(state)
    fault = _open_fault(state, action.fault)
    _check_voter(state, fault, action.player)
    if cast_vote(fault, action.player) is None:
        raise NotNow(action="withdraw_vote", fault=fault.id)
    return [VoteWithdrawn(fault=fault.id, player=action.player)]


def decide_close_vote(state: State, action: CloseVote) -> list[Event]:
    _check_fautes(state)
    fault = _open_fault(state, action.fault)
    if fault.status != "voting":
        raise NotNow(action="close_vote", fault=fault.id)
    return judged(fault, len(fault.guilty_votes), len(fault.innocent_votes))


def judged(fault: Fault, guilty: int, innocent: int) -> list[Event]:
    """A strict majority of the votes cast convicts; a tie acquits."""
    verdict = guilty > innocent
    events: list[Event] = [
        FaultJudged(fault=fault.id, accused=fault.accused, guilty=verdict,
                guilty_votes=guilty, innocent_votes=innocent)
    ]  # fmt: skip
    if verdict:
        events.append(Drank(player=fault.accused, sips=1, glasses=0, reason="faute"))
    return events


def decide_appeal(state: State, action: Appeal) -> list[Event]:
    _check_fautes(state)
    fault = _open_fault(state, action.fault)
    if fault.accused != action.player or fault.status != "guilty":
        raise FaultNotAllowed(reason="nothing_to_appeal")
    return [FaultAppealed(fault=fault.id, player=action.player, rejected=True)]
