"""Achievements of the games played before there were any: the replay that follows the
migration making them (``bot.storage.sql.replays``).

Every game counted on the leaderboards is read again, in the order it was counted, with
its game's own code: its final state, its whole event log and its figures, then the
detection its game declares (``bot.kernel.achievements``), with the steps a game's end
scores it with now (``bot.table.scoring``). The streaks run from one game to the next as
they do when games end. Nothing replayed is announced: only a game's end tells what was
earned in it.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from bot import yades_tables
from bot.config import ConfigError, load_settings
from bot.games import REGISTRY
from bot.games.yades.metrics import YadesSetup
from bot.kernel.achievements import Awards, award
from bot.storage.base import EventRecord, GameRecord
from bot.table.scoring import finished, humans_of, rebuilt

log = logging.getLogger(__name__)


class Backfill:
    """One replay of the past games (``bot.storage.sql.Replay``)."""

    def __init__(self) -> None:
        # Per server: (player, streak code) -> the run they have going after the games seen.
        self.runs: dict[int, dict[tuple[int, str], int]] = {}

    def game(self, record: GameRecord, events: Sequence[EventRecord]) -> Awards | None:
        if record.kind not in REGISTRY or record.state is None:
            return None
        kind = REGISTRY[record.kind]
        try:
            state = kind.state_from_json(record.state)
            rules = kind.rules_from_json(record.meta["rules"])
            cpus = {int(player) for player in record.meta.get("cpus", {})}
            logged = rebuilt(kind, events)
            _load_what_results_read(rules)
            game = finished(kind, state, logged, humans_of(state, cpus), rules)
        except Exception:
            # An upgrade must not fail on one game the code of today cannot read back.
            log.exception("game %s could not be replayed: it earns no achievement", record.id)
            return None
        runs = self.runs.setdefault(record.guild_id, {})
        awards = award(kind.achievements, game, runs)
        for run in awards.runs:
            held = 0 if run.restarted else runs.get((run.user_id, run.code), 0)
            runs[(run.user_id, run.code)] = held + run.length
        return awards


def _load_what_results_read(rules: Any) -> None:
    """A Yadès game's figures price each decision with the expert's tables, which the bot
    loads once its cogs are up; the migration runs before: read the tables shipped with
    the bot (or cached) now, rather than build a sheet's table again."""
    if isinstance(rules, YadesSetup):
        shipped, cache = _table_folders()
        yades_tables.load(rules.rules, cache, build=False, shipped=shipped)


def _table_folders() -> tuple[Path, Path]:
    """Where the bot itself looks for the expert's tables: the folders its settings name
    (the cache beside the SQLite file by default), as ``bot.config`` reads them."""
    try:
        settings = load_settings(dict(os.environ), dotenv=False)
    except ConfigError:
        return yades_tables.SHIPPED, yades_tables.DATA_DIR
    return settings.shipped_dir, settings.data_dir
