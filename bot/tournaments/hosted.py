"""A tournament as a server hosts it: the rules engine's ``Tournament`` with what running it
on Discord keeps beside it (the game and its rules, the organizer, the sign-ups and their
deadline, each round's deadline, each match's thread, check-ins and game), stored as one
JSON document (``TournamentStore``) with a schema version. docs/tournaments.md.

Pure: no Discord, no database, no clock (the times are given).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from bot.tournaments.model import DUEL_SEATS, POOLS, Format, Options, Tournament

SCHEMA = 1
SIGNUP, RUNNING, OVER, CANCELLED = "signup", "running", "over", "cancelled"
KIND = "tournoi"  # the kind of a tournament's timer: ``tournoi:{id}``


def timer_key(tournament_id: int) -> str:
    return f"{KIND}:{tournament_id}"


@dataclass(frozen=True, slots=True)
class Game:
    """A game a tournament may be of: its table's game (``kind``), the formats it plays
    and how many seats its tables may have."""

    name: str  # as the organizer chooses it: yades, menteur, maya, mia
    kind: str  # the table's game (REGISTRY): Mia is Maya in its lives mode
    formats: tuple[Format, ...]
    most_seats: int  # a pool table's most (a duel's is 2)
    # The game comes to no end by itself (Maya's party mode): its tables are stopped at
    # the round's deadline and ranked as they stand.
    endless: bool = False

    @property
    def board(self) -> str:
        """The leaderboard whose ratings seed it: each game's bears its name (Mia's too)."""
        return self.name


GAMES: dict[str, Game] = {
    game.name: game
    for game in (
        Game("yades", "yades", (Format.SINGLE_ELIMINATION, Format.SWISS), DUEL_SEATS),
        Game("menteur", "menteur", (Format.SINGLE_ELIMINATION, Format.SWISS, POOLS), 6),
        Game("mia", "maya", (POOLS,), 10),
        Game("maya", "maya", (POOLS,), 10, endless=True),
    )
}


@dataclass(frozen=True, slots=True)
class MatchTable:
    """Where a match is played: its thread (None: the tournament's channel), its check-in
    message there, who checked in, and its table's game once opened."""

    thread: int | None = None
    message: int | None = None
    present: tuple[int, ...] = ()
    game: int | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "thread": self.thread,
            "message": self.message,
            "present": list(self.present),
            "game": self.game,
        }

    @classmethod
    def from_json(cls, raw: dict[str, Any]) -> MatchTable:
        return cls(raw["thread"], raw["message"], tuple(raw["present"]), raw["game"])


@dataclass(frozen=True, slots=True)
class Hosted:
    """A tournament on a server, from its sign-ups to its end."""

    game: str  # a key of GAMES
    organizer: int
    lang: str  # its public messages' language
    rules: dict[str, Any]  # its tables' rules, as the game stores them
    options: Options
    signup_ends: float  # Unix time
    round_seconds: float  # each round's time, from its opening
    turn_seconds: float | None = None  # its tables' turn timer (None: the bot's default)
    status: str = SIGNUP
    entrants: tuple[int, ...] = ()  # in sign-up order
    names: dict[int, str] = field(default_factory=dict)  # as they signed up (the web page)
    removed: tuple[int, ...] = ()  # taken out by the organizer (sign-ups, or withdrawn)
    tournament: Tournament | None = None  # once started
    round_ends: float | None = None  # the current round's deadline
    tables: dict[str, MatchTable] = field(default_factory=dict)  # by match id, every round's
    message: int | None = None  # its sign-up message in the channel
    # What the channel is still to be told (a result, a round, the end), stored with the
    # change it tells, and cleared once told: a crash in between tells it after the restart.
    unsaid: str | None = None
    # Its organizer was told that matches are played in the channel for want of threads
    # (Discord rate-limiting their creation): once a tournament.
    told_unthreaded: bool = False

    @property
    def spec(self) -> Game:
        return GAMES[self.game]

    @property
    def open(self) -> bool:
        return self.status in (SIGNUP, RUNNING)

    def table(self, match_id: str) -> MatchTable:
        return self.tables.get(match_id, MatchTable())

    def with_table(self, match_id: str, table: MatchTable) -> Hosted:
        return replace(self, tables={**self.tables, match_id: table})

    # ---- JSON

    def to_json(self) -> dict[str, Any]:
        return {
            "schema": SCHEMA,
            "game": self.game,
            "organizer": self.organizer,
            "lang": self.lang,
            "rules": self.rules,
            "options": self.options.to_json(),
            "signup_ends": self.signup_ends,
            "round_seconds": self.round_seconds,
            "turn_seconds": self.turn_seconds,
            "status": self.status,
            "entrants": list(self.entrants),
            "names": {str(k): v for k, v in self.names.items()},
            "removed": list(self.removed),
            "tournament": None if self.tournament is None else self.tournament.to_json(),
            "round_ends": self.round_ends,
            "tables": {k: v.to_json() for k, v in self.tables.items()},
            "message": self.message,
            "unsaid": self.unsaid,
            "told_unthreaded": self.told_unthreaded,
        }

    @classmethod
    def from_json(cls, raw: dict[str, Any]) -> Hosted:
        if raw.get("schema") != SCHEMA:
            raise ValueError(f"not a hosted tournament of schema {SCHEMA}")
        tournament = raw["tournament"]
        return cls(
            game=raw["game"],
            organizer=raw["organizer"],
            lang=raw["lang"],
            rules=raw["rules"],
            options=Options.from_json(raw["options"]),
            signup_ends=raw["signup_ends"],
            round_seconds=raw["round_seconds"],
            turn_seconds=raw["turn_seconds"],
            status=raw["status"],
            entrants=tuple(raw["entrants"]),
            names={int(k): v for k, v in raw["names"].items()},
            removed=tuple(raw["removed"]),
            tournament=None if tournament is None else Tournament.from_json(tournament),
            round_ends=raw["round_ends"],
            tables={k: MatchTable.from_json(v) for k, v in raw["tables"].items()},
            message=raw["message"],
            unsaid=raw["unsaid"],
            told_unthreaded=raw.get("told_unthreaded", False),
        )


def table_ranking(
    placed: Sequence[Sequence[int]], players: Sequence[int], seeds: Sequence[int]
) -> tuple[int, ...]:
    """A finished (or stopped) table's order of ``players``, best first, with no tie, from
    its game's places (``placed``: groups of players sharing a place, best first, as the
    leaderboards count them): players who share a place by seed (``seeds``: the
    tournament's players, best seed first), then anyone the game did not place, by seed.
    docs/tournaments.md#results."""
    by_seed = {player: index for index, player in enumerate(seeds)}

    def seed(player: int) -> int:
        return by_seed.get(player, len(by_seed))

    order: list[int] = []
    for group in placed:
        order += sorted((p for p in group if p in players and p not in order), key=seed)
    order += sorted((p for p in players if p not in order), key=seed)
    return tuple(order)
