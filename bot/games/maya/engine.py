"""``apply`` and ``replay`` for Maya/Mia: each action's decider, each event's evolver."""

from __future__ import annotations

from collections.abc import Sequence

from bot.games.maya import decide, faults
from bot.games.maya.actions import (
    AcceptFault,
    AcceptMaya,
    Accuse,
    Action,
    Announce,
    Appeal,
    Believe,
    CloseVote,
    ContestFault,
    Fragile,
    Join,
    Leave,
    Lift,
    Photo,
    Roll,
    SecondChance,
    Stop,
    Tap,
    Vote,
    Warrior,
    WithdrawVote,
)
from bot.games.maya.evolve import EVOLVERS
from bot.games.maya.state import State
from bot.kernel import engine
from bot.kernel.engine import Decider
from bot.kernel.events import Event

DECIDERS: dict[type, Decider] = {
    Roll: decide.decide_roll,
    Announce: decide.decide_announce,
    Photo: decide.decide_photo,
    Tap: decide.decide_tap,
    SecondChance: decide.decide_second_chance,
    Believe: decide.decide_believe,
    Lift: decide.decide_lift,
    Fragile: decide.decide_fragile,
    Warrior: decide.decide_warrior,
    AcceptMaya: decide.decide_accept_maya,
    Accuse: faults.decide_accuse,
    AcceptFault: faults.decide_accept_fault,
    ContestFault: faults.decide_contest_fault,
    Vote: faults.decide_vote,
    WithdrawVote: faults.decide_withdraw_vote,
    CloseVote: faults.decide_close_vote,
    Appeal: faults.decide_appeal,
    Join: decide.decide_join,
    Leave: decide.decide_leave,
    Stop: decide.decide_stop,
}


def apply(state: State, action: Action) -> tuple[State, list[Event]]:
    """Check ``action`` against the rules and return the next state and what happened."""
    return engine.apply(state, action, DECIDERS, EVOLVERS)


def replay(state: State, events: Sequence[Event]) -> State:
    """Fold ``events`` onto a copy of ``state``."""
    return engine.replay(state, events, EVOLVERS)
