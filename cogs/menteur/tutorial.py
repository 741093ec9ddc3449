"""``/menteur tutoriel``: a solo game against CPUs, in ephemeral messages only, with the odds
of the bid to beat (given your dice and what the others bid), why, and the expert's advice
at every turn.

The game is kept in its timer's payload (``tutorial:{server}:{user}``: the process of the
server's shard runs it), stored before each answer: after a restart its buttons play on.
A tutorial left alone for ``TUTORIAL_SECONDS`` is over.
"""

from __future__ import annotations

import asyncio
import functools
import random
import re
import weakref
from collections.abc import Sequence
from typing import Any

import discord

from bot.games import menteur as lm
from bot.games.menteur.spec import SPEC
from bot.i18n import t
from bot.interactions import answers
from bot.interactions.refusals import private_lang, refuse, say_privately
from bot.interactions.shared import shared
from bot.kernel.levels import DIFFICILE
from bot.storage import Timer
from bot.table import TableError
from bot.table.clock import Clock
from bot.table.solo import SoloGame
from cogs.menteur.render import bid_options, bid_text, decode, event_lines, faces, hint_lines
from cogs.table.components import label_of, options_of

HISTORY_LINES = 30  # the story lines a tutorial message keeps
TUTORIAL = "tutorial"  # the kind of a tutorial's timer
TUTORIAL_SECONDS = 3600.0  # from its last move


def _name(game: SoloGame, lang: str, player: int) -> str:
    return f"**{game.cpus[player]}** 🤖" if player in game.cpus else t(lang, "m.you")


class Tutorials:
    """Every member's tutorial game (one each), owned by the menteur cog."""

    def __init__(self, clock: Clock) -> None:
        self.clock = clock
        # One move at a time per member (two clicks at once must not both play).
        self.locks: weakref.WeakValueDictionary[int, asyncio.Lock] = weakref.WeakValueDictionary()

    async def start(
        self, interaction: discord.Interaction, cpus: dict[int, str], level: str
    ) -> None:
        user = interaction.user.id
        lang = private_lang(interaction)
        game = SoloGame.new(SPEC, user, cpus, lm.Rules.for_preset(), level)
        lines = [t(lang, "m.tuto.welcome"), *self._lines(game, lang, game.advance())]
        async with self._lock(user):
            try:
                await self._keep(game, lang, interaction.guild_id)
            except Exception as error:
                await refuse(interaction, error)
                return
            await self._answer(interaction, game, lang, lines)

    def _lock(self, user: int) -> asyncio.Lock:
        lock = self.locks.get(user)
        if lock is None:
            lock = self.locks[user] = asyncio.Lock()
        return lock

    def _found(self, guild_id: int | None, user: int) -> tuple[SoloGame, str] | None:
        """The member's tutorial in this server and its language, as last stored."""
        timer = self.clock.get(_key(guild_id, user))
        if timer is None:
            return None
        return SoloGame.restore(SPEC, timer.payload["game"]), timer.payload["lang"]

    async def _keep(self, game: SoloGame, lang: str, guild_id: int | None) -> None:
        """Store the game as it stands, for ``TUTORIAL_SECONDS`` more; a game over is gone."""
        key = _key(guild_id, game.user)
        if game.over:
            await self.clock.cancel(key)
            return
        payload = {"game": game.snapshot(), "lang": lang}
        await self.clock.set(Timer(key, self.clock.now() + TUTORIAL_SECONDS, guild_id, payload))

    def _lines(self, game: SoloGame, lang: str, events: Sequence[Any]) -> list[str]:
        return event_lines(events, lang, lambda player: _name(game, lang, player), you=game.user)

    def _message(
        self, game: SoloGame, lang: str, lines: list[str]
    ) -> tuple[str, discord.ui.View | None]:
        body = list(lines[-HISTORY_LINES:])
        if game.over:
            key = "m.tuto.won" if game.view().winner == game.user else "m.tuto.lost"
            body.append(t(lang, key))
            return "\n".join(body)[:2000], None
        view: lm.View = game.view(game.user)
        counts = ", ".join(
            f"{_name(game, lang, seat.player)} {seat.dice}🎲"
            for seat in view.seats
            if seat.status == lm.IN
        )
        body.append(t(lang, "m.tuto.counts", counts=counts))
        mine = view.my_dice or ()
        body.append(t(lang, "m.your_dice", dice=faces(mine), count=len(mine)))
        if view.bid is not None and view.bidder is not None:
            bidder = _name(game, lang, view.bidder)
            body.append(t(lang, "m.current_bid", bid=bid_text(*view.bid, lang), player=bidder))
        advised = game.advice(DIFFICILE, random.Random(game.step))
        names = functools.partial(_name, game, lang)
        body.append("💡 " + " ".join(hint_lines(view, advised, lang, names)))
        return "\n".join(body)[-2000:], self._components(game, lang)

    def _components(self, game: SoloGame, lang: str) -> discord.ui.View:
        """The tutorial's select of raises and its *dudo* button."""
        legal = game.legal(game.user)
        view = discord.ui.View(timeout=None)
        view.add_item(
            TutorialSelect(game.user, game.step, bid_options(legal, lang), t(lang, "m.select"))
        )
        if any(isinstance(action, lm.Challenge) for action in legal):
            view.add_item(TutorialDudo(game.user, game.step, label=t(lang, "m.btn.dudo")))
        return view

    async def _answer(
        self, interaction: discord.Interaction, game: SoloGame, lang: str, lines: list[str]
    ) -> None:
        text, components = self._message(game, lang, lines)
        await answers.reply(interaction, text, ephemeral=True, view=components)

    async def bid(self, interaction: discord.Interaction, value: str, step: int) -> None:
        try:
            quantity, face = decode(value)
        except lm.GameError as error:
            await refuse(interaction, error)
            return
        await self.act(interaction, lm.Bid(interaction.user.id, quantity, face), step)

    async def act(self, interaction: discord.Interaction, action: lm.Action, step: int) -> None:
        async with self._lock(interaction.user.id):
            found = self._found(interaction.guild_id, interaction.user.id)
            if found is None:  # finished, or left alone too long
                await say_privately(interaction, t(private_lang(interaction), "m.tuto.gone"))
                return
            game, lang = found
            if step != game.step:  # a component of an earlier message
                await refuse(interaction, TableError("stale_turn"))
                return
            try:
                events = game.play(action)
                await self._keep(game, lang, interaction.guild_id)
            except Exception as error:  # refused, or not stored: the tutorial is as it was
                await refuse(interaction, error)
                return
            await self._answer(interaction, game, lang, self._lines(game, lang, events))


