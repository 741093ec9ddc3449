"""Achievements (*succès*): what a player earns once per server, declared by each game as
a short list and detected from a finished game alone (its final state, its whole event
log and its figures), so that the end of a game and the migration that backfills past
games run the same code.

Two kinds:

- a ``Feat`` is done within one game (a Warrior who made it): ``earned_by`` names the
  humans who did it;
- a ``Streak`` is ``length`` tries right in a row, counted across a player's games on a
  server in the order they ended (ten lifts that caught a bluff): ``tries`` gives each
  human's tries in one game, in order (True: right). The run a player has going is
  stored between games (``Run``); a wrong try starts it again from zero.

Only humans earn anything: ``Finished.humans`` leaves the CPU seats out.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from bot.kernel.events import Event
from bot.kernel.results import Results


@dataclass(frozen=True, slots=True)
class Finished:
    """A finished (or stopped) game, as achievements read it."""

    state: Any  # the game's final state
    events: Sequence[Event]  # its whole event log, hidden dice included
    humans: tuple[int, ...]  # who may earn something (never a CPU)
    results: Results  # its figures, as counted on the leaderboards


@dataclass(frozen=True, slots=True)
class Feat:
    """Done within one game: ``earned_by`` names the players who did it (humans or not:
    only humans are kept)."""

    code: str  # stored, unique among every game's achievements
    earned_by: Callable[[Finished], Iterable[int]]


@dataclass(frozen=True, slots=True)
class Streak:
    """``length`` tries right in a row, across a player's games on one server."""

    code: str
    length: int
    tries: Callable[[Finished], Mapping[int, Sequence[bool]]]


Achievement = Feat | Streak


@dataclass(frozen=True, slots=True)
class Earned:
    user_id: int
    code: str


@dataclass(frozen=True, slots=True)
class Run:
    """A streak's run after one game, as the store keeps it: ``restarted`` (a wrong try in
    the game), the run is ``length``; otherwise the game adds ``length`` to the run held
    (added rather than set, as ratings are: two games ending at once both count)."""

    user_id: int
    code: str
    length: int
    restarted: bool


@dataclass(frozen=True, slots=True)
class Awards:
    """What a finished game earns: achievements (a player may already hold some: they are
    earned once per server, the store keeps the first), and the streaks' runs after it."""

    earned: tuple[Earned, ...] = ()
    runs: tuple[Run, ...] = ()


def _no_game_alone(game: Finished) -> Iterable[int]:
    return ()


def tournament_win(game: str) -> Feat:
    """Winning a tournament of ``game`` (``{game}_tournament``): no game earns it alone; the
    tournament gives it to its winner, with the last game they played in it."""
    return Feat(f"{game}_tournament", _no_game_alone)


def award(
    declared: Sequence[Achievement],
    game: Finished,
    runs: Mapping[tuple[int, str], int] | None = None,
) -> Awards:
    """The achievements the humans of ``game`` earned in it, and their streaks' runs after
    it; ``runs``: each (player, streak code)'s run before the game (none: zero)."""
    before = runs or {}
    humans = set(game.humans)
    earned: list[Earned] = []
    after: list[Run] = []
    for achievement in declared:
        if isinstance(achievement, Feat):
            done = set(achievement.earned_by(game)) & humans
            earned += [Earned(player, achievement.code) for player in sorted(done)]
            continue
        for player, tries in sorted(achievement.tries(game).items()):
            if player not in humans or not tries:
                continue
            run = before.get((player, achievement.code), 0)
            reached = restarted = False
            for right in tries:
                if right:
                    run += 1
                    reached = reached or run >= achievement.length
                else:
                    run, restarted = 0, True
            if reached:
                earned.append(Earned(player, achievement.code))
            added = run if restarted else len(tries)
            after.append(Run(player, achievement.code, added, restarted))
    return Awards(tuple(earned), tuple(after))


def codes(declared: Iterable[Achievement]) -> tuple[str, ...]:
    return tuple(achievement.code for achievement in declared)
