"""The one dispatcher of every deadline: a turn's, a vote's close, a challenge's expiry, the
end of a confirmation's window. Each is a row of the timers table (``TimerStore``), so that a
restart fires it at its time, or at once when it is overdue.

The clock keeps its shards' timers in memory (a button finds what it needs in its timer's
payload without a query) and one task sleeps until the soonest of them. A kind (the key's
part before its first ``:``) has one handler, given the timer when it is due.

A handler may be called again for a timer it already handled: a crash between the handler
and the timer's deletion leaves the row, and the next start fires it again. So every
handler checks that its timer still applies (a turn's step, a challenge still pending)
and does nothing otherwise.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import heapq
import itertools
import logging
import time
from collections.abc import Awaitable, Callable, Mapping
from typing import Any

from bot.storage import ALL_SHARDS, Shards, StorageError, Timer, TimerStore

log = logging.getLogger(__name__)

RETRY_SECONDS = (1.0, 2.0, 5.0, 10.0, 30.0)  # the pauses before a failed handler is tried again
MAX_RETRIES = 5  # a failure that is not the database's: tried this many times again

Handler = Callable[[Timer], Awaitable[None]]


# How many superseded entries the dispatcher's heap may hold beyond twice its live timers
# before it is rebuilt (each rebuild costs as much as the live timers: rarely).
SLACK = 64


def backoff(attempt: int) -> float:
    """The pause before trying again what failed ``attempt`` times before (0: the first)."""
    return RETRY_SECONDS[min(attempt, len(RETRY_SECONDS) - 1)]


async def lapse(timer: Timer) -> None:
    """The handler of a window's end (a confirmation, a private game): there is nothing to
    tell, the timer is only forgotten, and a button that looks for it then finds it gone."""


class Clock:
    """Every timer of this process's shards, fired each at its time."""

    def __init__(
        self,
        repository: TimerStore,
        shards: Shards = ALL_SHARDS,
        *,
        now: Callable[[], float] = time.time,
        sleep: Callable[[float], Awaitable[Any]] = asyncio.sleep,
    ) -> None:
        self.repository = repository
        self.shards = shards
        self.now = now
        self._sleep = sleep
        self._handlers: dict[str, Handler] = {}
        self._live: dict[str, Timer] = {}
        # The due time a key's row still holds when it differs from its live timer's: a
        # retry whose new due time could not be written (a failing disk).
        self._row_due: dict[str, float] = {}
        # (due, order, timer): an entry whose timer is no longer the live one of its key
        # (cancelled, set again) is skipped when it comes up.
        self._heap: list[tuple[float, int, Timer]] = []
        self._order = itertools.count()
        self._wake = asyncio.Event()
        self._loaded = False
        self._runner: asyncio.Task[None] | None = None
        self._firing: set[asyncio.Task[None]] = set()
        self._stopped = (
            False  # paused or closed: a start (a shutdown during start-up) fires nothing
        )

    # ---- what kinds and buttons use

    def handle(self, kind: str, handler: Handler) -> None:
        """``handler`` is given each timer of ``kind`` when it is due (it must be idempotent:
        see the module's docstring). Raising makes the clock try it again after a pause."""
        self._handlers[kind] = handler

    def get(self, key: str) -> Timer | None:
        """The timer ``key`` as it stands (until its handler succeeded), if any."""
        return self._live.get(key)

    def pending(self, kind: str | None = None) -> list[Timer]:
        """Every live timer of ``kind`` (None: of every kind), soonest first."""
        found = (t for t in self._live.values() if kind is None or t.kind == kind)
        return sorted(found, key=lambda t: t.due)

    async def set(self, timer: Timer) -> None:
        """Store ``timer`` (replacing the one of its key), then schedule it. A write the
        database refuses raises, and nothing is scheduled."""
        await self.repository.set_timer(timer)
        self._row_due.pop(timer.key, None)
        self._track(timer)

    async def cancel(self, key: str) -> None:
        """Forget the timer ``key`` (a write the database refuses raises, the timer stays)."""
        await self.repository.cancel_timer(key)
        self._live.pop(key, None)
        self._row_due.pop(key, None)

    def stored(self, changes: Mapping[str, Timer | None]) -> None:
        """Timers already written (set, or cancelled: None) with a move, in its transaction
        (``GameStore.save_game``): schedule them as written."""
        for key, timer in changes.items():
            self._row_due.pop(key, None)
            if timer is None:
                self._live.pop(key, None)
            else:
                self._track(timer)

    # ---- start-up and shutdown

    async def load(self) -> None:
        """Read this process's timers from the database (once: before the tables resume)."""
        if self._loaded:
            return
        for timer in await self.repository.timers(self.shards):
            self._track(timer)
        self._loaded = True

    async def start(self) -> None:
        """Fire every timer at its time from now on, the overdue ones at once."""
        await self.load()
        if self._runner is None and not self._stopped:
            self._runner = asyncio.create_task(self._run())

    async def pause(self) -> None:
        """Fire no other timer, and wait for the handlers running now (a graceful stop: a
        move a timer began is finished, none is begun)."""
        self._stopped = True
        if self._runner is not None:
            self._runner.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._runner
            self._runner = None
        if self._firing:
            await asyncio.gather(*list(self._firing), return_exceptions=True)

    async def close(self) -> None:
        """Stop firing (timers keep their rows: the next start fires them)."""
        self._stopped = True
        tasks = [*self._firing, *([self._runner] if self._runner else [])]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError):
                await task
        self._runner = None

    # ---- the dispatcher

    def _track(self, timer: Timer) -> None:
        if not self.shards.owns(timer.guild_id):
            return  # another process's: it fires it
        self._live[timer.key] = timer
        heapq.heappush(self._heap, (timer.due, next(self._order), timer))
        if len(self._heap) > 2 * len(self._live) + SLACK:
            self._compact()
        if self._heap[0][2] is timer:
            self._wake.set()  # sooner than what the dispatcher sleeps until

    def _compact(self) -> None:
        """Let go of the entries of timers set again or cancelled since: every move sets its
        turn's timer again, and an entry left until its due time would hold every move of
        a turn-long while (an hour, in a bench) in memory."""
        self._heap = [entry for entry in self._heap if self._live.get(entry[2].key) is entry[2]]
        heapq.heapify(self._heap)

    def _soonest(self) -> Timer | None:
        while self._heap:
            timer = self._heap[0][2]
            if self._live.get(timer.key) is timer:
                return timer
            heapq.heappop(self._heap)
        return None

    async def _run(self) -> None:
        while True:
            self._wake.clear()
            timer = self._soonest()
            if timer is None:
                await self._wake.wait()
                continue
            delay = timer.due - self.now()
            if delay > 0:
                await self._nap(delay)
                continue  # the time has come, or a sooner timer was set: look again
            heapq.heappop(self._heap)
            task = asyncio.create_task(self._fire(timer))
            self._firing.add(task)
            task.add_done_callback(self._firing.discard)

    async def _nap(self, delay: float) -> None:
        """Sleep ``delay`` seconds, or until a sooner timer is set."""
        sleeping = asyncio.ensure_future(self._sleep(delay))
        woken = asyncio.ensure_future(self._wake.wait())
        try:
            await asyncio.wait((sleeping, woken), return_when=asyncio.FIRST_COMPLETED)
        finally:
            sleeping.cancel()
            woken.cancel()

    async def _fire(self, timer: Timer) -> None:
        handler = self._handlers.get(timer.kind)
        if handler is None:
            # A kind nobody handles here (its package not loaded): its row waits for one.
            log.warning("timer %s: no handler for its kind", timer.key)
            return
        try:
            await handler(timer)
        except Exception as error:
            await self._failed(timer, error)
            return
        await self._done(timer)

    async def _done(self, timer: Timer) -> None:
        row_due = self._row_due.get(timer.key, timer.due)
        if self._live.get(timer.key) is timer:
            del self._live[timer.key]
            self._row_due.pop(timer.key, None)
        try:
            # Only if still due then: the handler may have set its key again.
            await self.repository.cancel_timer(timer.key, row_due)
        except StorageError:
            log.warning(
                "timer %s: handled, but its row stays (fired again after a restart)", timer.key
            )

    async def _failed(self, timer: Timer, error: Exception) -> None:
        """Try the handler again after a pause that grows while it keeps failing, stored
        with its count, so that a restart goes on counting. A failure that is not the
        database's is tried a few times, then left to the log."""
        storage = isinstance(error, StorageError)
        if timer.attempts == 0 or not storage:
            log.error("timer %s failed", timer.key, exc_info=error)
        else:
            log.warning("timer %s failed again (%s)", timer.key, error)
        if self._live.get(timer.key) is not timer:
            return  # set again or cancelled meanwhile: that one stands
        if not storage and timer.attempts >= MAX_RETRIES:
            log.error("timer %s: given up after %d attempts", timer.key, timer.attempts + 1)
            await self._done(timer)
            return
        again = dataclasses.replace(
            timer, due=self.now() + backoff(timer.attempts), attempts=timer.attempts + 1
        )
        row_due = self._row_due.get(timer.key, timer.due)
        self._track(again)
        try:
            # Only the row as it fired (or as it stayed when a retry could not be written):
            # a move may have set the key again meanwhile (its write stands, and the clock
            # learns of it with the move).
            stored = await self.repository.reschedule_timer(timer.key, row_due, again)
        except StorageError:
            log.warning("timer %s: its new attempt could not be stored", timer.key)
            if self._live.get(timer.key) is again:
                self._row_due[timer.key] = row_due  # the row keeps its deadline: still ours
            return
        if self._live.get(timer.key) is again:
            self._row_due.pop(timer.key, None)
            if not stored:
                del self._live[timer.key]  # deleted meanwhile: no attempt left to make
