"""What happens at a Maya/Mia table, as typed events (stored under the names below)."""

from __future__ import annotations

from dataclasses import dataclass

from bot.kernel.events import PRIVATE, SECRET, Event, EventTypes

EVENTS = EventTypes("maya")


# ---- a round


@EVENTS.register("direction_reversed")
@dataclass(frozen=True, slots=True)
class DirectionReversed(Event):
    player: int
    direction: int


@EVENTS.register("round_started")
@dataclass(frozen=True, slots=True)
class RoundStarted(Event):
    round: int
    opener: int
    seated: list[int]  # players who were waiting for this round


@EVENTS.register("rolled")
@dataclass(frozen=True, slots=True)
class Rolled(Event):
    """The cup was shaken (the dice travel in the ``Dice`` event that follows)."""

    player: int
    blind: bool
    believed: bool


@EVENTS.register("dice")
@dataclass(frozen=True, slots=True)
class CupDice(Event):
    """The real dice under the cup: private to their holder, or secret (nobody looked)."""

    player: int
    dice: list[int]

    @classmethod
    def seen(cls, player: int, dice: list[int]) -> CupDice:
        return cls(player, dice, visibility=PRIVATE, to=player)

    @classmethod
    def unseen(cls, player: int, dice: list[int]) -> CupDice:
        return cls(player, dice, visibility=SECRET)


@EVENTS.register("tapped")
@dataclass(frozen=True, slots=True)
class Tapped(Event):
    player: int
    die: int


@EVENTS.register("second_chance")
@dataclass(frozen=True, slots=True)
class SecondChanceTaken(Event):
    player: int


@EVENTS.register("announced")
@dataclass(frozen=True, slots=True)
class Announced(Event):
    player: int
    value: int
    photo: bool
    blind: bool
    next: int


@EVENTS.register("believed")
@dataclass(frozen=True, slots=True)
class Believed(Event):
    player: int
    announcer: int | None
    blind: bool


@EVENTS.register("lifted")
@dataclass(frozen=True, slots=True)
class Lifted(Event):
    player: int
    announcer: int


@EVENTS.register("revealed")
@dataclass(frozen=True, slots=True)
class Revealed(Event):
    """The cup is lifted: its dice are public by the rules."""

    player: int  # the announcer
    lifter: int
    dice: list[int]
    value: int
    announced: int
    photo: bool
    truthful: bool


@EVENTS.register("maya_believed")
@dataclass(frozen=True, slots=True)
class MayaBelieved(Event):
    player: int
    style: str  # "fragile", "warrior" or "accept"


@EVENTS.register("warrior_rolled")
@dataclass(frozen=True, slots=True)
class WarriorRolled(Event):
    """A Warrior's roll, in the open: its dice are public by the rules."""

    player: int
    dice: list[int]
    value: int
    success: bool
    verifier: int


# ---- penalties, the end of a round, of the game


@EVENTS.register("drank")
@dataclass(frozen=True, slots=True)
class Drank(Event):
    player: int
    sips: int
    glasses: int
    reason: str


@EVENTS.register("life_lost")
@dataclass(frozen=True, slots=True)
class LifeLost(Event):
    player: int
    lives: int
    remaining: int
    reason: str


@EVENTS.register("eliminated")
@dataclass(frozen=True, slots=True)
class PlayerEliminated(Event):
    player: int


@EVENTS.register("round_ended")
@dataclass(frozen=True, slots=True)
class RoundEnded(Event):
    loser: int
    opener: int
    may_reverse: bool


@EVENTS.register("game_won")
@dataclass(frozen=True, slots=True)
class GameWon(Event):
    player: int


@EVENTS.register("game_ended")
@dataclass(frozen=True, slots=True)
class GameEnded(Event):
    reason: str  # "stopped" or "players_left"


# ---- fautes de jeu


@EVENTS.register("fault_raised")
@dataclass(frozen=True, slots=True)
class FaultRaised(Event):
    fault: int
    accuser: int
    accused: int
    motive: str


@EVENTS.register("fault_accepted")
@dataclass(frozen=True, slots=True)
class FaultAccepted(Event):
    fault: int
    player: int


@EVENTS.register("fault_contested")
@dataclass(frozen=True, slots=True)
class FaultContested(Event):
    fault: int
    player: int
    voters: list[int]


@EVENTS.register("vote_cast")
@dataclass(frozen=True, slots=True)
class VoteCast(Event):
    fault: int
    player: int
    guilty: bool


@EVENTS.register("vote_withdrawn")
@dataclass(frozen=True, slots=True)
class VoteWithdrawn(Event):
    fault: int
    player: int


@EVENTS.register("fault_judged")
@dataclass(frozen=True, slots=True)
class FaultJudged(Event):
    fault: int
    accused: int
    guilty: bool
    guilty_votes: int
    innocent_votes: int


@EVENTS.register("fault_appealed")
@dataclass(frozen=True, slots=True)
class FaultAppealed(Event):
    fault: int
    player: int
    rejected: bool


@EVENTS.register("fault_dropped")
@dataclass(frozen=True, slots=True)
class FaultDropped(Event):
    fault: int
    reason: str


# ---- joining and leaving


@EVENTS.register("player_joined")
@dataclass(frozen=True, slots=True)
class PlayerJoined(Event):
    player: int
    seated: bool  # False: joined during a round, seated at the next one
    lives: int


@EVENTS.register("player_left")
@dataclass(frozen=True, slots=True)
class PlayerLeft(Event):
    player: int


@EVENTS.register("turn_passed")
@dataclass(frozen=True, slots=True)
class TurnPassed(Event):
    player: int
    seated: list[int]


@EVENTS.register("round_abandoned")
@dataclass(frozen=True, slots=True)
class RoundAbandoned(Event):
    opener: int
    seated: list[int]
