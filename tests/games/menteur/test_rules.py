"""Rule tests of the Dés du menteur engine (docs/rules.md#menteur), one per rule statement, with
scripted dice.

Every ``Roll`` carries every active player's hand (in seating order), so each test plays
exactly the round it describes, through the public API only.
"""

from __future__ import annotations

import json
import random

import pytest

from bot.games import maya
from bot.games.menteur import (
    BID,
    EVENTS,
    IN,
    LEFT,
    MAX_PLAYERS,
    OUT,
    OVER,
    PRIVATE,
    ROLL,
    Action,
    Bid,
    BidTooLow,
    Challenge,
    Eliminated,
    Event,
    GameOver,
    InvalidBid,
    InvalidDice,
    InvalidPlayers,
    InvalidRules,
    Leave,
    NotNow,
    NotYourTurn,
    Roll,
    Rules,
    State,
    Stop,
    UnknownPlayer,
    apply,
    complete,
    count,
    dice_in_play,
    legal_actions,
    minimal_raises,
    new_game,
    probability_at_least,
    replay,
    turn_actions,
    view,
)
from tests.games.menteur.scripted import game, play, refused, rolled, seat, the, typed

# --------------------------------------------------------------------------- helpers


def challenge_after(state: State, *bids: tuple[int, int]) -> tuple[State, list[Event]]:
    """The players bid ``bids`` in turn, then the next player challenges the last one."""
    actions: list[Action] = []
    current = state.current
    assert current is not None
    for quantity, face in bids:
        actions.append(Bid(current, quantity, face))
        current = state.next_after(current)
    actions.append(Challenge(current))
    return play(state, *actions)


FIVES = ((1, 4, 4, 2, 3), (5, 5, 6, 6, 2), (4, 3, 3, 2, 6))  # players 1, 2, 3


# --------------------------------------------------------------------------- setup and options


def test_default_rules_are_five_dice_with_ones_as_jokers():
    assert Rules() == Rules.for_preset() == Rules(dice=5, jokers=True)
    assert [seat.dice for seat in game().seats] == [5, 5, 5]


@pytest.mark.parametrize("dice", [3, 4, 5])
def test_players_start_with_3_4_or_5_dice(dice):
    state = game(4, dice=dice)
    assert [seat.dice for seat in state.seats] == [dice] * 4
    assert dice_in_play(state) == 4 * dice


@pytest.mark.parametrize(
    "options",
    [
        {"dice": 2},
        {"dice": 6},
        {"dice": True},
        {"dice": "5"},
        {"jokers": 1},
        {"palifico": 1},
        {"calza": "oui"},
        {"recuperation": True},
    ],
)
def test_other_options_are_refused_and_dice_recovery_is_not_included(options):
    with pytest.raises(InvalidRules):
        Rules.for_preset(**options)


def test_an_unknown_preset_is_refused():
    with pytest.raises(InvalidRules):
        Rules.for_preset("perudo")


@pytest.mark.parametrize("players", [[], [1], [1, 2, 3, 4, 5, 6, 7], [1, 1, 2]])
def test_a_game_has_2_to_6_distinct_players(players):
    with pytest.raises(InvalidPlayers):
        new_game(players)


def test_seating_order_is_as_given_and_the_first_player_opens():
    state = new_game([30, 10, 20])
    assert [s.player for s in state.seats] == [30, 10, 20]
    assert state.phase == ROLL and state.current == 30
    assert legal_actions(state, 30) == [Roll(30), Leave(30)]
    assert legal_actions(state, 10) == [Leave(10)]
    assert len(new_game(list(range(MAX_PLAYERS))).seats) == MAX_PLAYERS


def test_errors_share_the_maya_family():
    assert issubclass(BidTooLow, maya.GameError) and BidTooLow.code == "bid_too_low"
    assert issubclass(InvalidBid, maya.GameError) and InvalidBid.code == "invalid_bid"
    assert Event is maya.Event


# --------------------------------------------------------------------------- hidden dice


def test_the_opener_rolls_every_players_dice_at_once():
    state, events = play(game(), Roll(1, dice=FIVES))
    assert state.phase == BID and state.current == 1 and state.round == 1
    assert [seat(state, p).hand for p in (1, 2, 3)] == list(FIVES)
    started = the(events, "round_started")
    assert started.public
    assert started.data["opener"] == 1
    assert started.data["counts"] == [
        {"player": 1, "count": 5},
        {"player": 2, "count": 5},
        {"player": 3, "count": 5},
    ]


