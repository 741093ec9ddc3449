"""Random legal games of Yadès (``yades``), Yahtzee (``classique``) and server variants keep
the engine's invariants.

Hypothesis draws a table (a sheet, 2 to 6 players, a seed, how often players leave); the
seed drives a ``random.Random`` that picks among every player's legal actions and rolls
the dice through ``complete``. After every action the state and its events are checked;
now and then actions that must be refused are tried.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass

from hypothesis import HealthCheck, Phase, given, note, settings
from hypothesis import strategies as st

from bot.games.yades import (
    CLASSIQUE,
    DICE,
    EVENTS,
    FACES,
    FREE_JOKER,
    IN,
    LEFT,
    MAX_PLAYERS,
    MAX_ROLLS,
    MIN_PLAYERS,
    OF_A_KIND,
    PUBLIC,
    STRAIGHT,
    YADES,
    Action,
    Box,
    Event,
    GameError,
    GameOver,
    Leave,
    NotRolled,
    NotYourTurn,
    Roll,
    Rules,
    Score,
    State,
    Stop,
    UnknownPlayer,
    allowed_boxes,
    apply,
    complete,
    legal_actions,
    new_game,
    points,
    replay,
    scores,
    sheet_totals,
    totals,
)

GAMES = settings(
    max_examples=150,
    derandomize=True,
    database=None,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
    phases=(Phase.explicit, Phase.generate, Phase.shrink),
)

VARIANTS = {
    "sans_prime": {"remove": ["prime_yades", "chance"]},
    "paires": {
        "add": [
            Box("paire", OF_A_KIND, count=2, points=10),
            Box("duo", STRAIGHT, count=2, points=5),
        ]
    },
    "bonus_50": {"bonus_threshold": 50, "bonus_points": 50},
}


@dataclass(frozen=True)
class Table:
    rules: Rules
    players: list[int]
    seed: int
    leave: float  # chance that a step is someone leaving
    stop_after: int | None  # a Stop after this many actions, if any


@st.composite
def tables(draw: st.DrawFn, preset: str) -> Table:
    if preset == YADES:
        variant = draw(st.sampled_from([None, *VARIANTS]))
        options = VARIANTS[variant] if variant else {}
    else:
        options = draw(st.sampled_from([{}, {"joker": FREE_JOKER}, {"remove": ["carre"]}]))
    count = draw(st.integers(min_value=MIN_PLAYERS, max_value=MAX_PLAYERS))
    first = draw(st.integers(min_value=1, max_value=10**6))
    players = draw(st.permutations([first + i * 7 for i in range(count)]))
    return Table(
        rules=Rules.for_preset(preset, **options),
        players=list(players),
        seed=draw(st.integers(min_value=0, max_value=2**32 - 1)),
        leave=draw(st.sampled_from([0.0, 0.0, 0.005, 0.02])),
        stop_after=draw(st.one_of(st.none(), st.integers(min_value=0, max_value=400))),
    )


# --------------------------------------------------------------------------- choosing actions


def choose(state: State, rng: random.Random, leave: float) -> Action:
    """A turn action (a roll or a box, fairly between the two), now and then a departure."""
    everyone = {seat.player: legal_actions(state, seat.player) for seat in state.seats}
    leaves = [a for actions in everyone.values() for a in actions if isinstance(a, Leave)]
    if leaves and rng.random() < leave:
        return rng.choice(leaves)
    assert state.current is not None
    turn = [a for a in everyone[state.current] if not isinstance(a, Leave)]
    rolls = [a for a in turn if isinstance(a, Roll)]
    boxes = [a for a in turn if isinstance(a, Score)]
    if rolls and (not boxes or rng.random() < 0.6):
        return rng.choice(rolls)
    return rng.choice(boxes)


# --------------------------------------------------------------------------- invariants


def through_json(state: State) -> State:
    return State.from_json(json.loads(json.dumps(state.to_json())))


def events_through_json(events: list[Event]) -> list[Event]:
    return [EVENTS.from_json(raw) for raw in json.loads(json.dumps([e.to_json() for e in events]))]


def check_state(state: State) -> None:
    sheet = state.sheet
    size = len(sheet.boxes)
    active = [seat for seat in state.seats if seat.status == IN]
    for seat in state.seats:
        assert seat.status in (IN, LEFT), seat
        assert set(seat.boxes) <= set(sheet.ids), seat.boxes
        assert all(isinstance(p, int) and p >= 0 for p in seat.boxes.values()), seat.boxes
        assert seat.five_bonus >= 0 and seat.five_bonus % max(1, sheet.five_bonus) == 0
        result = totals(state, seat.player)
        assert min(result.upper, result.bonus, result.lower, result.total) >= 0, result
        assert result == sheet_totals(sheet, seat.boxes, seat.five_bonus)
        assert result.total == sum(seat.boxes.values()) + result.bonus + seat.five_bonus
    filled = [len(seat.boxes) for seat in active]
    assert max(filled) - min(filled) <= 1, f"turns out of step: {filled}"
    assert 0 <= state.rolls <= MAX_ROLLS
    if state.over:
        assert state.current is None and state.dice is None and state.rolls == 0
        for seat in state.seats:
            assert legal_actions(state, seat.player) == []
        return
    assert len(active) >= MIN_PLAYERS, "the game goes on with fewer than two players"
    assert any(len(seat.boxes) < size for seat in active), "every sheet is full but no end"
    current = state.seat(state.current) if state.current is not None else None
    assert current is not None and current.status == IN and len(current.boxes) < size
    if state.rolls == 0:
        assert state.dice is None
    else:
        assert state.dice is not None and len(state.dice) == DICE
        assert all(1 <= pip <= FACES for pip in state.dice)
    for seat in state.seats:
        actions = legal_actions(state, seat.player)
        turn = [a for a in actions if isinstance(a, Roll | Score)]
        if seat.status == LEFT:
            assert actions == []
        elif seat.player == state.current:
            assert turn, f"{seat.player} is to act but may do nothing"
            assert actions[-1] == Leave(seat.player)
        else:
            assert actions == [Leave(seat.player)], f"{seat.player} may {actions}"
    offered = {a.box for a in legal_actions(state, current.player) if isinstance(a, Score)}
    if state.dice is not None:
        assert offered == set(scores(state, current.player))
        assert offered == {b.id for b in allowed_boxes(sheet, current.boxes, state.dice)}
        assert offered and offered.isdisjoint(current.boxes)
    else:
        assert offered == set()


def check_events(before: State, action: Action, events: list[Event], stored: list[Event]) -> None:
    assert stored == events, f"event JSON round trip: {events} became {stored}"
    assert events, f"{action!r} changed nothing"
    for event in events:
        assert event.visibility == PUBLIC and event.to is None, event
        if event.type == "scored":
            data = event.data
            seat = before.seat(data["player"])
            assert seat is not None and before.dice is not None
            box = before.sheet.box(data["box"])
            assert box is not None
            assert data["points"] == points(before.sheet, box, before.dice, seat.boxes)
            assert data["scratched"] == (data["points"] == 0)
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
        check_state(self.state)

    def step(self, action: Action) -> list[Event]:
        state = self.state
        self.actions.append(action)
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
        self.state = new
        check_state(new)
        return events

    def refuse(self, action: Action, expected: type[GameError]) -> None:
        try:
            apply(self.state, action)
        except GameError as error:
            assert isinstance(error, expected), f"{action!r} raised {error!r}, not {expected}"
        else:
            raise AssertionError(f"{action!r} was accepted")
        assert self.state == self.stored, f"refused {action!r} changed the state"


def probe(game: Game) -> None:
    """Others' turn actions and a premature score are refused, state untouched."""
    state, rng = game.state, game.rng
    others = [s.player for s in state.seats if s.player != state.current]
    other = rng.choice(others)
    seat = state.seat(other)
    assert seat is not None
    expected = UnknownPlayer if seat.status == LEFT else NotYourTurn
    game.refuse(complete(state, Roll(other), rng), expected)
    game.refuse(Score(other, rng.choice(state.sheet.ids)), expected)
    if state.rolls == 0 and state.current is not None:
        game.refuse(Score(state.current, rng.choice(state.sheet.ids)), NotRolled)


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


