"""The telemetry registry and the health endpoint's checks, without Discord."""

from __future__ import annotations

import asyncio
import gc
import os
import random
import sys
import time
from pathlib import Path
from typing import Any

import aiohttp
import discord
import pytest
from prometheus_client import generate_latest
from prometheus_client.parser import text_string_to_metric_families

from bot import health, telemetry
from bot.config import load_settings
from bot.games import maya
from bot.interactions import answers
from bot.storage import open_repository
from bot.table import TableRunner
from tests.bot.test_answers import CLICK, SLASH, FakeInteraction

ROOT = Path(__file__).resolve().parents[2]
AUTOCOMPLETE = discord.InteractionType.autocomplete
KINDS = ("command", "component", "modal", "autocomplete")


def sample(name: str, **labels: str) -> float:
    return telemetry.REGISTRY.get_sample_value(name, labels) or 0.0


def test_a_guild_is_counted_on_the_shard_discord_sends_it_to() -> None:
    guild = (1234 << 22) | 999  # a snowflake: its timestamp picks the shard
    assert telemetry.shard_of(guild, 4) == str(1234 % 4) == "2"
    assert telemetry.shard_of(guild, None) == "0"  # an unsharded bot is one shard
    assert telemetry.shard_of(None, 4) == "0"  # direct messages go to shard 0


async def test_each_interaction_is_counted_by_kind_and_its_first_answer_timed_once(
    monkeypatch,
) -> None:
    monkeypatch.setattr(answers, "WATCH_SECONDS", 0.01)
    count = "gobelet_interaction_first_answer_seconds_count"
    before = {kind: sample("gobelet_interactions_total", kind=kind, shard="0") for kind in KINDS}
    timed = {kind: sample(count, kind=kind, shard="0") for kind in KINDS}
    slash, click = FakeInteraction(SLASH), FakeInteraction(CLICK)
    answers.watch(slash)  # type: ignore[arg-type]
    answers.watch(click)  # type: ignore[arg-type]
    answers.watch(FakeInteraction(AUTOCOMPLETE))  # type: ignore[arg-type]
    slash_watchdog = answers._state(slash).watchdog  # type: ignore[arg-type]
    await answers.reply(slash, "one", ephemeral=True)  # type: ignore[arg-type]
    await answers.reply(slash, "two", ephemeral=True)  # type: ignore[arg-type]
    # The click's watchdog defers it: its first answer. The slash's was let go when answered.
    await asyncio.gather(*answers._watchdogs, return_exceptions=True)
    assert slash_watchdog is not None and slash_watchdog.cancelled()
    after = {kind: sample("gobelet_interactions_total", kind=kind, shard="0") for kind in KINDS}
    assert {kind: after[kind] - before[kind] for kind in KINDS} == {
        "command": 1,
        "component": 1,
        "autocomplete": 1,
        "modal": 0,
    }
    # The followup "two" is no first answer; discord.py answers an autocomplete itself.
    assert {kind: sample(count, kind=kind, shard="0") - timed[kind] for kind in KINDS} == {
        "command": 1,
        "component": 1,
        "autocomplete": 0,
        "modal": 0,
    }


async def test_a_move_stored_is_a_timed_write(tmp_path) -> None:
    tables = TableRunner(await open_repository(f"sqlite:///{tmp_path}/g.db"), load_settings({}))
    try:
        rules = maya.Rules.for_preset("vies", vies=1)
        table = await tables.open(
            kind="maya", guild_id=1, channel_id=2, starter=10, rules=rules, lang="fr"
        )
        await tables.join_lobby(table, 11)
        await tables.start(table)
        writes = sample("gobelet_storage_write_seconds_count")
        rng = random.Random(1)
        legal = maya.turn_actions(table.state, table.state.current)
        async with table.lock:
            await tables.act(table, maya.complete(table.state, rng.choice(legal), rng))
        assert sample("gobelet_storage_write_seconds_count") == writes + 1
    finally:
        await tables.close()


async def test_a_blocked_event_loop_is_seen_as_lag(monkeypatch) -> None:
    monkeypatch.setattr(telemetry, "LAG_PERIOD", 0.01)
    count, total = "gobelet_event_loop_lag_seconds_count", "gobelet_event_loop_lag_seconds_sum"
    before, lag_before = sample(count), sample(total)
    watcher = asyncio.create_task(telemetry.watch_the_loop())
    await asyncio.sleep(0)  # the watcher starts its sleep
    time.sleep(0.06)  # the loop is blocked: the watcher wakes about 50 ms late
    await asyncio.sleep(0.03)
    watcher.cancel()
    assert sample(count) >= before + 1
    assert sample(total) - lag_before >= 0.04


def test_each_collection_is_timed_by_generation() -> None:
    telemetry.watch_the_collector()
    telemetry.watch_the_collector()  # once per process, however often asked
    assert gc.callbacks.count(telemetry._PAUSES) == 1
    name = "gobelet_gc_pause_seconds_count"
    before = sample(name, generation="2")
    gc.collect()
    assert sample(name, generation="2") == before + 1


def test_the_live_tables_are_counted_by_game_and_shard_when_scraped(monkeypatch) -> None:
    live = [("maya", 5 << 22), ("maya", 6 << 22), ("yades", 6 << 22)]
    monkeypatch.setattr(telemetry.LIVE_TABLES, "source", lambda: (live, 2))
    monkeypatch.setattr(telemetry.LIVE_TABLES, "games", ("maya", "menteur", "yades"))
    assert sample("gobelet_live_tables", game="maya", shard="0") == 1
    assert sample("gobelet_live_tables", game="maya", shard="1") == 1
    assert sample("gobelet_live_tables", game="yades", shard="0") == 1
    # A game with no table is listed at 0 on every shard, so that its series never vanish.
    assert (
        telemetry.REGISTRY.get_sample_value(
            "gobelet_live_tables", {"game": "menteur", "shard": "1"}
        )
        == 0
    )
    live.append(("menteur", 7 << 22))
    assert sample("gobelet_live_tables", game="menteur", shard="1") == 1


