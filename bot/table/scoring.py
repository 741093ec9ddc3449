"""Scoring a finished game: its figures, its players' Elo ratings, their streaks and the
achievements they earned, from its whole event log, read once.

``Scoring.score`` scores a game at its end, before the move that ends it is written (its
results are stored with that move); the pure steps it shares with the replay of past
games (``bot.table.backfill``) are the functions below, so that both score a game alike.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from bot.games import REGISTRY
from bot.kernel import rating
from bot.kernel.achievements import Awards, Finished, award
from bot.kernel.events import Event
from bot.kernel.spec import GameSpec
from bot.storage import EventRecord, GameResults, Held, Repository, StorageError
from bot.table.record import Table
from bot.table.seasons import Seasons

log = logging.getLogger(__name__)


def rebuilt(kind: GameSpec[Any, Any, Any], stored: Iterable[EventRecord]) -> list[Event]:
    """A stored event log as its game's events."""
    return [kind.events.build(e.type, e.payload, e.visibility, e.recipient) for e in stored]


def humans_of(state: Any, cpus: Collection[int]) -> tuple[int, ...]:
    """The players of a game who may score (never a CPU), in their seats' order."""
    return tuple(seat.player for seat in state.seats if seat.player not in cpus)


def finished(
    kind: GameSpec[Any, Any, Any],
    state: Any,
    events: Sequence[Event],
    humans: tuple[int, ...],
    rules: Any,
) -> Finished:
    """A finished game as its achievements read it: its final state, its whole event log
    and the figures its game counts for ``humans`` from them (``rules``: the table's)."""
    return Finished(state, events, humans, kind.results(state, events, list(humans), rules))


def places(table: Table) -> list[list[int]]:
    """A finished game's humans by place, best first (players sharing a place together),
    as its leaderboards rank them; none before its end."""
    if table.state is None or table.running:
        return []
    return (
        REGISTRY[table.kind]
        .results(table.state, table.event_log, table.humans(), table.rules)
        .ranking
    )


async def stored_places(repository: Repository, game_id: int) -> list[list[int]] | None:
    """``places`` of a stored game, read back (a restart's): None while it runs (or if it
    is unknown or was never started)."""
    found = await repository.game(game_id)
    if found is None or found.status in ("lobby", "active") or found.state is None:
        return None
    kind = REGISTRY[found.kind]
    events = rebuilt(kind, await repository.events(game_id))
    cpus = found.meta.get("cpus", {})
    humans = [player for player in found.meta["players"] if str(player) not in cpus]
    state = kind.state_from_json(found.state)
    return kind.results(state, events, humans, kind.rules_from_json(found.meta["rules"])).ranking


@dataclass(frozen=True, slots=True)
class Scored:
    """A finished game, scored: what it adds to the leaderboards, and the whole event log
    it was scored from (its end's standings read it too, rather than read it again)."""

    results: GameResults
    event_log: Sequence[Event]


class Scoring:
    """Scores the games that end on a server, and begins the server's season once one is
    counted."""

    def __init__(self, repository: Repository, seasons: Seasons) -> None:
        self.repository = repository
        self.seasons = seasons

    async def score(self, table: Table, state: Any, events: Sequence[Event]) -> Scored:
        """The finished game's figures, ratings and achievements for its human players (CPUs
        never count), from its whole event log (the stored one, and the events of its last
        move, ``events``, not stored yet)."""
        kind = REGISTRY[table.kind]
        humans = humans_of(state, table.cpus)
        # Read at once rather than one after the other (on PostgreSQL, each is a round trip).
        found = await asyncio.gather(
            self.repository.events(table.id),
            self.repository.streak_runs(table.guild_id, list(humans)) if humans else _nothing(),
            self.repository.achievements(table.guild_id, list(humans)) if humans else _nothing(),
            return_exceptions=True,  # each read ends before the move fails with the first error
        )
        for failed in found:
            if isinstance(failed, BaseException):
                raise failed
        stored, runs, held = found
        whole = [*rebuilt(kind, stored), *events]
        game = finished(kind, state, whole, humans, table.rules)
        results = game.results
        awards = _awards(kind, game, runs, held)
        ratings: dict[int, float] = {}
        rated_from: dict[int, float] = {}
        if len(results.figures) >= 2:
            known = await self.repository.ratings(
                table.guild_id, results.board, list(results.figures)
            )
            rated_from = {
                p: known[p].rating if p in known else rating.INITIAL_RATING for p in results.figures
            }
            ratings = rating.elo(rated_from, results.ranking)
        scored = GameResults(
            board=next(board for board in kind.boards if board.name == results.board),
            day=datetime.now(UTC).date().isoformat(),
            figures=results.figures,
            ratings=ratings,
            rated_from=rated_from,
            names={p: table.names[p] for p in results.figures if p in table.names},
            awards=awards,
        )
        return Scored(scored, whole)

    async def counted(self, table: Table) -> None:
        """A game was counted on the server: it has a current season from now on (its first
        one begins). The move stands whatever happens here; a later game tries again."""
        try:
            await self.seasons.counted(table.guild_id)
        except StorageError as error:
            log.warning("server %s: its season could not begin (%s)", table.guild_id, error)


async def _nothing() -> dict[Any, Any]:
    """What a read about no player gives, without reading."""
    return {}


def _awards(
    kind: GameSpec[Any, Any, Any],
    game: Finished,
    runs: Mapping[tuple[int, str], int],
    held: Mapping[int, Sequence[Held]],
) -> Awards:
    """What the game earned its humans that they do not hold yet on the server (what its
    end announces), and their streaks' runs after it."""
    if not game.humans:
        return Awards()
    awards = award(kind.achievements, game, runs)
    new = tuple(
        earned
        for earned in awards.earned
        if earned.code not in {h.code for h in held.get(earned.user_id, ())}
    )
    return Awards(new, awards.runs)
