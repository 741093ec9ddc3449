"""Yadès' achievements (``bot.kernel.achievements``), read from a finished game:

- ``yades_prime``: a Yadès of Yadès, a second five of a kind scored once the Yadès box
  holds its points (the Prime Yadès box of the ``yades`` sheet, or the further Yahtzee's bonus of
  the ``classique`` sheet);
- ``yades_first_roll``: five of a kind on the first roll of a turn;
- ``yades_perfect``: a perfect game. The game came to its end with every sheet full, the
  player still at the table, and their decisions lost no points to the expert: the sum
  over their rolls and boxes of the expert's expected-value gap (the ``points_lost``
  figure of the leaderboard, to a tenth of a point) is 0.0.
"""

from __future__ import annotations

from collections.abc import Iterator

from bot.games.yades.events import BonusEarned, GameWon, Rolled, Scored
from bot.games.yades.rules import FIVE_BONUS, IN, PRIME
from bot.games.yades.scoring import is_five_of_a_kind
from bot.kernel.achievements import Achievement, Feat, Finished, tournament_win

SHEETS_FULL = "sheets_full"


def prime_yades(game: Finished) -> Iterator[int]:
    sheet = game.state.sheet
    for event in game.events:
        if isinstance(event, Scored) and event.points > 0:
            box = sheet.box(event.box)
            if box is not None and box.kind == PRIME:
                yield event.player
        elif isinstance(event, BonusEarned) and event.bonus == FIVE_BONUS:
            yield event.player


def first_roll_yades(game: Finished) -> Iterator[int]:
    for event in game.events:
        if isinstance(event, Rolled) and event.roll == 1 and is_five_of_a_kind(event.dice):
            yield event.player


def perfect_games(game: Finished) -> Iterator[int]:
    if not any(isinstance(e, GameWon) and e.reason == SHEETS_FULL for e in game.events):
        return
    for seat in game.state.seats:
        figures = game.results.figures.get(seat.player)
        if seat.status == IN and figures is not None and figures.get("points_lost") == 0:
            yield seat.player


ACHIEVEMENTS: tuple[Achievement, ...] = (
    Feat("yades_prime", prime_yades),
    Feat("yades_first_roll", first_roll_yades),
    Feat("yades_perfect", perfect_games),
    tournament_win("yades"),
)
