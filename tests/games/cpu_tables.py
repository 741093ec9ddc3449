"""What the bot does before its CPUs play, outside the pure engine: the expert Yadès CPU's
tables, shipped in data/, are read and installed (the Yadès cog's ``ready``). Without them
the expert would solve its sheet on its first move, which takes up to a minute."""

from __future__ import annotations

from pathlib import Path

from bot import yades_tables
from bot.games import yades as y

DATA = Path(__file__).resolve().parents[2] / "data"


def install() -> None:
    for preset in y.PRESETS:
        rules = y.Rules.for_preset(preset)
        if yades_tables.load(rules, DATA, build=False, shipped=DATA) is None:
            raise AssertionError(f"no shipped Yadès table for {preset} in {DATA}")
