"""Dés du menteur on Discord: the ``/menteur`` table cog and its private tutorial."""

from __future__ import annotations

from typing import TYPE_CHECKING

from cogs.menteur.cog import MenteurCog
from cogs.menteur.demo import DEMOS
from cogs.menteur.settings import MenteurSettings
from cogs.menteur.tutorial import TutorialDudo, TutorialSelect

if TYPE_CHECKING:
    from bot.client import Gobelet


SETTINGS = MenteurSettings  # its /reglages subcommands (cogs.reglages)

HELP = "Dés du menteur"  # the game in /aide's menu (its English in cogs/texts/commands.toml)

__all__ = ["DEMOS", "HELP", "SETTINGS", "setup", "teardown"]


async def setup(bot: Gobelet) -> None:
    await bot.add_cog(MenteurCog(bot))
    bot.add_components(TutorialSelect, TutorialDudo)


async def teardown(bot: Gobelet) -> None:
    bot.remove_components(TutorialSelect, TutorialDudo)
