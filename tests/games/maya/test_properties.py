"""Random legal games of Maya (``soiree``) and Mia (``vies``) keep the engine's invariants.

Hypothesis draws a table (preset options, 2 to 10 players, how often players join,
leave or cry *faute*, a seed); the seed drives a ``random.Random`` that both picks among
every player's legal actions and rolls the dice through ``complete``. After every action
the whole state and its events are checked (``check_state``, ``check_events``, ``Game``).
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from dataclasses import dataclass, replace

from hypothesis import HealthCheck, Phase, given, note, settings
from hypothesis import strategies as st

from bot.games.maya import (
    ANNOUNCE,
    EVENTS,
    IN,
    LEFT,
    MAX_PLAYERS,
    MIN_PLAYERS,
    OUT,
    PRIVATE,
    PUBLIC,
    RESPOND,
    SECRET,
    SOIREE,
    VIES,
    WAITING,
    AcceptFault,
    AcceptMaya,
    Accuse,
    Action,
    Announce,
    Appeal,
    Believe,
    CloseVote,
    ContestFault,
    Eliminated,
    Event,
    Fragile,
    GameError,
    Join,
    Leave,
    Lift,
    NotYourTurn,
    Photo,
    Roll,
    Rules,
    SecondChance,
    State,
    Stop,
    Tap,
    UnknownPlayer,
    Vote,
    Warrior,
    WithdrawVote,
    apply,
    complete,
    legal_actions,
    new_game,
    replay,
    view,
)
from bot.games.maya import values as d

TURN_ACTIONS = (
    Roll,
    Announce,
    Photo,
    Tap,
    SecondChance,
    Believe,
    Lift,
    Fragile,
    Warrior,
    AcceptMaya,
)
FAULT_ACTIONS = (Accuse, AcceptFault, ContestFault, Vote, WithdrawVote, Appeal)

# Events whose public data may show dice: both show dice the rules have just revealed.
DICE_SHOWN_IN_PUBLIC = frozenset({"revealed", "warrior_rolled"})
HIDDEN_KEYS = frozenset({"dice", "cup", "seen", "face"})

# Deterministic in CI: no example database, examples derived from the test itself.
GAMES = settings(
    max_examples=500,
    derandomize=True,
    database=None,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
    phases=(Phase.explicit, Phase.generate, Phase.shrink),
)

SOIREE_LENGTH = st.integers(min_value=50, max_value=300)


@dataclass(frozen=True)
class Churn:
    """How often a step is a join, a leave, or a fault action, instead of the turn's play."""

    join: float
    leave: float
    fault: float


@dataclass(frozen=True)
class Table:
    rules: Rules
    players: list[int]
    seed: int  # of the game's generator: it picks the actions and rolls the dice
    churn: Churn


@st.composite
def tables(draw: st.DrawFn, preset: str) -> Table:
    """A preset with random options, 2 to 10 players, a seed, and how restless the table is."""
    options = {
        "ouvreur": draw(st.sampled_from(["perdant", "suivant"])),
        "photo": draw(st.booleans()),
        "photo_memoire": draw(st.booleans()),
        "aveugle": draw(st.booleans()),
        "tapote": draw(st.booleans()),
        "seconde_chance": draw(st.booleans()),
        "warrior_fragile": draw(st.booleans()),
        "inversion_maya": draw(st.booleans()),
        "fautes": draw(st.booleans()),
        "gage": draw(st.sampled_from(["gorgée", "vie", "piment"])),
        "vies": draw(st.integers(min_value=1, max_value=10)),
    }
    count = draw(st.integers(min_value=2, max_value=10))
    seed = draw(st.integers(min_value=0, max_value=2**32 - 1))
    churn = draw(
        st.builds(
            Churn,
            join=st.sampled_from([0.0, 0.02, 0.08]),
            leave=st.sampled_from([0.0, 0.01, 0.04]),
            fault=st.sampled_from([0.0, 0.1, 0.3]),
        )
    )
    return Table(Rules.for_preset(preset, **options), list(range(1, count + 1)), seed, churn)


# --------------------------------------------------------------------------- choosing actions

Legal = dict[int, list[Action]]


def everyone(state: State, fresh: int) -> Legal:
    """Legal actions of everyone who has a seat, and of one newcomer who could join."""
    players = [seat.player for seat in state.seats] + [fresh]
    return {player: legal_actions(state, player) for player in players}


