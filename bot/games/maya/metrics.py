"""What a finished Maya or Mia game adds to the leaderboards, from its whole event log.

The log holds every die (private and secret events included), which is what tells a
bluff from a true announcement even when nobody lifted.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, fields

from bot.games.maya import values as d
from bot.games.maya.events import (
    Announced,
    Believed,
    CupDice,
    Drank,
    GameWon,
    LifeLost,
    MayaBelieved,
    PlayerEliminated,
    PlayerJoined,
    Revealed,
    Rolled,
    RoundAbandoned,
    RoundEnded,
    WarriorRolled,
)
from bot.games.maya.state import State
from bot.kernel.events import Event
from bot.kernel.spec import Board, Metric, Results

MAYA_BOARD = Board(
    "maya",
    tuple(
        Metric(name)
        for name in (
            "sips",
            "glasses",
            "made_drink",
            "bluffs_through",
            "bluffs_caught",
            "doubts_right",
            "doubts_wrong",
            "mayas",
            "fautes",
            "games",
        )
    ),
)
MIA_BOARD = Board(
    "mia",
    tuple(
        Metric(name)
        for name in (
            "wins",
            "games",
            "lives_lost",
            "made_drink",
            "bluffs_through",
            "bluffs_caught",
            "doubts_right",
            "doubts_wrong",
            "mayas",
        )
    ),
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

    def as_dict(self) -> dict[str, float]:
        return {f.name: getattr(self, f.name) for f in fields(self)}


@dataclass(slots=True)
class _Round:
    cups: dict[int, tuple[int, int] | None] = field(default_factory=dict)  # player -> real dice
    pending: tuple[int, bool] | None = None  # (announcer, bluffing) awaiting an answer
    blamed: int | None = None  # who made the next penalty happen


def maya_figures(events: Iterable[Event], players: Iterable[int]) -> dict[int, MayaFigures]:
    """Figures per player from a Maya/Mia event log."""
    figures: dict[int, MayaFigures] = {p: MayaFigures(games=1) for p in players}

    def of(player: int) -> MayaFigures:
        if player not in figures:
            figures[player] = MayaFigures(games=1)
        return figures[player]

    current = _Round()
    for event in events:
        match event:
            case CupDice(player=player, dice=dice):
                cup = (dice[0], dice[1])
                if current.cups.get(player) is None and d.read(cup) == d.MAYA:
                    of(player).mayas += 1
                current.cups[player] = cup
            case Rolled(player=player):
                current.cups[player] = None
            case Announced(player=player, value=value):
                under = current.cups.get(player)
                bluffing = under is not None and d.rank(d.read(under)) < d.rank(value)
                current.pending = (player, bluffing)
            case Believed() | MayaBelieved():
                if current.pending is not None:
                    announcer, bluffing = current.pending
                    if bluffing:
                        of(announcer).bluffs_through += 1
                    if isinstance(event, MayaBelieved) and event.style != "warrior":
                        current.blamed = announcer
                    current.pending = None
            case Revealed(lifter=lifter, player=announcer, truthful=truthful):
                if truthful:
                    of(lifter).doubts_wrong += 1
                    current.blamed = announcer
                else:
                    of(lifter).doubts_right += 1
                    of(announcer).bluffs_caught += 1
                    current.blamed = lifter
                current.pending = None
            case WarriorRolled(player=player, success=success, verifier=verifier):
                if success:
                    of(player).mayas += 1
                    current.blamed = player
                else:
                    current.blamed = verifier
            case Drank(player=player, sips=sips, glasses=glasses, reason=reason):
                mine = of(player)
                mine.sips += sips
                mine.glasses += glasses
                if reason == "faute":
                    mine.fautes += 1
                elif current.blamed is not None and current.blamed != player:
                    of(current.blamed).made_drink += sips + glasses
            case LifeLost(player=player, lives=lives):
                of(player).lives_lost += lives
                if current.blamed is not None and current.blamed != player:
                    of(current.blamed).made_drink += lives
            case GameWon(player=player):
                of(player).wins += 1
            case PlayerJoined(player=player):
                of(player)
            case RoundEnded() | RoundAbandoned():
                current = _Round()
    return figures


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
        first = [winner] if winner is not None and winner in figures else []
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


def results(state: State, events: Iterable[Event], humans: list[int]) -> Results:
    """A finished game's figures for its human players and their places."""
    events = list(events)
    figures = {
        player: numbers
        for player, numbers in maya_figures(events, humans).items()
        if player in humans
    }
    eliminated = [e.player for e in events if isinstance(e, PlayerEliminated)]
    ranking = maya_ranking(
        figures, lives=state.rules.lives, eliminated_order=eliminated, winner=state.winner
    )
    return Results(
        board=MIA_BOARD.name if state.rules.lives else MAYA_BOARD.name,
        figures={p: numbers.as_dict() for p, numbers in figures.items()},
        ranking=ranking,
    )
