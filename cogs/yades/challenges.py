"""``/yades defi``: a challenge posted with Accept and Refuse buttons for the one challenged,
which opens and starts the duel when accepted, and expires after five minutes.

A pending challenge lives in its timer's payload (``challenge:{id}``, due when it expires):
after a restart its buttons still answer, and it still expires at its time."""

from __future__ import annotations

import asyncio
import dataclasses
import logging
import re
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Any

import discord

from bot.games.yades.metrics import YadesSetup
from bot.i18n import t
from bot.interactions import answers, permissions
from bot.interactions.refusals import private_lang, public_lang, refuse, say_privately
from bot.interactions.shared import shared
from bot.storage import Timer
from bot.table import Table, TableError
from bot.table.clock import Clock
from cogs.table.channel import display_name, guarded
from cogs.table.components import label_of, style_of
from cogs.yades.expert import sheet_rules

if TYPE_CHECKING:
    from cogs.table.controller import TableController
    from cogs.yades.expert import Expert

log = logging.getLogger(__name__)

CHALLENGE = "challenge"  # the kind of a challenge's timer
CHALLENGE_SECONDS = 300.0
CHALLENGE_PAUSE_SECONDS = 30.0  # between two challenges by the same member
MAX_STAKE = 1000
MESSAGES_SEARCHED = 50  # the channel's latest messages, to find a challenge's own


@dataclass(frozen=True, slots=True)
class Challenge:
    id: int  # the interaction that posted it: unique, whatever the restarts
    guild_id: int
    channel_id: int
    challenger: int
    challenged: int
    preset: str
    mise: int
    lang: str
    created: float  # Unix time
    challenger_name: str | None = None
    message_id: int | None = None

    @property
    def key(self) -> str:
        return f"{CHALLENGE}:{self.id}"

    @property
    def until(self) -> float:
        return self.created + CHALLENGE_SECONDS

    def expired(self, now: datetime) -> bool:
        return now.timestamp() > self.until

    def timer(self) -> Timer:
        return Timer(self.key, self.until, self.guild_id, dataclasses.asdict(self))

    @classmethod
    def of(cls, timer: Timer) -> Challenge:
        return cls(**timer.payload)

    @property
    def names(self) -> dict[str, str]:
        return {"challenger": f"<@{self.challenger}>", "challenged": f"<@{self.challenged}>"}


class ChallengeButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"gobdefi:(?P<challenge>\d+):(?P<action>accept|refuse)",
):
    def __init__(
        self, challenge: int, action: str, *, label: str, style: discord.ButtonStyle
    ) -> None:
        super().__init__(
            discord.ui.Button(label=label, style=style, custom_id=f"gobdefi:{challenge}:{action}")
        )
        self.challenge = challenge
        self.action = action

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction,
        item: discord.ui.Item[Any],
        match: re.Match[str],
    ) -> ChallengeButton:
        return cls(
            int(match["challenge"]), match["action"], label=label_of(item), style=style_of(item)
        )

    async def callback(self, interaction: discord.Interaction) -> None:
        bot = shared(interaction.client)
        challenges = bot.service(Challenges) if bot is not None else None
        if challenges is None:
            lang = private_lang(interaction)
            await say_privately(interaction, t(lang, "y.challenge.gone"))
            return
        await challenges.answer(interaction, self.challenge, self.action)


