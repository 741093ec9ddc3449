"""A tournament as data: its format and options, its entrants in seed order, its rounds of
matches, and how it is stored (JSON, with a schema version). docs/tournaments.md#entering.

Entrants are people's ids: a CPU never takes a tournament seat, so nothing here knows of
one (the ``/tournoi`` layer enters only people, and a tournament table fills no empty seat
with a CPU).
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass, replace
from enum import StrEnum
from typing import Any

from bot.tournaments.errors import InvalidOptions

SCHEMA_VERSION = 1
MIN_ENTRANTS = 2
DUEL_SEATS = 2
MIN_POOL_SEATS = 3  # a pool table of two could leave a lone player at another table


class Format(StrEnum):
    SINGLE_ELIMINATION = "single_elimination"  # duels, a bracket, a loss puts one out
    SWISS = "swiss"  # duels, a set number of rounds paired by score
    POOLS = "pools"  # party tables, the best of each go on, up to one final table


SINGLE_ELIMINATION, SWISS, POOLS = Format
DUELS: frozenset[Format] = frozenset({SINGLE_ELIMINATION, SWISS})


class Status(StrEnum):
    RUNNING = "running"
    OVER = "over"


RUNNING, OVER = Status


@dataclass(frozen=True, slots=True)
class Entrant:
    """A person entered, with the rating they are seeded by."""

    player: int
    rating: float


@dataclass(frozen=True, slots=True)
class Options:
    """What the organizer chose. ``rounds``: Swiss only (None: ceil(log2 n));
    ``qualifiers``: pools only, how many of each table go on."""

    format: Format
    seats: int = DUEL_SEATS
    rounds: int | None = None
    qualifiers: int = 1

    def resolved(self, entrants: int) -> Options:
        """These options checked for ``entrants`` people, Swiss's default rounds filled."""
        for name in ("seats", "qualifiers"):
            value = getattr(self, name)
            if not isinstance(value, int) or isinstance(value, bool):
                raise InvalidOptions(option=name, value=value)
        if self.format in DUELS:
            if self.seats != DUEL_SEATS:
                raise InvalidOptions(option="seats", value=self.seats)
            if self.qualifiers != 1:
                raise InvalidOptions(option="qualifiers", value=self.qualifiers)
        else:
            if self.seats < MIN_POOL_SEATS:
                raise InvalidOptions(option="seats", value=self.seats)
            if not 1 <= self.qualifiers < self.seats:
                raise InvalidOptions(option="qualifiers", value=self.qualifiers)
        if self.format != SWISS:
            if self.rounds is not None:
                raise InvalidOptions(option="rounds", value=self.rounds)
            return self
        rounds = math.ceil(math.log2(entrants)) if self.rounds is None else self.rounds
        # Fewer rounds than players: nobody would have to meet anyone twice.
        if not isinstance(rounds, int) or isinstance(rounds, bool) or not 1 <= rounds < entrants:
            raise InvalidOptions(option="rounds", value=rounds)
        return replace(self, rounds=rounds)

    def to_json(self) -> dict[str, Any]:
        return {
            "format": str(self.format),
            "seats": self.seats,
            "rounds": self.rounds,
            "qualifiers": self.qualifiers,
        }

    @classmethod
    def from_json(cls, raw: dict[str, Any]) -> Options:
        return cls(Format(raw["format"]), raw["seats"], raw["rounds"], raw["qualifiers"])


@dataclass(frozen=True, slots=True)
class Match:
    """One table of a round: its players in seat order and, once decided, its ranking.

    ``ranking`` holds every player, best first, those who forfeited last in seat order;
    ``forfeited``: the players absent at the deadline, in seat order. A match of one player
    is a bye (or a walkover), decided from the start; one of none is an empty slot of a
    bracket, whose two players both forfeited the match before."""

    id: str
    players: tuple[int, ...]
    ranking: tuple[int, ...] | None = None
    forfeited: tuple[int, ...] = ()

    @property
    def decided(self) -> bool:
        return self.ranking is not None

    @property
    def bye(self) -> bool:
        return len(self.players) == 1

    @property
    def present(self) -> tuple[int, ...]:
        """The players who did not forfeit, in seat order."""
        return tuple(p for p in self.players if p not in self.forfeited)

    @property
    def winner(self) -> int | None:
        """The first of the ranking, unless they forfeited (then nobody won)."""
        if not self.ranking or self.ranking[0] in self.forfeited:
            return None
        return self.ranking[0]

    def place(self, player: int) -> int | None:
        """``player``'s place at this table (1: first), once decided."""
        if self.ranking is None or player not in self.ranking:
            return None
        return self.ranking.index(player) + 1

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "players": list(self.players),
            "ranking": None if self.ranking is None else list(self.ranking),
            "forfeited": list(self.forfeited),
        }

    @classmethod
    def from_json(cls, raw: dict[str, Any]) -> Match:
        ranking = raw["ranking"]
        return cls(
            raw["id"],
            tuple(raw["players"]),
            None if ranking is None else tuple(ranking),
            tuple(raw["forfeited"]),
        )


