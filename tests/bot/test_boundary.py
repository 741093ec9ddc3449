"""The observer boundary: the Discord layer sees a game through views and legal moves only.

ruff's banned-api (pyproject.toml) refuses any import of a game's ``State``, ``Seat`` or
state module in ``cogs/``; this test refuses the other way in, reading a table's ``state``.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from bot.games import maya
from bot.games.maya.spec import SPEC as MAYA
from bot.games.menteur.spec import SPEC as MENTEUR
from bot.table import Table, TableError

ROOT = Path(__file__).resolve().parents[2]
HIDDEN_ATTRIBUTES = {"state", "_state"}


def _reads_of_state(source: str) -> list[int]:
    lines = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Attribute) and node.attr in HIDDEN_ATTRIBUTES:
            lines.append(node.lineno)
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id in ("getattr", "vars")
            and any(
                isinstance(arg, ast.Constant) and arg.value in HIDDEN_ATTRIBUTES
                for arg in node.args
            )
        ):
            lines.append(node.lineno)
    return lines


def test_no_cog_reads_a_game_state() -> None:
    found = [
        f"{path.relative_to(ROOT)}:{line}"
        for path in sorted((ROOT / "cogs").rglob("*.py"))
        for line in _reads_of_state(path.read_text())
    ]
    assert found == []


def test_the_check_sees_a_state_read() -> None:
    assert _reads_of_state("table.state.cup\n") == [1]
    assert _reads_of_state("x = getattr(table, 'state')\n") == [1]
    assert _reads_of_state("table.view(None).seats\n") == []


def test_a_table_s_view_comes_typed_as_its_own_game_s_and_no_other() -> None:
    """``Table.view_as``: the view a cog reads, typed by its game's spec alone."""
    table = Table(1, 2, 3, "maya", 11, "fr", maya.Rules.for_preset(maya.SOIREE), [11, 22])
    with pytest.raises(TableError):
        table.view_as(MAYA)  # in the lobby: nothing to see yet, as with ``view``
    table.state = MAYA.new_game([11, 22], table.rules)
    assert table.view_as(MAYA) == table.view()
    assert table.view_as(MAYA, 22) == table.view(22)
    with pytest.raises(ValueError, match="plays maya"):
        table.view_as(MENTEUR)
