"""Refusals: an action the rules do not allow now raises a ``GameError``.

A refusal carries a ``code`` and ``params`` (plain data) and no text: the Discord layer
words it in the reader's language. The errors below are the ones every game raises; a
game adds its own beside its rules.
"""

from __future__ import annotations

from typing import Any, ClassVar


class GameError(Exception):
    """An action the rules do not allow now. ``code`` and ``params`` are for the UI to word."""

    code: ClassVar[str] = "game_error"

    def __init__(self, **params: Any) -> None:
        super().__init__(f"{self.code} {params}" if params else self.code)
        self.params = params


class NotNow(GameError):
    """The action exists but not in this phase (e.g. lifting when nothing was announced)."""

    code = "not_now"


class GameOver(GameError):
    code = "game_over"


class InvalidRules(GameError):
    code = "invalid_rules"


class InvalidPlayers(GameError):
    code = "invalid_players"


class UnknownPlayer(GameError):
    code = "unknown_player"


class NotYourTurn(GameError):
    code = "not_your_turn"


class Eliminated(GameError):
    code = "eliminated"


class InvalidDice(GameError):
    code = "invalid_dice"
