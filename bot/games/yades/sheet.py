"""Score sheets as data: boxes, sections, bonuses, the two presets, and a table's rules
(a preset and the sheet it plays), so a server can remove or add boxes without code."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Mapping
from dataclasses import asdict, dataclass, fields, replace
from functools import lru_cache
from typing import Any

from bot.games.yades.rules import (
    BOX_ID,
    CHANCE,
    CLASSIQUE,
    DICE,
    FACE,
    FACES,
    FIVE_OF_A_KIND,
    FORCED_JOKER,
    FULL_HOUSE,
    JOKERS,
    KINDS,
    LOWER,
    MAX_BONUS_THRESHOLD,
    MAX_BOXES,
    MAX_POINTS,
    NO_JOKER,
    OF_A_KIND,
    PRESETS,
    PRIME,
    SECTIONS,
    STRAIGHT,
    UPPER,
    YADES,
)
from bot.kernel.errors import InvalidRules


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

        if not isinstance(self.id, str) or not BOX_ID.fullmatch(self.id):
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


# docs/rules.md#yades-sheet: 14 boxes, Prime des 63 when the upper total is strictly above
# 63, straights of 3 and 4, a second Yadès in its own box (Prime Yadès).
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

# Boxes a server may add to its sheet (docs/rules.md#yades-server-sheets), by name.
EXTRA_BOXES: dict[str, Box] = {
    "paire": Box("paire", OF_A_KIND, count=2),  # two alike: the sum of the dice
    "suite_5": Box("suite_5", STRAIGHT, count=5, points=50),  # five in a row
}


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
