"""discord.py's rate-limit buckets, kept small: the bot holds several for each channel with
a table (its messages' creation, edits and deletions), for as long as the channel is used.

Each bucket (``discord.http.Ratelimit``) queues the requests waiting for its window in a
``collections.deque``, whose first block makes an empty deque most of a bucket's size.
Requests wait in a bucket only when it runs dry, and then a few at a time: a small list does
(``append``, ``popleft``, ``len``) in a fraction of the memory.

Thread creation's buckets ignore their window (``Unwindowed``): Discord's is minutes long, and
discord.py would either sleep it out in the call that empties it or, with
``max_ratelimit_timeout``, refuse every later thread of the channel until it ends, however
many are left. The bot's ``ThreadBudget`` paces threads instead, and a 429 longer than
``max_ratelimit_timeout`` is raised as ``discord.RateLimited``.
"""

from __future__ import annotations

from typing import Any

import discord


class Waiting(list[Any]):
    """A bucket's waiting requests, oldest first: what discord.py asks of its deque."""

    __slots__ = ()

    def popleft(self) -> Any:
        return self.pop(0)


# discord.py's route keys for starting a thread (a bucket's key is the route's, or the hash
# Discord gave it, then its major parameters).
THREAD_ROUTES = (
    "POST /channels/{channel_id}/threads",
    "POST /channels/{channel_id}/messages/{message_id}/threads",
)


class Unwindowed(discord.http.Ratelimit):
    """A bucket that never waits on the headers' window (one call at a time still)."""

    __slots__ = ()

    def update(self, response: Any, *, use_clock: bool = False) -> None:
        return None


def _starts_threads(http: discord.http.HTTPClient, key: str) -> bool:
    route = key.rsplit(":", 1)[0]
    return route in THREAD_ROUTES or route in {http._bucket_hashes.get(r) for r in THREAD_ROUTES}


def compact(http: discord.http.HTTPClient) -> None:
    """Give each bucket ``http`` makes from now on a ``Waiting`` queue instead of a deque,
    and thread creation's buckets no window of their own."""
    make = http.get_ratelimit

    def get_ratelimit(key: str) -> discord.http.Ratelimit:
        new = key not in http._buckets
        if new and _starts_threads(http, key):
            http._buckets[key] = Unwindowed(http.max_ratelimit_timeout)
        bucket = make(key)
        if new and not bucket._pending_requests:
            bucket._pending_requests = Waiting()  # type: ignore[assignment]
        return bucket

    http.get_ratelimit = get_ratelimit  # type: ignore[method-assign]
