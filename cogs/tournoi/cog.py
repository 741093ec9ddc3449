"""``/tournoi`` (``/tournament``): open a tournament, sign up, start it, cancel it, take a
player out, see it. Organizers: Manage Server, or the role ``/reglages tournois`` names
(and whoever opened it, for their own). docs/playing.md#tournaments."""

from __future__ import annotations

import logging
import time
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.games import REGISTRY
from bot.games.yades.metrics import YadesSetup
from bot.i18n import t
from bot.interactions import answers, permissions
from bot.interactions.refusals import private_lang, public_lang
from bot.storage import ChannelBusy
from bot.table import TableError
from bot.tournaments import POOLS, Format, Options
from bot.tournaments.hosted import GAMES, KIND, Hosted
from bot.tournaments.model import DUEL_SEATS, MIN_POOL_SEATS
from cogs.maya import options as maya_options
from cogs.menteur import options as menteur_options
from cogs.reglages import ORGANIZERS
from cogs.table import threads
from cogs.table.channel import display_name
from cogs.tournoi import render
from cogs.tournoi.components import Buttons, signup_view
from cogs.tournoi.director import Director
from cogs.yades.expert import sheet_rules

if TYPE_CHECKING:
    from bot.client import Gobelet

log = logging.getLogger(__name__)

SIGNUP_MINUTES = (1, 7 * 24 * 60)
ROUND_MINUTES = (2, 7 * 24 * 60)

GAME_CHOICES = [
    app_commands.Choice(name="Yadès", value="yades"),
    app_commands.Choice(name="Dés du menteur", value="menteur"),
    app_commands.Choice(name="Mia (vies)", value="mia"),
    app_commands.Choice(name="Maya (soirée, gorgées)", value="maya"),
]
FORMAT_CHOICES = [
    app_commands.Choice(name="élimination directe", value=str(Format.SINGLE_ELIMINATION)),
    app_commands.Choice(name="rondes suisses", value=str(Format.SWISS)),
    app_commands.Choice(name="poules puis table finale", value=str(POOLS)),
]
PRESET_CHOICES = [
    app_commands.Choice(name="Yadès", value="yades"),
    app_commands.Choice(name="classique (Yahtzee)", value="classique"),
]


def may_organize(interaction: discord.Interaction, settings: dict[str, Any]) -> bool:
    """Manage Server, or the server's organizers' role."""
    if interaction.permissions.manage_guild:
        return True
    role = settings.get(ORGANIZERS)
    roles = getattr(interaction.user, "roles", None) or []
    return bool(role) and any(getattr(r, "id", None) == role for r in roles)


def table_rules(game: str, settings: dict[str, Any], given: dict[str, Any]) -> Any:
    """A tournament's tables' rules: the server's defaults for the game, then the options
    the organizer gave."""
    if game == "yades":
        return YadesSetup(sheet_rules(settings, given.get("preset")), 0)
    if game == "menteur":
        return menteur_options.table_rules(settings, {"dice": given.get("des")})
    mode = "vies" if game == "mia" else "soiree"
    return maya_options.table_rules(settings, mode, {"vies": given.get("vies")}, None)