def check_the_end(game: Game) -> None:
    """The game ended exactly when it had to, with the right winners."""
    state = game.state
    end = game.history[-1]
    assert end.type in ("game_won", "game_ended"), end
    active = [seat for seat in state.seats if seat.status == IN]
    full = all(len(seat.boxes) == len(state.sheet.boxes) for seat in active)
    reason = end.data["reason"]
    if reason == "sheets_full":
        assert full, "the game ended with a box open"
        best = max(totals(state, seat.player).total for seat in active)
        assert state.winners == [s.player for s in active if totals(state, s.player).total == best]
    elif reason == "players_left":
        assert len(active) == 1 and state.winners == [active[0].player]
    else:
        assert reason == "stopped" and state.winners == [] and isinstance(game.actions[-1], Stop)
    if reason != "stopped":
        assert not any(isinstance(a, Stop) for a in game.actions)
    ranking = end.data["ranking"]
    assert [row["player"] for row in ranking] == sorted(
        (s.player for s in active), key=lambda p: -totals(state, p).total
    )


@GAMES
@given(table=tables(YADES))
def test_random_yades_games_keep_every_invariant_until_the_end(table):
    check_the_end(play(table))


@GAMES
@given(table=tables(CLASSIQUE))
def test_random_classique_games_keep_every_invariant_until_the_end(table):
    check_the_end(play(table))


@settings(GAMES, max_examples=40)
@given(table=tables(CLASSIQUE), preset=st.sampled_from([YADES, CLASSIQUE]))
def test_without_departures_every_box_of_every_player_is_filled(table, preset):
    rules = Rules.for_preset(preset)
    quiet = Table(rules, table.players, table.seed, leave=0.0, stop_after=None)
    game = play(quiet)
    state = game.state
    assert all(len(seat.boxes) == len(rules.sheet.boxes) for seat in state.seats)
    assert sum(1 for e in game.history if e.type == "scored") == len(state.seats) * len(
        rules.sheet.boxes
    )
    assert game.history[-1].data["reason"] == "sheets_full"
