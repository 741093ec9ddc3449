"""Dés du menteur (Liar's dice) on Discord: lobby, the public table, private dice, bids.

Every handler is: check who and where -> lock the channel's table -> ``Tables.act``
(apply + persist) -> answer the interaction -> tell the channel, as in ``cogs.yades``.
The public table shows only dice *counts* and the round's bids; each player sees their
own dice ephemerally (``/menteur des`` or the "Mes dés" button), with a select of legal
raises. All hands are shown only at the reveal of a challenge (RULES.md §3, §4).

The opener's roll is not a decision: the cog rolls everyone's dice as soon as a round is
to start. ``/menteur tutoriel`` is a solo game kept in memory, all in ephemeral messages.
"""

from __future__ import annotations

import logging
import random
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.games import menteur as lm
from bot.games.menteur import cpu as cpu_menteur
from bot.i18n import t
from bot.kernel import dice as d
from bot.kernel.levels import DIFFICILE
from bot.tables import CPU_LEVELS, CPU_NAMES, Table, TableError, Tables
from cogs import answers, views
from cogs.errors import private_lang, public_lang, refuse, say_privately
from cogs.table_messages import TableMessages, display_name

if TYPE_CHECKING:
    from bot.client import Gobelet

log = logging.getLogger(__name__)

COLOUR = discord.Colour(0x8E44AD)
MAX_OPTIONS = 25
EXTRA_PER_FACE = 3  # bids offered above the smallest raise on each face


def faces(dice: Sequence[int]) -> str:
    return " ".join(f"{d.face(pip)}{pip}" for pip in dice)


def bid_text(quantity: int, face: int) -> str:
    """A bid in words, without die glyphs (glyphs in public messages mean revealed dice)."""
    return f"{quantity} × {face}"


def raise_options(bid: lm.BidValue | None, jokers: bool, total: int) -> list[tuple[int, int]]:
    """The smallest legal raise per face and a few above, at most 25, by (quantity, face)."""
    found: set[tuple[int, int]] = set()
    for quantity, face in lm.raises(bid, jokers, total):
        for q in range(quantity, min(total, quantity + EXTRA_PER_FACE) + 1):
            found.add((q, face))
    ordered = sorted(found)
    return ordered[:MAX_OPTIONS]


def encode(quantity: int, face: int) -> str:
    return f"{quantity}_{face}"


def decode(value: str) -> tuple[int, int]:
    """A bid picked in a menu (``"3_5"``); anything else is refused as an unknown bid."""
    quantity, sep, face = value.partition("_")
    if not (
        sep and quantity.isascii() and quantity.isdigit() and face.isascii() and face.isdigit()
    ):
        raise lm.InvalidBid(reason="unreadable")
    return int(quantity), int(face)


def hint_lines(view: lm.View, lang: str, rng: random.Random) -> list[str]:
    """The chance that the current bid holds given ``view``'s dice, and the advised move."""
    lines = []
    if view.bid is not None and view.my_dice is not None:
        quantity, face = view.bid
        mine = lm.count([view.my_dice], face, view.rules.jokers)
        chance = lm.probability_at_least(view.unknown, quantity - mine, face, view.rules.jokers)
        lines.append(
            t(lang, "m.hint.chance", bid=bid_text(quantity, face), percent=f"{chance:.0%}")
        )
    state_actions = _view_actions(view)
    if state_actions:
        advised = cpu_menteur.choose(view, state_actions, DIFFICILE, rng)
        if isinstance(advised, lm.Bid):
            lines.append(t(lang, "m.hint.bid", bid=bid_text(advised.quantity, advised.face)))
        elif isinstance(advised, lm.Challenge):
            lines.append(t(lang, "m.hint.challenge"))
    return lines


