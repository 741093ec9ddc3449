"""A Yadès game as it stands, how it is stored, and what each sheet holds."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from bot.games.yades.rules import (
    IN,
    MAX_PLAYERS,
    MIN_PLAYERS,
    OVER,
    PLAY,
    SCHEMA_VERSION,
    Dice,
    Phase,
    Status,
)
from bot.games.yades.scoring import (
    BonusProgress,
    Totals,
    allowed_boxes,
    points,
    sheet_bonus_progress,
    sheet_totals,
)
from bot.games.yades.sheet import Rules, Sheet
from bot.kernel.errors import InvalidPlayers, UnknownPlayer
from bot.kernel.spec import Ending


@dataclass(slots=True)
class Seat:
    player: int
    status: Status = IN
    boxes: dict[str, int] = field(default_factory=dict)  # filled boxes and their points
    five_bonus: int = 0  # points of further fives of a kind (classique: 100 each)

    def copy(self) -> Seat:
        return Seat(self.player, self.status, dict(self.boxes), self.five_bonus)


@dataclass(slots=True)
class State:
    rules: Rules
    seats: list[Seat]  # in turn order
    phase: Phase = PLAY
    current: int | None = None  # whose turn it is (None when over)
    turn: int = 1  # turns started, the first one included
    rolls: int = 0  # rolls made in this turn (0..3)
    dice: Dice | None = None  # the five dice on the table, once rolled
    step: int = 0  # counts decision points: changes with every roll and every new turn
    winners: list[int] = field(default_factory=list)
    ending: Ending | None = None  # how the game ended, once over

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
            self.ending,
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
            {"player": seat.player, "total": seat_totals(self, seat).total}
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
            "ending": self.ending,
        }

    @classmethod
    def from_json(cls, raw: dict[str, Any]) -> State:
        if raw.get("schema") != SCHEMA_VERSION or raw.get("game") != "yades":
            raise ValueError(f"not a Yadès state of schema {SCHEMA_VERSION}")
        return cls(
            rules=Rules.from_json(raw["rules"]),
            seats=[
                Seat(
                    seat["player"], Status(seat["status"]), dict(seat["boxes"]), seat["five_bonus"]
                )
                for seat in raw["seats"]
            ],
            phase=Phase(raw["phase"]),
            current=raw["current"],
            turn=raw["turn"],
            rolls=raw["rolls"],
            dice=tuple(raw["dice"]) if raw["dice"] is not None else None,
            step=raw["step"],
            winners=list(raw["winners"]),
            ending=Ending(raw["ending"]) if raw.get("ending") else None,
        )


def seat_totals(state: State, seat: Seat) -> Totals:
    return sheet_totals(state.sheet, seat.boxes, seat.five_bonus)


def new_game(players: list[int], rules: Rules | None = None) -> State:
    """A game played in the order of ``players`` (the caller shuffles it with its own rng)."""
    rules = (rules or Rules()).validated()
    if len(set(players)) != len(players):
        raise InvalidPlayers(reason="duplicate", players=list(players))
    if not MIN_PLAYERS <= len(players) <= MAX_PLAYERS:
        raise InvalidPlayers(reason="count", count=len(players))
    return State(rules=rules, seats=[Seat(player) for player in players], current=players[0])


def playing_seat(state: State, player: int) -> Seat:
    seat = state.seat(player)
    if seat is None:
        raise UnknownPlayer(player=player)
    return seat


def scores(state: State, player: int) -> dict[str, int]:
    """The points each box ``player`` may fill now would score (empty before a roll)."""
    seat = playing_seat(state, player)
    if state.over or state.current != player or state.dice is None:
        return {}
    sheet, dice = state.sheet, state.dice
    return {
        box.id: points(sheet, box, dice, seat.boxes)
        for box in allowed_boxes(sheet, seat.boxes, dice)
    }


def totals(state: State, player: int) -> Totals:
    """The totals of ``player``'s sheet by section, bonuses included."""
    return seat_totals(state, playing_seat(state, player))


def bonus_progress(state: State, player: int) -> BonusProgress:
    """How far ``player`` is from the upper bonus."""
    return sheet_bonus_progress(state.sheet, playing_seat(state, player).boxes)
