"""An in-repo emulator of Discord's REST API and gateway, for running the real bot in tests.

The bot under test is the real ``python -m bot`` process with the real discord.py: only the
two URLs differ (DISCORD_API_BASE_URL, DISCORD_GATEWAY_URL). The emulator

- answers the REST calls discord.py makes (login, command sync, interaction callbacks and
  webhooks, channel messages, reactions, a few lookups) with the payload shapes discord.py
  2.7 reads, and ``Content-Type: application/json`` exactly (anything else is read as text);
- runs a gateway (HELLO, IDENTIFY, READY, one GUILD_CREATE per server, heartbeats) for one
  session or many: a session identified with ``shard: [id, count]`` gets the servers and
  events of that shard only, ``(guild_id >> 22) % count == id``, as on Discord; with
  Discord's identify budget and concurrency (op 9, 4004; see identifies.py);
- injects what users do: slash commands, autocomplete, button clicks, select choices, modal
  submissions, reactions; each returns a handle to await the bot's answer;
- enforces Discord's rules so that tests catch what Discord would refuse: the 3-second window
  for the first answer (10062), one initial answer (40060), the 15-minute token (50027),
  message and command limits (50035, 50006), the bot's own channel permissions (50013),
  and the REST rate limits (429, see ratelimits.py), the global one included: 50 requests
  a second per token, the interaction endpoints exempt (their own webhook limits are there,
  off by default); archived threads read-only (50083), unarchived by a new message; an
  expired token 401/50027 whatever the call; and the invalid requests Discord counts
  towards a ban (``invalid_requests``);
- records a transcript of what the bot showed to whom (see transcript.py).

Everything runs in the test's event loop; nothing here blocks.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
import secrets
import time
from collections.abc import Awaitable, Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, TypeVar

import orjson
from aiohttp import BodyPartReader, WSMsgType, web

from tests.e2e import identifies
from tests.e2e.appcommands import (
    SELECT_RESOLVES,
    EmulatorError,
    check_available,
    find_command,
    improvised_command,
    interaction_data,
    resolve,
)
from tests.e2e.handles import (
    DEFAULT_WAIT,
    Callback,
    Choices,
    HttpCall,
    InjectedEvent,
    InjectedInteraction,
    InteractionExpired,
)
from tests.e2e.identifies import Identify, SessionStartLimit
from tests.e2e.ratelimits import (
    DISCORD_LIMITS,
    Limiter,
    RateLimitHit,
    RateLimits,
    globally_limited,
)
from tests.e2e.transcript import (
    BUTTON,
    EPHEMERAL,
    IS_COMPONENTS_V2,
    LOADING,
    SELECTS,
    STRING_SELECT,
    Attachment,
    Component,
    Message,
    Transcript,
)
from tests.e2e.validation import (
    Problem,
    choices_problems,
    commands_problems,
    error_body,
    is_empty_message,
    message_problems,
    modal_problems,
)
from tests.e2e.world import (
    ADD_REACTIONS,
    ATTACH_FILES,
    CREATE_PRIVATE_THREADS,
    CREATE_PUBLIC_THREADS,
    MANAGE_MESSAGES,
    PRIVATE_THREAD,
    READ_MESSAGE_HISTORY,
    SEND_MESSAGES,
    SEND_MESSAGES_IN_THREADS,
    THREADS_OF,
    VIEW_CHANNEL,
    Channel,
    Guild,
    Role,
    Snowflakes,
    User,
    World,
    now_iso,
    shard_of,
)

__all__ = [
    "DEFAULT_TOKEN",
    "DEFAULT_WAIT",
    "Callback",
    "CommandSync",
    "DiscordEmulator",
    "EmulatorError",
    "HttpCall",
    "InjectedEvent",
    "InjectedInteraction",
    "InteractionExpired",
    "RateLimitHit",
    "RateLimits",
    "SessionStartLimit",
]

DEFAULT_TOKEN = "MTAwMDAwMDAwMDAwMDAwMDAwMQ.emulated.never-a-real-token"

# Interaction types and callback types (https://discord.com/developers/docs/interactions).
APPLICATION_COMMAND = 2
MESSAGE_COMPONENT = 3
AUTOCOMPLETE = 4
MODAL_SUBMIT = 5
CHANNEL_MESSAGE = 4
DEFERRED_CHANNEL_MESSAGE = 5
DEFERRED_UPDATE_MESSAGE = 6
UPDATE_MESSAGE = 7
AUTOCOMPLETE_RESULT = 8
MODAL = 9
ALLOWED_CALLBACKS = {
    APPLICATION_COMMAND: {CHANNEL_MESSAGE, DEFERRED_CHANNEL_MESSAGE, MODAL},
    MESSAGE_COMPONENT: {
        CHANNEL_MESSAGE,
        DEFERRED_CHANNEL_MESSAGE,
        DEFERRED_UPDATE_MESSAGE,
        UPDATE_MESSAGE,
        MODAL,
    },
    AUTOCOMPLETE: {AUTOCOMPLETE_RESULT},
    MODAL_SUBMIT: {
        CHANNEL_MESSAGE,
        DEFERRED_CHANNEL_MESSAGE,
        DEFERRED_UPDATE_MESSAGE,
        UPDATE_MESSAGE,
    },
}

# Gateway intents that gate the events the emulator sends.
GUILD_MESSAGES = 1 << 9
GUILD_MESSAGE_REACTIONS = 1 << 10
MESSAGE_CONTENT = 1 << 15
DIRECT_MESSAGE_REACTIONS = 1 << 13

# Message flags a bot may set: on channel messages, and on interaction answers (+ ephemeral).
CHANNEL_FLAGS = (1 << 2) | (1 << 12) | IS_COMPONENTS_V2
INTERACTION_FLAGS = CHANNEL_FLAGS | EPHEMERAL

MESSAGE_TYPE_CHAT_INPUT = 20


class DiscordHTTPError(Exception):
    """Raised inside a route to answer with a Discord error."""

    def __init__(self, status: int, code: int, message: str, body: dict[str, Any] | None = None):
        super().__init__(f"{status} {code} {message}")
        self.status = status
        self.body = body or {"message": message, "code": code}


def _invalid(problems: list[Problem]) -> DiscordHTTPError:
    return DiscordHTTPError(400, 50035, "Invalid Form Body", error_body(problems))


THREAD_ARCHIVED = (400, 50083, "Thread is archived")
AUTO_ARCHIVE_MINUTES = (60, 1440, 4320, 10080)  # what a thread's auto-archive may be set to
UNKNOWN_INTERACTION = (404, 10062, "Unknown interaction")
ALREADY_ACKNOWLEDGED = (400, 40060, "Interaction has already been acknowledged.")
INVALID_WEBHOOK_TOKEN = (401, 50027, "Invalid Webhook Token")
UNKNOWN_WEBHOOK = (404, 10015, "Unknown Webhook")
UNKNOWN_MESSAGE = (404, 10008, "Unknown Message")
UNKNOWN_CHANNEL = (404, 10003, "Unknown Channel")
MISSING_PERMISSIONS = (403, 50013, "Missing Permissions")
MISSING_ACCESS = (403, 50001, "Missing Access")
EMPTY_MESSAGE = (400, 50006, "Cannot send an empty message")


def _fail(error: tuple[int, int, str]) -> DiscordHTTPError:
    return DiscordHTTPError(*error)


def json_response(data: Any, status: int = 200) -> web.Response:
    # Exactly "application/json": discord.py compares the header verbatim, and aiohttp's
    # json_response() would add "; charset=utf-8" (then login fails on a str body).
    return web.Response(
        status=status, body=orjson.dumps(data), headers={"Content-Type": "application/json"}
    )


@dataclass
class Upload:
    field: str
    filename: str
    data: bytes
    content_type: str | None


@dataclass
class CommandSync:
    guild_id: int | None
    commands: list[dict[str, Any]]
    at: float


# Discord bans an IP for a while past 10,000 invalid requests in this many seconds.
INVALID_WINDOW = 600.0
INVALID_BAN = 10_000

INVALID_SHARD = 4010
SHARDING_REQUIRED = 4011
# The close of an IDENTIFY refused (but op 9 for one past its bucket's concurrency).
IDENTIFY_CLOSES = {
    identifies.BAD_TOKEN: (4004, b"Authentication failed."),
    identifies.EXHAUSTED: (4004, b"Authentication failed."),
    identifies.INVALID_SHARD: (INVALID_SHARD, b"Invalid shard."),
    identifies.SHARDING_REQUIRED: (SHARDING_REQUIRED, b"Sharding required."),
}


@dataclass
class GatewaySession:
    id: str
    ws: web.WebSocketResponse
    intents: int = 0
    identify: dict[str, Any] | None = None
    shard: tuple[int, int] = (0, 1)  # (id, count): an IDENTIFY without "shard" gets them all
    seq: int = 0
    closed: bool = False
    connected_at: float = 0.0
    identified_at: float | None = None
    guilds_sent_at: float | None = None
    pings: list[asyncio.Future[float]] = field(default_factory=list)
    _lock: asyncio.Lock = field(default_factory=asyncio.Lock)

    @property
    def open(self) -> bool:
        return self.identify is not None and not self.closed

    def owns(self, guild_id: int | None) -> bool:
        """Whether Discord sends this guild's events to this session (DMs go to shard 0)."""
        shard, count = self.shard
        return (0 if guild_id is None else shard_of(guild_id, count)) == shard

    async def send(self, op: int, data: Any, event: str | None = None) -> None:
        frame: dict[str, Any] = {"op": op, "d": data, "s": None, "t": event}
        async with self._lock:
            if event is not None:
                self.seq += 1
                frame["s"] = self.seq
            # Plain text frames: discord.py asks for zlib-stream but only inflates binary ones.
            await self.ws.send_str(orjson.dumps(frame).decode())


@dataclass
class Hold:
    """The next REST call of ``method`` whose path ends with ``suffix`` waits, unanswered,
    until ``release()``: the bot is caught in the middle of what it was doing. ``processed``:
    Discord does what the call asks first, and only its answer waits (a message is posted,
    but the bot does not know its id yet)."""

    method: str
    suffix: str
    processed: bool = False
    path: str | None = None  # the call held (once done, when ``processed``)
    caught: bool = False
    released: asyncio.Event = field(default_factory=asyncio.Event)
    matches: Callable[[web.Request], bool] | None = None  # instead of ``suffix``

    def catches(self, request: web.Request) -> bool:
        if self.caught or request.method != self.method:
            return False
        if self.matches is not None:
            return self.matches(request)
        return request.path.endswith(self.suffix)

    def release(self) -> None:
        self.released.set()


Watchdog = Callable[[], None]
T = TypeVar("T")