async def _tutorials(interaction: discord.Interaction) -> Tutorials | None:
    """The tutorials, or (the menteur cog not loaded) the click answered that it is over."""
    bot = shared(interaction.client)
    tutorials = bot.service(Tutorials) if bot is not None else None
    if tutorials is None:
        await say_privately(interaction, t(private_lang(interaction), "err.stale"))
    return tutorials


class TutorialSelect(
    discord.ui.DynamicItem[discord.ui.Select[Any]],
    template=r"gobtuto:(?P<user>\d+):(?P<step>\d+):bid",
):
    """The tutorial's raises. A dynamic item, so that one from before a restart still plays
    (the tutorial is stored in its timer)."""

    def __init__(
        self, user: int, step: int, options: list[discord.SelectOption], placeholder: str
    ) -> None:
        super().__init__(
            discord.ui.Select(
                custom_id=f"gobtuto:{user}:{step}:bid",
                options=options or [discord.SelectOption(label="—", value="none")],
                placeholder=placeholder,
                disabled=not options,
            )
        )
        self.user, self.step = user, step

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> TutorialSelect:
        return cls(int(match["user"]), int(match["step"]), options_of(item), "")

    async def callback(self, interaction: discord.Interaction) -> None:
        value = self.item.values[0] if self.item.values else ""
        tutorials = await _tutorials(interaction)
        if tutorials is not None:
            await tutorials.bid(interaction, value, self.step)


class TutorialDudo(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"gobtuto:(?P<user>\d+):(?P<step>\d+):dudo",
):
    def __init__(self, user: int, step: int, *, label: str) -> None:
        super().__init__(
            discord.ui.Button(
                label=label,
                style=discord.ButtonStyle.danger,
                custom_id=f"gobtuto:{user}:{step}:dudo",
            )
        )
        self.user, self.step = user, step

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> TutorialDudo:
        return cls(int(match["user"]), int(match["step"]), label=label_of(item))

    async def callback(self, interaction: discord.Interaction) -> None:
        tutorials = await _tutorials(interaction)
        if tutorials is not None:
            await tutorials.act(interaction, lm.Challenge(interaction.user.id), self.step)


def _key(guild_id: int | None, user: int) -> str:
    """One tutorial per member and server: each server's process (its shard's) keeps its own."""
    return f"{TUTORIAL}:{guild_id or 0}:{user}"
