"""The Yadès CPU and its optimal strategy: legal, exact where it can be checked, and
stronger level by level.

The expert's tables of both presets ship in data/ (``bot.yades_tables``); the tests load
them, and build small sheets (and one full sheet, for Verhoeff's value) themselves.
"""

from __future__ import annotations

import random
import statistics
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from bot import yades_tables
from bot.games import yades as y
from bot.games.yades import cpu as cpu
from bot.games.yades import solver
from bot.kernel.levels import DIFFICILE, FACILE, MOYEN

DATA = Path(__file__).resolve().parents[3] / "data"


@pytest.fixture(scope="module", autouse=True)
def shipped_tables() -> dict[str, solver.Strategy]:
    """The presets' shipped tables, installed for the CPU (never rebuilt by the tests)."""
    loaded = {}
    for preset in y.PRESETS:
        rules = y.Rules.for_preset(preset)
        assert yades_tables.path_for(rules, DATA).exists(), f"no shipped table for {preset}"
        strategy = yades_tables.load(rules, DATA, build=False)
        assert strategy is not None
        loaded[preset] = strategy
    return loaded


def sheet_of(*boxes: y.Box, **options) -> y.Sheet:
    return y.Sheet(boxes=boxes, **{"bonus_points": 0, **options}).validated()


def solved(sheet: y.Sheet) -> solver.Strategy:
    return solver.build(sheet)


def cpu_game(rules: y.Rules, levels: dict[int, str], rng: random.Random) -> y.State:
    state = y.new_game(list(levels), rules)
    while not state.over:
        player = state.current
        assert player is not None
        legal = y.legal_actions(state, player)
        action = cpu.choose(y.view(state, player), legal, levels[player], rng)
        assert action in legal, (action, legal)
        assert not isinstance(action, y.Leave)
        state, _ = y.apply(state, y.complete(state, action, rng))
    return state


# --------------------------------------------------------------------------- exact values


def test_the_expert_expects_verhoeffs_254_59_on_an_empty_classique_sheet(shipped_tables):
    expected = shipped_tables[y.CLASSIQUE].expected
    assert expected == pytest.approx(254.59, abs=0.01)
    # The official forced joker costs 0.0019 points against Verhoeff's free choice (below).
    assert expected == pytest.approx(254.5877287, abs=1e-6)
    assert cpu.expected_score(y.CLASSIQUE_SHEET) == expected


def test_with_verhoeffs_free_joker_the_solver_finds_his_254_5896_exactly():
    free = solved(replace(y.CLASSIQUE_SHEET, joker=y.FREE_JOKER))
    assert free.expected == pytest.approx(254.5896095, abs=1e-6)


def test_the_yades_preset_table_is_shipped_with_its_value(shipped_tables):
    assert shipped_tables[y.YADES].expected == pytest.approx(272.2875, abs=1e-3)


def test_one_chance_box_is_worth_five_dice_each_kept_from_5_then_from_4():
    # One die, three rolls: 3.5 on the last; keep 4+ before it (4.25); keep 5+ first (4.667).
    strategy = solved(sheet_of(y.Box("chance", y.CHANCE)))
    assert strategy.expected == pytest.approx(5 * 14 / 3, abs=1e-9)


def test_one_six_box_is_worth_the_sixes_kept_over_three_rolls():
    strategy = solved(sheet_of(y.Box("six", y.FACE, y.UPPER, face=6)))
    assert strategy.expected == pytest.approx(6 * 5 * (1 - (5 / 6) ** 3), abs=1e-9)


def test_one_five_of_a_kind_box_is_filled_4_6_percent_of_the_time():
    strategy = solved(sheet_of(y.Box("yam", y.FIVE_OF_A_KIND, points=50)))
    assert strategy.expected == pytest.approx(50 * 0.04602864, abs=1e-6)


def test_the_table_is_consistent_with_the_turn_it_summarises(shipped_tables):
    """A turn start's value is the first roll's average best option."""
    rng = random.Random(5)
    for preset, strategy in shipped_tables.items():
        sheet = strategy.sheet
        for _ in range(4):
            rolls = {b.id: tuple(rng.randint(1, 6) for _ in range(5)) for b in sheet.boxes}
            filled = {
                b.id: y.box_points(b, rolls[b.id]) for b in sheet.boxes[:-1] if rng.random() < 0.5
            }
            start = strategy.value(filled)
            average = 0.0
            for index, roll in enumerate(solver.ROLLS):
                best = strategy.options(filled, 1, roll)[0].value
                average += solver.TRANSITIONS[0, index] * best
            assert average == pytest.approx(start, abs=1e-3), (preset, filled)