def test_each_players_dice_go_only_in_an_event_private_to_them():
    _, events = play(game(), Roll(1, dice=FIVES))
    private = typed(events, "dice")
    assert [(e.visibility, e.to, tuple(e.data["dice"])) for e in private] == [
        (PRIVATE, p, hand) for p, hand in zip((1, 2, 3), FIVES, strict=True)
    ]
    for event in events:
        if event.public:
            assert "dice" not in event.data and "hands" not in event.data


def test_a_public_event_never_carries_another_players_dice_before_the_reveal():
    _state, events = play(game(), Roll(1, dice=FIVES), Bid(1, 3, 4), Bid(2, 4, 4))
    public = [event for event in events if event.public]
    assert public and all("dice" not in e.data and "hands" not in e.data for e in public)
    assert all(e.visible_to(None) == e.public for e in events)
    assert not any(e.visible_to(2) for e in events if e.type == "dice" and e.to != 2)


def test_a_roll_may_be_sent_for_whoever_opens():
    state, events = play(game(), Roll(None, dice=FIVES))
    assert the(events, "round_started").data["opener"] == 1 and state.phase == BID


def test_complete_rolls_one_hand_per_active_player_with_their_dice_left():
    state = game(3, dice=4)
    seat(state, 2).dice = 2
    action = complete(state, Roll(1), random.Random(3))
    assert isinstance(action, Roll) and action.dice is not None
    assert [len(hand) for hand in action.dice] == [4, 2, 4]
    assert all(1 <= pip <= 6 for hand in action.dice for pip in hand)
    assert complete(state, Bid(1, 1, 2), random.Random(3)) == Bid(1, 1, 2)


@pytest.mark.parametrize(
    "dice",
    [
        None,
        FIVES[:2],
        (*FIVES, (1, 2, 3, 4, 5)),
        ((1, 2, 3, 4), FIVES[1], FIVES[2]),
        ((1, 2, 3, 4, 7), FIVES[1], FIVES[2]),
        ((0, 2, 3, 4, 5), FIVES[1], FIVES[2]),
        ((True, 2, 3, 4, 5), FIVES[1], FIVES[2]),
    ],
)
def test_a_roll_needs_one_valid_hand_per_active_player(dice):
    refused(game(), Roll(1, dice=dice), InvalidDice)


def test_only_the_opener_rolls_and_only_between_rounds():
    state = game()
    refused(state, Roll(2, dice=FIVES), NotYourTurn)
    state = rolled(state, *FIVES)
    refused(state, Roll(1, dice=FIVES), NotNow)
    refused(state, Roll(None, dice=FIVES), NotNow)


def test_a_player_sees_only_their_own_dice_and_everyones_dice_counts():
    state, _ = play(game(), Roll(1, dice=FIVES), Bid(1, 3, 4))
    seen = view(state, 2)
    assert seen.my_dice == FIVES[1]
    assert [(s.player, s.dice) for s in seen.seats] == [(1, 5), (2, 5), (3, 5)]
    assert seen.bid == (3, 4) and seen.bidder == 1 and seen.current == 2
    assert [(b.player, b.quantity, b.face) for b in seen.history] == [(1, 3, 4)]
    assert seen.dice_in_play == 15 and seen.unknown == 10 and seen.rules == state.rules
    assert view(state, 99).my_dice is None


# --------------------------------------------------------------------------- counting


def test_with_jokers_your_1_4_4_count_as_three_4s():
    assert count([(1, 4, 4)], 4, jokers=True) == 3


def test_a_bid_on_ones_counts_only_ones():
    assert count([(1, 4, 4)], 1, jokers=True) == 1
    assert count([(1, 1, 4), (1, 6)], 1, jokers=True) == 3


def test_without_jokers_each_face_counts_only_itself():
    assert count([(1, 4, 4)], 4, jokers=False) == 2
    assert count([(1, 4, 4)], 1, jokers=False) == 1


def test_the_bid_is_on_every_players_dice():
    assert count([(1, 4, 4), (4, 2), (1, 1, 6)], 4, jokers=True) == 6


# --------------------------------------------------------------------------- opening bids


