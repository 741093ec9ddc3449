"""Maya and Mia on Discord: the ``/maya`` table cog, ``/croire`` and ``/faute``, the votes."""

from __future__ import annotations

from typing import TYPE_CHECKING

from cogs.maya.cog import MayaCog
from cogs.maya.demo import DEMOS
from cogs.maya.faults import FaultButton
from cogs.maya.plays import MayaPlays
from cogs.maya.settings import MayaSettings

if TYPE_CHECKING:
    from bot.client import Gobelet


SETTINGS = MayaSettings  # its /reglages subcommands (cogs.reglages)


HELP = "Maya et Mia"  # the game in /aide's menu (its English in cogs/texts/commands.toml)

__all__ = ["DEMOS", "HELP", "SETTINGS", "setup", "teardown"]


async def setup(bot: Gobelet) -> None:
    cog = MayaCog(bot)
    await bot.add_cog(cog)
    await bot.add_cog(MayaPlays(cog))
    bot.add_components(FaultButton)


async def teardown(bot: Gobelet) -> None:
    bot.remove_components(FaultButton)
