"""Private panels kept live: a player's ephemeral panel (their dice, their moves) is edited
as the game goes on, while Discord lets the bot edit it.

An interaction's token lets the bot edit its answer for 15 minutes: a panel is followed a
little less (``PANEL_SECONDS``), so that an edit never races the token's end. A game's cog
keeps its players' panels by (table, player) and says what each shows now."""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass, field
from typing import Any

import discord

from cogs.table import answers

log = logging.getLogger(__name__)

PANEL_SECONDS = 14 * 60.0

Shown = tuple[str, tuple[str, ...]]


def signature(content: str, view: discord.ui.View | None) -> Shown:
    """What a panel shows, to compare: its text and its components' ids."""
    items = view.children if view is not None else []
    return content, tuple(getattr(item, "custom_id", None) or "" for item in items)


@dataclass
class Panel:
    """A player's private panel: the interaction it answered, its message (the answer
    ``answers.reply`` returned), the reader's language, what it shows."""

    interaction: discord.Interaction
    message: Any
    lang: str
    opened: float = field(default_factory=time.monotonic)
    shown: Shown | None = None
    live: bool = False  # it offers the moves of its player's turn

    def age(self) -> float:
        return time.monotonic() - self.opened

    @property
    def followed(self) -> bool:
        return self.age() <= PANEL_SECONDS

    async def show(self, content: str, view: discord.ui.View | None) -> bool:
        """Edit the panel; False if Discord refused it (the panel is gone, or its token)."""
        try:
            await answers.edit_answer(self.interaction, self.message, content=content, view=view)
        except discord.HTTPException:
            log.info("a private panel could not be edited")
            return False
        self.shown = signature(content, view)
        return True
