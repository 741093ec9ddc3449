"""The public side of a table: one message that carries the table, its controls and the
story of the last moves, kept at the bottom of the channel.

What a move tells folds into the table message (edited in place): the last lines of the
story, above the table. A move worth a message of its own (a reveal, a round's end, an
elimination, the end of a game: *headline* lines) heads the table message it is told in,
and stays in the channel when the table moves on: the start of a human's turn re-posts the
table at the bottom, with the one ping of that turn, and the old copy keeps only its
headline (the channel's record of the game), or is deleted if it has none. Messages posted
below the table by others (two or more) also bring it down again, so that the current
player's controls are always the newest message or the one just above. After a restart,
the copies of a table that a crash left with live controls are found again (``recover``).

Each of these messages goes through the interaction endpoints when it can (``hooks``): a new
copy is a followup of the latest interaction at the table, a copy is edited or deleted
through the webhook of the interaction that posted it or was answered on it; the bot token
only when no interaction's token is alive.
"""

from __future__ import annotations

import hashlib
import logging
from collections.abc import Awaitable, Callable, Collection, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import discord

from bot.i18n import mention_commands, t
from bot.interactions import answers
from bot.interactions.stale import custom_ids
from bot.storage import StorageError
from bot.table import Table, TableRunner
from cogs.table import hooks
from cogs.table.hooks import Hook, Route

if TYPE_CHECKING:
    from bot.client import Gobelet

log = logging.getLogger(__name__)

STORY_LINES = 5  # the folded story shows this many of the latest lines
CONTENT_LIMIT = 2000
BELOW = 2  # this many messages below the table bring it down again
NOBODY = discord.AllowedMentions.none()
# How many of a channel's newest messages a restore reads for copies of its table that a
# crash left behind, in one request: the table never stays more than a couple of messages
# above the bottom while the bot runs, so only chatter while it was down hides one deeper.
HISTORY = 50


def display_name(interaction: discord.Interaction) -> str:
    """The name the bot may show for the user of ``interaction`` (no members intent needed)."""
    return interaction.user.display_name


NONE_BELOW: frozenset[int] = frozenset()


def _utf8(lines: Sequence[str]) -> tuple[bytes, ...]:
    return tuple(line.encode(errors="surrogatepass") for line in lines)  # as they were


@dataclass(slots=True)
class Post:
    """What the table's current message shows besides the table (kept in memory: after a
    restart the table starts a fresh story).

    One is kept for every table, so it is kept small: its story in UTF-8 (most lines have an
    emoji, which makes a ``str`` take four bytes a character), the messages seen below the
    table in a ``frozenset``, one empty one shared by all."""

    message_id: int | None = None  # the table message's (stored: ``save``)
    headline: list[str] = field(default_factory=list)  # this copy's own, kept when moved
    pending: list[str] = field(default_factory=list)  # headline lines not yet posted
    turn_of: int | None = None  # whose turn it was when the table was last drawn
    below: frozenset[int] = NONE_BELOW  # messages seen after the table's
    told: tuple[bytes, ...] = ()  # the latest folded lines (``story``), in UTF-8
    hook: Hook | None = None  # the latest interaction at the table, answered
    shown: bytes = b""  # a digest of what the table message shows (``drawing``)
    route: Route | None = None  # the table message's, through an interaction's webhook
    # A game's own messages at the table, stored with it (Maya's accusations: "faults").
    kept: dict[str, Any] = field(default_factory=dict)

    @property
    def story(self) -> list[str]:
        return [line.decode(errors="surrogatepass") for line in self.told]

    @story.setter
    def story(self, lines: Sequence[str]) -> None:
        self.told = _utf8(lines)

    def fold(self, lines: Sequence[str]) -> None:
        """The story's newest lines; a move's own lines are never cut (a reveal between
        CPUs shows every hand)."""
        self.told = (*self.told, *_utf8(lines))[-max(STORY_LINES, len(lines)) :]

    def under(self, message_id: int) -> int:
        """How many messages are below the table message ``message_id``."""
        if self.below:
            self.seen({seen for seen in self.below if seen > message_id})
        return len(self.below)

    def seen(self, below: Collection[int]) -> None:
        self.below = frozenset(below) if below else NONE_BELOW


