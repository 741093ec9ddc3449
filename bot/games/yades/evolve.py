"""Evolvers: each event folded onto the state (a copy)."""

from __future__ import annotations

from collections.abc import Sequence

from bot.games.yades.events import (
    BonusEarned,
    GameEnded,
    GameWon,
    PlayerLeft,
    Rolled,
    Scored,
    TurnPassed,
)
from bot.games.yades.rules import FIVE_BONUS, LEFT, OVER
from bot.games.yades.state import Seat, State
from bot.kernel import engine
from bot.kernel.engine import Evolver
from bot.kernel.events import Event
from bot.kernel.spec import Ending


def _seat_of(state: State, player: int) -> Seat:
    seat = state.seat(player)
    assert seat is not None
    return seat


def _on_rolled(state: State, event: Rolled) -> None:
    state.rolls = event.roll
    state.dice = tuple(event.dice)
    state.step += 1


def _on_scored(state: State, event: Scored) -> None:
    _seat_of(state, event.player).boxes[event.box] = event.points


def _on_bonus_earned(state: State, event: BonusEarned) -> None:
    # The upper bonus follows from the upper boxes; only the five-of-a-kind bonus is kept.
    if event.bonus == FIVE_BONUS:
        _seat_of(state, event.player).five_bonus += event.points


def _on_turn_passed(state: State, event: TurnPassed) -> None:
    state.current = event.player
    state.turn = event.turn
    state.rolls = 0
    state.dice = None
    state.step += 1


def _on_player_left(state: State, event: PlayerLeft) -> None:
    _seat_of(state, event.player).status = LEFT


def _on_game_over(state: State, event: GameWon | GameEnded) -> None:
    state.phase = OVER
    state.current = None
    state.rolls = 0
    state.dice = None
    state.winners = list(event.winners)
    state.ending = Ending.WON if isinstance(event, GameWon) else Ending.STOPPED
    state.step += 1


EVOLVERS: dict[type[Event], Evolver] = {
    Rolled: _on_rolled,
    Scored: _on_scored,
    BonusEarned: _on_bonus_earned,
    TurnPassed: _on_turn_passed,
    PlayerLeft: _on_player_left,
    GameWon: _on_game_over,
    GameEnded: _on_game_over,
}


def replay(state: State, events: Sequence[Event]) -> State:
    """Fold ``events`` onto a copy of ``state``."""
    return engine.replay(state, events, EVOLVERS)
