"""Starting a tournament (docs/tournaments.md#entering): who may enter, the options each
format takes, the seeding, the refusals; and how a tournament is stored."""

from __future__ import annotations

import json

import pytest

from bot.kernel.errors import GameError
from bot.tournaments import (
    POOLS,
    RUNNING,
    SCHEMA_VERSION,
    SINGLE_ELIMINATION,
    SWISS,
    DuplicateEntrant,
    Entrant,
    InvalidOptions,
    InvalidRanking,
    MatchDecided,
    NotInMatch,
    Options,
    RoundNotOver,
    TooFewEntrants,
    Tournament,
    TournamentError,
    TournamentOver,
    UnknownMatch,
    advance,
    current_round,
    forfeit,
    is_over,
    pending_matches,
    record,
    start,
    winner,
)
from tests.tournaments.play import entrants, play_out, round_trip


def test_entrants_are_seeded_by_rating_highest_first():
    t = start([Entrant(7, 1200.0), Entrant(3, 1500.0), Entrant(9, 900.0)], Options(SWISS))
    assert t.players == (3, 7, 9)
    assert [t.seed(p) for p in (3, 7, 9)] == [1, 2, 3]


def test_equal_ratings_keep_the_order_of_entry():
    t = start([Entrant(5, 1000.0), Entrant(2, 1100.0), Entrant(8, 1000.0)], Options(SWISS))
    assert t.players == (2, 5, 8)


def test_a_tournament_needs_two_entrants():
    with pytest.raises(TooFewEntrants) as refused:
        start([Entrant(1, 1000.0)], Options(SINGLE_ELIMINATION))
    assert refused.value.code == "too_few_entrants"
    assert refused.value.params == {"count": 1, "minimum": 2}


def test_nobody_enters_twice():
    with pytest.raises(DuplicateEntrant) as refused:
        start([Entrant(1, 1000.0), Entrant(2, 900.0), Entrant(1, 800.0)], Options(SWISS))
    assert refused.value.params == {"player": 1}


@pytest.mark.parametrize("form", [SINGLE_ELIMINATION, SWISS])
def test_a_duel_format_has_two_seats_per_table(form):
    with pytest.raises(InvalidOptions) as refused:
        start(entrants(4), Options(form, seats=4))
    assert refused.value.params == {"option": "seats", "value": 4}


def test_pool_tables_have_three_seats_or_more():
    with pytest.raises(InvalidOptions) as refused:
        start(entrants(4), Options(POOLS, seats=2))
    assert refused.value.params == {"option": "seats", "value": 2}


@pytest.mark.parametrize("qualifiers", [0, 6, 7])
def test_fewer_qualifiers_than_seats_per_pool_table(qualifiers):
    with pytest.raises(InvalidOptions) as refused:
        start(entrants(9), Options(POOLS, seats=6, qualifiers=qualifiers))
    assert refused.value.params == {"option": "qualifiers", "value": qualifiers}


def test_swiss_plays_ceil_log2_n_rounds_unless_told():
    assert start(entrants(6), Options(SWISS)).options.rounds == 3
    assert start(entrants(8), Options(SWISS)).options.rounds == 3
    assert start(entrants(9), Options(SWISS)).options.rounds == 4
    assert start(entrants(2), Options(SWISS)).options.rounds == 1
    assert start(entrants(9), Options(SWISS, rounds=6)).options.rounds == 6


def test_the_rounds_planned_are_known_except_in_pools():
    assert start(entrants(9), Options(SINGLE_ELIMINATION)).planned_rounds == 4
    assert start(entrants(9), Options(SWISS)).planned_rounds == 4
    assert start(entrants(9), Options(POOLS, seats=4)).planned_rounds is None
    assert start(entrants(9), Options(POOLS, seats=4)).seats == 4


@pytest.mark.parametrize("rounds", [0, 6, 7])
def test_swiss_plays_fewer_rounds_than_players(rounds):
    with pytest.raises(InvalidOptions) as refused:
        start(entrants(6), Options(SWISS, rounds=rounds))
    assert refused.value.params == {"option": "rounds", "value": rounds}


@pytest.mark.parametrize(
    "options",
    [
        Options(SINGLE_ELIMINATION, rounds=3),
        Options(POOLS, seats=4, rounds=2),
        Options(SWISS, qualifiers=2),
    ],
)
def test_an_option_of_another_format_is_refused(options):
    with pytest.raises(InvalidOptions):
        start(entrants(8), options)


