"""Swiss rounds (docs/tournaments.md#swiss), one test per rule; the scripted examples'
scores and Buchholz are worked out by hand in the comments."""

from __future__ import annotations

import itertools

from bot.tournaments import (
    SWISS,
    Options,
    advance,
    forfeit,
    pending_matches,
    standings,
    start,
    winner,
)
from tests.tournaments.play import entrants, play_out, play_round, script


def pairs(t, number):
    return [m.players for m in t.rounds[number - 1].matches]


def table(t):
    return [(s.player, s.score, s.buchholz, s.wins) for s in standings(t)]


# Six players, three rounds. Round 1 pairs by seed: 1-2, 3-4, 5-6; 1, 4 and 5 win.
# Before round 2: 1, 4, 5 have 1 point and Buchholz 0 (their opponents have 0); 2, 3, 6
# have 0 points and Buchholz 1. Order 1 4 5 2 3 6, paired top-down: 1-4, 5-2, 3-6.
# 4 beats 1, 2 beats 5, 3 beats 6. Scores 4:2, 1:1, 2:1, 3:1, 5:1, 6:0; Buchholz 1: 2+1=3,
# 2: 1+1=2, 3: 2+0=2, 5: 0+1=1. Order 4 1 2 3 5 6 (2 before 3: same Buchholz and wins,
# better seed). Round 3: 4-1 was played, 4-2 is free and leaves 1 3 5 6 pairable; then
# 1-3 would leave 5-6 (played), 1-5 would leave 3-6 (played): 1-6, and 3-5.
SIX = {
    "1-2": (4, 3),
    "2-1": (4, 1),
    "2-2": (2, 5),
    "2-3": (3, 6),
    "3-1": (4, 2),
    "3-3": (5, 3),
}


def test_six_players_three_rounds_are_paired_by_score_top_down_without_a_rematch():
    t = play_out(start(entrants(6), Options(SWISS)), script(SIX))
    assert len(t.rounds) == 3
    assert pairs(t, 1) == [(1, 2), (3, 4), (5, 6)]
    assert pairs(t, 2) == [(1, 4), (5, 2), (3, 6)]
    assert pairs(t, 3) == [(4, 2), (1, 6), (3, 5)]
    met = [frozenset(m.players) for r in t.rounds for m in r.matches]
    assert len(met) == len(set(met)) == 9


def test_scores_and_buchholz_of_the_six_player_example():
    # Final scores 4:3, 1:2, 5:2, 2:1, 3:1, 6:0. Buchholz: 1 met 2, 4, 6: 1+3+0 = 4;
    # 5 met 6, 2, 3: 0+1+1 = 2; 2 met 1, 5, 4: 2+2+3 = 7; 3 met 4, 6, 5: 3+0+2 = 5;
    # 4 met 3, 1, 2: 1+2+1 = 4; 6 met 5, 3, 1: 2+1+2 = 5.
    t = play_out(start(entrants(6), Options(SWISS)), script(SIX))
    assert table(t) == [
        (4, 3, 4, 3),
        (1, 2, 4, 2),
        (5, 2, 2, 2),
        (2, 1, 7, 1),
        (3, 1, 5, 1),
        (6, 0, 5, 0),
    ]
    assert [s.place for s in standings(t)] == [1, 2, 3, 4, 5, 6]
    assert winner(t) == 4


def test_the_first_round_pairs_the_seeds_top_down():
    assert pairs(start(entrants(8), Options(SWISS)), 1) == [(1, 2), (3, 4), (5, 6), (7, 8)]


# Seven players, three rounds: a bye each round. Round 1: 1-2, 3-4, 5-6, bye to 7; 1, 4, 5
# win. Order 1 4 5 7 (7's point is a bye: no win) 2 3 6: the bye to 6, then 1-4, 5-7, 2-3;
# 4, 7, 2 win. Order 4 7 1 5 2 6 3 (1 and 5: 1 point, Buchholz 3, one win: by seed; 2
# before 6: same Buchholz 1, 2 has a win): the bye to 3, then 4-7, 1-5, 2-6; 4, 1, 2 win.
SEVEN = {"1-2": (4, 3), "2-1": (4, 1), "2-2": (7, 5)}


def test_an_odd_count_gives_the_lowest_ranked_player_without_one_a_bye():
    t = play_out(start(entrants(7), Options(SWISS)), script(SEVEN))
    assert pairs(t, 1) == [(1, 2), (3, 4), (5, 6), (7,)]
    assert pairs(t, 2) == [(1, 4), (5, 7), (2, 3), (6,)]
    assert pairs(t, 3) == [(4, 7), (1, 5), (2, 6), (3,)]
    byes = [m.players[0] for r in t.rounds for m in r.matches if m.bye]
    assert byes == [7, 6, 3]


