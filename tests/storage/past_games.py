"""Games finished before achievements existed, stored as the bot of that time stored them:
their snapshot, their whole event log, their table data and their counted figures (and no
achievement)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.games import REGISTRY
from bot.kernel.spec import Ending
from bot.storage import EventRecord, GameResults, Repository
from bot.table.record import CPU_NAMES, Cpu, Table

DAY = "2026-01-15"


async def store_finished(
    repo: Repository,
    kind: str,
    rules: Any,
    players: Sequence[int],
    actions: Sequence[Any],
    *,
    guild: int,
    channel: int,
) -> int:
    """A game of ``players`` (negative ones are CPUs) played by ``actions`` in seating
    order, stopped by the table if still going, counted; returns its id."""
    spec = REGISTRY[kind]
    cpus = {p: Cpu(CPU_NAMES[-p - 1], "moyen") for p in players if p < 0}
    humans = [p for p in players if p >= 0]
    table = Table(0, guild, channel, kind, humans[0], "fr", rules, list(players), cpus)
    game = await repo.create_game(guild_id=guild, channel_id=channel, kind=kind, meta=table.meta())
    state = spec.new_game(list(players), rules)
    events = []
    for action in [*actions, None]:
        if action is None:
            if state.over:
                break
            action = spec.stop()
        state, produced = spec.apply(state, action)
        events += produced
    results = spec.results(state, events, humans, rules)
    ended = spec.outcome(state)
    assert ended is not None
    await repo.save_game(
        game,
        previous_version=0,
        version=1,
        status="finished" if ended.ending is Ending.WON else "stopped",
        state=state.to_json(),
        meta=table.meta(),
        events=[EventRecord(e.type, e.visibility, e.to, e.data) for e in events],
        results=GameResults(
            board=next(b for b in spec.boards if b.name == results.board),
            day=DAY,
            figures=results.figures,
            ratings={},
        ),
    )
    return game
