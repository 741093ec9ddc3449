"""The public side of a table, shared by every game's cog: its message and its story lines."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Sequence
from typing import TYPE_CHECKING, Any

import discord

from bot.i18n import t
from bot.storage import StorageError
from bot.tables import Table, TableError, Tables
from cogs import answers
from cogs.errors import refuse

if TYPE_CHECKING:
    from bot.client import Gobelet

log = logging.getLogger(__name__)


def display_name(interaction: discord.Interaction) -> str:
    """The name the bot may show for the user of ``interaction`` (no members intent needed)."""
    return interaction.user.display_name


# A game's own answer to a stored move, given its events (a private panel, an updated one…).
Answer = Callable[[Sequence[Any]], Awaitable[None]]


class TableMessages:
    """Mixed into a game cog, which has ``bot`` and ``tables`` and says how to draw its
    table (``refresh``) and word its events (``_lines``)."""

    bot: Gobelet
    tables: Tables

    async def _act(self, table: Table, action: Any, *, name: str | None = None) -> list[Any]:
        """Apply and persist ``action`` (a game fills the dice it rolls first)."""
        return await self.tables.act(table, action, name=name)

    async def _after_turn(self, table: Table) -> None:
        """What a game tells once the table is redrawn (e.g. a summary at the end)."""

    @staticmethod
    def check_turn(tables: Tables, table: Table, step: int | None) -> None:
        """The table is still this game, started, and (for a button) on the same decision."""
        if not table.running or tables.get(table.id) is not table:
            raise TableError("stale")
        if table.state is None:
            raise TableError("not_started")
        if step is not None and step != table.state.step:
            raise TableError("stale_turn")

    async def opened(self, interaction: discord.Interaction, table: Table, text: str) -> None:
        """A table was just opened: say so (the command's answer), then draw its message."""
        async with table.lock:
            told = await self.after_move(interaction, table, [text], public=True)
            await self._guarded(table, "tell the opening", self.tell(table, told))
            await self._guarded(table, "draw the table", self.refresh(table))

    # ---- the lobby: join, leave, start (by button or by slash command)

    async def lobby(
        self, interaction: discord.Interaction, table: Table, action: str, *, public: bool
    ) -> None:
        """``join``, ``leave`` or ``start`` a table still in its lobby. ``public``: a slash
        command, answered with what happened; otherwise a click on the lobby's buttons."""
        if public:
            answers.expect_public(interaction)
        user = interaction.user.id
        async with table.lock:
            if table.state is not None or not table.running:
                raise TableError("not_in_lobby")
            if action == "join":
                await self.tables.join_lobby(table, user, name=display_name(interaction))
                lines = [t(table.lang, "note.lobby_joined", player=table.name(user))]
            elif action == "leave":
                closed = await self.tables.leave_lobby(table, user)
                key = "note.lobby_closed" if closed else "note.lobby_left"
                lines = [t(table.lang, key, player=table.name(user))]
            else:
                if user != table.starter:
                    raise TableError("not_starter", starter=table.starter)
                lines = self._started(table, await self._start(table))
            told = await self.after_move(
                interaction, table, lines, public=public, mentions=self.pings(table)
            )
            await self._guarded(table, "tell the lobby", self.tell(table, told))
            if table.running:
                await self._guarded(table, "redraw the table", self.refresh(table))
            else:
                await self._guarded(table, "close the lobby", self._after_stop(table))
            self.tables.schedule(table)

    async def _start(self, table: Table) -> list[Any]:
        """Seat the lobby and start the game (a game may prepare something first); returns
        the events of its first forced steps."""
        return await self.tables.start(table)

    def _started(self, table: Table, events: Sequence[Any]) -> list[str]:
        """The lines that tell a game has started, and its first forced steps."""
        assert table.state is not None
        order = " → ".join(table.name(seat.player) for seat in table.state.seats)
        return [t(table.lang, "note.started", order=order), *self.story(table, events)]

    async def stop_table(self, interaction: discord.Interaction, table: Table) -> None:
        """``/… stop``: the starter, or a member with Manage Server, ends the table."""
        if interaction.user.id != table.starter and not interaction.permissions.manage_guild:
            raise TableError("not_starter", starter=table.starter)
        answers.expect_public(interaction)
        async with table.lock:
            if not table.running:
                raise TableError("stale")
            events = await self.tables.stop(table)
            lines = [t(table.lang, "note.stopped_by", player=table.name(interaction.user.id))]
            if table.state is not None:
                lines += self.story(table, events)
            told = await self.after_move(interaction, table, lines, public=True)
            await self._guarded(table, "tell the stop", self.tell(table, told))
            await self._guarded(table, "redraw the stopped table", self._after_stop(table))

    async def _after_stop(self, table: Table) -> None:
        """Redraw the table once stopped (a game may rather clear a lobby's message)."""
        await self.refresh(table)

    async def play(
        self,
        interaction: discord.Interaction,
        table: Table,
        action: Any,
        *,
        step: int | None = None,
        public: bool = False,
        answer: Answer | None = None,
        name: str | None = None,
    ) -> None:
        """Lock, apply + persist, then answer, tell, redraw and schedule.

        ``public``: a slash command, answered with the story lines; otherwise a click,
        acknowledged silently; ``answer``: the game's own answer (a private panel…); ``name``:
        the player's display name, kept with the move. Only a move that was not stored is
        refused: once it is, the table moves on whatever became of the answer."""
        if public:
            answers.expect_public(interaction)
        try:
            async with table.lock:
                self.check_turn(self.tables, table, step)
                events = await self._act(table, action, name=name)
                lines = self.story(table, events)
                told = await self.after_move(
                    interaction, table, lines, public=public, answer=answer, events=events
                )
                await self._guarded(table, "tell the move", self.tell(table, told))
                await self._guarded(table, "follow the move", self._after_events(table, events))
                await self._guarded(table, "redraw the table", self.refresh(table))
                await self._guarded(table, "end the turn", self._after_turn(table))
                self.tables.schedule(table)
        except Exception as error:
            await refuse(interaction, error, table)

    async def after_move(
        self,
        interaction: discord.Interaction,
        table: Table,
        lines: list[str],
        *,
        public: bool,
        answer: Answer | None = None,
        events: Sequence[Any] = (),
        mentions: discord.AllowedMentions | None = None,
    ) -> list[str]:
        """Answer the interaction of a stored move; returns the lines still to tell the
        channel (all of them unless the answer itself told them)."""
        try:
            if answer is not None:
                await answer(events)
            elif public:
                await answers.reply(
                    interaction,
                    "\n".join(lines)[:2000] or t(table.lang, "me.done"),
                    ephemeral=False,
                    mentions=mentions or discord.AllowedMentions.none(),
                )
                return []
            else:
                await answers.acknowledge(interaction)
        except Exception:
            log.warning("table %s: a stored move's answer was refused", table.id, exc_info=True)
        return list(lines)  # a refused public answer: the story goes to the channel

    def story(self, table: Table, events: Sequence[Any], notes: Sequence[Any] = ()) -> list[str]:
        """The lines telling a stored move (a wording bug must not stop the table)."""
        try:
            return self._lines(table, events, notes)
        except Exception:
            log.exception("table %s: could not word %d events", table.id, len(events))
            return []

    async def publish(
        self, table: Table, events: Sequence[Any], *, notes: Sequence[Any] = ()
    ) -> None:
        """The Herald: tell a move the bot made (a CPU's, an absent player's, a vote's close),
        then redraw. Called with the table locked."""
        await self._guarded(
            table, "tell the move", self.tell(table, self.story(table, events, notes))
        )
        await self._guarded(table, "follow the move", self._after_events(table, events))
        await self._guarded(table, "redraw the table", self.refresh(table))
        await self._guarded(table, "end the turn", self._after_turn(table))

    async def _after_events(self, table: Table, events: Sequence[Any]) -> None:
        """What a game keeps in step once a move is told (e.g. Maya's accusation messages)."""

    async def _guarded(self, table: Table, what: str, step: Awaitable[None]) -> None:
        """Run one step of telling a stored move; a failure is logged, the next steps run."""
        try:
            await step
        except Exception:
            log.warning("table %s: could not %s", table.id, what, exc_info=True)

    def pings(self, table: Table) -> discord.AllowedMentions:
        """Only the player whose turn it now is gets pinged."""
        ping: list[discord.Object] = []
        current = table.state.current if table.state is not None else None
        if current is not None and not table.is_cpu(current):
            ping = [discord.Object(current)]
        return discord.AllowedMentions(users=ping, roles=False, everyone=False)

    def _channel(self, table: Table) -> discord.PartialMessageable:
        return self.bot.get_partial_messageable(table.channel_id, guild_id=table.guild_id)

    async def draw_table(
        self, table: Table, embed: discord.Embed, view: discord.ui.View | None
    ) -> None:
        """Edit the public table message in place (post a new one if it was deleted)."""
        channel = self._channel(table)
        if table.message_id is not None:
            try:
                await channel.get_partial_message(table.message_id).edit(embed=embed, view=view)
                return
            except discord.NotFound:
                pass
            except discord.HTTPException:
                log.warning("table %s: could not edit the table message", table.id, exc_info=True)
                return
        try:
            message = await channel.send(embed=embed, view=view)
        except discord.HTTPException:
            log.warning("table %s: could not post the table message", table.id, exc_info=True)
            return
        table.message_id = message.id
        if table.running:
            try:
                await self.tables.save_meta(table)
            except StorageError:
                log.warning("table %s: could not store the table message id", table.id)

    async def tell(self, table: Table, lines: Sequence[str]) -> None:
        """Post story lines; only the player whose turn it now is gets pinged."""
        if not lines:
            return
        try:
            await self._channel(table).send(
                "\n".join(lines)[:2000], allowed_mentions=self.pings(table)
            )
        except discord.HTTPException:
            log.warning("table %s: could not post to the channel", table.id, exc_info=True)
