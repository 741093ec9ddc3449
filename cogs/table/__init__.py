"""What every game's table shares on Discord: the table cog base, its components and their
router, its channel, and ``/soulever`` (the answers and refusals every cog shares are in
``bot.interactions``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from cogs.table.cog import TableCog
from cogs.table.components import DYNAMIC_ITEMS
from cogs.table.lift import Lift
from cogs.table.rematch import REMATCH, Offers

if TYPE_CHECKING:
    from bot.client import Gobelet

__all__ = ["TableCog"]


async def setup(bot: Gobelet) -> None:
    bot.add_components(*DYNAMIC_ITEMS)
    offers = Offers(bot)
    bot.shared.provide(offers)
    bot.tables.clock.handle(REMATCH, offers.end)
    await bot.add_cog(Lift(bot))


async def teardown(bot: Gobelet) -> None:
    bot.remove_components(*DYNAMIC_ITEMS)
