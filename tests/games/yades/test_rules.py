"""Rule tests of the Yadès engine (docs/rules.md#yades), one per rule statement.

Every roll carries its dice (``Roll(player, keep, dice=...)``), so each test plays exactly
the turn it describes, through the public API only. Scoring is checked box by box for
both presets with ``box_points``/``points`` (the functions ``apply`` itself uses) and,
where a rule depends on the sheet (bonuses, Prime Yadès, the joker), through real turns.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from bot.games.yades import (
    CLASSIQUE,
    CLASSIQUE_SHEET,
    EVENTS,
    FACE,
    FIVE_OF_A_KIND,
    FORCED_JOKER,
    FREE_JOKER,
    LEFT,
    OF_A_KIND,
    OVER,
    PLAY,
    PRIME,
    PUBLIC,
    STRAIGHT,
    UPPER,
    YADES,
    YADES_SHEET,
    Action,
    Box,
    BoxFilled,
    Event,
    GameError,
    GameOver,
    InvalidDice,
    InvalidKeep,
    InvalidPlayers,
    InvalidRules,
    JokerForced,
    Leave,
    MustRollAll,
    NoRollsLeft,
    NothingToRoll,
    NotNow,
    NotRolled,
    NotYourTurn,
    Roll,
    Rules,
    Score,
    Sheet,
    State,
    Stop,
    UnknownBox,
    UnknownPlayer,
    allowed_boxes,
    apply,
    bonus_progress,
    box_points,
    legal_actions,
    new_game,
    points,
    replay,
    scores,
    sheet_totals,
    totals,
)

# --------------------------------------------------------------------------- helpers


def game(preset: str = YADES, players: int = 2, **options: Any) -> State:
    """A fresh game for players 1..``players``, in that order; player 1 starts."""
    return new_game(list(range(1, players + 1)), Rules.for_preset(preset, **options))


def play(state: State, *actions: Action) -> tuple[State, list[Event]]:
    """Apply ``actions`` in order; the final state and every event they caused."""
    events: list[Event] = []
    for action in actions:
        state, produced = apply(state, action)
        events.extend(produced)
    return state, events


def turn(state: State, dice: tuple[int, ...], box: str) -> tuple[State, list[Event]]:
    """The current player rolls ``dice`` at once and fills ``box`` with them."""
    player = state.current
    assert player is not None
    return play(state, Roll(player, dice=dice), Score(player, box))


def turns(state: State, *moves: tuple[tuple[int, ...], str]) -> tuple[State, list[Event]]:
    events: list[Event] = []
    for dice, box in moves:
        state, produced = turn(state, dice, box)
        events.extend(produced)
    return state, events


def typed(events: list[Event], kind: str) -> list[Event]:
    return [event for event in events if event.type == kind]


def the(events: list[Event], kind: str) -> Event:
    found = typed(events, kind)
    assert len(found) == 1, f"expected one {kind!r}, got {[event.type for event in events]}"
    return found[0]


def refused(state: State, action: Action, error: type[GameError]) -> GameError:
    """``action`` raises ``error`` (with its code) and leaves ``state`` exactly as it was."""
    before = state.to_json()
    with pytest.raises(error) as caught:
        apply(state, action)
    assert type(caught.value) is error
    assert caught.value.code == error.code
    assert state.to_json() == before
    return caught.value


def box(sheet: Sheet, box_id: str) -> Box:
    found = sheet.box(box_id)
    assert found is not None
    return found


def scored(sheet: Sheet, box_id: str, dice: tuple[int, ...], filled: dict | None = None) -> int:
    """What ``dice`` score in ``box_id`` for a sheet holding ``filled``."""
    return points(sheet, box(sheet, box_id), dice, filled or {})


def seat_boxes(state: State, player: int) -> dict[str, int]:
    seat = state.seat(player)
    assert seat is not None
    return seat.boxes


BOTH = pytest.mark.parametrize("sheet", [YADES_SHEET, CLASSIQUE_SHEET], ids=[YADES, CLASSIQUE])


# --------------------------------------------------------------------------- the sheets


def test_the_yades_preset_has_the_fourteen_boxes_of_seed_001():
    assert YADES_SHEET.ids == (
        "as",
        "deux",
        "trois",
        "quatre",
        "cinq",
        "six",
        "brelan",
        "carre",
        "full",
        "petite_suite",
        "grande_suite",
        "yades",
        "prime_yades",
        "chance",
    )
    assert (YADES_SHEET.bonus_threshold, YADES_SHEET.bonus_strict) == (63, True)
    assert YADES_SHEET.bonus_points == 35
    assert YADES_SHEET.five_bonus == 0


def test_the_classique_preset_has_the_thirteen_boxes_of_yahtzee():
    assert len(CLASSIQUE_SHEET.boxes) == 13
    assert "prime_yades" not in CLASSIQUE_SHEET.ids
    assert (CLASSIQUE_SHEET.bonus_threshold, CLASSIQUE_SHEET.bonus_strict) == (63, False)
    assert CLASSIQUE_SHEET.five_bonus == 100
    assert CLASSIQUE_SHEET.joker == FORCED_JOKER


def test_yades_is_the_default_preset():
    assert Rules() == Rules.for_preset(YADES)
    assert new_game([1, 2]).rules.sheet == YADES_SHEET


# --------------------------------------------------------------------------- scoring, box by box


@BOTH
@pytest.mark.parametrize(
    ("box_id", "dice", "expected"),
    [
        ("as", (1, 1, 3, 4, 1), 3),
        ("deux", (1, 1, 3, 4, 1), 0),
        ("trois", (3, 3, 3, 3, 2), 12),
        ("quatre", (4, 1, 2, 3, 5), 4),
        ("cinq", (5, 5, 5, 5, 5), 25),
        ("six", (6, 6, 1, 6, 2), 18),
    ],
)
def test_an_upper_box_sums_the_dice_showing_its_face(sheet, box_id, dice, expected):
    assert scored(sheet, box_id, dice) == expected


@BOTH
@pytest.mark.parametrize(
    ("dice", "expected"),
    [((3, 3, 3, 5, 6), 20), ((4, 4, 4, 4, 1), 17), ((2, 2, 2, 2, 2), 10), ((2, 2, 4, 5, 6), 0)],
)
def test_brelan_is_at_least_three_alike_and_scores_all_five_dice(sheet, dice, expected):
    assert scored(sheet, "brelan", dice) == expected


@BOTH
@pytest.mark.parametrize(
    ("dice", "expected"),
    [((4, 4, 4, 4, 1), 17), ((5, 5, 5, 5, 5), 25), ((4, 4, 4, 1, 1), 0), ((6, 6, 6, 2, 3), 0)],
)
def test_carre_is_at_least_four_alike_and_scores_all_five_dice(sheet, dice, expected):
    assert scored(sheet, "carre", dice) == expected


@BOTH
@pytest.mark.parametrize(
    ("dice", "expected"),
    [((2, 2, 3, 3, 3), 25), ((6, 1, 6, 1, 6), 25), ((2, 2, 2, 2, 3), 0), ((1, 2, 3, 4, 5), 0)],
)
def test_full_is_exactly_three_alike_and_a_pair_of_another_face(sheet, dice, expected):
    assert scored(sheet, "full", dice) == expected


@BOTH
def test_five_alike_is_not_a_full_outside_the_joker_rule(sheet):
    assert scored(sheet, "full", (5, 5, 5, 5, 5)) == 0


@pytest.mark.parametrize(
    ("dice", "expected"),
    [
        ((1, 2, 3, 5, 5), 30),
        ((1, 2, 4, 5, 6), 30),
        ((1, 2, 3, 3, 4), 30),
        ((6, 4, 5, 1, 1), 30),
        ((1, 2, 4, 5, 1), 0),
        ((1, 1, 3, 3, 5), 0),
    ],
)
def test_yades_petite_suite_is_three_consecutive_faces(dice, expected):
    assert scored(YADES_SHEET, "petite_suite", dice) == expected


@pytest.mark.parametrize(
    ("dice", "expected"),
    [
        ((1, 2, 3, 3, 4), 40),
        ((2, 3, 4, 5, 5), 40),
        ((6, 5, 4, 3, 1), 40),
        ((1, 2, 3, 5, 6), 0),
        ((1, 2, 2, 3, 5), 0),
    ],
)
def test_yades_grande_suite_is_four_consecutive_faces(dice, expected):
    assert scored(YADES_SHEET, "grande_suite", dice) == expected


@pytest.mark.parametrize(
    ("dice", "expected"),
    [
        ((1, 2, 3, 3, 4), 30),
        ((3, 4, 5, 6, 6), 30),
        ((1, 2, 3, 4, 6), 30),
        ((1, 2, 3, 5, 6), 0),
        ((1, 2, 3, 3, 5), 0),
    ],
)
def test_classique_small_straight_is_four_consecutive_faces(dice, expected):
    assert scored(CLASSIQUE_SHEET, "petite_suite", dice) == expected


@pytest.mark.parametrize(
    ("dice", "expected"),
    [((1, 2, 3, 4, 5), 40), ((6, 2, 4, 3, 5), 40), ((1, 2, 3, 4, 6), 0), ((1, 2, 3, 3, 4), 0)],
)
def test_classique_large_straight_is_five_consecutive_faces(dice, expected):
    assert scored(CLASSIQUE_SHEET, "grande_suite", dice) == expected


@pytest.mark.parametrize(
    ("sheet", "box_id"), [(YADES_SHEET, "yades"), (CLASSIQUE_SHEET, "yahtzee")]
)
def test_the_five_of_a_kind_box_scores_50_for_five_alike_only(sheet, box_id):
    assert scored(sheet, box_id, (3, 3, 3, 3, 3)) == 50
    assert scored(sheet, box_id, (3, 3, 3, 3, 1)) == 0


@BOTH
@pytest.mark.parametrize("dice", [(1, 1, 2, 2, 3), (6, 6, 6, 6, 6), (2, 4, 5, 1, 3)])
def test_chance_scores_the_sum_of_any_dice(sheet, dice):
    assert scored(sheet, "chance", dice) == sum(dice)


def test_prime_yades_scores_75_for_five_alike_once_the_yades_box_holds_50():
    five = (4, 4, 4, 4, 4)
    assert scored(YADES_SHEET, "prime_yades", five, {"yades": 50}) == 75
    assert scored(YADES_SHEET, "prime_yades", (4, 4, 4, 4, 2), {"yades": 50}) == 0


def test_prime_yades_scores_nothing_before_a_yades_is_on_the_sheet():
    assert scored(YADES_SHEET, "prime_yades", (4, 4, 4, 4, 4)) == 0


def test_prime_yades_scores_nothing_when_the_yades_box_was_scratched():
    assert scored(YADES_SHEET, "prime_yades", (4, 4, 4, 4, 4), {"yades": 0}) == 0


def test_box_points_reads_the_box_definition_not_its_name():
    double = Box("double", OF_A_KIND, count=2, points=12)
    assert box_points(double, (1, 1, 2, 3, 4)) == 12
    assert box_points(double, (1, 2, 3, 4, 5)) == 0
    run = Box("deux_de_suite", STRAIGHT, count=2, points=5)
    assert box_points(run, (1, 3, 5, 5, 6)) == 5


# --------------------------------------------------------------------------- the upper bonus


def _upper(total_as: int) -> dict[str, int]:
    """Three of each face except the aces: ``total_as`` aces (upper total 60 + total_as)."""
    return {"as": total_as, "deux": 6, "trois": 9, "quatre": 12, "cinq": 15, "six": 18}


def test_yades_prime_des_63_needs_an_upper_total_strictly_above_63():
    assert sheet_totals(YADES_SHEET, _upper(3)).bonus == 0
    assert sheet_totals(YADES_SHEET, _upper(4)).bonus == 35


def test_classique_upper_bonus_is_earned_at_exactly_63():
    assert sheet_totals(CLASSIQUE_SHEET, _upper(3)).bonus == 35
    assert sheet_totals(CLASSIQUE_SHEET, _upper(2)).bonus == 0


@BOTH
def test_the_upper_bonus_is_not_a_box_to_fill(sheet):
    assert all("63" not in box_id and "bonus" not in box_id for box_id in sheet.ids)


def _fill_upper_with_three_of_each(preset: str, aces: tuple[int, ...]) -> tuple[State, list]:
    """Player 1 fills the six upper boxes (``aces`` for the aces, three of each other face);
    player 2 scratches lower boxes meanwhile."""
    state = game(preset)
    lower = ["brelan", "carre", "full", "petite_suite", "grande_suite", "chance"]
    events: list[Event] = []
    for face, box_id in enumerate(["as", "deux", "trois", "quatre", "cinq", "six"], start=1):
        dice = (
            aces if face == 1 else (face, face, face, 1 if face != 1 else 2, 2 if face != 2 else 3)
        )
        state, produced = turn(state, dice, box_id)
        events.extend(produced)
        state, produced = turn(state, (1, 1, 2, 2, 6), lower.pop())
        events.extend(produced)
    return state, events


def test_reaching_the_classique_bonus_at_63_earns_it_in_play():
    state, events = _fill_upper_with_three_of_each(CLASSIQUE, (1, 1, 1, 2, 3))
    assert totals(state, 1).upper == 63
    bonus = the(events, "bonus_earned")
    assert bonus.data == {"player": 1, "bonus": "upper", "points": 35}
    assert totals(state, 1).bonus == 35
    assert bonus_progress(state, 1).earned


def test_63_is_not_enough_for_the_prime_des_63_in_play():
    state, events = _fill_upper_with_three_of_each(YADES, (1, 1, 1, 2, 3))
    assert totals(state, 1).upper == 63
    assert typed(events, "bonus_earned") == []
    assert totals(state, 1).bonus == 0
    progress = bonus_progress(state, 1)
    assert (progress.target, progress.missing, progress.reachable) == (64, 1, False)


def test_64_earns_the_prime_des_63_in_play():
    state, events = _fill_upper_with_three_of_each(YADES, (1, 1, 1, 1, 3))
    assert totals(state, 1).upper == 64
    assert the(events, "bonus_earned").data["points"] == 35
    assert totals(state, 1).total == 64 + 35


def test_bonus_progress_tracks_par_and_what_is_missing():
    state, _ = turns(game(CLASSIQUE), ((6, 6, 6, 6, 1), "six"), ((1, 1, 2, 2, 6), "chance"))
    progress = bonus_progress(state, 1)
    assert (progress.upper, progress.par, progress.missing) == (24, 18, 39)
    assert progress.reachable and not progress.earned


# --------------------------------------------------------------------------- Prime Yadès in play


def test_a_second_yades_fills_prime_yades_for_75():
    state, _ = turns(
        game(YADES),
        ((2, 2, 2, 2, 2), "yades"),
        ((1, 2, 3, 4, 6), "chance"),
    )
    state, events = turn(state, (6, 6, 6, 6, 6), "prime_yades")
    assert the(events, "scored").data["points"] == 75
    assert seat_boxes(state, 1) == {"yades": 50, "prime_yades": 75}


def test_five_alike_in_prime_yades_before_any_yades_is_a_scratch():
    state, events = turn(game(YADES), (6, 6, 6, 6, 6), "prime_yades")
    assert seat_boxes(state, 1) == {"prime_yades": 0}
    assert the(events, "scored").data == {
        "player": 1,
        "box": "prime_yades",
        "points": 0,
        "scratched": True,
        "joker": False,
        "dice": [6, 6, 6, 6, 6],
    }


def test_the_yades_preset_has_no_joker_and_no_100_bonus():
    state, _ = turns(game(YADES), ((2, 2, 2, 2, 2), "yades"), ((1, 2, 3, 4, 6), "chance"))
    assert [b.id for b in allowed_boxes(YADES_SHEET, seat_boxes(state, 1), (3,) * 5)] == [
        box_id for box_id in YADES_SHEET.ids if box_id != "yades"
    ]
    state, events = turn(state, (3, 3, 3, 3, 3), "full")
    assert the(events, "scored").data["points"] == 0
    assert typed(events, "bonus_earned") == []


# --------------------------------------------------------------------------- classique: bonus and joker


def _with_yahtzee(points_in_box: int) -> State:
    """Classique, player 1's Yahtzee box holds ``points_in_box``; player 1 to play."""
    dice = (5, 5, 5, 5, 5) if points_in_box else (1, 2, 3, 4, 6)
    state, _ = turns(game(CLASSIQUE), (dice, "yahtzee"), ((1, 2, 3, 4, 6), "chance"))
    assert seat_boxes(state, 1) == {"yahtzee": points_in_box}
    return state


