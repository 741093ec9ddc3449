"""What a finished menteur game adds to the leaderboards, from its whole event log."""

from __future__ import annotations

from collections.abc import Sequence

from bot.games.menteur.events import DieLost, PlayerEliminated, PlayerLeft, Revealed
from bot.games.menteur.state import State
from bot.kernel.events import Event
from bot.kernel.spec import Board, Metric, Results

BOARD = Board(
    "menteur",
    tuple(
        Metric(name) for name in ("wins", "games", "dice_lost", "challenges_won", "challenges_lost")
    ),
)


def figures(
    state: State, events: Sequence[Event], humans: list[int]
) -> dict[int, dict[str, float]]:
    """Per human: games, wins, dice lost, challenges won and lost (as the challenger; a calza
    is not a challenge)."""
    found: dict[int, dict[str, float]] = {
        player: {
            "games": 1,
            "wins": 1 if state.winner == player else 0,
            "dice_lost": 0,
            "challenges_won": 0,
            "challenges_lost": 0,
        }
        for player in humans
    }
    for event in events:
        if isinstance(event, DieLost) and event.player in found:
            found[event.player]["dice_lost"] += 1
        elif (
            isinstance(event, Revealed) and event.call == "challenge" and event.challenger in found
        ):
            key = "challenges_lost" if event.holds else "challenges_won"
            found[event.challenger][key] += 1
    return found


def ranking(state: State, events: Sequence[Event], humans: list[int]) -> list[list[int]]:
    """The humans by elimination order, last out best; the winner first; those who left
    last, together; CPU seats never count."""
    out = [e.player for e in events if isinstance(e, PlayerEliminated | PlayerLeft)]
    places: list[list[int]] = []
    if state.winner is not None and state.winner in humans:
        places.append([state.winner])
    standing = [
        seat.player
        for seat in state.seats
        if seat.player in humans and seat.player != state.winner and seat.player not in out
    ]
    if standing:  # a stopped game: those still in share a place
        places.append(standing)
    left = {e.player for e in events if isinstance(e, PlayerLeft)}
    seen: set[int] = set()
    for player in reversed(out):
        if player in humans and player not in left and player not in seen:
            seen.add(player)
            places.append([player])
    gone = [p for p in humans if p in left and p != state.winner]
    return places + ([gone] if gone else [])


def results(state: State, events: Sequence[Event], humans: list[int]) -> Results:
    return Results(
        board=BOARD.name,
        figures=figures(state, events, humans),
        ranking=ranking(state, events, humans),
    )
