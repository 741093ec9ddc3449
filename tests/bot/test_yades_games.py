"""The table layer's view of Yadès (``bot.games.YadesKind``): JSON, CPU seats, leaderboards."""

from __future__ import annotations

import logging
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

from bot import yades_tables
from bot.games import REGISTRY
from bot.games import yades as y
from bot.games.yades import solver
from bot.games.yades.metrics import YadesSetup, points_lost
from bot.games.yades.metrics import ranking as yades_ranking
from bot.kernel.events import Event

ROOT = Path(__file__).resolve().parents[2]
KIND = REGISTRY["yades"]
A, B, C = 11, 22, -1


@pytest.fixture(scope="module", autouse=True)
def _expert_tables() -> None:
    yades_tables.load_presets()


def play_out(
    players: list[int], levels: dict[int, str], seed: int = 1
) -> tuple[y.State, list[Event]]:
    rng = random.Random(seed)
    state = KIND.new_game(players, YadesSetup(y.Rules.for_preset("yades")))
    logged: list[Event] = []
    while not state.over:
        player = state.current
        action = KIND.cpu_action(state, player, levels[player], rng)
        state, events = KIND.apply(state, action)
        logged += events
    return state, logged


def test_the_rules_and_the_stake_survive_json() -> None:
    setup = YadesSetup(y.Rules.for_preset("classique"), mise=25)
    assert KIND.rules_from_json(KIND.rules_to_json(setup)) == setup


@pytest.mark.parametrize("level", ["facile", "moyen", "difficile"])
def test_every_table_level_plays_a_whole_game(level: str) -> None:
    state, _ = play_out([A, B], {A: level, B: level})
    assert state.over and state.winners


def test_perfect_play_loses_no_points_and_a_weaker_player_loses_some() -> None:
    state, events = play_out([A, B], {A: "difficile", B: "facile"}, seed=3)
    lost = points_lost(state, events, [A, B])
    assert lost[A] == pytest.approx(0.0, abs=1e-6)
    assert lost[B] > 5.0


def test_the_outcome_counts_games_wins_scores_and_the_stake() -> None:
    state, events = play_out([A, B], {A: "difficile", B: "facile"}, seed=5)
    results = KIND.results(state, events, [A, B], YadesSetup(state.rules, mise=10))
    totals = {p: y.totals(state, p).total for p in (A, B)}
    assert results.board == "yades"
    for player in (A, B):
        figures = results.figures[player]
        assert figures["games"] == 1
        assert figures["best_score"] == figures["total_score"] == totals[player]
        assert figures["wins"] == (1 if player in state.winners else 0)
    if len(state.winners) == 1:
        winner = state.winners[0]
        loser = B if winner == A else A
        assert results.figures[winner]["stake_won"] == 10
        assert results.figures[loser]["stake_lost"] == 10
    assert results.ranking[0] == state.winners


def test_fives_of_a_kind_rolled_are_counted() -> None:
    state, events = play_out([A, B], {A: "difficile", B: "difficile"}, seed=7)
    logged = [e.to_json() for e in events]  # the log as stored
    results = KIND.results(state, events, [A, B], None)
    for player in (A, B):
        rolled = [
            e
            for e in logged
            if e["type"] == "rolled"
            and e["data"]["player"] == player
            and len(set(e["data"]["dice"])) == 1
        ]
        assert results.figures[player]["yades_rolled"] == len(rolled)


def test_cpus_are_left_out_of_the_figures_and_ties_share_a_place() -> None:
    state, events = play_out([A, C], {A: "moyen", C: "moyen"})
    results = KIND.results(state, events, [A], None)
    assert set(results.figures) == {A}
    tied = y.new_game([A, B, C], y.Rules.for_preset("yades"))
    assert yades_ranking(tied, [A, B]) == [[A, B]]


def test_keeping_equal_dice_from_other_positions_costs_the_same() -> None:
    from bot.games.yades.metrics import _loss

    state = y.new_game([A, B], y.Rules.for_preset(y.YADES))
    state, _ = y.apply(state, y.Roll(A, (), (2, 6, 2, 3, 4)))
    first, third = _loss(state, A, y.Roll(A, (0,))), _loss(state, A, y.Roll(A, (2,)))
    assert first == pytest.approx(third)
    assert first > 0  # keeping a lone 2 is not what perfect play does here


def test_the_shipped_tables_are_found_whatever_the_working_directory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The bot (or a demo) started from another folder reads the tables that come with it
    # instead of building each sheet's table again.
    monkeypatch.chdir(tmp_path)
    rules = y.Rules.for_preset("classique")
    kept = solver.installed(rules.sheet)
    solver.uninstall(rules.sheet)
    try:
        loaded = yades_tables.load(rules, tmp_path / "cache", build=False)
        assert loaded is not None
        assert not (tmp_path / "cache").exists()  # nothing written: it was read
    finally:
        solver.uninstall(rules.sheet)
        if kept is not None:
            solver.install(kept)


@pytest.fixture
def classique_uninstalled():
    """The classique sheet's strategy is not in memory during the test (restored after)."""
    rules = y.Rules.for_preset("classique")
    kept = solver.installed(rules.sheet)
    solver.uninstall(rules.sheet)
    yield rules
    solver.uninstall(rules.sheet)
    if kept is not None:
        solver.install(kept)


def test_the_shipped_folder_is_read_before_the_cache(
    tmp_path: Path, classique_uninstalled, caplog: pytest.LogCaptureFixture
):
    # A shipped folder apart from the data volume: what the volume holds cannot hide it.
    rules = classique_uninstalled
    shipped, cache = tmp_path / "share", tmp_path / "cache"
    shipped.mkdir()
    cache.mkdir()
    good = yades_tables.path_for(rules, yades_tables.SHIPPED).read_bytes()
    yades_tables.path_for(rules, shipped).write_bytes(good)
    yades_tables.path_for(rules, cache).write_bytes(b"a stale cache")
    loaded = yades_tables.load(rules, cache, build=False, shipped=shipped)
    assert loaded is not None
    assert [r.getMessage() for r in caplog.records if r.levelno >= logging.WARNING] == []
    assert yades_tables.path_for(rules, cache).read_bytes() == b"a stale cache"


def test_the_cache_serves_what_the_shipped_folder_lacks(tmp_path: Path, classique_uninstalled):
    rules = classique_uninstalled
    shipped, cache = tmp_path / "share", tmp_path / "cache"
    shipped.mkdir()
    cache.mkdir()
    good = yades_tables.path_for(rules, yades_tables.SHIPPED).read_bytes()
    yades_tables.path_for(rules, cache).write_bytes(good)
    assert yades_tables.load(rules, cache, build=False, shipped=shipped) is not None
    solver.uninstall(rules.sheet)
    yades_tables.path_for(rules, cache).unlink()
    assert yades_tables.load(rules, cache, build=False, shipped=shipped) is None


def test_the_image_step_keeps_the_tables_that_fit_their_sheets(tmp_path: Path) -> None:
    # The Dockerfile runs this module on a copy of data/: tables that still fit are kept
    # as they are (a stale or missing one would be solved there, at build time).
    for preset in y.PRESETS:
        name = yades_tables.path_for(y.Rules.for_preset(preset)).name
        (tmp_path / name).write_bytes((yades_tables.SHIPPED / name).read_bytes())
    before = {path.name: path.read_bytes() for path in tmp_path.iterdir()}
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "GOBELET_"))}
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
    done = subprocess.run(
        [sys.executable, "-m", "bot.yades_tables", str(tmp_path)],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert {path.name: path.read_bytes() for path in tmp_path.iterdir()} == before
