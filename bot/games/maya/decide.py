"""Deciders of a round: an action and the state give the events it causes (or a refusal).

Every decider reads the state and returns events; it never changes the state: the
evolvers fold the events onto a copy (``bot.games.maya.engine``).
"""

from __future__ import annotations

from bot.games.maya import values as d
from bot.games.maya.actions import (
    AcceptMaya,
    Announce,
    Believe,
    Fragile,
    Join,
    Leave,
    Lift,
    Photo,
    Roll,
    SecondChance,
    Stop,
    Tap,
    Warrior,
)
from bot.games.maya.checks import check_dice, check_seated, check_turn
from bot.games.maya.events import (
    Announced,
    Believed,
    CupDice,
    DirectionReversed,
    Drank,
    FaultDropped,
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
    WarriorRolled,
)
from bot.games.maya.faults import judged
from bot.games.maya.legal import photo_refusal, seated_count
from bot.games.maya.rules import (
    ANNOUNCE,
    IN,
    LEFT,
    MAX_PLAYERS,
    MIN_PLAYERS,
    OPEN,
    OUT,
    RESPOND,
    WAITING,
    AlreadySeated,
    AnnouncementTooLow,
    BlindPlayNotAllowed,
    OptionDisabled,
    PhotoNotAllowed,
    TableFull,
    UnknownValue,
)
from bot.games.maya.state import State
from bot.games.maya.values import MAYA, RANK, Dice
from bot.kernel.errors import Eliminated, GameOver, InvalidDice, NotNow
from bot.kernel.events import Event


def _rolled(player: int, dice: Dice, *, blind: bool, believed: bool = False) -> list[Event]:
    """A roll: public news that the cup was shaken, the dice to the owner (or to nobody)."""
    cup = CupDice.unseen(player, list(dice)) if blind else CupDice.seen(player, list(dice))
    return [Rolled(player=player, blind=blind, believed=believed), cup]


# ---- deciders: state + action -> events (raise GameError when illegal)


def decide_roll(state: State, action: Roll) -> list[Event]:
    check_turn(state, action.player, OPEN, "roll")
    dice = check_dice(action.dice)
    if action.blind and not state.rules.aveugle:
        raise OptionDisabled(option="aveugle")
    events: list[Event] = []
    if action.reverse:
        if not state.may_reverse:
            raise NotNow(action="reverse", phase=state.phase)
        events.append(DirectionReversed(player=action.player, direction=-state.direction))
    seated = [seat.player for seat in state.seats if seat.status == WAITING]
    events.append(RoundStarted(round=state.round + 1, opener=action.player, seated=seated))
    events.extend(_rolled(action.player, dice, blind=action.blind))
    return events


def decide_announce(state: State, action: Announce) -> list[Event]:
    check_turn(state, action.player, ANNOUNCE, "announce")
    value = action.value
    if not d.is_value(value):
        raise UnknownValue(value=value)
    if state.announced is not None and RANK[value] <= RANK[state.announced]:
        above = d.values_above(state.announced)
        raise AnnouncementTooLow(
            value=value, previous=state.announced, minimum=above[0] if above else None
        )
    return [_announced(state, action.player, value, photo=False)]


def decide_photo(state: State, action: Photo) -> list[Event]:
    check_turn(state, action.player, ANNOUNCE, "photo")
    refusal = photo_refusal(state)
    if refusal is not None:
        raise PhotoNotAllowed(reason=refusal)
    assert state.announced is not None
    return [_announced(state, action.player, state.announced, photo=True)]


def _announced(state: State, player: int, value: int, *, photo: bool) -> Event:
    blind = state.play is not None or state.seen != state.cup
    return Announced(
        player=player,
        value=value,
        photo=photo,
        blind=blind,
        next=state.next_after(player),
    )


def decide_tap(state: State, action: Tap) -> list[Event]:
    check_turn(state, action.player, ANNOUNCE, "tap")
    if not state.rules.tapote:
        raise OptionDisabled(option="tapote")
    _check_blind_play_allowed(state)
    if action.die not in (0, 1):
        raise InvalidDice(die=action.die)
    assert state.cup is not None
    before = state.cup[action.die]
    if action.face is None or (action.face != before and action.face not in d.neighbours(before)):
        raise InvalidDice(face=action.face, before=before)
    dice = list(state.cup)
    dice[action.die] = action.face
    return [
        Tapped(player=action.player, die=action.die),
        CupDice.unseen(action.player, dice),
    ]


def decide_second_chance(state: State, action: SecondChance) -> list[Event]:
    check_turn(state, action.player, ANNOUNCE, "second_chance")
    if not state.rules.seconde_chance:
        raise OptionDisabled(option="seconde_chance")
    _check_blind_play_allowed(state)
    dice = check_dice(action.dice)
    return [
        SecondChanceTaken(player=action.player),
        CupDice.unseen(action.player, list(dice)),
    ]


