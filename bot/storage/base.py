"""The repository interface the tables and cogs use, whatever the database."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol


class StorageError(RuntimeError):
    """The database could not do what was asked (read-only, locked, gone): nothing was written."""


@dataclass(frozen=True, slots=True)
class GameRecord:
    id: int
    guild_id: int
    channel_id: int
    kind: str
    status: str
    version: int
    state: dict[str, Any] | None
    meta: dict[str, Any]


@dataclass(frozen=True, slots=True)
class EventRecord:
    type: str
    visibility: str
    recipient: int | None
    payload: dict[str, Any]


class Repository(Protocol):
    async def create_game(
        self, *, guild_id: int, channel_id: int, kind: str, meta: dict[str, Any]
    ) -> int:
        """A new game in the lobby; raises ``ChannelBusy`` if the channel already has one."""
        ...

    async def save_game(
        self,
        game_id: int,
        *,
        previous_version: int,
        version: int,
        status: str,
        state: dict[str, Any] | None,
        meta: dict[str, Any],
        events: Sequence[EventRecord] = (),
    ) -> None:
        """Append ``events`` and store the snapshot in one transaction (all or nothing).

        The write is refused (``StorageError``) unless the stored version is
        ``previous_version``, so two writers can never interleave their histories.
        """
        ...

    async def running_games(self) -> list[GameRecord]: ...

    async def game(self, game_id: int) -> GameRecord | None: ...

    async def events(self, game_id: int) -> list[EventRecord]: ...

    async def close(self) -> None: ...


class ChannelBusy(StorageError):
    """The channel already has a running game."""
