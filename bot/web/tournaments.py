"""What the web page shows of a server's tournaments, as plain rows: each tournament's line
in the list, its standings and its bracket. docs/tournaments.md, docs/playing.md.

Pure: the rows come from a hosted tournament (``bot.tournaments.hosted``) and the names
known beside it, nothing else, so that what the page shows can be set against what the
Discord channel says (each player's place, each match's winner) without a browser.

A player is named as they signed up (``Hosted.names``), else by the name the server knows
them by (``known``: ``Repository.player_names``), else by a neutral label ("Player #1234",
the end of their id): never by their bare id.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from bot.i18n import t
from bot.tournaments import (
    POOLS,
    SINGLE_ELIMINATION,
    SWISS,
    BracketMatch,
    MatchStatus,
    bracket,
    standings,
    winner,
)
from bot.tournaments.hosted import OVER, Hosted

NOBODY = "—"  # a line with nobody on it, or someone not known yet
WALKOVER = "walkover"  # a match's status past round 1 of single elimination: a lone player


@dataclass(frozen=True, slots=True)
class TournamentRow:
    """A tournament's line in the server's list. ``round``: the latest round opened (None
    before it starts); ``rounds``: the rounds planned (None in pools, where the forfeits
    decide); ``final``: the latest round is the final. ``winner``: once it is over, if
    anyone won."""

    id: int
    game: str  # a key of hosted.GAMES
    format: str  # a Format's value
    status: str  # signup, running, over (hosted's)
    entrants: tuple[str, ...]  # their names, in sign-up order
    round: int | None
    rounds: int | None
    final: bool
    winner: int | None
    winner_name: str | None


@dataclass(frozen=True, slots=True)
class StandingRow:
    """A player's place and the format's figures: Swiss ``points`` and ``buchholz``; in
    single elimination and pools the ``rounds`` come through; ``wins`` in every format."""

    player: int
    name: str
    place: int  # 1 first; shared in single elimination and pools
    seed: int
    wins: int
    points: int | None = None
    buchholz: int | None = None
    rounds: int | None = None


@dataclass(frozen=True, slots=True)
class LineRow:
    """A seat of a match. ``player`` None: nobody (a bye's empty line) or not known yet."""

    player: int | None
    name: str
    place: int | None = None  # at the table, once decided
    won: bool = False  # the match's winner
    advancing: bool = False  # goes on: a duel's winner in single elimination, a qualifier
    forfeited: bool = False


@dataclass(frozen=True, slots=True)
class MatchRow:
    """``status``: a MatchStatus value, or ``walkover``; ``winner``: None until decided,
    and when nobody won (every player forfeited, an empty slot)."""

    id: str | None  # None in a round not open yet
    status: str
    winner: int | None
    lines: tuple[LineRow, ...]


@dataclass(frozen=True, slots=True)
class RoundRow:
    number: int
    final: bool
    matches: tuple[MatchRow, ...]  # none for a Swiss round still to be paired


def name(hosted: Hosted, player: int, lang: str, known: Mapping[int, str]) -> str:
    """``player``'s name on the page (see the module's docstring)."""
    return (
        hosted.names.get(player) or known.get(player) or t(lang, "web.someone", id=str(player)[-4:])
    )


def named_players(hosted: Hosted) -> tuple[int, ...]:
    """Everyone the page may name: the entrants, signed up or seeded."""
    seeded = hosted.tournament.players if hosted.tournament is not None else ()
    return tuple(dict.fromkeys((*hosted.entrants, *seeded)))


def unnamed(hosted: Hosted) -> tuple[int, ...]:
    """The players ``hosted`` has no name for: those to look up in the server's names."""
    return tuple(p for p in named_players(hosted) if not hosted.names.get(p))


def tournament_row(
    tournament_id: int, hosted: Hosted, lang: str, known: Mapping[int, str]
) -> TournamentRow:
    engine = hosted.tournament
    current: int | None = None
    final = False
    if engine is not None:
        current = len(engine.rounds)
        final = bracket(engine).rounds[current - 1].final
    won = winner(engine) if engine is not None and hosted.status == OVER else None
    return TournamentRow(
        id=tournament_id,
        game=hosted.game,
        format=str(hosted.options.format),
        status=hosted.status,
        entrants=tuple(name(hosted, p, lang, known) for p in named_players(hosted)),
        round=current,
        rounds=engine.planned_rounds if engine is not None else None,
        final=final,
        winner=won,
        winner_name=None if won is None else name(hosted, won, lang, known),
    )


def standings_rows(hosted: Hosted, lang: str, known: Mapping[int, str]) -> list[StandingRow]:
    """Every entrant by place, best first (none before the tournament starts)."""
    engine = hosted.tournament
    if engine is None:
        return []
    swiss = engine.format == SWISS
    return [
        StandingRow(
            player=s.player,
            name=name(hosted, s.player, lang, known),
            place=s.place,
            seed=s.seed,
            wins=s.wins,
            points=s.score if swiss else None,
            buchholz=s.buchholz if swiss else None,
            rounds=None if swiss else s.score,
        )
        for s in standings(engine)
    ]


def _line(
    hosted: Hosted, match: BracketMatch, player: int | None, lang: str, known: Mapping[int, str]
) -> LineRow:
    if player is None:
        return LineRow(None, NOBODY)
    decided = match.status in (MatchStatus.PLAYED, MatchStatus.BYE)
    return LineRow(
        player=player,
        name=name(hosted, player, lang, known),
        place=match.ranking.index(player) + 1 if decided and player in match.ranking else None,
        won=player == _winner(match),
        advancing=player in match.advancing,
        forfeited=player in match.forfeited,
    )


def _winner(match: BracketMatch) -> int | None:
    """The first of a decided match's ranking, unless they forfeited (as ``Match.winner``)."""
    if not match.ranking or match.ranking[0] in match.forfeited:
        return None
    return match.ranking[0]


def bracket_rows(hosted: Hosted, lang: str, known: Mapping[int, str]) -> list[RoundRow]:
    """Every round opened, with its matches; in single elimination the rounds to come too,
    their players not known yet named ``—``; a Swiss round still to be paired has no match.
    A decided pool table lists its players best first; any other match, in seat order."""
    engine = hosted.tournament
    if engine is None:
        return []
    drawn = bracket(engine)
    rounds = []
    for round_ in drawn.rounds:
        matches = []
        for match in round_.matches:
            status = str(match.status)
            if (
                drawn.format == SINGLE_ELIMINATION
                and round_.number > 1
                and match.status == MatchStatus.BYE
            ):
                status = WALKOVER
            lines = match.lines
            if drawn.format == POOLS and match.ranking:
                lines = match.ranking
            matches.append(
                MatchRow(
                    match.id,
                    status,
                    _winner(match),
                    tuple(_line(hosted, match, p, lang, known) for p in lines),
                )
            )
        rounds.append(RoundRow(round_.number, round_.final, tuple(matches)))
    return rounds
