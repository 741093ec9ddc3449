"""What a leaderboard shows, wherever it is shown (`/classement` in Discord, the server's
web page): the boards, the periods and seasons they rank over, one page of standings, and
how a figure is written. Both read it here, so that they agree on every figure."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta

from bot import plots
from bot.games import REGISTRY
from bot.i18n import t
from bot.kernel.spec import RATING, Board, Metric
from bot.storage import FigureStore, Rating, Season, Standing

PAGE = 10
GAMES_METRIC, WINS_METRIC = "games", "wins"  # what a player's picture draws per game

# Every leaderboard by name, in the games' order; ``Board.criteria`` lists what each ranks
# by, the default first.
BOARDS: dict[str, Board] = {board.name: board for _, board in REGISTRY.boards()}
DEFAULT_BOARD = next(iter(BOARDS))  # what `/classement` shows without a `jeu`: the first game's
PERIODS = {"semaine": 7, "mois": 30, "tout": None}
ALL_TIME = "tout"


def season_period(number: int) -> str:
    """A season as a pager's period (``s3``), next to ``semaine``, ``mois``, ``tout``."""
    return f"s{number}"


def season_number(period: str) -> int | None:
    """The season a pager's period names, if it names one."""
    if period.startswith("s") and period[1:].isdigit():
        return int(period[1:])
    return None


def show_day(day: str, lang: str) -> str:
    """A day as people of ``lang`` write it (31/12/2026, or 2026-12-31)."""
    value = date.fromisoformat(day)
    return value.strftime("%d/%m/%Y") if lang == "fr" else value.isoformat()


def season_span(season: Season, lang: str) -> str:
    """A season's first and last days (the current one: its first day and its end)."""
    last = (date.fromisoformat(season.ends) - timedelta(days=1)).isoformat()
    return t(
        lang,
        "season.span",
        number=season.number,
        first=show_day(season.started, lang),
        last=show_day(last, lang),
    )


def season_choice(season: Season, lang: str) -> str:
    """A season as a choice lists it: its days, and "current" for the current one."""
    span = season_span(season, lang)
    return span if season.closed else t(lang, "season.current", span=span)


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


@dataclass(frozen=True, slots=True)
class Ranking:
    """One page of a board's standings by one criterion, over a period or a season."""

    board: Board
    metric: str
    period: str  # semaine, mois, tout, or the season's ``sN``
    season: Season | None
    page: int  # 0-based, clamped to the pages there are
    pages: int
    ranked: int  # how many players the whole board ranks
    rows: list[Standing]
    mine: Standing | None  # the viewer's place, if they are ranked

    def title(self, lang: str) -> str:
        shown = (
            season_span(self.season, lang)
            if self.season is not None
            else t(lang, f"rank.period.{self.period}")
        )
        return t(
            lang,
            "rank.title",
            game=t(lang, f"rank.game.{self.board.name}"),
            metric=t(lang, f"metric.{self.metric}"),
            period=shown,
        )


async def ranking(
    repository: FigureStore,
    guild_id: int,
    board: Board,
    metric: str,
    period: str,
    page: int,
    viewer: int | None,
    season: Season | None = None,
    *,
    size: int = PAGE,
) -> Ranking:
    """The page ``page`` (0-based, clamped) of ``board`` by ``metric`` (one of its
    criteria); ``season``: the one to rank over instead of ``period`` (a closed one by its
    archived ratings, the current one by the live ratings, both by its days' figures)."""
    ranked_by = criterion(board, metric)
    if ranked_by is None:
        raise ValueError(f"{board.name} has no criterion {metric!r}")
    until: str | None = None
    archived: int | None = None
    start: str | None
    if season is not None:
        start = season.started
        if season.closed:
            until, archived = season.ends, season.number
        period = season_period(season.number)
    else:
        start = since(period)

    async def read(page: int) -> tuple[list[Standing], int]:
        return await repository.leaderboard(
            guild_id,
            board.name,
            ranked_by,
            start,
            offset=page * size,
            limit=size,
            until=until,
            season=archived,
        )

    rows, ranked = await read(page)
    pages = max(1, -(-ranked // size))
    if page >= pages:
        page = pages - 1
        rows, ranked = await read(page)
    mine = None
    if viewer is not None:
        mine = await repository.standing(
            guild_id, board.name, ranked_by, start, viewer, until=until, season=archived
        )
    return Ranking(board, metric, period, season, page, pages, ranked, rows, mine)


def figure_lines(
    figures: dict[str, dict[str, float]], ratings: dict[str, Rating], lang: str
) -> list[tuple[str, list[tuple[str, str]]]]:
    """A player's figures as ``/stats`` lists them: per board they played on, in the games'
    order, each criterion's (label, value as written)."""
    shown = []
    for game, board in BOARDS.items():
        if game not in figures and game not in ratings:
            continue
        mine = figures.get(game, {})
        lines = []
        for metric in board.criteria:
            if metric == RATING:
                if game in ratings:
                    lines.append((t(lang, "metric.rating"), f"{ratings[game].rating:.0f}"))
            elif metric in mine:
                lines.append((t(lang, f"metric.{metric}"), number(mine[metric])))
        shown.append((game, lines))
    return shown


def game_names(lang: str) -> dict[str, str]:
    """Every board's name as shown, in the games' order."""
    return {name: t(lang, f"rank.game.{name}") for name in BOARDS}


def plot_labels(lang: str) -> plots.Labels:
    return plots.Labels(
        rating=t(lang, "stats.plot_rating"),
        results=t(lang, "stats.plot_results"),
        no_rating=t(lang, "stats.plot_no_rating"),
    )


def plot_results(figures: dict[str, dict[str, float]]) -> dict[str, plots.Results]:
    """Per board the player played on: their games, and their wins where it counts wins."""
    return {
        game: plots.Results(mine.get(GAMES_METRIC, 0.0), mine.get(WINS_METRIC))
        for game, mine in figures.items()
        if mine.get(GAMES_METRIC)
    }


async def player_picture(
    repository: FigureStore,
    guild_id: int,
    user_id: int,
    lang: str,
    figures: dict[str, dict[str, float]],
    *,
    waiting: int | None = None,
) -> bytes:
    """The player's picture (their rating history, ``figures``' games), drawn off the loop
    (``waiting``: see ``plots.render_async``)."""
    history = await repository.rating_history(guild_id, user_id)
    return await plots.render_async(
        history, plot_results(figures), game_names(lang), plot_labels(lang), waiting=waiting
    )