def test_refusals_are_game_errors_with_a_code_and_no_text():
    t = start(entrants(4), Options(SINGLE_ELIMINATION))
    with pytest.raises(TournamentError) as refused:
        record(t, "1-1", (1, 3))
    assert isinstance(refused.value, GameError)
    assert refused.value.code == "invalid_ranking"
    assert refused.value.params == {"match": "1-1", "expected": [1, 4], "got": [1, 3]}


def test_a_result_ranks_the_matchs_players_once_each():
    t = start(entrants(4), Options(SINGLE_ELIMINATION))
    for ranking in [(1,), (1, 1), (1, 4, 2), (4, 2)]:
        with pytest.raises(InvalidRanking):
            record(t, "1-1", ranking)
    assert record(t, "1-1", [4, 1]).current.matches[0].ranking == (4, 1)


def test_only_the_current_rounds_open_matches_take_a_result():
    t = start(entrants(3), Options(SINGLE_ELIMINATION))  # 1 has a bye in match 1-1
    with pytest.raises(MatchDecided) as refused:
        record(t, "1-1", (1,))
    assert refused.value.params == {"match": "1-1"}
    with pytest.raises(UnknownMatch) as unknown:
        record(t, "2-1", (1, 2))
    assert unknown.value.params == {"match": "2-1"}
    t = record(t, "1-2", (3, 2))
    with pytest.raises(MatchDecided):
        forfeit(t, "1-2", [2])


def test_a_forfeit_names_players_of_that_match():
    t = start(entrants(4), Options(SINGLE_ELIMINATION))
    with pytest.raises(NotInMatch) as refused:
        forfeit(t, "1-1", [1, 2])
    assert refused.value.params == {"match": "1-1", "players": [2]}
    with pytest.raises(NotInMatch):
        forfeit(t, "1-1", [])


def test_the_next_round_opens_once_every_match_is_decided():
    t = start(entrants(4), Options(SINGLE_ELIMINATION))
    t = record(t, "1-1", (1, 4))
    with pytest.raises(RoundNotOver) as refused:
        advance(t)
    assert refused.value.params == {"pending": ["1-2"]}
    t = advance(record(t, "1-2", (2, 3)))
    assert current_round(t).number == 2
    assert [m.players for m in pending_matches(t)] == [(1, 2)]


def test_nothing_more_happens_once_it_is_over():
    t = play_out(start(entrants(2), Options(SINGLE_ELIMINATION)))
    assert is_over(t) and winner(t) == 1 and pending_matches(t) == ()
    for attempt in (
        lambda: advance(t),
        lambda: record(t, "1-1", (1, 2)),
        lambda: forfeit(t, "1-1", [1]),
    ):
        with pytest.raises(TournamentOver):
            attempt()


def test_no_winner_while_it_runs():
    t = start(entrants(4), Options(SWISS))
    assert t.status == RUNNING and winner(t) is None


# --------------------------------------------------------------------------- stored as JSON


def test_a_tournament_is_stored_with_its_schema_version():
    t = start(entrants(5), Options(POOLS, seats=3))
    raw = json.loads(json.dumps(t.to_json()))
    assert raw["schema"] == SCHEMA_VERSION and raw["kind"] == "tournament"
    assert raw["options"] == {"format": "pools", "seats": 3, "rounds": None, "qualifiers": 1}
    assert raw["rounds"][0]["matches"][0] == {
        "id": "1-1",
        "players": [1, 4, 5],
        "ranking": None,
        "forfeited": [],
    }
    assert Tournament.from_json(raw) == t


@pytest.mark.parametrize(
    "options",
    [Options(SINGLE_ELIMINATION), Options(SWISS, rounds=4), Options(POOLS, seats=4)],
    ids=lambda options: str(options.format),
)
def test_json_gives_back_the_same_tournament_at_every_step(options):
    seen = []

    def check(t):
        assert round_trip(t) == t
        seen.append(t)

    def decide(match):
        if len(match.players) > 2 and not match.forfeited:
            return "forfeit", match.players[-1:]
        return "record", tuple(reversed(match.present))

    play_out(start(entrants(11), options), decide, check)
    assert len(seen) > 4


def test_another_schema_is_not_read():
    raw = start(entrants(2), Options(SWISS)).to_json()
    with pytest.raises(ValueError):
        Tournament.from_json({**raw, "schema": SCHEMA_VERSION + 1})
    with pytest.raises(ValueError):
        Tournament.from_json({**raw, "kind": "game"})
