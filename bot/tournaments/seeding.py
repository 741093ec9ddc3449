"""Seeding: who plays where, from the seed order alone (no chance involved)."""

from __future__ import annotations

import math
from collections.abc import Sequence

from bot.tournaments.model import Entrant


def seed_order(entrants: Sequence[Entrant]) -> tuple[Entrant, ...]:
    """Highest rating first; equal ratings keep the order they were entered in."""
    return tuple(sorted(entrants, key=lambda entrant: -entrant.rating))


def bracket_size(count: int) -> int:
    """The next power of two from ``count`` (``count`` itself when it is one)."""
    return 1 << math.ceil(math.log2(count)) if count > 1 else 1


def bracket_order(size: int) -> tuple[int, ...]:
    """The seeds down a bracket of ``size`` lines, read two by two as first-round matches:
    1 v 16, 8 v 9, 4 v 13, … so that the top two seeds can only meet in the final, the top
    four only from the semi-finals, and so on.

    Each doubling of the bracket puts beside every seed its mirror: the two add up to the
    doubled size plus one."""
    order = [1]
    while len(order) < size:
        mirror = 2 * len(order) + 1
        order = [seed for s in order for seed in (s, mirror - s)]
    return tuple(order)


def snake(players: Sequence[int], tables: int) -> tuple[tuple[int, ...], ...]:
    """``players`` (best first) dealt to ``tables`` tables there and back: 1 2 3 3 2 1 1 2 …

    The tables' sizes differ by one at most, and each table gets a fair share of the best.
    """
    dealt: list[list[int]] = [[] for _ in range(tables)]
    for index, player in enumerate(players):
        lap, position = divmod(index, tables)
        dealt[position if lap % 2 == 0 else tables - 1 - position].append(player)
    return tuple(tuple(table) for table in dealt)
