"""Discord's budget of gateway identifies, as the emulator enforces it.

``GET /gateway/bot`` reports it as ``session_start_limit``: ``total`` identifies a day (1,000),
``remaining``, ``reset_after`` (milliseconds until the day's budget is whole again) and
``max_concurrency``, the identifies allowed per 5 seconds. Each identify falls in the bucket
``shard_id % max_concurrency``, and a bucket takes one identify per 5 seconds, across every
connection and process of the bot; one past it is answered op 9 (invalid session, not
resumable). Every IDENTIFY with the bot's token spends one of the day's, accepted or not (the
stricter reading). When the last is spent Discord resets the bot's token (the stricter
reading: at once): every further IDENTIFY with it is closed with 4004 (authentication
failed), and its REST calls are answered 401. A RESUME spends nothing.

Windows run on the emulator's clock, so ``DiscordEmulator.travel`` empties them, and a travel
past ``reset_after`` makes the budget whole again.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

IDENTIFY_WINDOW = 5.0  # seconds a bucket takes one identify in
DAY = 86_400.0

# Why an identify was answered as it was (``Identify.outcome``).
READY = "ready"
CONCURRENCY = "concurrency"  # op 9: its bucket already took one within the window
EXHAUSTED = "exhausted"  # 4004: the day's budget was spent, the token reset
BAD_TOKEN = "bad token"  # 4004: not the bot's token
INVALID_SHARD = "invalid shard"  # 4010
SHARDING_REQUIRED = "sharding required"  # 4011


@dataclass(frozen=True)
class Identify:
    """One IDENTIFY the gateway received, and how it answered it."""

    at: float  # the emulator's clock
    shard: tuple[int, int]  # as sent ((0, 1) without ``shard``)
    bucket: int
    outcome: str
    session_id: str

    @property
    def accepted(self) -> bool:
        return self.outcome == READY


@dataclass
class SessionStartLimit:
    """The bot token's identify budget (``DiscordEmulator(session_start_limit=...)``):
    Discord's figures by default. ``remaining`` None: the whole ``total``."""

    total: int = 1000
    remaining: int | None = None
    reset_after: float = DAY  # seconds until the budget is whole again
    max_concurrency: int = 1
    window: float = IDENTIFY_WINDOW
    _resets_at: float | None = field(default=None, repr=False)
    _last: dict[int, float] = field(default_factory=dict, repr=False)  # bucket: last identify

    def __post_init__(self) -> None:
        if self.remaining is None:
            self.remaining = self.total

    def bucket(self, shard_id: int) -> int:
        return shard_id % self.max_concurrency

    def _renew(self, now: float) -> None:
        if self._resets_at is None:
            self._resets_at = now + self.reset_after
        elif now >= self._resets_at:
            self.remaining = self.total
            self._resets_at = now + self.reset_after

    def spend(self, shard_id: int, now: float) -> str | None:
        """Count an IDENTIFY of shard ``shard_id`` with the bot's token: None if the gateway
        may go on with it, else why it is refused (``EXHAUSTED``, ``CONCURRENCY``)."""
        self._renew(now)
        assert self.remaining is not None
        if self.remaining <= 0:
            return EXHAUSTED
        self.remaining -= 1  # at 0 the emulator resets the token
        bucket = self.bucket(shard_id)
        last = self._last.get(bucket)
        self._last[bucket] = now
        if last is not None and now - last < self.window:
            return CONCURRENCY
        return None

    def payload(self, now: float) -> dict[str, Any]:
        """``session_start_limit`` as ``GET /gateway/bot`` reports it now."""
        self._renew(now)
        assert self._resets_at is not None
        return {
            "total": self.total,
            "remaining": self.remaining,
            "reset_after": max(0, round((self._resets_at - now) * 1000)),
            "max_concurrency": self.max_concurrency,
        }


def busiest_window(identifies: list[Identify], window: float = IDENTIFY_WINDOW) -> int:
    """The most identifies any one bucket received within ``window`` seconds."""
    most = 0
    for first in identifies:
        same = [i for i in identifies if i.bucket == first.bucket and 0 <= i.at - first.at < window]
        most = max(most, len(same))
    return most
