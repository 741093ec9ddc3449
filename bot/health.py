"""The HTTP endpoint of probes and Prometheus, served when ``GOBELET_HTTP_PORT`` is set.

``GET /health`` answers 200 when the bot is connected to Discord's gateway (every shard)
and its storage answers a read, else 503; its JSON body says which part is down.
``GET /metrics`` is ``bot.telemetry``'s registry in Prometheus' text format. Nothing else is
served, and requests are not logged (a probe every few seconds would fill the log).
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from aiohttp import web
from prometheus_client import CONTENT_TYPE_LATEST, generate_latest

from bot import telemetry
from bot.games import REGISTRY

log = logging.getLogger(__name__)

STORAGE_SECONDS = 2.0  # a read slower than this counts as down (a probe waits for the answer)
OK = "ok"


def gateway_status(bot: Any) -> str:
    """``ok``, or what keeps the bot off the gateway."""
    if getattr(bot, "closing", False) or bot.is_closed():
        return "closing"
    if not bot.is_ready():
        return "connecting"
    shards = getattr(bot, "shards", None)  # a sharded client's, by shard id
    if isinstance(shards, dict) and shards:
        down = sorted(shard_id for shard_id, shard in shards.items() if shard.is_closed())
        return f"shards {', '.join(map(str, down))} disconnected" if down else OK
    ws = bot.ws
    return OK if ws is not None and ws.open else "disconnected"


async def storage_status(bot: Any) -> str:
    """``ok`` when the storage answers a read in time, else why not."""
    tables = getattr(bot, "tables", None)
    if tables is None:
        return "not open yet"
    try:
        await asyncio.wait_for(tables.repository.game(0), STORAGE_SECONDS)
    except TimeoutError:
        return f"no answer within {STORAGE_SECONDS:g} s"
    except Exception as error:
        # The error's class only: a driver's message may quote the database's address.
        return f"error ({type(error).__name__})"
    return OK


class HealthServer:
    def __init__(self, bot: Any, host: str, port: int) -> None:
        self.bot = bot
        self.host = host
        self.port = port
        app = web.Application()
        app.router.add_get("/health", self.health)
        app.router.add_get("/metrics", self.scrape)
        self.runner = web.AppRunner(app, access_log=None)
        self._lag: asyncio.Task[None] | None = None
        telemetry.watch_tables(self._tables, (spec.name for spec in REGISTRY))

    def _tables(self) -> tuple[list[tuple[str, int]], int]:
        tables = getattr(self.bot, "tables", None)
        live = [] if tables is None else [(t.kind, t.guild_id) for t in tables.by_id.values()]
        return live, telemetry.shard_count(self.bot)

    async def start(self) -> None:
        """Listen (raises OSError when the address cannot be bound)."""
        await self.runner.setup()
        await web.TCPSite(self.runner, self.host, self.port).start()
        log.info("health and metrics on http://%s:%d/", self.host, self.port)
        self._lag = asyncio.create_task(telemetry.watch_the_loop())
        telemetry.watch_the_collector()

    async def stop(self) -> None:
        if self._lag is not None:
            self._lag.cancel()
        await self.runner.cleanup()

    async def health(self, request: web.Request) -> web.Response:
        parts = {"gateway": gateway_status(self.bot), "storage": await storage_status(self.bot)}
        healthy = all(value == OK for value in parts.values())
        body = {"status": OK if healthy else "down", **parts}
        return web.json_response(body, status=200 if healthy else 503)

    async def scrape(self, request: web.Request) -> web.Response:
        """What Prometheus reads: ``bot.telemetry``'s registry, in its text format."""
        body = generate_latest(telemetry.REGISTRY)
        return web.Response(body=body, headers={"Content-Type": CONTENT_TYPE_LATEST})
