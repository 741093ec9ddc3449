"""Swiss rounds (docs/tournaments.md#swiss): each round pairs players of equal standing
who have not met, top-down, and an odd count gives the lowest-ranked player without one a
bye."""

from __future__ import annotations

from dataclasses import dataclass, field

from bot.tournaments.matching import top_down
from bot.tournaments.model import Match, Round, Tournament, decided, match_id

WIN = 1  # a won match, by play or by the opponent's forfeit
BYE = 1  # a bye is worth a win


@dataclass(slots=True)
class Record:
    """One player's decided matches so far."""

    score: int = 0
    wins: int = 0  # matches won against an opponent (a bye is not one)
    byes: int = 0
    opponents: list[int] = field(default_factory=list)  # everyone paired with, forfeits too


def records(tournament: Tournament) -> dict[int, Record]:
    """Every entrant's record from the decided matches."""
    found = {player: Record() for player in tournament.players}
    for _, match in tournament.matches():
        if not match.decided:
            continue
        if match.bye:
            found[match.players[0]].score += BYE
            found[match.players[0]].byes += 1
            continue
        first, second = match.players
        found[first].opponents.append(second)
        found[second].opponents.append(first)
        winner = match.winner
        if winner is not None:  # both absent: nobody scores
            found[winner].score += WIN
            found[winner].wins += 1
    return found


def buchholz(found: dict[int, Record], player: int) -> int:
    """The sum of the scores of the opponents ``player`` was paired with, a bye adding 0
    (docs/tournaments.md#swiss-tie-breaks)."""
    return sum(found[opponent].score for opponent in found[player].opponents)


def ranked(tournament: Tournament) -> list[int]:
    """The players by score, then Buchholz, then wins, then seed; those who withdrew after
    everyone still in (docs/tournaments.md#withdrawals)."""
    found = records(tournament)
    seeds = {player: i for i, player in enumerate(tournament.players)}
    out = set(tournament.withdrawn)
    return sorted(
        tournament.players,
        key=lambda p: (p in out, -found[p].score, -buchholz(found, p), -found[p].wins, seeds[p]),
    )


def pairing(tournament: Tournament) -> tuple[list[tuple[int, int]], int | None] | None:
    """This round's pairs (top board first) and the bye (None with an even count); None
    when every pairing would have two players meet again, or give someone a second bye
    (docs/tournaments.md#swiss-pairing)."""
    order = [p for p in ranked(tournament) if p not in tournament.withdrawn]
    found = records(tournament)
    met = {frozenset((p, o)) for p in order for o in found[p].opponents}

    def allowed(a: int, b: int) -> bool:
        return frozenset((a, b)) not in met

    if len(order) % 2 == 0:
        pairs = top_down(order, allowed)
        return None if pairs is None else (pairs, None)
    for bye in reversed(order):  # the lowest-ranked who can take it and leave a pairing
        if found[bye].byes:
            continue
        pairs = top_down([p for p in order if p != bye], allowed)
        if pairs is not None:
            return pairs, bye
    return None


def next_round(tournament: Tournament) -> Round | None:
    """The next round's pairings; None once the planned rounds are played, or when no
    pairing without a rematch is left (the tournament then ends early)."""
    number = len(tournament.rounds) + 1
    if number > (tournament.options.rounds or 0):
        return None
    found = pairing(tournament)
    if found is None:
        return None
    pairs, bye = found
    matches = [Match(match_id(number, i + 1), pair) for i, pair in enumerate(pairs)]
    if bye is not None:
        matches.append(decided(match_id(number, len(matches) + 1), (bye,)))
    return Round(number, tuple(matches))
