"""Counting dice and comparing bids: what raises what, and how likely a bid holds."""

from __future__ import annotations

import math
from collections.abc import Iterable

from bot.games.menteur.rules import FACES, JOKER, BidValue


def count(dice_lists: Iterable[Iterable[int]], face: int, jokers: bool) -> int:
    """How many dice count for ``face``: with jokers, ones count for faces 2-6 (a bid on
    ones counts only ones)."""
    wild = jokers and face != JOKER
    return sum(1 for hand in dice_lists for pip in hand if pip == face or (wild and pip == JOKER))


def opening_faces(jokers: bool) -> tuple[int, ...]:
    """The faces an opening bid may name: 2-6, and ones too when they are not jokers."""
    return tuple(range(2, FACES + 1)) if jokers else tuple(range(1, FACES + 1))


def minimum_for(previous: BidValue | None, face: int, jokers: bool) -> int:
    """The smallest quantity a bid on ``face`` needs to follow ``previous`` (no upper cap)."""
    if previous is None:
        return 1
    quantity, last = previous
    if jokers and face == JOKER and last != JOKER:
        return math.ceil(quantity / 2)
    if jokers and face != JOKER and last == JOKER:
        return 2 * quantity + 1
    if jokers and face == JOKER:  # ones after ones
        return quantity + 1
    return quantity if face > last else quantity + 1


def raises(
    previous: BidValue | None, jokers: bool, total: int, locked: int | None = None
) -> list[BidValue]:
    """The smallest legal bid on each face (by face), with at most ``total`` dice; on
    ``locked`` alone when a Palifico round keeps the opening's face."""
    faces = opening_faces(jokers) if previous is None else tuple(range(1, FACES + 1))
    if locked is not None:
        faces = (locked,)
    found = []
    for face in faces:
        quantity = minimum_for(previous, face, jokers)
        if quantity <= total:
            found.append((quantity, face))
    return found


def probability_at_least(n_unknown: int, needed: int, face: int, jokers: bool) -> float:
    """The chance that at least ``needed`` of ``n_unknown`` hidden dice count for ``face``."""
    if needed <= 0:
        return 1.0
    if needed > n_unknown:
        return 0.0
    p = 2 / FACES if jokers and face != JOKER else 1 / FACES
    q = 1 - p
    return min(
        1.0,
        sum(
            math.comb(n_unknown, k) * p**k * q ** (n_unknown - k)
            for k in range(needed, n_unknown + 1)
        ),
    )
