"""The dés du menteur CPU: legal, blind to hidden dice, sensible, and stronger level by level."""

import ast
import random
from collections import Counter
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


def _position(hands: tuple[tuple[int, ...], ...], bids, jokers: bool = True) -> g.State:
    """Players 1, 2, ... holding ``hands`` (any dice counts), the bids made in turn from 1."""
    players = list(range(1, len(hands) + 1))
    state = g.new_game(players, g.Rules(jokers=jokers))
    for seat, hand in zip(state.seats, hands, strict=True):
        seat.dice = len(hand)
    state, _ = g.apply(state, g.Roll(1, hands))
    for quantity, face in bids:
        state, _ = g.apply(state, g.Bid(state.current, quantity, face))
    return state


def _belief_holds(view: g.View) -> float:
    """P(the bid to beat holds) by difficile's beliefs over the others' hands."""
    table = cpu._table(view)
    assert table.bid is not None
    quantity, face = table.bid
    dists = [belief.distribution(face, table.jokers) for belief in cpu._beliefs(table)]
    tail = cpu._tail_of(cpu._convolve(dists))
    return cpu._at(tail, quantity - cpu._support(table.dice, face, table.jokers))


def test_difficile_challenges_a_bid_the_bidding_makes_unlikely() -> None:
    # Player 1 has one die and opened two 4s: a jump only a 4 (or a one) supports. Three 6s
    # needs that die to be a 6 or a one: a third by our dice alone (moyen raises), far
    # less once the opening is read.
    state = _position(((4,), (6, 6, 4, 4, 3)), [(2, 4), (3, 4), (3, 6)])
    view, legal = g.view(state, 2), g.turn_actions(state, 2)
    assert cpu._holds(cpu._table(view), 3, 6) == pytest.approx(1 / 3)
    assert _belief_holds(view) < 0.25
    assert isinstance(cpu.choose(view, legal, MOYEN, random.Random(0)), g.Bid)
    for seed in range(20):
        assert cpu.choose(view, legal, DIFFICILE, random.Random(seed)) == g.Challenge(2)


def test_difficile_believes_a_bid_the_bidding_makes_likely() -> None:
    # Player 1 opened six 4s with five dice, let three ones pass and bid seven 4s: they
    # hold most of them. By our dice alone (three count) seven 4s needs four of their
    # five dice (moyen challenges); read, it is very likely.
    state = _position(((1, 4, 4, 4, 1), (1, 5, 4, 1, 6)), [(6, 4), (3, 1), (7, 4)])
    view, legal = g.view(state, 2), g.turn_actions(state, 2)
    assert cpu._holds(cpu._table(view), 7, 4) < 0.05
    assert _belief_holds(view) > 0.8
    assert cpu.choose(view, legal, MOYEN, random.Random(0)) == g.Challenge(2)
    for seed in range(20):
        action = cpu.choose(view, legal, DIFFICILE, random.Random(seed))
        assert isinstance(action, g.Bid) and action in legal


@pytest.mark.parametrize("jokers", [True, False])
def test_difficile_plays_legal_actions_at_six_seats(jokers: bool) -> None:
    rng = random.Random(6)
    levels = dict.fromkeys(range(6), DIFFICILE)
    state = g.new_game(list(levels), g.Rules(jokers=jokers))
    for _ in range(3000):
        if state.over:
            break
        player = state.current
        if state.phase == g.BID:
            legal = g.turn_actions(state, player)
            action = cpu.choose(
                g.view(state, player), legal, DIFFICILE, random.Random(rng.random())
            )
            assert action in legal
        state = _step(state, levels, rng)
    assert state.over


def test_difficile_mixes_its_openings() -> None:
    # Holding three 5s it mostly opens on 5s, yet not always: its bids must not give its
    # hand away to a player who reads them the way it reads theirs.
    state = g.new_game([1, 2])
    state, _ = g.apply(state, g.Roll(1, ((5, 5, 5, 2, 3), (2, 2, 2, 2, 2))))
    view, legal = g.view(state, 1), g.turn_actions(state, 1)
    faces = Counter()
    for seed in range(200):
        action = cpu.choose(view, legal, DIFFICILE, random.Random(seed))
        assert isinstance(action, g.Bid)
        faces[action.face] += 1
    assert faces.most_common(1)[0] == (5, faces[5])
    assert faces[5] < 180
    assert faces[4] + faces[6] > 0  # faces it holds none of


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


