"""Dés du menteur (Liar's dice, Perudo without Palifico or Calza): RULES.md §3.

Same shape as the Maya engine (``bot.engine.maya``), whose ``Event`` and ``GameError``
family it shares so that storage, rendering and the error handler treat every game alike:

- ``legal_actions(state, player)`` lists what a player may do now;
- ``apply(state, action)`` checks the action, *decides* its events, then *evolves* a copy
  of the state by folding them (an illegal action raises a ``GameError`` and leaves the
  state as it was); ``replay(initial, events)`` folds the same events again.

A round starts with one ``Roll`` that carries every active player's fresh dice (``complete``
fills them from the caller's ``random.Random``). Each hand travels only in an event
private to its owner; the public news is who opens and how many dice each player has.
All hands become public together, in the ``revealed`` event of a challenge.
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass, field, fields, replace
from typing import Any

from bot.engine import core
from bot.engine.core import (
    PRIVATE,
    PUBLIC,
    SECRET,
    Event,
    GameError,
    GameOver,
    NotNow,
)
from bot.engine.maya import (
    Eliminated,
    InvalidDice,
    InvalidPlayers,
    InvalidRules,
    NotYourTurn,
    UnknownPlayer,
)

__all__ = [
    "PRIVATE",
    "PUBLIC",
    "SECRET",
    "Eliminated",
    "Event",
    "GameError",
    "GameOver",
    "InvalidDice",
    "InvalidPlayers",
    "InvalidRules",
    "NotNow",
    "NotYourTurn",
    "UnknownPlayer",
]

SCHEMA_VERSION = 1
MIN_PLAYERS = 2
MAX_PLAYERS = 6
FACES = 6
JOKER = 1  # the face that counts for every other face when ones are jokers
STARTING_DICE: tuple[int, ...] = (3, 4, 5)

STANDARD = "standard"

# Phases of a round.
ROLL = "roll"  # the opener is to roll everyone's dice
BID = "bid"  # the current player bids higher or challenges the last bid
OVER = "over"

# Seat statuses.
IN = "in"
OUT = "out"  # no dice left: eliminated
LEFT = "left"

Hand = tuple[int, ...]
BidValue = tuple[int, int]  # (quantity, face)


# --------------------------------------------------------------------------- errors


class BidTooLow(GameError):
    """The bid does not raise the last one. ``minimum``: the smallest legal bid on the same
    face (None when there is none); ``raises``: the smallest legal bid on every face."""

    code = "bid_too_low"


class InvalidBid(GameError):
    """A bid that can never be made now: an unknown face, a quantity out of 1..dice in play,
    or an opening on ones while ones are jokers."""

    code = "invalid_bid"


# --------------------------------------------------------------------------- rules


@dataclass(frozen=True, slots=True)
class Rules:
    """The table options of RULES.md §3. Build it with ``Rules.for_preset``."""

    dice: int = 5  # starting dice per player: 3, 4 or 5
    jokers: bool = True  # ones count for every face 2-6

    @classmethod
    def for_preset(cls, preset: str = STANDARD, **options: Any) -> Rules:
        """The defaults, then the given options; validated."""
        if preset != STANDARD:
            raise InvalidRules(option="preset", value=preset)
        known = {f.name for f in fields(cls)}
        for name in options:
            if name not in known:
                raise InvalidRules(option=name, value=options[name])
        return replace(cls(), **options).validated()

    def validated(self) -> Rules:
        if (
            not isinstance(self.dice, int)
            or isinstance(self.dice, bool)
            or self.dice not in STARTING_DICE
        ):
            raise InvalidRules(option="dice", value=self.dice)
        if not isinstance(self.jokers, bool):
            raise InvalidRules(option="jokers", value=self.jokers)
        return self

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, raw: dict[str, Any]) -> Rules:
        return cls(**raw).validated()


# --------------------------------------------------------------------------- actions


@dataclass(frozen=True, slots=True)
class Roll:
    """Start a round: every active player's fresh dice, one hand per player in seating
    order, each as many dice as that player has left (``complete`` fills them).
    ``player``: the opener, or None to let the table roll for whoever opens."""

    player: int | None = None
    dice: tuple[Hand, ...] | None = None


@dataclass(frozen=True, slots=True)
class Bid:
    """Claim that at least ``quantity`` dice on the table show ``face``."""

    player: int
    quantity: int
    face: int


@dataclass(frozen=True, slots=True)
class Challenge:
    """*Dudo*: the last bid is false."""

    player: int


@dataclass(frozen=True, slots=True)
class Leave:
    player: int


@dataclass(frozen=True, slots=True)
class Stop:
    """End the game now (the table checks who may stop it)."""


Action = Roll | Bid | Challenge | Leave | Stop


# --------------------------------------------------------------------------- counting and bids


def count(dice_lists: Iterable[Iterable[int]], face: int, jokers: bool) -> int:
    """How many dice count for ``face``: with jokers, ones count for faces 2-6 (a bid on
    ones counts only ones)."""
    wild = jokers and face != JOKER
    return sum(1 for hand in dice_lists for pip in hand if pip == face or (wild and pip == JOKER))


def opening_faces(jokers: bool) -> tuple[int, ...]:
    """The faces an opening bid may name: 2-6, and ones too when they are not jokers."""
    return tuple(range(2, FACES + 1)) if jokers else tuple(range(1, FACES + 1))


def minimum_for(previous: BidValue | None, face: int, jokers: bool) -> int:
    """The smallest quantity a bid on ``face`` needs to follow ``previous`` (no upper cap)."""
    if previous is None:
        return 1
    quantity, last = previous
    if jokers and face == JOKER and last != JOKER:
        return math.ceil(quantity / 2)
    if jokers and face != JOKER and last == JOKER:
        return 2 * quantity + 1
    if jokers and face == JOKER:  # ones after ones
        return quantity + 1
    return quantity if face > last else quantity + 1


def raises(previous: BidValue | None, jokers: bool, total: int) -> list[BidValue]:
    """The smallest legal bid on each face (by face), with at most ``total`` dice."""
    faces = opening_faces(jokers) if previous is None else tuple(range(1, FACES + 1))
    found = []
    for face in faces:
        quantity = minimum_for(previous, face, jokers)
        if quantity <= total:
            found.append((quantity, face))
    return found


def probability_at_least(n_unknown: int, needed: int, face: int, jokers: bool) -> float:
    """The chance that at least ``needed`` of ``n_unknown`` hidden dice count for ``face``."""
    if needed <= 0:
        return 1.0
    if needed > n_unknown:
        return 0.0
    p = 2 / FACES if jokers and face != JOKER else 1 / FACES
    q = 1 - p
    return min(
        1.0,
        sum(
            math.comb(n_unknown, k) * p**k * q ** (n_unknown - k)
            for k in range(needed, n_unknown + 1)
        ),
    )


# --------------------------------------------------------------------------- state


@dataclass(slots=True)
class Seat:
    player: int
    status: str = IN
    dice: int = 0  # how many dice the player has left
    hand: Hand | None = None  # this round's dice (None between rounds)

    def copy(self) -> Seat:
        return Seat(self.player, self.status, self.dice, self.hand)


@dataclass(slots=True)
class State:
    rules: Rules
    seats: list[Seat]  # in seating (and turn) order
    phase: str = ROLL
    current: int | None = None  # the one player to act (None when over)
    round: int = 0
    step: int = 0  # counts decision points: changes whenever the phase or current player does
    bid: BidValue | None = None  # the bid to beat
    bidder: int | None = None
    history: list[tuple[int, int, int]] = field(default_factory=list)  # (player, qty, face)
    winner: int | None = None

    def copy(self) -> State:
        return State(
            self.rules,
            [seat.copy() for seat in self.seats],
            self.phase,
            self.current,
            self.round,
            self.step,
            self.bid,
            self.bidder,
            list(self.history),
            self.winner,
        )

    # ---- queries

    @property
    def over(self) -> bool:
        return self.phase == OVER

    def seat(self, player: int) -> Seat | None:
        for seat in self.seats:
            if seat.player == player:
                return seat
        return None

    def active(self) -> list[int]:
        """Players still in the game, in seating order."""
        return [seat.player for seat in self.seats if seat.status == IN]

    def next_after(self, player: int, *, skip: int | None = None) -> int:
        """The next active player after ``player`` (who need not be active any more)."""
        seats = self.seats
        size = len(seats)
        index = next(i for i, seat in enumerate(seats) if seat.player == player)
        for offset in range(1, size + 1):
            seat = seats[(index + offset) % size]
            if seat.status == IN and seat.player != skip:
                return seat.player
        raise GameOver()

    # ---- JSON

    def to_json(self) -> dict[str, Any]:
        return {
            "schema": SCHEMA_VERSION,
            "game": "menteur",
            "rules": self.rules.to_json(),
            "seats": [
                {
                    "player": seat.player,
                    "status": seat.status,
                    "dice": seat.dice,
                    "hand": list(seat.hand) if seat.hand is not None else None,
                }
                for seat in self.seats
            ],
            "phase": self.phase,
            "current": self.current,
            "round": self.round,
            "step": self.step,
            "bid": list(self.bid) if self.bid is not None else None,
            "bidder": self.bidder,
            "history": [list(entry) for entry in self.history],
            "winner": self.winner,
        }

    @classmethod
    def from_json(cls, raw: dict[str, Any]) -> State:
        if raw.get("schema") != SCHEMA_VERSION or raw.get("game") != "menteur":
            raise ValueError(f"not a Dés du menteur state of schema {SCHEMA_VERSION}")
        bid = raw["bid"]
        return cls(
            rules=Rules.from_json(raw["rules"]),
            seats=[
                Seat(
                    seat["player"],
                    seat["status"],
                    seat["dice"],
                    tuple(seat["hand"]) if seat["hand"] is not None else None,
                )
                for seat in raw["seats"]
            ],
            phase=raw["phase"],
            current=raw["current"],
            round=raw["round"],
            step=raw["step"],
            bid=(bid[0], bid[1]) if bid is not None else None,
            bidder=raw["bidder"],
            history=[(p, q, f) for p, q, f in raw["history"]],
            winner=raw["winner"],
        )


def new_game(players: list[int], rules: Rules | None = None) -> State:
    """A game in the order of ``players`` (the caller shuffles it); the first one opens."""
    rules = (rules or Rules()).validated()
    if len(set(players)) != len(players):
        raise InvalidPlayers(reason="duplicate", players=list(players))
    if not MIN_PLAYERS <= len(players) <= MAX_PLAYERS:
        raise InvalidPlayers(reason="count", count=len(players))
    return State(
        rules=rules,
        seats=[Seat(player, dice=rules.dice) for player in players],
        current=players[0],
    )


# --------------------------------------------------------------------------- UI and CPU helpers


def dice_in_play(state: State) -> int:
    """How many dice the active players hold between them."""
    return sum(seat.dice for seat in state.seats if seat.status == IN)


def minimal_raises(state: State) -> list[BidValue]:
    """The smallest legal bid on each face now, by face (the openings before any bid)."""
    return raises(state.bid, state.rules.jokers, dice_in_play(state))


# --------------------------------------------------------------------------- legal actions


def legal_actions(state: State, player: int) -> list[Action]:
    """What ``player`` may do now. A ``Roll`` comes with ``dice=None``: see ``complete``."""
    if state.over:
        return []
    seat = state.seat(player)
    if seat is None or seat.status != IN:
        return []
    return [*turn_actions(state, player), Leave(player)]


def turn_actions(state: State, player: int) -> list[Action]:
    """The legal actions that play ``player``'s turn (no leaving): what a CPU may do."""
    seat = state.seat(player)
    if state.over or seat is None or seat.status != IN or state.current != player:
        return []
    if state.phase == ROLL:
        return [Roll(player)]
    total = dice_in_play(state)
    actions: list[Action] = []
    for quantity, face in minimal_raises(state):
        actions.extend(Bid(player, q, face) for q in range(quantity, total + 1))
    actions.sort(key=lambda bid: (bid.quantity, bid.face))
    if state.bid is not None:
        actions.append(Challenge(player))
    return actions


