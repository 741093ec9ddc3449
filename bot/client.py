"""The discord.py client: intents, start-up (cogs, command sync) and the API endpoints in use."""

from __future__ import annotations

import logging

import discord
import yarl
from discord.ext import commands

from bot.config import Settings

log = logging.getLogger(__name__)

# Extensions loaded at start-up, in order.
COGS: tuple[str, ...] = ()


def point_at(settings: Settings) -> None:
    """Send REST and gateway traffic to a proxy or a local emulator when the settings ask for it."""
    if settings.api_base_url:
        discord.http.Route.BASE = settings.api_base_url.rstrip("/")
    if settings.gateway_url:
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(settings.gateway_url)


def intents() -> discord.Intents:
    """Guilds and guild reactions only: nothing privileged."""
    chosen = discord.Intents.none()
    chosen.guilds = True
    chosen.guild_reactions = True
    return chosen


class Gobelet(commands.Bot):
    def __init__(self, settings: Settings, *, sync_commands: bool = True) -> None:
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=intents(),
            help_command=None,
            allowed_mentions=discord.AllowedMentions(everyone=False, roles=False, users=True),
        )
        self.settings = settings
        self.sync_commands = sync_commands

    async def load_cogs(self) -> None:
        for name in COGS:
            await self.load_extension(name)

    async def setup_hook(self) -> None:
        await self.load_cogs()
        if not self.sync_commands:
            return
        if self.settings.dev_guild_id:
            guild = discord.Object(id=self.settings.dev_guild_id)
            self.tree.copy_global_to(guild=guild)
            synced = await self.tree.sync(guild=guild)
        else:
            synced = await self.tree.sync()
        log.info("synced %d application commands", len(synced))
