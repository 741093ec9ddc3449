"""Maya and Mia's rules as data (docs/rules.md#maya-options): presets, options, refusals."""

from __future__ import annotations

from dataclasses import dataclass, fields, replace
from enum import StrEnum
from typing import Any

from bot.kernel.errors import GameError, InvalidRules

SCHEMA_VERSION = 1
MIN_PLAYERS = 2
MAX_PLAYERS = 10
MAX_MOTIVE = 200
MAX_GAGE = 30  # the penalty word's length

SOIREE = "soiree"
VIES = "vies"


class Phase(StrEnum):
    OPEN = "open"  # the opener is to roll
    ANNOUNCE = "announce"  # the cup's holder has dice and is to announce
    RESPOND = "respond"  # the next player believes or lifts the announcement
    OVER = "over"


class Status(StrEnum):
    IN = "in"
    WAITING = "waiting"  # joined during a round: seated when the next round starts
    OUT = "out"  # eliminated (lives preset)
    LEFT = "left"


class Play(StrEnum):
    """The blind play a holder made this turn."""

    AVEUGLE = "aveugle"
    TAPOTE = "tapote"
    SECONDE_CHANCE = "seconde_chance"


class FaultStatus(StrEnum):
    PENDING = "pending"  # the accused is to accept or contest
    VOTING = "voting"
    GUILTY = "guilty"  # voted guilty: may be appealed until the next round


# Short names, as the rules say them.
OPEN, ANNOUNCE, RESPOND, OVER = Phase
IN, WAITING, OUT, LEFT = Status
AVEUGLE, TAPOTE, SECONDE_CHANCE = Play
AT_TABLE = (IN, WAITING)  # may accuse, be accused and vote (docs/rules.md#maya-faute)

# --------------------------------------------------------------------------- errors


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


class AlreadySeated(GameError):
    code = "already_seated"


class TableFull(GameError):
    code = "table_full"


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
    """Every table option of docs/rules.md#maya-options, as data. Build it with ``Rules.preset``."""

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

    def to_json(self) -> dict[str, Any]:
        """The options as JSON (every one is a plain value: no need for ``asdict``'s deep
        copies, which cost more than the rest of a table's record, written at every move)."""
        return {name: getattr(self, name) for name in _NAMES}

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


_NAMES = tuple(option.name for option in fields(Rules))
