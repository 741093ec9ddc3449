"""The table cog every game's cog is: one slash-command group with the commands every
game has (join, start, stop), its components' dispatch, and the common defaults of a
game's ``Side``. A game's cog adds its own commands and implements its ``Side`` (its table
message, the story of its events, its panels); its tables run in a ``TableController``,
their messages in a ``Channel``.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, ClassVar

import discord
from discord import app_commands
from discord.ext import commands

from bot.i18n import t
from bot.interactions.refusals import Names, refuse
from bot.kernel.errors import NotNow
from bot.kernel.spec import GameSpec
from bot.table import Table, TableError, TableRunner
from cogs.table.channel import Channel, display_name
from cogs.table.components import LOBBY_ACTIONS
from cogs.table.controller import TableController, about_people
from cogs.table.controls import Control, Controls, Where
from cogs.table.panels import Panel
from cogs.table.side import PanelShown

if TYPE_CHECKING:
    from bot.client import Gobelet
    from cogs.table.side import Side

log = logging.getLogger(__name__)


class TableCog(commands.GroupCog):
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
    # A private panel that offers no move is still followed, for its player's next turn.
    panels_wait: ClassVar[bool] = False

    def __init__(self, bot: Gobelet, side: Side) -> None:
        self.bot = bot
        self.tables: TableRunner = bot.tables
        self.channel = Channel(bot, bot.tables)
        self.controller = TableController(bot.tables, self.channel, side)
        super().__init__()

    @property
    def game(self) -> str:
        return self.spec.name

    async def cog_load(self) -> None:
        self.bot.shared.games[self.game] = self
        self.tables.heralds[self.game] = self.controller

    async def cog_unload(self) -> None:
        self.bot.shared.games.pop(self.game, None)
        self.tables.heralds.pop(self.game, None)

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        if interaction.guild_id is None:
            raise app_commands.NoPrivateMessage()
        await self.controller.ready(self.tables.in_channel(interaction.channel_id or 0))
        return True

    # ------------------------------------------------------------------ a Side's defaults

    def standings(self, table: Table, logged: Sequence[Any]) -> list[str]:
        """The final standings of a game just ended (none unless the game words them)."""
        return []

    def about_people(self, table: Table, event: Any) -> bool:
        return about_people(table, event)

    def panel_now(self, table: Table, player: int, panel: Panel) -> PanelShown | None:
        return None  # a game without private panels

    def panel_settled(self, table: Table, player: int, panel: Panel) -> str | None:
        return None

    def rematch_rules(self, rules: Any) -> Any:
        """A rematch plays the same rules."""
        return rules

    async def kept(self, table: Table, events: Sequence[Any]) -> None:
        """Nothing to keep in step but the table (Maya keeps its accusations)."""

    async def starting(self, table: Table) -> None:
        """Nothing to prepare before a game starts (Yadès loads its expert's table)."""

    async def restoring(self, table: Table) -> None:
        """Nothing to read back before a restored table is redrawn."""

    async def restored(self, table: Table) -> None:
        """Nothing to count again once a restored table is redrawn."""

    # ------------------------------------------------------------------ what a game says

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

    def note(self, table: Table, note: Any) -> str:
        """A line of the runtime about a player (a timeout, a player sent away)."""
        key, player = note
        return t(table.lang, f"note.{key}", player=table.name(player))

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
        step_checked = step if control.stepped else None
        await self.controller.play(interaction, table, action, step=step_checked)

    async def rematch(self, interaction: discord.Interaction, table_id: int) -> None:
        """**Revanche** under an ended game of this game's."""
        await self.controller.rematch(interaction, table_id)

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

    @commands.Cog.listener("on_message")
    async def seen(self, message: discord.Message) -> None:
        """A message in a channel: below this game's table there, it may bring it down."""
        table = self.tables.in_channel(message.channel.id)
        if table is not None and table.kind == self.game:
            self.channel.seen_below(table, message.id)

    @commands.Cog.listener("on_raw_message_delete")
    async def unseen(self, payload: discord.RawMessageDeleteEvent) -> None:
        table = self.tables.in_channel(payload.channel_id)
        if table is not None and table.kind == self.game:
            self.channel.gone_below(table, payload.message_id)

    @commands.Cog.listener()
    async def on_guild_remove(self, guild: discord.Guild) -> None:
        """The bot left a server (or was removed): its tables of this game are closed."""
        for table in list(self.tables.by_id.values()):
            if table.kind == self.game and table.guild_id == guild.id:
                await self.controller.close(table, "the bot left its server")

    @commands.Cog.listener()
    async def on_guild_channel_delete(self, channel: discord.abc.GuildChannel) -> None:
        """A channel deleted: its table, and those in its threads, are closed."""
        await self.place_lost(channel.id, "its channel was deleted")

    @commands.Cog.listener()
    async def on_raw_thread_delete(self, payload: discord.RawThreadDeleteEvent) -> None:
        await self.place_lost(payload.thread_id, "its thread was deleted")

    @commands.Cog.listener()
    async def on_place_lost(self, place: int) -> None:
        """Discord answered the bot token Unknown Channel or Missing Access about ``place``
        (``bot.client``): its tables are closed."""
        await self.place_lost(place, "Discord no longer knows its channel for the bot")

    async def place_lost(self, place: int, why: str) -> None:
        for table in self.controller.in_place(place):
            await self.controller.close(table, why)

    async def leave_table(self, interaction: discord.Interaction) -> None:
        """Leave the lobby, or the game under way (``/… quitter``, ``/yades abandon``)."""
        table = self.table_here(interaction)
        if not table.started:
            await self.controller.lobby(interaction, table, "leave", public=True)
            return
        leave = self.spec.leave(interaction.user.id)
        await self.controller.play(interaction, table, leave, public=True)

    # ------------------------------------------------------------------ the commands every game has

    @app_commands.command(name="rejoindre", description="Rejoindre la table de ce salon")
    async def join_command(self, interaction: discord.Interaction) -> None:
        table = self.table_here(interaction)
        join = self.spec.join(interaction.user.id)
        if table.started and join is not None:
            # A newcomer's name is kept with their joining, for the table's pictures.
            name = display_name(interaction)
            await self.controller.play(interaction, table, join, public=True, name=name)
            return
        await self.controller.lobby(interaction, table, "join", public=True)

    @app_commands.command(
        name="commencer", description="Lancer la partie (celui ou celle qui a ouvert la table)"
    )
    async def begin_command(self, interaction: discord.Interaction) -> None:
        table = self.table_here(interaction)
        if interaction.user.id != table.starter:
            raise TableError("not_starter", starter=table.starter)
        await self.controller.lobby(interaction, table, "start", public=True)

    @app_commands.command(
        name="stop",
        description="Arrêter la partie (celui ou celle qui l'a ouverte, ou « Gérer le serveur »)",
    )
    async def stop_command(self, interaction: discord.Interaction) -> None:
        await self.controller.stop(interaction, self.table_here(interaction))

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
            await self.controller.ready(table)
            if action in LOBBY_ACTIONS and (found is None or not table.started):
                await self.controller.lobby(interaction, table, action, public=False)
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

    # ------------------------------------------------------------------ restart

    async def prepare(self) -> None:
        """Before the tables come back after a restart (e.g. load what the CPU needs)."""

    async def resume(self) -> None:
        """After a restart, before the bot connects: what the game needs first, and the
        restored tables to resume (in the background once it is connected)."""
        await self.prepare()
        await self.controller.restored()

    async def resume_tables(self) -> None:
        """Resume every restored table not resumed yet, one after the other."""
        await self.controller.resume_all()