def _by_kind(actions: list[Action], rng: random.Random) -> list[Action]:
    """The actions of one kind, picked uniformly among the kinds present."""
    kinds: dict[tuple[str, bool], list[Action]] = {}
    for action in actions:
        kind = (type(action).__name__, getattr(action, "blind", False))
        kinds.setdefault(kind, []).append(action)
    return kinds[rng.choice(sorted(kinds))]


def _pick_turn_action(actions: list[Action], rng: random.Random) -> Action:
    """By kind first, so that 21 announcements do not drown a Lift or a Tap."""
    chosen = _by_kind(actions, rng)
    if isinstance(chosen[0], Announce) and rng.random() < 0.5:
        # Low announcements half the time, so rounds see several believes in a row.
        return rng.choice(chosen[:3])
    return rng.choice(chosen)


def choose(state: State, legal: Legal, rng: random.Random, churn: Churn) -> Action:
    """Pick among all players' legal actions, weighted so that the game moves on."""
    turn: list[Action] = []
    faults: list[Action] = [CloseVote(f.id) for f in state.faults if f.status == "voting"]
    joins: list[Action] = []
    leaves: list[Action] = []
    for actions in legal.values():
        for action in actions:
            if isinstance(action, TURN_ACTIONS):
                turn.append(action)
            elif isinstance(action, FAULT_ACTIONS):
                faults.append(action)
            elif isinstance(action, Join):
                joins.append(action)
            elif isinstance(action, Leave):
                leaves.append(action)
            else:
                raise AssertionError(f"unexpected legal action {action!r}")
    if joins and rng.random() < churn.join:
        return rng.choice(joins)
    if leaves and rng.random() < churn.leave:
        return rng.choice(leaves)
    if faults and rng.random() < churn.fault:
        return rng.choice(_by_kind(faults, rng))
    return _pick_turn_action(turn, rng)


# --------------------------------------------------------------------------- invariants


def through_json(state: State) -> State:
    """The state as stored and loaded again: shares no object with ``state``."""
    return State.from_json(json.loads(json.dumps(state.to_json())))


def events_through_json(events: list[Event]) -> list[Event]:
    """Events as appended to the game's log and read back."""
    return [EVENTS.from_json(raw) for raw in json.loads(json.dumps([e.to_json() for e in events]))]


def check_state(state: State, legal: Legal, rng: random.Random) -> None:
    """Invariants of any reachable state; ``legal`` holds everyone's legal actions in it."""
    rules = state.rules
    seats = {seat.player: seat for seat in state.seats}
    assert len(seats) == len(state.seats), "a player sits twice"
    playing = [seat.player for seat in state.seats if seat.status == IN]
    waiting = [seat.player for seat in state.seats if seat.status == WAITING]
    assert len(playing) + len(waiting) <= MAX_PLAYERS, f"{playing} + {waiting} seated"
    for seat in state.seats:
        assert seat.sips >= 0 and seat.glasses >= 0 and seat.lives >= 0, seat
        if rules.lives:
            assert seat.lives <= rules.vies, f"{seat} has more than {rules.vies} lives"
            assert (seat.status == OUT) == (seat.lives == 0), f"{seat}: lives and status disagree"
        else:
            assert seat.lives == 0 and seat.status != OUT, seat

    for fault in state.faults:
        both = set(fault.guilty_votes) & set(fault.innocent_votes)
        assert not both, f"{both} voted both ways on {fault}"
        cast = [*fault.guilty_votes, *fault.innocent_votes]
        assert len(cast) == len(set(cast)), f"a vote counted twice on {fault}"
        assert set(cast) <= set(fault.voters), f"a vote from someone who may not vote: {fault}"

    if state.over:
        assert state.current is None, f"game over but {state.current} is to act"
        for player, actions in legal.items():
            assert actions == [], f"game over but {player} may {actions}"
        if state.winner is not None:
            assert playing == [state.winner], f"{state.winner} won but {playing} still play"
        return

    assert len(playing) + len(waiting) >= MIN_PLAYERS, (
        f"the game goes on with {playing} playing and {waiting} waiting"
    )
    current = seats.get(state.current) if state.current is not None else None
    assert current is not None and current.status == IN, (
        f"current {state.current} is not an active seat: {state.seats}"
    )
    for player, actions in legal.items():
        turn = [action for action in actions if isinstance(action, TURN_ACTIONS)]
        if player == state.current:
            assert turn, f"{player} is current but has no turn action in phase {state.phase}"
        else:
            assert not turn, f"{player} is not current but may {turn}"
        seat = seats.get(player)
        if seat is not None and seat.status == OUT:
            assert actions == [], f"eliminated {player} may {actions}"
        if seat is None or seat.status == LEFT:
            assert all(isinstance(action, Join) for action in actions), actions
    if state.phase in (ANNOUNCE, RESPOND):
        assert len(playing) >= MIN_PLAYERS, f"a round goes on with {playing} alone"
        assert state.cup is not None and state.holder is not None
    if state.phase == ANNOUNCE:
        assert state.holder == state.current, (state.holder, state.current)
    if state.phase == RESPOND:
        assert state.announced is not None and state.announcer == state.holder
        assert state.current != state.announcer, (
            f"{state.current} is to answer their own announcement"
        )
    onlooker = rng.choice([player for player in legal if player != state.holder])
    assert view(state, onlooker).my_dice is None, f"{onlooker} sees {state.holder}'s dice"


