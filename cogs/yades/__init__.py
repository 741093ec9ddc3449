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


__all__ = ["DEMOS", "SETTINGS", "setup", "teardown"]


async def setup(bot: Gobelet) -> None:
    await bot.add_cog(YadesCog(bot))
    bot.add_components(ChallengeButton)


async def teardown(bot: Gobelet) -> None:
    bot.remove_components(ChallengeButton)
