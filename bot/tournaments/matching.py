"""Pairing players two by two when some pairs are not allowed (a rematch, a second bye).

``top_down`` gives the pairing a top-down search with full backtracking would give (the
first player with the highest-ranked partner allowed, and so on down), without that
search's exponential worst case: a partner is kept when the players left can still all be
paired, which a maximum matching of the allowed pairs tells (networkx's, Edmonds').
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import networkx as nx

Allowed = Callable[[int, int], bool]


def _pairable(players: Sequence[int], allowed: Allowed) -> bool:
    """Whether ``players`` can all be paired with allowed partners."""
    if len(players) % 2:
        return False
    graph: nx.Graph[int] = nx.Graph()
    graph.add_nodes_from(players)
    graph.add_edges_from(
        (a, b) for i, a in enumerate(players) for b in players[i + 1 :] if allowed(a, b)
    )
    return 2 * len(nx.max_weight_matching(graph, maxcardinality=True)) == len(players)


def top_down(order: Sequence[int], allowed: Allowed) -> list[tuple[int, int]] | None:
    """``order`` (best first) paired off top-down: each player still unpaired, from the top,
    with the highest-ranked player below them it is ``allowed`` to meet and whose pairing
    leaves the others pairable. None when no pairing of everyone exists."""
    if not _pairable(order, allowed):
        return None
    left = list(order)
    pairs: list[tuple[int, int]] = []
    while left:
        top, rest = left[0], left[1:]
        partner = next(
            b for b in rest if allowed(top, b) and _pairable([p for p in rest if p != b], allowed)
        )
        pairs.append((top, partner))
        left = [p for p in rest if p != partner]
    return pairs
