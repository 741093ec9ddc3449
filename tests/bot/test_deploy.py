"""What deploys the bot: the lock files the image and CI install from."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parents[2]
LOCKS = {"requirements.lock": (), "requirements-dev.lock": ("dev",)}
PIN = re.compile(r"^([A-Za-z0-9][A-Za-z0-9._-]*)==(\S+)", re.MULTILINE)


def pins(lock: str) -> dict[str, str]:
    """Each package of a lock file (name canonicalised) and the version it pins."""
    return {canonicalize_name(name): version for name, version in PIN.findall(lock)}


def direct_requirements(extras: tuple[str, ...]) -> list[Requirement]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    wanted = list(project["dependencies"])
    for extra in extras:
        wanted += project["optional-dependencies"][extra]
    return [Requirement(line) for line in wanted]


def disagreements(requirements: list[Requirement], lock: str) -> list[str]:
    """What the lock misses of ``requirements``: a package it does not pin, or a pin
    outside the range pyproject.toml asks for."""
    pinned = pins(lock)
    found = []
    for requirement in requirements:
        version = pinned.get(canonicalize_name(requirement.name))
        if version is None:
            found.append(f"{requirement.name} is not pinned")
        elif not requirement.specifier.contains(version, prereleases=True):
            found.append(f"{requirement.name}=={version} is outside {requirement.specifier}")
    return found


@pytest.mark.parametrize(("lock", "extras"), LOCKS.items())
def test_the_lock_pins_every_dependency_of_pyproject_within_its_range(
    lock: str, extras: tuple[str, ...]
) -> None:
    text = (ROOT / lock).read_text()
    assert disagreements(direct_requirements(extras), text) == [], "refresh it: bash .ci/lock"


@pytest.mark.parametrize("lock", LOCKS)
def test_every_pin_carries_its_hashes(lock: str) -> None:
    # pip then refuses any file that is not the one locked (and any unpinned dependency).
    entries = re.split(r"\n(?=\S)", (ROOT / lock).read_text())
    pinned = [entry for entry in entries if PIN.match(entry)]
    assert len(pinned) == len(pins((ROOT / lock).read_text()))
    assert [entry.split()[0] for entry in pinned if "--hash=sha256:" not in entry] == []


def test_the_tests_run_on_the_versions_the_image_ships() -> None:
    runtime = pins((ROOT / "requirements.lock").read_text())
    dev = pins((ROOT / "requirements-dev.lock").read_text())
    assert {name: dev.get(name) for name in runtime} == runtime


def test_the_check_sees_a_missing_pin_and_a_pin_out_of_range() -> None:
    lock = "discord-py==2.3.0 \\\n    --hash=sha256:00\n"
    wanted = [Requirement("discord.py>=2.4"), Requirement("aiosqlite>=0.20")]
    assert disagreements(wanted, lock) == [
        "discord.py==2.3.0 is outside >=2.4",
        "aiosqlite is not pinned",
    ]


def test_the_readme_commands_install_from_the_locks() -> None:
    lines = (ROOT / "README.md").read_text().splitlines()
    run = next(lines[i + 1] for i, line in enumerate(lines) if line.startswith("# Run the bot"))
    tests = lines[lines.index("# Run the tests") + 1]
    assert "-r requirements.lock" in run and "--no-deps -e ." in run
    assert "-r requirements-dev.lock" in tests and "--no-deps -e ." in tests
