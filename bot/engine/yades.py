"""Yadès (preset ``yades``) and international Yahtzee (preset ``classique``): RULES.md §2.

Same shape as the Maya engine (``bot.engine.maya``), whose ``Event`` and ``GameError``
family it shares so that storage, rendering and the error handler treat both alike:

- ``legal_actions(state, player)`` lists what a player may do now;
- ``apply(state, action)`` checks the action, *decides* its events, then *evolves* a
  copy of the state by folding them (an illegal action raises a ``GameError`` and leaves
  the state as it was); ``replay(initial, events)`` folds the same events again.

A score sheet is data (``Sheet``: a tuple of ``Box`` definitions and the sheet-wide
bonuses), so a server can remove or add boxes without code. Every roll is public: the
dice travel in public events. Dice are data too: ``Roll`` carries the fresh dice,
filled by the caller with ``complete`` from an injected ``random.Random``.
"""

from __future__ import annotations

import hashlib
import json
import random
import re
from collections.abc import Iterable, Mapping
from dataclasses import asdict, dataclass, field, fields, replace
from functools import lru_cache
from typing import Any

from bot.engine import core
from bot.engine.core import (
    PUBLIC,
    Event,
    GameError,
    GameOver,
    NotNow,
)
from bot.engine.maya import (
    InvalidDice,
    InvalidPlayers,
    InvalidRules,
    NotYourTurn,
    UnknownPlayer,
)

