"""What every registered game owes the table runtime, checked through its ``GameSpec`` alone.

Each case is one game with one of its ``variants()`` (together they switch every option
on): random legal games of a few seeds and table sizes (``tests.games.randomplay``), then
rule statements about every decision point reached. Nothing here names a game: a game
that registers gets every check.

Hidden information is found from the states themselves: a dataclass field whose metadata
says ``hidden`` holds what only its owner may know, ``owner`` naming the field of the same
object that holds that player (no ``owner``: nobody may know it, e.g. dice under a cup
nobody looked at). The suite re-draws those fields with other dice and checks that the
views of those who may not know them do not change.
"""

from __future__ import annotations

import copy
import json
import random
from collections.abc import Iterator
from dataclasses import dataclass, field, fields, is_dataclass, replace
from functools import cache
from typing import Any

import pytest

from bot.games import REGISTRY
from bot.kernel.dice import SIDES
from bot.kernel.errors import GameError
from bot.kernel.events import PRIVATE
from bot.kernel.levels import LEVELS
from bot.kernel.spec import Ending, GameSpec
from tests.games.randomplay import Game, Step, play

EXTRA_PLAYERS = 3  # table sizes from ``min_players`` to this many above it
# Per table size, the moves after which the table stops each game (some never end by
# themselves): two long games, and one stopped early (most games end with a win).
BOUNDS = (200, 200, 12)
REPLAY_EVERY = 10  # decision points between two full replays (each replays the whole log)
PROBES = 3  # refused actions tried per decision point, of each kind

CASES = [
    pytest.param(spec, index, id=f"{spec.name}-{index}")
    for spec in REGISTRY
    for index in range(len(spec.variants()))
]


@cache
def games_of(name: str, index: int) -> tuple[Game, ...]:
    """The random games of one case, played once for every test of the case."""
    spec = REGISTRY[name]
    rules = spec.variants()[index]
    top = min(spec.max_players, spec.min_players + EXTRA_PLAYERS)
    return tuple(
        play(spec, rules, list(range(1, count + 1)), rng(name, index, count, seed), moves)
        for count in range(spec.min_players, top + 1)
        for seed, moves in enumerate(BOUNDS)
    )


def rng(*seed: object) -> random.Random:
    return random.Random("-".join(map(str, seed)))


def steps_of(spec: GameSpec, index: int) -> Iterator[tuple[Game, Step]]:
    for game in games_of(spec.name, index):
        for step in game.steps:
            yield game, step


def through_json(raw: Any) -> Any:
    """``raw`` as stored: written as JSON text and read back."""
    return json.loads(json.dumps(raw))


def is_legal(step: Step, action: Any) -> bool:
    return any(action in actions for actions in step.legal.values())


# --------------------------------------------------------------------------- JSON


@pytest.mark.parametrize(("spec", "index"), CASES)
def test_the_table_rules_read_back_from_their_json(spec, index):
    rules = spec.variants()[index]
    raw = spec.rules_to_json(rules)
    back = spec.rules_from_json(through_json(raw))
    assert back == rules
    assert spec.rules_to_json(back) == raw


@pytest.mark.parametrize(("spec", "index"), CASES)
def test_every_state_reads_back_from_its_json(spec, index):
    for game in games_of(spec.name, index):
        for state in (game.initial, *(step.state for step in game.steps)):
            raw = state.to_json()
            back = spec.state_from_json(through_json(raw))
            assert back == state
            assert back.to_json() == raw


@pytest.mark.parametrize(("spec", "index"), CASES)
def test_every_event_reads_back_from_its_json(spec, index):
    for game in games_of(spec.name, index):
        for event in game.events:
            raw = event.to_json()
            back = spec.events.from_json(through_json(raw))
            assert back == event
            assert type(back) is type(event) and back.type == event.type
            assert back.to_json() == raw


@pytest.mark.parametrize(("spec", "index"), CASES)
def test_a_private_event_is_told_to_one_seated_player_and_no_other_event_to_anyone(spec, index):
    for game in games_of(spec.name, index):
        for event in game.events:
            if event.visibility == PRIVATE:
                assert event.to in game.pool, event
            else:
                assert event.to is None, event


# --------------------------------------------------------------------------- replay


