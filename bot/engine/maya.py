"""Maya (party preset ``soiree``) and Mia (lives preset ``vies``): RULES.md §1.

The engine is a pure state machine in the decide/evolve style:

- ``legal_actions(state, player)`` lists what a player may do now;
- ``apply(state, action)`` checks the action, *decides* the events it causes, then
  *evolves* a copy of the state by folding those events; the input state is never
  touched, so an illegal action (a ``GameError``) leaves it exactly as it was;
- ``replay(initial, events)`` folds the same events again, which is how a game is
  rebuilt from its event log and how the tests prove the events tell the whole story.

Dice are data: actions that roll carry their dice, rolled by the caller (``complete``
fills them from an injected ``random.Random``). Hidden dice travel only in events
private to their owner, or in *secret* events when nobody may see them (a blind
roll, the die after a Tapote, a Seconde chance): secret events exist for replay and
persistence and are never rendered.
"""

from __future__ import annotations

import random
from dataclasses import asdict, dataclass, field, fields, replace
from functools import lru_cache
from typing import Any

from bot.engine import core
from bot.engine import dice as d

# The shared vocabulary, re-exported: callers may use maya.Event, maya.GameError, …
from bot.engine.core import PRIVATE as PRIVATE
from bot.engine.core import PUBLIC as PUBLIC
from bot.engine.core import SECRET as SECRET
from bot.engine.core import Event as Event
from bot.engine.core import GameError as GameError
from bot.engine.core import GameOver as GameOver
from bot.engine.core import NotNow as NotNow
from bot.engine.dice import MAYA, RANK, Dice

SCHEMA_VERSION = 1
MIN_PLAYERS = 2
MAX_PLAYERS = 10
MAX_MOTIVE = 200
MAX_GAGE = 30  # the penalty word's length

SOIREE = "soiree"
VIES = "vies"

# Phases of a round.
OPEN = "open"  # the opener is to roll
ANNOUNCE = "announce"  # the cup's holder has dice and is to announce
RESPOND = "respond"  # the next player believes or lifts the announcement
OVER = "over"

# Seat statuses.
IN = "in"
WAITING = "waiting"  # joined during a round: seated when the next round starts
AT_TABLE = (IN, WAITING)  # may accuse, be accused and vote (RULES.md §1)
OUT = "out"  # eliminated (lives preset)
LEFT = "left"

# Blind plays.
AVEUGLE = "aveugle"
TAPOTE = "tapote"
SECONDE_CHANCE = "seconde_chance"


# --------------------------------------------------------------------------- errors


class InvalidRules(GameError):
    code = "invalid_rules"


class InvalidPlayers(GameError):
    code = "invalid_players"


class UnknownPlayer(GameError):
    code = "unknown_player"


class NotYourTurn(GameError):
    code = "not_your_turn"


class AnnouncementTooLow(GameError):
    code = "announcement_too_low"


class UnknownValue(GameError):
    code = "unknown_value"


class PhotoNotAllowed(GameError):
    code = "photo_not_allowed"


class OptionDisabled(GameError):
    code = "option_disabled"


class BlindPlayNotAllowed(GameError):
    code = "blind_play_not_allowed"


class InvalidDice(GameError):
    code = "invalid_dice"


class AlreadySeated(GameError):
    code = "already_seated"


class TableFull(GameError):
    code = "table_full"


class Eliminated(GameError):
    code = "eliminated"


class UnknownFault(GameError):
    code = "unknown_fault"


class FaultNotAllowed(GameError):
    code = "fault_not_allowed"


class NotAVoter(GameError):
    code = "not_a_voter"


class AlreadyVoted(GameError):
    code = "already_voted"


# --------------------------------------------------------------------------- rules


@dataclass(frozen=True, slots=True)
class Rules:
    """Every table option of RULES.md §1, as data. Build it with ``Rules.preset``."""

    preset: str = SOIREE
    ouvreur: str = "perdant"  # who opens after a loss: "perdant" or "suivant"
    photo: bool = True
    photo_memoire: bool = False  # hide the copied value in the table status
    aveugle: bool = True
    tapote: bool = True
    seconde_chance: bool = True
    warrior_fragile: bool = True  # party preset: believe a Maya as Fragile or Warrior
    inversion_maya: bool = True  # party preset: the Maya's receiver may reverse direction
    fautes: bool = True  # party preset: /faute accusations and votes
    gage: str = "gorgée"  # the penalty word shown to players
    vies: int = 3  # lives preset: starting lives

    @property
    def lives(self) -> bool:
        """True when penalties are lives (Mia), False when they are sips (Maya)."""
        return self.preset == VIES

    @classmethod
    def for_preset(cls, preset: str = SOIREE, **options: Any) -> Rules:
        """The preset's defaults, then the given options; validated."""
        if preset == SOIREE:
            base = cls()
        elif preset == VIES:
            base = cls(
                preset=VIES,
                photo=False,
                aveugle=False,
                tapote=False,
                seconde_chance=False,
                warrior_fragile=False,
                inversion_maya=False,
                fautes=False,
                gage="vie",
            )
        else:
            raise InvalidRules(option="preset", value=preset)
        known = {f.name for f in fields(cls)}
        for name in options:
            if name not in known or name == "preset":
                raise InvalidRules(option=name, value=options[name])
        return replace(base, **options).validated()

    def validated(self) -> Rules:
        if self.preset not in (SOIREE, VIES):
            raise InvalidRules(option="preset", value=self.preset)
        if self.ouvreur not in ("perdant", "suivant"):
            raise InvalidRules(option="ouvreur", value=self.ouvreur)
        for name in (
            "photo",
            "photo_memoire",
            "aveugle",
            "tapote",
            "seconde_chance",
            "warrior_fragile",
            "inversion_maya",
            "fautes",
        ):
            if not isinstance(getattr(self, name), bool):
                raise InvalidRules(option=name, value=getattr(self, name))
        if (
            not isinstance(self.vies, int)
            or isinstance(self.vies, bool)
            or not 1 <= self.vies <= 10
        ):
            raise InvalidRules(option="vies", value=self.vies)
        if not isinstance(self.gage, str) or not 1 <= len(self.gage.strip()) <= MAX_GAGE:
            raise InvalidRules(option="gage", value=self.gage)
        return self


