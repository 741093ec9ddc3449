"""A menteur game as it stands, and how it is stored (JSON, with a schema version)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from bot.games.menteur.bids import raises
from bot.games.menteur.rules import (
    IN,
    MAX_PLAYERS,
    MIN_PLAYERS,
    OVER,
    ROLL,
    SCHEMA_VERSION,
    BidValue,
    Hand,
    Phase,
    Rules,
    Status,
)
from bot.kernel.errors import GameOver, InvalidPlayers
from bot.kernel.spec import Ending


@dataclass(slots=True)
class Seat:
    player: int
    status: Status = IN
    dice: int = 0  # how many dice the player has left
    # This round's dice (None between rounds): hidden, only the seat's player may know them.
    hand: Hand | None = field(default=None, metadata={"hidden": True, "owner": "player"})

    def copy(self) -> Seat:
        return Seat(self.player, self.status, self.dice, self.hand)


@dataclass(slots=True)
class State:
    rules: Rules
    seats: list[Seat]  # in seating (and turn) order
    phase: Phase = ROLL
    current: int | None = None  # the one player to act (None when over)
    round: int = 0
    step: int = 0  # counts decision points: changes whenever the phase or current player does
    bid: BidValue | None = None  # the bid to beat
    bidder: int | None = None
    history: list[tuple[int, int, int]] = field(default_factory=list)  # (player, qty, face)
    winner: int | None = None
    ending: Ending | None = None  # how the game ended, once over
    # Whose Palifico round this is (or the next one, between rounds): ones are not jokers
    # and every bid keeps the opening bid's face.
    palifico: int | None = None
    palificos: list[int] = field(default_factory=list)  # who had theirs: once per game

    def copy(self) -> State:
        return State(
            self.rules,
            [seat.copy() for seat in self.seats],
            self.phase,
            self.current,
            self.round,
            self.step,
            self.bid,
            self.bidder,
            list(self.history),
            self.winner,
            self.ending,
            self.palifico,
            list(self.palificos),
        )

    # ---- queries

    @property
    def over(self) -> bool:
        return self.phase == OVER

    @property
    def jokers(self) -> bool:
        """Whether ones are jokers this round (never in a Palifico round)."""
        return self.rules.jokers and self.palifico is None

    @property
    def locked_face(self) -> int | None:
        """In a Palifico round, the face every bid keeps once the round is opened."""
        if self.palifico is None or not self.history:
            return None
        return self.history[0][2]

    def seat(self, player: int) -> Seat | None:
        for seat in self.seats:
            if seat.player == player:
                return seat
        return None

    def active(self) -> list[int]:
        """Players still in the game, in seating order."""
        return [seat.player for seat in self.seats if seat.status == IN]

    def next_after(self, player: int, *, skip: int | None = None) -> int:
        """The next active player after ``player`` (who need not be active any more)."""
        seats = self.seats
        size = len(seats)
        index = next(i for i, seat in enumerate(seats) if seat.player == player)
        for offset in range(1, size + 1):
            seat = seats[(index + offset) % size]
            if seat.status == IN and seat.player != skip:
                return seat.player
        raise GameOver()

    # ---- JSON

    def to_json(self) -> dict[str, Any]:
        return {
            "schema": SCHEMA_VERSION,
            "game": "menteur",
            "rules": self.rules.to_json(),
            "seats": [
                {
                    "player": seat.player,
                    "status": seat.status,
                    "dice": seat.dice,
                    "hand": list(seat.hand) if seat.hand is not None else None,
                }
                for seat in self.seats
            ],
            "phase": self.phase,
            "current": self.current,
            "round": self.round,
            "step": self.step,
            "bid": list(self.bid) if self.bid is not None else None,
            "bidder": self.bidder,
            "history": [list(entry) for entry in self.history],
            "winner": self.winner,
            "ending": self.ending,
            "palifico": self.palifico,
            "palificos": list(self.palificos),
        }

    @classmethod
    def from_json(cls, raw: dict[str, Any]) -> State:
        if raw.get("schema") != SCHEMA_VERSION or raw.get("game") != "menteur":
            raise ValueError(f"not a Dés du menteur state of schema {SCHEMA_VERSION}")
        bid = raw["bid"]
        return cls(
            rules=Rules.from_json(raw["rules"]),
            seats=[
                Seat(
                    seat["player"],
                    Status(seat["status"]),
                    seat["dice"],
                    tuple(seat["hand"]) if seat["hand"] is not None else None,
                )
                for seat in raw["seats"]
            ],
            phase=Phase(raw["phase"]),
            current=raw["current"],
            round=raw["round"],
            step=raw["step"],
            bid=(bid[0], bid[1]) if bid is not None else None,
            bidder=raw["bidder"],
            history=[(p, q, f) for p, q, f in raw["history"]],
            winner=raw["winner"],
            ending=Ending(raw["ending"]) if raw.get("ending") else None,
            # Stored before the variants: no Palifico round yet.
            palifico=raw.get("palifico"),
            palificos=list(raw.get("palificos", [])),
        )


def new_game(players: list[int], rules: Rules | None = None) -> State:
    """A game in the order of ``players`` (the caller shuffles it); the first one opens."""
    rules = (rules or Rules()).validated()
    if len(set(players)) != len(players):
        raise InvalidPlayers(reason="duplicate", players=list(players))
    if not MIN_PLAYERS <= len(players) <= MAX_PLAYERS:
        raise InvalidPlayers(reason="count", count=len(players))
    return State(
        rules=rules,
        seats=[Seat(player, dice=rules.dice) for player in players],
        current=players[0],
    )


def dice_in_play(state: State) -> int:
    """How many dice the active players hold between them."""
    return sum(seat.dice for seat in state.seats if seat.status == IN)


def minimal_raises(state: State) -> list[BidValue]:
    """The smallest legal bid on each face now, by face (the openings before any bid);
    in a Palifico round, on the opening's face only."""
    return raises(state.bid, state.jokers, dice_in_play(state), state.locked_face)
