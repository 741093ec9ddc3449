"""What a test holds after injecting something: the interaction (or event) and the bot's answers."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TypeVar

from tests.e2e.transcript import EPHEMERAL, Message
from tests.e2e.world import Channel, User

if TYPE_CHECKING:
    from tests.e2e.emulator import DiscordEmulator

T = TypeVar("T")

DEFAULT_WAIT = 5.0  # how long helpers wait for the bot by default; generous for slow CI


class InteractionExpired(AssertionError):
    """The bot let Discord's response window close while a test waited for its answer."""


@dataclass
class HttpCall:
    """One request the bot made, with the emulator's answer status (and error body if any)."""

    method: str
    path: str
    status: int
    at: float
    error: dict[str, Any] | None = None


@dataclass
class Callback:
    """The initial response the bot gave to an interaction (callback type 4 to 9)."""

    type: int
    data: dict[str, Any]
    at: float

    @property
    def ephemeral(self) -> bool:
        return bool(int(self.data.get("flags") or 0) & EPHEMERAL)


class Choices(list[dict[str, Any]]):
    """Autocomplete choices; truthy even when empty, since "no choices" is an answer too."""

    def __bool__(self) -> bool:
        return True


class InjectedInteraction:
    """One interaction sent to the bot, and everything the bot did with its token.

    Times are on the emulator's clock (``DiscordEmulator.now``)."""

    def __init__(
        self,
        emulator: DiscordEmulator,
        payload: dict[str, Any],
        user: User,
        channel: Channel,
        *,
        source: Message | None = None,
        command: str | None = None,
    ) -> None:
        self.emulator = emulator
        self.payload = payload
        self.id = int(payload["id"])
        self.token: str = payload["token"]
        self.type: int = payload["type"]
        self.user = user
        self.channel = channel
        self.guild_id = channel.guild_id
        self.source = source  # the message a clicked component (or its modal) is on
        self.command = command
        self.injected_at = 0.0
        self.deadline_at = 0.0
        self.token_expires_at = 0.0
        self.first_response_at: float | None = None
        self.callback: Callback | None = None
        self.expired = False
        self.delivered = False  # sent to a session (none on the guild's shard: dropped)
        self.original: Message | None = None  # what "@original" designates
        self.messages: list[Message] = []  # created with this token: response and followups
        self.touched: list[Message] = []  # created or edited with this token, first touch order
        self.choices: Choices | None = None
        self.modal: dict[str, Any] | None = None
        self.errors: list[HttpCall] = []  # refused requests made with this token
        self.followup_replaces_defer = False

    def __repr__(self) -> str:
        return (
            f"<InjectedInteraction id={self.id} type={self.type} command={self.command!r} "
            f"user={self.user.name} callback={self.callback and self.callback.type}>"
        )

    @property
    def latency(self) -> float | None:
        """Seconds from injection to the arrival of the bot's first answer (accepted or not)."""
        if self.first_response_at is None:
            return None
        return self.first_response_at - self.injected_at

    @property
    def acknowledged(self) -> bool:
        return self.callback is not None

    def touch(self, message: Message) -> None:
        if message not in self.touched:
            self.touched.append(message)

    async def _until(self, predicate: Callable[[], T | None], timeout: float, what: str) -> T:
        def done() -> T | None:
            value = predicate()
            if not value and self.expired and self.callback is None:
                # Fail now rather than at the timeout: this answer can no longer come.
                raise InteractionExpired(
                    f"{self!r} expired unanswered while waiting for {what}; "
                    f"refused requests: {[(e.path, e.error) for e in self.errors]}"
                )
            return value

        return await self.emulator.wait_for(done, timeout=timeout, what=what)

    async def response(self, timeout: float = DEFAULT_WAIT) -> Callback:
        """The accepted initial response."""
        return await self._until(lambda: self.callback, timeout, f"an answer to {self!r}")

    async def reply(self, timeout: float = DEFAULT_WAIT) -> Message:
        """The first message this interaction created or updated that is no longer "thinking"
        (the live message object: later edits show in it)."""

        def ready() -> Message | None:
            return next((m for m in self.touched if not m.loading), None)

        return await self._until(ready, timeout, f"a message answering {self!r}")

    async def replies(self, count: int, timeout: float = DEFAULT_WAIT) -> list[Message]:
        """The first ``count`` non-thinking messages this interaction created or updated."""

        def ready() -> list[Message] | None:
            done = [m for m in self.touched if not m.loading]
            return done[:count] if len(done) >= count else None

        return await self._until(ready, timeout, f"{count} messages answering {self!r}")

    async def autocomplete_choices(self, timeout: float = DEFAULT_WAIT) -> Choices:
        return await self._until(
            lambda: self.choices, timeout, f"autocomplete choices for {self!r}"
        )

    async def shown_modal(self, timeout: float = DEFAULT_WAIT) -> dict[str, Any]:
        return await self._until(lambda: self.modal, timeout, f"a modal answering {self!r}")

    async def expiry(self, timeout: float | None = None) -> None:
        """Wait until the response window closed with no accepted answer."""
        limit = timeout if timeout is not None else self.emulator.response_deadline + DEFAULT_WAIT
        await self.emulator.wait_for(
            lambda: self.expired, timeout=limit, what=f"{self!r} to expire"
        )


class InjectedEvent:
    """A gateway event sent to the bot (a reaction); ``reply`` waits for what the bot did next.
    ``delivered`` is false when the bot did not subscribe to the event's intent."""

    def __init__(self, emulator: DiscordEmulator, name: str, payload: dict[str, Any]) -> None:
        self.emulator = emulator
        self.name = name
        self.payload = payload
        self.delivered = False
        self.at = emulator.now()

    def __repr__(self) -> str:
        return f"<InjectedEvent {self.name} delivered={self.delivered}>"

    async def reply(self, channel_id: int | None = None, timeout: float = DEFAULT_WAIT) -> Message:
        """The first message the bot created or edited after this event (in ``channel_id``)."""
        transcript = self.emulator.transcript

        def found() -> Message | None:
            for event in transcript.events:
                in_channel = channel_id is None or event.message.channel_id == channel_id
                if event.at >= self.at and event.kind in ("create", "edit") and in_channel:
                    return event.message
            return None

        return await self.emulator.wait_for(
            found, timeout=timeout, what=f"the bot to answer {self!r}"
        )
