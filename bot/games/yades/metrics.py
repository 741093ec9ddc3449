"""What a finished Yadès game adds to the leaderboards, from its whole event log."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from bot.games.yades import cpu
from bot.games.yades.actions import Action, Roll, Score, kept_positions
from bot.games.yades.engine import replay
from bot.games.yades.events import BonusEarned, PlayerLeft, Rolled, Scored, TurnPassed
from bot.games.yades.rules import IN
from bot.games.yades.scoring import is_five_of_a_kind
from bot.games.yades.sheet import Rules
from bot.games.yades.state import State, new_game, totals
from bot.games.yades.view import view
from bot.kernel.events import Event
from bot.kernel.spec import Aggregate, Better, Board, Metric, Results

BOARD = Board(
    "yades",
    (
        Metric("wins"),
        Metric("games"),
        Metric("best_score", Aggregate.MAX),
        Metric("avg_score", Aggregate.MEAN, stored="total_score"),
        Metric("yades_rolled"),
        # Expected points lost to perfect play: fewest first, zero the best of all.
        Metric("avg_points_lost", Aggregate.MEAN, Better.LOWER, stored="points_lost"),
        Metric("stake_won"),
        Metric("stake_lost"),
    ),
)


@dataclass(frozen=True, slots=True)
class YadesSetup:
    """A Yadès table's rules: the engine's sheet, and the stake (*mise*) of a challenge.

    The stake is in leaderboard points: when a game with a stake ends with one winner,
    the winner's ``stake_won`` and every other human's ``stake_lost`` grow by it
    (docs/rules.md#yades-mise); a shared win moves no stake.
    """

    rules: Rules
    mise: int = 0


def results(state: State, events: Sequence[Event], humans: list[int], mise: int) -> Results:
    """A finished game's figures for its human players and their places."""
    final = {seat.player: totals(state, seat.player).total for seat in state.seats}
    lost = points_lost(state, events, humans)
    figures: dict[int, dict[str, float]] = {}
    for player in humans:
        total = final.get(player, 0)
        figures[player] = {
            "games": 1,
            "wins": 1 if player in state.winners else 0,
            "best_score": total,
            "total_score": total,
            "yades_rolled": sum(
                1
                for e in events
                if isinstance(e, Rolled) and e.player == player and is_five_of_a_kind(e.dice)
            ),
            "points_lost": round(lost.get(player, 0.0), 1),
        }
    if mise and len(state.winners) == 1 and state.winners[0] in figures:
        for player, numbers in figures.items():
            key = "stake_won" if player in state.winners else "stake_lost"
            numbers[key] = mise
    return Results(board=BOARD.name, figures=figures, ranking=ranking(state, humans))


def ranking(state: State, humans: list[int]) -> list[list[int]]:
    """The humans by final total, best first (equal totals share a place); those who left
    come last, together."""
    staying: dict[int, list[int]] = {}
    gone = []
    for seat in state.seats:
        if seat.player not in humans:
            continue
        if seat.status != IN:
            gone.append(seat.player)
            continue
        staying.setdefault(totals(state, seat.player).total, []).append(seat.player)
    places = [staying[total] for total in sorted(staying, reverse=True)]
    return places + ([gone] if gone else [])


_REPLAYED = (Rolled, Scored, BonusEarned, TurnPassed, PlayerLeft)


def points_lost(state: State, events: Sequence[Event], humans: list[int]) -> dict[int, float]:
    """Per human: the expected points their decisions lost against perfect play.

    The game is replayed from its first state; before each roll after the first and each
    box filled by a human, ``cpu.advice`` prices the choice made. A turn the CPU played
    for an absent player counts as theirs.
    """
    current = new_game([seat.player for seat in state.seats], state.rules)
    lost = dict.fromkeys(humans, 0.0)
    for event in events:
        if not isinstance(event, _REPLAYED):
            continue
        player = event.player
        if player in lost and current.current == player and current.rolls > 0:
            chosen: Action | None = None
            if isinstance(event, Rolled):
                chosen = Roll(player, tuple(event.kept))
            elif isinstance(event, Scored):
                chosen = Score(player, event.box)
            if chosen is not None:
                lost[player] += _loss(current, player, chosen)
        current = replay(current, [event])
    return lost


def _loss(state: State, player: int, chosen: Action) -> float:
    def kept(action: Roll) -> list[int]:
        # Keeping a 2 from the first or the third position is the same choice.
        assert state.dice is not None
        return sorted(state.dice[i] for i in kept_positions(action.keep))

    for advice in cpu.advice(view(state, player)):
        action = advice.action
        same_box = (
            isinstance(chosen, Score) and isinstance(action, Score) and action.box == chosen.box
        )
        same_keep = (
            isinstance(chosen, Roll) and isinstance(action, Roll) and kept(action) == kept(chosen)
        )
        if same_box or same_keep:
            return advice.loss
    return 0.0
