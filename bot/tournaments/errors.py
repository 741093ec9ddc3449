"""A tournament's refusals: each a ``GameError`` with a code and params, never user text.

The Discord layer words them in the reader's language, as it does a game's refusals.
"""

from __future__ import annotations

from bot.kernel.errors import GameError


class TournamentError(GameError):
    """An action the tournament's rules do not allow now."""

    code = "tournament_error"


class TooFewEntrants(TournamentError):
    """A tournament needs ``minimum`` entrants; ``count`` were given."""

    code = "too_few_entrants"


class DuplicateEntrant(TournamentError):
    """``player`` was entered twice."""

    code = "duplicate_entrant"


class InvalidOptions(TournamentError):
    """An option out of range or meaningless for the format (``option``, ``value``)."""

    code = "invalid_tournament_options"


class TournamentOver(TournamentError):
    code = "tournament_over"


class NotEntrant(TournamentError):
    """``player`` is not in the tournament (never entered, or withdrawn already)."""

    code = "not_entrant"


class UnknownMatch(TournamentError):
    """No match ``match`` in the current round (a past round's matches are closed)."""

    code = "unknown_match"


class MatchDecided(TournamentError):
    """Match ``match`` already has its result (a bye is decided from the start)."""

    code = "match_decided"


class InvalidRanking(TournamentError):
    """A result must rank exactly the match's present players (``expected``), once each."""

    code = "invalid_ranking"


class NotInMatch(TournamentError):
    """A forfeit names ``players`` who are not seated at match ``match``, or none at all."""

    code = "not_in_match"


class RoundNotOver(TournamentError):
    """The next round opens once every match of this one is decided (``pending``: ids)."""

    code = "round_not_over"
