"""discord.py's rate-limit buckets with a compact queue (``bot.buckets``): they still make
requests wait for their window, then let them all through."""

from __future__ import annotations

import asyncio
import sys

import discord

from bot import buckets
from bot.client import Gobelet
from bot.config import Settings


async def test_the_bot_makes_its_buckets_with_a_small_queue() -> None:
    bot = Gobelet(Settings(token=None), sync_commands=False)
    async with bot:
        bucket = bot.http.get_ratelimit("POST /channels/{channel_id}/messages:1")
        assert isinstance(bucket._pending_requests, buckets.Waiting)
        assert sys.getsizeof(bucket._pending_requests) < 100  # far less than a deque
        assert bot.http.get_ratelimit("POST /channels/{channel_id}/messages:1") is bucket


async def test_a_dry_bucket_holds_its_requests_until_it_resets_then_lets_them_all_through() -> None:
    http = discord.http.HTTPClient(asyncio.get_running_loop())
    buckets.compact(http)
    bucket = http.get_ratelimit("PATCH /channels/{channel_id}/messages/{message_id}:7")
    loop = asyncio.get_running_loop()
    bucket.limit, bucket.remaining = 2, 0  # dry for 0.1 s
    bucket.reset_after, bucket.expires = 0.1, loop.time() + 0.1
    through: list[int] = []

    async def request(number: int) -> None:
        async with bucket:
            through.append(number)

    waiting = [asyncio.create_task(request(n)) for n in range(4)]
    await asyncio.sleep(0.03)
    assert through == [] and len(bucket._pending_requests) == 4
    await asyncio.wait_for(asyncio.gather(*waiting), 5)
    assert sorted(through) == [0, 1, 2, 3]
    assert not bucket._pending_requests
    await http.close()


async def test_thread_creation_buckets_ignore_their_window_of_minutes() -> None:
    bot = Gobelet(Settings(token=None), sync_commands=False)
    async with bot:
        assert bot.http.max_ratelimit_timeout == 30.0  # a longer 429 raises RateLimited
        bucket = bot.http.get_ratelimit("POST /channels/{channel_id}/threads:1")
        assert isinstance(bucket, buckets.Unwindowed)
        bot.http._bucket_hashes["POST /channels/{channel_id}/threads"] = "abc"
        assert isinstance(bot.http.get_ratelimit("abc:2"), buckets.Unwindowed)
        other = bot.http.get_ratelimit("POST /channels/{channel_id}/messages:1")
        assert not isinstance(other, buckets.Unwindowed)
        # Headers saying the window ends in minutes neither hold nor refuse the next call.
        response = type("R", (), {"headers": {"X-Ratelimit-Limit": "10"}})()
        async with bucket:
            bucket.update(response)  # type: ignore[arg-type]
        async with asyncio.timeout(1):
            async with bucket:
                pass
