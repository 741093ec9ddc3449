"""What a game's ``/reglages`` subcommands are given (``cogs.reglages`` assembles the group).

Kept apart from ``cogs.reglages``: an extension's module is executed again when it is
loaded, so the base the games' mixins derive from must live in a plain module.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import discord
from discord.ext import commands

from bot.i18n import t
from bot.interactions import answers
from bot.interactions.refusals import private_lang
from bot.storage import Repository

if TYPE_CHECKING:
    from bot.client import Gobelet


class GameSettings(commands.Cog):
    """What a game's settings mixin is given: the bot, the storage, saving a change."""

    bot: Gobelet

    @staticmethod
    def describe(settings: dict[str, Any], lang: str) -> list[str]:
        """The game's lines of ``/reglages voir``."""
        return []

    @property
    def repository(self) -> Repository:
        return self.bot.tables.repository

    async def _update(self, interaction: discord.Interaction, **changes: Any) -> None:
        """Store ``changes`` (None: back to the default), then show the settings privately."""
        guild = interaction.guild_id or 0
        settings = await self.repository.guild_settings(guild)
        for key, value in changes.items():
            if value is None:
                settings.pop(key, None)
            else:
                settings[key] = value
        await self.repository.save_guild_settings(guild, settings)
        await self._saved(interaction, settings)

    async def _saved(self, interaction: discord.Interaction, settings: dict[str, Any]) -> None:
        lang = private_lang(interaction)
        text = t(lang, "settings.saved") + "\n" + self.describe_all(settings, lang)
        await answers.reply(interaction, text, ephemeral=True)

    def describe_all(self, settings: dict[str, Any], lang: str) -> str:
        raise NotImplementedError
