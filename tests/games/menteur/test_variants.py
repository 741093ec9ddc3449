"""Rule tests of the two Dés du menteur variants (docs/rules.md#menteur-calza and
#menteur-palifico), one per statement, with
scripted dice: *Calza* (the last bid called exact) and *Palifico* (a player down to one
die for the first time opens a round where ones are not jokers and the face is kept).
Both are table options, off by default.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from bot.games.menteur import (
    BID,
    EVENTS,
    OUT,
    OVER,
    ROLL,
    Bid,
    BidTooLow,
    Calza,
    Challenge,
    Event,
    InvalidBid,
    Leave,
    NotNow,
    NotYourTurn,
    Roll,
    Rules,
    State,
    legal_actions,
    replay,
    turn_actions,
    view,
)
from bot.games.menteur.metrics import figures
from tests.games.menteur.scripted import game, play, refused, rolled, seat, the


def types(events: list[Event]) -> list[str]:
    return [event.type for event in events]


def with_dice(state: State, counts: dict[int, int]) -> State:
    """``state`` with the given players' dice counts (set before a round is rolled)."""
    for player, dice in counts.items():
        seat(state, player).dice = dice
    return state


# Players 1, 2, 3. Fours with jokers: 1+2+0 = 3 + jokers 1 + 0 + 0 -> exactly 4 fours.
HANDS = ((1, 4, 4, 2, 3), (5, 5, 6, 6, 2), (4, 3, 3, 2, 6))


# --------------------------------------------------------------------------- the options


def test_both_variants_are_off_by_default_and_stored_with_the_rules():
    rules = Rules.for_preset()
    assert rules.calza is False and rules.palifico is False
    on = Rules.for_preset(calza=True, palifico=True)
    assert Rules.from_json(json.loads(json.dumps(on.to_json()))) == on


def test_rules_stored_before_the_variants_read_back_with_them_off():
    assert Rules.from_json({"dice": 4, "jokers": False}) == Rules(dice=4, jokers=False)


def test_a_state_stored_before_the_variants_reads_back_with_no_palifico_round():
    state = rolled(game(), *HANDS)
    raw = state.to_json()
    del raw["palifico"], raw["palificos"]
    del raw["rules"]["calza"], raw["rules"]["palifico"]
    back = State.from_json(raw)
    assert back.palifico is None and back.palificos == [] and back == state


# --------------------------------------------------------------------------- calza


def test_without_the_option_there_is_no_calza():
    state, _ = play(rolled(game(), *HANDS), Bid(1, 3, 4))
    assert Calza(2) not in turn_actions(state, 2)
    error = refused(state, Calza(2), NotNow)
    assert error.params["reason"] == "calza_off"


def test_with_the_option_the_next_player_may_call_the_last_bid_exact():
    state = rolled(game(calza=True), *HANDS)
    assert Calza(1) not in turn_actions(state, 1)  # no bid yet
    assert refused(state, Calza(1), NotNow).params["reason"] == "no_bid"
    state, _ = play(state, Bid(1, 3, 4))
    assert turn_actions(state, 2)[-2:] == [Challenge(2), Calza(2)]
    assert Calza(2) in legal_actions(state, 2)
    refused(state, Calza(3), NotYourTurn)
    refused(state, Calza(1), NotYourTurn)  # the last bidder may not call their own bid


def test_a_calza_reveals_every_hand_in_public_with_the_count():
    state, _ = play(rolled(game(calza=True), *HANDS), Bid(1, 4, 4))
    state, events = play(state, Calza(2))
    assert types(events)[:2] == ["calza_called", "revealed"]
    assert the(events, "calza_called").data == {"player": 2, "bidder": 1, "quantity": 4, "face": 4}
    revealed = the(events, "revealed")
    assert revealed.public
    assert [h["dice"] for h in revealed.data["hands"]] == [list(h) for h in HANDS]
    assert revealed.data["actual"] == 4 and revealed.data["exact"] is True
    assert revealed.data["call"] == "calza" and revealed.data["challenger"] == 2


def test_an_exact_calza_gives_the_caller_a_die_back():
    state = with_dice(game(calza=True), {2: 4})
    state = rolled(state, HANDS[0], (5, 5, 6, 6), HANDS[2])
    state, _ = play(state, Bid(1, 4, 4))
    state, events = play(state, Calza(2))
    assert the(events, "die_gained").data == {"player": 2, "remaining": 5, "capped": False}
    assert "die_lost" not in types(events)
    assert seat(state, 2).dice == 5 and seat(state, 1).dice == 5
    assert the(events, "round_ended").data == {"loser": None, "opener": 2, "palifico": None}


def test_an_exact_calza_never_takes_the_caller_above_the_starting_dice():
    state, _ = play(rolled(game(calza=True), *HANDS), Bid(1, 4, 4))
    state, events = play(state, Calza(2))
    assert the(events, "die_gained").data == {"player": 2, "remaining": 5, "capped": True}
    assert seat(state, 2).dice == 5