def test_a_further_yahtzee_earns_100_while_the_yahtzee_box_holds_50():
    state, events = turn(_with_yahtzee(50), (4, 4, 4, 4, 4), "quatre")
    assert the(events, "bonus_earned").data == {
        "player": 1,
        "bonus": "five_of_a_kind",
        "points": 100,
    }
    assert totals(state, 1).five_bonus == 100
    assert totals(state, 1).total == 50 + 20 + 100


def test_every_further_yahtzee_earns_another_100():
    state = _with_yahtzee(50)
    state, _ = turns(state, ((4, 4, 4, 4, 4), "quatre"), ((1, 2, 3, 4, 6), "as"))
    state, events = turn(state, (2, 2, 2, 2, 2), "deux")
    assert the(events, "bonus_earned").data["points"] == 100
    assert totals(state, 1).five_bonus == 200


def test_no_100_bonus_after_a_scratched_yahtzee_box():
    state, events = turn(_with_yahtzee(0), (4, 4, 4, 4, 4), "quatre")
    assert typed(events, "bonus_earned") == []
    assert totals(state, 1).five_bonus == 0


@pytest.mark.parametrize("points_in_box", [50, 0])
def test_the_joker_must_go_to_its_upper_box_when_open(points_in_box):
    state = _with_yahtzee(points_in_box)
    state, _ = play(state, Roll(1, dice=(4, 4, 4, 4, 4)))
    assert scores(state, 1) == {"quatre": 20}
    assert [a for a in legal_actions(state, 1) if isinstance(a, Score)] == [Score(1, "quatre")]
    error = refused(state, Score(1, "full"), JokerForced)
    assert error.params == {"box": "full", "allowed": ["quatre"]}
    refused(state, Score(1, "as"), JokerForced)


