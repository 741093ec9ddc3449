"""Leaderboards (`/classement`, paged, by period or season), one player's figures
(`/stats`), and the seasons' close and podium announcement (``bot.table.seasons``)."""

from __future__ import annotations

import io
import logging
import re
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.i18n import language, t
from bot.interactions import answers
from bot.interactions.refusals import private_lang, public_language, refuse
from bot.kernel.spec import RATING, Board
from bot.leaderboards import (
    BOARDS,
    DEFAULT_BOARD,
    PERIODS,
    figure_lines,
    number,
    player_picture,
    ranking,
    season_choice,
    season_number,
    season_period,
    season_span,
)
from bot.storage import Held, Rating, Repository, Season, Standing, StorageError, Timer
from bot.table import TableError
from bot.table.seasons import CHANNEL_SETTING, PODIUM
from cogs.table.achievement_texts import held_names
from cogs.table.components import label_of

if TYPE_CHECKING:
    from bot.client import Gobelet

log = logging.getLogger(__name__)

PODIUM_PLACES = 3
PICTURE = "stats.png"
SEASON_CHOICES = 25  # Discord shows at most 25 autocomplete choices
COLOUR = discord.Colour(0xF1C40F)


async def leaderboard_embed(
    repository: Repository,
    guild_id: int,
    board: Board,
    metric: str,
    period: str,
    page: int,
    viewer: int,
    lang: str,
    season: Season | None = None,
) -> tuple[discord.Embed, int]:
    """The page (0-based, clamped) and the number of pages; ``metric``: one of the board's
    criteria; ``season``: the one to rank over instead of ``period`` (see ``ranking``)."""
    shown = await ranking(repository, guild_id, board, metric, period, page, viewer, season)
    embed = discord.Embed(title=shown.title(lang), colour=COLOUR)
    if shown.rows:
        embed.description = "\n".join(_row(row) for row in shown.rows)
    else:
        embed.description = t(lang, "rank.empty")
    footer = t(lang, "rank.page", page=shown.page + 1, pages=shown.pages)
    if shown.mine is not None:
        mine = t(lang, "rank.yours", rank=shown.mine.rank, value=number(shown.mine.value))
        footer = mine + " · " + footer
    embed.set_footer(text=footer)
    return embed, shown.pages


def _row(row: Standing) -> str:
    medal = {1: "🥇", 2: "🥈", 3: "🥉"}.get(row.rank, f"`{row.rank:>2}.`")
    return f"{medal} <@{row.user_id}> — **{number(row.value)}**"


class PageButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"gobrank:(?P<game>[a-z]+):(?P<metric>[a-z_]+):(?P<period>[a-z0-9]+):(?P<page>\d+)",
):
    def __init__(
        self, game: str, metric: str, period: str, page: int, *, label: str, disabled: bool = False
    ) -> None:
        super().__init__(
            discord.ui.Button(
                label=label,
                style=discord.ButtonStyle.secondary,
                custom_id=f"gobrank:{game}:{metric}:{period}:{page}",
                disabled=disabled,
            )
        )
        self.game, self.metric, self.period, self.page = game, metric, period, page

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> PageButton:
        return cls(
            match["game"],
            match["metric"],
            match["period"],
            int(match["page"]),
            label=label_of(item),
        )

    async def callback(self, interaction: discord.Interaction) -> None:
        if interaction.guild_id is None:
            await refuse(interaction, app_commands.NoPrivateMessage())
            return
        repository = interaction.client.tables.repository  # type: ignore[attr-defined]
        board = BOARDS.get(self.game)
        number = season_number(self.period)
        season = None
        if number is not None:
            seasons = await repository.seasons(interaction.guild_id)
            season = next((s for s in seasons if s.number == number), None)
        valid_period = self.period in PERIODS or season is not None
        if board is None or self.metric not in board.criteria or not valid_period:
            await refuse(interaction, TableError("stale"))
            return
        lang = await public_language(repository, interaction)
        embed, pages = await leaderboard_embed(
            repository,
            interaction.guild_id,
            board,
            self.metric,
            self.period,
            self.page,
            interaction.user.id,
            lang,
            season,
        )
        view = pager(self.game, self.metric, self.period, min(self.page, pages - 1), pages)
        await answers.update(interaction, embed=embed, view=view)


def pager(game: str, metric: str, period: str, page: int, pages: int) -> discord.ui.View | None:
    if pages <= 1:
        return None
    view = discord.ui.View(timeout=None)
    view.add_item(PageButton(game, metric, period, max(page - 1, 0), label="◀", disabled=page == 0))
    view.add_item(
        PageButton(
            game, metric, period, min(page + 1, pages - 1), label="▶", disabled=page >= pages - 1
        )
    )
    return view


