"""The moves' own connection: written on the event loop's thread when the file lets them,
and the small reads of a game's start and end made there too.

A move's transaction (an UPDATE, a few INSERTs and a COMMIT that WAL with
``synchronous=NORMAL`` does not sync) is quick in SQLite, while on aiosqlite's thread it
would wait for that thread to get the GIL for each statement and for the event loop's turn
on the way back (figures: docs/benchmarks.md). So a move is written here, at once, on a
connection of its own, unless the file's write lock is taken (a hop of the shared
connection, another process, a stall): this connection never waits for it
(``busy_timeout=0``) and the move then goes the queued way, which does.

It never checkpoints either (``wal_autocheckpoint=0``: a checkpoint syncs the file); it
says when enough was written for the repository to have it done on a worker thread.

A read of a few indexed rows (a game's log, its players' ratings and achievements, a
server's settings) is made here as well, for the same reason: through the shared
connection it would take two or three hops to aiosqlite's thread, each waiting for the
loop's turn and behind the hop then running, at each game's start and end. In WAL a
reader never waits for the writer.
"""

from __future__ import annotations

import logging
import sqlite3
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from bot.storage.sqlite.now import give_now

CHECKPOINT_EVERY = 200  # commits (a move writes a handful of pages: about SQLite's 1,000)
# A write that waits longer than this (a disk that stalls) sends the moves to aiosqlite's
# thread for ``SLOW_PAUSE`` seconds: the event loop, heartbeats included, must not wait on
# the disk.
SLOW_SECONDS = 0.05
SLOW_PAUSE = 30.0

log = logging.getLogger(__name__)

_WAIT_CODES = (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED)


def _must_wait(error: sqlite3.Error) -> bool:
    """The write lock (or the WAL's index) is someone else's right now."""
    code = getattr(error, "sqlite_errorcode", None)
    return code is not None and code & 0xFF in _WAIT_CODES


class InlineWriter:
    def __init__(self, db: sqlite3.Connection) -> None:
        self._db: sqlite3.Connection | None = db
        self._commits = 0

    @classmethod
    def open(cls, path: Path | str) -> InlineWriter:
        # Used from the event loop's thread only; closed from it too.
        db = sqlite3.connect(str(path), isolation_level=None, check_same_thread=False)
        try:
            give_now(db)
            db.execute("PRAGMA busy_timeout=0")
            db.execute("PRAGMA foreign_keys=ON")
            db.execute("PRAGMA synchronous=NORMAL")
            db.execute("PRAGMA wal_autocheckpoint=0")
            # A move touches a few pages (its game's row, the last of the log and of its
            # indexes), and the shared connection's writes throw this cache away: a small
            # one (256 KiB, where SQLite's default is 2 MiB) holds what a move needs.
            db.execute("PRAGMA cache_size=-256")
        except sqlite3.Error:
            db.close()
            raise
        return cls(db)

    def write(self, work: Callable[[sqlite3.Connection], None]) -> bool:
        """Run ``work`` in a transaction of its own and commit it: True. False when the
        write lock was not free at once: nothing is written, the caller queues the move.
        Whatever else ``work`` or the commit raises is raised, the transaction rolled back.
        """
        db = self._db
        if db is None:
            return False
        try:
            db.execute("BEGIN IMMEDIATE")
        except sqlite3.Error as error:
            if _must_wait(error):
                return False
            raise
        try:
            work(db)
            db.execute("COMMIT")
        except BaseException as error:
            self._roll_back(db)
            if isinstance(error, sqlite3.Error) and _must_wait(error):
                return False
            raise
        self._commits += 1
        return True

    def read(self, query: str, params: Sequence[Any]) -> list[sqlite3.Row] | None:
        """The rows of ``query``, read at once (a reader never waits for the write lock in
        WAL); None when the file would have it wait all the same (its WAL index being
        rebuilt): the caller reads through the shared connection. Other errors are raised.
        """
        db = self._db
        if db is None or db.in_transaction:
            return None
        cursor = db.cursor()
        cursor.row_factory = sqlite3.Row
        try:
            return cursor.execute(query, params).fetchall()
        except sqlite3.Error as error:
            if _must_wait(error):
                return None
            raise
        finally:
            cursor.close()  # its read transaction ends with it: nothing holds the WAL back

    def _roll_back(self, db: sqlite3.Connection) -> None:
        try:
            if db.in_transaction:
                db.execute("ROLLBACK")
        except sqlite3.Error:
            pass
        if db.in_transaction:  # stuck inside it: no later move may write here
            log.warning("the moves' SQLite connection could not roll back: closed, moves queued")
            self.close()

    def checkpoint_due(self) -> bool:
        """Whether enough was committed since the last time this said so."""
        if self._commits < CHECKPOINT_EVERY:
            return False
        self._commits = 0
        return True

    def close(self) -> None:
        db, self._db = self._db, None
        if db is not None:
            db.close()
