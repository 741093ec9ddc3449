"""Yadès on Discord: the ``/yades`` table cog, its challenges, the sheets and their picture."""

from __future__ import annotations

from typing import TYPE_CHECKING

from cogs.yades.challenges import ChallengeButton
from cogs.yades.cog import YadesCog
from cogs.yades.demo import DEMOS
from cogs.yades.settings import YadesSettings

if TYPE_CHECKING:
    from bot.client import Gobelet


SETTINGS = YadesSettings  # its /reglages subcommands (cogs.reglages)


HELP = "Yadès"  # the game in /aide's menu (its English in cogs/texts/commands.toml)

__all__ = ["DEMOS", "HELP", "SETTINGS", "setup", "teardown"]


async def setup(bot: Gobelet) -> None:
    await bot.add_cog(YadesCog(bot))
    bot.add_components(ChallengeButton)


async def teardown(bot: Gobelet) -> None:
    bot.remove_components(ChallengeButton)