@pytest.mark.parametrize(("spec", "index"), CASES)
def test_replaying_the_stored_events_rebuilds_every_state(spec, index):
    for game in games_of(spec.name, index):
        # What the database gives back: every event through its JSON.
        stored = [spec.events.from_json(through_json(event.to_json())) for event in game.events]
        checked = [*game.steps[::REPLAY_EVERY], game.steps[-1]]
        for step in checked:
            replayed = spec.replay(game.initial, stored[: step.events])
            assert replayed == step.state
            assert replayed.to_json() == step.json


@pytest.mark.parametrize(("spec", "index"), CASES)
def test_no_move_changes_the_state_it_is_applied_to(spec, index):
    # Every step's state was the input of the next move (and of every check so far):
    # states are values, so a state reached earlier still reads as it did then.
    for game in games_of(spec.name, index):
        assert game.initial.to_json() == spec.new_game(game.players, game.rules).to_json()
        for step in game.steps:
            assert step.state.to_json() == step.json


# --------------------------------------------------------------------------- refusals


def impostors(step: Step, pool: list[int], draw: random.Random) -> list[Any]:
    """Someone's legal actions, made by another player of the pool."""
    owned = [
        action
        for actions in step.legal.values()
        for action in actions
        if is_dataclass(action) and "player" in {f.name for f in fields(action)}
    ]
    made = []
    for action in draw.sample(owned, min(PROBES, len(owned))):
        others = [player for player in pool if player != action.player]
        made.append(replace(action, player=draw.choice(others)))
    return made


@pytest.mark.parametrize(("spec", "index"), CASES)
def test_an_action_is_accepted_exactly_when_it_is_legal_and_a_refusal_changes_nothing(spec, index):
    draw = rng("refusals", spec.name, index)
    refused = 0
    for game in games_of(spec.name, index):
        earlier: list[Any] = []  # legal actions of earlier decision points, any player's
        for step in game.steps:
            stale = draw.sample(earlier, min(PROBES, len(earlier)))
            # Leaving is a move the spec names: offered exactly when the table accepts it.
            leaving = spec.leave(draw.choice(game.pool))
            for action in [*impostors(step, game.pool, draw), *stale, leaving]:
                made = spec.complete(step.state, action, draw)
                try:
                    spec.apply(step.state, made)
                except GameError as error:
                    assert not is_legal(step, action), f"legal {made!r} refused: {error!r}"
                    refused += 1
                else:
                    assert is_legal(step, action), f"{made!r} accepted, not offered"
            if step.state.over:
                with pytest.raises(GameError):
                    spec.apply(step.state, spec.stop())
            # Neither the refusals nor the moves tried changed the state they were tried on.
            assert step.state.to_json() == step.json
            for actions in step.legal.values():
                earlier.extend(actions)
    # The probes did meet refusals (stale and borrowed moves mostly are).
    assert refused > 0


# --------------------------------------------------------------------------- the end


@pytest.mark.parametrize(("spec", "index"), CASES)
def test_a_game_has_an_outcome_exactly_when_it_is_over(spec, index):
    for game, step in steps_of(spec, index):
        state = step.state
        outcome = spec.outcome(state)
        assert (outcome is None) == (not state.over)
        if state.over:
            assert step.legal == {player: [] for player in game.pool}
            assert step.cpu == {}
            assert outcome.ending in tuple(Ending)
            # Winners exactly when the game came to its end, and only players of the game.
            assert bool(outcome.winners) == (outcome.ending == Ending.WON)
            assert set(outcome.winners) <= set(game.pool)
        else:
            # A game that goes on waits on someone, and a CPU can move for them when
            # their time runs out.
            assert any(step.legal.values())
            assert step.cpu
            stopped, _ = spec.apply(state, spec.stop())
            assert stopped.over and spec.outcome(stopped) is not None


@pytest.mark.parametrize(("spec", "index"), CASES)
def test_a_finished_game_adds_up_for_its_humans_only(spec, index):
    boards = {board.name for board in spec.boards}
    for game in games_of(spec.name, index):
        humans = game.players[::2]  # the others are CPUs: they never count
        results = spec.results(game.final, game.events, humans, game.rules)
        assert results.board in boards
        assert set(results.figures) <= set(humans)
        ranked = [player for group in results.ranking for player in group]
        assert len(ranked) == len(set(ranked))
        assert set(ranked) == set(results.figures)


