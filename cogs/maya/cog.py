"""Maya and Mia on Discord: ``/maya …``, the table's buttons, the holder's private panel."""

from __future__ import annotations

from collections.abc import Sequence
from enum import Enum
from typing import Any

import discord
from discord import app_commands

from bot.games import maya
from bot.games.maya import events as ev
from bot.games.maya import values as d
from bot.games.maya.spec import SPEC
from bot.i18n import t
from bot.interactions import answers, permissions
from bot.interactions.refusals import Names, private_lang
from bot.table import CPU_LEVELS, Table, TableError
from cogs.maya import options as maya_options
from cogs.maya import render
from cogs.maya.components import (
    CONTROLS,
    panel_view,
    possible_moves,
    style_view,
    table_view,
    turn_view,
)
from cogs.maya.errors import explain
from cogs.maya.faults import VOTE, Faults
from cogs.table import TableCog
from cogs.table.channel import display_name
from cogs.table.components import lobby_view
from cogs.table.controls import Control
from cogs.table.endings import elimination_standings, went_out
from cogs.table.free_text import free_text
from cogs.table.panels import PANEL_SECONDS, Panel, signature
from cogs.table.side import PanelShown


class Reply(Enum):
    """How an accepted move answers the interaction that asked for it."""

    PANEL = "panel"  # the player's private panel (their dice, the announcements)
    UPDATE_PANEL = "update_panel"  # edit the private panel the click came from
    SILENT = "silent"  # acknowledge a click on a public message without a new message
    PUBLIC = "public"  # a slash command: the story lines are the answer


NEWCOMER = 0  # no Discord user has this id: someone not at the table
# What *faute* votes need of the channel: the bot's ✅ ❌ under an accusation, and taking
# off the reactions of those who may not vote (``cogs.maya.faults``).
FAULT_VOTES = ("add_reactions", "manage_messages")


