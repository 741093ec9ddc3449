"""The Maya/Mia CPU: legal, blind to hidden dice, sensible, and stronger level by level."""

import ast
import itertools
import random
from dataclasses import replace
from pathlib import Path

import pytest

from bot.games import maya as m
from bot.games.maya import cpu as cpu
from bot.games.maya.values import MAYA, RANK, read
from bot.kernel.levels import DIFFICILE, FACILE, LEVELS, MOYEN

CPU_FILES = [Path(cpu.__file__)]
ALLOWED_IMPORTS = {"random", "math", "dataclasses", "fractions"}


def _cpu_turn(state: m.State, levels: dict[int, str], rng: random.Random) -> m.Action | None:
    """The next CPU decision: the player whose turn it is, else an accused or a voter."""
    players = [s.player for s in state.seats]
    if state.current is not None:
        players.remove(state.current)
        players.insert(0, state.current)
    for player in players:
        legal = m.legal_actions(state, player)
        if cpu.acts(legal):
            action = cpu.choose(m.view(state, player), legal, levels[player], rng)
            assert action in legal, (action, legal)
            assert not isinstance(action, m.Accuse | m.Appeal | m.Leave | m.Join)
            return action
    return None


def _random_game(preset: str, seed: int, cap: int = 400) -> m.State:
    """Every seat a CPU of a random level; now and then a 'human' cries faute or contests."""
    rng = random.Random(seed)
    players = list(range(rng.randint(2, 5)))
    levels = {p: rng.choice(LEVELS) for p in players}
    state = m.new_game(players, m.Rules.for_preset(preset))
    for _ in range(cap):
        if state.over:
            break
        if rng.random() < 0.08:
            player = rng.choice(players)
            human = [
                a
                for a in m.legal_actions(state, player)
                if isinstance(a, m.Accuse | m.ContestFault | m.Vote | m.Appeal)
            ]
            if human:
                action = rng.choice(human)
                state, _ = m.apply(state, m.complete(state, action, rng))
                continue
        action = _cpu_turn(state, levels, rng)
        if action is None:
            break
        state, _ = m.apply(state, m.complete(state, action, rng))
    return state


@pytest.mark.parametrize("preset", [m.SOIREE, m.VIES])
def test_the_cpu_always_plays_a_legal_action_in_every_phase(preset: str) -> None:
    seen: set[str] = set()
    for seed in range(60):
        _random_game(preset, seed)
        seen.add(str(seed))
    assert len(seen) == 60


def test_lives_games_among_cpus_end_with_a_winner() -> None:
    for seed in range(30):
        state = _random_game(m.VIES, seed, cap=5000)
        assert state.over and state.winner is not None


def test_the_cpu_answers_an_accusation_by_accepting_it_and_votes_innocent() -> None:
    state = m.new_game([1, 2, 3], m.Rules.for_preset(m.SOIREE))
    state, _ = m.apply(state, m.Accuse(3, 2, "dés tombés"))
    for level in LEVELS:
        legal = m.legal_actions(state, 2)
        assert cpu.choose(m.view(state, 2), legal, level, random.Random(0)) == m.AcceptFault(2, 1)
    state, _ = m.apply(state, m.ContestFault(2, 1))
    for level in LEVELS:
        legal = m.legal_actions(state, 3)
        assert cpu.choose(m.view(state, 3), legal, level, random.Random(0)) == m.Vote(3, 1, False)


def test_the_cpu_never_accuses_appeals_or_leaves() -> None:
    state = m.new_game([1, 2, 3], m.Rules.for_preset(m.SOIREE))
    legal = m.legal_actions(state, 2)  # not its turn: only Accuse and Leave
    assert not cpu.acts(legal)
    with pytest.raises(ValueError):
        cpu.choose(m.view(state, 2), legal, MOYEN, random.Random(0))


def test_an_unknown_level_is_refused() -> None:
    state = m.new_game([1, 2], m.Rules.for_preset(m.VIES))
    with pytest.raises(ValueError):
        cpu.choose(m.view(state, 1), m.legal_actions(state, 1), "expert", random.Random(0))


# --------------------------------------------------------------------------- no peeking


def test_the_cpu_modules_import_only_the_standard_maths_and_the_engine() -> None:
    for path in CPU_FILES:
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                names = [node.module or ""]
            else:
                continue
            for name in names:
                assert name in ALLOWED_IMPORTS or name.startswith(("bot.games", "bot.kernel")), (
                    path,
                    name,
                )


def test_the_cpu_never_touches_the_global_random_nor_the_state() -> None:
    for path in CPU_FILES:
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
                if node.value.id == "random":
                    assert node.attr == "Random", (path, node.attr)
                assert node.attr not in ("State", "legal_actions", "apply", "replay"), (
                    path,
                    node.attr,
                )