# --------------------------------------------------------------------------- views and CPUs


@pytest.mark.parametrize(("spec", "index"), CASES)
def test_every_seat_and_the_channel_may_view_every_state(spec, index):
    for game, step in steps_of(spec, index):
        for viewer in (None, *game.pool):
            seen = spec.view(step.state, viewer)
            assert seen == spec.view(step.state, viewer)  # a view is a function of the state
        assert step.state.to_json() == step.json


@pytest.mark.parametrize(("spec", "index"), CASES)
def test_a_cpu_move_is_a_legal_move_of_a_player_who_may_move(spec, index):
    levels = set()
    for _, step in steps_of(spec, index):
        for player, (level, move) in step.cpu.items():
            levels.add(level)
            assert step.legal[player], f"{player} has a CPU move and no legal action"
            assert move != spec.leave(player)  # a CPU plays on: leaving is the table's call
            try:
                spec.apply(step.state, move)
            except GameError as error:
                pytest.fail(f"the {level} CPU played {move!r}, refused: {error!r}")
    assert levels == set(LEVELS)


# --------------------------------------------------------------------------- hidden information

HIDDEN = "hidden"
OWNER = "owner"

fields_of = cache(fields)  # by dataclass type: a state's walk visits many objects


@dataclass(frozen=True, slots=True)
class Spot:
    """A hidden field of a state: the way down to it, and who may know it (None: nobody)."""

    path: tuple[Any, ...]  # field names, list indices and dict keys from the state down
    owner: int | None
    name: str  # ``Class.field``


def spots(value: Any, path: tuple[Any, ...] = ()) -> Iterator[Spot]:
    """Every hidden field in the dataclass tree of ``value``."""
    if isinstance(value, str | int | float) or value is None:
        return
    if is_dataclass(value) and not isinstance(value, type):
        for item in fields_of(type(value)):
            here = (*path, item.name)
            if item.metadata.get(HIDDEN):
                owner = item.metadata.get(OWNER)
                held = getattr(value, owner) if owner is not None else None
                yield Spot(here, held, f"{type(value).__name__}.{item.name}")
            else:
                yield from spots(getattr(value, item.name), here)
    elif isinstance(value, list | tuple):
        for position, child in enumerate(value):
            yield from spots(child, (*path, position))
    elif isinstance(value, dict):
        for key, child in value.items():
            yield from spots(child, (*path, key))


def get(value: Any, path: tuple[Any, ...]) -> Any:
    for key in path:
        value = getattr(value, key) if is_dataclass(value) else value[key]
    return value


def put(value: Any, path: tuple[Any, ...], new: Any) -> Any:
    """A copy of ``value`` holding ``new`` at ``path``, sharing everything off the path."""
    if not path:
        return new
    key, rest = path[0], path[1:]
    if is_dataclass(value):
        other = copy.copy(value)
        # ``object.__setattr__``: a frozen dataclass may hold a hidden field too.
        object.__setattr__(other, key, put(getattr(value, key), rest, new))
        return other
    if isinstance(value, dict):
        return {**value, key: put(value[key], rest, new)}
    items = list(value)
    items[key] = put(value[key], rest, new)
    return type(value)(items)


def other_dice(value: Any, draw: random.Random) -> Any:
    """Other dice of the same shape as ``value`` (every die on another face; None stays)."""
    if value is None:
        return None
    if isinstance(value, int) and not isinstance(value, bool):
        return draw.choice([pip for pip in range(1, SIDES + 1) if pip != value])
    if isinstance(value, list | tuple):
        return type(value)(other_dice(item, draw) for item in value)
    raise TypeError(f"a hidden {type(value).__name__}: the suite re-draws dice only")


def dice_in(value: Any) -> int:
    if isinstance(value, list | tuple):
        return sum(dice_in(item) for item in value)
    return int(isinstance(value, int) and not isinstance(value, bool))


def redrawn(state: Any, found: list[Spot], draw: random.Random, *, spare: int | None = None) -> Any:
    """``state`` with other dice in its hidden fields ``found``, but those ``spare`` owns
    (``state`` itself when no die was re-drawn; it is never changed)."""
    other = state
    for spot in found:
        if spare is not None and spot.owner == spare:
            continue
        old = get(state, spot.path)
        new = other_dice(old, draw)
        if new != old:
            other = put(other, spot.path, new)
    return other


