"""The bracket the Discord layer and the web page draw: every round's matches, byes and
results, and in single elimination the rounds still to come."""

from __future__ import annotations

from bot.tournaments import (
    POOLS,
    SINGLE_ELIMINATION,
    SWISS,
    MatchStatus,
    Options,
    advance,
    bracket,
    forfeit,
    start,
)
from tests.tournaments.play import entrants, play_out, play_round

BYE, EMPTY, PENDING, PLAYED, UPCOMING = (
    MatchStatus.BYE,
    MatchStatus.EMPTY,
    MatchStatus.PENDING,
    MatchStatus.PLAYED,
    MatchStatus.UPCOMING,
)


def drawn(b):
    return [[(m.lines, m.status, m.advancing) for m in r.matches] for r in b.rounds]


def test_a_new_bracket_shows_every_round_down_to_the_final():
    b = bracket(start(entrants(5), Options(SINGLE_ELIMINATION)))
    assert [(r.number, r.final) for r in b.rounds] == [(1, False), (2, False), (3, True)]
    assert drawn(b) == [
        [
            ((1, None), BYE, (1,)),
            ((4, 5), PENDING, ()),
            ((2, None), BYE, (2,)),
            ((3, None), BYE, (3,)),
        ],
        [((1, None), UPCOMING, ()), ((2, 3), UPCOMING, ())],
        [((None, None), UPCOMING, ())],
    ]
    assert [m.id for m in b.rounds[0].matches] == ["1-1", "1-2", "1-3", "1-4"]
    assert b.rounds[1].matches[0].id is None
    assert not b.over and b.winner is None
    assert [e.player for e in b.entrants] == [1, 2, 3, 4, 5]


def test_results_fill_the_next_rounds_lines_as_they_come():
    t = start(entrants(8), Options(SINGLE_ELIMINATION))
    t = play_round(t, lambda m: ("record", (m.players[1], m.players[0])))
    b = bracket(t)
    assert b.rounds[0].matches[1].ranking == (5, 4)
    assert [m.lines for m in b.rounds[1].matches] == [(8, 5), (7, 6)]
    t = advance(t)
    assert [m.status for m in bracket(t).rounds[1].matches] == [PENDING, PENDING]


def test_a_double_forfeit_shows_an_empty_line_a_walkover_and_the_absent():
    t = forfeit(start(entrants(4), Options(SINGLE_ELIMINATION)), "1-2", [2, 3])
    t = advance(play_round(t))
    b = bracket(t)
    first = b.rounds[0].matches[1]
    assert (first.status, first.forfeited, first.advancing) == (PLAYED, (2, 3), ())
    assert drawn(b)[1] == [((1, None), BYE, (1,))]
    t = play_out(t)
    assert bracket(t).over and bracket(t).winner == 1


def test_an_emptied_slot_is_drawn_empty():
    t = start(entrants(8), Options(SINGLE_ELIMINATION))
    t = forfeit(forfeit(t, "1-1", [1, 8]), "1-2", [4, 5])
    t = advance(play_round(t))
    assert drawn(bracket(t))[1][0] == ((None, None), EMPTY, ())


def test_swiss_shows_the_rounds_played_and_those_still_to_pair():
    t = start(entrants(5), Options(SWISS))
    b = bracket(t)
    assert [(r.number, len(r.matches)) for r in b.rounds] == [(1, 3), (2, 0), (3, 0)]
    assert drawn(b)[0] == [((1, 2), PENDING, ()), ((3, 4), PENDING, ()), ((5,), BYE, ())]
    assert not any(r.final for r in b.rounds)
    t = play_out(t)
    b = bracket(t)
    assert [len(r.matches) for r in b.rounds] == [3, 3, 3] and b.winner == 1


def test_pools_show_each_tables_qualifiers_and_the_final():
    t = play_out(start(entrants(9), Options(POOLS, seats=6)))
    b = bracket(t)
    assert drawn(b) == [
        [((1, 4, 5, 8, 9), PLAYED, (1,)), ((2, 3, 6, 7), PLAYED, (2,))],
        [((1, 2), PLAYED, (1,))],
    ]
    assert [r.final for r in b.rounds] == [False, True]
    assert b.rounds[1].matches[0].ranking == (1, 2) and b.winner == 1
