"""The dés du menteur CPU: legal, blind to hidden dice, sensible, and stronger level by level."""

import ast
import random
from pathlib import Path

import pytest

from bot.games import menteur as g
from bot.games.menteur import cpu as cpu
from bot.kernel.levels import DIFFICILE, FACILE, LEVELS, MOYEN

ALLOWED_IMPORTS = {
    "random",
    "math",
    "dataclasses",
    "fractions",
    "functools",
    "itertools",
    "typing",
    "collections.abc",
}


def _step(state: g.State, levels: dict[int, str], rng: random.Random) -> g.State:
    player = state.current
    assert player is not None
    legal = g.turn_actions(state, player)
    action = cpu.choose(g.view(state, player), legal, levels[player], rng)
    assert action in legal, (action, legal)
    state, _ = g.apply(state, g.complete(state, action, rng))
    return state


def _game(seed: int, dice: int, jokers: bool) -> g.State:
    """Every seat a CPU of a random level, until someone wins."""
    rng = random.Random(seed)
    players = list(range(rng.randint(2, 6)))
    levels = {p: rng.choice(LEVELS) for p in players}
    state = g.new_game(players, g.Rules(dice=dice, jokers=jokers))
    for _ in range(2000):
        if state.over:
            return state
        state = _step(state, levels, rng)
    raise AssertionError("no winner")


@pytest.mark.parametrize("dice", [3, 4, 5])
@pytest.mark.parametrize("jokers", [True, False])
def test_the_cpu_always_plays_a_legal_action_and_games_end(dice: int, jokers: bool) -> None:
    for seed in range(8):
        state = _game(seed * 7 + dice, dice, jokers)
        assert state.winner is not None


@pytest.mark.parametrize("level", LEVELS)
def test_the_cpu_never_bids_more_dice_than_in_play(level: str) -> None:
    rng = random.Random(3)
    state = g.new_game([0, 1, 2], g.Rules(dice=3))
    levels = dict.fromkeys(range(3), level)
    while not state.over:
        player = state.current
        legal = g.turn_actions(state, player)
        action = cpu.choose(g.view(state, player), legal, level, rng)
        if isinstance(action, g.Bid):
            assert action.quantity <= g.dice_in_play(state)
        state = _step(state, levels, random.Random(rng.random()))


def test_an_unknown_level_or_nothing_to_play_is_refused() -> None:
    state = g.new_game([1, 2])
    with pytest.raises(ValueError):
        cpu.choose(g.view(state, 1), g.turn_actions(state, 1), "expert", random.Random(0))
    with pytest.raises(ValueError):
        cpu.choose(g.view(state, 2), [g.Leave(2)], MOYEN, random.Random(0))
    assert cpu.acts(g.turn_actions(state, 1))
    assert not cpu.acts([g.Leave(2)])


def test_the_opener_rolls() -> None:
    state = g.new_game([1, 2])
    for level in LEVELS:
        legal = g.turn_actions(state, 1)
        assert cpu.choose(g.view(state, 1), legal, level, random.Random(0)) == g.Roll(1)


# --------------------------------------------------------------------------- no peeking


def test_the_cpu_module_imports_only_the_standard_maths_and_the_engine() -> None:
    tree = ast.parse(Path(cpu.__file__).read_text())
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            names = [node.module or ""]
        else:
            continue
        for name in names:
            assert name in ALLOWED_IMPORTS or name.startswith(("bot.games", "bot.kernel")), name


def test_the_cpu_never_touches_the_global_random_nor_the_state() -> None:
    tree = ast.parse(Path(cpu.__file__).read_text())
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
            if node.value.id == "random":
                assert node.attr == "Random", node.attr
            assert node.attr not in ("State", "hand", "seat", "legal_actions", "apply"), node.attr


def _reroll_others(state: g.State, player: int, rng: random.Random) -> g.State:
    other = state.copy()
    for seat in other.seats:
        if seat.player != player and seat.hand is not None:
            seat.hand = tuple(rng.randint(1, 6) for _ in seat.hand)
    return other


