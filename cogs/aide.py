"""``/aide [jeu]``: how to play, privately, in the reader's language.

Without a game: every game in a line and the commands every table shares. With a game: how
it is played in a few lines (``help.<game>.how``), the table's options in plain words
(``help.<game>.options``), and its commands as the reader's client shows them, read from
the command tree itself (a new command is listed without touching this file).
"""

from __future__ import annotations

import logging
import time
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.games import REGISTRY
from bot.i18n import ENGLISH, command, language, mention_commands, t
from bot.i18n.commands import ENGLISH as ENGLISH_COMMANDS
from bot.interactions import answers
from bot.interactions.packages import declared
from bot.interactions.refusals import private_lang

if TYPE_CHECKING:
    from bot.client import Gobelet

log = logging.getLogger(__name__)

COLOUR = discord.Colour(0x27AE60)
POINT_EVERY = 30.0  # seconds between two pointers to /aide in one channel
FIELD = 1024  # Discord's limit for an embed field's value
# What each game is called in the menu: its Discord package's HELP (translated in
# cogs/texts/commands.toml).
TOPICS = {spec.name: title for spec, title in declared("HELP")}


def _command_lines(commands_: list[app_commands.Command], lang: str) -> list[str]:
    """Each command as the reader's client shows it, with its description, by name."""
    lines = []
    for cmd in commands_:
        description = cmd.description
        if lang == ENGLISH:
            description = ENGLISH_COMMANDS.get(description, description)
        lines.append(f"`{command(lang, cmd.qualified_name)}` — {description}")
    return sorted(lines)


def _add_lines(embed: discord.Embed, name: str, lines: list[str]) -> None:
    """``lines`` as fields of at most 1,024 characters, cut between lines, never inside one."""
    chunk: list[str] = []
    for line in lines:
        if chunk and len("\n".join([*chunk, line])) > FIELD:
            embed.add_field(name=name, value="\n".join(chunk), inline=False)
            name, chunk = "\u200b", []
        chunk.append(line[:FIELD])
    if chunk:
        embed.add_field(name=name, value="\n".join(chunk), inline=False)


class Aide(commands.Cog, name="Aide"):
    def __init__(self, bot: Gobelet) -> None:
        self.bot = bot
        self.pointed: dict[int, float] = {}  # channel -> when the bot last pointed to /aide

    @commands.Cog.listener()
    async def on_message(self, message: discord.Message) -> None:
        """Someone mentions the bot: it says, once in a while per channel, where help is."""
        me = self.bot.user
        if message.author.bot or message.guild is None or me is None:
            return
        if f"<@{me.id}>" not in message.content and f"<@!{me.id}>" not in message.content:
            return  # not a mention typed in the text (a reply to a table message pings too)
        now = time.monotonic()
        if now - self.pointed.get(message.channel.id, -POINT_EVERY) < POINT_EVERY:
            return  # mentioning the bot again and again makes it say it once
        self.pointed[message.channel.id] = now
        try:
            settings = await self.bot.tables.repository.guild_settings(message.guild.id)
        except Exception:
            log.warning("server %s: settings unreadable, pointing in its locale", message.guild.id)
            settings = {}
        lang = language(settings.get("language") or message.guild.preferred_locale)
        try:
            # Its commands as mentions: each reader's client names them in its language.
            text = mention_commands(t(lang, "help.mentioned"), self.bot.shared.command_ids)
            await message.channel.send(text, allowed_mentions=discord.AllowedMentions.none())
        except discord.HTTPException:
            log.warning("could not point to /aide in channel %s", message.channel.id)

    def _game_of(self, cmd: app_commands.Command) -> str | None:
        """The game a command belongs to (None: every table shares it)."""
        root = cmd.root_parent.name if cmd.root_parent is not None else None
        for name, cog in self.bot.shared.games.items():
            group = cog.app_command
            if root is not None and group is not None and root == group.name:
                return name
        module = cmd.callback.__module__
        for name in self.bot.shared.games:
            if module.startswith(f"cogs.{name}."):
                return name
        if module == "cogs.table.lift":
            return "lift"
        return None

    def _commands(self, game: str | None) -> list[app_commands.Command]:
        found = []
        side = self.bot.shared.games.get(game) if game is not None else None
        lifts = side is not None and side.lifts
        for cmd in self.bot.tree.walk_commands():
            if isinstance(cmd, app_commands.Group):
                continue
            owner = self._game_of(cmd)
            if owner == game or (owner == "lift" and lifts):
                found.append(cmd)
        return found

    def help_embed(self, game: str | None, lang: str) -> discord.Embed:
        if game is None:
            embed = discord.Embed(title=t(lang, "help.title"), colour=COLOUR)
            embed.description = "\n".join(t(lang, f"help.{spec.name}.line") for spec in REGISTRY)
            _add_lines(embed, t(lang, "help.shared"), _command_lines(self._commands(None), lang))
            embed.set_footer(text=t(lang, "help.more"))
            return embed
        embed = discord.Embed(title=t(lang, f"help.{game}.title"), colour=COLOUR)
        embed.description = t(lang, f"help.{game}.how")
        embed.add_field(name=t(lang, "help.options"), value=t(lang, f"help.{game}.options"))
        _add_lines(embed, t(lang, "help.commands"), _command_lines(self._commands(game), lang))
        return embed

    @app_commands.command(name="aide", description="Comment jouer : les jeux, les commandes")
    @app_commands.describe(jeu="Le jeu à expliquer (tous si vide)")
    @app_commands.choices(
        jeu=[app_commands.Choice(name=title, value=name) for name, title in TOPICS.items()]
    )
    async def aide(self, interaction: discord.Interaction, jeu: str | None = None) -> None:
        lang = private_lang(interaction)
        game = jeu if jeu in self.bot.shared.games else None
        await answers.reply(interaction, embed=self.help_embed(game, lang), ephemeral=True)


async def setup(bot: Gobelet) -> None:
    await bot.add_cog(Aide(bot))
