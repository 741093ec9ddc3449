"""Any entrants, any results: the invariants of each format hold at every step.

Hypothesis draws the entrant count (2 to 40), the options, and a seed for the
``random.Random`` that decides every table (a ranking, sometimes forfeits); every state
on the way goes through JSON and must come back the same.
"""

from __future__ import annotations

import math
import random

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from bot.tournaments import (
    POOLS,
    SINGLE_ELIMINATION,
    SWISS,
    Entrant,
    Match,
    Options,
    Tournament,
    bracket,
    bracket_order,
    standings,
    start,
    winner,
)
from tests.tournaments.play import Decide, play_out, round_trip

RUNS = settings(
    max_examples=300,
    derandomize=True,
    database=None,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)

counts = st.integers(min_value=2, max_value=40)
seeds = st.integers(min_value=0, max_value=2**32 - 1)


def people(count: int, rng: random.Random) -> list[Entrant]:
    """Ids that are not the seeds, ratings with ties."""
    ids = rng.sample(range(10**6, 10**7), count)
    return [Entrant(player, float(rng.choice([900, 1000, 1000, 1100, 1234.5]))) for player in ids]


def decider(rng: random.Random, forfeits: float, both: bool) -> Decide:
    """Random rankings; with chance ``forfeits`` a table's absent players (at most one per
    duel unless ``both``)."""

    def decide(match: Match) -> tuple[str, tuple[int, ...]]:
        present = list(match.present)
        if not match.forfeited and rng.random() < forfeits:
            most = len(present) if both or len(present) > 2 else 1
            return "forfeit", tuple(rng.sample(present, rng.randint(1, most)))
        rng.shuffle(present)
        return "record", tuple(present)

    return decide


def checked(t: Tournament) -> None:
    """What holds of every state: JSON round trip, one seat per player per round."""
    assert round_trip(t) == t
    for round_ in t.rounds:
        seated = [p for match in round_.matches for p in match.players]
        assert len(seated) == len(set(seated))
        for match in round_.matches:
            if match.ranking is not None:
                assert sorted(match.ranking) == sorted(match.players)
                assert match.ranking[len(match.present) :] == match.forfeited
    places = [s.place for s in standings(t)]
    assert places == sorted(places) and len(places) == len(t.entrants) and places[0] >= 1
    if t.format == SWISS:
        assert places == list(range(1, len(places) + 1))
    if t.format == POOLS:  # a shared place, then as many places skipped
        assert all(place == 1 + sum(p < place for p in places) for place in places)
    if winner(t) is not None:
        assert places.count(1) == 1 and standings(t)[0].player == winner(t)
    drawn = bracket(t)
    assert drawn.winner == winner(t)
    if t.format == SINGLE_ELIMINATION:  # every round to the final, two lines a match
        assert len(drawn.rounds) == math.ceil(math.log2(len(t.entrants)))
        assert all(len(m.lines) == 2 for r in drawn.rounds for m in r.matches)
        assert [len(r.matches) for r in drawn.rounds][-1] == 1 and drawn.rounds[-1].final


# --------------------------------------------------------------------------- single elimination


@RUNS
@given(count=counts, seed=seeds, forfeits=st.sampled_from([0.0, 0.2]))
@example(count=40, seed=0, forfeits=0.2)
@example(count=33, seed=0, forfeits=0.0)
def test_single_elimination_ends_with_one_winner_after_ceil_log2_n_rounds(count, seed, forfeits):
    rng = random.Random(seed)
    t = play_out(
        start(people(count, rng), Options(SINGLE_ELIMINATION)),
        decider(rng, forfeits, both=False),
        checked,
    )
    assert len(t.rounds) == math.ceil(math.log2(count))
    assert winner(t) is not None
    assert [s.player for s in standings(t) if s.place == 1] == [winner(t)]
    out: set[int] = set()
    for round_ in t.rounds:
        playing = {p for m in round_.matches for p in m.players}
        assert not playing & out  # nobody plays after being eliminated
        out |= {p for m in round_.matches for p in m.players if p != m.winner}
    assert out == set(t.players) - {winner(t)}


@RUNS
@given(count=counts, seed=seeds)
def test_single_elimination_with_double_forfeits_has_at_most_one_winner(count, seed):
    rng = random.Random(seed)
    t = play_out(
        start(people(count, rng), Options(SINGLE_ELIMINATION)),
        decider(rng, 0.3, both=True),
        checked,
    )
    assert len(t.rounds) == math.ceil(math.log2(count))
    champions = [s.player for s in standings(t) if s.place == 1]
    assert champions == ([] if winner(t) is None else [winner(t)])
    out: set[int] = set()
    for round_ in t.rounds:
        assert not {p for m in round_.matches for p in m.players} & out
        out |= {p for m in round_.matches for p in m.players if p != m.winner}


