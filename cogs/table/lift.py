"""``/soulever``: one command for every game that lifts a cup, played at the channel's table."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.table import TableError

if TYPE_CHECKING:
    from bot.client import Gobelet


class Lift(commands.Cog, name="Soulever"):
    def __init__(self, bot: Gobelet) -> None:
        self.bot = bot

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        if interaction.guild_id is None:
            raise app_commands.NoPrivateMessage()
        return True

    @app_commands.command(name="soulever", description="Soulever le gobelet : vérifier l'annonce")
    @app_commands.guild_only()
    async def lift(self, interaction: discord.Interaction) -> None:
        table = self.bot.tables.in_channel(interaction.channel_id or 0)
        if table is None:
            # Name the games where a cup is lifted, as the reader's client calls them.
            games = [name for name, cog in self.bot.shared.games.items() if cog.lifts]
            first, *others = games
            raise TableError(
                "no_table_lift",
                command=f"{first} start",
                other=f"{others[0] if others else first} start",
            )
        cog = self.bot.shared.games.get(table.kind)
        if cog is None:
            raise TableError("stale")
        await cog.lift(interaction, table)
