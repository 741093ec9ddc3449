"""Server settings (`/reglages`, Manage Server only) and each player's data (`/donnees`)."""

from __future__ import annotations

import asyncio
import re
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot import yades_tables
from bot.games import maya, yades
from bot.i18n import t
from bot.storage import Repository
from bot.tables import TableError
from cogs import answers, maya_options
from cogs.classement import player_embed
from cogs.errors import private_lang, refuse
from cogs.free_text import free_text, shown
from cogs.yades import EXTRA_BOXES, sheet_rules

if TYPE_CHECKING:
    from bot.client import Gobelet


TURN_LEAST, TURN_MOST = 15, 600  # the turn timer a server may set, in seconds
LANGUAGES = ("fr", "en", "auto")


def describe_settings(settings: dict[str, Any], lang: str) -> str:
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
    gage = settings.get("gage")
    lines.append(
        t(lang, "settings.gage", gage=shown(gage)) if gage else t(lang, "settings.gage_default")
    )
    game = settings.get("maya") or {}
    mode = game.get("mode", maya.SOIREE)
    options = ", ".join(f"{k}={v}" for k, v in sorted(game.get("options", {}).items())) or "—"
    lines.append(t(lang, "settings.maya", mode=mode, options=options))
    sheet = settings.get("yades") or {}
    removed = ", ".join(sheet.get("remove", [])) or "—"
    added = ", ".join(sheet.get("add", [])) or "—"
    preset = sheet.get("preset", yades.YADES)
    lines.append(t(lang, "settings.yades", preset=preset, removed=removed, added=added))
    return "\n".join(lines)


def _words(text: str | None) -> list[str]:
    """Box names typed by a member: "brelan, chance" -> ["brelan", "chance"]."""
    return [word for word in re.split(r"[\s,;]+", (text or "").lower()) if word]


class EraseButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"gobdata:erase:(?P<guild>\d+):(?P<user>\d+)",
):
    def __init__(self, guild: int, user: int, *, label: str) -> None:
        super().__init__(
            discord.ui.Button(
                label=label,
                style=discord.ButtonStyle.danger,
                custom_id=f"gobdata:erase:{guild}:{user}",
            )
        )
        self.guild, self.user = guild, user

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button[Any], match: re.Match[str]
    ) -> EraseButton:
        return cls(int(match["guild"]), int(match["user"]), label=item.label or "")

    async def callback(self, interaction: discord.Interaction) -> None:
        lang = private_lang(interaction)
        if interaction.user.id != self.user or interaction.guild_id != self.guild:
            await answers.reply(interaction, t(lang, "data.not_yours"), ephemeral=True)
            return
        try:
            tables = interaction.client.tables  # type: ignore[attr-defined]
            repository: Repository = tables.repository
            removed = await repository.forget_player(self.guild, self.user)
            for table in tables.by_id.values():  # and the tables playing now
                if table.guild_id == self.guild:
                    table.names.pop(self.user, None)
        except Exception as error:
            await refuse(interaction, error)
            return
        await answers.update(interaction, content=t(lang, "data.erased", rows=removed), view=None)