def test_with_its_upper_box_filled_the_joker_goes_to_a_lower_box_at_full_value():
    state = _with_yahtzee(50)
    state, _ = turns(state, ((4, 4, 4, 1, 2), "quatre"), ((1, 2, 3, 4, 6), "as"))
    state, _ = play(state, Roll(1, dice=(4, 4, 4, 4, 4)))
    assert scores(state, 1) == {
        "brelan": 20,
        "carre": 20,
        "full": 25,
        "petite_suite": 30,
        "grande_suite": 40,
        "chance": 20,
    }
    refused(state, Score(1, "as"), JokerForced)
    refused(state, Score(1, "six"), JokerForced)
    state, events = play(state, Score(1, "grande_suite"))
    assert the(events, "scored").data["points"] == 40
    assert the(events, "scored").data["joker"] is True
    assert the(events, "bonus_earned").data["points"] == 100


def test_a_yahtzee_counts_as_a_full_house_only_as_a_joker():
    assert scored(CLASSIQUE_SHEET, "full", (3, 3, 3, 3, 3)) == 0
    assert scored(CLASSIQUE_SHEET, "full", (3, 3, 3, 3, 3), {"yahtzee": 50, "trois": 9}) == 25
    assert scored(CLASSIQUE_SHEET, "full", (3, 3, 3, 3, 3), {"yahtzee": 0, "trois": 9}) == 25


