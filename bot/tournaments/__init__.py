"""Tournaments, pure: single elimination, Swiss rounds, and pools up to a final table
(docs/tournaments.md).

The rules engine the ``/tournoi`` commands, the storage and the web bracket call: it
knows entrants by id, matches by their players and rankings, and nothing of Discord, a
database, a clock or chance (seeding follows the ratings, pairing the standings). A
tournament is a frozen ``Tournament``; each step (``record``, ``forfeit``, ``advance``)
returns a new one or raises a ``TournamentError`` (a code and params, no text).
"""

from bot.tournaments.bracket import Bracket, BracketMatch, BracketRound, MatchStatus, bracket
from bot.tournaments.engine import (
    advance,
    current_round,
    forfeit,
    is_over,
    pending_matches,
    record,
    start,
    winner,
    withdraw,
)
from bot.tournaments.errors import (
    DuplicateEntrant,
    InvalidOptions,
    InvalidRanking,
    MatchDecided,
    NotEntrant,
    NotInMatch,
    RoundNotOver,
    TooFewEntrants,
    TournamentError,
    TournamentOver,
    UnknownMatch,
)
from bot.tournaments.model import (
    DUEL_SEATS,
    MIN_ENTRANTS,
    MIN_POOL_SEATS,
    OVER,
    POOLS,
    RUNNING,
    SCHEMA_VERSION,
    SINGLE_ELIMINATION,
    SWISS,
    Entrant,
    Format,
    Match,
    Options,
    Round,
    Status,
    Tournament,
)
from bot.tournaments.seeding import bracket_order, snake
from bot.tournaments.standings import Standing, standings

__all__ = [
    "DUEL_SEATS",
    "MIN_ENTRANTS",
    "MIN_POOL_SEATS",
    "OVER",
    "POOLS",
    "RUNNING",
    "SCHEMA_VERSION",
    "SINGLE_ELIMINATION",
    "SWISS",
    "Bracket",
    "BracketMatch",
    "BracketRound",
    "DuplicateEntrant",
    "Entrant",
    "Format",
    "InvalidOptions",
    "InvalidRanking",
    "Match",
    "MatchDecided",
    "MatchStatus",
    "NotEntrant",
    "NotInMatch",
    "Options",
    "Round",
    "RoundNotOver",
    "Standing",
    "Status",
    "TooFewEntrants",
    "Tournament",
    "TournamentError",
    "TournamentOver",
    "UnknownMatch",
    "advance",
    "bracket",
    "bracket_order",
    "current_round",
    "forfeit",
    "is_over",
    "pending_matches",
    "record",
    "snake",
    "standings",
    "start",
    "winner",
    "withdraw",
]
