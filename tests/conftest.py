"""Fixtures every test folder shares: a real PostgreSQL server for the session."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.postgres import NoPostgres, PostgresServer, server_or_skip


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
