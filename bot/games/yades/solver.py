"""Optimal solitaire play of a Yadès score sheet, by dynamic programming (Verhoeff's method).

A player's future depends only on their sheet, summed up as a *turn-start state*: which
boxes are filled (a bit mask), the upper total capped at the bonus target, and whether
the five-of-a-kind box holds its points (when a Prime box or a five-of-a-kind bonus makes
that matter). ``build`` computes, for every reachable state, the expected points still to
come under optimal play, from the full sheet back to the empty one. Within a turn the
dice are multisets: 252 rolls of five dice and 462 keeps of 0 to 5 dice; a keep's
re-roll is one row of a fixed transition matrix, so a turn is two matrix products and two
"best keep inside this roll" maxima, done for thousands of states at once with numpy.

The table depends on the sheet only: it is built once per sheet (``Sheet.digest``),
serialised with ``Strategy.to_bytes`` and cached by the caller (``bot.yades_tables``
keeps it in ``GOBELET_DATA_DIR``). This module does no I/O: ``strategy_for`` builds in memory when no
table was installed.

The same within-turn machinery answers ``plan``: the best keeps for any per-box linear
valuation of the final roll, which is how the ``moyen`` CPU plays.
"""

from __future__ import annotations

import itertools
import json
import struct
import zlib
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from bot.games import yades as y

FORMAT = 1
MAGIC = b"GOBYADES"
CHUNK = 512  # turn-start states solved together (their arrays stay in the cache)

# --------------------------------------------------------------------------- dice combinatorics

FACES = tuple(range(1, y.FACES + 1))
ROLLS: tuple[tuple[int, ...], ...] = tuple(itertools.combinations_with_replacement(FACES, y.DICE))
ROLL_INDEX: dict[tuple[int, ...], int] = {roll: i for i, roll in enumerate(ROLLS)}
# Keeps of 0 to 4 dice, by size, then the 252 rolls themselves (keeping all five = stopping).
PARTIAL_KEEPS: tuple[tuple[int, ...], ...] = tuple(
    keep for size in range(y.DICE) for keep in itertools.combinations_with_replacement(FACES, size)
)
KEEPS = PARTIAL_KEEPS + ROLLS
KEEP_INDEX: dict[tuple[int, ...], int] = {keep: i for i, keep in enumerate(KEEPS)}
PARTIAL = len(PARTIAL_KEEPS)  # 210
FIVE_ROLLS = np.array([ROLL_INDEX[(face,) * y.DICE] for face in FACES])


def _children() -> list[tuple[int, int, np.ndarray]]:
    """For keeps of 4 dice down to 0: their index range and, per keep, the keeps one die
    larger (one per face of the next die rolled)."""
    levels = []
    for size in range(y.DICE - 1, -1, -1):
        members = [i for i, keep in enumerate(KEEPS) if len(keep) == size]
        children = np.array(
            [[KEEP_INDEX[tuple(sorted((*KEEPS[i], face)))] for face in FACES] for i in members],
            dtype=np.intp,
        )
        levels.append((members[0], members[-1] + 1, children))
    return levels


_CHILDREN = _children()


def _levels() -> list[tuple[int, int, np.ndarray]]:
    """For keeps of 1..5 dice: their index range and, per keep, the keeps one die smaller."""
    levels = []
    start = 1
    for size in range(1, y.DICE + 1):
        members = [k for k in KEEPS if len(k) == size]
        parents = np.empty((len(members), y.DICE), dtype=np.intp)
        for row, keep in enumerate(members):
            smaller = sorted({KEEP_INDEX[keep[:i] + keep[i + 1 :]] for i in range(size)})
            parents[row] = (smaller * y.DICE)[: y.DICE]
        levels.append((start, start + len(members), parents))
        start += len(members)
    return levels


_LEVELS = _levels()


