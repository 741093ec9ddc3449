"""What the Discord layer and the web page draw: every round's matches, byes and results,
and in single elimination the rounds to come, down to the final."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from bot.tournaments import elimination, pools
from bot.tournaments.engine import winner
from bot.tournaments.model import (
    SINGLE_ELIMINATION,
    SWISS,
    Entrant,
    Format,
    Match,
    Round,
    Tournament,
)


class MatchStatus(StrEnum):
    UPCOMING = "upcoming"  # in a round not open yet
    PENDING = "pending"  # to be played
    PLAYED = "played"  # decided by a result or a forfeit
    BYE = "bye"  # a lone player goes on without playing (a walkover after round 1)
    EMPTY = "empty"  # nobody: both players before it forfeited


@dataclass(frozen=True, slots=True)
class BracketMatch:
    """``lines``: the players in seat order. In single elimination a match always has its
    two lines, None for nobody (a bye, a walkover) or someone not known yet."""

    id: str | None  # None in a round not open yet
    lines: tuple[int | None, ...]
    status: MatchStatus
    ranking: tuple[int, ...] = ()
    forfeited: tuple[int, ...] = ()
    advancing: tuple[int, ...] = ()  # who goes on: a duel's winner, a pool table's qualifiers


@dataclass(frozen=True, slots=True)
class BracketRound:
    number: int
    matches: tuple[BracketMatch, ...]  # none yet for a Swiss round still to be paired
    final: bool


@dataclass(frozen=True, slots=True)
class Bracket:
    format: Format
    entrants: tuple[Entrant, ...]  # in seed order
    rounds: tuple[BracketRound, ...]
    over: bool
    winner: int | None


def _status(match: Match) -> MatchStatus:
    if not match.decided:
        return MatchStatus.PENDING
    return (MatchStatus.EMPTY, MatchStatus.BYE, MatchStatus.PLAYED)[min(len(match.players), 2)]


def _drawn(match: Match, lines: tuple[int | None, ...], advancing: tuple[int, ...]) -> BracketMatch:
    return BracketMatch(
        match.id, lines, _status(match), match.ranking or (), match.forfeited, advancing
    )


def _advancing(match: Match) -> tuple[int, ...]:
    return () if match.winner is None else (match.winner,)


def _elimination(tournament: Tournament) -> tuple[BracketRound, ...]:
    total = elimination.total_rounds(len(tournament.entrants))
    lines = elimination.opening_lines(tournament.players)
    drawn: list[BracketRound] = []
    for number in range(1, total + 1):
        pairs = [lines[i : i + 2] for i in range(0, len(lines), 2)]
        if number <= len(tournament.rounds):
            opened = tournament.rounds[number - 1].matches
            matches = tuple(_drawn(m, p, _advancing(m)) for m, p in zip(opened, pairs, strict=True))
        else:
            matches = tuple(BracketMatch(None, p, MatchStatus.UPCOMING) for p in pairs)
        drawn.append(BracketRound(number, matches, final=number == total))
        # The next round's lines: who came through each match, None where nobody did yet.
        lines = tuple(m.advancing[0] if m.advancing else None for m in matches)
    return tuple(drawn)


def _opened(tournament: Tournament, round_: Round) -> BracketRound:
    per_table = tournament.options.qualifiers
    final = tournament.format != SWISS and pools.is_final(round_)
    matches = []
    for match in round_.matches:
        if tournament.format == SWISS or final:
            advancing = _advancing(match) if final else ()
        else:
            advancing = pools.qualifiers(match, per_table)
        matches.append(_drawn(match, match.players, advancing))
    return BracketRound(round_.number, tuple(matches), final)


def bracket(tournament: Tournament) -> Bracket:
    """The tournament as it stands, to draw."""
    if tournament.format == SINGLE_ELIMINATION:
        rounds = _elimination(tournament)
    else:
        rounds = tuple(_opened(tournament, round_) for round_ in tournament.rounds)
        if tournament.format == SWISS and not tournament.over:
            planned = tournament.options.rounds or 0
            rounds += tuple(
                BracketRound(number, (), final=False)
                for number in range(len(rounds) + 1, planned + 1)
            )
    return Bracket(
        tournament.format, tournament.entrants, rounds, tournament.over, winner(tournament)
    )
