"""Dice to keep as players type them: positions ("1 3 5") or faces ("⚅⚅")."""

from __future__ import annotations

from collections.abc import Sequence

from bot.games.yades.rules import DICE, InvalidKeep
from bot.kernel.dice import FACES


def read_keep(text: str, dice: Sequence[int]) -> tuple[int, ...]:
    """The positions named by "1 3 5" (positions 1..5) or by faces ("⚅⚅", values taken
    from ``dice``, leftmost first)."""
    wanted_faces = [FACES.index(ch) + 1 for ch in text if ch in FACES]
    if wanted_faces:
        free = list(range(len(dice)))
        kept = []
        for pip in wanted_faces:
            spot = next((i for i in free if dice[i] == pip), None)
            if spot is None:
                raise InvalidKeep(keep=text)
            free.remove(spot)
            kept.append(spot)
        return tuple(sorted(kept))
    digits = [int(ch) for ch in text if ch in "0123456789"]  # "²" is no position
    if not digits or any(not 1 <= n <= DICE for n in digits) or len(set(digits)) != len(digits):
        raise InvalidKeep(keep=text)
    return tuple(sorted(n - 1 for n in digits))