# --------------------------------------------------------------------------- the variants


@pytest.mark.parametrize("dice", [3, 5])
@pytest.mark.parametrize("jokers", [True, False])
def test_every_level_plays_legal_actions_with_calza_and_palifico(dice: int, jokers: bool) -> None:
    calls = palificos = 0
    for seed in range(10):
        rng = random.Random(seed * 13 + dice)
        players = list(range(rng.randint(2, 6)))
        levels = {p: rng.choice(LEVELS) for p in players}
        rules = g.Rules(dice=dice, jokers=jokers, calza=True, palifico=True)
        state = g.new_game(players, rules)
        for _ in range(3000):
            if state.over:
                break
            if state.phase == g.BID and state.palifico is not None:
                palificos += 1
            player = state.current
            assert player is not None
            legal = g.turn_actions(state, player)
            action = cpu.choose(g.view(state, player), legal, levels[player], rng)
            assert action in legal or isinstance(action, g.Roll), (action, legal)
            calls += isinstance(action, g.Calza)
            state, _ = g.apply(state, g.complete(state, action, rng))
        assert state.winner is not None
    assert calls > 0 and palificos > 0


def _calza_spot(
    mine: tuple[int, ...], theirs: tuple[int, ...], start: int, *bids: tuple[int, int]
) -> g.State:
    """Player 2 (the CPU) answering ``bids`` (made in turn from player 1) with Calza on;
    ``start`` dice each at the start (so ``len(mine) < start`` is a die to win back)."""
    state = g.new_game([1, 2], g.Rules(dice=start, calza=True))
    state.seats[0].dice, state.seats[1].dice = len(theirs), len(mine)
    state, _ = g.apply(state, g.Roll(1, (theirs, mine)))
    for quantity, face in bids:
        state, _ = g.apply(state, g.Bid(state.current, quantity, face))
    assert state.current == 2
    return state


@pytest.mark.parametrize("level", [FACILE, MOYEN])
def test_a_calza_likely_exact_is_called_when_a_die_can_be_won_back(level: str) -> None:
    # Two 4s in hand; the two-die opponent bids three 4s. Granting them one 4 (they bid
    # what they hold), it is exact unless their other die counts too: two in three.
    state = _calza_spot((4, 4), (3, 4), 3, (3, 4))
    legal = g.turn_actions(state, 2)
    assert g.Calza(2) in legal
    assert cpu.choose(g.view(state, 2), legal, level, random.Random(0)) == g.Calza(2)


@pytest.mark.parametrize("level", [FACILE, MOYEN])
def test_a_calza_is_not_called_on_a_bid_its_bidder_must_hold_a_die_of(level: str) -> None:
    # One 4 in hand; the one-die opponent bids one 4 of their own: their die likely counts,
    # so the count is two (by its dice alone, "one 4" would be exact two times in three).
    state = _calza_spot((4,), (3,), 3, (1, 4))
    legal = g.turn_actions(state, 2)
    assert cpu.choose(g.view(state, 2), legal, level, random.Random(0)) != g.Calza(2)


def test_difficile_calls_a_calza_the_bidding_makes_likely_exact() -> None:
    # Two 4s in hand; the one-die opponent opened on 4s and raised to three 4s: their die
    # surely counts, so three 4s is exact (and a die comes back). By its dice alone the
    # chance would be a third; read from the bids it is far more.
    state = _calza_spot((4, 4), (1,), 3, (1, 4), (2, 4), (3, 4))
    legal = g.turn_actions(state, 2)
    picks = [cpu.choose(g.view(state, 2), legal, DIFFICILE, random.Random(s)) for s in range(40)]
    assert picks.count(g.Calza(2)) > 30, picks


@pytest.mark.parametrize("level", LEVELS)
def test_no_calza_at_the_starting_dice_when_nothing_can_be_won(level: str) -> None:
    # Three 4s in hand, three unknown: exact when none of them counts (8 in 27). Nothing to
    # win back at the starting dice: it would only risk a die.
    state = _calza_spot((4, 4, 4), (3, 2, 6), 3, (3, 4))
    legal = g.turn_actions(state, 2)
    for seed in range(20):
        assert cpu.choose(g.view(state, 2), legal, level, random.Random(seed)) != g.Calza(2)


