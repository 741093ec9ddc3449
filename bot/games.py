"""What the table layer needs to know about each game, behind one interface.

``bot/tables.py`` runs any game whose engine follows the house API (``new_game``,
``legal_actions``, ``apply``, ``complete``, ``State.to_json/from_json``): a ``GameKind``
adds the few game-specific answers a table needs — how to rebuild the rules, which
actions the CPU may take for a seat, how to make a player leave or stop the game, who
is still at the table, and what a finished game adds to the leaderboards.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass
from typing import Any, Protocol

from bot import stats
from bot.engine import maya
from bot.engine.cpu import maya as cpu_maya


@dataclass(frozen=True, slots=True)
class Outcome:
    """A finished game, for the leaderboards: figures per human, and their final places."""

    game: str  # leaderboard key
    figures: dict[int, dict[str, float]]
    ranking: list[list[int]]  # tied groups, best first


class GameKind(Protocol):
    name: str
    min_players: int
    max_players: int

    def rules_to_json(self, rules: Any) -> dict[str, Any]: ...

    def rules_from_json(self, raw: Mapping[str, Any]) -> Any: ...

    def state_from_json(self, raw: dict[str, Any]) -> Any: ...

    def new_game(self, players: list[int], rules: Any) -> Any: ...

    def apply(self, state: Any, action: Any) -> tuple[Any, list[Any]]: ...

    def in_game(self, state: Any, player: int) -> bool:
        """Seated and not gone (eliminated players still count: they watch the end)."""
        ...

    def still_here(self, state: Any, player: int) -> bool:
        """At the table in any way, eliminated included: False once they left."""
        ...

    def cpu_action(self, state: Any, player: int, level: str, rng: random.Random) -> Any | None:
        """The CPU policy's move for ``player`` now, dice filled; None if it has none."""
        ...

    def leave(self, player: int) -> Any: ...

    def stop(self) -> Any: ...

    def ended_by_stop(self, events: Sequence[Any]) -> bool: ...

    def outcome(self, state: Any, logged: list[dict[str, Any]], humans: list[int]) -> Outcome: ...


class MayaKind:
    """Maya (party preset) and Mia (lives preset)."""

    name = "maya"
    min_players = maya.MIN_PLAYERS
    max_players = maya.MAX_PLAYERS

    def rules_to_json(self, rules: maya.Rules) -> dict[str, Any]:
        return asdict(rules)

    def rules_from_json(self, raw: Mapping[str, Any]) -> maya.Rules:
        return maya.Rules(**raw).validated()

    def state_from_json(self, raw: dict[str, Any]) -> maya.State:
        return maya.State.from_json(raw)

    def new_game(self, players: list[int], rules: maya.Rules) -> maya.State:
        return maya.new_game(players, rules)

    def apply(self, state: maya.State, action: maya.Action) -> tuple[maya.State, list[maya.Event]]:
        return maya.apply(state, action)

    def in_game(self, state: maya.State, player: int) -> bool:
        seat = state.seat(player)
        return seat is not None and seat.status in (maya.IN, maya.WAITING)

    def still_here(self, state: maya.State, player: int) -> bool:
        seat = state.seat(player)
        return seat is not None and seat.status != maya.LEFT

    def cpu_action(
        self, state: maya.State, player: int, level: str, rng: random.Random
    ) -> maya.Action | None:
        legal = maya.turn_actions(state, player)
        if not legal:
            return None
        choice = cpu_maya.choose(maya.view(state, player), legal, level, rng)
        return maya.complete(state, choice, rng)

    def leave(self, player: int) -> maya.Action:
        return maya.Leave(player)

    def stop(self) -> maya.Action:
        return maya.Stop()

    def ended_by_stop(self, events: Sequence[maya.Event]) -> bool:
        return any(e.type == "game_ended" for e in events)

    def outcome(
        self, state: maya.State, logged: list[dict[str, Any]], humans: list[int]
    ) -> Outcome:
        figures = {
            player: numbers
            for player, numbers in stats.maya_figures(logged, humans).items()
            if player in humans
        }
        eliminated = [e["data"]["player"] for e in logged if e["type"] == "eliminated"]
        ranking = stats.maya_ranking(
            figures, lives=state.rules.lives, eliminated_order=eliminated, winner=state.winner
        )
        return Outcome(
            game="mia" if state.rules.lives else "maya",
            figures={p: numbers.as_dict() for p, numbers in figures.items()},
            ranking=ranking,
        )


GAMES: dict[str, GameKind] = {"maya": MayaKind()}
