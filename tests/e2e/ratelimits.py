"""Discord's REST rate limits, as the emulator enforces them.

Discord counts a bot's requests in buckets: one per route and "major parameter" (the channel
of a channel route), each a window of ``count`` requests that opens with its first request
and closes ``per`` seconds later. Every answer says where its bucket stands
(``X-RateLimit-Limit``, ``-Remaining``, ``-Reset``, ``-Reset-After``, ``-Bucket``), and
discord.py waits on those headers before a bucket runs dry. A request into an empty bucket is
answered 429 with ``retry_after``; discord.py sleeps that long and retries, but only when the
answer carries a ``Via`` header (without one it takes the 429 for a Cloudflare ban).

Above every bucket, one token makes at most 50 requests per second in all, whatever the
number of its processes and shards (``global_limit``): past it, a 429 whose body says
``"global": true``, with ``X-RateLimit-Global: true`` and ``X-RateLimit-Scope: global``, and
discord.py then holds every request of that process until the retry time. The interaction
endpoints are outside it: the callback (``POST /interactions/{id}/{token}/callback``) and the
webhooks addressed by an interaction's token (followups, and getting, editing or deleting
``@original`` or a followup) count against no bucket of the bot, global or per channel.

They have limits of their own, as every webhook does ("interactions webhooks share the same
rate limit properties as normal webhooks"), with the figures library authors measured: 5
requests per 2 s per interaction token (``interaction_token``: the callback and every webhook
call of that token), and about 30 webhook messages per 60 s per channel, whatever the token
(``webhook_channel``: every followup created in the channel, ephemeral ones included).
``INTERACTION_WEBHOOK_LIMITS`` turns them on; they are off by default until the bot keeps
within them.

Discord also limits writes to one channel across routes (and processes) without publishing
the figure (429 with ``X-RateLimit-Scope: shared``, code 20028): ``channel_writes`` emulates
it, off unless a test sets it.

Thread creation has a bucket of its own (``thread_create``), per server rather than per
channel: Discord publishes no figure, and users measured a ``retry_after`` of minutes (up to
about five) once a burst of threads ran it dry. The emulator allows 10 threads per 5 minutes
in each server, a strict reading of those reports, and refuses the next with its window's
end as ``retry_after``.

Windows run on the emulator's clock, so ``DiscordEmulator.travel`` empties them too.
"""

from __future__ import annotations

import hashlib
import math
from dataclasses import dataclass, field
from typing import Any

# The interaction endpoints: the callback and the webhooks addressed by an interaction's
# token. No bucket of the bot token counts them, the global one included.
INTERACTION_ENDPOINTS = ("/api/v10/interactions/", "/api/v10/webhooks/")


def globally_limited(path: str) -> bool:
    """Whether a call to ``path`` counts against the bot token's limits."""
    return not path.startswith(INTERACTION_ENDPOINTS)


def _channel_id(params: dict[str, str]) -> int | None:
    channel = params.get("channel")
    return int(channel) if channel is not None and channel.isdigit() else None


MESSAGE_ROUTES = {
    ("POST", "/channels/{channel}/messages"): "message_create",
    ("PATCH", "/channels/{channel}/messages/{message}"): "message_edit",
    ("DELETE", "/channels/{channel}/messages/{message}"): "message_delete",
}
# Starting a thread, without a message or from one: one bucket per server.
THREAD_ROUTES = {
    ("POST", "/channels/{channel}/threads"),
    ("POST", "/channels/{channel}/messages/{message}/threads"),
}
MAJOR_PARAMETERS = ("channel", "guild")
# The interaction endpoints' own buckets, as ``RateLimitHit.bucket`` names them.
WEBHOOK_BUCKETS = ("interaction_token", "webhook_channel")
VIA = "1.1 google"  # what Discord's 429s carry; discord.py retries only when there is one


@dataclass(frozen=True)
class Limit:
    count: int
    per: float  # seconds


