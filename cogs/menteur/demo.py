"""Dés du menteur in the terminal (``python -m bot demo menteur``)."""

from __future__ import annotations

from collections.abc import Sequence

from bot.demo import Demo, Names
from bot.games import menteur as lm
from bot.games.menteur.events import HandDealt
from bot.i18n import t
from bot.kernel.events import Event
from cogs.menteur import render


def _title(rules: lm.Rules, lang: str) -> str:
    return f"{t(lang, 'game.menteur')} — {render.rules_label(rules, lang)}"


def _story(events: Sequence[Event], view: lm.View, names: Names, lang: str) -> list[str]:
    return render.event_lines(events, lang, names)


def _private(event: Event, lang: str) -> str | None:
    if isinstance(event, HandDealt):
        return t(lang, "m.your_dice", count=len(event.dice), dice=render.faces(event.dice))
    return None


def _tally(view: lm.View, names: Names, lang: str) -> list[str]:
    return [render.seat_line(seat, names, lang) for seat in view.seats]


DEMOS = {"menteur": Demo(lm.Rules.for_preset(), _title, _story, _private, _tally)}