def test_the_opening_bid_is_on_a_face_2_to_6_with_quantity_1_to_the_dice_in_play():
    state = rolled(game(), *FIVES)
    bids = [a for a in turn_actions(state, 1) if isinstance(a, Bid)]
    assert {(b.quantity, b.face) for b in bids} == {
        (q, f) for q in range(1, 16) for f in range(2, 7)
    }
    assert Challenge(1) not in turn_actions(state, 1)
    assert minimal_raises(state) == [(1, 2), (1, 3), (1, 4), (1, 5), (1, 6)]
    for action in (Bid(1, 1, 2), Bid(1, 15, 6)):
        assert apply(state, action)[0].bid == (action.quantity, action.face)


def test_with_jokers_the_opening_bid_may_not_be_on_ones():
    state = rolled(game(), *FIVES)
    error = refused(state, Bid(1, 2, 1), InvalidBid)
    assert error.params["reason"] == "opening_on_ones"


def test_without_jokers_the_opening_bid_may_be_on_ones():
    state = rolled(game(jokers=False), *FIVES)
    assert minimal_raises(state)[0] == (1, 1)
    state, _ = play(state, Bid(1, 2, 1))
    assert state.bid == (2, 1)


@pytest.mark.parametrize("quantity", [0, -1, 16, 100])
def test_a_bid_quantity_is_1_to_the_dice_in_play(quantity):
    state = rolled(game(), *FIVES)
    refused(state, Bid(1, quantity, 3), InvalidBid)


@pytest.mark.parametrize("face", [0, 7, -2])
def test_a_bid_face_is_1_to_6(face):
    refused(rolled(game(), *FIVES), Bid(1, 3, face), InvalidBid)


def test_you_may_bid_a_face_you_do_not_have():
    state, _ = play(rolled(game(), *FIVES), Bid(1, 2, 5))
    assert state.bid == (2, 5)


# --------------------------------------------------------------------------- raising


def test_a_raise_is_a_higher_quantity_or_the_same_quantity_and_a_higher_face():
    state, _ = play(rolled(game(), *FIVES), Bid(1, 3, 4))
    for quantity, face in ((3, 5), (3, 6), (4, 2), (4, 4)):
        assert apply(state, Bid(2, quantity, face))[0].bid == (quantity, face)
    for quantity, face in ((3, 4), (3, 3), (2, 6)):
        refused(state, Bid(2, quantity, face), BidTooLow)


def test_bid_too_low_gives_the_smallest_legal_raise():
    state, _ = play(rolled(game(), *FIVES), Bid(1, 3, 4))
    error = refused(state, Bid(2, 3, 2), BidTooLow)
    assert error.params["minimum"] == (4, 2)
    assert error.params["previous"] == (3, 4)
    assert error.params["raises"] == [(2, 1), (4, 2), (4, 3), (4, 4), (3, 5), (3, 6)]
    assert refused(state, Bid(2, 3, 4), BidTooLow).params["minimum"] == (4, 4)


def test_five_4s_to_three_1s_is_legal():
    state, _ = play(rolled(game(), *FIVES), Bid(1, 5, 4), Bid(2, 3, 1))
    assert state.bid == (3, 1)


def test_five_4s_to_two_1s_is_not():
    state, _ = play(rolled(game(), *FIVES), Bid(1, 5, 4))
    error = refused(state, Bid(2, 2, 1), BidTooLow)
    assert error.params["minimum"] == (3, 1)


def test_from_a_face_to_ones_needs_half_the_quantity_rounded_up():
    state, _ = play(rolled(game(), *FIVES), Bid(1, 4, 6))
    refused(state, Bid(2, 1, 1), BidTooLow)
    assert apply(state, Bid(2, 2, 1))[0].bid == (2, 1)


def test_three_1s_to_seven_2s_is_legal():
    state, _ = play(rolled(game(), *FIVES), Bid(1, 5, 4), Bid(2, 3, 1), Bid(3, 7, 2))
    assert state.bid == (7, 2)


def test_three_1s_to_six_2s_is_not():
    state, _ = play(rolled(game(), *FIVES), Bid(1, 5, 4), Bid(2, 3, 1))
    error = refused(state, Bid(3, 6, 2), BidTooLow)
    assert error.params["minimum"] == (7, 2)
    refused(state, Bid(3, 6, 6), BidTooLow)


def test_from_ones_to_ones_needs_a_higher_quantity():
    state, _ = play(rolled(game(), *FIVES), Bid(1, 5, 4), Bid(2, 3, 1))
    refused(state, Bid(3, 3, 1), BidTooLow)
    assert apply(state, Bid(3, 4, 1))[0].bid == (4, 1)


