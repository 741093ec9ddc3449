"""What one menteur player may know: their own dice, everyone's dice counts and the bids."""

from __future__ import annotations

from dataclasses import dataclass

from bot.games.menteur.rules import IN, OVER, BidValue, Hand, Phase, Rules, Status
from bot.games.menteur.state import State, dice_in_play


@dataclass(frozen=True, slots=True)
class SeatView:
    player: int
    status: Status
    dice: int  # dice left: public


@dataclass(frozen=True, slots=True)
class BidView:
    player: int
    quantity: int
    face: int


@dataclass(frozen=True, slots=True)
class View:
    """What one player may know: their own dice, everyone's dice counts and the bids.

    CPU policies decide from this, never from ``State``, so they cannot see other hands;
    ``player`` None is what anyone watching the channel may know (no hand at all).
    """

    player: int | None
    rules: Rules
    phase: Phase
    current: int | None
    round: int
    seats: tuple[SeatView, ...]
    my_dice: Hand | None  # this round's hand (None between rounds, or when not playing)
    bid: BidValue | None  # the bid to beat
    bidder: int | None
    history: tuple[BidView, ...]  # this round's bids, oldest first
    dice_in_play: int
    unknown: int  # dice in play this player cannot see
    winner: int | None
    step: int = 0  # the decision point: a component drawn for another one is out of date
    palifico: int | None = None  # whose Palifico round this is (the next one, between rounds)
    # This round's rules, as ``State.jokers`` and ``State.locked_face`` derive them: whether
    # ones are jokers (never in a Palifico round), and the face a Palifico round keeps.
    jokers: bool = True
    locked_face: int | None = None

    @property
    def over(self) -> bool:
        return self.phase == OVER

    def seat(self, player: int) -> SeatView | None:
        return next((seat for seat in self.seats if seat.player == player), None)

    def dice_of(self, player: int) -> int:
        """How many dice ``player`` has left (0 when out or gone)."""
        return next((seat.dice for seat in self.seats if seat.player == player), 0)


def view(state: State, player: int | None) -> View:
    seat = state.seat(player) if player is not None else None
    mine = seat.hand if seat is not None and seat.status == IN else None
    total = dice_in_play(state)
    return View(
        player=player,
        rules=state.rules,
        phase=state.phase,
        current=state.current,
        round=state.round,
        seats=tuple(SeatView(s.player, s.status, s.dice) for s in state.seats),
        my_dice=mine,
        bid=state.bid,
        bidder=state.bidder,
        history=tuple(BidView(p, q, f) for p, q, f in state.history),
        dice_in_play=total,
        unknown=total - (len(mine) if mine is not None else 0),
        winner=state.winner,
        step=state.step,
        palifico=state.palifico,
        jokers=state.jokers,
        locked_face=state.locked_face,
    )
