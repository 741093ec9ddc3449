"""Dés du menteur as the table runtime sees it (``bot.kernel.spec.GameSpec``)."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from bot.games.menteur import cpu, metrics
from bot.games.menteur.achievements import ACHIEVEMENTS
from bot.games.menteur.actions import Action, Leave, Roll, Stop
from bot.games.menteur.engine import apply, replay
from bot.games.menteur.events import EVENTS
from bot.games.menteur.legal import complete, legal_actions, turn_actions
from bot.games.menteur.rules import (
    IN,
    LEFT,
    MAX_PLAYERS,
    MIN_PLAYERS,
    OUT,
    ROLL,
    STARTING_DICE,
    Rules,
)
from bot.games.menteur.state import State, new_game
from bot.games.menteur.view import View, view
from bot.kernel.achievements import Achievement
from bot.kernel.events import Event
from bot.kernel.spec import Board, GameSpec, Outcome, Results


class MenteurSpec:
    name = "menteur"
    min_players = MIN_PLAYERS
    max_players = MAX_PLAYERS
    events = EVENTS
    boards: tuple[Board, ...] = (metrics.BOARD,)
    achievements: tuple[Achievement, ...] = ACHIEVEMENTS

    def rules_to_json(self, rules: Rules) -> dict[str, Any]:
        return rules.to_json()

    def rules_from_json(self, raw: Mapping[str, Any]) -> Rules:
        return Rules.from_json(dict(raw))

    def state_from_json(self, raw: dict[str, Any]) -> State:
        return State.from_json(raw)

    def new_game(self, players: list[int], rules: Rules) -> State:
        return new_game(players, rules)

    def legal_actions(self, state: State, player: int) -> list[Action]:
        return legal_actions(state, player)

    def apply(self, state: State, action: Action) -> tuple[State, list[Event]]:
        return apply(state, action)

    def complete(self, state: State, action: Action, rng: random.Random) -> Action:
        return complete(state, action, rng)

    def variants(self) -> tuple[Rules, ...]:
        plain = tuple(
            Rules.for_preset(dice=dice, jokers=jokers)
            for dice in STARTING_DICE
            for jokers in (True, False)
        )
        return plain + tuple(
            Rules.for_preset(dice=dice, jokers=jokers, calza=calza, palifico=palifico)
            for dice in (3, 5)
            for jokers in (True, False)
            for calza, palifico in ((True, False), (False, True), (True, True))
        )

    def replay(self, state: State, events: Sequence[Event]) -> State:
        return replay(state, events)

    def view(self, state: State, player: int | None) -> View:
        return view(state, player)

    def forced(self, state: State, rng: random.Random) -> Action | None:
        # A round to start: everyone's dice are rolled at once (the roll is nobody's decision).
        if state.over or state.phase != ROLL or state.current is None:
            return None
        return complete(state, Roll(state.current), rng)

    def cpu_action(
        self, state: State, player: int, level: str, rng: random.Random
    ) -> Action | None:
        legal = turn_actions(state, player)
        if not cpu.acts(legal):
            return None
        choice = cpu.choose(view(state, player), legal, level, rng)
        return complete(state, choice, rng)

    def in_game(self, state: State, player: int) -> bool:
        seat = state.seat(player)
        return seat is not None and seat.status in (IN, OUT)

    def still_here(self, state: State, player: int) -> bool:
        seat = state.seat(player)
        return seat is not None and seat.status != LEFT

    def join(self, player: int) -> None:
        return None  # the players are seated when the game starts

    def leave(self, player: int) -> Action:
        return Leave(player)

    def stop(self) -> Action:
        return Stop()

    def outcome(self, state: State) -> Outcome | None:
        if not state.over or state.ending is None:
            return None
        return Outcome(state.ending, (state.winner,) if state.winner is not None else ())

    def results(
        self, state: State, events: Sequence[Event], humans: list[int], rules: Any
    ) -> Results:
        return metrics.results(state, events, humans)


SPEC: GameSpec[State, Action, View] = MenteurSpec()
