"""Dés du menteur's rules as data (docs/rules.md#menteur-options): table options, refusals."""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields, replace
from enum import StrEnum
from typing import Any

from bot.kernel.errors import GameError, InvalidRules

SCHEMA_VERSION = 1
MIN_PLAYERS = 2
MAX_PLAYERS = 6
FACES = 6
JOKER = 1  # the face that counts for every other face when ones are jokers
STARTING_DICE: tuple[int, ...] = (3, 4, 5)

STANDARD = "standard"


class Phase(StrEnum):
    ROLL = "roll"  # the opener is to roll everyone's dice
    BID = "bid"  # the current player bids higher or challenges the last bid
    OVER = "over"


class Status(StrEnum):
    IN = "in"
    OUT = "out"  # no dice left: eliminated
    LEFT = "left"


# Short names.
ROLL, BID, OVER = Phase
IN, OUT, LEFT = Status

Hand = tuple[int, ...]
BidValue = tuple[int, int]  # (quantity, face)


class BidTooLow(GameError):
    """The bid does not raise the last one. ``minimum``: the smallest legal bid on the same
    face (None when there is none); ``raises``: the smallest legal bid on every face."""

    code = "bid_too_low"


class InvalidBid(GameError):
    """A bid that can never be made now: an unknown face, a quantity out of 1..dice in play,
    an opening on ones while ones are jokers, or in a Palifico round another face than the
    opening's (``palifico_face``, with the ``locked`` face)."""

    code = "invalid_bid"


@dataclass(frozen=True, slots=True)
class Rules:
    """The table options of docs/rules.md#menteur-options. Build it with ``Rules.for_preset``."""

    dice: int = 5  # starting dice per player: 3, 4 or 5
    jokers: bool = True  # ones count for every face 2-6
    calza: bool = False  # a player may call the last bid exact instead of raising
    palifico: bool = False  # a player down to one die (the first time) opens a Palifico round

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
        for option in ("jokers", "calza", "palifico"):
            if not isinstance(getattr(self, option), bool):
                raise InvalidRules(option=option, value=getattr(self, option))
        return self

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, raw: dict[str, Any]) -> Rules:
        """Rules stored before the variants existed read back with them off."""
        return cls(**raw).validated()
