"""Elo ratings, for duels and (pairwise) for bigger tables."""

from __future__ import annotations

import itertools
from collections.abc import Mapping

INITIAL_RATING = 1000.0
K_FACTOR = 32.0


def expected(rating: float, other: float) -> float:
    return 1.0 / (1.0 + 10 ** ((other - rating) / 400.0))


def elo(ratings: Mapping[int, float], ranking: list[list[int]]) -> dict[int, float]:
    """New ratings after one game: ``ranking`` lists tied groups, best first.

    Two players: plain Elo. More: every pair is a duel (won by the better placed, drawn
    within a group) and each player's change is the average over their duels, so a
    ten-player game moves a rating about as much as one duel.
    """
    players = [p for group in ranking for p in group]
    place = {p: i for i, group in enumerate(ranking) for p in group}
    change = dict.fromkeys(players, 0.0)
    for a, b in itertools.combinations(players, 2):
        score = 0.5 if place[a] == place[b] else (1.0 if place[a] < place[b] else 0.0)
        delta = K_FACTOR * (score - expected(ratings[a], ratings[b]))
        change[a] += delta
        change[b] -= delta
    opponents = max(1, len(players) - 1)
    return {p: ratings[p] + change[p] / opponents for p in players}
