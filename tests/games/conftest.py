from __future__ import annotations

import pytest

from tests.games import cpu_tables


@pytest.fixture(scope="session", autouse=True)
def shipped_cpu_tables() -> None:
    """The CPUs play as they do in the bot, from the tables it ships (see ``cpu_tables``)."""
    cpu_tables.install()
