"""What a player may do at a menteur table."""

from __future__ import annotations

from dataclasses import dataclass

from bot.games.menteur.rules import Hand


@dataclass(frozen=True, slots=True)
class Roll:
    """Start a round: every active player's fresh dice, one hand per player in seating
    order, each as many dice as that player has left (``complete`` fills them).
    ``player``: the opener, or None to let the table roll for whoever opens."""

    player: int | None = None
    dice: tuple[Hand, ...] | None = None


@dataclass(frozen=True, slots=True)
class Bid:
    """Claim that at least ``quantity`` dice on the table show ``face``."""

    player: int
    quantity: int
    face: int


@dataclass(frozen=True, slots=True)
class Challenge:
    """*Dudo*: the last bid is false."""

    player: int


@dataclass(frozen=True, slots=True)
class Calza:
    """The last bid is exact (the *Calza* option): neither more nor fewer dice show it."""

    player: int


@dataclass(frozen=True, slots=True)
class Leave:
    player: int


@dataclass(frozen=True, slots=True)
class Stop:
    """End the game now (the table checks who may stop it)."""


Action = Roll | Bid | Challenge | Calza | Leave | Stop