@app_commands.guild_only()
class TournoiCog(
    commands.GroupCog,
    name="Tournoi",
    group_name="tournoi",
    group_description="Les tournois du serveur",
):
    def __init__(self, bot: Gobelet) -> None:
        self.bot = bot
        self.director = Director(bot)
        self.buttons = Buttons(self)
        super().__init__()

    async def cog_load(self) -> None:
        self.bot.shared.watchers.append(self.director)
        self.bot.shared.provide(self.buttons)
        self.bot.shared.provide(self.director)
        self.bot.tables.clock.handle(KIND, self.director.due)

    async def cog_unload(self) -> None:
        if self.director in self.bot.shared.watchers:
            self.bot.shared.watchers.remove(self.director)
        self.bot.shared.withdraw(self.buttons)
        self.bot.shared.withdraw(self.director)
        await self.director.close()

    @commands.Cog.listener()
    async def on_ready(self) -> None:
        """Connected (again): what a restart left undone in the tournaments is done."""
        await self.director.reconcile()

    @commands.Cog.listener()
    async def on_guild_remove(self, guild: discord.Guild) -> None:
        """The bot left a server: its tournaments still open are cancelled."""
        await self.director.load()
        for tournament_id, (guild_id, _) in list(self.director.places.items()):
            if guild_id == guild.id and tournament_id in self.director.open:
                try:
                    await self.director.cancel(tournament_id)
                except Exception:
                    log.warning("tournament %s: not cancelled with its server", tournament_id)

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        if interaction.guild_id is None:
            raise app_commands.NoPrivateMessage()
        await self.director.load()
        return True

    # ------------------------------------------------------------------ helpers

    def _here(self, interaction: discord.Interaction) -> tuple[int, Hosted]:
        found = self.director.in_channel(interaction.channel_id or 0)
        if found is None:
            raise TableError("tour_none_here")
        return found, self.director.open[found]

    async def _check_organizer(self, interaction: discord.Interaction, hosted: Hosted) -> None:
        if interaction.user.id == hosted.organizer:
            return
        settings = await self.bot.tables.repository.guild_settings(interaction.guild_id or 0)
        if not may_organize(interaction, settings):
            raise TableError("tour_not_organizer", starter=hosted.organizer)

    # ------------------------------------------------------------------ /tournoi …

    @app_commands.command(name="creer", description="Ouvrir un tournoi dans ce salon")
    @app_commands.describe(
        jeu="Le jeu du tournoi",
        format="Élimination directe, rondes suisses (duels) ou poules (tables de 3 et plus)",
        places="Places par table des poules (les duels en ont 2)",
        inscriptions="Minutes d'inscription avant le début (30 par défaut)",
        ronde="Minutes par ronde : un absent à l'échéance perd par forfait (60 par défaut)",
        rondes="Rondes suisses (par défaut : log2 du nombre de joueurs)",
        qualifies="Poules : combien de chaque table passent (1 par défaut)",
        preset="Yadès : la feuille (yades ou classique)",
        des="Dés du menteur : dés de départ par joueur",
        vies="Mia : vies de départ",
    )
    @app_commands.choices(jeu=GAME_CHOICES, format=FORMAT_CHOICES, preset=PRESET_CHOICES)
    @app_commands.choices(des=menteur_options.DICE)
    async def create(
        self,
        interaction: discord.Interaction,
        jeu: str,
        format: str,
        places: app_commands.Range[int, 2, 10] | None = None,
        inscriptions: app_commands.Range[int, 1, 10080] = 30,
        ronde: app_commands.Range[int, 2, 10080] = 60,
        rondes: app_commands.Range[int, 1, 20] | None = None,
        qualifies: app_commands.Range[int, 1, 9] | None = None,
        preset: str | None = None,
        des: int | None = None,
        vies: app_commands.Range[int, 1, 10] | None = None,
    ) -> None:
        answers.expect_public(interaction)
        guild_id = interaction.guild_id or 0
        settings = await self.bot.tables.repository.guild_settings(guild_id)
        if not may_organize(interaction, settings):
            raise TableError("tour_not_allowed")
        game = GAMES.get(jeu)
        if game is None:
            raise TableError("tour_game", games=", ".join(GAMES))
        try:
            chosen = Format(format)
        except ValueError:
            raise TableError("tour_format", game=jeu) from None
        if chosen not in game.formats:
            raise TableError("tour_format", game=jeu)
        if threads.inside(interaction):
            raise TableError("tour_in_thread")
        permissions.check_playable(interaction)
        seats = DUEL_SEATS if chosen != POOLS else (places or min(game.most_seats, 6))
        if chosen != POOLS and places not in (None, DUEL_SEATS):
            raise TableError("tour_seats_duel")
        if chosen == POOLS and not MIN_POOL_SEATS <= seats <= game.most_seats:
            raise TableError("tour_seats", least=MIN_POOL_SEATS, most=game.most_seats)
        if qualifies is not None and chosen != POOLS:
            raise TableError("tour_qualifiers_pools")
        if qualifies is not None and not 1 <= qualifies < seats:
            raise TableError("tour_qualifiers", most=seats - 1)
        if rondes is not None and chosen != Format.SWISS:
            raise TableError("tour_rounds")
        if not SIGNUP_MINUTES[0] <= inscriptions <= SIGNUP_MINUTES[1]:
            raise TableError("tour_minutes", least=SIGNUP_MINUTES[0], most=SIGNUP_MINUTES[1])
        if not ROUND_MINUTES[0] <= ronde <= ROUND_MINUTES[1]:
            raise TableError("tour_minutes", least=ROUND_MINUTES[0], most=ROUND_MINUTES[1])
        rules = table_rules(jeu, settings, {"preset": preset, "des": des, "vies": vies})
        kind = REGISTRY[game.kind]
        minute = self.bot.settings.minute_seconds
        lang = settings.get("language") or public_lang(interaction)
        hosted = Hosted(
            game=jeu,
            organizer=interaction.user.id,
            lang=lang,
            rules=kind.rules_to_json(rules),
            options=Options(chosen, seats, rondes, qualifies or 1),
            signup_ends=time.time() + inscriptions * minute,
            round_seconds=ronde * minute,
            turn_seconds=settings.get("turn_seconds"),
        )
        try:
            tournament_id = await self.director.create(
                guild_id, interaction.channel_id or 0, hosted
            )
        except ChannelBusy:
            raise TableError("tour_busy") from None
        shown = await answers.reply(
            interaction,
            t(lang, "tour.opened", player=render.mention(interaction.user.id)),
            ephemeral=False,
            embed=render.signup_embed(hosted),
            view=signup_view(tournament_id, lang),
            mentions=discord.AllowedMentions.none(),
        )
        await self.director.shown_at(tournament_id, int(shown.id))
        # Without threads, its matches are played here, one after the other.
        await permissions.tell_lacking(interaction, threads.NEEDED, "perm.tour_threads")

    @app_commands.command(
        name="commencer", description="Lancer le tournoi de ce salon sans attendre"
    )
    async def start_now(self, interaction: discord.Interaction) -> None:
        tournament_id, hosted = self._here(interaction)
        await self._check_organizer(interaction, hosted)
        await answers.think(interaction, ephemeral=True)
        await self.director.start_now(tournament_id)
        await answers.reply(
            interaction, t(private_lang(interaction), "tour.started_by_you"), ephemeral=True
        )

    @app_commands.command(name="annuler", description="Annuler le tournoi de ce salon")
    async def cancel(self, interaction: discord.Interaction) -> None:
        tournament_id, hosted = self._here(interaction)
        await self._check_organizer(interaction, hosted)
        hosted = await self.director.cancel(tournament_id)
        await answers.reply(
            interaction,
            t(hosted.lang, "tour.cancelled", player=render.mention(interaction.user.id)),
            ephemeral=False,
            mentions=discord.AllowedMentions.none(),
        )

    @app_commands.command(name="retirer", description="Retirer un joueur du tournoi de ce salon")
    @app_commands.describe(joueur="Le joueur retiré (il perd son match en cours)")
    async def remove(self, interaction: discord.Interaction, joueur: discord.User) -> None:
        tournament_id, hosted = self._here(interaction)
        await self._check_organizer(interaction, hosted)
        await answers.think(interaction, ephemeral=True)
        hosted = await self.director.remove(tournament_id, joueur.id)
        await answers.reply(
            interaction, t(private_lang(interaction), "tour.removed_done"), ephemeral=True
        )

    @app_commands.command(name="voir", description="Voir le tableau et le classement du tournoi")
    async def show(self, interaction: discord.Interaction) -> None:
        found = self.director.in_channel(interaction.channel_id or 0)
        hosted: Hosted | None = self.director.open.get(found) if found is not None else None
        if hosted is None:
            latest = await self.bot.tables.repository.tournaments(interaction.guild_id or 0, 1)
            if latest:
                hosted = Hosted.from_json(latest[0].data)
        if hosted is None:
            raise TableError("tour_none")
        embed = (
            render.signup_embed(hosted)
            if hosted.tournament is None
            else render.status_embed(hosted)
        )
        await answers.reply(interaction, ephemeral=True, embed=embed)

    # ------------------------------------------------------------------ the buttons

    async def signup_clicked(
        self, interaction: discord.Interaction, tournament_id: int, action: str
    ) -> None:
        await self.director.load()
        if action == "start":
            hosted = self.director.open.get(tournament_id)
            if hosted is None:
                raise TableError("tour_over")
            await self._check_organizer(interaction, hosted)
            await answers.think(interaction, ephemeral=True)
            await self.director.start_now(tournament_id)
            await answers.reply(
                interaction, t(private_lang(interaction), "tour.started_by_you"), ephemeral=True
            )
            return
        joining = action == "join"
        hosted = await self.director.sign(
            tournament_id, interaction.user.id, display_name(interaction), joining=joining
        )
        # The latest sign-ups (another click may have come in meanwhile).
        hosted = self.director.open.get(tournament_id, hosted)
        await answers.update(interaction, embed=render.signup_embed(hosted))
        key = "tour.signed" if joining else "tour.unsigned"
        await answers.reply(interaction, t(private_lang(interaction), key), ephemeral=True)

    async def checked_in(
        self, interaction: discord.Interaction, tournament_id: int, match_id: str
    ) -> None:
        hosted, match = await self.director.check_in(tournament_id, match_id, interaction.user.id)
        table = hosted.table(match_id)
        lang = hosted.lang
        waiting = [p for p in match.present if p not in table.present]
        line = t(lang, "tour.present", players=render.names(table.present))
        if waiting and table.game is None:
            line += "\n" + t(lang, "tour.awaited", players=render.names(waiting))
        content = (interaction.message.content if interaction.message else "") or ""
        first = "\n".join(content.split("\n")[:2])  # who plays, and until when
        done = table.game is not None
        try:
            await answers.update(
                interaction,
                content=f"{first}\n{line}"[:2000],
                view=None if done else discord.utils.MISSING,
                allowed_mentions=discord.AllowedMentions.none(),
            )
        except discord.HTTPException:
            await answers.reply(
                interaction, t(private_lang(interaction), "tour.you_are_in"), ephemeral=True
            )
