"""Dés du menteur's achievements, detected from a finished game
(``bot.games.menteur.achievements``): scripted rounds, and whole games played by the CPUs."""

from __future__ import annotations

from typing import Any

import pytest

from bot.games.menteur import Bid, Calza, Challenge, Leave, Rules, Stop
from bot.games.menteur.achievements import challenges
from bot.games.menteur.events import DieLost, GameWon
from bot.games.menteur.spec import SPEC
from tests.games.achieved import cpu_game, earned, finished
from tests.games.menteur.scripted import game, play, rolled


def rounds(state: Any, *moves: tuple[tuple[tuple[int, ...], ...], tuple[Any, ...]]):
    """Rounds in order: each player's hand, then the moves; the table stops a game still
    going."""
    events: list[Any] = []
    for hands, actions in moves:
        state = rolled(state, *hands)
        state, produced = play(state, *actions)
        events += produced
    if not state.over:
        state, produced = play(state, Stop())
        events += produced
    return state, events


def test_winning_without_losing_a_die_is_flawless():
    state, events = rounds(
        game(2, dice=3),
        (((2, 2, 2), (3, 3, 3)), (Bid(1, 1, 2), Challenge(2))),  # true: 2 loses one
        (((2, 2, 2), (3, 3)), (Bid(2, 5, 5), Challenge(1))),  # false: 2 loses one
        (((2, 2, 2), (3,)), (Bid(2, 4, 6), Challenge(1))),  # false: 2 is out
    )
    assert state.winner == 1
    assert earned(SPEC, state, events) == {(1, "menteur_flawless")}


def test_winning_on_one_s_last_die():
    state, events = rounds(
        game(2, dice=3),
        (((2, 2, 2), (3, 3, 3)), (Bid(1, 5, 5), Challenge(2))),
        (((2, 2), (3, 3, 3)), (Bid(1, 5, 5), Challenge(2))),
        (((2,), (3, 3, 3)), (Bid(1, 1, 3), Challenge(2))),
        (((2,), (3, 3)), (Bid(2, 3, 5), Challenge(1))),
        (((2,), (3,)), (Bid(2, 2, 5), Challenge(1))),
    )
    assert state.winner == 1
    assert earned(SPEC, state, events) == {(1, "menteur_last_die")}


def test_a_win_because_everyone_else_left_earns_nothing():
    state, events = rounds(game(2, dice=3), (((2, 2, 2), (3, 3, 3)), (Leave(2),)))
    assert state.winner == 1
    assert earned(SPEC, state, events) == set()


def test_an_exact_calza_is_earned_by_the_caller():
    state, events = rounds(
        game(2, dice=3, calza=True), (((2, 2, 2), (3, 3, 3)), (Bid(1, 3, 2), Calza(2)))
    )
    assert earned(SPEC, state, events) == {(2, "menteur_exact_calza")}


def test_a_calza_that_is_not_exact_earns_nothing():
    state, events = rounds(
        game(2, dice=3, calza=True), (((2, 2, 2), (3, 3, 3)), (Bid(1, 2, 2), Calza(2)))
    )
    assert earned(SPEC, state, events) == set()


def test_a_cpu_earns_nothing():
    state, events = rounds(
        game(2, dice=3),
        (((2, 2, 2), (3, 3, 3)), (Bid(1, 1, 2), Challenge(2))),
        (((2, 2, 2), (3, 3)), (Bid(2, 5, 5), Challenge(1))),
        (((2, 2, 2), (3,)), (Bid(2, 4, 6), Challenge(1))),
    )
    assert earned(SPEC, state, events, humans=[2]) == set()


def test_a_challenge_is_right_when_the_bid_was_false_and_a_calza_is_no_challenge():
    state, events = rounds(
        game(2, dice=3, calza=True),
        (((2, 2, 2), (3, 3, 3)), (Bid(1, 1, 2), Challenge(2))),  # held: wrong
        (((2, 2, 2), (3, 3)), (Bid(2, 5, 5), Challenge(1))),  # false: right
        (((2, 2, 2), (3,)), (Bid(2, 3, 2), Calza(1))),
    )
    assert challenges(finished(SPEC, state, events, [1, 2], state.rules)) == {
        2: [False],
        1: [True],
    }


@pytest.mark.parametrize("seed", range(40))
def test_in_games_the_cpus_play_what_is_earned_matches_the_final_table(seed):
    levels = {1: "facile", 2: "moyen", 3: "difficile"}
    rules = Rules.for_preset(dice=3)
    state, events = cpu_game(SPEC, rules, [1, 2, 3], levels, seed)
    won = earned(SPEC, state, events)
    winner = next(e.player for e in events if isinstance(e, GameWon))
    dice = state.seat(winner).dice
    flawless = {p for p, code in won if code == "menteur_flawless"}
    last_die = {p for p, code in won if code == "menteur_last_die"}
    # The final state agrees with the log: no die lost is all three left.
    assert flawless == ({winner} if dice == 3 else set())
    assert last_die == ({winner} if dice == 1 else set())
    assert flawless or any(isinstance(e, DieLost) and e.player == winner for e in events)


def test_cpu_games_earn_each_achievement_of_one_game_in_real_play():
    seen: set[str] = set()
    levels = {1: "facile", 2: "moyen", 3: "difficile"}
    for calza in (False, True):
        rules = Rules.for_preset(dice=3, calza=calza)
        for seed in range(60):
            state, events = cpu_game(SPEC, rules, [1, 2, 3], levels, seed)
            seen |= {code for _, code in earned(SPEC, state, events)}
    assert seen == {"menteur_flawless", "menteur_last_die", "menteur_exact_calza"}
