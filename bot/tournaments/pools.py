"""Pools and a final table (docs/tournaments.md#pools): balanced, snake-seeded tables;
the best of each go on until one table holds everyone left, the final."""

from __future__ import annotations

import math

from bot.tournaments.model import Match, Round, Tournament, match_id
from bot.tournaments.seeding import snake


def is_final(round_: Round) -> bool:
    """A round of one table is the final: a pool round always has two tables or more."""
    return len(round_.matches) == 1


def qualifiers(match: Match, per_table: int) -> tuple[int, ...]:
    """Who goes on from a decided pool table: its best ``per_table``, never the whole table
    (so each pool round leaves someone behind), and never a player who forfeited."""
    if match.ranking is None:
        return ()
    best = match.ranking[: min(per_table, len(match.players) - 1)]
    return tuple(p for p in best if p not in match.forfeited)


def going_on(tournament: Tournament, round_: Round) -> tuple[int, ...]:
    """Everyone who goes on from a pool round, in seed order."""
    qualified = {
        p for match in round_.matches for p in qualifiers(match, tournament.options.qualifiers)
    }
    return tuple(p for p in tournament.players if p in qualified)


def tables(number: int, players: tuple[int, ...], seats: int) -> Round:
    """ceil(n / seats) tables for ``players`` (best first), snake-seeded."""
    dealt = snake(players, math.ceil(len(players) / seats))
    return Round(number, tuple(Match(match_id(number, i + 1), t) for i, t in enumerate(dealt)))


def next_round(tournament: Tournament) -> Round | None:
    """The first round, or the next from the current one's qualifiers; None after the final,
    or when fewer than two players go on (one alone wins, none: nobody wins)."""
    seats = tournament.options.seats
    if not tournament.rounds:
        return tables(1, tournament.players, seats)
    current = tournament.current
    if is_final(current):
        return None
    players = going_on(tournament, current)
    if len(players) < 2:
        return None
    return tables(current.number + 1, players, seats)