def _check_blind_play_allowed(state: State) -> None:
    if state.play is not None:
        raise BlindPlayNotAllowed(reason="already", play=state.play)
    if state.seen is None:
        raise BlindPlayNotAllowed(reason="not_looked")


def decide_believe(state: State, action: Believe) -> list[Event]:
    check_turn(state, action.player, RESPOND, "believe")
    if state.announced == MAYA:
        raise NotNow(action="believe", phase=state.phase, announced=MAYA)
    dice = check_dice(action.dice)
    if action.blind and not state.rules.aveugle:
        raise OptionDisabled(option="aveugle")
    believed = Believed(player=action.player, announcer=state.announcer, blind=action.blind)
    return [believed, *_rolled(action.player, dice, blind=action.blind, believed=True)]


def decide_lift(state: State, action: Lift) -> list[Event]:
    check_turn(state, action.player, RESPOND, "lift")
    assert state.cup is not None and state.announced is not None and state.announcer is not None
    lifter, announcer, announced = action.player, state.announcer, state.announced
    value = d.read(state.cup)
    truthful = RANK[value] >= RANK[announced]
    events: list[Event] = [
        Lifted(player=lifter, announcer=announcer),
        Revealed(
            player=announcer,
            lifter=lifter,
            dice=list(state.cup),
            value=value,
            announced=announced,
            photo=state.photo,
            truthful=truthful,
        ),
    ]
    loser = lifter if truthful else announcer
    if announced != MAYA:
        return events + _penalty(state, loser, "lift", receiver=None)
    if state.rules.lives:
        return events + _lose_lives(state, loser, 2 if truthful else 1, "maya_lift")
    return events + _glass(state, loser, "maya_lift", receiver=lifter)


def decide_fragile(state: State, action: Fragile) -> list[Event]:
    _maya_response(state, action.player, "fragile", warrior_fragile=True)
    return [
        MayaBelieved(player=action.player, style="fragile"),
        Drank(player=action.player, sips=1, glasses=0, reason="fragile"),
        _round_ended(state, action.player, receiver=action.player),
    ]


def decide_accept_maya(state: State, action: AcceptMaya) -> list[Event]:
    _maya_response(state, action.player, "accept_maya", warrior_fragile=False)
    events: list[Event] = [MayaBelieved(player=action.player, style="accept")]
    if state.rules.lives:
        return events + _lose_lives(state, action.player, 1, "maya_accepted")
    return events + _penalty(state, action.player, "maya_accepted", receiver=action.player)


def decide_warrior(state: State, action: Warrior) -> list[Event]:
    _maya_response(state, action.player, "warrior", warrior_fragile=True)
    dice = check_dice(action.dice)
    value = d.read(dice)
    verifier = state.next_after(action.player)
    success = value == MAYA
    loser = verifier if success else action.player
    return [
        MayaBelieved(player=action.player, style="warrior"),
        WarriorRolled(
            player=action.player,
            dice=list(dice),
            value=value,
            success=success,
            verifier=verifier,
        ),
        Drank(player=loser, sips=0, glasses=1, reason="warrior"),
        _round_ended(state, loser, receiver=action.player),
    ]


def _maya_response(state: State, player: int, action: str, *, warrior_fragile: bool) -> None:
    check_turn(state, player, RESPOND, action)
    if state.announced != MAYA:
        raise NotNow(action=action, phase=state.phase)
    offered = not state.rules.lives and state.rules.warrior_fragile
    if offered != warrior_fragile:
        raise OptionDisabled(option="warrior_fragile")


# ---- penalties and the end of a round


def _penalty(state: State, loser: int, reason: str, *, receiver: int | None) -> list[Event]:
    """One unit of the table's penalty (a sip or a life) for ``loser``, then the round ends."""
    if state.rules.lives:
        return _lose_lives(state, loser, 1, reason)
    return [
        Drank(player=loser, sips=1, glasses=0, reason=reason),
        _round_ended(state, loser, receiver=receiver),
    ]


def _glass(state: State, loser: int, reason: str, *, receiver: int) -> list[Event]:
    return [
        Drank(player=loser, sips=0, glasses=1, reason=reason),
        _round_ended(state, loser, receiver=receiver),
    ]


