"""The table cog every game's cog is: one slash-command group, the lobby, the moves, the
table message and its story, the restart.

A handler is: check who and where -> lock the table -> ``Tables.act`` (apply + forced steps
+ persist) -> answer the interaction -> tell the channel -> redraw -> schedule the next
turn. Once a move is stored, the table moves on whatever became of the answer. A game's cog
adds its own commands (``start`` with its options, its moves), draws its table from views
(``table_message``) and words its events (``_lines``) and refusals (``explain``).
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Sequence
from typing import TYPE_CHECKING, Any, ClassVar

import discord
from discord import app_commands
from discord.ext import commands

from bot.i18n import t
from bot.interactions import answers, permissions
from bot.interactions.refusals import Names, public_lang, refuse
from bot.kernel.errors import NotNow
from bot.kernel.spec import GameSpec
from bot.table import Table, TableError, Tables
from cogs.table.achievements import earned_lines
from cogs.table.channel import Channel, display_name
from cogs.table.components import LOBBY_ACTIONS
from cogs.table.controls import Control, Controls, Where

if TYPE_CHECKING:
    from bot.client import Gobelet

log = logging.getLogger(__name__)

# A game's own answer to a stored move, given its events (a private panel, an updated one…).
Answer = Callable[[Sequence[Any]], Awaitable[None]]


class TableCog(Channel, commands.GroupCog):
    """The base of every game's cog (``group_name`` is the game's command group)."""

    spec: ClassVar[GameSpec]
    lifts: ClassVar[bool] = False  # a cup is lifted in this game (``/soulever``)
    # The events worth a message of their own (a reveal, a round's end, the game's end).
    headlines: ClassVar[tuple[type, ...]] = ()
    # The events that end a game (its final standings are told with them).
    endings: ClassVar[tuple[type, ...]] = ()
    # The moves a refusal may name as possible: an action's type -> the text naming it.
    moves: ClassVar[tuple[tuple[type, str], ...]] = ()
    # The game's buttons and menus, each declared once (``cogs.table.controls``); the
    # lobby's (join, leave, start) are every table's.
    controls: ClassVar[Controls] = Controls(())

    def __init__(self, bot: Gobelet) -> None:
        self.bot = bot
        self.tables: Tables = bot.tables
        self._resuming: dict[int, Table] = {}  # restored tables not resumed yet
        super().__init__()

    @property
    def game(self) -> str:
        return self.spec.name

    async def cog_load(self) -> None:
        self.bot.table_cogs[self.game] = self
        self.tables.heralds[self.game] = self

    async def cog_unload(self) -> None:
        self.bot.table_cogs.pop(self.game, None)
        self.tables.heralds.pop(self.game, None)

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        if interaction.guild_id is None:
            raise app_commands.NoPrivateMessage()
        await self.ready(self.tables.in_channel(interaction.channel_id or 0))
        return True

    # ------------------------------------------------------------------ what a game says

    def table_message(self, table: Table) -> tuple[discord.Embed, discord.ui.View | None]:
        """The table's public message: its embed and its components."""
        raise NotImplementedError

    def _lines(self, table: Table, events: Sequence[Any], notes: Sequence[Any]) -> list[str]:
        """The public story of ``events`` (and of the runtime's ``notes``: a timeout…)."""
        raise NotImplementedError

    def explain(
        self, error: BaseException, lang: str, table: Table | None, names: Names
    ) -> str | None:
        """This game's wording of its own refusals (None: the shared wording applies)."""
        return None

    def possible(self, table: Table, player: int, lang: str) -> list[str]:
        """What ``player`` may do now at ``table``, as the buttons name it (for a refusal
        that says what is possible)."""
        legal = table.legal(player) if table.started and table.running else []
        return [t(lang, key) for kind, key in self.moves if any(isinstance(a, kind) for a in legal)]

    def game_name(self, table: Table, lang: str) -> str:
        """The game played at ``table``, as its players call it."""
        return t(lang, f"game.{self.game}")

    async def play_control(
        self,
        interaction: discord.Interaction,
        table: Table,
        control: Control,
        argument: str,
        value: str | None,
        step: int,
    ) -> None:
        """A click on a control that makes a move: played, the click acknowledged (a game
        answers some with more: Maya's private panel)."""
        assert control.move is not None
        action = control.move(interaction.user.id, argument, value)
        await self.play(interaction, table, action, step=step if control.stepped else None)

    async def lift(self, interaction: discord.Interaction, table: Table) -> None:
        """``/soulever`` at this game's table (the games that lift a cup say what it does)."""
        raise TableError("table_busy", game=self.game)

    # ------------------------------------------------------------------ helpers

    def table_here(self, interaction: discord.Interaction) -> Table:
        """This channel's table of this game (refused: none, or another game's)."""
        table = self.tables.in_channel(interaction.channel_id or 0)
        if table is None:
            raise TableError("no_table", game=self.game, command=f"{self.game} start")
        if table.kind != self.game:
            raise TableError("table_busy", game=table.kind)
        return table

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
        embed, view = self.table_message(table)
        await self.draw_table(
            table, embed, view if table.running else None, interaction=interaction, actor=actor
        )

    def story(self, table: Table, events: Sequence[Any], notes: Sequence[Any] = ()) -> list[str]:
        """The lines telling a stored move (a wording bug must not stop the table)."""
        if not table.started:
            return []  # a lobby has no game yet, hence no move to tell
        try:
            return self._lines(table, events, notes)
        except Exception:
            log.exception("table %s: could not word %d events", table.id, len(events))
            return []

    def is_headline(self, table: Table, events: Sequence[Any]) -> bool:
        """Whether a move's story is worth a message of its own: a game's end, or a
        headline event about someone at the table (a reveal between CPUs is told on the
        table, and goes with it)."""
        return any(
            isinstance(event, self.endings)
            or (isinstance(event, self.headlines) and self.about_people(table, event))
            for event in events
        )

    def about_people(self, table: Table, event: Any) -> bool:
        """Whether ``event`` concerns a human at the table (its players, by their roles)."""
        roles = ("player", "lifter", "challenger", "bidder", "loser", "verifier", "accused")
        players = [getattr(event, role) for role in roles if hasattr(event, role)]
        players = [player for player in players if isinstance(player, int)]
        return not players or any(not table.is_cpu(player) for player in players)

    @commands.Cog.listener("on_message")
    async def seen(self, message: discord.Message) -> None:
        """A message in a channel: below this game's table there, it may bring it down."""
        table = self.tables.in_channel(message.channel.id)
        if table is not None and table.kind == self.game:
            self.seen_below(table, message.id)

    @commands.Cog.listener("on_raw_message_delete")
    async def unseen(self, payload: discord.RawMessageDeleteEvent) -> None:
        table = self.tables.in_channel(payload.channel_id)
        if table is not None and table.kind == self.game:
            self.gone_below(table, payload.message_id)

    def note(self, table: Table, note: Any) -> str:
        """A line of the runtime about a player (a timeout, a player sent away)."""
        key, player = note
        return t(table.lang, f"note.{key}", player=table.name(player))

    # ------------------------------------------------------------------ opening a table

    async def open_table(
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
    ) -> Table:
        """A new lobby in the channel (``starter``: opened for someone else, a challenger);
        refused where the bot could not play it."""
        permissions.check_playable(interaction)
        return await self.tables.open(
            guild_id=interaction.guild_id or 0,
            channel_id=channel_id or interaction.channel_id or 0,
            starter=starter or interaction.user.id,
            rules=rules,
            kind=self.game,
            lang=settings.get("language") or public_lang(interaction),
            cpu_count=cpu,
            level=level,
            turn_seconds=settings.get("turn_seconds"),
            starter_name=starter_name if starter is not None else display_name(interaction),
        )

    async def opened(self, interaction: discord.Interaction, table: Table, text: str) -> None:
        """A table was just opened: say so (the command's answer), then draw its message."""
        async with table.lock:
            await self.tell(table, [text])
            await self._guarded(table, "draw the table", self.refresh(table, interaction))
            await self.answered(interaction, table, [text])

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
            elif action == "leave":
                closed = await self.tables.leave_lobby(table, user)
                key = "note.lobby_closed" if closed else "note.lobby_left"
                lines = [t(table.lang, key, player=table.name(user))]
            else:
                if user != table.starter:
                    raise TableError("not_starter", starter=table.starter)
                lines = self._started(table, await self._start(table))
            await self.tell(table, lines)
            # The game starts, or a turn does: the command's answer is the table's new copy.
            shown = public and (action == "start" or self.repost_due(table))
            if not shown:
                await self.after_move(interaction, table, lines, public=public)
            await self._guarded(
                table,
                "redraw the table",
                self.refresh(table, interaction if shown else None, actor=user),
            )
            if shown:
                await self.answered(interaction, table, lines)
            self.tables.schedule(table)

    async def _start(self, table: Table) -> list[Any]:
        """Seat the lobby and start the game (a game may prepare something first); returns
        the events of its first forced steps."""
        return await self.tables.start(table)

    def _started(self, table: Table, events: Sequence[Any]) -> list[str]:
        """The lines that tell a game has started, and its first forced steps."""
        order = " → ".join(table.name(seat.player) for seat in table.view().seats)
        return [t(table.lang, "note.started", order=order), *self.story(table, events)]

    async def leave_table(self, interaction: discord.Interaction) -> None:
        """Leave the lobby, or the game under way (``/… quitter``, ``/yades abandon``)."""
        table = self.table_here(interaction)
        if not table.started:
            await self.lobby(interaction, table, "leave", public=True)
            return
        await self.play(interaction, table, self.spec.leave(interaction.user.id), public=True)

    async def stop_table(self, interaction: discord.Interaction, table: Table) -> None:
        """``/… stop``: the starter, or a member with Manage Server, ends the table."""
        if interaction.user.id != table.starter and not interaction.permissions.manage_guild:
            raise TableError("not_starter", starter=table.starter)
        async with table.lock:
            if not table.running:
                raise TableError("stale")
            events = await self.tables.stop(table)
            lines = [t(table.lang, "note.stopped_by", player=table.name(interaction.user.id))]
            if table.started:
                lines += self.story(table, events)
            await self.tell(table, lines, headline=table.started)
            shown = table.started or self.repost_due(table)  # a game's end: the new copy
            if not shown:
                await self.after_move(interaction, table, lines, public=True)
            await self._followed(table, events, interaction if shown else None)
            if shown:
                await self.answered(interaction, table, lines)

    # ------------------------------------------------------------------ the commands every game has

    @app_commands.command(name="rejoindre", description="Rejoindre la table de ce salon")
    async def join_command(self, interaction: discord.Interaction) -> None:
        table = self.table_here(interaction)
        join = self.spec.join(interaction.user.id)
        if table.started and join is not None:
            # A newcomer's name is kept with their joining, for the table's pictures.
            name = display_name(interaction)
            await self.play(interaction, table, join, public=True, name=name)
            return
        await self.lobby(interaction, table, "join", public=True)

    @app_commands.command(
        name="commencer", description="Lancer la partie (celui ou celle qui a ouvert la table)"
    )
    async def begin_command(self, interaction: discord.Interaction) -> None:
        table = self.table_here(interaction)
        if interaction.user.id != table.starter:
            raise TableError("not_starter", starter=table.starter)
        await self.lobby(interaction, table, "start", public=True)

    @app_commands.command(
        name="stop",
        description="Arrêter la partie (celui ou celle qui l'a ouverte, ou « Gérer le serveur »)",
    )
    async def stop_command(self, interaction: discord.Interaction) -> None:
        await self.stop_table(interaction, self.table_here(interaction))

    # ------------------------------------------------------------------ components

    async def on_component(
        self,
        interaction: discord.Interaction,
        table: Table,
        step: int,
        action: str,
        value: str | None,
    ) -> None:
        """A click on a table component (``cogs.table.components.route``): the control
        its custom_id names, clicked where that control is shown, or the lobby's."""
        try:
            found = self.controls.find(action)
            self.check_place(interaction, found[0].where if found is not None else Where.TABLE)
            await self.ready(table)
            if action in LOBBY_ACTIONS and (found is None or not table.started):
                await self.lobby(interaction, table, action, public=False)
            elif found is None:
                raise NotNow(action=action)
            else:
                control, argument = found
                if control.handler is not None:
                    await control.handler(self, interaction, table, step, argument, value)
                else:
                    await self.play_control(interaction, table, control, argument, value, step)
        except Exception as error:
            await refuse(interaction, error, table)

    def check_place(self, interaction: discord.Interaction, where: Where) -> None:
        """The clicked message is one that carries the control: a private panel (an
        ephemeral message) for a panel's, the public table for the table's. A component
        sent on a message that never carries it (a modified client) is refused."""
        message = interaction.message
        private = message is not None and message.flags.ephemeral
        if not where & (Where.PANEL if private else Where.TABLE):
            raise TableError("wrong_message")

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
                await self.tell(table, lines, headline=headline)
                # A command that tells a headline or brings the table down is answered
                # with the table's new copy.
                shown = public and answer is None and (headline or self.repost_due(table))
                if not shown:
                    await self.after_move(
                        interaction, table, lines, public=public, answer=answer, events=events
                    )
                await self._followed(
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
        self.met(table, interaction)

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
        await self.tell(table, lines, headline=self.is_headline(table, events))
        await self._followed(table, events)

    async def _followed(
        self,
        table: Table,
        events: Sequence[Any],
        interaction: discord.Interaction | None = None,
        *,
        actor: int | None = None,
    ) -> None:
        """Once a move is told: what the game keeps in step, the redraw (``interaction``: a
        command answered with the table; ``actor``: who moved, not pinged), the turn's end."""
        await self._guarded(table, "follow the move", self._after_events(table, events))
        if any(isinstance(event, self.endings) for event in events):
            await self._guarded(table, "tell the standings", self._ended(table))
        await self._guarded(
            table, "redraw the table", self.refresh(table, interaction, actor=actor)
        )
        await self._guarded(table, "end the turn", self._after_turn(table))

    async def _ended(self, table: Table) -> None:
        """The game just ended: its final standings head the table's last message, with
        the achievements its players earned in it (those they did not hold yet)."""
        earned = table.results.awards.earned if table.results is not None else ()
        lines = [*self.standings(table, table.event_log), *earned_lines(table.lang, earned)]
        await self.tell(table, lines, headline=True)

    def standings(self, table: Table, logged: Sequence[Any]) -> list[str]:
        """The final standings of a game just ended, from its whole event log."""
        return []

    async def _after_events(self, table: Table, events: Sequence[Any]) -> None:
        """What a game keeps in step once a move is told (e.g. Maya's accusation messages)."""

    async def _after_turn(self, table: Table) -> None:
        """What a game tells once the table is redrawn (e.g. a summary at the end)."""

    # ------------------------------------------------------------------ restart

    async def prepare(self) -> None:
        """Before the tables come back after a restart (e.g. load what the CPU needs)."""

    async def _restoring(self, table: Table) -> None:
        """A table is back, before it is redrawn (e.g. read back what only its message held)."""

    async def _restored(self, table: Table) -> None:
        """A table is back and redrawn (e.g. its votes counted again)."""

    async def resume(self) -> None:
        """After a restart, before the bot connects: what the game needs first, and the
        restored tables to resume (``resume_tables``, in the background once it is
        connected; a table someone uses first resumes at once, ``ready``)."""
        await self.prepare()
        self._resuming.update(
            (table.id, table) for table in self.tables.by_id.values() if table.kind == self.game
        )

    async def resume_tables(self) -> None:
        """Resume every restored table not resumed yet, one after the other."""
        for table in list(self._resuming.values()):
            await self._guarded(table, "resume", self.resume_table(table))

    async def ready(self, table: Table | None) -> None:
        """Before an interaction uses ``table``: resumed first, if it was not yet."""
        if table is not None:
            await self.resume_table(table)

    async def resume_table(self, table: Table) -> None:
        """A restored table finds the copies of it a crash left behind, says it is back,
        and its timers run again (once, whoever asks first)."""
        if table.id not in self._resuming:
            return
        async with table.lock:
            if self._resuming.pop(table.id, None) is None:
                return  # resumed while this waited for the lock
            await self._guarded(table, "look for copies left behind", self.recover(table))
            lines = [t(table.lang, "note.back")]
            try:  # stored by a version that played a forced step in a write of its own
                lines += self.story(table, await self.tables.settle(table))
            except Exception:
                log.warning("table %s: could not play its forced steps", table.id)
            await self.tell(table, lines)
            await self._guarded(table, "restore the table", self._restoring(table))
            await self.refresh(table)
            await self._guarded(table, "restore the table", self._restored(table))
            self.tables.schedule(table)