class ReglagesCog(commands.Cog, name="Reglages"):
    reglages = app_commands.Group(
        name="reglages",
        description="Les réglages du serveur (Gérer le serveur)",
        guild_only=True,
        default_permissions=discord.Permissions(manage_guild=True),
    )
    donnees = app_commands.Group(
        name="donnees", description="Tes données sur ce serveur", guild_only=True
    )

    def __init__(self, bot: Gobelet) -> None:
        self.bot = bot

    @property
    def repository(self) -> Repository:
        return self.bot.tables.repository

    async def cog_load(self) -> None:
        self.bot.add_components(EraseButton)

    async def cog_unload(self) -> None:
        self.bot.remove_components(EraseButton)

    async def interaction_check(self, interaction: discord.Interaction) -> bool:  # type: ignore[override]
        if interaction.guild_id is None:
            raise app_commands.NoPrivateMessage()
        command = interaction.command
        settings = command is not None and command.parent is self.reglages
        if settings and not interaction.permissions.manage_guild:
            # A check must raise an AppCommandError: anything else never reaches the tree's
            # error handler, and the member would get no answer at all.
            raise app_commands.MissingPermissions(["manage_guild"])
        return True

    async def _update(self, interaction: discord.Interaction, **changes: Any) -> None:
        guild = interaction.guild_id or 0
        settings = await self.repository.guild_settings(guild)
        for key, value in changes.items():
            if value is None:
                settings.pop(key, None)
            else:
                settings[key] = value
        await self.repository.save_guild_settings(guild, settings)
        lang = private_lang(interaction)
        text = t(lang, "settings.saved") + "\n" + describe_settings(settings, lang)
        await answers.reply(interaction, text, ephemeral=True)

    @reglages.command(name="voir", description="Voir les réglages du serveur")
    async def show(self, interaction: discord.Interaction) -> None:
        settings = await self.repository.guild_settings(interaction.guild_id or 0)
        text = describe_settings(settings, private_lang(interaction))
        await answers.reply(interaction, text, ephemeral=True)

    @reglages.command(name="minuteur", description="Le temps pour jouer son tour, en secondes")
    @app_commands.describe(secondes="De 15 à 600 secondes")
    async def timer(
        self, interaction: discord.Interaction, secondes: app_commands.Range[int, 15, 600]
    ) -> None:
        if not TURN_LEAST <= secondes <= TURN_MOST:
            raise TableError("timer_range", least=TURN_LEAST, most=TURN_MOST)
        await self._update(interaction, turn_seconds=secondes)

    @reglages.command(name="langue", description="La langue des messages publics")
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

    @reglages.command(name="gage", description="Le gage des parties de Maya (soirée)")
    @app_commands.describe(mot="Par exemple : gorgée, piment, citron")
    async def gage(
        self, interaction: discord.Interaction, mot: app_commands.Range[str, 1, 30]
    ) -> None:
        word = free_text(mot, limit=maya.MAX_GAGE)
        maya.Rules.for_preset(maya.SOIREE, gage=word)
        await self._update(interaction, gage=None if word == "gorgée" else word)

    @reglages.command(name="maya", description="Les règles par défaut des nouvelles tables de Maya")
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
        given = {
            "vies": vies,
            "ouvreur": ouvreur,
            "photo": photo,
            "photo_memoire": photo_memoire,
            "aveugle": aveugle,
            "tapote": tapote,
            "seconde_chance": seconde_chance,
            "warrior": warrior,
            "inversion": inversion,
            "fautes": fautes,
        }
        options = maya_options.rule_options(mode, given)
        maya.Rules.for_preset(mode, **options)  # refuse what the engine would refuse
        await self._update(interaction, maya={"mode": mode, "options": options})

    @reglages.command(name="yades", description="La feuille de Yadès des nouvelles tables")
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
        unknown = [name for name in add if name not in EXTRA_BOXES]
        if unknown:
            raise yades.InvalidRules(option="ajouter", value=", ".join(unknown))
        wanted = {"yades": {"preset": preset, "remove": remove, "add": add}}
        rules = sheet_rules(wanted, preset)  # refuses an unknown box, or too many
        # A new sheet needs the expert's table: solving it takes seconds, off the event loop.
        await answers.think(interaction, ephemeral=True)
        await asyncio.to_thread(yades_tables.load, rules, self.bot.settings.database_path.parent)
        guild = interaction.guild_id or 0
        settings = await self.repository.guild_settings(guild)
        settings.update(wanted)
        await self.repository.save_guild_settings(guild, settings)
        lang = private_lang(interaction)
        text = t(lang, "settings.saved") + "\n" + describe_settings(settings, lang)
        await answers.reply(interaction, text, ephemeral=True)

    @reglages.command(name="reinitialiser", description="Revenir aux réglages par défaut")
    async def reset(self, interaction: discord.Interaction) -> None:
        await self.repository.save_guild_settings(interaction.guild_id or 0, {})
        lang = private_lang(interaction)
        text = t(lang, "settings.saved") + "\n" + describe_settings({}, lang)
        await answers.reply(interaction, text, ephemeral=True)

    @donnees.command(name="voir", description="Voir ce que Gobelet garde de toi sur ce serveur")
    async def show_data(self, interaction: discord.Interaction) -> None:
        lang = private_lang(interaction)
        embed = await player_embed(
            self.repository, interaction.guild_id or 0, interaction.user.id, lang
        )
        await answers.reply(interaction, t(lang, "data.what"), ephemeral=True, embed=embed)

    @donnees.command(name="effacer", description="Effacer tes statistiques sur ce serveur")
    async def erase(self, interaction: discord.Interaction) -> None:
        lang = private_lang(interaction)
        view = discord.ui.View(timeout=None)
        view.add_item(
            EraseButton(
                interaction.guild_id or 0, interaction.user.id, label=t(lang, "data.confirm")
            )
        )
        await answers.reply(interaction, t(lang, "data.sure"), ephemeral=True, view=view)


async def setup(bot: Gobelet) -> None:
    await bot.add_cog(ReglagesCog(bot))