def test_without_jokers_ones_are_the_lowest_face_and_raise_plainly():
    state, _ = play(rolled(game(jokers=False), *FIVES), Bid(1, 5, 4))
    refused(state, Bid(2, 3, 1), BidTooLow)
    refused(state, Bid(2, 5, 1), BidTooLow)
    assert apply(state, Bid(2, 6, 1))[0].bid == (6, 1)
    state, _ = play(state, Bid(2, 6, 1))
    assert apply(state, Bid(3, 6, 2))[0].bid == (6, 2)


def test_the_legal_bids_are_exactly_the_raises_up_to_the_dice_in_play():
    state, _ = play(rolled(game(), *FIVES), Bid(1, 5, 4), Bid(2, 3, 1))
    bids = {(a.quantity, a.face) for a in turn_actions(state, 3) if isinstance(a, Bid)}
    expected = {(q, 1) for q in range(4, 16)} | {(q, f) for q in range(7, 16) for f in range(2, 7)}
    assert bids == expected
    assert minimal_raises(state) == [(4, 1), (7, 2), (7, 3), (7, 4), (7, 5), (7, 6)]


def test_a_raise_never_exceeds_the_dice_in_play():
    state, _ = play(rolled(game(2, dice=3), (2, 2, 2), (3, 3, 3)), Bid(1, 6, 5))
    assert minimal_raises(state) == [(3, 1), (6, 6)]
    state, _ = play(state, Bid(2, 6, 6))
    assert minimal_raises(state) == [(3, 1)]
    assert turn_actions(state, 1) == [*(Bid(1, q, 1) for q in range(3, 7)), Challenge(1)]


def test_after_a_bid_the_turn_passes_to_the_next_active_player():
    state, events = play(rolled(game(), *FIVES), Bid(1, 2, 3))
    assert state.current == 2 and the(events, "bid_made").data["next"] == 2
    state, _ = play(state, Bid(2, 3, 3), Bid(3, 4, 3))
    assert state.current == 1
    refused(state, Bid(2, 5, 3), NotYourTurn)


# --------------------------------------------------------------------------- challenging


def test_only_the_last_bid_can_be_challenged_by_the_next_player():
    state, _ = play(rolled(game(), *FIVES), Bid(1, 2, 3))
    refused(state, Challenge(3), NotYourTurn)
    refused(state, Challenge(1), NotYourTurn)
    _, events = play(state, Challenge(2))
    assert the(events, "challenged").data["bidder"] == 1


def test_a_challenge_with_no_bid_is_refused():
    state = rolled(game(), *FIVES)
    refused(state, Challenge(1), NotNow)
    refused(game(), Challenge(1), NotNow)


def test_a_challenge_reveals_all_dice_in_a_public_event_with_the_count():
    _state, events = challenge_after(rolled(game(), *FIVES), (3, 4))
    revealed = the(events, "revealed")
    assert revealed.public
    assert revealed.data["hands"] == [
        {"player": p, "dice": list(hand)} for p, hand in zip((1, 2, 3), FIVES, strict=True)
    ]
    # 1, 4, 4 / - / 4: four dice count as 4s.
    assert revealed.data["actual"] == 4 and revealed.data["holds"] is True


def test_an_exact_count_validates_the_bid_and_the_challenger_loses():
    state, events = challenge_after(rolled(game(), *FIVES), (4, 4))
    assert the(events, "revealed").data["actual"] == 4
    assert the(events, "die_lost").data == {"player": 2, "remaining": 4, "reason": "challenge"}
    assert seat(state, 2).dice == 4 and seat(state, 1).dice == 5


def test_an_actual_count_above_the_bid_makes_the_challenger_lose():
    state, _ = challenge_after(rolled(game(), *FIVES), (2, 4))
    assert [seat(state, p).dice for p in (1, 2, 3)] == [5, 4, 5]


def test_an_actual_count_below_the_bid_makes_the_bidder_lose():
    state, events = challenge_after(rolled(game(), *FIVES), (5, 4))
    assert the(events, "revealed").data["holds"] is False
    assert the(events, "die_lost").data["reason"] == "bid"
    assert [seat(state, p).dice for p in (1, 2, 3)] == [4, 5, 5]


def test_the_margin_never_changes_the_loss():
    for bids in ([(15, 4)], [(5, 4)]):
        state, events = challenge_after(rolled(game(), *FIVES), *bids)
        assert len(typed(events, "die_lost")) == 1
        assert dice_in_play(state) == 14


