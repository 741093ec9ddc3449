"""The games are pure: no Discord, no database, no asyncio, no clock, no I/O, no global random.

Every ``.py`` file under ``bot/kernel/`` and ``bot/games/`` (CPU policies included, found
on disk) is read as an AST and checked; then a fresh interpreter imports all of them with
the global ``random`` functions, the clocks and ``open`` rigged to raise, and plays random
games of every registered game, through its ``GameSpec``, with an explicit ``random.Random``.
"""

from __future__ import annotations

import ast
import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from bot.games import REGISTRY
from bot.kernel.levels import LEVELS

ROOT = Path(__file__).resolve().parents[2]
PURE = (ROOT / "bot" / "kernel", ROOT / "bot" / "games")
FILES = sorted(path for folder in PURE for path in folder.rglob("*.py"))
MODULES = [
    ".".join(path.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__")
    for path in FILES
]

# Whole modules the engine may not import: the Discord layer, storage, the event loop,
# clocks, the operating system and process or network I/O, other sources of randomness.
FORBIDDEN_MODULES = frozenset(
    {
        "discord",
        "aiosqlite",
        "asyncio",
        "sqlite3",
        "time",
        "os",
        "shutil",
        "socket",
        "subprocess",
        "threading",
        "secrets",
        "uuid",
        "importlib",
    }
)
# Builtins that read or write the outside world, or run code from strings.
FORBIDDEN_CALLS = frozenset({"open", "input", "print", "exec", "eval", "breakpoint", "__import__"})
# Wall-clock readings on ``datetime``/``date``.
CLOCK_ATTRIBUTES = frozenset({"now", "utcnow", "today", "fromtimestamp", "utcfromtimestamp"})


def violations(source: str) -> list[str]:
    """Every impure use in ``source``, as ``line: what``."""
    tree = ast.parse(source)
    found: list[str] = []
    randoms: set[str] = set()  # local names of the ``random`` module
    generators: set[str] = set()  # local names of ``random.Random``
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                top = alias.name.split(".")[0]
                if top in FORBIDDEN_MODULES:
                    found.append(f"{node.lineno}: import {alias.name}")
                if alias.name == "random":
                    randoms.add(alias.asname or "random")
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            top = node.module.split(".")[0]
            if top in FORBIDDEN_MODULES:
                found.append(f"{node.lineno}: from {node.module} import ...")
            if node.module == "random":
                for alias in node.names:
                    if alias.name == "Random":
                        generators.add(alias.asname or "Random")
                    else:
                        found.append(f"{node.lineno}: from random import {alias.name}")
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute):
            base = node.value
            if isinstance(base, ast.Name) and base.id in randoms and node.attr != "Random":
                found.append(f"{node.lineno}: global random.{node.attr}")
            if node.attr in CLOCK_ATTRIBUTES and "date" in ast.unparse(base):
                found.append(f"{node.lineno}: clock {ast.unparse(node)}")
        if isinstance(node, ast.Call):
            func = node.func
            if isinstance(func, ast.Name) and func.id in FORBIDDEN_CALLS:
                found.append(f"{node.lineno}: {func.id}()")
            # A generator made inside the engine would be a hidden, unseeded source.
            if isinstance(func, ast.Name) and func.id in generators:
                found.append(f"{node.lineno}: {func.id}() made in the engine")
            if (
                isinstance(func, ast.Attribute)
                and isinstance(func.value, ast.Name)
                and func.value.id in randoms
                and func.attr == "Random"
            ):
                found.append(f"{node.lineno}: random.Random() made in the engine")
    return sorted(set(found), key=lambda line: int(line.split(":")[0]))


# --------------------------------------------------------------------------- the checker itself


@pytest.mark.parametrize(
    "source",
    [
        "import discord",
        "from discord.ext import commands",
        "import aiosqlite",
        "import asyncio",
        "from asyncio import Lock",
        "import time",
        "from time import monotonic",
        "import os",
        "from os import path",
        "import os.path",
        "import random\nrandom.random()",
        "import random\nx = random.randint(1, 6)",
        "import random\nrandom.choice([1, 2])",
        "import random\nrandom.shuffle([1, 2])",
        "import random\nrandom.seed(1)",
        "import random\nrandom.getrandbits(8)",
        "import random\nrandom.SystemRandom()",
        "import random as r\nr.uniform(0, 1)",
        "import random\npick = random.choice",
        "from random import randint",
        "from random import choice as pick",
        "import random\nrng = random.Random()",
        "from random import Random\nrng = Random(4)",
        "from datetime import datetime\ndatetime.now()",
        "import datetime\ndatetime.datetime.utcnow()",
        "from datetime import date\ndate.today()",
        "open('x')",
        "with open('state.json') as f:\n    pass",
        "print('debug')",
        "__import__('os')",
    ],
)
def test_the_checker_catches_impure_code(source):
    assert violations(source), source


@pytest.mark.parametrize(
    "source",
    [
        "import random\ndef roll(rng: random.Random) -> int:\n    return rng.randint(1, 6)",
        "from random import Random\ndef roll(rng: Random) -> int:\n    return rng.choice([1, 2])",
        "import random\nGenerator = random.Random",
        "from dataclasses import dataclass\nfrom fractions import Fraction",
        "import math\nx = math.sqrt(2)",
        "def f(state):\n    return state.seen",
    ],
)
def test_the_checker_accepts_injected_generators_and_plain_code(source):
    assert violations(source) == []


# --------------------------------------------------------------------------- the engine's files


