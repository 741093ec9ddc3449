"""/stats' picture: a PNG of the rating per game and the results per game, drawn off the
event loop."""

from __future__ import annotations

import asyncio
import io
import threading

import pytest
from PIL import Image

from bot import plots
from bot.storage import RatingPoint

NAMES = {"maya": "Maya", "mia": "Mia", "yades": "Yadès"}
LABELS = plots.Labels(rating="Elo", results="Games", no_rating="No rated game yet")
HISTORY = [RatingPoint("mia", 1_764_000_000 + day * 86_400, 1000 + 8 * day) for day in range(5)] + [
    RatingPoint("yades", 1_764_000_000 + day * 86_400, 1000 - 5 * day) for day in range(3)
]
RESULTS = {"maya": plots.Results(4, None), "mia": plots.Results(5, 3), "yades": plots.Results(3, 0)}


def picture(png: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(png))
    image.load()
    return image


def test_the_picture_is_a_png_fit_for_a_phone() -> None:
    image = picture(plots.render(HISTORY, RESULTS, NAMES, LABELS))
    assert image.format == "PNG"
    assert 600 <= image.width <= 900 and 400 <= image.height <= 700


def test_the_picture_shows_what_it_is_given() -> None:
    drawn = plots.render(HISTORY, RESULTS, NAMES, LABELS)
    assert plots.render(HISTORY, RESULTS, NAMES, LABELS) == drawn  # nothing else moves it
    assert plots.render(HISTORY[:2], RESULTS, NAMES, LABELS) != drawn
    fewer = {"mia": plots.Results(5, 1), "maya": RESULTS["maya"], "yades": RESULTS["yades"]}
    assert plots.render(HISTORY, fewer, NAMES, LABELS) != drawn


def test_a_player_without_a_rated_game_still_gets_a_picture() -> None:
    image = picture(plots.render([], {"maya": plots.Results(2, None)}, NAMES, LABELS))
    assert image.format == "PNG"
    assert picture(plots.render([], {}, NAMES, LABELS)).format == "PNG"


async def test_it_is_drawn_on_a_worker_thread(monkeypatch) -> None:
    drawn_on: list[int] = []
    real = plots.render

    def spy(*args: object) -> bytes:
        drawn_on.append(threading.get_ident())
        return real(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(plots, "render", spy)
    plots._drawn.clear()
    png = await plots.render_async(HISTORY, RESULTS, NAMES, LABELS)
    assert png.startswith(b"\x89PNG")
    assert drawn_on and drawn_on[0] != threading.get_ident()
    # The same picture again is not drawn again; another one is.
    assert await plots.render_async(HISTORY, RESULTS, NAMES, LABELS) == png
    assert len(drawn_on) == 1
    await plots.render_async(HISTORY[:3], RESULTS, NAMES, LABELS)
    assert len(drawn_on) == 2


async def test_a_full_queue_refuses_a_new_picture_rather_than_wait(monkeypatch) -> None:
    started, release = threading.Event(), threading.Event()

    def slow(*args: object) -> bytes:
        started.set()
        release.wait(5)
        return b"\x89PNG slow"

    monkeypatch.setattr(plots, "render", slow)
    plots._drawn.clear()
    first = asyncio.ensure_future(plots.render_async(HISTORY, RESULTS, NAMES, LABELS))
    await asyncio.to_thread(started.wait, 5)
    with pytest.raises(plots.Busy):
        await plots.render_async(HISTORY[:2], RESULTS, NAMES, LABELS, waiting=1)
    release.set()
    assert await first == b"\x89PNG slow"
    # Without a limit (/stats), it waits its turn.
    assert await plots.render_async(HISTORY[:2], RESULTS, NAMES, LABELS) == b"\x89PNG slow"


async def test_the_same_picture_asked_twice_at_once_is_drawn_once(monkeypatch) -> None:
    calls: list[int] = []
    release = threading.Event()

    def slow(*args: object) -> bytes:
        calls.append(1)
        release.wait(5)
        return b"\x89PNG once"

    monkeypatch.setattr(plots, "render", slow)
    plots._drawn.clear()
    first = asyncio.ensure_future(plots.render_async(HISTORY, RESULTS, NAMES, LABELS))
    await asyncio.sleep(0)
    second = asyncio.ensure_future(plots.render_async(HISTORY, RESULTS, NAMES, LABELS, waiting=1))
    await asyncio.sleep(0)
    release.set()
    assert await asyncio.gather(first, second) == [b"\x89PNG once", b"\x89PNG once"]
    assert len(calls) == 1
    assert plots._waiting == 0 and not plots._drawing
