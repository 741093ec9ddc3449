"""Rule tests of the Maya values (``bot.games.maya.values``) and the dice faces every game shows
(``bot.kernel.dice``): reading two dice, the ordering, probabilities, faces
(docs/rules.md#maya-values)."""

from __future__ import annotations

import random
from collections import Counter
from fractions import Fraction
from itertools import product

import pytest

from bot.games.maya.values import (
    MAYA,
    ORDER,
    is_value,
    neighbours,
    probability,
    probability_at_least,
    probability_to_beat,
    rank,
    read,
    roll,
    show,
    tap,
    values_above,
)
from bot.kernel.dice import FACES, face

ALL_ROLLS = list(product(range(1, 7), repeat=2))
PLAIN = (31, 32, 41, 42, 43, 51, 52, 53, 54, 61, 62, 63, 64, 65)
DOUBLES = (11, 22, 33, 44, 55, 66)


def outcomes_at_least(value: int) -> int:
    """Brute force: how many of the 36 ordered outcomes read ``value`` or stronger."""
    return sum(1 for dice in ALL_ROLLS if rank(read(dice)) >= rank(value))


# ------------------------------------------------------------------ reading the dice


@pytest.mark.parametrize(
    ("dice", "value"),
    [((5, 3), 53), ((3, 5), 53), ((6, 2), 62), ((2, 6), 62), ((4, 5), 54), ((3, 1), 31)],
)
def test_the_higher_die_is_the_tens_and_the_lower_die_the_units(dice, value):
    assert read(dice) == value


@pytest.mark.parametrize("pip", range(1, 7))
def test_a_double_reads_as_that_double(pip):
    assert read((pip, pip)) == 11 * pip


def test_a_two_and_a_one_read_as_maya_whatever_their_order():
    assert read((2, 1)) == MAYA == 21
    assert read((1, 2)) == MAYA


def test_there_is_no_twenty_six_or_other_misread_value():
    for value in (26, 12, 13, 35, 10, 0, 7, 77):
        assert not is_value(value)
    assert not is_value("21")
    assert not is_value(None)
    assert {read(dice) for dice in ALL_ROLLS} == set(ORDER)


# ------------------------------------------------------------------ the ordering


def test_the_order_from_weakest_to_strongest_is_plain_values_then_doubles_then_maya():
    assert (*PLAIN, *DOUBLES, MAYA) == ORDER
    assert [rank(value) for value in ORDER] == list(range(21))


def test_every_plain_value_is_weaker_than_every_double():
    for plain, double in product(PLAIN, DOUBLES):
        assert rank(plain) < rank(double)


def test_plain_values_rank_by_tens_then_units():
    assert rank(31) < rank(32) < rank(41) < rank(43) < rank(51) < rank(54) < rank(61) < rank(65)


def test_doubles_rank_by_their_face():
    assert [rank(double) for double in DOUBLES] == sorted(rank(double) for double in DOUBLES)
    assert rank(11) < rank(66)


def test_maya_beats_everything():
    assert all(rank(MAYA) > rank(value) for value in ORDER if value != MAYA)
    assert rank(MAYA) == len(ORDER) - 1


def test_values_above_are_the_strictly_stronger_values():
    assert values_above(None) == ORDER
    assert values_above(31) == ORDER[1:]
    assert values_above(65) == (*DOUBLES, MAYA)
    assert values_above(66) == (MAYA,)
    assert values_above(MAYA) == ()


# ------------------------------------------------------------------ probabilities


def test_the_probabilities_of_the_36_outcomes_sum_to_one():
    assert sum(probability(value) for value in ORDER) == 1


def test_maya_has_probability_two_in_36():
    assert probability(MAYA) == Fraction(2, 36)


@pytest.mark.parametrize("double", DOUBLES)
def test_each_double_has_probability_one_in_36(double):
    assert probability(double) == Fraction(1, 36)


@pytest.mark.parametrize("plain", PLAIN)
def test_each_plain_value_has_probability_two_in_36(plain):
    assert probability(plain) == Fraction(2, 36)


