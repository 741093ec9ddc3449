"""Where the texts are: beside the code that says them, in the ``cogs`` package's folders
(``cogs/texts/``, ``cogs/<game>/texts/``). The folder is found, not imported: the texts
are data, and the core does not import the Discord layer."""

from __future__ import annotations

from importlib.util import find_spec
from pathlib import Path


def _folder(package: str) -> Path:
    spec = find_spec(package)
    if spec is None or not spec.submodule_search_locations:
        raise RuntimeError(f"the {package} package is not installed beside bot")
    return Path(next(iter(spec.submodule_search_locations))).resolve()


CATALOGUES = _folder("cogs")  # every ``texts/<lang>.ftl`` and ``texts/commands.toml`` below it
