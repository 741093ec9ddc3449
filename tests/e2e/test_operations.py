"""Running the bot in production: its health and metrics endpoint, JSON logs.

The bot is ``python -m bot`` against the emulator, with ``GOBELET_HTTP_PORT`` set to a
port free on this machine; the test asks it over HTTP as a probe or Prometheus would.
"""

from __future__ import annotations

import json
import socket
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import aiohttp
import pytest
from prometheus_client.parser import text_string_to_metric_families

from tests.e2e.botprocess import BotProcess
from tests.e2e.conftest import BOT_KEY
from tests.e2e.emulator import DiscordEmulator


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
