"""Yadès (and Yahtzee) on Discord: ``/yades …``, the public turn message, the sheets.

The held dice live only in the table's buttons' custom ids (``hold{mask}_{die}``,
``reroll{mask}``), so a toggle needs no storage and survives a restart; the cog remembers
the current turn's toggles so that ``/yades lancer`` keeps them too.
"""

from __future__ import annotations

import asyncio
import io
import logging
import random
from collections.abc import Sequence
from typing import Any

import discord
from discord import app_commands

from bot.games import yades as y
from bot.games.yades import cpu as expert_cpu
from bot.games.yades.metrics import YadesSetup
from bot.games.yades.spec import SPEC
from bot.i18n import t
from bot.interactions import answers
from bot.interactions.refusals import private_lang
from bot.table import CPU_LEVELS, Table, TableError
from cogs.table import TableCog
from cogs.table.components import lobby_view
from cogs.yades import picture, render
from cogs.yades.challenges import CHALLENGE, Challenges
from cogs.yades.expert import Expert, sheet_rules

log = logging.getLogger(__name__)

PRESETS = [
    app_commands.Choice(name="Yadès", value=y.YADES),
    app_commands.Choice(name="classique (Yahtzee)", value=y.CLASSIQUE),
]
LEVELS = [app_commands.Choice(name=level, value=level) for level in CPU_LEVELS]


