"""The menteur table options as slash-command options, shared by ``/menteur start`` and
``/reglages menteur``: a new table's rules are the server's defaults, then the starter's."""

from __future__ import annotations

from typing import Any

from discord import app_commands

from bot.games import menteur as lm

DICE = [app_commands.Choice(name=str(n), value=n) for n in lm.STARTING_DICE]

DESCRIPTIONS = {
    "des": "Dés de départ par joueur (3, 4 ou 5)",
    "jokers": "Les 1 comptent pour toutes les faces (paco)",
    "calza": "Calza : on peut dire la dernière annonce exacte (un dé regagné, ou perdu)",
    "palifico": "Palifico : à un dé, une manche sans jokers où la valeur ne change pas",
}


def table_rules(settings: dict[str, Any], given: dict[str, Any]) -> lm.Rules:
    """A new table's rules: the server's defaults (``/reglages menteur``), then the options
    the starter gave (``None``: not given)."""
    options: dict[str, Any] = dict(settings.get("menteur") or {})
    options.update({name: value for name, value in given.items() if value is not None})
    return lm.Rules.for_preset(**options)