def test_a_bid_on_ones_counts_only_ones_at_the_reveal():
    # Ones: player 1 has one; the 4s do not count for a bid on ones.
    state, events = challenge_after(rolled(game(), *FIVES), (2, 4), (2, 1))
    assert the(events, "revealed").data["actual"] == 1
    assert seat(state, 2).dice == 4  # player 2 bid two 1s and loses


def test_without_jokers_ones_count_only_for_ones_at_the_reveal():
    state, events = challenge_after(rolled(game(jokers=False), *FIVES), (4, 4))
    assert the(events, "revealed").data["actual"] == 3
    assert seat(state, 1).dice == 4  # the bidder


def test_the_loser_opens_the_next_round_when_still_in():
    state, events = challenge_after(rolled(game(), *FIVES), (5, 4))
    assert the(events, "round_ended").data == {"loser": 1, "opener": 1, "palifico": None}
    assert state.phase == ROLL and state.current == 1
    state, _ = challenge_after(rolled(game(), *FIVES), (3, 4))
    assert state.current == 2


def test_everyone_rerolls_their_remaining_dice_and_old_values_are_not_kept():
    state, _ = challenge_after(rolled(game(), *FIVES), (5, 4))
    assert all(s.hand is None for s in state.seats)
    assert state.bid is None and state.bidder is None and state.history == []
    assert view(state, 2).my_dice is None
    assert turn_actions(state, 1) == [Roll(1)]
    refused(state, Roll(1, dice=FIVES), InvalidDice)
    action = complete(state, Roll(1), random.Random(8))
    assert [len(h) for h in action.dice or ()] == [4, 5, 5]
    state, events = play(state, action)
    assert [len(seat(state, p).hand or ()) for p in (1, 2, 3)] == [4, 5, 5]
    assert the(events, "round_started").data["round"] == 2
    assert len(typed(events, "dice")) == 3


def last_die_lost_by_player_2() -> tuple[State, list[Event]]:
    """Player 2 has one die left and challenges three 5s, which the three 1s make true."""
    state = game(3, dice=3)
    seat(state, 2).dice = 1
    state = rolled(state, (1, 1, 1), (2,), (3, 3, 3))
    return challenge_after(state, (3, 5))


def test_a_player_with_no_dice_is_eliminated():
    state, events = last_die_lost_by_player_2()
    assert the(events, "eliminated").data == {"player": 2}
    assert seat(state, 2).status == OUT and seat(state, 2).dice == 0
    assert legal_actions(state, 2) == []
    refused(state, Leave(2), Eliminated)


def test_when_the_loser_is_eliminated_the_next_active_player_opens():
    state, events = last_die_lost_by_player_2()
    assert the(events, "round_ended").data == {"loser": 2, "opener": 3, "palifico": None}
    assert state.current == 3
    state, _ = play(state, Roll(3, dice=((4, 4, 4), (5, 5, 5))))
    state, _ = play(state, Bid(3, 1, 2))
    assert state.current == 1  # player 2 is skipped


def test_the_last_player_standing_wins():
    state = game(2, dice=3)
    seat(state, 1).dice = seat(state, 2).dice = 1
    state = rolled(state, (1,), (3,))
    state, events = challenge_after(state, (2, 3))  # the joker and the 3: player 2 loses
    assert [e.type for e in events][-2:] == ["eliminated", "game_won"]
    assert the(events, "game_won").data == {"player": 1}
    assert state.phase == OVER and state.winner == 1 and state.current is None
    assert legal_actions(state, 2) == [] and legal_actions(state, 1) == []
    refused(state, Roll(1, dice=((1,),)), GameOver)


def test_total_dice_decrease_by_exactly_one_per_challenge():
    state = rolled(game(4), *FIVES, (6, 6, 6, 6, 6))
    before = dice_in_play(state)
    state, _ = challenge_after(state, (3, 6), (4, 6))
    assert dice_in_play(state) == before - 1


# --------------------------------------------------------------------------- leaving and stopping


def test_a_player_may_leave_at_any_time_and_their_dice_leave_the_game():
    state, _ = play(rolled(game(4), *FIVES, (2, 2, 2, 2, 2)), Bid(1, 3, 4))
    assert Leave(4) in legal_actions(state, 4)
    state, events = play(state, Leave(4))
    assert the(events, "player_left").data == {"player": 4, "dice_count": 5}
    assert seat(state, 4).status == LEFT and dice_in_play(state) == 15
    assert state.current == 2 and state.bid == (3, 4)  # the round goes on
    state, events = play(state, Challenge(2))
    assert len(the(events, "revealed").data["hands"]) == 3
    refused(state, Leave(4), UnknownPlayer)


