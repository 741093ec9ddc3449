"""Announcements as players type them: "26" or "62" is the throw 62, "maya" or "mia" is 21."""

from __future__ import annotations

import re

from bot.games.maya import values as d
from bot.games.maya.actions import Action, Announce, Photo
from bot.games.maya.rules import UnknownValue

PHOTO_WORDS = ("photo", "📸")
MAYA_WORDS = ("maya", "mia")
DOUBLE = re.compile(r"double\s*([1-6])")


def read_announcement(player: int, text: str) -> Action:
    """The announcement ``text`` names: a value (either way round), Maya, or a Photo."""
    cleaned = text.strip().lower()
    if cleaned in PHOTO_WORDS:
        return Photo(player)
    if cleaned in MAYA_WORDS:
        return Announce(player, d.MAYA)
    double = DOUBLE.fullmatch(cleaned)
    if double:  # "double 3", as the table says it
        return Announce(player, 11 * int(double.group(1)))
    # ASCII digits only: "²" or "①" are digits to ``str.isdigit`` but not to ``int``.
    digits = "".join(ch for ch in cleaned if ch in "0123456789")
    if len(digits) == 2:
        value = int(digits)
        # "26" and "62" are the same throw: it is read the right way round.
        value = d.read((value // 10, value % 10)) if value // 10 and value % 10 else value
        if d.is_value(value):
            return Announce(player, value)
    # Quote what the player typed, not the reordered number ("27" is not "72").
    raise UnknownValue(value=text.strip()[:20])
