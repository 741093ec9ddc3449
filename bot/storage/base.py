"""The storage ports the tables and cogs use, whatever the database: games
(``GameStore``), leaderboard figures and ratings (``FigureStore``) and server settings
(``SettingsStore``); a ``Repository`` is all three.

How a figure adds up and ranks is never read from its name: the leaderboard calls take the
``Metric`` a game declared (``bot.kernel.spec``), and a finished game's ``GameResults``
carries the ``Board`` its figures belong to.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from bot.kernel.spec import Aggregate, Board, Metric

# The stored figure every board counts one of per game played: what a mean divides by.
GAMES = "games"


class StorageError(RuntimeError):
    """The database could not do what was asked (read-only, locked, gone): nothing was written."""


class ChannelBusy(StorageError):
    """The channel already has a running game."""


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
    """What a finished game adds to one board (written with its last events)."""

    board: Board  # its declarations say which stored figures keep a maximum
    day: str  # YYYY-MM-DD (UTC) the game finished
    figures: dict[int, dict[str, float]]  # user -> stored figure -> value
    ratings: dict[int, float]  # user -> new rating
    # user -> the rating the new one was computed from. The store adds the difference to
    # what it holds, so that two games ending at once with a common player both count.
    rated_from: dict[int, float] = field(default_factory=dict)

    @property
    def maxima(self) -> frozenset[str]:
        """The stored figures that keep a player's best of a day rather than add up."""
        return frozenset(m.column for m in self.board.metrics if m.aggregate is Aggregate.MAX)


@dataclass(frozen=True, slots=True)
class Rating:
    rating: float
    games: int


@dataclass(frozen=True, slots=True)
class Standing:
    rank: int
    user_id: int
    value: float


class GameStore(Protocol):
    """Games: their snapshot, their event log, one running game per channel."""

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
        """Append ``events``, store the snapshot (and count ``results``, once per game) in
        one transaction.

        The write is refused (``StorageError``, nothing written) unless the stored version
        is ``previous_version``, so two writers can never interleave their histories.
        """
        ...

    async def running_games(self) -> list[GameRecord]:
        """Every game in the lobby or active, oldest first."""
        ...

    async def game(self, game_id: int) -> GameRecord | None: ...

    async def last_ended_game(self, guild_id: int, channel_id: int, kind: str) -> GameRecord | None:
        """The channel's most recent finished or stopped game of ``kind`` that was played."""
        ...

    async def events(self, game_id: int) -> list[EventRecord]:
        """The game's events in the order they were appended."""
        ...


class FigureStore(Protocol):
    """Leaderboards: figures summed per server, board, player and day, and Elo ratings.

    A criterion is one of the board's declared ``Metric``s or ``RATING``. A metric adds up
    as declared (``SUM`` or ``MAX`` of its stored figure; ``MEAN``: the stored figure's sum
    over the sum of ``games``) and ranks as declared: ``HIGHER``, best first and only
    players above zero; ``LOWER``, fewest first and zero the best of all. Players with the
    same value share a rank.
    """

    async def ratings(self, guild_id: int, game: str, users: Sequence[int]) -> dict[int, Rating]:
        """The rated ones among ``users`` on board ``game``."""
        ...

    async def leaderboard(
        self,
        guild_id: int,
        game: str,
        criterion: Metric | str,
        since: str | None,
        *,
        offset: int,
        limit: int,
    ) -> tuple[list[Standing], int]:
        """One page of board ``game``'s standings by ``criterion`` (a ``Metric``, or
        ``RATING``), best first, from the day ``since`` on (ratings ignore it), and how many
        players are ranked."""
        ...

    async def standing(
        self, guild_id: int, game: str, criterion: Metric | str, since: str | None, user_id: int
    ) -> Standing | None:
        """``user_id``'s place, as on ``leaderboard``; None if they are not ranked."""
        ...

    async def player_figures(
        self, guild_id: int, user_id: int, boards: Sequence[Board]
    ) -> dict[str, dict[str, float]]:
        """Per board the player has figures on: each declared metric's value as a
        leaderboard shows it (means computed); a metric without any is left out."""
        ...

    async def player_ratings(self, guild_id: int, user_id: int) -> dict[str, Rating]:
        """The player's rating per board."""
        ...

    async def forget_player(self, guild_id: int, user_id: int) -> int:
        """Delete a player's figures, ratings and the display name their games kept, in a
        server; returns the rows changed."""
        ...


class SettingsStore(Protocol):
    """Each server's settings, one JSON object."""

    async def guild_settings(self, guild_id: int) -> dict[str, Any]:
        """The settings last saved ({} if none)."""
        ...

    async def save_guild_settings(self, guild_id: int, settings: dict[str, Any]) -> None:
        """Replace the server's settings."""
        ...


class Repository(GameStore, FigureStore, SettingsStore, Protocol):
    """Every port on one database connection."""

    async def close(self) -> None: ...
