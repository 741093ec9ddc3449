"""Achievements as the channel reads them: announced at the end of the game that earned
them (``TableController``), named by ``/stats`` and listed by ``/succes``.

Each game declares its achievements (``GameSpec.achievements``) and words them in its own
texts: ``ach.<code>.name``, ``ach.<code>.description``, and its heading ``ach.game.<game>``.
"""

from __future__ import annotations

from collections.abc import Iterable

from bot.games import REGISTRY
from bot.i18n import t
from bot.kernel.achievements import Earned
from bot.storage import Held


def name(lang: str, code: str) -> str:
    return t(lang, f"ach.{code}.name")


def description(lang: str, code: str) -> str:
    return t(lang, f"ach.{code}.description")


def earned_lines(lang: str, earned: Iterable[Earned]) -> list[str]:
    """The announcement of achievements just earned, a line each (a mention that pings
    nobody: the table's messages ping only the player whose turn it is)."""
    return [
        t(
            lang,
            "ach.earned",
            player=f"<@{e.user_id}>",
            name=name(lang, e.code),
            description=description(lang, e.code),
        )
        for e in earned
    ]


def held_names(lang: str, held: Iterable[Held]) -> list[str]:
    """The names of the achievements held that a game still declares, in the order earned."""
    return [name(lang, h.code) for h in held if REGISTRY.achievement(h.code) is not None]
