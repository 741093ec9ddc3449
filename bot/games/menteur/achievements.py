"""Dés du menteur's achievements (``bot.kernel.achievements``), read from a finished game:

- ``menteur_flawless``: won without losing a single die (at least one opponent eliminated:
  a game everyone else left is no win to boast of);
- ``menteur_last_die``: won holding one die;
- ``menteur_exact_calza``: an exact calza (the Calza option);
- ``menteur_ten_challenges``: ten challenges in a row that caught a false bid, over one's
  games on a server (a challenge of a bid that held starts the count again; a calza is no
  challenge).
"""

from __future__ import annotations

from collections.abc import Iterator

from bot.games.menteur.events import DieLost, GameWon, PlayerEliminated, Revealed
from bot.kernel.achievements import Achievement, Feat, Finished, Streak, tournament_win

CHALLENGES_IN_A_ROW = 10


def _won_by_elimination(game: Finished) -> Iterator[int]:
    if any(isinstance(e, PlayerEliminated) for e in game.events):
        yield from (e.player for e in game.events if isinstance(e, GameWon))


def flawless_winners(game: Finished) -> Iterator[int]:
    lost = {e.player for e in game.events if isinstance(e, DieLost)}
    return (player for player in _won_by_elimination(game) if player not in lost)


def last_die_winners(game: Finished) -> Iterator[int]:
    for player in _won_by_elimination(game):
        seat = game.state.seat(player)
        if seat is not None and seat.dice == 1:
            yield player


def exact_calzas(game: Finished) -> Iterator[int]:
    for event in game.events:
        if isinstance(event, Revealed) and event.call == "calza" and event.exact:
            yield event.challenger


def challenges(game: Finished) -> dict[int, list[bool]]:
    """Each challenger's challenges in order: True when the bid was false."""
    found: dict[int, list[bool]] = {}
    for event in game.events:
        if isinstance(event, Revealed) and event.call == "challenge":
            found.setdefault(event.challenger, []).append(not event.holds)
    return found


ACHIEVEMENTS: tuple[Achievement, ...] = (
    Feat("menteur_flawless", flawless_winners),
    Feat("menteur_last_die", last_die_winners),
    Feat("menteur_exact_calza", exact_calzas),
    Streak("menteur_ten_challenges", CHALLENGES_IN_A_ROW, challenges),
    tournament_win("menteur"),
)
