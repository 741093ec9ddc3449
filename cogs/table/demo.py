"""What a game's Discord package gives ``python -m bot demo``: a game among CPU players told
in the terminal with the very lines the bot posts in a channel.

Each ``cogs.<game>`` package exposes ``DEMOS``: the demo's name (what follows ``demo`` on
the command line) -> a ``Demo``. The demo (``bot.demo``) plays through the game's
``GameSpec`` and sees the game as the channel does, through views only.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from bot.kernel.events import Event

Names = Callable[[int], str]


def _never(view: Any) -> bool:
    return False


def _nothing(rules: Any) -> None:
    return None


@dataclass(frozen=True, slots=True)
class Demo:
    rules: Any  # the table's rules (a preset)
    title: Callable[[Any, str], str]  # (rules, lang) -> the table's heading
    story: Callable[[Sequence[Event], Any, Names, str], list[str]]
    """(events, the public view after them, names, lang) -> the lines posted in the channel"""
    private: Callable[[Event, str], str | None]
    """(a private event, lang) -> what its player alone reads (None: nothing to show)"""
    tally: Callable[[Any, Names, str], list[str]]
    """(the public view at the end, names, lang) -> each player's final standing"""
    enough: Callable[[Any], bool] = _never
    """(the public view) -> True when a game that never ends by itself should stop here"""
    prepare: Callable[[Any], None] = _nothing
    """(rules) -> None: what the bot does before its CPUs play (read the tables they use)"""
