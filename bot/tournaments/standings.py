"""Standings: every entrant's place, now or at the end, by the format's own order
(docs/tournaments.md#standings)."""

from __future__ import annotations

from dataclasses import dataclass

from bot.tournaments import elimination, pools, swiss
from bot.tournaments.model import SINGLE_ELIMINATION, SWISS, Match, Tournament


@dataclass(frozen=True, slots=True)
class Standing:
    """One entrant's line. ``score``: Swiss points; in single elimination the rounds come
    through (byes and walkovers too); in pools the pool rounds come through.
    ``wins``: matches (tables, in pools) won, byes not counted. ``buchholz``: Swiss only."""

    player: int
    place: int  # 1 first; in single elimination and pools equal achievements share a place
    seed: int
    score: int
    wins: int
    buchholz: int | None = None


def _wins(tournament: Tournament) -> dict[int, int]:
    """Matches won with an opponent at the table (the winner of a bye won nothing)."""
    won = dict.fromkeys(tournament.players, 0)
    for _, match in tournament.matches():
        if match.winner is not None and len(match.players) > 1:
            won[match.winner] += 1
    return won


def _elimination(tournament: Tournament) -> list[Standing]:
    total = elimination.total_rounds(len(tournament.entrants))
    through = dict.fromkeys(tournament.players, 0)
    for _, match in tournament.matches():
        if match.winner is not None:
            through[match.winner] += 1
    won = _wins(tournament)

    def place(player: int) -> int:
        # Out (or still to play) in the round of 2**k lines: you share place 2**(k-1) + 1.
        rounds = through[player]
        return 1 if rounds == total else 2 ** (total - rounds - 1) + 1

    rows = [
        Standing(p, place(p), tournament.seed(p), through[p], won[p]) for p in tournament.players
    ]
    return sorted(rows, key=lambda row: (row.place, row.seed))


def _swiss(tournament: Tournament) -> list[Standing]:
    found = swiss.records(tournament)
    return [
        Standing(
            player,
            place,
            tournament.seed(player),
            found[player].score,
            found[player].wins,
            swiss.buchholz(found, player),
        )
        for place, player in enumerate(swiss.ranked(tournament), start=1)
    ]


def _pools(tournament: Tournament) -> list[Standing]:
    last: dict[int, tuple[int, Match]] = {}  # each player's latest table
    for round_, match in tournament.matches():
        for player in match.players:
            last[player] = (round_.number, match)
    per_table = tournament.options.qualifiers

    def reached(player: int) -> tuple[int, int]:
        """(pool rounds come through, place at the table where they stopped; 0: still in)."""
        number, match = last[player]
        final = pools.is_final(tournament.rounds[number - 1])
        if not final and player in pools.qualifiers(match, per_table):
            return number, 0
        return number - 1, match.place(player) or 0

    won = _wins(tournament)
    keys = {p: (-reached(p)[0], reached(p)[1]) for p in tournament.players}
    rows = [
        # 1 + the number of players who went further, or as far but placed better.
        Standing(
            p, 1 + sum(k < keys[p] for k in keys.values()), tournament.seed(p), -key[0], won[p]
        )
        for p, key in keys.items()
    ]
    return sorted(rows, key=lambda row: (row.place, row.seed))


def standings(tournament: Tournament) -> list[Standing]:
    """Every entrant by place, best first (equal places by seed)."""
    if tournament.format == SINGLE_ELIMINATION:
        return _elimination(tournament)
    if tournament.format == SWISS:
        return _swiss(tournament)
    return _pools(tournament)
