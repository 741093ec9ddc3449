"""Maya and Mia's achievements, detected from a finished game's event log
(``bot.games.maya.achievements``): scripted rounds, and whole games played by the CPUs."""

from __future__ import annotations

import random

import pytest

from bot.games.maya import (
    SOIREE,
    VIES,
    Announce,
    Leave,
    Lift,
    Roll,
    Rules,
    Stop,
    Warrior,
    apply,
    new_game,
)
from bot.games.maya.achievements import lifts
from bot.games.maya.events import GameWon, Revealed, WarriorRolled
from bot.games.maya.spec import SPEC
from bot.games.maya.values import MAYA
from tests.games.achieved import cpu_game, earned, finished


def played(preset: str, players: int, *actions, **options):
    state = new_game(list(range(1, players + 1)), Rules.for_preset(preset, **options))
    events = []
    for action in actions:
        state, produced = apply(state, action)
        events += produced
    if not state.over:
        state, produced = apply(state, Stop())
        events += produced
    return state, events


def test_a_real_maya_lifted_is_earned_by_whoever_announced_it():
    state, events = played(SOIREE, 3, Roll(1, dice=(2, 1)), Announce(1, MAYA), Lift(2))
    assert earned(SPEC, state, events) == {(1, "maya_real_maya")}


def test_a_fake_maya_lifted_earns_nothing():
    state, events = played(SOIREE, 3, Roll(1, dice=(6, 6)), Announce(1, MAYA), Lift(2))
    assert earned(SPEC, state, events) == set()


def test_a_true_announcement_other_than_maya_lifted_earns_nothing():
    state, events = played(SOIREE, 3, Roll(1, dice=(6, 6)), Announce(1, 66), Lift(2))
    assert earned(SPEC, state, events) == set()


def test_a_warrior_who_rolls_a_maya_earns_it():
    state, events = played(
        SOIREE, 3, Roll(1, dice=(3, 1)), Announce(1, MAYA), Warrior(2, dice=(1, 2))
    )
    assert earned(SPEC, state, events) == {(2, "maya_warrior")}


def test_a_warrior_who_misses_earns_nothing():
    state, events = played(
        SOIREE, 3, Roll(1, dice=(2, 1)), Announce(1, MAYA), Warrior(2, dice=(6, 6))
    )
    assert earned(SPEC, state, events) == set()


def test_a_cpu_earns_nothing_the_humans_at_its_table_do():
    state, events = played(
        SOIREE, 3, Roll(1, dice=(3, 1)), Announce(1, MAYA), Warrior(2, dice=(1, 2))
    )
    assert earned(SPEC, state, events, humans=[1, 3]) == set()


def bluffs(liar: int, lifter: int, times: int) -> list:
    """``liar`` bluffs, ``lifter`` lifts, ``times`` times (the loser opens again)."""
    return [Roll(liar, dice=(3, 1)), Announce(liar, 65), Lift(lifter)] * times


def test_winning_mia_without_losing_a_life_earns_untouched():
    # 2 lifts a true 66, then bluffs twice and is out of three lives.
    true_66 = [Roll(1, dice=(6, 6)), Announce(1, 66), Lift(2)]
    state, events = played(VIES, 2, *true_66, *bluffs(2, 1, 2), vies=3)
    assert state.winner == 1
    assert earned(SPEC, state, events) == {(1, "maya_untouched")}


def test_an_untouched_win_needs_three_lives_to_lose_at_the_start():
    state, events = played(VIES, 2, Roll(1, dice=(6, 6)), Announce(1, 66), Lift(2), vies=1)
    assert state.winner == 1
    assert earned(SPEC, state, events) == set()


def test_a_winner_who_lost_a_life_is_not_untouched():
    state, events = played(
        VIES,
        2,
        Roll(1, dice=(3, 1)),
        Announce(1, 66),
        Lift(2),  # 1 bluffed: a life lost, and 1 opens again
        Roll(1, dice=(6, 6)),
        Announce(1, 66),
        Lift(2),  # true: 2 loses a life, and opens
        *bluffs(2, 1, 2),  # 2 bluffs twice more: out
        vies=3,
    )
    assert state.winner == 1
    assert (1, "maya_untouched") not in earned(SPEC, state, events)


def test_a_win_because_everyone_else_left_is_not_untouched():
    state, events = played(VIES, 2, Leave(2))
    assert state.winner == 1
    assert earned(SPEC, state, events) == set()


def test_each_lift_is_right_when_it_caught_a_bluff():
    state, events = played(
        SOIREE,
        3,
        Roll(1, dice=(3, 1)),
        Announce(1, 62),
        Lift(2),  # a bluff caught (right): 1 drinks and opens again
        Roll(1, dice=(6, 6)),
        Announce(1, 66),
        Lift(2),  # true: wrong
    )
    game = finished(SPEC, state, events, [1, 2, 3], state.rules)
    assert lifts(game) == {2: [True, False]}


@pytest.mark.parametrize("seed", range(40))
def test_in_mia_games_the_cpus_play_what_is_earned_matches_the_table(seed):
    levels = {1: "facile", 2: "moyen", 3: "difficile"}
    state, events = cpu_game(SPEC, Rules.for_preset(VIES), [1, 2, 3], levels, seed)
    won = earned(SPEC, state, events)
    lifted_mayas = {
        e.player for e in events if isinstance(e, Revealed) and e.value == e.announced == MAYA
    }
    assert {p for p, code in won if code == "maya_real_maya"} == lifted_mayas
    untouched = {p for p, code in won if code == "maya_untouched"}
    winner = next(e.player for e in events if isinstance(e, GameWon))
    # The final state agrees with the log: the untouched winner has every life left.
    assert untouched == ({winner} if state.seat(winner).lives == 3 else set())


def test_cpu_games_earn_the_achievements_of_one_game_in_real_play():
    """Played by the CPUs with seeded dice (not only in the scripted rounds above)."""
    seen: set[str] = set()
    levels = {1: "facile", 2: "moyen", 3: "difficile"}
    for seed in range(60):
        state, events = cpu_game(SPEC, Rules.for_preset(VIES), [1, 2, 3], levels, seed)
        seen |= {code for _, code in earned(SPEC, state, events)}
    for seed in range(30):
        # A soirée never ends by itself: 300 moves, then the table stops it. The facile CPU
        # believes a Maya as a Warrior now and then.
        rng = random.Random(seed)
        state, events = new_game([1, 2, 3], Rules.for_preset(SOIREE)), []
        for _ in range(300):
            move = SPEC.cpu_action(state, state.current, "facile", rng)
            state, produced = apply(state, move)
            events += produced
        state, produced = apply(state, Stop())
        events += produced
        warriors = {e.player for e in events if isinstance(e, WarriorRolled) and e.success}
        won = earned(SPEC, state, events)
        assert {p for p, code in won if code == "maya_warrior"} == warriors
        seen |= {code for _, code in won}
    assert seen == {"maya_real_maya", "maya_untouched", "maya_warrior"}