__all__ = [
    "PUBLIC",
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
DICE = 5
FACES = 6
MAX_ROLLS = 3
MAX_BOXES = 16  # the expert CPU solves 2**boxes sheet states
MAX_POINTS = 1000
MAX_BONUS_THRESHOLD = 200

YADES = "yades"
CLASSIQUE = "classique"
PRESETS: tuple[str, ...] = (YADES, CLASSIQUE)

# Phases.
PLAY = "play"
OVER = "over"

# Seat statuses.
IN = "in"
LEFT = "left"

# Sections of the sheet: the upper section's total earns the upper bonus.
UPPER = "upper"
LOWER = "lower"
SECTIONS: tuple[str, ...] = (UPPER, LOWER)

# Box kinds and what they score (``points`` = 0 means "the sum of the five dice").
FACE = "face"  # the dice showing ``face``, summed
OF_A_KIND = "of_a_kind"  # at least ``count`` alike: ``points`` or the sum
FULL_HOUSE = "full_house"  # exactly three alike and a pair of another face: ``points``
STRAIGHT = "straight"  # ``count`` consecutive faces among the dice: ``points``
FIVE_OF_A_KIND = "five_of_a_kind"  # five alike: ``points``
PRIME = "prime"  # five alike while the five-of-a-kind box holds its points: ``points``
CHANCE = "chance"  # anything: the sum
KINDS: tuple[str, ...] = (FACE, OF_A_KIND, FULL_HOUSE, STRAIGHT, FIVE_OF_A_KIND, PRIME, CHANCE)

# Joker rules for a further five of a kind (the five-of-a-kind box already filled, 50 or 0).
NO_JOKER = "none"
FORCED_JOKER = "forced"  # official: its upper box if open, else an open lower box at full value,
# else an upper box for 0
FREE_JOKER = "free"  # Verhoeff's solitaire rules: any open box; full value when its upper box
# is filled
JOKERS: tuple[str, ...] = (NO_JOKER, FORCED_JOKER, FREE_JOKER)

# Bonuses (``bonus_earned`` events).
UPPER_BONUS = "upper"
FIVE_BONUS = "five_of_a_kind"

_BOX_ID = re.compile(r"[a-z0-9_]{1,30}")

Dice = tuple[int, ...]


# --------------------------------------------------------------------------- errors


class InvalidKeep(GameError):
    """The dice to keep are not distinct positions 0..4 (or a 5-bit mask)."""

    code = "invalid_keep"


class MustRollAll(GameError):
    """The first roll of a turn rolls all five dice."""

    code = "must_roll_all"


class NoRollsLeft(GameError):
    code = "no_rolls_left"


class NothingToRoll(GameError):
    """Keeping all five dice is not a roll: score instead."""

    code = "nothing_to_roll"


class NotRolled(GameError):
    """A box is filled with dice: roll first."""

    code = "not_rolled"


class UnknownBox(GameError):
    code = "unknown_box"


class BoxFilled(GameError):
    code = "box_filled"


class JokerForced(GameError):
    """Classique's joker rule: an extra five of a kind must go to one of ``allowed``."""

    code = "joker_forced"


# --------------------------------------------------------------------------- the sheet


@dataclass(frozen=True, slots=True)
class Box:
    """One box of a score sheet. Unused parameters stay 0."""

    id: str
    kind: str
    section: str = LOWER
    face: int = 0  # FACE: the face counted
    count: int = 0  # OF_A_KIND: how many alike; STRAIGHT: how many consecutive faces
    points: int = 0  # fixed points (OF_A_KIND: 0 scores the sum of the dice)

    def validated(self) -> Box:
        def bad(option: str, value: Any) -> InvalidRules:
            return InvalidRules(option=f"box.{option}", value=value, box=self.id)

        if not isinstance(self.id, str) or not _BOX_ID.fullmatch(self.id):
            raise bad("id", self.id)
        if self.kind not in KINDS:
            raise bad("kind", self.kind)
        if self.section not in SECTIONS:
            raise bad("section", self.section)
        for name in ("face", "count", "points"):
            value = getattr(self, name)
            if not isinstance(value, int) or isinstance(value, bool) or value < 0:
                raise bad(name, value)
        if self.points > MAX_POINTS:
            raise bad("points", self.points)
        needs_face = self.kind == FACE
        if needs_face != (1 <= self.face <= FACES) or (not needs_face and self.face):
            raise bad("face", self.face)
        counted = {OF_A_KIND: (2, DICE), STRAIGHT: (2, DICE)}.get(self.kind)
        if counted is None and self.count:
            raise bad("count", self.count)
        if counted is not None and not counted[0] <= self.count <= counted[1]:
            raise bad("count", self.count)
        if self.kind in (FACE, CHANCE) and self.points:
            raise bad("points", self.points)
        if self.kind in (FULL_HOUSE, STRAIGHT, FIVE_OF_A_KIND, PRIME) and not self.points:
            raise bad("points", self.points)
        return self

    @classmethod
    def from_json(cls, raw: Mapping[str, Any]) -> Box:
        known = {f.name for f in fields(cls)}
        if not isinstance(raw, Mapping) or set(raw) - known or "id" not in raw:
            raise InvalidRules(option="box", value=str(raw))
        return cls(**raw).validated()


@dataclass(frozen=True, slots=True)
class Sheet:
    """A score sheet: its boxes in order, the upper bonus and the five-of-a-kind extras."""

    boxes: tuple[Box, ...]
    bonus_threshold: int = 63
    bonus_strict: bool = False  # True: the upper total must be strictly above the threshold
    bonus_points: int = 35
    five_bonus: int = 0  # per further five of a kind while the five-of-a-kind box holds its points
    joker: str = NO_JOKER  # the joker rule for further fives of a kind (classique: forced)

    @property
    def bonus_target(self) -> int:
        """The least upper total that earns the upper bonus."""
        return self.bonus_threshold + (1 if self.bonus_strict else 0)

    @property
    def ids(self) -> tuple[str, ...]:
        return tuple(box.id for box in self.boxes)

    def box(self, box_id: str) -> Box | None:
        for box in self.boxes:
            if box.id == box_id:
                return box
        return None

    @property
    def five_box(self) -> Box | None:
        return next((box for box in self.boxes if box.kind == FIVE_OF_A_KIND), None)

    def face_box(self, face: int) -> Box | None:
        """The upper box counting ``face`` (the joker rule's "its upper box")."""
        return next(
            (b for b in self.boxes if b.kind == FACE and b.face == face and b.section == UPPER),
            None,
        )

    def without(self, *box_ids: str) -> Sheet:
        for box_id in box_ids:
            if self.box(box_id) is None:
                raise InvalidRules(option="remove", value=box_id)
        return replace(self, boxes=tuple(b for b in self.boxes if b.id not in box_ids))

    def adding(self, *boxes: Box) -> Sheet:
        return replace(self, boxes=self.boxes + tuple(boxes))

    def validated(self) -> Sheet:
        if not isinstance(self.boxes, tuple) or not 1 <= len(self.boxes) <= MAX_BOXES:
            raise InvalidRules(option="boxes", value=len(self.boxes))
        for box in self.boxes:
            if not isinstance(box, Box):
                raise InvalidRules(option="box", value=repr(box))
            box.validated()
        ids = self.ids
        if len(set(ids)) != len(ids):
            raise InvalidRules(option="boxes", value="duplicate_id")
        faces = [box.face for box in self.boxes if box.kind == FACE]
        if len(set(faces)) != len(faces):
            raise InvalidRules(option="boxes", value="duplicate_face")
        fives = [box for box in self.boxes if box.kind == FIVE_OF_A_KIND]
        if len(fives) > 1:
            raise InvalidRules(option="boxes", value="several_five_of_a_kind")
        for name, maximum in (
            ("bonus_threshold", MAX_BONUS_THRESHOLD),
            ("bonus_points", MAX_POINTS),
            ("five_bonus", MAX_POINTS),
        ):
            value = getattr(self, name)
            if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= maximum:
                raise InvalidRules(option=name, value=value)
        if not isinstance(self.bonus_strict, bool):
            raise InvalidRules(option="bonus_strict", value=self.bonus_strict)
        if self.joker not in JOKERS:
            raise InvalidRules(option="joker", value=self.joker)
        if self.bonus_target < 1:
            raise InvalidRules(option="bonus_threshold", value=self.bonus_threshold)
        needs_five = [box.id for box in self.boxes if box.kind == PRIME]
        if self.five_bonus:
            needs_five.append("five_bonus")
        if self.joker != NO_JOKER:
            needs_five.append("joker")
        if needs_five and not fives:
            raise InvalidRules(option=needs_five[0], value="no_five_of_a_kind_box")
        return self

    def to_json(self) -> dict[str, Any]:
        raw = asdict(self)
        raw["boxes"] = [asdict(box) for box in self.boxes]
        return raw

    @classmethod
    def from_json(cls, raw: Mapping[str, Any]) -> Sheet:
        known = {f.name for f in fields(cls)}
        if not isinstance(raw, Mapping) or set(raw) - known or "boxes" not in raw:
            raise InvalidRules(option="sheet", value=str(raw))
        options = {key: value for key, value in raw.items() if key != "boxes"}
        return cls(boxes=tuple(Box.from_json(box) for box in raw["boxes"]), **options).validated()

    def digest(self) -> str:
        """A stable fingerprint of the sheet (the expert's tables are cached under it)."""
        return _digest(self)


@lru_cache(maxsize=64)
def _digest(sheet: Sheet) -> str:
    canonical = json.dumps(sheet.to_json(), sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(canonical.encode()).hexdigest()


def _face_boxes() -> tuple[Box, ...]:
    names = ("as", "deux", "trois", "quatre", "cinq", "six")
    return tuple(Box(name, FACE, UPPER, face=i + 1) for i, name in enumerate(names))


# Seed 001: 14 boxes, Prime des 63 when the upper total is strictly above 63, straights of
# 3 and 4, a second Yadès in its own box (Prime Yadès).
YADES_SHEET = Sheet(
    boxes=(
        *_face_boxes(),
        Box("brelan", OF_A_KIND, count=3),
        Box("carre", OF_A_KIND, count=4),
        Box("full", FULL_HOUSE, points=25),
        Box("petite_suite", STRAIGHT, count=3, points=30),
        Box("grande_suite", STRAIGHT, count=4, points=40),
        Box("yades", FIVE_OF_A_KIND, points=50),
        Box("prime_yades", PRIME, points=75),
        Box("chance", CHANCE),
    ),
    bonus_threshold=63,
    bonus_strict=True,
    bonus_points=35,
)

# International Yahtzee: 13 boxes, bonus at 63 or more, +100 per further Yahtzee, forced joker.
CLASSIQUE_SHEET = Sheet(
    boxes=(
        *_face_boxes(),
        Box("brelan", OF_A_KIND, count=3),
        Box("carre", OF_A_KIND, count=4),
        Box("full", FULL_HOUSE, points=25),
        Box("petite_suite", STRAIGHT, count=4, points=30),
        Box("grande_suite", STRAIGHT, count=5, points=40),
        Box("yahtzee", FIVE_OF_A_KIND, points=50),
        Box("chance", CHANCE),
    ),
    bonus_threshold=63,
    bonus_strict=False,
    bonus_points=35,
    five_bonus=100,
    joker=FORCED_JOKER,
)

PRESET_SHEETS: dict[str, Sheet] = {YADES: YADES_SHEET, CLASSIQUE: CLASSIQUE_SHEET}


# --------------------------------------------------------------------------- rules


@dataclass(frozen=True, slots=True)
class Rules:
    """A preset and the sheet played (the preset's own, or a server's variant of it)."""

    preset: str = YADES
    sheet: Sheet = YADES_SHEET

    @classmethod
    def for_preset(
        cls,
        preset: str = YADES,
        *,
        remove: Iterable[str] = (),
        add: Iterable[Box | Mapping[str, Any]] = (),
        **options: Any,
    ) -> Rules:
        """The preset's sheet without the ``remove`` boxes, plus ``add``, with sheet ``options``."""
        if preset not in PRESET_SHEETS:
            raise InvalidRules(option="preset", value=preset)
        sheet = PRESET_SHEETS[preset].without(*remove)
        extra = [box if isinstance(box, Box) else Box.from_json(box) for box in add]
        sheet = sheet.adding(*extra)
        known = {f.name for f in fields(Sheet)} - {"boxes"}
        for name in options:
            if name not in known:
                raise InvalidRules(option=name, value=options[name])
        return cls(preset, replace(sheet, **options)).validated()

    def validated(self) -> Rules:
        if self.preset not in PRESETS:
            raise InvalidRules(option="preset", value=self.preset)
        if not isinstance(self.sheet, Sheet):
            raise InvalidRules(option="sheet", value=repr(self.sheet))
        self.sheet.validated()
        return self

    def to_json(self) -> dict[str, Any]:
        return {"preset": self.preset, "sheet": self.sheet.to_json()}

    @classmethod
    def from_json(cls, raw: Mapping[str, Any]) -> Rules:
        return cls(raw["preset"], Sheet.from_json(raw["sheet"])).validated()


# --------------------------------------------------------------------------- scoring


def counts(dice: Iterable[int]) -> tuple[int, ...]:
    """How many dice show each face, faces 1..6."""
    tally = [0] * FACES
    for pip in dice:
        tally[pip - 1] += 1
    return tuple(tally)


def is_five_of_a_kind(dice: Iterable[int]) -> bool:
    return max(counts(dice)) == DICE


def longest_run(dice: Iterable[int]) -> int:
    """The most consecutive faces among the dice (duplicates do not break a run)."""
    present = set(dice)
    best = run = 0
    for pip in range(1, FACES + 1):
        run = run + 1 if pip in present else 0
        best = max(best, run)
    return best


def box_points(box: Box, dice: Dice, *, joker: bool = False, primed: bool = False) -> int:
    """What ``dice`` score in ``box``: 0 when they do not fit (a scratch).

    ``joker``: classique's joker rule applies (a further five of a kind scores full value
    in the lower boxes); ``primed``: the five-of-a-kind box already holds its points.
    """
    tally = counts(dice)
    total = sum(dice)
    kind = box.kind
    if kind == FACE:
        return box.face * tally[box.face - 1]
    if kind == CHANCE:
        return total
    if kind == OF_A_KIND:
        return (box.points or total) if joker or max(tally) >= box.count else 0
    if kind == FULL_HOUSE:
        return box.points if joker or sorted(c for c in tally if c) == [2, 3] else 0
    if kind == STRAIGHT:
        return box.points if joker or longest_run(dice) >= box.count else 0
    if kind == FIVE_OF_A_KIND:
        return box.points if max(tally) == DICE else 0
    if kind == PRIME:
        return box.points if primed and max(tally) == DICE else 0
    raise InvalidRules(option="box.kind", value=kind)


def primed(sheet: Sheet, filled: Mapping[str, int]) -> bool:
    """Whether the five-of-a-kind box holds its points (Prime Yadès, Yahtzee bonus)."""
    five = sheet.five_box
    return five is not None and filled.get(five.id, 0) == five.points


def joker_applies(sheet: Sheet, filled: Mapping[str, int], dice: Dice) -> bool:
    """Whether ``dice`` are a joker: a five of a kind with the five-of-a-kind box already
    filled (50 or 0); under the free rule, with its upper box filled too."""
    five = sheet.five_box
    if sheet.joker == NO_JOKER or five is None or five.id not in filled:
        return False
    if not is_five_of_a_kind(dice):
        return False
    if sheet.joker == FREE_JOKER:
        own = sheet.face_box(dice[0])
        return own is None or own.id in filled
    return True


def allowed_boxes(sheet: Sheet, filled: Mapping[str, int], dice: Dice) -> list[Box]:
    """The open boxes ``dice`` may fill: all of them, except under the forced joker rule.

    A forced joker goes to its upper box if open, else to any open lower box, else to an
    upper box (for 0).
    """
    open_boxes = [box for box in sheet.boxes if box.id not in filled]
    if sheet.joker != FORCED_JOKER or not joker_applies(sheet, filled, dice):
        return open_boxes
    own = sheet.face_box(dice[0])
    if own is not None and own.id not in filled:
        return [own]
    lower = [box for box in open_boxes if box.section == LOWER]
    return lower or open_boxes


def points(sheet: Sheet, box: Box, dice: Dice, filled: Mapping[str, int]) -> int:
    """What ``dice`` score in ``box`` for a player whose sheet holds ``filled``."""
    return box_points(
        box,
        dice,
        joker=joker_applies(sheet, filled, dice),
        primed=primed(sheet, filled),
    )


def five_bonus_due(sheet: Sheet, filled: Mapping[str, int], dice: Dice) -> int:
    """The extra points a further five of a kind earns now (classique: 100)."""
    if sheet.five_bonus and is_five_of_a_kind(dice) and primed(sheet, filled):
        return sheet.five_bonus
    return 0


def upper_total(sheet: Sheet, filled: Mapping[str, int]) -> int:
    return sum(filled.get(box.id, 0) for box in sheet.boxes if box.section == UPPER)


def upper_bonus(sheet: Sheet, filled: Mapping[str, int]) -> int:
    return sheet.bonus_points if upper_total(sheet, filled) >= sheet.bonus_target else 0


@dataclass(frozen=True, slots=True)
class Totals:
    upper: int  # the upper section's boxes
    bonus: int  # the upper bonus (Prime des 63), once earned
    lower: int  # the lower section's boxes
    five_bonus: int  # classique: 100 per further Yahtzee
    total: int


def sheet_totals(sheet: Sheet, filled: Mapping[str, int], five_bonus: int = 0) -> Totals:
    upper = upper_total(sheet, filled)
    lower = sum(filled.get(box.id, 0) for box in sheet.boxes if box.section == LOWER)
    bonus = upper_bonus(sheet, filled)
    return Totals(upper, bonus, lower, five_bonus, upper + bonus + lower + five_bonus)


@dataclass(frozen=True, slots=True)
class BonusProgress:
    upper: int  # the upper total so far
    target: int  # the least upper total earning the bonus (64 for "strictly above 63")
    missing: int  # points still needed (0 once earned)
    par: int  # three of each filled face: at or above par keeps the bonus on course
    earned: bool
    reachable: bool  # whether the open upper boxes can still bring the total to ``target``


def sheet_bonus_progress(sheet: Sheet, filled: Mapping[str, int]) -> BonusProgress:
    upper = upper_total(sheet, filled)
    target = sheet.bonus_target
    par = 0
    best_rest = 0
    for box in sheet.boxes:
        if box.section != UPPER:
            continue
        if box.id in filled:
            par += 3 * box.face if box.kind == FACE else filled[box.id]
        else:
            best_rest += _best_points(box)
    earned = upper >= target
    return BonusProgress(
        upper=upper,
        target=target,
        missing=max(0, target - upper),
        par=par,
        earned=earned,
        reachable=earned or upper + best_rest >= target,
    )


def _best_points(box: Box) -> int:
    """The most a box can ever score."""
    if box.kind == FACE:
        return box.face * DICE
    if box.kind in (CHANCE, OF_A_KIND) and not box.points:
        return FACES * DICE
    return box.points


# --------------------------------------------------------------------------- actions


@dataclass(frozen=True, slots=True)
class Roll:
    """Roll the dice not kept. ``keep``: positions 0..4 kept (or a 5-bit mask); the first
    roll of a turn keeps nothing. ``dice``: the fresh values, in the order of the positions
    rolled (``complete`` fills them)."""

    player: int
    keep: tuple[int, ...] | int = ()
    dice: Dice | None = None


@dataclass(frozen=True, slots=True)
class Score:
    """Fill ``box`` with the dice on the table (0 when they do not fit: a scratch)."""

    player: int
    box: str


@dataclass(frozen=True, slots=True)
class Leave:
    player: int


@dataclass(frozen=True, slots=True)
class Stop:
    """End the game now (the table checks who may stop it)."""


Action = Roll | Score | Leave | Stop


def kept_positions(keep: tuple[int, ...] | int | Iterable[int]) -> tuple[int, ...]:
    """``keep`` as sorted distinct positions; raises ``InvalidKeep``."""
    if isinstance(keep, bool):
        raise InvalidKeep(keep=keep)
    if isinstance(keep, int):
        if not 0 <= keep < 1 << DICE:
            raise InvalidKeep(keep=keep)
        return tuple(i for i in range(DICE) if keep >> i & 1)
    try:
        positions = list(keep)
    except TypeError:
        raise InvalidKeep(keep=repr(keep)) from None
    for position in positions:
        if isinstance(position, bool) or not isinstance(position, int):
            raise InvalidKeep(keep=repr(keep))
        if not 0 <= position < DICE:
            raise InvalidKeep(keep=positions)
    if len(set(positions)) != len(positions):
        raise InvalidKeep(keep=positions)
    return tuple(sorted(positions))


# --------------------------------------------------------------------------- state


@dataclass(slots=True)
class Seat:
    player: int
    status: str = IN
    boxes: dict[str, int] = field(default_factory=dict)  # filled boxes and their points
    five_bonus: int = 0  # points of further fives of a kind (classique: 100 each)

    def copy(self) -> Seat:
        return Seat(self.player, self.status, dict(self.boxes), self.five_bonus)


@dataclass(slots=True)
class State:
    rules: Rules
    seats: list[Seat]  # in turn order
    phase: str = PLAY
    current: int | None = None  # whose turn it is (None when over)
    turn: int = 1  # turns started, the first one included
    rolls: int = 0  # rolls made in this turn (0..3)
    dice: Dice | None = None  # the five dice on the table, once rolled
    step: int = 0  # counts decision points: changes with every roll and every new turn
    winners: list[int] = field(default_factory=list)

    def copy(self) -> State:
        return State(
            self.rules,
            [seat.copy() for seat in self.seats],
            self.phase,
            self.current,
            self.turn,
            self.rolls,
            self.dice,
            self.step,
            list(self.winners),
        )

    # ---- queries

    @property
    def over(self) -> bool:
        return self.phase == OVER

    @property
    def sheet(self) -> Sheet:
        return self.rules.sheet

    def seat(self, player: int) -> Seat | None:
        for seat in self.seats:
            if seat.player == player:
                return seat
        return None

    def active(self) -> list[int]:
        """Players still in the game, in turn order."""
        return [seat.player for seat in self.seats if seat.status == IN]

    def full(self, seat: Seat) -> bool:
        return len(seat.boxes) == len(self.sheet.boxes)

    def next_after(self, player: int) -> int | None:
        """The next player in turn order with an open box (``player`` excluded)."""
        seats = self.seats
        index = next(i for i, seat in enumerate(seats) if seat.player == player)
        for offset in range(1, len(seats)):
            seat = seats[(index + offset) % len(seats)]
            if seat.status == IN and not self.full(seat):
                return seat.player
        return None

    def ranking(self) -> list[dict[str, int]]:
        """The players still in the game and their totals, best first (turn order on ties)."""
        rows = [
            {"player": seat.player, "total": _seat_totals(self, seat).total}
            for seat in self.seats
            if seat.status == IN
        ]
        return sorted(rows, key=lambda row: -row["total"])

    # ---- JSON

    def to_json(self) -> dict[str, Any]:
        return {
            "schema": SCHEMA_VERSION,
            "game": "yades",
            "rules": self.rules.to_json(),
            "seats": [
                {
                    "player": seat.player,
                    "status": seat.status,
                    "boxes": dict(seat.boxes),
                    "five_bonus": seat.five_bonus,
                }
                for seat in self.seats
            ],
            "phase": self.phase,
            "current": self.current,
            "turn": self.turn,
            "rolls": self.rolls,
            "dice": list(self.dice) if self.dice is not None else None,
            "step": self.step,
            "winners": list(self.winners),
        }

    @classmethod
    def from_json(cls, raw: dict[str, Any]) -> State:
        if raw.get("schema") != SCHEMA_VERSION or raw.get("game") != "yades":
            raise ValueError(f"not a Yadès state of schema {SCHEMA_VERSION}")
        return cls(
            rules=Rules.from_json(raw["rules"]),
            seats=[
                Seat(seat["player"], seat["status"], dict(seat["boxes"]), seat["five_bonus"])
                for seat in raw["seats"]
            ],
            phase=raw["phase"],
            current=raw["current"],
            turn=raw["turn"],
            rolls=raw["rolls"],
            dice=tuple(raw["dice"]) if raw["dice"] is not None else None,
            step=raw["step"],
            winners=list(raw["winners"]),
        )


def _seat_totals(state: State, seat: Seat) -> Totals:
    return sheet_totals(state.sheet, seat.boxes, seat.five_bonus)


def new_game(players: list[int], rules: Rules | None = None) -> State:
    """A game played in the order of ``players`` (the caller shuffles it with its own rng)."""
    rules = (rules or Rules()).validated()
    if len(set(players)) != len(players):
        raise InvalidPlayers(reason="duplicate", players=list(players))
    if not MIN_PLAYERS <= len(players) <= MAX_PLAYERS:
        raise InvalidPlayers(reason="count", count=len(players))
    return State(rules=rules, seats=[Seat(player) for player in players], current=players[0])


# --------------------------------------------------------------------------- UI helpers


def _playing_seat(state: State, player: int) -> Seat:
    seat = state.seat(player)
    if seat is None:
        raise UnknownPlayer(player=player)
    return seat


def scores(state: State, player: int) -> dict[str, int]:
    """The points each box ``player`` may fill now would score (empty before a roll)."""
    seat = _playing_seat(state, player)
    if state.over or state.current != player or state.dice is None:
        return {}
    sheet, dice = state.sheet, state.dice
    return {
        box.id: points(sheet, box, dice, seat.boxes)
        for box in allowed_boxes(sheet, seat.boxes, dice)
    }


def totals(state: State, player: int) -> Totals:
    """The totals of ``player``'s sheet by section, bonuses included."""
    return _seat_totals(state, _playing_seat(state, player))


def bonus_progress(state: State, player: int) -> BonusProgress:
    """How far ``player`` is from the upper bonus."""
    return sheet_bonus_progress(state.sheet, _playing_seat(state, player).boxes)


# --------------------------------------------------------------------------- legal actions

_KEEPS: tuple[tuple[int, ...], ...] = tuple(
    tuple(i for i in range(DICE) if mask >> i & 1) for mask in range((1 << DICE) - 1)
)  # every proper subset of the five positions: keeping all five is no roll


def legal_actions(state: State, player: int) -> list[Action]:
    """What ``player`` may do now. Rolls come with ``dice=None``: see ``complete``."""
    if state.over:
        return []
    seat = state.seat(player)
    if seat is None or seat.status != IN:
        return []
    actions: list[Action] = []
    if state.current == player:
        if state.rolls == 0:
            actions.append(Roll(player))
        else:
            if state.rolls < MAX_ROLLS:
                actions.extend(Roll(player, keep) for keep in _KEEPS)
            assert state.dice is not None
            boxes = allowed_boxes(state.sheet, seat.boxes, state.dice)
            actions.extend(Score(player, box.id) for box in boxes)
    actions.append(Leave(player))
    return actions


def complete(state: State, action: Action, rng: random.Random) -> Action:
    """Fill in the dice a ``Roll`` rolls, from the caller's generator (no-op otherwise)."""
    if type(action) is Roll and action.dice is None:
        try:
            kept = kept_positions(action.keep)
        except InvalidKeep:
            return action
        fresh = tuple(rng.randint(1, FACES) for _ in range(DICE - len(kept)))
        return Roll(action.player, action.keep, fresh)
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


def _turn(state: State, player: int) -> Seat:
    seat = state.seat(player)
    if seat is None or seat.status != IN:
        raise UnknownPlayer(player=player)
    if state.current != player:
        raise NotYourTurn(player=player, current=state.current)
    return seat


def _check_fresh_dice(dice: Any, expected: int) -> Dice:
    if (
        not isinstance(dice, tuple | list)
        or len(dice) != expected
        or not all(
            isinstance(pip, int) and not isinstance(pip, bool) and 1 <= pip <= FACES for pip in dice
        )
    ):
        raise InvalidDice(dice=repr(dice), expected=expected)
    return tuple(dice)


def _decide_roll(state: State, action: Roll) -> list[Event]:
    _turn(state, action.player)
    kept = kept_positions(action.keep)
    if state.rolls >= MAX_ROLLS:
        raise NoRollsLeft(rolls=state.rolls)
    if state.rolls == 0 and kept:
        raise MustRollAll(keep=list(kept))
    if len(kept) == DICE:
        raise NothingToRoll()
    fresh = iter(_check_fresh_dice(action.dice, DICE - len(kept)))
    before = state.dice or (0,) * DICE
    dice = [before[i] if i in kept else next(fresh) for i in range(DICE)]
    return [
        _public("rolled", player=action.player, roll=state.rolls + 1, kept=list(kept), dice=dice)
    ]


def _decide_score(state: State, action: Score) -> list[Event]:
    seat = _turn(state, action.player)
    if state.dice is None or state.rolls == 0:
        raise NotRolled()
    sheet, dice, filled = state.sheet, state.dice, seat.boxes
    box = sheet.box(action.box) if isinstance(action.box, str) else None
    if box is None:
        raise UnknownBox(box=repr(action.box))
    if box.id in filled:
        raise BoxFilled(box=box.id, points=filled[box.id])
    allowed = allowed_boxes(sheet, filled, dice)
    if box not in allowed:
        raise JokerForced(box=box.id, allowed=[b.id for b in allowed])
    gained = points(sheet, box, dice, filled)
    player = action.player
    events = [
        _public(
            "scored",
            player=player,
            box=box.id,
            points=gained,
            scratched=gained == 0,
            joker=joker_applies(sheet, filled, dice),
            dice=list(dice),
        )
    ]
    extra = five_bonus_due(sheet, filled, dice)
    if extra:
        events.append(_public("bonus_earned", player=player, bonus=FIVE_BONUS, points=extra))
    after = {**filled, box.id: gained}
    if box.section == UPPER and sheet.bonus_points:
        target = sheet.bonus_target
        if upper_total(sheet, filled) < target <= upper_total(sheet, after):
            events.append(
                _public("bonus_earned", player=player, bonus=UPPER_BONUS, points=sheet.bonus_points)
            )
    following = state.copy()
    for event in events:
        _EVOLVERS[event.type](following, event)
    events.extend(_next_turn(following, player))
    return events


def _next_turn(state: State, player: int) -> list[Event]:
    """After ``player``'s turn (or departure): the game's end, or the next player's turn."""
    remaining = state.active()
    if len(remaining) < MIN_PLAYERS:
        return [_end("game_won", state, remaining, "players_left")]
    following = state.next_after(player)
    if following is None:
        ranking = state.ranking()
        best = ranking[0]["total"]
        winners = [row["player"] for row in ranking if row["total"] == best]
        return [_end("game_won", state, winners, "sheets_full")]
    return [_public("turn_passed", player=following, turn=state.turn + 1)]


def _end(kind: str, state: State, winners: list[int], reason: str) -> Event:
    return _public(kind, winners=winners, reason=reason, ranking=state.ranking())


def _decide_leave(state: State, action: Leave) -> list[Event]:
    seat = state.seat(action.player)
    if seat is None or seat.status != IN:
        raise UnknownPlayer(player=action.player)
    events = [_public("player_left", player=action.player)]
    following = state.copy()
    _EVOLVERS["player_left"](following, events[0])
    remaining = following.active()
    if len(remaining) < MIN_PLAYERS or state.current == action.player:
        events.extend(_next_turn(following, action.player))
    return events


def _decide_stop(state: State, action: Stop) -> list[Event]:
    return [_end("game_ended", state, [], "stopped")]


_DECIDERS: dict[type, Any] = {
    Roll: _decide_roll,
    Score: _decide_score,
    Leave: _decide_leave,
    Stop: _decide_stop,
}


# --------------------------------------------------------------------------- evolvers


def _seat_of(state: State, player: int) -> Seat:
    seat = state.seat(player)
    assert seat is not None
    return seat


def _on_rolled(state: State, event: Event) -> None:
    state.rolls = event.data["roll"]
    state.dice = tuple(event.data["dice"])
    state.step += 1


def _on_scored(state: State, event: Event) -> None:
    _seat_of(state, event.data["player"]).boxes[event.data["box"]] = event.data["points"]


def _on_bonus_earned(state: State, event: Event) -> None:
    # The upper bonus follows from the upper boxes; only the five-of-a-kind bonus is kept.
    if event.data["bonus"] == FIVE_BONUS:
        _seat_of(state, event.data["player"]).five_bonus += event.data["points"]


def _on_turn_passed(state: State, event: Event) -> None:
    state.current = event.data["player"]
    state.turn = event.data["turn"]
    state.rolls = 0
    state.dice = None
    state.step += 1


def _on_player_left(state: State, event: Event) -> None:
    _seat_of(state, event.data["player"]).status = LEFT


def _on_game_over(state: State, event: Event) -> None:
    state.phase = OVER
    state.current = None
    state.rolls = 0
    state.dice = None
    state.winners = list(event.data["winners"])
    state.step += 1


_EVOLVERS: dict[str, Any] = {
    "rolled": _on_rolled,
    "scored": _on_scored,
    "bonus_earned": _on_bonus_earned,
    "turn_passed": _on_turn_passed,
    "player_left": _on_player_left,
    "game_won": _on_game_over,
    "game_ended": _on_game_over,
}


# --------------------------------------------------------------------------- what a player knows


@dataclass(frozen=True, slots=True)
class SeatView:
    player: int
    status: str
    boxes: dict[str, int]
    five_bonus: int


@dataclass(frozen=True, slots=True)
class View:
    """What one player knows: everything (all rolls are public), from their seat.

    CPU policies decide from this, like Maya's, never from ``State``.
    """

    player: int
    rules: Rules
    phase: str
    current: int | None
    turn: int
    rolls: int
    dice: Dice | None
    boxes: dict[str, int]  # this player's filled boxes
    five_bonus: int
    seats: tuple[SeatView, ...]


def view(state: State, player: int) -> View:
    seats = tuple(
        SeatView(seat.player, seat.status, dict(seat.boxes), seat.five_bonus)
        for seat in state.seats
    )
    mine = next((seat for seat in seats if seat.player == player), None)
    return View(
        player=player,
        rules=state.rules,
        phase=state.phase,
        current=state.current,
        turn=state.turn,
        rolls=state.rolls,
        dice=state.dice,
        boxes=dict(mine.boxes) if mine else {},
        five_bonus=mine.five_bonus if mine else 0,
        seats=seats,
    )
