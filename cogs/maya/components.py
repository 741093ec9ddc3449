"""Maya's components: the table's buttons, the holder's private panel, the accusation buttons.

Every one is built from the actions the engine says are legal now (``Table.legal``), never
from the table's options: a button is there because its move is allowed.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import discord

from bot.games import maya
from bot.games.maya import values as d
from bot.games.maya.spec import SPEC
from bot.i18n import t
from bot.interactions.answers import reply
from bot.interactions.refusals import private_lang
from cogs.maya.render import maya_value, top_name
from cogs.table.components import TableButton, TableSelect, label_of, style_of

if TYPE_CHECKING:
    from cogs.maya.cog import MayaCog

# A turn's buttons, in the order they are shown: (component action, text, style).
PRIMARY, DANGER, SECONDARY = (
    discord.ButtonStyle.primary,
    discord.ButtonStyle.danger,
    discord.ButtonStyle.secondary,
)
TURN_BUTTONS: tuple[tuple[str, str, discord.ButtonStyle], ...] = (
    ("roll", "btn.roll", PRIMARY),
    ("roll_blind", "btn.roll_blind", SECONDARY),
    ("roll_reverse", "btn.roll_reverse", SECONDARY),
    ("dice", "btn.dice", PRIMARY),
    ("believe", "btn.believe", PRIMARY),
    ("believe_blind", "btn.believe_blind", SECONDARY),
    ("lift", "btn.lift", DANGER),
    ("fragile", "btn.fragile", SECONDARY),
    ("warrior", "btn.warrior", PRIMARY),
    ("accept_maya", "btn.accept_maya", SECONDARY),
)


def button_action(action: maya.Action) -> str | None:
    """The table button that plays ``action`` (None: it is played otherwise)."""
    match action:
        case maya.Roll(blind=False, reverse=False):
            return "roll"
        case maya.Roll(blind=True, reverse=False):
            return "roll_blind"
        case maya.Roll(blind=False, reverse=True):
            return "roll_reverse"
        case maya.Announce() | maya.Photo() | maya.Tap() | maya.SecondChance():
            return "dice"  # the holder's panel, where their dice are
        case maya.Believe(blind=False):
            return "believe"
        case maya.Believe(blind=True):
            return "believe_blind"
        case maya.Lift():
            return "lift"
        case maya.Fragile():
            return "fragile"
        case maya.Warrior():
            return "warrior"
        case maya.AcceptMaya():
            return "accept_maya"
    return None


def component_action(action: str, user: int, value: str | None) -> maya.Action:
    """The move a click asks for (``value``: the announcement picked in the panel's menu)."""
    simple: dict[str, maya.Action] = {
        "roll": maya.Roll(user),
        "roll_blind": maya.Roll(user, None, True),
        "roll_reverse": maya.Roll(user, None, False, True),
        "believe": maya.Believe(user),
        "believe_blind": maya.Believe(user, None, True),
        "lift": maya.Lift(user),
        "fragile": maya.Fragile(user),
        "warrior": maya.Warrior(user),
        "accept_maya": maya.AcceptMaya(user),
        "tap0": maya.Tap(user, 0),
        "tap1": maya.Tap(user, 1),
        "second_chance": maya.SecondChance(user),
    }
    if action in simple:
        return simple[action]
    if action == "announce" and value is not None:
        return maya.read_announcement(user, value)
    raise maya.NotNow(action=action)


def table_view(
    table_id: int,
    view: maya.View,
    turn: Sequence[maya.Action],
    joinable: bool,
    lang: str,
) -> discord.ui.View | None:
    """The public table's buttons: the current player's legal moves (anyone may click; the
    cog checks), and joining when a newcomer may join."""
    if view.over:
        return None
    legal = {button_action(action) for action in turn}
    components = discord.ui.View(timeout=None)
    for action, key, style in TURN_BUTTONS:
        if action in legal:
            components.add_item(
                TableButton(
                    table_id,
                    view.step,
                    action,
                    label=t(lang, key, top=top_name(view.rules, lang)),
                    style=style,
                )
            )
    if joinable:
        components.add_item(TableButton(table_id, 0, "join", label=t(lang, "btn.join"), row=1))
    return components


def possible_moves(view: maya.View, legal: Sequence[maya.Action], lang: str) -> list[str]:
    """The moves ``legal`` offers, as the table's buttons name them ("Croire", "Soulever";
    an announcement: what the panel's menu says)."""
    names = {button_action(action) for action in legal}
    found = []
    for action, key, _ in TURN_BUTTONS:
        if action in names and action != "dice":
            found.append(t(lang, key, top=top_name(view.rules, lang)))
    if any(isinstance(action, maya.Announce | maya.Photo) for action in legal):
        found.append(t(lang, "select.announce"))
    return found


def turn_view(
    table_id: int, view: maya.View, legal: Sequence[maya.Action], lang: str
) -> discord.ui.View | None:
    """A player's moves on their turn, as the table's buttons (for their private panel);
    None when they are not to press a button now (announcing is the panel's menu)."""
    names = {button_action(action) for action in legal} - {"dice", None}
    if not names:
        return None
    components = discord.ui.View(timeout=None)
    for action, key, style in TURN_BUTTONS:
        if action in names:
            label = t(lang, key, top=top_name(view.rules, lang))
            components.add_item(TableButton(table_id, view.step, action, label=label, style=style))
    return components


def style_view(
    table_id: int, step: int, facing: Sequence[maya.Action], lang: str
) -> discord.ui.View:
    """How to believe a Maya (``/croire`` without a style): the table's own buttons."""
    components = discord.ui.View(timeout=None)
    for action in facing:
        name = button_action(action)
        for wanted, key, style in TURN_BUTTONS:
            if wanted == name:
                label = t(lang, key, top="Maya")
                components.add_item(TableButton(table_id, step, wanted, label=label, style=style))
    return components


def panel_view(
    table_id: int, view: maya.View, legal: Sequence[maya.Action], lang: str
) -> discord.ui.View | None:
    """The holder's private panel: the legal announcements and the blind plays."""
    options = []
    for action in legal:
        if isinstance(action, maya.Photo) and view.announced is not None:
            shown = maya_value(view.announced, view.rules, lang)
            options.append(
                discord.SelectOption(label=t(lang, "select.photo", value=shown), value="photo")
            )
        elif isinstance(action, maya.Announce):
            label = (
                f"🔥 {maya_value(action.value, view.rules, lang)}"
                if action.value == d.MAYA
                else maya_value(action.value, view.rules, lang)
            )
            options.append(discord.SelectOption(label=label, value=str(action.value)))
    if not options:
        return None  # not announcing now: nothing to pick
    # Strongest first: the values people bluff with are at the top.
    options.reverse()
    components = discord.ui.View(timeout=None)
    components.add_item(TableSelect(table_id, view.step, options[:25], t(lang, "select.announce")))
    for action in legal:
        if isinstance(action, maya.Tap) and view.my_dice is not None:
            face = d.face(view.my_dice[action.die])
            components.add_item(
                TableButton(
                    table_id, view.step, f"tap{action.die}", label=t(lang, "btn.tap", face=face)
                )
            )
        elif isinstance(action, maya.SecondChance):
            components.add_item(
                TableButton(
                    table_id, view.step, "second_chance", label=t(lang, "btn.second_chance")
                )
            )
    return components


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
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> FaultButton:
        return cls(
            int(match["table"]),
            int(match["fault"]),
            match["action"],
            label=label_of(item),
            style=style_of(item),
        )

    async def callback(self, interaction: discord.Interaction) -> None:
        cog: MayaCog | None = getattr(interaction.client, "table_cogs", {}).get(SPEC.name)
        tables = getattr(interaction.client, "tables", None)
        table = tables.get(self.table) if tables is not None else None
        if cog is None or table is None:
            await reply(interaction, t(private_lang(interaction), "err.stale"), ephemeral=True)
            return
        await cog.faults.on_component(interaction, table, self.fault, self.action)


def fault_view(table_id: int, fault: maya.FaultView, lang: str) -> discord.ui.View | None:
    """The accused's buttons (accept, contest), then the guilty's (appeal)."""
    view = discord.ui.View(timeout=None)
    if fault.status == maya.FaultStatus.PENDING:
        view.add_item(FaultButton(table_id, fault.id, "accept", label=t(lang, "btn.fault_accept"), style=discord.ButtonStyle.secondary))  # fmt: skip
        view.add_item(FaultButton(table_id, fault.id, "contest", label=t(lang, "btn.fault_contest"), style=discord.ButtonStyle.danger))  # fmt: skip
    elif fault.status == maya.FaultStatus.GUILTY:
        view.add_item(FaultButton(table_id, fault.id, "appeal", label=t(lang, "btn.fault_appeal"), style=discord.ButtonStyle.primary))  # fmt: skip
    else:
        return None
    return view
