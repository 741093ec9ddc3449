"""What deploys the bot: the lock files the image and CI install from, the Dockerfile and
docker-compose.yml (read as text and YAML: no Docker engine is needed to run these)."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import tomllib
from pathlib import Path, PurePosixPath
from typing import Any

import pytest
import yaml
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
    assert tests.endswith("-m pytest -n auto")  # every core: CI must stay well under 30 min


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
    # bot.probe asks GOBELET_HTTP_PORT, the port the bot listens on (on every address);
    # the web pages' port (set by whoever runs the image) is exposed too.
    assert exposed == [f"{env['GOBELET_HTTP_PORT']} 8081"] == ["8080 8081"]
    assert env["GOBELET_HTTP_HOST"] == env["GOBELET_WEB_HOST"] == "0.0.0.0"


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


# ------------------------------------------------------------------ docker-compose.yml

# A Discord bot token: three base64url parts (the user id, a timestamp, an HMAC).
TOKEN_SHAPE = re.compile(r"[\w-]{23,28}\.[\w-]{6}\.[\w-]{27,40}")


@pytest.fixture(scope="module")
def compose_text() -> str:
    return (ROOT / "docker-compose.yml").read_text()


@pytest.fixture(scope="module")
def compose(compose_text: str) -> dict[str, Any]:
    loaded: dict[str, Any] = yaml.safe_load(compose_text)
    return loaded


def test_compose_runs_the_bot_and_postgresql_16(compose) -> None:
    services = compose["services"]
    assert set(services) == {"bot", "db"}
    assert services["db"]["image"] == "postgres:16"
    assert services["bot"]["build"] == "."
    for service in services.values():
        assert service["restart"] in ("always", "unless-stopped")


def test_the_bot_waits_for_a_healthy_database(compose) -> None:
    bot, db = compose["services"]["bot"], compose["services"]["db"]
    assert bot["depends_on"] == {"db": {"condition": "service_healthy"}}
    assert db["healthcheck"]["test"][:2] == ["CMD", "pg_isready"]


def test_the_database_keeps_its_data_in_a_named_volume(compose) -> None:
    volumes = compose["services"]["db"]["volumes"]
    named = [
        volume.split(":")[0] for volume in volumes if volume.endswith(":/var/lib/postgresql/data")
    ]
    assert named and named[0] in compose["volumes"]


def test_the_bot_reaches_the_database_by_a_postgresql_url(compose) -> None:
    env = compose["services"]["bot"]["environment"]
    db = compose["services"]["db"]["environment"]
    url = env["GOBELET_DATABASE_URL"]
    assert url.startswith("postgresql://gobelet:") and url.endswith("@db:5432/gobelet")
    # One password, from the environment (or .env), for both sides.
    assert "${POSTGRES_PASSWORD:-" in url and db["POSTGRES_PASSWORD"].startswith(
        "${POSTGRES_PASSWORD:-"
    )
    assert (db["POSTGRES_USER"], db["POSTGRES_DB"]) == ("gobelet", "gobelet")


def test_no_token_is_written_in_the_compose_file(compose, compose_text) -> None:
    assert compose["services"]["bot"]["environment"]["DISCORD_TOKEN"].startswith(
        "${DISCORD_TOKEN:?"
    )
    assert TOKEN_SHAPE.search(compose_text) is None
    assert TOKEN_SHAPE.search("MTIzNDU2Nzg5MDEyMzQ1Njc4OQ.GaBcDe.abcdefghijklmnopqrstuvwxyz0123")


def test_the_bots_health_check_asks_the_port_it_listens_on(compose, dockerfile) -> None:
    bot = compose["services"]["bot"]
    assert bot["healthcheck"]["test"] == ["CMD", "python", "-m", "bot.probe"]
    port = bot["environment"].get(
        "GOBELET_HTTP_PORT", image_env(final_stage(dockerfile)).get("GOBELET_HTTP_PORT")
    )
    assert port == "8080"
    published = [mapping.rsplit(":", 1)[-1] for mapping in bot["ports"]]
    assert published == [port, bot["environment"]["GOBELET_WEB_PORT"]] == ["8080", "8081"]
    # Both on the machine's loopback only: a reverse proxy publishes the web pages.
    assert all(mapping.startswith("127.0.0.1:") for mapping in bot["ports"])
    assert bot["stop_grace_period"] == "20s"  # past the bot's own wait for moves in flight


def compose_command() -> list[str] | None:
    """A Compose that validates a file without a Docker daemon, if this machine has one."""
    for command in (["docker", "compose"], ["docker-compose"]):
        if shutil.which(command[0]) is None:
            continue
        found = subprocess.run([*command, "version"], capture_output=True, text=True)
        if found.returncode == 0:
            return command
    return None


def test_compose_itself_accepts_the_file(tmp_path) -> None:
    command = compose_command()
    if command is None:
        missing = "no Docker Compose here (neither the docker client's plugin nor docker-compose)"
        if os.environ.get("CI", "").lower() in {"1", "true", "yes"}:
            pytest.fail(
                f"CI checks the compose file with Compose (.ci/run installs it), but {missing}"
            )
        pytest.skip(missing)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "POSTGRES_"))}
    empty = tmp_path / "empty.env"  # not the developer's .env beside the file
    empty.write_text("")
    config = [*command, "--file", str(ROOT / "docker-compose.yml"), "--env-file", str(empty)]
    checked = subprocess.run(
        [*config, "config", "--quiet"],
        env={**env, "DISCORD_TOKEN": "a-value-for-the-check"},
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert checked.returncode == 0, checked.stderr
    missing = subprocess.run(
        [*config, "config", "--quiet"],
        env=env,
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert missing.returncode != 0 and "DISCORD_TOKEN" in missing.stderr


def test_every_variable_read_is_in_the_readmes_configuration_table(compose_text) -> None:
    readme = (ROOT / "README.md").read_text()
    start = readme.index("## Configuration")
    table = readme[start : readme.index("\n## ", start)]
    listed = set(re.findall(r"^\| `(\w+)` \|", table, re.MULTILINE))
    sources = [
        path.read_text() for folder in ("bot", "cogs") for path in (ROOT / folder).rglob("*.py")
    ]
    read = {
        name for text in sources for name in re.findall(r'"((?:GOBELET|DISCORD)_[A-Z_]+)"', text)
    }
    read |= set(re.findall(r"\$\{(\w+)", compose_text))
    assert read and read - listed == set()
