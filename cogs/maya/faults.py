"""*Fautes de jeu* on Discord (docs/rules.md#maya-faute): the accusation message and its
buttons, the vote by reactions, the vote's close.

A voter's vote is their reaction as it stands: ✅ or ❌, changed or taken back. ``marks``
keeps each voter's vote reactions in the order they were added, so that with both on the
message the later one counts (the bot removes the earlier one when it may) and taking the
later one back leaves the earlier one.
"""

from __future__ import annotations

import logging
import re
import time
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import discord

from bot import pacing
from bot.games import maya
from bot.games.maya import events as ev
from bot.i18n import t
from bot.interactions import answers, permissions
from bot.interactions.answers import reply
from bot.interactions.refusals import private_lang, refuse
from bot.interactions.shared import shared
from bot.storage import StorageError, Timer
from bot.table import Table, TableError
from cogs.maya.render import accusation_line
from cogs.table.channel import drawing, guarded
from cogs.table.components import label_of, style_of
from cogs.table.free_text import free_text
from cogs.table.hooks import Hook, Route, route_of

if TYPE_CHECKING:
    from bot.table import TableRunner
    from cogs.table.controller import TableController

log = logging.getLogger(__name__)

VOTE_GUILTY = "✅"
VOTE_INNOCENT = "❌"
# What the bot's own ✅ ❌ under an accusation need of its channel (discord.Permissions' names).
VOTE_REACTIONS = ("add_reactions", "read_message_history")
VOTE = "vote"  # the kind of a vote's timer: ``vote:{table}:{fault}``
VOTE_SECONDS = 60.0
COOLDOWN_SECONDS = 30.0  # between two accusations by the same member
# What changes an accusation's message: its buttons, its vote's tally, its verdict.
CHANGES = (
    ev.FaultAccepted,
    ev.FaultContested,
    ev.VoteCast,
    ev.VoteWithdrawn,
    ev.FaultJudged,
    ev.FaultAppealed,
    ev.FaultDropped,
)


