"""Yadès and Yahtzee as the table runtime sees them (``bot.kernel.spec.GameSpec``)."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from bot.games.yades import cpu, metrics
from bot.games.yades.achievements import ACHIEVEMENTS
from bot.games.yades.actions import Action, Leave, Stop
from bot.games.yades.engine import apply, replay
from bot.games.yades.events import EVENTS
from bot.games.yades.legal import complete, legal_actions
from bot.games.yades.metrics import YadesSetup
from bot.games.yades.rules import IN, MAX_PLAYERS, MIN_PLAYERS
from bot.games.yades.sheet import PRESETS, Rules
from bot.games.yades.state import State, new_game
from bot.games.yades.view import View, view
from bot.kernel.achievements import Achievement
from bot.kernel.events import Event
from bot.kernel.levels import DIFFICILE, FACILE, MOYEN
from bot.kernel.spec import Board, GameSpec, Outcome, Results

# The tables' CPU levels and the Yadès CPU each plays (difficile: the perfect-play expert).
LEVELS = {FACILE: cpu.FACILE, MOYEN: cpu.MOYEN, DIFFICILE: cpu.EXPERT}


class YadesSpec:
    name = "yades"
    min_players = MIN_PLAYERS
    max_players = MAX_PLAYERS
    events = EVENTS
    boards: tuple[Board, ...] = (metrics.BOARD,)
    achievements: tuple[Achievement, ...] = ACHIEVEMENTS

    def rules_to_json(self, rules: YadesSetup) -> dict[str, Any]:
        return {"rules": rules.rules.to_json(), "mise": rules.mise}

    def rules_from_json(self, raw: Mapping[str, Any]) -> YadesSetup:
        return YadesSetup(Rules.from_json(raw["rules"]), int(raw.get("mise", 0)))

    def state_from_json(self, raw: dict[str, Any]) -> State:
        return State.from_json(raw)

    def new_game(self, players: list[int], rules: YadesSetup) -> State:
        return new_game(players, rules.rules)

    def legal_actions(self, state: State, player: int) -> list[Action]:
        return legal_actions(state, player)

    def apply(self, state: State, action: Action) -> tuple[State, list[Event]]:
        return apply(state, action)

    def complete(self, state: State, action: Action, rng: random.Random) -> Action:
        return complete(state, action, rng)

    def variants(self) -> tuple[YadesSetup, ...]:
        return tuple(YadesSetup(Rules.for_preset(preset), 0) for preset in PRESETS)

    def replay(self, state: State, events: Sequence[Event]) -> State:
        return replay(state, events)

    def view(self, state: State, player: int | None) -> View:
        return view(state, player)

    def forced(self, state: State, rng: random.Random) -> None:
        return None  # the next turn is passed by the score that ends one

    def cpu_action(
        self, state: State, player: int, level: str, rng: random.Random
    ) -> Action | None:
        legal = legal_actions(state, player)
        if not cpu.acts(legal):
            return None
        choice = cpu.choose(view(state, player), legal, LEVELS.get(level, level), rng)
        return complete(state, choice, rng)

    def in_game(self, state: State, player: int) -> bool:
        seat = state.seat(player)
        return seat is not None and seat.status == IN

    def still_here(self, state: State, player: int) -> bool:
        return self.in_game(state, player)

    def join(self, player: int) -> None:
        return None  # the players are seated when the game starts

    def leave(self, player: int) -> Action:
        return Leave(player)

    def stop(self) -> Action:
        return Stop()

    def outcome(self, state: State) -> Outcome | None:
        if not state.over or state.ending is None:
            return None
        return Outcome(state.ending, tuple(state.winners))

    def results(
        self, state: State, events: Sequence[Event], humans: list[int], rules: Any
    ) -> Results:
        mise = rules.mise if isinstance(rules, YadesSetup) else 0
        return metrics.results(state, events, humans, mise)


SPEC: GameSpec[State, Action, View] = YadesSpec()
