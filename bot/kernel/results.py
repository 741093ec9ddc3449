"""What a finished game adds to one leaderboard (``GameSpec.results``; the achievements read
it too)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Results:
    """What a finished game adds to one board: figures per human, and their places."""

    board: str
    figures: dict[int, dict[str, float]]
    ranking: list[list[int]]  # tied groups, best first