def drawing(content: str, embed: discord.Embed | None, view: discord.ui.View | None) -> bytes:
    """A digest of what a message shows: its text, its embed, its components."""
    components = view.to_components() if view is not None else []
    shown = repr((content, embed.to_dict() if embed is not None else None, components))
    return hashlib.blake2b(shown.encode(errors="surrogatepass"), digest_size=16).digest()


def clip(lines: Sequence[str], keep: int = 0) -> str:
    """Lines as one message content when the whole does not fit: the oldest lines after the
    first ``keep`` go first (the story), then the oldest of those (the headline), so that
    the newest lines, a game's end or whose turn it is, always show."""
    lines = list(lines)
    while len("\n".join(lines)) > CONTENT_LIMIT and len(lines) > keep + 1:
        del lines[keep]
    while len("\n".join(lines)) > CONTENT_LIMIT and len(lines) > 1:
        del lines[0]
    return "\n".join(lines)[:CONTENT_LIMIT]


async def guarded(table: Table, what: str, step: Awaitable[None]) -> None:
    """Run one step of telling a stored move; a failure is logged, the next steps run."""
    try:
        await step
    except Exception:
        log.warning("table %s: could not %s", table.id, what, exc_info=True)


class Channel:
    """A game's tables' messages in their channels, never failing a table."""

    def __init__(self, bot: Gobelet, tables: TableRunner) -> None:
        self.bot = bot
        self.tables = tables
        self.posts: dict[int, Post] = {}  # table id -> what its message shows

    def of(self, table: Table) -> discord.PartialMessageable:
        return self.bot.get_partial_messageable(table.channel_id, guild_id=table.guild_id)

    def post(self, table: Table) -> Post:
        """The table message and its story."""
        found = self.posts.get(table.id)
        if found is None:
            found = self.posts[table.id] = Post()
        return found

    def restore(self, table: Table, stored: dict[str, Any]) -> None:
        """A table back after a restart, with its messages as they were stored: its turn
        was told, its headline kept."""
        messages = dict(stored)
        post = self.posts[table.id] = Post(
            message_id=messages.pop("table", None),
            headline=list(messages.pop("headline", None) or []),
            kept=messages,
        )
        if post.message_id is not None:
            post.turn_of = self._turn_of(table)

    async def save(self, table: Table) -> None:
        """Store the table's messages (on their own: the game is not written again)."""
        if not table.running:
            return
        post = self.post(table)
        messages = {"table": post.message_id, "headline": post.headline, **post.kept}
        try:
            await self.tables.repository.save_messages(table.id, messages)
        except StorageError:
            log.warning("table %s: could not store the table message", table.id)

    def forget(self, table: Table) -> None:
        self.posts.pop(table.id, None)

    def _turn_of(self, table: Table) -> int | None:
        if not table.running or not table.started:
            return None
        return table.current

    def seen_below(self, table: Table, message_id: int) -> None:
        """A message appeared in the table's channel (someone's, or another of the bot's)."""
        post = self.post(table)
        if post.message_id is not None and message_id > post.message_id:
            post.seen(post.below | {message_id})

    def gone_below(self, table: Table, message_id: int) -> None:
        post = self.post(table)
        if message_id in post.below:
            post.seen(post.below - {message_id})

    def met(self, table: Table, interaction: discord.Interaction) -> None:
        """An interaction at the table, answered: its webhook carries the table's next
        messages, and edits the table message if the click was answered on it."""
        if not answers.answered(interaction) or interaction.channel_id != table.channel_id:
            return  # a webhook posts in its interaction's channel: only the table's serve it
        post = self.post(table)
        post.hook = Hook.of(interaction)
        if post.message_id is not None and answers.updated_on(interaction) == post.message_id:
            post.route = Route(post.hook)

    @staticmethod
    def _live_hook(post: Post) -> Hook | None:
        if post.hook is not None and not post.hook.alive:
            post.hook = None
        return post.hook

    async def tell(self, table: Table, lines: Sequence[str], *, headline: bool = False) -> None:
        """Tell lines with the table's next drawing: folded into its story, or (``headline``)
        heading the table message, to stay in the channel as a message of their own."""
        if not lines:
            return
        post = self.post(table)
        if headline:
            post.pending = [*post.pending, *lines]
        else:
            post.fold(lines)

    def _content(self, table: Table, headline: Sequence[str], story: Sequence[str]) -> str:
        lines = [*headline, *story]
        current = self._turn_of(table)
        if current is not None and not table.is_cpu(current):
            lines.append(t(table.lang, "table.your_turn", player=table.name(current)))
        return self._public(lines, keep=len(headline))

    def _public(self, lines: Sequence[str], *, keep: int = 0) -> str:
        """Lines as a public message's content: commands as mentions, clipped to fit."""
        ids = self.bot.shared.command_ids
        return clip([mention_commands(line, ids) for line in lines], keep=keep)

    def _mentioned(self, embed: discord.Embed) -> discord.Embed:
        """The table's embed with its commands as mentions: each reader's client names
        them in its own language (the table speaks the server's)."""
        ids = self.bot.shared.command_ids
        if not ids:
            return embed
        if embed.description:
            embed.description = mention_commands(embed.description, ids)
        for index, shown in enumerate(embed.fields):
            value = mention_commands(shown.value or "", ids)
            embed.set_field_at(index, name=shown.name, value=value[:1024], inline=shown.inline)
        return embed

    def _turn_starts(self, table: Table, post: Post) -> int | None:
        """The human whose turn starts with this drawing (to be pinged), if any."""
        current = self._turn_of(table)
        if current is None or table.is_cpu(current):
            return None
        return current if current != post.turn_of else None

    def repost_due(self, table: Table) -> bool:
        """Whether the table's next drawing is a new message at the bottom (never for a
        lobby closed before its game: its message only says so)."""
        if not table.running and not table.started:
            return False
        post = self.post(table)
        return (
            post.message_id is None
            or self._turn_starts(table, post) is not None
            or bool(post.pending and post.headline)  # one headline a message: it stays
            or post.under(post.message_id) >= BELOW
        )

    async def draw_table(
        self,
        table: Table,
        embed: discord.Embed,
        view: discord.ui.View | None,
        *,
        interaction: discord.Interaction | None = None,
        actor: int | None = None,
    ) -> None:
        """Show the table with its story: edited in place, or posted anew at the bottom (a
        headline, a human's turn starting, messages below it, its message deleted).
        ``interaction``: a command whose public answer is the table's new copy; ``actor``:
        the person whose move this drawing shows, never pinged (they just acted)."""
        post = self.post(table)
        embed = self._mentioned(embed)
        closed = not table.running and not table.started  # a lobby closed before its game
        moved = not closed and (interaction is not None or self.repost_due(table))
        ping = self._turn_starts(table, post)
        if ping is not None and ping == actor:
            ping = None
        post.turn_of = self._turn_of(table)
        if not moved and post.message_id is not None:
            # A headline stays with this copy, and the story starts anew under it.
            headline = [*post.headline, *post.pending]
            story = [] if post.pending else post.story
            content = self._content(table, headline, story)
            shown = drawing(content, embed, view)
            if shown == post.shown and not post.pending and table.running:
                return  # nothing changed (a vote counted, say): no edit
            try:
                post.route = await self.edit(
                    table, post.message_id, post.route, content=content, embed=embed, view=view
                )
                post.shown = shown
                pending, post.headline, post.pending, post.story = post.pending, headline, [], story
                if pending:
                    await self.save(table)
                if not table.running:
                    self.forget(table)
                return
            except discord.HTTPException as error:
                if error.code != hooks.UNKNOWN_MESSAGE:  # else its message was deleted: posted anew
                    log.warning("table %s: could not edit the table message", table.id)
                    return
                return
        if not table.running and not table.started:
            return  # a lobby closed before its game (its message gone): nothing to show anew
        await self._repost(table, post, embed, view, ping=ping, interaction=interaction)
        if not table.running:
            self.forget(table)

    async def edit(
        self, table: Table, message_id: int, route: Route | None, **fields: Any
    ) -> Route | None:
        """Edit a message in the table's channel (pinging nobody): through ``route`` while
        its token lives, else with the bot token. Returns the route still usable.

        With the bot token, through discord.py's HTTP client: the message object it would
        build from Discord's answer (its embeds, its components) would never be read, and
        building one costs more than the request."""
        if await self._through(table, route, lambda live: hooks.edit(live, self.bot, **fields)):
            return route
        with discord.http.handle_message_parameters(
            allowed_mentions=NOBODY,
            previous_allowed_mentions=self.bot.allowed_mentions,
            **fields,
        ) as params:
            await self.bot.http.edit_message(table.channel_id, message_id, params=params)
        return None

    async def _send(
        self,
        table: Table,
        interaction: discord.Interaction | None,
        content: str,
        embed: discord.Embed,
        view: discord.ui.View | None,
        mentions: discord.AllowedMentions,
    ) -> tuple[int, Route | None]:
        """The new copy: the command's public answer, or (no command, or its answer refused)
        a followup of the table's latest interaction, or (none alive) a message sent with the
        bot token as ``_edit`` edits. Returns its id, and the route to it."""
        post = self.post(table)
        if interaction is not None:
            try:
                answer = await answers.reply(
                    interaction,
                    content,
                    ephemeral=False,
                    embed=embed,
                    view=view,
                    mentions=mentions,
                )
                if not answers.answered(interaction):
                    return int(answer.id), None
                post.hook = Hook.of(interaction)
                return int(answer.id), hooks.route_of(post.hook, answer)
            except discord.HTTPException:
                log.warning("table %s: the command's answer was refused", table.id, exc_info=True)
        hook = self._live_hook(post)
        if hook is not None:
            try:
                route = await hooks.send(hook, self.bot, content, embed, view, mentions)
                return int(route.target), route
            except discord.HTTPException as error:
                post.hook = None
                log.info("table %s: a followup was refused (%s)", table.id, error.status)
        with discord.http.handle_message_parameters(
            content,
            embed=embed,
            view=view if view is not None else discord.utils.MISSING,
            allowed_mentions=mentions,
            previous_allowed_mentions=self.bot.allowed_mentions,
        ) as params:
            sent = await self.bot.http.send_message(table.channel_id, params=params)
        return int(sent["id"]), None

    async def _repost(
        self,
        table: Table,
        post: Post,
        embed: discord.Embed,
        view: discord.ui.View | None,
        *,
        ping: int | None,
        interaction: discord.Interaction | None = None,
    ) -> None:
        """Post the table's new copy at the bottom, then move the old one out of the way."""
        headline, old, old_headline = post.pending, post.message_id, post.headline
        old_route = post.route
        story = [] if headline else post.story  # a headline's copy starts its story under it
        content = self._content(table, headline, story)
        mentions = discord.AllowedMentions(users=[discord.Object(ping)]) if ping else NOBODY
        try:
            message_id, route = await self._send(table, interaction, content, embed, view, mentions)
        except discord.HTTPException:
            log.warning("table %s: could not post the table message", table.id, exc_info=True)
            return
        post.route, post.shown = route, drawing(content, embed, view)
        post.pending, post.headline, post.story = [], list(headline), story
        post.under(message_id)
        post.message_id = message_id
        await self.save(table)  # first: after a restart, the table goes on from this copy
        if old is not None and old != message_id:
            await guarded(
                table,
                "move the old table message",
                self._retire(table, old, old_headline, old_route),
            )

    async def _retire(
        self, table: Table, message_id: int, headline: Sequence[str], route: Route | None = None
    ) -> None:
        """An old copy of the table: its headline stays in the channel, the rest goes
        (through ``route`` while its token lives)."""
        try:
            if headline:
                content = self._public(headline)
                await self.edit(table, message_id, route, content=content, embed=None, view=None)
            else:
                await self._delete(table, message_id, route)
        except discord.NotFound:
            pass

    async def _delete(self, table: Table, message_id: int, route: Route | None) -> None:
        if not await self._through(table, route, lambda live: hooks.delete(live, self.bot)):
            await self.bot.http.delete_message(table.channel_id, message_id)

    async def _through(
        self, table: Table, route: Route | None, call: Callable[[Route], Awaitable[None]]
    ) -> bool:
        """Make ``call`` through ``route`` while its token lives: False when it could not
        (no route, its token expired or refused), for the bot token to do it instead. A
        refusal of the message itself (gone) is raised."""
        if route is None or not route.hook.alive:
            return False
        try:
            await call(route)
            return True
        except discord.HTTPException as error:
            if not hooks.refused_token(error):
                raise
            log.info("table %s: a webhook refused its token (%s)", table.id, error.status)
            return False

    async def post_below(self, table: Table, content: str, **send: Any) -> discord.Message:
        """A message of the table's own besides the table (an accusation…), pinging nobody;
        it counts as a message below the table."""
        message = await self.of(table).send(content, allowed_mentions=NOBODY, **send)
        self.seen_below(table, message.id)
        return message

    # ------------------------------------------------------------------ after a restart

    async def recover(self, table: Table) -> None:
        """After a restart, before the table is drawn: the copies of it that a crash left in
        its channel with live controls, found in one read of the channel's newest messages.

        The table moves down by posting its new copy, then storing its id, then moving the
        old copy out of the way; a crash between the first two leaves a copy the bot never
        learnt of, at the bottom, where the channel last saw the table (with its turn's
        ping). That copy becomes the table message, and the stored one is moved out of the
        way as it would have been: the channel then reads as if nothing had happened. Any
        other copy with controls (one a crash kept from being moved) is set aside."""
        try:
            recent = [message async for message in self.of(table).history(limit=HISTORY)]
        except discord.HTTPException as error:
            log.warning("table %s: could not look for copies left behind (%s)", table.id, error)
            return
        stored = self.post(table).message_id
        copies = sorted(
            (m for m in recent if m.id != stored and self._copy_of(table, m)),
            key=lambda message: message.id,
        )
        if not copies:
            return
        if stored is None or copies[-1].id > stored:
            above = next((m for m in recent if m.id == stored), None)
            await self._adopt(table, copies.pop(), above)
        for copy in copies:
            await guarded(table, "set a copy aside", self._set_aside(table, copy))

    def _copy_of(self, table: Table, message: discord.Message) -> bool:
        """Whether ``message`` is one of the bot's copies of ``table`` with live controls
        (every game's table draws its controls as ``TableButton`` and ``TableSelect``)."""
        me = self.bot.user
        mine = (f"gob:{table.id}:", f"gobsel:{table.id}:")
        return (
            me is not None
            and message.author.id == me.id
            and any(found.startswith(mine) for found in custom_ids(message.components))
        )

    async def _adopt(
        self, table: Table, copy: discord.Message, above: discord.Message | None
    ) -> None:
        """``copy`` is the table message from now on; ``above``: the stored one, if read."""
        old = self.post(table)
        stored, headline = old.message_id, list(old.headline)
        # The stored copy goes first: a crash before the id below is stored finds the same
        # copy at the next start, and does this again.
        if stored is not None:
            await guarded(
                table, "move the old table message", self._retire(table, stored, headline)
            )
        # Its post is drawn from the copy.
        self.posts[table.id] = Post(
            message_id=copy.id,
            headline=self._headline_of(table, copy, above, headline),
            turn_of=self._turn_of(table),
            kept=old.kept,
        )
        await self.save(table)
        log.info("table %s: goes on with its copy posted before the restart", table.id)

    def _shown(self, table: Table, message: discord.Message | None) -> list[str]:
        """A copy's lines but whose turn it was (the table's drawing adds that line)."""
        lines = message.content.split("\n") if message is not None and message.content else []
        turns = {t(table.lang, "table.your_turn", player=table.name(p)) for p in table.humans()}
        return lines[:-1] if lines and lines[-1] in turns else lines

    def _headline_of(
        self,
        table: Table,
        copy: discord.Message,
        above: discord.Message | None,
        above_headline: Sequence[str],
    ) -> list[str]:
        """The headline of a copy whose own was never stored. A copy is posted either with a
        headline (a reveal, a round's end: those lines alone) or with the story brought
        down, which starts with lines the copy above told under its headline. The story
        starts anew after a restart, as every table's does; a headline stays. A lobby has
        none. When in doubt the lines stay: a line kept is better than a reveal lost."""
        lines = self._shown(table, copy)
        if not table.started or not lines:
            return []
        story_above = set(self._shown(table, above)) - set(above_headline)
        return [] if lines[0] in story_above else lines

    async def _set_aside(self, table: Table, copy: discord.Message) -> None:
        """A copy the bot no longer edits: its table and controls go, its lines stay (what
        was its headline cannot be told); a lobby's copy, whose lines never stay, goes."""
        lines = self._shown(table, copy) if table.started else []
        try:
            if lines:
                content = "\n".join(lines)
                await copy.edit(content=content, embed=None, view=None, allowed_mentions=NOBODY)
            else:
                await copy.delete()
        except discord.NotFound:
            pass
