"""The storage ports the tables and cogs use, whatever the database: games
(``GameStore``), leaderboard figures and ratings (``FigureStore``), achievements
(``AchievementStore``), server settings (``SettingsStore``), every deadline
(``TimerStore``), the servers' seasons (``SeasonStore``) and web pages (``WebStore``); a
``Repository`` is all of them.

How a figure adds up and ranks is never read from its name: the leaderboard calls take the
``Metric`` a game declared (``bot.kernel.spec``), and a finished game's ``GameResults``
carries the ``Board`` its figures belong to.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Protocol

from bot.kernel.achievements import Awards
from bot.kernel.spec import Aggregate, Board, Metric

# The stored figure every board counts one of per game played: what a mean divides by.
GAMES = "games"


class StorageError(RuntimeError):
    """The database could not do what was asked (read-only, locked, gone): nothing was written."""


class VersionConflict(StorageError):
    """The game is not at the version the write started from: nothing was written."""


class ChannelBusy(StorageError):
    """The channel already has a running game."""


@dataclass(frozen=True, slots=True)
class Shards:
    """The shards one process runs: a server belongs to shard ``(guild_id >> 22) % count``
    (Discord's rule), and a row without a server (a direct message) to shard 0."""

    count: int = 1
    ids: frozenset[int] = frozenset({0})

    @classmethod
    def every(cls, count: int = 1) -> Shards:
        return cls(count, frozenset(range(count)))

    def of(self, guild_id: int | None) -> int:
        return 0 if not guild_id else (guild_id >> 22) % self.count

    def owns(self, guild_id: int | None) -> bool:
        return self.of(guild_id) in self.ids

    @property
    def all(self) -> bool:
        return self.ids >= frozenset(range(self.count))


ALL_SHARDS = Shards()


@dataclass(frozen=True, slots=True)
class Timer:
    """A deadline: when ``due`` (Unix time, seconds) comes, the process owning
    ``guild_id``'s shard hands ``payload`` to whoever handles ``key``'s kind (the part of
    the key before its first ``:``). Setting a key again replaces its timer."""

    key: str
    due: float
    guild_id: int | None
    payload: dict[str, Any] = field(default_factory=dict)
    attempts: int = 0  # how many times it fired and failed

    @property
    def kind(self) -> str:
        return self.key.split(":", 1)[0]


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
    # user -> the name they joined the game with (the web page shows names).
    names: dict[int, str] = field(default_factory=dict)
    # The achievements its humans earned that they did not hold yet (the store keeps a
    # player's first of each, whatever it is given) and their streaks' runs after it.
    awards: Awards = field(default_factory=Awards)

    @property
    def maxima(self) -> frozenset[str]:
        """The stored figures that keep a player's best of a day rather than add up."""
        return frozenset(m.column for m in self.board.metrics if m.aggregate is Aggregate.MAX)


@dataclass(frozen=True, slots=True)
class Held:
    """An achievement a player holds on a server: earned in game ``game_id``, at ``earned_at``."""

    code: str
    game_id: int
    earned_at: datetime  # aware, UTC


@dataclass(frozen=True, slots=True)
class Rating:
    rating: float
    games: int


@dataclass(frozen=True, slots=True)
class Season:
    """A server's season: the days from ``started`` to the day before ``ends`` (YYYY-MM-DD,
    UTC); the current one is not ``closed``."""

    number: int
    started: str
    ends: str
    closed: bool = False


@dataclass(frozen=True, slots=True)
class RatingPoint:
    """A player's rating on a board at a time (Unix seconds): after a game, or a reset."""

    game: str
    at: float
    rating: float


@dataclass(frozen=True, slots=True)
class WebPage:
    """A server's web page, on: the token its address ends with, the server's name."""

    guild_id: int
    token: str
    guild_name: str


@dataclass(frozen=True, slots=True)
class TournamentRecord:
    """A stored tournament: ``status`` is ``signup``, ``running``, ``over`` or ``cancelled``;
    ``data``: what the Discord layer keeps of it (``bot.tournaments.hosted``)."""

    id: int
    guild_id: int
    channel_id: int
    game: str
    status: str
    data: dict[str, Any]


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
        timers: Mapping[str, Timer | None] | None = None,
    ) -> None:
        """Append ``events``, store the snapshot, set or cancel (``None``) ``timers`` by key
        and count ``results`` (once per game), in one transaction.

        The write is refused (``StorageError``, nothing written) unless the stored version
        is ``previous_version``, so two writers can never interleave their histories.
        """
        ...

    async def running_games(self, shards: Shards = ALL_SHARDS) -> list[GameRecord]:
        """Every game in the lobby or active on a server of ``shards``, oldest first."""
        ...

    async def game(self, game_id: int) -> GameRecord | None: ...

    async def last_ended_game(self, guild_id: int, channel_id: int, kind: str) -> GameRecord | None:
        """The channel's most recent finished or stopped game of ``kind`` that was played."""
        ...

    async def events(self, game_id: int) -> list[EventRecord]:
        """The game's events in the order they were appended."""
        ...

    async def save_messages(self, game_id: int, messages: Mapping[str, Any]) -> None:
        """Store the game's messages in its channel (the Discord layer's, a JSON object),
        apart from the game: its version does not change."""
        ...

    async def messages(self, game_ids: Sequence[int]) -> dict[int, dict[str, Any]]:
        """The stored messages of each of ``game_ids`` (an empty object: none stored)."""
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
        until: str | None = None,
        season: int | None = None,
    ) -> tuple[list[Standing], int]:
        """One page of board ``game``'s standings by ``criterion`` (a ``Metric``, or
        ``RATING``), best first, from the day ``since`` on and before the day ``until``, and
        how many players are ranked. Ratings ignore the days: they are the current ones of
        the players who played this season, or with ``season``, that closed season's final
        ones."""
        ...

    async def standing(
        self,
        guild_id: int,
        game: str,
        criterion: Metric | str,
        since: str | None,
        user_id: int,
        *,
        until: str | None = None,
        season: int | None = None,
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

    async def last_figure_days(self, guild_id: int) -> dict[str, str]:
        """The last day (YYYY-MM-DD) the server has a figure of on each board (a board
        without any is left out): the board played last is the web page's default."""
        ...

    async def rating_history(self, guild_id: int, user_id: int) -> list[RatingPoint]:
        """The player's rating after each of their rated games and each season's reset,
        every board, oldest first."""
        ...

    async def forget_player(self, guild_id: int, user_id: int) -> int:
        """Delete a player's figures, ratings (current, archived, their history),
        achievements and streaks, and the display name their games kept (and the web page
        shows), in a server; returns the rows changed."""
        ...


class AchievementStore(Protocol):
    """Achievements: each earned once per server and player (the first game that earned it
    keeps it), written with the game's results by ``save_game``; and the run each player has
    going on each streak."""

    async def achievements(self, guild_id: int, users: Sequence[int]) -> dict[int, list[Held]]:
        """What each of ``users`` holds on the server, in the order earned (a player holding
        none is left out)."""
        ...

    async def streak_runs(self, guild_id: int, users: Sequence[int]) -> dict[tuple[int, str], int]:
        """(player, streak code) -> the run of tries right in a row they have going (none
        stored: zero)."""
        ...


class SeasonStore(Protocol):
    """Each server's seasons (``bot.seasons`` decides their dates; the store keeps them)."""

    async def seasons(self, guild_id: int) -> list[Season]:
        """Every season of the server, oldest first (the current one last)."""
        ...

    async def first_figure_day(self, guild_id: int) -> str | None:
        """The first day the server has a leaderboard figure of (None: none yet)."""
        ...

    async def open_season(self, guild_id: int, season: Season, timer: Timer) -> Season:
        """Begin ``season`` and set its closing ``timer``, in one transaction, unless the
        server has a current season already; returns the current season."""
        ...

    async def move_season_end(self, guild_id: int, number: int, ends: str, timer: Timer) -> bool:
        """Make the current season ``number`` end on ``ends`` and set its ``timer`` again;
        False, and nothing changed, if it is not the current season."""
        ...

    async def close_season(
        self,
        guild_id: int,
        number: int,
        *,
        following: Season,
        timers: Sequence[Timer],
        carry: float,
        initial: float,
    ) -> bool:
        """Close the current season ``number``, in one transaction: archive the ratings of
        the players who played in it, pull every rating of the server towards ``initial``
        (``initial + carry * (rating - initial)``, its games count back to 0, a point of
        each player's history), begin ``following`` and set ``timers``. False, and nothing
        changed, if ``number`` is not the current season (closed already)."""
        ...


class SettingsStore(Protocol):
    """Each server's settings, one JSON object."""

    async def guild_settings(self, guild_id: int) -> dict[str, Any]:
        """The settings last saved ({} if none)."""
        ...

    async def save_guild_settings(self, guild_id: int, settings: dict[str, Any]) -> None:
        """Replace the server's settings."""
        ...


class TimerStore(Protocol):
    """Every deadline of every process, one row each, so that none is lost in a restart."""

    async def set_timer(self, timer: Timer) -> None:
        """Store ``timer``, replacing the one of the same key."""
        ...

    async def cancel_timer(self, key: str, due: float | None = None) -> bool:
        """Delete the timer ``key`` (only if it is still due at ``due``, when given: a timer
        that fired must not delete the one set again meanwhile); True if one was deleted."""
        ...

    async def reschedule_timer(self, key: str, due: float, timer: Timer) -> bool:
        """Move the timer ``key`` that is due at ``due`` to ``timer``'s due and attempts (a
        retry); False, and nothing changed, if it was set again or deleted meanwhile."""
        ...

    async def timers(self, shards: Shards = ALL_SHARDS) -> list[Timer]:
        """Every timer of a server of ``shards``, soonest first."""
        ...


class ShardLeases(Protocol):
    """Which process runs a shard: one at a time, the lease held as long as the process
    lives (a second process waits for it and takes it over when the first dies)."""

    async def try_lock_shard(self, shard: int, count: int) -> bool:
        """Take shard ``shard`` of ``count`` for this process if no other holds it."""
        ...

    async def release_shard(self, shard: int) -> None:
        """Let another process take ``shard``."""
        ...

    async def keep_shards(self, shards: Sequence[int], count: int) -> list[int]:
        """Check that this process still holds ``shards`` (one whose lease broke is taken
        again if no other process took it meanwhile); returns the ones it lost."""
        ...


class IdentifySlots(Protocol):
    """Gateway identifies shared by every process: one per ``window`` seconds in each of
    Discord's concurrency buckets, and each shard's run of quick restarts."""

    async def take_identify_slot(self, bucket: int, window: float) -> float:
        """Take ``bucket``'s slot if its last identify is ``window`` seconds old or more
        (atomically: two processes never both take it): 0. Else the seconds left to wait."""
        ...

    async def record_start(self, shards: Sequence[int], within: float) -> int:
        """``shards`` start now: how many starts in a row (the most of any of them) came
        less than ``within`` seconds after the one before with no clean stop between."""
        ...

    async def forget_starts(self, shards: Sequence[int]) -> None:
        """``shards`` stopped cleanly: their next start begins no streak."""
        ...


class WebStore(Protocol):
    """The servers' web pages (off unless turned on), and the names the pages show."""

    async def web_page(self, guild_id: int) -> WebPage | None:
        """The server's page, if it is on."""
        ...

    async def web_page_of(self, token: str) -> WebPage | None:
        """The page whose address ends with ``token``, if it is on."""
        ...

    async def open_web_page(self, page: WebPage) -> None:
        """Turn the server's page on at ``page.token`` (an address it had before stops
        working), or rename it."""
        ...

    async def close_web_page(self, guild_id: int) -> bool:
        """Turn the server's page off; False if it was off."""
        ...

    async def player_names(self, guild_id: int, users: Sequence[int]) -> dict[int, str]:
        """The name each of ``users`` last joined a counted game of the server with."""
        ...


class TournamentStore(Protocol):
    """The servers' tournaments, with the deadlines they set (written together)."""

    async def create_tournament(
        self,
        *,
        guild_id: int,
        channel_id: int,
        game: str,
        data: dict[str, Any],
        timer: Callable[[int], Timer],
    ) -> int:
        """A new tournament signing up in ``channel_id``, with its sign-up deadline
        (``timer``: given its id); raises ``ChannelBusy`` if the channel already has one
        signing up or running."""
        ...

    async def save_tournament(
        self,
        tournament_id: int,
        *,
        status: str,
        data: dict[str, Any],
        timers: Mapping[str, Timer | None] | None = None,
    ) -> None:
        """Store the tournament as it now is, and set (or cancel: None) ``timers`` with it."""
        ...

    async def tournament(self, tournament_id: int) -> TournamentRecord | None: ...

    async def open_tournaments(self, shards: Shards = ALL_SHARDS) -> list[TournamentRecord]:
        """Every tournament signing up or running on ``shards``' servers, oldest first."""
        ...

    async def tournaments(self, guild_id: int, limit: int = 10) -> list[TournamentRecord]:
        """A server's tournaments, latest first (cancelled ones left out)."""
        ...

    async def award(self, guild_id: int, user_id: int, code: str, game_id: int) -> bool:
        """``user_id`` earned achievement ``code`` with game ``game_id`` (kept once: False
        if they held it already)."""
        ...


class Repository(
    GameStore,
    TournamentStore,
    FigureStore,
    AchievementStore,
    SettingsStore,
    TimerStore,
    SeasonStore,
    WebStore,
    ShardLeases,
    IdentifySlots,
    Protocol,
):
    """Every port on one database."""

    async def close(self) -> None: ...