@pytest.mark.parametrize("level", LEVELS)
def test_a_calza_unlikely_exact_is_not_called(level: str) -> None:
    # "One 4" when it holds three 4s: it cannot be exact.
    state = _calza_spot((4, 4, 4), (3, 2, 6, 5), 5, (1, 4))
    legal = g.turn_actions(state, 2)
    for seed in range(20):
        assert cpu.choose(g.view(state, 2), legal, level, random.Random(seed)) != g.Calza(2)


def _palifico_spot(mine: tuple[int, ...], theirs: tuple[int, ...], bid: tuple[int, int]):
    """Player 2 (the CPU) in player 1's Palifico round, facing their opening ``bid``."""
    state = g.new_game([1, 2], g.Rules(dice=5, palifico=True))
    state.seats[0].dice, state.seats[1].dice = len(theirs), len(mine)
    state.palifico, state.palificos, state.current = 1, [1], 1
    state, _ = g.apply(state, g.Roll(1, (theirs, mine)))
    state, _ = g.apply(state, g.Bid(1, *bid))
    return state


@pytest.mark.parametrize("level", LEVELS)
def test_a_palifico_round_is_priced_without_jokers(level: str) -> None:
    # Two 5s from a one-die opponent: with jokers its four ones would make it sure; in a
    # Palifico round they count for nothing and two 5s cannot hold.
    state = _palifico_spot((1, 1, 1, 1), (3,), (2, 5))
    legal = g.turn_actions(state, 2)
    for seed in range(10):
        assert cpu.choose(g.view(state, 2), legal, level, random.Random(seed)) == g.Challenge(2)


@pytest.mark.parametrize("level", LEVELS)
def test_in_a_palifico_round_every_bid_keeps_the_opening_face(level: str) -> None:
    state = _palifico_spot((5, 5, 5, 2), (5,), (1, 5))
    legal = g.turn_actions(state, 2)
    for seed in range(10):
        action = cpu.choose(g.view(state, 2), legal, level, random.Random(seed))
        assert isinstance(action, g.Bid) and action.face == 5, action


# --------------------------------------------------------------------------- the tutorial's reading


def test_the_reading_of_a_bid_weighs_the_others_bids() -> None:
    # It holds no 6 and no 1; the opponent opened on 6s and raised on 6s again: by its own
    # dice, four 6s is far-fetched; by their bids, they hold 6s, and it is much less so.
    state = _facing((2, 3, 3, 4, 5), (6, 6, 6, 1, 2), [(2, 6), (3, 3), (4, 6)])
    read = cpu.reading(g.view(state, 2))
    assert read is not None
    assert read.alone == pytest.approx(g.probability_at_least(5, 4, 6, True))
    assert read.holds > 2 * read.alone
    ((player, expected, prior),) = read.players
    assert player == 1 and prior == pytest.approx(5 / 3) and expected > prior + 0.5


def test_there_is_no_reading_without_a_bid_to_beat() -> None:
    state = g.new_game([1, 2], g.Rules())
    state, _ = g.apply(state, g.Roll(1, ((2, 2, 3, 4, 5), (6, 6, 6, 1, 2))))
    assert cpu.reading(g.view(state, 1)) is None


def test_difficile_never_calls_a_calza_with_nothing_to_win() -> None:
    # Five 4s in hand at five starting dice, facing a one-die opponent's five 4s: exact
    # unless their die counts, but a calza can only cost a die here.
    state = _calza_spot((4, 4, 4, 4, 4), (2,), 5, (5, 4))
    legal = g.turn_actions(state, 2)
    assert g.Calza(2) in legal
    for seed in range(60):
        assert cpu.choose(g.view(state, 2), legal, DIFFICILE, random.Random(seed)) != g.Calza(2)


def test_difficile_opening_a_palifico_round_stays_on_one_face_and_legal() -> None:
    state = g.new_game([1, 2], g.Rules(dice=5, palifico=True))
    state.seats[1].dice = 1
    state.palifico, state.palificos, state.current = 2, [2], 2
    state, _ = g.apply(state, g.Roll(2, ((3, 3, 5, 6, 1), (4,))))
    legal = g.turn_actions(state, 2)
    for seed in range(20):
        action = cpu.choose(g.view(state, 2), legal, DIFFICILE, random.Random(seed))
        assert action in legal