class DiscordEmulator:
    """See the module docstring. Start with ``await emulator.start()``; stop with ``stop()``."""

    def __init__(
        self,
        world: World | None = None,
        *,
        token: str = DEFAULT_TOKEN,
        response_deadline: float = 3.0,
        token_lifetime: float = 15 * 60.0,
        heartbeat_interval_ms: int = 41_250,
        shards: int = 1,
        rate_limits: RateLimits | None = DISCORD_LIMITS,
        guilds_per_shard: int = 2500,
        session_start_limit: SessionStartLimit | None = None,
    ) -> None:
        """``shards``: the count ``GET /gateway/bot`` recommends; ``rate_limits``: the figures
        the REST routes enforce (None: no limits, and no rate-limit headers);
        ``guilds_per_shard``: past this many servers on one shard, its session is closed with
        4011 (sharding required), as Discord does past 2,500; ``session_start_limit``: the
        identify budget and concurrency (Discord's figures by default, see identifies.py)."""
        self.world = world or World.default()
        self.token = token
        self.response_deadline = response_deadline
        self.token_lifetime = token_lifetime
        self.heartbeat_interval_ms = heartbeat_interval_ms
        self.shards = shards
        self.guilds_per_shard = guilds_per_shard
        self.session_start = session_start_limit or SessionStartLimit()
        self.identifies: list[Identify] = []  # every IDENTIFY received, oldest first
        self.revoked_tokens: list[str] = []  # tokens reset once the identify budget was spent
        self.rate_limits = rate_limits
        self.rate_limited: list[RateLimitHit] = []  # every 429 answered, oldest first
        # Every 401, 403 and 429 (shared ones excepted) answered: Discord's invalid requests.
        self.invalid_requests: list[HttpCall] = []
        self.transcript = Transcript()
        self.snowflakes = Snowflakes()
        self.commands: dict[int | None, list[dict[str, Any]]] = {}  # None: global commands
        self.syncs: list[CommandSync] = []
        self.interactions: list[InjectedInteraction] = []
        self.events: list[InjectedEvent] = []
        self.sessions: list[GatewaySession] = []  # every connection ever made, oldest first
        self.calls: list[HttpCall] = []
        self.unhandled: list[str] = []  # routes the bot called that the emulator lacks
        self.internal_errors: list[str] = []  # bugs in the emulator itself
        self.holds: list[Hold] = []
        # Discord tells a guild's sessions of the bot's own messages too (see ``_echo``).
        self.echo_bot_messages = True
        self._echoes: set[asyncio.Task[None]] = set()
        self.watchdog: Watchdog | None = None  # raises when the bot process died
        self.port = 0
        self._offset = 0.0
        self._changed = asyncio.Event()
        self._by_id: dict[int, InjectedInteraction] = {}
        self._by_token: dict[str, InjectedInteraction] = {}
        self._runner: web.AppRunner | None = None
        self._app = self._build_app()

    # --- lifecycle and addresses -----------------------------------------------------------

    async def start(self, host: str = "127.0.0.1", port: int = 0) -> None:
        self._runner = web.AppRunner(self._app, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, host, port)
        await site.start()
        server = site._server
        assert server is not None and server.sockets  # type: ignore[attr-defined]
        self.port = server.sockets[0].getsockname()[1]  # type: ignore[attr-defined]

    async def stop(self) -> None:
        for hold in self.holds:
            hold.release()
        for echo in list(self._echoes):
            echo.cancel()
        for session in self.sessions:
            if not session.ws.closed:
                await session.ws.close()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    @property
    def api_url(self) -> str:
        return f"http://127.0.0.1:{self.port}/api/v10"

    @property
    def gateway_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/"

    def now(self) -> float:
        """The emulator's clock: the monotonic clock (asyncio's loop's; uvloop's own counts
        whole milliseconds, too coarse for a latency), plus whatever ``travel`` added."""
        return time.monotonic() + self._offset

    @property
    def travelled(self) -> float:
        """How far ``travel`` moved the clock, in seconds."""
        return self._offset

    def travel(self, seconds: float) -> None:
        """Move the emulator's clock forward (tokens, response windows and rate-limit windows
        age; the bot's own clock moves with it only from its next start: see ``BotProcess``)."""
        self._offset += seconds
        self.snowflakes.offset += seconds
        for interaction in self.interactions:
            self._check_deadline(interaction)
        self._notify()

    # --- the world, for tests --------------------------------------------------------------

    def user(self, who: User | int | str) -> User:
        return self.world.user(who)

    def channel(self, guild_or_id: str | int, name: str | None = None) -> Channel:
        return self.world.channel(guild_or_id, name)

    async def add_role(self, guild_name: str, name: str, permissions: int, *holders: User) -> Role:
        """A new role of ``guild_name`` given to ``holders``, as a server's admin makes one:
        the bot hears of it (GUILD_ROLE_CREATE); the holders' interactions carry it."""
        guild = self.world.guild(guild_name)
        role = self.world.add_role(guild_name, name, permissions)
        payload = {"guild_id": str(guild.id), "role": role.payload()}
        await self._guild_event(guild, "GUILD_ROLE_CREATE", payload)
        for holder in holders:
            guild.member(holder).role_ids.append(role.id)
        return role

    async def add_channel(self, guild_name: str, name: str, *, type: int = 0) -> Channel:
        """A new channel of ``guild_name`` (``type``: 0 text, 5 announcement), as a server's
        admin makes one: the bot hears of it (CHANNEL_CREATE)."""
        guild = self.world.guild(guild_name)
        channel = self.world.add_channel(guild_name, name, type=type)
        await self._guild_event(guild, "CHANNEL_CREATE", channel.payload())
        return channel

    async def remove_bot(self, which: Guild | int | str) -> Guild:
        """The bot is kicked from a server: its sessions get GUILD_DELETE (no ``unavailable``,
        as for a removal), and from then on the server's routes answer 403 50001, its
        channels' too (interaction webhooks stay as they are)."""
        guild = self.world.guild(which)
        audience = self._audience(guild.id)
        self.world.remove_bot(guild)
        for session in audience:
            await self._dispatch(session, "GUILD_DELETE", {"id": str(guild.id)})
        return guild

    async def delete_channel(self, channel: Channel, *, told: bool = True) -> None:
        """A server's channel or thread deleted (a channel's threads go with it): the bot
        gets CHANNEL_DELETE, or THREAD_DELETE for a thread (``told=False``: nothing, as if it
        missed the event), and any bot-token call on it answers 404 10003 from then on."""
        guild = self.world.guild(channel.guild_id or 0)
        self.world.remove_channel(channel)
        if not told:
            return
        if channel.is_thread:
            name = "THREAD_DELETE"
            payload: dict[str, Any] = {
                "id": str(channel.id),
                "guild_id": str(guild.id),
                "parent_id": str(channel.parent_id),
                "type": channel.type,
            }
        else:
            name, payload = "CHANNEL_DELETE", channel.payload()
        await self._guild_event(guild, name, payload)

    def guild(self, which: Guild | int | str) -> Guild:
        return self.world.guild(which)

    def dm(self, who: User | int | str) -> Channel:
        channel = self.world.dm(who)
        assert channel.recipient is not None
        self.transcript.dm_recipients[channel.id] = channel.recipient.id
        return channel

    @property
    def rate_limits(self) -> RateLimits | None:
        return self._limiter.limits if self._limiter is not None else None

    @rate_limits.setter
    def rate_limits(self, limits: RateLimits | None) -> None:
        """New figures start from empty windows."""
        self._limiter = Limiter(limits) if limits is not None else None

    @property
    def session(self) -> GatewaySession | None:
        """The newest identified gateway connection still open."""
        found = self.open_sessions()
        return found[-1] if found else None

    def open_sessions(self, shard: int | None = None) -> list[GatewaySession]:
        """The identified gateway connections still open, oldest first; on shard ``shard``
        only, if given (several when the bot runs twice: Discord sends both the events)."""
        return [s for s in self.sessions if s.open and (shard is None or s.shard[0] == shard)]

    def session_on(self, shard: int) -> GatewaySession | None:
        """The newest open session on shard ``shard``."""
        found = self.open_sessions(shard)
        return found[-1] if found else None

    async def wait_shard(
        self,
        shard: int,
        *,
        newer_than: GatewaySession | None = None,
        timeout: float = 20.0,
    ) -> GatewaySession:
        """Wait until a session on shard ``shard`` has received its servers (READY and every
        GUILD_CREATE), and return the newest; with ``newer_than``, one that connected after
        that session (the replacement of a process that was killed)."""
        since = 0
        if newer_than is not None:
            since = next(n for n, s in enumerate(self.sessions) if s is newer_than) + 1

        def ready() -> GatewaySession | None:
            found = [
                s
                for s in self.sessions[since:]
                if s.open and s.shard[0] == shard and s.guilds_sent_at is not None
            ]
            return found[-1] if found else None

        return await self.wait_for(ready, timeout=timeout, what=f"a session on shard {shard}")

    def command(self, name: str, guild: Guild | int | str | None = None) -> dict[str, Any]:
        """A synced top-level command, as Discord stored it (guild commands first)."""
        found = find_command(self.commands, name, self.world.guild(guild).id if guild else None)
        if found is None:
            raise LookupError(f"no synced command {name!r}; synced: {self.command_names()}")
        return found

    def as_read(self, text: str, locale: str = "fr") -> str:
        """``text`` as a client in ``locale`` shows it: a command mention ``</maya start:id>``
        reads as the synced command's name in that locale ("/maya start"), like Discord's
        clients do; a mention of no synced command stays as it is."""
        by_id = {c["id"]: c for scoped in self.commands.values() for c in scoped}

        def localized(definition: dict[str, Any], name: str) -> str:
            return (definition.get("name_localizations") or {}).get(locale) or name

        def shown(found: re.Match[str]) -> str:
            definition = by_id.get(found.group(2))
            if definition is None:
                return found.group(0)
            top, _, sub = found.group(1).partition(" ")
            words = [localized(definition, top)]
            if sub:
                option = next(
                    (o for o in definition.get("options", []) if o.get("name") == sub), None
                )
                words.append(localized(option, sub) if option is not None else sub)
            return "/" + " ".join(words)

        return re.sub(r"</([\w -]+):(\d+)>", shown, text)

    def command_names(self) -> dict[int | None, list[str]]:
        return {scope: [c["name"] for c in commands] for scope, commands in self.commands.items()}

    # --- waiting ---------------------------------------------------------------------------

    def _notify(self) -> None:
        self._changed.set()
        self._changed = asyncio.Event()

    async def wait_for(
        self, predicate: Callable[[], T | None], *, timeout: float = DEFAULT_WAIT, what: str = "it"
    ) -> T:
        """Wait until ``predicate()`` is truthy and return its value; TimeoutError (with the
        transcript and refused requests) otherwise. The watchdog stops the wait early when the
        bot process died."""
        deadline = asyncio.get_running_loop().time() + timeout
        while True:
            changed = self._changed
            value = predicate()
            if value:
                return value
            if self.watchdog is not None:
                self.watchdog()
            remaining = deadline - asyncio.get_running_loop().time()
            if remaining <= 0:
                raise TimeoutError(f"waited {timeout:g}s for {what}\n{self.describe()}")
            # Wake at least every 100 ms so that the watchdog notices a dead bot quickly.
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(changed.wait(), min(remaining, 0.1))

    def describe(self) -> str:
        errors = [f"  {c.method} {c.path} -> {c.status} {c.error}" for c in self.http_errors]
        return "\n".join(
            [
                "transcript:",
                self.transcript.dump() or "  (nothing)",
                "refused requests:",
                *(errors or ["  (none)"]),
                f"unhandled routes: {self.unhandled}",
            ]
        )

    @property
    def http_errors(self) -> list[HttpCall]:
        return [call for call in self.calls if call.status >= 400]

    @property
    def expired(self) -> list[InjectedInteraction]:
        return [i for i in self.interactions if i.expired]

    @property
    def latencies(self) -> list[float]:
        """Seconds from injection to the bot's first answer, per answered interaction, in
        injection order (for benchmarks: no test should assert a duration)."""
        return [i.latency for i in self.interactions if i.latency is not None]

    async def wait_message(
        self,
        channel: Channel | int | None = None,
        *,
        containing: str | None = None,
        where: Callable[[Message], bool] | None = None,
        user: User | int | str | None = None,
        timeout: float = DEFAULT_WAIT,
    ) -> Message:
        """The newest live message that contains ``containing`` and satisfies ``where``, in
        ``channel`` if given, among those ``user`` sees (public ones only without ``user``);
        waits until one exists."""
        channel_id = channel.id if isinstance(channel, Channel) else channel
        viewer = self.world.user(user).id if user is not None else None

        def newest() -> Message | None:
            transcript = self.transcript
            if viewer is None:
                candidates = transcript.public(channel_id)
            else:
                candidates = transcript.visible_to(viewer, channel_id)
            for message in reversed(candidates):
                if (containing is None or containing in message.text) and (
                    where is None or where(message)
                ):
                    return message
            return None

        wanted = f"a message containing {containing!r}" if containing else "a matching message"
        return await self.wait_for(newest, timeout=timeout, what=wanted)

    def hold(self, method: str, suffix: str, *, processed: bool = False) -> Hold:
        """Hold the next ``method`` call whose path ends with ``suffix`` (say "/callback",
        an interaction's first answer) until the returned ``Hold`` is released; ``hold.path``
        tells it came. ``processed``: the call is done at once and only its answer is held
        (``hold.path`` tells it is done): a bot killed meanwhile never learns what it made.
        Released when the emulator stops."""
        held = Hold(method, suffix, processed)
        self.holds.append(held)
        return held

    def hold_message(
        self, method: str, channel: Channel, message: int | None = None, *, processed: bool = False
    ) -> Hold:
        """``hold`` for the bot's next ``POST`` (a new message), ``PATCH`` or ``DELETE`` (of
        ``message``) in ``channel``, whichever way it goes: with the bot token, or through
        an interaction's webhook (a followup, its original response or a followup by id)."""

        def matches(request: web.Request) -> bool:
            info = request.match_info
            if "channel" in info:
                return info["channel"] == str(channel.id) and (
                    message is None or info.get("message") == str(message)
                )
            interaction = self._by_token.get(info.get("token", ""))
            if interaction is None or interaction.channel.id != channel.id:
                return False
            if "message" not in info:
                return method == "POST" and "/interactions/" not in request.path
            wanted = info["message"]
            if wanted == "@original":
                found = interaction.original.id if interaction.original is not None else None
            else:
                found = int(wanted) if wanted.isdigit() else None
            return message is None or found == message

        held = Hold(method, "", processed, matches=matches)
        self.holds.append(held)
        return held

    async def ping(self, timeout: float = DEFAULT_WAIT, *, shard: int | None = None) -> float:
        """Ask the bot for a heartbeat (gateway op 1) and return the round trip in seconds; on
        the newest session, or the newest of shard ``shard``.

        discord.py answers at once from its gateway loop, whatever the cogs do: this proves the
        bot is connected and its event loop is not stuck, without relying on any command."""
        session = self._live_session(shard)
        answered: asyncio.Future[float] = asyncio.get_running_loop().create_future()
        session.pings.append(answered)
        sent = self.now()
        await session.send(1, session.seq)
        try:
            return await asyncio.wait_for(answered, timeout) - sent
        except TimeoutError:
            raise TimeoutError(f"the bot did not answer a heartbeat in {timeout:g}s") from None

    # --- injecting what users do -----------------------------------------------------------

    async def slash(
        self,
        user: User | int | str,
        channel: Channel,
        command: str,
        options: Mapping[str, Any] | None = None,
        *,
        locale: str | None = None,
        allow_unknown: bool = False,
        forged: bool = False,
    ) -> InjectedInteraction:
        """Run ``/command`` ("game", "game sub" or "game group sub") with ``options`` by name.

        Values are checked against the synced definition (choices, bounds, required) as
        Discord's client would; users, channels and roles may be given as world objects,
        names or ids and arrive with ``data.resolved``. ``allow_unknown`` sends a command
        Discord never registered (values typed from their Python types); ``forged`` sends
        values past the choices, bounds and lengths (of the option's type still)."""
        who = self.world.user(user)
        self._check_not_archived(channel, "use a command in")
        data = self._command_data(
            who, channel, command, options or {}, None, allow_unknown, forged=forged
        )
        payload = self._interaction_payload(APPLICATION_COMMAND, who, channel, data, locale)
        return await self._inject(payload, who, channel, command=command)

    async def autocomplete(
        self,
        user: User | int | str,
        channel: Channel,
        command: str,
        options: Mapping[str, Any],
        focused: str,
        *,
        locale: str | None = None,
    ) -> InjectedInteraction:
        """Type into option ``focused`` (its partial value is ``options[focused]``); await
        ``autocomplete_choices()`` on the result."""
        who = self.world.user(user)
        data = self._command_data(who, channel, command, options, focused, False)
        payload = self._interaction_payload(AUTOCOMPLETE, who, channel, data, locale)
        return await self._inject(payload, who, channel, command=command)

    async def click(
        self,
        user: User | int | str,
        message: Message,
        button: Component | str | None = None,
        *,
        label: str | None = None,
        locale: str | None = None,
        stale: bool = False,
        forged: bool = False,
    ) -> InjectedInteraction:
        """Click a button on a message: a Component, a custom_id (or a prefix ending in ':'),
        or ``label=``. ``stale``: a Component the message showed before an edit the user's
        screen has not caught up with (Discord sends the message as it is now). ``forged``:
        a custom_id the message never showed, as a modified client can send (Discord
        delivers it: it does not check a click's custom_id against the message)."""
        who = self.world.user(user)
        if isinstance(button, Component):
            component = button
        elif forged:
            if not button:
                raise EmulatorError("a forged click names its custom_id")
            component = Component(BUTTON, {"type": BUTTON, "custom_id": button})
        else:
            component = message.button(label, custom_id=button)
        if stale or forged:
            self._check_can_see(who, message)
        else:
            self._check_can_use(who, message, component)
        data = {"custom_id": component.custom_id, "component_type": component.type}
        channel = self.world.channel(message.channel_id)
        payload = self._interaction_payload(MESSAGE_COMPONENT, who, channel, data, locale, message)
        return await self._inject(payload, who, channel, source=message)

    async def choose(
        self,
        user: User | int | str,
        message: Message,
        values: Iterable[Any] | str,
        select: Component | str | None = None,
        *,
        locale: str | None = None,
        forged: bool = False,
    ) -> InjectedInteraction:
        """Pick ``values`` in a select menu (option values for a string select; users, roles
        or channels, as objects or ids, for the other selects). ``forged``: string values
        that are no option of the menu, or (``select`` a custom_id) a string select the
        message never showed, as a modified client could send."""
        who = self.world.user(user)
        picked = [values] if isinstance(values, str) else list(values)
        if forged and isinstance(select, str) and select not in message.custom_ids:
            self._check_can_see(who, message)
            data = {"custom_id": select, "component_type": STRING_SELECT, "values": picked}
            channel = self.world.channel(message.channel_id)
            payload = self._interaction_payload(
                MESSAGE_COMPONENT, who, channel, data, locale, message
            )
            return await self._inject(payload, who, channel, source=message)
        component = select if isinstance(select, Component) else message.select(select)
        self._check_can_use(who, message, component)
        low = component.raw.get("min_values", 1)
        high = component.raw.get("max_values", 1)
        if not low <= len(picked) <= high:
            raise EmulatorError(f"{component!r} takes {low} to {high} values, not {len(picked)}")
        data: dict[str, Any] = {"custom_id": component.custom_id, "component_type": component.type}
        channel = self.world.channel(message.channel_id)
        guild = self.world.guild_of(channel)
        if component.type == STRING_SELECT:
            unknown = [v for v in picked if v not in component.values]
            if unknown and not forged:
                raise EmulatorError(f"{unknown} are not options of {component!r}")
            data["values"] = picked
        else:
            resolved: dict[str, dict[str, Any]] = {}
            what = SELECT_RESOLVES[component.type]
            data["values"] = [resolve(self.world, v, what, guild, resolved) for v in picked]
            data["resolved"] = resolved
        payload = self._interaction_payload(MESSAGE_COMPONENT, who, channel, data, locale, message)
        return await self._inject(payload, who, channel, source=message)

    async def submit_modal(
        self,
        shown: InjectedInteraction,
        values: Mapping[str, str | list[str]],
        *,
        locale: str | None = None,
    ) -> InjectedInteraction:
        """Fill and submit the modal the bot answered ``shown`` with (text inputs by custom_id;
        a list for a select in the modal). Fields left out are sent empty."""
        if shown.modal is None:
            raise EmulatorError(f"the bot showed no modal for {shown!r}")

        def filled(component: dict[str, Any]) -> dict[str, Any]:
            value = values.get(component.get("custom_id", ""), "")
            answer = {"type": component["type"], "custom_id": component.get("custom_id")}
            if component["type"] in SELECTS:
                answer["values"] = [value] if isinstance(value, str) else list(value)
            else:
                answer["value"] = value if isinstance(value, str) else "".join(value)
            return answer

        components: list[dict[str, Any]] = []
        for top in shown.modal.get("components", []):
            if top.get("type") == 1:
                components.append({"type": 1, "components": [filled(c) for c in top["components"]]})
            elif top.get("type") == 18:
                components.append({"type": 18, "component": filled(top["component"])})
        data = {"custom_id": shown.modal["custom_id"], "components": components}
        payload = self._interaction_payload(
            MODAL_SUBMIT, shown.user, shown.channel, data, locale, shown.source
        )
        return await self._inject(payload, shown.user, shown.channel, source=shown.source)

    async def react(
        self, user: User | int | str, message: Message, emoji: str, *, burst: bool = False
    ) -> InjectedEvent:
        """``user`` adds a reaction (unicode, or "name:id" for a custom emoji)."""
        who = self.world.user(user)
        self._check_can_see(who, message, reacting=True)
        self._check_not_archived(self.world.channel(message.channel_id), "react in")
        users = message.reactions.setdefault(emoji, [])
        if who.id in users:
            raise EmulatorError(f"{who.name} already reacted {emoji} on message {message.id}")
        users.append(who.id)
        return await self._reaction_event("MESSAGE_REACTION_ADD", who, message, emoji, burst)

    async def say(self, user: User | int | str, channel: Channel, content: str) -> InjectedEvent:
        """``user`` posts ``content`` in ``channel`` (a guild channel). As on Discord, the bot
        gets the message only with the GUILD_MESSAGES intent, and its text only when it is
        mentioned in it (or holds the privileged MESSAGE_CONTENT intent). The message is not
        kept in the transcript, which holds the bot's messages."""
        who = self.world.user(user)
        guild = self.world.guild_of(channel)
        if guild is None or who.id not in guild.members:
            raise EmulatorError(f"{who.name} cannot post in {channel!r}")
        if self._archived(channel):
            if channel.locked:
                raise EmulatorError(f"{channel.name!r} is archived and locked: nobody posts")
            await self._unarchive(channel)  # a message posted in a thread unarchives it
        channel.active_at = self.now()
        mentioned = [int(found) for found in re.findall(r"<@!?(\d+)>", content)]
        self._live_session()
        sessions = [s for s in self._audience(guild.id) if s.intents & GUILD_MESSAGES]
        message: dict[str, Any] = {
            "id": str(self.snowflakes.next()),
            "type": 0,
            "channel_id": str(channel.id),
            "guild_id": str(guild.id),
            "author": who.payload(),
            "member": guild.member(who).payload(with_user=False),
            "content": content,
            "timestamp": now_iso(self._offset),
            "edited_timestamp": None,
            "tts": False,
            "mention_everyone": False,
            "mentions": [self._user_payload(m) for m in mentioned],
            "mention_roles": [],
            "attachments": [],
            "embeds": [],
            "components": [],
            "pinned": False,
            "flags": 0,
        }

        def seen_by(session: GatewaySession | None) -> dict[str, Any]:
            if session is not None and (
                MESSAGE_CONTENT & session.intents or self.world.bot.id in mentioned
            ):
                return message
            return {**message, "content": "", "mentions": []}

        event = InjectedEvent(self, "MESSAGE_CREATE", seen_by(sessions[-1] if sessions else None))
        self.events.append(event)
        for session in sessions:
            event.delivered |= await self._dispatch(session, "MESSAGE_CREATE", seen_by(session))
        return event

    def _echo(self, name: str, message: Message) -> None:
        """As Discord does, tell the sessions of the message's guild that hold the
        GUILD_MESSAGES intent that the bot posted, edited or deleted a message there
        (MESSAGE_CREATE, MESSAGE_UPDATE, MESSAGE_DELETE), as the REST call is answered.
        Ephemeral messages are nobody's but their reader's: no event."""
        if not self.echo_bot_messages or message.ephemeral or message.guild_id is None:
            return
        sessions = [s for s in self._audience(message.guild_id) if s.intents & GUILD_MESSAGES]
        if not sessions:
            return
        ids = {"id": str(message.id), "channel_id": str(message.channel_id)}
        where = {"guild_id": str(message.guild_id)}
        if name == "MESSAGE_DELETE":
            payload = {**ids, **where}
        else:  # the bot's own message: its text reaches it whatever its intents
            payload = {**message.payload(self.world.bot.payload()), **where}

        async def send() -> None:
            for session in sessions:
                await self._dispatch(session, name, payload)

        task = asyncio.create_task(send())
        self._echoes.add(task)
        task.add_done_callback(self._echoes.discard)

    def _user_payload(self, user_id: int) -> dict[str, Any]:
        bot = self.world.bot
        return bot.payload() if user_id == bot.id else self.world.user(user_id).payload()

    async def unreact(
        self, user: User | int | str, message: Message, emoji: str, *, burst: bool = False
    ) -> InjectedEvent:
        who = self.world.user(user)
        users = message.reactions.get(emoji, [])
        if who.id not in users:
            raise EmulatorError(f"{who.name} has no {emoji} reaction on message {message.id}")
        users.remove(who.id)
        return await self._reaction_event("MESSAGE_REACTION_REMOVE", who, message, emoji, burst)

    # --- building interaction payloads -----------------------------------------------------

    def _interaction_payload(
        self,
        kind: int,
        user: User,
        channel: Channel,
        data: dict[str, Any],
        locale: str | None,
        message: Message | None = None,
    ) -> dict[str, Any]:
        guild = self.world.guild_of(channel)
        self._archived(channel)  # its payload says whether it is archived now
        payload: dict[str, Any] = {
            "id": str(self.snowflakes.next()),
            "application_id": str(self.world.application_id),
            "type": kind,
            "data": data,
            "channel_id": str(channel.id),
            "token": f"emulated-{secrets.token_urlsafe(48)}",
            "version": 1,
            "locale": locale or user.locale,
            "entitlements": [],
            "attachment_size_limit": 10 * 1024 * 1024,
        }
        if guild is None:
            payload["channel"] = channel.payload()
            payload["user"] = user.payload()
            payload["context"] = 1  # BOT_DM
            payload["app_permissions"] = str(VIEW_CHANNEL | SEND_MESSAGES | ADD_REACTIONS)
            payload["authorizing_integration_owners"] = {"0": "0"}
        else:
            if user.id not in guild.members:
                raise EmulatorError(f"{user.name} is not a member of {guild.name}")
            permissions = guild.permissions(user, channel)
            payload["channel"] = {**channel.payload(), "permissions": str(permissions)}
            payload["guild_id"] = str(guild.id)
            payload["guild"] = {
                "id": str(guild.id),
                "locale": guild.preferred_locale,
                "features": [],
            }
            payload["guild_locale"] = guild.preferred_locale
            payload["member"] = guild.member(user).payload(permissions=permissions)
            payload["context"] = 0  # GUILD
            payload["app_permissions"] = str(guild.permissions(self.world.bot, channel))
            payload["authorizing_integration_owners"] = {"0": str(guild.id)}
        if message is not None:
            payload["message"] = message.payload(self.world.bot.payload())
        return payload

    async def _inject(
        self,
        payload: dict[str, Any],
        user: User,
        channel: Channel,
        *,
        source: Message | None = None,
        command: str | None = None,
    ) -> InjectedInteraction:
        self._live_session()
        await self._settle_archive(channel)  # Discord told of it when it happened
        interaction = InjectedInteraction(
            self, payload, user, channel, source=source, command=command
        )
        self.interactions.append(interaction)
        self._by_id[interaction.id] = interaction
        self._by_token[interaction.token] = interaction
        interaction.injected_at = self.now()
        interaction.deadline_at = interaction.injected_at + self.response_deadline
        interaction.token_expires_at = interaction.injected_at + self.token_lifetime
        loop = asyncio.get_running_loop()
        loop.call_later(self.response_deadline + 0.001, self._check_deadline, interaction)
        # No session on the guild's shard: Discord drops the interaction (it does not queue it),
        # and the user sees it fail once the window closes.
        for session in self._audience(interaction.guild_id):
            sent = await self._dispatch(session, "INTERACTION_CREATE", payload)
            interaction.delivered |= sent
        return interaction

    def _check_deadline(self, interaction: InjectedInteraction) -> None:
        if interaction.callback is None and self.now() >= interaction.deadline_at:
            interaction.expired = True
            self._notify()

    def _live_session(self, shard: int | None = None) -> GatewaySession:
        session = self.session if shard is None else self.session_on(shard)
        if session is None:
            where = "" if shard is None else f" on shard {shard}"
            raise EmulatorError(f"the bot is not connected to the gateway{where}")
        return session

    def _audience(self, guild_id: int | None) -> list[GatewaySession]:
        """The open sessions Discord sends a guild's events to (a DM's: shard 0's)."""
        return [s for s in self.open_sessions() if s.owns(guild_id)]

    async def _dispatch(self, session: GatewaySession, name: str, payload: dict[str, Any]) -> bool:
        """Send an event; False when the session turns out to be gone (a killed process whose
        connection the emulator has not seen close yet): Discord loses that event too."""
        try:
            await session.send(0, payload, name)
        except ConnectionResetError:
            session.closed = True
            self._notify()
            return False
        return True

    def _command_data(
        self,
        user: User,
        channel: Channel,
        command: str,
        options: Mapping[str, Any],
        focused: str | None,
        allow_unknown: bool,
        *,
        forged: bool = False,
    ) -> dict[str, Any]:
        guild = self.world.guild_of(channel)
        name = command.split()[0]
        definition = find_command(self.commands, name, guild.id if guild else None)
        if definition is None:
            if not allow_unknown:
                raise EmulatorError(
                    f"no synced command /{name} here; synced: {self.command_names()} "
                    "(allow_unknown=True sends it anyway)"
                )
            definition = improvised_command(self.snowflakes.next(), command, options)
        check_available(user, guild, definition)
        return interaction_data(
            self.world, definition, command, options, guild, focused, forged=forged
        )

    def _check_can_see(self, user: User, message: Message, *, reacting: bool = False) -> None:
        if message.deleted:
            raise EmulatorError(f"message {message.id} was deleted")
        recipient = self.transcript.dm_recipients.get(message.channel_id)
        if not message.visible_to(user.id, dm_recipient=recipient):
            raise EmulatorError(f"{user.name} cannot see message {message.id}")
        if reacting and message.ephemeral:
            raise EmulatorError("nobody can react to an ephemeral message")
        channel = self.world.channel(message.channel_id)
        guild = self.world.guild_of(channel)
        if guild is not None and user.id not in guild.members:
            raise EmulatorError(f"{user.name} is not a member of {guild.name}")

    def _check_not_archived(self, channel: Channel, what: str) -> None:
        """Users cannot use commands or react in an archived thread (Discord's client offers
        neither); they may still click a button there, and post, which unarchives it."""
        if self._archived(channel):
            raise EmulatorError(f"nobody can {what} the archived thread {channel.name!r}")

    def _archived(self, channel: Channel) -> bool:
        """Whether ``channel`` is an archived thread: archived by a call, or by Discord once
        its auto-archive duration passed without a message."""
        if not channel.is_thread:
            return False
        if not channel.archived and self._archive_due(channel):
            channel.archived = True
            self._later(self._thread_changed(channel))
        return channel.archived

    async def archive(self, thread: Channel) -> None:
        """Archive ``thread`` as Discord does once its auto-archive duration passed without a
        message (THREAD_UPDATE to the bot's sessions)."""
        if not thread.is_thread:
            raise EmulatorError(f"{thread.name!r} is not a thread")
        thread.active_at = self.now() - thread.auto_archive_duration * 60
        await self._settle_archive(thread)

    async def _settle_archive(self, channel: Channel) -> None:
        """A thread whose auto-archive fell due is archived now, its THREAD_UPDATE sent."""
        if channel.is_thread and not channel.archived and self._archive_due(channel):
            channel.archived = True
            await self._thread_changed(channel)

    def _archive_due(self, channel: Channel) -> bool:
        return self.now() - channel.active_at >= channel.auto_archive_duration * 60

    def _refuse_archived(self, channel: Channel) -> None:
        """An archived thread is read-only: an edit, a deletion or a reaction there is 50083."""
        if self._archived(channel):
            raise _fail(THREAD_ARCHIVED)

    async def _unarchive(self, channel: Channel) -> None:
        channel.archived = False
        await self._thread_changed(channel)

    async def _thread_changed(self, channel: Channel) -> None:
        guild = self.world.guild_of(channel)
        if guild is not None:
            await self._guild_event(guild, "THREAD_UPDATE", channel.payload())

    def _later(self, step: Awaitable[None]) -> None:
        """Run ``step`` once the current request is answered (events Discord sends as it does
        something), keeping its task until it is done."""

        async def run() -> None:
            await step

        task = asyncio.create_task(run())
        self._echoes.add(task)
        task.add_done_callback(self._echoes.discard)

    def _check_can_use(self, user: User, message: Message, component: Component) -> None:
        self._check_can_see(user, message)
        if component.raw not in [c.raw for c in message.all_components()]:
            raise EmulatorError(f"{component!r} is not on message {message.id} (any more)")
        if not component.clickable:
            raise EmulatorError(f"{component!r} is disabled or a link: clicking sends nothing")

    def _reaction_payload(
        self, name: str, user: User, message: Message, emoji: str, burst: bool = False
    ) -> dict[str, Any]:
        emoji_name, _, emoji_id = emoji.partition(":")
        payload: dict[str, Any] = {
            "user_id": str(user.id),
            "channel_id": str(message.channel_id),
            "message_id": str(message.id),
            "emoji": {"id": emoji_id or None, "name": emoji_name},
            "burst": burst,
            "type": 1 if burst else 0,  # discord.py >= 2.4 requires "type"
        }
        if name == "MESSAGE_REACTION_ADD":
            payload["message_author_id"] = str(message.author_id)
            payload["burst_colors"] = []
        if message.guild_id is not None:
            guild = self.world.guild(message.guild_id)
            payload["guild_id"] = str(guild.id)
            if name == "MESSAGE_REACTION_ADD":
                payload["member"] = guild.member(user).payload()
        return payload

    async def _reaction_event(
        self, name: str, user: User, message: Message, emoji: str, burst: bool
    ) -> InjectedEvent:
        event = InjectedEvent(self, name, self._reaction_payload(name, user, message, emoji, burst))
        self.events.append(event)
        self._live_session()
        event.delivered = await self._send_reaction(name, event.payload, message)
        return event

    async def _send_reaction(self, name: str, payload: dict[str, Any], message: Message) -> bool:
        """Send a reaction event to the sessions that subscribed to it (as Discord does: no
        intent, no event, and a test's ``InjectedEvent.delivered`` says so)."""
        intent = DIRECT_MESSAGE_REACTIONS if message.guild_id is None else GUILD_MESSAGE_REACTIONS
        delivered = False
        for session in self._audience(message.guild_id):
            if session.intents & intent:
                delivered |= await self._dispatch(session, name, payload)
        return delivered

    async def _bot_reaction_changed(
        self, name: str, message: Message, emoji: str, user: User
    ) -> None:
        # Discord tells the bot about reactions it adds or removes itself (bots must ignore them).
        payload = self._reaction_payload(name, user, message, emoji)
        await self._send_reaction(name, payload, message)

    # --- HTTP plumbing ---------------------------------------------------------------------

    def _build_app(self) -> web.Application:
        app = web.Application(middlewares=[self._middleware], client_max_size=64 * 1024 * 1024)
        api = "/api/v10"
        routes: list[tuple[str, str, Callable[[web.Request], Awaitable[web.StreamResponse]]]] = [
            ("GET", "/", self._gateway),
            ("GET", f"{api}/gateway", self._get_gateway),
            ("GET", f"{api}/gateway/bot", self._get_gateway),
            ("GET", f"{api}/users/@me", self._get_me),
            ("GET", f"{api}/users/{{user_id}}", self._get_user),
            ("POST", f"{api}/users/@me/channels", self._create_dm),
            ("GET", f"{api}/oauth2/applications/@me", self._get_application),
            ("GET", f"{api}/applications/@me", self._get_application),
            ("GET", f"{api}/applications/{{app}}/commands", self._get_commands),
            ("PUT", f"{api}/applications/{{app}}/commands", self._put_commands),
            ("GET", f"{api}/applications/{{app}}/guilds/{{guild}}/commands", self._get_commands),
            ("PUT", f"{api}/applications/{{app}}/guilds/{{guild}}/commands", self._put_commands),
            ("POST", f"{api}/interactions/{{id}}/{{token}}/callback", self._callback),
            ("POST", f"{api}/webhooks/{{app}}/{{token}}", self._followup),
            ("GET", f"{api}/webhooks/{{app}}/{{token}}/messages/{{message}}", self._webhook_get),
            ("PATCH", f"{api}/webhooks/{{app}}/{{token}}/messages/{{message}}", self._webhook_edit),
            ("DELETE", f"{api}/webhooks/{{app}}/{{token}}/messages/{{message}}", self._webhook_del),
            ("GET", f"{api}/channels/{{channel}}", self._get_channel),
            ("PATCH", f"{api}/channels/{{channel}}", self._patch_channel),
            ("POST", f"{api}/channels/{{channel}}/threads", self._start_thread),
            ("POST", f"{api}/channels/{{channel}}/typing", self._typing),
            ("GET", f"{api}/channels/{{channel}}/messages", self._history),
            ("POST", f"{api}/channels/{{channel}}/messages", self._post_message),
            ("GET", f"{api}/channels/{{channel}}/messages/{{message}}", self._get_message),
            ("PATCH", f"{api}/channels/{{channel}}/messages/{{message}}", self._patch_message),
            ("DELETE", f"{api}/channels/{{channel}}/messages/{{message}}", self._delete_message),
            ("DELETE", f"{api}/channels/{{channel}}/messages/{{message}}/reactions", self._clear),
            (
                "GET",
                f"{api}/channels/{{channel}}/messages/{{message}}/reactions/{{emoji}}",
                self._reactors,
            ),
            (
                "DELETE",
                f"{api}/channels/{{channel}}/messages/{{message}}/reactions/{{emoji}}",
                self._clear,
            ),
            (
                "PUT",
                f"{api}/channels/{{channel}}/messages/{{message}}/reactions/{{emoji}}/{{user}}",
                self._bot_react,
            ),
            (
                "DELETE",
                f"{api}/channels/{{channel}}/messages/{{message}}/reactions/{{emoji}}/{{user}}",
                self._remove_reaction,
            ),
            ("GET", f"{api}/guilds/{{guild}}", self._get_guild),
            ("GET", f"{api}/guilds/{{guild}}/channels", self._get_guild_channels),
            ("GET", f"{api}/guilds/{{guild}}/roles", self._get_roles),
            ("GET", f"{api}/guilds/{{guild}}/members/{{user_id}}", self._get_member),
        ]
        for method, path, handler in routes:
            app.router.add_route(method, path, handler)
        app.router.add_route("*", "/{tail:.*}", self._unhandled)
        return app

    @web.middleware
    async def _middleware(
        self,
        request: web.Request,
        handler: Callable[[web.Request], Awaitable[web.StreamResponse]],
    ) -> web.StreamResponse:
        if request.path == "/":  # the gateway websocket
            return await handler(request)
        held = next((hold for hold in self.holds if hold.catches(request)), None)
        if held is not None:
            held.caught = True
            if not held.processed:
                await self._held(held, request)
        call = HttpCall(request.method, request.path, 0, self.now())
        self.calls.append(call)
        limits: dict[str, str] = {}
        try:
            # Interaction answers go by their token, not the bot's: no bot auth, no bot bucket.
            bot_route = globally_limited(request.path)
            if bot_route and request.headers.get("Authorization") != f"Bot {self.token}":
                raise DiscordHTTPError(401, 0, "401: Unauthorized")
            if self._limiter is not None:
                limits, refused = (
                    self._rate_limit(request, call.at)
                    if bot_route
                    else self._interaction_limit(request, call.at)
                )
                if refused is not None:
                    raise DiscordHTTPError(429, 0, "You are being rate limited.", refused)
            response = await handler(request)
        except DiscordHTTPError as error:
            call.error = error.body
            response = json_response(error.body, error.status)
        except Exception as error:  # a bug in the emulator: fail the test, never a 5xx
            # (discord.py retries 5xx answers after sleeping, which would only slow the test).
            self.internal_errors.append(f"{request.method} {request.path}: {error!r}")
            call.error = {"message": f"emulator bug: {error!r}", "code": 0}
            response = json_response(call.error, 400)
        response.headers.update(limits)
        call.status = response.status
        self._count_invalid(call, response)
        self._notify()
        if held is not None and held.processed:
            await self._held(held, request)
        return response

    async def _held(self, held: Hold, request: web.Request) -> None:
        held.path = request.path
        self._notify()
        await held.released.wait()

    def _rate_limit(
        self, request: web.Request, now: float
    ) -> tuple[dict[str, str], dict[str, Any] | None]:
        """Count the request in its bucket: the headers to answer with, and the 429 body when
        the bucket (or the channel's shared write limit) is empty."""
        assert self._limiter is not None
        template = request.match_info.route.resource.canonical  # type: ignore[union-attr]
        params = dict(request.match_info)
        if "channel" in params and "guild" not in params:  # a per-server bucket reads it
            guild = self._guild_of_channel(params["channel"])
            if guild is not None:
                params["guild"] = str(guild)
        verdict = self._limiter.check(
            request.method,
            request.path,
            template.removeprefix("/api/v10"),
            params,
            now,
            time.time() + self._offset,
            token=request.headers.get("Authorization", "").removeprefix("Bot "),
        )
        if verdict.hit is not None:
            self.rate_limited.append(verdict.hit)
        return verdict.headers, verdict.refused

    def _interaction_limit(
        self, request: web.Request, now: float
    ) -> tuple[dict[str, str], dict[str, Any] | None]:
        """Count a call of the interaction endpoints in its token's bucket, and a followup in
        its channel's webhook messages too (``ratelimits.Limiter.check_interaction``)."""
        assert self._limiter is not None
        token = request.match_info.get("token", "")
        interaction = self._by_token.get(token)
        if interaction is None:
            return {}, None  # the route answers it as unknown
        creates = request.method == "POST" and request.path.startswith("/api/v10/webhooks/")
        verdict = self._limiter.check_interaction(
            request.method,
            request.path,
            token,
            interaction.channel.id,
            now,
            time.time() + self._offset,
            creates=creates,
        )
        if verdict.hit is not None:
            self.rate_limited.append(verdict.hit)
        return verdict.headers, verdict.refused

    def _count_invalid(self, call: HttpCall, response: web.StreamResponse) -> None:
        """Discord bans an IP past 10,000 invalid requests in 10 minutes: every 401 and 403,
        and every 429 but those of a shared limit."""
        scope = response.headers.get("X-RateLimit-Scope")
        if response.status in (401, 403) or (response.status == 429 and scope != "shared"):
            self.invalid_requests.append(call)

    def invalid_per_window(self, window: float = INVALID_WINDOW) -> int:
        """The most invalid requests (``invalid_requests``) any ``window`` seconds held."""
        times = sorted(call.at for call in self.invalid_requests)
        most, first = 0, 0
        for last, at in enumerate(times):
            while at - times[first] >= window:
                first += 1
            most = max(most, last - first + 1)
        return most

    def _guild_of_channel(self, channel_id: str) -> int | None:
        """The server of a channel (or thread) given by its id in a path, if known."""
        try:
            guild = self.world.guild_of(self.world.channel(int(channel_id)))
        except (LookupError, ValueError):
            return None
        return None if guild is None else guild.id

    async def _body(self, request: web.Request) -> tuple[dict[str, Any], list[Upload]]:
        """A JSON body, or a multipart one (``payload_json`` plus ``files[n]`` parts)."""
        if request.content_type == "multipart/form-data":
            payload: dict[str, Any] = {}
            uploads: list[Upload] = []
            reader = await request.multipart()
            while (part := await reader.next()) is not None:
                if not isinstance(part, BodyPartReader):
                    raise DiscordHTTPError(400, 0, "nested multipart bodies are not emulated")
                if part.name == "payload_json":
                    payload = json.loads(await part.text())
                elif part.filename is not None:
                    content = bytes(await part.read())
                    content_type = part.headers.get("Content-Type")
                    uploads.append(Upload(part.name or "", part.filename, content, content_type))
                else:
                    payload[part.name or ""] = await part.text()
            return payload, uploads
        if not request.can_read_body:
            return {}, []
        body = await request.json()
        return (body if isinstance(body, dict) else {"_list": body}), []

    async def _unhandled(self, request: web.Request) -> web.StreamResponse:
        self.unhandled.append(f"{request.method} {request.path}")
        raise DiscordHTTPError(404, 0, "404: Not Found (not emulated)")

    # --- gateway ---------------------------------------------------------------------------

    async def _gateway(self, request: web.Request) -> web.StreamResponse:
        ws = web.WebSocketResponse(autoping=True)
        await ws.prepare(request)
        session = GatewaySession(id=secrets.token_hex(16), ws=ws, connected_at=self.now())
        self.sessions.append(session)
        try:
            await session.send(10, {"heartbeat_interval": self.heartbeat_interval_ms})
            async for frame in ws:
                if frame.type != WSMsgType.TEXT:
                    break
                await self._gateway_op(session, json.loads(frame.data))
        except ConnectionResetError:
            pass  # the bot was killed: nothing to answer any more
        except Exception as error:
            self.internal_errors.append(f"gateway: {error!r}")
        finally:
            session.closed = True
            self._notify()
        return ws

    async def _gateway_op(self, session: GatewaySession, frame: dict[str, Any]) -> None:
        op = frame.get("op")
        data: Any = frame.get("d")
        if op == 1:  # heartbeat (the bot's own, or its answer to ping())
            for pending in session.pings:
                if not pending.done():
                    pending.set_result(self.now())
            session.pings.clear()
            await session.send(11, None)
        elif op == 2:  # identify
            refusal = self._identify(session, data)
            if refusal == identifies.CONCURRENCY:
                await session.send(9, False)
                return
            if refusal is not None:
                code, reason = IDENTIFY_CLOSES[refusal]
                await session.ws.close(code=code, message=reason)
                return
            session.identify = data
            session.intents = int(data.get("intents", 0))
            session.identified_at = self.now()
            self._notify()
            await self._ready(session)
        elif op == 6:  # resume: the emulator keeps no backlog, so it resumes with nothing missed
            known = next(
                (
                    s
                    for s in self.sessions
                    if s.id == data.get("session_id") and s.identified_at is not None
                ),
                None,
            )
            if known is not None and data.get("token") == self.token:
                session.shard = known.shard
                session.identify = data
                session.identified_at = self.now()
                await session.send(0, {}, "RESUMED")
            else:
                await session.send(9, False)
        elif op == 8:  # request guild members
            await self._members_chunk(session, data)
        elif op in (3, 4):  # presence and voice state updates: nothing to emulate
            pass
        else:
            await session.ws.close(code=4001, message=b"Unknown opcode.")
        self._notify()

    def reset_token(self) -> None:
        """Discord resets the bot's token (as when the day's identifies run out): the old one
        fails from now on (4004 on IDENTIFY, 401 on REST); ``self.token`` is the new one."""
        self.revoked_tokens.append(self.token)
        self.token = f"reset-{secrets.token_hex(16)}"

    def _identify(self, session: GatewaySession, data: Any) -> str | None:
        """Check an IDENTIFY and record it (``self.identifies``): None to accept it, else why
        it is refused (see identifies.py). Sets ``session.shard`` once the shard is valid."""
        sent = data.get("shard", [0, 1])
        shard_id = sent[0] if isinstance(sent, list) and sent and isinstance(sent[0], int) else 0
        refusal = None
        if data.get("token") != self.token:
            revoked = data.get("token") in self.revoked_tokens
            refusal = identifies.EXHAUSTED if revoked else identifies.BAD_TOKEN
        else:
            refusal = self.session_start.spend(shard_id, self.now())
            if self.session_start.remaining == 0:  # the last one: Discord resets the token
                self.reset_token()
        if refusal is None:
            shard = self._shard(sent)
            if shard is None:
                refusal = identifies.INVALID_SHARD
            else:
                session.shard = shard
                if len(self._guilds_of(session)) > self.guilds_per_shard:
                    refusal = identifies.SHARDING_REQUIRED
        pair = isinstance(sent, list) and len(sent) == 2
        recorded = (sent[0], sent[1]) if pair else (shard_id, 0)
        self.identifies.append(
            Identify(
                at=self.now(),
                shard=recorded,
                bucket=self.session_start.bucket(shard_id),
                outcome=refusal or identifies.READY,
                session_id=session.id,
            )
        )
        return refusal

    def _shard(self, shard: Any) -> tuple[int, int] | None:
        """A valid ``[id, count]``, or None: an id out of range, or a count other than the one
        the bot's other open sessions use (then some servers would have two shards, or none)."""
        if not (
            isinstance(shard, list)
            and len(shard) == 2
            and all(isinstance(n, int) and not isinstance(n, bool) for n in shard)
        ):
            return None
        shard_id, count = shard
        if not 0 <= shard_id < count:
            return None
        if any(s.shard[1] != count for s in self.open_sessions()):
            return None
        return shard_id, count

    def _guilds_of(self, session: GatewaySession) -> list[Guild]:
        bot = self.world.bot
        return [g for g in self.world.guilds.values() if bot.id in g.members and session.owns(g.id)]

    async def _ready(self, session: GatewaySession) -> None:
        bot = self.world.bot
        guilds = self._guilds_of(session)
        await session.send(
            0,
            {
                "v": 10,
                "user": {**bot.payload(), "verified": True, "mfa_enabled": False, "email": None},
                "guilds": [{"id": str(g.id), "unavailable": True} for g in guilds],
                "session_id": session.id,
                "shard": list(session.shard),
                "session_type": "normal",
                "resume_gateway_url": self.gateway_url,
                "application": {"id": str(self.world.application_id), "flags": 0},
                "private_channels": [],
                "relationships": [],
                "presences": [],
                "guild_join_requests": [],
                "geo_ordered_rtc_regions": [],
                "user_settings": {},
                "auth": {},
            },
            "READY",
        )
        for guild in guilds:
            await session.send(0, guild.payload(), "GUILD_CREATE")
        session.guilds_sent_at = self.now()

    async def _members_chunk(self, session: GatewaySession, data: dict[str, Any]) -> None:
        guild = self.world.guild(int(data["guild_id"]))
        wanted = {int(u) for u in data.get("user_ids") or []}
        query = (data.get("query") or "").lower()
        members = [
            m.payload()
            for m in guild.members.values()
            if (not wanted or m.user.id in wanted) and m.user.name.lower().startswith(query)
        ]
        limit = data.get("limit") or 0
        chunk = {
            "guild_id": str(guild.id),
            "members": members[:limit] if limit else members,
            "chunk_index": 0,
            "chunk_count": 1,
            "not_found": [],
        }
        if data.get("nonce"):
            chunk["nonce"] = data["nonce"]
        await session.send(0, chunk, "GUILD_MEMBERS_CHUNK")

    async def _get_gateway(self, request: web.Request) -> web.StreamResponse:
        return json_response(
            {
                "url": self.gateway_url.rstrip("/"),
                "shards": self.shards,
                "session_start_limit": self.session_start.payload(self.now()),
            }
        )

    # --- REST: login and lookups -----------------------------------------------------------

    async def _get_me(self, request: web.Request) -> web.StreamResponse:
        return json_response({**self.world.bot.payload(), "verified": True, "mfa_enabled": False})

    async def _get_user(self, request: web.Request) -> web.StreamResponse:
        try:
            user = self.world.user(int(request.match_info["user_id"]))
        except (LookupError, ValueError):
            raise DiscordHTTPError(404, 10013, "Unknown User") from None
        return json_response(user.payload())

    async def _get_application(self, request: web.Request) -> web.StreamResponse:
        owner = self.world.users.get("patron") or next(iter(self.world.users.values()), None)
        return json_response(
            {
                "id": str(self.world.application_id),
                "name": self.world.bot.name,
                "icon": None,
                "description": "",
                "rpc_origins": [],
                "bot_public": True,
                "bot_require_code_grant": False,
                "bot": self.world.bot.payload(),
                "owner": (owner or self.world.bot).payload(),
                "summary": "",
                "verify_key": "0" * 64,
                "team": None,
                "flags": 0,
                "tags": [],
                "interactions_endpoint_url": None,
                "redirect_uris": [],
                "approximate_guild_count": len(self.world.guilds),
            }
        )

    def _channel(self, request: web.Request) -> Channel:
        """The channel a route names: 404 10003 once deleted, 403 50001 in a server the bot
        is no longer in."""
        try:
            channel = self.world.channel(int(request.match_info["channel"]))
        except (LookupError, ValueError):
            raise _fail(UNKNOWN_CHANNEL) from None
        guild = self.world.guild_of(channel)
        if guild is not None and self.world.bot.id not in guild.members:
            raise _fail(MISSING_ACCESS)
        return channel

    def _guild(self, request: web.Request) -> Guild:
        try:
            guild = self.world.guild(int(request.match_info["guild"]))
        except (LookupError, ValueError):
            raise DiscordHTTPError(404, 10004, "Unknown Guild") from None
        if self.world.bot.id not in guild.members:
            raise _fail(MISSING_ACCESS)
        return guild

    async def _get_channel(self, request: web.Request) -> web.StreamResponse:
        return json_response(self._channel(request).payload())

    async def _start_thread(self, request: web.Request) -> web.StreamResponse:
        """A thread started without a message: a public (or private) one from a text channel,
        an announcement thread from an announcement channel."""
        channel = self._channel(request)
        guild = self.world.guild_of(channel)
        if guild is None or channel.is_thread:
            raise DiscordHTTPError(400, 50024, "Cannot execute action on this channel type")
        self._bot_needs(channel, CREATE_PUBLIC_THREADS)
        body, _ = await self._body(request)
        name = str(body.get("name") or "")
        duration = body.get("auto_archive_duration", 1440)  # the channel's default: a day
        kind = int(body.get("type", PRIVATE_THREAD))  # Discord's default: a private thread
        if (
            not 1 <= len(name) <= 100
            or kind not in THREADS_OF.get(channel.type, ())
            or duration not in AUTO_ARCHIVE_MINUTES
        ):
            raise DiscordHTTPError(400, 50035, "Invalid Form Body")
        if kind == PRIVATE_THREAD:
            self._bot_needs(channel, CREATE_PRIVATE_THREADS)
        thread = Channel(
            self.world.new_id(),
            name,
            guild.id,
            kind,
            parent_id=channel.id,
            owner_id=self.world.bot.id,
            auto_archive_duration=duration,
            active_at=self.now(),
        )
        guild.threads.append(thread)
        await self._guild_event(guild, "THREAD_CREATE", {**thread.payload(), "newly_created": True})
        return json_response(thread.payload(), status=201)

    async def _patch_channel(self, request: web.Request) -> web.StreamResponse:
        """A thread archived (or unarchived) by the bot, which started it."""
        channel = self._channel(request)
        guild = self.world.guild_of(channel)
        if guild is None or not channel.is_thread or channel.owner_id != self.world.bot.id:
            raise _fail(MISSING_PERMISSIONS)
        body, _ = await self._body(request)
        if self._archived(channel) and body.get("archived") is not False:
            raise _fail(THREAD_ARCHIVED)  # only unarchiving changes an archived thread
        if "auto_archive_duration" in body:
            if body["auto_archive_duration"] not in AUTO_ARCHIVE_MINUTES:
                raise DiscordHTTPError(400, 50035, "Invalid Form Body")
            channel.auto_archive_duration = int(body["auto_archive_duration"])
        if "archived" in body:
            channel.archived = bool(body["archived"])
            if not channel.archived:
                channel.active_at = self.now()  # its inactivity counts from now
        await self._guild_event(guild, "THREAD_UPDATE", channel.payload())
        return json_response(channel.payload())

    async def _guild_event(self, guild: Guild, name: str, payload: dict[str, Any]) -> None:
        for session in self._audience(guild.id):
            await self._dispatch(session, name, payload)

    async def _create_dm(self, request: web.Request) -> web.StreamResponse:
        body, _ = await self._body(request)
        try:
            channel = self.dm(int(body["recipient_id"]))
        except (LookupError, ValueError, KeyError):
            raise DiscordHTTPError(400, 50033, "Invalid Recipient(s)") from None
        return json_response(channel.payload())

    async def _get_guild(self, request: web.Request) -> web.StreamResponse:
        payload = self._guild(request).payload()
        for key in ("members", "channels", "threads", "presences", "voice_states"):
            payload.pop(key, None)  # REST answers without the gateway-only lists
        return json_response(payload)

    async def _get_guild_channels(self, request: web.Request) -> web.StreamResponse:
        return json_response([c.payload() for c in self._guild(request).channels])

    async def _get_roles(self, request: web.Request) -> web.StreamResponse:
        return json_response([r.payload() for r in self._guild(request).roles])

    async def _get_member(self, request: web.Request) -> web.StreamResponse:
        guild = self._guild(request)
        try:
            member = guild.member(int(request.match_info["user_id"]))
        except (LookupError, ValueError):
            raise DiscordHTTPError(404, 10007, "Unknown Member") from None
        return json_response(member.payload())

    async def _typing(self, request: web.Request) -> web.StreamResponse:
        self._channel(request)
        return web.Response(status=204)

    # --- REST: application commands --------------------------------------------------------

    def _check_app(self, request: web.Request) -> None:
        if request.match_info.get("app") != str(self.world.application_id):
            raise DiscordHTTPError(403, 50001, "Missing Access")

    def _scope(self, request: web.Request) -> int | None:
        self._check_app(request)
        return self._guild(request).id if "guild" in request.match_info else None

    async def _get_commands(self, request: web.Request) -> web.StreamResponse:
        return json_response(self.commands.get(self._scope(request), []))

    async def _put_commands(self, request: web.Request) -> web.StreamResponse:
        scope = self._scope(request)
        body, _ = await self._body(request)
        commands = body.get("_list")
        if not isinstance(commands, list):
            raise _invalid([([], "BASE_TYPE_ARRAY", "Must be an array")])
        problems = commands_problems(commands)
        if problems:
            raise _invalid(problems)
        # Discord keeps a command's id across overwrites when its name and type stay the same.
        previous = {(c["name"], c.get("type", 1)): c["id"] for c in self.commands.get(scope, [])}
        stored = []
        for command in commands:
            kind = command.get("type", 1)
            entry = {
                "type": kind,
                "description": "",
                "options": [],
                "default_member_permissions": None,
                "nsfw": False,
                "integration_types": [0],
                "contexts": None,
                **command,
                "id": previous.get((command["name"], kind)) or str(self.snowflakes.next()),
                "application_id": str(self.world.application_id),
                "version": str(self.snowflakes.next()),
            }
            if scope is not None:
                entry["guild_id"] = str(scope)
            stored.append(entry)
        self.commands[scope] = stored
        self.syncs.append(CommandSync(scope, stored, self.now()))
        return json_response(stored)

    # --- REST: interaction answers ---------------------------------------------------------

    async def _callback(self, request: web.Request) -> web.StreamResponse:
        now = self.now()
        interaction = self._by_id.get(int(request.match_info["id"]))
        if interaction is None or interaction.token != request.match_info["token"]:
            raise _fail(UNKNOWN_INTERACTION)
        try:
            return await self._answer(request, interaction, now)
        except DiscordHTTPError as error:
            interaction.errors.append(
                HttpCall(request.method, request.path, error.status, now, error.body)
            )
            raise

    async def _answer(
        self, request: web.Request, interaction: InjectedInteraction, now: float
    ) -> web.StreamResponse:
        if interaction.first_response_at is None:
            interaction.first_response_at = now
        if interaction.callback is not None:
            raise _fail(ALREADY_ACKNOWLEDGED)
        if now > interaction.token_expires_at:
            raise _fail(INVALID_WEBHOOK_TOKEN)
        if now > interaction.deadline_at:
            interaction.expired = True
            raise _fail(UNKNOWN_INTERACTION)
        body, uploads = await self._body(request)
        kind = body.get("type")
        data = body.get("data") or {}
        if kind not in ALLOWED_CALLBACKS[interaction.type] or (
            kind in (DEFERRED_UPDATE_MESSAGE, UPDATE_MESSAGE) and interaction.source is None
        ):
            raise _invalid([(["type"], "INTERACTION_RESPONSE_TYPE_INVALID", f"type {kind}")])
        resource: dict[str, Any] = {"type": kind}
        message: Message | None = None
        if kind in (CHANNEL_MESSAGE, DEFERRED_CHANNEL_MESSAGE):
            flags = int(data.get("flags") or 0) & INTERACTION_FLAGS
            # A deferred answer is an empty "thinking" message until edited or followed up.
            if kind == DEFERRED_CHANNEL_MESSAGE:
                shown = {"flags": flags | LOADING}
            else:
                shown = {**data, "flags": flags}
            message = self._create(
                interaction.channel,
                shown,
                uploads,
                interaction=interaction,
                allow_empty=kind == DEFERRED_CHANNEL_MESSAGE,
            )
            interaction.original = message
            interaction.followup_replaces_defer = kind == DEFERRED_CHANNEL_MESSAGE
        elif kind == UPDATE_MESSAGE:
            assert interaction.source is not None
            self._refuse_archived(interaction.channel)
            message = self._edit(interaction.source, data, uploads)
            interaction.original = message
            interaction.touch(message)
        elif kind == DEFERRED_UPDATE_MESSAGE:
            interaction.original = interaction.source
        elif kind == AUTOCOMPLETE_RESULT:
            problems = choices_problems(data.get("choices"))
            if problems:
                raise _invalid(problems)
            interaction.choices = Choices(data["choices"])
        elif kind == MODAL:
            problems = modal_problems(data)
            if problems:
                raise _invalid(problems)
            interaction.modal = data
        interaction.callback = Callback(kind, data, now)
        self._notify()
        if request.query.get("with_response") not in ("1", "true", "True"):
            return web.Response(status=204)
        callback_interaction: dict[str, Any] = {"id": str(interaction.id), "type": interaction.type}
        if message is not None:
            resource["message"] = message.payload(self.world.bot.payload())
            callback_interaction.update(
                {
                    "response_message_id": str(message.id),
                    "response_message_loading": message.loading,
                    "response_message_ephemeral": message.ephemeral,
                }
            )
        return json_response({"interaction": callback_interaction, "resource": resource})

    def _by_webhook(self, request: web.Request) -> InjectedInteraction:
        if request.match_info.get("app") != str(self.world.application_id):
            raise _fail(UNKNOWN_WEBHOOK)
        interaction = self._by_token.get(request.match_info["token"])
        if interaction is not None and self.now() > interaction.token_expires_at:
            raise _fail(INVALID_WEBHOOK_TOKEN)  # whatever was asked of an expired token
        if interaction is None or interaction.callback is None:
            raise _fail(UNKNOWN_WEBHOOK)
        return interaction

    def _webhook_message(self, request: web.Request, interaction: InjectedInteraction) -> Message:
        wanted = request.match_info["message"]
        if wanted == "@original":
            message = interaction.original
        else:
            message = next((m for m in interaction.touched if str(m.id) == wanted), None)
        if message is None or message.deleted:
            raise _fail(UNKNOWN_MESSAGE)
        return message

    async def _recorded(
        self,
        request: web.Request,
        action: Callable[[InjectedInteraction], Awaitable[web.StreamResponse]],
    ) -> web.StreamResponse:
        """Run a webhook action, keeping refused ones on the interaction for its test."""
        interaction = self._by_token.get(request.match_info["token"])
        try:
            return await action(self._by_webhook(request))
        except DiscordHTTPError as error:
            if interaction is not None:
                interaction.errors.append(
                    HttpCall(request.method, request.path, error.status, self.now(), error.body)
                )
            raise

    async def _followup(self, request: web.Request) -> web.StreamResponse:
        async def send(interaction: InjectedInteraction) -> web.StreamResponse:
            body, uploads = await self._body(request)
            original = interaction.original
            replaces = original is not None and original.loading and not original.deleted
            if interaction.followup_replaces_defer and replaces:
                # The first followup after "thinking" replaces the thinking message (and keeps
                # the visibility chosen when deferring).
                message = self._edit(original, body, uploads)
            else:
                flags = int(body.get("flags") or 0) & INTERACTION_FLAGS
                message = self._create(
                    interaction.channel, {**body, "flags": flags}, uploads, interaction=interaction
                )
            interaction.followup_replaces_defer = False
            if request.query.get("wait") in ("true", "1", "True"):
                return json_response(message.payload(self.world.bot.payload()))
            return web.Response(status=204)

        return await self._recorded(request, send)

    async def _webhook_get(self, request: web.Request) -> web.StreamResponse:
        async def get(interaction: InjectedInteraction) -> web.StreamResponse:
            message = self._webhook_message(request, interaction)
            return json_response(message.payload(self.world.bot.payload()))

        return await self._recorded(request, get)

    async def _webhook_edit(self, request: web.Request) -> web.StreamResponse:
        async def edit(interaction: InjectedInteraction) -> web.StreamResponse:
            message = self._webhook_message(request, interaction)
            self._refuse_archived(self.world.channel(message.channel_id))
            body, uploads = await self._body(request)
            self._edit(message, body, uploads)
            interaction.touch(message)
            if message is interaction.original:
                interaction.followup_replaces_defer = False
            return json_response(message.payload(self.world.bot.payload()))

        return await self._recorded(request, edit)

    async def _webhook_del(self, request: web.Request) -> web.StreamResponse:
        async def delete(interaction: InjectedInteraction) -> web.StreamResponse:
            message = self._webhook_message(request, interaction)
            self._refuse_archived(self.world.channel(message.channel_id))
            self._delete(message)
            return web.Response(status=204)

        return await self._recorded(request, delete)

    # --- REST: channel messages ------------------------------------------------------------

    def _bot_needs(self, channel: Channel, permission: int) -> None:
        if channel.is_thread and permission & SEND_MESSAGES:  # a thread's own permission
            permission = (permission & ~SEND_MESSAGES) | SEND_MESSAGES_IN_THREADS
        guild = self.world.guild_of(channel)
        if guild is None:
            return
        if self.world.bot.id not in guild.members:
            raise DiscordHTTPError(403, 50001, "Missing Access")
        granted = guild.permissions(self.world.bot, channel)
        if granted & (permission | VIEW_CHANNEL) != permission | VIEW_CHANNEL:
            raise _fail(MISSING_PERMISSIONS)

    def _channel_message(self, request: web.Request) -> tuple[Channel, Message]:
        channel = self._channel(request)
        try:
            message = self.transcript.get(int(request.match_info["message"]))
        except (LookupError, ValueError):
            raise _fail(UNKNOWN_MESSAGE) from None
        # Ephemeral messages exist only for their interaction's webhook.
        if message.channel_id != channel.id or message.deleted or message.ephemeral:
            raise _fail(UNKNOWN_MESSAGE)
        return channel, message

    async def _post_message(self, request: web.Request) -> web.StreamResponse:
        channel = self._channel(request)
        body, uploads = await self._body(request)
        self._bot_needs(channel, SEND_MESSAGES | (ATTACH_FILES if uploads else 0))
        flags = int(body.get("flags") or 0) & CHANNEL_FLAGS
        message = self._create(channel, {**body, "flags": flags}, uploads)
        return json_response(message.payload(self.world.bot.payload()))

    async def _history(self, request: web.Request) -> web.StreamResponse:
        channel = self._channel(request)
        limit = int(request.query.get("limit", 50))
        newest_first = list(reversed(self.transcript.public(channel.id)))[:limit]
        return json_response([m.payload(self.world.bot.payload()) for m in newest_first])

    async def _get_message(self, request: web.Request) -> web.StreamResponse:
        _, message = self._channel_message(request)
        return json_response(message.payload(self.world.bot.payload()))

    async def _patch_message(self, request: web.Request) -> web.StreamResponse:
        _, message = self._channel_message(request)
        if message.author_id != self.world.bot.id:
            raise DiscordHTTPError(403, 50005, "Cannot edit a message authored by another user")
        self._refuse_archived(self.world.channel(message.channel_id))
        body, uploads = await self._body(request)
        self._edit(message, body, uploads)
        return json_response(message.payload(self.world.bot.payload()))

    async def _delete_message(self, request: web.Request) -> web.StreamResponse:
        channel, message = self._channel_message(request)
        if message.author_id != self.world.bot.id:
            self._bot_needs(channel, MANAGE_MESSAGES)
        self._refuse_archived(channel)
        self._delete(message)
        return web.Response(status=204)

    # --- REST: reactions -------------------------------------------------------------------

    async def _bot_react(self, request: web.Request) -> web.StreamResponse:
        channel, message = self._channel_message(request)
        if request.match_info["user"] != "@me":
            raise DiscordHTTPError(405, 0, "405: Method Not Allowed")
        self._bot_needs(channel, ADD_REACTIONS | READ_MESSAGE_HISTORY)
        self._refuse_archived(channel)
        emoji = request.match_info["emoji"]
        users = message.reactions.setdefault(emoji, [])
        if self.world.bot.id not in users:
            users.append(self.world.bot.id)
            await self._bot_reaction_changed("MESSAGE_REACTION_ADD", message, emoji, self.world.bot)
        self._notify()
        return web.Response(status=204)

    async def _remove_reaction(self, request: web.Request) -> web.StreamResponse:
        channel, message = self._channel_message(request)
        emoji = request.match_info["emoji"]
        target = request.match_info["user"]
        user_id = self.world.bot.id if target == "@me" else int(target)
        if user_id != self.world.bot.id:
            if channel.is_dm:
                raise DiscordHTTPError(403, 50003, "Cannot execute action on a DM channel")
            self._bot_needs(channel, MANAGE_MESSAGES)
        self._refuse_archived(channel)
        users = message.reactions.get(emoji, [])
        if user_id in users:
            users.remove(user_id)
            await self._bot_reaction_changed(
                "MESSAGE_REACTION_REMOVE", message, emoji, self.world.user(user_id)
            )
        self._notify()
        return web.Response(status=204)

    async def _reactors(self, request: web.Request) -> web.StreamResponse:
        _, message = self._channel_message(request)
        users = message.reactions.get(request.match_info["emoji"], [])
        return json_response([self.world.user(u).payload() for u in users])

    async def _clear(self, request: web.Request) -> web.StreamResponse:
        channel, message = self._channel_message(request)
        if channel.is_dm:
            raise DiscordHTTPError(403, 50003, "Cannot execute action on a DM channel")
        self._bot_needs(channel, MANAGE_MESSAGES)
        self._refuse_archived(channel)
        emoji = request.match_info.get("emoji")
        if emoji is None:
            message.reactions.clear()
        else:
            message.reactions.pop(emoji, None)
        self._notify()
        return web.Response(status=204)

    # --- the transcript --------------------------------------------------------------------

    def _attachments(
        self, body: dict[str, Any], uploads: list[Upload], existing: list[Attachment]
    ) -> list[Attachment]:
        """New files (``files[n]`` matched with ``attachments[].id == n``) and the existing
        attachments the body keeps; without an ``attachments`` list new files are added."""
        by_index = {}
        for number, upload in enumerate(uploads):
            found = re.search(r"\[(\d+)\]", upload.field)
            by_index[int(found.group(1)) if found else number] = upload

        def fresh(upload: Upload, meta: dict[str, Any]) -> Attachment:
            return Attachment(
                self.snowflakes.next(),
                meta.get("filename") or upload.filename,
                upload.data,
                upload.content_type,
                meta.get("description"),
            )

        meta_list = body.get("attachments")
        if meta_list is None:
            return [*existing, *(fresh(u, {}) for u in by_index.values())]
        kept: list[Attachment] = []
        for number, meta in enumerate(meta_list):
            attachment_id = int(meta["id"])
            if attachment_id in by_index:
                kept.append(fresh(by_index[attachment_id], meta))
                continue
            old = next((a for a in existing if a.id == attachment_id), None)
            if old is None:
                raise _invalid([(["attachments", number], "ATTACHMENT_NOT_FOUND", "Unknown")])
            kept.append(old)
        return kept

    def _create(
        self,
        channel: Channel,
        body: dict[str, Any],
        uploads: list[Upload],
        *,
        interaction: InjectedInteraction | None = None,
        allow_empty: bool = False,
    ) -> Message:
        problems = message_problems(body)
        if problems:
            raise _invalid(problems)
        attachments = self._attachments(body, uploads, [])
        if not allow_empty and is_empty_message(body, has_attachments=bool(attachments)):
            raise _fail(EMPTY_MESSAGE)
        flags = int(body.get("flags") or 0)
        ephemeral = interaction is not None and bool(flags & EPHEMERAL)
        if channel.is_thread and not ephemeral:
            # A message sent in an archived thread unarchives it (a locked one refuses it).
            if self._archived(channel):
                if channel.locked:
                    raise _fail(THREAD_ARCHIVED)
                channel.archived = False
                self._later(self._thread_changed(channel))
            channel.active_at = self.now()
        message = Message(
            id=self.snowflakes.next(),
            channel_id=channel.id,
            guild_id=channel.guild_id,
            author_id=self.world.bot.id,
            content=body.get("content") or "",
            embeds=list(body.get("embeds") or []),
            components=list(body.get("components") or []),
            attachments=attachments,
            flags=flags,
            visibility="ephemeral" if ephemeral else "public",
            audience=interaction.user.id if ephemeral and interaction else None,
            allowed_mentions=body.get("allowed_mentions"),
            created_at=self.now(),
            timestamp=now_iso(self._offset),
        )
        if channel.recipient is not None:
            self.transcript.dm_recipients[channel.id] = channel.recipient.id
        if interaction is not None:
            message.interaction_id = interaction.id
            message.interaction_user = interaction.user.payload()
            message.interaction_type = interaction.type
            message.interaction_name = interaction.command
            message.webhook_id = self.world.application_id
            if interaction.type == APPLICATION_COMMAND:
                message.message_type = MESSAGE_TYPE_CHAT_INPUT
            interaction.messages.append(message)
            interaction.touch(message)
        self.transcript.record("create", message, self.now())
        self._echo("MESSAGE_CREATE", message)
        self._notify()
        return message

    def _edit(self, message: Message, body: dict[str, Any], uploads: list[Upload]) -> Message:
        merged = {
            "content": body.get("content", message.content),
            "embeds": body.get("embeds", message.embeds),
            "components": body.get("components", message.components),
            # Ephemeral stays as it was; an edit may switch to components v2 (never back).
            "flags": (message.flags & ~LOADING)
            | (int(body.get("flags") or 0) & CHANNEL_FLAGS & ~(1 << 12)),
        }
        problems = message_problems(merged)
        if problems:
            raise _invalid(problems)
        attachments = self._attachments(body, uploads, message.attachments)
        if is_empty_message(merged, has_attachments=bool(attachments)):
            raise _fail(EMPTY_MESSAGE)
        was_loading = message.loading
        message.history.append(message.snapshot())
        message.content = merged["content"] or ""
        message.embeds = list(merged["embeds"] or [])
        message.components = list(merged["components"] or [])
        message.attachments = attachments
        message.flags = merged["flags"]
        if "allowed_mentions" in body:
            message.allowed_mentions = body["allowed_mentions"]
        if not was_loading:  # filling in a "thinking" message is not an edit for Discord
            message.edited_at = self.now()
            message.edited_timestamp = now_iso(self._offset)
        self.transcript.record("edit", message, self.now())
        self._echo("MESSAGE_UPDATE", message)
        self._notify()
        return message

    def _delete(self, message: Message) -> None:
        message.deleted = True
        self.transcript.record("delete", message, self.now())
        self._echo("MESSAGE_DELETE", message)
        self._notify()