@RUNS
@given(count=st.integers(min_value=2, max_value=300))
def test_the_first_round_gives_the_byes_to_the_top_seeds(count):
    size = 1 << math.ceil(math.log2(count))
    order = bracket_order(size)
    assert sorted(order) == list(range(1, size + 1))
    first = [order[i : i + 2] for i in range(0, size, 2)]
    assert all(a + b == size + 1 for a, b in first)
    t = start([Entrant(p, -p) for p in range(1, count + 1)], Options(SINGLE_ELIMINATION))
    byes = sorted(m.players[0] for m in t.current.matches if m.bye)
    assert byes == list(range(1, size - count + 1))


# --------------------------------------------------------------------------- Swiss


@RUNS
@given(
    count=counts,
    seed=seeds,
    planned=st.integers(min_value=1, max_value=39),
    forfeits=st.sampled_from([0.0, 0.15]),
)
@example(count=40, seed=1, planned=39, forfeits=0.0)
@example(count=39, seed=2, planned=38, forfeits=0.15)
@example(count=40, seed=3, planned=20, forfeits=0.15)
@example(count=6, seed=0, planned=5, forfeits=0.0)
def test_swiss_never_pairs_two_players_twice(count, seed, planned, forfeits):
    rounds = 1 + (planned - 1) % (count - 1)  # 1 to count - 1
    rng = random.Random(seed)
    t = play_out(
        start(people(count, rng), Options(SWISS, rounds=rounds)),
        decider(rng, forfeits, both=True),
        checked,
    )
    met = [frozenset(m.players) for r in t.rounds for m in r.matches if not m.bye]
    assert len(met) == len(set(met))
    byes = [m.players[0] for r in t.rounds for m in r.matches if m.bye]
    assert len(byes) == len(set(byes)) == (len(t.rounds) if count % 2 else 0)
    for round_ in t.rounds:
        assert sorted(p for m in round_.matches for p in m.players) == sorted(t.players)
    # Up to ceil(n / 2) rounds a pairing without a rematch always exists.
    if rounds <= math.ceil(count / 2):
        assert len(t.rounds) == rounds
    assert winner(t) == standings(t)[0].player
    assert sum(s.score for s in standings(t)) <= len(t.rounds) * math.ceil(count / 2)


# --------------------------------------------------------------------------- pools


@st.composite
def pool_options(draw: st.DrawFn) -> Options:
    seats = draw(st.integers(min_value=3, max_value=10))
    qualifiers = draw(st.integers(min_value=1, max_value=seats - 1))
    return Options(POOLS, seats=seats, qualifiers=qualifiers)


@RUNS
@given(count=counts, seed=seeds, options=pool_options())
@example(count=40, seed=0, options=Options(POOLS, seats=3, qualifiers=2))
def test_pools_end_with_one_final_table_no_bigger_than_the_seats(count, seed, options):
    rng = random.Random(seed)
    t = play_out(start(people(count, rng), options), decider(rng, 0.0, both=False), checked)
    for round_ in t.rounds:
        sizes = [len(m.players) for m in round_.matches]
        assert max(sizes) - min(sizes) <= 1 and max(sizes) <= options.seats
        assert len(round_.matches) == math.ceil(sum(sizes) / options.seats)
    final = t.rounds[-1].matches
    assert len(final) == 1 and len(final[0].players) <= options.seats
    assert all(len(r.matches) > 1 for r in t.rounds[:-1])
    assert winner(t) == final[0].ranking[0]
    assert [s.player for s in standings(t)][: len(final[0].players)] == list(final[0].ranking)


@RUNS
@given(count=counts, seed=seeds, options=pool_options())
def test_pools_with_forfeits_still_end_and_absent_players_never_go_on(count, seed, options):
    rng = random.Random(seed)
    t = play_out(start(people(count, rng), options), decider(rng, 0.25, both=True), checked)
    for before, after in zip(t.rounds, t.rounds[1:], strict=False):
        gone = {p for m in before.matches for p in m.forfeited}
        assert not gone & {p for m in after.matches for p in m.players}
        assert sum(len(m.players) for m in after.matches) < sum(
            len(m.players) for m in before.matches
        )
    assert all(len(m.players) <= options.seats for r in t.rounds for m in r.matches)
    if winner(t) is not None:
        assert standings(t)[0].player == winner(t)
