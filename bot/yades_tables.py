"""The expert Yadès CPU's tables, cached in ``GOBELET_DATA_DIR`` (one file per score sheet).

Solving a sheet takes seconds to a minute (``bot.games.yades.solver.build``), so each
solved sheet is written once, as ``yades_<preset>_<digest>.bin`` in the cache folder, and
read back at the next start. The two presets' tables ship in the repository's data/. The engine itself does no I/O:
this module is the only place that reads or writes the files, then installs the
strategy where ``bot.games.yades.cpu`` finds it.
"""

from __future__ import annotations

import logging
import os
from pathlib import Path

from bot.games import yades as y
from bot.games.yades import solver

log = logging.getLogger(__name__)

DATA_DIR = Path("data")  # the cache's default folder, beside the default database
SHIPPED = Path(__file__).resolve().parent.parent / "data"  # the tables that come with the bot


def path_for(rules: y.Rules, directory: Path = DATA_DIR) -> Path:
    """Where the table of ``rules``' sheet lives."""
    return directory / f"yades_{rules.preset}_{rules.sheet.digest()[:16]}.bin"


def load(
    rules: y.Rules,
    directory: Path = DATA_DIR,
    *,
    build: bool = True,
    shipped: Path = SHIPPED,
) -> solver.Strategy | None:
    """The installed strategy of ``rules``' sheet, else its file's, else (``build``) a new one.

    Files are looked for in ``directory`` (where the bot caches what it solved), then in
    ``shipped`` (the tables that come with the bot) and in ./data (where an image copies
    them). A table built here is written to ``directory`` (atomically) for the next start;
    a missing, unreadable or stale file is rebuilt. Blocking: call it from a worker thread.
    """
    sheet = rules.sheet
    strategy = solver.installed(sheet)
    if strategy is not None:
        return strategy
    for folder in dict.fromkeys((directory, shipped, DATA_DIR)):
        path = path_for(rules, folder)
        if not path.exists():
            continue
        try:
            strategy = solver.Strategy.from_bytes(path.read_bytes(), sheet)
            break
        except (OSError, ValueError) as error:
            log.warning("unreadable Yadès table %s (%s): rebuilding it", path, error)
    if strategy is None:
        if not build:
            return None
        strategy = solver.build(sheet)
        save(strategy, path_for(rules, directory))
    solver.install(strategy)
    return strategy


def save(strategy: solver.Strategy, path: Path) -> None:
    """Write ``strategy`` to ``path`` through a temporary file (readers never see half a table)."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        partial = path.with_suffix(f".{os.getpid()}.partial")
        partial.write_bytes(strategy.to_bytes())
        partial.replace(path)
    except OSError as error:
        log.warning("could not cache the Yadès table in %s (%s)", path, error)


def load_presets(directory: Path = DATA_DIR) -> dict[str, solver.Strategy]:
    """Both presets' strategies (built and cached if their files are missing)."""
    loaded = {}
    for preset in y.PRESETS:
        strategy = load(y.Rules.for_preset(preset), directory)
        assert strategy is not None
        loaded[preset] = strategy
    return loaded