def complete(state: State, action: Action, rng: random.Random) -> Action:
    """Fill in the dice a ``Roll`` rolls, from the caller's generator (no-op otherwise)."""
    if type(action) is Roll and action.dice is None:
        hands = tuple(
            tuple(rng.randint(1, FACES) for _ in range(seat.dice))
            for seat in state.seats
            if seat.status == IN
        )
        return Roll(action.player, hands)
    return action


# --------------------------------------------------------------------------- apply


def apply(state: State, action: Action) -> tuple[State, list[Event]]:
    """Check ``action`` against the rules and return the next state and what happened."""
    return core.apply(state, action, _DECIDERS, _EVOLVERS)


def replay(state: State, events: list[Event]) -> State:
    """Fold ``events`` onto a copy of ``state``."""
    return core.replay(state, events, _EVOLVERS)


def _public(kind: str, **data: Any) -> Event:
    return Event(kind, data)


def _playing(state: State, player: Any) -> Seat:
    seat = state.seat(player)
    if seat is None or seat.status == LEFT:
        raise UnknownPlayer(player=player)
    if seat.status == OUT:
        raise Eliminated(player=player)
    return seat


def _turn(state: State, player: int, phase: str, action: str) -> Seat:
    seat = _playing(state, player)
    if state.current != player:
        raise NotYourTurn(player=player, current=state.current)
    if state.phase != phase:
        raise NotNow(action=action, phase=state.phase)
    return seat


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _check_hands(state: State, dice: Any) -> list[Hand]:
    expected = [seat.dice for seat in state.seats if seat.status == IN]
    if not isinstance(dice, Sequence) or len(dice) != len(expected):
        raise InvalidDice(dice=repr(dice), expected=expected)
    hands: list[Hand] = []
    for hand, size in zip(dice, expected, strict=True):
        if (
            not isinstance(hand, Sequence)
            or len(hand) != size
            or not all(_is_int(pip) and 1 <= pip <= FACES for pip in hand)
        ):
            raise InvalidDice(dice=repr(dice), expected=expected)
        hands.append(tuple(hand))
    return hands


