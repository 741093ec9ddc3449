"""The bot token's globally limited calls: evenly spaced at the process's rate, those a
person waits on first."""

from __future__ import annotations

import asyncio

import pytest

from bot.config import ConfigError, load_settings
from bot.pacing import Pacer, background, paced


class Clock:
    """A clock that moves only when the pacer sleeps."""

    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now

    async def sleep(self, seconds: float) -> None:
        await asyncio.sleep(0)  # what was let through runs at the time it was let through
        self.now += seconds
        await asyncio.sleep(0)


def pacer(rate: float) -> tuple[Pacer, Clock]:
    clock = Clock()
    return Pacer(rate, clock=clock, sleep=clock.sleep), clock


async def test_a_lone_call_goes_at_once() -> None:
    paced_calls, clock = pacer(5)
    await paced_calls.take()
    assert paced_calls.waited == 0 and clock.now == 100.0


async def test_no_second_holds_more_calls_than_the_rate() -> None:
    calls, clock = pacer(5)
    granted: list[float] = []

    async def call() -> None:
        await calls.take()
        granted.append(clock.now)

    await asyncio.gather(*(call() for _ in range(23)))
    assert len(granted) == 23 and calls.waited == 22
    for start in granted:
        assert sum(1 for at in granted if start <= at < start + 1) <= 5
    assert granted[-1] - granted[0] == pytest.approx(22 / 5)


async def test_what_a_person_waits_on_goes_before_the_background_calls() -> None:
    calls, _ = pacer(1)
    await calls.take()  # the budget of this second is spent
    order: list[str] = []

    async def call(name: str, behind: bool) -> None:
        if behind:
            with background():
                await calls.take()
        else:
            await calls.take()
        order.append(name)

    waiting = [asyncio.create_task(call(f"restore {n}", True)) for n in range(3)]
    await asyncio.sleep(0)
    waiting.append(asyncio.create_task(call("click", False)))
    await asyncio.gather(*waiting)
    assert order == ["click", "restore 0", "restore 1", "restore 2"]


async def test_a_call_given_up_takes_no_turn() -> None:
    calls, clock = pacer(1)
    await calls.take()
    given_up = asyncio.create_task(calls.take())
    await asyncio.sleep(0)
    given_up.cancel()
    kept = asyncio.create_task(calls.take())
    await asyncio.sleep(0)
    assert calls.queued == 1
    await kept
    assert clock.now == pytest.approx(101.0)  # one interval, not two


async def test_paced_requests_take_their_turn_first() -> None:
    calls, clock = pacer(2)
    seen: list[tuple[str, float]] = []

    async def request(route: str) -> str:
        seen.append((route, clock.now))
        return route

    send = paced(request, calls)
    assert await asyncio.gather(send("a"), send("b"), send("c")) == ["a", "b", "c"]
    assert [at for _, at in seen] == [100.0, 100.5, 101.0]


def test_each_process_takes_its_shards_share_of_the_global_limit() -> None:
    assert load_settings({}, dotenv=False).global_budget == 45  # a margin under Discord's 50
    two_of_four = {"GOBELET_SHARD_COUNT": "4", "GOBELET_SHARD_IDS": "0,1"}
    assert load_settings(two_of_four, dotenv=False).global_budget == 22.5
    chosen = {**two_of_four, "GOBELET_GLOBAL_RATE": "12.5"}
    assert load_settings(chosen, dotenv=False).global_budget == 12.5
    assert load_settings({"GOBELET_GLOBAL_RATE": "50"}, dotenv=False).global_budget == 50


@pytest.mark.parametrize("raw", ["0", "-3", "51", "vite"])
def test_a_global_rate_outside_discords_limit_is_refused(raw: str) -> None:
    with pytest.raises(ConfigError, match="GOBELET_GLOBAL_RATE"):
        load_settings({"GOBELET_GLOBAL_RATE": raw}, dotenv=False)
