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
from bot.interactions import answers
from bot.interactions.packages import declared
from bot.interactions.refusals import private_lang
from bot.leaderboards import season_span
from bot.storage import Season, WebPage
from bot.table import TableError
from bot.table.seasons import CHANNEL_SETTING, DEFAULT_MONTHS, LENGTHS, MONTHS_SETTING, midnight
from bot.web import new_token, page_address
from cogs.table import threads
from cogs.table.settings import GameSettings

if TYPE_CHECKING:
    from bot.client import Gobelet

TURN_LEAST, TURN_MOST = 15, 600  # the turn timer a server may set, in seconds
ORGANIZERS = "tournament_role"  # the role that may organize tournaments (cogs.tournoi)
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
    months = settings.get(MONTHS_SETTING, DEFAULT_MONTHS)
    channel = settings.get(CHANNEL_SETTING)
    lines.append(
        t(lang, "settings.season", months=months, channel=f"<#{channel}>")
        if channel
        else t(lang, "settings.season_quiet", months=months)
    )
    lines.append(
        t(lang, "settings.threads_on" if settings.get(threads.SETTING) else "settings.threads_off")
    )
    role = settings.get(ORGANIZERS)
    lines.append(
        t(lang, "settings.tournament_role", role=f"<@&{role}>")
        if role
        else t(lang, "settings.tournament_role_none")
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

    @app_commands.command(name="fils", description="Ouvrir chaque table dans un fil du salon")
    @app_commands.describe(activer="Chaque table dans un fil public (non : dans le salon)")
    async def tables_in_threads(self, interaction: discord.Interaction, activer: bool) -> None:
        await self._update(interaction, **{threads.SETTING: True if activer else None})

    @app_commands.command(name="tournois", description="Qui peut organiser des tournois")
    @app_commands.describe(role="Le rôle des organisateurs (vide : ceux qui gèrent le serveur)")
    async def organizers(
        self, interaction: discord.Interaction, role: discord.Role | None = None
    ) -> None:
        await self._update(interaction, **{ORGANIZERS: role.id if role is not None else None})

    @app_commands.command(
        name="saison", description="La durée des saisons et le salon où annoncer leur podium"
    )
    @app_commands.describe(
        duree="Combien de mois dure une saison (1 par défaut)",
        salon="Le salon où annoncer le podium de chaque saison",
        annonces="Annoncer le podium de chaque saison (non : ne plus l'annoncer)",
    )
    @app_commands.choices(
        duree=[app_commands.Choice(name=f"{months} mois", value=months) for months in LENGTHS]
    )
    async def season(
        self,
        interaction: discord.Interaction,
        duree: int | None = None,
        salon: discord.TextChannel | None = None,
        annonces: bool | None = None,
    ) -> None:
        guild = interaction.guild_id or 0
        if duree is not None and duree not in LENGTHS:
            raise TableError("season_length", lengths=", ".join(map(str, LENGTHS)))
        if salon is not None and annonces is False:
            raise TableError("season_channel_and_quiet")
        if salon is not None and not can_announce_in(salon):
            raise TableError("season_channel", channel=salon.mention)
        settings = await self.repository.guild_settings(guild)
        if annonces and salon is None and not settings.get(CHANNEL_SETTING):
            raise TableError("season_no_channel")
        # Looked at, not begun: a server's first season begins with its first counted game.
        known = await self.repository.seasons(guild)
        current = known[-1] if known and not known[-1].closed else None
        if duree is not None and current is not None:
            current = await self.bot.tables.seasons.set_length(guild, duree)
        changed = duree is not None or salon is not None or annonces is False
        if duree is not None:
            settings[MONTHS_SETTING] = duree
        if salon is not None:
            settings[CHANNEL_SETTING] = salon.id
        if annonces is False:
            settings.pop(CHANNEL_SETTING, None)
        if changed:
            await self.repository.save_guild_settings(guild, settings)
        lang = private_lang(interaction)
        lines = [t(lang, "settings.saved")] if changed else []
        lines.append(self.describe_all(settings, lang))
        lines.append(describe_season(current, lang) if current else t(lang, "settings.season_none"))
        await answers.reply(interaction, "\n".join(lines), ephemeral=True)

    @app_commands.command(name="web", description="La page web des classements du serveur")
    @app_commands.describe(
        activer="Allumer (oui) ou éteindre (non) la page",
        nouvelle_adresse="Lui donner une nouvelle adresse (l'ancienne ne mène plus à rien)",
    )
    async def web_page(
        self,
        interaction: discord.Interaction,
        activer: bool | None = None,
        nouvelle_adresse: bool = False,
    ) -> None:
        lang = private_lang(interaction)
        base = self.bot.settings.web_address
        if base is None:
            raise TableError("web_unavailable")
        guild = interaction.guild_id or 0
        page = await self.repository.web_page(guild)
        if activer is False:
            if page is not None:
                await self.repository.close_web_page(guild)
            await answers.reply(interaction, t(lang, "settings.web_off"), ephemeral=True)
            return
        if page is None and not activer:
            raise TableError("web_is_off")
        name = interaction.guild.name if interaction.guild is not None else "Discord"
        if page is None or nouvelle_adresse or page.guild_name != name:
            token = new_token() if page is None or nouvelle_adresse else page.token
            page = WebPage(guild, token, name)
            await self.repository.open_web_page(page)
        text = t(lang, "settings.web_on", address=page_address(base, page.token))
        await answers.reply(interaction, text, ephemeral=True)

    @app_commands.command(name="reinitialiser", description="Revenir aux réglages par défaut")
    async def reset(self, interaction: discord.Interaction) -> None:
        await self.repository.save_guild_settings(interaction.guild_id or 0, {})
        await self._saved(interaction, {})


def can_announce_in(channel: discord.TextChannel) -> bool:
    """Whether the bot may post an embed in ``channel`` (unknown: it is tried then)."""
    me = channel.guild.me
    if me is None:
        return True
    allowed = channel.permissions_for(me)
    return allowed.view_channel and allowed.send_messages and allowed.embed_links


def describe_season(season: Season, lang: str) -> str:
    """The current season: its days, and when it closes (a Discord timestamp, shown in
    each reader's own time zone)."""
    return t(
        lang,
        "settings.season_now",
        span=season_span(season, lang),
        closes=f"<t:{midnight(season.ends):.0f}:f>",
        relative=f"<t:{midnight(season.ends):.0f}:R>",
    )


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