# --------------------------------------------------------------------------- actions


@dataclass(frozen=True, slots=True)
class Roll:
    """The opener rolls to open a round (``blind``: without looking; ``reverse``: after a Maya)."""

    player: int
    dice: Dice | None = None
    blind: bool = False
    reverse: bool = False


@dataclass(frozen=True, slots=True)
class Announce:
    player: int
    value: int


@dataclass(frozen=True, slots=True)
class Photo:
    """Announce exactly the previous announcement."""

    player: int


@dataclass(frozen=True, slots=True)
class Tap:
    """Tapote: tap die ``die`` (0 or 1) without looking; ``face`` is where it lands."""

    player: int
    die: int
    face: int | None = None


@dataclass(frozen=True, slots=True)
class SecondChance:
    """Re-roll both dice without looking."""

    player: int
    dice: Dice | None = None


@dataclass(frozen=True, slots=True)
class Believe:
    """Take the cup and roll fresh dice (``blind``: without looking at them)."""

    player: int
    dice: Dice | None = None
    blind: bool = False


@dataclass(frozen=True, slots=True)
class Lift:
    player: int


@dataclass(frozen=True, slots=True)
class Fragile:
    """Party preset: believe a Maya and submit (one sip)."""

    player: int


@dataclass(frozen=True, slots=True)
class Warrior:
    """Party preset: believe a Maya and roll once, in the open, to equal it."""

    player: int
    dice: Dice | None = None


@dataclass(frozen=True, slots=True)
class AcceptMaya:
    """Believe a Maya without looking and pay one penalty (lives preset, or no Warrior/Fragile)."""

    player: int


@dataclass(frozen=True, slots=True)
class Accuse:
    """Cry *faute de jeu* against another player."""

    player: int
    accused: int
    motive: str = ""


@dataclass(frozen=True, slots=True)
class AcceptFault:
    player: int
    fault: int


@dataclass(frozen=True, slots=True)
class ContestFault:
    player: int
    fault: int


@dataclass(frozen=True, slots=True)
class Vote:
    player: int
    fault: int
    guilty: bool


@dataclass(frozen=True, slots=True)
class WithdrawVote:
    """A voter takes their reaction back: they have not voted any more (RULES.md §1)."""

    player: int
    fault: int


@dataclass(frozen=True, slots=True)
class CloseVote:
    """The vote's time is up (sent by the table's timer): judge on the votes cast."""

    fault: int


@dataclass(frozen=True, slots=True)
class Appeal:
    player: int
    fault: int


@dataclass(frozen=True, slots=True)
class Join:
    player: int


@dataclass(frozen=True, slots=True)
class Leave:
    player: int


@dataclass(frozen=True, slots=True)
class Stop:
    """End the game now (the table checks who may stop it)."""


Action = (
    Roll
    | Announce
    | Photo
    | Tap
    | SecondChance
    | Believe
    | Lift
    | Fragile
    | Warrior
    | AcceptMaya
    | Accuse
    | AcceptFault
    | ContestFault
    | Vote
    | WithdrawVote
    | CloseVote
    | Appeal
    | Join
    | Leave
    | Stop
)


# --------------------------------------------------------------------------- events


def _public(kind: str, **data: Any) -> Event:
    return Event(kind, data)


# --------------------------------------------------------------------------- state


@dataclass(slots=True)
class Seat:
    player: int
    status: str = IN
    sips: int = 0
    glasses: int = 0
    lives: int = 0

    def copy(self) -> Seat:
        return Seat(self.player, self.status, self.sips, self.glasses, self.lives)


@dataclass(slots=True)
class Fault:
    id: int
    accuser: int
    accused: int
    motive: str
    status: str = "pending"  # "pending" (accused to answer), "voting", "guilty" (appealable)
    voters: list[int] = field(default_factory=list)
    guilty_votes: list[int] = field(default_factory=list)
    innocent_votes: list[int] = field(default_factory=list)

    def copy(self) -> Fault:
        return Fault(
            self.id,
            self.accuser,
            self.accused,
            self.motive,
            self.status,
            list(self.voters),
            list(self.guilty_votes),
            list(self.innocent_votes),
        )


