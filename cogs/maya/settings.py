"""Maya's server settings: ``/reglages maya`` (new tables' rules) and ``/reglages gage``."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands

from bot.games import maya
from bot.i18n import t
from cogs.maya import options as maya_options
from cogs.table.free_text import free_text, shown
from cogs.table.settings import GameSettings


class MayaSettings(GameSettings):
    @staticmethod
    def describe(settings: dict[str, Any], lang: str) -> list[str]:
        gage = settings.get("gage")
        game = settings.get("maya") or {}
        mode = game.get("mode", maya.SOIREE)
        options = ", ".join(f"{k}={v}" for k, v in sorted(game.get("options", {}).items())) or "—"
        return [
            t(lang, "settings.gage", gage=shown(gage))
            if gage
            else t(lang, "settings.gage_default"),
            t(lang, "settings.maya", mode=mode, options=options),
        ]

    @app_commands.command(name="gage", description="Le gage des parties de Maya (soirée)")
    @app_commands.describe(mot="Par exemple : gorgée, piment, citron")
    async def gage(
        self, interaction: discord.Interaction, mot: app_commands.Range[str, 1, 30]
    ) -> None:
        word = free_text(mot, limit=maya.MAX_GAGE)
        maya.Rules.for_preset(maya.SOIREE, gage=word)
        await self._update(interaction, gage=None if word == "gorgée" else word)

    @app_commands.command(
        name="maya", description="Les règles par défaut des nouvelles tables de Maya"
    )
    @app_commands.describe(**maya_options.DESCRIPTIONS)
    @app_commands.choices(mode=maya_options.MODES, ouvreur=maya_options.OPENERS)
    async def maya_defaults(
        self,
        interaction: discord.Interaction,
        mode: str = maya.SOIREE,
        vies: app_commands.Range[int, 1, 10] | None = None,
        ouvreur: str | None = None,
        photo: bool | None = None,
        photo_memoire: bool | None = None,
        aveugle: bool | None = None,
        tapote: bool | None = None,
        seconde_chance: bool | None = None,
        warrior: bool | None = None,
        inversion: bool | None = None,
        fautes: bool | None = None,
    ) -> None:
        given = maya_options.given(locals())
        options = maya_options.rule_options(mode, given)
        maya.Rules.for_preset(mode, **options)  # refuse what the engine would refuse
        await self._update(interaction, maya={"mode": mode, "options": options})
