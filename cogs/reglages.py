"""Server settings: ``/reglages …`` (Manage Server only).

The settings every table shares (the turn timer, the language of public messages) are
here; each game adds its own subcommands and their lines of ``/reglages voir`` with a
mixin its Discord package exports as ``SETTINGS`` (``cogs.<game>.SETTINGS``), so the group
is assembled from the registry.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

import discord
from discord import app_commands
from discord.ext import commands

from bot.i18n import t
from bot.table import TableError
from cogs.table import answers
from cogs.table.errors import private_lang
from cogs.table.packages import declared
from cogs.table.settings import GameSettings

if TYPE_CHECKING:
    from bot.client import Gobelet

TURN_LEAST, TURN_MOST = 15, 600  # the turn timer a server may set, in seconds
LANGUAGES = ("fr", "en", "auto")


def describe_settings(
    settings: dict[str, Any], lang: str, games: tuple[type[GameSettings], ...]
) -> str:
    lines = [t(lang, "settings.title")]
    seconds = settings.get("turn_seconds")
    lines.append(
        t(lang, "settings.timer", seconds=seconds) if seconds else t(lang, "settings.timer_default")
    )
    language = settings.get("language")
    lines.append(
        t(lang, "settings.language", language=language)
        if language
        else t(lang, "settings.language_auto")
    )
    for game in games:
        lines += game.describe(settings, lang)
    return "\n".join(lines)


class Settings(GameSettings):
    """The settings every table shares; the games' mixins come first in the bases."""

    games: ClassVar[tuple[type[GameSettings], ...]] = ()

    def __init__(self, bot: Gobelet) -> None:
        self.bot = bot

    def describe_all(self, settings: dict[str, Any], lang: str) -> str:
        return describe_settings(settings, lang, self.games)

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        if interaction.guild_id is None:
            raise app_commands.NoPrivateMessage()
        if not interaction.permissions.manage_guild:
            # A check must raise an AppCommandError: anything else never reaches the tree's
            # error handler, and the member would get no answer at all.
            raise app_commands.MissingPermissions(["manage_guild"])
        return True

    @app_commands.command(name="voir", description="Voir les réglages du serveur")
    async def show(self, interaction: discord.Interaction) -> None:
        settings = await self.repository.guild_settings(interaction.guild_id or 0)
        text = self.describe_all(settings, private_lang(interaction))
        await answers.reply(interaction, text, ephemeral=True)

    @app_commands.command(name="minuteur", description="Le temps pour jouer son tour, en secondes")
    @app_commands.describe(secondes="De 15 à 600 secondes")
    async def timer(
        self, interaction: discord.Interaction, secondes: app_commands.Range[int, 15, 600]
    ) -> None:
        if not TURN_LEAST <= secondes <= TURN_MOST:
            raise TableError("timer_range", least=TURN_LEAST, most=TURN_MOST)
        await self._update(interaction, turn_seconds=secondes)

    @app_commands.command(name="langue", description="La langue des messages publics")
    @app_commands.describe(langue="fr, en, ou auto (la langue du serveur)")
    @app_commands.choices(
        langue=[
            app_commands.Choice(name="français", value="fr"),
            app_commands.Choice(name="english", value="en"),
            app_commands.Choice(name="auto", value="auto"),
        ]
    )
    async def language(self, interaction: discord.Interaction, langue: str) -> None:
        if langue not in LANGUAGES:
            raise TableError("unknown_language", languages=", ".join(LANGUAGES))
        await self._update(interaction, language=None if langue == "auto" else langue)

    @app_commands.command(name="reinitialiser", description="Revenir aux réglages par défaut")
    async def reset(self, interaction: discord.Interaction) -> None:
        await self.repository.save_guild_settings(interaction.guild_id or 0, {})
        await self._saved(interaction, {})


def game_settings() -> tuple[type[GameSettings], ...]:
    """The settings mixins of the registered games (``cogs.<game>.SETTINGS``), in order."""
    return tuple(mixin for _, mixin in declared("SETTINGS"))


def settings_cog(bot: Gobelet) -> commands.Cog:
    """The ``/reglages`` group: the shared settings and every game's."""
    games = game_settings()
    namespace: dict[str, Any] = {
        "games": games,
        "__discord_app_commands_guild_only__": True,
        "__discord_app_commands_default_permissions__": discord.Permissions(manage_guild=True),
        "__module__": __name__,
    }
    cls = type(
        "ReglagesCog",
        (*games, Settings, commands.GroupCog),
        namespace,
        name="Reglages",
        group_name="reglages",
        group_description="Les réglages du serveur (Gérer le serveur)",
    )
    cog: commands.Cog = cls(bot)
    return cog


async def setup(bot: Gobelet) -> None:
    await bot.add_cog(settings_cog(bot))
