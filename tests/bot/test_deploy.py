"""What deploys the bot: the lock files the image and CI install from, the Dockerfile (read
as text: no Docker engine is needed to run these)."""

from __future__ import annotations

import json
import re
import tomllib
from pathlib import Path, PurePosixPath

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


# ------------------------------------------------------------------ the Dockerfile

Instruction = tuple[str, str]


def instructions(text: str) -> list[Instruction]:
    """The Dockerfile's instructions (keyword, arguments), continuation lines joined."""
    joined = re.sub(r"\\\n\s*", " ", text)
    found = []
    for line in joined.splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            keyword, _, arguments = line.partition(" ")
            found.append((keyword.upper(), arguments.strip()))
    return found


def final_stage(found: list[Instruction]) -> list[Instruction]:
    start = max(i for i, (keyword, _) in enumerate(found) if keyword == "FROM")
    return found[start:]


def image_env(stage: list[Instruction]) -> dict[str, str]:
    env: dict[str, str] = {}
    for keyword, arguments in stage:
        if keyword == "ENV":
            env.update(re.findall(r"(\w+)=(\S+)", arguments))
    return env


@pytest.fixture(scope="module")
def dockerfile() -> list[Instruction]:
    return instructions((ROOT / "Dockerfile").read_text())


def test_the_image_installs_the_lock_and_only_the_lock(dockerfile) -> None:
    runs = [arguments for keyword, arguments in dockerfile if keyword == "RUN"]
    installs = [run for run in runs if "pip install" in run]
    assert any("--require-hashes -r requirements.lock" in run for run in installs)
    # The bot itself comes on top, without pulling a dependency the lock did not pin.
    assert all("requirements.lock" in run or "--no-deps" in run for run in installs)


def test_the_image_checks_its_health_on_the_port_the_bot_serves(dockerfile) -> None:
    stage = final_stage(dockerfile)
    (check,) = [arguments for keyword, arguments in stage if keyword == "HEALTHCHECK"]
    assert check.endswith('CMD ["python", "-m", "bot.probe"]')
    env = image_env(stage)
    exposed = [arguments for keyword, arguments in stage if keyword == "EXPOSE"]
    # bot.probe asks GOBELET_HTTP_PORT, the port the bot listens on (on every address).
    assert exposed == [env["GOBELET_HTTP_PORT"]] == ["8080"]
    assert env["GOBELET_HTTP_HOST"] == "0.0.0.0"


def test_the_shipped_tables_live_outside_the_data_volume(dockerfile) -> None:
    stage = final_stage(dockerfile)
    (volume,) = [json.loads(arguments) for keyword, arguments in stage if keyword == "VOLUME"]
    assert volume == ["/app/data"]
    shipped = PurePosixPath(image_env(stage)["GOBELET_SHIPPED_DIR"])
    assert not any(shipped.is_relative_to(path) for path in volume)
    # The tables are made at build time, in that folder, then copied into the image.
    build = dockerfile[: dockerfile.index(stage[0])]
    assert ("RUN", f"python -m bot.yades_tables {shipped}") in build
    assert any(
        keyword == "COPY" and arguments.split()[-1] == str(shipped) for keyword, arguments in stage
    )


def test_the_bot_runs_unprivileged(dockerfile) -> None:
    users = [arguments for keyword, arguments in final_stage(dockerfile) if keyword == "USER"]
    assert users and users[-1] not in ("root", "0")


def test_the_build_context_leaves_out_the_token_and_the_databases() -> None:
    lines = (ROOT / ".dockerignore").read_text().splitlines()
    ignored = [line for line in lines if line and not line.startswith("#")]
    assert ignored[0] == "*"  # everything, but what is named after
    allowed = {line[1:] for line in ignored if line.startswith("!")}
    assert ".env" not in allowed and not any(".db" in line for line in allowed)
