"""How many threads the bot starts in each server: Discord limits thread creation per server
and answers a burst past it with a 429 of minutes (docs/discord-traffic.md#threads). The
bot counts the threads it started in each server over the last window and starts no more
than the figure; a 429 on a thread closes the server's budget until its retry time. A
thread it may not start now is refused at once, never waited for: its caller plays in the
channel instead."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

DISCORD_THREADS = 10  # threads a server may get in one window (a strict reading)
DISCORD_THREAD_WINDOW = 300.0  # seconds
LONG_WAIT = 30.0  # a rate limit asking longer than this is a refusal (discord.py's least)


@dataclass
class _Slot:
    at: float  # when the thread was started (its answer came)


class ThreadBudget:
    """Threads started per server over a sliding ``per`` seconds: at most ``count``."""

    def __init__(
        self,
        count: int = DISCORD_THREADS,
        per: float = DISCORD_THREAD_WINDOW,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.count, self.per, self._clock = count, per, clock
        self._slots: dict[int, list[_Slot]] = {}
        self._closed: dict[int, float] = {}  # server -> until when (a 429's retry time)

    def take(self, guild_id: int) -> _Slot | None:
        """A slot for one more thread in the server now, or None: none is left."""
        now = self._clock()
        if self._closed.get(guild_id, 0.0) > now:
            return None
        slots = [s for s in self._slots.get(guild_id, []) if s.at > now - self.per]
        if len(slots) >= self.count:
            self._slots[guild_id] = slots
            return None
        slot = _Slot(now)
        self._slots[guild_id] = [*slots, slot]
        return slot

    def started(self, slot: _Slot) -> None:
        """Its thread's answer came: the window counts from then (never before Discord's)."""
        slot.at = self._clock()

    def refused(self, guild_id: int, slot: _Slot, retry_after: float) -> None:
        """Discord refused the thread for ``retry_after`` seconds: no thread until then."""
        slots = self._slots.get(guild_id, [])
        if slot in slots:
            slots.remove(slot)
        self._closed[guild_id] = self._clock() + retry_after