def test_when_the_player_to_act_leaves_the_round_restarts_with_the_next_player():
    state, _ = play(rolled(game(), *FIVES), Bid(1, 3, 4))
    state, events = play(state, Leave(2))
    assert the(events, "round_abandoned").data == {"opener": 3, "palifico": None}
    assert state.phase == ROLL and state.current == 3 and state.bid is None
    assert all(s.hand is None for s in state.seats)


def test_when_the_last_bidder_leaves_the_round_restarts_with_the_next_player():
    state, _ = play(rolled(game(), *FIVES), Bid(1, 3, 4))
    state, events = play(state, Leave(1))
    assert the(events, "round_abandoned").data == {"opener": 2, "palifico": None}
    assert state.phase == ROLL and state.current == 2


def test_when_the_opener_leaves_before_rolling_the_next_player_opens():
    state, events = play(game(), Leave(1))
    assert the(events, "turn_passed").data == {"player": 2}
    assert state.phase == ROLL and state.current == 2


def test_when_one_player_is_left_they_win():
    state, events = play(rolled(game(2), *FIVES[:2]), Leave(2))
    assert the(events, "game_won").data == {"player": 1}
    assert state.over and state.winner == 1


def test_stop_ends_the_game():
    state, events = play(rolled(game(), *FIVES), Stop())
    assert the(events, "game_ended").data == {"reason": "stopped"}
    assert state.over and state.winner is None and all(s.hand is None for s in state.seats)


# --------------------------------------------------------------------------- illegal actions


@pytest.mark.parametrize(
    ("action", "error"),
    [
        (Bid(2, 3, 4), NotYourTurn),
        (Bid(9, 3, 4), UnknownPlayer),
        (Challenge(9), UnknownPlayer),
        (Leave(9), UnknownPlayer),
        (Roll(1, dice=FIVES), NotNow),
        (Bid(1, 3, 1), InvalidBid),
        (Bid(1, 16, 3), InvalidBid),
        (Challenge(1), NotNow),
    ],
)
def test_illegal_actions_raise_typed_errors_and_leave_the_state_unchanged(action, error):
    refused(rolled(game(), *FIVES), action, error)


def test_an_unknown_action_is_refused():
    refused(game(), "bid", NotNow)  # type: ignore[arg-type]


def test_a_bid_before_the_roll_is_refused():
    refused(game(), Bid(1, 1, 2), NotNow)


# --------------------------------------------------------------------------- helpers


def test_probability_at_least_is_binomial_with_a_third_for_faces_with_jokers():
    assert probability_at_least(3, 0, 4, jokers=True) == 1.0
    assert probability_at_least(3, 4, 4, jokers=True) == 0.0
    assert probability_at_least(1, 1, 4, jokers=True) == pytest.approx(1 / 3)
    assert probability_at_least(1, 1, 1, jokers=True) == pytest.approx(1 / 6)
    assert probability_at_least(1, 1, 4, jokers=False) == pytest.approx(1 / 6)
    assert probability_at_least(2, 1, 5, jokers=True) == pytest.approx(1 - (2 / 3) ** 2)
    assert probability_at_least(2, 2, 2, jokers=False) == pytest.approx(1 / 36)


def test_replay_and_json_round_trip_rebuild_the_state():
    initial = game()
    state, events = play(initial, Roll(1, dice=FIVES), Bid(1, 3, 4), Bid(2, 2, 1), Challenge(3))
    assert replay(initial, events) == state
    stored = [
        EVENTS.from_json(raw) for raw in json.loads(json.dumps([e.to_json() for e in events]))
    ]
    assert stored == events and replay(initial, stored) == state
    assert State.from_json(json.loads(json.dumps(state.to_json()))) == state
    mid, _ = play(initial, Roll(1, dice=FIVES), Bid(1, 3, 4))
    assert State.from_json(json.loads(json.dumps(mid.to_json()))) == mid


def test_turn_actions_are_for_the_player_to_act_only():
    state = rolled(game(), *FIVES)
    assert turn_actions(state, 2) == []
    assert legal_actions(state, 2) == [Leave(2)]
    assert legal_actions(state, 1)[-1] == Leave(1)
    assert all(a.player == 1 for a in turn_actions(state, 1) if not isinstance(a, Stop))
    assert seat(state, 1).status == IN
