"""What the bot needs in a channel to open a table there (``bot.interactions.permissions``)."""

from __future__ import annotations

from types import SimpleNamespace

import discord
import pytest

from bot.interactions import permissions
from bot.table import TableError

EVERYTHING = discord.Permissions(
    view_channel=True, send_messages=True, embed_links=True, read_message_history=True
)


def opened_in(kind: discord.ChannelType, granted: discord.Permissions) -> object:
    return SimpleNamespace(app_permissions=granted, channel=SimpleNamespace(type=kind))


def test_a_text_channel_needs_send_messages() -> None:
    permissions.check_playable(opened_in(discord.ChannelType.text, EVERYTHING))  # type: ignore[arg-type]
    mute = discord.Permissions(EVERYTHING.value)
    mute.send_messages = False
    with pytest.raises(TableError) as refused:
        permissions.check_playable(opened_in(discord.ChannelType.text, mute))  # type: ignore[arg-type]
    assert refused.value.params["permissions"] == ("send_messages",)


@pytest.mark.parametrize(
    "kind", [discord.ChannelType.public_thread, discord.ChannelType.private_thread]
)
def test_a_thread_needs_send_messages_in_threads_not_send_messages(
    kind: discord.ChannelType,
) -> None:
    # In a thread Discord asks for Send Messages in Threads; Send Messages does not apply
    # (in a forum's post it means Create Posts).
    in_threads = discord.Permissions(EVERYTHING.value)
    in_threads.send_messages = False
    in_threads.send_messages_in_threads = True
    permissions.check_playable(opened_in(kind, in_threads))  # type: ignore[arg-type]
    with pytest.raises(TableError) as refused:
        permissions.check_playable(opened_in(kind, EVERYTHING))  # type: ignore[arg-type]
    assert refused.value.params["permissions"] == ("send_messages_in_threads",)
