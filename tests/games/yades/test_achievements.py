"""Yadès' achievements, detected from a finished game (``bot.games.yades.achievements``):
scripted turns, and whole games played by the CPUs (the expert's own play is perfect)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from bot import yades_tables
from bot.games import yades as y
from bot.games.yades import Roll, Rules, Score, Stop, apply, new_game
from bot.games.yades.metrics import YadesSetup
from bot.games.yades.spec import SPEC
from tests.games.achieved import cpu_game, earned

DATA = Path(__file__).resolve().parents[3] / "data"
SIX = (6, 6, 6, 6, 6)


@pytest.fixture(scope="module", autouse=True)
def shipped_tables() -> None:
    """The expert prices every decision (the ``points_lost`` figure) from its tables."""
    for preset in y.PRESETS:
        assert yades_tables.load(y.Rules.for_preset(preset), DATA, build=False) is not None


def played(preset: str, *turns: tuple[Any, ...]) -> tuple[Any, list[Any]]:
    """Turns of players 1 and 2 in order, each rolls (dice, then kept positions and dice)
    then a box; the table stops the game after them."""
    state = new_game([1, 2], Rules.for_preset(preset))
    events: list[Any] = []
    for *rolls, box in turns:
        player = state.current
        for roll in rolls:
            keep, dice = roll if isinstance(roll[0], tuple) else ((), roll)
            state, produced = apply(state, Roll(player, keep, dice=dice))
            events += produced
        state, produced = apply(state, Score(player, box))
        events += produced
    state, produced = apply(state, Stop())
    return state, events + produced


def won(state: Any, events: list[Any], humans: list[int] | None = None) -> set[tuple[int, str]]:
    return earned(SPEC, state, events, humans, YadesSetup(state.rules))


def test_a_second_yades_in_the_prime_yades_box_is_a_yades_of_yades():
    state, events = played(
        y.YADES,
        ((1, 2, 3, 4, 6), (1, 2, 3, 4, 4), "chance"),
        ((1, 2, 3, 4, 6), "chance"),
        ((1, 2, 3, 4, 6), ((0, 1, 2, 3), (6,)), "grande_suite"),
        ((1, 1, 2, 2, 3), "as"),
        ((1, 2, 2, 2, 2), ((1, 2, 3, 4), (2,)), "yades"),
        ((1, 1, 2, 2, 3), "deux"),
        ((5, 5, 5, 5, 1), ((0, 1, 2, 3), (5,)), "prime_yades"),
    )
    assert won(state, events) == {(1, "yades_prime")}


def test_five_alike_in_the_prime_yades_box_before_a_yades_scores_nothing_and_earns_nothing():
    state, events = played(
        y.YADES,
        ((1, 2, 3, 4, 6), (5, 5, 5, 5, 5), "prime_yades"),
        ((1, 2, 3, 4, 6), "chance"),
    )
    assert (1, "yades_prime") not in won(state, events)


def test_a_further_yahtzee_bonus_is_a_yades_of_yades_in_classique():
    state, events = played(
        y.CLASSIQUE,
        ((1, 2, 3, 4, 6), (3, 3, 3, 3, 3), "yahtzee"),
        ((1, 2, 3, 4, 6), "chance"),
        ((1, 2, 3, 4, 6), (4, 4, 4, 4, 4), "quatre"),
    )
    assert won(state, events) == {(1, "yades_prime")}


def test_five_alike_on_the_first_roll_of_a_turn():
    state, events = played(y.YADES, (SIX, "six"), ((1, 2, 3, 4, 6), SIX, "yades"))
    assert won(state, events) == {(1, "yades_first_roll")}


def test_a_cpu_earns_nothing():
    state, events = played(y.YADES, (SIX, "six"))
    assert won(state, events, humans=[2]) == set()


def test_a_stopped_game_is_never_perfect():
    state, events = played(y.YADES, (SIX, "yades"))
    assert all(code != "yades_perfect" for _, code in won(state, events))


EXPERTS = {1: "difficile", 2: "difficile", 3: "difficile"}


def perfect(state: Any, events: list[Any]) -> set[int]:
    return {player for player, code in won(state, events) if code == "yades_perfect"}


@pytest.mark.parametrize("preset", y.PRESETS)
def test_the_experts_own_game_loses_no_point_so_it_is_perfect(preset):
    setup = YadesSetup(Rules.for_preset(preset))
    state, events = cpu_game(SPEC, setup, [1, 2], EXPERTS, seed=3)
    assert state.over
    assert perfect(state, events) == {1, 2}


def test_a_weaker_cpu_loses_points_to_the_expert_so_its_game_is_not_perfect():
    setup = YadesSetup(Rules.for_preset(y.YADES))
    state, events = cpu_game(SPEC, setup, [1, 2], {1: "moyen", 2: "difficile"}, seed=5)
    assert perfect(state, events) == {2}


def test_a_player_who_left_has_no_perfect_game():
    setup = YadesSetup(Rules.for_preset(y.YADES))
    state, events = cpu_game(SPEC, setup, [1, 2, 3], EXPERTS, seed=1, opening=[y.Leave(3)])
    assert perfect(state, events) == {1, 2}
