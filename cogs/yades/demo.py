"""Yadès in the terminal (``python -m bot demo yades``): every roll is public."""

from __future__ import annotations

from collections.abc import Sequence

from bot import yades_tables
from bot.demo import Demo, Names
from bot.games import yades as y
from bot.games.yades.metrics import YadesSetup
from bot.kernel.events import Event
from cogs.yades import render


def _title(setup: YadesSetup, lang: str) -> str:
    return f"Yadès — {render.preset_label(setup, lang)}"


def _story(events: Sequence[Event], view: y.View, names: Names, lang: str) -> list[str]:
    return render.event_lines(events, names, lang)


def _private(event: Event, lang: str) -> str | None:
    return None  # nothing of a Yadès game is hidden


def _tally(view: y.View, names: Names, lang: str) -> list[str]:
    return [render.seat_line(seat, view, names, lang) for seat in view.seats]


def _prepare(setup: YadesSetup) -> None:
    # The expert's tables that come with the bot, read only: a demo writes no file.
    yades_tables.load(setup.rules, yades_tables.SHIPPED, build=False)


DEMOS = {
    "yades": Demo(
        YadesSetup(y.Rules.for_preset(y.YADES), 0),
        _title,
        _story,
        _private,
        _tally,
        prepare=_prepare,
    )
}