class Challenges:
    """The pending challenges, each in its timer (``Challenge.timer``)."""

    def __init__(self, controller: TableController, expert: Expert) -> None:
        self.controller = controller
        self.expert = expert
        self.last: dict[int, datetime] = {}  # challenger -> when they last challenged
        self.answering = asyncio.Lock()  # one answer per challenge, even clicked twice at once

    @property
    def clock(self) -> Clock:
        return self.controller.tables.clock

    def find(self, challenge_id: int) -> Challenge | None:
        timer = self.clock.get(f"{CHALLENGE}:{challenge_id}")
        return Challenge.of(timer) if timer is not None else None

    async def post(
        self,
        interaction: discord.Interaction,
        challenged: discord.User | discord.Member,
        preset: str | None,
        mise: int,
    ) -> None:
        """Post the challenge, pinging the one challenged (it waits for their answer)."""
        answers.expect_public(interaction)
        if challenged.id == interaction.user.id or challenged.bot:
            await say_privately(interaction, t(private_lang(interaction), "y.challenge.self"))
            return
        if not 0 <= mise <= MAX_STAKE:
            raise TableError("stake", most=MAX_STAKE)
        permissions.check_playable(interaction)  # no duel is offered where none can be played
        busy = self.controller.tables.in_channel(interaction.channel_id or 0)
        if busy is not None:
            raise TableError("table_busy", game=busy.kind)
        self._check_pace(interaction.user.id, challenged.id, interaction.created_at)
        settings = await self.controller.tables.repository.guild_settings(interaction.guild_id or 0)
        public = settings.get("language") or public_lang(interaction)
        chosen = sheet_rules(settings, preset).preset
        challenge = Challenge(
            id=interaction.id,
            guild_id=interaction.guild_id or 0,
            channel_id=interaction.channel_id or 0,
            challenger=interaction.user.id,
            challenged=challenged.id,
            preset=chosen,
            mise=mise,
            lang=public,
            created=interaction.created_at.timestamp(),
            challenger_name=display_name(interaction),
        )
        view = discord.ui.View(timeout=None)
        view.add_item(ChallengeButton(challenge.id, "accept", label=t(public, "y.btn.accept"), style=discord.ButtonStyle.success))  # fmt: skip
        view.add_item(ChallengeButton(challenge.id, "refuse", label=t(public, "y.btn.refuse"), style=discord.ButtonStyle.danger))  # fmt: skip
        stake = t(public, "y.challenge.stake", mise=mise) if mise else ""
        # Stored before the message exists: the challenged player may click at once.
        await self.clock.set(challenge.timer())
        text = t(
            public,
            "y.challenge.text",
            **challenge.names,
            preset=t(public, f"y.preset.{chosen}"),
            stake=stake,
            minutes=int(CHALLENGE_SECONDS // 60),
        )
        pinged = discord.AllowedMentions(users=[challenged])
        message = await answers.reply(
            interaction, text, ephemeral=False, view=view, mentions=pinged
        )
        await self._noted(challenge, message.id)

    async def _noted(self, challenge: Challenge, message_id: int) -> None:
        """The challenge's message is known: kept with it, so that its expiry edits it."""
        if self.clock.get(challenge.key) is None:
            return  # answered already
        try:
            await self.clock.set(dataclasses.replace(challenge, message_id=message_id).timer())
        except Exception:
            log.warning("challenge %s: its message could not be stored", challenge.id)

    def _check_pace(self, challenger: int, challenged: int, now: datetime) -> None:
        """One pending challenge per pair, and a pause between a member's challenges, so
        that nobody can be pinged again and again."""
        for timer in self.clock.pending(CHALLENGE):
            pending = Challenge.of(timer)
            pair = (pending.challenger, pending.challenged)
            if pair == (challenger, challenged) and not pending.expired(now):
                raise TableError(
                    "challenge_pending",
                    player=f"<@{challenged}>",
                    until=f"<t:{int(pending.until)}:R>",
                )
        pause = CHALLENGE_PAUSE_SECONDS
        self.last = {k: v for k, v in self.last.items() if (now - v).total_seconds() < pause}
        last = self.last.get(challenger)
        if last is not None:
            wait = CHALLENGE_PAUSE_SECONDS - (now - last).total_seconds()
            if wait > 0:
                raise TableError("challenge_pause", seconds=max(1, round(wait)))
        self.last[challenger] = now

    async def answer(
        self, interaction: discord.Interaction, challenge_id: int, action: str
    ) -> None:
        """The one challenged accepts (the duel starts at once) or refuses."""
        lang = private_lang(interaction)
        async with self.answering:
            challenge = self.find(challenge_id)
            if challenge is None:
                await say_privately(interaction, t(lang, "y.challenge.gone"))
                return
            if challenge.message_id is None and interaction.message is not None:
                # Clicked before its message was known.
                challenge = dataclasses.replace(challenge, message_id=interaction.message.id)
            if interaction.user.id != challenge.challenged:
                await say_privately(
                    interaction,
                    t(lang, "y.challenge.not_you", player=f"<@{challenge.challenged}>"),
                )
                return
            if action == "accept":
                try:
                    permissions.check_playable(interaction)
                except TableError as error:
                    # The bot can no longer play here: the challenge waits, to be accepted
                    # once it can (or to expire).
                    await refuse(interaction, error)
                    return
            try:
                await self.clock.cancel(challenge.key)  # answered: it expires no more
            except Exception as error:
                await refuse(interaction, error)
                return
        if challenge.expired(interaction.created_at):
            await self._mark_expired(challenge)
            await say_privately(interaction, t(lang, "y.challenge.gone"))
            return
        if action == "refuse":
            text = t(challenge.lang, "y.challenge.refused", **challenge.names)
            await answers.update(interaction, content=text, view=None)
            return
        await self._accept(interaction, challenge)

    async def _accept(self, interaction: discord.Interaction, challenge: Challenge) -> None:
        controller = self.controller
        table: Table | None = None
        try:
            settings = await controller.tables.repository.guild_settings(interaction.guild_id or 0)
            rules = sheet_rules(settings, challenge.preset)
            await self.expert.load(rules)
            table = await controller.open(
                interaction,
                YadesSetup(rules, challenge.mise),
                settings,
                starter=challenge.challenger,
                starter_name=challenge.challenger_name,
                channel_id=challenge.channel_id,
            )
            async with table.lock:
                name = display_name(interaction)
                await controller.tables.join_lobby(table, challenge.challenged, name=name)
                events = await controller.start(table)
                accepted = t(challenge.lang, "y.challenge.accepted", **challenge.names)
                await guarded(
                    table,
                    "answer the challenge",
                    answers.update(interaction, content=accepted, view=None),
                )
                await controller.begun(table, events, actor=interaction.user.id)
        except Exception as error:
            await refuse(interaction, error, controller.tables.in_channel(challenge.channel_id))
            if table is not None:
                await controller.show_unstarted(table)

    async def expire(self, timer: Timer) -> None:
        """A challenge's time is up (the clock's handler): its message says it expired.
        Nothing happens once it was answered; saying it again is harmless. The challenge is
        taken from the clock under the answers' lock, so that an answer clicked at the last
        second and the expiry never both go through (an accepted duel said expired)."""
        async with self.answering:
            if self.clock.get(timer.key) is not timer:
                return
            await self.clock.cancel(timer.key)
        await self._mark_expired(Challenge.of(timer))

    async def _mark_expired(self, challenge: Challenge) -> None:
        channel = self.controller.channel.bot.get_partial_messageable(
            challenge.channel_id, guild_id=challenge.guild_id
        )
        text = t(challenge.lang, "y.challenge.expired", **challenge.names)
        try:
            message_id = challenge.message_id or await self._message_of(challenge, channel)
            if message_id is None:
                return
            await channel.get_partial_message(message_id).edit(content=text, view=None)
        except discord.HTTPException:
            log.warning("challenge %s: could not mark it expired", challenge.id, exc_info=True)

    async def _message_of(
        self, challenge: Challenge, channel: discord.PartialMessageable
    ) -> int | None:
        """The challenge's message when its id was never stored (the bot stopped just after
        posting it): the latest message of the channel that carries its buttons."""
        accept = f"gobdefi:{challenge.id}:accept"
        async for message in channel.history(limit=MESSAGES_SEARCHED):
            for row in message.components:
                children = getattr(row, "children", ())
                if any(getattr(item, "custom_id", None) == accept for item in children):
                    return message.id
        return None
