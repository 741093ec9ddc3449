"""Random legal games of Dés du menteur keep the engine's invariants.

Hypothesis draws a table (3, 4 or 5 dice, jokers on or off, Calza and Palifico on or off,
2 to 6 players, a seed, how often players leave); the seed drives a ``random.Random`` that
picks among the legal actions (bids near the smallest raise, sometimes any bid, challenges,
calzas) and rolls the dice through ``complete``. After every action the state and its events are checked; now and
then actions that must be refused are tried.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass

from hypothesis import HealthCheck, Phase, given, note, settings
from hypothesis import strategies as st

from bot.games.menteur import (
    BID,
    EVENTS,
    FACES,
    IN,
    LEFT,
    MAX_PLAYERS,
    MIN_PLAYERS,
    OUT,
    PRIVATE,
    ROLL,
    Action,
    Bid,
    BidTooLow,
    Calza,
    Challenge,
    Eliminated,
    Event,
    GameError,
    GameOver,
    InvalidBid,
    Leave,
    NotNow,
    NotYourTurn,
    Roll,
    Rules,
    State,
    Stop,
    UnknownPlayer,
    apply,
    complete,
    count,
    dice_in_play,
    legal_actions,
    minimal_raises,
    new_game,
    replay,
    turn_actions,
    view,
)

GAMES = settings(
    max_examples=200,
    derandomize=True,
    database=None,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
    phases=(Phase.explicit, Phase.generate, Phase.shrink),
)


@dataclass(frozen=True)
class Table:
    rules: Rules
    players: list[int]
    seed: int
    leave: float  # chance that a step is someone leaving
    stop_after: int | None  # a Stop after this many actions, if any


@st.composite
def tables(draw: st.DrawFn) -> Table:
    count_ = draw(st.integers(min_value=MIN_PLAYERS, max_value=MAX_PLAYERS))
    first = draw(st.integers(min_value=1, max_value=10**6))
    players = draw(st.permutations([first + i * 7 for i in range(count_)]))
    stopping = draw(st.integers(min_value=0, max_value=3)) == 0
    return Table(
        rules=Rules.for_preset(
            dice=draw(st.sampled_from([3, 4, 5])),
            jokers=draw(st.booleans()),
            calza=draw(st.booleans()),
            palifico=draw(st.booleans()),
        ),
        players=list(players),
        seed=draw(st.integers(min_value=0, max_value=2**32 - 1)),
        leave=draw(st.sampled_from([0.0, 0.0, 0.01, 0.04])),
        stop_after=draw(st.integers(min_value=0, max_value=300)) if stopping else None,
    )


# --------------------------------------------------------------------------- choosing actions


def choose(state: State, rng: random.Random, leave: float) -> Action:
    """Mostly a bid close to the smallest raise or a challenge; now and then a departure."""
    if rng.random() < leave:
        leaves = [Leave(p) for p in state.active()]
        return rng.choice(leaves)
    assert state.current is not None
    turn = turn_actions(state, state.current)
    bids = [a for a in turn if isinstance(a, Bid)]
    if state.phase == ROLL:
        return rng.choice([Roll(state.current), Roll(None)])
    if Calza(state.current) in turn and rng.random() < 0.1:
        return Calza(state.current)
    if Challenge(state.current) in turn and (not bids or rng.random() < 0.35):
        return Challenge(state.current)
    if rng.random() < 0.15:
        return rng.choice(bids)
    quantity, face = rng.choice(minimal_raises(state))
    return Bid(
        state.current,
        quantity + rng.choice([0, 0, 0, 1]) if quantity < dice_in_play(state) else quantity,
        face,
    )


# --------------------------------------------------------------------------- invariants


def through_json(state: State) -> State:
    return State.from_json(json.loads(json.dumps(state.to_json())))


def events_through_json(events: list[Event]) -> list[Event]:
    return [EVENTS.from_json(raw) for raw in json.loads(json.dumps([e.to_json() for e in events]))]


def check_state(state: State) -> None:
    for seat in state.seats:
        assert seat.status in (IN, OUT, LEFT), seat
        assert seat.dice >= 0, seat
        assert seat.dice <= state.rules.dice, seat
        assert (seat.dice > 0) == (seat.status == IN), seat
        if state.phase == BID and seat.status == IN:
            assert seat.hand is not None and len(seat.hand) == seat.dice, seat
            assert all(1 <= pip <= FACES for pip in seat.hand)
        else:
            assert seat.hand is None, seat
    if state.over:
        assert state.current is None and state.bid is None and state.history == []
        for seat in state.seats:
            assert legal_actions(state, seat.player) == []
        if state.winner is not None:
            assert state.active() == [state.winner]
        return
    assert len(state.active()) >= MIN_PLAYERS
    assert state.phase in (ROLL, BID)
    current = state.seat(state.current) if state.current is not None else None
    assert current is not None and current.status == IN
    for seat in state.seats:
        turn = turn_actions(state, seat.player)
        actions = legal_actions(state, seat.player)
        if seat.status != IN:
            assert actions == [] and turn == [], f"{seat} may act: {actions}"
        elif seat.player == state.current:
            assert turn, f"{seat.player} is to act but may do nothing"
            assert actions == [*turn, Leave(seat.player)]
        else:
            assert turn == [] and actions == [Leave(seat.player)]
    mine = view(state, current.player)
    assert mine.current == state.current and mine.bid == state.bid
    assert mine.dice_in_play == dice_in_play(state)
    assert mine.my_dice == current.hand
    assert len(set(state.palificos)) == len(state.palificos), "two Palifico rounds for one player"
    if state.palifico is not None:
        assert state.rules.palifico and state.palifico in state.palificos
        assert not state.jokers and mine.jokers is False
    else:
        assert state.jokers == state.rules.jokers
    if state.phase == ROLL:
        assert state.bid is None and state.bidder is None and state.history == []
        if state.palifico is not None:
            assert state.current == state.palifico, "a Palifico round is opened by its player"
        return
    assert (state.bid is None) == (state.bidder is None) == (state.history == [])
    if state.palifico is not None:
        assert len({face for _, _, face in state.history}) <= 1, "a Palifico face changed"
        for action in turn_actions(state, state.current):
            if isinstance(action, Bid) and state.history:
                assert action.face == state.history[0][2]
    if state.bid is not None:
        assert state.history[-1] == (state.bidder, *state.bid)
        assert state.current == state.next_after(state.bidder)
        assert Challenge(state.current) in turn_actions(state, state.current)


def check_events(before: State, action: Action, events: list[Event], stored: list[Event]) -> None:
    assert stored == events, f"event JSON round trip: {events} became {stored}"
    assert events, f"{action!r} changed nothing"
    types = [event.type for event in events]
    for event in events:
        if event.public:
            assert event.to is None
            if event.type != "revealed":
                assert "dice" not in event.data and "hands" not in event.data, event
        else:
            assert event.visibility == PRIVATE and event.type == "dice", event
            assert event.to == event.data["player"], event
    if "revealed" in types:
        call = "calza_called" if isinstance(action, Calza) else "challenged"
        assert isinstance(action, Challenge | Calza) and types.index(call) < types.index("revealed")
        revealed = events[types.index("revealed")].data
        hands = [seat.hand for seat in before.seats if seat.status == IN]
        assert [h["dice"] for h in revealed["hands"]] == [list(h or ()) for h in hands]
        assert revealed["jokers"] == before.jokers
        actual = count([h["dice"] for h in revealed["hands"]], revealed["face"], before.jokers)
        assert revealed["actual"] == actual and revealed["holds"] == (
            actual >= revealed["quantity"]
        )
        assert revealed["exact"] == (actual == revealed["quantity"])
        lost = [e for e in events if e.type == "die_lost"]
        gained = [e for e in events if e.type == "die_gained"]
        if isinstance(action, Calza):
            assert revealed["call"] == "calza" and revealed["challenger"] == action.player
            changed = gained if revealed["exact"] else lost
            assert len(changed) == 1 and len(lost) + len(gained) == 1
            assert changed[0].data["player"] == action.player
        else:
            assert revealed["call"] == "challenge" and not gained and len(lost) == 1
            loser = revealed["challenger"] if revealed["holds"] else revealed["bidder"]
            assert lost[0].data["player"] == loser
    for ended in (e for e in events if e.type == "round_ended"):
        palifico = ended.data["palifico"]
        if palifico is not None:
            assert before.rules.palifico and palifico not in before.palificos
            assert ended.data["opener"] == palifico == ended.data["loser"]
            assert [e.data["remaining"] for e in events if e.type == "die_lost"] == [1]
    ends = [e for e in events if e.type in ("game_won", "game_ended")]
    assert len(ends) <= 1 and (not ends or ends[-1] is events[-1])


class Game:
    def __init__(self, table: Table, rng: random.Random) -> None:
        self.rng = rng
        self.initial = new_game(table.players, table.rules)
        self.state = self.initial
        self.stored = through_json(self.state)
        assert self.stored == self.state
        self.history: list[Event] = []
        self.actions: list[Action] = []
        self.challenges = 0
        self.calzas = 0
        self.dice_gained = 0
        check_state(self.state)

    def step(self, action: Action) -> list[Event]:
        state = self.state
        self.actions.append(action)
        actor = getattr(action, "player", None)
        if actor is not None:
            seat = state.seat(actor)
            assert seat is not None and seat.status == IN, "an eliminated player acted"
        try:
            new, events = apply(state, action)
        except GameError as error:
            raise AssertionError(f"legal action {action!r} refused: {error!r}") from error
        assert state == self.stored, "apply mutated its input state"
        logged = events_through_json(events)
        check_events(state, action, events, logged)
        self.history.extend(logged)
        self.stored = through_json(new)
        assert self.stored == new, "State JSON round trip is not the identity"
        assert replay(state, logged) == new, "replaying the stored events gives another state"
        if isinstance(action, Challenge):
            self.challenges += 1
            assert dice_in_play(new) == dice_in_play(state) - 1, "a challenge cost one die"
        elif isinstance(action, Calza):
            self.calzas += 1
            gained = sum(1 for e in events if e.type == "die_gained" and not e.data["capped"])
            self.dice_gained += gained
            change = dice_in_play(new) - dice_in_play(state)
            assert change == (gained if any(e.type == "die_gained" for e in events) else -1)
        elif isinstance(action, Leave):
            gone = state.seat(action.player)
            assert gone is not None
            assert dice_in_play(new) == dice_in_play(state) - gone.dice
        else:
            assert dice_in_play(new) == dice_in_play(state)
        self.state = new
        check_state(new)
        return events

    def refuse(self, action: Action, *expected: type[GameError]) -> None:
        try:
            apply(self.state, action)
        except GameError as error:
            assert isinstance(error, expected), f"{action!r} raised {error!r}, not {expected}"
        else:
            raise AssertionError(f"{action!r} was accepted")
        assert self.state == self.stored, f"refused {action!r} changed the state"


def probe(game: Game) -> None:
    """Others' turns, bids that do not raise and impossible bids are refused, state untouched."""
    state, rng = game.state, game.rng
    current = state.current
    assert current is not None
    other = rng.choice([s.player for s in state.seats if s.player != current])
    seat = state.seat(other)
    assert seat is not None
    expected = {IN: NotYourTurn, OUT: Eliminated, LEFT: UnknownPlayer}[seat.status]
    game.refuse(Challenge(other), expected)
    game.refuse(Calza(other), expected)
    game.refuse(Bid(other, 1, 6), expected)
    if seat.status != IN:
        game.refuse(Leave(other), expected)
    if state.phase != BID:
        return
    game.refuse(Bid(current, dice_in_play(state) + 1, 6), InvalidBid)
    if state.bid is None or not state.rules.calza:
        game.refuse(Calza(current), NotNow)
    if state.locked_face is not None:
        other_face = state.locked_face % FACES + 1
        game.refuse(Bid(current, dice_in_play(state), other_face), InvalidBid)
    if state.bid is not None:
        quantity, face = state.bid
        game.refuse(Bid(current, quantity, face), BidTooLow, InvalidBid)
        for smallest, on in minimal_raises(state):
            if smallest > 1:
                game.refuse(Bid(current, smallest - 1, on), BidTooLow)


