"""Evolvers: each event folded onto the state (a copy)."""

from __future__ import annotations

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
from bot.games.menteur.rules import BID, LEFT, OUT, OVER, ROLL
from bot.games.menteur.state import Seat, State
from bot.kernel.engine import Evolver
from bot.kernel.events import Event
from bot.kernel.spec import Ending


def _seat_of(state: State, player: int) -> Seat:
    seat = state.seat(player)
    assert seat is not None
    return seat


def _clear_round(state: State) -> None:
    """Old values are not kept: everybody re-rolls next round (a Palifico round is over)."""
    for seat in state.seats:
        seat.hand = None
    state.bid = state.bidder = None
    state.history = []
    state.palifico = None


def _on_round_started(state: State, event: RoundStarted) -> None:
    state.round = event.round
    state.phase = BID
    state.current = event.opener
    state.step += 1


def _on_dice(state: State, event: HandDealt) -> None:
    _seat_of(state, event.player).hand = tuple(event.dice)


def _on_bid_made(state: State, event: BidMade) -> None:
    state.bid = (event.quantity, event.face)
    state.bidder = event.player
    state.history.append((event.player, event.quantity, event.face))
    state.current = event.next
    state.step += 1


def _nothing(state: State, event: Challenged | CalzaCalled | Revealed) -> None:
    """Events that only tell the story (the state changes come in the events that follow)."""


def _on_die_lost(state: State, event: DieLost) -> None:
    _seat_of(state, event.player).dice = event.remaining


def _on_die_gained(state: State, event: DieGained) -> None:
    _seat_of(state, event.player).dice = event.remaining


def _on_eliminated(state: State, event: PlayerEliminated) -> None:
    _seat_of(state, event.player).status = OUT


def _on_round_ended(state: State, event: RoundEnded | RoundAbandoned) -> None:
    _clear_round(state)
    state.phase = ROLL
    state.current = event.opener
    if isinstance(event, RoundEnded) and event.palifico is not None:
        state.palifico = event.palifico
        state.palificos.append(event.palifico)
    elif isinstance(event, RoundAbandoned) and event.palifico is not None:
        state.palifico = event.palifico  # the same round again: still their one Palifico
    state.step += 1


def _on_player_left(state: State, event: PlayerLeft) -> None:
    seat = _seat_of(state, event.player)
    seat.status = LEFT
    seat.dice = 0
    seat.hand = None
    if state.phase == ROLL and state.palifico == event.player:
        state.palifico = None  # their Palifico round, not started yet, leaves with them


def _on_turn_passed(state: State, event: TurnPassed) -> None:
    state.current = event.player
    state.step += 1


def _on_game_over(state: State, event: GameWon | GameEnded) -> None:
    _clear_round(state)
    state.phase = OVER
    state.current = None
    if isinstance(event, GameWon):
        state.winner = event.player
        state.ending = Ending.WON
    else:
        state.ending = Ending.STOPPED
    state.step += 1


EVOLVERS: dict[type[Event], Evolver] = {
    RoundStarted: _on_round_started,
    HandDealt: _on_dice,
    BidMade: _on_bid_made,
    Challenged: _nothing,
    CalzaCalled: _nothing,
    Revealed: _nothing,
    DieLost: _on_die_lost,
    DieGained: _on_die_gained,
    PlayerEliminated: _on_eliminated,
    RoundEnded: _on_round_ended,
    RoundAbandoned: _on_round_ended,
    PlayerLeft: _on_player_left,
    TurnPassed: _on_turn_passed,
    GameWon: _on_game_over,
    GameEnded: _on_game_over,
}
