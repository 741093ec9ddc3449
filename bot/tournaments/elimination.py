"""Single elimination (docs/tournaments.md#single-elimination): a bracket of the next
power of two, byes to the top seeds, the winners of two neighbouring matches meeting in
the next round."""

from __future__ import annotations

from bot.tournaments.model import Match, Round, Tournament, decided, match_id
from bot.tournaments.seeding import bracket_order, bracket_size


def total_rounds(entrants: int) -> int:
    """Rounds to the final: ceil(log2 n)."""
    return bracket_size(entrants).bit_length() - 1


def opening_lines(players: tuple[int, ...]) -> tuple[int | None, ...]:
    """The bracket's first-round lines, two by two: each seed's player, None for a seed
    beyond the entrants (its neighbour, a top seed, has a bye)."""
    count = len(players)
    return tuple(
        players[seed - 1] if seed <= count else None for seed in bracket_order(bracket_size(count))
    )


def table(number: int, index: int, players: tuple[int, ...]) -> Match:
    """Round ``number``'s ``index``-th match (from 0): to play with two players, else decided
    already (one: a bye or a walkover; none: an empty slot)."""
    match = Match(match_id(number, index + 1), players)
    return match if len(players) == 2 else decided(match.id, players)


def next_round(tournament: Tournament) -> Round | None:
    """The first round, or the next from the current one's winners; None after the final."""
    if not tournament.rounds:
        lines = opening_lines(tournament.players)
        sides = [
            tuple(p for p in lines[i : i + 2] if p is not None) for i in range(0, len(lines), 2)
        ]
        return Round(1, tuple(table(1, i, players) for i, players in enumerate(sides)))
    current = tournament.current
    if current.number == total_rounds(len(tournament.entrants)):
        return None
    number = current.number + 1
    feeders = current.matches
    sides = [
        tuple(w for m in feeders[i : i + 2] if (w := m.winner) is not None)
        for i in range(0, len(feeders), 2)
    ]
    return Round(number, tuple(table(number, i, players) for i, players in enumerate(sides)))
