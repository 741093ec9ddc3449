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


def clicked(custom_id: str = "gob:7:3:roll") -> discord.Interaction:
    """A click as discord.py reads it from the gateway: the interaction, the message clicked."""
    client = discord.Client(intents=discord.Intents.none())
    state = client._connection
    me = {"id": "2", "username": "gobelet", "discriminator": "0", "avatar": None, "bot": True}
    state.user = discord.ClientUser(state=state, data=me)  # type: ignore[arg-type]
    player = {"id": "9", "username": "ana", "discriminator": "0", "avatar": None}
    message = {
        "id": "11",
        "channel_id": "5",
        "type": 0,
        "content": "",
        "author": me,
        "attachments": [],
        "embeds": [],
        "mentions": [],
        "mention_roles": [],
        "pinned": False,
        "mention_everyone": False,
        "tts": False,
        "timestamp": "2026-12-01T20:00:00+00:00",
        "edited_timestamp": None,
        "flags": 0,
        "components": [],
    }
    payload = {
        "id": "1",
        "application_id": "2",
        "type": 3,
        "token": "token",
        "version": 1,
        "channel_id": "5",
        "locale": "fr",
        "user": player,
        "data": {"custom_id": custom_id, "component_type": 2},
        "message": message,
        "app_permissions": "0",
        "entitlements": [],
        "authorizing_integration_owners": {},
        "context": 0,
        "attachment_size_limit": 8 * 1024 * 1024,
    }
    return discord.Interaction(data=payload, state=state)  # type: ignore[arg-type]


def answered(interaction: discord.Interaction) -> discord.Interaction:
    """As once the handler has given the click its first response."""
    interaction.response._response_type = discord.InteractionResponseType.deferred_message_update
    return interaction


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
            await button.callback(answered(clicked()))
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
        await menu.callback(answered(clicked("gobsel:7:3")))
        assert view() is None
    finally:
        gc.enable()
    assert routed == [(7, 3, "announce", "21")]


@pytest.mark.parametrize("action", ["roll", "boom"])
async def test_a_click_once_answered_lets_go_of_its_interaction(
    routed: list[tuple[Any, ...]], action: str
) -> None:
    # The interaction and its response refer to each other, and the interaction holds the
    # message clicked: untied, they are freed at once rather than left to the cycle
    # collector, whose full runs may freeze them until the next thaw (``bot.collector``).
    button = TableButton(7, 3, action, label="Lancer")
    dispatched(button)
    interaction = answered(clicked())
    gc.collect()
    gc.disable()
    gc.set_debug(gc.DEBUG_SAVEALL)  # what the collector would free is kept, to be seen
    try:
        with pytest.raises(Boom) if action == "boom" else contextlib.nullcontext():
            await button.callback(interaction)
        del interaction
        gc.collect()
        left = [type(o).__name__ for o in gc.garbage if isinstance(o, discord.Interaction)]
        assert left == []  # freed at once, by reference counting
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
        gc.enable()


async def test_a_click_not_answered_yet_keeps_its_response_whole() -> None:
    # The watchdog may still give its first response (a deferral): the response keeps its
    # interaction until then.
    interaction = clicked()
    components.untie(None, interaction)
    assert not interaction.response.is_done()
    assert interaction.response._parent is interaction


GAMES_CONTROLS = {
    "maya": "cogs.maya.components",
    "menteur": "cogs.menteur.render",
    "yades": "cogs.yades.render",
}


@pytest.mark.parametrize("game", sorted(GAMES_CONTROLS))
def test_every_control_drawn_is_found_again_from_its_custom_id(game: str) -> None:
    import importlib

    controls = importlib.import_module(GAMES_CONTROLS[game]).CONTROLS
    arguments = {"tap": "1", "hold": "3_2", "reroll": "5"}
    for control in controls.all:
        if control.id == "announce":
            continue  # a menu: its custom_id is gobsel's, its action always "announce"
        button = control.button(7, 4, "fr", argument=arguments.get(control.id, ""), label="x")
        action = button.item.custom_id.split(":", 3)[3]
        assert controls.find(action) == (control, arguments.get(control.id, ""))


@pytest.mark.parametrize(
    ("module", "action"),
    [
        ("cogs.maya.components", "tap7"),
        ("cogs.maya.components", "tapx"),
        ("cogs.maya.components", "rollx"),
        ("cogs.yades.render", "holdx"),
        ("cogs.yades.render", "hold0_10000000000"),  # 1 << die: gigabytes for one click
        ("cogs.yades.render", "hold0_5"),
        ("cogs.yades.render", "hold3"),
        ("cogs.yades.render", "reroll"),
        ("cogs.menteur.render", "dudo1"),
    ],
)
def test_a_forged_action_names_no_control(module: str, action: str) -> None:
    import importlib

    assert importlib.import_module(module).CONTROLS.find(action) is None


def test_an_id_that_begins_another_does_not_take_its_clicks() -> None:
    from cogs.maya.components import CONTROLS

    found = CONTROLS.find("roll_blind")
    assert found is not None and found[0].id == "roll_blind"
