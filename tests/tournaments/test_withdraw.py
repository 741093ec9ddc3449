"""Withdrawals (docs/tournaments.md#withdrawals): a player the organizer takes out forfeits
their match still to be decided and plays no other, in every format."""

from __future__ import annotations

import pytest

from bot.tournaments import (
    POOLS,
    SINGLE_ELIMINATION,
    SWISS,
    NotEntrant,
    Options,
    TournamentOver,
    advance,
    standings,
    start,
    winner,
    withdraw,
)
from tests.tournaments.play import entrants, play_out, play_round, round_trip


def test_a_withdrawn_player_forfeits_their_pending_match_and_the_other_wins_it():
    t = start(entrants(4), Options(SWISS, rounds=3))
    t = withdraw(t, 1)  # seed 1 meets seed 2 in round 1
    match = next(m for m in t.current.matches if 1 in m.players)
    assert match.decided and match.forfeited == (1,) and match.winner == 2
    assert round_trip(t) == t


def test_a_withdrawn_swiss_player_is_paired_no_more_and_never_wins():
    # Seed 1 wins rounds 1 and 2, then leaves: the others are paired among themselves (an
    # odd count: a bye), and seed 1's two points do not make them the winner.
    t = start(entrants(4), Options(SWISS, rounds=3))
    t = advance(play_round(t))
    t = play_round(t)
    t = withdraw(t, 1)
    t = advance(t)
    assert all(1 not in m.players for m in t.current.matches)
    assert sorted(len(m.players) for m in t.current.matches) == [1, 2]  # a pair and a bye
    t = play_out(t)
    assert winner(t) != 1
    assert standings(t)[-1].player == 1


def test_a_withdrawn_player_with_a_bye_forfeits_the_next_round_as_it_opens():
    t = start(entrants(3), Options(SINGLE_ELIMINATION))  # seed 1 has the bye
    t = withdraw(t, 1)
    t = advance(play_round(t))
    (final,) = t.current.matches
    assert final.decided and final.forfeited == (1,) and final.winner == 2
    t = advance(t)
    assert winner(t) == 2


def test_a_withdrawn_pool_player_does_not_go_on():
    t = start(entrants(6), Options(POOLS, seats=3, qualifiers=2))
    t = withdraw(t, 1)
    first = t.current.matches[0]
    assert first.players == (1, 4, 5) and first.forfeited == (1,) and not first.decided
    t = advance(play_round(t))
    assert all(1 not in m.players for m in t.current.matches)


def test_only_an_entrant_still_in_may_withdraw_and_not_once_it_is_over():
    t = start(entrants(4), Options(SWISS, rounds=2))
    with pytest.raises(NotEntrant):
        withdraw(t, 99)
    t = withdraw(t, 4)
    with pytest.raises(NotEntrant):
        withdraw(t, 4)
    with pytest.raises(TournamentOver):
        withdraw(play_out(t), 2)
