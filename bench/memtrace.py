"""The bot (``python -m bot``) run under tracemalloc, and what its memory grew by, for
``bench/e2e_latency.py --trace-memory``: each SIGUSR1 writes a snapshot of what the bot
holds to the next numbered file of the folder given, and ``growth`` reads two of them.

    python -X tracemalloc=25 bench/memtrace.py FOLDER

Not a benchmark: tracing slows the bot down several times over, so a run that traces
measures memory, never latency.
"""

from __future__ import annotations

import ast
import functools
import gc
import runpy
import signal
import sys
import tracemalloc
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from types import FrameType

REPO_ROOT = Path(__file__).resolve().parents[1]
PROJECT = tuple(str(REPO_ROOT / folder) + "/" for folder in ("bot", "cogs"))


def snapshot_path(folder: Path, number: int) -> Path:
    return folder / f"snapshot-{number}.tracemalloc"


def main() -> None:
    folder = Path(sys.argv[1])
    taken = 0

    def dump(signum: int, frame: FrameType | None) -> None:
        nonlocal taken
        taken += 1
        # Written under another name first: the benchmark waits for the final name.
        path = snapshot_path(folder, taken)
        partial = path.with_suffix(".partial")
        gc.collect()  # what is held, not garbage the collector has not reached yet
        tracemalloc.take_snapshot().dump(str(partial))
        partial.rename(path)

    signal.signal(signal.SIGUSR1, dump)
    sys.argv = [sys.argv[0]]
    runpy.run_module("bot", run_name="__main__", alter_sys=True)


@functools.cache
def _functions(filename: str) -> list[tuple[int, int, str]]:
    """Every function of a source file: (first line, last line, qualified name)."""
    try:
        tree = ast.parse(Path(filename).read_text())
    except (OSError, SyntaxError, ValueError):
        return []
    found: list[tuple[int, int, str]] = []

    def visit(node: ast.AST, prefix: str) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                name = f"{prefix}{child.name}"
                if not isinstance(child, ast.ClassDef):
                    found.append((child.lineno, child.end_lineno or child.lineno, name))
                visit(child, f"{name}.")
            else:
                visit(child, prefix)

    visit(tree, "")
    return found


def where(frame: tracemalloc.Frame) -> str:
    """``file:function:line``, the file relative to the repository or its package folder."""
    inside = [
        (first, qualified)
        for first, last, qualified in _functions(frame.filename)
        if first <= frame.lineno <= last
    ]
    function = max(inside)[1] if inside else "<module>"  # the innermost: it starts last
    shown = frame.filename.removeprefix(str(REPO_ROOT) + "/")
    if "site-packages/" in shown:
        shown = shown.split("site-packages/", 1)[1]
    return f"{shown}:{function}:{frame.lineno}"


@dataclass
class Growth:
    """What grew between two snapshots, in bytes: in all, by the innermost frame that
    allocated it, and by the innermost frame of the bot's own code (``bot/``, ``cogs/``) it
    came through."""

    total: int
    innermost: list[tuple[str, int]]
    ours: list[tuple[str, int]]


def growth(before: Path, after: Path, top: int = 20) -> Growth:
    old = tracemalloc.Snapshot.load(str(before))
    new = tracemalloc.Snapshot.load(str(after))
    innermost: Counter[str] = Counter()
    ours: Counter[str] = Counter()
    total = 0
    for diff in new.compare_to(old, "traceback"):
        total += diff.size_diff
        frames = list(diff.traceback)  # oldest first
        if not frames:
            continue
        innermost[where(frames[-1])] += diff.size_diff
        mine = next((f for f in reversed(frames) if f.filename.startswith(PROJECT)), None)
        ours[where(mine) if mine is not None else "(no frame of bot/ or cogs/)"] += diff.size_diff
    return Growth(total, innermost.most_common(top), ours.most_common(top))


if __name__ == "__main__":
    main()
