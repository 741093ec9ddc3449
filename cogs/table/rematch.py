"""**Revanche**: an ended game's last table message offers the same table again, for two
turns' time (a stored timer: a restart keeps the offer and its end). One click by a player
of that game opens the same table (its options, its CPU players and their level) with them
seated; the others are asked to join with one click, and the game starts once they all
have. When the offer ends, the button goes."""

from __future__ import annotations

import logging
import time
from typing import Any

import discord

from bot.storage import Timer
from bot.table import Table
from cogs.table import hooks, threads
from cogs.table.hooks import Route

log = logging.getLogger(__name__)

REMATCH = "rematch"  # the kind of an offer's timer: ``rematch:{table}``
OFFER_TURNS = 2  # an offer lasts this many of the table's turns
AWAITED = "rematch"  # a rematch lobby's messages: the players it waits for


def key(table_id: int) -> str:
    return f"{REMATCH}:{table_id}"


def offer(table: Table, message_id: int, seconds: float, *, thread: bool = False) -> Timer:
    """The timer of ``table``'s offer, on its last message ``message_id``; ``thread``: the
    table is in a thread of its own, archived once the offer ends (an archived thread takes
    no edit, so it stays open while the offer does)."""
    payload: dict[str, Any] = {"channel": table.channel_id, "message": message_id}
    if thread:
        payload["thread"] = True
    return Timer(key(table.id), time.time() + seconds, table.guild_id, payload)


class Offers:
    """The rematch offers running out, with the way to each one's message through an
    interaction's webhook while its token lives (the bot token's global limit spared): the
    clock's handler of their end."""

    def __init__(self, bot: discord.Client) -> None:
        self.bot = bot
        self.routes: dict[str, Route] = {}  # an offer's timer key -> its message's route

    def keep(self, timer: Timer, route: Route | None) -> None:
        if route is not None:
            self.routes[timer.key] = route

    def taken(self, timer: Timer) -> None:
        """The offer was taken (a rematch opened, its button taken off with the click)."""
        self.routes.pop(timer.key, None)

    async def end(self, timer: Timer) -> None:
        """The offer's time is up: its button leaves its message, then its thread (if the
        table had one) is archived."""
        try:
            await self._button_off(timer)
        finally:
            if timer.payload.get("thread"):
                await threads.archive(self.bot, timer.payload["channel"])

    async def _button_off(self, timer: Timer) -> None:
        route = self.routes.pop(timer.key, None)
        if route is not None and route.hook.alive:
            try:
                await hooks.edit(route, self.bot, view=None)
                return
            except discord.HTTPException as error:
                if not hooks.refused_token(error):
                    return  # the message is gone, and its button with it
        channel = self.bot.get_partial_messageable(
            timer.payload["channel"], guild_id=timer.guild_id
        )
        try:
            await channel.get_partial_message(timer.payload["message"]).edit(view=None)
        except discord.NotFound:
            pass  # the message is gone, and its button with it
        except discord.HTTPException as error:  # refused (an archived thread…): left as it is
            log.info("rematch %s: its button could not be taken off (%s)", timer.key, error.status)
