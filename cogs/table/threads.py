"""Tables in threads: a server setting (``/reglages fils``) and an option of each ``start``.
The table runs in a public thread started from the channel (an announcement thread in an
announcement channel), named after the game and its opener; the channel keeps one line that
links to it and, once the game is over, says how it ended; the thread is then archived.
Where the bot may not start a thread, the table runs in the channel and its opener is told
why, privately."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Final, Literal

import discord

from bot.interactions.permissions import THREADS

if TYPE_CHECKING:
    from bot.client import Gobelet

log = logging.getLogger(__name__)

SETTING = "threads"  # the server's setting: tables in threads
KEPT = "thread"  # a table's messages: its channel, and the line there that links to it
NEEDED = ("create_public_threads", "send_messages_in_threads")
ONE_DAY: Final[Literal[1440]] = 1440  # minutes without a message before a thread hides
# Why ``start`` gave no thread: Discord refused it (permissions, the channel), or the
# server's thread creation is rate-limited for long (bot/thread_budget.py).
REFUSED, BUSY = "refused", "busy"


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


async def start(bot: Gobelet, guild_id: int, channel_id: int, name: str) -> int | str:
    """A thread started from ``channel_id`` (its id, of the ``kind`` it allows), or why not:
    ``REFUSED`` by Discord, or ``BUSY`` (the server's threads are rate-limited for long;
    never waited). Tables and tournaments' matches start theirs here."""
    budget = bot.thread_budget
    slot = budget.take(guild_id)
    if slot is None:
        log.info("server %s: no thread started now (its budget is spent)", guild_id)
        return BUSY
    try:
        data = await bot.http.start_thread_without_message(
            channel_id,
            name=name[:100],
            auto_archive_duration=ONE_DAY,
            type=kind(bot, channel_id),
        )
    except discord.RateLimited as error:
        budget.refused(guild_id, slot, error.retry_after)
        log.warning(
            "server %s: thread creation is rate-limited for %.0f s", guild_id, error.retry_after
        )
        return BUSY
    except discord.HTTPException as error:
        budget.started(slot)
        log.warning("channel %s: a thread could not be started (%s)", channel_id, error.status)
        return REFUSED
    budget.started(slot)
    return int(data["id"])


async def archive(bot: discord.Client, thread_id: int) -> None:
    """Archive a thread the bot started (it is then hidden from the channel's list)."""
    try:
        await bot.http.edit_channel(thread_id, archived=True)
    except discord.HTTPException as error:
        log.info("thread %s could not be archived (%s)", thread_id, error.status)
