"""Maya and Mia as the table runtime sees them (``bot.kernel.spec.GameSpec``)."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from bot.games.maya import cpu, metrics
from bot.games.maya.achievements import ACHIEVEMENTS
from bot.games.maya.actions import Action, Join, Leave, Stop
from bot.games.maya.engine import apply, replay
from bot.games.maya.events import EVENTS
from bot.games.maya.legal import complete, legal_actions, turn_actions
from bot.games.maya.rules import AT_TABLE, LEFT, MAX_PLAYERS, MIN_PLAYERS, SOIREE, VIES, Rules
from bot.games.maya.state import State, new_game
from bot.games.maya.view import View, view
from bot.kernel.achievements import Achievement
from bot.kernel.events import Event
from bot.kernel.spec import Board, GameSpec, Outcome, Results


class MayaSpec:
    name = "maya"
    min_players = MIN_PLAYERS
    max_players = MAX_PLAYERS
    events = EVENTS
    boards: tuple[Board, ...] = (metrics.MAYA_BOARD, metrics.MIA_BOARD)
    achievements: tuple[Achievement, ...] = ACHIEVEMENTS

    def rules_to_json(self, rules: Rules) -> dict[str, Any]:
        return rules.to_json()

    def rules_from_json(self, raw: Mapping[str, Any]) -> Rules:
        return Rules(**raw).validated()

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
        # The party preset has every option on; Mia is the lives preset.
        return (Rules.for_preset(SOIREE, photo_memoire=True), Rules.for_preset(VIES))

    def replay(self, state: State, events: Sequence[Event]) -> State:
        return replay(state, events)

    def view(self, state: State, player: int | None) -> View:
        return view(state, player)

    def forced(self, state: State, rng: random.Random) -> None:
        return None  # every step of a round is someone's decision

    def cpu_action(
        self, state: State, player: int, level: str, rng: random.Random
    ) -> Action | None:
        legal = turn_actions(state, player)
        if not legal:
            return None
        choice = cpu.choose(view(state, player), legal, level, rng)
        return complete(state, choice, rng)

    def in_game(self, state: State, player: int) -> bool:
        seat = state.seat(player)
        return seat is not None and seat.status in AT_TABLE

    def still_here(self, state: State, player: int) -> bool:
        seat = state.seat(player)
        return seat is not None and seat.status != LEFT

    def join(self, player: int) -> Action:
        return Join(player)

    def leave(self, player: int) -> Action:
        return Leave(player)

    def stop(self) -> Action:
        return Stop()

    def outcome(self, state: State) -> Outcome | None:
        if not state.over or state.ending is None:
            return None
        winners = (state.winner,) if state.winner is not None else ()
        return Outcome(state.ending, winners)

    def results(
        self, state: State, events: Sequence[Event], humans: list[int], rules: Any
    ) -> Results:
        return metrics.results(state, events, humans)


SPEC: GameSpec[State, Action, View] = MayaSpec()
