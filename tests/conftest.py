"""Fixtures every test folder shares: a real PostgreSQL server for the session."""

from __future__ import annotations

import compileall
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.postgres import NoPostgres, PostgresServer, server_or_skip

ROOT = Path(__file__).resolve().parents[1]


def pytest_sessionstart(session: pytest.Session) -> None:
    # The end-to-end tests start the bot (``python -m bot``) hundreds of times. Where
    # PYTHONDONTWRITEBYTECODE is set, no start keeps the bytecode of the project's modules,
    # so each one would compile them all again: compile them once here (py_compile writes
    # whatever that variable says; a file edited later is simply compiled again in memory).
    # Once per run: xdist's workers come after this.
    if not hasattr(session.config, "workerinput"):
        for folder in ("bot", "cogs", "tests/e2e/boot"):
            compileall.compile_dir(ROOT / folder, quiet=1)


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[PostgresServer | NoPostgres]:
    """Started on first use, stopped at the end of the session."""
    try:
        server: PostgresServer | NoPostgres = PostgresServer.start()
    except NoPostgres as missing:
        server = missing
    yield server
    if isinstance(server, PostgresServer):
        server.stop()


@pytest.fixture
async def postgres_url(postgres_server: PostgresServer | NoPostgres) -> str:
    """The URL of a new, empty database on the session's server."""
    return await server_or_skip(postgres_server).new_database()
