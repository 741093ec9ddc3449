"""Leaderboards (`/classement`, paged) and one player's figures (`/stats`)."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.games import REGISTRY
from bot.i18n import t
from bot.kernel.spec import RATING, Board, Metric
from bot.storage import Repository, Standing
from bot.table import TableError
from cogs.table import answers
from cogs.table.achievements import held_names
from cogs.table.components import label_of
from cogs.table.errors import private_lang, public_language, refuse

if TYPE_CHECKING:
    from bot.client import Gobelet

PAGE = 10
COLOUR = discord.Colour(0xF1C40F)

# Every leaderboard by name, in the games' order; ``Board.criteria`` lists what each ranks
# by, the default first.
BOARDS: dict[str, Board] = {board.name: board for _, board in REGISTRY.boards()}
DEFAULT_BOARD = next(iter(BOARDS))  # what `/classement` shows without a `jeu`: the first game's
PERIODS = {"semaine": 7, "mois": 30, "tout": None}


def since(period: str) -> str | None:
    days = PERIODS.get(period)
    if days is None:
        return None
    return (datetime.now(UTC).date() - timedelta(days=days - 1)).isoformat()


def criterion(board: Board, name: str) -> Metric | str | None:
    """The criterion ``name`` of ``board`` as the storage takes it: the declared ``Metric``,
    or ``RATING``; None if the board has no such criterion."""
    if name == RATING:
        return RATING
    return board.metric(name)


def number(value: float) -> str:
    return f"{value:.0f}" if float(value).is_integer() else f"{value:.1f}"


async def leaderboard_embed(
    repository: Repository,
    guild_id: int,
    board: Board,
    metric: str,
    period: str,
    page: int,
    viewer: int,
    lang: str,
) -> tuple[discord.Embed, int]:
    """The page (0-based, clamped) and the number of pages; ``metric``: one of the board's
    criteria."""
    ranked_by = criterion(board, metric)
    if ranked_by is None:
        raise ValueError(f"{board.name} has no criterion {metric!r}")
    start = since(period)
    rows, ranked = await repository.leaderboard(
        guild_id, board.name, ranked_by, start, offset=page * PAGE, limit=PAGE
    )
    pages = max(1, -(-ranked // PAGE))
    if page >= pages:
        page = pages - 1
        rows, ranked = await repository.leaderboard(
            guild_id, board.name, ranked_by, start, offset=page * PAGE, limit=PAGE
        )
    title = t(
        lang,
        "rank.title",
        game=t(lang, f"rank.game.{board.name}"),
        metric=t(lang, f"metric.{metric}"),
        period=t(lang, f"rank.period.{period}"),
    )
    embed = discord.Embed(title=title, colour=COLOUR)
    if rows:
        embed.description = "\n".join(_row(row) for row in rows)
    else:
        embed.description = t(lang, "rank.empty")
    mine = await repository.standing(guild_id, board.name, ranked_by, start, viewer)
    footer = t(lang, "rank.page", page=page + 1, pages=pages)
    if mine is not None:
        footer = t(lang, "rank.yours", rank=mine.rank, value=number(mine.value)) + " · " + footer
    embed.set_footer(text=footer)
    return embed, pages


def _row(row: Standing) -> str:
    medal = {1: "🥇", 2: "🥈", 3: "🥉"}.get(row.rank, f"`{row.rank:>2}.`")
    return f"{medal} <@{row.user_id}> — **{number(row.value)}**"


class PageButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"gobrank:(?P<game>[a-z]+):(?P<metric>[a-z_]+):(?P<period>[a-z]+):(?P<page>\d+)",
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
        if board is None or self.metric not in board.criteria or self.period not in PERIODS:
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

    async def cog_unload(self) -> None:
        self.bot.remove_components(PageButton)

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        if interaction.guild_id is None:
            raise app_commands.NoPrivateMessage()
        return True

    @app_commands.command(name="classement", description="Le classement du serveur")
    @app_commands.guild_only()
    @app_commands.describe(jeu="Le jeu", critere="Le critère de classement", periode="La période")
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
        periode: str = "tout",
    ) -> None:
        answers.expect_public(interaction)
        board = BOARDS.get(jeu)
        if board is None:
            names = ", ".join(f"`{game}`" for game in BOARDS)
            await refuse_text(
                interaction, t(private_lang(interaction), "err.unknown_game", games=names)
            )
            return
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
        )
        view = pager(jeu, metric, periode, 0, pages)
        await answers.reply(interaction, ephemeral=False, embed=embed, view=view)

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
        lang = await public_language(self.repository, interaction)
        embed = await player_embed(self.repository, interaction.guild_id or 0, who.id, lang)
        await answers.reply(
            interaction, ephemeral=False, embed=embed, mentions=discord.AllowedMentions.none()
        )


async def player_embed(
    repository: Repository, guild_id: int, user_id: int, lang: str
) -> discord.Embed:
    figures = await repository.player_figures(guild_id, user_id, list(BOARDS.values()))
    ratings = await repository.player_ratings(guild_id, user_id)
    held = (await repository.achievements(guild_id, [user_id])).get(user_id, [])
    title = t(lang, "stats.title", player=f"<@{user_id}>")
    if not figures and not ratings and not held:
        return discord.Embed(colour=COLOUR, description=title + "\n" + t(lang, "stats.empty"))
    embed = discord.Embed(colour=COLOUR, description=title)
    for game, board in BOARDS.items():
        mine = figures.get(game, {})
        if game not in figures and game not in ratings:
            continue
        lines = []
        for metric in board.criteria:
            if metric == RATING:
                if game in ratings:
                    lines.append(f"{t(lang, 'metric.rating')} : **{ratings[game].rating:.0f}**")
            elif metric in mine:
                lines.append(f"{t(lang, f'metric.{metric}')} : **{number(mine[metric])}**")
        embed.add_field(
            name=t(lang, f"rank.game.{game}"), value="\n".join(lines) or "—", inline=True
        )
    names = held_names(lang, held)
    if names:
        embed.add_field(name=t(lang, "stats.achievements"), value=" · ".join(names), inline=False)
    return embed


async def refuse_text(interaction: discord.Interaction, text: str) -> None:
    await answers.reply(interaction, text, ephemeral=True)


async def setup(bot: Gobelet) -> None:
    await bot.add_cog(ClassementCog(bot))
