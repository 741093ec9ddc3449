"""The public side of a table: its message, edited in place, and the story lines it posts."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Sequence
from typing import TYPE_CHECKING

import discord

from bot.storage import StorageError
from bot.table import Table, Tables

if TYPE_CHECKING:
    from bot.client import Gobelet

log = logging.getLogger(__name__)


def display_name(interaction: discord.Interaction) -> str:
    """The name the bot may show for the user of ``interaction`` (no members intent needed)."""
    return interaction.user.display_name


class Channel:
    """Mixed into the table cog: posting to a table's channel, never failing the table."""

    bot: Gobelet
    tables: Tables

    def _channel(self, table: Table) -> discord.PartialMessageable:
        return self.bot.get_partial_messageable(table.channel_id, guild_id=table.guild_id)

    def pings(self, table: Table) -> discord.AllowedMentions:
        """Only the player whose turn it now is gets pinged."""
        ping: list[discord.Object] = []
        current = table.current
        if current is not None and not table.is_cpu(current):
            ping = [discord.Object(current)]
        return discord.AllowedMentions(users=ping, roles=False, everyone=False)

    async def _guarded(self, table: Table, what: str, step: Awaitable[None]) -> None:
        """Run one step of telling a stored move; a failure is logged, the next steps run."""
        try:
            await step
        except Exception:
            log.warning("table %s: could not %s", table.id, what, exc_info=True)

    async def draw_table(
        self, table: Table, embed: discord.Embed, view: discord.ui.View | None
    ) -> None:
        """Edit the public table message in place (post a new one if it was deleted, unless
        the table is a lobby closed before its game)."""
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
        if not table.running and not table.started:
            return  # a lobby closed before its game: nothing to show anew
        try:
            if view is None:
                message = await channel.send(embed=embed)
            else:
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