@pytest.mark.parametrize("quantity", [3, 5])  # four 4s on the table: more, or fewer
def test_a_calza_that_is_not_exact_costs_the_caller_a_die(quantity):
    state, _ = play(rolled(game(calza=True), *HANDS), Bid(1, quantity, 4))
    state, events = play(state, Calza(2))
    assert the(events, "revealed").data["exact"] is False
    assert the(events, "die_lost").data == {"player": 2, "remaining": 4, "reason": "calza"}
    assert seat(state, 1).dice == 5 and seat(state, 3).dice == 5


@pytest.mark.parametrize("quantity", [3, 4, 5])
def test_the_caller_opens_the_next_round_either_way(quantity):
    state, _ = play(rolled(game(calza=True), *HANDS), Bid(1, 2, 4), Bid(2, quantity, 4))
    state, _ = play(state, Calza(3))
    assert state.phase == ROLL and state.current == 3


def test_a_wrong_calza_on_the_last_die_eliminates_the_caller_and_the_next_player_opens():
    state = with_dice(game(calza=True), {2: 1})
    state = rolled(state, HANDS[0], (5,), HANDS[2])
    state, _ = play(state, Bid(1, 2, 4))
    state, events = play(state, Calza(2))
    assert types(events)[-3:] == ["die_lost", "eliminated", "round_ended"]
    assert seat(state, 2).status == OUT
    assert state.current == 3


def test_a_wrong_calza_may_end_the_game():
    state = with_dice(game(2, calza=True), {2: 1})
    state = rolled(state, (4, 4, 4, 4, 4), (3,))
    state, _ = play(state, Bid(1, 2, 4))
    state, events = play(state, Calza(2))
    assert types(events)[-2:] == ["eliminated", "game_won"]
    assert state.phase == OVER and state.winner == 1


def test_with_jokers_a_calza_counts_the_ones_and_without_them_it_does_not():
    state, _ = play(rolled(game(calza=True), *HANDS), Bid(1, 4, 4))
    _, events = play(state, Calza(2))
    assert the(events, "revealed").data["actual"] == 4
    state, _ = play(rolled(game(calza=True, jokers=False), *HANDS), Bid(1, 3, 4))
    _, events = play(state, Calza(2))
    revealed = the(events, "revealed").data
    assert revealed["actual"] == 3 and revealed["exact"] is True and revealed["jokers"] is False


def test_a_calza_is_not_counted_as_a_challenge_on_the_leaderboard():
    state, _ = play(rolled(game(calza=True), *HANDS), Bid(1, 3, 4))
    state, events = play(state, Calza(2))
    found = figures(state, events, [1, 2, 3])
    assert found[2]["challenges_won"] == found[2]["challenges_lost"] == 0
    assert found[2]["dice_lost"] == 1


# --------------------------------------------------------------------------- palifico


def down_to_one(**options: Any) -> tuple[State, list[Event]]:
    """Player 2, with two dice, loses a challenge: down to one die."""
    state = with_dice(game(palifico=True, **options), {2: 2})
    state = rolled(state, HANDS[0], (5, 5), HANDS[2])
    # Player 1 bids three 4s (true: four of them), player 2 challenges and loses.
    return play(state, Bid(1, 3, 4), Challenge(2))


def test_without_the_option_one_die_left_starts_an_ordinary_round():
    state = with_dice(game(), {2: 2})
    state = rolled(state, HANDS[0], (5, 5), HANDS[2])
    state, events = play(state, Bid(1, 3, 4), Challenge(2))
    assert seat(state, 2).dice == 1
    assert the(events, "round_ended").data["palifico"] is None and state.palifico is None
    assert state.jokers is True


def test_a_player_first_down_to_one_die_opens_a_palifico_round():
    state, events = down_to_one()
    assert seat(state, 2).dice == 1
    assert the(events, "round_ended").data == {"loser": 2, "opener": 2, "palifico": 2}
    assert state.palifico == 2 and state.current == 2 and state.palificos == [2]
    state, events = play(state, Roll(2, dice=(HANDS[0], (6,), HANDS[2])))
    assert the(events, "round_started").data["palifico"] == 2
    assert view(state, 3).palifico == 2 and view(state, 3).jokers is False


def test_a_player_down_to_one_die_by_a_false_bid_opens_a_palifico_round_too():
    state = with_dice(game(palifico=True), {1: 2})
    state = rolled(state, (2, 2), HANDS[1], HANDS[2])
    state, events = play(state, Bid(1, 5, 6), Challenge(2))
    assert the(events, "round_ended").data == {"loser": 1, "opener": 1, "palifico": 1}


def test_in_a_palifico_round_ones_are_not_jokers():
    state, _ = down_to_one()
    state = rolled(state, (1, 1, 4, 2, 3), (4,), (4, 3, 3, 2, 6))
    # The opening may be on ones, as without jokers.
    assert Bid(2, 1, 1) in turn_actions(state, 2)
    state, _ = play(state, Bid(2, 3, 4))
    _, events = play(state, Challenge(3))
    revealed = the(events, "revealed").data
    assert revealed["jokers"] is False and revealed["actual"] == 3 and revealed["holds"] is True