def check_events(before: State, action: Action, events: list[Event], stored: list[Event]) -> None:
    """Invariants of the events of one action; ``stored`` is them after a JSON round trip."""
    assert stored == events, f"event JSON round trip: {events} became {stored}"
    for event in events:
        assert event.visibility in (PUBLIC, PRIVATE, SECRET), event
        if event.type == "dice":
            assert event.visibility != PUBLIC, f"hidden dice in a public event: {event}"
            assert event.data["player"] == getattr(action, "player", None), event
            if event.visibility == PRIVATE:
                assert event.to == event.data["player"], f"dice sent to someone else: {event}"
            else:
                assert event.to is None, event
        elif event.visibility == PUBLIC and event.type not in DICE_SHOWN_IN_PUBLIC:
            assert not HIDDEN_KEYS & event.data.keys(), f"dice in public event {event}"
        if event.visibility == PRIVATE:
            assert event.to is not None, event
        if event.type == "revealed":
            assert event.visibility == PUBLIC, event
            assert event.data["player"] == before.announcer == before.holder, (event, before)
            assert before.cup is not None
            assert event.data["dice"] == list(before.cup), (
                f"revealed {event.data['dice']} but the cup held {before.cup}"
            )
            assert event.data["value"] == d.read(before.cup), event
        if event.type == "warrior_rolled":
            assert isinstance(action, Warrior) and action.dice is not None
            assert event.data["dice"] == list(action.dice), (event, action)


class Game:
    """A game played action by action, every state and event checked on the way."""

    def __init__(self, rules: Rules, players: list[int], rng: random.Random) -> None:
        self.rng = rng
        self.initial = new_game(players, rules)
        self.state = self.initial
        self.stored = through_json(self.state)  # equal to ``state``, sharing nothing with it
        assert self.stored == self.state, "State JSON round trip is not the identity"
        self.mirror = self.stored  # folded from the events as stored
        self.history: list[Event] = []
        self.actions: list[Action] = []
        self.fresh = max(players) + 1  # the next newcomer's id
        self.legal = everyone(self.state, self.fresh)
        check_state(self.state, self.legal, rng)

    def step(self, action: Action) -> None:
        state = self.state
        self.actions.append(action)
        try:
            new, events = apply(state, action)
        except GameError as error:
            raise AssertionError(f"legal action {action!r} refused: {error!r}") from error
        assert state == self.stored, "apply mutated its input state"
        logged = events_through_json(events)
        check_events(state, action, events, logged)
        self.history.extend(events)
        self.stored = through_json(new)
        assert self.stored == new, "State JSON round trip is not the identity"
        self.mirror = replay(self.mirror, logged)
        assert self.mirror == new, "replaying the stored events gives another state"
        if len(self.actions) % 25 == 0:
            self.check_replay(new)
        if isinstance(action, Join) and action.player == self.fresh:
            self.fresh += 1
        self.state = new
        self.legal = everyone(new, self.fresh)
        check_state(new, self.legal, self.rng)

    def check_replay(self, state: State) -> None:
        assert replay(self.initial, self.history) == state, "replay from the start differs"


