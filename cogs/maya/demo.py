"""Maya and Mia in the terminal (``python -m bot demo maya|mia``)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.demo import Demo, Names
from bot.games import maya
from bot.games.maya.events import CupDice
from bot.i18n import t
from bot.kernel.events import Event
from cogs.maya import render

PARTY_ROUNDS = 12  # the party preset never ends by itself: its demo stops after this many


def _title(rules: maya.Rules, lang: str) -> str:
    return f"{render.game_label(rules, lang)} — {render.preset_label(rules, lang)}"


def _story(events: Sequence[Event], view: maya.View, names: Names, lang: str) -> list[str]:
    return render.public_lines(events, view.rules, names, lang)


def _private(event: Event, lang: str) -> str | None:
    if isinstance(event, CupDice):
        first, second = event.dice
        return t(lang, "me.dice", dice=render.d.show((first, second)))
    return None


def _tally(view: maya.View, names: Names, lang: str) -> list[str]:
    if view.rules.lives:
        return [f"{names(seat.player)}: {seat.lives} ❤️" for seat in view.seats]
    return [f"{names(s.player)}: {s.sips} 🍺 · {s.glasses} 🥃" for s in view.seats]


def _party_long_enough(view: Any) -> bool:
    return view.round >= PARTY_ROUNDS and view.phase == maya.OPEN


DEMOS = {
    "maya": Demo(
        maya.Rules.for_preset(maya.SOIREE), _title, _story, _private, _tally, _party_long_enough
    ),
    "mia": Demo(maya.Rules.for_preset(maya.VIES), _title, _story, _private, _tally),
}
