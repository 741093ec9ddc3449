"""Clicks on components their message no longer shows still reach their handler.

discord.py finds a ``DynamicItem`` by looking for the clicked custom_id among the components
of the message *as Discord sends it with the click*. A player who clicks a button of a turn
already played (their screen not yet redrawn), or a button of a table since stopped, sends a
custom_id that the edited message no longer carries: discord.py then drops the click without
a word and the player sees "interaction failed". ``dispatch_stale`` gives such a click to the
item's own callback, which answers it (privately: "too late", "this game is over").
"""

from __future__ import annotations

import logging
import re
from collections.abc import Iterable, Iterator
from typing import Any

import discord

log = logging.getLogger(__name__)

DynamicType = type[discord.ui.DynamicItem[Any]]


def custom_ids(components: Iterable[Any]) -> Iterator[str]:
    """Every custom_id among a message's components, their rows' included."""
    for component in components:
        custom_id = getattr(component, "custom_id", None)
        if custom_id:
            yield custom_id
        yield from custom_ids(getattr(component, "children", ()))


def _template(factory: DynamicType) -> re.Pattern[str]:
    return factory.__discord_ui_compiled_template__


async def dispatch_stale(
    interaction: discord.Interaction, factories: Iterable[DynamicType]
) -> bool:
    """Run the callback of a dynamic component missing from its message; True if one ran."""
    if interaction.type != discord.InteractionType.component or interaction.message is None:
        return False
    data: dict[str, Any] = dict(interaction.data or {})
    custom_id = str(data.get("custom_id", ""))
    if custom_id in set(custom_ids(interaction.message.components)):
        return False  # discord.py dispatches it itself
    for factory in factories:
        match = _template(factory).fullmatch(custom_id)
        if match is None:
            continue
        base: discord.ui.Item[Any]
        if data.get("component_type") == discord.ComponentType.button.value:
            base = discord.ui.Button(custom_id=custom_id)
        else:
            base = discord.ui.Select(custom_id=custom_id)
        try:
            item = await factory.from_custom_id(interaction, base, match)
            item._refresh_state(interaction, data)  # the values picked, as discord.py does
            if await item.interaction_check(interaction):
                await item.callback(interaction)
        except Exception:
            log.exception("a click on a component no longer shown failed (%s)", custom_id)
        return True
    return False
