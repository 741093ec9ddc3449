"""Yadès (and Yahtzee) on Discord: challenges, lobbies, the public turn message, the sheets.

Every handler is: check who and where -> lock the channel's table -> ``Tables.act``
(apply + persist) -> answer the interaction -> tell the channel, as in ``cogs.maya``.
Every roll is public (RULES.md §2): the dice are on the table message, with the hold
toggles, the re-roll button and the menu of open boxes. The held dice live only in the
buttons' custom ids (``hold{mask}_{die}``, ``reroll{mask}``), so a toggle needs no storage
and survives a restart.
"""

from __future__ import annotations

import asyncio
import io
import itertools
import logging
import random
import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot import yades_tables
from bot.games import yades as y
from bot.games.yades import cpu as cpu_yades
from bot.games.yades.metrics import YadesSetup, points_lost
from bot.i18n import t
from bot.kernel import dice as d
from bot.storage import StorageError
from bot.tables import CPU_LEVELS, Table, TableError, Tables
from cogs import answers, views, yades_picture
from cogs.errors import private_lang, public_lang, refuse, say_privately
from cogs.table_messages import TableMessages, display_name

if TYPE_CHECKING:
    from bot.client import Gobelet

log = logging.getLogger(__name__)

CHALLENGE_SECONDS = 300.0
CHALLENGE_PAUSE_SECONDS = 30.0  # between two challenges by the same member
MAX_STAKE = 1000
COLOUR = discord.Colour(0x2E86C1)
ALL_HELD = (1 << y.DICE) - 1


def faces(dice: Sequence[int]) -> str:
    return " ".join(f"{d.face(pip)}{pip}" for pip in dice)


def box_name(box_id: str, lang: str) -> str:
    key = f"y.box.{box_id}"
    try:
        return t(lang, key)
    except KeyError:
        return box_id.replace("_", " ")


def parse_keep(text: str, dice: Sequence[int]) -> tuple[int, ...]:
    """The positions named by "1 3 5" (positions 1..5) or by faces ("⚅⚅", values taken
    from the dice on the table, leftmost first)."""
    wanted_faces = [d.FACES.index(ch) + 1 for ch in text if ch in d.FACES]
    if wanted_faces:
        free = list(range(len(dice)))
        kept = []
        for pip in wanted_faces:
            spot = next((i for i in free if dice[i] == pip), None)
            if spot is None:
                raise y.InvalidKeep(keep=text)
            free.remove(spot)
            kept.append(spot)
        return tuple(sorted(kept))
    digits = [int(ch) for ch in text if ch in "0123456789"]  # "²" is no position
    if not digits or any(not 1 <= n <= y.DICE for n in digits) or len(set(digits)) != len(digits):
        raise y.InvalidKeep(keep=text)
    return tuple(sorted(n - 1 for n in digits))


def _mask(positions: Sequence[int]) -> int:
    return sum(1 << i for i in positions)


@dataclass(eq=False)
class Challenge:
    id: int
    guild_id: int
    channel_id: int
    challenger: int
    challenged: int
    preset: str
    mise: int
    lang: str
    created: datetime
    challenger_name: str | None = None
    message_id: int | None = None
    task: asyncio.Task[None] | None = None

    def expired(self, now: datetime) -> bool:
        return now - self.created > timedelta(seconds=CHALLENGE_SECONDS)


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
        item: discord.ui.Button[Any],
        match: re.Match[str],
    ) -> ChallengeButton:
        return cls(
            int(match["challenge"]), match["action"], label=item.label or "", style=item.style
        )

    async def callback(self, interaction: discord.Interaction) -> None:
        cog = interaction.client.get_cog("Yades")  # type: ignore[attr-defined]
        assert cog is not None
        await cog.on_challenge(interaction, self.challenge, self.action)  # type: ignore[attr-defined]


# Boxes a server may add to its sheet (the seed's "variantes"), by name.
EXTRA_BOXES: dict[str, y.Box] = {
    "paire": y.Box("paire", y.OF_A_KIND, count=2),  # two alike: the sum of the dice
    "suite_5": y.Box("suite_5", y.STRAIGHT, count=5, points=50),  # five in a row
}


def sheet_rules(settings: dict[str, Any], preset: str | None) -> y.Rules:
    """The sheet of a new table: the chosen preset, or the server's; the server's removed
    and added boxes apply to the server's own preset."""
    mine = settings.get("yades") or {}
    chosen = preset or mine.get("preset", y.YADES)
    if chosen != mine.get("preset", y.YADES):
        return y.Rules.for_preset(chosen)
    added = [EXTRA_BOXES[name] for name in mine.get("add", []) if name in EXTRA_BOXES]
    return y.Rules.for_preset(chosen, remove=mine.get("remove", []), add=added)


