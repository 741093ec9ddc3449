"""Maya/Mia values: reading two dice, the ordering of the 21 values, their probabilities,
and the dice of the blind plays."""

from __future__ import annotations

import random
from fractions import Fraction
from itertools import product

from bot.kernel import dice
from bot.kernel.dice import face

MAYA = 21

# Weakest to strongest: plain values, then doubles, then Maya.
ORDER: tuple[int, ...] = (
    31, 32, 41, 42, 43, 51, 52, 53, 54, 61, 62, 63, 64, 65,
    11, 22, 33, 44, 55, 66,
    21,
)  # fmt: skip

RANK: dict[int, int] = {value: index for index, value in enumerate(ORDER)}

Dice = tuple[int, int]


def show(dice: Dice) -> str:
    """Dice as faces with their value, e.g. ``⚄ ⚂ (53)``."""
    return f"{face(dice[0])} {face(dice[1])} ({read(dice)})"


def read(dice: Dice) -> int:
    """The value two dice show: the higher die is the tens, the lower the units."""
    a, b = dice
    return a * 10 + b if a >= b else b * 10 + a


def rank(value: int) -> int:
    """Position of a value in the ordering (0 = 31, 20 = Maya)."""
    return RANK[value]


def is_value(value: object) -> bool:
    return isinstance(value, int) and value in RANK


def values_above(value: int | None) -> tuple[int, ...]:
    """Every value strictly stronger than ``value`` (all of them when ``value`` is None)."""
    if value is None:
        return ORDER
    return ORDER[RANK[value] + 1 :]


# How many of the 36 ordered outcomes read as each value.
WAYS: dict[int, int] = {value: 0 for value in ORDER}
for _a, _b in product(range(1, 7), repeat=2):
    WAYS[read((_a, _b))] += 1

PROBABILITY: dict[int, Fraction] = {value: Fraction(ways, 36) for value, ways in WAYS.items()}

# Probability that a fresh roll reads at least / strictly above each value.
AT_LEAST: dict[int, Fraction] = {}
ABOVE: dict[int, Fraction] = {}
_running = Fraction(0)
for _value in reversed(ORDER):
    ABOVE[_value] = _running
    _running += PROBABILITY[_value]
    AT_LEAST[_value] = _running
del _running, _value, _a, _b


def probability(value: int) -> Fraction:
    """Probability that two fresh dice read exactly ``value``."""
    return PROBABILITY[value]


def probability_at_least(value: int) -> Fraction:
    """Probability that two fresh dice read ``value`` or stronger."""
    return AT_LEAST[value]


def probability_to_beat(value: int) -> Fraction:
    """Probability that two fresh dice read strictly stronger than ``value``."""
    return ABOVE[value]


def neighbours(pip: int) -> tuple[int, ...]:
    """The four faces adjacent to ``pip`` on a die: neither itself nor the opposite face."""
    return tuple(other for other in range(1, 7) if other != pip and other != 7 - pip)


def roll(rng: random.Random) -> Dice:
    """Two fresh dice from the caller's generator."""
    first, second = dice.roll(rng, 2)
    return (first, second)


def tap(pip: int, rng: random.Random) -> int:
    """Where a tapped die lands: half the time it stays, else one of its neighbours, uniformly."""
    if rng.random() < 0.5:
        return pip
    return rng.choice(neighbours(pip))
