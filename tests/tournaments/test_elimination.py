"""Single elimination (docs/tournaments.md#single-elimination), one test per rule."""

from __future__ import annotations

import pytest

from bot.tournaments import (
    SINGLE_ELIMINATION,
    Options,
    advance,
    bracket_order,
    forfeit,
    pending_matches,
    record,
    standings,
    start,
    winner,
)
from tests.tournaments.play import entrants, play_out, play_round, script

SE = Options(SINGLE_ELIMINATION)


def pairs(t, number):
    return [m.players for m in t.rounds[number - 1].matches]


def test_eight_players_play_a_full_bracket_of_three_rounds_to_a_winner():
    t = start(entrants(8), SE)
    assert pairs(t, 1) == [(1, 8), (4, 5), (2, 7), (3, 6)]
    t = play_out(t, script({"1-2": (5, 4), "2-2": (3, 2)}))
    assert pairs(t, 2) == [(1, 5), (2, 3)]
    assert pairs(t, 3) == [(1, 3)]
    assert len(t.rounds) == 3 and winner(t) == 1


def test_the_bracket_follows_the_standard_seed_order():
    assert bracket_order(2) == (1, 2)
    assert bracket_order(4) == (1, 4, 2, 3)
    assert bracket_order(8) == (1, 8, 4, 5, 2, 7, 3, 6)
    assert bracket_order(16) == (1, 16, 8, 9, 4, 13, 5, 12, 2, 15, 7, 10, 3, 14, 6, 11)


@pytest.mark.parametrize("size", [2, 4, 8, 16, 32, 64])
def test_seed_one_and_two_can_only_meet_in_the_final(size):
    order = bracket_order(size)
    half = size // 2
    assert (order.index(1) < half) != (order.index(2) < half)
    # More generally, the top 2**k seeds sit in 2**k different blocks of size / 2**k lines:
    # none of them can meet another before the last k rounds.
    top = 2
    while top <= size:
        block = size // top
        assert len({order.index(seed) // block for seed in range(1, top + 1)}) == top
        top *= 2


def test_with_the_better_seed_always_winning_seed_one_meets_seed_two_in_the_final():
    for count in range(2, 20):
        t = play_out(start(entrants(count), SE))
        assert t.rounds[-1].matches[0].players == (1, 2), count


def test_five_players_byes_go_to_the_top_three_seeds():
    t = start(entrants(5), SE)
    assert pairs(t, 1) == [(1,), (4, 5), (2,), (3,)]
    assert [m.players for m in pending_matches(t)] == [(4, 5)]
    assert all(m.winner == m.players[0] for m in t.current.matches if m.bye)
    t = advance(record(t, "1-2", (5, 4)))
    assert pairs(t, 2) == [(1, 5), (2, 3)]


def test_six_players_byes_go_to_the_top_two_seeds():
    t = start(entrants(6), SE)
    assert pairs(t, 1) == [(1,), (4, 5), (2,), (3, 6)]
    t = play_out(t)
    assert pairs(t, 2) == [(1, 4), (2, 3)]
    assert len(t.rounds) == 3 and winner(t) == 1


def test_a_player_absent_at_the_deadline_loses_the_match():
    t = start(entrants(4), SE)
    t = forfeit(t, "1-1", [1])
    match = t.current.matches[0]
    assert match.ranking == (4, 1) and match.forfeited == (1,) and match.winner == 4
    t = advance(play_round(t))
    assert pairs(t, 2) == [(4, 2)]


def test_both_absent_both_go_out_and_the_next_opponent_wins_by_walkover():
    t = start(entrants(8), SE)
    t = forfeit(t, "1-2", [4, 5])
    assert t.current.matches[1].winner is None
    t = advance(play_round(t))
    walkover = t.current.matches[0]
    assert walkover.players == (1,) and walkover.winner == 1 and walkover.decided
    assert [m.players for m in pending_matches(t)] == [(2, 3)]
    t = play_out(t)
    assert winner(t) == 1


def test_a_slot_both_of_whose_feeders_emptied_stays_empty_and_passes_on_the_walkover():
    t = start(entrants(8), SE)
    t = forfeit(forfeit(t, "1-1", [1, 8]), "1-2", [4, 5])
    t = advance(play_round(t))
    assert pairs(t, 2) == [(), (2, 3)]
    t = advance(play_round(t))
    assert pairs(t, 3) == [(2,)]
    assert pending_matches(t) == ()  # nothing to play: advance again
    t = advance(t)
    assert winner(t) == 2


def test_both_finalists_absent_means_no_winner():
    t = play_round(start(entrants(4), SE))
    t = forfeit(advance(t), "2-1", [1, 2])
    t = advance(t)
    assert t.over and winner(t) is None
    assert [(s.player, s.place) for s in standings(t)] == [(1, 2), (2, 2), (3, 3), (4, 3)]


def test_places_go_by_the_round_reached_and_are_shared():
    t = play_out(start(entrants(8), SE))
    assert [(s.player, s.place) for s in standings(t)] == [
        (1, 1),
        (2, 2),
        (3, 3),
        (4, 3),
        (5, 5),
        (6, 5),
        (7, 5),
        (8, 5),
    ]


def test_byes_count_as_rounds_come_through_but_not_as_wins():
    t = play_out(start(entrants(5), SE))
    rows = {s.player: s for s in standings(t)}
    assert (rows[1].place, rows[1].score, rows[1].wins) == (1, 3, 2)
    assert (rows[2].place, rows[2].score, rows[2].wins) == (2, 2, 1)
    assert (rows[3].place, rows[3].score, rows[3].wins) == (3, 1, 0)
    assert (rows[4].place, rows[4].score, rows[4].wins) == (3, 1, 1)
    assert (rows[5].place, rows[5].score, rows[5].wins) == (5, 0, 0)


def test_standings_during_the_tournament_give_the_place_already_secured():
    t = advance(play_round(start(entrants(8), SE)))
    rows = {s.player: s.place for s in standings(t)}
    assert rows == {1: 3, 2: 3, 3: 3, 4: 3, 5: 5, 6: 5, 7: 5, 8: 5}