# ---- deciders: state + action -> events (raise GameError when illegal)


def _decide_roll(state: State, action: Roll) -> list[Event]:
    opener = state.current if action.player is None else action.player
    assert opener is not None
    _turn(state, opener, ROLL, "roll")
    hands = _check_hands(state, action.dice)
    active = [seat for seat in state.seats if seat.status == IN]
    events = [
        _public(
            "round_started",
            round=state.round + 1,
            opener=opener,
            counts=[{"player": seat.player, "count": seat.dice} for seat in active],
            total=sum(seat.dice for seat in active),
        )
    ]
    events.extend(
        Event("dice", {"player": seat.player, "dice": list(hand)}, PRIVATE, seat.player)
        for seat, hand in zip(active, hands, strict=True)
    )
    return events


def _decide_bid(state: State, action: Bid) -> list[Event]:
    _turn(state, action.player, BID, "bid")
    quantity, face = action.quantity, action.face
    jokers = state.rules.jokers
    total = dice_in_play(state)
    if not _is_int(face) or not 1 <= face <= FACES:
        raise InvalidBid(reason="face", face=face)
    if not _is_int(quantity) or not 1 <= quantity <= total:
        raise InvalidBid(reason="quantity", quantity=quantity, total=total)
    if state.bid is None and face not in opening_faces(jokers):
        raise InvalidBid(reason="opening_on_ones", face=face)
    needed = minimum_for(state.bid, face, jokers)
    if quantity < needed:
        raise BidTooLow(
            quantity=quantity,
            face=face,
            previous=state.bid,
            minimum=(needed, face) if needed <= total else None,
            raises=raises(state.bid, jokers, total),
        )
    return [
        _public(
            "bid_made",
            player=action.player,
            quantity=quantity,
            face=face,
            next=state.next_after(action.player),
        )
    ]


