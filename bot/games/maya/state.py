"""A Maya/Mia game as it stands, and how it is stored (JSON, with a schema version)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from bot.games.maya.rules import (
    IN,
    MAX_PLAYERS,
    MIN_PLAYERS,
    OPEN,
    OVER,
    SCHEMA_VERSION,
    FaultStatus,
    Phase,
    Play,
    Rules,
    Status,
)
from bot.games.maya.values import Dice
from bot.kernel.errors import GameOver, InvalidPlayers
from bot.kernel.spec import Ending


@dataclass(slots=True)
class Seat:
    player: int
    status: Status = IN
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
    status: FaultStatus = FaultStatus.PENDING
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
    phase: Phase = OPEN
    current: int | None = None  # the one player whose turn it is (None when over)
    round: int = 0
    step: int = 0  # counts decision points: changes whenever the phase or the current player does
    # Hidden (field metadata): nobody may know the real dice under the cup, only its holder
    # what they last saw of them (None: never looked).
    cup: Dice | None = field(default=None, metadata={"hidden": True})
    seen: Dice | None = field(default=None, metadata={"hidden": True, "owner": "holder"})
    holder: int | None = None  # whose dice are in the cup
    play: Play | None = None  # the blind play made this turn
    announced: int | None = None  # value to beat (for a Photo: the value it copied)
    announcer: int | None = None
    photo: bool = False  # the last announcement was a Photo
    blind_announce: bool = False  # the last announcement was made without knowing the dice
    may_reverse: bool = False  # the opener may reverse the direction (after a Maya)
    faults: list[Fault] = field(default_factory=list)
    next_fault: int = 1
    winner: int | None = None
    ending: Ending | None = None  # how the game ended, once over

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
            self.ending,
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
            "rules": self.rules.to_json(),
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
            "ending": self.ending,
        }

    @classmethod
    def from_json(cls, raw: dict[str, Any]) -> State:
        if raw.get("schema") != SCHEMA_VERSION or raw.get("game") != "maya":
            raise ValueError(f"not a Maya state of schema {SCHEMA_VERSION}")
        return cls(
            rules=Rules(**raw["rules"]).validated(),
            seats=[
                Seat(
                    seat["player"],
                    Status(seat["status"]),
                    seat["sips"],
                    seat["glasses"],
                    seat["lives"],
                )
                for seat in raw["seats"]
            ],
            direction=raw["direction"],
            phase=Phase(raw["phase"]),
            current=raw["current"],
            round=raw["round"],
            step=raw["step"],
            cup=_dice_or_none(raw["cup"]),
            seen=_dice_or_none(raw["seen"]),
            holder=raw["holder"],
            play=Play(raw["play"]) if raw["play"] else None,
            announced=raw["announced"],
            announcer=raw["announcer"],
            photo=raw["photo"],
            blind_announce=raw["blind_announce"],
            may_reverse=raw["may_reverse"],
            faults=[
                Fault(**{**fault, "status": FaultStatus(fault["status"])})
                for fault in raw["faults"]
            ],
            next_fault=raw["next_fault"],
            winner=raw["winner"],
            ending=Ending(raw["ending"]) if raw.get("ending") else None,
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
