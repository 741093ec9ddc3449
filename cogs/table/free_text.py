"""Words people give the bot to keep and show again (a penalty word, an accusation's motive).

Each is bounded when it comes in: one line of at most ``limit`` characters, and no link, so
that the bot never posts a link, masked or not, in its own lines. When shown it is escaped
(``shown``): markdown and mentions stay the letters that were typed.
"""

from __future__ import annotations

import re

import discord

from bot.table import TableError

# A link Discord would make clickable, bare or masked ("[text](url)").
LINK = re.compile(r"https?://|www\.|discord\.gg/|\]\s*\(", re.IGNORECASE)


def free_text(raw: str, *, limit: int) -> str:
    """``raw`` as the bot may store it; refused (``TableError``) when empty, too long or a link."""
    text = " ".join(raw.split())
    if not text:
        raise TableError("text_empty")
    if len(text) > limit:
        raise TableError("text_too_long", most=limit)
    if LINK.search(text):
        raise TableError("text_link")
    return text


def shown(text: str) -> str:
    """A stored free text in a message: its markdown and mentions are shown, not applied."""
    return discord.utils.escape_mentions(discord.utils.escape_markdown(text))
