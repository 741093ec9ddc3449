"""What a player (or the table's timer) may do at a Maya/Mia table."""

from __future__ import annotations

from dataclasses import dataclass

from bot.games.maya.values import Dice


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
    """A voter takes their reaction back: they have not voted any more (docs/rules.md#maya-faute)."""

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
