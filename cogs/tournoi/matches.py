"""A tournament's matches on Discord: each one's thread and check-in (the one ping of its
players), its table opened with the players present and started, stopped or left when the
tournament says so, and the thread archived once the match is decided.

Each step can be taken again: a table opened before a crash is found again (in its match's
record, or in its thread) and finished rather than opened twice.
"""

from __future__ import annotations

import logging
import time
from dataclasses import replace
from typing import TYPE_CHECKING

import discord

from bot.games import REGISTRY
from bot.i18n import t
from bot.table import Table, TableError
from bot.tournaments import Match
from bot.tournaments.hosted import Hosted, MatchTable
from cogs.table import threads
from cogs.table.cog import TableCog
from cogs.tournoi import render
from cogs.tournoi.components import checkin_view

if TYPE_CHECKING:
    from bot.client import Gobelet
    from cogs.table.controller import TableController

log = logging.getLogger(__name__)


class Matches:
    """What a tournament's matches do on Discord (the director holds the tournament's lock
    around each call, and stores what they return)."""

    def __init__(self, bot: Gobelet) -> None:
        self.bot = bot

    def controller(self, hosted: Hosted) -> TableController:
        side = self.bot.shared.games.get(hosted.spec.kind)
        if not isinstance(side, TableCog):
            raise TableError("stale")
        return side.controller

    # ------------------------------------------------------------------ the check-in

    async def thread(
        self, hosted: Hosted, guild_id: int, channel_id: int, match: Match
    ) -> int | str:
        """A new thread of the tournament's channel for ``match``, or why not
        (``threads.REFUSED``, ``threads.BUSY``)."""
        assert hosted.tournament is not None
        lang = hosted.lang
        name = t(
            lang,
            "tour.thread",
            game=render.game_name(hosted, lang),
            number=hosted.tournament.current.number,
            table=match.id.split("-")[1],
        )
        return await threads.start(self.bot, guild_id, channel_id, name)

    async def tell_organizer(self, hosted: Hosted, text: str) -> bool:
        """``text`` to the organizer, privately (a direct message): whether it went."""
        try:
            dm = await self.bot.create_dm(discord.Object(hosted.organizer))
            await dm.send(text)
        except discord.HTTPException as error:
            log.info("the organizer %s could not be told (%s)", hosted.organizer, error.status)
            return False
        return True

    async def call(
        self, tournament_id: int, hosted: Hosted, guild_id: int, where: int, match: Match
    ) -> int | None:
        """The match's check-in in ``where`` (its thread, or the channel), pinging its
        players: its message's id (None: refused)."""
        assert hosted.tournament is not None and hosted.round_ends is not None
        lang, ends = hosted.lang, int(hosted.round_ends)
        text = t(
            lang,
            "tour.check_in",
            players=render.names(match.present),
            number=hosted.tournament.current.number,
            when=f"<t:{ends}:f>",
            left=f"<t:{ends}:R>",
        )
        channel = self.bot.get_partial_messageable(where, guild_id=guild_id)
        pinged = discord.AllowedMentions(users=[discord.Object(p) for p in match.present])
        try:
            sent = await channel.send(
                text, view=checkin_view(tournament_id, match.id, lang), allowed_mentions=pinged
            )
        except discord.HTTPException as error:
            log.warning(
                "tournament %s: match %s's check-in was refused (%s)",
                tournament_id,
                match.id,
                error.status,
            )
            return None
        return sent.id

    # ------------------------------------------------------------------ the table

    def table_of(self, hosted: Hosted, mine: MatchTable) -> Table | None:
        """The match's table, if it is open (in its lobby, or playing)."""
        if mine.game is None:
            return None
        return self.controller(hosted).tables.get(mine.game)

    def found_in(self, hosted: Hosted, where: int, players: list[int]) -> Table | None:
        """A lobby of this game in ``where`` that only the match's players sit at, its
        first player its starter: one opened for the match before a crash kept its id."""
        left = self.controller(hosted).tables.in_channel(where)
        if (
            left is None
            or left.kind != hosted.spec.kind
            or left.started
            or not left.running
            or left.starter != players[0]
            or not set(left.humans()) <= set(players)
        ):
            return None
        return left

    async def open(self, hosted: Hosted, guild_id: int, where: int, players: list[int]) -> Table:
        """A new lobby of the tournament's game in ``where``, its first player seated (the
        others join as ``start`` seats them); ``TableError("table_busy")`` if taken."""
        runner = self.controller(hosted).tables
        return await runner.open(
            guild_id=guild_id,
            channel_id=where,
            starter=players[0],
            rules=REGISTRY[hosted.spec.kind].rules_from_json(hosted.rules),
            kind=hosted.spec.kind,
            lang=hosted.lang,
            turn_seconds=hosted.turn_seconds,
            starter_name=hosted.names.get(players[0]),
        )

    async def start(self, hosted: Hosted, table: Table, players: list[int]) -> None:
        """Seat every player of the match at its lobby, start the game and show it; a
        party game opened after its round's time is stopped at once (ranked as it stands)."""
        controller = self.controller(hosted)
        async with table.lock:
            if table.started or not table.running:
                return
            for player in players:
                if player not in table.players:
                    await controller.tables.join_lobby(table, player, name=hosted.names.get(player))
            events = await controller.start(table)
        await controller.begun(table, events, actor=None)
        if (
            hosted.spec.endless
            and hosted.round_ends is not None
            and time.time() >= hosted.round_ends
        ):
            await self.stop(hosted, table.id)

    async def stop(self, hosted: Hosted, game_id: int) -> None:
        """A party table's time is up: the game stops, ranked as it stands."""
        controller = self.controller(hosted)
        table = controller.tables.get(game_id)
        if table is None:
            return
        async with table.lock:
            if not table.running or not table.started:
                return
            events = await controller.tables.stop(table)
            await controller.publish(table, events)

    async def leave(self, hosted: Hosted, game_id: int, player: int) -> None:
        """A withdrawn player leaves the match's table (they rank last at it)."""
        controller = self.controller(hosted)
        table = controller.tables.get(game_id)
        if table is None:
            return
        async with table.lock:
            if not table.running or not table.started or not table.seated(player):
                return
            kind = REGISTRY[table.kind]
            events = await controller.tables.act(table, kind.leave(player), in_person=False)
            await controller.publish(table, events)
            controller.tables.schedule(table)

    async def archive(self, mine: MatchTable) -> None:
        if mine.thread is not None:
            await threads.archive(self.bot, mine.thread)

    def with_game(self, hosted: Hosted, match_id: str, game: int | None) -> Hosted:
        return hosted.with_table(match_id, replace(hosted.table(match_id), game=game))
