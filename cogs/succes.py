"""``/succes``: a player's achievements on the server, each game's, the ones not earned
yet shown locked (how they are worded: ``cogs.table.achievement_texts``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.games import REGISTRY
from bot.i18n import t
from bot.interactions import answers
from bot.interactions.refusals import public_language
from bot.storage import Repository
from cogs.table.achievement_texts import description, name

if TYPE_CHECKING:
    from bot.client import Gobelet

COLOUR = discord.Colour(0xE67E22)


async def achievements_embed(
    repository: Repository, guild_id: int, user_id: int, lang: str
) -> discord.Embed:
    """A player's achievements on the server, game by game: those earned (with the day)
    first, then the locked ones, so that everyone sees what there is to aim for."""
    held = {
        h.code: h for h in (await repository.achievements(guild_id, [user_id])).get(user_id, [])
    }
    declared = [(spec, a.code) for spec in REGISTRY for a in spec.achievements]
    earned = sum(1 for _, code in declared if code in held)
    title = t(lang, "ach.title", player=f"<@{user_id}>", earned=earned, total=len(declared))
    embed = discord.Embed(colour=COLOUR, description=title)
    for spec in REGISTRY:
        codes = [a.code for a in spec.achievements]
        if not codes:
            continue
        lines = [
            t(
                lang,
                "ach.held",
                name=name(lang, code),
                description=description(lang, code),
                when=discord.utils.format_dt(held[code].earned_at, "d"),
            )
            for code in sorted((c for c in codes if c in held), key=lambda c: held[c].earned_at)
        ]
        lines += [
            t(lang, "ach.locked", name=name(lang, code), description=description(lang, code))
            for code in codes
            if code not in held
        ]
        embed.add_field(name=t(lang, f"ach.game.{spec.name}"), value="\n".join(lines), inline=False)
    return embed


class SuccesCog(commands.Cog, name="Succes"):
    def __init__(self, bot: Gobelet) -> None:
        self.bot = bot

    @property
    def repository(self) -> Repository:
        return self.bot.tables.repository

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        if interaction.guild_id is None:
            raise app_commands.NoPrivateMessage()
        return True

    @app_commands.command(name="succes", description="Les succès d'un joueur sur ce serveur")
    @app_commands.guild_only()
    @app_commands.describe(joueur="Le joueur (toi par défaut)")
    async def succes(
        self, interaction: discord.Interaction, joueur: discord.User | None = None
    ) -> None:
        answers.expect_public(interaction)
        who = joueur or interaction.user
        lang = await public_language(self.repository, interaction)
        embed = await achievements_embed(self.repository, interaction.guild_id or 0, who.id, lang)
        await answers.reply(
            interaction, ephemeral=False, embed=embed, mentions=discord.AllowedMentions.none()
        )


async def setup(bot: Gobelet) -> None:
    await bot.add_cog(SuccesCog(bot))
