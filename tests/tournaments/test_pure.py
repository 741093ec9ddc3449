"""The tournament engine is pure like the games (tests/games/test_purity.py's checker):
no Discord, no database, no clock, no I/O, no global random; and it stands apart from the
table runtime and the storage. Its documentation's anchors, cited by the code, exist."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from tests.games.test_purity import violations

ROOT = Path(__file__).resolve().parents[2]
FILES = sorted((ROOT / "bot" / "tournaments").rglob("*.py"))
ALLOWED = ("bot.kernel", "bot.tournaments")  # the only parts of the bot it may import


def test_the_engine_files_are_found():
    names = {path.name for path in FILES}
    assert {"__init__.py", "engine.py", "swiss.py", "pools.py", "elimination.py"} <= names


@pytest.mark.parametrize("path", FILES, ids=lambda path: path.name)
def test_no_discord_database_clock_io_or_global_random(path):
    assert violations(path.read_text(encoding="utf-8")) == []


@pytest.mark.parametrize("path", FILES, ids=lambda path: path.name)
def test_of_the_bot_it_imports_only_the_kernel_and_itself(path):
    imported = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            imported += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module:
            imported.append(node.module)
    ours = [name for name in imported if name.split(".")[0] in ("bot", "cogs", "discord")]
    assert [name for name in ours if not name.startswith(ALLOWED)] == []


@pytest.mark.parametrize("path", FILES, ids=lambda path: path.name)
def test_modules_stay_short(path):
    assert len(path.read_text(encoding="utf-8").splitlines()) <= 400


def test_every_anchor_of_the_tournament_page_the_code_cites_exists():
    page = (ROOT / "docs" / "tournaments.md").read_text(encoding="utf-8")
    anchors = set(re.findall(r'<a id="([\w-]+)"></a>', page))
    sources = [*FILES, *sorted((ROOT / "tests" / "tournaments").glob("*.py"))]
    cited = {
        (path.name, anchor)
        for path in sources
        for anchor in re.findall(r"docs/tournaments\.md#([\w-]+)", path.read_text())
    }
    assert len(cited) >= 8
    assert {(name, anchor) for name, anchor in cited if anchor not in anchors} == set()
    # And the page's own links point at its anchors.
    assert set(re.findall(r"\]\(#([\w-]+)\)", page)) <= anchors
