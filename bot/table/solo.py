"""A game played by one person against CPUs (a tutorial): no table's game, never on a
leaderboard, and seen like any table, through views only. Whoever keeps it stores its
``snapshot`` (the tutorial: in its timer), so that it survives a restart."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from bot.kernel.events import Event
from bot.kernel.spec import GameSpec

MAX_STEPS = 500  # moves played for the CPUs in a row: far more than any round needs


@dataclass(eq=False)
class SoloGame:
    spec: GameSpec[Any, Any, Any]
    user: int
    cpus: dict[int, str]  # CPU player -> name
    level: str
    rng: random.Random = field(default_factory=random.Random)
    state: Any = None

    @classmethod
    def new(
        cls,
        spec: GameSpec[Any, Any, Any],
        user: int,
        cpus: dict[int, str],
        rules: Any,
        level: str,
        rng: random.Random | None = None,
    ) -> SoloGame:
        game = cls(spec, user, cpus, level, rng or random.Random())
        game.state = spec.new_game([user, *cpus], rules)
        return game

    def snapshot(self) -> dict[str, Any]:
        """The game as JSON (its state's own JSON): ``restore`` makes it again."""
        return {
            "user": self.user,
            "cpus": {str(player): name for player, name in self.cpus.items()},
            "level": self.level,
            "state": self.state.to_json(),
        }

    @classmethod
    def restore(cls, spec: GameSpec[Any, Any, Any], snapshot: dict[str, Any]) -> SoloGame:
        cpus = {int(player): name for player, name in snapshot["cpus"].items()}
        game = cls(spec, snapshot["user"], cpus, snapshot["level"])
        game.state = spec.state_from_json(snapshot["state"])
        return game

    @property
    def step(self) -> int:
        return int(self.state.step)

    @property
    def over(self) -> bool:
        return bool(self.state.over)

    def view(self, player: int | None = None) -> Any:
        return self.spec.view(self.state, player)

    def legal(self, player: int) -> list[Any]:
        return self.spec.legal_actions(self.state, player)

    def advice(self, level: str, rng: random.Random) -> Any | None:
        """The move the CPU of ``level`` would make for the user now (nothing is played)."""
        return self.spec.cpu_action(self.state, self.user, level, rng)

    def play(self, action: Any) -> list[Event]:
        """The user's move (a refusal raises and changes nothing), then the game's own steps
        and the CPUs' moves until the user is to play again or the game is over."""
        self.state, events = self.spec.apply(
            self.state, self.spec.complete(self.state, action, self.rng)
        )
        return [*events, *self.advance()]

    def advance(self) -> list[Event]:
        """The forced steps (a deal) and the CPUs' moves, until it is the user's turn."""
        told: list[Event] = []
        for _ in range(MAX_STEPS):
            if self.state.over or self.state.current is None:
                break
            action = self.spec.forced(self.state, self.rng)
            if action is None:
                current = self.state.current
                if current not in self.cpus:
                    break
                action = self.spec.cpu_action(self.state, current, self.level, self.rng)
                if action is None:
                    break
            self.state, events = self.spec.apply(self.state, action)
            told += events
        return told
