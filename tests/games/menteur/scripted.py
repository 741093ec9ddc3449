"""Scripted Dés du menteur games for the rule tests: a table, moves in turn, the dice each
round rolls, and reading what happened (through the public API only)."""

from __future__ import annotations

from typing import Any

import pytest

from bot.games.menteur import Action, Event, GameError, Roll, Rules, Seat, State, apply, new_game


def game(players: int = 3, **options: Any) -> State:
    """A fresh game for players 1..``players``, seated in that order; player 1 opens."""
    return new_game(list(range(1, players + 1)), Rules.for_preset(**options))


def play(state: State, *actions: Action) -> tuple[State, list[Event]]:
    """Apply ``actions`` in order; the final state and every event they caused."""
    events: list[Event] = []
    for action in actions:
        state, produced = apply(state, action)
        events.extend(produced)
    return state, events


def rolled(state: State, *hands: tuple[int, ...]) -> State:
    """The opener rolls ``hands`` (one per active player, in seating order)."""
    state, _ = apply(state, Roll(state.current, dice=hands))
    return state


def typed(events: list[Event], kind: str) -> list[Event]:
    return [event for event in events if event.type == kind]


def the(events: list[Event], kind: str) -> Event:
    found = typed(events, kind)
    assert len(found) == 1, f"expected one {kind!r}, got {[event.type for event in events]}"
    return found[0]


def seat(state: State, player: int) -> Seat:
    found = state.seat(player)
    assert found is not None
    return found


def refused(state: State, action: Action, error: type[GameError]) -> GameError:
    """``action`` raises ``error`` (with its code) and leaves ``state`` exactly as it was."""
    before = state.to_json()
    with pytest.raises(error) as caught:
        apply(state, action)
    assert type(caught.value) is error
    assert caught.value.code == error.code
    assert state.to_json() == before
    return caught.value
