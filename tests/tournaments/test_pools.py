"""Pools and a final table (docs/tournaments.md#pools), one test per rule."""

from __future__ import annotations

from bot.tournaments import (
    POOLS,
    Options,
    advance,
    forfeit,
    pending_matches,
    record,
    snake,
    standings,
    start,
    winner,
)
from tests.tournaments.play import entrants, play_out, play_round, script


def tables(t, number):
    return [m.players for m in t.rounds[number - 1].matches]


def test_tables_are_dealt_there_and_back_by_seed():
    assert snake(range(1, 10), 2) == ((1, 4, 5, 8, 9), (2, 3, 6, 7))
    assert snake(range(1, 8), 3) == ((1, 6, 7), (2, 5), (3, 4))


def test_nine_players_at_six_seats_play_two_pools_of_five_and_four():
    t = start(entrants(9), Options(POOLS, seats=6))
    assert tables(t, 1) == [(1, 4, 5, 8, 9), (2, 3, 6, 7)]


def test_each_pools_winner_goes_to_the_final_table_whose_ranking_is_the_tournaments():
    t = start(entrants(9), Options(POOLS, seats=6))
    t = play_out(t, script({"1-1": (5, 1, 4, 8, 9), "2-1": (2, 5)}))
    assert tables(t, 2) == [(2, 5)]
    assert winner(t) == 2
    assert [s.player for s in standings(t)][:2] == [2, 5]


def test_those_who_did_not_qualify_rank_by_their_place_in_their_pool_and_share_it():
    t = play_out(start(entrants(9), Options(POOLS, seats=6)))
    # Pools (1 4 5 8 9) and (2 3 6 7) won by their first seed; 1 wins the final.
    assert [(s.player, s.place) for s in standings(t)] == [
        (1, 1),
        (2, 2),
        (3, 3),
        (4, 3),
        (5, 5),
        (6, 5),
        (7, 7),
        (8, 7),
        (9, 9),
    ]


def test_thirteen_players_at_four_seats_play_four_pools_then_a_final_of_four():
    t = play_out(start(entrants(13), Options(POOLS, seats=4)))
    assert tables(t, 1) == [(1, 8, 9), (2, 7, 10), (3, 6, 11), (4, 5, 12, 13)]
    assert tables(t, 2) == [(1, 2, 3, 4)]
    assert len(t.rounds) == 2 and winner(t) == 1


def test_pool_rounds_follow_one_another_until_the_qualifiers_fit_one_table():
    t = play_out(start(entrants(13), Options(POOLS, seats=3)))
    assert tables(t, 1) == [(1, 10, 11), (2, 9, 12), (3, 8, 13), (4, 7), (5, 6)]
    assert tables(t, 2) == [(1, 4, 5), (2, 3)]
    assert tables(t, 3) == [(1, 2)]
    assert winner(t) == 1


def test_several_qualifiers_per_table_go_on_reseeded_by_rating():
    t = start(entrants(13), Options(POOLS, seats=4, qualifiers=2))
    t = play_out(t, lambda m: ("record", tuple(reversed(m.present))))
    assert tables(t, 1) == [(1, 8, 9), (2, 7, 10), (3, 6, 11), (4, 5, 12, 13)]
    assert tables(t, 2) == [(6, 9, 10, 13), (7, 8, 11, 12)]
    assert tables(t, 3) == [(10, 11, 12, 13)]
    assert winner(t) == 13


def test_a_pool_table_never_sends_all_its_players_on():
    t = start(entrants(7), Options(POOLS, seats=6, qualifiers=5))
    assert tables(t, 1) == [(1, 4, 5), (2, 3, 6, 7)]
    t = advance(play_round(t))
    assert tables(t, 2) == [(1, 2, 3, 4, 6)]


def test_absent_players_rank_last_in_seat_order_and_the_others_play():
    t = start(entrants(9), Options(POOLS, seats=6))
    t = forfeit(t, "1-1", [8, 1])
    match = t.current.matches[0]
    assert not match.decided and match.forfeited == (1, 8) and match.present == (4, 5, 9)
    t = record(t, "1-1", (9, 5, 4))
    assert t.current.matches[0].ranking == (9, 5, 4, 1, 8)
    t = advance(play_round(t))
    assert tables(t, 2) == [(2, 9)]


def test_one_player_left_at_a_table_wins_it_and_absent_players_never_qualify():
    t = start(entrants(9), Options(POOLS, seats=6, qualifiers=2))
    t = forfeit(t, "1-1", [1, 4, 5, 8])
    match = t.current.matches[0]
    assert match.decided and match.ranking == (9, 1, 4, 5, 8) and match.winner == 9
    t = advance(play_round(t))
    assert tables(t, 2) == [(2, 3, 9)]  # table 1 sends 9 alone, though 1 ranks second


def test_nobody_goes_on_from_a_table_everyone_forfeited():
    t = start(entrants(9), Options(POOLS, seats=6))
    t = forfeit(t, "1-2", [2, 3, 6, 7])
    match = t.current.matches[1]
    assert match.decided and match.winner is None
    # Only 1 goes on: alone, they win the tournament without a final.
    t = advance(play_round(t))
    assert t.over and winner(t) == 1 and len(t.rounds) == 1
    assert standings(t)[0].player == 1


def test_with_nobody_left_nobody_wins():
    t = start(entrants(6), Options(POOLS, seats=3))
    t = forfeit(forfeit(t, "1-1", [1, 4, 5]), "1-2", [2, 3, 6])
    t = advance(t)
    assert t.over and winner(t) is None


def test_a_final_table_with_absent_players_is_played_among_the_others():
    t = start(entrants(4), Options(POOLS, seats=6))
    assert tables(t, 1) == [(1, 2, 3, 4)]  # four players fit one table: it is the final
    t = forfeit(t, "1-1", [2])
    t = advance(record(t, "1-1", (3, 1, 4)))
    assert t.over and winner(t) == 3
    assert [(s.player, s.place) for s in standings(t)] == [(3, 1), (1, 2), (4, 3), (2, 4)]


def test_standings_during_a_pool_round_put_those_still_in_ahead():
    t = start(entrants(9), Options(POOLS, seats=6))
    t = record(t, "1-1", (1, 4, 5, 8, 9))
    assert [m.id for m in pending_matches(t)] == ["1-2"]
    rows = {s.player: s.place for s in standings(t)}
    # 1 went on; table 2 is still playing; table 1's others are placed.
    assert rows[1] == 1 and {rows[p] for p in (2, 3, 6, 7)} == {2}
    assert (rows[4], rows[5], rows[8], rows[9]) == (6, 7, 8, 9)