def test_with_upper_and_lower_boxes_filled_the_joker_scores_0_in_an_upper_box():
    filled = {
        "yahtzee": 50,
        "quatre": 12,
        "brelan": 20,
        "carre": 0,
        "full": 25,
        "petite_suite": 30,
        "grande_suite": 0,
        "chance": 22,
    }
    allowed = allowed_boxes(CLASSIQUE_SHEET, filled, (4, 4, 4, 4, 4))
    assert [b.id for b in allowed] == ["as", "deux", "trois", "cinq", "six"]
    assert all(points(CLASSIQUE_SHEET, b, (4,) * 5, filled) == 0 for b in allowed)


def test_a_first_yahtzee_may_go_anywhere():
    state, _ = play(game(CLASSIQUE), Roll(1, dice=(6, 6, 6, 6, 6)))
    assert set(scores(state, 1)) == set(CLASSIQUE_SHEET.ids)
    assert scores(state, 1)["full"] == 0
    assert scores(state, 1)["six"] == 30


def test_the_free_joker_variant_allows_any_box_and_scores_full_value_once_its_upper_box_is_filled():
    sheet = Rules.for_preset(CLASSIQUE, joker=FREE_JOKER).sheet
    assert len(allowed_boxes(sheet, {"yahtzee": 50}, (4,) * 5)) == 12
    assert points(sheet, box(sheet, "full"), (4,) * 5, {"yahtzee": 50}) == 0
    assert points(sheet, box(sheet, "full"), (4,) * 5, {"yahtzee": 50, "quatre": 8}) == 25


