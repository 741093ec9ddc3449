"""discord.py's rate-limit buckets, kept small: the bot holds several for each channel with
a table (its messages' creation, edits and deletions), for as long as the channel is used.

Each bucket (``discord.http.Ratelimit``) queues the requests waiting for its window in a
``collections.deque``, whose first block makes an empty deque most of a bucket's size.
Requests wait in a bucket only when it runs dry, and then a few at a time: a small list does
(``append``, ``popleft``, ``len``) in a fraction of the memory.
"""

from __future__ import annotations

from typing import Any

import discord


class Waiting(list[Any]):
    """A bucket's waiting requests, oldest first: what discord.py asks of its deque."""

    __slots__ = ()

    def popleft(self) -> Any:
        return self.pop(0)


def compact(http: discord.http.HTTPClient) -> None:
    """Give each bucket ``http`` makes from now on a ``Waiting`` queue instead of a deque."""
    make = http.get_ratelimit

    def get_ratelimit(key: str) -> discord.http.Ratelimit:
        new = key not in http._buckets
        bucket = make(key)
        if new and not bucket._pending_requests:
            bucket._pending_requests = Waiting()  # type: ignore[assignment]
        return bucket

    http.get_ratelimit = get_ratelimit  # type: ignore[method-assign]
