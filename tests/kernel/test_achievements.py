"""How a finished game's achievements are detected (``bot.kernel.achievements.award``),
with made-up declarations: feats, streaks carried from game to game, humans only."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from bot.kernel.achievements import Earned, Feat, Finished, Run, Streak, award
from bot.kernel.spec import Results

HUMANS = (1, 2)
CPU = -1


def finished() -> Finished:
    """A game of two humans and a CPU (the declarations below say what happened in it)."""
    return Finished(
        state=None,
        events=[],
        humans=HUMANS,
        results=Results("board", {}, []),
    )


def feat_of(done: Sequence[int]) -> Feat:
    return Feat("did_it", lambda game: done)


def streak_of(tries: Mapping[int, Sequence[bool]], length: int = 3) -> Streak:
    return Streak("in_a_row", length, lambda game: tries)


def test_a_feat_is_earned_by_the_humans_who_did_it():
    awards = award([feat_of([2, 1])], finished())
    assert awards.earned == (Earned(1, "did_it"), Earned(2, "did_it"))
    assert awards.runs == ()


def test_a_cpu_never_earns_anything():
    awards = award([feat_of([CPU]), streak_of({CPU: [True] * 5})], finished())
    assert awards.earned == ()
    assert awards.runs == ()


def test_a_feat_nobody_did_is_not_earned():
    assert award([feat_of([])], finished()).earned == ()


def test_a_streak_is_earned_within_one_game():
    awards = award([streak_of({1: [True, True, True]})], finished())
    assert awards.earned == (Earned(1, "in_a_row"),)
    assert awards.runs == (Run(1, "in_a_row", 3, restarted=False),)


def test_a_streak_goes_on_from_the_run_the_player_had_going():
    awards = award([streak_of({1: [True]})], finished(), {(1, "in_a_row"): 2})
    assert awards.earned == (Earned(1, "in_a_row"),)
    assert awards.runs == (Run(1, "in_a_row", 1, restarted=False),)


def test_a_wrong_try_starts_the_run_again():
    awards = award([streak_of({1: [True, False, True]})], finished(), {(1, "in_a_row"): 1})
    assert awards.earned == ()
    # The run after the game is the one right try after the wrong one.
    assert awards.runs == (Run(1, "in_a_row", 1, restarted=True),)


def test_a_streak_reached_before_a_wrong_try_in_the_same_game_is_earned():
    awards = award([streak_of({2: [True, True, False]})], finished(), {(2, "in_a_row"): 1})
    assert awards.earned == (Earned(2, "in_a_row"),)
    assert awards.runs == (Run(2, "in_a_row", 0, restarted=True),)


def test_a_run_held_from_before_is_not_earned_again_without_a_try():
    awards = award([streak_of({1: []})], finished(), {(1, "in_a_row"): 5})
    assert awards.earned == ()
    assert awards.runs == ()


def test_a_run_short_of_the_length_earns_nothing_yet():
    awards = award([streak_of({1: [True, True]})], finished())
    assert awards.earned == ()
    assert awards.runs == (Run(1, "in_a_row", 2, restarted=False),)