def _decide_challenge(state: State, action: Challenge) -> list[Event]:
    _turn(state, action.player, BID, "challenge")
    if state.bid is None or state.bidder is None:
        raise NotNow(action="challenge", reason="no_bid")
    quantity, face = state.bid
    challenger, bidder = action.player, state.bidder
    active = [seat for seat in state.seats if seat.status == IN]
    hands = [seat.hand or () for seat in active]
    actual = count(hands, face, state.rules.jokers)
    holds = actual >= quantity
    loser = challenger if holds else bidder
    events = [
        _public("challenged", player=challenger, bidder=bidder, quantity=quantity, face=face),
        _public(
            "revealed",
            hands=[
                {"player": seat.player, "dice": list(hand)}
                for seat, hand in zip(active, hands, strict=True)
            ],
            quantity=quantity,
            face=face,
            jokers=state.rules.jokers,
            actual=actual,
            holds=holds,
            challenger=challenger,
            bidder=bidder,
        ),
    ]
    seat = state.seat(loser)
    assert seat is not None
    remaining = seat.dice - 1
    events.append(
        _public(
            "die_lost",
            player=loser,
            remaining=remaining,
            reason="challenge" if holds else "bid",
        )
    )
    if remaining > 0:
        events.append(_public("round_ended", loser=loser, opener=loser))
        return events
    events.append(_public("eliminated", player=loser))
    survivors = [p for p in state.active() if p != loser]
    if len(survivors) == 1:
        events.append(_public("game_won", player=survivors[0]))
        return events
    events.append(_public("round_ended", loser=loser, opener=state.next_after(loser, skip=loser)))
    return events


def _decide_leave(state: State, action: Leave) -> list[Event]:
    seat = _playing(state, action.player)
    player = action.player
    events = [_public("player_left", player=player, dice_count=seat.dice)]
    survivors = [p for p in state.active() if p != player]
    if len(survivors) == 1:
        events.append(_public("game_won", player=survivors[0]))
        return events
    if state.phase == ROLL:
        if state.current == player:
            events.append(_public("turn_passed", player=state.next_after(player, skip=player)))
        return events
    if player in (state.current, state.bidder):
        # The round cannot go on without whoever is to act or whose bid is on the table.
        events.append(_public("round_abandoned", opener=state.next_after(player, skip=player)))
    return events