@pytest.mark.parametrize("value", ORDER)
def test_the_probability_of_at_least_a_value_counts_the_outcomes_reading_it_or_stronger(value):
    assert probability_at_least(value) == Fraction(outcomes_at_least(value), 36)


@pytest.mark.parametrize("value", ORDER)
def test_the_probability_to_beat_a_value_counts_the_strictly_stronger_outcomes(value):
    stronger = sum(1 for dice in ALL_ROLLS if rank(read(dice)) > rank(value))
    assert probability_to_beat(value) == Fraction(stronger, 36)
    assert probability_at_least(value) == probability_to_beat(value) + probability(value)


def test_known_at_least_and_to_beat_values():
    assert probability_at_least(31) == 1
    assert probability_to_beat(31) == Fraction(34, 36)
    assert probability_at_least(MAYA) == Fraction(2, 36)
    assert probability_to_beat(MAYA) == 0
    assert probability_to_beat(66) == Fraction(2, 36)
    assert probability_at_least(66) == Fraction(3, 36)
    assert probability_at_least(11) == Fraction(8, 36)
    assert probability_to_beat(65) == Fraction(8, 36)
    assert probability_at_least(61) == Fraction(18, 36)


# ------------------------------------------------------------------ faces, rolling, tapping


def test_the_faces_are_the_unicode_dice_one_to_six():
    assert FACES == "⚀⚁⚂⚃⚄⚅"
    assert [face(pip) for pip in range(1, 7)] == ["⚀", "⚁", "⚂", "⚃", "⚄", "⚅"]


def test_dice_are_shown_as_faces_with_their_value():
    assert show((5, 3)) == "⚄ ⚂ (53)"
    assert show((1, 2)) == "⚀ ⚁ (21)"


@pytest.mark.parametrize("pip", range(1, 7))
def test_a_tapote_neighbour_is_one_of_four_faces_never_the_face_nor_its_opposite(pip):
    around = neighbours(pip)
    assert len(around) == 4
    assert len(set(around)) == 4
    assert pip not in around
    assert 7 - pip not in around
    assert set(around) == set(range(1, 7)) - {pip, 7 - pip}


class ScriptedRng:
    """A stand-in for random.Random: a fixed random() and a fixed pick in choice()."""

    def __init__(self, draw: float, pick: int = 0) -> None:
        self.draw = draw
        self.pick = pick
        self.offered: tuple[int, ...] | None = None

    def random(self) -> float:
        return self.draw

    def choice(self, seq):
        self.offered = tuple(seq)
        return seq[self.pick]


@pytest.mark.parametrize("pip", range(1, 7))
def test_a_tapped_die_stays_on_its_face_half_the_time(pip):
    assert tap(pip, ScriptedRng(0.0)) == pip
    assert tap(pip, ScriptedRng(0.4999)) == pip


@pytest.mark.parametrize("pip", range(1, 7))
@pytest.mark.parametrize("pick", range(4))
def test_a_tapped_die_otherwise_tips_onto_one_of_its_neighbours_chosen_uniformly(pip, pick):
    rng = ScriptedRng(0.5, pick)
    assert tap(pip, rng) == neighbours(pip)[pick]
    assert rng.offered == neighbours(pip)


def test_a_tapped_die_lands_on_itself_half_the_time_and_on_each_neighbour_an_eighth():
    rng = random.Random(1234)
    draws = 16000
    landed = Counter(tap(3, rng) for _ in range(draws))
    assert set(landed) <= {3, *neighbours(3)}
    assert 4 not in landed
    assert abs(landed[3] / draws - 0.5) < 0.02
    for other in neighbours(3):
        assert abs(landed[other] / draws - 0.125) < 0.015


def test_a_roll_is_two_dice_from_the_callers_generator():
    rng = random.Random(7)
    rolls = [roll(rng) for _ in range(2000)]
    assert all(len(dice) == 2 and all(1 <= pip <= 6 for pip in dice) for dice in rolls)
    assert set(rolls) == set(ALL_ROLLS)
    again = random.Random(7)
    assert [roll(again) for _ in range(2000)] == rolls
