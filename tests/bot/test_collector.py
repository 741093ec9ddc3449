"""The cycle collector's full runs: what survives one is frozen, and thawed now and then."""

from __future__ import annotations

import gc
import weakref
from collections.abc import Iterator

import pytest

from bot import collector


class Node:
    def __init__(self) -> None:
        self.other: Node | None = None


def cycle() -> tuple[weakref.ref[Node], Node]:
    a, b = Node(), Node()
    a.other, b.other = b, a
    return weakref.ref(a), a


@pytest.fixture
def installed() -> Iterator[None]:
    gc.collect()
    collector.keep_full_collections_short()
    try:
        yield
    finally:
        gc.callbacks.remove(collector._FREEZER)
        gc.unfreeze()
        gc.collect()


@pytest.mark.usefixtures("installed")
def test_what_a_full_collection_leaves_is_out_of_the_next_ones_reach() -> None:
    kept = [Node() for _ in range(100)]
    gc.collect()
    frozen = gc.get_freeze_count()
    assert frozen >= len(kept)
    oldest = {id(o) for o in gc.get_objects(2)}
    assert not any(id(node) in oldest for node in kept)
    # Young objects are still collected as usual: a cycle made since goes at the next run.
    made, strong = cycle()
    del strong
    gc.collect()
    assert made() is None


@pytest.mark.usefixtures("installed")
def test_a_cycle_among_frozen_objects_is_collected_once_thawed() -> None:
    made, strong = cycle()
    gc.collect()  # survives, and is frozen
    del strong
    gc.collect()
    assert made() is not None  # frozen: out of reach for now
    collector._FREEZER.thawed_at -= collector.THAW_SECONDS  # time to thaw
    gc.collect()  # thaws everything
    assert gc.get_freeze_count() == 0
    gc.collect()  # walks it all, and freezes again what lives on
    assert made() is None
    assert gc.get_freeze_count() > 0


def test_installing_twice_adds_one_callback() -> None:
    try:
        collector.keep_full_collections_short()
        collector.keep_full_collections_short()
        assert gc.callbacks.count(collector._FREEZER) == 1
    finally:
        gc.callbacks.remove(collector._FREEZER)
        gc.unfreeze()