def _best_within(keeps: np.ndarray) -> np.ndarray:
    """For every roll: the best value among the keeps it contains (itself included)."""
    best = keeps.copy()
    for start, stop, parents in _LEVELS:
        level = best[start:stop]
        smaller = np.empty_like(level)
        for column in parents.T:
            np.take(best, column, axis=0, out=smaller)
            np.maximum(level, smaller, out=level)
    return best[PARTIAL:]


def _keep_values(final: np.ndarray) -> np.ndarray:
    """(462, B): the value of each keep when the other dice are re-rolled into ``final``.

    Re-rolling m dice is rolling them one after the other: a keep is worth the average,
    over the six faces, of the keep one die larger (no transition matrix needed).
    """
    keeps = np.empty((len(KEEPS), *final.shape[1:]), dtype=final.dtype)
    keeps[PARTIAL:] = final
    for start, stop, children in _CHILDREN:
        level = keeps[start:stop]
        larger = np.empty_like(level)
        np.take(keeps, children[:, 0], axis=0, out=level)
        for column in children.T[1:]:
            np.take(keeps, column, axis=0, out=larger)
            level += larger
        level /= y.FACES
    return keeps


# For one state at a time (a CPU's decision) the same steps as a dense product and one
# gather: P(roll | keep) for the partial keeps, and for every roll the keeps inside it.
TRANSITIONS = _keep_values(np.eye(len(ROLLS)))[:PARTIAL]


def _inside() -> np.ndarray:
    """(252, 32): the keeps inside each roll (itself included), padded with the roll."""
    rows = []
    for roll in ROLLS:
        inside = sorted(
            {
                KEEP_INDEX[tuple(roll[i] for i in range(y.DICE) if mask >> i & 1)]
                for mask in range(1 << y.DICE)
            }
        )
        rows.append(inside + [KEEP_INDEX[roll]] * ((1 << y.DICE) - len(inside)))
    return np.array(rows, dtype=np.intp)


_INSIDE = _inside()


