"""Dés du menteur (Liar's dice) on Discord: ``/menteur …``, the public table, private dice.

Each player sees their own dice ephemerally (``/menteur des`` or the "Mes dés" button), with
a menu of legal raises on their turn. A round's deal is not a decision: the runtime rolls
everyone's dice with the move that ends the round before.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import discord
from discord import app_commands

from bot.games import menteur as lm
from bot.games.menteur.spec import SPEC
from bot.i18n import t
from bot.interactions import answers
from bot.interactions.refusals import Names, private_lang
from bot.table import CPU_LEVELS, CPU_NAMES, Table, TableError
from bot.table.clock import lapse
from cogs.menteur import options as menteur_options
from cogs.menteur import render
from cogs.menteur.tutorial import TUTORIAL, Tutorials
from cogs.table import TableCog
from cogs.table.components import lobby_view
from cogs.table.endings import elimination_standings, went_out
from cogs.table.panels import Panel
from cogs.table.side import PanelShown


@app_commands.guild_only()
class MenteurCog(
    TableCog,
    group_name="menteur",
    group_description="Dés du menteur : annonces, bluff et « Menteur ! »",
):
    spec = SPEC
    lifts = True
    headlines = (lm.Revealed, lm.RoundEnded, lm.PlayerEliminated, lm.GameWon, lm.GameEnded)
    endings = (lm.GameWon, lm.GameEnded)
    moves = ((lm.Bid, "m.select"), (lm.Challenge, "m.btn.dudo"), (lm.Calza, "m.btn.calza"))
    controls = render.CONTROLS

    def __init__(self, bot: Any) -> None:
        super().__init__(bot, side=self)
        self.tutorials = Tutorials(self.tables.clock)

    async def cog_load(self) -> None:
        await super().cog_load()
        self.bot.shared.provide(self.tutorials)
        self.tables.clock.handle(TUTORIAL, lapse)

    async def cog_unload(self) -> None:
        await super().cog_unload()
        self.bot.shared.withdraw(self.tutorials)

    # ------------------------------------------------------------------ the table message

    def table_message(self, table: Table) -> tuple[discord.Embed, discord.ui.View | None]:
        if not table.started:
            embed = render.table_embed(None, table.rules, table.name, table.lang, table.players)
            return embed, lobby_view(table.id, table.lang)
        view = table.view_as(SPEC)
        turn = table.legal(view.current) if view.current is not None else []
        return (
            render.table_embed(view, table.rules, table.name, table.lang, table.players),
            render.table_components(table.id, view, turn, table.lang),
        )

    def lines(self, table: Table, events: Sequence[Any], notes: Sequence[Any]) -> list[str]:
        lines = [self.note(table, note) for note in notes]
        return lines + render.event_lines(events, table.lang, table.name)

    def standings(self, table: Table, logged: Sequence[Any]) -> list[str]:
        """By elimination, the winner first (with the dice they kept)."""
        view = table.view_as(SPEC)
        out = went_out(logged, lm.RoundStarted, lm.PlayerEliminated, lm.PlayerLeft)
        gone = {o.player for o in out}
        standing = [
            (seat.player, t(table.lang, "m.dice_left", count=seat.dice), seat.dice)
            for seat in view.seats
            if seat.player not in gone
        ]
        return elimination_standings(table.lang, table.name, view.winner, standing, out)

    def about_people(self, table: Table, event: Any) -> bool:
        """An exact calza ends a round nobody lost: it concerns whoever called it (who opens)."""
        if isinstance(event, lm.RoundEnded) and event.loser is None:
            return not table.is_cpu(event.opener)
        return super().about_people(table, event)

    def explain(
        self, error: BaseException, lang: str, table: Table | None, names: Names
    ) -> str | None:
        return render.explain(error, lang)

    # ------------------------------------------------------------------ moves

    async def show_dice(self, interaction: discord.Interaction, table: Table) -> None:
        """The player's own dice, from their view, with the menu of legal raises on their turn.
        The panel stays live: it is edited as the game goes on, while Discord lets the bot
        edit it (``PANEL_SECONDS``)."""
        user = interaction.user.id
        lang = private_lang(interaction)
        if not table.started:
            raise TableError("not_started")
        seat = table.view(user).seat(user)
        if seat is None or seat.status != lm.IN:
            raise lm.UnknownPlayer(player=user)
        text, components = self.panel(table, user, lang)
        shown = await answers.reply(interaction, text, ephemeral=True, view=components)
        await self.controller.keep_panel(interaction, table, shown, lang)

    def panel(self, table: Table, user: int, lang: str) -> tuple[str, discord.ui.View | None]:
        """A player's private panel: their dice, the bid to beat, the raises on their turn."""
        view = table.view_as(SPEC, user)
        seat = view.seat(user)
        if not table.running or seat is None or seat.status != lm.IN:
            return t(lang, "m.panel_closed"), None
        mine = view.my_dice
        lines = [t(lang, "m.your_dice", dice=render.faces(mine) if mine else "—", count=seat.dice)]
        if view.bid is not None and view.bidder is not None:
            bid = render.bid_text(*view.bid, lang)
            lines.append(t(lang, "m.current_bid", bid=bid, player=table.name(view.bidder)))
        components = render.bid_panel(table.id, view.step, table.legal(user), lang)
        return "\n".join(lines)[:2000], components

    def panel_now(self, table: Table, player: int, panel: Panel) -> PanelShown | None:
        """A panel shows the game as it is now; once it offers no raise, it is left."""
        return self.panel(table, player, panel.lang)

    def panel_settled(self, table: Table, player: int, panel: Panel) -> str | None:
        """A table that ended closes its panels (a panel whose token ends is left)."""
        return t(panel.lang, "m.panel_closed") if panel.followed and not table.running else None

    async def lift(self, interaction: discord.Interaction, table: Table) -> None:
        """``/soulever`` at a menteur table: *dudo*."""
        challenge = lm.Challenge(interaction.user.id)
        await self.controller.play(interaction, table, challenge, public=True)

    # ------------------------------------------------------------------ commands

    @app_commands.command(
        name="start", description="Ouvrir une table de dés du menteur dans ce salon"
    )
    @app_commands.describe(
        cpu="Nombre de joueurs CPU à la table",
        niveau="Niveau des joueurs CPU",
        fil="Jouer dans un fil public du salon (par défaut : le réglage du serveur)",
        **menteur_options.DESCRIPTIONS,
    )
    @app_commands.choices(des=menteur_options.DICE)
    @app_commands.choices(
        niveau=[app_commands.Choice(name=level, value=level) for level in CPU_LEVELS]
    )
    async def start(
        self,
        interaction: discord.Interaction,
        des: int | None = None,
        jokers: bool | None = None,
        cpu: app_commands.Range[int, 0, 5] = 0,
        niveau: str = "moyen",
        calza: bool | None = None,
        palifico: bool | None = None,
        fil: bool | None = None,
    ) -> None:
        answers.expect_public(interaction)
        settings = await self.tables.repository.guild_settings(interaction.guild_id or 0)
        given = {"dice": des, "jokers": jokers, "calza": calza, "palifico": palifico}
        rules = menteur_options.table_rules(settings, given)
        table = await self.controller.open(
            interaction, rules, settings, cpu=cpu, level=niveau, thread=fil
        )
        text = t(
            table.lang,
            "note.table_opened",
            player=table.name(interaction.user.id),
            game=t(table.lang, "game.menteur"),
            preset=render.rules_label(rules, table.lang),
        )
        await self.controller.opened(interaction, table, text)

    @app_commands.command(name="quitter", description="Quitter la table de ce salon")
    async def leave(self, interaction: discord.Interaction) -> None:
        # In a game: your dice leave with you (the round starts again if it was yours).
        await self.leave_table(interaction)

    @app_commands.command(name="des", description="Voir tes dés (en privé)")
    async def dice(self, interaction: discord.Interaction) -> None:
        await self.show_dice(interaction, self.table_here(interaction))

    @app_commands.command(
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
        bid = lm.Bid(interaction.user.id, quantite, valeur)
        await self.controller.play(interaction, table, bid, public=True)

    @app_commands.command(
        name="calza",
        description="Calza : dire que la dernière annonce est exacte (si l'option est jouée)",
    )
    async def calza(self, interaction: discord.Interaction) -> None:
        table = self.table_here(interaction)
        await self.controller.play(interaction, table, lm.Calza(interaction.user.id), public=True)

    @app_commands.command(
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
        cpus = {-(i + 1): CPU_NAMES[i] for i in range(cpu)}
        await self.tutorials.start(interaction, cpus, niveau)