def decided(match_id: str, players: tuple[int, ...]) -> Match:
    """A match with nothing to play: a bye, a walkover, or an empty bracket slot."""
    return Match(match_id, players, ranking=players)


def match_id(round_number: int, table: int) -> str:
    """``"2-3"``: round 2, third table (both from 1)."""
    return f"{round_number}-{table}"


@dataclass(frozen=True, slots=True)
class Round:
    number: int  # from 1
    matches: tuple[Match, ...]

    @property
    def over(self) -> bool:
        return all(match.decided for match in self.matches)

    def to_json(self) -> dict[str, Any]:
        return {"number": self.number, "matches": [m.to_json() for m in self.matches]}

    @classmethod
    def from_json(cls, raw: dict[str, Any]) -> Round:
        return cls(raw["number"], tuple(Match.from_json(m) for m in raw["matches"]))


@dataclass(frozen=True, slots=True)
class Tournament:
    """A tournament under way or over. ``entrants`` are in seed order (seed 1 first);
    ``rounds``: every round opened, the current one last; ``withdrawn``: those taken out
    (docs/tournaments.md#withdrawals), in the order they left."""

    options: Options
    entrants: tuple[Entrant, ...]
    rounds: tuple[Round, ...]
    status: Status = RUNNING
    withdrawn: tuple[int, ...] = ()

    @property
    def format(self) -> Format:
        return self.options.format

    @property
    def over(self) -> bool:
        return self.status == OVER

    @property
    def seats(self) -> int:
        return self.options.seats

    @property
    def planned_rounds(self) -> int | None:
        """Single elimination: ceil(log2 n); Swiss: as chosen (a Swiss tournament may end
        sooner, see ``swiss.next_round``); pools: None, the forfeits decide."""
        if self.format == SINGLE_ELIMINATION:
            return math.ceil(math.log2(len(self.entrants)))
        return self.options.rounds

    @property
    def players(self) -> tuple[int, ...]:
        """The entrants' ids in seed order."""
        return tuple(entrant.player for entrant in self.entrants)

    def seed(self, player: int) -> int:
        """``player``'s seed: 1 for the best rated."""
        return self.players.index(player) + 1

    @property
    def current(self) -> Round:
        return self.rounds[-1]

    def matches(self) -> Iterator[tuple[Round, Match]]:
        """Every match opened so far, round by round."""
        for round_ in self.rounds:
            for match in round_.matches:
                yield round_, match

    # ---- JSON

    def to_json(self) -> dict[str, Any]:
        return {
            "schema": SCHEMA_VERSION,
            "kind": "tournament",
            "options": self.options.to_json(),
            "entrants": [{"player": e.player, "rating": e.rating} for e in self.entrants],
            "rounds": [round_.to_json() for round_ in self.rounds],
            "status": str(self.status),
            "withdrawn": list(self.withdrawn),
        }

    @classmethod
    def from_json(cls, raw: dict[str, Any]) -> Tournament:
        if raw.get("schema") != SCHEMA_VERSION or raw.get("kind") != "tournament":
            raise ValueError(f"not a tournament of schema {SCHEMA_VERSION}")
        return cls(
            options=Options.from_json(raw["options"]),
            entrants=tuple(Entrant(e["player"], e["rating"]) for e in raw["entrants"]),
            rounds=tuple(Round.from_json(r) for r in raw["rounds"]),
            status=Status(raw["status"]),
            withdrawn=tuple(raw.get("withdrawn", ())),
        )
