"""Pairing players two by two when some pairs are not allowed (a rematch, a second bye).

``top_down`` gives the pairing a top-down search with full backtracking would give (the
first player with the highest-ranked partner allowed, and so on down), but without that
search's exponential worst case: a partner is kept when the players left can still all be
paired, which one augmenting path of Edmonds' maximum-matching algorithm tells.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Sequence

Allowed = Callable[[int, int], bool]
NONE = -1


class _Graph:
    """Vertices 0..n-1 (some removed as the pairing goes), their edges, and a matching."""

    def __init__(self, size: int, allowed: Allowed) -> None:
        self.size = size
        self.edges = [[b for b in range(size) if b != a and allowed(a, b)] for a in range(size)]
        self.alive = [True] * size
        self.mate = [NONE] * size

    def augment(self, root: int) -> bool:
        """Look for an augmenting path from the free vertex ``root`` (blossoms contracted);
        found, flip it and say so; else leave the matching as it was."""
        mate, size = self.mate, self.size
        parent = [NONE] * size
        base = list(range(size))
        used = [False] * size
        used[root] = True
        queue = deque([root])

        def common_base(a: int, b: int) -> int:
            seen = [False] * size
            while True:
                a = base[a]
                seen[a] = True
                if mate[a] == NONE:
                    break
                a = parent[mate[a]]
            while True:
                b = base[b]
                if seen[b]:
                    return b
                b = parent[mate[b]]

        def mark(v: int, top: int, child: int, blossom: list[bool]) -> None:
            while base[v] != top:
                blossom[base[v]] = blossom[base[mate[v]]] = True
                parent[v] = child
                child = mate[v]
                v = parent[mate[v]]

        while queue:
            v = queue.popleft()
            for to in self.edges[v]:
                if not self.alive[to] or base[v] == base[to] or mate[v] == to:
                    continue
                if to == root or (mate[to] != NONE and parent[mate[to]] != NONE):
                    top = common_base(v, to)
                    blossom = [False] * size
                    mark(v, top, to, blossom)
                    mark(to, top, v, blossom)
                    for i in range(size):
                        if blossom[base[i]]:
                            base[i] = top
                            if not used[i]:
                                used[i] = True
                                queue.append(i)
                elif parent[to] == NONE:
                    parent[to] = v
                    if mate[to] == NONE:
                        while to != NONE:
                            previous = mate[parent[to]]
                            mate[to], mate[parent[to]] = parent[to], to
                            to = previous
                        return True
                    used[mate[to]] = True
                    queue.append(mate[to])
        return False

    def perfect(self) -> bool:
        """Complete the matching to a maximum one; whether it pairs every live vertex."""
        for v in range(self.size):
            if self.alive[v] and self.mate[v] == NONE:
                for to in self.edges[v]:  # a greedy start saves most searches
                    if self.alive[to] and self.mate[to] == NONE:
                        self.mate[v], self.mate[to] = to, v
                        break
        for v in range(self.size):
            if self.alive[v] and self.mate[v] == NONE and not self.augment(v):
                return False
        return True

    def pair_off(self, a: int, b: int) -> bool:
        """Take ``a`` and ``b`` out as a pair if the others can still all be paired."""
        if self.mate[a] == b:
            self.alive[a] = self.alive[b] = False
            return True
        mate_a, mate_b = self.mate[a], self.mate[b]
        self.alive[a] = self.alive[b] = False
        self.mate[a] = self.mate[b] = self.mate[mate_a] = self.mate[mate_b] = NONE
        # The two left without a partner: the rest pairs up iff a path joins them.
        if self.augment(mate_a):
            return True
        self.alive[a] = self.alive[b] = True
        self.mate[a], self.mate[mate_a] = mate_a, a
        self.mate[b], self.mate[mate_b] = mate_b, b
        return False


def top_down(order: Sequence[int], allowed: Allowed) -> list[tuple[int, int]] | None:
    """``order`` (best first) paired off top-down: each player still unpaired, from the top,
    with the highest-ranked player below them it is ``allowed`` to meet and whose pairing
    leaves the others pairable. None when no pairing of everyone exists."""
    size = len(order)
    if size % 2:
        return None
    graph = _Graph(size, lambda a, b: allowed(order[a], order[b]))
    if not graph.perfect():
        return None
    pairs: list[tuple[int, int]] = []
    for a in range(size):
        if not graph.alive[a]:
            continue
        b = next(b for b in graph.edges[a] if b > a and graph.alive[b] and graph.pair_off(a, b))
        pairs.append((order[a], order[b]))
    return pairs
