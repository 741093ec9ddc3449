"""Dés du menteur's server setting: ``/reglages menteur``, the rules of new tables."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands

from bot.games import menteur as lm
from bot.i18n import t
from cogs.menteur import options as menteur_options
from cogs.menteur.render import rules_label
from cogs.table.settings import GameSettings


class MenteurSettings(GameSettings):
    @staticmethod
    def describe(settings: dict[str, Any], lang: str) -> list[str]:
        rules = menteur_options.table_rules(settings, {})
        return [t(lang, "settings.menteur", rules=rules_label(rules, lang))]

    @app_commands.command(
        name="menteur", description="Les règles par défaut des nouvelles tables de dés du menteur"
    )
    @app_commands.describe(**menteur_options.DESCRIPTIONS)
    @app_commands.choices(des=menteur_options.DICE)
    async def menteur_defaults(
        self,
        interaction: discord.Interaction,
        des: int | None = None,
        jokers: bool | None = None,
        calza: bool | None = None,
        palifico: bool | None = None,
    ) -> None:
        """The options given replace the server's; those not given keep theirs."""
        guild = interaction.guild_id or 0
        settings = await self.repository.guild_settings(guild)
        given = {"dice": des, "jokers": jokers, "calza": calza, "palifico": palifico}
        current: dict[str, Any] = dict(settings.get("menteur") or {})
        current.update({name: value for name, value in given.items() if value is not None})
        defaults = lm.Rules().to_json()
        kept = {name: value for name, value in current.items() if defaults.get(name) != value}
        lm.Rules.for_preset(**kept)  # refuse what the engine would refuse
        await self._update(interaction, menteur=kept or None)
