"""The cycle collector's full runs, kept short: they stop every table while they run.

Each interaction leaves reference cycles behind it (discord.py's interaction and its
response, the view it rebuilds from the message clicked…). Most die young, collected in a
fraction of a millisecond; the few that outlive two young collections reach the oldest
generation, and a full collection then walks every object the live tables hold, with the
event loop stopped: the tail of the answers' latency (figures: docs/benchmarks.md).

So what survives a full collection is frozen (``gc.freeze``): the next one walks only what
came since. A frozen object is still freed as soon as nothing refers to it; only cycles
among frozen objects wait, until everything is unfrozen every ``THAW_SECONDS`` and the next
full collection walks it all once (a long pause, once in that time).

A click lets go of its interaction once answered (``components.untie``), so what waits for
a thaw is little (the views the bot draws), and a thaw every minute trades a little memory
held against one longer pause in that minute.
"""

from __future__ import annotations

import gc
import time
from typing import Any

THAW_SECONDS = 60.0  # see above: memory held, against one long pause in that time


class _Freezer:
    def __init__(self) -> None:
        self.thawed_at = time.monotonic()

    def __call__(self, phase: str, info: dict[str, Any]) -> None:
        if phase != "stop" or info.get("generation") != 2:
            return
        now = time.monotonic()
        if now - self.thawed_at >= THAW_SECONDS:
            # The next full collection walks everything, cycles among old objects included.
            self.thawed_at = now
            gc.unfreeze()
        else:
            gc.freeze()


_FREEZER = _Freezer()


def keep_full_collections_short() -> None:
    """Freeze what each full collection leaves (once per process)."""
    if _FREEZER not in gc.callbacks:
        _FREEZER.thawed_at = time.monotonic()
        gc.callbacks.append(_FREEZER)