# Called before each action with the game (to try actions that must be refused).
Probe = Callable[[Game], None]


def play(table: Table, *, limit: int, probe: Probe | None = None) -> State:
    """Play one random game to its end (or ``limit`` actions, then Stop), checking every step."""
    rng = random.Random(table.seed)
    game = Game(table.rules, table.players, rng)
    try:
        while not game.state.over:
            if probe is not None:
                probe(game)
            if len(game.actions) < limit:
                game.step(
                    complete(game.state, choose(game.state, game.legal, rng, table.churn), rng)
                )
            else:
                game.step(Stop())
        game.check_replay(game.state)
    except BaseException:
        note(f"rules={table.rules!r}\nplayers={table.players!r}\nactions={game.actions!r}")
        raise
    return game.state


# --------------------------------------------------------------------------- properties


@settings(GAMES, max_examples=400)
@given(table=tables(VIES))
def test_random_lives_games_keep_every_invariant_until_someone_wins(table):
    final = play(table, limit=5000)
    assert final.winner is not None or final.active() == []


@GAMES
@given(table=tables(SOIREE), length=SOIREE_LENGTH)
def test_random_party_games_keep_every_invariant_for_hundreds_of_actions(table, length):
    final = play(table, limit=length)
    assert final.over and final.winner is None


def _refused(game: Game, action: Action, expected: type[GameError] = GameError) -> None:
    try:
        apply(game.state, action)
    except GameError as error:
        assert isinstance(error, expected), f"{action!r} raised {error!r}, not {expected}"
    else:
        raise AssertionError(f"{action!r} was accepted (current: {game.state.current})")
    assert game.state == game.stored, f"refused {action!r} changed the state"


def refuse_turn_actions_of_others(game: Game) -> None:
    """The current player's turn actions, re-addressed to anyone else, are refused."""
    state, rng = game.state, game.rng
    assert state.current is not None
    turn = [a for a in game.legal[state.current] if isinstance(a, TURN_ACTIONS)]
    others = [player for player in game.legal if player != state.current]
    for _ in range(3):
        other = rng.choice(others)
        action = complete(state, replace(rng.choice(turn), player=other), rng)  # type: ignore[type-var]
        seat = state.seat(other)
        if seat is None or seat.status == LEFT:
            _refused(game, action, UnknownPlayer)
        elif seat.status == OUT:
            _refused(game, action, Eliminated)
        else:
            _refused(game, action, NotYourTurn)


def refuse_turn_actions_not_offered(game: Game) -> None:
    """Turn actions of a kind ``legal_actions`` does not offer the current player are refused."""
    state = game.state
    player = state.current
    assert player is not None
    offered = {type(a) for a in game.legal[player]}
    candidates: list[Action] = [
        Roll(player, (2, 1)),
        Announce(player, 65),
        Photo(player),
        Tap(player, 0, 1),
        SecondChance(player, (2, 1)),
        Believe(player, (2, 1)),
        Lift(player),
        Fragile(player),
        Warrior(player, (2, 1)),
        AcceptMaya(player),
    ]
    for action in candidates:
        if type(action) not in offered:
            _refused(game, action)


@settings(GAMES, max_examples=150)
@given(table=st.one_of(tables(VIES), tables(SOIREE)), length=SOIREE_LENGTH)
def test_turn_actions_of_anyone_but_the_current_player_raise_not_your_turn(table, length):
    play(table, limit=length, probe=refuse_turn_actions_of_others)


@settings(GAMES, max_examples=100)
@given(table=st.one_of(tables(VIES), tables(SOIREE)), length=SOIREE_LENGTH)
def test_turn_actions_that_legal_actions_does_not_offer_are_refused(table, length):
    play(table, limit=length, probe=refuse_turn_actions_not_offered)


# Minimal reproductions of what the random games found, kept as fixed traces.
TRACES = {
    "last_player_standing_wins_when_a_waiting_newcomer_leaves": (
        Rules.for_preset(VIES, vies=1),
        [1, 2],
        [Roll(1, (3, 1)), Join(3), Announce(1, 31), Lift(2), Leave(3)],
    ),
}


def test_known_traces_keep_every_invariant():
    for name, (rules, players, actions) in TRACES.items():
        game = Game(rules, players, random.Random(name))
        for action in actions:
            game.step(action)
        game.check_replay(game.state)
