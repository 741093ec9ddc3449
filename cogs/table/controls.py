"""A game's buttons and menus, each declared once: from a ``Control`` come its custom_id (with
``TableButton`` or ``TableSelect``), its label and style, where it may be clicked, and what a
click on it does. A game's cog lists its controls (``TableCog.controls``); the table's click
router finds the one a custom_id names and plays it, so a game adds a button with one
declaration and, when the click is more than an engine move, its handler.
"""

from __future__ import annotations

import enum
import re
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import discord

from bot.i18n import t
from cogs.table.components import TableButton

if TYPE_CHECKING:
    from bot.table import Table


class Where(enum.Flag):
    """Where a control is shown, hence the only messages a click on it may come from."""

    TABLE = enum.auto()  # the public table message
    PANEL = enum.auto()  # a player's private panel (an ephemeral message)
    BOTH = TABLE | PANEL


# (the player, the custom_id's argument after the control's id, a menu's value) -> the move
Move = Callable[[int, str, str | None], Any]
# (the game's cog, the click, the table, the step it was drawn for, the argument, a menu's
# value): what a click does when it is more than a move
Handler = Callable[[Any, discord.Interaction, "Table", int, str, str | None], Awaitable[None]]


@dataclass(frozen=True, slots=True)
class Control:
    """One button or menu of a game.

    ``id``: the custom_id's action (``gob:{table}:{step}:{id}{argument}``; a menu's is always
    ``announce``); ``text``: its label's text key; ``where``: the messages it is on; ``move``:
    the engine action a click plays (through the cog's ``play_control``), or ``handler``:
    what a click does when it is more than a move; ``shows``: which legal action the button
    is drawn for; ``reply``: how the game answers the click (the game's own kinds);
    ``argument``: the pattern of what follows the id in a control drawn in several versions
    (Yadès's dice to hold), none by default; ``stepped``: a click counts only on the decision
    it was drawn for (not joining, whenever it comes)."""

    id: str
    text: str = ""
    style: discord.ButtonStyle = discord.ButtonStyle.secondary
    where: Where = Where.TABLE
    move: Move | None = None
    handler: Handler | None = None
    shows: Callable[[Any], bool] | None = None
    reply: str = ""
    argument: str = ""
    stepped: bool = True

    def button(
        self,
        table_id: int,
        step: int,
        lang: str,
        *,
        argument: str = "",
        label: str | None = None,
        style: discord.ButtonStyle | None = None,
        row: int | None = None,
        disabled: bool = False,
        **params: Any,
    ) -> TableButton:
        """This control drawn for ``step`` (its label from its text, unless given)."""
        return TableButton(
            table_id,
            step,
            f"{self.id}{argument}",
            label=label if label is not None else t(lang, self.text, **params),
            style=style or self.style,
            row=row,
            disabled=disabled,
        )


class Controls:
    """A game's controls, found by the action a custom_id carries (its id, then an argument
    for a control drawn in several versions, as Yadès's dice to hold)."""

    def __init__(self, controls: Iterable[Control]) -> None:
        self.all = tuple(controls)
        # Longest first: an id that begins another one's must not take its clicks.
        self._ids = sorted(self.all, key=lambda control: -len(control.id))

    def find(self, action: str) -> tuple[Control, str] | None:
        """The control ``action`` names, with its argument; None: no control of this game."""
        for control in self._ids:
            argument = action[len(control.id) :]
            if action.startswith(control.id) and re.fullmatch(control.argument, argument):
                return control, argument
        return None

    def __getitem__(self, control_id: str) -> Control:
        for control in self.all:
            if control.id == control_id:
                return control
        raise KeyError(control_id)

    def drawn_for(self, action: Any) -> Control | None:
        """The button a legal ``action`` is played with, if one shows it."""
        for control in self.all:
            if control.shows is not None and control.shows(action):
                return control
        return None
