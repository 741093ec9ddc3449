"""What each registered game's Discord package declares beside its ``setup``: ``DEMOS``
(``python -m bot demo``), ``HELP`` (``/aide``'s menu), ``SETTINGS`` (``/reglages``)."""

from __future__ import annotations

from importlib import import_module
from typing import Any

from bot.games import REGISTRY
from bot.kernel.spec import GameSpec


def declared(attribute: str) -> list[tuple[GameSpec[Any, Any, Any], Any]]:
    """Each game whose package ``cogs.<game>`` declares ``attribute``, with its value, in the
    registry's order."""
    found = []
    for spec in REGISTRY:
        value = getattr(import_module(f"cogs.{spec.name}"), attribute, None)
        if value is not None:
            found.append((spec, value))
    return found
