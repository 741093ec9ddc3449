"""CPU players for Yadès and Yahtzee (docs/rules.md#yades-cpu), and ``/yades conseil``'s advice.

``choose(view, legal, level, rng)`` picks one of ``legal`` (templates from
``yades.legal_actions``: the caller fills a roll's dice with ``yades.complete``). Every
roll is public, so the ``View`` holds all there is to know; a ``State`` is accepted too
and seen from the seat of the player the legal actions belong to.

The levels:

- ``facile`` scores at once when a made hand fits (a full, a straight, five alike),
  otherwise keeps its most common face (or the run towards an open straight) and, after
  the third roll, fills the box that scores most now; with nothing to score it scratches
  the box worth least on average.
- ``moyen`` values each box as its points against what the box is usually worth, with a
  premium for upper points above three of a face while the upper bonus is within reach;
  it keeps the dice that maximise that value exactly over the rolls left
  (``solver.plan``), which chases the bonus, the fives of a kind and the straights.
- ``expert`` plays the optimal solitaire strategy of the sheet in use: the choice of
  highest expected final score, from the dynamic-programming table of
  ``solver`` (built once per sheet; ``bot.yades_tables`` caches it in ``GOBELET_DATA_DIR``). It
  maximises its own expected score and ignores the opponents' sheets.

``advice(view)`` lists every choice of the viewing player's turn with the final total
it leads to under optimal play and what it costs against the best one.
"""

import random
from collections.abc import Iterator
from dataclasses import dataclass

from bot.games import yades as y
from bot.games.yades import solver
from bot.kernel.levels import DIFFICILE, FACILE, MOYEN

EXPERT = "expert"
LEVELS: tuple[str, ...] = (FACILE, MOYEN, EXPERT)

# Made hands ``facile`` scores as soon as they fit.
_MADE = (y.FULL_HOUSE, y.STRAIGHT, y.FIVE_OF_A_KIND, y.PRIME)


@dataclass(frozen=True, slots=True)
class Advice:
    """One choice of a turn: ``action`` (a roll's dice left to ``complete``), the final total
    expected with it under optimal play, and the expected points it loses against the best."""

    action: y.Action
    expected_total: float
    loss: float

    def __iter__(self) -> Iterator[y.Action | float]:
        return iter((self.action, self.expected_total, self.loss))


def choose(view: y.View, legal: list[y.Action], level: str, rng: random.Random) -> y.Action:
    """One of ``legal`` (``view.player``'s) at ``level``; ``rng`` is the only randomness used.

    A CPU never leaves: without a roll or a box to fill it raises ``ValueError`` (``acts``
    tells).
    """
    level = _level(level)
    turn = [action for action in legal if isinstance(action, y.Roll | y.Score)]
    if not turn or view.player is None:
        raise ValueError("no action a CPU plays among the legal ones")
    seen = view
    if seen.rolls == 0 or seen.dice is None:
        return turn[0]
    if level == FACILE:
        option = _facile(seen, rng)
    elif level == MOYEN:
        option = _moyen(seen)
    else:
        option = solver.strategy_for(seen.rules.sheet).options(seen.boxes, seen.rolls, seen.dice)[0]
    action = _action(option, view.player)
    if action not in legal:
        raise ValueError(f"the {level} CPU chose {action!r}, which is not legal")
    return action


def acts(legal: list[y.Action]) -> bool:
    """Whether ``choose`` has something to play among ``legal``."""
    return any(isinstance(action, y.Roll | y.Score) for action in legal)


def advice(seen: y.View) -> list[Advice]:
    """Every choice of ``seen.player``'s turn, best first, judged by the optimal strategy.

    Empty when it is not their turn. Blocking the first time a sheet is met (its table is
    solved: see ``cogs.yades.expert``, which loads them ahead).
    """
    if seen.phase != y.PLAY or seen.player is None or seen.current != seen.player:
        return []
    sheet = seen.rules.sheet
    banked = y.sheet_totals(sheet, seen.boxes, seen.five_bonus).total
    options = solver.strategy_for(sheet).options(seen.boxes, seen.rolls, seen.dice)
    best = options[0].value
    return [
        Advice(_action(option, seen.player), banked + option.value, best - option.value)
        for option in options
    ]