@dataclass(slots=True)
class State:
    rules: Rules
    seats: list[Seat]
    direction: int = 1
    phase: str = OPEN
    current: int | None = None  # the one player whose turn it is (None when over)
    round: int = 0
    step: int = 0  # counts decision points: changes whenever the phase or the current player does
    cup: Dice | None = None  # the real dice under the cup
    seen: Dice | None = None  # what the holder last saw of them (None: never looked)
    holder: int | None = None  # whose dice are in the cup
    play: str | None = None  # blind play made this turn (aveugle / tapote / seconde_chance)
    announced: int | None = None  # value to beat (for a Photo: the value it copied)
    announcer: int | None = None
    photo: bool = False  # the last announcement was a Photo
    blind_announce: bool = False  # the last announcement was made without knowing the dice
    may_reverse: bool = False  # the opener may reverse the direction (after a Maya)
    faults: list[Fault] = field(default_factory=list)
    next_fault: int = 1
    winner: int | None = None

    def copy(self) -> State:
        return State(
            self.rules,
            [seat.copy() for seat in self.seats],
            self.direction,
            self.phase,
            self.current,
            self.round,
            self.step,
            self.cup,
            self.seen,
            self.holder,
            self.play,
            self.announced,
            self.announcer,
            self.photo,
            self.blind_announce,
            self.may_reverse,
            [fault.copy() for fault in self.faults],
            self.next_fault,
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
        """Players in the game now, in seating order."""
        return [seat.player for seat in self.seats if seat.status == IN]

    def fault(self, fault_id: int) -> Fault | None:
        for fault in self.faults:
            if fault.id == fault_id:
                return fault
        return None

    def next_after(self, player: int, *, include_self: bool = False) -> int:
        """The next active player after ``player`` in the direction of play.

        ``player`` need not be active any more (a loser just eliminated, a leaver):
        the seating order still says who sits next.
        """
        seats = self.seats
        count = len(seats)
        index = next(i for i, seat in enumerate(seats) if seat.player == player)
        if include_self and seats[index].status == IN:
            return player
        for step in range(1, count + 1):
            seat = seats[(index + step * self.direction) % count]
            if seat.status == IN:
                return seat.player
        raise GameOver()

    # ---- JSON

    def to_json(self) -> dict[str, Any]:
        return {
            "schema": SCHEMA_VERSION,
            "game": "maya",
            "rules": asdict(self.rules),
            "seats": [
                {
                    "player": seat.player,
                    "status": seat.status,
                    "sips": seat.sips,
                    "glasses": seat.glasses,
                    "lives": seat.lives,
                }
                for seat in self.seats
            ],
            "direction": self.direction,
            "phase": self.phase,
            "current": self.current,
            "round": self.round,
            "step": self.step,
            "cup": list(self.cup) if self.cup else None,
            "seen": list(self.seen) if self.seen else None,
            "holder": self.holder,
            "play": self.play,
            "announced": self.announced,
            "announcer": self.announcer,
            "photo": self.photo,
            "blind_announce": self.blind_announce,
            "may_reverse": self.may_reverse,
            "faults": [
                {
                    "id": fault.id,
                    "accuser": fault.accuser,
                    "accused": fault.accused,
                    "motive": fault.motive,
                    "status": fault.status,
                    "voters": list(fault.voters),
                    "guilty_votes": list(fault.guilty_votes),
                    "innocent_votes": list(fault.innocent_votes),
                }
                for fault in self.faults
            ],
            "next_fault": self.next_fault,
            "winner": self.winner,
        }

    @classmethod
    def from_json(cls, raw: dict[str, Any]) -> State:
        if raw.get("schema") != SCHEMA_VERSION or raw.get("game") != "maya":
            raise ValueError(f"not a Maya state of schema {SCHEMA_VERSION}")
        return cls(
            rules=Rules(**raw["rules"]).validated(),
            seats=[Seat(**seat) for seat in raw["seats"]],
            direction=raw["direction"],
            phase=raw["phase"],
            current=raw["current"],
            round=raw["round"],
            step=raw["step"],
            cup=_dice_or_none(raw["cup"]),
            seen=_dice_or_none(raw["seen"]),
            holder=raw["holder"],
            play=raw["play"],
            announced=raw["announced"],
            announcer=raw["announcer"],
            photo=raw["photo"],
            blind_announce=raw["blind_announce"],
            may_reverse=raw["may_reverse"],
            faults=[Fault(**fault) for fault in raw["faults"]],
            next_fault=raw["next_fault"],
            winner=raw["winner"],
        )


def _dice_or_none(raw: list[int] | None) -> Dice | None:
    return (raw[0], raw[1]) if raw else None


def new_game(players: list[int], rules: Rules | None = None) -> State:
    """A game whose first round the first player opens; seating order is the list's order."""
    rules = (rules or Rules()).validated()
    if len(set(players)) != len(players):
        raise InvalidPlayers(reason="duplicate", players=list(players))
    if not MIN_PLAYERS <= len(players) <= MAX_PLAYERS:
        raise InvalidPlayers(reason="count", count=len(players))
    lives = rules.vies if rules.lives else 0
    return State(
        rules=rules,
        seats=[Seat(player, lives=lives) for player in players],
        current=players[0],
    )


# --------------------------------------------------------------------------- legal actions


def legal_actions(state: State, player: int) -> list[Action]:
    """What ``player`` may do now. Actions that roll come with ``dice=None``: see ``complete``."""
    if state.phase == OVER:
        return []
    seat = state.seat(player)
    if seat is None or seat.status == LEFT:
        joinable = _seated_count(state) < MAX_PLAYERS
        return [Join(player)] if joinable else []
    if seat.status == OUT:
        return []
    actions: list[Action] = []
    if seat.status == IN and state.current == player:
        actions.extend(_turn_actions(state, player))
    actions.extend(_fault_actions(state, player, seat))
    actions.append(Leave(player))
    return actions


def turn_actions(state: State, player: int) -> list[Action]:
    """The legal actions that play ``player``'s turn (no joining, leaving or fautes).

    What a CPU may do for a seat, or for a player whose time ran out.
    """
    seat = state.seat(player)
    if state.phase == OVER or seat is None or seat.status != IN or state.current != player:
        return []
    return _turn_actions(state, player)


def _turn_actions(state: State, player: int) -> list[Action]:
    rules = state.rules
    phase = state.phase
    if phase == OPEN:
        blinds = (False, True) if rules.aveugle else (False,)
        reverses = (False, True) if state.may_reverse else (False,)
        return [Roll(player, None, blind, reverse) for reverse in reverses for blind in blinds]
    if phase == ANNOUNCE:
        actions: list[Action] = list(_announcements(player, state.announced))
        if _photo_refusal(state) is None:
            actions.append(Photo(player))
        if state.play is None and state.seen is not None:
            if rules.tapote:
                actions.extend((Tap(player, 0), Tap(player, 1)))
            if rules.seconde_chance:
                actions.append(SecondChance(player))
        return actions
    # RESPOND
    if state.announced == MAYA:
        if not rules.lives and rules.warrior_fragile:
            return [Lift(player), Fragile(player), Warrior(player)]
        return [Lift(player), AcceptMaya(player)]
    actions = [Lift(player), Believe(player)]
    if rules.aveugle:
        actions.append(Believe(player, None, True))
    return actions


@lru_cache(maxsize=4096)
def _announcements(player: int, above: int | None) -> tuple[Announce, ...]:
    """Announce actions are immutable: build each list once per player and value to beat."""
    return tuple(Announce(player, value) for value in d.values_above(above))


def _fault_actions(state: State, player: int, seat: Seat) -> list[Action]:
    if not state.rules.fautes or state.rules.lives:
        return []
    actions: list[Action] = []
    accusing = False
    for fault in state.faults:
        if fault.accuser == player and fault.status in ("pending", "voting"):
            accusing = True
        if fault.accused == player:
            if fault.status == "pending":
                actions.append(AcceptFault(player, fault.id))
                actions.append(ContestFault(player, fault.id))
            elif fault.status == "guilty":
                actions.append(Appeal(player, fault.id))
        elif fault.status == "voting" and player in fault.voters:
            # A vote counts as it stands when the vote closes: it may be changed or withdrawn.
            cast = cast_vote(fault, player)
            actions.extend(Vote(player, fault.id, side) for side in (True, False) if side != cast)
            if cast is not None:
                actions.append(WithdrawVote(player, fault.id))
    if not accusing and seat.status in AT_TABLE:
        others = tuple(s.player for s in state.seats if s.status in AT_TABLE and s.player != player)
        actions.extend(_accusations(player, others))
    return actions


def cast_vote(fault: Fault, player: int) -> bool | None:
    """``player``'s vote on ``fault`` as it stands: guilty, innocent, or none."""
    if player in fault.guilty_votes:
        return True
    if player in fault.innocent_votes:
        return False
    return None


@lru_cache(maxsize=4096)
def _accusations(player: int, others: tuple[int, ...]) -> tuple[Accuse, ...]:
    return tuple(Accuse(player, other) for other in others)


def _seated_count(state: State) -> int:
    return sum(1 for seat in state.seats if seat.status in (IN, WAITING))


def _photo_refusal(state: State) -> str | None:
    """Why a Photo is not allowed now, or None when it is."""
    if not state.rules.photo:
        return "disabled"
    if state.announced is None:
        return "no_announcement"
    if state.photo:
        return "after_photo"
    if state.announced == MAYA:
        return "on_maya"
    return None


def complete(state: State, action: Action, rng: random.Random) -> Action:
    """Fill in the dice an action rolls, from the caller's generator (no-op otherwise)."""
    kind = type(action)
    if kind is Roll and action.dice is None:
        return Roll(action.player, d.roll(rng), action.blind, action.reverse)
    if kind is Believe and action.dice is None:
        return Believe(action.player, d.roll(rng), action.blind)
    if kind in (SecondChance, Warrior) and action.dice is None:
        return kind(action.player, d.roll(rng))
    if kind is Tap and action.face is None and state.cup is not None and action.die in (0, 1):
        # Another die is no die of the cup: ``apply`` refuses it as it is.
        return Tap(action.player, action.die, d.tap(state.cup[action.die], rng))
    return action


# --------------------------------------------------------------------------- apply


def apply(state: State, action: Action) -> tuple[State, list[Event]]:
    """Check ``action`` against the rules and return the next state and what happened."""
    return core.apply(state, action, _DECIDERS, _EVOLVERS)


def replay(state: State, events: list[Event]) -> State:
    """Fold ``events`` onto a copy of ``state``."""
    return core.replay(state, events, _EVOLVERS)


# ---- checks shared by the deciders


def _seated(state: State, player: int) -> Seat:
    seat = state.seat(player)
    if seat is None or seat.status == LEFT:
        raise UnknownPlayer(player=player)
    if seat.status == OUT:
        raise Eliminated(player=player)
    return seat


def _turn(state: State, player: int, phase: str, action: str) -> None:
    seat = _seated(state, player)
    if seat.status != IN or state.current != player:
        raise NotYourTurn(player=player, current=state.current)
    if state.phase != phase:
        raise NotNow(action=action, phase=state.phase)


def _check_dice(dice: Dice | None) -> Dice:
    if (
        dice is None
        or len(dice) != 2
        or not all(isinstance(pip, int) and 1 <= pip <= 6 for pip in dice)
    ):
        raise InvalidDice(dice=dice)
    return (dice[0], dice[1])


def _rolled(player: int, dice: Dice, *, blind: bool, believed: bool = False) -> list[Event]:
    """A roll: public news that the cup was shaken, the dice to the owner (or to nobody)."""
    return [
        _public("rolled", player=player, blind=blind, believed=believed),
        Event(
            "dice",
            {"player": player, "dice": list(dice)},
            SECRET if blind else PRIVATE,
            None if blind else player,
        ),
    ]


# ---- deciders: state + action -> events (raise GameError when illegal)


def _decide_roll(state: State, action: Roll) -> list[Event]:
    _turn(state, action.player, OPEN, "roll")
    dice = _check_dice(action.dice)
    if action.blind and not state.rules.aveugle:
        raise OptionDisabled(option="aveugle")
    events: list[Event] = []
    if action.reverse:
        if not state.may_reverse:
            raise NotNow(action="reverse", phase=state.phase)
        events.append(
            _public("direction_reversed", player=action.player, direction=-state.direction)
        )
    seated = [seat.player for seat in state.seats if seat.status == WAITING]
    events.append(
        _public("round_started", round=state.round + 1, opener=action.player, seated=seated)
    )
    events.extend(_rolled(action.player, dice, blind=action.blind))
    return events


def _decide_announce(state: State, action: Announce) -> list[Event]:
    _turn(state, action.player, ANNOUNCE, "announce")
    value = action.value
    if not d.is_value(value):
        raise UnknownValue(value=value)
    if state.announced is not None and RANK[value] <= RANK[state.announced]:
        above = d.values_above(state.announced)
        raise AnnouncementTooLow(
            value=value, previous=state.announced, minimum=above[0] if above else None
        )
    return [_announced(state, action.player, value, photo=False)]


def _decide_photo(state: State, action: Photo) -> list[Event]:
    _turn(state, action.player, ANNOUNCE, "photo")
    refusal = _photo_refusal(state)
    if refusal is not None:
        raise PhotoNotAllowed(reason=refusal)
    assert state.announced is not None
    return [_announced(state, action.player, state.announced, photo=True)]


def _announced(state: State, player: int, value: int, *, photo: bool) -> Event:
    blind = state.play is not None or state.seen != state.cup
    return _public(
        "announced",
        player=player,
        value=value,
        photo=photo,
        blind=blind,
        next=state.next_after(player),
    )


def _decide_tap(state: State, action: Tap) -> list[Event]:
    _turn(state, action.player, ANNOUNCE, "tap")
    if not state.rules.tapote:
        raise OptionDisabled(option="tapote")
    _check_blind_play_allowed(state)
    if action.die not in (0, 1):
        raise InvalidDice(die=action.die)
    assert state.cup is not None
    before = state.cup[action.die]
    if action.face is None or (action.face != before and action.face not in d.neighbours(before)):
        raise InvalidDice(face=action.face, before=before)
    dice = list(state.cup)
    dice[action.die] = action.face
    return [
        _public("tapped", player=action.player, die=action.die),
        Event("dice", {"player": action.player, "dice": dice}, SECRET),
    ]


def _decide_second_chance(state: State, action: SecondChance) -> list[Event]:
    _turn(state, action.player, ANNOUNCE, "second_chance")
    if not state.rules.seconde_chance:
        raise OptionDisabled(option="seconde_chance")
    _check_blind_play_allowed(state)
    dice = _check_dice(action.dice)
    return [
        _public("second_chance", player=action.player),
        Event("dice", {"player": action.player, "dice": list(dice)}, SECRET),
    ]


def _check_blind_play_allowed(state: State) -> None:
    if state.play is not None:
        raise BlindPlayNotAllowed(reason="already", play=state.play)
    if state.seen is None:
        raise BlindPlayNotAllowed(reason="not_looked")


def _decide_believe(state: State, action: Believe) -> list[Event]:
    _turn(state, action.player, RESPOND, "believe")
    if state.announced == MAYA:
        raise NotNow(action="believe", phase=state.phase, announced=MAYA)
    dice = _check_dice(action.dice)
    if action.blind and not state.rules.aveugle:
        raise OptionDisabled(option="aveugle")
    believed = _public(
        "believed", player=action.player, announcer=state.announcer, blind=action.blind
    )
    return [believed, *_rolled(action.player, dice, blind=action.blind, believed=True)]


def _decide_lift(state: State, action: Lift) -> list[Event]:
    _turn(state, action.player, RESPOND, "lift")
    assert state.cup is not None and state.announced is not None and state.announcer is not None
    lifter, announcer, announced = action.player, state.announcer, state.announced
    value = d.read(state.cup)
    truthful = RANK[value] >= RANK[announced]
    events = [
        _public("lifted", player=lifter, announcer=announcer),
        _public(
            "revealed",
            player=announcer,
            lifter=lifter,
            dice=list(state.cup),
            value=value,
            announced=announced,
            photo=state.photo,
            truthful=truthful,
        ),
    ]
    loser = lifter if truthful else announcer
    if announced != MAYA:
        return events + _penalty(state, loser, "lift", receiver=None)
    if state.rules.lives:
        return events + _lose_lives(state, loser, 2 if truthful else 1, "maya_lift")
    return events + _glass(state, loser, "maya_lift", receiver=lifter)


def _decide_fragile(state: State, action: Fragile) -> list[Event]:
    _maya_response(state, action.player, "fragile", warrior_fragile=True)
    return [
        _public("maya_believed", player=action.player, style="fragile"),
        _public("drank", player=action.player, sips=1, glasses=0, reason="fragile"),
        _round_ended(state, action.player, receiver=action.player),
    ]


def _decide_accept_maya(state: State, action: AcceptMaya) -> list[Event]:
    _maya_response(state, action.player, "accept_maya", warrior_fragile=False)
    events = [_public("maya_believed", player=action.player, style="accept")]
    if state.rules.lives:
        return events + _lose_lives(state, action.player, 1, "maya_accepted")
    return events + _penalty(state, action.player, "maya_accepted", receiver=action.player)


def _decide_warrior(state: State, action: Warrior) -> list[Event]:
    _maya_response(state, action.player, "warrior", warrior_fragile=True)
    dice = _check_dice(action.dice)
    value = d.read(dice)
    verifier = state.next_after(action.player)
    success = value == MAYA
    loser = verifier if success else action.player
    return [
        _public("maya_believed", player=action.player, style="warrior"),
        _public(
            "warrior_rolled",
            player=action.player,
            dice=list(dice),
            value=value,
            success=success,
            verifier=verifier,
        ),
        _public("drank", player=loser, sips=0, glasses=1, reason="warrior"),
        _round_ended(state, loser, receiver=action.player),
    ]


def _maya_response(state: State, player: int, action: str, *, warrior_fragile: bool) -> None:
    _turn(state, player, RESPOND, action)
    if state.announced != MAYA:
        raise NotNow(action=action, phase=state.phase)
    offered = not state.rules.lives and state.rules.warrior_fragile
    if offered != warrior_fragile:
        raise OptionDisabled(option="warrior_fragile")


# ---- penalties and the end of a round


def _penalty(state: State, loser: int, reason: str, *, receiver: int | None) -> list[Event]:
    """One unit of the table's penalty (a sip or a life) for ``loser``, then the round ends."""
    if state.rules.lives:
        return _lose_lives(state, loser, 1, reason)
    return [
        _public("drank", player=loser, sips=1, glasses=0, reason=reason),
        _round_ended(state, loser, receiver=receiver),
    ]


def _glass(state: State, loser: int, reason: str, *, receiver: int) -> list[Event]:
    return [
        _public("drank", player=loser, sips=0, glasses=1, reason=reason),
        _round_ended(state, loser, receiver=receiver),
    ]


def _lose_lives(state: State, loser: int, lives: int, reason: str) -> list[Event]:
    seat = state.seat(loser)
    assert seat is not None
    lost = min(lives, seat.lives)
    remaining = seat.lives - lost
    events = [_public("life_lost", player=loser, lives=lost, remaining=remaining, reason=reason)]
    if remaining > 0:
        return [*events, _round_ended(state, loser, receiver=None)]
    events.append(_public("eliminated", player=loser))
    survivors = [p for p in state.active() if p != loser]
    waiting = [seat.player for seat in state.seats if seat.status == WAITING]
    if len(survivors) + len(waiting) <= 1:
        events.append(_public("game_won", player=survivors[0]))
        return events
    return [*events, _round_ended(state, loser, receiver=None, loser_out=True)]


def _round_ended(
    state: State, loser: int, *, receiver: int | None, loser_out: bool = False
) -> Event:
    """Who opens next: after a party Maya its receiver (who may reverse); else ``ouvreur``."""
    if receiver is not None and not state.rules.lives:
        return _public(
            "round_ended",
            loser=loser,
            opener=receiver,
            may_reverse=state.rules.inversion_maya,
        )
    if state.rules.ouvreur == "perdant" and not loser_out:
        opener = loser
    else:
        opener = _next_skipping(state, loser, skip=loser)
    return _public("round_ended", loser=loser, opener=opener, may_reverse=False)


def _next_skipping(state: State, player: int, *, skip: int) -> int:
    """The next active player after ``player``, not counting ``skip`` (just eliminated or gone)."""
    seats = state.seats
    count = len(seats)
    index = next(i for i, seat in enumerate(seats) if seat.player == player)
    for step in range(1, count + 1):
        seat = seats[(index + step * state.direction) % count]
        if seat.status == IN and seat.player != skip:
            return seat.player
    raise GameOver()


# ---- fautes de jeu


def _check_fautes(state: State) -> None:
    if state.rules.lives or not state.rules.fautes:
        raise OptionDisabled(option="fautes")


def _open_fault(state: State, fault_id: int) -> Fault:
    fault = state.fault(fault_id)
    if fault is None:
        raise UnknownFault(fault=fault_id)
    return fault


def _decide_accuse(state: State, action: Accuse) -> list[Event]:
    _check_fautes(state)
    seat = _seated(state, action.player)
    if seat.status not in AT_TABLE:
        raise FaultNotAllowed(reason="not_playing")
    accused = state.seat(action.accused)
    # Someone who joined during a round sits at the table already (they play the next one).
    if accused is None or accused.status not in AT_TABLE:
        raise UnknownPlayer(player=action.accused)
    if action.accused == action.player:
        raise FaultNotAllowed(reason="self")
    if any(f.accuser == action.player and f.status in ("pending", "voting") for f in state.faults):
        raise FaultNotAllowed(reason="already_accusing")
    motive = " ".join(action.motive.split())
    if len(motive) > MAX_MOTIVE:
        raise FaultNotAllowed(reason="motive_too_long", limit=MAX_MOTIVE)
    return [
        _public(
            "fault_raised",
            fault=state.next_fault,
            accuser=action.player,
            accused=action.accused,
            motive=motive,
        )
    ]


def _decide_accept_fault(state: State, action: AcceptFault) -> list[Event]:
    _check_fautes(state)
    fault = _open_fault(state, action.fault)
    if fault.accused != action.player or fault.status != "pending":
        raise FaultNotAllowed(reason="not_pending_for_you")
    return [
        _public("fault_accepted", fault=fault.id, player=action.player),
        _public("drank", player=action.player, sips=1, glasses=0, reason="faute"),
    ]


def _decide_contest_fault(state: State, action: ContestFault) -> list[Event]:
    _check_fautes(state)
    fault = _open_fault(state, action.fault)
    if fault.accused != action.player or fault.status != "pending":
        raise FaultNotAllowed(reason="not_pending_for_you")
    voters = [
        seat.player
        for seat in state.seats
        if seat.status in AT_TABLE and seat.player != fault.accused
    ]
    return [_public("fault_contested", fault=fault.id, player=action.player, voters=voters)]


def _decide_vote(state: State, action: Vote) -> list[Event]:
    _check_fautes(state)
    fault = _open_fault(state, action.fault)
    _check_voter(state, fault, action.player)
    cast = cast_vote(fault, action.player)
    if cast == bool(action.guilty):
        raise AlreadyVoted(fault=fault.id, player=action.player)
    events = [
        _public("vote_cast", fault=fault.id, player=action.player, guilty=bool(action.guilty))
    ]
    guilty = len(fault.guilty_votes) - (cast is True) + (1 if action.guilty else 0)
    innocent = len(fault.innocent_votes) - (cast is False) + (0 if action.guilty else 1)
    if guilty + innocent == len(fault.voters):
        events.extend(_judged(fault, guilty, innocent))
    return events


def _check_voter(state: State, fault: Fault, player: int) -> None:
    """``player`` votes on ``fault`` now: one of its voters, still at the table (a voter who
    left keeps the vote they cast, but may no longer change it)."""
    seat = state.seat(player)
    at_table = seat is not None and seat.status in AT_TABLE
    if fault.status != "voting" or player not in fault.voters or not at_table:
        raise NotAVoter(fault=fault.id, player=player)


def _decide_withdraw_vote(state: State, action: WithdrawVote) -> list[Event]:
    _check_fautes(state)
    fault = _open_fault(state, action.fault)
    _check_voter(state, fault, action.player)
    if cast_vote(fault, action.player) is None:
        raise NotNow(action="withdraw_vote", fault=fault.id)
    return [_public("vote_withdrawn", fault=fault.id, player=action.player)]


def _decide_close_vote(state: State, action: CloseVote) -> list[Event]:
    _check_fautes(state)
    fault = _open_fault(state, action.fault)
    if fault.status != "voting":
        raise NotNow(action="close_vote", fault=fault.id)
    return _judged(fault, len(fault.guilty_votes), len(fault.innocent_votes))


def _judged(fault: Fault, guilty: int, innocent: int) -> list[Event]:
    """A strict majority of the votes cast convicts; a tie acquits."""
    verdict = guilty > innocent
    events = [
        _public("fault_judged", fault=fault.id, accused=fault.accused, guilty=verdict,
                guilty_votes=guilty, innocent_votes=innocent)
    ]  # fmt: skip
    if verdict:
        events.append(_public("drank", player=fault.accused, sips=1, glasses=0, reason="faute"))
    return events


def _decide_appeal(state: State, action: Appeal) -> list[Event]:
    _check_fautes(state)
    fault = _open_fault(state, action.fault)
    if fault.accused != action.player or fault.status != "guilty":
        raise FaultNotAllowed(reason="nothing_to_appeal")
    return [_public("fault_appealed", fault=fault.id, player=action.player, rejected=True)]


# ---- joining, leaving, stopping


def _decide_join(state: State, action: Join) -> list[Event]:
    seat = state.seat(action.player)
    if seat is not None and seat.status == OUT:
        raise Eliminated(player=action.player)
    if seat is not None and seat.status != LEFT:
        raise AlreadySeated(player=action.player)
    if _seated_count(state) >= MAX_PLAYERS:
        raise TableFull(limit=MAX_PLAYERS)
    lives = 0
    if state.rules.lives:
        # Nobody gains by joining late: start with the fewest lives anyone has now.
        lives = min(s.lives for s in state.seats if s.status == IN)
        if seat is not None:
            lives = min(lives, seat.lives)
    seated = state.phase == OPEN
    return [_public("player_joined", player=action.player, seated=seated, lives=lives)]


def _decide_leave(state: State, action: Leave) -> list[Event]:
    seat = _seated(state, action.player)
    player = action.player
    events = [_public("player_left", player=player)]
    for fault in state.faults:
        if fault.accused == player:
            events.append(_public("fault_dropped", fault=fault.id, reason="accused_left"))
        elif fault.status == "voting" and player in fault.voters:
            voted = player in fault.guilty_votes or player in fault.innocent_votes
            remaining = len(fault.voters) - (0 if voted else 1)
            cast = len(fault.guilty_votes) + len(fault.innocent_votes)
            if not voted and remaining > 0 and cast == remaining:
                events.extend(_judged(fault, len(fault.guilty_votes), len(fault.innocent_votes)))
    remaining = [p for p in state.active() if p != player]
    waiting = [s.player for s in state.seats if s.status == WAITING and s.player != player]
    if len(remaining) + len(waiting) < MIN_PLAYERS:
        if state.rules.lives and remaining:
            events.append(_public("game_won", player=remaining[0]))
        else:
            events.append(_public("game_ended", reason="players_left"))
        return events
    if seat.status == WAITING:
        return events
    # Too few players left in the round itself: it cannot go on, seat the waiting ones now.
    short = len(remaining) < MIN_PLAYERS
    seated = waiting if short else []
    if state.phase == OPEN:
        if state.current == player or short:
            opener = _next_opener(state, player, seated)
            events.append(_public("turn_passed", player=opener, seated=seated))
        return events
    in_round = player in (state.current, state.announcer)
    if in_round or short:
        if player == state.announcer and state.current != player and not short:
            opener = state.current
        else:
            opener = _next_opener(state, player, seated)
        events.append(_public("round_abandoned", opener=opener, seated=seated))
    return events


def _next_opener(state: State, leaver: int, seated: list[int]) -> int:
    """Who opens after ``leaver`` leaves: the next player in the game, or about to be seated."""
    seats = state.seats
    count = len(seats)
    index = next(i for i, seat in enumerate(seats) if seat.player == leaver)
    for step in range(1, count + 1):
        seat = seats[(index + step * state.direction) % count]
        if seat.player != leaver and (seat.status == IN or seat.player in seated):
            return seat.player
    raise GameOver()


def _decide_stop(state: State, action: Stop) -> list[Event]:
    return [_public("game_ended", reason="stopped")]


_DECIDERS: dict[type, Any] = {
    Roll: _decide_roll,
    Announce: _decide_announce,
    Photo: _decide_photo,
    Tap: _decide_tap,
    SecondChance: _decide_second_chance,
    Believe: _decide_believe,
    Lift: _decide_lift,
    Fragile: _decide_fragile,
    Warrior: _decide_warrior,
    AcceptMaya: _decide_accept_maya,
    Accuse: _decide_accuse,
    AcceptFault: _decide_accept_fault,
    ContestFault: _decide_contest_fault,
    Vote: _decide_vote,
    WithdrawVote: _decide_withdraw_vote,
    CloseVote: _decide_close_vote,
    Appeal: _decide_appeal,
    Join: _decide_join,
    Leave: _decide_leave,
    Stop: _decide_stop,
}


# --------------------------------------------------------------------------- evolvers


def _seat_of(state: State, player: int) -> Seat:
    seat = state.seat(player)
    assert seat is not None
    return seat


def _clear_round(state: State) -> None:
    state.cup = state.seen = None
    state.holder = state.announced = state.announcer = None
    state.play = None
    state.photo = state.blind_announce = False


def _on_direction_reversed(state: State, event: Event) -> None:
    state.direction = event.data["direction"]


def _on_round_started(state: State, event: Event) -> None:
    state.round = event.data["round"]
    state.may_reverse = False
    for seat in state.seats:
        if seat.status == WAITING:
            seat.status = IN
    # The appeal window of a guilty verdict closes when the next round starts.
    state.faults = [fault for fault in state.faults if fault.status != "guilty"]


def _on_rolled(state: State, event: Event) -> None:
    player = event.data["player"]
    state.phase = ANNOUNCE
    state.step += 1
    state.current = state.holder = player
    state.play = AVEUGLE if event.data["blind"] else None
    state.seen = None


def _on_dice(state: State, event: Event) -> None:
    dice = event.data["dice"]
    state.cup = (dice[0], dice[1])
    if event.visibility == PRIVATE:
        state.seen = state.cup


def _on_tapped(state: State, event: Event) -> None:
    state.play = TAPOTE


def _on_second_chance(state: State, event: Event) -> None:
    state.play = SECONDE_CHANCE


def _on_announced(state: State, event: Event) -> None:
    data = event.data
    state.announced = data["value"]
    state.announcer = data["player"]
    state.photo = data["photo"]
    state.blind_announce = data["blind"]
    state.phase = RESPOND
    state.current = data["next"]
    state.step += 1


def _nothing(state: State, event: Event) -> None:
    """Events that only tell the story (the state changes come in the events that follow)."""


def _on_drank(state: State, event: Event) -> None:
    seat = _seat_of(state, event.data["player"])
    seat.sips += event.data["sips"]
    seat.glasses += event.data["glasses"]


def _on_life_lost(state: State, event: Event) -> None:
    _seat_of(state, event.data["player"]).lives = event.data["remaining"]


def _on_eliminated(state: State, event: Event) -> None:
    _seat_of(state, event.data["player"]).status = OUT


def _on_round_ended(state: State, event: Event) -> None:
    _clear_round(state)
    state.phase = OPEN
    state.current = event.data["opener"]
    state.may_reverse = event.data["may_reverse"]
    state.step += 1


def _on_game_won(state: State, event: Event) -> None:
    _clear_round(state)
    state.phase = OVER
    state.current = None
    state.winner = event.data["player"]
    state.step += 1


def _on_game_ended(state: State, event: Event) -> None:
    _clear_round(state)
    state.phase = OVER
    state.current = None
    state.step += 1


def _on_fault_raised(state: State, event: Event) -> None:
    data = event.data
    state.faults.append(Fault(data["fault"], data["accuser"], data["accused"], data["motive"]))
    state.next_fault = data["fault"] + 1


def _drop_fault(state: State, fault_id: int) -> None:
    state.faults = [fault for fault in state.faults if fault.id != fault_id]


def _on_fault_closed(state: State, event: Event) -> None:
    _drop_fault(state, event.data["fault"])


def _on_fault_contested(state: State, event: Event) -> None:
    fault = state.fault(event.data["fault"])
    assert fault is not None
    fault.status = "voting"
    fault.voters = list(event.data["voters"])


def _on_vote_cast(state: State, event: Event) -> None:
    _on_vote_withdrawn(state, event)  # a changed vote replaces the one before
    fault = state.fault(event.data["fault"])
    assert fault is not None
    votes = fault.guilty_votes if event.data["guilty"] else fault.innocent_votes
    votes.append(event.data["player"])


def _on_vote_withdrawn(state: State, event: Event) -> None:
    fault = state.fault(event.data["fault"])
    assert fault is not None
    player = event.data["player"]
    fault.guilty_votes = [p for p in fault.guilty_votes if p != player]
    fault.innocent_votes = [p for p in fault.innocent_votes if p != player]


def _on_fault_judged(state: State, event: Event) -> None:
    if event.data["guilty"]:
        fault = state.fault(event.data["fault"])
        assert fault is not None
        fault.status = "guilty"
    else:
        _drop_fault(state, event.data["fault"])


def _on_player_joined(state: State, event: Event) -> None:
    data = event.data
    status = IN if data["seated"] else WAITING
    seat = state.seat(data["player"])
    if seat is None:
        state.seats.append(Seat(data["player"], status, lives=data["lives"]))
    else:
        seat.status = status
        seat.lives = data["lives"]


def _on_player_left(state: State, event: Event) -> None:
    player = event.data["player"]
    _seat_of(state, player).status = LEFT
    for fault in state.faults:
        # A voter who leaves without having voted no longer holds the vote up.
        if fault.status == "voting" and player in fault.voters and cast_vote(fault, player) is None:
            fault.voters.remove(player)


def _seat_waiting(state: State, players: list[int]) -> None:
    for seat in state.seats:
        if seat.player in players:
            seat.status = IN


def _on_turn_passed(state: State, event: Event) -> None:
    _seat_waiting(state, event.data["seated"])
    state.current = event.data["player"]
    # Reversing was the Maya receiver's right, not the next opener's.
    state.may_reverse = False
    state.step += 1


def _on_round_abandoned(state: State, event: Event) -> None:
    _clear_round(state)
    _seat_waiting(state, event.data["seated"])
    state.phase = OPEN
    state.current = event.data["opener"]
    state.may_reverse = False
    state.step += 1


_EVOLVERS: dict[str, Any] = {
    "direction_reversed": _on_direction_reversed,
    "round_started": _on_round_started,
    "rolled": _on_rolled,
    "dice": _on_dice,
    "tapped": _on_tapped,
    "second_chance": _on_second_chance,
    "announced": _on_announced,
    "believed": _nothing,
    "lifted": _nothing,
    "revealed": _nothing,
    "maya_believed": _nothing,
    "warrior_rolled": _nothing,
    "drank": _on_drank,
    "life_lost": _on_life_lost,
    "eliminated": _on_eliminated,
    "round_ended": _on_round_ended,
    "game_won": _on_game_won,
    "game_ended": _on_game_ended,
    "fault_raised": _on_fault_raised,
    "fault_accepted": _on_fault_closed,
    "fault_contested": _on_fault_contested,
    "vote_cast": _on_vote_cast,
    "vote_withdrawn": _on_vote_withdrawn,
    "fault_judged": _on_fault_judged,
    "fault_appealed": _on_fault_closed,
    "fault_dropped": _on_fault_closed,
    "player_joined": _on_player_joined,
    "player_left": _on_player_left,
    "turn_passed": _on_turn_passed,
    "round_abandoned": _on_round_abandoned,
}


# --------------------------------------------------------------------------- what a player knows


@dataclass(frozen=True, slots=True)
class SeatView:
    player: int
    status: str
    sips: int
    glasses: int
    lives: int


@dataclass(frozen=True, slots=True)
class View:
    """What one player may know of the game: public facts and their own looked-at dice.

    CPU policies decide from this, never from ``State``, so they cannot peek under a cup.
    """

    player: int
    rules: Rules
    phase: str
    current: int | None
    round: int
    direction: int
    seats: tuple[SeatView, ...]
    announced: int | None
    announcer: int | None
    photo: bool
    blind_announce: bool
    may_reverse: bool
    my_dice: Dice | None  # the dice this player last looked at in their own cup
    my_play: str | None  # the blind play this player made this turn


def view(state: State, player: int) -> View:
    holding = state.holder == player and state.phase == ANNOUNCE
    return View(
        player=player,
        rules=state.rules,
        phase=state.phase,
        current=state.current,
        round=state.round,
        direction=state.direction,
        seats=tuple(SeatView(s.player, s.status, s.sips, s.glasses, s.lives) for s in state.seats),
        announced=state.announced,
        announcer=state.announcer,
        photo=state.photo,
        blind_announce=state.blind_announce,
        may_reverse=state.may_reverse,
        my_dice=state.seen if holding else None,
        my_play=state.play if holding else None,
    )
