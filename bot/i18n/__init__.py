"""User-facing texts: French by default, English for English clients and servers.

Texts are ``str.format`` templates keyed by name. ``t(locale, key, **params)`` picks
the language from a Discord locale (``"fr"``, ``"en-US"``, ``"en-GB"`` …): any English
locale gets English, everything else gets French.
"""

from __future__ import annotations

from typing import Any

from bot.i18n import commands, en, fr

FRENCH = "fr"
ENGLISH = "en"

_CATALOGS: dict[str, dict[str, str]] = {FRENCH: fr.TEXTS, ENGLISH: en.TEXTS}


def language(locale: object) -> str:
    """``"en"`` for any English Discord locale, else ``"fr"``."""
    value = str(getattr(locale, "value", locale) or "").lower()
    return ENGLISH if value.startswith("en") else FRENCH


def t(locale: object, key: str, /, **params: Any) -> str:
    """The text ``key`` in the language of ``locale``, formatted with ``params``."""
    catalog = _CATALOGS[language(locale)]
    template = catalog.get(key)
    if template is None:
        template = fr.TEXTS[key]
    return template.format(**params) if params else template


def command(locale: object, path: str) -> str:
    """A command as the reader's client shows it: ``"menteur rejoindre"`` -> ``/liarsdice join``
    for English clients, ``/menteur rejoindre`` for the others."""
    words = path.split()
    if language(locale) == ENGLISH:
        words = [commands.ENGLISH.get(word, word) for word in words]
    return "/" + " ".join(words)


def has(key: str) -> bool:
    return key in fr.TEXTS
