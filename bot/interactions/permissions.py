"""What the bot needs in a channel to run a table there, as the interaction that opens it
says: ``interaction.app_permissions`` are the bot's own permissions in that channel.

A table lives in its channel's messages: without seeing the channel, posting in it, showing
embeds or reading back its messages, it would open and then fail at every move. So a table
is not opened there (``check_playable``), and the opener is told what is missing. What only
one feature needs (Maya's *faute* votes) does not stop a table: its opener is told privately
what will not work (``tell_lacking``).
"""

from __future__ import annotations

import logging
from collections.abc import Sequence

import discord

from bot.i18n import language, t
from bot.interactions import answers
from bot.table import TableError

log = logging.getLogger(__name__)

# What every table needs of its channel (discord.Permissions' names). In a thread (a forum's
# post included) posting is Send Messages in Threads: Send Messages does not apply there.
PLAYABLE = ("view_channel", "send_messages", "embed_links", "read_message_history")
THREADS = (
    discord.ChannelType.public_thread,
    discord.ChannelType.private_thread,
    discord.ChannelType.news_thread,
)


def lacking(interaction: discord.Interaction, needed: Sequence[str]) -> list[str]:
    """Those of ``needed`` the bot does not have in the interaction's channel."""
    granted = interaction.app_permissions
    return [name for name in needed if not getattr(granted, name)]


def names(lang: str, permissions: Sequence[str]) -> str:
    """Permissions as Discord names them to the reader."""
    return ", ".join(t(lang, f"perm.{name}") for name in permissions)


def check_playable(interaction: discord.Interaction) -> None:
    """Refuse to open a table where the bot could not play it, naming what it lacks."""
    needed: tuple[str, ...] = PLAYABLE
    if getattr(interaction.channel, "type", None) in THREADS:
        needed = tuple("send_messages_in_threads" if p == "send_messages" else p for p in needed)
    missing = lacking(interaction, needed)
    if missing:
        raise TableError("bot_permissions", permissions=tuple(missing), count=len(missing))


async def tell_lacking(interaction: discord.Interaction, needed: Sequence[str], key: str) -> None:
    """Tell whoever acted, privately, what will not work here for want of ``needed``: ``key``
    names what is missing, then ``key.<permission>`` what each one missing stops."""
    missing = lacking(interaction, needed)
    if not missing:
        return
    lang = language(interaction.locale)
    lines = [t(lang, key, permissions=names(lang, missing), count=len(missing))]
    lines += [t(lang, f"{key}.{name}") for name in missing]
    try:
        await answers.reply(interaction, "\n".join(lines), ephemeral=True)
    except discord.HTTPException:
        log.warning("could not tell user %s what the bot lacks here", interaction.user.id)


async def tell(interaction: discord.Interaction, key: str) -> None:
    """Tell whoever acted, privately, the text ``key`` (why something will not work here)."""
    try:
        await answers.reply(interaction, t(language(interaction.locale), key), ephemeral=True)
    except discord.HTTPException:
        log.warning("could not tell user %s why (%s)", interaction.user.id, key)