def test_the_engine_files_are_found():
    names = {path.relative_to(ROOT / "bot").as_posix() for path in FILES}
    assert {"kernel/__init__.py", "kernel/dice.py", "games/maya/__init__.py"} <= names
    assert len(MODULES) == len(set(MODULES))


@pytest.mark.parametrize("spec", list(REGISTRY), ids=lambda spec: spec.name)
def test_every_registered_game_lives_in_the_scanned_files(spec):
    # A game registered from elsewhere would escape the scan and the trapped run's imports.
    module = sys.modules[type(spec).__module__]
    assert Path(module.__file__).resolve() in FILES
    assert module.__name__ in MODULES


@pytest.mark.parametrize("path", FILES, ids=[p.relative_to(ROOT).as_posix() for p in FILES])
def test_engine_file_uses_no_discord_database_clock_io_or_global_random(path):
    assert violations(path.read_text(encoding="utf-8")) == []


# --------------------------------------------------------------------------- at runtime

GAMES = 30  # random games of each registered game, spread over its variants
MOVES = 300  # then the table stops the game (some never end by themselves)

# Run in a fresh interpreter: rig the global random functions, the clocks and ``open``
# to raise, import every engine module, then play random games of every registered game
# through its ``GameSpec`` (``tests.games.randomplay``: every player's legal moves and the
# CPUs' at every level) with an explicit generator, and use each game as the table
# runtime does: views, replay, JSON, results.
RUNTIME_CHECK = textwrap.dedent(
    """
    import builtins, datetime, importlib, io, json, random, sys, time

    ROOT, MODULES, GAMES, MOVES = sys.argv[1], json.loads(sys.argv[2]), *map(int, sys.argv[3:])
    sys.path.insert(0, ROOT)
    rng = random.Random(20240601)
    calls = []

    def rigged(name):
        def refuse(*args, **kwargs):
            calls.append(name)
            raise AssertionError(f"the engine called {name}")
        return refuse

    for name in dir(random):
        value = getattr(random, name)
        if not name.startswith("_") and callable(value) and not isinstance(value, type):
            setattr(random, name, rigged(f"random.{name}"))
    clocks = {name: getattr(time, name) for name in (
        "time", "time_ns", "monotonic", "monotonic_ns", "perf_counter", "perf_counter_ns",
        "process_time", "process_time_ns", "sleep", "localtime", "gmtime", "ctime",
        "asctime", "strftime")}
    for name in clocks:
        setattr(time, name, rigged(f"time.{name}"))

    class Clockless(datetime.datetime):
        now = utcnow = today = classmethod(rigged("datetime.now"))

    class Dateless(datetime.date):
        today = classmethod(rigged("date.today"))

    datetime.datetime, datetime.date = Clockless, Dateless

    before = set(sys.modules)
    engine = {name: importlib.import_module(name) for name in MODULES}
    loaded = sorted(set(sys.modules) - before)

    # What the bot reads before its CPUs play, outside the engine: files (before ``open``
    # is rigged), through modules that read the clock as they load (``logging``).
    rigged_clocks = {name: getattr(time, name) for name in clocks}
    vars(time).update(clocks)
    from tests.games import cpu_tables
    vars(time).update(rigged_clocks)
    cpu_tables.install()
    builtins.open = io.open = rigged("open")

    from tests.games.randomplay import play
    registry = engine["bot.games"].REGISTRY
    played = {}
    for spec in registry:
        variants = spec.variants()
        games = actions = cpu_moves = 0
        levels = set()
        for number in range(GAMES):
            rules = variants[number % len(variants)]
            top = min(spec.max_players, spec.min_players + 4)
            players = list(range(1, rng.randint(spec.min_players, top) + 1))
            game = play(spec, rules, players, rng, MOVES)
            for step in game.steps:
                for viewer in (None, *game.pool):
                    spec.view(step.state, viewer)
            stored = [spec.events.from_json(json.loads(json.dumps(e.to_json())))
                      for e in game.events]
            assert spec.replay(game.initial, stored) == game.final
            assert spec.state_from_json(json.loads(json.dumps(game.final.to_json()))) == game.final
            spec.results(game.final, stored, game.players, rules)
            games += 1
            actions += len(game.steps) - 1
            cpu_moves += sum(len(step.cpu) for step in game.steps)
            levels |= {level for step in game.steps for level, _ in step.cpu.values()}
        played[spec.name] = {"games": games, "actions": actions, "cpu_moves": cpu_moves,
                             "levels": sorted(levels)}
    print(json.dumps({"loaded": loaded, "played": played, "calls": calls}))
    """
)


@pytest.fixture(scope="module")
def runtime() -> dict:
    result = subprocess.run(
        [
            sys.executable,
            "-c",
            RUNTIME_CHECK,
            str(ROOT),
            json.dumps(MODULES),
            str(GAMES),
            str(MOVES),
        ],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=ROOT,
    )
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout.splitlines()[-1])


def test_importing_the_engine_loads_no_discord_database_or_event_loop(runtime):
    forbidden = {"discord", "aiosqlite", "asyncio", "sqlite3", "_sqlite3", "_asyncio"}
    loaded = [name for name in runtime["loaded"] if name.split(".")[0] in forbidden]
    assert loaded == []


def test_full_games_never_touch_the_global_random_a_clock_or_a_file(runtime):
    assert runtime["calls"] == []
    assert set(runtime["played"]) == {spec.name for spec in REGISTRY}
    for name, played in runtime["played"].items():
        assert played["games"] == GAMES, name
        assert played["actions"] > 10 * GAMES, name
        # The CPU policies took part, at every level (the driver turns them in turn).
        assert played["cpu_moves"] > 5 * GAMES, name
        assert set(played["levels"]) == set(LEVELS), name
