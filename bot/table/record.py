"""A table: one game in one channel, its seats (humans and named CPU players), its lobby,
its public message and timers. The Discord layer knows the game only through what a
table shows of it: its views, its legal moves, its step and whose turn it is (and, once it
is over, its results and its event log)."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

from bot.games import REGISTRY
from bot.kernel.events import Event
from bot.kernel.spec import GameSpec
from bot.storage import GameRecord, GameResults

CPU_NAMES = (
    "Dédé",
    "Josiane",
    "Bébert",
    "Mimile",
    "Lulu",
    "Gégé",
    "Nénette",
    "Titi",
    "Framboise",
)
CPU_LEVELS = ("facile", "moyen", "difficile")
# Real dice: the system's randomness keeps no state of its own, so one generator serves
# every table, where a ``random.Random`` each would add its state to every table.
SYSTEM_RANDOM = random.SystemRandom()

ViewT = TypeVar("ViewT")


@dataclass(slots=True)
class Cpu:
    name: str
    level: str


@dataclass(eq=False)
class Table:
    id: int
    guild_id: int
    channel_id: int
    kind: str
    starter: int
    lang: str
    rules: Any  # the game's Rules
    players: list[int]  # the lobby's players in joining order (CPUs included)
    cpus: dict[int, Cpu] = field(default_factory=dict)
    # The display names of the humans, as Discord gave them when they joined: for pictures,
    # where a mention cannot be drawn (the bot has no members intent to look them up).
    names: dict[int, str] = field(default_factory=dict)
    status: str = "lobby"
    state: Any = None  # the game's State once started
    version: int = 0
    timeouts: dict[int, int] = field(default_factory=dict)
    deadline: float | None = None  # wall-clock time when the turn times out: its timer's due
    turn_seconds: float | None = None  # this table's turn timer (None: the bot's default)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    rng: random.Random = field(default=SYSTEM_RANDOM)
    timer: asyncio.Task[None] | None = None  # a CPU's move to come (see Turns.schedule)
    retries: int = 0  # a bot's move tried again after failures, in a row
    results: GameResults | None = None  # what the finished game added to the leaderboards
    # The finished game's whole event log (hidden dice included), as its scoring read it:
    # what its end's standings are told from.
    event_log: Sequence[Event] = ()

    # ---- who is who

    def is_cpu(self, player: int) -> bool:
        return player in self.cpus

    def name(self, player: int) -> str:
        """A mention for a human, the name for a CPU (public messages mention people)."""
        cpu = self.cpus.get(player)
        if cpu is not None:
            return f"**{cpu.name}** 🤖"
        return f"<@{player}>"

    def display_name(self, player: int) -> str | None:
        """A plain name (no mention) for pictures: the CPU's, or the one a human joined with."""
        cpu = self.cpus.get(player)
        return cpu.name if cpu is not None else self.names.get(player)

    def humans(self) -> list[int]:
        return [p for p in self.players if p not in self.cpus]

    @property
    def running(self) -> bool:
        return self.status in ("lobby", "active")

    def seated(self, player: int) -> bool:
        if self.state is None:
            return player in self.players
        return REGISTRY[self.kind].in_game(self.state, player)

    # ---- what the Discord layer may know of the game: views, never the state

    @property
    def started(self) -> bool:
        return self.state is not None

    @property
    def step(self) -> int:
        """The game's decision point (0 in the lobby): components carry it."""
        return self.state.step if self.state is not None else 0

    @property
    def current(self) -> int | None:
        """Who is to act now (None in the lobby and once over)."""
        return self.state.current if self.state is not None else None

    @property
    def over(self) -> bool:
        return self.state is not None and bool(self.state.over)

    def view(self, player: int | None = None) -> Any:
        """What ``player`` may know of the game (None: what the channel may know)."""
        if self.state is None:
            raise TableError("not_started")
        return REGISTRY[self.kind].view(self.state, player)

    def view_as(self, spec: GameSpec[Any, Any, ViewT], player: int | None = None) -> ViewT:
        """``view``, typed as the views of ``spec``, the table's game (another game's spec
        is a mistake, refused)."""
        if spec.name != self.kind:
            raise ValueError(f"table {self.id} plays {self.kind}, not {spec.name}")
        if self.state is None:
            raise TableError("not_started")
        return spec.view(self.state, player)

    def legal(self, player: int) -> list[Any]:
        """What ``player`` may do now (nothing in the lobby); rolls come without their dice."""
        if self.state is None:
            return []
        return REGISTRY[self.kind].legal_actions(self.state, player)

    def check(self, action: Any) -> None:
        """Raise the game's refusal if ``action`` is not allowed now (nothing is played)."""
        if self.state is None:
            raise TableError("not_started")
        kind = REGISTRY[self.kind]
        kind.apply(self.state, kind.complete(self.state, action, random.Random(0)))

    # ---- persistence

    def meta(self) -> dict[str, Any]:
        return {
            "starter": self.starter,
            "lang": self.lang,
            "rules": REGISTRY[self.kind].rules_to_json(self.rules),
            "players": list(self.players),
            "cpus": {str(k): [v.name, v.level] for k, v in self.cpus.items()},
            "names": {str(k): v for k, v in self.names.items()},
            "timeouts": {str(k): v for k, v in self.timeouts.items()},
            "turn_seconds": self.turn_seconds,
        }

    @classmethod
    def from_record(cls, record: GameRecord, rng: random.Random) -> Table:
        meta = record.meta
        kind = REGISTRY[record.kind]
        table = cls(
            id=record.id,
            guild_id=record.guild_id,
            channel_id=record.channel_id,
            kind=record.kind,
            starter=meta["starter"],
            lang=meta["lang"],
            rules=kind.rules_from_json(meta["rules"]),
            players=list(meta["players"]),
            cpus={int(k): Cpu(v[0], v[1]) for k, v in meta["cpus"].items()},
            names={int(k): v for k, v in meta.get("names", {}).items()},
            status=record.status,
            state=kind.state_from_json(record.state) if record.state else None,
            version=record.version,
            timeouts={int(k): v for k, v in meta.get("timeouts", {}).items()},
            # Where a release before the timers table kept the turn's deadline (see
            # TableRunner.restore): a timer's due is the deadline now.
            deadline=meta.get("deadline"),
            turn_seconds=meta.get("turn_seconds"),
            rng=rng,
        )
        return table


class TableError(Exception):
    """A table-level refusal (not a rule of the game): ``code`` and ``params`` for the UI."""

    def __init__(self, code: str, **params: Any) -> None:
        super().__init__(code)
        self.code = code
        self.params = params
