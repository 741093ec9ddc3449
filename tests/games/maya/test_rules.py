"""Rule tests of the Maya/Mia engine (docs/rules.md#maya), one per rule statement, with
scripted dice.

Every action that rolls carries its dice (``dice=(a, b)``, ``face=``), so each test plays
exactly the round it describes, through the public API only.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from bot.games.maya import (
    ANNOUNCE,
    OPEN,
    OVER,
    PRIVATE,
    RESPOND,
    SECRET,
    SOIREE,
    VIES,
    AcceptFault,
    AcceptMaya,
    Accuse,
    Action,
    AlreadySeated,
    AlreadyVoted,
    Announce,
    AnnouncementTooLow,
    Appeal,
    Believe,
    BlindPlayNotAllowed,
    CloseVote,
    ContestFault,
    Eliminated,
    Event,
    FaultNotAllowed,
    Fragile,
    GameError,
    GameOver,
    InvalidDice,
    InvalidPlayers,
    InvalidRules,
    Join,
    Leave,
    Lift,
    NotAVoter,
    NotNow,
    NotYourTurn,
    OptionDisabled,
    Photo,
    PhotoNotAllowed,
    Roll,
    Rules,
    Seat,
    SecondChance,
    State,
    Stop,
    TableFull,
    Tap,
    UnknownFault,
    UnknownPlayer,
    UnknownValue,
    Vote,
    Warrior,
    WithdrawVote,
    apply,
    complete,
    legal_actions,
    new_game,
    replay,
    view,
)
from bot.games.maya.values import MAYA, ORDER, neighbours

# --------------------------------------------------------------------------- helpers


def game(preset: str = SOIREE, players: int = 3, **options: Any) -> State:
    """A fresh game for players 1..``players``, seated in that order; player 1 opens."""
    return new_game(list(range(1, players + 1)), Rules.for_preset(preset, **options))


def play(state: State, *actions: Action) -> tuple[State, list[Event]]:
    """Apply ``actions`` in order; the final state and every event they caused."""
    events: list[Event] = []
    for action in actions:
        state, produced = apply(state, action)
        events.extend(produced)
    return state, events


def opened(state: State, dice: tuple[int, int], value: int, **roll: Any) -> tuple[State, list]:
    """The opener rolls ``dice`` and announces ``value``."""
    opener = state.current
    assert opener is not None
    return play(state, Roll(opener, dice=dice, **roll), Announce(opener, value))


def believed(state: State, dice: tuple[int, int], value: int, **roll: Any) -> tuple[State, list]:
    """The responder believes, rolls ``dice`` and announces ``value``."""
    player = state.current
    assert player is not None
    return play(state, Believe(player, dice=dice, **roll), Announce(player, value))


def lifted(state: State) -> tuple[State, list[Event]]:
    """The responder lifts the cup."""
    assert state.current is not None
    return play(state, Lift(state.current))


def typed(events: list[Event], kind: str) -> list[Event]:
    return [event for event in events if event.type == kind]


def the(events: list[Event], kind: str) -> Event:
    """The one event of type ``kind``."""
    found = typed(events, kind)
    assert len(found) == 1, f"expected one {kind!r}, got {[event.type for event in events]}"
    return found[0]


def carries(event: Event, expected: dict[str, Any]) -> bool:
    """``event`` carries (at least) ``expected`` in its data."""
    assert {key: event.data.get(key) for key in expected} == expected, event.data
    return True


def seat(state: State, player: int) -> Seat:
    found = state.seat(player)
    assert found is not None
    return found


FAULT_ACTIONS = (Accuse, AcceptFault, ContestFault, Vote, Appeal)


def turn_actions(state: State, player: int) -> list[Action]:
    """The legal actions of ``player`` that play the round (no faults, no leaving)."""
    return [
        action
        for action in legal_actions(state, player)
        if not isinstance(action, (*FAULT_ACTIONS, Leave, Join))
    ]


def refused(state: State, action: Action, error: type[GameError]) -> GameError:
    """``action`` raises ``error`` (with its code) and leaves ``state`` exactly as it was."""
    before = state.to_json()
    with pytest.raises(error) as caught:
        apply(state, action)
    assert type(caught.value) is error
    assert caught.value.code == error.code
    assert state.to_json() == before
    return caught.value


def announced_values(state: State, player: int) -> list[int]:
    return [action.value for action in legal_actions(state, player) if isinstance(action, Announce)]


BOTH = pytest.mark.parametrize("preset", [SOIREE, VIES])


# --------------------------------------------------------------------------- announcing


@BOTH
def test_the_opener_may_announce_anything(preset):
    state, _ = play(game(preset), Roll(1, dice=(3, 1)))
    assert announced_values(state, 1) == list(ORDER)
    for value in ORDER:
        after, events = play(state, Announce(1, value))
        assert the(events, "announced").data["value"] == value
        assert after.announced == value
        assert after.phase == RESPOND
        assert after.current == 2


@BOTH
def test_an_announcement_must_be_strictly_stronger_than_the_previous_one(preset):
    state, _ = opened(game(preset), (6, 1), 61)
    state, _ = play(state, Believe(2, dice=(6, 4)))
    for value in (31, 53, 61):
        refused(state, Announce(2, value), AnnouncementTooLow)
    assert announced_values(state, 2) == list(ORDER[ORDER.index(61) + 1 :])
    state, _ = play(state, Announce(2, 62))
    assert state.announced == 62
    assert state.announcer == 2


def test_a_too_low_announcement_reports_the_minimum_allowed():
    state, _ = opened(game(), (6, 1), 61)
    state, _ = play(state, Believe(2, dice=(6, 4)))
    error = refused(state, Announce(2, 53), AnnouncementTooLow)
    assert error.params["minimum"] == 62
    assert error.params["previous"] == 61
    assert error.code == "announcement_too_low"

    state, _ = opened(game(), (6, 5), 65)
    state, _ = play(state, Believe(2, dice=(6, 4)))
    assert refused(state, Announce(2, 65), AnnouncementTooLow).params["minimum"] == 11


def test_in_the_party_preset_the_previous_value_can_be_repeated_only_as_photo():
    state, _ = opened(game(SOIREE), (6, 1), 61)
    state, _ = play(state, Believe(2, dice=(4, 4)))
    refused(state, Announce(2, 61), AnnouncementTooLow)
    state, events = play(state, Photo(2))
    assert the(events, "announced").data["value"] == 61
    assert the(events, "announced").data["photo"] is True
    assert state.announced == 61


def test_in_the_lives_preset_the_previous_value_cannot_be_repeated_at_all():
    state, _ = opened(game(VIES), (6, 1), 61)
    state, _ = play(state, Believe(2, dice=(4, 4)))
    refused(state, Announce(2, 61), AnnouncementTooLow)
    refused(state, Photo(2), PhotoNotAllowed)
    assert Photo(2) not in legal_actions(state, 2)


@pytest.mark.parametrize("value", [26, 12, 13, 0, 7, 77, 100])
def test_only_values_of_the_order_can_be_announced(value):
    state, _ = play(game(), Roll(1, dice=(3, 1)))
    refused(state, Announce(1, value), UnknownValue)


def test_under_announcing_is_legal_and_a_lift_then_finds_the_announcement_true():
    state, _ = opened(game(), (6, 6), 31)
    assert state.announced == 31
    state, events = lifted(state)
    revealed = the(events, "revealed").data
    assert revealed["value"] == 66
    assert revealed["announced"] == 31
    assert revealed["truthful"] is True
    assert the(events, "drank").data["player"] == 2


def test_a_believer_rolls_fresh_dice_and_sees_only_those():
    state, _ = opened(game(), (5, 3), 53)
    state, events = play(state, Believe(2, dice=(6, 4)))
    assert state.phase == ANNOUNCE
    assert state.current == state.holder == 2
    assert state.cup == (6, 4)
    assert view(state, 2).my_dice == (6, 4)
    private = the(events, "dice")
    assert private.visibility == PRIVATE
    assert private.to == 2
    assert private.data["dice"] == [6, 4]


def test_the_roller_alone_sees_their_dice():
    state, events = play(game(), Roll(1, dice=(5, 3)))
    dice = the(events, "dice")
    assert dice.visibility == PRIVATE
    assert dice.to == 1
    assert dice.visible_to(1)
    assert not dice.visible_to(2)
    assert not dice.visible_to(None)
    assert view(state, 1).my_dice == (5, 3)
    assert view(state, 2).my_dice is None
    assert view(state, 3).my_dice is None


# --------------------------------------------------------------------------- lifting


def test_a_lift_on_a_true_announcement_makes_the_lifter_lose():
    state, _ = opened(game(), (6, 2), 53)
    state, events = lifted(state)
    assert the(events, "revealed").data["truthful"] is True
    assert the(events, "drank").data["player"] == 2
    assert the(events, "round_ended").data["loser"] == 2


def test_dice_equal_to_the_announcement_make_it_true():
    state, _ = opened(game(), (3, 5), 53)
    state, events = lifted(state)
    assert the(events, "revealed").data["truthful"] is True
    assert the(events, "round_ended").data["loser"] == 2


def test_a_lift_on_a_bluff_makes_the_announcer_lose():
    state, _ = opened(game(), (5, 2), 53)
    state, events = lifted(state)
    assert the(events, "revealed").data["truthful"] is False
    assert the(events, "drank").data["player"] == 1
    assert the(events, "round_ended").data["loser"] == 1


@pytest.mark.parametrize(("dice", "loser"), [((5, 3), 2), ((5, 2), 1)])
def test_in_the_party_preset_a_lost_lift_costs_one_sip(dice, loser):
    state, _ = opened(game(SOIREE), dice, 53)
    state, events = lifted(state)
    assert carries(
        the(events, "drank"), {"player": loser, "sips": 1, "glasses": 0, "reason": "lift"}
    )
    assert typed(events, "life_lost") == []
    assert {s.player: (s.sips, s.glasses) for s in state.seats} == {
        p: ((1, 0) if p == loser else (0, 0)) for p in (1, 2, 3)
    }


@pytest.mark.parametrize(("dice", "loser"), [((5, 3), 2), ((5, 2), 1)])
def test_in_the_lives_preset_a_lost_lift_costs_one_life(dice, loser):
    state, _ = opened(game(VIES), dice, 53)
    state, events = lifted(state)
    lost = the(events, "life_lost").data
    assert lost["player"] == loser
    assert lost["lives"] == 1
    assert lost["remaining"] == 2
    assert typed(events, "drank") == []
    assert {s.player: s.lives for s in state.seats} == {
        p: (2 if p == loser else 3) for p in (1, 2, 3)
    }
    assert all(s.sips == 0 and s.glasses == 0 for s in state.seats)


@pytest.mark.parametrize(("dice", "truthful", "loser"), [((5, 3), True, 3), ((5, 2), False, 2)])
def test_a_lift_on_a_photo_checks_the_copied_value(dice, truthful, loser):
    state, _ = opened(game(), (6, 6), 53)
    state, _ = play(state, Believe(2, dice=dice), Photo(2))
    state, events = lifted(state)
    revealed = the(events, "revealed").data
    assert revealed["announced"] == 53
    assert revealed["photo"] is True
    assert revealed["truthful"] is truthful
    assert the(events, "round_ended").data["loser"] == loser


def test_a_lift_checks_the_last_announcers_dice_not_earlier_ones():
    state, _ = opened(game(), (2, 1), 31)  # a real Maya under-announced
    state, _ = believed(state, (3, 1), 41)  # a bluff on fresh dice
    state, events = lifted(state)
    revealed = the(events, "revealed").data
    assert revealed["player"] == 2
    assert revealed["dice"] == [3, 1]
    assert revealed["truthful"] is False
    assert the(events, "round_ended").data["loser"] == 2


def test_a_lift_reveals_the_dice_publicly():
    state, _ = opened(game(), (4, 2), 42)
    _, events = lifted(state)
    revealed = the(events, "revealed")
    assert revealed.public
    assert revealed.visible_to(None)
    assert revealed.data["dice"] == [4, 2]
    assert revealed.data["value"] == 42


# --------------------------------------------------------------------------- photo


def test_photo_is_allowed_as_exactly_the_previous_value():
    state, _ = opened(game(), (5, 3), 53)
    state, _ = play(state, Believe(2, dice=(3, 1)))
    assert Photo(2) in legal_actions(state, 2)
    state, events = play(state, Photo(2))
    announced = the(events, "announced").data
    assert announced["photo"] is True
    assert announced["value"] == 53
    assert state.photo is True
    assert state.announced == 53
    assert state.announcer == 2
    assert state.current == 3


def test_photo_is_not_allowed_after_a_photo():
    state, _ = opened(game(), (5, 3), 53)
    state, _ = play(state, Believe(2, dice=(3, 1)), Photo(2), Believe(3, dice=(6, 6)))
    assert Photo(3) not in legal_actions(state, 3)
    assert refused(state, Photo(3), PhotoNotAllowed).params["reason"] == "after_photo"


def test_after_a_photo_the_next_announcement_must_beat_the_copied_value():
    state, _ = opened(game(), (5, 3), 53)
    state, _ = play(state, Believe(2, dice=(3, 1)), Photo(2), Believe(3, dice=(6, 6)))
    refused(state, Announce(3, 53), AnnouncementTooLow)
    assert announced_values(state, 3)[0] == 54
    state, _ = play(state, Announce(3, 54))
    assert state.announced == 54
    assert state.photo is False


def test_photo_is_allowed_again_once_a_plain_announcement_follows_a_photo():
    state, _ = opened(game(SOIREE, 4), (5, 3), 53)
    state, _ = play(state, Believe(2, dice=(3, 1)), Photo(2))
    state, _ = believed(state, (6, 6), 54)
    state, _ = play(state, Believe(4, dice=(1, 1)))
    assert Photo(4) in legal_actions(state, 4)
    state, events = play(state, Photo(4))
    assert the(events, "announced").data["value"] == 54


def test_photo_is_not_allowed_for_the_opener():
    state, _ = play(game(), Roll(1, dice=(5, 3)))
    assert Photo(1) not in legal_actions(state, 1)
    refused(state, Photo(1), PhotoNotAllowed)


def test_photo_is_not_allowed_when_the_option_is_off():
    state, _ = opened(game(photo=False), (5, 3), 53)
    state, _ = play(state, Believe(2, dice=(3, 1)))
    assert Photo(2) not in legal_actions(state, 2)
    assert refused(state, Photo(2), PhotoNotAllowed).params["reason"] == "disabled"


def test_photo_is_off_by_default_in_the_lives_preset():
    assert Rules.for_preset(VIES).photo is False
    state, _ = opened(game(VIES), (5, 3), 53)
    state, _ = play(state, Believe(2, dice=(3, 1)))
    assert Photo(2) not in legal_actions(state, 2)
    assert refused(state, Photo(2), PhotoNotAllowed).params["reason"] == "disabled"


def test_photo_is_not_allowed_on_a_maya_the_receiver_has_no_announcement_at_all():
    state, _ = opened(game(), (2, 1), MAYA)
    assert turn_actions(state, 2) == [Lift(2), Fragile(2), Warrior(2)]
    refused(state, Photo(2), NotNow)
    refused(state, Announce(2, MAYA), NotNow)
    refused(state, Believe(2, dice=(2, 1)), NotNow)


# --------------------------------------------------------------------------- Maya, party preset


def test_a_lift_on_a_real_maya_costs_the_lifter_a_whole_glass():
    state, _ = opened(game(), (1, 2), MAYA)
    state, events = lifted(state)
    assert the(events, "revealed").data["truthful"] is True
    assert carries(
        the(events, "drank"),
        {
            "player": 2,
            "sips": 0,
            "glasses": 1,
            "reason": "maya_lift",
        },
    )
    assert seat(state, 2).glasses == 1
    assert seat(state, 2).sips == 0
    assert seat(state, 1).glasses == 0


def test_a_lift_on_a_fake_maya_costs_the_announcer_a_whole_glass():
    state, _ = opened(game(), (6, 6), MAYA)
    state, events = lifted(state)
    assert the(events, "revealed").data["truthful"] is False
    assert the(events, "drank").data["player"] == 1
    assert the(events, "drank").data["glasses"] == 1
    assert seat(state, 1).glasses == 1
    assert seat(state, 2).glasses == 0


def test_a_fragile_drinks_one_sip_and_the_round_is_over():
    state, _ = opened(game(), (6, 6), MAYA)
    state, events = play(state, Fragile(2))
    assert the(events, "maya_believed").data["style"] == "fragile"
    assert carries(
        the(events, "drank"), {"player": 2, "sips": 1, "glasses": 0, "reason": "fragile"}
    )
    assert typed(events, "revealed") == []
    assert seat(state, 2).sips == 1
    assert seat(state, 2).glasses == 0
    assert state.phase == OPEN
    assert state.announced is None
    assert state.cup is None


def test_a_warrior_who_rolls_a_maya_makes_the_player_after_him_drink_a_glass():
    state, _ = opened(game(), (3, 1), MAYA)
    state, events = play(state, Warrior(2, dice=(1, 2)))
    rolled = the(events, "warrior_rolled")
    assert rolled.public
    assert rolled.data["dice"] == [1, 2]
    assert rolled.data["success"] is True
    assert rolled.data["verifier"] == 3
    assert carries(
        the(events, "drank"), {"player": 3, "sips": 0, "glasses": 1, "reason": "warrior"}
    )
    assert seat(state, 3).glasses == 1
    assert seat(state, 2).glasses == 0
    assert seat(state, 1).glasses == 0


def test_a_warrior_who_misses_the_maya_drinks_a_glass():
    state, _ = opened(game(), (2, 1), MAYA)
    state, events = play(state, Warrior(2, dice=(6, 6)))
    assert the(events, "warrior_rolled").data["success"] is False
    assert carries(
        the(events, "drank"), {"player": 2, "sips": 0, "glasses": 1, "reason": "warrior"}
    )
    assert seat(state, 2).glasses == 1
    assert seat(state, 3).glasses == 0


MAYA_EPISODES = [
    pytest.param((2, 1), Lift(2), id="lift-real"),
    pytest.param((6, 6), Lift(2), id="lift-fake"),
    pytest.param((6, 6), Fragile(2), id="fragile"),
    pytest.param((6, 6), Warrior(2, dice=(2, 1)), id="warrior-success"),
    pytest.param((6, 6), Warrior(2, dice=(3, 1)), id="warrior-failure"),
]


@pytest.mark.parametrize("ouvreur", ["perdant", "suivant"])
@pytest.mark.parametrize(("dice", "response"), MAYA_EPISODES)
def test_after_any_maya_episode_the_receiver_opens_the_next_round(ouvreur, dice, response):
    state, _ = opened(game(SOIREE, 4, ouvreur=ouvreur), dice, MAYA)
    state, events = play(state, response)
    assert the(events, "round_ended").data["opener"] == 2
    assert state.phase == OPEN
    assert state.current == 2
    assert state.may_reverse is True


@pytest.mark.parametrize(("dice", "response"), MAYA_EPISODES)
def test_the_maya_receiver_may_reverse_the_direction(dice, response):
    state, _ = opened(game(), dice, MAYA)
    state, _ = play(state, response)
    assert Roll(2, None, False, True) in legal_actions(state, 2)
    state, events = play(state, Roll(2, dice=(4, 1), reverse=True))
    reversed_ = the(events, "direction_reversed")
    assert reversed_.public
    assert carries(reversed_, {"player": 2, "direction": -1})
    assert state.direction == -1
    assert view(state, 3).direction == -1


def test_after_a_reversal_the_order_of_play_really_reverses():
    state, _ = opened(game(SOIREE, 4), (2, 1), MAYA)
    state, _ = play(state, Fragile(2), Roll(2, dice=(4, 1), reverse=True), Announce(2, 41))
    assert state.current == 1  # not 3
    state, _ = believed(state, (5, 1), 51)
    assert state.current == 4
    state, _ = believed(state, (5, 2), 52)
    assert state.current == 3
    state, events = lifted(state)
    assert the(events, "revealed").data["player"] == 4


def test_a_player_who_keeps_the_direction_after_a_maya_keeps_the_order_of_play():
    state, _ = opened(game(), (2, 1), MAYA)
    state, events = play(state, Fragile(2), Roll(2, dice=(4, 1)), Announce(2, 41))
    assert typed(events, "direction_reversed") == []
    assert state.direction == 1
    assert state.current == 3


def test_reversing_is_legal_only_when_opening_right_after_a_maya():
    fresh = game()
    assert Roll(1, None, False, True) not in legal_actions(fresh, 1)
    refused(fresh, Roll(1, dice=(3, 1), reverse=True), NotNow)

    after_a_lift, _ = lifted(opened(fresh, (5, 3), 53)[0])
    assert after_a_lift.may_reverse is False
    assert not any(
        isinstance(a, Roll) and a.reverse for a in legal_actions(after_a_lift, after_a_lift.current)
    )
    refused(after_a_lift, Roll(2, dice=(3, 1), reverse=True), NotNow)

    after_maya, _ = play(opened(fresh, (2, 1), MAYA)[0], Fragile(2))
    started, _ = play(after_maya, Roll(2, dice=(3, 1)))
    assert started.may_reverse is False
    next_round, _ = lifted(play(started, Announce(2, 31))[0])
    refused(next_round, Roll(next_round.current, dice=(3, 1), reverse=True), NotNow)


def test_only_the_maya_receiver_may_reverse_the_direction():
    state, _ = opened(game(SOIREE, 4), (2, 1), MAYA)
    state, _ = play(state, Fragile(2), Leave(2))  # the receiver leaves before opening
    assert state.current == 3
    assert not any(isinstance(a, Roll) and a.reverse for a in legal_actions(state, 3))
    refused(state, Roll(3, dice=(3, 1), reverse=True), NotNow)


def test_without_inversion_maya_no_reverse_is_offered():
    state, _ = opened(game(inversion_maya=False), (2, 1), MAYA)
    state, events = play(state, Fragile(2))
    assert the(events, "round_ended").data["may_reverse"] is False
    assert state.current == 2
    assert all(not a.reverse for a in legal_actions(state, 2) if isinstance(a, Roll))
    refused(state, Roll(2, dice=(3, 1), reverse=True), NotNow)


def test_without_warrior_fragile_believing_a_maya_costs_one_sip():
    state, _ = opened(game(warrior_fragile=False), (6, 6), MAYA)
    assert turn_actions(state, 2) == [Lift(2), AcceptMaya(2)]
    refused(state, Fragile(2), OptionDisabled)
    refused(state, Warrior(2, dice=(2, 1)), OptionDisabled)
    state, events = play(state, AcceptMaya(2))
    assert the(events, "drank").data["sips"] == 1
    assert seat(state, 2).sips == 1
    assert state.current == 2


def test_warrior_and_fragile_answer_only_a_maya():
    state, _ = opened(game(), (6, 6), 66)
    assert turn_actions(state, 2) == [Lift(2), Believe(2), Believe(2, None, True)]
    refused(state, Fragile(2), NotNow)
    refused(state, Warrior(2, dice=(2, 1)), NotNow)


# --------------------------------------------------------------------------- Maya, lives preset


def test_in_the_lives_preset_a_maya_is_accepted_or_lifted():
    state, _ = opened(game(VIES), (2, 1), MAYA)
    assert turn_actions(state, 2) == [Lift(2), AcceptMaya(2)]
    refused(state, Fragile(2), OptionDisabled)
    refused(state, Warrior(2, dice=(2, 1)), OptionDisabled)
    refused(state, Believe(2, dice=(2, 1)), NotNow)


def test_accepting_a_maya_costs_one_life():
    state, _ = opened(game(VIES), (6, 6), MAYA)
    state, events = play(state, AcceptMaya(2))
    assert typed(events, "revealed") == []
    lost = the(events, "life_lost").data
    assert (lost["player"], lost["lives"], lost["remaining"]) == (2, 1, 2)
    assert [s.lives for s in state.seats] == [3, 2, 3]


def test_a_lift_on_a_real_maya_costs_the_lifter_two_lives():
    state, _ = opened(game(VIES), (2, 1), MAYA)
    state, events = lifted(state)
    lost = the(events, "life_lost").data
    assert (lost["player"], lost["lives"], lost["remaining"]) == (2, 2, 1)
    assert [s.lives for s in state.seats] == [3, 1, 3]


def test_a_lift_on_a_fake_maya_costs_the_announcer_one_life():
    state, _ = opened(game(VIES), (6, 6), MAYA)
    state, events = lifted(state)
    lost = the(events, "life_lost").data
    assert (lost["player"], lost["lives"], lost["remaining"]) == (1, 1, 2)
    assert [s.lives for s in state.seats] == [2, 3, 3]


def test_a_real_maya_lift_takes_at_most_the_lives_a_lifter_has_left():
    state, _ = opened(game(VIES, vies=1), (2, 1), MAYA)
    state, events = lifted(state)
    lost = the(events, "life_lost").data
    assert (lost["player"], lost["lives"], lost["remaining"]) == (2, 1, 0)
    assert the(events, "eliminated").data["player"] == 2


@pytest.mark.parametrize("ouvreur", ["perdant", "suivant"])
@pytest.mark.parametrize(
    ("dice", "response", "loser"),
    [((6, 6), AcceptMaya(2), 2), ((2, 1), Lift(2), 2), ((6, 6), Lift(2), 1)],
)
def test_in_the_lives_preset_the_ouvreur_rule_applies_after_a_maya(ouvreur, dice, response, loser):
    state, _ = opened(game(VIES, 4, ouvreur=ouvreur), dice, MAYA)
    state, events = play(state, response)
    expected = loser if ouvreur == "perdant" else loser + 1
    assert the(events, "round_ended").data["opener"] == expected
    assert state.current == expected
    assert state.may_reverse is False
    refused(state, Roll(expected, dice=(3, 1), reverse=True), NotNow)


# --------------------------------------------------------------------------- blind plays


def test_a_blind_roll_sends_the_dice_only_in_a_secret_event():
    state, events = play(game(), Roll(1, dice=(4, 2), blind=True))
    assert the(events, "rolled").data["blind"] is True
    dice = the(events, "dice")
    assert dice.visibility == SECRET
    assert dice.to is None
    assert not dice.visible_to(1)
    assert [e for e in events if e.visibility == PRIVATE] == []
    assert view(state, 1).my_dice is None
    assert state.cup == (4, 2)


def test_a_blind_believe_sends_the_dice_only_in_a_secret_event():
    state, _ = opened(game(), (3, 1), 31)
    state, events = play(state, Believe(2, dice=(6, 5), blind=True))
    assert the(events, "dice").visibility == SECRET
    assert [e for e in events if e.visibility == PRIVATE] == []
    assert view(state, 2).my_dice is None
    assert state.cup == (6, 5)


def test_an_announcement_after_a_blind_roll_is_marked_blind():
    state, events = opened(game(), (4, 2), 42, blind=True)
    assert the(events, "announced").data["blind"] is True
    assert state.blind_announce is True
    assert view(state, 2).blind_announce is True
    plain, events = opened(game(), (4, 2), 42)
    assert the(events, "announced").data["blind"] is False
    assert plain.blind_announce is False


@pytest.mark.parametrize(("value", "loser"), [(42, 2), (43, 1)])
def test_the_real_dice_decide_a_lift_after_a_blind_roll(value, loser):
    state, _ = opened(game(), (4, 2), value, blind=True)
    state, events = lifted(state)
    assert the(events, "revealed").data["dice"] == [4, 2]
    assert the(events, "round_ended").data["loser"] == loser


def test_blind_rolls_are_refused_when_aveugle_is_off():
    state = game(aveugle=False)
    assert all(not a.blind for a in legal_actions(state, 1) if isinstance(a, Roll))
    refused(state, Roll(1, dice=(3, 1), blind=True), OptionDisabled)
    state, _ = opened(state, (3, 1), 31)
    assert all(not a.blind for a in legal_actions(state, 2) if isinstance(a, Believe))
    refused(state, Believe(2, dice=(3, 1), blind=True), OptionDisabled)


@pytest.mark.parametrize("die", [0, 1])
def test_a_tapped_die_may_land_only_on_itself_or_one_of_its_four_neighbours(die):
    state, _ = play(game(), Roll(1, dice=(3, 5)))
    pip = (3, 5)[die]
    allowed = {pip, *neighbours(pip)}
    assert len(allowed) == 5
    for face in range(1, 7):
        if face in allowed:
            after, _ = play(state, Tap(1, die, face=face))
            expected = [3, 5]
            expected[die] = face
            assert after.cup == tuple(expected)
        else:
            assert face == 7 - pip
            refused(state, Tap(1, die, face=face), InvalidDice)
    for face in (0, 7, None):
        refused(state, Tap(1, die, face=face), InvalidDice)
    refused(state, Tap(1, 2, face=3), InvalidDice)


def test_tapote_sends_the_new_dice_only_in_a_secret_event():
    state, _ = play(game(), Roll(1, dice=(3, 1)))
    state, events = play(state, Tap(1, 0, face=2))
    assert the(events, "tapped").public
    assert carries(the(events, "tapped"), {"player": 1, "die": 0})
    dice = the(events, "dice")
    assert dice.visibility == SECRET
    assert dice.data["dice"] == [2, 1]
    assert [e for e in events if e.visibility == PRIVATE] == []
    assert state.cup == (2, 1)


def test_after_a_tapote_the_owner_still_sees_the_dice_seen_before_the_tap():
    state, _ = play(game(), Roll(1, dice=(3, 1)), Tap(1, 0, face=2))
    assert view(state, 1).my_dice == (3, 1)
    assert view(state, 1).my_play == "tapote"


def test_an_announcement_after_a_tapote_is_marked_blind():
    state, _ = play(game(), Roll(1, dice=(3, 1)), Tap(1, 0, face=3))  # the die stayed
    state, events = play(state, Announce(1, 31))
    assert the(events, "announced").data["blind"] is True
    assert state.blind_announce is True


def test_the_real_dice_decide_a_lift_after_a_tapote():
    # The example of docs/rules.md#maya-blind: 31, tap the 3 hoping for a 2, announce Maya blind.
    state, _ = play(game(), Roll(1, dice=(3, 1)), Tap(1, 0, face=2), Announce(1, MAYA))
    state, events = lifted(state)
    assert the(events, "revealed").data["dice"] == [2, 1]
    assert the(events, "revealed").data["truthful"] is True
    assert carries(
        the(events, "drank"),
        {
            "player": 2,
            "sips": 0,
            "glasses": 1,
            "reason": "maya_lift",
        },
    )

    state, _ = play(game(), Roll(1, dice=(3, 1)), Tap(1, 0, face=5), Announce(1, MAYA))
    state, events = lifted(state)
    assert the(events, "revealed").data["dice"] == [5, 1]
    assert the(events, "drank").data["player"] == 1


def test_tapote_is_refused_when_the_option_is_off():
    state, _ = play(game(tapote=False), Roll(1, dice=(3, 1)))
    assert not any(isinstance(a, Tap) for a in legal_actions(state, 1))
    refused(state, Tap(1, 0, face=2), OptionDisabled)


def test_seconde_chance_rerolls_both_dice_in_a_secret_event():
    state, _ = play(game(), Roll(1, dice=(3, 1)))
    assert SecondChance(1) in legal_actions(state, 1)
    state, events = play(state, SecondChance(1, dice=(6, 5)))
    assert the(events, "second_chance").public
    dice = the(events, "dice")
    assert dice.visibility == SECRET
    assert dice.data["dice"] == [6, 5]
    assert [e for e in events if e.visibility == PRIVATE] == []
    assert state.cup == (6, 5)
    assert view(state, 1).my_dice == (3, 1)
    assert view(state, 1).my_play == "seconde_chance"


def test_an_announcement_after_a_seconde_chance_is_marked_blind():
    state, _ = play(game(), Roll(1, dice=(3, 1)), SecondChance(1, dice=(3, 1)))
    state, events = play(state, Announce(1, 31))
    assert the(events, "announced").data["blind"] is True
    assert state.blind_announce is True


@pytest.mark.parametrize(("reroll", "loser"), [((6, 6), 2), ((4, 3), 1)])
def test_the_real_dice_decide_a_lift_after_a_seconde_chance(reroll, loser):
    state, _ = play(game(), Roll(1, dice=(6, 5)), SecondChance(1, dice=reroll), Announce(1, 65))
    state, events = lifted(state)
    assert the(events, "revealed").data["dice"] == list(reroll)
    assert the(events, "round_ended").data["loser"] == loser


def test_seconde_chance_is_refused_when_the_option_is_off():
    state, _ = play(game(seconde_chance=False), Roll(1, dice=(3, 1)))
    assert not any(isinstance(a, SecondChance) for a in legal_actions(state, 1))
    refused(state, SecondChance(1, dice=(6, 6)), OptionDisabled)


@pytest.mark.parametrize(
    ("first", "second"),
    [
        (Tap(1, 0, face=2), Tap(1, 1, face=2)),
        (Tap(1, 0, face=2), SecondChance(1, dice=(6, 6))),
        (SecondChance(1, dice=(6, 6)), Tap(1, 0, face=5)),
        (SecondChance(1, dice=(6, 6)), SecondChance(1, dice=(5, 5))),
    ],
)
def test_only_one_blind_play_per_turn(first, second):
    state, _ = play(game(), Roll(1, dice=(3, 1)), first)
    assert not any(isinstance(a, Tap | SecondChance) for a in legal_actions(state, 1))
    refused(state, second, BlindPlayNotAllowed)


@pytest.mark.parametrize("blind_play", [Tap(1, 0, face=3), SecondChance(1, dice=(6, 6))])
def test_no_tapote_nor_seconde_chance_after_a_blind_roll(blind_play):
    state, _ = play(game(), Roll(1, dice=(3, 1), blind=True))
    assert not any(isinstance(a, Tap | SecondChance) for a in legal_actions(state, 1))
    refused(state, blind_play, BlindPlayNotAllowed)


def test_the_next_turn_may_make_its_own_blind_play():
    state, _ = play(game(), Roll(1, dice=(3, 1)), Tap(1, 0, face=2), Announce(1, 31))
    state, _ = play(state, Believe(2, dice=(4, 1)))
    assert Tap(2, 0) in legal_actions(state, 2)
    state, _ = play(state, Tap(2, 0, face=5))
    assert state.cup == (5, 1)


def test_blind_plays_keep_the_announcement_rules():
    state, _ = opened(game(), (5, 3), 53)
    state, _ = play(state, Believe(2, dice=(3, 1)), Tap(2, 0, face=2))
    refused(state, Announce(2, 53), AnnouncementTooLow)
    refused(state, Announce(2, 41), AnnouncementTooLow)
    state, _ = play(state, Announce(2, 54))
    assert state.announced == 54


def test_blind_plays_are_off_by_default_in_the_lives_preset():
    rules = Rules.for_preset(VIES)
    assert (rules.aveugle, rules.tapote, rules.seconde_chance) == (False, False, False)
    state = game(VIES)
    refused(state, Roll(1, dice=(3, 1), blind=True), OptionDisabled)
    state, _ = play(state, Roll(1, dice=(3, 1)))
    assert not any(isinstance(a, Tap | SecondChance) for a in legal_actions(state, 1))
    refused(state, Tap(1, 0, face=2), OptionDisabled)
    refused(state, SecondChance(1, dice=(6, 6)), OptionDisabled)


# --------------------------------------------------------------------------- who opens next


@BOTH
@pytest.mark.parametrize(("dice", "loser"), [((5, 3), 2), ((5, 2), 1)])
def test_with_ouvreur_perdant_the_loser_opens_the_next_round(preset, dice, loser):
    assert Rules.for_preset(preset).ouvreur == "perdant"
    state, _ = opened(game(preset, 4), dice, 53)
    state, events = lifted(state)
    assert the(events, "round_ended").data["opener"] == loser
    assert state.phase == OPEN
    assert state.current == loser
    assert Roll(loser) in legal_actions(state, loser)


@BOTH
@pytest.mark.parametrize(("dice", "loser", "opener"), [((5, 3), 2, 3), ((5, 2), 1, 2)])
def test_with_ouvreur_suivant_the_player_after_the_loser_opens(preset, dice, loser, opener):
    state, _ = opened(game(preset, 4, ouvreur="suivant"), dice, 53)
    state, events = lifted(state)
    assert the(events, "round_ended").data["loser"] == loser
    assert the(events, "round_ended").data["opener"] == opener
    assert state.current == opener


def test_with_ouvreur_suivant_the_last_seat_hands_over_to_the_first():
    state, _ = opened(game(ouvreur="suivant"), (5, 3), 53)
    state, _ = believed(state, (6, 1), 61)
    state, _ = believed(state, (3, 1), 62)  # player 3 bluffs
    state, events = lifted(state)
    assert the(events, "round_ended").data["loser"] == 3
    assert state.current == 1


@pytest.mark.parametrize("ouvreur", ["perdant", "suivant"])
@pytest.mark.parametrize(("dice", "loser", "opener"), [((5, 3), 2, 3), ((5, 2), 1, 2)])
def test_an_eliminated_loser_is_replaced_as_opener_by_the_next_active_player(
    ouvreur, dice, loser, opener
):
    state, _ = opened(game(VIES, 4, vies=1, ouvreur=ouvreur), dice, 53)
    state, events = lifted(state)
    assert the(events, "eliminated").data["player"] == loser
    assert the(events, "round_ended").data["opener"] == opener
    assert state.current == opener


# --------------------------------------------------------------------------- elimination and the end


def test_lives_start_at_the_vies_option():
    assert [s.lives for s in game(VIES).seats] == [3, 3, 3]
    assert [s.lives for s in game(VIES, vies=6).seats] == [6, 6, 6]
    assert [s.lives for s in game(SOIREE).seats] == [0, 0, 0]


def test_a_player_without_lives_left_is_eliminated():
    state, _ = opened(game(VIES, vies=2), (5, 3), 53)
    state, _ = lifted(state)  # player 2 lifts a true 53: one life left
    state, _ = opened(state, (5, 3), 53)
    state, events = lifted(state)  # player 3 lifts a true 53: one life left
    assert typed(events, "eliminated") == []
    assert [s.lives for s in state.seats] == [2, 1, 1]
    state, _ = opened(state, (5, 2), 53)
    state, events = lifted(state)  # player 3 bluffed and player 1 lifts: no life left
    assert carries(
        the(events, "life_lost"),
        {
            "player": 3,
            "lives": 1,
            "remaining": 0,
            "reason": "lift",
        },
    )
    assert the(events, "eliminated").public
    assert carries(the(events, "eliminated"), {"player": 3})
    assert seat(state, 3).status == "out"
    assert seat(state, 3).lives == 0
    assert state.active() == [1, 2]
    assert state.phase == OPEN


def test_an_eliminated_player_never_acts_again():
    state, _ = opened(game(VIES, vies=1), (5, 3), 53)
    state, _ = lifted(state)  # player 2 is out, player 3 opens
    assert legal_actions(state, 2) == []
    assert state.current == 3
    refused(state, Roll(2, dice=(3, 1)), Eliminated)
    refused(state, Join(2), Eliminated)
    state, _ = opened(state, (3, 1), 31)
    assert state.current == 1
    assert legal_actions(state, 2) == []
    state, _ = believed(state, (4, 1), 41)
    assert state.current == 3  # player 2 is skipped
    assert legal_actions(state, 2) == []
    refused(state, Lift(2), Eliminated)


def test_the_last_player_standing_wins():
    state, _ = opened(game(VIES, vies=1), (5, 3), 53)
    state, _ = lifted(state)  # player 2 is out, player 3 opens
    state, _ = opened(state, (3, 1), 65)
    state, events = lifted(state)  # player 1 catches the bluff: player 3 is out
    assert the(events, "eliminated").data["player"] == 3
    assert the(events, "game_won").public
    assert carries(the(events, "game_won"), {"player": 1})
    assert typed(events, "round_ended") == []
    assert state.winner == 1
    assert state.phase == OVER
    assert state.over
    assert state.current is None
    for player in (1, 2, 3, 4):
        assert legal_actions(state, player) == []


@pytest.mark.parametrize(
    "action",
    [
        Roll(1, dice=(3, 1)),
        Announce(1, 31),
        Lift(1),
        Believe(1, dice=(3, 1)),
        Join(4),
        Join(2),
        Leave(1),
        Accuse(1, 2),
        Stop(),
    ],
)
def test_no_action_is_accepted_once_the_game_is_over(action):
    state, _ = opened(game(VIES, 2, vies=1), (5, 3), 53)
    state, events = lifted(state)
    assert the(events, "game_won").data["player"] == 1
    refused(state, action, GameOver)


def test_in_the_party_preset_nobody_is_eliminated_by_sips():
    state = game(SOIREE, 2)
    for _ in range(5):
        state, _ = opened(state, (5, 2), 53)
        state, events = lifted(state)
        assert typed(events, "eliminated") == []
    assert [s.status for s in state.seats] == ["in", "in"]
    assert sum(s.sips for s in state.seats) == 5
    assert state.phase == OPEN


# --------------------------------------------------------------------------- fautes de jeu


def test_an_accused_who_accepts_the_fault_drinks_one_sip():
    state, events = play(game(), Accuse(1, 2, "26 au lieu de 62"))
    assert carries(
        the(events, "fault_raised"),
        {
            "fault": 1,
            "accuser": 1,
            "accused": 2,
            "motive": "26 au lieu de 62",
        },
    )
    assert AcceptFault(2, 1) in legal_actions(state, 2)
    state, events = play(state, AcceptFault(2, 1))
    assert carries(the(events, "drank"), {"player": 2, "sips": 1, "glasses": 0, "reason": "faute"})
    assert seat(state, 2).sips == 1
    assert state.faults == []


def test_an_accusation_does_not_change_whose_turn_it_is():
    state, _ = opened(game(), (5, 3), 53)
    state, _ = play(state, Accuse(3, 1, "dés mal secoués"), ContestFault(1, 1))
    assert state.current == 2
    assert state.phase == RESPOND
    assert state.announced == 53


def test_a_contested_fault_is_voted_by_the_table_except_the_accused():
    state, events = play(game(SOIREE, 4), Accuse(1, 2), ContestFault(2, 1))
    assert the(events, "fault_contested").data["voters"] == [1, 3, 4]
    for voter in (1, 3, 4):
        assert Vote(voter, 1, True) in legal_actions(state, voter)
        assert Vote(voter, 1, False) in legal_actions(state, voter)
    assert not any(isinstance(a, Vote) for a in legal_actions(state, 2))
    refused(state, Vote(2, 1, False), NotAVoter)


def test_a_strict_majority_of_guilty_votes_costs_the_accused_one_sip():
    state, _ = play(game(SOIREE, 4), Accuse(1, 2), ContestFault(2, 1))
    state, events = play(state, Vote(1, 1, True), Vote(3, 1, False))
    assert typed(events, "fault_judged") == []
    state, events = play(state, Vote(4, 1, True))
    judged = the(events, "fault_judged").data
    assert judged["guilty"] is True
    assert (judged["guilty_votes"], judged["innocent_votes"]) == (2, 1)
    assert carries(the(events, "drank"), {"player": 2, "sips": 1, "glasses": 0, "reason": "faute"})
    assert seat(state, 2).sips == 1


def test_a_tied_vote_acquits():
    state, _ = play(game(SOIREE, 5), Accuse(1, 2), ContestFault(2, 1))
    state, events = play(
        state, Vote(1, 1, True), Vote(3, 1, True), Vote(4, 1, False), Vote(5, 1, False)
    )
    judged = the(events, "fault_judged").data
    assert judged["guilty"] is False
    assert (judged["guilty_votes"], judged["innocent_votes"]) == (2, 2)
    assert typed(events, "drank") == []
    assert seat(state, 2).sips == 0
    assert state.faults == []


def test_a_majority_of_innocent_votes_acquits():
    state, _ = play(game(SOIREE, 4), Accuse(1, 2), ContestFault(2, 1))
    state, events = play(state, Vote(1, 1, True), Vote(3, 1, False), Vote(4, 1, False))
    assert the(events, "fault_judged").data["guilty"] is False
    assert typed(events, "drank") == []
    assert seat(state, 2).sips == 0


@pytest.mark.parametrize(
    ("votes", "guilty"),
    [
        ([], False),
        ([True], True),
        ([False], False),
        ([True, False], False),
        ([True, True], True),
    ],
)
def test_closing_a_vote_judges_on_the_votes_cast(votes, guilty):
    state, _ = play(game(SOIREE, 5), Accuse(1, 2), ContestFault(2, 1))
    voters = [1, 3, 4, 5]
    state, _ = play(state, *(Vote(p, 1, v) for p, v in zip(voters, votes, strict=False)))
    state, events = play(state, CloseVote(1))
    judged = the(events, "fault_judged").data
    assert judged["guilty"] is guilty
    assert judged["guilty_votes"] == votes.count(True)
    assert judged["innocent_votes"] == votes.count(False)
    assert seat(state, 2).sips == (1 if guilty else 0)


def test_a_vote_cannot_be_closed_before_it_is_open():
    state, _ = play(game(), Accuse(1, 2))
    refused(state, CloseVote(1), NotNow)
    refused(state, CloseVote(9), UnknownFault)


def test_an_appeal_is_always_rejected_with_no_extra_penalty():
    state, _ = play(game(SOIREE, 4), Accuse(1, 2), ContestFault(2, 1))
    state, _ = play(state, Vote(1, 1, True), Vote(3, 1, True), Vote(4, 1, True))
    assert Appeal(2, 1) in legal_actions(state, 2)
    state, events = play(state, Appeal(2, 1))
    assert carries(the(events, "fault_appealed"), {"fault": 1, "player": 2, "rejected": True})
    assert typed(events, "drank") == []
    assert seat(state, 2).sips == 1
    assert state.faults == []
    refused(state, Appeal(2, 1), UnknownFault)


def test_only_the_accused_of_a_guilty_verdict_may_appeal():
    state, _ = play(game(SOIREE, 4), Accuse(1, 2))
    refused(state, Appeal(2, 1), FaultNotAllowed)  # not judged yet
    state, _ = play(state, ContestFault(2, 1), Vote(1, 1, True), Vote(3, 1, True))
    refused(state, Appeal(2, 1), FaultNotAllowed)  # still voting
    state, _ = play(state, Vote(4, 1, True))
    refused(state, Appeal(3, 1), FaultNotAllowed)  # not the accused


def test_a_vote_cast_the_same_way_twice_is_refused():
    state, _ = play(game(SOIREE, 4), Accuse(1, 2), ContestFault(2, 1), Vote(3, 1, True))
    assert Vote(3, 1, True) not in legal_actions(state, 3)
    refused(state, Vote(3, 1, True), AlreadyVoted)


def test_a_changed_vote_counts_as_changed():
    state, _ = play(game(SOIREE, 4), Accuse(1, 2), ContestFault(2, 1), Vote(3, 1, True))
    assert Vote(3, 1, False) in legal_actions(state, 3)
    state, events = play(state, Vote(3, 1, False), Vote(1, 1, True))
    assert typed(events, "fault_judged") == []
    state, events = play(state, Vote(4, 1, False))
    judged = the(events, "fault_judged").data
    assert (judged["guilty"], judged["guilty_votes"], judged["innocent_votes"]) == (False, 1, 2)


def test_a_withdrawn_vote_no_longer_counts():
    state, _ = play(game(SOIREE, 4), Accuse(1, 2), ContestFault(2, 1), Vote(3, 1, True))
    assert WithdrawVote(3, 1) in legal_actions(state, 3)
    state, events = play(state, WithdrawVote(3, 1), Vote(1, 1, True), Vote(4, 1, False))
    assert typed(events, "fault_judged") == []  # 3 has not voted any more
    assert WithdrawVote(3, 1) not in legal_actions(state, 3)
    refused(state, WithdrawVote(3, 1), NotNow)  # nothing left to withdraw
    state, events = play(state, CloseVote(1))
    judged = the(events, "fault_judged").data
    assert (judged["guilty"], judged["guilty_votes"], judged["innocent_votes"]) == (False, 1, 1)


def test_the_scenario_of_a_vote_changed_before_the_last_voter_acquits_on_the_tie():
    # Bob (2) accuses Carol (3), who contests; Alice (1) votes guilty, takes it back, votes
    # innocent; Bob votes guilty: one each, and a tie acquits.
    state, _ = play(game(SOIREE, 3), Accuse(2, 3), ContestFault(3, 1))
    state, _ = play(state, Vote(1, 1, True), WithdrawVote(1, 1), Vote(1, 1, False))
    state, events = play(state, Vote(2, 1, True))
    judged = the(events, "fault_judged").data
    assert (judged["guilty"], judged["guilty_votes"], judged["innocent_votes"]) == (False, 1, 1)
    assert typed(events, "drank") == []


def test_only_the_players_at_the_table_when_contested_may_vote():
    state, _ = play(game(SOIREE, 4), Accuse(1, 2), ContestFault(2, 1), Join(5))
    assert seat(state, 5).status == "in"
    refused(state, Vote(5, 1, True), NotAVoter)  # joined after the contest
    refused(state, Vote(2, 1, False), NotAVoter)  # the accused
    refused(state, Vote(99, 1, True), NotAVoter)  # not at the table


def test_a_player_cannot_accuse_themselves():
    state = game()
    assert Accuse(1, 1) not in legal_actions(state, 1)
    assert refused(state, Accuse(1, 1), FaultNotAllowed).params["reason"] == "self"


def test_a_player_cannot_hold_two_open_accusations():
    state, _ = play(game(), Accuse(1, 2))
    assert not any(isinstance(a, Accuse) for a in legal_actions(state, 1))
    error = refused(state, Accuse(1, 3), FaultNotAllowed)
    assert error.params["reason"] == "already_accusing"
    state, _ = play(state, ContestFault(2, 1))
    refused(state, Accuse(1, 3), FaultNotAllowed)
    state, _ = play(state, Vote(1, 1, False), Vote(3, 1, False))  # acquitted: closed
    state, events = play(state, Accuse(1, 3))
    assert the(events, "fault_raised").data["fault"] == 2


def test_fautes_are_off_in_the_lives_preset():
    assert Rules.for_preset(VIES).fautes is False
    state = game(VIES)
    assert not any(isinstance(a, FAULT_ACTIONS) for a in legal_actions(state, 1))
    refused(state, Accuse(1, 2), OptionDisabled)


def test_fautes_can_be_turned_off_in_the_party_preset():
    state = game(fautes=False)
    assert not any(isinstance(a, FAULT_ACTIONS) for a in legal_actions(state, 1))
    refused(state, Accuse(1, 2), OptionDisabled)


# --------------------------------------------------------------------------- joining


def test_a_player_joining_between_rounds_is_seated_at_once():
    state, events = play(game(), Join(4))
    assert the(events, "player_joined").data["seated"] is True
    assert seat(state, 4).status == "in"
    assert state.active() == [1, 2, 3, 4]
    state, _ = opened(state, (3, 1), 31)
    state, _ = believed(state, (4, 1), 41)
    state, _ = believed(state, (5, 1), 51)
    assert state.current == 4


def test_a_player_joining_during_a_round_is_seated_when_the_next_round_starts():
    state, _ = opened(game(), (3, 1), 31)
    state, events = play(state, Join(4))
    assert the(events, "player_joined").data["seated"] is False
    assert seat(state, 4).status == "waiting"
    assert 4 not in state.active()
    assert turn_actions(state, 4) == []
    state, _ = believed(state, (4, 1), 41)
    state, _ = believed(state, (5, 1), 51)
    assert state.current == 1  # player 4 does not play this round
    state, _ = lifted(state)
    state, events = play(state, Roll(1, dice=(3, 1)))
    assert the(events, "round_started").data["seated"] == [4]
    assert seat(state, 4).status == "in"
    state, _ = play(state, Announce(1, 31))
    state, _ = believed(state, (4, 1), 41)
    state, _ = believed(state, (5, 1), 51)
    assert state.current == 4


def test_in_the_lives_preset_a_joiner_starts_with_the_fewest_lives_of_the_active_players():
    state, _ = opened(game(VIES), (5, 3), 53)
    state, _ = lifted(state)  # player 2: 2 lives
    state, _ = opened(state, (5, 3), 53)
    state, _ = lifted(state)  # player 3: 2 lives
    state, _ = opened(state, (5, 2), 53)
    state, _ = lifted(state)  # player 3 bluffed: 1 life
    assert [s.lives for s in state.seats] == [3, 2, 1]
    state, events = play(state, Join(4))
    assert the(events, "player_joined").data["lives"] == 1
    assert seat(state, 4).lives == 1


def test_a_table_of_ten_is_full():
    state = game(SOIREE, 10)
    assert legal_actions(state, 11) == []
    refused(state, Join(11), TableFull)
    state, _ = play(state, Leave(10))
    assert legal_actions(state, 11) == [Join(11)]
    state, _ = play(state, Join(11))
    assert seat(state, 11).status == "in"


def test_a_seated_player_cannot_join_again():
    refused(game(), Join(2), AlreadySeated)


# --------------------------------------------------------------------------- leaving


@BOTH
def test_an_opener_who_leaves_passes_the_turn_to_the_next_player(preset):
    state, events = play(game(preset), Leave(1))
    assert [e.type for e in events] == ["player_left", "turn_passed"]
    assert carries(the(events, "turn_passed"), {"player": 2})
    assert state.phase == OPEN
    assert state.current == 2
    assert seat(state, 1).status == "left"


@BOTH
def test_a_cup_holder_who_leaves_abandons_the_round_and_the_next_player_opens(preset):
    state, _ = opened(game(preset, 4), (5, 3), 53)
    state, _ = play(state, Believe(2, dice=(6, 6)))
    state, events = play(state, Leave(2))
    assert carries(the(events, "round_abandoned"), {"opener": 3})
    assert typed(events, "drank") == typed(events, "life_lost") == []
    assert state.phase == OPEN
    assert state.current == 3
    assert state.announced is None
    assert state.cup is None


@BOTH
def test_a_responder_who_leaves_abandons_the_round_and_the_next_player_opens(preset):
    state, _ = opened(game(preset, 4), (5, 3), 53)
    state, events = play(state, Leave(2))
    assert carries(the(events, "round_abandoned"), {"opener": 3})
    assert state.phase == OPEN
    assert state.current == 3


@BOTH
def test_an_announcer_who_leaves_abandons_the_round_and_the_responder_opens(preset):
    state, _ = opened(game(preset, 4), (5, 3), 53)
    state, events = play(state, Leave(1))
    assert carries(the(events, "round_abandoned"), {"opener": 2})
    assert state.phase == OPEN
    assert state.current == 2


def test_a_player_leaving_out_of_turn_leaves_the_round_going():
    state, _ = opened(game(SOIREE, 4), (5, 3), 53)
    state, events = play(state, Leave(3))
    assert [e.type for e in events] == ["player_left"]
    assert state.phase == RESPOND
    assert state.current == 2
    state, _ = believed(state, (6, 1), 61)
    assert state.current == 4  # player 3 is skipped


@BOTH
def test_nobody_ever_answers_their_own_announcement(preset):
    # Player 3 joins mid-round (to be seated next round), then player 2 leaves while
    # player 1 holds the cup: nobody else is in this round to answer player 1.
    state, _ = play(game(preset, 2), Roll(1, dice=(5, 3)), Join(3), Leave(2))
    assert seat(state, 3).status in ("waiting", "in")
    if state.phase == ANNOUNCE and state.current == 1:
        state, _ = play(state, Announce(1, 53))
    assert not (state.phase == RESPOND and state.current == state.announcer), (
        f"player {state.current} is to answer their own announcement"
    )


def test_a_party_game_with_one_player_left_ends():
    state, _ = opened(game(SOIREE, 2), (5, 3), 53)
    state, events = play(state, Leave(2))
    assert carries(the(events, "game_ended"), {"reason": "players_left"})
    assert typed(events, "game_won") == []
    assert state.phase == OVER
    assert state.winner is None
    assert legal_actions(state, 1) == []


def test_a_lives_game_with_one_player_left_is_won_by_that_player():
    state, _ = opened(game(VIES, 2), (5, 3), 53)
    state, events = play(state, Leave(1))
    assert carries(the(events, "game_won"), {"player": 2})
    assert state.phase == OVER
    assert state.winner == 2


def test_a_player_who_left_does_not_act_until_they_join_again():
    state, _ = play(game(), Leave(1))
    assert legal_actions(state, 1) == [Join(1)]
    refused(state, Roll(1, dice=(3, 1)), UnknownPlayer)
    refused(state, Leave(1), UnknownPlayer)


# --------------------------------------------------------------------------- illegal actions


def test_only_the_player_whose_turn_it_is_may_play():
    state = game()
    error = refused(state, Roll(2, dice=(3, 1)), NotYourTurn)
    assert error.code == "not_your_turn"
    assert error.params["current"] == 1
    state, _ = opened(state, (5, 3), 53)
    refused(state, Lift(3), NotYourTurn)
    refused(state, Lift(1), NotYourTurn)
    refused(state, Believe(3, dice=(3, 1)), NotYourTurn)
    assert turn_actions(state, 1) == []
    assert turn_actions(state, 3) == []


def test_an_action_out_of_its_phase_is_refused():
    state = game()
    refused(state, Lift(1), NotNow)
    refused(state, Announce(1, 31), NotNow)
    refused(state, Believe(1, dice=(3, 1)), NotNow)
    state, _ = opened(state, (5, 3), 53)
    refused(state, Roll(2, dice=(3, 1)), NotNow)
    refused(state, Announce(2, 54), NotNow)


@pytest.mark.parametrize(
    "action", [Roll(99, dice=(3, 1)), Lift(99), Leave(99), Accuse(99, 1), Accuse(1, 99)]
)
def test_an_unknown_player_is_refused(action):
    refused(game(), action, UnknownPlayer)


@pytest.mark.parametrize(
    ("preset", "options"),
    [
        ("belote", {}),
        (SOIREE, {"ouvreur": "gagnant"}),
        (SOIREE, {"unknown": True}),
        (SOIREE, {"photo": "yes"}),
        (SOIREE, {"tapote": 1}),
        (VIES, {"vies": 0}),
        (VIES, {"vies": 11}),
        (VIES, {"vies": True}),
        (SOIREE, {"gage": "   "}),
        (SOIREE, {"gage": "x" * 31}),
    ],
)
def test_invalid_rule_options_are_refused(preset, options):
    with pytest.raises(InvalidRules) as caught:
        Rules.for_preset(preset, **options)
    assert caught.value.code == "invalid_rules"


@pytest.mark.parametrize(
    ("players", "reason"),
    [([], "count"), ([1], "count"), (list(range(1, 12)), "count"), ([1, 1], "duplicate")],
)
def test_a_game_needs_two_to_ten_distinct_players(players, reason):
    with pytest.raises(InvalidPlayers) as caught:
        new_game(players)
    assert caught.value.code == "invalid_players"
    assert caught.value.params["reason"] == reason
    assert [s.player for s in new_game([1, 2]).seats] == [1, 2]
    assert len(new_game(list(range(1, 11))).seats) == 10


@pytest.mark.parametrize("dice", [None, (0, 3), (3, 7), (1, 2, 3), (1,)])
def test_invalid_dice_are_refused(dice):
    state = game()
    refused(state, Roll(1, dice=dice), InvalidDice)
    state, _ = opened(state, (5, 3), 53)
    refused(state, Believe(2, dice=dice), InvalidDice)


def test_a_refused_action_leaves_the_state_unchanged_and_a_legal_one_leaves_its_input_alone():
    state, _ = opened(game(), (5, 3), 53)
    before = state.to_json()
    refused(state, Announce(2, 31), NotNow)
    after, _ = play(state, Believe(2, dice=(6, 6)), Announce(2, 66))
    assert state.to_json() == before
    assert after.to_json() != before


# --------------------------------------------------------------------------- events


def a_game_with_every_kind_of_roll() -> tuple[State, State, list[Event]]:
    """Plain, blind, tapped, second-chance and warrior rolls; returns (initial, final, events)."""
    initial = game(SOIREE, 3)
    state, events = play(
        initial,
        Roll(1, dice=(5, 3)),
        Tap(1, 0, face=6),
        Announce(1, 63),
        Believe(2, dice=(4, 4), blind=True),
        Announce(2, 44),
        Believe(3, dice=(1, 1)),
        SecondChance(3, dice=(6, 6)),
        Announce(3, 55),
        Lift(1),
        Roll(1, dice=(2, 1)),
        Announce(1, MAYA),
        Warrior(2, dice=(2, 1)),
        Roll(2, dice=(6, 4), reverse=True),
        Announce(2, 64),
        Lift(1),
    )
    return initial, state, events


def test_hidden_dice_are_never_public():
    _, _, events = a_game_with_every_kind_of_roll()
    hidden = typed(events, "dice")
    assert len(hidden) == 7
    for event in hidden:
        assert event.visibility in (PRIVATE, SECRET)
        assert not event.public
        assert not event.visible_to(None)
        owner = event.data["player"]
        for player in (1, 2, 3):
            if player != owner:
                assert not event.visible_to(player)
        if event.visibility == PRIVATE:
            assert event.to == owner
    carrying_dice = {event.type for event in events if event.public and "dice" in event.data}
    assert carrying_dice == {"revealed", "warrior_rolled"}


def test_the_revealed_event_of_a_lift_is_public_and_carries_the_real_dice():
    _, _, events = a_game_with_every_kind_of_roll()
    revealed = typed(events, "revealed")
    assert [event.data["dice"] for event in revealed] == [[6, 6], [6, 4]]
    assert all(event.public for event in revealed)


def test_the_events_tell_the_whole_story():
    initial, final, events = a_game_with_every_kind_of_roll()
    assert replay(initial, events).to_json() == final.to_json()
    assert State.from_json(final.to_json()).to_json() == final.to_json()


def test_a_player_who_joined_during_the_round_may_be_accused_and_votes():
    state, _ = opened(game(SOIREE, 3), (5, 3), 53)
    state, _ = play(state, Join(5))
    assert seat(state, 5).status == "waiting"
    state, events = play(state, Accuse(1, 5, "a regardé les dés"))
    assert the(events, "fault_raised").data["accused"] == 5
    state, events = play(state, Accuse(5, 2, "dés mal secoués"), ContestFault(2, 2))
    assert the(events, "fault_contested").data["voters"] == [1, 3, 5]


def test_tapping_a_die_that_is_not_in_the_cup_is_refused():
    state, _ = play(game(SOIREE), Roll(1, dice=(5, 3)))
    for die in (2, 5, -1):
        with pytest.raises(InvalidDice):
            apply(state, complete(state, Tap(1, die), random.Random(0)))


def test_a_voter_who_left_keeps_their_vote_but_may_not_change_it():
    state, _ = play(game(SOIREE, 4), Accuse(1, 2), ContestFault(2, 1), Vote(3, 1, True), Leave(3))
    refused(state, Vote(3, 1, False), NotAVoter)
    refused(state, WithdrawVote(3, 1), NotAVoter)
    state, events = play(state, Vote(1, 1, False), Vote(4, 1, False))
    judged = the(events, "fault_judged").data
    assert (judged["guilty_votes"], judged["innocent_votes"]) == (1, 2)