@app_commands.guild_only()
class YadesCog(
    TableCog,
    group_name="yades",
    group_description="Yadès : le duel à cinq dés et feuille de score",
):
    spec = SPEC
    headlines = (y.GameWon, y.GameEnded)
    # The sheets' totals tell the end (``_summary``); what ends a game also brings the
    # achievements earned in it.
    endings = (y.GameWon, y.GameEnded)
    controls = render.CONTROLS
    moves = ((y.Roll, "y.btn.roll"), (y.Score, "y.select"))

    def __init__(self, bot: Any) -> None:
        super().__init__(bot, side=self)
        self.expert = Expert(bot.settings.data_dir, bot.settings.shipped_dir)
        self.challenges = Challenges(self.controller, self.expert)
        self.held: dict[int, tuple[int, int]] = {}  # table -> (step, held dice) of its toggles

    async def cog_load(self) -> None:
        await super().cog_load()
        self.bot.shared.provide(self.challenges)
        self.bot.shared.provide(self.expert)
        self.tables.clock.handle(CHALLENGE, self.challenges.expire)

    async def cog_unload(self) -> None:
        await super().cog_unload()
        self.bot.shared.withdraw(self.challenges)
        self.bot.shared.withdraw(self.expert)

    # ------------------------------------------------------------------ the table message

    def table_message(self, table: Table) -> tuple[discord.Embed, discord.ui.View | None]:
        title = render.preset_label(table.rules, table.lang)
        if not table.started:
            embed = render.table_embed(None, title, table.name, table.lang, table.players, None)
            return embed, lobby_view(table.id, table.lang)
        view = table.view_as(SPEC)
        current = view.current
        deadline = table.deadline if current is not None and not table.is_cpu(current) else None
        embed = render.table_embed(view, title, table.name, table.lang, table.players, deadline)
        turn = table.legal(current) if current is not None else []
        components = render.table_components(table.id, view, turn, self.held_now(table), table.lang)
        return embed, components

    def lines(self, table: Table, events: Sequence[Any], notes: Sequence[Any]) -> list[str]:
        lines = [self.note(table, note) for note in notes]
        lines += render.event_lines(events, table.name, table.lang)
        if any(isinstance(event, (y.GameWon, y.GameEnded)) for event in events):
            lines += self._summary(table)
        return lines

    def _summary(self, table: Table) -> list[str]:
        """After a finished game: each human's expected points lost against perfect play
        (figured with the game's results)."""
        if table.results is None:
            return []
        lost = {p: figures["points_lost"] for p, figures in table.results.figures.items()}
        if not lost:
            return []
        lines = [t(table.lang, "y.summary")]
        for player, points in lost.items():
            lines.append(
                t(table.lang, "y.summary_line", player=table.name(player), points=f"{points:.1f}")
            )
        return lines

    def rematch_rules(self, rules: YadesSetup) -> YadesSetup:
        """A rematch stakes nothing: a stake is a challenge's, accepted by the one challenged."""
        return YadesSetup(rules.rules, 0)

    # ------------------------------------------------------------------ restart

    async def prepare(self) -> None:
        """Load the expert's tables off the event loop (a server's own sheet's too)."""
        await self.expert.ready()
        for table in list(self.tables.by_id.values()):
            if table.kind == self.game:
                await self.expert.load(table.rules.rules)

    async def restoring(self, table: Table) -> None:
        if table.started:
            self.held[table.id] = (table.step, await self._held_before(table))

    async def _held_before(self, table: Table) -> int:
        """The dice held on the table message when the bot stopped: they live only in its
        buttons, so read them back there (if the buttons still belong to the current turn)."""
        message_id = self.channel.post(table).message_id
        if message_id is None:
            return 0
        try:
            message = await self.channel.of(table).fetch_message(message_id)
        except discord.HTTPException:
            return 0
        prefix = f"gob:{table.id}:{table.step}:reroll"
        for row in message.components:
            for item in getattr(row, "children", ()):
                custom_id = getattr(item, "custom_id", None) or ""
                if custom_id.startswith(prefix) and custom_id[len(prefix) :].isdigit():
                    return int(custom_id[len(prefix) :])
        return 0

    # ------------------------------------------------------------------ moves

    async def starting(self, table: Table) -> None:
        await self.expert.load(table.rules.rules)

    async def hold(
        self, interaction: discord.Interaction, table: Table, step: int, argument: str
    ) -> None:
        """A die's toggle (``{held}_{die}``): that die held, or let go, for the re-roll. It
        redraws the message clicked, so only the table's own: a copy it left, or another of
        the bot's messages, is too late or no place for it."""
        if answers.clicked(interaction) != self.channel.post(table).message_id:
            raise TableError("stale_turn")
        held, die = (int(part) for part in argument.split("_"))
        self._check_held(table, held)
        await self._toggle(interaction, table, step, held ^ (1 << die))

    async def reroll(
        self, interaction: discord.Interaction, table: Table, step: int, argument: str
    ) -> None:
        """The re-roll of every die not held (``{held}``: the dice held when it was drawn)."""
        held = int(argument)
        self._check_held(table, held)
        kept = y.kept_positions(held)
        await self.controller.play(interaction, table, y.Roll(interaction.user.id, kept), step=step)

    async def _toggle(
        self, interaction: discord.Interaction, table: Table, step: int, held: int
    ) -> None:
        """Redraw the turn's buttons with another die held: only for the player who may
        re-roll now. The held dice are remembered for the turn, so that ``/yades lancer``
        keeps them too."""
        if not table.running or not table.started or table.step != step:
            raise TableError("stale_turn")
        table.check(y.Roll(interaction.user.id, ()))  # the rules say who may roll now
        self.held = {k: v for k, v in self.held.items() if k in self.tables.by_id}
        self.held[table.id] = (step, held)
        _, components = self.table_message(table)
        await answers.update(interaction, view=components)

    def held_now(self, table: Table) -> int:
        """The dice held with the table's toggles on this turn (a mask of positions)."""
        step, held = self.held.get(table.id, (-1, 0))
        return held if table.started and step == table.step else 0

    def _check_held(self, table: Table, held: int) -> None:
        """A toggle or a re-roll drawn with other dice held than the table holds now (a
        screen not yet redrawn after another toggle) is too late: it would undo that one."""
        if held != self.held_now(table):
            raise TableError("stale_turn")

    async def _open(
        self,
        interaction: discord.Interaction,
        preset: str | None,
        *,
        cpu: int = 0,
        level: str = "moyen",
        thread: bool | None = False,
    ) -> Table:
        settings = await self.tables.repository.guild_settings(interaction.guild_id or 0)
        rules = sheet_rules(settings, preset)
        await self.expert.load(rules)
        level = level if level in CPU_LEVELS else "moyen"
        return await self.controller.open(
            interaction, YadesSetup(rules, 0), settings, cpu=cpu, level=level, thread=thread
        )

    # ------------------------------------------------------------------ /yades …

    @app_commands.command(name="defi", description="Défier quelqu'un en duel de Yadès")
    @app_commands.describe(
        adversaire="La personne défiée (ou le bot, pour jouer contre le CPU)",
        preset="Les règles : yades ou classique (Yahtzee)",
        niveau="Niveau du CPU",
        mise="Points de classement mis en jeu (le gagnant les prend)",
        cpu="Jouer tout de suite contre le CPU",
    )
    @app_commands.choices(preset=PRESETS, niveau=LEVELS)
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
        if adversaire is not None and not cpu and (me is None or adversaire.id != me.id):
            await self.challenges.post(interaction, adversaire, preset, mise)
            return
        answers.expect_public(interaction)
        table = await self._open(interaction, preset, cpu=1, level=niveau)
        text = t(table.lang, "y.cpu_duel", player=table.name(interaction.user.id))
        await self.controller.start_at_once(interaction, table, text)

    @app_commands.command(name="start", description="Ouvrir une table de Yadès dans ce salon")
    @app_commands.describe(
        preset="Les règles : yades ou classique (Yahtzee)",
        cpu="Nombre de joueurs CPU à la table",
        niveau="Niveau des joueurs CPU",
        fil="Jouer dans un fil public du salon (par défaut : le réglage du serveur)",
    )
    @app_commands.choices(preset=PRESETS, niveau=LEVELS)
    async def start(
        self,
        interaction: discord.Interaction,
        preset: str | None = None,
        cpu: app_commands.Range[int, 0, 5] = 0,
        niveau: str = "moyen",
        fil: bool | None = None,
    ) -> None:
        answers.expect_public(interaction)
        table = await self._open(interaction, preset, cpu=cpu, level=niveau, thread=fil)
        text = t(
            table.lang,
            "note.table_opened",
            player=table.name(interaction.user.id),
            game="Yadès",
            preset=render.preset_label(table.rules, table.lang),
        )
        await self.controller.opened(interaction, table, text)

    @app_commands.command(name="lancer", description="Lancer les dés (ou relancer ceux non gardés)")
    async def roll(self, interaction: discord.Interaction) -> None:
        table = self.table_here(interaction)
        # The dice held with the table's toggles stay held whatever way the roll is asked for
        # (on the decision they were held for: a roll meanwhile makes this one too late).
        keep = y.kept_positions(self.held_now(table))
        step = table.step if table.started else None
        await self.controller.play(
            interaction, table, y.Roll(interaction.user.id, keep), step=step, public=True
        )

    @app_commands.command(name="garder", description="Garder des dés et relancer les autres")
    @app_commands.describe(des="Les dés gardés : positions (1 3 5) ou faces (⚅⚅)")
    async def keep(self, interaction: discord.Interaction, des: str) -> None:
        table = self.table_here(interaction)
        dice = table.view().dice if table.started else None
        if dice is None:
            raise y.NotRolled()
        keep = y.read_keep(des, dice)
        await self.controller.play(
            interaction, table, y.Roll(interaction.user.id, keep), public=True
        )

    @app_commands.command(name="marquer", description="Remplir une case de ta feuille")
    @app_commands.describe(case="La case à remplir")
    async def score(self, interaction: discord.Interaction, case: str) -> None:
        table = self.table_here(interaction)
        await self.controller.play(
            interaction, table, y.Score(interaction.user.id, case.strip()), public=True
        )

    @score.autocomplete("case")
    async def open_boxes(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        table = self.tables.in_channel(interaction.channel_id or 0)
        if table is None or table.kind != self.game or not table.started:
            return []
        lang = private_lang(interaction)
        view = table.view_as(SPEC, interaction.user.id)
        if view.current != interaction.user.id:
            return []
        scores = view.scores()
        typed = current.strip().lower()
        choices = [
            app_commands.Choice(name=render.option(box, points, lang), value=box)
            for box, points in scores.items()
        ]
        return [c for c in choices if typed in c.name.lower() or typed in c.value][:25]

    @app_commands.command(name="feuille", description="Voir les feuilles de score")
    async def sheet(self, interaction: discord.Interaction) -> None:
        table = await self._sheet_table(interaction)
        if not table.started:
            raise TableError("not_started")
        lang = private_lang(interaction)
        view = table.view_as(SPEC)
        names = sheet_names(table, view, interaction, lang)
        embed = render.sheet_embed(view, {p: c.name for p, c in table.cpus.items()}, lang)
        drawn = await self._picture(view, names, lang)
        if drawn is None:
            await answers.reply(interaction, ephemeral=True, embed=embed)
            return
        embed.set_image(url="attachment://feuille.png")
        image = discord.File(io.BytesIO(drawn), "feuille.png")
        await answers.reply(interaction, ephemeral=True, embed=embed, file=image)

    async def _sheet_table(self, interaction: discord.Interaction) -> Table:
        """The channel's Yadès table, or once it is over, the last one played here."""
        here = self.tables.in_channel(interaction.channel_id or 0)
        if here is not None and here.kind == self.game and here.started:
            return here
        record = await self.tables.repository.last_ended_game(
            interaction.guild_id or 0, interaction.channel_id or 0, self.game
        )
        if record is not None:
            return Table.from_record(record, random.Random())
        if here is not None:
            return self.table_here(interaction)  # its lobby, or another game: say which
        raise TableError("no_table", game=self.game, command=f"{self.game} start")

    async def _picture(self, view: y.View, names: dict[int, str], lang: str) -> bytes | None:
        """The sheet as a picture (None if drawing it failed: the embed still tells it all)."""
        try:
            return await asyncio.to_thread(picture.sheet_picture, view, names, lang)
        except Exception:
            log.warning("the sheet picture failed", exc_info=True)
            return None

    @app_commands.command(name="conseil", description="Le meilleur choix maintenant (en privé)")
    async def advice(self, interaction: discord.Interaction) -> None:
        table = self.table_here(interaction)
        lang = private_lang(interaction)
        if not table.started:
            raise TableError("not_started")
        player = interaction.user.id
        view = table.view_as(SPEC, player)
        if view.seat(player) is None:
            raise y.UnknownPlayer(player=player)
        if view.current != player:
            raise y.NotYourTurn(player=player, current=view.current)
        await self.expert.load(view.rules)
        options = await asyncio.to_thread(expert_cpu.advice, view)
        lines = [t(lang, "y.advice.title", total=f"{options[0].expected_total:.1f}")]
        for option in options[:10]:
            lines.append(
                t(
                    lang,
                    "y.advice.line",
                    choice=render.describe(option.action, view, lang),
                    total=f"{option.expected_total:.1f}",
                    loss=f"{option.loss:.1f}",
                )
            )
        await answers.reply(interaction, "\n".join(lines)[:2000], ephemeral=True)

    @app_commands.command(name="abandon", description="Abandonner la partie")
    async def give_up(self, interaction: discord.Interaction) -> None:
        await self.leave_table(interaction)


def sheet_names(
    table: Table, view: y.View, interaction: discord.Interaction, lang: str
) -> dict[int, str]:
    """The column headers of the sheet picture, where a mention cannot be drawn: the CPU's
    name, the name a player joined with, the asker's own, else the player's seat."""
    names: dict[int, str] = {}
    for number, seat in enumerate(view.seats, 1):
        name = table.display_name(seat.player)
        if name is None and seat.player == interaction.user.id:
            name = interaction.user.display_name
        names[seat.player] = name or t(lang, "y.sheet.player", n=number)
    return names