def expected_score(sheet: y.Sheet) -> float:
    """The average final score of optimal solitaire play on an empty ``sheet``."""
    return solver.strategy_for(sheet).expected


def _level(level: str) -> str:
    if level == DIFFICILE:
        return EXPERT
    if level not in LEVELS:
        raise ValueError(f"unknown level {level!r}")
    return level


def _action(option: solver.Option, player: int) -> y.Action:
    if option.keep is not None:
        return y.Roll(player, option.keep)
    assert option.box is not None
    return y.Score(player, option.box)


# --------------------------------------------------------------------------- facile


def _facile(view: y.View, rng: random.Random) -> solver.Option:
    sheet, filled, dice = view.rules.sheet, view.boxes, view.dice
    assert dice is not None
    allowed = y.allowed_boxes(sheet, filled, dice)
    points = {box.id: y.points(sheet, box, dice, filled) for box in allowed}
    if view.rolls < y.MAX_ROLLS:
        made = [box for box in allowed if box.kind in _MADE and points[box.id] > 0]
        if made:
            return solver.Option(0.0, box=max(made, key=lambda box: points[box.id]).id)
        keep = _simple_keep(dice, allowed)
        if len(keep) < y.DICE:
            return solver.Option(0.0, keep=keep)
    best = max(points.values())
    if best == 0:
        return solver.Option(0.0, box=min(allowed, key=lambda box: _worth(box, filled, sheet)).id)
    return solver.Option(0.0, box=rng.choice([box for box in points if points[box] == best]))


def _simple_keep(dice: y.Dice, allowed: list[y.Box]) -> tuple[int, ...]:
    """The run towards an open straight when three faces follow, else the most common face."""
    straights = [box.count for box in allowed if box.kind == y.STRAIGHT]
    run = _longest_run_faces(dice)
    if straights and len(run) >= 3 and len(run) < max(straights):
        return tuple(sorted(dice.index(face) for face in run))
    tally = y.counts(dice)
    face = max(range(1, y.FACES + 1), key=lambda f: (tally[f - 1], f))
    return tuple(i for i, pip in enumerate(dice) if pip == face)


def _longest_run_faces(dice: y.Dice) -> list[int]:
    present = set(dice)
    best: list[int] = []
    run: list[int] = []
    for face in range(1, y.FACES + 1):
        run = [*run, face] if face in present else []
        if len(run) > len(best):
            best = run
    return best


# --------------------------------------------------------------------------- moyen


def _worth(box: y.Box, filled: dict[str, int], sheet: y.Sheet) -> float:
    """Roughly what a box scores on average when kept open for good play."""
    kind = box.kind
    if kind == y.FACE:
        return 2.8 * box.face
    if kind == y.CHANCE:
        return 22.0
    if kind == y.OF_A_KIND:
        usual = {2: 0.85, 3: 0.6, 4: 0.35, 5: 0.1}[box.count]
        return usual * (box.points or 30)
    if kind == y.FULL_HOUSE:
        return 0.8 * box.points
    if kind == y.STRAIGHT:
        return {2: 0.97, 3: 0.92, 4: 0.8, 5: 0.6}[box.count] * box.points
    five = sheet.five_box
    if kind == y.FIVE_OF_A_KIND:
        return 0.3 * box.points
    # PRIME: a second five of a kind, only once the first is on the sheet.
    if five is not None and five.id in filled and filled[five.id] == 0:
        return 0.0
    return (0.2 if y.primed(sheet, filled) else 0.1) * box.points


def _moyen(view: y.View) -> solver.Option:
    sheet, filled = view.rules.sheet, view.boxes
    assert view.dice is not None
    progress = y.sheet_bonus_progress(sheet, filled)
    chasing = sheet.bonus_points and not progress.earned and progress.reachable
    premium = sheet.bonus_points / progress.target if chasing else 0.0
    gain: list[float] = []
    offset: list[float] = []
    for box in sheet.boxes:
        if box.kind == y.FACE and box.section == y.UPPER:
            # Points above three of the face bring the bonus closer; below, they push it away.
            gain.append(1.0 + premium)
            offset.append(-premium * 3 * box.face - _worth(box, filled, sheet))
        else:
            gain.append(1.0)
            offset.append(-_worth(box, filled, sheet))
    return solver.plan(sheet, filled, view.rolls, view.dice, gain, offset)[0]
