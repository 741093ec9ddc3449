"""Buttons and selects that survive restarts: each custom_id carries the table and the action.

``gob:{table}:{step}:{action}`` — ``step`` is the engine's decision-point counter when
the component was drawn, so a click on a component from an earlier turn (a double
click, a stale message) is recognised and refused politely instead of being applied to
a later turn. Lobby components use step 0.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

import discord

from bot.games import maya
from bot.games.maya import values as d
from bot.i18n import t

if TYPE_CHECKING:
    from cogs.maya import MayaCog

ACTION = r"[a-z0-9_]+"


def custom_id(table: int, step: int, action: str) -> str:
    return f"gob:{table}:{step}:{action}"


def _cog(interaction: discord.Interaction, table_id: int) -> MayaCog:
    """The cog of the game played at ``table_id`` (Maya's when the table is gone)."""
    tables = getattr(interaction.client, "tables", None)
    table = tables.get(table_id) if tables is not None else None
    names = {"yades": "Yades", "menteur": "Menteur"}
    name = names.get(table.kind, "Maya") if table is not None else "Maya"
    cog = interaction.client.get_cog(name)  # type: ignore[attr-defined]
    assert cog is not None
    return cog  # type: ignore[return-value]


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
    ) -> None:
        super().__init__(
            discord.ui.Button(
                label=label, style=style, emoji=emoji, custom_id=custom_id(table, step, action)
            ),
            row=row,
        )
        self.table = table
        self.step = step
        self.action = action

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button[Any], match: re.Match[str]
    ) -> TableButton:
        return cls(
            int(match["table"]),
            int(match["step"]),
            match["action"],
            label=item.label or "",
            style=item.style,
        )

    async def callback(self, interaction: discord.Interaction) -> None:
        await _cog(interaction, self.table).on_component(
            interaction, self.table, self.step, self.action, None
        )


class AnnounceSelect(
    discord.ui.DynamicItem[discord.ui.Select[Any]],
    template=r"gobsel:(?P<table>\d+):(?P<step>\d+)",
):
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
        cls, interaction: discord.Interaction, item: discord.ui.Select[Any], match: re.Match[str]
    ) -> AnnounceSelect:
        return cls(
            int(match["table"]), int(match["step"]), list(item.options), item.placeholder or ""
        )

    async def callback(self, interaction: discord.Interaction) -> None:
        value = self.item.values[0] if self.item.values else None
        await _cog(interaction, self.table).on_component(
            interaction, self.table, self.step, "announce", value
        )


class FaultButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"gobf:(?P<table>\d+):(?P<fault>\d+):(?P<action>accept|contest|appeal)",
):
    def __init__(
        self, table: int, fault: int, action: str, *, label: str, style: discord.ButtonStyle
    ):
        super().__init__(
            discord.ui.Button(label=label, style=style, custom_id=f"gobf:{table}:{fault}:{action}")
        )
        self.table = table
        self.fault = fault
        self.action = action

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Button[Any], match: re.Match[str]
    ) -> FaultButton:
        return cls(
            int(match["table"]),
            int(match["fault"]),
            match["action"],
            label=item.label or "",
            style=item.style,
        )

    async def callback(self, interaction: discord.Interaction) -> None:
        await _cog(interaction, self.table).on_fault_component(
            interaction, self.table, self.fault, self.action
        )


DYNAMIC_ITEMS = (TableButton, AnnounceSelect, FaultButton)


# --------------------------------------------------------------------------- views


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
    return view  # fmt: skip


def table_view(table_id: int, state: maya.State, lang: str) -> discord.ui.View | None:
    """The public table's buttons for the current decision (anyone may click; the cog checks)."""
    if state.over:
        return None
    view = discord.ui.View(timeout=None)
    step = state.step
    rules = state.rules
    primary, danger = discord.ButtonStyle.primary, discord.ButtonStyle.danger

    def add(
        action: str, key: str, style: discord.ButtonStyle = discord.ButtonStyle.secondary, **kw: Any
    ) -> None:
        view.add_item(TableButton(table_id, step, action, label=t(lang, key, **kw), style=style))  # fmt: skip

    if state.phase == maya.OPEN:
        add("roll", "btn.roll", primary)
        if rules.aveugle:
            add("roll_blind", "btn.roll_blind")
        if state.may_reverse:
            add("roll_reverse", "btn.roll_reverse")
    elif state.phase == maya.ANNOUNCE:
        add("dice", "btn.dice", primary)
    elif state.announced == d.MAYA:
        add("lift", "btn.lift", danger)
        if not rules.lives and rules.warrior_fragile:
            add("fragile", "btn.fragile")
            add("warrior", "btn.warrior", primary)
        else:
            add("accept_maya", "btn.accept_maya")
    else:
        add("believe", "btn.believe", primary)
        if rules.aveugle:
            add("believe_blind", "btn.believe_blind")
        add("lift", "btn.lift", danger)
    if not rules.lives:
        view.add_item(TableButton(table_id, 0, "join", label=t(lang, "btn.join"), row=1))
    return view


def panel_view(table_id: int, state: maya.State, player: int, lang: str) -> discord.ui.View | None:
    """The holder's private panel: the legal announcements and the blind plays."""
    if state.phase != maya.ANNOUNCE or state.current != player:
        return None
    legal = maya.legal_actions(state, player)
    options = []
    for action in legal:
        if isinstance(action, maya.Photo):
            assert state.announced is not None
            label = t(lang, "select.photo", value=state.announced)
            options.append(discord.SelectOption(label=label, value="photo"))
        elif isinstance(action, maya.Announce):
            label = t(lang, "select.maya") if action.value == d.MAYA else str(action.value)
            options.append(discord.SelectOption(label=label, value=str(action.value)))
    # Strongest first: the values people bluff with are at the top.
    options.reverse()
    view = discord.ui.View(timeout=None)
    view.add_item(AnnounceSelect(table_id, state.step, options[:25], t(lang, "select.announce")))
    for action in legal:
        if isinstance(action, maya.Tap):
            assert state.seen is not None
            face = d.face(state.seen[action.die])
            view.add_item(
                TableButton(
                    table_id, state.step, f"tap{action.die}", label=t(lang, "btn.tap", face=face)
                )
            )
        elif isinstance(action, maya.SecondChance):
            view.add_item(
                TableButton(
                    table_id, state.step, "second_chance", label=t(lang, "btn.second_chance")
                )
            )
    return view


def fault_view(table_id: int, fault: maya.Fault, lang: str) -> discord.ui.View | None:
    view = discord.ui.View(timeout=None)
    if fault.status == "pending":
        view.add_item(FaultButton(table_id, fault.id, "accept", label=t(lang, "btn.fault_accept"), style=discord.ButtonStyle.secondary))  # fmt: skip
        view.add_item(FaultButton(table_id, fault.id, "contest", label=t(lang, "btn.fault_contest"), style=discord.ButtonStyle.danger))  # fmt: skip
    elif fault.status == "guilty":
        view.add_item(FaultButton(table_id, fault.id, "appeal", label=t(lang, "btn.fault_appeal"), style=discord.ButtonStyle.primary))  # fmt: skip
    else:
        return None
    return view
