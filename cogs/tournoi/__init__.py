"""Tournaments on Discord: ``/tournoi``, its buttons, and the director that runs them."""

from __future__ import annotations

from typing import TYPE_CHECKING

from cogs.tournoi.cog import TournoiCog
from cogs.tournoi.components import CheckInButton, SignupButton

if TYPE_CHECKING:
    from bot.client import Gobelet

__all__ = ["TournoiCog", "setup", "teardown"]


async def setup(bot: Gobelet) -> None:
    await bot.add_cog(TournoiCog(bot))
    bot.add_components(SignupButton, CheckInButton)


async def teardown(bot: Gobelet) -> None:
    bot.remove_components(SignupButton, CheckInButton)
