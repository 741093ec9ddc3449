"""Every interaction answered once, within Discord's three seconds, whatever happens next.

Handlers never touch ``interaction.response`` themselves. They ``reply`` (a message, public
or private), ``acknowledge`` (a click that needs no message of its own) or ``update`` (edit
the message a component is on); ``think`` shows Discord's "thinking…" on purpose before slow
work. Each takes the interaction's answer lock, so that the watchdog (``watch``), which defers
an interaction still unanswered two seconds after it was created (a database that waits, a
sheet being solved), and the handler never both send the first response. Whatever that first
response was, the next call becomes the right followup: a "thinking" placeholder is replaced
with the visibility asked for, so a refusal after a public "thinking" stays private and a
public story after a private one still reaches the channel.
"""

from __future__ import annotations

import asyncio
import logging
import time
from dataclasses import dataclass, field
from typing import Any

import discord

from bot import telemetry

log = logging.getLogger(__name__)

WATCH_SECONDS = 2.0  # Discord's window is 3 s from the interaction's creation
KEY = "gobelet.answer"
PUBLIC = "public"
PRIVATE = "private"

_watchdogs: set[asyncio.Task[None]] = set()


@dataclass
class _Answer:
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    placeholder: str | None = None  # a "thinking" message (public or private) to replace
    public: bool = False  # the handler's answer will be public: the watchdog defers so
    arrived: float | None = None  # when ``watch`` saw it (monotonic), until its first answer
    watchdog: asyncio.Task[None] | None = None  # ``watch``'s, until the first answer
    unarchived: bool = False  # its archived thread was unarchived (``_unarchive``)


def _state(interaction: discord.Interaction) -> _Answer:
    state = interaction.extras.get(KEY)
    if state is None:
        state = interaction.extras[KEY] = _Answer()
    return state


def _answered(interaction: discord.Interaction) -> None:
    """The first response was just accepted: count the time it took, once."""
    state = _state(interaction)
    if state.arrived is not None:
        telemetry.answered(interaction, time.monotonic() - state.arrived)
        state.arrived = None
    if state.watchdog is not None and state.watchdog is not asyncio.current_task():
        # Answered: nothing to watch, and the sleeping watchdog would keep the interaction
        # (its payload, the message clicked) in memory until its two seconds are up.
        state.watchdog.cancel()
    state.watchdog = None


def expect_public(interaction: discord.Interaction) -> None:
    """Say early that the answer will be public: a deferral then "thinks" in public."""
    _state(interaction).public = True


def _given(**values: Any) -> dict[str, Any]:
    # discord.py reads an explicit view=None or file=None as a value: leave out what is unset.
    return {key: value for key, value in values.items() if value is not None}


def _channel(interaction: discord.Interaction) -> discord.PartialMessageable:
    return interaction.client.get_partial_messageable(
        interaction.channel_id or 0, guild_id=interaction.guild_id
    )


async def reply(
    interaction: discord.Interaction,
    content: str | None = None,
    *,
    ephemeral: bool,
    embed: discord.Embed | None = None,
    view: discord.ui.View | None = None,
    file: discord.File | None = None,
    mentions: discord.AllowedMentions | None = None,
) -> Any:
    """Answer with a message, or follow up when the interaction was already answered.

    Returns the message shown (anything with an ``id``)."""
    message = _given(content=content, embed=embed, view=view, file=file, allowed_mentions=mentions)
    try:
        return await _reply(interaction, message, ephemeral=ephemeral)
    finally:
        release(view)


async def _reply(
    interaction: discord.Interaction, message: dict[str, Any], *, ephemeral: bool
) -> Any:
    state = _state(interaction)
    async with state.lock:
        if not interaction.response.is_done():
            sent = await interaction.response.send_message(ephemeral=ephemeral, **message)
            _answered(interaction)
            shown = getattr(sent, "resource", None)
            return shown if shown is not None else await interaction.original_response()
        placeholder, state.placeholder = state.placeholder, None
        wanted = PRIVATE if ephemeral else PUBLIC
        if placeholder == wanted:
            edit = {key: value for key, value in message.items() if key not in ("content", "file")}
            if "file" in message:
                edit["attachments"] = [message["file"]]
            try:
                return await interaction.edit_original_response(
                    content=message.get("content"), **edit
                )
            except BaseException:
                state.placeholder = placeholder  # still "thinking": the answer is still owed
                raise
        if placeholder == PUBLIC:
            # The first followup would fill the public placeholder: remove it, then answer
            # privately, so that a refusal is never shown to the channel.
            await _drop_placeholder(interaction)
            return await interaction.followup.send(ephemeral=True, wait=True, **message)
        if placeholder == PRIVATE:
            # A public answer cannot fill a private placeholder: it goes to the channel.
            try:
                return await _channel(interaction).send(**message)
            finally:
                await _drop_placeholder(interaction)
        return await interaction.followup.send(ephemeral=ephemeral, wait=True, **message)


