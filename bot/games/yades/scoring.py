"""What dice score: box by box, the joker rule, the bonuses and the totals."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from bot.games.yades.rules import (
    CHANCE,
    DICE,
    FACE,
    FACES,
    FIVE_OF_A_KIND,
    FORCED_JOKER,
    FREE_JOKER,
    FULL_HOUSE,
    LOWER,
    NO_JOKER,
    OF_A_KIND,
    PRIME,
    STRAIGHT,
    UPPER,
    Dice,
)
from bot.games.yades.sheet import Box, Sheet
from bot.kernel.errors import InvalidRules


def counts(dice: Iterable[int]) -> tuple[int, ...]:
    """How many dice show each face, faces 1..6."""
    tally = [0] * FACES
    for pip in dice:
        tally[pip - 1] += 1
    return tuple(tally)


def is_five_of_a_kind(dice: Iterable[int]) -> bool:
    return max(counts(dice)) == DICE


def longest_run(dice: Iterable[int]) -> int:
    """The most consecutive faces among the dice (duplicates do not break a run)."""
    present = set(dice)
    best = run = 0
    for pip in range(1, FACES + 1):
        run = run + 1 if pip in present else 0
        best = max(best, run)
    return best


def box_points(box: Box, dice: Dice, *, joker: bool = False, primed: bool = False) -> int:
    """What ``dice`` score in ``box``: 0 when they do not fit (a scratch).

    ``joker``: classique's joker rule applies (a further five of a kind scores full value
    in the lower boxes); ``primed``: the five-of-a-kind box already holds its points.
    """
    tally = counts(dice)
    total = sum(dice)
    kind = box.kind
    if kind == FACE:
        return box.face * tally[box.face - 1]
    if kind == CHANCE:
        return total
    if kind == OF_A_KIND:
        return (box.points or total) if joker or max(tally) >= box.count else 0
    if kind == FULL_HOUSE:
        return box.points if joker or sorted(c for c in tally if c) == [2, 3] else 0
    if kind == STRAIGHT:
        return box.points if joker or longest_run(dice) >= box.count else 0
    if kind == FIVE_OF_A_KIND:
        return box.points if max(tally) == DICE else 0
    if kind == PRIME:
        return box.points if primed and max(tally) == DICE else 0
    raise InvalidRules(option="box.kind", value=kind)


def primed(sheet: Sheet, filled: Mapping[str, int]) -> bool:
    """Whether the five-of-a-kind box holds its points (Prime Yadès, Yahtzee bonus)."""
    five = sheet.five_box
    return five is not None and filled.get(five.id, 0) == five.points


def joker_applies(sheet: Sheet, filled: Mapping[str, int], dice: Dice) -> bool:
    """Whether ``dice`` are a joker: a five of a kind with the five-of-a-kind box already
    filled (50 or 0); under the free rule, with its upper box filled too."""
    five = sheet.five_box
    if sheet.joker == NO_JOKER or five is None or five.id not in filled:
        return False
    if not is_five_of_a_kind(dice):
        return False
    if sheet.joker == FREE_JOKER:
        own = sheet.face_box(dice[0])
        return own is None or own.id in filled
    return True


def allowed_boxes(sheet: Sheet, filled: Mapping[str, int], dice: Dice) -> list[Box]:
    """The open boxes ``dice`` may fill: all of them, except under the forced joker rule.

    A forced joker goes to its upper box if open, else to any open lower box, else to an
    upper box (for 0).
    """
    open_boxes = [box for box in sheet.boxes if box.id not in filled]
    if sheet.joker != FORCED_JOKER or not joker_applies(sheet, filled, dice):
        return open_boxes
    own = sheet.face_box(dice[0])
    if own is not None and own.id not in filled:
        return [own]
    lower = [box for box in open_boxes if box.section == LOWER]
    return lower or open_boxes


def points(sheet: Sheet, box: Box, dice: Dice, filled: Mapping[str, int]) -> int:
    """What ``dice`` score in ``box`` for a player whose sheet holds ``filled``."""
    return box_points(
        box,
        dice,
        joker=joker_applies(sheet, filled, dice),
        primed=primed(sheet, filled),
    )


def five_bonus_due(sheet: Sheet, filled: Mapping[str, int], dice: Dice) -> int:
    """The extra points a further five of a kind earns now (classique: 100)."""
    if sheet.five_bonus and is_five_of_a_kind(dice) and primed(sheet, filled):
        return sheet.five_bonus
    return 0


def upper_total(sheet: Sheet, filled: Mapping[str, int]) -> int:
    return sum(filled.get(box.id, 0) for box in sheet.boxes if box.section == UPPER)


def upper_bonus(sheet: Sheet, filled: Mapping[str, int]) -> int:
    return sheet.bonus_points if upper_total(sheet, filled) >= sheet.bonus_target else 0


@dataclass(frozen=True, slots=True)
class Totals:
    upper: int  # the upper section's boxes
    bonus: int  # the upper bonus (Prime des 63), once earned
    lower: int  # the lower section's boxes
    five_bonus: int  # classique: 100 per further Yahtzee
    total: int


def sheet_totals(sheet: Sheet, filled: Mapping[str, int], five_bonus: int = 0) -> Totals:
    upper = upper_total(sheet, filled)
    lower = sum(filled.get(box.id, 0) for box in sheet.boxes if box.section == LOWER)
    bonus = upper_bonus(sheet, filled)
    return Totals(upper, bonus, lower, five_bonus, upper + bonus + lower + five_bonus)


@dataclass(frozen=True, slots=True)
class BonusProgress:
    upper: int  # the upper total so far
    target: int  # the least upper total earning the bonus (64 for "strictly above 63")
    missing: int  # points still needed (0 once earned)
    par: int  # three of each filled face: at or above par keeps the bonus on course
    earned: bool
    reachable: bool  # whether the open upper boxes can still bring the total to ``target``


def sheet_bonus_progress(sheet: Sheet, filled: Mapping[str, int]) -> BonusProgress:
    upper = upper_total(sheet, filled)
    target = sheet.bonus_target
    par = 0
    best_rest = 0
    for box in sheet.boxes:
        if box.section != UPPER:
            continue
        if box.id in filled:
            par += 3 * box.face if box.kind == FACE else filled[box.id]
        else:
            best_rest += _best_points(box)
    earned = upper >= target
    return BonusProgress(
        upper=upper,
        target=target,
        missing=max(0, target - upper),
        par=par,
        earned=earned,
        reachable=earned or upper + best_rest >= target,
    )


def _best_points(box: Box) -> int:
    """The most a box can ever score."""
    if box.kind == FACE:
        return box.face * DICE
    if box.kind in (CHANCE, OF_A_KIND) and not box.points:
        return FACES * DICE
    return box.points