@app_commands.guild_only()
class MayaCog(
    TableCog,
    group_name="maya",
    group_description="Maya et Mia : le bluff à deux dés sous le gobelet",
):
    spec = SPEC
    lifts = True
    controls = CONTROLS
    headlines = (
        ev.Revealed,
        ev.MayaBelieved,
        ev.RoundEnded,
        ev.PlayerEliminated,
        ev.GameWon,
        ev.GameEnded,
        ev.FaultJudged,
    )
    endings = (ev.GameWon, ev.GameEnded)
    panels_wait = True  # a holder's panel offers their next turn's moves

    def __init__(self, bot: Any) -> None:
        super().__init__(bot, side=self)
        self.faults = Faults(self.controller)

    async def cog_load(self) -> None:
        await super().cog_load()
        self.bot.shared.provide(self.faults)
        self.tables.deadlines[self.game] = self.faults.deadlines
        self.tables.decide(VOTE, self.faults.close_vote)

    async def cog_unload(self) -> None:
        await super().cog_unload()
        self.bot.shared.withdraw(self.faults)
        self.tables.deadlines.pop(self.game, None)

    # ------------------------------------------------------------------ the table message

    def _seating(self, table: Table) -> render.Seating:
        return render.Seating(
            names=table.name,
            cpus={k: t(table.lang, "level." + v.level) for k, v in table.cpus.items()},
            starter=table.starter,
            deadline=table.deadline,
        )

    def table_message(self, table: Table) -> tuple[discord.Embed, discord.ui.View | None]:
        seating = self._seating(table)
        if not table.started:
            return (
                render.lobby_embed(table.rules, table.players, seating, table.lang),
                lobby_view(table.id, table.lang),
            )
        view = table.view_as(SPEC)
        turn = table.legal(view.current) if view.current is not None else []
        # Joining is offered when a newcomer may join (seated at the next round).
        joinable = any(isinstance(action, maya.Join) for action in table.legal(NEWCOMER))
        return (
            render.table_embed(view, seating, table.lang),
            table_view(table.id, view, turn, joinable, table.lang),
        )

    def lines(self, table: Table, events: Sequence[Any], notes: Sequence[Any]) -> list[str]:
        lines = [self.note(table, note) for note in notes]
        view = table.view_as(SPEC)
        lines += render.public_lines(events, view.rules, table.name, table.lang)
        return lines

    def standings(self, table: Table, logged: Sequence[Any]) -> list[str]:
        """Mia: by elimination, the winner first. A soirée: who drank most first (a glass
        counts five sips), with the night's titles."""
        view = table.view_as(SPEC)
        lang = table.lang
        if view.rules.lives:
            out = went_out(logged, ev.RoundStarted, ev.PlayerEliminated, ev.PlayerLeft)
            gone = {o.player for o in out}
            standing = [
                (seat.player, f"{seat.lives} ❤️", seat.lives)
                for seat in view.seats
                if seat.player not in gone
            ]
            return elimination_standings(lang, table.name, view.winner, standing, out)
        cost = {seat.player: seat.sips + 5 * seat.glasses for seat in view.seats}
        seats = sorted(view.seats, key=lambda seat: -cost[seat.player])
        lines = [t(lang, "end.tally")]
        for place, seat in enumerate(seats, start=1):
            figure = f"{seat.sips} 🍺 · {seat.glasses} 🥃"
            lines.append(
                t(lang, "end.place", place=place, player=table.name(seat.player), detail=figure)
            )
        if len(seats) > 1 and cost[seats[0].player] > cost[seats[-1].player]:
            lines.append(t(lang, "end.drinker", player=table.name(seats[0].player)))
            lines.append(t(lang, "end.sober", player=table.name(seats[-1].player)))
        return lines

    def explain(
        self, error: BaseException, lang: str, table: Table | None, names: Names
    ) -> str | None:
        if table is None or not table.started:
            return explain(error, lang)
        current = table.current
        legal = table.legal(current) if current is not None else []
        photo = any(isinstance(action, maya.Photo) for action in legal)
        return explain(error, lang, table.rules, photo)

    def possible(self, table: Table, player: int, lang: str) -> list[str]:
        if not table.started or not table.running:
            return []
        return possible_moves(table.view(), table.legal(player), lang)

    def game_name(self, table: Table, lang: str) -> str:
        return render.game_label(table.rules, lang)

    async def kept(self, table: Table, events: Sequence[Any]) -> None:
        await self.faults.follow(table, events)

    # ------------------------------------------------------------------ live private panels

    def panel_settled(self, table: Table, player: int, panel: Panel) -> str | None:
        """A panel that offered a turn's moves, no longer followed: whose turn it is."""
        return render.turn_text(table.view(), table.name, panel.lang) if panel.live else None

    def panel_now(self, table: Table, player: int, panel: Panel) -> PanelShown | None:
        """On its player's turn, the turn's moves (one click, no need for the table); once
        the turn has passed, whose it is; a holder's panel (their dice, the menu) is theirs
        to use, and left as it is."""
        view = table.view_as(SPEC, player)
        legal = table.legal(player)
        turn = turn_view(table.id, view, legal, panel.lang)
        if panel.age() > PANEL_SECONDS - 60:
            turn = None  # no buttons Discord may soon refuse to take off
        if view.current == player and turn is not None:
            text = (
                f"{t(panel.lang, 'me.your_turn')} {render.turn_text(view, table.name, panel.lang)}"
            )
            return text, turn
        if panel.live:  # its moves are played: it says whose turn it is now
            return render.turn_text(view, table.name, panel.lang), None
        return None

    async def restored(self, table: Table) -> None:
        if table.started:
            await self.faults.resume(table)

    # ------------------------------------------------------------------ playing a move

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
            await self.controller.play(
                interaction, table, action, step=step, public=public, name=name
            )
            return

        async def answer(events: Sequence[Any]) -> None:
            await self._answer(interaction, table, action, reply, private_lang(interaction))

        await self.controller.play(interaction, table, action, step=step, answer=answer)

    async def _answer(
        self,
        interaction: discord.Interaction,
        table: Table,
        action: maya.Action,
        reply: Reply,
        lang: str,
    ) -> None:
        content, view = self.panel(table, interaction.user.id, lang)
        if isinstance(action, maya.Announce | maya.Photo):
            announced = table.view().announced
            value = render.maya_value(announced, table.rules, lang) if announced else "?"
            content = t(lang, "me.announced", value=value)
            view = None
        if reply is Reply.UPDATE_PANEL:
            await answers.update(interaction, content=content, view=view)
            panel = self.controller.panels.get(table.id, interaction.user.id)
            if panel is not None and panel.id == answers.clicked(interaction):
                panel.shown, panel.live = signature(content, view), False
        else:
            shown = await answers.reply(interaction, content, ephemeral=True, view=view)
            await self.controller.keep_panel(interaction, table, shown, lang)

    def panel(self, table: Table, player: int, lang: str) -> tuple[str, discord.ui.View | None]:
        """The player's own cup (from their view only) and what they may announce."""
        seen = table.view_as(SPEC, player)
        return render.cup_text(seen, lang), panel_view(table.id, seen, table.legal(player), lang)

    async def play_control(
        self,
        interaction: discord.Interaction,
        table: Table,
        control: Control,
        argument: str,
        value: str | None,
        step: int,
    ) -> None:
        """A move's click, answered as its control says: with the player's private panel
        (edited in place when the click came from it), by editing the panel, or silently."""
        assert control.move is not None
        reply = Reply(control.reply)
        on_panel = interaction.message is not None and interaction.message.flags.ephemeral
        if reply is Reply.PANEL and on_panel:
            reply = Reply.UPDATE_PANEL
        action = control.move(interaction.user.id, argument, value)
        await self.move(interaction, table, action, reply, step=step if control.stepped else None)

    async def show_dice(self, interaction: discord.Interaction, table: Table) -> None:
        lang = private_lang(interaction)
        if not table.started:
            raise TableError("not_started")
        content, view = self.panel(table, interaction.user.id, lang)
        if view is None:
            content = t(lang, "me.no_dice")
        shown = await answers.reply(interaction, content, ephemeral=True, view=view)
        await self.controller.keep_panel(interaction, table, shown, lang)

    async def lift(self, interaction: discord.Interaction, table: Table) -> None:
        await self.move(interaction, table, maya.Lift(interaction.user.id), Reply.PUBLIC)

    async def believe(
        self, interaction: discord.Interaction, blind: bool, style: str | None
    ) -> None:
        """``/croire``: believe the announcement; facing a Maya, as the table allows it (the
        Fragile or the Warrior ``style``, or simply accepting it)."""
        table = self.table_here(interaction)
        user = interaction.user.id
        legal = table.legal(user)
        facing = [a for a in legal if isinstance(a, maya.Fragile | maya.Warrior | maya.AcceptMaya)]
        if facing and style is None and len(facing) > 1:
            # Facing a Maya, believing it means choosing how: ask, the table's way.
            lang = private_lang(interaction)
            choice = style_view(table.id, table.step, facing, lang)
            await answers.reply(interaction, t(lang, "me.maya_how"), ephemeral=True, view=choice)
            return
        if facing:
            wanted = maya.Warrior if style == "warrior" else maya.Fragile
            action = next((a for a in facing if isinstance(a, wanted | maya.AcceptMaya)), facing[0])
            await self.move(interaction, table, action, Reply.PUBLIC)
            return
        await self.move(interaction, table, maya.Believe(user, None, blind), Reply.PANEL)

    # ------------------------------------------------------------------ /maya …

    @app_commands.command(
        name="start", description="Ouvrir une table de Maya (soirée) ou de Mia (vies) dans ce salon"
    )
    @app_commands.describe(
        **maya_options.DESCRIPTIONS,
        cpu="Nombre de joueurs CPU à la table",
        niveau="Niveau des joueurs CPU",
        gage="Le gage (par défaut : gorgée, ou vie pour Mia)",
        fil="Jouer dans un fil public du salon (par défaut : le réglage du serveur)",
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
        fil: bool | None = None,
    ) -> None:
        answers.expect_public(interaction)
        settings = await self.tables.repository.guild_settings(interaction.guild_id or 0)
        given = maya_options.given(locals())
        gage = free_text(gage, limit=maya.MAX_GAGE) if gage is not None else None
        rules = maya_options.table_rules(settings, mode, given, gage)
        table = await self.controller.open(
            interaction,
            rules,
            settings,
            cpu=cpu,
            level=niveau if niveau in CPU_LEVELS else "moyen",
            thread=fil,
        )
        text = t(
            table.lang,
            "note.table_opened",
            player=table.name(interaction.user.id),
            game=render.game_label(rules, table.lang),
            preset=render.preset_label(rules, table.lang),
        )
        await self.controller.opened(interaction, table, text)
        if rules.fautes:
            await permissions.tell_lacking(interaction, FAULT_VOTES, "perm.faults")

    @app_commands.command(name="quitter", description="Quitter la table de ce salon")
    async def leave(self, interaction: discord.Interaction) -> None:
        await self.leave_table(interaction)

    @app_commands.command(name="table", description="Voir l'état de la table (en privé)")
    async def show_table(self, interaction: discord.Interaction) -> None:
        table = self.table_here(interaction)
        embed, _ = self.table_message(table)
        await answers.reply(interaction, ephemeral=True, embed=embed)

    @app_commands.command(name="regles", description="Voir les règles de cette table (en privé)")
    async def show_rules(self, interaction: discord.Interaction) -> None:
        table = self.table_here(interaction)
        text = render.rules_text(table.rules, private_lang(interaction))
        await answers.reply(interaction, text, ephemeral=True)

    @app_commands.command(name="des", description="Voir mes dés (en privé)")
    async def my_dice(self, interaction: discord.Interaction) -> None:
        await self.show_dice(interaction, self.table_here(interaction))

    @app_commands.command(name="lancer", description="Ouvrir la manche : lancer les dés")
    @app_commands.describe(
        aveugle="Sans regarder tes dés", inverser="Inverser le sens du jeu (après un Maya)"
    )
    async def roll(
        self, interaction: discord.Interaction, aveugle: bool = False, inverser: bool = False
    ) -> None:
        table = self.table_here(interaction)
        action = maya.Roll(interaction.user.id, None, aveugle, inverser)
        await self.move(interaction, table, action, Reply.PANEL)

    @app_commands.command(name="annoncer", description="Annoncer une valeur (vraie ou bluffée)")
    @app_commands.describe(valeur="La valeur annoncée (ou photo)")
    async def announce(self, interaction: discord.Interaction, valeur: str) -> None:
        table = self.table_here(interaction)
        action = maya.read_announcement(interaction.user.id, valeur)
        await self.move(interaction, table, action, Reply.PUBLIC)

    @announce.autocomplete("valeur")
    async def announce_values(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        table = self.tables.in_channel(interaction.channel_id or 0)
        if table is None or not table.started or table.kind != self.game:
            return []
        lang = private_lang(interaction)
        announced = table.view().announced
        choices = []
        for action in table.legal(interaction.user.id):
            if isinstance(action, maya.Photo) and announced is not None:
                shown = render.maya_value(announced, table.rules, lang)
                label = t(lang, "select.photo", value=shown)
                choices.append(app_commands.Choice(name=label, value="photo"))
            elif isinstance(action, maya.Announce):
                label = render.maya_value(action.value, table.rules, lang)
                if action.value == d.MAYA:
                    label = f"🔥 {label}"
                choices.append(app_commands.Choice(name=label, value=str(action.value)))
        typed = current.strip().lower()
        if typed:
            choices = [c for c in choices if typed in c.name.lower() or typed in c.value]
        return choices[:25]

    @app_commands.command(
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
        table = self.table_here(interaction)
        await self.move(interaction, table, maya.Tap(interaction.user.id, de - 1), Reply.PANEL)

    @app_commands.command(
        name="secondechance",
        description="Relancer les deux dés sans regarder (puis annoncer à l'aveugle)",
    )
    async def second_chance(self, interaction: discord.Interaction) -> None:
        table = self.table_here(interaction)
        await self.move(interaction, table, maya.SecondChance(interaction.user.id), Reply.PANEL)
