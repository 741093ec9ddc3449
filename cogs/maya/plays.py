"""Maya's commands outside its group: ``/croire`` and ``/faute``, and the votes' reactions."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

if TYPE_CHECKING:
    from cogs.maya.cog import MayaCog


class MayaPlays(commands.Cog, name="MayaPlays"):
    def __init__(self, maya: MayaCog) -> None:
        self.maya = maya

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        if interaction.guild_id is None:
            raise app_commands.NoPrivateMessage()
        return True

    @app_commands.command(
        name="croire", description="Croire l'annonce : le gobelet passe, tu relances"
    )
    @app_commands.guild_only()
    @app_commands.describe(
        aveugle="Sans regarder tes dés", style="Face à un Maya : Fragile ou Warrior"
    )
    @app_commands.choices(
        style=[
            app_commands.Choice(name="Fragile (1 gorgée)", value="fragile"),
            app_commands.Choice(name="Warrior (tenter le Maya)", value="warrior"),
        ]
    )
    async def believe(
        self, interaction: discord.Interaction, aveugle: bool = False, style: str | None = None
    ) -> None:
        await self.maya.believe(interaction, aveugle, style)

    @app_commands.command(
        name="faute", description="Accuser un joueur de faute de jeu (vote de la table)"
    )
    @app_commands.guild_only()
    @app_commands.describe(joueur="Le joueur accusé", motif="Le motif de l'accusation")
    async def fault(
        self,
        interaction: discord.Interaction,
        joueur: discord.User,
        motif: app_commands.Range[str, 1, 200],
    ) -> None:
        table = self.maya.table_here(interaction)
        await self.maya.faults.accuse(interaction, table, joueur.id, motif)

    @commands.Cog.listener()
    async def on_raw_reaction_add(self, payload: discord.RawReactionActionEvent) -> None:
        await self.maya.faults.on_reaction(payload, added=True)

    @commands.Cog.listener()
    async def on_raw_reaction_remove(self, payload: discord.RawReactionActionEvent) -> None:
        await self.maya.faults.on_reaction(payload, added=False)
