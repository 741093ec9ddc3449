"""The bot's count of the threads it starts per server (``bot.thread_budget``)."""

from __future__ import annotations

from bot.thread_budget import ThreadBudget


def test_a_server_gets_the_figure_per_window_and_a_429_closes_it_until_its_retry() -> None:
    now = [0.0]
    budget = ThreadBudget(2, 300.0, clock=lambda: now[0])
    first = budget.take(1)
    assert first is not None
    now[0] = 5.0
    budget.started(first)  # counted from its answer
    assert budget.take(1) is not None
    assert budget.take(1) is None  # spent
    assert budget.take(2) is not None  # another server has its own
    now[0] = 299.0
    assert budget.take(1) is None
    now[0] = 305.5
    slot = budget.take(1)
    assert slot is not None
    budget.refused(1, slot, 600.0)  # Discord said otherwise: closed, and not counted
    now[0] = 900.0
    assert budget.take(1) is None
    now[0] = 906.0
    assert budget.take(1) is not None