def _decide_stop(state: State, action: Stop) -> list[Event]:
    return [_public("game_ended", reason="stopped")]


_DECIDERS: dict[type, Any] = {
    Roll: _decide_roll,
    Bid: _decide_bid,
    Challenge: _decide_challenge,
    Leave: _decide_leave,
    Stop: _decide_stop,
}


# --------------------------------------------------------------------------- evolvers


def _seat_of(state: State, player: int) -> Seat:
    seat = state.seat(player)
    assert seat is not None
    return seat


def _clear_round(state: State) -> None:
    """Old values are not kept: everybody re-rolls next round."""
    for seat in state.seats:
        seat.hand = None
    state.bid = state.bidder = None
    state.history = []


def _on_round_started(state: State, event: Event) -> None:
    state.round = event.data["round"]
    state.phase = BID
    state.current = event.data["opener"]
    state.step += 1


def _on_dice(state: State, event: Event) -> None:
    _seat_of(state, event.data["player"]).hand = tuple(event.data["dice"])


def _on_bid_made(state: State, event: Event) -> None:
    data = event.data
    state.bid = (data["quantity"], data["face"])
    state.bidder = data["player"]
    state.history.append((data["player"], data["quantity"], data["face"]))
    state.current = data["next"]
    state.step += 1


def _nothing(state: State, event: Event) -> None:
    """Events that only tell the story (the state changes come in the events that follow)."""


def _on_die_lost(state: State, event: Event) -> None:
    _seat_of(state, event.data["player"]).dice = event.data["remaining"]


def _on_eliminated(state: State, event: Event) -> None:
    _seat_of(state, event.data["player"]).status = OUT


def _on_round_ended(state: State, event: Event) -> None:
    _clear_round(state)
    state.phase = ROLL
    state.current = event.data["opener"]
    state.step += 1


def _on_player_left(state: State, event: Event) -> None:
    seat = _seat_of(state, event.data["player"])
    seat.status = LEFT
    seat.dice = 0
    seat.hand = None


def _on_turn_passed(state: State, event: Event) -> None:
    state.current = event.data["player"]
    state.step += 1


def _on_game_over(state: State, event: Event) -> None:
    _clear_round(state)
    state.phase = OVER
    state.current = None
    state.winner = event.data.get("player")
    state.step += 1


_EVOLVERS: dict[str, Any] = {
    "round_started": _on_round_started,
    "dice": _on_dice,
    "bid_made": _on_bid_made,
    "challenged": _nothing,
    "revealed": _nothing,
    "die_lost": _on_die_lost,
    "eliminated": _on_eliminated,
    "round_ended": _on_round_ended,
    "round_abandoned": _on_round_ended,
    "player_left": _on_player_left,
    "turn_passed": _on_turn_passed,
    "game_won": _on_game_over,
    "game_ended": _on_game_over,
}


# --------------------------------------------------------------------------- what a player knows


@dataclass(frozen=True, slots=True)
class SeatView:
    player: int
    status: str
    dice: int  # dice left: public


@dataclass(frozen=True, slots=True)
class BidView:
    player: int
    quantity: int
    face: int


@dataclass(frozen=True, slots=True)
class View:
    """What one player may know: their own dice, everyone's dice counts and the bids.

    CPU policies decide from this, never from ``State``, so they cannot see other hands.
    """

    player: int
    rules: Rules
    phase: str
    current: int | None
    round: int
    seats: tuple[SeatView, ...]
    my_dice: Hand | None  # this round's hand (None between rounds, or when not playing)
    bid: BidValue | None  # the bid to beat
    bidder: int | None
    history: tuple[BidView, ...]  # this round's bids, oldest first
    dice_in_play: int
    unknown: int  # dice in play this player cannot see
    winner: int | None

    def dice_of(self, player: int) -> int:
        """How many dice ``player`` has left (0 when out or gone)."""
        return next((seat.dice for seat in self.seats if seat.player == player), 0)


def view(state: State, player: int) -> View:
    seat = state.seat(player)
    mine = seat.hand if seat is not None and seat.status == IN else None
    total = dice_in_play(state)
    return View(
        player=player,
        rules=state.rules,
        phase=state.phase,
        current=state.current,
        round=state.round,
        seats=tuple(SeatView(s.player, s.status, s.dice) for s in state.seats),
        my_dice=mine,
        bid=state.bid,
        bidder=state.bidder,
        history=tuple(BidView(p, q, f) for p, q, f in state.history),
        dice_in_play=total,
        unknown=total - (len(mine) if mine is not None else 0),
        winner=state.winner,
    )