def _decision_points(preset: str, seed: int) -> list[tuple[m.State, int]]:
    rng = random.Random(seed)
    levels = dict(enumerate(LEVELS))
    state = m.new_game([0, 1, 2], m.Rules.for_preset(preset))
    points = []
    for _ in range(300):
        if state.over:
            break
        points.append((state, state.current))
        action = _cpu_turn(state, levels, rng)
        assert action is not None
        state, _ = m.apply(state, m.complete(state, action, rng))
    return points


@pytest.mark.parametrize("preset", [m.SOIREE, m.VIES])
def test_hidden_dice_do_not_change_a_decision(preset: str) -> None:
    """Same view, other dice under the cup (unseen by the decider): same decision."""
    other = random.Random(99)
    checked = 0
    for seed in range(5):
        for state, player in _decision_points(preset, seed):
            if state.cup is None or (state.holder == player and state.seen == state.cup):
                continue  # no dice, or the decider's own dice, looked at: not hidden
            twin = replace(state, cup=(other.randint(1, 6), other.randint(1, 6)))
            assert m.view(twin, player) == m.view(state, player)
            legal = m.legal_actions(state, player)
            for level in LEVELS:
                mine = cpu.choose(m.view(state, player), legal, level, random.Random(7))
                theirs = cpu.choose(m.view(twin, player), legal, level, random.Random(7))
                assert mine == theirs
            checked += 1
    assert checked > 50


# --------------------------------------------------------------------------- sensible choices


def _responding(preset: str, announced: int, *, blind: bool = False, lives: int = 3) -> m.View:
    rules = m.Rules.for_preset(preset)
    seats = tuple(m.SeatView(p, m.IN, 0, 0, lives if rules.lives else 0) for p in range(3))
    return m.View(
        player=1,
        rules=rules,
        phase=m.RESPOND,
        current=1,
        round=3,
        direction=1,
        seats=seats,
        announced=announced,
        announcer=0,
        photo=False,
        blind_announce=blind,
        may_reverse=False,
        my_dice=None,
        my_play=None,
    )


def _respond_legal(view: m.View) -> list[m.Action]:
    if view.announced == MAYA:
        if view.rules.lives:
            return [m.Lift(1), m.AcceptMaya(1), m.Leave(1)]
        return [m.Lift(1), m.Fragile(1), m.Warrior(1), m.Leave(1)]
    actions: list[m.Action] = [m.Lift(1), m.Believe(1)]
    if view.rules.aveugle:
        actions.append(m.Believe(1, None, True))
    return actions


def _answers(view: m.View, level: str, seeds: int = 20) -> set[type]:
    return {
        type(cpu.choose(view, _respond_legal(view), level, random.Random(seed)))
        for seed in range(seeds)
    }


@pytest.mark.parametrize("preset", [m.SOIREE, m.VIES])
def test_nobody_lifts_a_31_which_is_always_true(preset: str) -> None:
    for level in LEVELS:
        assert _answers(_responding(preset, 31), level) == {m.Believe}


def test_moyen_and_difficile_lift_a_66_with_lives() -> None:
    # Believing it leaves only Maya to announce: a forced bluff that the next player,
    # who heard the 66, lifts.
    for level in (MOYEN, DIFFICILE):
        assert _answers(_responding(m.VIES, 66), level) == {m.Lift}


def test_moyen_lifts_a_66_and_believes_a_52() -> None:
    assert _answers(_responding(m.VIES, 66), MOYEN) == {m.Lift}
    assert _answers(_responding(m.VIES, 52), MOYEN) == {m.Believe}


def test_a_blind_66_is_lifted_by_moyen_and_difficile() -> None:
    # Announced without seeing the dice: true 1 time in 12, and everybody knows it.
    for level in (MOYEN, DIFFICILE):
        assert _answers(_responding(m.SOIREE, 66, blind=True), level) == {m.Lift}


def test_difficile_believes_a_low_value_and_lifts_a_blind_double() -> None:
    assert _answers(_responding(m.VIES, 42), DIFFICILE) == {m.Believe}
    assert _answers(_responding(m.SOIREE, 44, blind=True), DIFFICILE) == {m.Lift}


def test_on_its_last_life_a_cpu_lifts_a_maya_rather_than_accept_elimination() -> None:
    for level in (MOYEN, DIFFICILE):
        assert _answers(_responding(m.VIES, MAYA, lives=1), level) == {m.Lift}


def test_difficile_weighs_the_two_lives_a_true_maya_costs() -> None:
    # A seen Maya is mostly true: with lives to spare, accept one rather than risk two.
    assert _answers(_responding(m.VIES, MAYA, lives=3), DIFFICILE) == {m.AcceptMaya}
    assert _answers(_responding(m.VIES, MAYA, lives=1), DIFFICILE) == {m.Lift}


