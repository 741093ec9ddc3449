"""Fixtures for end-to-end tests: the Discord emulator, and the real bot running against it.

    async def test_something(emulator: DiscordEmulator, bot: BotProcess) -> None:
        alice = emulator.user("alice")
        comptoir = emulator.channel("bar", "comptoir")
        answer = await emulator.slash(alice, comptoir, "maya start")
        message = await answer.reply()

Override ``world`` in a test module for another cast; set bot environment variables with
``@pytest.mark.bot_env(GOBELET_TURN_SECONDS="1")``; shorten Discord's 3-second window with
``emulator.response_deadline``.

Every test with a ``bot`` runs once per database backend (``[sqlite]``, ``[postgres]``);
one that reads the SQLite file itself says so with ``@pytest.mark.backends("sqlite")``.

Discord's REST rate limits are on in every test, as Discord enforces them: per route, per
channel, and the bot token's global 50 requests a second (the interaction endpoints, which
carry the tables' traffic, are outside it). ``@pytest.mark.rate_limits(RateLimits(...))``
sets other figures.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Generator
from pathlib import Path

import pytest

from tests.e2e.botprocess import BotProcess
from tests.e2e.emulator import DiscordEmulator
from tests.e2e.identifies import CONCURRENCY
from tests.e2e.ratelimits import DISCORD_LIMITS
from tests.e2e.world import World
from tests.postgres import NoPostgres, PostgresServer, server_or_skip

BACKENDS = ("sqlite", "postgres")

BOT_KEY = pytest.StashKey[BotProcess]()
EMULATOR_KEY = pytest.StashKey[DiscordEmulator]()


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "bot_env(**variables): environment variables for the bot under test"
    )
    config.addinivalue_line(
        "markers", "backends(*names): the database backends the test runs on (default: all)"
    )
    config.addinivalue_line(
        "markers", "rate_limits(limits=DISCORD_LIMITS): the emulator enforces REST rate limits"
    )


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if "backend" in metafunc.fixturenames:
        marker = metafunc.definition.get_closest_marker("backends")
        chosen = marker.args if marker else BACKENDS
        metafunc.parametrize("backend", chosen, scope="function")


@pytest.fixture
async def database_url(
    backend: str, tmp_path: Path, postgres_server: PostgresServer | NoPostgres
) -> str:
    """The bot's GOBELET_DATABASE_URL: a SQLite file in the test's folder, or a new database
    on the session's PostgreSQL."""
    if backend == "postgres":
        return await server_or_skip(postgres_server).new_database()
    return f"sqlite:///{tmp_path / 'gobelet.db'}"


@pytest.fixture
def world() -> World:
    return World.default()


@pytest.fixture
async def emulator(world: World, request: pytest.FixtureRequest) -> AsyncIterator[DiscordEmulator]:
    marker = request.node.get_closest_marker("rate_limits")
    limits = marker.args[0] if marker is not None and marker.args else DISCORD_LIMITS
    emulator = DiscordEmulator(world, rate_limits=limits)
    await emulator.start()
    request.node.stash[EMULATOR_KEY] = emulator
    yield emulator
    await emulator.stop()
    # A bug in the emulator, or a route the bot needs that it lacks, must not pass silently.
    problems = emulator.internal_errors + [f"not emulated: {r}" for r in emulator.unhandled]
    # Nor may the bot identify faster than Discord allows (op 9 answers it then).
    problems += [
        f"identify refused past max_concurrency: {i}"
        for i in emulator.identifies
        if i.outcome == CONCURRENCY
    ]
    if problems:
        pytest.fail("emulator problems:\n" + "\n".join(problems))


@pytest.fixture
async def bot(
    emulator: DiscordEmulator, tmp_path: Path, database_url: str, request: pytest.FixtureRequest
) -> AsyncIterator[BotProcess]:
    """The real bot, logged in, commands synced, past on_ready; stopped after the test."""
    marker = request.node.get_closest_marker("bot_env")
    env = marker.kwargs if marker else None
    process = BotProcess(emulator, tmp_path, env=env, database_url=database_url)
    request.node.stash[BOT_KEY] = process
    try:
        await process.start()
        yield process
    finally:
        await process.stop()


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(
    item: pytest.Item, call: pytest.CallInfo[None]
) -> Generator[None, pytest.TestReport, pytest.TestReport]:
    # On failure, show what the bot printed and what it showed to whom.
    report = yield
    if report.failed:
        process = item.stash.get(BOT_KEY, None)
        if process is not None:
            report.sections.append(("bot log", process.log()[-20_000:]))
        emulator = item.stash.get(EMULATOR_KEY, None)
        if emulator is not None:
            report.sections.append(("emulator", emulator.describe()))
    return report
