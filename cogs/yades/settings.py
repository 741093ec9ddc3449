"""Yadès's server setting: ``/reglages yades``, the sheet of new tables."""

from __future__ import annotations

import re
from typing import Any

import discord
from discord import app_commands

from bot.games import yades
from bot.i18n import t
from bot.interactions import answers
from cogs.table.settings import GameSettings
from cogs.yades.expert import Expert, sheet_rules


def _words(text: str | None) -> list[str]:
    """Box names typed by a member: "brelan, chance" -> ["brelan", "chance"]."""
    return [word for word in re.split(r"[\s,;]+", (text or "").lower()) if word]


class YadesSettings(GameSettings):
    @staticmethod
    def describe(settings: dict[str, Any], lang: str) -> list[str]:
        sheet = settings.get("yades") or {}
        removed = ", ".join(sheet.get("remove", [])) or "—"
        added = ", ".join(sheet.get("add", [])) or "—"
        preset = sheet.get("preset", yades.YADES)
        return [t(lang, "settings.yades", preset=preset, removed=removed, added=added)]

    @app_commands.command(name="yades", description="La feuille de Yadès des nouvelles tables")
    @app_commands.describe(
        preset="Les règles : yades ou classique (Yahtzee)",
        retirer="Les cases à retirer de la feuille, séparées par des virgules (ex. : brelan, chance)",
        ajouter="Des cases à ajouter : paire (deux dés pareils, leur somme), suite_5 (50)",
    )
    @app_commands.choices(
        preset=[
            app_commands.Choice(name="Yadès", value=yades.YADES),
            app_commands.Choice(name="classique (Yahtzee)", value=yades.CLASSIQUE),
        ]
    )
    async def yades_sheet(
        self,
        interaction: discord.Interaction,
        preset: str = yades.YADES,
        retirer: app_commands.Range[str, 1, 200] | None = None,
        ajouter: app_commands.Range[str, 1, 100] | None = None,
    ) -> None:
        remove = _words(retirer)
        add = _words(ajouter)
        unknown = [name for name in add if name not in yades.EXTRA_BOXES]
        if unknown:
            raise yades.InvalidRules(option="ajouter", value=", ".join(unknown))
        wanted = {"yades": {"preset": preset, "remove": remove, "add": add}}
        rules = sheet_rules(wanted, preset)  # refuses an unknown box, or too many
        # A new sheet needs the expert's table: solving it takes seconds, off the event loop.
        await answers.think(interaction, ephemeral=True)
        expert = self.bot.shared.service(Expert)
        if expert is not None:  # the Yadès cog loads a sheet's table when a game needs it
            await expert.load(rules)
        guild = interaction.guild_id or 0
        settings = await self.repository.guild_settings(guild)
        settings.update(wanted)
        await self.repository.save_guild_settings(guild, settings)
        await self._saved(interaction, settings)