def test_in_a_palifico_round_the_opening_face_cannot_change():
    state, _ = down_to_one()
    state = rolled(state, HANDS[0], (4,), HANDS[2])
    state, _ = play(state, Bid(2, 2, 5))
    assert {a.face for a in turn_actions(state, 3) if isinstance(a, Bid)} == {5}
    error = refused(state, Bid(3, 4, 6), InvalidBid)
    assert error.params == {"reason": "palifico_face", "face": 6, "locked": 5}
    refused(state, Bid(3, 2, 5), BidTooLow)  # the quantity must rise
    state, _ = play(state, Bid(3, 3, 5))
    refused(state, Bid(1, 4, 1), InvalidBid)  # not even to ones
    assert state.phase == BID


def test_after_the_palifico_round_the_rounds_are_ordinary_again():
    state, _ = down_to_one()
    state = rolled(state, HANDS[0], (4,), HANDS[2])
    state, events = play(state, Bid(2, 2, 5), Challenge(3))  # one 5 only: player 2 is out
    assert seat(state, 2).status == OUT
    assert state.palifico is None and the(events, "round_ended").data["palifico"] is None
    state = rolled(state, HANDS[0], HANDS[2])
    assert state.jokers is True
    opener = state.current
    assert opener is not None
    assert Bid(opener, 1, 1) not in turn_actions(state, opener)


def test_a_palifico_round_comes_once_per_player_per_game():
    state, _ = down_to_one(calza=True)
    # The Palifico round, without jokers: four 4s (two, one, one). Player 2 calls the
    # four 4s exact and gets a die back.
    state = rolled(state, HANDS[0], (4,), HANDS[2])
    state, _ = play(state, Bid(2, 2, 4), Bid(3, 3, 4), Bid(1, 4, 4), Calza(2))
    assert seat(state, 2).dice == 2 and state.palifico is None
    # Back to one die: no second Palifico round for player 2.
    state = rolled(state, HANDS[0], (5, 5), HANDS[2])
    state, events = play(state, Bid(2, 6, 6), Challenge(3))
    assert seat(state, 2).dice == 1
    assert the(events, "round_ended").data == {"loser": 2, "opener": 2, "palifico": None}
    assert state.palifico is None and state.palificos == [2]


def test_each_player_has_their_own_palifico_round():
    state, _ = down_to_one()
    state = with_dice(state, {1: 2})  # (as if player 1 had lost dice earlier)
    state = rolled(state, (2, 3), (4,), HANDS[2])
    # Player 2's Palifico round: two 4s on the table (no jokers). Player 1's four 4s are
    # false: down to one die, player 1 opens their own Palifico round.
    state, events = play(state, Bid(2, 2, 4), Bid(3, 3, 4), Bid(1, 4, 4), Challenge(2))
    assert the(events, "round_ended").data == {"loser": 1, "opener": 1, "palifico": 1}
    assert state.palifico == 1 and state.palificos == [2, 1]


def test_a_palifico_round_not_started_leaves_with_its_player():
    state, _ = down_to_one()
    state, events = play(state, Leave(2))
    assert the(events, "turn_passed").data == {"player": 3}
    assert state.palifico is None and state.jokers is True


def test_a_palifico_round_survives_a_restart_and_a_replay():
    initial = with_dice(game(palifico=True, calza=True), {2: 2})
    state = rolled(initial, HANDS[0], (5, 5), HANDS[2])
    state, events = play(
        state, Bid(1, 3, 4), Challenge(2), Roll(2, dice=(HANDS[0], (4,), HANDS[2]))
    )
    state, more = play(state, Bid(2, 2, 5))
    stored = State.from_json(json.loads(json.dumps(state.to_json())))
    assert stored == state and stored.palifico == 2 and stored.locked_face == 5
    logged = [EVENTS.from_json(json.loads(json.dumps(e.to_json()))) for e in events + more]
    assert logged == events + more
    assert replay(rolled(initial, HANDS[0], (5, 5), HANDS[2]), logged) == state


def test_a_palifico_round_cut_short_by_someone_else_is_played_again():
    state, _ = down_to_one()
    state = rolled(state, HANDS[0], (4,), HANDS[2])
    state, _ = play(state, Bid(2, 2, 4))
    state, events = play(state, Leave(3))  # the player to act leaves
    assert the(events, "round_abandoned").data == {"opener": 2, "palifico": 2}
    assert state.phase == ROLL and state.current == 2
    assert state.palifico == 2 and state.palificos == [2] and state.jokers is False
    state = rolled(state, HANDS[0], (4,))
    assert view(state, 1).palifico == 2


def test_a_palifico_round_whose_player_leaves_is_over():
    state, _ = down_to_one()
    state = rolled(state, HANDS[0], (4,), HANDS[2])
    state, events = play(state, Leave(2))  # the Palifico player, to act, leaves
    assert the(events, "round_abandoned").data == {"opener": 3, "palifico": None}
    assert state.palifico is None and state.jokers is True
