"""What a player may do now at a Maya/Mia table, and the dice an action rolls."""

from __future__ import annotations

import random
from functools import lru_cache

from bot.games.maya import values as d
from bot.games.maya.actions import (
    AcceptFault,
    AcceptMaya,
    Accuse,
    Action,
    Announce,
    Appeal,
    Believe,
    ContestFault,
    Fragile,
    Join,
    Leave,
    Lift,
    Photo,
    Roll,
    SecondChance,
    Tap,
    Vote,
    Warrior,
    WithdrawVote,
)
from bot.games.maya.rules import (
    ANNOUNCE,
    AT_TABLE,
    IN,
    LEFT,
    MAX_PLAYERS,
    OPEN,
    OUT,
    OVER,
    WAITING,
)
from bot.games.maya.state import Fault, Seat, State
from bot.games.maya.values import MAYA

# The lists of actions kept, per player and situation: the calls repeated within a turn
# (a panel, its menu, a CPU's choice) are served from them, and no more are kept, since the
# cycle collector's full runs walk every action kept.
CACHED = 256


def legal_actions(state: State, player: int) -> list[Action]:
    """What ``player`` may do now. Actions that roll come with ``dice=None``: see ``complete``."""
    if state.phase == OVER:
        return []
    seat = state.seat(player)
    if seat is None or seat.status == LEFT:
        joinable = seated_count(state) < MAX_PLAYERS
        return [Join(player)] if joinable else []
    if seat.status == OUT:
        return []
    actions: list[Action] = []
    if seat.status == IN and state.current == player:
        actions.extend(_turn_actions(state, player))
    actions.extend(_fault_actions(state, player, seat))
    actions.append(Leave(player))
    return actions


def turn_actions(state: State, player: int) -> list[Action]:
    """The legal actions that play ``player``'s turn (no joining, leaving or fautes).

    What a CPU may do for a seat, or for a player whose time ran out.
    """
    seat = state.seat(player)
    if state.phase == OVER or seat is None or seat.status != IN or state.current != player:
        return []
    return _turn_actions(state, player)


def _turn_actions(state: State, player: int) -> list[Action]:
    rules = state.rules
    phase = state.phase
    if phase == OPEN:
        blinds = (False, True) if rules.aveugle else (False,)
        reverses = (False, True) if state.may_reverse else (False,)
        return [Roll(player, None, blind, reverse) for reverse in reverses for blind in blinds]
    if phase == ANNOUNCE:
        actions: list[Action] = list(_announcements(player, state.announced))
        if photo_refusal(state) is None:
            actions.append(Photo(player))
        if state.play is None and state.seen is not None:
            if rules.tapote:
                actions.extend((Tap(player, 0), Tap(player, 1)))
            if rules.seconde_chance:
                actions.append(SecondChance(player))
        return actions
    # RESPOND
    if state.announced == MAYA:
        if not rules.lives and rules.warrior_fragile:
            return [Lift(player), Fragile(player), Warrior(player)]
        return [Lift(player), AcceptMaya(player)]
    actions = [Lift(player), Believe(player)]
    if rules.aveugle:
        actions.append(Believe(player, None, True))
    return actions


@lru_cache(maxsize=CACHED)
def _announcements(player: int, above: int | None) -> tuple[Announce, ...]:
    """Announce actions are immutable: build each list once per player and value to beat."""
    return tuple(Announce(player, value) for value in d.values_above(above))


def _fault_actions(state: State, player: int, seat: Seat) -> list[Action]:
    if not state.rules.fautes or state.rules.lives:
        return []
    actions: list[Action] = []
    accusing = False
    for fault in state.faults:
        if fault.accuser == player and fault.status in ("pending", "voting"):
            accusing = True
        if fault.accused == player:
            if fault.status == "pending":
                actions.append(AcceptFault(player, fault.id))
                actions.append(ContestFault(player, fault.id))
            elif fault.status == "guilty":
                actions.append(Appeal(player, fault.id))
        elif fault.status == "voting" and player in fault.voters:
            # A vote counts as it stands when the vote closes: it may be changed or withdrawn.
            cast = cast_vote(fault, player)
            actions.extend(Vote(player, fault.id, side) for side in (True, False) if side != cast)
            if cast is not None:
                actions.append(WithdrawVote(player, fault.id))
    if not accusing and seat.status in AT_TABLE:
        others = tuple(s.player for s in state.seats if s.status in AT_TABLE and s.player != player)
        actions.extend(_accusations(player, others))
    return actions


def cast_vote(fault: Fault, player: int) -> bool | None:
    """``player``'s vote on ``fault`` as it stands: guilty, innocent, or none."""
    if player in fault.guilty_votes:
        return True
    if player in fault.innocent_votes:
        return False
    return None


@lru_cache(maxsize=CACHED)
def _accusations(player: int, others: tuple[int, ...]) -> tuple[Accuse, ...]:
    return tuple(Accuse(player, other) for other in others)


def seated_count(state: State) -> int:
    return sum(1 for seat in state.seats if seat.status in (IN, WAITING))


def photo_refusal(state: State) -> str | None:
    """Why a Photo is not allowed now, or None when it is."""
    if not state.rules.photo:
        return "disabled"
    if state.announced is None:
        return "no_announcement"
    if state.photo:
        return "after_photo"
    if state.announced == MAYA:
        return "on_maya"
    return None


def complete(state: State, action: Action, rng: random.Random) -> Action:
    """Fill in the dice an action rolls, from the caller's generator (no-op otherwise)."""
    match action:
        case Roll(dice=None):
            return Roll(action.player, d.roll(rng), action.blind, action.reverse)
        case Believe(dice=None):
            return Believe(action.player, d.roll(rng), action.blind)
        case SecondChance(dice=None):
            return SecondChance(action.player, d.roll(rng))
        case Warrior(dice=None):
            return Warrior(action.player, d.roll(rng))
        case Tap(face=None, die=0 | 1) if state.cup is not None:
            # Another die is no die of the cup: ``apply`` refuses it as it is.
            return Tap(action.player, action.die, d.tap(state.cup[action.die], rng))
    return action
