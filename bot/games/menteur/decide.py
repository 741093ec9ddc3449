"""Deciders: an action and the state give the events it causes (or a refusal)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.games.menteur.actions import Bid, Calza, Challenge, Leave, Roll, Stop
from bot.games.menteur.bids import count, minimum_for, opening_faces, raises
from bot.games.menteur.events import (
    BidMade,
    CalzaCalled,
    Challenged,
    DieGained,
    DieLost,
    GameEnded,
    GameWon,
    HandDealt,
    PlayerEliminated,
    PlayerLeft,
    Revealed,
    RoundAbandoned,
    RoundEnded,
    RoundStarted,
    TurnPassed,
)
from bot.games.menteur.rules import BID, FACES, IN, LEFT, OUT, ROLL, BidTooLow, Hand, InvalidBid
from bot.games.menteur.state import Seat, State, dice_in_play
from bot.kernel.errors import Eliminated, InvalidDice, NotNow, NotYourTurn, UnknownPlayer
from bot.kernel.events import Event


def _playing(state: State, player: Any) -> Seat:
    seat = state.seat(player)
    if seat is None or seat.status == LEFT:
        raise UnknownPlayer(player=player)
    if seat.status == OUT:
        raise Eliminated(player=player)
    return seat


def _turn(state: State, player: int, phase: str, action: str) -> Seat:
    seat = _playing(state, player)
    if state.current != player:
        raise NotYourTurn(player=player, current=state.current)
    if state.phase != phase:
        raise NotNow(action=action, phase=state.phase)
    return seat


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _check_hands(state: State, dice: Any) -> list[Hand]:
    expected = [seat.dice for seat in state.seats if seat.status == IN]
    if not isinstance(dice, Sequence) or len(dice) != len(expected):
        raise InvalidDice(dice=repr(dice), expected=expected)
    hands: list[Hand] = []
    for hand, size in zip(dice, expected, strict=True):
        if (
            not isinstance(hand, Sequence)
            or len(hand) != size
            or not all(_is_int(pip) and 1 <= pip <= FACES for pip in hand)
        ):
            raise InvalidDice(dice=repr(dice), expected=expected)
        hands.append(tuple(hand))
    return hands


def decide_roll(state: State, action: Roll) -> list[Event]:
    opener = state.current if action.player is None else action.player
    assert opener is not None
    _turn(state, opener, ROLL, "roll")
    hands = _check_hands(state, action.dice)
    active = [seat for seat in state.seats if seat.status == IN]
    events: list[Event] = [
        RoundStarted(
            round=state.round + 1,
            opener=opener,
            counts=[{"player": seat.player, "count": seat.dice} for seat in active],
            total=sum(seat.dice for seat in active),
            palifico=state.palifico,
        )
    ]
    events.extend(
        HandDealt.to_owner(seat.player, list(hand))
        for seat, hand in zip(active, hands, strict=True)
    )
    return events


def decide_bid(state: State, action: Bid) -> list[Event]:
    _turn(state, action.player, BID, "bid")
    quantity, face = action.quantity, action.face
    jokers = state.jokers
    total = dice_in_play(state)
    if not _is_int(face) or not 1 <= face <= FACES:
        raise InvalidBid(reason="face", face=face)
    if not _is_int(quantity) or not 1 <= quantity <= total:
        raise InvalidBid(reason="quantity", quantity=quantity, total=total)
    if state.bid is None and face not in opening_faces(jokers):
        raise InvalidBid(reason="opening_on_ones", face=face)
    locked = state.locked_face
    if locked is not None and face != locked:
        raise InvalidBid(reason="palifico_face", face=face, locked=locked)
    needed = minimum_for(state.bid, face, jokers)
    if quantity < needed:
        raise BidTooLow(
            quantity=quantity,
            face=face,
            previous=state.bid,
            minimum=(needed, face) if needed <= total else None,
            raises=raises(state.bid, jokers, total, locked),
        )
    return [
        BidMade(
            player=action.player,
            quantity=quantity,
            face=face,
            next=state.next_after(action.player),
        )
    ]


def _reveal(state: State, caller: int, call: str) -> Revealed:
    """Every hand in play, public, with the count of the last bid's face."""
    assert state.bid is not None and state.bidder is not None
    quantity, face = state.bid
    active = [seat for seat in state.seats if seat.status == IN]
    hands = [seat.hand or () for seat in active]
    actual = count(hands, face, state.jokers)
    return Revealed(
        hands=[
            {"player": seat.player, "dice": list(hand)}
            for seat, hand in zip(active, hands, strict=True)
        ],
        quantity=quantity,
        face=face,
        jokers=state.jokers,
        actual=actual,
        holds=actual >= quantity,
        challenger=caller,
        bidder=state.bidder,
        call=call,
        exact=actual == quantity,
    )


