"""Maya and Mia on Discord: the commands, the buttons, the story of each table.

Every handler is: check who and where -> lock the channel's table -> ``Tables.act``
(apply + persist) -> answer the interaction -> tell the channel. No rule lives here.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Sequence
from enum import Enum
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.games import maya
from bot.games.maya import values as d
from bot.i18n import t
from bot.storage import StorageError
from bot.tables import CPU_LEVELS, Table, TableError, Tables
from cogs import answers, maya_options, render, views
from cogs.errors import private_lang, public_lang, refuse, say_privately
from cogs.free_text import free_text
from cogs.table_messages import TableMessages, display_name

if TYPE_CHECKING:
    from bot.client import Gobelet

log = logging.getLogger(__name__)

VOTE_GUILTY = "✅"
VOTE_INNOCENT = "❌"


class Reply(Enum):
    """How an accepted action answers the interaction that asked for it."""

    PANEL = "panel"  # the player's private panel (their dice, the announcements)
    UPDATE_PANEL = "update_panel"  # edit the private panel the click came from
    SILENT = "silent"  # acknowledge a click on a public message without a new message
    PUBLIC = "public"  # a slash command: the story lines are the answer


class MayaCog(TableMessages, commands.Cog, name="Maya"):
    maya_group = app_commands.Group(
        name="maya",
        description="Maya et Mia : le bluff à deux dés sous le gobelet",
        guild_only=True,
    )

    def __init__(self, bot: Gobelet) -> None:
        self.bot = bot
        self.tables: Tables = bot.tables
        self.tables.herald = self
        self.marks: dict[tuple[int, int], dict[int, list[str]]] = {}  # see _on_reaction

    async def cog_load(self) -> None:
        self.bot.add_components(*views.DYNAMIC_ITEMS)

    async def cog_unload(self) -> None:
        self.bot.remove_components(*views.DYNAMIC_ITEMS)

    async def interaction_check(self, interaction: discord.Interaction) -> bool:  # type: ignore[override]
        if interaction.guild_id is None:
            raise app_commands.NoPrivateMessage()
        return True

    # ------------------------------------------------------------------ helpers

    def _table_here(self, interaction: discord.Interaction) -> Table:
        table = self.tables.in_channel(interaction.channel_id or 0)
        if table is None:
            raise TableError("no_table", game="maya", command="maya start")
        if table.kind != "maya":
            raise TableError("table_busy", game=table.kind)
        return table

    def _seating(self, table: Table) -> render.Seating:
        return render.Seating(
            names=table.name,
            cpus={k: t(table.lang, "level." + v.level) for k, v in table.cpus.items()},
            starter=table.starter,
            deadline=table.deadline,
        )

    def _table_message(self, table: Table) -> tuple[discord.Embed, discord.ui.View | None]:
        seating = self._seating(table)
        if table.state is None:
            return (
                render.lobby_embed(table.rules, table.players, seating, table.lang),
                views.lobby_view(table.id, table.lang),
            )
        return (
            render.table_embed(table.state, seating, table.lang),
            views.table_view(table.id, table.state, table.lang),
        )

    async def refresh(self, table: Table) -> None:
        """Redraw the public table message."""
        embed, view = self._table_message(table)
        await self.draw_table(table, embed, view)

    def _note(self, table: Table, note: Any) -> str:
        key, player = note
        return t(table.lang, f"note.{key}", player=table.name(player))

    def _lines(
        self, table: Table, events: Sequence[maya.Event], notes: Sequence[Any] = ()
    ) -> list[str]:
        lines = [self._note(table, note) for note in notes]
        assert table.state is not None
        lines += render.public_lines(events, table.state.rules, table.name, table.lang)
        if table.state.over:
            lines.append(self._tally(table))
        return lines

    def _tally(self, table: Table) -> str:
        assert table.state is not None
        state = table.state
        parts = []
        for seat in state.seats:
            if state.rules.lives:
                parts.append(f"{table.name(seat.player)} {seat.lives}❤️")
            else:
                parts.append(f"{table.name(seat.player)} {seat.sips}🍺 {seat.glasses}🥃")
        return t(table.lang, "note.score", scores=", ".join(parts))

    async def _after_events(self, table: Table, events: Sequence[maya.Event]) -> None:
        """Keep accusation messages in step with their faults."""
        for event in events:
            if event.type.startswith("fault_") and event.type != "fault_raised":
                await self._refresh_fault(table, event.data["fault"])
            if event.type == "fault_contested":  # stored: the vote opens (once)
                await self._open_vote(table, event.data["fault"])
            if event.type == "fault_judged":
                await self._vote_closed(table, event.data["fault"])

    async def _vote_closed(self, table: Table, fault_id: int) -> None:
        """The verdict is in: the bot takes its own ✅ ❌ off, so the counts shown are the
        votes counted."""
        self.marks.pop((table.id, fault_id), None)
        message_id = table.fault_messages.get(fault_id)
        if message_id is None or self.bot.user is None:
            return
        message = self._channel(table).get_partial_message(message_id)
        for emoji in (VOTE_GUILTY, VOTE_INNOCENT):
            try:
                await message.remove_reaction(emoji, self.bot.user)
            except discord.HTTPException:
                log.info("table %s: could not take the bot's vote reaction off", table.id)

    async def _refresh_fault(self, table: Table, fault_id: int) -> None:
        message_id = table.fault_messages.get(fault_id)
        if message_id is None or table.state is None:
            return
        fault = table.state.fault(fault_id)
        view = views.fault_view(table.id, fault, table.lang) if fault is not None else None
        try:
            await self._channel(table).get_partial_message(message_id).edit(view=view)
        except discord.HTTPException:
            log.info("table %s: accusation message %s could not be edited", table.id, message_id)

    # ------------------------------------------------------------------ playing an action

    async def _act(
        self, table: Table, action: maya.Action, *, name: str | None = None
    ) -> list[maya.Event]:
        if isinstance(
            action, maya.Roll | maya.Believe | maya.SecondChance | maya.Warrior | maya.Tap
        ):
            action = maya.complete(table.state, action, table.rng)
        return await self.tables.act(table, action, name=name)

    async def move(
        self,
        interaction: discord.Interaction,
        table: Table,
        action: maya.Action,
        reply: Reply,
        *,
        step: int | None = None,
    ) -> None:
        """``play`` with Maya's answers: the story (a slash command), a silent click, or the
        player's private panel (shown, or updated in place)."""
        # A newcomer's name is kept with their joining, for the table's pictures.
        name = display_name(interaction) if isinstance(action, maya.Join) else None
        if reply is Reply.PUBLIC or reply is Reply.SILENT:
            public = reply is Reply.PUBLIC
            await self.play(interaction, table, action, step=step, public=public, name=name)
            return

        async def answer(events: Sequence[maya.Event]) -> None:
            await self._answer(interaction, table, action, reply, private_lang(interaction))

        await self.play(interaction, table, action, step=step, answer=answer)

    async def _answer(
        self,
        interaction: discord.Interaction,
        table: Table,
        action: maya.Action,
        reply: Reply,
        lang: str,
    ) -> None:
        assert table.state is not None
        content, view = self.panel(table, interaction.user.id, lang)
        if isinstance(action, maya.Announce | maya.Photo):
            value = render.maya_value(table.state.announced) if table.state.announced else "?"
            content = t(lang, "me.announced", value=value)
            view = None
        if reply is Reply.UPDATE_PANEL:
            await answers.update(interaction, content=content, view=view)
        else:
            await answers.reply(interaction, content, ephemeral=True, view=view)

    def panel(self, table: Table, player: int, lang: str) -> tuple[str, discord.ui.View | None]:
        assert table.state is not None
        seen = maya.view(table.state, player)
        return render.cup_text(seen, lang), views.panel_view(table.id, table.state, player, lang)

    async def refuse(
        self, interaction: discord.Interaction, error: BaseException, table: Table | None
    ) -> None:
        await refuse(interaction, error, table)

    # ------------------------------------------------------------------ components

    async def on_component(
        self,
        interaction: discord.Interaction,
        table_id: int,
        step: int,
        action: str,
        value: str | None,
    ) -> None:
        if interaction.guild_id is None:
            await say_privately(interaction, t(private_lang(interaction), "err.dm"))
            return
        table = self.tables.get(table_id)
        if table is None:
            await say_privately(interaction, t(private_lang(interaction), "err.stale"))
            return
        user = interaction.user.id
        try:
            if action in ("join", "leave", "start") and table.state is None:
                await self.lobby(interaction, table, action, public=False)
                return
            if action == "join":
                await self.move(interaction, table, maya.Join(user), Reply.SILENT)
                return
            if action == "dice":
                await self._show_dice(interaction, table)
                return
            built = _component_action(action, user, value)
            reply = Reply.PANEL if action in ("roll", "roll_blind", "roll_reverse", "believe", "believe_blind") else Reply.SILENT  # fmt: skip
            if action in ("announce", "tap0", "tap1", "second_chance"):
                reply = Reply.UPDATE_PANEL
            await self.move(interaction, table, built, reply, step=step)
        except Exception as error:
            await self.refuse(interaction, error, table)

    async def _show_dice(self, interaction: discord.Interaction, table: Table) -> None:
        lang = private_lang(interaction)
        if table.state is None:
            raise TableError("not_started")
        content, view = self.panel(table, interaction.user.id, lang)
        if view is None:
            content = t(lang, "me.no_dice")
        await answers.reply(interaction, content, ephemeral=True, view=view)

    async def on_fault_component(
        self, interaction: discord.Interaction, table_id: int, fault_id: int, action: str
    ) -> None:
        table = self.tables.get(table_id)
        if table is None:
            await say_privately(interaction, t(private_lang(interaction), "err.stale"))
            return
        user = interaction.user.id
        built: maya.Action
        if action == "accept":
            built = maya.AcceptFault(user, fault_id)
        elif action == "contest":
            built = maya.ContestFault(user, fault_id)
        else:
            built = maya.Appeal(user, fault_id)
        await self.move(interaction, table, built, Reply.SILENT)

    async def _open_vote(self, table: Table, fault_id: int) -> None:
        message_id = table.fault_messages.get(fault_id)
        if message_id is None:
            return
        message = self._channel(table).get_partial_message(message_id)
        try:
            await message.add_reaction(VOTE_GUILTY)
            await message.add_reaction(VOTE_INNOCENT)
        except discord.HTTPException:
            log.warning("table %s: could not add the vote reactions", table.id)
        self.tables.arm_vote(table, fault_id, settle=self._sync_votes)

    # ------------------------------------------------------------------ reactions (fault votes)

    # A voter's vote is their reaction as it stands (RULES.md §1): ✅ or ❌, changed or taken
    # back. ``marks`` keeps each voter's vote reactions in the order they were added, so that
    # with both on the message the later one counts (the bot removes the earlier one when it
    # may) and taking the later one back leaves the earlier one.

    @commands.Cog.listener()
    async def on_raw_reaction_add(self, payload: discord.RawReactionActionEvent) -> None:
        await self._on_reaction(payload, added=True)

    @commands.Cog.listener()
    async def on_raw_reaction_remove(self, payload: discord.RawReactionActionEvent) -> None:
        await self._on_reaction(payload, added=False)

    async def _on_reaction(self, payload: discord.RawReactionActionEvent, *, added: bool) -> None:
        if self.bot.user is not None and payload.user_id == self.bot.user.id:
            return
        emoji = str(payload.emoji)
        if emoji not in (VOTE_GUILTY, VOTE_INNOCENT):
            return
        table = self.tables.in_channel(payload.channel_id)
        if table is None or table.state is None or table.kind != "maya":
            return
        fault_id = next(
            (f for f, m in table.fault_messages.items() if m == payload.message_id), None
        )
        if fault_id is None:
            return
        remove: list[tuple[str, int]] = []  # reactions to take off, once the lock is free
        async with table.lock:
            if not table.running or table.state is None:
                return
            fault = table.state.fault(fault_id)
            if fault is None or fault.status != "voting":
                return
            if payload.user_id not in fault.voters:
                # Anyone else's reaction is no vote: take it off so the counts shown are votes.
                if added:
                    remove.append((emoji, payload.user_id))
            else:
                running = self.tables.by_id
                self.marks = {k: v for k, v in self.marks.items() if k[0] in running}
                marks = self.marks.setdefault((table.id, fault_id), {})
                mine = marks.setdefault(payload.user_id, [])
                if emoji in mine:
                    mine.remove(emoji)
                if added:
                    mine.append(emoji)
                    if len(mine) > 1:
                        remove.append((mine[0], payload.user_id))
                await self._sync_votes(table, fault_id)
        for reaction, user in remove:
            await self._remove_reaction(table, fault_id, reaction, user)

    async def _remove_reaction(self, table: Table, fault_id: int, emoji: str, user: int) -> None:
        """Take back a voter's earlier reaction, so that the message shows the vote that counts
        (needs Manage Messages; without it, the later reaction counts all the same)."""
        message = self._channel(table).get_partial_message(table.fault_messages[fault_id])
        try:
            await message.remove_reaction(emoji, discord.Object(user))
        except discord.HTTPException:
            log.info("table %s: could not remove an earlier vote reaction", table.id)

    async def _sync_votes(self, table: Table, fault_id: int) -> None:
        """Bring the stored votes in line with the voters' reactions. The caller holds the lock."""
        marks = self.marks.get((table.id, fault_id), {})
        for voter, emojis in list(marks.items()):
            fault = table.state.fault(fault_id) if table.state is not None else None
            if fault is None or fault.status != "voting":
                return  # judged (the last vote closes it)
            if voter not in fault.voters:
                continue
            wanted = (emojis[-1] == VOTE_GUILTY) if emojis else None
            if wanted == maya.cast_vote(fault, voter):
                continue
            action: maya.Action = (
                maya.WithdrawVote(voter, fault_id)
                if wanted is None
                else maya.Vote(voter, fault_id, wanted)
            )
            try:
                events = await self.tables.act(table, action)
            except (maya.GameError, StorageError):
                # Not stored now: the reactions still say it, and the vote's close re-reads them.
                log.warning("table %s: a vote could not be stored", table.id, exc_info=True)
                return
            await self.publish(table, events)

    async def _read_votes(self, table: Table, fault_id: int) -> None:
        """After a restart: each voter's vote reactions, read back from the message."""
        message_id = table.fault_messages.get(fault_id)
        if message_id is None:
            return
        try:
            message = await self._channel(table).fetch_message(message_id)
            marks: dict[int, list[str]] = {}
            for reaction in message.reactions:
                if str(reaction.emoji) not in (VOTE_GUILTY, VOTE_INNOCENT):
                    continue
                async for user in reaction.users():
                    marks.setdefault(user.id, []).append(str(reaction.emoji))
        except discord.HTTPException:
            log.warning("table %s: could not read the vote reactions", table.id)
            return
        fault = table.state.fault(fault_id) if table.state is not None else None
        if fault is None:
            return
        for voter in fault.voters:  # a voter without a reaction now has no vote
            if not table.is_cpu(voter):
                marks.setdefault(voter, [])
        for voter, emojis in marks.items():
            if len(emojis) > 1:  # both: the order they came in is lost, the stored one counts
                counted = VOTE_GUILTY if maya.cast_vote(fault, voter) else VOTE_INNOCENT
                emojis.sort(key=lambda emoji: emoji == counted)
        self.marks[(table.id, fault_id)] = marks

    # ------------------------------------------------------------------ /maya …

    @maya_group.command(
        name="start", description="Ouvrir une table de Maya (soirée) ou de Mia (vies) dans ce salon"
    )
    @app_commands.describe(
        **maya_options.DESCRIPTIONS,
        cpu="Nombre de joueurs CPU à la table",
        niveau="Niveau des joueurs CPU",
        gage="Le gage (par défaut : gorgée, ou vie pour Mia)",
    )
    @app_commands.choices(
        mode=maya_options.MODES,
        niveau=[app_commands.Choice(name=level, value=level) for level in CPU_LEVELS],
        ouvreur=maya_options.OPENERS,
    )
    async def start(
        self,
        interaction: discord.Interaction,
        mode: str | None = None,
        vies: app_commands.Range[int, 1, 10] | None = None,
        cpu: app_commands.Range[int, 0, 9] = 0,
        niveau: str = "moyen",
        ouvreur: str | None = None,
        photo: bool | None = None,
        photo_memoire: bool | None = None,
        aveugle: bool | None = None,
        tapote: bool | None = None,
        seconde_chance: bool | None = None,
        warrior: bool | None = None,
        inversion: bool | None = None,
        fautes: bool | None = None,
        gage: app_commands.Range[str, 1, 30] | None = None,
    ) -> None:
        answers.expect_public(interaction)
        settings = await self.tables.repository.guild_settings(interaction.guild_id or 0)
        defaults = settings.get("maya") or {}
        mode = mode or defaults.get("mode", maya.SOIREE)
        # The server's defaults first, then what the starter chose for this table.
        options: dict[str, Any] = dict(defaults.get("options", {}))
        if settings.get("gage") and mode == maya.SOIREE:
            options["gage"] = settings["gage"]
        if mode != maya.VIES:
            options.pop("vies", None)
        given = {
            "vies": vies,
            "ouvreur": ouvreur,
            "photo": photo,
            "photo_memoire": photo_memoire,
            "aveugle": aveugle,
            "tapote": tapote,
            "seconde_chance": seconde_chance,
            "warrior": warrior,
            "inversion": inversion,
            "fautes": fautes,
        }
        options.update(maya_options.rule_options(mode, given))
        if gage is not None:
            options["gage"] = free_text(gage, limit=maya.MAX_GAGE)
        rules = maya.Rules.for_preset(mode, **options)
        if niveau not in CPU_LEVELS:
            niveau = "moyen"
        table = await self.tables.open(
            guild_id=interaction.guild_id or 0,
            channel_id=interaction.channel_id or 0,
            starter=interaction.user.id,
            rules=rules,
            lang=settings.get("language") or public_lang(interaction),
            cpu_count=cpu,
            level=niveau,
            turn_seconds=settings.get("turn_seconds"),
            starter_name=display_name(interaction),
        )
        text = t(
            table.lang,
            "note.table_opened",
            player=table.name(interaction.user.id),
            game=render.game_label(rules, table.lang),
            preset=render.preset_label(rules, table.lang),
        )
        await self.opened(interaction, table, text)

    @maya_group.command(name="rejoindre", description="Rejoindre la table de ce salon")
    async def join(self, interaction: discord.Interaction) -> None:
        table = self._table_here(interaction)
        if table.state is None:
            await self.lobby(interaction, table, "join", public=True)
            return
        await self.move(interaction, table, maya.Join(interaction.user.id), Reply.PUBLIC)

    @maya_group.command(name="quitter", description="Quitter la table de ce salon")
    async def leave(self, interaction: discord.Interaction) -> None:
        table = self._table_here(interaction)
        if table.state is None:
            await self.lobby(interaction, table, "leave", public=True)
            return
        await self.move(interaction, table, maya.Leave(interaction.user.id), Reply.PUBLIC)

    async def _clear_table_message(self, table: Table) -> None:
        if table.message_id is None:
            return
        try:
            await self._channel(table).get_partial_message(table.message_id).edit(view=None)
        except discord.HTTPException:
            log.info("table %s: could not clear the table message", table.id)

    @maya_group.command(
        name="commencer", description="Lancer la partie (celui ou celle qui a ouvert la table)"
    )
    async def begin(self, interaction: discord.Interaction) -> None:
        table = self._table_here(interaction)
        if interaction.user.id != table.starter:
            raise TableError("not_starter", starter=table.starter)
        await self.lobby(interaction, table, "start", public=True)

    @maya_group.command(
        name="stop",
        description="Arrêter la partie (celui ou celle qui l'a ouverte, ou « Gérer le serveur »)",
    )
    async def stop(self, interaction: discord.Interaction) -> None:
        await self.stop_table(interaction, self._table_here(interaction))

    async def _after_stop(self, table: Table) -> None:
        if table.state is None:
            await self._clear_table_message(table)
        else:
            await self.refresh(table)

    @maya_group.command(name="table", description="Voir l'état de la table (en privé)")
    async def show_table(self, interaction: discord.Interaction) -> None:
        table = self._table_here(interaction)
        embed, _ = self._table_message(table)
        await answers.reply(interaction, ephemeral=True, embed=embed)

    @maya_group.command(name="regles", description="Voir les règles de cette table (en privé)")
    async def show_rules(self, interaction: discord.Interaction) -> None:
        table = self._table_here(interaction)
        text = render.rules_text(table.rules, private_lang(interaction))
        await answers.reply(interaction, text, ephemeral=True)

    @maya_group.command(name="des", description="Voir mes dés (en privé)")
    async def my_dice(self, interaction: discord.Interaction) -> None:
        await self._show_dice(interaction, self._table_here(interaction))

    @maya_group.command(name="lancer", description="Ouvrir la manche : lancer les dés")
    @app_commands.describe(
        aveugle="Sans regarder tes dés", inverser="Inverser le sens du jeu (après un Maya)"
    )
    async def roll(
        self, interaction: discord.Interaction, aveugle: bool = False, inverser: bool = False
    ) -> None:
        table = self._table_here(interaction)
        action = maya.Roll(interaction.user.id, None, aveugle, inverser)
        await self.move(interaction, table, action, Reply.PANEL)

    @maya_group.command(name="annoncer", description="Annoncer une valeur (vraie ou bluffée)")
    @app_commands.describe(valeur="La valeur annoncée (ou photo)")
    async def announce(self, interaction: discord.Interaction, valeur: str) -> None:
        table = self._table_here(interaction)
        action = _announcement(interaction.user.id, valeur)
        await self.move(interaction, table, action, Reply.PUBLIC)

    @announce.autocomplete("valeur")
    async def announce_values(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        table = self.tables.in_channel(interaction.channel_id or 0)
        if table is None or table.state is None or table.kind != "maya":
            return []
        lang = private_lang(interaction)
        choices = []
        for action in maya.legal_actions(table.state, interaction.user.id):
            if isinstance(action, maya.Photo):
                label = t(lang, "select.photo", value=table.state.announced)
                choices.append(app_commands.Choice(name=label, value="photo"))
            elif isinstance(action, maya.Announce):
                label = t(lang, "select.maya") if action.value == d.MAYA else str(action.value)
                choices.append(app_commands.Choice(name=label, value=str(action.value)))
        typed = current.strip().lower()
        if typed:
            choices = [c for c in choices if typed in c.name.lower() or typed in c.value]
        return choices[:25]

    @maya_group.command(
        name="tapote", description="Tapoter un dé sans regarder (puis annoncer à l'aveugle)"
    )
    @app_commands.describe(de="Le dé à tapoter")
    @app_commands.choices(
        de=[
            app_commands.Choice(name="le premier dé", value=1),
            app_commands.Choice(name="le second dé", value=2),
        ]
    )
    async def tap(self, interaction: discord.Interaction, de: int) -> None:
        table = self._table_here(interaction)
        await self.move(interaction, table, maya.Tap(interaction.user.id, de - 1), Reply.PANEL)

    @maya_group.command(
        name="secondechance",
        description="Relancer les deux dés sans regarder (puis annoncer à l'aveugle)",
    )
    async def second_chance(self, interaction: discord.Interaction) -> None:
        table = self._table_here(interaction)
        await self.move(interaction, table, maya.SecondChance(interaction.user.id), Reply.PANEL)

    # ------------------------------------------------------------------ /croire /soulever /faute

    @app_commands.command(
        name="croire", description="Croire l'annonce : le gobelet passe, tu relances"
    )
    @app_commands.guild_only()
    @app_commands.describe(
        aveugle="Sans regarder tes dés", style="Face à un Maya : Fragile ou Warrior"
    )
    @app_commands.choices(
        style=[
            app_commands.Choice(name="Fragile (1 gorgée)", value="fragile"),
            app_commands.Choice(name="Warrior (tenter le Maya)", value="warrior"),
        ]
    )
    async def believe(
        self, interaction: discord.Interaction, aveugle: bool = False, style: str | None = None
    ) -> None:
        table = self._table_here(interaction)
        user = interaction.user.id
        state = table.state
        if state is not None and state.announced == d.MAYA and state.phase == maya.RESPOND:
            if state.rules.lives or not state.rules.warrior_fragile:
                action: maya.Action = maya.AcceptMaya(user)
            elif style == "warrior":
                action = maya.Warrior(user)
            else:
                action = maya.Fragile(user)
            await self.move(interaction, table, action, Reply.PUBLIC)
            return
        await self.move(interaction, table, maya.Believe(user, None, aveugle), Reply.PANEL)

    @app_commands.command(name="soulever", description="Soulever le gobelet : vérifier l'annonce")
    @app_commands.guild_only()
    async def lift(self, interaction: discord.Interaction) -> None:
        here = self.tables.in_channel(interaction.channel_id or 0)
        if here is None:  # /soulever belongs to both games that lift
            raise TableError("no_table_lift", command="maya start", other="menteur start")
        menteur_cog = self.bot.get_cog("Menteur")
        if here.kind == "menteur" and menteur_cog is not None:
            await menteur_cog.challenge(interaction, here)  # type: ignore[attr-defined]
            return
        table = self._table_here(interaction)
        await self.move(interaction, table, maya.Lift(interaction.user.id), Reply.PUBLIC)

    @app_commands.command(
        name="faute", description="Accuser un joueur de faute de jeu (vote de la table)"
    )
    @app_commands.guild_only()
    @app_commands.describe(joueur="Le joueur accusé", motif="Le motif de l'accusation")
    async def fault(
        self,
        interaction: discord.Interaction,
        joueur: discord.User,
        motif: app_commands.Range[str, 1, 200],
    ) -> None:
        table = self._table_here(interaction)
        answers.expect_public(interaction)
        try:
            async with table.lock:
                if table.state is None:
                    raise TableError("not_started")
                wait = self.tables.cooldown_left(table, interaction.user.id)
                if wait > 0:
                    raise TableError("rate_limited", seconds=max(1, round(wait)))
                motive = free_text(motif, limit=maya.MAX_MOTIVE)
                events = await self.tables.act(
                    table, maya.Accuse(interaction.user.id, joueur.id, motive)
                )
                table.accused_at[interaction.user.id] = time.monotonic()
                fault_id = events[0].data["fault"]
                fault = table.state.fault(fault_id)
                assert fault is not None
                message = await self._post_accusation(
                    interaction, table, self.story(table, events), fault
                )
                if message is not None:
                    table.fault_messages[fault_id] = message.id
                    await self._guarded(
                        table, "store the accusation message", self.tables.save_meta(table)
                    )
        except Exception as error:
            await self.refuse(interaction, error, table)

    async def _post_accusation(
        self, interaction: discord.Interaction, table: Table, lines: list[str], fault: maya.Fault
    ) -> Any:
        """The accusation, with the accused's buttons: the command's answer if Discord still
        takes it, else a message in the channel (the accusation is stored either way)."""
        text = "\n".join(lines)[:2000]
        view = views.fault_view(table.id, fault, table.lang)
        pinged = discord.AllowedMentions(users=[discord.Object(fault.accused)])
        try:
            return await answers.reply(
                interaction, text, ephemeral=False, view=view, mentions=pinged
            )
        except discord.HTTPException:
            log.warning("table %s: the accusation's answer was refused", table.id, exc_info=True)
        try:
            return await self._channel(table).send(text, view=view, allowed_mentions=pinged)
        except discord.HTTPException:
            log.warning("table %s: could not post the accusation", table.id, exc_info=True)
            return None

    # ------------------------------------------------------------------ restart

    async def resume(self) -> None:
        """After a restart: every restored table says it is back, and its timers run again."""
        for table in list(self.tables.by_id.values()):
            if table.kind != "maya":
                continue
            async with table.lock:
                await self.tell(table, [t(table.lang, "note.back")])
                await self.refresh(table)
                if table.state is not None:
                    for fault in table.state.faults:
                        if fault.status == "voting":
                            # Reactions changed while the bot was away count as they stand.
                            await self._read_votes(table, fault.id)
                            await self._sync_votes(table, fault.id)
                            self.tables.arm_vote(table, fault.id, settle=self._sync_votes)
                self.tables.schedule(table)


def _announcement(player: int, text: str) -> maya.Action:
    cleaned = text.strip().lower()
    if cleaned in ("photo", "📸"):
        return maya.Photo(player)
    if cleaned in ("maya", "mia"):
        return maya.Announce(player, d.MAYA)
    # ASCII digits only: "²" or "①" are digits to ``str.isdigit`` but not to ``int``.
    digits = "".join(ch for ch in cleaned if ch in "0123456789")
    if len(digits) == 2:
        value = int(digits)
        # "26" and "62" are the same throw: the bot reads it the right way round.
        value = d.read((value // 10, value % 10)) if value // 10 and value % 10 else value
        if d.is_value(value):
            return maya.Announce(player, value)
    # Quote what the player typed, not the reordered number ("27" is not "72").
    raise maya.UnknownValue(value=text.strip()[:20])


def _component_action(action: str, user: int, value: str | None) -> maya.Action:
    if action == "roll":
        return maya.Roll(user)
    if action == "roll_blind":
        return maya.Roll(user, None, True)
    if action == "roll_reverse":
        return maya.Roll(user, None, False, True)
    if action == "believe":
        return maya.Believe(user)
    if action == "believe_blind":
        return maya.Believe(user, None, True)
    if action == "lift":
        return maya.Lift(user)
    if action == "fragile":
        return maya.Fragile(user)
    if action == "warrior":
        return maya.Warrior(user)
    if action == "accept_maya":
        return maya.AcceptMaya(user)
    if action in ("tap0", "tap1"):
        return maya.Tap(user, int(action[-1]))
    if action == "second_chance":
        return maya.SecondChance(user)
    if action == "announce" and value is not None:
        return _announcement(user, value)
    raise maya.NotNow(action=action)


async def setup(bot: Gobelet) -> None:
    await bot.add_cog(MayaCog(bot))
