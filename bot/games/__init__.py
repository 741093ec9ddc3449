"""Every game the bot runs, each a pure package registered here once.

A game is ``bot.games.<name>`` (its rules, state, events, CPU, metrics and ``SPEC``) and
``cogs.<name>`` (how it looks on Discord). Everything shared (the table runtime, the
storage, the leaderboards, help, settings) iterates ``REGISTRY`` and knows no game by
name: adding a game is two packages, its import and its entry below.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from bot.games.maya.spec import SPEC as MAYA
from bot.games.menteur.spec import SPEC as MENTEUR
from bot.games.yades.spec import SPEC as YADES
from bot.kernel.achievements import Achievement
from bot.kernel.spec import Board, GameSpec


class Registry:
    """The games by name, in the order they were registered."""

    def __init__(self, *specs: GameSpec[Any, Any, Any]) -> None:
        self._specs = {spec.name: spec for spec in specs}
        # Achievements are stored by code alone: two games may not share one.
        self._achievements: dict[str, tuple[GameSpec[Any, Any, Any], Achievement]] = {}
        for spec in specs:
            for achievement in spec.achievements:
                if achievement.code in self._achievements:
                    raise ValueError(f"two achievements are coded {achievement.code!r}")
                self._achievements[achievement.code] = (spec, achievement)

    def __getitem__(self, name: str) -> GameSpec[Any, Any, Any]:
        return self._specs[name]

    def __contains__(self, name: object) -> bool:
        return name in self._specs

    def __iter__(self) -> Iterator[GameSpec[Any, Any, Any]]:
        return iter(self._specs.values())

    def boards(self) -> Iterator[tuple[GameSpec[Any, Any, Any], Board]]:
        """Every leaderboard, with the game it belongs to."""
        for spec in self:
            for board in spec.boards:
                yield spec, board

    def achievement(self, code: str) -> tuple[GameSpec[Any, Any, Any], Achievement] | None:
        """The achievement stored as ``code`` and its game (None: no game declares it now)."""
        return self._achievements.get(code)


REGISTRY = Registry(MAYA, YADES, MENTEUR)