# --------------------------------------------------------------------------- rolls and holds


@BOTH
def test_a_turn_starts_with_a_roll_of_all_five_dice(sheet):
    state = game(YADES if sheet is YADES_SHEET else CLASSIQUE)
    assert [a for a in legal_actions(state, 1) if not isinstance(a, Leave)] == [Roll(1)]
    refused(state, Roll(1, keep=(0,), dice=(1, 2, 3, 4)), MustRollAll)
    refused(state, Score(1, "chance"), NotRolled)
    state, events = play(state, Roll(1, dice=(6, 1, 3, 3, 2)))
    assert the(events, "rolled").data == {
        "player": 1,
        "roll": 1,
        "kept": [],
        "dice": [6, 1, 3, 3, 2],
    }
    assert (state.rolls, state.dice) == (1, (6, 1, 3, 3, 2))


def test_kept_dice_stay_in_place_and_the_others_are_rolled_again():
    state, _ = play(game(), Roll(1, dice=(6, 1, 3, 3, 2)))
    state, events = play(state, Roll(1, keep=(2, 3), dice=(5, 4, 3)))
    assert state.dice == (5, 4, 3, 3, 3)
    assert the(events, "rolled").data["kept"] == [2, 3]
    assert the(events, "rolled").data["roll"] == 2


def test_keep_may_be_given_as_a_mask_of_positions():
    state, _ = play(game(), Roll(1, dice=(6, 1, 3, 3, 2)))
    by_mask, _ = play(state, Roll(1, keep=0b01100, dice=(5, 4, 3)))
    by_positions, _ = play(state, Roll(1, keep=(3, 2), dice=(5, 4, 3)))
    assert by_mask == by_positions


def test_any_subset_may_be_rolled_again_including_all_five():
    state, _ = play(game(), Roll(1, dice=(6, 1, 3, 3, 2)))
    rolls = [a for a in legal_actions(state, 1) if isinstance(a, Roll)]
    assert len(rolls) == 31
    assert Roll(1, ()) in rolls
    state, _ = play(state, Roll(1, keep=(), dice=(1, 1, 1, 1, 1)))
    assert state.dice == (1, 1, 1, 1, 1)


def test_keeping_all_five_dice_is_no_roll():
    state, _ = play(game(), Roll(1, dice=(6, 1, 3, 3, 2)))
    refused(state, Roll(1, keep=(0, 1, 2, 3, 4), dice=()), NothingToRoll)


def test_there_is_no_fourth_roll():
    state, _ = play(
        game(),
        Roll(1, dice=(6, 1, 3, 3, 2)),
        Roll(1, keep=(0,), dice=(1, 1, 1, 1)),
        Roll(1, keep=(0,), dice=(2, 2, 2, 2)),
    )
    assert state.rolls == 3
    assert not any(isinstance(a, Roll) for a in legal_actions(state, 1))
    refused(state, Roll(1, keep=(0,), dice=(3, 3, 3, 3)), NoRollsLeft)
    state, events = play(state, Score(1, "deux"))
    assert the(events, "scored").data["points"] == 8


