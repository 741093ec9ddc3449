"""Playing a tournament through from the tests: the loop the ``/tournoi`` layer will run."""

from __future__ import annotations

import json
from collections.abc import Callable

from bot.tournaments import (
    Entrant,
    Match,
    Tournament,
    advance,
    forfeit,
    is_over,
    pending_matches,
    record,
)

# What happens at a table: its ranking of the present players, or a forfeit of the absent.
Decide = Callable[[Match], tuple[str, tuple[int, ...]]]


def entrants(count: int, first: int = 1) -> list[Entrant]:
    """``count`` players with ids from ``first``, rated so that the ids are the seeds."""
    return [Entrant(first + i, 2000.0 - 10 * i) for i in range(count)]


def by_seed(match: Match) -> tuple[str, tuple[int, ...]]:
    """The better seed (the lower id, with ``entrants``) wins every table."""
    return "record", tuple(sorted(match.present))


def round_trip(tournament: Tournament) -> Tournament:
    return Tournament.from_json(json.loads(json.dumps(tournament.to_json())))


def play_round(tournament: Tournament, decide: Decide = by_seed) -> Tournament:
    """Every pending match of the current round decided (a table left short by forfeits
    is then played among those present)."""
    while pending := pending_matches(tournament):
        match = pending[0]
        how, players = decide(match)
        if how == "forfeit":
            tournament = forfeit(tournament, match.id, players)
        else:
            tournament = record(tournament, match.id, players)
    return tournament


def play_out(
    tournament: Tournament, decide: Decide = by_seed, check: Callable[[Tournament], None] = id
) -> Tournament:
    """Round after round until the end; ``check`` sees every state on the way."""
    check(tournament)
    while not is_over(tournament):
        tournament = play_round(tournament, decide)
        check(tournament)
        tournament = advance(tournament)
        check(tournament)
    return tournament


def script(results: dict[str, tuple[int, ...]]) -> Decide:
    """Each match's ranking by id; a match not named goes to the better seed."""

    def decide(match: Match) -> tuple[str, tuple[int, ...]]:
        return ("record", results[match.id]) if match.id in results else by_seed(match)

    return decide
