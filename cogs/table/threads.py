"""Tables in threads: a server setting (``/reglages fils``) and an option of each ``start``.
The table runs in a public thread started from the channel (an announcement thread in an
announcement channel), named after the game and its opener; the channel keeps one line that
links to it and, once the game is over, says how it ended; the thread is then archived. Where the bot may not start a thread, the table runs
in the channel and its opener is told why, privately."""

from __future__ import annotations

import logging
from typing import Final, Literal

import discord

from bot.interactions.permissions import THREADS

log = logging.getLogger(__name__)

SETTING = "threads"  # the server's setting: tables in threads
KEPT = "thread"  # a table's messages: its channel, and the line there that links to it
NEEDED = ("create_public_threads", "send_messages_in_threads")
ONE_DAY: Final[Literal[1440]] = 1440  # minutes without a message before a thread hides


def inside(interaction: discord.Interaction) -> bool:
    """Whether the interaction came from a thread (a table there stays in it)."""
    return getattr(interaction.channel, "type", None) in THREADS


def kind(bot: discord.Client, channel_id: int) -> Literal[10, 11]:
    """The thread a channel may start: an announcement thread (10) in an announcement
    channel, else a public one (11)."""
    channel = bot.get_channel(channel_id)
    if getattr(channel, "type", None) == discord.ChannelType.news:
        return 10  # discord.ChannelType.news_thread
    return 11  # discord.ChannelType.public_thread


async def start(bot: discord.Client, channel_id: int, name: str) -> int | None:
    """A thread started from ``channel_id`` (its id, the thread ``kind`` it allows), or None
    if Discord refused it. Tables and tournaments' matches start theirs here."""
    try:
        data = await bot.http.start_thread_without_message(
            channel_id,
            name=name[:100],
            auto_archive_duration=ONE_DAY,
            type=kind(bot, channel_id),
        )
    except discord.HTTPException as error:
        log.warning("channel %s: a thread could not be started (%s)", channel_id, error.status)
        return None
    return int(data["id"])


async def archive(bot: discord.Client, thread_id: int) -> None:
    """Archive a thread the bot started (it is then hidden from the channel's list)."""
    try:
        await bot.http.edit_channel(thread_id, archived=True)
    except discord.HTTPException as error:
        log.info("thread %s could not be archived (%s)", thread_id, error.status)
