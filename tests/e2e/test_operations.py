"""Running the bot in production: its health and metrics endpoint, JSON logs, stops, and
a start while the database stalls.

The bot is ``python -m bot`` against the emulator, with ``GOBELET_HTTP_PORT`` set to a
port free on this machine; the test asks it over HTTP as a probe or Prometheus would.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import signal
import socket
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import aiohttp
import asyncpg
import pytest
from prometheus_client.parser import text_string_to_metric_families

from tests.e2e.botprocess import BotProcess
from tests.e2e.conftest import BOT_KEY
from tests.e2e.emulator import DiscordEmulator
from tests.e2e.maya_driver import MayaDriver, mark, wait_line
from tests.e2e.test_persistence import messages_stored
from tests.e2e.transcript import Message


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class Served:
    """The bot under test and an HTTP client of its endpoint."""

    def __init__(self, bot: BotProcess, http: aiohttp.ClientSession) -> None:
        self.bot = bot
        self.http = http

    async def get(self, path: str) -> tuple[int, str]:
        async with self.http.get(path) as response:
            return response.status, await response.text()

    async def samples(self) -> dict[tuple[str, frozenset[tuple[str, str]]], float]:
        status, text = await self.get("/metrics")
        assert status == 200
        return {
            (sample.name, frozenset(sample.labels.items())): sample.value
            for family in text_string_to_metric_families(text)
            for sample in family.samples
        }


@pytest.fixture
async def served(
    emulator: DiscordEmulator, tmp_path: Path, request: pytest.FixtureRequest
) -> AsyncIterator[Served]:
    port = free_port()
    env = {"GOBELET_HTTP_PORT": str(port), "GOBELET_LOG_FORMAT": "json"}
    marker = request.node.get_closest_marker("bot_env")
    process = BotProcess(emulator, tmp_path, env={**env, **(marker.kwargs if marker else {})})
    request.node.stash[BOT_KEY] = process
    try:
        await process.start()
        async with aiohttp.ClientSession(f"http://127.0.0.1:{port}") as http:
            yield Served(process, http)
    finally:
        await process.stop()


def value(samples: dict[Any, float], name: str, **labels: str) -> float:
    return samples.get((name, frozenset(labels.items())), 0.0)


async def test_health_is_ok_once_the_bot_is_connected_and_its_storage_answers(
    served: Served,
) -> None:
    status, body = await served.get("/health")
    assert status == 200, body
    assert json.loads(body) == {"status": "ok", "gateway": "ok", "storage": "ok"}


async def test_metrics_show_a_command_its_first_answer_and_the_live_table(
    emulator: DiscordEmulator, served: Served
) -> None:
    before = await served.samples()
    assert value(before, "gobelet_interactions_total", kind="command", shard="0") == 0
    assert value(before, "gobelet_live_tables", game="maya", shard="0") == 0
    comptoir = emulator.channel("bar", "comptoir")
    started = await emulator.slash("alice", comptoir, "maya start", {"cpu": 1})
    await started.reply()
    await emulator.slash("bob", comptoir, "aide")
    await emulator.wait_for(lambda: len(emulator.latencies) == 2, what="both answered")
    after = await served.samples()
    assert value(after, "gobelet_interactions_total", kind="command", shard="0") == 2
    answered = "gobelet_interaction_first_answer_seconds_count"
    assert value(after, answered, kind="command", shard="0") == 2
    # Each answer fell in a bucket: the +Inf one counts them all, the others some of them.
    inf = value(
        after,
        "gobelet_interaction_first_answer_seconds_bucket",
        kind="command",
        le="+Inf",
        shard="0",
    )
    assert inf == 2
    assert value(after, "gobelet_live_tables", game="maya", shard="0") == 1
    assert value(after, "gobelet_live_tables", game="yades", shard="0") == 0
    assert value(after, "process_resident_memory_bytes") > 0


@pytest.mark.bot_env(GOBELET_LOG_LEVEL="DEBUG")
async def test_json_logs_are_one_object_a_line_without_any_token(
    emulator: DiscordEmulator, served: Served
) -> None:
    # At DEBUG discord.py logs every gateway event and the URLs of its answers, both of
    # which carry an interaction's token.
    comptoir = emulator.channel("bar", "comptoir")
    await (await emulator.slash("alice", comptoir, "aide")).reply()
    await served.bot.stop()
    lines = [line for line in served.bot.log().splitlines() if not line.startswith("-----")]
    entries = [json.loads(line) for line in lines if line]
    assert {"time", "level", "logger", "message"} <= set(entries[0])
    assert any(entry["level"] == "DEBUG" for entry in entries)
    assert any("/interactions/" in entry["message"] for entry in entries)
    written = served.bot.log()
    assert emulator.token not in written
    assert emulator.interactions and all(i.token not in written for i in emulator.interactions)


# --------------------------------------------------------------------------- a graceful stop

CLOSING = {
    "fr": "Le bot s'arrête pour un instant (redémarrage ou mise à jour) : rien n'a été fait. "
    "Réessaie dans une minute !",
    "en": "The bot is stopping for a moment (a restart or an update): nothing was done. "
    "Try again in a minute!",
}
BACK_FR = "🔁 La table est de retour après un redémarrage du bot. On reprend !"
STOPPING = "stopping: new interactions are refused"


def table(driver: MayaDriver) -> Message:
    assert driver.table is not None
    return driver.table


async def test_a_sigterm_finishes_the_move_in_flight_refuses_the_rest_and_loses_nothing(
    emulator: DiscordEmulator, bot: BotProcess
) -> None:
    # The start of a game is caught mid-answer (its move stored, its table being shown) when
    # the bot is told to stop; Discord's window is widened to leave the test that time.
    emulator.response_deadline = 60.0
    alice, bob, carol = emulator.user("alice"), emulator.user("bob"), emulator.user("carol")
    comptoir = emulator.channel("bar", "comptoir")
    driver = MayaDriver(emulator, comptoir)
    await (await emulator.slash(alice, comptoir, "maya start", {"mode": "vies"})).reply()
    await driver.find_table()
    await driver.click(bob, "join")
    await emulator.wait_for(lambda: f"<@{bob.id}>" in table(driver).text, what="bob seated")
    held = emulator.hold("POST", "/callback")
    started = await emulator.slash(alice, comptoir, "maya commencer")
    await emulator.wait_for(lambda: held.path, what="the start's answer on its way")

    bot.signal(signal.SIGTERM)
    await emulator.wait_for(lambda: STOPPING in bot.log(), what="the bot to start stopping")
    # Whatever arrives now is refused, privately, in the reader's language: a command...
    for user, lang in ((bob, "fr"), (carol, "en")):
        late = await (await emulator.slash(user, comptoir, "maya des")).reply()
        assert late.ephemeral and late.audience == user.id
        assert late.text == CLOSING[lang]
    # ... and a click on the lobby's buttons, which would have seated carol.
    lobby = next(m for m in emulator.transcript.public(comptoir.id) if m.buttons)
    clicked = await emulator.click(carol, lobby, label="Rejoindre")
    assert (await clicked.reply()).text == CLOSING["en"]
    assert bot.alive  # the start is still being shown

    held.release()
    assert await bot.exit_code(timeout=20.0) == 0  # SIGKILLed (-9) had it not stopped
    await started.reply()  # the start's answer was delivered before the bot closed
    turn, shown = driver.turn(), table(driver).embeds
    assert turn.phase == "open" and turn.player in (alice.id, bob.id)
    assert f"<@{carol.id}>" not in table(driver).text
    assert "Traceback" not in bot.log()

    restarted = mark(emulator)
    await bot.start()
    await wait_line(emulator, comptoir, BACK_FR, since=restarted)
    assert driver.turn() == turn
    assert table(driver).embeds == shown


async def test_a_sigterm_with_nothing_in_flight_closes_at_once_with_code_0(
    emulator: DiscordEmulator, bot: BotProcess
) -> None:
    comptoir = emulator.channel("bar", "comptoir")
    await (await emulator.slash("alice", comptoir, "maya start")).reply()
    assert await bot.terminate() == 0
    assert STOPPING in bot.log() and "still in flight" not in bot.log()
    assert all(session.ws.closed for session in emulator.sessions)  # it said goodbye


# --------------------------------------------------------------------------- a stalled database

# What the bot logs while the database does not answer at start-up.
WAITING_FOR_DATABASE = "the database does not answer"


@contextlib.asynccontextmanager
async def games_locked(url: str) -> AsyncIterator[None]:
    """Another session locks the games table, as a long maintenance job would: every
    statement on it waits, and the bot's give up after its 10 s statement timeout."""
    connection = await asyncpg.connect(url)
    try:
        async with connection.transaction():
            await connection.execute("LOCK TABLE games IN ACCESS EXCLUSIVE MODE")
            yield
    finally:
        await connection.close()


