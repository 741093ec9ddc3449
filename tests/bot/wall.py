"""A wall clock that only moves when a test moves it, for the clock and the tables' timers."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

START = 1_000_000.0


class FakeTime:
    """A wall clock the test moves; whoever sleeps on it wakes once it moved far enough."""

    def __init__(self, now: float = START) -> None:
        self.t = now
        self._moved = asyncio.Event()

    def now(self) -> float:
        return self.t

    async def sleep(self, seconds: float) -> None:
        until = self.t + seconds
        while self.t < until:
            await self._moved.wait()

    def advance(self, seconds: float) -> None:
        self.t += seconds
        self._moved.set()
        self._moved = asyncio.Event()


async def eventually(predicate: Callable[[], Awaitable[bool]], what: str) -> None:
    """Wait until ``predicate()`` holds (what the dispatcher does runs in its own tasks)."""
    for _ in range(500):
        if await predicate():
            return
        await asyncio.sleep(0.01)
    raise AssertionError(f"never: {what}")
