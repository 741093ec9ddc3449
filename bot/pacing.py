"""One budget for the bot token's globally limited calls.

Discord lets one bot token make 50 requests a second in all, across every process and shard;
past it, a 429 holds every request of the process until the retry time. The interaction
endpoints are outside that limit, and the bot says almost everything through them; what is
left (a table drawn when no interaction's token is alive, a restart's redraws, reactions) goes
through one ``Pacer``: calls spaced evenly at the process's rate (by default 45 a second, a
margin under Discord's 50), so that no second ever holds more than the rate, and those a
person waits on first (``background()`` marks the others: a restore, a vote's reactions
taken off).
"""

from __future__ import annotations

import asyncio
import contextlib
import heapq
import itertools
import time
from collections.abc import Awaitable, Callable, Iterator
from contextvars import ContextVar
from typing import Any

DISCORD_GLOBAL_RATE = 50.0  # requests a second per bot token, every process together
# What the bot spends of it by default: a margin for the calls the pacer does not see (the
# calls of another tool using the token, a clock's drift between processes).
DEFAULT_GLOBAL_RATE = 45.0

_background: ContextVar[bool] = ContextVar("gobelet_background", default=False)


@contextlib.contextmanager
def background() -> Iterator[None]:
    """The globally limited calls made in this block (and the tasks it starts) wait behind
    those a person waits on."""
    reset = _background.set(True)
    try:
        yield
    finally:
        _background.reset(reset)


class Pacer:
    """Globally limited calls, at most ``rate`` a second, evenly spaced; urgent ones first."""

    def __init__(
        self,
        rate: float,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
    ) -> None:
        if rate <= 0:
            raise ValueError("the rate must be positive")
        self.rate = rate
        self.interval = 1.0 / rate
        self._clock = clock
        self._sleep = sleep
        self._next = -float("inf")  # when the next call may go
        self._waiting: list[tuple[int, int, asyncio.Future[None]]] = []
        self._order = itertools.count()
        self._pump: asyncio.Task[None] | None = None
        self.waited = 0  # calls that had to wait their turn

    async def take(self) -> None:
        """Wait for this call's turn (at once when nothing waits and the budget allows)."""
        now = self._clock()
        if not self._waiting and now >= self._next:
            self._next = max(now, self._next) + self.interval
            return
        self.waited += 1
        turn: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        priority = 1 if _background.get() else 0
        heapq.heappush(self._waiting, (priority, next(self._order), turn))
        if self._pump is None or self._pump.done():
            self._pump = asyncio.create_task(self._serve())
        await turn

    async def _serve(self) -> None:
        while self._waiting:
            delay = self._next - self._clock()
            if delay > 0:
                await self._sleep(delay)
            _, _, turn = heapq.heappop(self._waiting)
            if turn.done():  # its caller gave up waiting
                continue
            self._next = max(self._clock(), self._next) + self.interval
            turn.set_result(None)

    @property
    def queued(self) -> int:
        return sum(1 for _, _, turn in self._waiting if not turn.done())


def paced(request: Callable[..., Any], pacer: Pacer) -> Callable[..., Any]:
    """``request`` (discord.py's ``HTTPClient.request``: every call made with the bot
    token) taking its turn from ``pacer`` first."""

    async def request_in_turn(*args: Any, **kwargs: Any) -> Any:
        await pacer.take()
        return await request(*args, **kwargs)

    return request_in_turn