@pytest.mark.parametrize(
    ("keep", "dice", "error"),
    [
        ((0,), (1, 2, 3), InvalidDice),
        ((0,), (1, 2, 3, 4, 5), InvalidDice),
        ((0,), (1, 2, 7, 4), InvalidDice),
        ((0,), (1, 2, 0, 4), InvalidDice),
        ((0,), None, InvalidDice),
        ((0, 0), (1, 2, 3), InvalidKeep),
        ((5,), (1, 2, 3, 4), InvalidKeep),
        ((-1,), (1, 2, 3, 4), InvalidKeep),
        (32, (1,), InvalidKeep),
        ("01", (1, 2, 3), InvalidKeep),
    ],
)
def test_malformed_rolls_are_refused(keep, dice, error):
    state, _ = play(game(), Roll(1, dice=(6, 1, 3, 3, 2)))
    refused(state, Roll(1, keep=keep, dice=dice), error)


def test_the_first_roll_needs_five_dice():
    refused(game(), Roll(1, dice=(1, 2, 3, 4)), InvalidDice)
    refused(game(), Roll(1), InvalidDice)


# --------------------------------------------------------------------------- filling boxes


def test_a_box_may_be_filled_after_any_roll_and_the_turn_passes():
    state, events = play(game(players=3), Roll(1, dice=(2, 2, 2, 5, 5)), Score(1, "full"))
    assert the(events, "scored").data["points"] == 25
    assert the(events, "turn_passed").data == {"player": 2, "turn": 2}
    assert (state.current, state.rolls, state.dice, state.turn) == (2, 0, None, 2)


def test_the_turn_order_is_the_order_given_by_the_caller():
    state = new_game([30, 10, 20], Rules())
    order = []
    for number in range(4):
        order.append(state.current)
        state, _ = turn(state, (1, 2, 3, 4, 6), "chance" if number < 3 else "as")
    assert order == [30, 10, 20, 30]


def test_scratching_fills_a_box_that_does_not_fit_with_0():
    state, events = turn(game(), (1, 2, 3, 5, 6), "carre")
    assert the(events, "scored").data["scratched"] is True
    assert seat_boxes(state, 1) == {"carre": 0}
    assert typed(events, "turn_passed")


def test_a_filled_box_cannot_be_filled_again():
    state, _ = turns(game(), ((1, 2, 3, 5, 6), "carre"), ((1, 2, 3, 5, 6), "carre"))
    state, _ = play(state, Roll(1, dice=(4, 4, 4, 4, 1)))
    assert "carre" not in scores(state, 1)
    assert Score(1, "carre") not in legal_actions(state, 1)
    error = refused(state, Score(1, "carre"), BoxFilled)
    assert error.params == {"box": "carre", "points": 0}


def test_an_unknown_box_is_refused():
    state, _ = play(game(CLASSIQUE), Roll(1, dice=(1, 2, 3, 4, 5)))
    refused(state, Score(1, "prime_yades"), UnknownBox)
    refused(state, Score(1, "sept"), UnknownBox)


def test_scores_lists_what_each_open_box_would_score_now():
    state, _ = play(game(), Roll(1, dice=(3, 3, 3, 5, 5)))
    assert scores(state, 1) == {
        "as": 0,
        "deux": 0,
        "trois": 9,
        "quatre": 0,
        "cinq": 10,
        "six": 0,
        "brelan": 19,
        "carre": 0,
        "full": 25,
        "petite_suite": 0,
        "grande_suite": 0,
        "yades": 0,
        "prime_yades": 0,
        "chance": 19,
    }
    assert scores(state, 2) == {}


def test_totals_add_up_both_sections_and_the_bonuses():
    state, _ = turns(
        game(CLASSIQUE),
        ((5, 5, 5, 5, 5), "yahtzee"),
        ((1, 1, 1, 1, 1), "as"),
        ((6, 6, 6, 6, 6), "six"),
    )
    result = totals(state, 1)
    assert (result.upper, result.bonus, result.lower, result.five_bonus) == (30, 0, 50, 100)
    assert result.total == 180
    assert totals(state, 2).total == 5


# --------------------------------------------------------------------------- whose turn


def test_only_the_current_player_rolls_or_scores():
    state = game(players=3)
    refused(state, Roll(2, dice=(1, 2, 3, 4, 5)), NotYourTurn)
    state, _ = play(state, Roll(1, dice=(1, 2, 3, 4, 5)))
    refused(state, Score(2, "chance"), NotYourTurn)
    assert legal_actions(state, 2) == [Leave(2)]


def test_strangers_are_refused():
    state = game()
    refused(state, Roll(9, dice=(1, 2, 3, 4, 5)), UnknownPlayer)
    refused(state, Leave(9), UnknownPlayer)
    assert legal_actions(state, 9) == []


@pytest.mark.parametrize("players", [[1], [], [1, 2, 3, 4, 5, 6, 7]])
def test_a_game_has_2_to_6_players(players):
    with pytest.raises(InvalidPlayers):
        new_game(players, Rules())


def test_a_player_sits_once():
    with pytest.raises(InvalidPlayers):
        new_game([1, 2, 1], Rules())


def test_six_players_may_play():
    state = new_game([1, 2, 3, 4, 5, 6], Rules())
    assert state.active() == [1, 2, 3, 4, 5, 6]


def test_an_unknown_action_is_refused():
    refused(game(), "roll", NotNow)  # type: ignore[arg-type]