def _lose_lives(state: State, loser: int, lives: int, reason: str) -> list[Event]:
    seat = state.seat(loser)
    assert seat is not None
    lost = min(lives, seat.lives)
    remaining = seat.lives - lost
    events: list[Event] = [LifeLost(player=loser, lives=lost, remaining=remaining, reason=reason)]
    if remaining > 0:
        return [*events, _round_ended(state, loser, receiver=None)]
    events.append(PlayerEliminated(player=loser))
    survivors = [p for p in state.active() if p != loser]
    waiting = [seat.player for seat in state.seats if seat.status == WAITING]
    if len(survivors) + len(waiting) <= 1:
        events.append(GameWon(player=survivors[0]))
        return events
    return [*events, _round_ended(state, loser, receiver=None, loser_out=True)]


def _round_ended(
    state: State, loser: int, *, receiver: int | None, loser_out: bool = False
) -> Event:
    """Who opens next: after a party Maya its receiver (who may reverse); else ``ouvreur``."""
    if receiver is not None and not state.rules.lives:
        return RoundEnded(
            loser=loser,
            opener=receiver,
            may_reverse=state.rules.inversion_maya,
        )
    if state.rules.ouvreur == "perdant" and not loser_out:
        opener = loser
    else:
        opener = _next_skipping(state, loser, skip=loser)
    return RoundEnded(loser=loser, opener=opener, may_reverse=False)


def _next_skipping(state: State, player: int, *, skip: int) -> int:
    """The next active player after ``player``, not counting ``skip`` (just eliminated or gone)."""
    seats = state.seats
    count = len(seats)
    index = next(i for i, seat in enumerate(seats) if seat.player == player)
    for step in range(1, count + 1):
        seat = seats[(index + step * state.direction) % count]
        if seat.status == IN and seat.player != skip:
            return seat.player
    raise GameOver()


# ---- joining, leaving, stopping


def decide_join(state: State, action: Join) -> list[Event]:
    seat = state.seat(action.player)
    if seat is not None and seat.status == OUT:
        raise Eliminated(player=action.player)
    if seat is not None and seat.status != LEFT:
        raise AlreadySeated(player=action.player)
    if seated_count(state) >= MAX_PLAYERS:
        raise TableFull(limit=MAX_PLAYERS)
    lives = 0
    if state.rules.lives:
        # Nobody gains by joining late: start with the fewest lives anyone has now.
        lives = min(s.lives for s in state.seats if s.status == IN)
        if seat is not None:
            lives = min(lives, seat.lives)
    seated = state.phase == OPEN
    return [PlayerJoined(player=action.player, seated=seated, lives=lives)]


def decide_leave(state: State, action: Leave) -> list[Event]:
    seat = check_seated(state, action.player)
    player = action.player
    events: list[Event] = [PlayerLeft(player=player)]
    for fault in state.faults:
        if fault.accused == player:
            events.append(FaultDropped(fault=fault.id, reason="accused_left"))
        elif fault.status == "voting" and player in fault.voters:
            voted = player in fault.guilty_votes or player in fault.innocent_votes
            voters_left = len(fault.voters) - (0 if voted else 1)
            cast = len(fault.guilty_votes) + len(fault.innocent_votes)
            if not voted and voters_left > 0 and cast == voters_left:
                events.extend(judged(fault, len(fault.guilty_votes), len(fault.innocent_votes)))
    remaining = [p for p in state.active() if p != player]
    waiting = [s.player for s in state.seats if s.status == WAITING and s.player != player]
    if len(remaining) + len(waiting) < MIN_PLAYERS:
        if state.rules.lives and remaining:
            events.append(GameWon(player=remaining[0]))
        else:
            events.append(GameEnded(reason="players_left"))
        return events
    if seat.status == WAITING:
        return events
    # Too few players left in the round itself: it cannot go on, seat the waiting ones now.
    short = len(remaining) < MIN_PLAYERS
    seated = waiting if short else []
    if state.phase == OPEN:
        if state.current == player or short:
            opener = _next_opener(state, player, seated)
            events.append(TurnPassed(player=opener, seated=seated))
        return events
    in_round = player in (state.current, state.announcer)
    if in_round or short:
        if player == state.announcer and state.current not in (player, None) and not short:
            opener = state.current
        else:
            opener = _next_opener(state, player, seated)
        events.append(RoundAbandoned(opener=opener, seated=seated))
    return events


def _next_opener(state: State, leaver: int, seated: list[int]) -> int:
    """Who opens after ``leaver`` leaves: the next player in the game, or about to be seated."""
    seats = state.seats
    count = len(seats)
    index = next(i for i, seat in enumerate(seats) if seat.player == leaver)
    for step in range(1, count + 1):
        seat = seats[(index + step * state.direction) % count]
        if seat.player != leaver and (seat.status == IN or seat.player in seated):
            return seat.player
    raise GameOver()


def decide_stop(state: State, action: Stop) -> list[Event]:
    return [GameEnded(reason="stopped")]
