"""The observer boundary: the Discord layer sees a game through views and legal moves only.

ruff's banned-api (pyproject.toml) refuses any import of a game's ``State``, ``Seat`` or
state module in ``cogs/``; this test refuses the other way in, reading a table's ``state``.
"""

from __future__ import annotations

import ast
from pathlib import Path

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
