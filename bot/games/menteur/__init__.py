"""Dés du menteur (Liar's dice, Perudo without Palifico or Calza): RULES.md §3, pure.

Same shape as every game: ``legal_actions(state, player)`` lists what a player may do now;
``apply(state, action)`` checks the action, *decides* its events, then *evolves* a copy of
the state by folding them (an illegal action raises a ``GameError`` and leaves the state
as it was); ``replay(initial, events)`` folds the same events again.

A round starts with one ``Roll`` that carries every active player's fresh dice (``complete``
fills them from the caller's ``random.Random``). Each hand travels only in an event private
to its owner; the public news is who opens and how many dice each player has. All hands
become public together, in the ``Revealed`` event of a challenge.
"""

from bot.games.menteur.actions import (
    Action,
    Bid,
    Challenge,
    Leave,
    Roll,
    Stop,
)
from bot.games.menteur.bids import (
    count,
    minimum_for,
    opening_faces,
    probability_at_least,
    raises,
)
from bot.games.menteur.engine import (
    DECIDERS,
    apply,
    replay,
)
from bot.games.menteur.events import (
    EVENTS,
    BidMade,
    Challenged,
    DieLost,
    GameEnded,
    GameWon,
    HandDealt,
    PlayerEliminated,
    PlayerLeft,
    Revealed,
    RoundAbandoned,
    RoundEnded,
    RoundStarted,
    TurnPassed,
)
from bot.games.menteur.legal import (
    complete,
    legal_actions,
    turn_actions,
)
from bot.games.menteur.rules import (
    BID,
    FACES,
    IN,
    JOKER,
    LEFT,
    MAX_PLAYERS,
    MIN_PLAYERS,
    OUT,
    OVER,
    ROLL,
    SCHEMA_VERSION,
    STANDARD,
    STARTING_DICE,
    BidTooLow,
    BidValue,
    Hand,
    InvalidBid,
    Phase,
    Rules,
    Status,
)
from bot.games.menteur.state import (
    Seat,
    State,
    dice_in_play,
    minimal_raises,
    new_game,
)
from bot.games.menteur.view import (
    BidView,
    SeatView,
    View,
    view,
)
from bot.kernel.errors import (
    Eliminated,
    GameError,
    GameOver,
    InvalidDice,
    InvalidPlayers,
    InvalidRules,
    NotNow,
    NotYourTurn,
    UnknownPlayer,
)
from bot.kernel.events import (
    PRIVATE,
    PUBLIC,
    SECRET,
    Event,
)

__all__ = [
    "BID",
    "DECIDERS",
    "EVENTS",
    "FACES",
    "IN",
    "JOKER",
    "LEFT",
    "MAX_PLAYERS",
    "MIN_PLAYERS",
    "OUT",
    "OVER",
    "PRIVATE",
    "PUBLIC",
    "ROLL",
    "SCHEMA_VERSION",
    "SECRET",
    "STANDARD",
    "STARTING_DICE",
    "Action",
    "Bid",
    "BidMade",
    "BidTooLow",
    "BidValue",
    "BidView",
    "Challenge",
    "Challenged",
    "DieLost",
    "Eliminated",
    "Event",
    "GameEnded",
    "GameError",
    "GameOver",
    "GameWon",
    "Hand",
    "HandDealt",
    "InvalidBid",
    "InvalidDice",
    "InvalidPlayers",
    "InvalidRules",
    "Leave",
    "NotNow",
    "NotYourTurn",
    "Phase",
    "PlayerEliminated",
    "PlayerLeft",
    "Revealed",
    "Roll",
    "RoundAbandoned",
    "RoundEnded",
    "RoundStarted",
    "Rules",
    "Seat",
    "SeatView",
    "State",
    "Status",
    "Stop",
    "TurnPassed",
    "UnknownPlayer",
    "View",
    "apply",
    "complete",
    "count",
    "dice_in_play",
    "legal_actions",
    "minimal_raises",
    "minimum_for",
    "new_game",
    "opening_faces",
    "probability_at_least",
    "raises",
    "replay",
    "turn_actions",
    "view",
]
