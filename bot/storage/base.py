"""The repository interface the tables and cogs use, whatever the database."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
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


@dataclass(frozen=True, slots=True)
class GameResults:
    """What a finished game adds to the leaderboards (written with its last events)."""

    game: str  # leaderboard key: "maya", "mia", "yades", "menteur"
    day: str  # YYYY-MM-DD (UTC) the game finished
    figures: dict[int, dict[str, float]]  # user -> metric -> value (metrics "best_*" keep a max)
    ratings: dict[int, float]  # user -> new rating
    # user -> the rating the new one was computed from. The store adds the difference to
    # what it holds, so that two games ending at once with a common player both count.
    rated_from: dict[int, float] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Rating:
    rating: float
    games: int


@dataclass(frozen=True, slots=True)
class Standing:
    rank: int
    user_id: int
    value: float


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
        results: GameResults | None = None,
    ) -> None:
        """Append ``events``, store the snapshot (and ``results``) in one transaction.

        The write is refused (``StorageError``) unless the stored version is
        ``previous_version``, so two writers can never interleave their histories.
        """
        ...

    async def running_games(self) -> list[GameRecord]: ...

    async def game(self, game_id: int) -> GameRecord | None: ...

    async def last_ended_game(self, guild_id: int, channel_id: int, kind: str) -> GameRecord | None:
        """The channel's most recent finished or stopped game of ``kind`` that was played."""
        ...

    async def events(self, game_id: int) -> list[EventRecord]: ...

    async def ratings(
        self, guild_id: int, game: str, users: Sequence[int]
    ) -> dict[int, Rating]: ...

    async def leaderboard(
        self, guild_id: int, game: str, metric: str, since: str | None, *, offset: int, limit: int
    ) -> tuple[list[Standing], int]:
        """One page of standings (best first) and how many players are ranked."""
        ...

    async def standing(
        self, guild_id: int, game: str, metric: str, since: str | None, user_id: int
    ) -> Standing | None: ...

    async def player_figures(self, guild_id: int, user_id: int) -> dict[str, dict[str, float]]: ...

    async def player_ratings(self, guild_id: int, user_id: int) -> dict[str, Rating]: ...

    async def forget_player(self, guild_id: int, user_id: int) -> int:
        """Delete a player's figures, ratings and the display name their games kept, in a
        server; returns the rows changed."""
        ...

    async def guild_settings(self, guild_id: int) -> dict[str, Any]: ...

    async def save_guild_settings(self, guild_id: int, settings: dict[str, Any]) -> None: ...

    async def close(self) -> None: ...


class ChannelBusy(StorageError):
    """The channel already has a running game."""
