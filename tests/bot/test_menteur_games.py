"""The table layer's view of Dés du menteur (``bot.games.MenteurKind``): JSON, CPU seats,
leaderboards."""

from __future__ import annotations

import json
import random
from typing import Any, cast

import pytest

from bot.games import REGISTRY
from bot.games import menteur as lm
from bot.kernel.events import Event
from bot.kernel.spec import Ending
from cogs.menteur.cog import MenteurCog
from cogs.table.controller import TableController

KIND = REGISTRY["menteur"]
A, B, C, D = 11, 22, -1, -2


def play_out(
    players: list[int], levels: dict[int, str], seed: int = 1
) -> tuple[lm.State, list[Event]]:
    rng = random.Random(seed)
    state = KIND.new_game(players, lm.Rules.for_preset(dice=3))
    logged: list[Event] = []
    while not state.over:
        player = state.current
        action = KIND.cpu_action(state, player, levels[player], rng)
        assert action is not None
        state, events = KIND.apply(state, action)
        logged += events
    return state, logged


def test_the_rules_and_the_state_survive_json() -> None:
    rules = lm.Rules.for_preset(dice=4, jokers=False)
    assert KIND.rules_from_json(json.loads(json.dumps(KIND.rules_to_json(rules)))) == rules
    state = KIND.new_game([A, B], rules)
    assert KIND.state_from_json(json.loads(json.dumps(state.to_json()))) == state


@pytest.mark.parametrize("level", ["facile", "moyen", "difficile"])
def test_every_table_level_plays_a_whole_game(level: str) -> None:
    state, _ = play_out([A, B, C], {A: level, B: level, C: level})
    assert state.over and state.winner is not None


def test_the_outcome_counts_humans_only_and_ranks_by_elimination() -> None:
    levels = {A: "moyen", B: "facile", C: "difficile", D: "moyen"}
    state, events = play_out([A, B, C, D], levels, seed=4)
    logged = [e.to_json() for e in events]  # the log as stored
    results = KIND.results(state, events, [A, B], None)
    assert results.board == "menteur"
    assert set(results.figures) == {A, B}
    out = [e["data"]["player"] for e in logged if e["type"] == "eliminated"]
    for player in (A, B):
        numbers = results.figures[player]
        assert numbers["games"] == 1
        assert numbers["wins"] == (1 if state.winner == player else 0)
        assert numbers["dice_lost"] == sum(
            1 for e in logged if e["type"] == "die_lost" and e["data"]["player"] == player
        )
        challenges = [
            e for e in logged if e["type"] == "revealed" and e["data"]["challenger"] == player
        ]
        assert numbers["challenges_won"] + numbers["challenges_lost"] == len(challenges)
    flat = [p for group in results.ranking for p in group]
    assert sorted(flat) == [A, B]
    if state.winner in (A, B):
        assert results.ranking[0] == [state.winner]
    else:  # both out: the last out is the better
        assert flat == sorted((A, B), key=out.index, reverse=True)


def test_a_stopped_game_ends_by_stop_and_cpus_never_leave() -> None:
    state = KIND.new_game([A, C], lm.Rules.for_preset())
    state, _ = KIND.apply(state, KIND.stop())
    outcome = KIND.outcome(state)
    assert outcome is not None and outcome.ending is Ending.STOPPED and state.over
    state = KIND.new_game([A, C], lm.Rules.for_preset())
    assert KIND.in_game(state, A) and KIND.still_here(state, A)
    state, _ = KIND.apply(state, KIND.leave(A))
    assert not KIND.in_game(state, A) and not KIND.still_here(state, A)


class _Seats:
    """A table's seats as ``about_people`` reads them: negative ids are CPUs."""

    @staticmethod
    def is_cpu(player: int) -> bool:
        return player < 0


def test_an_exact_calza_between_cpus_stays_on_the_table_and_a_persons_is_a_headline() -> None:
    cog = TableController(cast(Any, None), cast(Any, None), MenteurCog.__new__(MenteurCog))
    table: Any = _Seats()
    calza_by_cpu = [lm.RoundEnded(loser=None, opener=-1)]
    assert not cog.is_headline(table, calza_by_cpu)
    assert cog.is_headline(table, [lm.RoundEnded(loser=None, opener=7)])
    assert cog.is_headline(table, [lm.RoundEnded(loser=7, opener=7)])
    assert not cog.is_headline(table, [lm.RoundEnded(loser=-2, opener=-2)])