def test_the_bye_skips_the_lowest_ranked_when_they_already_had_one():
    t = advance(play_round(start(entrants(3), Options(SWISS, rounds=2))))
    # 1 beat 2, 3 had the bye: 3 (1 point, no win) ranks second, 2 last; 2 gets the bye.
    assert pairs(t, 1) == [(1, 2), (3,)]
    assert pairs(t, 2) == [(1, 3), (2,)]


def test_a_bye_scores_a_win_and_adds_nothing_to_buchholz():
    t = play_out(start(entrants(7), Options(SWISS)), script(SEVEN))
    # Final: 4:3, 1:2, 2:2, 7:2, 5:1, 3:1, 6:1. 7 met 5 and 4 (and had a bye): 1+3 = 4.
    assert table(t) == [
        (4, 3, 5, 3),
        (1, 2, 6, 2),
        (2, 2, 4, 2),
        (7, 2, 4, 1),
        (5, 1, 5, 1),
        (3, 1, 5, 0),
        (6, 1, 3, 0),
    ]


def test_tie_breaks_buchholz_then_wins_then_seed():
    t = play_out(start(entrants(7), Options(SWISS)), script(SEVEN))
    order = [s.player for s in standings(t)]
    # 1 before 2 and 7 (2 points each): Buchholz 6 against 4.
    # 2 before 7: Buchholz 4 each, two wins against one (7's bye).
    # 5 before 3: 1 point, Buchholz 5 each, one win against none, despite the seeds.
    assert order == [4, 1, 2, 7, 5, 3, 6]
    # All equal: the seed. Four players: 2 and 4 end on 2 points, Buchholz 4, two wins.
    t = play_out(start(entrants(4), Options(SWISS, rounds=3)), script(FOUR))
    assert table(t) == [(2, 2, 4, 2), (4, 2, 4, 2), (1, 1, 5, 1), (3, 1, 5, 1)]


# Four players, three rounds: 2 beats 1, 4 beats 3; 2 beats 4, 1 beats 3; 3 beats 2, 4 beats 1.
FOUR = {"1-1": (2, 1), "1-2": (4, 3), "2-1": (2, 4), "2-2": (1, 3), "3-1": (3, 2), "3-2": (4, 1)}


def test_a_forfeit_is_a_win_for_the_present_player_and_a_loss_for_the_absent():
    t = forfeit(start(entrants(4), Options(SWISS, rounds=2)), "1-1", [1])
    t = play_out(t)
    rows = {s.player: (s.score, s.wins) for s in standings(t)}
    assert rows[2][0] == 2 and rows[2][1] == 2


def test_both_absent_both_lose_and_still_count_as_met():
    t = forfeit(start(entrants(4), Options(SWISS, rounds=3)), "1-1", [1, 2])
    match = t.current.matches[0]
    assert match.decided and match.winner is None
    t = play_round(t)  # 3 beats 4
    assert table(t) == [(3, 1, 0, 1), (4, 0, 1, 0), (1, 0, 0, 0), (2, 0, 0, 0)]
    t = play_out(t)
    met = [frozenset(m.players) for r in t.rounds for m in r.matches]
    assert met.count(frozenset((1, 2))) == 1 and len(met) == len(set(met))


def test_when_no_pairing_without_a_rematch_is_left_the_tournament_ends_early():
    # Six players, five rounds planned. 1, 3, 5 win round 1; round 2 pairs 1-3, 5-2, 4-6
    # and 3, 5, 6 win; round 3 pairs 3-5, 1-6, 2-4. Those not met yet are then two
    # triangles, 1 4 5 and 2 3 6: no pairing of all six is left, so it ends after round 3.
    t = start(entrants(6), Options(SWISS, rounds=5))
    t = play_out(t, script({"2-1": (3, 1), "2-2": (5, 2), "2-3": (6, 4)}))
    assert pairs(t, 2) == [(1, 3), (5, 2), (4, 6)]
    assert pairs(t, 3) == [(3, 5), (1, 6), (2, 4)]
    assert t.over and len(t.rounds) == 3
    assert winner(t) == 3 == standings(t)[0].player


def test_every_player_plays_once_each_round():
    t = play_out(start(entrants(9), Options(SWISS)))
    for r in t.rounds:
        seated = list(itertools.chain.from_iterable(m.players for m in r.matches))
        assert sorted(seated) == list(range(1, 10))
    assert pending_matches(t) == ()
