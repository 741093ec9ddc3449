"""Running a tournament: start it, record each match's result or forfeit, open the next
round, and say who won. Every function returns a new ``Tournament`` or raises a
``TournamentError`` and changes nothing.

The caller's loop: ``start``; for each of ``pending_matches``, ``record`` its ranking (or
``forfeit`` it at the round's deadline); once none is pending, ``advance``; until
``is_over``. A round may open with nothing pending (byes, walkovers): advance again.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from dataclasses import replace

from bot.tournaments import elimination, pools, swiss
from bot.tournaments.errors import (
    DuplicateEntrant,
    InvalidRanking,
    MatchDecided,
    NotEntrant,
    NotInMatch,
    RoundNotOver,
    TooFewEntrants,
    TournamentOver,
    UnknownMatch,
)
from bot.tournaments.model import (
    MIN_ENTRANTS,
    OVER,
    POOLS,
    SINGLE_ELIMINATION,
    SWISS,
    Entrant,
    Format,
    Match,
    Options,
    Round,
    Tournament,
)
from bot.tournaments.seeding import seed_order
from bot.tournaments.standings import standings

NEXT_ROUND: dict[Format, Callable[[Tournament], Round | None]] = {
    SINGLE_ELIMINATION: elimination.next_round,
    SWISS: swiss.next_round,
    POOLS: pools.next_round,
}


def start(entrants: Sequence[Entrant], options: Options) -> Tournament:
    """A tournament seeded by rating (ties: the order of ``entrants``), its first round open."""
    if len(entrants) < MIN_ENTRANTS:
        raise TooFewEntrants(count=len(entrants), minimum=MIN_ENTRANTS)
    seen: set[int] = set()
    for entrant in entrants:
        if entrant.player in seen:
            raise DuplicateEntrant(player=entrant.player)
        seen.add(entrant.player)
    options = options.resolved(len(entrants))
    tournament = Tournament(options, seed_order(entrants), ())
    first = NEXT_ROUND[options.format](tournament)
    assert first is not None  # two entrants always make a first round
    return replace(tournament, rounds=(first,))


def current_round(tournament: Tournament) -> Round:
    return tournament.current


def pending_matches(tournament: Tournament) -> tuple[Match, ...]:
    """The current round's matches still to be decided (none once the tournament is over)."""
    if tournament.over:
        return ()
    return tuple(match for match in tournament.current.matches if not match.decided)


def is_over(tournament: Tournament) -> bool:
    return tournament.over


def _open_match(tournament: Tournament, match_id: str) -> Match:
    if tournament.over:
        raise TournamentOver()
    match = next((m for m in tournament.current.matches if m.id == match_id), None)
    if match is None:
        raise UnknownMatch(match=match_id)
    if match.decided:
        raise MatchDecided(match=match_id)
    return match


def _with(tournament: Tournament, match: Match) -> Tournament:
    current = tournament.current
    matches = tuple(match if m.id == match.id else m for m in current.matches)
    return replace(tournament, rounds=(*tournament.rounds[:-1], replace(current, matches=matches)))


def record(tournament: Tournament, match_id: str, ranking: Sequence[int]) -> Tournament:
    """Match ``match_id`` played: ``ranking`` orders its present players, best first, with
    no tie (those who forfeited follow, in seat order)."""
    match = _open_match(tournament, match_id)
    ranking = tuple(ranking)
    if len(set(ranking)) != len(ranking) or set(ranking) != set(match.present):
        raise InvalidRanking(match=match_id, expected=list(match.present), got=list(ranking))
    return _with(tournament, replace(match, ranking=ranking + match.forfeited))


def forfeit(tournament: Tournament, match_id: str, absent: Collection[int]) -> Tournament:
    """``absent`` were missing at match ``match_id`` at the round's deadline. They rank last
    at that table, in seat order; with two players or more left the table is still to be
    played among them, else it is decided: the one left wins (none left: nobody does).
    See docs/tournaments.md#forfeits."""
    match = _open_match(tournament, match_id)
    strangers = set(absent) - set(match.players)
    if not absent or strangers:
        raise NotInMatch(match=match_id, players=sorted(strangers))
    gone = set(absent) | set(match.forfeited)
    forfeited = tuple(p for p in match.players if p in gone)
    match = replace(match, forfeited=forfeited)
    if len(match.present) < 2:
        match = replace(match, ranking=match.present + forfeited)
    return _with(tournament, match)


def withdraw(tournament: Tournament, player: int) -> Tournament:
    """``player`` leaves the tournament: their match of the current round, if still to be
    decided, is forfeited, and they play no other (docs/tournaments.md#withdrawals)."""
    if tournament.over:
        raise TournamentOver()
    if player not in tournament.players or player in tournament.withdrawn:
        raise NotEntrant(player=player)
    tournament = replace(tournament, withdrawn=(*tournament.withdrawn, player))
    return _forfeit_withdrawn(tournament)


def _forfeit_withdrawn(tournament: Tournament) -> Tournament:
    """The withdrawn players forfeit the current round's matches still to be decided."""
    for match in pending_matches(tournament):
        gone = [p for p in match.present if p in tournament.withdrawn]
        if gone:
            tournament = forfeit(tournament, match.id, gone)
    return tournament


def advance(tournament: Tournament) -> Tournament:
    """The next round opened, once every match of the current one is decided; or, after the
    last round, the tournament over. A withdrawn player drawn in it forfeits at once."""
    if tournament.over:
        raise TournamentOver()
    pending = pending_matches(tournament)
    if pending:
        raise RoundNotOver(pending=[match.id for match in pending])
    following = NEXT_ROUND[tournament.format](tournament)
    if following is None:
        return replace(tournament, status=OVER)
    return _forfeit_withdrawn(replace(tournament, rounds=(*tournament.rounds, following)))


def winner(tournament: Tournament) -> int | None:
    """The tournament's winner once it is over; None before, or when nobody won (everyone
    left in a final, or a last pool round, forfeited)."""
    if not tournament.over:
        return None
    last = tournament.current
    if tournament.format == SWISS:
        return standings(tournament)[0].player
    if tournament.format == SINGLE_ELIMINATION or pools.is_final(last):
        return last.matches[0].winner
    qualified = pools.going_on(tournament, last)
    return qualified[0] if len(qualified) == 1 else None
