"""The expert Yadès CPU's tables, cached in ``GOBELET_DATA_DIR`` (one file per score sheet).

Solving a sheet takes seconds to a minute (``bot.games.yades.solver.build``), so each
solved sheet is written once, as ``yades_<preset>_<digest>.bin`` in the cache folder, and
read back at the next start. The two presets' tables ship with the bot, read only: in the
repository's data/, or where ``GOBELET_SHIPPED_DIR`` says (the image builds them there,
outside its data volume, which a bind mount would hide). The engine itself does no I/O:
this module is the only place that reads or writes the files, then installs the
strategy where ``bot.games.yades.cpu`` finds it.

``python -m bot.yades_tables FOLDER`` writes the presets' tables in FOLDER (what the image
ships), reading those already there that still match their sheet.
"""

from __future__ import annotations

import logging
import os
import sys
from pathlib import Path

from bot.config import DEFAULT_SHIPPED_DIR
from bot.games import yades as y
from bot.games.yades import solver

log = logging.getLogger(__name__)

DATA_DIR = Path("data")  # the cache's default folder, beside the default database
SHIPPED = DEFAULT_SHIPPED_DIR  # the tables that come with the bot


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

    Files are looked for in ``shipped`` (the tables that come with the bot), then in
    ``directory`` (where the bot caches what it solved). A table built here is written to
    ``directory`` (atomically) for the next start; a missing, unreadable or stale file is
    rebuilt. Blocking: call it from a worker thread.
    """
    sheet = rules.sheet
    strategy = solver.installed(sheet)
    if strategy is not None:
        return strategy
    for folder in dict.fromkeys((shipped, directory)):
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


def load_presets(
    directory: Path = DATA_DIR, *, shipped: Path = SHIPPED
) -> dict[str, solver.Strategy]:
    """Both presets' strategies (built and cached if their files are missing)."""
    loaded = {}
    for preset in y.PRESETS:
        strategy = load(y.Rules.for_preset(preset), directory, shipped=shipped)
        assert strategy is not None
        loaded[preset] = strategy
    return loaded


if __name__ == "__main__":
    logging.basicConfig(level=logging.INFO)
    (folder,) = sys.argv[1:]
    # Read from and built into the one folder: the tables already there that still fit
    # their sheet are kept, the others solved again.
    load_presets(Path(folder), shipped=Path(folder))
