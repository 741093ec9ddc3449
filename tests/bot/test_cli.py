"""``python -m bot --check`` and ``python -m bot demo``: real subprocesses, offline."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parents[2]


def run_bot(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    # Nothing from the developer's own Discord or Gobelet settings, and no .env (cwd is empty).
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "GOBELET_"))}
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(REPO_ROOT), env.get("PYTHONPATH")]))
    return subprocess.run(
        [sys.executable, "-m", "bot", *args],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_check_loads_everything_offline_and_lists_the_commands(tmp_path: Path) -> None:
    done = run_bot("--check", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "configuration ok" in out
    assert "token=<missing>" in out  # it never needs (nor prints) a token
    found = re.search(r"^(\d+) commands:$", out, re.MULTILINE)
    assert found, out
    listed = re.findall(r"^  (/[a-z ]+) — ", out, re.MULTILINE)
    assert len(listed) == int(found.group(1))
    for command in (
        "/maya start",
        "/maya rejoindre",
        "/maya commencer",
        "/maya lancer",
        "/maya annoncer",
        "/maya des",
        "/maya stop",
        "/croire",
        "/soulever",
        "/faute",
        "/yades defi",
        "/yades start",
        "/yades lancer",
        "/yades garder",
        "/yades marquer",
        "/yades feuille",
        "/yades conseil",
        "/yades abandon",
        "/menteur start",
        "/menteur rejoindre",
        "/menteur quitter",
        "/menteur commencer",
        "/menteur des",
        "/menteur annoncer",
        "/menteur stop",
        "/menteur tutoriel",
    ):
        assert command in listed, out
    assert not list(tmp_path.iterdir()), "--check must not create files"


def test_demo_mia_plays_a_whole_game_to_a_winner(tmp_path: Path) -> None:
    done = run_bot("demo", "mia", "--seed", "1", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert out.startswith("🎲 Mia — 3 vies")
    winners = re.findall(r"^🏆 (.+) gagne la partie !$", out, re.MULTILINE)
    assert len(winners) == 1, out[-2000:]
    # The tally: the winner is the only one with lives left.
    tally = dict(re.findall(r"^   (\S+): (\d+) ❤️$", out, re.MULTILINE))
    assert tally[winners[0]] != "0"
    assert [name for name, lives in tally.items() if lives != "0"] == [winners[0]]
    # Every private line is marked as such; public lines never show dice otherwise.
    for line in out.splitlines():
        if any(face in line for face in "⚀⚁⚂⚃⚄⚅"):
            assert "🔒" in line or "soulève" in line or "⚔️" in line, line


def test_demo_is_reproducible_with_its_seed(tmp_path: Path) -> None:
    first = run_bot("demo", "mia", "--seed", "1", cwd=tmp_path)
    second = run_bot("demo", "mia", "--seed", "1", cwd=tmp_path)
    assert first.returncode == second.returncode == 0
    assert first.stdout == second.stdout


@pytest.mark.parametrize("game", ["maya", "mia", "yades", "menteur"])
def test_every_game_has_a_demo_played_to_its_end(game: str, tmp_path: Path) -> None:
    done = run_bot("demo", game, "--seed", "3", "--players", "3", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith("🎲 "), lines[0]
    cpus = re.findall(r"(\S+) \((?:facile|moyen|difficile)\)", lines[1])
    assert len(cpus) == 3, lines[1]
    # The game came to an end (a win, or the party preset stopped), then each player's tally.
    ending = "🏁" if game == "maya" else "🏆"
    assert any(line.startswith(ending) for line in lines), done.stdout[-2000:]
    tally = lines[-3:]
    assert [line.split()[0].rstrip(":") for line in tally] == cpus, tally
    assert "**" not in done.stdout  # the terminal shows no Markdown
    assert not list(tmp_path.iterdir()), "a demo writes no file"


def test_a_menteur_demo_shows_hands_privately_until_a_challenge_reveals_them(
    tmp_path: Path,
) -> None:
    done = run_bot("demo", "menteur", "--seed", "2", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    revealing = False
    rounds = hands = 0
    for line in done.stdout.splitlines():
        rounds += line.startswith("🎲 Manche ")
        hands += "🔒" in line
        if "soulève" in line:
            revealing = True  # the lines that follow show every hand, then the count
        elif not line.startswith("\u3000"):
            revealing = False
        if any(face in line for face in "⚀⚁⚂⚃⚄⚅"):
            assert "🔒" in line or revealing, line
    assert rounds and hands >= rounds * 2  # every seated player gets their hand each round