# --------------------------------------------------------------------------- the end


def _play_out(state: State, dice_for: dict[int, tuple[int, ...]]) -> tuple[State, list[Event]]:
    """Every player fills their boxes in sheet order with their own dice until the end."""
    events: list[Event] = []
    while not state.over:
        player = state.current
        assert player is not None
        box_id = next(b for b in state.sheet.ids if b not in seat_boxes(state, player))
        state, produced = play(state, Roll(player, dice=dice_for[player]), Score(player, box_id))
        events.extend(produced)
    return state, events


@BOTH
def test_the_game_ends_when_every_box_of_every_player_is_filled(sheet):
    preset = YADES if sheet is YADES_SHEET else CLASSIQUE
    state, events = _play_out(
        game(preset, players=3), {1: (6,) * 5, 2: (1, 2, 3, 4, 5), 3: (2,) * 5}
    )
    assert state.phase == OVER and state.current is None
    assert all(len(seat.boxes) == len(sheet.boxes) for seat in state.seats)
    assert len(typed(events, "scored")) == 3 * len(sheet.boxes)
    won = the(events, "game_won")
    assert won.data["reason"] == "sheets_full"
    assert won.data["winners"] == [1] == state.winners
    assert [row["player"] for row in won.data["ranking"]] == [1, 3, 2]
    refused(state, Roll(1, dice=(1, 2, 3, 4, 5)), GameOver)
    assert legal_actions(state, 1) == []


def test_every_player_gets_one_turn_per_box():
    state, _ = _play_out(game(), {1: (6,) * 5, 2: (6,) * 5})
    assert state.turn == 2 * len(YADES_SHEET.boxes)


def test_a_tie_is_shared():
    state, events = _play_out(game(players=3), {1: (6,) * 5, 2: (1, 1, 1, 1, 2), 3: (6,) * 5})
    assert the(events, "game_won").data["winners"] == [1, 3]
    assert state.winners == [1, 3]
    assert totals(state, 1) == totals(state, 3)


# --------------------------------------------------------------------------- leaving and stopping


def test_a_player_leaving_on_their_turn_passes_it():
    state, _ = play(game(players=3), Roll(1, dice=(1, 2, 3, 4, 5)))
    state, events = play(state, Leave(1))
    assert [e.type for e in events] == ["player_left", "turn_passed"]
    assert (state.current, state.rolls, state.dice) == (2, 0, None)
    assert state.seat(1).status == LEFT  # type: ignore[union-attr]
    assert state.active() == [2, 3]
    assert legal_actions(state, 1) == []
    refused(state, Leave(1), UnknownPlayer)


def test_a_player_leaving_out_of_turn_does_not_change_whose_turn_it_is():
    state, _ = play(game(players=3), Roll(1, dice=(1, 2, 3, 4, 5)))
    state, events = play(state, Leave(2))
    assert [e.type for e in events] == ["player_left"]
    assert (state.current, state.rolls) == (1, 1)
    state, events = play(state, Score(1, "chance"))
    assert the(events, "turn_passed").data["player"] == 3


def test_a_game_with_one_player_left_ends_and_they_win():
    state, _ = turn(game(), (6, 6, 6, 6, 6), "six")
    state, events = play(state, Leave(2))
    assert [e.type for e in events] == ["player_left", "game_won"]
    assert the(events, "game_won").data["winners"] == [1]
    assert the(events, "game_won").data["reason"] == "players_left"
    assert state.phase == OVER and state.winners == [1]


def test_the_game_ends_when_the_last_open_sheet_leaves():
    state = game(players=3)
    dice = {1: (6,) * 5, 2: (5,) * 5, 3: (4,) * 5}
    for _ in range(len(YADES_SHEET.boxes) * 3 - 1):
        player = state.current
        assert player is not None
        box_id = next(b for b in YADES_SHEET.ids if b not in seat_boxes(state, player))
        state, _ = play(state, Roll(player, dice=dice[player]), Score(player, box_id))
    assert state.current == 3
    state, events = play(state, Leave(3))
    assert the(events, "game_won").data == {
        "winners": [1],
        "reason": "sheets_full",
        "ranking": [
            {"player": 1, "total": totals(state, 1).total},
            {"player": 2, "total": totals(state, 2).total},
        ],
    }


def test_stop_ends_the_game_without_a_winner():
    state, _ = turn(game(), (6, 6, 6, 6, 6), "six")
    state, events = play(state, Stop())
    assert the(events, "game_ended").data["reason"] == "stopped"
    assert the(events, "game_ended").data["winners"] == []
    assert state.phase == OVER and state.winners == []
    refused(state, Stop(), GameOver)


# --------------------------------------------------------------------------- events, JSON, replay


def test_every_event_is_public_and_shows_the_dice():
    state, events = play(
        game(), Roll(1, dice=(1, 2, 3, 4, 5)), Roll(1, keep=(0,), dice=(1, 1, 1, 1))
    )
    state, more = play(state, Score(1, "as"))
    for event in events + more:
        assert event.visibility == PUBLIC and event.to is None
        assert event.visible_to(None)
    assert [e.data["dice"] for e in typed(events, "rolled")] == [[1, 2, 3, 4, 5], [1, 1, 1, 1, 1]]


