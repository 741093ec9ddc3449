"""The interaction endpoints: what the bot says in a table's channel outside Discord's
global limit.

One bot token makes at most 50 requests a second in all, whatever its processes and shards;
the interaction endpoints are outside that limit: the callback that answers an interaction,
and the webhook addressed by the interaction's token (followups, and editing or deleting the
original response or a followup), for the 15 minutes the token lives. So a table speaks
through the latest interaction of its players (``Hook``): a new copy of the table is a
followup of it, and a copy is edited or deleted through the webhook of the interaction that
posted it, or of a click answered on it (``Route``). The bot token is used only when no
token is alive (a table idle for a quarter of an hour, a restart).

A token is kept, not the interaction: that holds the whole message clicked."""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any, cast

import discord

from bot.interactions import answers

# Discord lets an interaction's token be used for 15 minutes: a minute's margin, so that a
# request never races its end.
HOOK_SECONDS = 14 * 60.0
# Discord's name, in a webhook message's path, for an interaction's original response.
ORIGINAL = "@original"
UNKNOWN_MESSAGE = 10008


@dataclass(frozen=True, slots=True)
class Hook:
    """An interaction's webhook, while its token may be used."""

    application: int
    token: str
    until: float  # time.monotonic() past which it is not used

    @classmethod
    def of(cls, interaction: discord.Interaction) -> Hook:
        # Its age from its id's time: a token lives 15 minutes from the interaction's creation.
        age = max(0.0, time.time() - interaction.created_at.timestamp())
        until = time.monotonic() - age + HOOK_SECONDS
        return cls(interaction.application_id, interaction.token, until)

    @property
    def alive(self) -> bool:
        return time.monotonic() < self.until

    def webhook(self, client: discord.Client) -> discord.Webhook:
        return discord.Webhook.partial(self.application, self.token, client=client)


@dataclass(frozen=True, slots=True)
class Route:
    """How one message is edited or deleted through an interaction's webhook: a followup by
    its id, or the interaction's original response (``message`` None)."""

    hook: Hook
    message: int | None = None

    @property
    def target(self) -> int:
        # discord.py takes the id as it names it in the path: "@original" is Discord's name.
        return self.message if self.message is not None else cast(int, ORIGINAL)


def route_of(hook: Hook, message: Any) -> Route | None:
    """The route to ``message``, sent in answer to the interaction of ``hook``: its original
    response, or a followup; None for a message the bot token sent."""
    if isinstance(message, discord.InteractionMessage):
        return Route(hook)
    if isinstance(message, discord.WebhookMessage):
        return Route(hook, message.id)
    return None


def refused_token(error: discord.HTTPException) -> bool:
    """Whether a webhook call failed for its token (expired, unknown), not its message."""
    return not (isinstance(error, discord.NotFound) and error.code == UNKNOWN_MESSAGE)


async def send(
    hook: Hook,
    client: discord.Client,
    content: str,
    embed: discord.Embed,
    view: discord.ui.View | None,
    mentions: discord.AllowedMentions,
) -> Route:
    """A public followup of ``hook``'s interaction in its channel: the route to it."""
    webhook = hook.webhook(client)
    try:
        if view is None:
            sent = await webhook.send(content, embed=embed, allowed_mentions=mentions, wait=True)
        else:
            sent = await webhook.send(
                content, embed=embed, view=view, allowed_mentions=mentions, wait=True
            )
    finally:
        answers.release(view)
    return Route(hook, sent.id)


async def edit(route: Route, client: discord.Client, **fields: Any) -> None:
    """Edit the message of ``route`` (pinging nobody)."""
    view = fields.get("view")
    try:
        await route.hook.webhook(client).edit_message(
            route.target, allowed_mentions=discord.AllowedMentions.none(), **fields
        )
    finally:
        answers.release(view)


async def delete(route: Route, client: discord.Client) -> None:
    await route.hook.webhook(client).delete_message(route.target)
