"""Table buttons and selects that survive restarts: each custom_id carries the table and the
decision it was drawn for, and a click reaches the cog of the game played at that table.

``gob:{table}:{step}:{action}`` and ``gobsel:{table}:{step}`` — ``step`` is the engine's
decision point when the component was drawn, so a click on a component from an earlier
turn (a double click, a stale message) is recognised and refused politely instead of being
applied to a later turn. Lobby components use step 0. The formats never change: buttons
posted by an earlier release keep working.
"""

from __future__ import annotations

import re
from typing import Any

import discord

from bot.i18n import t
from bot.interactions.answers import reply
from bot.interactions.refusals import private_lang
from bot.interactions.shared import shared

ACTION = r"[a-z0-9_]+"
LOBBY_ACTIONS = ("join", "leave", "start")


def label_of(item: discord.ui.Item[Any]) -> str:
    """A clicked button's label (what ``from_custom_id`` rebuilds a button with)."""
    return (item.label or "") if isinstance(item, discord.ui.Button) else ""


def style_of(item: discord.ui.Item[Any]) -> discord.ButtonStyle:
    return item.style if isinstance(item, discord.ui.Button) else discord.ButtonStyle.secondary


def options_of(item: discord.ui.Item[Any]) -> list[discord.SelectOption]:
    """A used menu's options (what ``from_custom_id`` rebuilds a select with)."""
    return list(item.options) if isinstance(item, discord.ui.Select) else []


def placeholder_of(item: discord.ui.Item[Any]) -> str:
    return (item.placeholder or "") if isinstance(item, discord.ui.Select) else ""


def custom_id(table: int, step: int, action: str) -> str:
    return f"gob:{table}:{step}:{action}"


def untie(view: discord.ui.view.BaseView | None, interaction: discord.Interaction) -> None:
    """Break the reference cycles a handled click leaves, so that they are freed at once
    rather than by the cycle collector, whose full runs stop every table (``bot.collector``).

    The cycles: the view discord.py rebuilt from the clicked message to dispatch the click,
    whose items refer back to it; and the interaction and its response, which refer to each
    other (the interaction holding the message clicked). Once given, a response needs its
    interaction only to name it in a second response's error, and for ``delete_after``,
    which none of the bot's answers uses."""
    if view is not None:
        view.clear_items()
    response = interaction.response
    if response.is_done():
        response._parent = None  # type: ignore[assignment]


async def route(
    interaction: discord.Interaction, table_id: int, step: int, action: str, value: str | None
) -> None:
    """Give a click to the cog of the game played at ``table_id`` (or say it is over)."""
    lang = private_lang(interaction)
    if interaction.guild_id is None:
        await reply(interaction, t(lang, "err.dm"), ephemeral=True)
        return
    bot = shared(interaction.client)
    table = bot.tables.get(table_id) if bot is not None else None
    game = bot.games.get(table.kind) if bot is not None and table is not None else None
    if table is None or game is None:
        await reply(interaction, t(lang, "err.stale"), ephemeral=True)
        return
    await game.on_component(interaction, table, step, action, value)


class TableButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=rf"gob:(?P<table>\d+):(?P<step>\d+):(?P<action>{ACTION})",
):
    def __init__(
        self,
        table: int,
        step: int,
        action: str,
        *,
        label: str,
        style: discord.ButtonStyle = discord.ButtonStyle.secondary,
        emoji: str | None = None,
        row: int | None = None,
        disabled: bool = False,
    ) -> None:
        super().__init__(
            discord.ui.Button(
                label=label,
                style=style,
                emoji=emoji,
                custom_id=custom_id(table, step, action),
                disabled=disabled,
            ),
            row=row,
        )
        self.table = table
        self.step = step
        self.action = action

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> TableButton:
        return cls(
            int(match["table"]),
            int(match["step"]),
            match["action"],
            label=label_of(item),
            style=style_of(item),
        )

    async def callback(self, interaction: discord.Interaction) -> None:
        try:
            await route(interaction, self.table, self.step, self.action, None)
        finally:
            untie(self.view, interaction)


class TableSelect(
    discord.ui.DynamicItem[discord.ui.Select[Any]],
    template=r"gobsel:(?P<table>\d+):(?P<step>\d+)",
):
    """A table's menu (announcements, bids, boxes): its choice reaches the game as ``announce``."""

    def __init__(
        self, table: int, step: int, options: list[discord.SelectOption], placeholder: str
    ):
        super().__init__(
            discord.ui.Select(
                custom_id=f"gobsel:{table}:{step}",
                options=options or [discord.SelectOption(label="—", value="none")],
                placeholder=placeholder,
                min_values=1,
                max_values=1,
                disabled=not options,
            )
        )
        self.table = table
        self.step = step

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> TableSelect:
        return cls(int(match["table"]), int(match["step"]), options_of(item), placeholder_of(item))

    async def callback(self, interaction: discord.Interaction) -> None:
        value = self.item.values[0] if self.item.values else None
        try:
            await route(interaction, self.table, self.step, "announce", value)
        finally:
            untie(self.view, interaction)


class RematchButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"gobre:(?P<game>[a-z]+):(?P<table>\d+)",
):
    """**Revanche** on an ended game's last table message: the same table again."""

    def __init__(self, game: str, table: int, *, label: str) -> None:
        super().__init__(
            discord.ui.Button(
                label=label,
                emoji="🔁",
                style=discord.ButtonStyle.primary,
                custom_id=f"gobre:{game}:{table}",
            )
        )
        self.game = game
        self.table = table

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> RematchButton:
        return cls(match["game"], int(match["table"]), label=label_of(item))

    async def callback(self, interaction: discord.Interaction) -> None:
        bot = shared(interaction.client)
        game = bot.games.get(self.game) if bot is not None else None
        try:
            if game is None or interaction.guild_id is None:
                await reply(interaction, t(private_lang(interaction), "err.stale"), ephemeral=True)
                return
            await game.rematch(interaction, self.table)
        finally:
            untie(self.view, interaction)


def rematch_view(game: str, table_id: int, lang: str) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(RematchButton(game, table_id, label=t(lang, "btn.rematch")))
    return view


DYNAMIC_ITEMS = (TableButton, TableSelect, RematchButton)


def lobby_view(table_id: int, lang: str) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(
        TableButton(
            table_id, 0, "join", label=t(lang, "btn.join"), style=discord.ButtonStyle.success
        )
    )
    view.add_item(TableButton(table_id, 0, "leave", label=t(lang, "btn.leave")))
    view.add_item(
        TableButton(
            table_id, 0, "start", label=t(lang, "btn.start"), style=discord.ButtonStyle.primary
        )
    )
    return view
