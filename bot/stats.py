"""Leaderboard figures derived from a finished game's event log, and Elo ratings.

Pure functions: the storage layer calls them once, when a game ends, and writes the
result in the same transaction as the game's last events, so the leaderboard always
counts exactly what was played. The event log holds every die (private and secret
events included), which is what lets us tell a bluff from a true announcement even
when nobody lifted.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, fields
from typing import Any

from bot.engine import dice as d

MAYA_COLUMNS = (
    "games",
    "wins",
    "sips",
    "glasses",
    "made_drink",
    "lives_lost",
    "bluffs_caught",
    "bluffs_through",
    "doubts_right",
    "doubts_wrong",
    "mayas",
    "fautes",
)


@dataclass(slots=True)
class MayaFigures:
    """One player's figures for one game."""

    games: int = 0
    wins: int = 0
    sips: int = 0  # sips drunk
    glasses: int = 0  # whole glasses drunk
    made_drink: int = 0  # penalties (sips, glasses or lives) others paid because of this player
    lives_lost: int = 0
    bluffs_caught: int = 0  # this player's bluffs that were lifted
    bluffs_through: int = 0  # this player's bluffs that were believed
    doubts_right: int = 0  # lifts that caught a bluff
    doubts_wrong: int = 0  # lifts on a true announcement
    mayas: int = 0  # Mayas rolled
    fautes: int = 0  # fautes de jeu paid (accepted or voted guilty)

    def as_dict(self) -> dict[str, int]:
        return {f.name: getattr(self, f.name) for f in fields(self)}


@dataclass(slots=True)
class _Round:
    cups: dict[int, tuple[int, int] | None] = field(default_factory=dict)  # player -> real dice
    pending: tuple[int, bool] | None = None  # (announcer, bluffing) awaiting an answer
    blamed: int | None = None  # who made the next penalty happen


def maya_figures(
    events: Iterable[Mapping[str, Any]], players: Iterable[int]
) -> dict[int, MayaFigures]:
    """Figures per player from a Maya/Mia event log (``type`` and ``data`` of each event)."""
    figures: dict[int, MayaFigures] = {p: MayaFigures(games=1) for p in players}

    def of(player: int) -> MayaFigures:
        if player not in figures:
            figures[player] = MayaFigures(games=1)
        return figures[player]

    current = _Round()
    for event in events:
        kind = event["type"]
        data = event["data"]
        if kind == "dice":
            dice = (data["dice"][0], data["dice"][1])
            if current.cups.get(data["player"]) is None and d.read(dice) == d.MAYA:
                of(data["player"]).mayas += 1
            current.cups[data["player"]] = dice
        elif kind == "rolled":
            current.cups[data["player"]] = None
        elif kind == "announced":
            cup = current.cups.get(data["player"])
            bluffing = cup is not None and d.rank(d.read(cup)) < d.rank(data["value"])
            current.pending = (data["player"], bluffing)
        elif kind in ("believed", "maya_believed"):
            if current.pending is not None:
                announcer, bluffing = current.pending
                if bluffing:
                    of(announcer).bluffs_through += 1
                if kind == "maya_believed" and data["style"] != "warrior":
                    current.blamed = announcer
                current.pending = None
        elif kind == "revealed":
            lifter, announcer = data["lifter"], data["player"]
            if data["truthful"]:
                of(lifter).doubts_wrong += 1
                current.blamed = announcer
            else:
                of(lifter).doubts_right += 1
                of(announcer).bluffs_caught += 1
                current.blamed = lifter
            current.pending = None
        elif kind == "warrior_rolled":
            if data["success"]:
                of(data["player"]).mayas += 1
                current.blamed = data["player"]
            else:
                current.blamed = data["verifier"]
        elif kind == "drank":
            mine = of(data["player"])
            mine.sips += data["sips"]
            mine.glasses += data["glasses"]
            if data["reason"] == "faute":
                mine.fautes += 1
            elif current.blamed is not None and current.blamed != data["player"]:
                of(current.blamed).made_drink += data["sips"] + data["glasses"]
        elif kind == "life_lost":
            of(data["player"]).lives_lost += data["lives"]
            if current.blamed is not None and current.blamed != data["player"]:
                of(current.blamed).made_drink += data["lives"]
        elif kind == "game_won":
            of(data["player"]).wins += 1
        elif kind == "player_joined":
            of(data["player"])
        elif kind in ("round_ended", "round_abandoned"):
            current = _Round()
    return figures


# --------------------------------------------------------------------------- ratings

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


def maya_ranking(
    figures: Mapping[int, MayaFigures],
    *,
    lives: bool,
    eliminated_order: list[int],
    winner: int | None,
) -> list[list[int]]:
    """Final places: Mia by elimination (last out is best); Maya by the fewest penalties."""
    players = list(figures)
    if lives:
        out = [p for p in eliminated_order if p in figures]
        standing = [p for p in players if p not in out]
        first = [winner] if winner in figures else []
        rest = [p for p in standing if p != winner]
        groups = [first] if first else []
        if rest:
            groups.append(rest)
        groups.extend([p] for p in reversed(out))
        return [g for g in groups if g]
    cost = {p: f.sips + 5 * f.glasses for p, f in figures.items()}
    return [
        sorted(group)
        for _, group in itertools.groupby(sorted(players, key=lambda p: cost[p]), key=cost.get)
    ]