class Faults:
    """The accusations of every Maya table (owned by the Maya cog)."""

    def __init__(self, controller: TableController) -> None:
        self.controller = controller
        self.channel = controller.channel
        self.marks: dict[tuple[int, int], dict[int, list[str]]] = {}
        self.accused_at: dict[tuple[int, int], float] = {}  # (table, accuser) -> monotonic
        # How each accusation message is edited through an interaction's webhook (outside
        # the bot token's global limit): the /faute that posted it, or a click answered on
        # it (``clicked``, while its move is played).
        self.routes: dict[tuple[int, int], Route] = {}
        self.clicked: dict[tuple[int, int], discord.Interaction] = {}
        self.shown: dict[tuple[int, int], bytes] = {}  # a digest of each message as edited
        # Channels where the bot may not take others' reactions off (no Manage Messages), as
        # the latest interaction there said, or a refusal: it does not try there.
        self.unmanaged: set[int] = set()
        # Channels where the bot may not react (``VOTE_REACTIONS``), as the latest
        # interaction there said: its ✅ ❌ are neither put nor taken off there.
        self.unreactive: set[int] = set()

    @property
    def tables(self) -> TableRunner:
        return self.controller.tables

    def _messages(self, table: Table) -> dict[str, int]:
        """The table's accusation messages by fault id, stored with its messages."""
        found: dict[str, int] = self.channel.post(table).kept.setdefault("faults", {})
        return found

    # ------------------------------------------------------------------ accusing

    def cooldown_left(self, table: Table, accuser: int) -> float:
        last = self.accused_at.get((table.id, accuser))
        if last is None:
            return 0.0
        return max(0.0, COOLDOWN_SECONDS - (time.monotonic() - last))

    async def accuse(
        self, interaction: discord.Interaction, table: Table, accused: int, motive: str
    ) -> None:
        """``/faute``: the accusation is stored, then posted with the accused's buttons."""
        answers.expect_public(interaction)
        self._may_manage(interaction)
        try:
            async with table.lock:
                if not table.started:
                    raise TableError("not_started")
                accuser = interaction.user.id
                wait = self.cooldown_left(table, accuser)
                if wait > 0:
                    raise TableError("rate_limited", seconds=max(1, round(wait)))
                text = free_text(motive, limit=maya.MAX_MOTIVE)
                events = await self.tables.act(table, maya.Accuse(accuser, accused, text))
                self.accused_at = {
                    k: v for k, v in self.accused_at.items() if k[0] in self.tables.by_id
                }
                self.accused_at[(table.id, accuser)] = time.monotonic()
                raised = next(e for e in events if isinstance(e, ev.FaultRaised))
                fault = table.view().fault(raised.fault)
                assert fault is not None
                message = await self._post_accusation(
                    interaction, table, self.controller.story(table, events), fault
                )
                if message is not None:
                    self._messages(table)[str(fault.id)] = message.id
                    if answers.answered(interaction):
                        route = route_of(Hook.of(interaction), message)
                        if route is not None:
                            self._keep_route(table, fault.id, route)
                    await guarded(table, "store the accusation message", self.channel.save(table))
        except Exception as error:
            await refuse(interaction, error, table)

    async def _post_accusation(
        self,
        interaction: discord.Interaction,
        table: Table,
        lines: list[str],
        fault: maya.FaultView,
    ) -> Any:
        """The accusation, with the accused's buttons: the command's answer if Discord still
        takes it, else a message in the channel (the accusation is stored either way)."""
        text = "\n".join(lines)[:2000]
        view = fault_view(table.id, fault, table.lang)
        nobody = discord.AllowedMentions.none()
        try:
            message = await answers.reply(
                interaction, text, ephemeral=False, view=view, mentions=nobody
            )
            self.channel.seen_below(table, message.id)
            return message
        except discord.HTTPException:
            log.warning("table %s: the accusation's answer was refused", table.id, exc_info=True)
        try:
            if view is None:
                return await self.channel.post_below(table, text)
            return await self.channel.post_below(table, text, view=view)
        except discord.HTTPException:
            log.warning("table %s: could not post the accusation", table.id, exc_info=True)
            return None

    def accusation(self, table: Table, fault: maya.FaultView) -> str:
        """The accusation message: who accuses whom of what, and where its vote stands."""
        names, lang = table.name, table.lang
        lines = [accusation_line(fault.accuser, fault.accused, fault.motive, names, lang)]
        if fault.status == maya.FaultStatus.VOTING:
            timer = self.tables.clock.get(vote_key(table.id, fault.id))
            closing = timer.due if timer is not None else self.tables.clock.now() + VOTE_SECONDS
            lines.append(
                t(
                    table.lang,
                    "fault.vote_here",
                    closes=f"<t:{int(closing)}:R>",
                    votes=len(fault.guilty_votes) + len(fault.innocent_votes),
                    voters=len(fault.voters),
                )
            )
        return "\n".join(lines)[:2000]

    async def on_component(
        self, interaction: discord.Interaction, table: Table, fault_id: int, action: str
    ) -> None:
        """The accused accepts or contests; the one found guilty appeals."""
        self._may_manage(interaction)
        user = interaction.user.id
        built: maya.Action
        if action == "accept":
            built = maya.AcceptFault(user, fault_id)
        elif action == "contest":
            built = maya.ContestFault(user, fault_id)
        else:
            built = maya.Appeal(user, fault_id)
        key = (table.id, fault_id)
        self.clicked[key] = interaction
        try:
            await self.controller.play(interaction, table, built)
        finally:
            if self.clicked.get(key) is interaction:
                del self.clicked[key]

    # ------------------------------------------------------------------ keeping messages in step

    def deadlines(self, table: Table, events: Sequence[Any]) -> dict[str, Timer | None]:
        """A contested fault's vote closes in ``VOTE_SECONDS``, its timer stored with the
        contest; a fault judged or dropped needs it no more (``bot.table.Deadlines``)."""
        changes: dict[str, Timer | None] = {}
        for event in events:
            if isinstance(event, ev.FaultContested):
                changes[vote_key(table.id, event.fault)] = self.vote_timer(table, event.fault)
            elif isinstance(event, ev.FaultJudged | ev.FaultDropped):
                changes[vote_key(table.id, event.fault)] = None
        return changes

    def vote_timer(self, table: Table, fault_id: int) -> Timer:
        due = self.tables.clock.now() + VOTE_SECONDS
        payload = {"table": table.id, "fault": fault_id}
        return Timer(vote_key(table.id, fault_id), due, table.guild_id, payload)

    async def follow(self, table: Table, events: Sequence[maya.Event]) -> None:
        """Keep accusation messages in step with their faults."""
        for event in events:
            if not isinstance(event, CHANGES):
                continue
            await self._refresh(table, event.fault)
            if isinstance(event, ev.FaultContested):
                await self._open_vote(table, event.fault)
            if isinstance(event, ev.FaultJudged):
                await self._vote_closed(table, event.fault)

    async def _refresh(self, table: Table, fault_id: int) -> None:
        message_id = self._messages(table).get(str(fault_id))
        if message_id is None or not table.started:
            return
        fault = table.view().fault(fault_id)
        view = fault_view(table.id, fault, table.lang) if fault is not None else None
        edit: dict[str, Any] = {"view": view}
        if fault is not None:
            edit["content"] = self.accusation(table, fault)
        key = (table.id, fault_id)
        shown = drawing(edit.get("content", ""), None, view)
        if self.shown.get(key) == shown:
            return  # as it is already
        clicked = self.clicked.get(key)
        if clicked is not None and answers.updated_on(clicked) == message_id:
            self._keep_route(table, fault_id, Route(Hook.of(clicked)))
        try:
            route = await self.channel.edit(table, message_id, self.routes.get(key), **edit)
            if route is None:
                self.routes.pop(key, None)
            self.shown[key] = shown
        except discord.HTTPException:
            log.info("table %s: accusation message %s could not be edited", table.id, message_id)

    def _keep_route(self, table: Table, fault_id: int, route: Route) -> None:
        """Keep ``route`` to a fault's message, and only the routes still of use."""
        running = self.tables.by_id
        self.routes = {
            key: kept for key, kept in self.routes.items() if key[0] in running and kept.hook.alive
        }
        self.routes[(table.id, fault_id)] = route
        self.shown = {key: kept for key, kept in self.shown.items() if key[0] in running}

    def _cannot_react(self, table: Table, fault_id: int) -> list[str]:
        """What the bot lacks to react in the table's channel (``VOTE_REACTIONS``): as the
        click that opened the vote says, else the latest interaction there, else as the
        bot's cache knows the channel."""
        clicked = self.clicked.get((table.id, fault_id))
        if clicked is not None and clicked.channel_id == table.channel_id:
            return permissions.lacking(clicked, VOTE_REACTIONS)
        if table.channel_id in self.unreactive:
            return list(VOTE_REACTIONS)
        guild = self.channel.bot.get_guild(table.guild_id)
        place = guild.get_channel_or_thread(table.channel_id) if guild is not None else None
        if guild is None or place is None:
            return list(VOTE_REACTIONS)
        granted = place.permissions_for(guild.me)
        return [name for name in VOTE_REACTIONS if not getattr(granted, name)]

    async def _open_vote(self, table: Table, fault_id: int) -> None:
        message_id = self._messages(table).get(str(fault_id))
        if message_id is None:
            return
        if self._cannot_react(table, fault_id):
            # The vote goes on by the voters' own reactions; whoever opened it is told why.
            clicked = self.clicked.get((table.id, fault_id))
            if clicked is not None:
                await permissions.tell_lacking(clicked, VOTE_REACTIONS, "perm.vote")
            log.info("table %s: no vote reactions of the bot's, it may not react", table.id)
            return
        message = self.channel.of(table).get_partial_message(message_id)
        try:
            await message.add_reaction(VOTE_GUILTY)
            await message.add_reaction(VOTE_INNOCENT)
        except discord.HTTPException:
            log.warning("table %s: could not add the vote reactions", table.id)

    async def close_vote(self, table: Table, payload: dict[str, Any]) -> maya.Action | None:
        """A vote's time is up (``bot.table.Decision``): the reactions count as they stand
        then. Nothing to close once the fault is no longer voted on."""
        fault_id = payload["fault"]
        try:
            await self.sync_votes(table, fault_id)
        except Exception:
            log.exception("table %s: could not settle the votes", table.id)
        fault = table.view().fault(fault_id)
        if fault is None or fault.status != maya.FaultStatus.VOTING:
            return None
        return maya.CloseVote(fault_id)

    async def _vote_closed(self, table: Table, fault_id: int) -> None:
        """The verdict is in: the bot takes its own ✅ ❌ off, so the counts shown are the
        votes counted."""
        self.marks.pop((table.id, fault_id), None)
        message_id = self._messages(table).get(str(fault_id))
        bot_user = self.channel.bot.user
        if message_id is None or bot_user is None or self._cannot_react(table, fault_id):
            return  # (where it may not react, it put none)
        message = self.channel.of(table).get_partial_message(message_id)
        for emoji in (VOTE_GUILTY, VOTE_INNOCENT):
            try:
                await message.remove_reaction(emoji, bot_user)
            except discord.HTTPException:
                log.info("table %s: could not take the bot's vote reaction off", table.id)

    # ------------------------------------------------------------------ reactions (the votes)

    async def on_reaction(self, payload: discord.RawReactionActionEvent, *, added: bool) -> None:
        bot_user = self.channel.bot.user
        if bot_user is not None and payload.user_id == bot_user.id:
            return
        emoji = str(payload.emoji)
        if emoji not in (VOTE_GUILTY, VOTE_INNOCENT):
            return
        table = self.tables.in_channel(payload.channel_id)
        if table is None or not table.started or table.kind != self.controller.game:
            return
        fault_id = next(
            (int(f) for f, m in self._messages(table).items() if m == payload.message_id), None
        )
        if fault_id is None:
            return
        remove: list[tuple[str, int]] = []  # reactions to take off, once the lock is free
        async with table.lock:
            if not table.running or not table.started:
                return
            fault = table.view().fault(fault_id)
            if fault is None or fault.status != maya.FaultStatus.VOTING:
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
                await self.sync_votes(table, fault_id)
        for reaction, user in remove:
            await self._remove_reaction(table, fault_id, reaction, user)

    def _may_manage(self, interaction: discord.Interaction) -> None:
        """What an interaction says of the bot's rights to react, and to take reactions off, in
        its channel."""
        channel = interaction.channel_id or 0
        if interaction.app_permissions.manage_messages:
            self.unmanaged.discard(channel)
        else:
            self.unmanaged.add(channel)
        if permissions.lacking(interaction, VOTE_REACTIONS):
            self.unreactive.add(channel)
        else:
            self.unreactive.discard(channel)

    async def _remove_reaction(self, table: Table, fault_id: int, emoji: str, user: int) -> None:
        """Take back a reaction that is no vote, or a voter's earlier one, so that the message
        shows the votes that count. It needs Manage Messages: without it the reaction stays
        (the votes count all the same), and the bot does not try again in that channel. It
        waits behind what people wait on, at the channel's pace for reactions."""
        if table.channel_id in self.unmanaged:
            return
        message = self.channel.of(table).get_partial_message(self._messages(table)[str(fault_id)])
        try:
            with pacing.background():
                await message.remove_reaction(emoji, discord.Object(user))
        except discord.Forbidden:
            self.unmanaged.add(table.channel_id)
            log.info("table %s: no Manage Messages, reactions that are no vote stay", table.id)
        except discord.HTTPException:
            log.info("table %s: could not remove an earlier vote reaction", table.id)

    async def sync_votes(self, table: Table, fault_id: int) -> None:
        """Bring the stored votes in line with the voters' reactions. The caller holds the lock."""
        marks = self.marks.get((table.id, fault_id), {})
        for voter, emojis in list(marks.items()):
            fault = table.view().fault(fault_id) if table.started else None
            if fault is None or fault.status != maya.FaultStatus.VOTING:
                return  # judged (the last vote closes it)
            if voter not in fault.voters:
                continue
            wanted = (emojis[-1] == VOTE_GUILTY) if emojis else None
            if wanted == fault.vote_of(voter):
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
            await self.controller.publish(table, events)

    async def _read_votes(self, table: Table, fault_id: int) -> None:
        """After a restart: each voter's vote reactions, read back from the message."""
        message_id = self._messages(table).get(str(fault_id))
        if message_id is None:
            return
        try:
            message = await self.channel.of(table).fetch_message(message_id)
            marks: dict[int, list[str]] = {}
            for reaction in message.reactions:
                if str(reaction.emoji) not in (VOTE_GUILTY, VOTE_INNOCENT):
                    continue
                async for user in reaction.users():
                    marks.setdefault(user.id, []).append(str(reaction.emoji))
        except discord.HTTPException:
            log.warning("table %s: could not read the vote reactions", table.id)
            return
        fault = table.view().fault(fault_id) if table.started else None
        if fault is None:
            return
        for voter in fault.voters:  # a voter without a reaction now has no vote
            if not table.is_cpu(voter):
                marks.setdefault(voter, [])
        for voter, emojis in marks.items():
            if len(emojis) > 1:  # both: the order they came in is lost, the stored one counts
                counted = VOTE_GUILTY if fault.vote_of(voter) else VOTE_INNOCENT
                emojis.sort(key=lambda emoji: emoji == counted)
        self.marks[(table.id, fault_id)] = marks

    async def resume(self, table: Table) -> None:
        """After a restart: reactions changed while the bot was away count as they stand,
        and each vote closes at its time (one stored by the previous release, without a
        timer, a whole vote from now, as that release did)."""
        for fault in table.view().faults:
            if fault.status == maya.FaultStatus.VOTING:
                await self._read_votes(table, fault.id)
                await self.sync_votes(table, fault.id)
                if self._unclocked(table, fault.id):
                    await self.tables.clock.set(self.vote_timer(table, fault.id))
                await self._refresh(table, fault.id)

    def _unclocked(self, table: Table, fault_id: int) -> bool:
        """The fault is still voted on, and its vote has no timer."""
        fault = table.view().fault(fault_id)
        voting = fault is not None and fault.status == maya.FaultStatus.VOTING
        return voting and self.tables.clock.get(vote_key(table.id, fault_id)) is None