class ClassementCog(commands.Cog, name="Classement"):
    def __init__(self, bot: Gobelet) -> None:
        self.bot = bot

    @property
    def repository(self) -> Repository:
        return self.bot.tables.repository

    async def cog_load(self) -> None:
        self.bot.add_components(PageButton)
        self.bot.tables.clock.handle(PODIUM, self.announce_podium)

    @commands.Cog.listener()
    async def on_guild_remove(self, guild: discord.Guild) -> None:
        """The bot left a server (or was removed): its web page goes with it."""
        try:
            if await self.repository.close_web_page(guild.id):
                log.info("server %s left: its web page is off", guild.id)
        except StorageError as error:
            log.warning(
                "server %s left, but its web page could not be turned off (%s)", guild.id, error
            )

    async def announce_podium(self, timer: Timer) -> None:
        """Post a closed season's podium in the channel the server chose for it (the
        ``podium`` timer, set when the season closed); without a channel it is archived
        only, and a season nobody played a rated game in is not announced. A channel gone
        or closed to the bot is not tried again; another failure of Discord's is."""
        guild_id = timer.guild_id or 0
        number = int(timer.key.rsplit(":", 1)[1])
        settings = await self.repository.guild_settings(guild_id)
        channel_id = settings.get(CHANNEL_SETTING)
        season = next(
            (s for s in await self.repository.seasons(guild_id) if s.number == number), None
        )
        if not channel_id or season is None:
            return
        # The server's locale is known once its shard has said what servers it has (a
        # timer may fire as the bot connects, while they are still unavailable).
        await self.bot.wait_until_ready()
        guild = self.bot.get_guild(guild_id)
        lang = language(settings.get("language") or (guild.preferred_locale if guild else "fr"))
        embed = await podium_embed(self.repository, guild_id, season, lang)
        if embed is None:
            return  # nobody played a rated game: no message to a quiet server every month
        channel = self.bot.get_partial_messageable(int(channel_id), guild_id=guild_id)
        try:
            await channel.send(embed=embed, allowed_mentions=discord.AllowedMentions.none())
        except (discord.NotFound, discord.Forbidden) as error:
            log.warning(
                "server %s: season %s's podium could not be posted in %s (%s)",
                guild_id,
                number,
                channel_id,
                error.text or error.status,
            )

    async def cog_unload(self) -> None:
        self.bot.remove_components(PageButton)

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        if interaction.guild_id is None:
            raise app_commands.NoPrivateMessage()
        return True

    @app_commands.command(name="classement", description="Le classement du serveur")
    @app_commands.guild_only()
    @app_commands.describe(
        jeu="Le jeu",
        critere="Le critère de classement",
        periode="La période",
        saison="Une saison, en cours ou passée (son numéro)",
    )
    @app_commands.choices(
        # The boards by their French names (``CommandTranslator`` gives the English ones).
        jeu=[app_commands.Choice(name=t("fr", f"rank.game.{name}"), value=name) for name in BOARDS],
        periode=[
            app_commands.Choice(name="cette semaine", value="semaine"),
            app_commands.Choice(name="ce mois-ci", value="mois"),
            app_commands.Choice(name="depuis toujours", value="tout"),
        ],
    )
    async def classement(
        self,
        interaction: discord.Interaction,
        jeu: str = DEFAULT_BOARD,
        critere: str | None = None,
        periode: str | None = None,
        saison: int | None = None,
    ) -> None:
        answers.expect_public(interaction)
        board = BOARDS.get(jeu)
        if board is None:
            names = ", ".join(f"`{game}`" for game in BOARDS)
            await refuse_text(
                interaction, t(private_lang(interaction), "err.unknown_game", games=names)
            )
            return
        season = None
        if saison is not None:
            if periode is not None:
                await refuse_text(interaction, t(private_lang(interaction), "err.season_or_period"))
                return
            seasons = await self.repository.seasons(interaction.guild_id or 0)
            season = next((s for s in seasons if s.number == saison), None)
            if season is None:
                await refuse_text(interaction, unknown_season(seasons, private_lang(interaction)))
                return
        periode = periode or "tout"
        if periode not in PERIODS:
            names = ", ".join(f"`{period}`" for period in PERIODS)
            await refuse_text(
                interaction, t(private_lang(interaction), "err.unknown_period", periods=names)
            )
            return
        metric = critere or board.criteria[0]
        lang = await public_language(self.repository, interaction)
        if metric not in board.criteria:
            names = ", ".join(f"`{m}`" for m in board.criteria)
            await refuse_text(
                interaction, t(private_lang(interaction), "err.unknown_metric", metrics=names)
            )
            return
        embed, pages = await leaderboard_embed(
            self.repository,
            interaction.guild_id or 0,
            board,
            metric,
            periode,
            0,
            interaction.user.id,
            lang,
            season,
        )
        shown = season_period(season.number) if season is not None else periode
        view = pager(jeu, metric, shown, 0, pages)
        await answers.reply(interaction, ephemeral=False, embed=embed, view=view)

    @classement.autocomplete("saison")
    async def season_choices(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[int]]:
        """The server's seasons, the latest first (what is typed filters by number)."""
        lang = private_lang(interaction)
        seasons = await self.repository.seasons(interaction.guild_id or 0)
        typed = current.strip()
        choices = [
            app_commands.Choice(name=season_choice(season, lang), value=season.number)
            for season in reversed(seasons)
            if not typed or str(season.number).startswith(typed)
        ]
        return choices[:SEASON_CHOICES]

    @classement.autocomplete("critere")
    async def criteria(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        game = getattr(interaction.namespace, "jeu", None) or DEFAULT_BOARD
        lang = private_lang(interaction)
        typed = current.strip().lower()
        board = BOARDS.get(game, BOARDS[DEFAULT_BOARD])
        choices = [
            app_commands.Choice(name=t(lang, f"metric.{m}"), value=m) for m in board.criteria
        ]
        return [c for c in choices if typed in c.name.lower() or typed in c.value][:25]

    @app_commands.command(name="stats", description="Les statistiques d'un joueur sur ce serveur")
    @app_commands.guild_only()
    @app_commands.describe(joueur="Le joueur (toi par défaut)")
    async def stats(
        self, interaction: discord.Interaction, joueur: discord.User | None = None
    ) -> None:
        answers.expect_public(interaction)
        who = joueur or interaction.user
        guild = interaction.guild_id or 0
        lang = await public_language(self.repository, interaction)
        figures = await self.repository.player_figures(guild, who.id, list(BOARDS.values()))
        ratings = await self.repository.player_ratings(guild, who.id)
        held = (await self.repository.achievements(guild, [who.id])).get(who.id, [])
        embed = figures_embed(who.id, figures, ratings, held, lang)
        picture = None
        if figures:
            # Drawing takes a moment (the first time, matplotlib is loaded): "thinking…".
            await answers.think(interaction, ephemeral=False)
            png = await player_picture(self.repository, guild, who.id, lang, figures)
            picture = discord.File(io.BytesIO(png), filename=PICTURE)
            embed.set_image(url=f"attachment://{PICTURE}")
        await answers.reply(
            interaction,
            ephemeral=False,
            embed=embed,
            file=picture,
            mentions=discord.AllowedMentions.none(),
        )


async def player_embed(
    repository: Repository, guild_id: int, user_id: int, lang: str
) -> discord.Embed:
    """A player's figures and ratings on the server, as ``/stats`` shows them."""
    figures = await repository.player_figures(guild_id, user_id, list(BOARDS.values()))
    ratings = await repository.player_ratings(guild_id, user_id)
    held = (await repository.achievements(guild_id, [user_id])).get(user_id, [])
    return figures_embed(user_id, figures, ratings, held, lang)


def figures_embed(
    user_id: int,
    figures: dict[str, dict[str, float]],
    ratings: dict[str, Rating],
    held: list[Held],
    lang: str,
) -> discord.Embed:
    title = t(lang, "stats.title", player=f"<@{user_id}>")
    if not figures and not ratings and not held:
        return discord.Embed(colour=COLOUR, description=title + "\n" + t(lang, "stats.empty"))
    embed = discord.Embed(colour=COLOUR, description=title)
    for game, lines in figure_lines(figures, ratings, lang):
        value = "\n".join(f"{label} : **{shown}**" for label, shown in lines)
        embed.add_field(name=t(lang, f"rank.game.{game}"), value=value or "—", inline=True)
    names = held_names(lang, held)
    if names:
        embed.add_field(name=t(lang, "stats.achievements"), value=" · ".join(names), inline=False)
    return embed


def unknown_season(seasons: list[Season], lang: str) -> str:
    if not seasons:
        return t(lang, "err.no_season")
    return t(lang, "err.unknown_season", last=seasons[-1].number)


async def podium_embed(
    repository: Repository, guild_id: int, season: Season, lang: str
) -> discord.Embed | None:
    """A closed season's podium per game, by the final ratings archived (None: nobody
    played a rated game in it)."""
    embed = discord.Embed(title=t(lang, "season.closed", span=season_span(season, lang)))
    embed.colour = COLOUR
    for name in BOARDS:
        rows, _ = await repository.leaderboard(
            guild_id, name, RATING, None, offset=0, limit=PODIUM_PLACES, season=season.number
        )
        if rows:
            embed.add_field(
                name=t(lang, f"rank.game.{name}"),
                value="\n".join(_row(row) for row in rows),
                inline=False,
            )
    if not embed.fields:
        return None
    embed.set_footer(text=t(lang, "season.next", number=season.number + 1))
    return embed


async def refuse_text(interaction: discord.Interaction, text: str) -> None:
    await answers.reply(interaction, text, ephemeral=True)


async def setup(bot: Gobelet) -> None:
    await bot.add_cog(ClassementCog(bot))