def test_a_table_survives_its_bytes_and_refuses_another_sheet(shipped_tables):
    small = solved(sheet_of(y.Box("chance", y.CHANCE), y.Box("brelan", y.OF_A_KIND, count=3)))
    again = solver.Strategy.from_bytes(small.to_bytes(), small.sheet)
    assert again.expected == small.expected
    assert np.array_equal(again.values, small.values)
    with pytest.raises(ValueError):
        solver.Strategy.from_bytes(small.to_bytes(), y.YADES_SHEET)
    with pytest.raises(ValueError):
        solver.Strategy.from_bytes(b"not a table")


def test_a_new_sheet_is_solved_once_then_read_from_its_file(tmp_path):
    rules = y.Rules(y.YADES, sheet_of(y.Box("chance", y.CHANCE), y.Box("six", y.FACE, face=6)))
    built = yades_tables.load(rules, tmp_path)
    assert built is not None and yades_tables.path_for(rules, tmp_path).exists()
    solver.uninstall(rules.sheet)
    assert yades_tables.load(rules, tmp_path, build=False).expected == built.expected
    solver.uninstall(rules.sheet)
    yades_tables.path_for(rules, tmp_path).write_bytes(b"garbage")
    assert yades_tables.load(rules, tmp_path, build=False) is None
    assert yades_tables.load(rules, tmp_path).expected == built.expected


# --------------------------------------------------------------------------- advice


def _rolled(preset: str, dice: tuple[int, ...], rolls: int = 1) -> y.State:
    state = y.new_game([1, 2], y.Rules.for_preset(preset))
    state, _ = y.apply(state, y.Roll(1, dice=dice))
    for _ in range(rolls - 1):
        state, _ = y.apply(state, y.Roll(1, keep=(0, 1, 2, 3), dice=(dice[4],)))
    return state


def test_before_the_first_roll_the_advice_is_to_roll(shipped_tables):
    state = y.new_game([1, 2], y.Rules.for_preset(y.CLASSIQUE))
    ((action, total, loss),) = cpu.advice(y.view(state, 1))
    assert action == y.Roll(1)
    assert total == pytest.approx(254.5877, abs=1e-3)
    assert loss == 0
    assert cpu.advice(y.view(state, 2)) == []


def test_a_large_straight_on_the_last_roll_goes_to_its_box(shipped_tables):
    advice = cpu.advice(y.view(_rolled(y.CLASSIQUE, (1, 2, 3, 4, 5), rolls=3), 1))
    assert advice[0].action == y.Score(1, "grande_suite")
    assert advice[0].loss == 0
    assert all(isinstance(a.action, y.Score) for a in advice)
    assert len(advice) == 13


def test_advice_lists_every_distinct_keep_and_box_with_its_cost(shipped_tables):
    state = _rolled(y.YADES, (6, 6, 6, 2, 3))
    advice = cpu.advice(y.view(state, 1))
    keeps = [a.action for a in advice if isinstance(a.action, y.Roll)]
    boxes = [a.action for a in advice if isinstance(a.action, y.Score)]
    # Multisets kept from 6,6,6,2,3 (all but the whole roll): 4 * 2 * 2 - 1.
    assert len(keeps) == 15
    assert len(boxes) == 14
    losses = [a.loss for a in advice]
    assert losses[0] == 0 and losses == sorted(losses)
    assert all(a.expected_total == pytest.approx(advice[0].expected_total - a.loss) for a in advice)
    assert advice[0].action == y.Roll(1, keep=(0, 1, 2))
    legal = y.legal_actions(state, 1)
    assert all(a.action in legal for a in advice)


def test_advice_counts_the_points_already_on_the_sheet(shipped_tables):
    state = y.new_game([1, 2], y.Rules.for_preset(y.YADES))
    for dice, box in [((6, 6, 6, 6, 1), "six"), ((1, 1, 1, 1, 1), "as")]:
        state, _ = y.apply(state, y.Roll(state.current, dice=dice))
        state, _ = y.apply(state, y.Score(state.current, box))
    (only,) = cpu.advice(y.view(state, 1))
    strategy = shipped_tables[y.YADES]
    assert only.expected_total == pytest.approx(24 + strategy.value({"six": 24}), abs=1e-4)