def release(view: discord.ui.View | None) -> None:
    """discord.py keeps the view of an answer or a webhook message to dispatch its clicks
    (15 minutes for a private one, a timer task each; for ever for a view without timeout).
    Ours are dynamic items, dispatched by their custom_id whatever became of the view that
    showed them: the view can go at once."""
    if view is not None and all(
        isinstance(item, discord.ui.DynamicItem) for item in view.walk_children()
    ):
        view.stop()


async def _drop_placeholder(interaction: discord.Interaction) -> None:
    try:
        await interaction.delete_original_response()
    except discord.HTTPException:
        log.info("could not remove the placeholder of interaction %s", interaction.id)


def unanswered(interaction: discord.Interaction) -> bool:
    """Whether ``interaction`` still waits for its answer (none yet, or only "thinking")."""
    return not interaction.response.is_done() or _state(interaction).placeholder is not None


def answered(interaction: discord.Interaction) -> bool:
    """Whether ``interaction`` was answered, and not by a "thinking" placeholder still owed
    its answer: its followups are then messages of their own."""
    return interaction.response.is_done() and _state(interaction).placeholder is None


_UPDATES = (
    discord.InteractionResponseType.deferred_message_update,
    discord.InteractionResponseType.message_update,
)


def clicked(interaction: discord.Interaction) -> int | None:
    """The id of the message a component was clicked on (None: not a click)."""
    return interaction.message.id if interaction.message is not None else None


def updated_on(interaction: discord.Interaction) -> int | None:
    """The message a click was answered on, by an update or a deferred one (its original
    response is then that message); None for any other answer."""
    if interaction.type != discord.InteractionType.component or interaction.message is None:
        return None
    if interaction.response.type not in _UPDATES:
        return None
    return interaction.message.id


async def acknowledge(interaction: discord.Interaction) -> None:
    """A click that needs no message of its own: a silent deferred update, at most once.
    (A command always gets a message: see ``reply``.)"""
    if interaction.type == discord.InteractionType.application_command:
        raise TypeError("a command is answered with reply(), not acknowledged")
    state = _state(interaction)
    async with state.lock:
        if interaction.response.is_done():
            return
        await _unarchive(interaction, state)  # what the click changes is edited next
        await interaction.response.defer()
        _answered(interaction)


async def _unarchive(interaction: discord.Interaction, state: _Answer) -> None:
    """An archived thread takes no edit: the thread a clicked component is in is unarchived
    before the click is answered (a bot-token call, as rare as a click there)."""
    thread = interaction.channel
    if state.unarchived or not isinstance(thread, discord.Thread):
        return
    if not thread.archived or thread.locked:
        return
    state.unarchived = True
    try:
        await thread.edit(archived=False)
    except discord.HTTPException as error:
        log.info("thread %s could not be unarchived (%s)", thread.id, error.status)


async def update(interaction: discord.Interaction, **changes: Any) -> None:
    """Edit the message a component is on (``content``, ``embed``, ``view``, ``attachments``)."""
    state = _state(interaction)
    async with state.lock:
        await _unarchive(interaction, state)
        if not interaction.response.is_done():
            await interaction.response.edit_message(**changes)
            _answered(interaction)
        else:  # deferred (by the watchdog): the original response is that message
            await interaction.edit_original_response(**changes)


async def think(interaction: discord.Interaction, *, ephemeral: bool) -> None:
    """Show Discord's "thinking…" now, before slow work; ``reply`` then replaces it."""
    state = _state(interaction)
    async with state.lock:
        if interaction.response.is_done():
            return
        await interaction.response.defer(ephemeral=ephemeral, thinking=True)
        state.placeholder = PRIVATE if ephemeral else PUBLIC
        _answered(interaction)


def watch(interaction: discord.Interaction) -> None:
    """Defer ``interaction`` if nothing answered it two seconds after it was created; count
    it, and the time to its first answer."""
    telemetry.received(interaction)
    if interaction.type not in (
        discord.InteractionType.application_command,
        discord.InteractionType.component,
        discord.InteractionType.modal_submit,
    ):
        return  # autocomplete has no deferral: its choices are its only answer
    state = _state(interaction)
    state.arrived = time.monotonic()
    state.watchdog = task = asyncio.create_task(_watchdog(interaction))
    _watchdogs.add(task)
    task.add_done_callback(_watchdogs.discard)


async def _watchdog(interaction: discord.Interaction) -> None:
    now = time.time()
    # Count from the earlier of its creation and its arrival (the clocks may differ).
    start = min(interaction.created_at.timestamp(), now)
    await asyncio.sleep(max(0.0, start + WATCH_SECONDS - now))
    state = _state(interaction)
    async with state.lock:
        if interaction.response.is_done():
            return
        try:
            if interaction.type == discord.InteractionType.application_command:
                await interaction.response.defer(ephemeral=not state.public, thinking=True)
                state.placeholder = PUBLIC if state.public else PRIVATE
            else:
                await interaction.response.defer()
        except discord.HTTPException:
            log.warning("interaction %s could not be deferred in time", interaction.id)
            return
        _answered(interaction)
    log.info("interaction %s deferred: its answer took over %.0f s", interaction.id, WATCH_SECONDS)
