"""The cycle collector's full runs, kept short: they stop every table while they run.

A full collection walks every object the live tables hold, with the event loop stopped,
so what survives one is frozen (``gc.freeze``) and the next walks only what came since.
A frozen object is still freed as soon as nothing refers to it; only cycles among frozen
objects wait, until everything is unfrozen every ``THAW_SECONDS`` and the next full
collection walks it all once.

A handled click breaks its own cycles (``components.untie``), so what waits for a thaw is
little (the views the bot draws), and a thaw every minute trades that memory against one
longer pause a minute (figures: docs/benchmarks.md).
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