@dataclass(frozen=True)
class RateLimits:
    """The figures, per bucket. Message routes: 5 per 5 s per channel, a conservative reading
    of what Discord answers bots; adding or removing reactions: 1 per 0.25 s per channel; any
    other route of the bot a generous 50 per second, so that every answer carries headers as
    Discord's do; starting threads, 10 per 5 minutes per server; and the global limit, 50
    per second per token across all routes."""

    message_create: Limit = Limit(5, 5.0)
    message_edit: Limit = Limit(5, 5.0)
    message_delete: Limit = Limit(5, 5.0)
    reaction: Limit = Limit(1, 0.25)
    other: Limit = Limit(50, 1.0)
    thread_create: Limit = Limit(10, 300.0)
    channel_writes: Limit | None = None
    global_limit: Limit | None = Limit(50, 1.0)
    # The interaction webhooks' own limits (``INTERACTION_WEBHOOK_LIMITS``), off unless given:
    # the bot does not keep within them yet (docs/discord-traffic.md).
    interaction_token: Limit | None = None
    webhook_channel: Limit | None = None

    def for_route(self, method: str, template: str) -> tuple[str, Limit]:
        """The bucket's name and figure for a route (its path without ``/api/v10``)."""
        name = MESSAGE_ROUTES.get((method, template))
        if name is not None:
            return name, getattr(self, name)
        if "/reactions" in template and method != "GET":
            return "reaction", self.reaction
        if (method, template) in THREAD_ROUTES:
            return "thread_create", self.thread_create
        return "other", self.other


DISCORD_LIMITS = RateLimits()
# Every limit above with the interaction webhooks' own: 5 calls per 2 s per token, 30
# followups per 60 s per channel.
INTERACTION_WEBHOOK_LIMITS = RateLimits(
    interaction_token=Limit(5, 2.0), webhook_channel=Limit(30, 60.0)
)


@dataclass
class Window:
    limit: Limit
    opened_at: float = -math.inf
    used: int = 0

    def closes_at(self) -> float:
        return self.opened_at + self.limit.per

    def refresh(self, now: float) -> None:
        if now >= self.closes_at():
            self.opened_at, self.used = now, 0

    def remaining(self) -> int:
        return self.limit.count - self.used

    def reset_after(self, now: float) -> float:
        # Rounded up to the millisecond: a client that waits what it is told is never early.
        return math.ceil(max(0.0, self.closes_at() - now) * 1000) / 1000

    def headers(self, route: str, now: float, wall: float) -> dict[str, str]:
        """The ``X-RateLimit-*`` headers of this window, for the bucket named ``route``
        (``wall``: ``now`` as epoch seconds)."""
        reset_after = self.reset_after(now)
        return {
            "X-RateLimit-Limit": str(self.limit.count),
            "X-RateLimit-Remaining": str(self.remaining()),
            "X-RateLimit-Reset": f"{wall + reset_after:.3f}",
            "X-RateLimit-Reset-After": f"{reset_after:.3f}",
            "X-RateLimit-Bucket": hashlib.sha1(route.encode()).hexdigest()[:32],
        }


@dataclass
class RateLimitHit:
    """One 429 the emulator answered."""

    method: str
    path: str
    # "message_create", ..., "channel_writes" (shared limit), "global", or the interaction
    # endpoints' "interaction_token" and "webhook_channel"
    bucket: str
    channel_id: int | None
    scope: str  # "user" (the bot's own bucket), "shared" (the channel's writes) or "global"
    retry_after: float
    at: float  # emulator clock


@dataclass
class Verdict:
    """The limiter's answer for one request: the headers to send, and the 429 body and its
    record when the request is refused."""

    headers: dict[str, str]
    refused: dict[str, Any] | None = None
    hit: RateLimitHit | None = None


