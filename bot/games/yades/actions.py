"""What a player may do at a Yadès table."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from bot.games.yades.rules import DICE, Dice, InvalidKeep


@dataclass(frozen=True, slots=True)
class Roll:
    """Roll the dice not kept. ``keep``: positions 0..4 kept (or a 5-bit mask); the first
    roll of a turn keeps nothing. ``dice``: the fresh values, in the order of the positions
    rolled (``complete`` fills them)."""

    player: int
    keep: tuple[int, ...] | int = ()
    dice: Dice | None = None


@dataclass(frozen=True, slots=True)
class Score:
    """Fill ``box`` with the dice on the table (0 when they do not fit: a scratch)."""

    player: int
    box: str


@dataclass(frozen=True, slots=True)
class Leave:
    player: int


@dataclass(frozen=True, slots=True)
class Stop:
    """End the game now (the table checks who may stop it)."""


Action = Roll | Score | Leave | Stop


def kept_positions(keep: tuple[int, ...] | int | Iterable[int]) -> tuple[int, ...]:
    """``keep`` as sorted distinct positions; raises ``InvalidKeep``."""
    if isinstance(keep, bool):
        raise InvalidKeep(keep=keep)
    if isinstance(keep, int):
        if not 0 <= keep < 1 << DICE:
            raise InvalidKeep(keep=keep)
        return tuple(i for i in range(DICE) if keep >> i & 1)
    try:
        positions = list(keep)
    except TypeError:
        raise InvalidKeep(keep=repr(keep)) from None
    for position in positions:
        if isinstance(position, bool) or not isinstance(position, int):
            raise InvalidKeep(keep=repr(keep))
        if not 0 <= position < DICE:
            raise InvalidKeep(keep=positions)
    if len(set(positions)) != len(positions):
        raise InvalidKeep(keep=positions)
    return tuple(sorted(positions))