def _view_actions(view: lm.View) -> list[lm.Action]:
    """The turn actions of ``view.player`` rebuilt from the view (its turn, bidding)."""
    if view.current != view.player or view.phase != lm.BID:
        return []
    total = view.dice_in_play
    actions: list[lm.Action] = []
    for quantity, face in lm.raises(view.bid, view.rules.jokers, total):
        actions.extend(lm.Bid(view.player, q, face) for q in range(quantity, total + 1))
    if view.bid is not None:
        actions.append(lm.Challenge(view.player))
    return actions


@dataclass
class Tutorial:
    """A solo game against CPUs, in memory only (never stored, never on a leaderboard)."""

    user: int
    lang: str
    state: lm.State
    cpus: dict[int, str]
    level: str
    rng: random.Random = field(default_factory=random.Random)

    def name(self, player: int) -> str:
        return f"**{self.cpus[player]}** 🤖" if player in self.cpus else t(self.lang, "m.you")


class MenteurCog(TableMessages, commands.Cog, name="Menteur"):
    menteur_group = app_commands.Group(
        name="menteur",
        description="Dés du menteur : annonces, bluff et dudo",
        guild_only=True,
    )

    def __init__(self, bot: Gobelet) -> None:
        self.bot = bot
        self.tables: Tables = bot.tables
        self.tables.heralds["menteur"] = self
        self.tutorials: dict[int, Tutorial] = {}

    async def cog_load(self) -> None:
        self.bot.add_components(TutorialSelect, TutorialDudo)

    async def cog_unload(self) -> None:
        self.bot.remove_components(TutorialSelect, TutorialDudo)

    async def interaction_check(self, interaction: discord.Interaction) -> bool:  # type: ignore[override]
        if interaction.guild_id is None:
            raise app_commands.NoPrivateMessage()
        return True

    async def resume(self) -> None:
        """After a restart: every restored table says it is back, and its timers run again."""
        for table in list(self.tables.by_id.values()):
            if table.kind != "menteur":
                continue
            async with table.lock:
                lines = [t(table.lang, "note.back")]
                try:  # stored by a version that dealt a round in a write of its own
                    lines += self.story(table, await self.tables.settle(table))
                except Exception:
                    log.warning("table %s: could not deal after the restart", table.id)
                await self.tell(table, lines)
                await self.refresh(table)
                self.tables.schedule(table)

    # ------------------------------------------------------------------ helpers

    def table_here(self, interaction: discord.Interaction) -> Table:
        table = self.tables.in_channel(interaction.channel_id or 0)
        if table is None:
            raise TableError("no_table", game="menteur", command="menteur start")
        if table.kind != "menteur":
            raise TableError("table_busy", game=table.kind)
        return table

    def _rules_label(self, rules: lm.Rules, lang: str) -> str:
        key = "m.rules_jokers" if rules.jokers else "m.rules_plain"
        return t(lang, key, dice=rules.dice)

    def _embed(self, table: Table) -> discord.Embed:
        lang = table.lang
        rules: lm.Rules = table.rules
        embed = discord.Embed(
            title=f"🎲 {t(lang, 'game.menteur')} — {self._rules_label(rules, lang)}",
            colour=COLOUR,
        )
        state: lm.State | None = table.state
        if state is None:
            embed.description = t(
                lang, "m.lobby", players=", ".join(map(table.name, table.players))
            )
            return embed
        rows = []
        for seat in state.seats:
            mark = "👉 " if seat.player == state.current else ""
            if seat.status == lm.IN:
                count = "🎲" * seat.dice + f" ({seat.dice})"
            elif seat.status == lm.OUT:
                count = t(lang, "m.out")
            else:
                count = t(lang, "m.left")
            rows.append(f"{mark}{table.name(seat.player)} : {count}")
        embed.add_field(name=t(lang, "m.players"), value="\n".join(rows)[:1024], inline=False)
        if state.history:
            bids = [f"{table.name(p)} : **{bid_text(q, f)}**" for p, q, f in state.history[-12:]]
            embed.add_field(
                name=t(lang, "m.bids", round=state.round),
                value="\n".join(bids)[:1024],
                inline=False,
            )
        if state.over:
            if state.winner is not None:
                embed.set_footer(text=t(lang, "m.footer_won"))
        elif state.current is not None:
            embed.add_field(
                name=t(lang, "m.turn"),
                value=t(
                    lang,
                    "m.turn_line",
                    player=table.name(state.current),
                    total=lm.dice_in_play(state),
                ),
                inline=False,
            )
        return embed

    def _view(self, table: Table) -> discord.ui.View | None:
        state: lm.State | None = table.state
        lang = table.lang
        if not table.running:
            return None
        if state is None:
            return views.lobby_view(table.id, lang)
        if state.over or state.current is None:
            return None
        view = discord.ui.View(timeout=None)
        step = state.step
        view.add_item(
            views.TableButton(
                table.id, step, "dice", label=t(lang, "btn.dice"), style=discord.ButtonStyle.primary
            )
        )
        if state.phase == lm.BID and state.bid is not None:
            view.add_item(
                views.TableButton(
                    table.id,
                    step,
                    "dudo",
                    label=t(lang, "m.btn.dudo"),
                    style=discord.ButtonStyle.danger,
                )
            )
        return view

    async def refresh(self, table: Table) -> None:
        """Redraw the public table message."""
        embed, view = self._embed(table), self._view(table)
        await self.draw_table(table, embed, view)

    def _lines(
        self, table: Table, events: Sequence[lm.Event], notes: Sequence[Any] = ()
    ) -> list[str]:
        lang = table.lang
        lines = [t(lang, f"note.{key}", player=table.name(player)) for key, player in notes]
        lines += event_lines(events, lang, table.name)
        return lines

    # ------------------------------------------------------------------ playing an action

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
            elif action == "dice":
                await self.show_dice(interaction, table)
            elif action == "dudo":
                await self.play(interaction, table, lm.Challenge(user), step=step)
            elif action == "announce":
                quantity, face = decode(value or "")
                await self.play(interaction, table, lm.Bid(user, quantity, face), step=step)
            else:
                raise lm.NotNow(action=action)
        except Exception as error:
            await refuse(interaction, error, table)

    async def show_dice(self, interaction: discord.Interaction, table: Table) -> None:
        """The player's own dice, ephemeral, with the select of legal raises on their turn."""
        state: lm.State | None = table.state
        user = interaction.user.id
        lang = private_lang(interaction)
        if state is None:
            raise TableError("not_started")
        seat = state.seat(user)
        if seat is None or seat.status != lm.IN:
            raise lm.UnknownPlayer(player=user)
        lines = [
            t(lang, "m.your_dice", dice=faces(seat.hand) if seat.hand else "—", count=seat.dice)
        ]
        if state.bid is not None and state.bidder is not None:
            lines.append(
                t(lang, "m.current_bid", bid=bid_text(*state.bid), player=table.name(state.bidder))
            )
        view = None
        if state.current == user and state.phase == lm.BID:
            options = [
                discord.SelectOption(label=bid_text(q, f), value=encode(q, f))
                for q, f in raise_options(state.bid, state.rules.jokers, lm.dice_in_play(state))
            ]
            view = discord.ui.View(timeout=None)
            view.add_item(views.AnnounceSelect(table.id, state.step, options, t(lang, "m.select")))
            if state.bid is not None:
                view.add_item(
                    views.TableButton(
                        table.id,
                        state.step,
                        "dudo",
                        label=t(lang, "m.btn.dudo"),
                        style=discord.ButtonStyle.danger,
                    )
                )
        await answers.reply(interaction, "\n".join(lines)[:2000], ephemeral=True, view=view)

    # ------------------------------------------------------------------ commands

    @menteur_group.command(
        name="start", description="Ouvrir une table de dés du menteur dans ce salon"
    )
    @app_commands.describe(
        des="Dés de départ par joueur (3, 4 ou 5)",
        jokers="Les 1 comptent pour toutes les faces (paco)",
        cpu="Nombre de joueurs CPU à la table",
        niveau="Niveau des joueurs CPU",
    )
    @app_commands.choices(
        des=[app_commands.Choice(name=str(n), value=n) for n in lm.STARTING_DICE],
        niveau=[app_commands.Choice(name=level, value=level) for level in CPU_LEVELS],
    )
    async def start(
        self,
        interaction: discord.Interaction,
        des: int = 5,
        jokers: bool = True,
        cpu: app_commands.Range[int, 0, 5] = 0,
        niveau: str = "moyen",
    ) -> None:
        answers.expect_public(interaction)
        settings = await self.tables.repository.guild_settings(interaction.guild_id or 0)
        rules = lm.Rules.for_preset(dice=des, jokers=jokers)
        table = await self.tables.open(
            guild_id=interaction.guild_id or 0,
            channel_id=interaction.channel_id or 0,
            starter=interaction.user.id,
            rules=rules,
            kind="menteur",
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
            game=t(table.lang, "game.menteur"),
            preset=self._rules_label(rules, table.lang),
        )
        await self.opened(interaction, table, text)

    @menteur_group.command(name="rejoindre", description="Rejoindre la table de ce salon")
    async def join(self, interaction: discord.Interaction) -> None:
        await self.lobby(interaction, self.table_here(interaction), "join", public=True)

    @menteur_group.command(name="quitter", description="Quitter la table de ce salon")
    async def leave(self, interaction: discord.Interaction) -> None:
        table = self.table_here(interaction)
        if table.state is not None:
            # In a game: your dice leave with you (the round starts again if it was yours).
            await self.play(interaction, table, lm.Leave(interaction.user.id), public=True)
            return
        await self.lobby(interaction, table, "leave", public=True)

    @menteur_group.command(
        name="commencer", description="Lancer la partie (celui ou celle qui a ouvert la table)"
    )
    async def begin(self, interaction: discord.Interaction) -> None:
        table = self.table_here(interaction)
        if interaction.user.id != table.starter:
            raise TableError("not_starter", starter=table.starter)
        await self.lobby(interaction, table, "start", public=True)

    @menteur_group.command(name="des", description="Voir tes dés (en privé)")
    async def dice(self, interaction: discord.Interaction) -> None:
        table = self.table_here(interaction)
        await self.show_dice(interaction, table)

    @menteur_group.command(
        name="annoncer", description="Annoncer : au moins N dés montrent cette valeur"
    )
    @app_commands.describe(quantite="Combien de dés (au moins)", valeur="La valeur (1 à 6)")
    async def bid(
        self,
        interaction: discord.Interaction,
        quantite: app_commands.Range[int, 1, 30],
        valeur: app_commands.Range[int, 1, 6],
    ) -> None:
        table = self.table_here(interaction)
        await self.play(
            interaction, table, lm.Bid(interaction.user.id, quantite, valeur), public=True
        )

    async def challenge(self, interaction: discord.Interaction, table: Table) -> None:
        """``/soulever`` at a menteur table (dispatched by the Maya cog): *dudo*."""
        await self.play(interaction, table, lm.Challenge(interaction.user.id), public=True)

    @menteur_group.command(
        name="stop",
        description="Arrêter la partie (celui ou celle qui l'a ouverte, ou « Gérer le serveur »)",
    )
    async def stop(self, interaction: discord.Interaction) -> None:
        await self.stop_table(interaction, self.table_here(interaction))

    @menteur_group.command(
        name="tutoriel",
        description="Apprendre en jouant : une partie seul contre des CPU, en privé",
    )
    @app_commands.describe(cpu="Nombre d'adversaires CPU (1 à 5)", niveau="Niveau des CPU")
    @app_commands.choices(
        niveau=[app_commands.Choice(name=level, value=level) for level in CPU_LEVELS]
    )
    async def tutorial(
        self,
        interaction: discord.Interaction,
        cpu: app_commands.Range[int, 1, 5] = 2,
        niveau: str = "facile",
    ) -> None:
        user = interaction.user.id
        lang = private_lang(interaction)
        cpus = {-(i + 1): CPU_NAMES[i] for i in range(cpu)}
        rng = random.Random()
        state = lm.new_game([user, *cpus], lm.Rules.for_preset())
        tutorial = Tutorial(user, lang, state, cpus, niveau, rng)
        self.tutorials[user] = tutorial
        lines = [t(lang, "m.tuto.welcome")]
        lines += self._tutorial_advance(tutorial)
        await self._tutorial_answer(interaction, tutorial, lines)

    def _tutorial_advance(self, tutorial: Tutorial) -> list[str]:
        """Roll and let the CPUs play until it is the user's turn or the game is over."""
        lines: list[str] = []
        for _ in range(500):
            state = tutorial.state
            if state.over or state.current is None:
                break
            current = state.current
            if state.phase == lm.ROLL:
                action: lm.Action = lm.complete(state, lm.Roll(current), tutorial.rng)
            elif current == tutorial.user:
                break
            else:
                legal = lm.turn_actions(state, current)
                action = cpu_menteur.choose(
                    lm.view(state, current), legal, tutorial.level, tutorial.rng
                )
            tutorial.state, events = lm.apply(state, action)
            lines += event_lines(events, tutorial.lang, tutorial.name)
        return lines

    def _tutorial_message(
        self, tutorial: Tutorial, lines: list[str]
    ) -> tuple[str, discord.ui.View | None]:
        lang = tutorial.lang
        state = tutorial.state
        body = list(lines[-30:])
        if state.over:
            key = "m.tuto.won" if state.winner == tutorial.user else "m.tuto.lost"
            body.append(t(lang, key))
            self.tutorials.pop(tutorial.user, None)
            return "\n".join(body)[:2000], None
        view = lm.view(state, tutorial.user)
        counts = ", ".join(
            f"{tutorial.name(seat.player)} {seat.dice}🎲"
            for seat in view.seats
            if seat.status == lm.IN
        )
        body.append(t(lang, "m.tuto.counts", counts=counts))
        body.append(
            t(lang, "m.your_dice", dice=faces(view.my_dice or ()), count=len(view.my_dice or ()))
        )
        if view.bid is not None and view.bidder is not None:
            body.append(
                t(lang, "m.current_bid", bid=bid_text(*view.bid), player=tutorial.name(view.bidder))
            )
        body.append("💡 " + " ".join(hint_lines(view, lang, random.Random(state.step))))
        return "\n".join(body)[-2000:], tutorial_view(tutorial)

    async def _tutorial_answer(
        self,
        interaction: discord.Interaction,
        tutorial: Tutorial,
        lines: list[str],
        *,
        new: bool = False,
    ) -> None:
        text, ui = self._tutorial_message(tutorial, lines)
        await answers.reply(interaction, text, ephemeral=True, view=ui)

    async def tutorial_bid(self, interaction: discord.Interaction, value: str, step: int) -> None:
        try:
            quantity, face = decode(value)
        except lm.GameError as error:
            await refuse(interaction, error)
            return
        await self.tutorial_act(interaction, lm.Bid(interaction.user.id, quantity, face), step)

    async def tutorial_act(
        self, interaction: discord.Interaction, action: lm.Action, step: int
    ) -> None:
        tutorial = self.tutorials.get(interaction.user.id)
        if tutorial is None:  # finished, or lost with a restart: it lives in memory only
            await say_privately(interaction, t(private_lang(interaction), "m.tuto.gone"))
            return
        if step != tutorial.state.step:  # a component of an earlier message
            await refuse(interaction, TableError("stale_turn"))
            return
        try:
            tutorial.state, events = lm.apply(tutorial.state, action)
        except lm.GameError as error:
            await refuse(interaction, error)
            return
        lines = event_lines(events, tutorial.lang, tutorial.name)
        lines += self._tutorial_advance(tutorial)
        await self._tutorial_answer(interaction, tutorial, lines)