@dataclass
class Limiter:
    limits: RateLimits
    windows: dict[tuple[str, str], Window] = field(default_factory=dict)

    def check(
        self,
        method: str,
        path: str,
        template: str,
        params: dict[str, str],
        now: float,
        wall: float,
        token: str = "",
    ) -> Verdict:
        """Count one request of the bot on route ``template`` (its match info ``params``) at
        ``now`` on the emulator's clock; ``wall`` is that instant as epoch seconds; ``token``
        the bot token it was made with (the global limit is the token's, in all processes)."""
        refused = self._global(method, path, params, now, token)
        if refused is not None:
            return refused
        name, limit = self.limits.for_route(method, template)
        route = f"{method} {template}"
        key = "/".join(params.get(p, "") for p in MAJOR_PARAMETERS)
        if name == "thread_create":  # the server's, whichever channel (and route) it is in
            route, key = name, params.get("guild") or key
        window = self._window(route, key, limit, now)
        channel = params.get("channel")
        shared_limit = self.limits.channel_writes
        shared = None
        if shared_limit is not None and channel is not None and name != "other":
            shared = self._window("channel_writes", channel, shared_limit, now)
        blocking, scope = None, "user"
        if window.remaining() <= 0:
            blocking = window
        elif shared is not None and shared.remaining() <= 0:
            blocking, scope = shared, "shared"
        else:
            window.used += 1
            if shared is not None:
                shared.used += 1
        headers = window.headers(route, now, wall)
        if blocking is None:
            return Verdict(headers)
        retry_after = blocking.reset_after(now)
        headers.update(
            {"Retry-After": str(math.ceil(retry_after)), "X-RateLimit-Scope": scope, "Via": VIA}
        )
        body: dict[str, Any] = {
            "message": "You are being rate limited.",
            "retry_after": retry_after,
            "global": False,
        }
        if scope == "shared":
            body.update(
                message="The channel you are writing has hit the write rate limit.", code=20028
            )
        bucket = name if scope == "user" else "channel_writes"
        hit = RateLimitHit(method, path, bucket, _channel_id(params), scope, retry_after, now)
        return Verdict(headers, body, hit)

    def _global(
        self, method: str, path: str, params: dict[str, str], now: float, token: str
    ) -> Verdict | None:
        """Count the request against its token's global limit: the refusal past it, if any.
        A request refused by it counts against no bucket; one let through counts here even if
        its own bucket then refuses it (Discord counts what it receives)."""
        limit = self.limits.global_limit
        if limit is None:
            return None
        window = self._window("global", token, limit, now)
        if window.remaining() > 0:
            window.used += 1
            return None
        retry_after = window.reset_after(now)
        headers = {
            "Retry-After": str(math.ceil(retry_after)),
            "X-RateLimit-Global": "true",
            "X-RateLimit-Scope": "global",
            "Via": VIA,
        }
        body = {
            "message": "You are being rate limited.",
            "retry_after": retry_after,
            "global": True,
        }
        hit = RateLimitHit(method, path, "global", _channel_id(params), "global", retry_after, now)
        return Verdict(headers, body, hit)

    def check_interaction(
        self,
        method: str,
        path: str,
        token: str,
        channel_id: int | None,
        now: float,
        wall: float,
        *,
        creates: bool,
    ) -> Verdict:
        """Count one call of the interaction endpoints made with the interaction token
        ``token`` in channel ``channel_id``; ``creates``: it posts a followup, which counts
        against the channel's webhook messages too. The headers are those of the bucket
        nearer its end (the channel's, for a followup that has fewer left there)."""
        windows: list[tuple[str, str, Window]] = []
        if self.limits.interaction_token is not None:
            window = self._window("interaction_token", token, self.limits.interaction_token, now)
            windows.append(("interaction_token", "interaction_token", window))
        if creates and channel_id is not None and self.limits.webhook_channel is not None:
            window = self._window(
                "webhook_channel", str(channel_id), self.limits.webhook_channel, now
            )
            windows.append(("webhook_channel", f"webhooks {channel_id}", window))
        if not windows:
            return Verdict({})
        blocking = next((found for found in windows if found[2].remaining() <= 0), None)
        if blocking is None:
            for _, _, window in windows:
                window.used += 1
        _, route, shown = blocking or min(windows, key=lambda found: found[2].remaining())
        headers = shown.headers(route, now, wall)
        if blocking is None:
            return Verdict(headers)
        bucket = blocking[0]
        retry_after = shown.reset_after(now)
        headers.update(
            {"Retry-After": str(math.ceil(retry_after)), "X-RateLimit-Scope": "user", "Via": VIA}
        )
        body = {
            "message": "You are being rate limited.",
            "retry_after": retry_after,
            "global": False,
        }
        hit = RateLimitHit(method, path, bucket, channel_id, "user", retry_after, now)
        return Verdict(headers, body, hit)

    def _window(self, route: str, key: str, limit: Limit, now: float) -> Window:
        window = self.windows.setdefault((route, key), Window(limit))
        window.refresh(now)
        return window