def test_a_blind_maya_is_lifted_and_a_seen_one_taken_as_fragile_at_a_party() -> None:
    for level in (MOYEN, DIFFICILE):
        assert _answers(_responding(m.SOIREE, MAYA, blind=True), level) == {m.Lift}
        assert _answers(_responding(m.SOIREE, MAYA), level) == {m.Fragile}


def _announcing(preset: str, dice: tuple[int, int], previous: int | None) -> m.State:
    """A state where player 1 holds ``dice`` (looked at) and must beat ``previous``."""
    state = m.new_game([0, 1, 2], m.Rules.for_preset(preset))
    if previous is None:
        state, _ = m.apply(state, m.Roll(0, dice))
        return state
    state, _ = m.apply(state, m.Roll(0, (3, 1)))
    state, _ = m.apply(state, m.Announce(0, previous))
    state, _ = m.apply(state, m.Believe(1, dice))
    return state


@pytest.mark.parametrize("preset", [m.SOIREE, m.VIES])
def test_announcements_are_legal_true_when_the_dice_beat_the_value_else_bluffs(
    preset: str,
) -> None:
    for dice, previous, level, seed in itertools.product(
        [(3, 1), (4, 2), (5, 3), (6, 2), (6, 5), (4, 4), (6, 6), (2, 1)],
        [None, 32, 43, 54, 63, 65, 33],
        LEVELS,
        range(3),
    ):
        state = _announcing(preset, dice, previous)
        player = state.current
        assert player is not None
        legal = m.legal_actions(state, player)
        action = cpu.choose(m.view(state, player), legal, level, random.Random(seed))
        assert action in legal
        if not isinstance(action, m.Announce | m.Photo):
            assert level != MOYEN or preset == m.SOIREE
            assert isinstance(action, m.Tap | m.SecondChance)
            continue
        value = previous if isinstance(action, m.Photo) else action.value
        rolled = read(dice)
        beats = previous is None or RANK[rolled] > RANK[previous]
        if beats and level != FACILE:
            assert RANK[value] <= RANK[rolled], (level, dice, previous, value)
        if beats and level == MOYEN:
            assert value == rolled
        if not beats:  # a bluff, or a Photo of exactly its dice
            assert RANK[value] > RANK[rolled] or (isinstance(action, m.Photo) and value == rolled)


def test_difficile_taps_the_3_of_a_31_hoping_for_a_2_when_it_must_beat_66() -> None:
    # 31 under the cup, 66 to beat: only Maya is left. Tapping the 3 lands on the 2 one
    # time in 8; tapping the 1 never makes Maya (its neighbours are 2 3 4 5: 32 33 34 35).
    state = _announcing(m.SOIREE, (3, 1), 66)
    legal = m.legal_actions(state, 1)
    # The 66 was not a Photo, so a Photo would still be a (cheaper) bluff: take it away.
    without_photo = [a for a in legal if not isinstance(a, m.Photo)]
    action = cpu.choose(m.view(state, 1), without_photo, DIFFICILE, random.Random(0))
    assert action == m.Tap(1, 0)


def test_after_a_maya_difficile_reverses_to_face_the_one_who_drank_most() -> None:
    seats = (
        m.SeatView(0, m.IN, 1, 0, 0),
        m.SeatView(1, m.IN, 0, 0, 0),
        m.SeatView(2, m.IN, 9, 1, 0),
    )
    view = replace(
        _responding(m.SOIREE, 31), phase=m.OPEN, announced=None, announcer=None, seats=seats,
        may_reverse=True,
    )  # fmt: skip
    legal = [
        m.Roll(1, None, blind, reverse) for reverse in (False, True) for blind in (False, True)
    ]
    # Going on (direction 1) player 2, who drank most, answers us: no need to reverse.
    assert cpu.choose(view, legal, DIFFICILE, random.Random(0)) == m.Roll(1)
    reversed_view = replace(view, direction=-1)
    assert cpu.choose(reversed_view, legal, DIFFICILE, random.Random(0)) == m.Roll(1, reverse=True)


# --------------------------------------------------------------------------- strength


def test_difficile_wins_more_than_moyen_which_wins_more_than_facile() -> None:
    seatings = list(itertools.permutations(LEVELS))
    dice, minds = random.Random(2024), random.Random(2025)
    wins = dict.fromkeys(LEVELS, 0)
    for game in range(300):
        seating = seatings[game % 6]
        state = m.new_game([0, 1, 2], m.Rules.for_preset(m.VIES))
        while not state.over:
            player = state.current
            assert player is not None
            legal = m.legal_actions(state, player)
            action = cpu.choose(m.view(state, player), legal, seating[player], minds)
            state, _ = m.apply(state, m.complete(state, action, dice))
        assert state.winner is not None
        wins[seating[state.winner]] += 1
    assert wins[DIFFICILE] > wins[MOYEN] > wins[FACILE], wins
