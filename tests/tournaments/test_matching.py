"""The top-down pairing: the pairing a full backtracking search gives, found without its
exponential worst case (Edmonds' augmenting paths tell whether the rest can be paired)."""

from __future__ import annotations

import itertools

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.tournaments.matching import top_down


def backtracking(order: list[int], allowed) -> list[tuple[int, int]] | None:
    """The naive search: the top player with each partner in turn, the rest recursively."""
    if not order:
        return []
    top, rest = order[0], order[1:]
    for partner in rest:
        if allowed(top, partner):
            others = backtracking([p for p in rest if p != partner], allowed)
            if others is not None:
                return [(top, partner), *others]
    return None


def test_everyone_allowed_pairs_neighbours_down_the_order():
    assert top_down([5, 3, 9, 1], lambda a, b: True) == [(5, 3), (9, 1)]


def test_a_partner_is_kept_only_when_the_rest_can_still_be_paired():
    met = {frozenset(p) for p in [(1, 2), (3, 4), (5, 6), (1, 4)]}
    pairs = top_down([1, 2, 3, 4, 5, 6], lambda a, b: frozenset((a, b)) not in met)
    # 1 v 2 was played, 1 v 3 leaves 2 4 5 6, pairable as 2-5 and 4-6 (2 v 4 would leave
    # 5 v 6, played).
    assert pairs == [(1, 3), (2, 5), (4, 6)]


def test_an_odd_count_or_no_pairing_at_all_is_none():
    assert top_down([1, 2, 3], lambda a, b: True) is None
    # Two groups of three, every pairing allowed only within a group: one is left over.
    groups = {1: "a", 2: "a", 3: "a", 4: "b", 5: "b", 6: "b"}
    assert top_down([1, 2, 3, 4, 5, 6], lambda a, b: groups[a] == groups[b]) is None


def test_an_empty_order_is_an_empty_pairing():
    assert top_down([], lambda a, b: True) == []


@settings(max_examples=400, deadline=None, derandomize=True, database=None)
@given(
    size=st.sampled_from([2, 4, 6, 8, 10, 12]),
    density=st.sampled_from([0.2, 0.35, 0.5, 0.8]),
    rng=st.randoms(use_true_random=False),
)
def test_top_down_is_the_backtracking_searchs_pairing(size, density, rng):
    # Sparse graphs are full of odd cycles: the blossoms Edmonds' algorithm contracts.
    edges = {frozenset(p) for p in itertools.combinations(range(size), 2) if rng.random() < density}
    order = rng.sample(range(size), size)
    allowed = lambda a, b: frozenset((a, b)) in edges  # noqa: E731
    assert top_down(order, allowed) == backtracking(order, allowed)
