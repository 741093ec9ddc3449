"""Maya and Mia's achievements (``bot.kernel.achievements``), read from a finished game's
event log:

- ``maya_real_maya``: announced Maya with a real Maya under the cup, and someone lifted it;
- ``maya_warrior``: facing a Maya, believed it as a Warrior and rolled a Maya;
- ``maya_untouched``: won a Mia game (lives) started with three lives or more without
  losing a single one, with at least one opponent eliminated (at one life, every winner
  is untouched; and a game everyone else left is no win to boast of);
- ``maya_ten_lifts``: ten lifts in a row that caught a bluff, over one's games of Maya
  and Mia on a server (a lift on a true announcement starts the count again).
"""

from __future__ import annotations

from collections.abc import Iterator

from bot.games.maya import values as d
from bot.games.maya.events import GameWon, LifeLost, PlayerEliminated, Revealed, WarriorRolled
from bot.kernel.achievements import Achievement, Feat, Finished, Streak, tournament_win

LIFTS_IN_A_ROW = 10
UNTOUCHED_LIVES = 3  # the fewest starting lives an untouched win counts with


def real_mayas_lifted(game: Finished) -> Iterator[int]:
    for event in game.events:
        if isinstance(event, Revealed) and event.announced == d.MAYA and event.value == d.MAYA:
            yield event.player


def warriors_who_made_it(game: Finished) -> Iterator[int]:
    for event in game.events:
        if isinstance(event, WarriorRolled) and event.success:
            yield event.player


def untouched_winners(game: Finished) -> Iterator[int]:
    rules = game.state.rules
    if not rules.lives or rules.vies < UNTOUCHED_LIVES:
        return
    events = game.events
    hurt = {e.player for e in events if isinstance(e, LifeLost) and e.lives > 0}
    if not any(isinstance(e, PlayerEliminated) for e in events):
        return
    for event in events:
        if isinstance(event, GameWon) and event.player not in hurt:
            yield event.player


def lifts(game: Finished) -> dict[int, list[bool]]:
    """Each lifter's lifts in order: True when the announcement was a bluff."""
    found: dict[int, list[bool]] = {}
    for event in game.events:
        if isinstance(event, Revealed):
            found.setdefault(event.lifter, []).append(not event.truthful)
    return found


ACHIEVEMENTS: tuple[Achievement, ...] = (
    Feat("maya_real_maya", real_mayas_lifted),
    Feat("maya_warrior", warriors_who_made_it),
    Feat("maya_untouched", untouched_winners),
    Streak("maya_ten_lifts", LIFTS_IN_A_ROW, lifts),
    tournament_win("maya"),
)