def vote_key(table_id: int, fault_id: int) -> str:
    return f"{VOTE}:{table_id}:{fault_id}"


class FaultButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"gobf:(?P<table>\d+):(?P<fault>\d+):(?P<action>accept|contest|appeal)",
):
    def __init__(
        self, table: int, fault: int, action: str, *, label: str, style: discord.ButtonStyle
    ):
        super().__init__(
            discord.ui.Button(label=label, style=style, custom_id=f"gobf:{table}:{fault}:{action}")
        )
        self.table = table
        self.fault = fault
        self.action = action

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> FaultButton:
        return cls(
            int(match["table"]),
            int(match["fault"]),
            match["action"],
            label=label_of(item),
            style=style_of(item),
        )

    async def callback(self, interaction: discord.Interaction) -> None:
        bot = shared(interaction.client)
        faults = bot.service(Faults) if bot is not None else None
        table = bot.tables.get(self.table) if bot is not None else None
        if faults is None or table is None:
            await reply(interaction, t(private_lang(interaction), "err.stale"), ephemeral=True)
            return
        await faults.on_component(interaction, table, self.fault, self.action)


def fault_view(table_id: int, fault: maya.FaultView, lang: str) -> discord.ui.View | None:
    """The accused's buttons (accept, contest), then the guilty's (appeal)."""
    view = discord.ui.View(timeout=None)
    if fault.status == maya.FaultStatus.PENDING:
        view.add_item(FaultButton(table_id, fault.id, "accept", label=t(lang, "btn.fault_accept"), style=discord.ButtonStyle.secondary))  # fmt: skip
        view.add_item(FaultButton(table_id, fault.id, "contest", label=t(lang, "btn.fault_contest"), style=discord.ButtonStyle.danger))  # fmt: skip
    elif fault.status == maya.FaultStatus.GUILTY:
        view.add_item(FaultButton(table_id, fault.id, "appeal", label=t(lang, "btn.fault_appeal"), style=discord.ButtonStyle.primary))  # fmt: skip
    else:
        return None
    return view
