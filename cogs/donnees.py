"""Each player's data on a server: ``/donnees voir`` and ``/donnees effacer``.

An erasure asked for waits for its confirmation ``ERASE_SECONDS``: a timer
(``erase:{guild}:{user}``), so that its button still works after a restart, within that
window only."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.i18n import t
from bot.interactions import answers
from bot.interactions.refusals import private_lang, refuse
from bot.interactions.shared import shared
from bot.storage import Repository, Timer
from bot.table.clock import Clock, lapse
from cogs.classement import player_embed
from cogs.table.components import label_of
from cogs.tournoi.director import Director

if TYPE_CHECKING:
    from bot.client import Gobelet

ERASE = "erase"  # the kind of an erasure's timer
ERASE_SECONDS = 300.0


def erase_key(guild: int, user: int) -> str:
    return f"{ERASE}:{guild}:{user}"


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
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> EraseButton:
        return cls(int(match["guild"]), int(match["user"]), label=label_of(item))

    async def callback(self, interaction: discord.Interaction) -> None:
        lang = private_lang(interaction)
        if interaction.user.id != self.user or interaction.guild_id != self.guild:
            await answers.reply(interaction, t(lang, "data.not_yours"), ephemeral=True)
            return
        tables = interaction.client.tables  # type: ignore[attr-defined]
        clock: Clock = tables.clock
        asked = clock.get(erase_key(self.guild, self.user))
        if asked is None or interaction.created_at.timestamp() >= asked.due:
            await answers.update(interaction, content=t(lang, "data.expired"), view=None)
            return
        try:
            repository: Repository = tables.repository
            removed = await repository.forget_player(self.guild, self.user)
            for table in tables.by_id.values():  # and the tables playing now
                if table.guild_id == self.guild:
                    table.names.pop(self.user, None)
            found = shared(interaction.client)
            director = found.service(Director) if found is not None else None
            if director is not None:  # and the tournaments signing up or running
                await director.forget(self.guild, self.user)
            await clock.cancel(asked.key)  # one confirmation, one erasure
        except Exception as error:
            await refuse(interaction, error)
            return
        await answers.update(interaction, content=t(lang, "data.erased", rows=removed), view=None)


@app_commands.guild_only()
class DonneesCog(
    commands.GroupCog,
    name="Donnees",
    group_name="donnees",
    group_description="Tes données sur ce serveur",
):
    def __init__(self, bot: Gobelet) -> None:
        self.bot = bot

    @property
    def repository(self) -> Repository:
        return self.bot.tables.repository

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        if interaction.guild_id is None:
            raise app_commands.NoPrivateMessage()
        return True

    @app_commands.command(
        name="voir", description="Voir ce que Gobelet garde de toi sur ce serveur"
    )
    async def show_data(self, interaction: discord.Interaction) -> None:
        lang = private_lang(interaction)
        embed = await player_embed(
            self.repository, interaction.guild_id or 0, interaction.user.id, lang
        )
        await answers.reply(interaction, t(lang, "data.what"), ephemeral=True, embed=embed)

    @app_commands.command(name="effacer", description="Effacer tes statistiques sur ce serveur")
    async def erase(self, interaction: discord.Interaction) -> None:
        lang = private_lang(interaction)
        guild, user = interaction.guild_id or 0, interaction.user.id
        due = interaction.created_at.timestamp() + ERASE_SECONDS
        await self.bot.tables.clock.set(Timer(erase_key(guild, user), due, guild))
        view = discord.ui.View(timeout=None)
        view.add_item(
            EraseButton(
                interaction.guild_id or 0, interaction.user.id, label=t(lang, "data.confirm")
            )
        )
        await answers.reply(interaction, t(lang, "data.sure"), ephemeral=True, view=view)


async def setup(bot: Gobelet) -> None:
    await bot.add_cog(DonneesCog(bot))
    bot.add_components(EraseButton)
    bot.tables.clock.handle(ERASE, lapse)


async def teardown(bot: Gobelet) -> None:
    bot.remove_components(EraseButton)
