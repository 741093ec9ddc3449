"""Yadès and Yahtzee's constants and refusals (docs/rules.md#yades)."""

from __future__ import annotations

import re
from enum import StrEnum

from bot.kernel.errors import GameError

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


class Phase(StrEnum):
    PLAY = "play"
    OVER = "over"


class Status(StrEnum):
    IN = "in"
    LEFT = "left"


# Short names.
PLAY, OVER = Phase
IN, LEFT = Status

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

BOX_ID = re.compile(r"[a-z0-9_]{1,30}")

Dice = tuple[int, ...]


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
