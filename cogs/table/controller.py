"""The table controller: one per game, the same sequence for every game's moves.

A move is: lock the table -> ``TableRunner.act`` (apply + forced steps + persist) -> answer the
interaction -> tell the channel -> redraw -> follow the private panels -> schedule the next
turn. Once a move is stored, the table moves on whatever became of the answer. The game is
known only through its ``Side`` (its drawing, its story, its panels); the channel through
``Channel``.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Sequence
from typing import TYPE_CHECKING, Any

import discord

from bot.i18n import t
from bot.interactions import answers, permissions
from bot.interactions.refusals import public_lang, refuse
from bot.storage import StorageError
from bot.table import Table, TableError, TableRunner
from bot.table.record import SYSTEM_RANDOM
from cogs.table import threads
from cogs.table.achievement_texts import earned_lines
from cogs.table.channel import Channel, Post, display_name, guarded
from cogs.table.components import rematch_view
from cogs.table.panels import Panel, Panels, signature
from cogs.table.rematch import AWAITED, OFFER_TURNS, Offers, key, offer

if TYPE_CHECKING:
    from cogs.table.side import Side

log = logging.getLogger(__name__)

# A game's own answer to a stored move, given its events (a private panel, an updated one…).
Answer = Callable[[Sequence[Any]], Awaitable[None]]
# The roles an event names its players by.
ROLES = ("player", "lifter", "challenger", "bidder", "loser", "verifier", "accused")


class TableController:
    """Runs a game's tables: their lobby, their moves, their messages, their restart."""

    def __init__(self, tables: TableRunner, channel: Channel, side: Side) -> None:
        self.tables = tables
        self.channel = channel
        self.side = side
        self.panels = Panels()  # the players' private panels kept live, by table
        self._resuming: dict[int, Table] = {}  # restored tables not resumed yet
        self._ending: dict[int, Table] = {}  # games whose end is being told, by table id
        # Interactions whose thread the bot could not start: why (a text's key), told once
        # the table is shown.
        self._unthreaded: dict[int, str] = {}

    @property
    def game(self) -> str:
        return self.side.game

    # ------------------------------------------------------------------ the story

    def story(self, table: Table, events: Sequence[Any], notes: Sequence[Any] = ()) -> list[str]:
        """The lines telling a stored move (a wording bug must not stop the table)."""
        if not table.started:
            return []  # a lobby has no game yet, hence no move to tell
        try:
            return self.side.lines(table, events, notes)
        except Exception:
            log.exception("table %s: could not word %d events", table.id, len(events))
            return []

    def is_headline(self, table: Table, events: Sequence[Any]) -> bool:
        """Whether a move's story is worth a message of its own: a game's end, or a
        headline event about someone at the table (a reveal between CPUs is told on the
        table, and goes with it)."""
        return any(
            isinstance(event, self.side.endings)
            or (isinstance(event, self.side.headlines) and self.side.about_people(table, event))
            for event in events
        )

    def started_lines(self, table: Table, events: Sequence[Any]) -> list[str]:
        """The lines that tell a game has started, and its first forced steps."""
        order = " → ".join(table.name(seat.player) for seat in table.view().seats)
        return [t(table.lang, "note.started", order=order), *self.story(table, events)]

    async def refresh(
        self,
        table: Table,
        interaction: discord.Interaction | None = None,
        *,
        actor: int | None = None,
    ) -> None:
        """Redraw the public table message (without components once the table is closed);
        ``interaction``: a command answered with the table's new copy; ``actor``: the person
        whose move it shows (not pinged)."""
        embed, view = self.side.table_message(table)
        if not table.running:  # an ended game's last message offers a rematch
            offered = table.started and not self.channel.bot.shared.claimed(table)
            view = rematch_view(self.game, table.id, table.lang) if offered else None
        await self.channel.draw_table(table, embed, view, interaction=interaction, actor=actor)

    # ------------------------------------------------------------------ opening a table

    async def open(
        self,
        interaction: discord.Interaction,
        rules: Any,
        settings: dict[str, Any],
        *,
        cpu: int = 0,
        level: str = "moyen",
        starter: int | None = None,
        starter_name: str | None = None,
        channel_id: int | None = None,
        thread: bool | None = None,
    ) -> Table:
        """A new lobby in the channel (``starter``: opened for someone else, a challenger),
        or in a public thread of it (``thread``, else the server's setting) where the bot
        may start one; refused where the bot could not play it."""
        permissions.check_playable(interaction)
        lang = settings.get("language") or public_lang(interaction)
        where = channel_id or interaction.channel_id or 0
        parent: int | None = None
        wanted = thread if thread is not None else bool(settings.get(threads.SETTING))
        if wanted and channel_id is None and not threads.inside(interaction):
            if permissions.lacking(interaction, threads.NEEDED):
                self._unthreaded[interaction.id] = "perm.threads"
            else:
                name = t(
                    lang,
                    "thread.name",
                    game=t(lang, f"game.{self.game}"),
                    player=display_name(interaction),
                )
                found = await threads.start(
                    self.channel.bot, interaction.guild_id or 0, where, name
                )
                if isinstance(found, int):
                    parent, where = where, found
                else:
                    self._unthreaded[interaction.id] = f"thread.{found}"
        try:
            table = await self.tables.open(
                guild_id=interaction.guild_id or 0,
                channel_id=where,
                starter=starter or interaction.user.id,
                rules=rules,
                kind=self.game,
                lang=lang,
                cpu_count=cpu,
                level=level,
                turn_seconds=settings.get("turn_seconds"),
                starter_name=starter_name if starter is not None else display_name(interaction),
            )
        except Exception:
            self._unthreaded.pop(interaction.id, None)
            if parent is not None:  # no table for the thread started for it
                await threads.archive(self.channel.bot, where)
            raise
        if parent is not None:
            self.channel.post(table).kept[threads.KEPT] = {"parent": parent}
        return table

    async def opened(self, interaction: discord.Interaction, table: Table, text: str) -> None:
        """A table was just opened: say so (the command's answer), then draw its message;
        a table in a thread is drawn there, and the command's answer is the channel's line
        that links to it."""
        thread = self.channel.post(table).kept.get(threads.KEPT)
        if thread is None or threads.inside(interaction):
            await self._opened_here(interaction, table, text)
        else:
            await self._opened_in_thread(interaction, table, text, thread)
        why = self._unthreaded.pop(interaction.id, None)
        if why == "perm.threads":
            await permissions.tell_lacking(interaction, threads.NEEDED, why)
        elif why is not None:
            await permissions.tell(interaction, why)

    async def _opened_here(self, interaction: discord.Interaction, table: Table, text: str) -> None:
        """A new table's message, as the answer of the command (or click) that opened it."""
        async with table.lock:
            await self.channel.tell(table, [text])
            await guarded(table, "draw the table", self.refresh(table, interaction))
            await self.answered(interaction, table, [text])

    async def _opened_in_thread(
        self, interaction: discord.Interaction, table: Table, text: str, thread: dict[str, Any]
    ) -> None:
        """A new table in a thread: the command's answer is the channel's line that links to
        it, and the table is drawn in the thread."""
        async with table.lock:
            await self.channel.tell(table, [text])
            line = t(table.lang, "thread.opened", text=text, thread=f"<#{table.channel_id}>")
            try:
                shown = await answers.reply(
                    interaction, line, ephemeral=False, mentions=discord.AllowedMentions.none()
                )
                thread["line"] = int(shown.id)
            except discord.HTTPException:
                log.warning("table %s: its channel's line was refused", table.id)
            await guarded(table, "draw the table", self.refresh(table))
            await self.answered(interaction, table, [line])

    async def _closed(self, table: Table, post: Post, *, archive: bool = True) -> None:
        """A table in a thread is over (``post``: its message's, as last drawn): the
        channel's line tells how it ended, and the thread is archived (``archive``; not
        while a rematch offer waits for its click there)."""
        thread = post.kept.get(threads.KEPT)
        if thread is None or table.running:
            return
        bot = self.channel.bot
        try:
            await self._tell_parent(table, thread)
        finally:
            if archive:
                await threads.archive(bot, table.channel_id)

    async def _tell_parent(self, table: Table, thread: dict[str, Any]) -> None:
        """The channel's line of a table in a thread says how its game ended."""
        bot = self.channel.bot
        if thread.get("line") is not None:
            lang, here = table.lang, f"<#{table.channel_id}>"
            ending = self.side.standings(table, table.event_log) if table.started else []
            key = "thread.ended" if table.started else "thread.closed"
            lines = [t(lang, key, game=self.side.game_name(table, lang), thread=here)]
            content = "\n".join([*lines, *ending[:4]])[:2000]
            parent = bot.get_partial_messageable(thread["parent"], guild_id=table.guild_id)
            try:
                await parent.get_partial_message(thread["line"]).edit(
                    content=content, allowed_mentions=discord.AllowedMentions.none()
                )
            except discord.HTTPException:
                log.warning("table %s: its channel's line could not be edited", table.id)

    async def start(self, table: Table) -> list[Any]:
        """Seat the lobby and start the game (the game prepares first); returns the events
        of its first forced steps."""
        await self.side.starting(table)
        return await self.tables.start(table)

    async def begun(self, table: Table, events: Sequence[Any], *, actor: int | None) -> None:
        """A game started outside its lobby (a duel accepted by ``actor``: not pinged): tell
        it, draw the table, start the first turn."""
        lines = self.started_lines(table, events)
        await guarded(table, "tell the start", self.channel.tell(table, lines))
        await guarded(table, "draw the table", self.refresh(table, actor=actor))
        self.tables.schedule(table)

    async def start_at_once(
        self, interaction: discord.Interaction, table: Table, text: str
    ) -> None:
        """A table that starts as it opens (against CPU players alone): ``text`` and its
        start told, the interaction answered with the table. Not started (a failed write),
        its lobby is shown, and the error raised for the interaction's refusal."""
        try:
            async with table.lock:
                lines = [text, *self.started_lines(table, await self.start(table))]
                await self.channel.tell(table, lines)
                actor = interaction.user.id
                await guarded(
                    table, "draw the table", self.refresh(table, interaction, actor=actor)
                )
                await self.answered(interaction, table, [text])
                self.tables.schedule(table)
        except Exception:
            await self.show_unstarted(table)
            raise

    async def show_unstarted(self, table: Table) -> None:
        """A table opened but not started (a failed write): its lobby is there to start it."""
        if table.running and not table.started:
            await guarded(table, "draw the lobby", self.refresh(table))

    # ------------------------------------------------------------------ the lobby

    async def lobby(
        self, interaction: discord.Interaction, table: Table, action: str, *, public: bool
    ) -> None:
        """``join``, ``leave`` or ``start`` a table still in its lobby. ``public``: a slash
        command, answered with what happened; otherwise a click on the lobby's buttons."""
        user = interaction.user.id
        async with table.lock:
            if table.started or not table.running:
                raise TableError("not_in_lobby")
            if action == "join":
                await self.tables.join_lobby(table, user, name=display_name(interaction))
                lines = [t(table.lang, "note.lobby_joined", player=table.name(user))]
                if self._everyone_back(table):  # a rematch starts with its last player
                    try:
                        lines += self.started_lines(table, await self.start(table))
                        action = "start"
                    except Exception:  # the join stands: its starter may start it
                        log.warning("table %s: could not start", table.id, exc_info=True)
            elif action == "leave":
                closed = await self.tables.leave_lobby(table, user)
                key = "note.lobby_closed" if closed else "note.lobby_left"
                lines = [t(table.lang, key, player=table.name(user))]
            else:
                if user != table.starter:
                    raise TableError("not_starter", starter=table.starter)
                lines = self.started_lines(table, await self.start(table))
            await self.channel.tell(table, lines)
            # The game starts, or a turn does: the command's answer is the table's new copy.
            shown = public and (action == "start" or self.channel.repost_due(table))
            if not shown:
                await self.after_move(interaction, table, lines, public=public)
            post = self.channel.post(table)  # a lobby closed: forgotten once drawn
            await guarded(
                table,
                "redraw the table",
                self.refresh(table, interaction if shown else None, actor=user),
            )
            if shown:
                await self.answered(interaction, table, lines)
            if not table.running:
                await guarded(table, "close its thread", self._closed(table, post))
            self.tables.schedule(table)

    async def stop(self, interaction: discord.Interaction, table: Table) -> None:
        """``/… stop``: the starter, or a member with Manage Server, ends the table."""
        if not interaction.permissions.manage_guild:
            if self.channel.bot.shared.claimed(table):  # a tournament's: played to its end
                raise TableError("tournament_table")
            if interaction.user.id != table.starter:
                raise TableError("not_starter", starter=table.starter)
        async with table.lock:
            if not table.running:
                raise TableError("stale")
            events = await self.tables.stop(table)
            lines = [t(table.lang, "note.stopped_by", player=table.name(interaction.user.id))]
            if table.started:
                lines += self.story(table, events)
            await self.channel.tell(table, lines, headline=table.started)
            shown = table.started or self.channel.repost_due(table)  # a game's end: new copy
            if not shown:
                await self.after_move(interaction, table, lines, public=True)
            await self.followed(table, events, interaction if shown else None)
            if shown:
                await self.answered(interaction, table, lines)

    # ------------------------------------------------------------------ playing a move

    def check_turn(self, table: Table, step: int | None) -> None:
        """The table is still this game, started, and (for a button) on the same decision."""
        if not table.running or self.tables.get(table.id) is not table:
            raise TableError("stale")
        if not table.started:
            raise TableError("not_started")
        if step is not None and step != table.step:
            raise TableError("stale_turn")

    async def play(
        self,
        interaction: discord.Interaction,
        table: Table,
        action: Any,
        *,
        step: int | None = None,
        public: bool = False,
        answer: Answer | None = None,
        name: str | None = None,
    ) -> None:
        """Lock, apply + persist, then answer, tell, redraw and schedule.

        ``public``: a slash command, answered with the story lines; otherwise a click,
        acknowledged silently; ``answer``: the game's own answer (a private panel…); ``name``:
        the player's display name, kept with the move. Only a move that was not stored is
        refused: once it is, the table moves on whatever became of the answer."""
        try:
            async with table.lock:
                self.check_turn(table, step)
                events = await self.tables.act(table, action, name=name)
                lines = self.story(table, events)
                headline = self.is_headline(table, events)
                await self.channel.tell(table, lines, headline=headline)
                # A command that tells a headline or brings the table down is answered
                # with the table's new copy.
                shown = public and answer is None and (headline or self.channel.repost_due(table))
                if not shown:
                    await self.after_move(
                        interaction, table, lines, public=public, answer=answer, events=events
                    )
                await self.followed(
                    table, events, interaction if shown else None, actor=interaction.user.id
                )
                if shown:
                    await self.answered(interaction, table, lines)
                self.tables.schedule(table)
        except Exception as error:
            await refuse(interaction, error, table)

    async def after_move(
        self,
        interaction: discord.Interaction,
        table: Table,
        lines: list[str],
        *,
        public: bool,
        answer: Answer | None = None,
        events: Sequence[Any] = (),
    ) -> None:
        """Answer the interaction of a stored move that leaves the table where it is; once
        answered, it carries the table's next messages (``met``).

        ``public``: a slash command, answered privately with what it did (the channel reads
        it on the table); a click is acknowledged silently; ``answer``: the game's own."""
        try:
            if answer is not None:
                await answer(events)
            elif public:
                await answers.reply(
                    interaction,
                    "\n".join(lines)[:2000] or t(table.lang, "me.done"),
                    ephemeral=True,
                    mentions=discord.AllowedMentions.none(),
                )
            else:
                await answers.acknowledge(interaction)
        except Exception:
            log.warning("table %s: a stored move's answer was refused", table.id, exc_info=True)
        self.channel.met(table, interaction)

    async def answered(
        self, interaction: discord.Interaction, table: Table, lines: list[str]
    ) -> None:
        """A command meant to be answered with the table's new copy: if that copy could not
        be its answer (Discord refused it, or the table could not be drawn), it is answered
        privately with what it did, never left waiting."""
        if answers.unanswered(interaction):
            await self.after_move(interaction, table, lines, public=True)

    async def publish(
        self, table: Table, events: Sequence[Any], *, notes: Sequence[Any] = ()
    ) -> None:
        """The Herald: tell a move the bot made (a CPU's, an absent player's, a vote's close),
        then redraw. Called with the table locked."""
        lines = self.story(table, events, notes)
        await self.channel.tell(table, lines, headline=self.is_headline(table, events))
        await self.followed(table, events)

    async def followed(
        self,
        table: Table,
        events: Sequence[Any],
        interaction: discord.Interaction | None = None,
        *,
        actor: int | None = None,
    ) -> None:
        """Once a move is told: what the game keeps in step, the standings at its end, the
        redraw (``interaction``: a command answered with the table; ``actor``: who moved,
        not pinged), then the private panels; at a game's end, the rematch offer."""
        ended = table.started and not table.running
        if ended:  # a click on its last message waits for the offer that comes with it
            self._ending[table.id] = table
        try:
            await guarded(table, "follow the move", self.side.kept(table, events))
            if any(isinstance(event, self.side.endings) for event in events):
                await guarded(table, "tell the standings", self._ended(table))
            post = self.channel.post(table)  # an ended game's, forgotten once drawn
            await guarded(table, "redraw the table", self.refresh(table, interaction, actor=actor))
            await guarded(table, "follow the panels", self.follow_panels(table))
            claimed = self.channel.bot.shared.claimed(table)
            offering = ended and post.message_id is not None and not claimed
            if offering:
                turns = OFFER_TURNS * self.tables.turn_seconds(table)
                await guarded(table, "offer a rematch", self._offer(table, post, turns))
            if not table.running:
                # An offer's thread stays open for its click: archived when the offer ends.
                archive = not (offering and self.tables.clock.get(key(table.id)))
                await guarded(table, "close its thread", self._closed(table, post, archive=archive))
        finally:
            self._ending.pop(table.id, None)
        if ended:
            for watcher in self.channel.bot.shared.watchers:
                await guarded(table, "tell its end", watcher.ended(table))

    async def _ended(self, table: Table) -> None:
        """The game just ended: its final standings head the table's last message, with
        the achievements its players earned in it (those they did not hold yet)."""
        earned = table.results.awards.earned if table.results is not None else ()
        lines = [*self.side.standings(table, table.event_log), *earned_lines(table.lang, earned)]
        await self.channel.tell(table, lines, headline=True)

    # ------------------------------------------------------------------ private panels

    async def keep_panel(
        self, interaction: discord.Interaction, table: Table, message: Any, lang: str
    ) -> Panel:
        """``message`` is now ``interaction``'s user's panel at ``table``: followed as the
        game goes on (the one it replaces says its last, without its buttons)."""
        panel = Panel.answering(interaction, message, lang)
        old = self.panels.keep(table.id, interaction.user.id, panel)
        if old is not None and old.live and old.id != panel.id:
            await self._settle(table, interaction.user.id, old)
        return panel

    async def _settle(self, table: Table, player: int, panel: Panel) -> None:
        last = self.side.panel_settled(table, player, panel)
        if last is not None:
            await panel.show(last, None)
        panel.live = False

    async def follow_panels(self, table: Table) -> None:
        """Every open panel at the table shows the game as it is now: on its player's turn
        the turn's moves (one click, no need for the table), then what is left of them.
        A panel is followed while the table runs and its token lets the bot edit it."""
        for player, panel in self.panels.at(table.id):
            if not panel.followed or not table.running:
                self.panels.drop(table.id, player, panel)
                await self._settle(table, player, panel)
                continue
            shown = self.side.panel_now(table, player, panel)
            if shown is None or signature(*shown) == panel.shown:
                continue
            content, view = shown
            if not await panel.show(content, view) or (view is None and not self.side.panels_wait):
                self.panels.drop(table.id, player, panel)
                continue
            panel.live = view is not None

    # ------------------------------------------------------------------ a rematch

    async def rematch(self, interaction: discord.Interaction, ended_id: int) -> None:
        """**Revanche** under the ended game ``ended_id``: one of its players opens the same
        table (its options, its CPU players and their level), seated; the others are asked
        to join, and the game starts once they all have."""
        ending = self._ending.get(ended_id)
        if ending is not None:  # its last message is being drawn, its offer with it
            async with ending.lock:
                pass
        try:
            offered = self.tables.clock.get(key(ended_id))
            record = await self.tables.repository.game(ended_id) if offered else None
            if (
                offered is None
                or record is None
                or record.kind != self.game
                or record.channel_id != interaction.channel_id
                or record.status in ("lobby", "active")
                or answers.clicked(interaction) != offered.payload["message"]
            ):
                raise TableError("rematch_over")  # a forged click is as late as a late one
            ended = Table.from_record(record, SYSTEM_RANDOM)
            user = interaction.user.id
            if user not in ended.humans():
                raise TableError("rematch_not_yours")
            levels = [cpu.level for cpu in ended.cpus.values()]
            settings = {"language": ended.lang, "turn_seconds": ended.turn_seconds}
            level = levels[0] if levels else "moyen"
            rules = self.side.rematch_rules(ended.rules)
            table = await self.open(interaction, rules, settings, cpu=len(levels), level=level)
            thread = (await self.tables.repository.messages([ended_id])).get(ended_id, {})
        except Exception as error:
            await refuse(interaction, error)
            return
        # One rematch an offer: it ends now, its button taken off with the click.
        await guarded(table, "take the offer off", answers.update(interaction, view=None))
        offers = self.channel.bot.shared.service(Offers)
        if offers is not None:
            offers.taken(offered)
        try:
            await self.tables.clock.cancel(offered.key)
        except Exception:
            log.warning("rematch %s: its offer could not end", ended_id, exc_info=True)
        if threads.KEPT in thread:  # in the ended game's thread: its channel's line goes on
            self.channel.post(table).kept[threads.KEPT] = thread[threads.KEPT]
        others = [player for player in ended.humans() if player != user]
        if not others:  # against CPU players only: it starts at once
            alone = t(table.lang, "note.rematch_alone", player=table.name(user))
            try:
                await self.start_at_once(interaction, table, alone)
            except Exception as error:
                await refuse(interaction, error, table)
            return
        self.channel.post(table).kept[AWAITED] = others
        players = ", ".join(table.name(player) for player in others)
        text = t(table.lang, "note.rematch", player=table.name(user), players=players)
        await self._opened_here(interaction, table, text)
        # The one ping of the rematch: those it waits for.
        call = t(table.lang, "note.rematch_call", players=players)
        pinged = discord.AllowedMentions(users=[discord.Object(p) for p in others])
        await guarded(
            table,
            "call the rematch's players",
            answers.reply(interaction, call, ephemeral=False, mentions=pinged),
        )

    async def _offer(self, table: Table, post: Post, seconds: float) -> None:
        """An ended game's last message offers a rematch (``post``: the table's, drawn)."""
        assert post.message_id is not None
        in_thread = threads.KEPT in post.kept
        offered = offer(table, post.message_id, seconds, thread=in_thread)
        await self.tables.clock.set(offered)
        offers = self.channel.bot.shared.service(Offers)
        if offers is not None:
            offers.keep(offered, post.route)

    def _everyone_back(self, table: Table) -> bool:
        """Whether a rematch's lobby now seats every player it waits for."""
        awaited: list[int] = self.channel.post(table).kept.get(AWAITED) or []
        return bool(awaited) and all(player in table.players for player in awaited)

    # ------------------------------------------------------------------ a place gone

    def in_place(self, place: int) -> list[Table]:
        """This game's tables in the channel or thread ``place``, or in a thread of it."""
        found = []
        for table in list(self.tables.by_id.values()):
            if table.kind != self.game:
                continue
            post = self.channel.posts.get(table.id)
            parent = (post.kept.get(threads.KEPT) or {}).get("parent") if post else None
            if place in (table.channel_id, parent):
                found.append(table)
        return found

    async def close(self, table: Table, why: str) -> None:
        """The table's place went away (``why``: its channel deleted, the bot removed from
        its server, Discord refusing the bot there): stored as stopped, uncounted, its
        timers cancelled, and nothing more drawn (there is nowhere to draw it)."""
        async with table.lock:
            if self.tables.get(table.id) is table:  # else ended, or closed, meanwhile
                await self._close(table, why)

    async def _close(self, table: Table, why: str) -> None:
        self._resuming.pop(table.id, None)
        try:
            await self.tables.discard(table)
        except Exception:
            log.warning("table %s: could not store it as closed", table.id, exc_info=True)
        self.channel.forget(table)
        for player, panel in self.panels.at(table.id):
            self.panels.drop(table.id, player, panel)
        log.info("table %s closed: %s", table.id, why)

    def here(self, table: Table) -> bool:
        """Whether the table's server and channel are still the bot's, as its cache knows
        them (after a restart: those gone meanwhile are not in what Discord sent)."""
        guild = self.channel.bot.get_guild(table.guild_id)
        if guild is None:
            return False
        if guild.get_channel_or_thread(table.channel_id) is not None:
            return True
        thread = self.channel.post(table).kept.get(threads.KEPT)
        # A thread Discord archived meanwhile is not in the cache: its channel must be.
        return thread is not None and guild.get_channel(thread["parent"]) is not None

    # ------------------------------------------------------------------ restart

    async def restored(self) -> None:
        """After a restart, before the bot connects: the restored tables of this game with
        their messages, to resume (``resume_all``, in the background once it is connected;
        a table someone uses first resumes at once, ``ready``)."""
        mine = [table for table in self.tables.by_id.values() if table.kind == self.game]
        try:
            stored = await self.tables.repository.messages([table.id for table in mine])
        except StorageError:  # each table then posts itself anew, and finds its old copies
            log.warning("the %s tables' messages could not be read back", self.game)
            stored = {}
        for table in mine:
            self.channel.restore(table, stored.get(table.id, {}))
        self._resuming.update((table.id, table) for table in mine)

    async def resume_all(self) -> None:
        """Resume every restored table not resumed yet, one after the other, once the bot
        knows its servers and channels (a table whose place is gone is closed instead)."""
        if self._resuming:
            await self.channel.bot.wait_until_ready()
        for table in list(self._resuming.values()):
            await guarded(table, "resume", self.resume(table))

    async def ready(self, table: Table | None) -> None:
        """Before an interaction uses ``table``: resumed first, if it was not yet."""
        if table is not None:
            await self.resume(table)

    async def resume(self, table: Table) -> None:
        """A restored table finds the copies of it a crash left behind, says it is back,
        and its timers run again (once, whoever asks first)."""
        if table.id not in self._resuming:
            return
        async with table.lock:
            if self._resuming.pop(table.id, None) is None:
                return  # resumed while this waited for the lock
            if not self.here(table):  # its server or its channel went while the bot was away
                await self._close(table, "its server or channel is gone")
                return
            await guarded(table, "look for copies left behind", self.channel.recover(table))
            lines = [t(table.lang, "note.back")]
            try:  # stored by a version that played a forced step in a write of its own
                lines += self.story(table, await self.tables.settle(table))
            except Exception:
                log.warning("table %s: could not play its forced steps", table.id)
            await self.channel.tell(table, lines)
            await guarded(table, "restore the table", self.side.restoring(table))
            await self.refresh(table)
            await guarded(table, "restore the table", self.side.restored(table))
            self.tables.schedule(table)


def about_people(table: Table, event: Any) -> bool:
    """Whether ``event`` concerns a human at the table (its players, by their roles)."""
    players = [getattr(event, role) for role in ROLES if hasattr(event, role)]
    players = [player for player in players if isinstance(player, int)]
    return not players or any(not table.is_cpu(player) for player in players)
