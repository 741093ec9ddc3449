"""Maya's components: the table's buttons, the holder's private panel, the accusation buttons.

Every one is built from the actions the engine says are legal now (``Table.legal``), never
from the table's options: a button is there because its move is allowed.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

import discord

from bot.games import maya
from bot.games.maya import values as d
from bot.i18n import t
from cogs.maya.render import maya_value, top_name
from cogs.table.components import TableSelect
from cogs.table.controls import Control, Controls, Where

if TYPE_CHECKING:
    pass

PRIMARY, DANGER, SECONDARY = (
    discord.ButtonStyle.primary,
    discord.ButtonStyle.danger,
    discord.ButtonStyle.secondary,
)
# How a move's click is answered (``MayaCog.play_control``): with the player's private panel
# (shown, or edited in place when the click came from it), by editing the panel clicked, or
# silently.
PANEL, UPDATE_PANEL, SILENT = "panel", "update_panel", "silent"


def _announcement(user: int, argument: str, value: str | None) -> maya.Action:
    if value is None:
        raise maya.NotNow(action="announce")
    return maya.read_announcement(user, value)


def _turn(
    control_id: str,
    style: discord.ButtonStyle,
    move: Callable[[int], maya.Action],
    shows: Callable[[maya.Action], bool],
    reply: str = SILENT,
) -> Control:
    """A move of the turn: a button of the table, and of its player's panel."""
    return Control(
        control_id,
        f"btn.{control_id}",
        style,
        Where.BOTH,
        move=lambda user, *_: move(user),
        shows=shows,
        reply=reply,
    )


# Every control of a Maya table. The turn's buttons come first, in the order they are shown,
# each drawn for the legal action it plays (``shows``).
CONTROLS = Controls(
    (
        _turn(
            "roll",
            PRIMARY,
            lambda user: maya.Roll(user),
            lambda a: isinstance(a, maya.Roll) and not a.blind and not a.reverse,
            PANEL,
        ),
        _turn(
            "roll_blind",
            SECONDARY,
            lambda user: maya.Roll(user, None, True),
            lambda a: isinstance(a, maya.Roll) and a.blind and not a.reverse,
            PANEL,
        ),
        _turn(
            "roll_reverse",
            SECONDARY,
            lambda user: maya.Roll(user, None, False, True),
            lambda a: isinstance(a, maya.Roll) and not a.blind and a.reverse,
            PANEL,
        ),
        Control(  # the holder's panel, where their dice are
            "dice",
            "btn.dice",
            PRIMARY,
            handler=lambda cog, interaction, table, *_: cog.show_dice(interaction, table),
            shows=lambda a: isinstance(
                a, maya.Announce | maya.Photo | maya.Tap | maya.SecondChance
            ),
        ),
        _turn(
            "believe",
            PRIMARY,
            lambda user: maya.Believe(user),
            lambda a: isinstance(a, maya.Believe) and not a.blind,
            PANEL,
        ),
        _turn(
            "believe_blind",
            SECONDARY,
            lambda user: maya.Believe(user, None, True),
            lambda a: isinstance(a, maya.Believe) and a.blind,
            PANEL,
        ),
        _turn("lift", DANGER, lambda user: maya.Lift(user), lambda a: isinstance(a, maya.Lift)),
        _turn(
            "fragile",
            SECONDARY,
            lambda user: maya.Fragile(user),
            lambda a: isinstance(a, maya.Fragile),
        ),
        _turn(
            "warrior",
            PRIMARY,
            lambda user: maya.Warrior(user),
            lambda a: isinstance(a, maya.Warrior),
        ),
        _turn(
            "accept_maya",
            SECONDARY,
            lambda user: maya.AcceptMaya(user),
            lambda a: isinstance(a, maya.AcceptMaya),
        ),
        # The holder's panel: the announcements' menu, a die to tap, the second chance.
        Control("announce", where=Where.PANEL, move=_announcement, reply=UPDATE_PANEL),
        Control(
            "tap",
            "btn.tap",
            where=Where.PANEL,
            argument="[01]",
            move=lambda user, die, _: maya.Tap(user, int(die)),
            reply=UPDATE_PANEL,
        ),
        Control(
            "second_chance",
            "btn.second_chance",
            where=Where.PANEL,
            move=lambda user, *_: maya.SecondChance(user),
            reply=UPDATE_PANEL,
        ),
        # A newcomer joins a game under way (before it starts: the lobby's own button).
        Control(
            "join", "btn.join", move=lambda user, *_: maya.Join(user), reply=SILENT, stepped=False
        ),
    )
)
TURN = tuple(control for control in CONTROLS.all if control.shows is not None)


def _drawn(legal: Sequence[maya.Action]) -> set[str]:
    """The ids of the turn's buttons that play ``legal``."""
    return {found.id for action in legal if (found := CONTROLS.drawn_for(action)) is not None}


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
    legal = _drawn(turn)
    components = discord.ui.View(timeout=None)
    top = top_name(view.rules, lang)
    for control in TURN:
        if control.id in legal:
            components.add_item(control.button(table_id, view.step, lang, top=top))
    if joinable:
        components.add_item(CONTROLS["join"].button(table_id, 0, lang, row=1))
    return components


def possible_moves(view: maya.View, legal: Sequence[maya.Action], lang: str) -> list[str]:
    """The moves ``legal`` offers, as the table's buttons name them ("Croire", "Soulever";
    an announcement: what the panel's menu says)."""
    names = _drawn(legal)
    found = []
    for control in TURN:
        if control.id in names and control.move is not None:
            found.append(t(lang, control.text, top=top_name(view.rules, lang)))
    if any(isinstance(action, maya.Announce | maya.Photo) for action in legal):
        found.append(t(lang, "select.announce"))
    return found


def turn_view(
    table_id: int, view: maya.View, legal: Sequence[maya.Action], lang: str
) -> discord.ui.View | None:
    """A player's moves on their turn, as the table's buttons (for their private panel);
    None when they are not to press a button now (announcing is the panel's menu)."""
    names = _drawn(legal)
    shown = [c for c in TURN if c.id in names and c.where & Where.PANEL]
    if not shown:
        return None
    components = discord.ui.View(timeout=None)
    top = top_name(view.rules, lang)
    for control in shown:
        components.add_item(control.button(table_id, view.step, lang, top=top))
    return components


def style_view(
    table_id: int, step: int, facing: Sequence[maya.Action], lang: str
) -> discord.ui.View:
    """How to believe a Maya (``/croire`` without a style): the table's own buttons."""
    components = discord.ui.View(timeout=None)
    for action in facing:
        control = CONTROLS.drawn_for(action)
        if control is not None:
            components.add_item(control.button(table_id, step, lang, top="Maya"))
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
            tap = CONTROLS["tap"].button(
                table_id, view.step, lang, argument=str(action.die), face=face
            )
            components.add_item(tap)
        elif isinstance(action, maya.SecondChance):
            components.add_item(CONTROLS["second_chance"].button(table_id, view.step, lang))
    return components