def tutorial_view(tutorial: Tutorial) -> discord.ui.View:
    """The tutorial's select of raises and its *dudo* button."""
    state = tutorial.state
    options = [
        discord.SelectOption(label=bid_text(q, f), value=encode(q, f))
        for q, f in raise_options(state.bid, state.rules.jokers, lm.dice_in_play(state))
    ]
    view = discord.ui.View(timeout=None)
    view.add_item(TutorialSelect(tutorial.user, state.step, options, t(tutorial.lang, "m.select")))
    if state.bid is not None:
        view.add_item(TutorialDudo(tutorial.user, state.step, label=t(tutorial.lang, "m.btn.dudo")))
    return view


def _cog(interaction: discord.Interaction) -> MenteurCog:
    cog = interaction.client.get_cog("Menteur")  # type: ignore[attr-defined]
    assert isinstance(cog, MenteurCog)
    return cog


class TutorialSelect(
    discord.ui.DynamicItem[discord.ui.Select[Any]],
    template=r"gobtuto:(?P<user>\d+):(?P<step>\d+):bid",
):
    """The tutorial's raises. A dynamic item, so that one from before a restart still gets
    an answer (the tutorial itself lives in memory: it says it is over)."""

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
        cls, interaction: discord.Interaction, item: discord.ui.Select[Any], match: re.Match[str]
    ) -> TutorialSelect:
        return cls(int(match["user"]), int(match["step"]), list(item.options), "")

    async def callback(self, interaction: discord.Interaction) -> None:
        value = self.item.values[0] if self.item.values else ""
        await _cog(interaction).tutorial_bid(interaction, value, self.step)


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
        cls, interaction: discord.Interaction, item: discord.ui.Button[Any], match: re.Match[str]
    ) -> TutorialDudo:
        return cls(int(match["user"]), int(match["step"]), label=item.label or "")

    async def callback(self, interaction: discord.Interaction) -> None:
        action = lm.Challenge(interaction.user.id)
        await _cog(interaction).tutorial_act(interaction, action, self.step)


