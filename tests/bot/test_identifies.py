"""The identify budget a start may spend, and the back-off of a restart loop."""

from __future__ import annotations

import itertools

from bot.identifies import RESERVE, Budget, restart_pause, shortfall

DISCORD = {"total": 1000, "remaining": 42, "reset_after": 5_400_000, "max_concurrency": 16}


def test_the_budget_is_read_as_discord_documents_it() -> None:
    assert Budget.read(DISCORD) == Budget(1000, 42, 5400.0, 16)
    assert Budget.read({"total": 1000}) is None
    assert Budget.read({**DISCORD, "max_concurrency": 0}) == Budget(1000, 42, 5400.0, 1)


def test_a_start_leaves_the_reserve_unspent() -> None:
    budget = Budget(1000, 4 + RESERVE, 5400.0, 1)
    assert shortfall(budget, 4) is None
    said = shortfall(budget, 5)
    assert said is not None
    assert f"Discord allows {4 + RESERVE} more gateway identifies today" in said
    assert "renews in 1 h 30 min" in said and "5 shard(s)" in said


def test_each_quick_restart_in_a_row_waits_longer_up_to_five_minutes() -> None:
    pauses = [restart_pause(streak) for streak in range(12)]
    assert pauses[:3] == [0.0, 0.0, 5.0]
    assert all(later >= sooner for sooner, later in itertools.pairwise(pauses))
    assert pauses[-1] == 300.0
