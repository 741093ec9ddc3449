"""A tournament's buttons, each one declaration with its handler: sign up, take one's name
off and start (``gobto:{tournament}:{action}``, on the sign-up message), and a match's
check-in (``gobtp:{tournament}:{match}``, in its thread). They work across restarts: each
finds its tournament by the id it carries."""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable
from typing import Any, ClassVar, Protocol

import discord

from bot.i18n import t
from bot.interactions.answers import reply
from bot.interactions.refusals import private_lang, refuse
from bot.interactions.shared import shared
from cogs.table.components import label_of

ACTIONS = ("join", "leave", "start")


class Clicks(Protocol):
    """What the buttons reach: the tournaments' cog."""

    async def signup_clicked(
        self, interaction: discord.Interaction, tournament: int, action: str
    ) -> None: ...

    async def checked_in(
        self, interaction: discord.Interaction, tournament: int, match: str
    ) -> None: ...


class Buttons:
    """The service the buttons find the tournaments' cog by (``Shared.service``)."""

    def __init__(self, clicks: Clicks) -> None:
        self.clicks = clicks


async def _reach(
    interaction: discord.Interaction, click: Callable[[Clicks], Awaitable[None]]
) -> None:
    """Hand a click to the tournaments' cog; any refusal is explained privately."""
    found = shared(interaction.client)
    buttons = found.service(Buttons) if found is not None else None
    if buttons is None or interaction.guild_id is None:
        await reply(interaction, t(private_lang(interaction), "err.stale"), ephemeral=True)
        return
    try:
        await click(buttons.clicks)
    except Exception as error:
        await refuse(interaction, error)


class SignupButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"gobto:(?P<tournament>\d+):(?P<action>join|leave|start)",
):
    """A button of a tournament's sign-up message."""

    STYLES: ClassVar[dict[str, discord.ButtonStyle]] = {
        "join": discord.ButtonStyle.success,
        "leave": discord.ButtonStyle.secondary,
        "start": discord.ButtonStyle.primary,
    }

    def __init__(self, tournament: int, action: str, *, label: str) -> None:
        super().__init__(
            discord.ui.Button(
                label=label,
                style=self.STYLES[action],
                custom_id=f"gobto:{tournament}:{action}",
            )
        )
        self.tournament = tournament
        self.action = action

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> SignupButton:
        return cls(int(match["tournament"]), match["action"], label=label_of(item))

    async def callback(self, interaction: discord.Interaction) -> None:
        await _reach(
            interaction, lambda cog: cog.signup_clicked(interaction, self.tournament, self.action)
        )


class CheckInButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"gobtp:(?P<tournament>\d+):(?P<match>\d+-\d+)",
):
    """**Présent** under a match's check-in: its players say they are there."""

    def __init__(self, tournament: int, match: str, *, label: str) -> None:
        super().__init__(
            discord.ui.Button(
                label=label,
                emoji="✋",
                style=discord.ButtonStyle.success,
                custom_id=f"gobtp:{tournament}:{match}",
            )
        )
        self.tournament = tournament
        self.match = match

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> CheckInButton:
        return cls(int(match["tournament"]), match["match"], label=label_of(item))

    async def callback(self, interaction: discord.Interaction) -> None:
        await _reach(
            interaction, lambda cog: cog.checked_in(interaction, self.tournament, self.match)
        )


def signup_view(tournament: int, lang: str) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    for action in ACTIONS:
        view.add_item(SignupButton(tournament, action, label=t(lang, f"tour.btn.{action}")))
    return view


def checkin_view(tournament: int, match: str, lang: str) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(CheckInButton(tournament, match, label=t(lang, "tour.btn.present")))
    return view
