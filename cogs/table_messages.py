"""The public side of a table, shared by every game's cog: its message and its story lines."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import discord

from bot.i18n import t
from bot.storage import StorageError
from bot.tables import Table, TableError, Tables
from cogs.errors import refuse

if TYPE_CHECKING:
    from bot.client import Gobelet

log = logging.getLogger(__name__)


class TableMessages:
    """Mixed into a game cog, which has ``bot`` and ``tables`` and says how to draw its
    table (``refresh``) and word its events (``_lines``)."""

    bot: Gobelet
    tables: Tables

    async def _act(self, table: Table, action: Any) -> list[Any]:
        """Apply and persist ``action`` (a game may fill dice or chain a move first)."""
        return await self.tables.act(table, action)

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

    async def stop_table(self, interaction: discord.Interaction, table: Table) -> None:
        """``/… stop``: the starter, or a member with Manage Server, ends the table."""
        if interaction.user.id != table.starter and not interaction.permissions.manage_guild:
            raise TableError("not_starter", starter=table.starter)
        async with table.lock:
            if not table.running:
                raise TableError("stale")
            events = await self.tables.stop(table)
            lines = [t(table.lang, "note.stopped_by", player=table.name(interaction.user.id))]
            if table.state is not None:
                lines += self._lines(table, events)
            await interaction.response.send_message(
                "\n".join(lines)[:2000], allowed_mentions=discord.AllowedMentions.none()
            )
            await self._after_stop(table)

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
    ) -> None:
        """Lock, apply + persist, answer, tell. ``public``: a slash command, answered with
        the story lines; otherwise a click, acknowledged silently."""
        try:
            async with table.lock:
                self.check_turn(self.tables, table, step)
                events = await self._act(table, action)
                lines = self._lines(table, events)
                if public:
                    await interaction.response.send_message(
                        "\n".join(lines)[:2000] or t(table.lang, "me.done"),
                        allowed_mentions=discord.AllowedMentions(users=False),
                    )
                else:
                    await interaction.response.defer()
                    await self.tell(table, lines)
                await self.refresh(table)
                await self._after_turn(table)
                self.tables.schedule(table)
        except Exception as error:
            await refuse(interaction, error, table)

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
        ping: list[discord.Object] = []
        current = table.state.current if table.state is not None else None
        if current is not None and not table.is_cpu(current):
            ping = [discord.Object(current)]
        try:
            await self._channel(table).send(
                "\n".join(lines)[:2000],
                allowed_mentions=discord.AllowedMentions(users=ping, roles=False, everyone=False),
            )
        except discord.HTTPException:
            log.warning("table %s: could not post to the channel", table.id, exc_info=True)
