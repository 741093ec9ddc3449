"""The repository stands on its own: no tracked file points outside it for the rules or the
house notes, the README stays short, and the documentation it links to is there.

The rules the code implements are ``docs/rules.md``; code cites its sections by anchor
(``docs/rules.md#maya-photo``), and every anchor cited must exist."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
README_MAX_LINES = 160

# Written in pieces, so that this file does not name what it looks for.
OUTSIDE = tuple(
    "".join(parts)
    for parts in (
        ("../", "shared"),
        ("shared", "/RULES"),
        ("shared", "/seeds"),
        ("RULES", ".md"),
        ("ARCHITECTURE", ".md"),
        ("TESTING", ".md"),
    )
)
BINARY = (".png", ".bin", ".ico", ".jpg", ".gz")


def tracked() -> list[Path]:
    try:
        listed = subprocess.run(
            ["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True, timeout=60
        ).stdout
    except (OSError, subprocess.CalledProcessError) as error:
        pytest.skip(f"not a git checkout ({error})")
    paths = [ROOT / name for name in listed.decode().split("\0") if name]
    return [path for path in paths if path.is_file() and not path.name.endswith(BINARY)]


def texts() -> dict[str, str]:
    return {
        str(path.relative_to(ROOT)): path.read_bytes().decode("utf-8", errors="replace")
        for path in tracked()
    }


def test_no_tracked_file_points_outside_the_repository() -> None:
    found = [
        f"{name}:{text[: text.index(word)].count(chr(10)) + 1}: {word}"
        for name, text in texts().items()
        for word in OUTSIDE
        if word in text
    ]
    assert found == []


def test_every_rules_anchor_the_code_cites_exists() -> None:
    rules = (ROOT / "docs" / "rules.md").read_text()
    anchors = set(re.findall(r'<a id="([\w-]+)"></a>', rules))
    cited = {
        (name, anchor)
        for name, text in texts().items()
        for anchor in re.findall(r"docs/rules\.md#([\w-]+)", text)
    }
    assert cited, "the code cites the rules by anchor"
    assert {(name, anchor) for name, anchor in cited if anchor not in anchors} == set()


def test_the_readme_stays_short() -> None:
    lines = (ROOT / "README.md").read_text().splitlines()
    assert len(lines) <= README_MAX_LINES


def test_every_page_the_readme_links_to_exists() -> None:
    readme = (ROOT / "README.md").read_text()
    linked = set(re.findall(r"\]\(([^)#\s]+\.md)(?:#[^)\s]*)?\)", readme))
    assert {"docs/playing.md", "docs/rules.md", "docs/operations.md"} <= linked
    assert {"docs/architecture.md", "docs/benchmarks.md"} <= linked
    assert sorted(page for page in linked if not (ROOT / page).is_file()) == []


def test_every_page_the_docs_link_to_exists() -> None:
    for page in sorted((ROOT / "docs").glob("*.md")):
        for target in re.findall(r"\]\(([^)#\s:]+\.md)(?:#[^)\s]*)?\)", page.read_text()):
            assert (page.parent / target).resolve().is_file(), f"{page.name} -> {target}"
