"""``python -m bot``: run the bot; ``--check``: load everything offline and list the commands."""

from __future__ import annotations

import argparse
import asyncio
import signal
import sys

import discord
import uvloop

from bot import logs
from bot.client import Gobelet, IdentifyBudgetLow, point_at
from bot.config import ConfigError, Settings, load_settings
from bot.health import HealthServer
from bot.shutdown import shut_down
from bot.storage import Repository
from bot.web import WebServer

EXIT_CONFIG = 2
EXIT_LOST_SHARD = 3  # another process may run one of ours now: the supervisor restarts us
EXIT_RESHARD = 4  # Discord wants more shards than it recommended: a restart asks again
EXIT_IDENTIFY_BUDGET = 5  # too few of the day's gateway identifies left to start
AUTHENTICATION_FAILED = 4004  # the gateway's close code for a token it rejects (or reset)
SHARDING_REQUIRED = 4011  # the gateway's close code when a shard holds too many servers

TOKEN_HELP = (
    "DISCORD_TOKEN is not set.\n"
    "Create a bot at https://discord.com/developers/applications (Bot -> Reset Token), then either\n"
    "  export DISCORD_TOKEN=your-token\n"
    "or write the line DISCORD_TOKEN=your-token in a file named .env in this directory."
)


def _command_lines(bot: Gobelet) -> list[str]:
    lines: list[str] = []
    for command in sorted(bot.tree.walk_commands(), key=lambda c: c.qualified_name):
        if isinstance(command, discord.app_commands.Group):
            continue
        lines.append(f"/{command.qualified_name} — {command.description}")
    return lines


async def _check(settings: Settings) -> int:
    bot = Gobelet(settings, sync_commands=False)
    async with bot:
        await bot.prepare("sqlite:///:memory:")
        lines = _command_lines(bot)
    print(f"configuration ok: {settings!r}")
    print(f"{len(lines)} commands:")
    for line in lines:
        print(f"  {line}")
    return 0


def _repository(bot: Gobelet) -> Repository | None:
    """The bot's storage, once its start-up opened it."""
    tables = getattr(bot, "tables", None)
    return None if tables is None else tables.repository


async def _run(settings: Settings) -> int:
    point_at(settings)
    bot = Gobelet(settings)
    loop = asyncio.get_running_loop()
    stopping: list[asyncio.Task[None]] = []  # kept: the loop holds tasks only weakly
    for signum in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(signum, lambda: stopping.append(loop.create_task(shut_down(bot))))
    servers: list[tuple[str, str, int, HealthServer | WebServer]] = []
    if settings.http_port is not None:
        health = HealthServer(bot, settings.http_host, settings.http_port)
        servers.append(("GOBELET_HTTP_PORT", settings.http_host, settings.http_port, health))
    if settings.web_port is not None:
        pages = WebServer(lambda: _repository(bot), settings.web_host, settings.web_port)
        servers.append(("GOBELET_WEB_PORT", settings.web_host, settings.web_port, pages))
    async with bot:
        started: list[HealthServer | WebServer] = []
        try:
            for variable, host, port, server in servers:
                try:
                    await server.start()
                except OSError as error:
                    await server.stop()
                    print(
                        f"{variable}: cannot listen on {host}:{port} ({error.strerror or error})",
                        file=sys.stderr,
                    )
                    return EXIT_CONFIG
                started.append(server)
            try:
                await bot.start(settings.token or "")
            except discord.LoginFailure:
                print(
                    "Discord rejected DISCORD_TOKEN: check the token (it may have been reset).",
                    file=sys.stderr,
                )
                return EXIT_CONFIG
            except IdentifyBudgetLow as error:
                print(error, file=sys.stderr)
                return EXIT_IDENTIFY_BUDGET
            except discord.ConnectionClosed as error:
                if error.code == AUTHENTICATION_FAILED:
                    print(
                        "Discord's gateway rejected DISCORD_TOKEN (close 4004): the token was"
                        " reset (Discord resets it when the day's identifies run out); set the"
                        " new one from the developer portal.",
                        file=sys.stderr,
                    )
                    return EXIT_CONFIG
                if error.code != SHARDING_REQUIRED:
                    raise
                return _sharding_required(settings)
        finally:
            for server in started:
                await server.stop()
    if bot.lost_shard is not None:
        return EXIT_LOST_SHARD
    return 0


def _sharding_required(settings: Settings) -> int:
    """Discord closed a shard with 4011: it holds more servers than Discord allows one."""
    if settings.shards_given:
        print(
            f"Discord requires more shards than GOBELET_SHARD_COUNT={settings.shard_count} for "
            "the bot's servers (gateway close 4011): raise it, or leave it unset to follow "
            "Discord's recommendation.",
            file=sys.stderr,
        )
        return EXIT_CONFIG
    print(
        "Discord requires more shards than it recommended at start (gateway close 4011): "
        "restarting reads its new recommendation.",
        file=sys.stderr,
    )
    return EXIT_RESHARD


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot", description="Gobelet, the dice-game bot")
    parser.add_argument(
        "--check",
        action="store_true",
        help="load configuration, cogs and commands offline, print them, exit",
    )
    sub = parser.add_subparsers(dest="command")
    from bot.demo import demos

    games = demos()
    demo = sub.add_parser("demo", help="a whole game among CPU players, printed here")
    demo.add_argument("game", choices=list(games))
    demo.add_argument("--seed", type=int, default=1)
    demo.add_argument("--players", type=int, default=4, choices=range(2, 10), metavar="2..9")
    demo.add_argument("--lang", choices=["fr", "en"], default="fr")
    args = parser.parse_args(argv)
    if args.command == "demo":
        from bot.demo import run

        spec, _ = games[args.game]
        if not spec.min_players <= args.players <= spec.max_players:
            demo.error(f"{args.game} is played by {spec.min_players} to {spec.max_players} players")
        return run(args.game, seed=args.seed, players=args.players, lang=args.lang)
    try:
        settings = load_settings()
    except ConfigError as error:
        print(f"configuration error: {error}", file=sys.stderr)
        return EXIT_CONFIG
    logs.setup(settings.log_level, secrets=settings.secrets, style=settings.log_format)
    if args.check:
        return asyncio.run(_check(settings))
    if not settings.token:
        print(TOKEN_HELP, file=sys.stderr)
        return EXIT_CONFIG
    try:
        # uvloop: the event loop every interaction and REST call goes through, written in C
        # (a move's answer waits for that loop's turn, and the bot's time is mostly there).
        return uvloop.run(_run(settings))
    except KeyboardInterrupt:
        return 0


if __name__ == "__main__":
    sys.exit(main())