# --------------------------------------------------------------------------- playing


@pytest.mark.parametrize("preset", y.PRESETS)
@pytest.mark.parametrize("level", [*cpu.LEVELS, DIFFICILE])
def test_every_level_plays_whole_games_legally(preset, level):
    rng = random.Random(f"{preset}-{level}")
    state = cpu_game(y.Rules.for_preset(preset), {1: level, 2: FACILE, 3: MOYEN}, rng)
    assert all(len(seat.boxes) == len(state.sheet.boxes) for seat in state.seats)


def test_the_expert_plays_a_server_variant_after_solving_it():
    rules = y.Rules.for_preset(y.YADES, remove=["prime_yades", "carre", "brelan", "as", "deux"])
    state = cpu_game(rules, {1: cpu.EXPERT, 2: cpu.EXPERT}, random.Random(3))
    assert state.over and solver.installed(rules.sheet) is not None


def _decision_points(preset: str, seed: int) -> list[y.State]:
    """Every decision of a game of two ``moyen`` CPUs (the first roll of a turn excluded)."""
    rng = random.Random(seed)
    state = y.new_game([1, 2], y.Rules.for_preset(preset))
    points = []
    while not state.over:
        player = state.current
        assert player is not None
        if state.rolls:
            points.append(state)
        legal = y.legal_actions(state, player)
        action = cpu.choose(y.view(state, player), legal, MOYEN, rng)
        state, _ = y.apply(state, y.complete(state, action, rng))
    return points


@pytest.mark.parametrize("preset", y.PRESETS)
def test_the_levels_lose_less_and_less_against_optimal_play(preset):
    """Each level's choices, judged by the expected points they give up (``advice``)."""
    losses: dict[str, list[float]] = {level: [] for level in cpu.LEVELS}
    rng = random.Random(0)
    for seed in range(6):
        for state in _decision_points(preset, seed):
            player = state.current
            legal = y.legal_actions(state, player)
            cost = {a.action: a.loss for a in cpu.advice(y.view(state, player))}
            for level, lost in losses.items():
                choice = cpu.choose(y.view(state, player), legal, level, rng)
                if isinstance(choice, y.Roll):
                    # Keeps of equal dice are one option: look it up by the dice kept.
                    kept = sorted(state.dice[i] for i in choice.keep)
                    choice = next(
                        a
                        for a in cost
                        if isinstance(a, y.Roll) and sorted(state.dice[i] for i in a.keep) == kept
                    )
                lost.append(cost[choice])
    mean = {level: statistics.mean(lost) for level, lost in losses.items()}
    assert mean[cpu.EXPERT] == 0
    assert mean[FACILE] > mean[MOYEN] > 0.5, mean


def test_the_expert_takes_the_best_option_the_advice_lists(shipped_tables):
    rng = random.Random(2)
    for preset in y.PRESETS:
        for _ in range(30):
            dice = tuple(rng.randint(1, 6) for _ in range(5))
            state = _rolled(preset, dice, rolls=rng.randint(1, 3))
            legal = y.legal_actions(state, 1)
            chosen = cpu.choose(y.view(state, 1), legal, cpu.EXPERT, rng)
            assert chosen == cpu.advice(y.view(state, 1))[0].action


def test_facile_takes_a_made_full_at_once():
    state = _rolled(y.YADES, (2, 2, 5, 5, 5))
    legal = y.legal_actions(state, 1)
    assert cpu.choose(y.view(state, 1), legal, FACILE, random.Random(0)) == y.Score(1, "full")


def test_facile_keeps_its_most_common_face():
    state = _rolled(y.CLASSIQUE, (2, 5, 6, 5, 1))
    legal = y.legal_actions(state, 1)
    assert cpu.choose(y.view(state, 1), legal, FACILE, random.Random(0)) == y.Roll(1, (1, 3))


def test_an_unknown_level_is_refused():
    state = y.new_game([1, 2])
    with pytest.raises(ValueError):
        cpu.choose(y.view(state, 1), y.legal_actions(state, 1), "genie", random.Random(0))


def test_a_cpu_never_leaves():
    state = y.new_game([1, 2])
    assert not cpu.acts(y.legal_actions(state, 2))
    with pytest.raises(ValueError):
        cpu.choose(y.view(state, 2), y.legal_actions(state, 2), MOYEN, random.Random(0))