class YadesCog(TableMessages, commands.Cog, name="Yades"):
    yades_group = app_commands.Group(
        name="yades",
        description="Yadès : le duel à cinq dés et feuille de score",
        guild_only=True,
    )

    def __init__(self, bot: Gobelet) -> None:
        self.bot = bot
        self.tables: Tables = bot.tables
        self.tables.heralds["yades"] = self
        self.challenges: dict[int, Challenge] = {}
        self.held: dict[int, tuple[int, int]] = {}  # table -> (step, held dice) of its toggles
        self.last_challenge: dict[int, datetime] = {}  # challenger -> when they last challenged
        self._ids = itertools.count(1)
        self.loading: asyncio.Task[Any] | None = None

    async def cog_load(self) -> None:
        self.bot.add_components(ChallengeButton)

    async def cog_unload(self) -> None:
        self.bot.remove_components(ChallengeButton)
        for challenge in self.challenges.values():
            if challenge.task is not None:
                challenge.task.cancel()

    async def interaction_check(self, interaction: discord.Interaction) -> bool:  # type: ignore[override]
        if interaction.guild_id is None:
            raise app_commands.NoPrivateMessage()
        return True

    async def resume(self) -> None:
        """At start-up: load the expert's tables off the event loop, then bring back the
        restored Yadès tables."""
        await self.ready()
        for table in list(self.tables.by_id.values()):
            if table.kind != "yades":
                continue
            # A server's own sheet: its table is cached in data/, read it off the loop.
            await self._strategy_for(table.rules.rules)
            async with table.lock:
                await self.tell(table, [t(table.lang, "note.back")])
                held = await self._held_before(table)
                if table.state is not None:
                    self.held[table.id] = (table.state.step, held)
                await self.refresh(table, held=held)
                self.tables.schedule(table)

    async def _held_before(self, table: Table) -> int:
        """The dice held on the table message when the bot stopped: they live only in its
        buttons, so read them back there (if the buttons still belong to the current turn)."""
        if table.message_id is None or table.state is None:
            return 0
        try:
            message = await self._channel(table).fetch_message(table.message_id)
        except discord.HTTPException:
            return 0
        prefix = f"gob:{table.id}:{table.state.step}:reroll"
        for row in message.components:
            for item in getattr(row, "children", ()):
                custom_id = getattr(item, "custom_id", None) or ""
                if custom_id.startswith(prefix) and custom_id[len(prefix) :].isdigit():
                    return int(custom_id[len(prefix) :])
        return 0

    async def ready(self) -> None:
        """The expert CPU's tables are loaded (read from data/ in a worker thread)."""
        if self.loading is None:
            self.loading = asyncio.ensure_future(
                asyncio.to_thread(yades_tables.load_presets, self.cache_dir)
            )
        await asyncio.shield(self.loading)

    @property
    def cache_dir(self) -> Path:
        """Sheets the bot solves itself are cached beside its database (data/ by default)."""
        return self.bot.settings.database_path.parent

    async def _strategy_for(self, rules: y.Rules) -> None:
        await self.ready()
        await asyncio.to_thread(yades_tables.load, rules, self.cache_dir)

    # ------------------------------------------------------------------ helpers

    def _table_here(self, interaction: discord.Interaction) -> Table:
        table = self.tables.in_channel(interaction.channel_id or 0)
        if table is None:
            raise TableError("no_table", game="yades", command="yades start")
        if table.kind != "yades":
            raise TableError("table_busy", game=table.kind)
        return table

    def _preset_label(self, setup: YadesSetup, lang: str) -> str:
        label = t(lang, f"y.preset.{setup.rules.preset}")
        if setup.mise:
            label += " · " + t(lang, "y.stake", mise=setup.mise)
        return label

    def _embed(self, table: Table) -> discord.Embed:
        lang = table.lang
        setup: YadesSetup = table.rules
        embed = discord.Embed(title=f"🎲 Yadès — {self._preset_label(setup, lang)}", colour=COLOUR)
        state: y.State | None = table.state
        if state is None:
            seated = "\n".join(f"• {table.name(p)}" for p in table.players)
            embed.description = t(lang, "y.lobby", players=seated, max=y.MAX_PLAYERS)
            return embed
        lines = []
        for seat in state.seats:
            total = y.totals(state, seat.player).total
            filled = len(seat.boxes)
            gone = " 🚪" if seat.status != y.IN else ""
            lines.append(
                t(
                    lang,
                    "y.seat",
                    player=table.name(seat.player),
                    total=total,
                    filled=filled,
                    boxes=len(state.sheet.boxes),
                )
                + gone
            )
        if state.over:
            lines.append(t(lang, "y.over"))
        elif state.current is not None:
            lines.append("")
            lines.append(
                t(
                    lang,
                    "y.turn",
                    player=table.name(state.current),
                    roll=state.rolls,
                    rolls=y.MAX_ROLLS,
                )
            )
            if state.dice is not None:
                lines.append(t(lang, "y.dice", dice=faces(state.dice)))
            if table.deadline is not None and state.current not in table.cpus:
                lines.append(t(lang, "y.deadline", when=f"<t:{int(table.deadline)}:R>"))
        embed.description = "\n".join(lines)
        return embed

    def _view(self, table: Table, held: int = 0) -> discord.ui.View | None:
        state: y.State | None = table.state
        lang = table.lang
        if not table.running:
            return None
        if state is None:
            return views.lobby_view(table.id, lang)
        if state.over or state.current is None:
            return None
        view = discord.ui.View(timeout=None)
        step = state.step
        if state.rolls == 0:
            view.add_item(
                views.TableButton(
                    table.id,
                    step,
                    "roll",
                    label=t(lang, "y.btn.roll"),
                    style=discord.ButtonStyle.primary,
                )
            )
            return view
        assert state.dice is not None
        can_roll = state.rolls < y.MAX_ROLLS
        if can_roll:
            for i, pip in enumerate(state.dice):
                kept = bool(held >> i & 1)
                view.add_item(
                    views.TableButton(
                        table.id,
                        step,
                        f"hold{held}_{i}",
                        label=f"{d.face(pip)} {pip}" + (" 🔒" if kept else ""),
                        style=discord.ButtonStyle.success
                        if kept
                        else discord.ButtonStyle.secondary,
                        row=0,
                    )
                )
            button = views.TableButton(
                table.id,
                step,
                f"reroll{held}",
                label=t(lang, "y.btn.reroll", left=y.MAX_ROLLS - state.rolls),
                style=discord.ButtonStyle.primary,
                row=1,
            )
            button.item.disabled = held == ALL_HELD
            view.add_item(button)
        options = [
            discord.SelectOption(
                label=t(lang, "y.option", box=box_name(box, lang), points=points),
                value=box,
            )
            for box, points in y.scores(state, state.current).items()
        ]
        view.add_item(views.AnnounceSelect(table.id, step, options[:25], t(lang, "y.select")))
        return view

    async def refresh(self, table: Table, *, held: int = 0) -> None:
        """Redraw the public table message."""
        embed, view = self._embed(table), self._view(table, held)
        await self.draw_table(table, embed, view)

    def _lines(
        self, table: Table, events: Sequence[y.Event], notes: Sequence[Any] = ()
    ) -> list[str]:
        lang = table.lang
        lines = [t(lang, f"note.{key}", player=table.name(player)) for key, player in notes]
        for event in events:
            data = event.data
            name = table.name(data["player"]) if "player" in data else ""
            if event.type == "rolled":
                lines.append(
                    t(lang, "y.ev.rolled", player=name, roll=data["roll"], dice=faces(data["dice"]))
                )
            elif event.type == "scored":
                key = "y.ev.scratched" if data["scratched"] else "y.ev.scored"
                lines.append(
                    t(
                        lang,
                        key,
                        player=name,
                        box=box_name(data["box"], lang),
                        points=data["points"],
                        dice=faces(data["dice"]),
                    )
                )
            elif event.type == "bonus_earned":
                lines.append(
                    t(lang, f"y.ev.bonus_{data['bonus']}", player=name, points=data["points"])
                )
            elif event.type == "player_left":
                lines.append(t(lang, "ev.player_left", player=name))
            elif event.type in ("game_won", "game_ended"):
                lines.extend(self._final(table, event))
        return lines

    def _final(self, table: Table, event: y.Event) -> list[str]:
        lang = table.lang
        data = event.data
        lines = []
        if event.type == "game_ended":
            lines.append(t(lang, "ev.game_stopped"))
        elif data["winners"]:
            winners = ", ".join(table.name(p) for p in data["winners"])
            key = "y.ev.won" if len(data["winners"]) == 1 else "y.ev.tied"
            lines.append(t(lang, key, player=winners))
        for place, row in enumerate(data["ranking"], 1):
            lines.append(
                t(
                    lang,
                    "y.ev.rank",
                    place=place,
                    player=table.name(row["player"]),
                    total=row["total"],
                )
            )
        return lines

    async def _summary(self, table: Table) -> None:
        """After a finished game: each human's expected points lost against perfect play."""
        state: y.State | None = table.state
        if state is None or not state.over:
            return
        try:
            stored = await self.tables.repository.events(table.id)
        except StorageError:
            return
        logged = [y.EVENTS.build(e.type, e.payload, e.visibility, e.recipient) for e in stored]
        humans = [seat.player for seat in state.seats if seat.player not in table.cpus]
        lost = await asyncio.to_thread(points_lost, state, logged, humans)
        if not lost:
            return
        lines = [t(table.lang, "y.summary")]
        for player, points in lost.items():
            lines.append(
                t(table.lang, "y.summary_line", player=table.name(player), points=f"{points:.1f}")
            )
        await self.tell(table, lines)

    # ------------------------------------------------------------------ playing an action

    async def _act(
        self, table: Table, action: y.Action, *, name: str | None = None
    ) -> list[y.Event]:
        assert table.state is not None
        completed = y.complete(table.state, action, table.rng)
        return await self.tables.act(table, completed, name=name)

    async def _after_turn(self, table: Table) -> None:
        if table.state is not None and table.state.over:
            await self._summary(table)

    async def on_component(
        self,
        interaction: discord.Interaction,
        table_id: int,
        step: int,
        action: str,
        value: str | None,
    ) -> None:
        table = self.tables.get(table_id)
        if table is None:
            await say_privately(interaction, t(private_lang(interaction), "err.stale"))
            return
        user = interaction.user.id
        try:
            if action in ("join", "leave", "start"):
                await self.lobby(interaction, table, action, public=False)
            elif action == "roll":
                await self.play(interaction, table, y.Roll(user), step=step)
            elif action.startswith("hold"):
                held, die = (int(part) for part in action[4:].split("_"))
                self._check_held(table, held)
                await self._toggle(interaction, table, step, held ^ (1 << die))
            elif action.startswith("reroll"):
                held = int(action[6:])
                self._check_held(table, held)
                await self.play(interaction, table, y.Roll(user, y.kept_positions(held)), step=step)
            elif action == "announce" and value is not None:
                await self.play(interaction, table, y.Score(user, value), step=step)
            else:
                raise y.NotNow(action=action)
        except Exception as error:
            await refuse(interaction, error, table)

    async def _toggle(
        self, interaction: discord.Interaction, table: Table, step: int, held: int
    ) -> None:
        """Redraw the turn's buttons with another die held: only the player whose turn it is.
        The held dice are remembered for the turn, so that ``/yades lancer`` keeps them too."""
        state: y.State | None = table.state
        if state is None or not table.running or state.step != step:
            raise TableError("stale_turn")
        if interaction.user.id != state.current:
            seat = state.seat(interaction.user.id)
            if seat is None or seat.status != y.IN:
                raise y.UnknownPlayer(player=interaction.user.id)
            raise y.NotYourTurn(player=interaction.user.id, current=state.current)
        self.held = {k: v for k, v in self.held.items() if k in self.tables.by_id}
        self.held[table.id] = (step, held)
        await answers.update(interaction, view=self._view(table, held))

    def held_now(self, table: Table) -> int:
        """The dice held with the table's toggles on this turn (a mask of positions)."""
        step, held = self.held.get(table.id, (-1, 0))
        return held if table.state is not None and step == table.state.step else 0

    def _check_held(self, table: Table, held: int) -> None:
        """A toggle or a re-roll drawn with other dice held than the table holds now (a
        screen not yet redrawn after another toggle) is too late: it would undo that one."""
        if held != self.held_now(table):
            raise TableError("stale_turn")

    async def _start(self, table: Table) -> list[y.Event]:
        await self._strategy_for(table.rules.rules)
        return await self.tables.start(table)

    async def _open(
        self,
        interaction: discord.Interaction,
        *,
        preset: str | None,
        mise: int = 0,
        cpu: int = 0,
        level: str = "moyen",
        starter: int | None = None,
        starter_name: str | None = None,
        channel_id: int | None = None,
    ) -> Table:
        settings = await self.tables.repository.guild_settings(interaction.guild_id or 0)
        rules = sheet_rules(settings, preset)
        await self._strategy_for(rules)
        return await self.tables.open(
            guild_id=interaction.guild_id or 0,
            channel_id=channel_id or interaction.channel_id or 0,
            starter=starter or interaction.user.id,
            rules=YadesSetup(rules, mise),
            kind="yades",
            lang=settings.get("language") or public_lang(interaction),
            cpu_count=cpu,
            level=level if level in CPU_LEVELS else "moyen",
            turn_seconds=settings.get("turn_seconds"),
            starter_name=starter_name if starter is not None else display_name(interaction),
        )

    # ------------------------------------------------------------------ challenges

    async def on_challenge(
        self, interaction: discord.Interaction, challenge_id: int, action: str
    ) -> None:
        lang = private_lang(interaction)
        challenge = self.challenges.get(challenge_id)
        if challenge is None:
            await say_privately(interaction, t(lang, "y.challenge.gone"))
            return
        if challenge.message_id is None and interaction.message is not None:
            challenge.message_id = interaction.message.id  # clicked before we knew it
        if interaction.user.id != challenge.challenged:
            await say_privately(
                interaction,
                t(lang, "y.challenge.not_you", player=f"<@{challenge.challenged}>"),
            )
            return
        if challenge.expired(interaction.created_at):
            await self._expire(challenge)
            await say_privately(interaction, t(lang, "y.challenge.gone"))
            return
        self._forget_challenge(challenge)
        public = challenge.lang
        names = {
            "challenger": f"<@{challenge.challenger}>",
            "challenged": f"<@{challenge.challenged}>",
        }
        if action == "refuse":
            await answers.update(
                interaction, content=t(public, "y.challenge.refused", **names), view=None
            )
            return
        table: Table | None = None
        try:
            table = await self._open(
                interaction,
                preset=challenge.preset,
                mise=challenge.mise,
                starter=challenge.challenger,
                starter_name=challenge.challenger_name,
                channel_id=challenge.channel_id,
            )
            async with table.lock:
                name = display_name(interaction)
                await self.tables.join_lobby(table, challenge.challenged, name=name)
                events = await self._start(table)
                accepted = t(public, "y.challenge.accepted", **names)
                await self._guarded(
                    table,
                    "answer the challenge",
                    answers.update(interaction, content=accepted, view=None),
                )
                await self._begun(table, events)
        except Exception as error:
            await refuse(interaction, error, self.tables.in_channel(challenge.channel_id))
            if table is not None:
                await self._show_unstarted(table)

    async def _show_unstarted(self, table: Table) -> None:
        """A duel opened but not started (a failed write): its lobby is there to start it."""
        if table.running and table.state is None:
            await self._guarded(table, "draw the lobby", self.refresh(table))

    async def _begun(self, table: Table, events: Sequence[y.Event]) -> None:
        """A duel just started: tell it, draw the table, start the first turn."""
        await self._guarded(table, "tell the start", self.tell(table, self._started(table, events)))
        await self._guarded(table, "draw the table", self.refresh(table))
        self.tables.schedule(table)

    def _forget_challenge(self, challenge: Challenge) -> None:
        self.challenges.pop(challenge.id, None)
        if challenge.task is not None and challenge.task is not asyncio.current_task():
            challenge.task.cancel()

    async def _expire(self, challenge: Challenge) -> None:
        self._forget_challenge(challenge)
        if challenge.message_id is None:
            return
        channel = self.bot.get_partial_messageable(
            challenge.channel_id, guild_id=challenge.guild_id
        )
        text = t(
            challenge.lang,
            "y.challenge.expired",
            challenger=f"<@{challenge.challenger}>",
            challenged=f"<@{challenge.challenged}>",
        )
        try:
            await channel.get_partial_message(challenge.message_id).edit(content=text, view=None)
        except discord.HTTPException:
            log.warning("challenge %s: could not mark it expired", challenge.id, exc_info=True)

    async def _expire_later(self, challenge: Challenge) -> None:
        await asyncio.sleep(CHALLENGE_SECONDS)
        await self._expire(challenge)

    # ------------------------------------------------------------------ /yades …

    @yades_group.command(name="defi", description="Défier quelqu'un en duel de Yadès")
    @app_commands.describe(
        adversaire="La personne défiée (ou le bot, pour jouer contre le CPU)",
        preset="Les règles : yades ou classique (Yahtzee)",
        niveau="Niveau du CPU",
        mise="Points de classement mis en jeu (le gagnant les prend)",
        cpu="Jouer tout de suite contre le CPU",
    )
    @app_commands.choices(
        preset=[
            app_commands.Choice(name="Yadès", value=y.YADES),
            app_commands.Choice(name="classique (Yahtzee)", value=y.CLASSIQUE),
        ],
        niveau=[app_commands.Choice(name=level, value=level) for level in CPU_LEVELS],
    )
    async def challenge(
        self,
        interaction: discord.Interaction,
        adversaire: discord.User | None = None,
        preset: str | None = None,
        niveau: str = "difficile",
        mise: app_commands.Range[int, 0, 1000] = 0,
        cpu: bool = False,
    ) -> None:
        me = self.bot.user
        against_cpu = cpu or adversaire is None or (me is not None and adversaire.id == me.id)
        if against_cpu:
            answers.expect_public(interaction)
            table = await self._open(interaction, preset=preset, cpu=1, level=niveau)
            try:
                async with table.lock:
                    events = await self._start(table)
                    text = t(table.lang, "y.cpu_duel", player=table.name(interaction.user.id))
                    told = await self.after_move(interaction, table, [text], public=True)
                    await self._guarded(table, "tell the duel", self.tell(table, told))
                    await self._begun(table, events)
            except Exception:
                await self._show_unstarted(table)
                raise
            return
        answers.expect_public(interaction)
        assert adversaire is not None
        lang = private_lang(interaction)
        if adversaire.id == interaction.user.id or adversaire.bot:
            await say_privately(interaction, t(lang, "y.challenge.self"))
            return
        if not 0 <= mise <= MAX_STAKE:
            raise TableError("stake", most=MAX_STAKE)
        busy = self.tables.in_channel(interaction.channel_id or 0)
        if busy is not None:
            raise TableError("table_busy", game=busy.kind)
        self._check_challenge_pace(interaction.user.id, adversaire.id, interaction.created_at)
        settings = await self.tables.repository.guild_settings(interaction.guild_id or 0)
        public = settings.get("language") or public_lang(interaction)
        preset = sheet_rules(settings, preset).preset
        challenge = Challenge(
            id=next(self._ids),
            guild_id=interaction.guild_id or 0,
            channel_id=interaction.channel_id or 0,
            challenger=interaction.user.id,
            challenged=adversaire.id,
            preset=preset,
            mise=mise,
            lang=public,
            created=interaction.created_at,
            challenger_name=display_name(interaction),
        )
        view = discord.ui.View(timeout=None)
        view.add_item(ChallengeButton(challenge.id, "accept", label=t(public, "y.btn.accept"), style=discord.ButtonStyle.success))  # fmt: skip
        view.add_item(ChallengeButton(challenge.id, "refuse", label=t(public, "y.btn.refuse"), style=discord.ButtonStyle.danger))  # fmt: skip
        stake = t(public, "y.challenge.stake", mise=mise) if mise else ""
        # Known before the message exists: the challenged player may click at once.
        self.challenges[challenge.id] = challenge
        challenge.task = asyncio.create_task(self._expire_later(challenge))
        text = t(
            public,
            "y.challenge.text",
            challenger=f"<@{challenge.challenger}>",
            challenged=f"<@{challenge.challenged}>",
            preset=t(public, f"y.preset.{preset}"),
            stake=stake,
            minutes=int(CHALLENGE_SECONDS // 60),
        )
        pinged = discord.AllowedMentions(users=[adversaire])
        message = await answers.reply(
            interaction, text, ephemeral=False, view=view, mentions=pinged
        )
        challenge.message_id = message.id

    def _check_challenge_pace(self, challenger: int, challenged: int, now: datetime) -> None:
        """One pending challenge per pair, and a pause between a member's challenges, so
        that nobody can be pinged again and again."""
        for pending in self.challenges.values():
            pair = (pending.challenger, pending.challenged)
            if pair == (challenger, challenged) and not pending.expired(now):
                until = pending.created + timedelta(seconds=CHALLENGE_SECONDS)
                raise TableError(
                    "challenge_pending",
                    player=f"<@{challenged}>",
                    until=f"<t:{int(until.timestamp())}:R>",
                )
        pause = timedelta(seconds=CHALLENGE_PAUSE_SECONDS)
        self.last_challenge = {k: v for k, v in self.last_challenge.items() if now - v < pause}
        last = self.last_challenge.get(challenger)
        if last is not None:
            wait = CHALLENGE_PAUSE_SECONDS - (now - last).total_seconds()
            if wait > 0:
                raise TableError("challenge_pause", seconds=max(1, round(wait)))
        self.last_challenge[challenger] = now

    @yades_group.command(name="start", description="Ouvrir une table de Yadès dans ce salon")
    @app_commands.describe(
        preset="Les règles : yades ou classique (Yahtzee)",
        cpu="Nombre de joueurs CPU à la table",
        niveau="Niveau des joueurs CPU",
    )
    @app_commands.choices(
        preset=[
            app_commands.Choice(name="Yadès", value=y.YADES),
            app_commands.Choice(name="classique (Yahtzee)", value=y.CLASSIQUE),
        ],
        niveau=[app_commands.Choice(name=level, value=level) for level in CPU_LEVELS],
    )
    async def start(
        self,
        interaction: discord.Interaction,
        preset: str | None = None,
        cpu: app_commands.Range[int, 0, 5] = 0,
        niveau: str = "moyen",
    ) -> None:
        answers.expect_public(interaction)
        table = await self._open(interaction, preset=preset, cpu=cpu, level=niveau)
        text = t(
            table.lang,
            "note.table_opened",
            player=table.name(interaction.user.id),
            game="Yadès",
            preset=self._preset_label(table.rules, table.lang),
        )
        await self.opened(interaction, table, text)

    @yades_group.command(name="rejoindre", description="Rejoindre la table de ce salon")
    async def join(self, interaction: discord.Interaction) -> None:
        await self.lobby(interaction, self._table_here(interaction), "join", public=True)

    @yades_group.command(
        name="commencer", description="Lancer la partie (celui ou celle qui a ouvert la table)"
    )
    async def begin(self, interaction: discord.Interaction) -> None:
        table = self._table_here(interaction)
        if interaction.user.id != table.starter:
            raise TableError("not_starter", starter=table.starter)
        await self.lobby(interaction, table, "start", public=True)

    @yades_group.command(name="lancer", description="Lancer les dés (ou relancer ceux non gardés)")
    async def roll(self, interaction: discord.Interaction) -> None:
        table = self._table_here(interaction)
        # The dice held with the table's toggles stay held whatever way the roll is asked for
        # (on the decision they were held for: a roll meanwhile makes this one too late).
        keep = y.kept_positions(self.held_now(table))
        step = table.state.step if table.state is not None else None
        roll = y.Roll(interaction.user.id, keep)
        await self.play(interaction, table, roll, step=step, public=True)

    @yades_group.command(name="garder", description="Garder des dés et relancer les autres")
    @app_commands.describe(des="Les dés gardés : positions (1 3 5) ou faces (⚅⚅)")
    async def keep(self, interaction: discord.Interaction, des: str) -> None:
        table = self._table_here(interaction)
        state: y.State | None = table.state
        if state is None or state.dice is None:
            raise y.NotRolled()
        keep = parse_keep(des, state.dice)
        await self.play(interaction, table, y.Roll(interaction.user.id, keep), public=True)

    @yades_group.command(name="marquer", description="Remplir une case de ta feuille")
    @app_commands.describe(case="La case à remplir")
    async def score(self, interaction: discord.Interaction, case: str) -> None:
        table = self._table_here(interaction)
        await self.play(interaction, table, y.Score(interaction.user.id, case.strip()), public=True)

    @score.autocomplete("case")
    async def open_boxes(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        table = self.tables.in_channel(interaction.channel_id or 0)
        if table is None or table.kind != "yades" or table.state is None:
            return []
        lang = private_lang(interaction)
        try:
            scores = y.scores(table.state, interaction.user.id)
        except y.GameError:
            return []
        typed = current.strip().lower()
        choices = [
            app_commands.Choice(
                name=t(lang, "y.option", box=box_name(box, lang), points=points), value=box
            )
            for box, points in scores.items()
        ]
        return [c for c in choices if typed in c.name.lower() or typed in c.value][:25]

    @yades_group.command(name="feuille", description="Voir les feuilles de score")
    async def sheet(self, interaction: discord.Interaction) -> None:
        table = await self._sheet_table(interaction)
        state: y.State | None = table.state
        if state is None:
            raise TableError("not_started")
        lang = private_lang(interaction)
        picture = await self._picture(state, sheet_names(table, state, interaction, lang), lang)
        embed = sheet_embed(state, table, lang)
        if picture is None:
            await answers.reply(interaction, ephemeral=True, embed=embed)
            return
        embed.set_image(url="attachment://feuille.png")
        image = discord.File(io.BytesIO(picture), "feuille.png")
        await answers.reply(interaction, ephemeral=True, embed=embed, file=image)

    async def _sheet_table(self, interaction: discord.Interaction) -> Table:
        """The channel's Yadès table, or once it is over, the last one played here."""
        here = self.tables.in_channel(interaction.channel_id or 0)
        if here is not None and here.kind == "yades" and here.state is not None:
            return here
        record = await self.tables.repository.last_ended_game(
            interaction.guild_id or 0, interaction.channel_id or 0, "yades"
        )
        if record is not None:
            return Table.from_record(record, random.Random())
        if here is not None:
            return self._table_here(interaction)  # its lobby, or another game: say which
        raise TableError("no_table", game="yades", command="yades start")

    async def _picture(self, state: y.State, names: dict[int, str], lang: str) -> bytes | None:
        """The sheet as a picture (None if drawing it failed: the embed still tells it all)."""
        try:
            return await asyncio.to_thread(yades_picture.sheet_picture, state, names, lang)
        except Exception:
            log.warning("the sheet picture failed", exc_info=True)
            return None

    @yades_group.command(name="conseil", description="Le meilleur choix maintenant (en privé)")
    async def advice(self, interaction: discord.Interaction) -> None:
        table = self._table_here(interaction)
        lang = private_lang(interaction)
        state: y.State | None = table.state
        if state is None:
            raise TableError("not_started")
        player = interaction.user.id
        if state.seat(player) is None:
            raise y.UnknownPlayer(player=player)
        if state.current != player:
            raise y.NotYourTurn(player=player, current=state.current)
        await self._strategy_for(state.rules)
        options = await asyncio.to_thread(cpu_yades.advice, y.view(state, player))
        lines = [t(lang, "y.advice.title", total=f"{options[0].expected_total:.1f}")]
        for option in options[:10]:
            lines.append(
                t(
                    lang,
                    "y.advice.line",
                    choice=describe(option.action, state, lang),
                    total=f"{option.expected_total:.1f}",
                    loss=f"{option.loss:.1f}",
                )
            )
        await answers.reply(interaction, "\n".join(lines)[:2000], ephemeral=True)

    @yades_group.command(
        name="stop",
        description="Arrêter la partie (celui ou celle qui l'a ouverte, ou « Gérer le serveur »)",
    )
    async def stop(self, interaction: discord.Interaction) -> None:
        await self.stop_table(interaction, self._table_here(interaction))

    @yades_group.command(name="abandon", description="Abandonner la partie")
    async def give_up(self, interaction: discord.Interaction) -> None:
        table = self._table_here(interaction)
        if table.state is None:
            await self.lobby(interaction, table, "leave", public=True)
            return
        await self.play(interaction, table, y.Leave(interaction.user.id), public=True)


def describe(action: y.Action, state: y.State, lang: str) -> str:
    """An advised choice in words: the dice to keep before a re-roll, or the box to fill."""
    if isinstance(action, y.Score):
        assert state.dice is not None and state.current is not None
        points = y.scores(state, state.current).get(action.box, 0)
        return t(lang, "y.advice.score", box=box_name(action.box, lang), points=points)
    if isinstance(action, y.Roll):
        kept = y.kept_positions(action.keep)
        if state.dice is None:
            return t(lang, "y.advice.roll")
        if not kept:
            return t(lang, "y.advice.roll_all")
        return t(lang, "y.advice.keep", dice=faces([state.dice[i] for i in kept]))
    return type(action).__name__


def sheet_names(
    table: Table, state: y.State, interaction: discord.Interaction, lang: str
) -> dict[int, str]:
    """The column headers of the sheet picture, where a mention cannot be drawn: the CPU's
    name, the name a player joined with, the asker's own, else the player's seat."""
    names: dict[int, str] = {}
    for number, seat in enumerate(state.seats, 1):
        name = table.display_name(seat.player)
        if name is None and seat.player == interaction.user.id:
            name = interaction.user.display_name
        names[seat.player] = name or t(lang, "y.sheet.player", n=number)
    return names


def sheet_embed(state: y.State, table: Table, lang: str) -> discord.Embed:
    """Every player's sheet, one field each."""
    embed = discord.Embed(title=t(lang, "y.sheet.title"), colour=COLOUR)
    for seat in state.seats:
        rows = []
        for box in state.sheet.boxes:
            value = seat.boxes.get(box.id)
            shown = "·" if value is None else ("✗" if value == 0 else str(value))
            rows.append(f"{box_name(box.id, lang)}: {shown}")
        totals = y.totals(state, seat.player)
        progress = y.bonus_progress(state, seat.player)
        rows.append(
            t(
                lang,
                "y.sheet.bonus",
                upper=progress.upper,
                target=progress.target,
            )
        )
        rows.append(t(lang, "y.sheet.total", total=totals.total))
        name = table.cpus[seat.player].name + " 🤖" if table.is_cpu(seat.player) else None
        title = name or t(lang, "y.sheet.player", n=state.seats.index(seat) + 1)
        embed.add_field(name=title, value=f"<@{seat.player}>\n" * (name is None) + "\n".join(rows))
    return embed


async def setup(bot: Gobelet) -> None:
    await bot.add_cog(YadesCog(bot))