def _reroll_one(final: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``_reroll`` for a single state: ``final`` is (252,)."""
    keeps = np.empty(len(KEEPS))
    keeps[:PARTIAL] = TRANSITIONS @ final
    keeps[PARTIAL:] = final
    return keeps, keeps[_INSIDE].max(axis=1)


def _reroll(final: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """One more roll before ``final`` (values of each roll, by column).

    Returns the value of each keep (re-rolling the rest) and of each roll when that
    re-roll is still to decide.
    """
    keeps = _keep_values(final)
    return keeps, _best_within(keeps)


# --------------------------------------------------------------------------- a sheet, as arrays


class _Model:
    """The sheet's scoring, per box and per roll, and its turn-start state space."""

    def __init__(self, sheet: y.Sheet) -> None:
        self.sheet = sheet
        boxes = sheet.boxes
        self.size = len(boxes)
        has_upper = any(box.section == y.UPPER for box in boxes)
        self.cap = sheet.bonus_target if sheet.bonus_points and has_upper else 0
        five = sheet.five_box
        self.five = boxes.index(five) if five is not None else -1
        flagged = five is not None and (
            sheet.five_bonus > 0 or any(box.kind == y.PRIME for box in boxes)
        )
        self.shape = (1 << self.size, self.cap + 1, 2 if flagged else 1)
        self.plain = np.array([[y.box_points(box, roll) for roll in ROLLS] for box in boxes])
        # Five of a kind of each face, by (joker applies, five-of-a-kind box holds its points).
        self.fives = np.array(
            [
                [
                    [
                        [
                            y.box_points(box, (face,) * y.DICE, joker=bool(j), primed=bool(p))
                            for face in FACES
                        ]
                        for p in (0, 1)
                    ]
                    for j in (0, 1)
                ]
                for box in boxes
            ]
        )
        self.upper = [box.section == y.UPPER for box in boxes]
        self.lower_bits = sum(1 << j for j, box in enumerate(boxes) if box.section == y.LOWER)
        face_boxes = [sheet.face_box(face) for face in FACES]
        self.face_bits = np.array([1 << boxes.index(b) if b else 0 for b in face_boxes])
        self.own_face = [
            np.array([b is box for b in face_boxes]) for box in boxes
        ]  # per box: for which faces it is "the upper box" of the joker rule
        self.distinct = [np.unique(row) for row in self.plain]
        self.distinct_index = [
            np.searchsorted(d, row) for d, row in zip(self.distinct, self.plain, strict=True)
        ]

    # ---- states

    def key(self, filled: Mapping[str, int]) -> tuple[int, int, int]:
        sheet = self.sheet
        mask = sum(1 << j for j, box in enumerate(sheet.boxes) if box.id in filled)
        upper = min(self.cap, y.upper_total(sheet, filled))
        flag = int(self.shape[2] == 2 and y.primed(sheet, filled))
        return mask, upper, flag

    def reachable(self) -> np.ndarray:
        """Turn-start states some play reaches (an over-approximation is harmless)."""
        reach = np.zeros(self.shape, dtype=bool)
        reach[0, 0, 0] = True
        masks = np.arange(self.shape[0])
        filled = np.array([bin(m).count("1") for m in masks])
        for level in range(self.size):
            members = masks[filled == level]
            found = np.argwhere(reach[members])
            ms, us, ys = members[found[:, 0]], found[:, 1], found[:, 2]
            for j in range(self.size):
                free = (ms >> j) & 1 == 0
                nm, u, f = ms[free] | (1 << j), us[free], ys[free]
                if self.upper[j] and self.cap:
                    for gained in np.unique(np.concatenate([self.plain[j], self.fives[j].ravel()])):
                        reach[nm, np.minimum(self.cap, u + gained), f] = True
                elif j == self.five and self.shape[2] == 2:
                    reach[nm, u, 0] = True
                    reach[nm, u, 1] = True
                else:
                    reach[nm, u, f] = True
        return reach

    # ---- a turn's last decision

    def candidates(
        self, values: np.ndarray, ms: np.ndarray, us: np.ndarray, ys: np.ndarray
    ) -> Iterator[tuple[np.ndarray, np.ndarray, np.ndarray]]:
        """Per box: filling it with each roll, then playing on optimally.

        Points, the upper bonus when this box reaches it, and the future's value; -inf
        where the box is filled or the joker rule forbids it. The five-of-a-kind bonus,
        the same whichever box is filled, is left to ``final``. Rolls scoring alike lead
        to the same value, so each box yields ``(rows, values, fives)``: the (252,) index
        of each roll's points among the box's distinct points, the (distinct, B) values
        of those points, and the (6, B) values of the five-of-a-kind rolls.
        """
        sheet, cap = self.sheet, self.cap
        count = len(ms)
        five_filled = (ms & (1 << self.five)) != 0 if self.five >= 0 else np.zeros(count, bool)
        bits = self.face_bits[:, None]
        face_open = (bits != 0) & ((ms[None, :] & bits) == 0)
        lower_open = (~ms & self.lower_bits) != 0
        # (6, B): whether a five of a kind of each face is a joker.
        if sheet.joker == y.FORCED_JOKER:
            joker = np.broadcast_to(five_filled[None, :], face_open.shape)
        elif sheet.joker == y.FREE_JOKER:
            joker = five_filled[None, :] & ~face_open
        else:
            joker = np.zeros(face_open.shape, dtype=bool)
        primed = ys == 1
        faces = np.arange(y.FACES)[:, None]
        for j in range(self.size):
            filled = (ms >> j) & 1 == 1
            nm = ms | (1 << j)
            upper = self.upper[j] and cap > 0
            gained = self.distinct[j][:, None]
            if upper:
                raised = np.minimum(cap, us[None, :] + gained)
                bonus = sheet.bonus_points * ((us[None, :] < cap) & (raised >= cap))
                heads = gained + bonus + values[nm[None, :], raised, ys[None, :]]
            else:
                heads = gained + values[nm, us, ys][None, :]
            heads[:, filled] = -np.inf
            # Five of a kind: the joker rule, Prime boxes and the five-of-a-kind flag.
            gained = self.fives[j][joker.astype(int), primed.astype(int)[None, :], faces]
            if upper:
                raised = np.minimum(cap, us[None, :] + gained)
                bonus = sheet.bonus_points * ((us[None, :] < cap) & (raised >= cap))
            else:
                raised = us[None, :]
                bonus = 0
            flagged = j == self.five and self.shape[2] == 2
            flag = (gained > 0).astype(int) if flagged else ys[None, :]
            fives = gained + bonus + values[nm[None, :], raised, flag]
            forbidden = filled[None, :]
            if sheet.joker == y.FORCED_JOKER:
                if self.upper[j]:
                    allowed = np.where(face_open, self.own_face[j][:, None], ~lower_open[None, :])
                else:
                    allowed = ~face_open
                forbidden = forbidden | (joker & ~allowed)
            fives[np.broadcast_to(forbidden, fives.shape)] = -np.inf
            yield self.distinct_index[j], heads, fives

    def five_bonus(self, ms: np.ndarray, ys: np.ndarray) -> np.ndarray:
        """(B,): the bonus a five of a kind earns whatever box it fills."""
        if not self.sheet.five_bonus:
            return np.zeros(len(ms))
        return self.sheet.five_bonus * (ys == 1)

    def boxes(
        self, values: np.ndarray, ms: np.ndarray, us: np.ndarray, ys: np.ndarray
    ) -> np.ndarray:
        """(boxes, 252, B): ``candidates`` in full, the five-of-a-kind bonus included."""
        out = np.empty((self.size, len(ROLLS), len(ms)))
        for j, (rows, heads, fives) in enumerate(self.candidates(values, ms, us, ys)):
            np.take(heads, rows, axis=0, out=out[j])
            out[j][FIVE_ROLLS] = fives + self.five_bonus(ms, ys)[None, :]
        return out

    def final(
        self, values: np.ndarray, ms: np.ndarray, us: np.ndarray, ys: np.ndarray
    ) -> np.ndarray:
        """(252, B): the value of each roll when it must be scored now."""
        best = np.full((len(ROLLS), len(ms)), -np.inf, dtype=values.dtype)
        box = np.empty_like(best)
        for rows, heads, fives in self.candidates(values, ms, us, ys):
            np.take(heads.astype(best.dtype, copy=False), rows, axis=0, out=box)
            box[FIVE_ROLLS] = fives
            np.maximum(best, box, out=best)
        best[FIVE_ROLLS] += self.five_bonus(ms, ys)[None, :]
        return best

    def turn(
        self, values: np.ndarray, ms: np.ndarray, us: np.ndarray, ys: np.ndarray
    ) -> np.ndarray:
        """(B,): the expected points from these turn-start states on."""
        _, second = _reroll(self.final(values, ms, us, ys))
        _, first = _reroll(second)
        return _keep_values(first)[0]


@lru_cache(maxsize=16)
def _model(sheet: y.Sheet) -> _Model:
    return _Model(sheet)


# --------------------------------------------------------------------------- the strategy


@dataclass(frozen=True, slots=True)
class Option:
    """One choice of a turn: re-roll all but ``keep`` (positions), or fill ``box``.

    ``value``: the points expected from now to the end of the sheet (those already on
    the sheet excluded) when this choice is made, then the best ones.
    """

    value: float
    keep: tuple[int, ...] | None = None
    box: str | None = None


class Strategy:
    """Expected future points of every turn-start state of one sheet, under optimal play."""

    def __init__(self, sheet: y.Sheet, values: np.ndarray, expected: float) -> None:
        self.sheet = sheet
        self.model = _model(sheet)
        if values.shape != self.model.shape:
            raise ValueError(f"table of shape {values.shape}, sheet needs {self.model.shape}")
        self.values = values
        self.expected = expected  # the empty sheet's value, unrounded
        self._turns: dict[tuple[int, int, int], tuple[np.ndarray, ...]] = {}

    def value(self, filled: Mapping[str, int]) -> float:
        """Points expected from a turn start with ``filled`` on the sheet to its end."""
        return float(self.values[self.model.key(filled)])

    def _turn(self, key: tuple[int, int, int]) -> tuple[np.ndarray, ...]:
        """Per box and roll; then per keep with two rolls left; then per keep with one."""
        cached = self._turns.get(key)
        if cached is None:
            ms, us, ys = (np.array([part]) for part in key)
            model = self.model
            boxes = model.boxes(self.values, ms, us, ys)[:, :, 0]
            last, second = _reroll_one(boxes.max(axis=0))
            first, _ = _reroll_one(second)
            cached = (boxes, first, last)
            if len(self._turns) > 256:
                self._turns.clear()
            self._turns[key] = cached
        return cached

    def options(
        self, filled: Mapping[str, int], rolls: int, dice: Sequence[int] | None
    ) -> list[Option]:
        """Every choice of the turn now, best first (see ``Option``)."""
        if rolls == 0 or dice is None:
            return [Option(self.value(filled), keep=())]
        boxes, first, last = self._turn(self.model.key(filled))
        return _options(self.sheet, filled, rolls, dice, boxes, (first, last))

    # ---- serialisation

    def to_bytes(self) -> bytes:
        header = json.dumps(
            {
                "format": FORMAT,
                "digest": self.sheet.digest(),
                "sheet": self.sheet.to_json(),
                "shape": list(self.values.shape),
                "expected": self.expected,
            },
            sort_keys=True,
        ).encode()
        table = np.ascontiguousarray(self.values, dtype="<f4").tobytes()
        return MAGIC + struct.pack("<I", len(header)) + header + zlib.compress(table, 6)

    @classmethod
    def from_bytes(cls, data: bytes, sheet: y.Sheet | None = None) -> Strategy:
        """A strategy written by ``to_bytes``; ``sheet``, when given, must be the one it solves."""
        if not data.startswith(MAGIC):
            raise ValueError("not a Yadès strategy table")
        start = len(MAGIC) + 4
        (length,) = struct.unpack("<I", data[len(MAGIC) : start])
        header = json.loads(data[start : start + length])
        if header.get("format") != FORMAT:
            raise ValueError(f"strategy table of format {header.get('format')}, not {FORMAT}")
        solved = y.Sheet.from_json(header["sheet"])
        if solved.digest() != header["digest"] or (sheet is not None and sheet != solved):
            raise ValueError("strategy table of another sheet")
        table = np.frombuffer(zlib.decompress(data[start + length :]), dtype="<f4")
        values = table.astype(np.float32).reshape(header["shape"])
        return cls(solved, values, float(header["expected"]))


def build(sheet: y.Sheet, chunk: int = CHUNK, dtype: type = np.float64) -> Strategy:
    """Solve ``sheet``: from the full sheet back to the empty one, a popcount at a time."""
    model = _model(sheet.validated())
    values: np.ndarray = np.zeros(model.shape, dtype=dtype)
    reach = model.reachable()
    masks = np.arange(model.shape[0])
    filled = np.array([bin(m).count("1") for m in masks])
    for level in range(model.size - 1, -1, -1):
        members = masks[filled == level]
        found = np.argwhere(reach[members])
        ms, us, ys = members[found[:, 0]], found[:, 1], found[:, 2]
        for start in range(0, len(ms), chunk):
            part = slice(start, start + chunk)
            values[ms[part], us[part], ys[part]] = model.turn(values, ms[part], us[part], ys[part])
    return Strategy(sheet, values.astype(np.float32), float(values[0, 0, 0]))


_STRATEGIES: dict[str, Strategy] = {}


def install(strategy: Strategy) -> None:
    """Make ``strategy`` the one ``strategy_for`` returns for its sheet."""
    _STRATEGIES[strategy.sheet.digest()] = strategy


def uninstall(sheet: y.Sheet) -> None:
    _STRATEGIES.pop(sheet.digest(), None)


def installed(sheet: y.Sheet) -> Strategy | None:
    return _STRATEGIES.get(sheet.digest())


def strategy_for(sheet: y.Sheet) -> Strategy:
    """The installed strategy of ``sheet``, built (and installed) now if there is none."""
    strategy = installed(sheet)
    if strategy is None:
        strategy = build(sheet)
        install(strategy)
    return strategy


# --------------------------------------------------------------------------- choosing within a turn

# The 31 proper subsets of the five positions (keeping all five is scoring, not a roll).
POSITION_KEEPS: tuple[tuple[int, ...], ...] = tuple(
    tuple(i for i in range(y.DICE) if mask >> i & 1) for mask in range((1 << y.DICE) - 1)
)


def _options(
    sheet: y.Sheet,
    filled: Mapping[str, int],
    rolls: int,
    dice: Sequence[int],
    boxes: np.ndarray,
    keeps: tuple[np.ndarray, np.ndarray],
) -> list[Option]:
    """The options of a turn from per-box values (boxes x rolls) and per-keep values."""
    roll = ROLL_INDEX[tuple(sorted(dice))]
    options: list[Option] = []
    if rolls < y.MAX_ROLLS:
        per_keep = keeps[rolls - 1]
        seen: set[tuple[int, ...]] = set()
        for positions in POSITION_KEEPS:
            kept = tuple(sorted(dice[i] for i in positions))
            if kept not in seen:
                seen.add(kept)
                options.append(Option(float(per_keep[KEEP_INDEX[kept]]), keep=positions))
    for j, box in enumerate(sheet.boxes):
        value = boxes[j, roll]
        if np.isfinite(value):
            options.append(Option(float(value), box=box.id))
    options.sort(key=lambda option: -option.value)
    return options


def points_table(sheet: y.Sheet, filled: Mapping[str, int]) -> np.ndarray:
    """(boxes, 252): what each roll scores in each box for this sheet; -inf where not allowed."""
    model = _model(sheet)
    table = model.plain.astype(float)
    primed = int(y.primed(sheet, filled))
    for face, row in zip(FACES, FIVE_ROLLS, strict=True):
        dice = (face,) * y.DICE
        joker = int(y.joker_applies(sheet, filled, dice))
        table[:, row] = model.fives[:, joker, primed, face - 1]
        allowed = {box.id for box in y.allowed_boxes(sheet, filled, dice)}
        for j, box in enumerate(sheet.boxes):
            if box.id not in allowed:
                table[j, row] = -np.inf
    for j, box in enumerate(sheet.boxes):
        if box.id in filled:
            table[j] = -np.inf
    return table


def plan(
    sheet: y.Sheet,
    filled: Mapping[str, int],
    rolls: int,
    dice: Sequence[int],
    gain: Sequence[float],
    offset: Sequence[float],
) -> list[Option]:
    """The options of a turn that maximise ``gain[j] * points + offset[j]`` of the box filled.

    The best keeps for a per-box linear valuation, computed exactly over the rolls left;
    the five-of-a-kind bonus counts as points.
    """
    boxes, first, last = _planned_turn(
        sheet, tuple(sorted(filled.items())), tuple(gain), tuple(offset)
    )
    return _options(sheet, filled, rolls, dice, boxes, (first, last))


@lru_cache(maxsize=64)
def _planned_turn(
    sheet: y.Sheet,
    filled: tuple[tuple[str, int], ...],
    gain: tuple[float, ...],
    offset: tuple[float, ...],
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    sheet_filled = dict(filled)
    table = points_table(sheet, sheet_filled)
    boxes = np.asarray(gain, dtype=float)[:, None] * table + np.asarray(offset, float)[:, None]
    boxes[~np.isfinite(table)] = -np.inf
    extra = y.five_bonus_due(sheet, sheet_filled, (1,) * y.DICE)
    if extra:
        boxes[:, FIVE_ROLLS] += extra
    last, second = _reroll_one(boxes.max(axis=0))
    first, _ = _reroll_one(second)
    return boxes, first, last