def test_replaying_the_events_rebuilds_the_state():
    initial = game(CLASSIQUE, players=3)
    state, events = _play_out(initial, {1: (3,) * 5, 2: (1, 2, 3, 4, 6), 3: (5,) * 5})
    assert replay(initial, events) == state
    logged = [
        EVENTS.from_json(raw) for raw in json.loads(json.dumps([e.to_json() for e in events]))
    ]
    assert replay(initial, logged) == state


def test_the_state_survives_a_json_round_trip_with_its_schema_version():
    state, _ = play(game(CLASSIQUE), Roll(1, dice=(1, 2, 3, 4, 5)))
    raw = json.loads(json.dumps(state.to_json()))
    assert raw["schema"] == 1 and raw["game"] == "yades"
    assert State.from_json(raw) == state
    raw["schema"] = 99
    with pytest.raises(ValueError):
        State.from_json(raw)


def test_a_maya_state_is_not_read_as_a_yades_one():
    from bot.games import maya

    raw = maya.new_game([1, 2]).to_json()
    with pytest.raises(ValueError):
        State.from_json(raw)


def test_apply_never_touches_the_state_it_is_given():
    state, _ = play(game(), Roll(1, dice=(1, 2, 3, 4, 5)))
    before = state.to_json()
    after, _ = play(state, Score(1, "grande_suite"))
    assert state.to_json() == before
    assert after.phase == PLAY and after.current == 2


# --------------------------------------------------------------------------- sheets are data


def test_a_server_may_remove_boxes():
    rules = Rules.for_preset(YADES, remove=["prime_yades", "chance"])
    assert len(rules.sheet.boxes) == 12
    state, _ = play(new_game([1, 2], rules), Roll(1, dice=(1, 2, 3, 4, 5)))
    refused(state, Score(1, "chance"), UnknownBox)


def test_a_server_may_add_boxes_and_they_score_by_their_definition():
    extra = {"id": "double_paire", "kind": OF_A_KIND, "count": 2, "points": 15}
    rules = Rules.for_preset(CLASSIQUE, add=[extra, Box("sept_suite", STRAIGHT, count=2, points=7)])
    assert rules.sheet.ids[-2:] == ("double_paire", "sept_suite")
    state, _ = play(new_game([1, 2], rules), Roll(1, dice=(1, 1, 4, 5, 6)))
    assert scores(state, 1)["double_paire"] == 15
    assert scores(state, 1)["sept_suite"] == 7
    assert State.from_json(json.loads(json.dumps(state.to_json()))) == state


def test_sheet_options_change_the_bonus():
    rules = Rules.for_preset(YADES, bonus_threshold=40, bonus_strict=False, bonus_points=20)
    filled = {"six": 24, "cinq": 15, "as": 1}
    assert sheet_totals(rules.sheet, filled).bonus == 20


@pytest.mark.parametrize(
    ("preset", "options"),
    [
        ("yahtzee", {}),
        (YADES, {"remove": ["sept"]}),
        (YADES, {"add": [Box("as", FACE, UPPER, face=1)]}),
        (YADES, {"add": [Box("un", FACE, UPPER, face=1)]}),
        (YADES, {"add": [Box("cinq_pareils", FIVE_OF_A_KIND, points=50)]}),
        (YADES, {"remove": ["yades"]}),
        (CLASSIQUE, {"remove": ["yahtzee"]}),
        (YADES, {"add": [{"id": "x", "kind": "seven"}]}),
        (YADES, {"add": [{"id": "x", "kind": STRAIGHT, "count": 6, "points": 10}]}),
        (YADES, {"add": [{"id": "x", "kind": FACE, "face": 7}]}),
        (YADES, {"add": [{"id": "X Y", "kind": "chance"}]}),
        (YADES, {"add": [{"id": "x", "kind": "chance", "colour": "red"}]}),
        (YADES, {"add": [{"id": "x", "kind": PRIME}]}),
        (YADES, {"bonus_threshold": -1}),
        (YADES, {"bonus_points": True}),
        (YADES, {"joker": "maybe"}),
        (YADES, {"surprise": 1}),
        (
            YADES,
            {"add": [Box(f"b{i}", OF_A_KIND, count=3, points=i + 1) for i in range(3)]},
        ),
    ],
)
def test_invalid_sheets_are_refused_with_a_typed_error(preset, options):
    with pytest.raises(InvalidRules):
        Rules.for_preset(preset, **options)


def test_the_sheet_digest_names_a_sheet_by_its_content():
    assert YADES_SHEET.digest() == Rules.for_preset(YADES).sheet.digest()
    assert YADES_SHEET.digest() != CLASSIQUE_SHEET.digest()
    assert Rules.for_preset(YADES, remove=["chance"]).sheet.digest() != YADES_SHEET.digest()