@pytest.mark.parametrize("jokers", [True, False])
def test_hidden_dice_do_not_change_a_decision(jokers: bool) -> None:
    rng = random.Random(11)
    levels = {0: DIFFICILE, 1: MOYEN, 2: FACILE, 3: DIFFICILE}
    state = g.new_game(list(levels), g.Rules(jokers=jokers))
    checked = 0
    for _ in range(150):
        if state.over:
            break
        player = state.current
        if state.phase == g.BID:
            for level in LEVELS:
                legal = g.turn_actions(state, player)
                first = cpu.choose(g.view(state, player), legal, level, random.Random(5))
                for attempt in range(3):
                    other = _reroll_others(state, player, random.Random(attempt))
                    assert g.view(other, player) == g.view(state, player)
                    again = cpu.choose(g.view(other, player), legal, level, random.Random(5))
                    assert again == first
                checked += 1
        state = _step(state, levels, rng)
    assert checked > 50


# --------------------------------------------------------------------------- clear-cut decisions


def _facing(mine: tuple[int, ...], theirs: tuple[int, ...], bids, jokers: bool = True):
    """Player 2 (the CPU, holding ``mine``) to answer the bids, made in turn, ending with 1's."""
    state = g.new_game([1, 2], g.Rules(dice=len(mine), jokers=jokers))
    state, _ = g.apply(state, g.Roll(1, (theirs, mine)))
    for quantity, face in bids:
        state, _ = g.apply(state, g.Bid(state.current, quantity, face))
    assert state.current == 2
    return state


@pytest.mark.parametrize("level", LEVELS)
def test_a_bid_needing_every_unknown_die_is_challenged(level: str) -> None:
    # Six 5s with one 5 in hand: all five unknown dice must be 5s or 1s (1 chance in 243).
    state = _facing((2, 2, 3, 4, 5), (6, 6, 6, 6, 6), [(6, 5)])
    for seed in range(20):
        legal = g.turn_actions(state, 2)
        action = cpu.choose(g.view(state, 2), legal, level, random.Random(seed))
        assert action == g.Challenge(2)


@pytest.mark.parametrize("level", LEVELS)
def test_a_bid_its_own_dice_satisfy_is_not_challenged(level: str) -> None:
    # Three 4s, and it holds 4, 4, 1 (the one a joker): the bid holds whatever the rest.
    state = _facing((4, 4, 1, 6, 2), (3, 3, 5, 5, 2), [(3, 4)])
    for seed in range(20):
        legal = g.turn_actions(state, 2)
        action = cpu.choose(g.view(state, 2), legal, level, random.Random(seed))
        assert isinstance(action, g.Bid)
        assert action.quantity <= g.dice_in_play(state)


@pytest.mark.parametrize("level", LEVELS)
def test_without_jokers_ones_count_only_for_ones(level: str) -> None:
    # Five 4s without jokers, holding 4, 4, 1, 1, 1: three unknown dice must all be 4s.
    state = _facing((4, 4, 1, 1, 1), (2, 3, 5, 6, 6), [(5, 4)], jokers=False)
    legal = g.turn_actions(state, 2)
    assert cpu.choose(g.view(state, 2), legal, level, random.Random(0)) == g.Challenge(2)


def test_moyen_raises_on_the_face_it_holds() -> None:
    state = _facing((5, 5, 5, 2, 3), (2, 2, 3, 4, 6), [(2, 3)])
    legal = g.turn_actions(state, 2)
    action = cpu.choose(g.view(state, 2), legal, MOYEN, random.Random(0))
    assert action == g.Bid(2, 2, 5)


def test_difficile_reads_the_opponents_bids() -> None:
    # Heads-up, it holds no 6 and no 1; the opponent opened and raised on 6s. Difficile
    # believes six 6s is less far-fetched than moyen, who reads its own dice only.
    view = g.view(_facing((2, 3, 3, 4, 5), (6, 6, 6, 1, 2), [(2, 6)]), 2)
    table = cpu._table(view)
    (belief,) = cpu._beliefs(table)
    dist = belief.distribution(6, True)
    expected = sum(k * p for k, p in enumerate(dist))
    assert expected > 5 / 3 + 0.3  # an unread hand of 5 dice holds 5/3 sixes or ones


# --------------------------------------------------------------------------- strength


def _duel(first: str, second: str, games: int, seed: int) -> float:
    rng = random.Random(seed)
    wins = 0
    for game in range(games):
        seating = {0: first, 1: second} if game % 2 == 0 else {0: second, 1: first}
        state = g.new_game([0, 1], g.Rules())
        while not state.over:
            state = _step(state, seating, rng)
        wins += seating[state.winner] == first
    return wins / games


def test_difficile_beats_moyen_and_moyen_beats_facile_heads_up() -> None:
    assert _duel(DIFFICILE, MOYEN, 200, seed=2026) > 0.5
    assert _duel(MOYEN, FACILE, 200, seed=2026) > 0.5