def play(table: Table) -> Game:
    rng = random.Random(table.seed)
    game = Game(table, rng)
    try:
        while not game.state.over:
            if rng.random() < 0.1:
                probe(game)
            if table.stop_after is not None and len(game.actions) >= table.stop_after:
                game.step(Stop())
            else:
                game.step(complete(game.state, choose(game.state, rng, table.leave), rng))
        assert replay(game.initial, game.history) == game.state, "replay from the start differs"
        game.refuse(Stop(), GameOver)
    except BaseException:
        note(f"rules={table.rules!r}\nplayers={table.players!r}\nactions={game.actions!r}")
        raise
    return game


# --------------------------------------------------------------------------- properties


@GAMES
@given(table=tables())
def test_random_games_keep_every_invariant_until_the_end(table):
    game = play(table)
    state = game.state
    end = game.history[-1]
    assert end.type in ("game_won", "game_ended")
    if end.type == "game_won":
        assert state.active() == [state.winner] == [end.data["player"]]
    else:
        assert isinstance(game.actions[-1], Stop) and state.winner is None


@settings(GAMES, max_examples=80)
@given(table=tables())
def test_without_departures_every_game_ends_when_one_player_has_dice_left(table):
    quiet = Table(table.rules, table.players, table.seed, leave=0.0, stop_after=None)
    game = play(quiet)
    state = game.state
    assert state.winner is not None and state.active() == [state.winner]
    starting = len(table.players) * table.rules.dice
    lost = sum(1 for e in game.history if e.type == "die_lost")
    assert lost == starting - dice_in_play(state) + game.dice_gained
    assert sum(1 for e in game.history if e.type == "eliminated") == len(table.players) - 1
    rounds = sum(1 for e in game.history if e.type == "round_started")
    assert rounds == game.challenges + game.calzas
