"""The sheets a server plays and the expert CPU's tables for them.

A new table's sheet is the chosen preset, or the server's (``/reglages yades``: boxes
removed or added). The expert plays from a table solved once per sheet: the presets'
ship with the bot (``GOBELET_SHIPPED_DIR``), a server's own sheet is solved the first time
and cached in the data directory (``GOBELET_DATA_DIR``). Reading or solving one blocks: it runs in a worker thread.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from bot import yades_tables
from bot.games import yades as y


def sheet_rules(settings: dict[str, Any], preset: str | None) -> y.Rules:
    """The sheet of a new table: the chosen preset, or the server's; the server's removed
    and added boxes apply to the server's own preset."""
    mine = settings.get("yades") or {}
    chosen = preset or mine.get("preset", y.YADES)
    if chosen != mine.get("preset", y.YADES):
        return y.Rules.for_preset(chosen)
    added = [y.EXTRA_BOXES[name] for name in mine.get("add", []) if name in y.EXTRA_BOXES]
    return y.Rules.for_preset(chosen, remove=mine.get("remove", []), add=added)


class Expert:
    """The expert's tables, loaded off the event loop."""

    def __init__(self, cache: Path, shipped: Path) -> None:
        self.cache = cache
        self.shipped = shipped
        self.loading: asyncio.Task[Any] | None = None

    async def ready(self) -> None:
        """The presets' tables are loaded (read once, in a worker thread)."""
        if self.loading is None:
            self.loading = asyncio.ensure_future(
                asyncio.to_thread(yades_tables.load_presets, self.cache, shipped=self.shipped)
            )
        await asyncio.shield(self.loading)

    async def load(self, rules: y.Rules) -> None:
        """The table of ``rules``' sheet is loaded (solved and cached the first time)."""
        await self.ready()
        await asyncio.to_thread(yades_tables.load, rules, self.cache, shipped=self.shipped)