def test_the_text_format_holds_the_bots_series_and_the_process_figures() -> None:
    text = generate_latest(telemetry.REGISTRY).decode()
    names = {family.name for family in text_string_to_metric_families(text)}
    assert {
        "gobelet_interactions",
        "gobelet_interaction_first_answer_seconds",
        "gobelet_storage_write_seconds",
        "gobelet_live_tables",
        "process_resident_memory_bytes",
        "python_info",
    } <= names


# ------------------------------------------------------------------ health


class FakeWebsocket:
    def __init__(self, open_: bool) -> None:
        self.open = open_


class FakeBot:
    def __init__(self, *, ready: bool = True, ws_open: bool = True, tables: Any = None) -> None:
        self.ready, self.closed = ready, False
        self.ws = FakeWebsocket(ws_open)
        if tables is not None:
            self.tables = tables

    def is_ready(self) -> bool:
        return self.ready

    def is_closed(self) -> bool:
        return self.closed


class FakeShard:
    def __init__(self, closed: bool) -> None:
        self.closed = closed

    def is_closed(self) -> bool:
        return self.closed


class Repository:
    def __init__(self, answer: Any) -> None:
        self.answer = answer

    async def game(self, game_id: int) -> None:
        if isinstance(self.answer, BaseException):
            raise self.answer
        await asyncio.sleep(self.answer)


class FakeTables:
    def __init__(self, answer: Any = 0.0) -> None:
        self.repository = Repository(answer)
        self.by_id: dict[int, Any] = {}


def test_the_gateway_is_ok_only_connected_and_ready() -> None:
    assert health.gateway_status(FakeBot()) == "ok"
    assert health.gateway_status(FakeBot(ready=False)) == "connecting"
    assert health.gateway_status(FakeBot(ws_open=False)) == "disconnected"
    closing = FakeBot()
    closing.closed = True
    assert health.gateway_status(closing) == "closing"
    sharded = FakeBot()
    sharded.shards = {0: FakeShard(False), 1: FakeShard(True), 2: FakeShard(True)}  # type: ignore[attr-defined]
    assert health.gateway_status(sharded) == "shards 1, 2 disconnected"


async def test_the_storage_is_ok_only_when_a_read_answers_in_time(monkeypatch) -> None:
    monkeypatch.setattr(health, "STORAGE_SECONDS", 0.05)
    assert await health.storage_status(FakeBot()) == "not open yet"
    assert await health.storage_status(FakeBot(tables=FakeTables())) == "ok"
    slow = FakeBot(tables=FakeTables(answer=5.0))
    assert await health.storage_status(slow) == "no answer within 0.05 s"
    broken = FakeBot(tables=FakeTables(answer=ConnectionRefusedError("db:5432 secret")))
    assert await health.storage_status(broken) == "error (ConnectionRefusedError)"


@pytest.fixture
async def served(unused_tcp_port: int):
    bot = FakeBot(tables=FakeTables())
    server = health.HealthServer(bot, "127.0.0.1", unused_tcp_port)
    await server.start()
    async with aiohttp.ClientSession(f"http://127.0.0.1:{unused_tcp_port}") as session:
        yield bot, session
    await server.stop()


async def test_health_is_200_when_both_parts_are_ok_else_503_naming_the_part(served) -> None:
    bot, session = served
    async with session.get("/health") as response:
        assert response.status == 200
        assert await response.json() == {"status": "ok", "gateway": "ok", "storage": "ok"}
    bot.ws.open = False
    async with session.get("/health") as response:
        assert response.status == 503
        assert await response.json() == {
            "status": "down",
            "gateway": "disconnected",
            "storage": "ok",
        }


async def test_the_telemetry_is_served_in_prometheus_text_format(served) -> None:
    _, session = served
    async with session.get("/metrics") as response:
        assert response.status == 200
        assert response.headers["Content-Type"].startswith("text/plain; version=")
        text = await response.text()
    assert "# TYPE gobelet_interactions_total counter" in text
    async with session.get("/") as response:
        assert response.status == 404


async def probe(**env: str) -> tuple[int, str]:
    """``python -m bot.probe`` (what the image's HEALTHCHECK runs), with ``env``."""
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "GOBELET_"))}
    clean["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), clean.get("PYTHONPATH")]))
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "bot.probe",
        env={**clean, **env},
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    out, err = await process.communicate()
    assert process.returncode is not None
    return process.returncode, (out + err).decode()


async def test_the_probe_asks_the_port_the_bot_listens_on(
    served, unused_tcp_port, unused_tcp_port_factory
) -> None:
    bot, _ = served
    port = str(unused_tcp_port)  # the served bot's
    assert await probe(GOBELET_HTTP_PORT=port, GOBELET_HTTP_HOST="0.0.0.0") == (
        0,
        '{"status": "ok", "gateway": "ok", "storage": "ok"}\n',
    )
    bot.ws.open = False
    code, said = await probe(GOBELET_HTTP_PORT=port)
    assert code == 1 and '"gateway": "disconnected"' in said
    code, said = await probe(GOBELET_HTTP_PORT=str(unused_tcp_port_factory()))  # nobody there
    assert code == 1 and "Connection refused" in said
    code, said = await probe()
    assert code == 1 and "GOBELET_HTTP_PORT is not set" in said
