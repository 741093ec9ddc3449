"""SQLite's ``now()``: the statements are written once for both databases, and SQLite has no
such function. Each connection is given one (``give_now``) that returns the time the plan
running on its thread began (``began``), so that every statement of a transaction writes
the same time, in the ISO text (UTC, milliseconds) the schema keeps times as."""

from __future__ import annotations

import sqlite3
import threading
from datetime import UTC, datetime

_moment = threading.local()  # each connection is used from one thread at a time


def iso_now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")


def began() -> None:
    """A plan begins on this thread: its statements' ``now()`` is the time now."""
    _moment.stamp = iso_now()


def ended() -> None:
    _moment.stamp = None


def _now() -> str:
    stamp: str | None = getattr(_moment, "stamp", None)
    return stamp or iso_now()


def give_now(db: sqlite3.Connection) -> None:
    """Give ``db`` the ``now()`` function (from the connection's own thread)."""
    db.create_function("now", 0, _now)