def _palifico_for(state: State, player: int, remaining: int) -> int | None:
    """``player`` when dropping to ``remaining`` dice starts their Palifico round: the option
    is on, they are down to one die and never had theirs."""
    if state.rules.palifico and remaining == 1 and player not in state.palificos:
        return player
    return None


def _round_over(state: State, loser: int, reason: str, opener: int) -> list[Event]:
    """``loser`` loses a die (``reason``); the round ends, opened next by ``opener`` (or, when
    the loser was the opener and is out, by the next player in), or the game is won."""
    seat = state.seat(loser)
    assert seat is not None
    remaining = seat.dice - 1
    events: list[Event] = [DieLost(player=loser, remaining=remaining, reason=reason)]
    if remaining > 0:
        palifico = _palifico_for(state, loser, remaining)
        # A Palifico round is opened by its player.
        events.append(
            RoundEnded(
                loser=loser, opener=loser if palifico is not None else opener, palifico=palifico
            )
        )
        return events
    events.append(PlayerEliminated(player=loser))
    survivors = [p for p in state.active() if p != loser]
    if len(survivors) == 1:
        events.append(GameWon(player=survivors[0]))
        return events
    if opener == loser:
        opener = state.next_after(loser, skip=loser)
    events.append(RoundEnded(loser=loser, opener=opener))
    return events


def decide_challenge(state: State, action: Challenge) -> list[Event]:
    _turn(state, action.player, BID, "challenge")
    if state.bid is None or state.bidder is None:
        raise NotNow(action="challenge", reason="no_bid")
    quantity, face = state.bid
    challenger, bidder = action.player, state.bidder
    revealed = _reveal(state, challenger, "challenge")
    loser = challenger if revealed.holds else bidder
    events: list[Event] = [
        Challenged(player=challenger, bidder=bidder, quantity=quantity, face=face),
        revealed,
    ]
    reason = "challenge" if revealed.holds else "bid"
    return events + _round_over(state, loser, reason, opener=loser)


def decide_calza(state: State, action: Calza) -> list[Event]:
    """The last bid is exact: all dice are revealed; exact, the caller gets a die back (never
    above the starting count), otherwise loses one. The caller opens the next round."""
    seat = _turn(state, action.player, BID, "calza")
    if not state.rules.calza:
        raise NotNow(action="calza", reason="calza_off")
    if state.bid is None or state.bidder is None:
        raise NotNow(action="calza", reason="no_bid")
    caller = action.player
    quantity, face = state.bid
    revealed = _reveal(state, caller, "calza")
    events: list[Event] = [
        CalzaCalled(player=caller, bidder=state.bidder, quantity=quantity, face=face),
        revealed,
    ]
    if not revealed.exact:
        return events + _round_over(state, caller, "calza", opener=caller)
    capped = seat.dice >= state.rules.dice
    remaining = seat.dice if capped else seat.dice + 1
    events.append(DieGained(player=caller, remaining=remaining, capped=capped))
    events.append(RoundEnded(loser=None, opener=caller))
    return events


def decide_leave(state: State, action: Leave) -> list[Event]:
    seat = _playing(state, action.player)
    player = action.player
    events: list[Event] = [PlayerLeft(player=player, dice_count=seat.dice)]
    survivors = [p for p in state.active() if p != player]
    if len(survivors) == 1:
        events.append(GameWon(player=survivors[0]))
        return events
    if state.phase == ROLL:
        if state.current == player:
            events.append(TurnPassed(player=state.next_after(player, skip=player)))
        return events
    if player in (state.current, state.bidder):
        # The round cannot go on without whoever is to act or whose bid is on the table.
        # Someone's Palifico round, cut short by another player, is theirs to play again.
        palifico = state.palifico if state.palifico != player else None
        opener = palifico if palifico is not None else state.next_after(player, skip=player)
        events.append(RoundAbandoned(opener=opener, palifico=palifico))
    return events


def decide_stop(state: State, action: Stop) -> list[Event]:
    return [GameEnded(reason="stopped")]