def event_lines(events: Sequence[lm.Event], lang: str, name: Any) -> list[str]:
    """The public story of ``events`` (private dice events are skipped)."""
    lines: list[str] = []
    for event in events:
        data = event.data
        if event.visibility != lm.PUBLIC:
            continue
        kind = event.type
        if kind == "round_started":
            lines.append(
                t(
                    lang,
                    "m.ev.round",
                    round=data["round"],
                    player=name(data["opener"]),
                    total=data["total"],
                )
            )
        elif kind == "bid_made":
            lines.append(
                t(
                    lang,
                    "m.ev.bid",
                    player=name(data["player"]),
                    bid=bid_text(data["quantity"], data["face"]),
                    next=name(data["next"]),
                )
            )
        elif kind == "challenged":
            lines.append(
                t(
                    lang,
                    "m.ev.dudo",
                    player=name(data["player"]),
                    bidder=name(data["bidder"]),
                    bid=bid_text(data["quantity"], data["face"]),
                )
            )
        elif kind == "revealed":
            for hand in data["hands"]:
                lines.append(f"　{name(hand['player'])} : {faces(hand['dice'])}")
            key = "m.ev.holds" if data["holds"] else "m.ev.bluff"
            lines.append(t(lang, key, actual=data["actual"], face=data["face"]))
        elif kind == "die_lost":
            lines.append(
                t(lang, "m.ev.die_lost", player=name(data["player"]), left=data["remaining"])
            )
        elif kind == "eliminated":
            lines.append(t(lang, "m.ev.eliminated", player=name(data["player"])))
        elif kind == "player_left":
            lines.append(t(lang, "ev.player_left", player=name(data["player"])))
        elif kind == "game_won":
            lines.append(t(lang, "m.ev.won", player=name(data["player"])))
        elif kind == "game_ended":
            lines.append(t(lang, "ev.game_stopped"))
    return lines


async def setup(bot: Gobelet) -> None:
    await bot.add_cog(MenteurCog(bot))
