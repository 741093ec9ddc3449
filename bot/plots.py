"""A player's picture: their rating over time per game, and their results per game, as a
PNG (matplotlib, its object API: no pyplot state shared between renders).

Rendering is slow, and the first one imports matplotlib: callers run
``render`` off the event loop, on one drawing thread of its own (``render_async``), which
keeps the latest pictures and can refuse to queue more than a few. The texts come from the caller, in the
reader's language; this module knows no language and nothing of Discord.
"""

from __future__ import annotations

import asyncio
import io
import threading
from collections import OrderedDict
from collections.abc import Hashable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from datetime import UTC, datetime

from bot.storage import RatingPoint

# Discord's dark theme, where most people read: light text on its own background.
BACKGROUND = "#2b2d31"
PANEL = "#313338"
TEXT = "#dbdee1"
GRID = "#4e5058"
# One colour per game, in the games' order (four games, and room for more).
COLOURS = ("#f1c40f", "#5865f2", "#57f287", "#eb459e", "#ed4245", "#fee75c")
WIDTH, HEIGHT, DPI = 8.0, 6.0, 100  # 800 × 600: sharp on a phone, light to send

_rendering = threading.Lock()  # matplotlib's caches (fonts, text layout) are not thread-safe


@dataclass(frozen=True, slots=True)
class Labels:
    """The picture's texts, in the reader's language."""

    rating: str  # the upper chart's title
    results: str  # the lower chart's title
    no_rating: str  # the upper chart without any rated game


@dataclass(frozen=True, slots=True)
class Results:
    """One game's results: how many played, how many won (None: the game has no winner)."""

    games: float
    wins: float | None


def render(
    history: Sequence[RatingPoint],
    results: Mapping[str, Results],
    names: Mapping[str, str],
    labels: Labels,
) -> bytes:
    """The PNG: ``history`` (every game's points, oldest first) drawn per game, and
    ``results`` per game; ``names``: each game's name as shown, in the games' order."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.dates import AutoDateLocator, ConciseDateFormatter
    from matplotlib.figure import Figure

    with _rendering:
        figure = Figure(figsize=(WIDTH, HEIGHT), dpi=DPI, facecolor=BACKGROUND)
        FigureCanvasAgg(figure)
        rating, played = figure.subplots(
            2, 1, gridspec_kw={"height_ratios": (3, 2), "hspace": 0.45}
        )
        colour = {game: COLOURS[i % len(COLOURS)] for i, game in enumerate(names)}
        for axes, title in ((rating, labels.rating), (played, labels.results)):
            axes.set_facecolor(PANEL)
            axes.set_title(title, color=TEXT, loc="left", fontsize=13, fontweight="bold")
            axes.tick_params(colors=TEXT, labelsize=9)
            for side in axes.spines.values():
                side.set_color(GRID)
            axes.grid(color=GRID, linewidth=0.6, alpha=0.6)
            axes.set_axisbelow(True)

        drawn = False
        for game in names:
            points = [p for p in history if p.game == game]
            if not points:
                continue
            when = [datetime.fromtimestamp(p.at, UTC) for p in points]
            rating.plot(
                when,
                [p.rating for p in points],
                color=colour[game],
                marker="o" if len(points) < 40 else None,
                markersize=4,
                linewidth=2,
                drawstyle="steps-post",
                label=names[game],
            )
            drawn = True
        if drawn:
            locator = AutoDateLocator()
            rating.xaxis.set_major_locator(locator)
            rating.xaxis.set_major_formatter(ConciseDateFormatter(locator))
            legend = rating.legend(loc="best", fontsize=9, facecolor=BACKGROUND, edgecolor=GRID)
            for text in legend.get_texts():
                text.set_color(TEXT)
        else:
            rating.set_xticks([])
            rating.set_yticks([])
            rating.text(
                0.5,
                0.5,
                labels.no_rating,
                color=TEXT,
                ha="center",
                va="center",
                transform=rating.transAxes,
            )

        shown = [game for game in names if game in results]
        if not shown:
            played.set_visible(False)
        rows = range(len(shown))
        games = [results[game].games for game in shown]
        wins = [results[game].wins or 0 for game in shown]
        # Each bar: the games played, the share won in the game's colour, "won / played"
        # written after it (the chart's title says which is which).
        played.barh(rows, games, color=GRID, height=0.6)
        played.barh(rows, wins, color=[colour[g] for g in shown], height=0.6)
        for row, game in zip(rows, shown, strict=True):
            won = results[game].wins
            text = (
                f"{won:.0f} / {results[game].games:.0f}"
                if won is not None
                else (f"{results[game].games:.0f}")
            )
            played.text(results[game].games, row, f"  {text}", color=TEXT, va="center", fontsize=9)
        if shown:
            played.set_yticks(list(rows), [names[game] for game in shown])
            played.invert_yaxis()
            played.set_xlim(0, max([*games, 1]) * 1.25)
            played.xaxis.get_major_locator().set_params(integer=True)

        output = io.BytesIO()
        figure.savefig(output, format="png", facecolor=BACKGROUND, bbox_inches="tight")
        return output.getvalue()


class Busy(RuntimeError):
    """Too many pictures are being drawn or wait for it: try again in a moment."""


# One thread draws (matplotlib draws one picture at a time anyway), apart from the default
# executor that name lookups and the like use; the latest pictures are kept, by content.
_drawer = ThreadPoolExecutor(max_workers=1, thread_name_prefix="plots")
_drawn: OrderedDict[Hashable, bytes] = OrderedDict()
_drawing: dict[Hashable, asyncio.Future[bytes]] = {}  # the pictures being drawn now
KEPT = 64  # pictures kept: a picture asked for again is answered without drawing
_waiting = 0


async def render_async(
    history: Sequence[RatingPoint],
    results: Mapping[str, Results],
    names: Mapping[str, str],
    labels: Labels,
    *,
    waiting: int | None = None,
) -> bytes:
    """``render`` on the drawing thread: the event loop keeps answering meanwhile. The same
    picture asked for again is not drawn again. ``waiting``: refuse (``Busy``) rather than
    queue behind that many pictures."""
    global _waiting
    key = (tuple(history), tuple(sorted(results.items())), tuple(names.items()), labels)
    kept = _drawn.get(key)
    if kept is not None:
        _drawn.move_to_end(key)
        return kept
    drawing = _drawing.get(key)
    if drawing is not None:  # asked again while it is drawn: the same drawing
        return await asyncio.shield(drawing)
    if waiting is not None and _waiting >= waiting:
        raise Busy(f"{_waiting} pictures in the queue")
    loop = asyncio.get_running_loop()
    drawing = asyncio.ensure_future(
        loop.run_in_executor(_drawer, render, history, results, names, labels)
    )
    _drawing[key] = drawing
    _waiting += 1
    try:
        png = await asyncio.shield(drawing)
    finally:
        if drawing.done():
            _waiting -= 1
            _drawing.pop(key, None)
        else:  # the asker gave up: the drawing goes on, and is counted until it ends
            drawing.add_done_callback(lambda _: _drawn_by(key))
    _drawn[key] = png
    while len(_drawn) > KEPT:
        _drawn.popitem(last=False)
    return png


def _drawn_by(key: Hashable) -> None:
    global _waiting
    _waiting -= 1
    _drawing.pop(key, None)