def hidden_dice(state: Any, found: list[Spot]) -> int:
    return sum(dice_in(get(state, spot.path)) for spot in found)


@pytest.mark.parametrize(("spec", "index"), CASES)
def test_the_public_view_shows_no_hidden_die(spec, index):
    draw = rng("public", spec.name, index)
    for _, step in steps_of(spec, index):
        other = redrawn(step.state, list(spots(step.state)), draw)
        if other is not step.state:
            assert spec.view(other, None) == spec.view(step.state, None)


@pytest.mark.parametrize(("spec", "index"), CASES)
def test_a_players_view_shows_no_hidden_die_but_their_own(spec, index):
    draw = rng("players", spec.name, index)
    for game, step in steps_of(spec, index):
        found = list(spots(step.state))
        for player in game.pool:
            other = redrawn(step.state, found, draw, spare=player)
            if other is not step.state:
                assert spec.view(other, player) == spec.view(step.state, player)


@pytest.mark.parametrize(("spec", "index"), CASES)
def test_a_game_marks_hidden_fields_exactly_when_it_keeps_events_from_the_channel(spec, index):
    # Replay rebuilds a state from its events: a hidden die came in an event the channel was
    # not told, and a die the channel was not told is kept in a hidden field.
    games = games_of(spec.name, index)
    untold = any(not event.public for game in games for event in game.events)
    found = [(step.state, list(spots(step.state))) for _, step in steps_of(spec, index)]
    marked = {spot.name for _, spotted in found for spot in spotted}
    assert bool(marked) == untold, marked
    # ... and the states reached did hold hidden dice, so the view tests re-drew some.
    held = sum(1 for state, spotted in found if hidden_dice(state, spotted))
    assert (held > 0) == untold


@pytest.mark.parametrize(("spec", "index"), CASES)
def test_a_redraw_changes_the_state_exactly_when_it_holds_hidden_dice(spec, index):
    # Otherwise the view tests could pass without having re-drawn anything.
    draw = rng("redraw", spec.name, index)
    for _, step in steps_of(spec, index):
        found = list(spots(step.state))
        other = redrawn(step.state, found, draw)
        if hidden_dice(step.state, found):
            assert other.to_json() != step.json
            assert step.state.to_json() == step.json  # the re-drawn state is a copy
        else:
            assert other is step.state


@dataclass(slots=True)
class ToySeat:
    player: int
    dice: int = 0
    hand: tuple[int, ...] | None = field(default=None, metadata={HIDDEN: True, OWNER: "player"})


@dataclass(slots=True)
class ToyState:
    seats: list[ToySeat]
    shown: tuple[int, int] = (1, 2)
    cup: tuple[int, int] | None = field(default=None, metadata={HIDDEN: True})


def test_a_redraw_changes_every_hidden_die_spares_the_owners_and_keeps_the_rest():
    state = ToyState([ToySeat(1, 2, (3, 3)), ToySeat(2, 1, (6,)), ToySeat(3)], cup=(2, 5))
    found = list(spots(state))
    assert [spot.name for spot in found] == ["ToySeat.hand"] * 3 + ["ToyState.cup"]
    assert [spot.owner for spot in found] == [1, 2, 3, None]  # the cup is nobody's
    assert hidden_dice(state, found) == 5
    draw = random.Random(0)
    other = redrawn(state, found, draw)
    assert all(a != b for a, b in zip(other.seats[0].hand, (3, 3), strict=True))
    assert other.seats[1].hand != (6,) and other.cup[0] != 2 and other.cup[1] != 5
    assert other.seats[2].hand is None  # no hand, nothing to re-draw
    assert (other.shown, [s.dice for s in other.seats]) == ((1, 2), [2, 1, 0])
    assert state.seats[0].hand == (3, 3) and state.cup == (2, 5)  # the original is untouched
    assert other.seats[2] is state.seats[2]  # what holds no hidden die is shared
    spared = redrawn(state, found, draw, spare=1)
    assert spared.seats[0].hand == (3, 3)
    assert spared.seats[1].hand != (6,) and spared.cup != (2, 5)
    empty = ToyState([ToySeat(1)])
    assert redrawn(empty, list(spots(empty)), draw) is empty
