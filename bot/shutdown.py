"""A graceful stop, on SIGTERM (a container being replaced) or Ctrl-C.

Once the bot is closing it takes no new interaction: each one that arrives is answered
privately that the bot is stopping for a moment, in the reader's language, and goes to no
handler. The moves in flight (each holds its table's lock) finish, within
``GRACE_SECONDS``; then the bot closes its connections and its storage. What a player did
is stored before anything is said of it, so a stop past the grace period loses a message,
never a move.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import discord

from bot.i18n import t
from bot.interactions import answers
from bot.interactions.refusals import private_lang, say_privately

log = logging.getLogger(__name__)

# Docker kills a container 10 s after its SIGTERM unless told otherwise: the wait and the
# closing fit in that.
GRACE_SECONDS = 8.0
REFUSALS_SECONDS = 2.0  # for the refusals being sent when the connections close

_refusals: set[asyncio.Task[None]] = set()


async def _refuse(interaction: discord.Interaction) -> None:
    if interaction.type == discord.InteractionType.autocomplete:
        return  # no message answers an autocomplete: its choices stay empty
    try:
        await say_privately(interaction, t(private_lang(interaction), "err.closing"))
    except discord.HTTPException:
        log.info("could not tell user %s that the bot is stopping", interaction.user.id)


def refuse_while_closing(bot: Any) -> None:
    """Hand every interaction that arrives once ``bot.closing`` is set to a refusal instead
    of its handler (commands, components and modals alike: they all come through the
    gateway's INTERACTION_CREATE, which discord.py parses here)."""
    state = bot._connection
    parse = state.parsers["INTERACTION_CREATE"]

    def interaction_create(data: Any) -> None:
        if not bot.closing:
            parse(data)
            return
        interaction = discord.Interaction(data=data, state=state)
        answers.watch(interaction)
        task = asyncio.create_task(_refuse(interaction))
        _refusals.add(task)
        task.add_done_callback(_refusals.discard)

    state.parsers["INTERACTION_CREATE"] = interaction_create


async def shut_down(bot: Any, grace: float = GRACE_SECONDS) -> None:
    """Stop taking interactions, let the moves in flight finish, then close the bot."""
    if bot.closing:
        await bot.close()  # asked again while waiting: wait no more
        return
    bot.closing = True
    log.info("stopping: new interactions are refused, the moves in flight finish")
    tables = getattr(bot, "tables", None)
    if tables is not None and not await tables.drain(grace):
        log.warning("moves still in flight after %g s: stopping all the same", grace)
    if _refusals:
        await asyncio.wait(set(_refusals), timeout=REFUSALS_SECONDS)
    await bot.close()
