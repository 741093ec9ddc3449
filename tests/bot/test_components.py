"""The table's buttons and menus, once a click reached them."""

from __future__ import annotations

import contextlib
import gc
import weakref
from typing import Any

import discord
import pytest

from cogs.table import components
from cogs.table.components import TableButton, TableSelect


class Boom(Exception):
    pass


@pytest.fixture
def routed(monkeypatch: pytest.MonkeyPatch) -> list[tuple[Any, ...]]:
    calls: list[tuple[Any, ...]] = []

    async def route(interaction: Any, table: int, step: int, action: str, value: Any) -> None:
        calls.append((table, step, action, value))
        if action == "boom":
            raise Boom

    monkeypatch.setattr(components, "route", route)
    return calls


def dispatched(item: discord.ui.Item[Any]) -> weakref.ref[discord.ui.View]:
    """As discord.py dispatches a click: a view rebuilt from the message, holding the item."""
    view = discord.ui.View(timeout=None)
    view.add_item(item)
    return weakref.ref(view)


@pytest.mark.parametrize("action", ["roll", "boom"])
async def test_a_click_lets_go_of_the_view_it_was_dispatched_with(
    routed: list[tuple[Any, ...]], action: str
) -> None:
    button = TableButton(7, 3, action, label="Lancer")
    view = dispatched(button)
    gc.disable()  # freed at once, by reference counting: nothing left for the collector
    try:
        with pytest.raises(Boom) if action == "boom" else contextlib.nullcontext():
            await button.callback(object())  # type: ignore[arg-type]
        assert view() is None
    finally:
        gc.enable()
    assert routed == [(7, 3, action, None)]


async def test_a_choice_lets_go_of_the_view_it_was_dispatched_with(
    routed: list[tuple[Any, ...]],
) -> None:
    menu = TableSelect(7, 3, [discord.SelectOption(label="21", value="21")], "Annonce")
    menu.item._values = ["21"]  # what discord.py sets from the interaction's data
    view = dispatched(menu)
    gc.disable()
    try:
        await menu.callback(object())  # type: ignore[arg-type]
        assert view() is None
    finally:
        gc.enable()
    assert routed == [(7, 3, "announce", "21")]
