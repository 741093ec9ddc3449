"""English localizations of the command tree (names, descriptions, options, choices).

Commands are declared in French; Discord shows these English strings to English clients.
They are read from ``cogs/texts/commands.toml`` (the shared commands) and
``cogs/<game>/texts/commands.toml`` (each game's), French text = English text.
"""

from __future__ import annotations

import tomllib
from pathlib import Path

import discord
from discord import app_commands

from bot.i18n.catalogues import CATALOGUES

ENGLISH_LOCALES = {discord.Locale.american_english, discord.Locale.british_english}


def catalogue_files() -> list[Path]:
    """The shared commands' file first, then each game's, by path."""
    found = CATALOGUES.glob("**/texts/commands.toml")
    return sorted(found, key=lambda p: (len(p.parts), p))


def _english() -> dict[str, str]:
    english: dict[str, str] = {}
    for path in catalogue_files():
        with path.open("rb") as file:
            for french, text in tomllib.load(file).items():
                if not isinstance(text, str):
                    raise ValueError(f"{path}: {french!r} must be translated by a text")
                if english.get(french, text) != text:
                    raise ValueError(
                        f"{path}: {french!r} is translated {text!r} here, {english[french]!r} before"
                    )
                english[french] = text
    return english


# French text as declared -> English text (each game's beside its cog, in texts/).
ENGLISH: dict[str, str] = _english()


class CommandTranslator(app_commands.Translator):
    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        if locale not in ENGLISH_LOCALES:
            return None
        return ENGLISH.get(string.message)
