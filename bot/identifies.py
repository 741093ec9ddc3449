"""Discord's budget of gateway identifies (``session_start_limit`` of ``GET /gateway/bot``):
what a start may spend of it, and how long a process restarting in a loop waits."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

# Discord takes one identify per 5 s in each concurrency bucket (shard id % max_concurrency).
IDENTIFY_WINDOW = 5.0
# The slot is taken before the identify is sent: the extra second between two takers covers
# what one may take to send it (the gateway measures the window by arrival).
SLOT_MARGIN = 1.0
# Identifies a start leaves unspent: when the day's budget runs out Discord resets the token
# (every process stops until someone sets a new one), and the processes still running need
# some for the sessions Discord invalidates.
RESERVE = 10
# A start less than this after the shard's previous one, with no clean stop between, is a
# restart in a loop; each one in a row waits longer before identifying.
QUICK_RESTART = 120.0
RESTART_PAUSES = (0.0, 0.0, 5.0, 10.0, 20.0, 40.0, 80.0, 160.0, 300.0)


@dataclass(frozen=True)
class Budget:
    """``session_start_limit`` as Discord reported it at start."""

    total: int
    remaining: int
    reset_after: float  # seconds
    max_concurrency: int

    @classmethod
    def read(cls, data: Any) -> Budget | None:
        """The budget in ``GET /gateway/bot``'s answer, or None if it is not there as documented."""
        try:
            return cls(
                total=int(data["total"]),
                remaining=int(data["remaining"]),
                reset_after=float(data["reset_after"]) / 1000,
                max_concurrency=max(1, int(data["max_concurrency"])),
            )
        except (KeyError, TypeError, ValueError):
            return None


def shortfall(budget: Budget, shards: int) -> str | None:
    """Why a process that must identify ``shards`` shards may not start on ``budget``, or None."""
    needed = shards + RESERVE
    if budget.remaining >= needed:
        return None
    hours, rest = divmod(round(budget.reset_after), 3600)
    return (
        f"Discord allows {budget.remaining} more gateway identifies today (of {budget.total};"
        f" the count renews in {hours} h {rest // 60:02d} min); this process must identify"
        f" {shards} shard(s) and leaves {RESERVE} unspent, since Discord resets the token"
        " when they run out. Refusing to start: start it again once the count renews, and"
        " look for what restarted the bot so often."
    )


def restart_pause(streak: int) -> float:
    """The seconds a start waits before identifying, the ``streak``-th quick restart in a row."""
    return RESTART_PAUSES[min(streak, len(RESTART_PAUSES) - 1)]