async def a_lobby_then_a_kill(emulator: DiscordEmulator, bot: BotProcess) -> None:
    """A table to restore: a lobby, stored with its message; then the bot is killed."""
    comptoir = emulator.channel("bar", "comptoir")
    await (await emulator.slash("alice", comptoir, "maya start")).reply()
    await emulator.wait_for(lambda: messages_stored(bot, 1), what="the lobby stored")
    await bot.kill()


@pytest.mark.backends("postgres")
async def test_a_start_while_the_database_stalls_waits_for_it_then_restores_the_tables(
    emulator: DiscordEmulator, tmp_path: Path, database_url: str, request: pytest.FixtureRequest
) -> None:
    # A password in the URL (the test server trusts every connection and ignores it), which
    # no line of the log may show.
    url = database_url.replace("://gobelet@", "://gobelet:s3cret-pw@", 1)
    assert "s3cret-pw" in url
    bot = BotProcess(emulator, tmp_path, database_url=url)
    request.node.stash[BOT_KEY] = bot
    comptoir = emulator.channel("bar", "comptoir")
    try:
        await bot.start()
        await a_lobby_then_a_kill(emulator, bot)
        restarted = mark(emulator)
        async with games_locked(database_url):
            bot.launch()
            await emulator.wait_for(
                lambda: WAITING_FOR_DATABASE in bot.log(), timeout=30.0, what="the bot to wait"
            )
            await asyncio.sleep(1.0)
            assert bot.alive
        await bot.started(timeout=60.0)
        await wait_line(emulator, comptoir, BACK_FR, since=restarted)
        assert "s3cret-pw" not in bot.log()
    finally:
        await bot.stop()


@pytest.mark.backends("postgres")
async def test_a_sigterm_while_the_start_waits_for_the_database_ends_the_bot_at_once(
    emulator: DiscordEmulator, bot: BotProcess, database_url: str
) -> None:
    await a_lobby_then_a_kill(emulator, bot)
    async with games_locked(database_url):
        bot.launch()
        await emulator.wait_for(
            lambda: WAITING_FOR_DATABASE in bot.log(), timeout=30.0, what="the bot to wait"
        )
        # Caught in its pause, or asking again (which the lock holds for 10 s): either way
        # the stop is at once, not once the database answers.
        await asyncio.sleep(1.5)
        bot.signal(signal.SIGTERM)
        assert await bot.exit_code(timeout=5.0) == 0  # SIGKILLed (-9) had it waited
    assert "Traceback" not in bot.log()
