"""Dice as every game shows them: the Unicode faces ⚀…⚅ next to their value."""

from __future__ import annotations

import random
from collections.abc import Iterable

FACES = "⚀⚁⚂⚃⚄⚅"
SIDES = 6


def face(pip: int) -> str:
    """The Unicode face of one die (1..6)."""
    return FACES[pip - 1]


def faces(dice: Iterable[int]) -> str:
    """Dice as faces with their values: ``⚄5 ⚂3 ⚀1``."""
    return " ".join(f"{face(pip)}{pip}" for pip in dice)


def roll(rng: random.Random, count: int) -> tuple[int, ...]:
    """``count`` fresh dice from the caller's generator."""
    return tuple(rng.randint(1, SIDES) for _ in range(count))
