"""What the SQL repository asks of a database: a thin driver (read rows, run a statement,
run a transaction, write a move, hold a shard) and the few pieces of SQL that differ.

Statements are written once, with ``?`` marks (a driver with numbered marks renumbers
them) and ``now()`` for the time of the write (SQLite's driver gives its connections one).

A transaction is a ``Plan``: a generator that yields its statements (``Execute``,
``ExecuteMany``, ``Fetch``, ``FetchRow``) and is sent each one's outcome. SQLite's driver
runs a whole plan in one hop to its connection's thread (each hop waits for the event
loop's turn); PostgreSQL's runs it statement by statement in a transaction.
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

from bot.storage.base import EventRecord, GameResults, StorageError, Timer

if TYPE_CHECKING:
    from bot.kernel.achievements import Awards
    from bot.storage.base import GameRecord


class Replay(Protocol):
    """A migration's Python step, for what SQL cannot compute from the rows (an event log
    read by the games' own code): it is shown every game counted on the leaderboards, in
    the order they were counted, and says what each awards. The backend writes that as a
    game's end does, in the migration's transaction: the step runs once, or not at all."""

    def game(self, record: GameRecord, events: Sequence[EventRecord]) -> Awards | None: ...


R = TypeVar("R")


class Row(Protocol):
    """A result row as both drivers give it: by position, or by column name."""

    def __getitem__(self, key: Any, /) -> Any: ...


@dataclass(frozen=True, slots=True)
class Execute:
    """A statement; its outcome is how many rows it changed."""

    query: str
    params: Sequence[Any] = ()


@dataclass(frozen=True, slots=True)
class ExecuteMany:
    """A statement once per row of parameters; its outcome is None."""

    query: str
    rows: Sequence[Sequence[Any]]


@dataclass(frozen=True, slots=True)
class Fetch:
    """A query; its outcome is its rows."""

    query: str
    params: Sequence[Any] = ()


@dataclass(frozen=True, slots=True)
class FetchRow:
    """A query; its outcome is its first row, or None."""

    query: str
    params: Sequence[Any] = ()


Step = Execute | ExecuteMany | Fetch | FetchRow
Plan = Generator[Step, Any, R]


class UniqueViolation(StorageError):
    """A write broke a unique constraint (a driver raises it for its database's own error);
    nothing was written."""


@dataclass(frozen=True, slots=True)
class Dialect:
    """The SQL that differs between the databases."""

    # ``column IN`` a list of ids: the clause and its parameters.
    any_of: Callable[[str, Sequence[int]], tuple[str, tuple[Any, ...]]]
    # Drops a player's display name from a JSON document's ``names`` (a game's meta, a
    # tournament's data): the statement and its parameters for (table, column, guild, user).
    forget_name: Callable[[str, str, int, int], tuple[str, tuple[Any, ...]]]
    # What orders a player's rating history among points of the same time.
    history_tiebreak: str
    # The database's clock, in seconds since 1970 (the one clock every process shares).
    epoch: str


class Driver(Protocol):
    """One database, as the repository uses it. Every failure of the database is a
    ``StorageError`` (a broken unique constraint: ``UniqueViolation``)."""

    dialect: Dialect

    async def fetch(
        self, query: str, params: Sequence[Any] = (), *, small: bool = False
    ) -> Sequence[Row]:
        """The rows of a query. ``small``: a read of a few indexed rows (a game's start and
        end make them), which SQLite's driver may make at once on the event loop's thread."""
        ...

    async def fetchrow(self, query: str, params: Sequence[Any] = ()) -> Row | None: ...

    async def fetchval(self, query: str, params: Sequence[Any] = ()) -> Any: ...

    async def execute(self, query: str, params: Sequence[Any] = ()) -> int:
        """Run one statement on its own; how many rows it changed."""
        ...

    async def executemany(self, query: str, rows: Sequence[Sequence[Any]]) -> None: ...

    async def transaction(self, plan: Plan[R]) -> R:
        """Run ``plan`` in one transaction (rolled back if it raises) and return its value."""
        ...

    async def insert(self, query: str, params: Sequence[Any]) -> Any:
        """A new row (``query`` ends ``RETURNING`` one column), as a move is written: on
        SQLite at once on the event loop's thread when the file is free."""
        ...

    async def save_move(self, move: Move) -> bool:
        """Write a move in one transaction, the database's fastest way (the hot path);
        False, and nothing written, unless the game is at ``move.previous_version``."""
        ...

    async def migrate(
        self, shipped: list[tuple[int, str]], replays: Mapping[int, Callable[[], Replay]]
    ) -> int:
        """Apply each of ``shipped`` newer than the database's, in a transaction of its own
        with its replay (``bot.storage.sql.replay``), if any; the schema version after."""
        ...

    async def try_lock_shard(self, shard: int, count: int) -> bool: ...

    async def release_shard(self, shard: int) -> None: ...

    async def keep_shards(self, shards: Sequence[int], count: int) -> list[int]: ...

    async def close(self) -> None: ...


@dataclass(frozen=True, slots=True)
class Move:
    """``save_game``'s arguments: what a move writes (see ``GameStore.save_game``)."""

    game_id: int
    previous_version: int
    version: int
    status: str
    state: dict[str, Any] | None
    meta: dict[str, Any]
    events: Sequence[EventRecord]
    results: GameResults | None
    timers: Mapping[str, Timer | None]


def moment(value: Any) -> datetime:
    """A stored time as an aware datetime: SQLite keeps ISO text, PostgreSQL timestamps."""
    return value if isinstance(value, datetime) else datetime.fromisoformat(value)
