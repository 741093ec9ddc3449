"""Tables: one game per channel, one lock per channel, write-ahead persistence, timers, CPUs.

A table is the Discord-side life of one engine game: its lobby, its seats (humans and
named CPU players), its public message, its turn timer. Every engine action goes
through ``Tables.act``, which applies it to a copy of the state, writes the events and
the new snapshot in one transaction, and only then makes the new state current: a
refused write leaves the table exactly as it was. Telling players what happened is the
``Herald``'s job (the cog), always after the write.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, Protocol

from bot.config import Settings
from bot.games import REGISTRY
from bot.kernel import rating
from bot.kernel.spec import Ending
from bot.storage import (
    ChannelBusy,
    EventRecord,
    GameRecord,
    GameResults,
    Repository,
    StorageError,
)

log = logging.getLogger(__name__)

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
ABSENT_LEVEL = "moyen"  # the CPU that plays for a player whose timer ran out
MAX_TIMEOUTS = 3
RETRY_SECONDS = (1.0, 2.0, 5.0, 10.0, 30.0)  # a bot's move the database refused, tried again
MAX_RETRIES = 5  # a failure that is not the database's: tried this many times again


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
    message_id: int | None = None
    fault_messages: dict[int, int] = field(default_factory=dict)  # fault id -> message id
    timeouts: dict[int, int] = field(default_factory=dict)
    deadline: float | None = None  # wall-clock time when the current turn times out
    turn_seconds: float | None = None  # this table's turn timer (None: the bot's default)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    rng: random.Random = field(default_factory=random.SystemRandom)
    timer: asyncio.Task[None] | None = None
    timers: dict[str, asyncio.Task[None]] = field(default_factory=dict)  # see Tables.arm
    retries: int = 0  # a bot's move tried again after failures, in a row
    results: GameResults | None = None  # what the finished game added to the leaderboards

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

    def advice(self, player: int, level: str, rng: random.Random) -> Any | None:
        """The move the CPU of ``level`` would make for ``player`` now (nothing is played)."""
        if self.state is None:
            return None
        return REGISTRY[self.kind].cpu_action(self.state, player, level, rng)

    # ---- persistence

    def meta(self) -> dict[str, Any]:
        return {
            "starter": self.starter,
            "lang": self.lang,
            "rules": REGISTRY[self.kind].rules_to_json(self.rules),
            "players": list(self.players),
            "cpus": {str(k): [v.name, v.level] for k, v in self.cpus.items()},
            "names": {str(k): v for k, v in self.names.items()},
            "message_id": self.message_id,
            "fault_messages": {str(k): v for k, v in self.fault_messages.items()},
            "timeouts": {str(k): v for k, v in self.timeouts.items()},
            "deadline": self.deadline,
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
            message_id=meta.get("message_id"),
            fault_messages={int(k): v for k, v in meta.get("fault_messages", {}).items()},
            timeouts={int(k): v for k, v in meta.get("timeouts", {}).items()},
            deadline=meta.get("deadline"),
            turn_seconds=meta.get("turn_seconds"),
            rng=rng,
        )
        return table


def _backoff(attempt: int) -> float:
    return RETRY_SECONDS[min(attempt, len(RETRY_SECONDS) - 1)]


class TableError(Exception):
    """A table-level refusal (not a rule of the game): ``code`` and ``params`` for the UI."""

    def __init__(self, code: str, **params: Any) -> None:
        super().__init__(code)
        self.code = code
        self.params = params


class Herald(Protocol):
    """Tells the channel what happened (implemented by the Discord cog)."""

    async def publish(
        self, table: Table, events: Sequence[Any], *, notes: Sequence[Any] = ()
    ) -> None: ...


# A table timer's decision once its time is up (the table locked): the move to play, if any.
Decision = Callable[["Table"], Awaitable[Any | None]]


MAX_FORCED_STEPS = 10  # steps nobody decides after one move: a deal, never an endless chain


def _forced_steps(kind: Any, state: Any, rng: random.Random) -> tuple[Any, list[Any]]:
    """Apply the steps nobody decides that ``state`` calls for (a new round's deal)."""
    events: list[Any] = []
    for _ in range(MAX_FORCED_STEPS):
        forced = kind.forced(state, rng)
        if forced is None:
            return state, events
        state, more = kind.apply(state, forced)
        events += more
    raise RuntimeError(f"more than {MAX_FORCED_STEPS} forced steps in a row")


def _records(events: Sequence[Any]) -> list[EventRecord]:
    return [EventRecord(e.type, e.visibility, e.to, e.data) for e in events]


class Tables:
    """The registry of running tables and the only way their games change."""

    def __init__(self, repository: Repository, settings: Settings) -> None:
        self.repository = repository
        self.settings = settings
        self.heralds: dict[str, Herald] = {}  # per game: who tells the channel its bot moves
        self.by_channel: dict[int, Table] = {}
        self.by_id: dict[int, Table] = {}
        self._cpu_rng = random.Random()
        self._closing = False

    def _herald(self, table: Table) -> Herald | None:
        return self.heralds.get(table.kind)

    # ---- randomness

    def _rng_for(self, table_id: int, version: int = 0) -> random.Random:
        seed = self.settings.dice_seed
        if seed is None:
            return random.SystemRandom()
        # Seeded (tests, demos): a restored table must not replay the dice it already rolled.
        return random.Random(f"{seed}:{table_id}:{version}")

    # ---- lookup

    def in_channel(self, channel_id: int) -> Table | None:
        return self.by_channel.get(channel_id)

    def get(self, table_id: int) -> Table | None:
        return self.by_id.get(table_id)

    # ---- lobby

    async def open(
        self,
        *,
        guild_id: int,
        channel_id: int,
        starter: int,
        rules: Any,
        kind: str = "maya",
        lang: str,
        cpu_count: int = 0,
        level: str = "moyen",
        turn_seconds: float | None = None,
        starter_name: str | None = None,
    ) -> Table:
        busy = self.by_channel.get(channel_id)
        if busy is not None:
            raise TableError("table_busy", game=busy.kind)
        most = REGISTRY[kind].max_players - 1
        if not 0 <= cpu_count <= min(most, len(CPU_NAMES)):
            raise TableError("cpu_count", most=min(most, len(CPU_NAMES)))
        if level not in CPU_LEVELS:
            raise TableError("cpu_level", levels=", ".join(CPU_LEVELS))
        cpus = {-(i + 1): Cpu(CPU_NAMES[i], level) for i in range(cpu_count)}
        table = Table(
            id=0,
            guild_id=guild_id,
            channel_id=channel_id,
            kind=kind,
            starter=starter,
            lang=lang,
            rules=rules,
            players=[starter, *cpus],
            cpus=cpus,
            names={starter: starter_name} if starter_name else {},
            turn_seconds=turn_seconds,
        )
        try:
            table.id = await self.repository.create_game(
                guild_id=guild_id, channel_id=channel_id, kind=kind, meta=table.meta()
            )
        except ChannelBusy:
            raise TableError("table_busy", game=kind) from None
        table.rng = self._rng_for(table.id)
        self.by_channel[channel_id] = table
        self.by_id[table.id] = table
        return table

    async def save_meta(self, table: Table) -> None:
        """Store table data that is not a game action (lobby seats, message ids, timers)."""
        await self.repository.save_game(
            table.id,
            previous_version=table.version,
            version=table.version,
            status=table.status,
            state=table.state.to_json() if table.state else None,
            meta=table.meta(),
        )

    async def join_lobby(self, table: Table, player: int, *, name: str | None = None) -> None:
        if table.status != "lobby":
            raise TableError("not_in_lobby")
        if player in table.players:
            raise TableError("already_seated")
        most = REGISTRY[table.kind].max_players
        if len(table.players) >= most:
            raise TableError("table_full", most=most)
        table.players.append(player)
        known = table.names.get(player)
        if name:
            table.names[player] = name
        try:
            await self.save_meta(table)
        except Exception:
            table.players.remove(player)
            if known is None:
                table.names.pop(player, None)
            else:
                table.names[player] = known
            raise

    async def leave_lobby(self, table: Table, player: int) -> bool:
        """Remove ``player`` from the lobby; returns True when the table closed (no human left)."""
        if player not in table.players:
            raise TableError("not_at_table")
        index = table.players.index(player)
        table.players.remove(player)
        if not table.humans():
            table.status = "stopped"
        try:
            await self.save_meta(table)
        except Exception:
            table.players.insert(index, player)
            table.status = "lobby"
            raise
        if table.status == "stopped":
            self._forget(table)
            return True
        return False

    async def settle(self, table: Table) -> list[Any]:
        """Play the steps nobody decides that are due (a game stored before they were stored
        with their move); the caller holds ``table.lock``."""
        forced = REGISTRY[table.kind].forced(table.state, table.rng) if table.state else None
        if forced is None:
            return []
        return await self.act(table, forced, in_person=False)

    async def start(self, table: Table) -> list[Any]:
        """Seat the lobby in a random order and start the game; returns the events of its
        first forced steps (a first round's deal), stored with the start."""
        if table.status != "lobby":
            raise TableError("not_in_lobby")
        kind = REGISTRY[table.kind]
        if len(table.players) < kind.min_players:
            raise TableError("need_players")
        order = list(table.players)
        table.rng.shuffle(order)
        state, events = _forced_steps(kind, kind.new_game(order, table.rules), table.rng)
        previous = table.status
        table.status, table.state = "active", state
        # The first turn has its deadline too, so that the first table message shows it.
        table.deadline = self._deadline_for(table, state)
        version = table.version + (1 if events else 0)
        try:
            await self.repository.save_game(
                table.id,
                previous_version=table.version,
                version=version,
                status=table.status,
                state=state.to_json(),
                meta=table.meta(),
                events=_records(events),
            )
        except Exception:
            table.status, table.state, table.deadline = previous, None, None
            raise
        table.version = version
        return events

    # ---- the one way a game changes

    async def act(
        self, table: Table, action: Any, *, in_person: bool = True, name: str | None = None
    ) -> list[Any]:
        """Apply, persist, then commit in memory. The caller holds ``table.lock``.

        ``in_person``: the player acted themselves (not the CPU on their behalf), which
        clears their count of timed-out turns. ``name``: the display name they act under,
        kept with the move (a newcomer's, for pictures).
        """
        if table.state is None:
            raise TableError("not_started")
        kind = REGISTRY[table.kind]
        # The runner rolls the dice a move rolls, from the table's generator.
        action = kind.complete(table.state, action, table.rng)
        state, events = kind.apply(table.state, action)
        # Steps nobody decides (a new round's deal) are stored with the move that caused them.
        state, forced = _forced_steps(kind, state, table.rng)
        events = [*events, *forced]
        status = "active"
        outcome = kind.outcome(state)
        if outcome is not None:
            status = "finished" if outcome.ending is Ending.WON else "stopped"
        player = getattr(action, "player", None)
        previous_timeouts, previous_names = table.timeouts, table.names
        if in_person and player in table.timeouts:
            table.timeouts = {k: v for k, v in table.timeouts.items() if k != player}
        if name and isinstance(player, int):
            table.names = {**table.names, player: name}
        deadline = self._deadline_after(table, state)
        try:
            results = await self._results(table, state, events) if state.over else None
            await self.repository.save_game(
                table.id,
                previous_version=table.version,
                version=table.version + 1,
                status=status,
                state=state.to_json(),
                meta={**table.meta(), "deadline": deadline},
                events=_records(events),
                results=results,
            )
        except BaseException:  # refused, failed or cancelled: the table stays as it was
            table.timeouts, table.names = previous_timeouts, previous_names
            raise
        table.state, table.version, table.status, table.deadline = (
            state,
            table.version + 1,
            status,
            deadline,
        )
        table.retries = 0  # the database takes writes again
        if results is not None:
            table.results = results
        if not table.running:
            self._forget(table)
        return events

    async def _results(self, table: Table, state: Any, events: Sequence[Any]) -> GameResults:
        """The finished game's figures and ratings for its human players (CPUs never count),
        from its whole event log (the stored one, and the events of its last move)."""
        kind = REGISTRY[table.kind]
        stored = await self.repository.events(table.id)
        logged = [kind.events.build(e.type, e.payload, e.visibility, e.recipient) for e in stored]
        humans = [seat.player for seat in state.seats if seat.player not in table.cpus]
        results = kind.results(state, [*logged, *events], humans, table.rules)
        ratings: dict[int, float] = {}
        rated_from: dict[int, float] = {}
        if len(results.figures) >= 2:
            known = await self.repository.ratings(
                table.guild_id, results.board, list(results.figures)
            )
            rated_from = {
                p: known[p].rating if p in known else rating.INITIAL_RATING for p in results.figures
            }
            ratings = rating.elo(rated_from, results.ranking)
        return GameResults(
            board=next(board for board in kind.boards if board.name == results.board),
            day=datetime.now(UTC).date().isoformat(),
            figures=results.figures,
            ratings=ratings,
            rated_from=rated_from,
        )

    def turn_seconds(self, table: Table) -> float:
        return table.turn_seconds or self.settings.turn_seconds

    def _deadline_for(self, table: Table, state: Any) -> float | None:
        if state.over or state.current is None or state.current in table.cpus:
            return None
        return time.time() + self.turn_seconds(table)

    def _deadline_after(self, table: Table, state: Any) -> float | None:
        """The deadline once ``state`` follows the table's: the same while the same decision
        waits (a vote or an accusation meanwhile gives nobody more time), else a new one."""
        before = table.state
        same = before is not None and (before.step, before.current) == (state.step, state.current)
        if same and table.deadline is not None and not state.over:
            return table.deadline
        return self._deadline_for(table, state)

    async def stop(self, table: Table) -> list[Any]:
        if table.state is None:
            table.status = "stopped"
            await self.save_meta(table)
            self._forget(table)
            return []
        return await self.act(table, REGISTRY[table.kind].stop())

    def _forget(self, table: Table) -> None:
        self.by_channel.pop(table.channel_id, None)
        self.by_id.pop(table.id, None)
        self._cancel_timers(table)

    def _cancel_timers(self, table: Table) -> None:
        current = asyncio.current_task()
        if table.timer is not None and table.timer is not current:
            table.timer.cancel()
        table.timer = None
        for task in table.timers.values():
            if task is not current:
                task.cancel()
        table.timers.clear()

    # ---- turns: CPUs, timers

    def schedule(self, table: Table) -> None:
        """After any change: arm the turn timer, or let a CPU play. The caller holds the lock."""
        current = asyncio.current_task()
        if table.timer is not None and table.timer is not current:
            table.timer.cancel()
        table.timer = None
        if self._closing or not table.running or table.state is None or table.state.over:
            return
        player = table.state.current
        if player is None:
            return
        step = table.state.step
        if player in table.cpus:
            delay = self.settings.cpu_delay_seconds
            table.timer = asyncio.create_task(self._cpu_turn(table, step, delay))
        else:
            if table.deadline is None:
                table.deadline = time.time() + self.turn_seconds(table)
            delay = max(0.0, table.deadline - time.time())
            table.timer = asyncio.create_task(self._timeout(table, step, delay))

    # A timer belongs to one decision (the engine's step): moves that leave it waiting (a vote,
    # an accusation) keep it armed, and a timer whose decision was taken does nothing.

    def _waiting(self, table: Table, step: int) -> int | None:
        """Who is to take decision ``step`` if it still waits, else None."""
        if not table.running or table.state is None or table.state.step != step:
            return None
        player: int | None = table.state.current
        return player

    async def _cpu_turn(self, table: Table, step: int, delay: float) -> None:
        await asyncio.sleep(delay)
        async with table.lock:
            player = self._waiting(table, step)
            if player is None or player not in table.cpus:
                return
            try:
                if _humans_gone(table):
                    # Everyone left (RULES.md §1): the CPUs do not play on alone in the channel.
                    events = await self.act(table, REGISTRY[table.kind].stop(), in_person=False)
                    await self._publish(table, events)
                    return
                await self._play_for(table, player, table.cpus[player].level, notes=())
            except Exception as error:
                self._retry(table, player, error)
                return
            self.schedule(table)

    async def _timeout(
        self, table: Table, step: int, delay: float, *, counted: bool = False
    ) -> None:
        """The turn's time is up: the CPU plays for the absent player (and the third time in a
        row, the player leaves the table). ``counted``: tried again after a failure, and a
        move of it was stored already, with the count."""
        await asyncio.sleep(delay)
        async with table.lock:
            player = self._waiting(table, step)
            if player is None or player in table.cpus:
                return
            before = table.version
            try:
                await self._absent(table, player, count=not counted)
            except Exception as error:
                self._retry(table, player, error, counted=counted or table.version != before)
                return
            self.schedule(table)

    async def _absent(self, table: Table, player: int, *, count: bool) -> None:
        """Play the timed-out turn of ``player``: the CPU plays for them, or, the third time in
        a row, they leave the table (no move is played for a player who is leaving)."""
        before, timeouts = table.version, dict(table.timeouts)
        if count:
            # Counted now, so that the first move stored with it stores the count too.
            table.timeouts[player] = table.timeouts.get(player, 0) + 1
        try:
            if table.timeouts.get(player, 0) >= MAX_TIMEOUTS and table.seated(player):
                events = await self.act(table, REGISTRY[table.kind].leave(player), in_person=False)
                await self._publish(table, events, notes=[("timeout_leave", player)])
                return
            await self._play_for(table, player, ABSENT_LEVEL, notes=[("timeout", player)])
        except BaseException:
            if table.version == before:  # nothing stored: nor is the count
                table.timeouts = timeouts
            raise

    def _retry(self, table: Table, player: int, error: Exception, *, counted: bool = False) -> None:
        """Try a bot's move again after a pause that grows while it keeps failing, so that
        the table moves on as soon as the database is back. A failure that is not the
        database's is tried a few times, then left to the log."""
        attempt, table.retries = table.retries, table.retries + 1
        storage = isinstance(error, StorageError)
        if attempt == 0 or not storage:
            log.error("table %s: a bot's move failed", table.id, exc_info=error)
        else:
            log.warning("table %s: a bot's move failed again (%s)", table.id, error)
        if self._closing or table.state is None or (not storage and attempt >= MAX_RETRIES):
            return
        step, delay = table.state.step, _backoff(attempt)
        if player in table.cpus:
            table.timer = asyncio.create_task(self._cpu_turn(table, step, delay))
        else:
            table.timer = asyncio.create_task(self._timeout(table, step, delay, counted=counted))

    async def _play_for(
        self,
        table: Table,
        player: int,
        level: str,
        *,
        notes: Sequence[Any],
    ) -> None:
        """The CPU policy plays ``player``'s whole turn (until someone else is to act).
        A move that cannot be stored raises: the caller tries the rest of the turn again."""
        first = True
        while table.running and table.state is not None and table.state.current == player:
            state = table.state
            action = REGISTRY[table.kind].cpu_action(state, player, level, table.rng)
            if action is None:
                return
            events = await self.act(table, action, in_person=False)
            await self._publish(table, events, notes=notes if first else ())
            first = False

    async def _publish(
        self, table: Table, events: Sequence[Any], *, notes: Sequence[Any] = ()
    ) -> None:
        """Tell a bot's stored move; a failure to tell it must not stop the table."""
        herald = self._herald(table)
        if herald is None:
            return
        try:
            await herald.publish(table, events, notes=notes)
        except Exception:
            log.exception("table %s: could not tell the bot's move", table.id)

    # ---- timers of decisions that are not a turn (e.g. closing a vote)

    def arm(self, table: Table, key: str, seconds: float, decide: Decision) -> None:
        """In ``seconds``, with the table locked, play the move ``decide`` returns (if any),
        then tell it; a move that fails is tried again after a pause. ``key`` names the
        timer: arming it again replaces it."""
        old = table.timers.pop(key, None)
        if old is not None:
            old.cancel()
        table.timers[key] = asyncio.create_task(self._fire(table, key, decide, seconds))

    async def _fire(
        self, table: Table, key: str, decide: Decision, delay: float, attempt: int = 0
    ) -> None:
        await asyncio.sleep(delay)
        async with table.lock:
            table.timers.pop(key, None)
            if not table.running or table.state is None:
                return
            try:
                action = await decide(table)
                if action is None:
                    return
                events = await self.act(table, action, in_person=False)
            except Exception:
                log.exception("table %s: timer %s failed; trying again", table.id, key)
                if not self._closing:
                    table.timers[key] = asyncio.create_task(
                        self._fire(table, key, decide, _backoff(attempt), attempt + 1)
                    )
                return
            await self._publish(table, events)

    # ---- start-up and shutdown

    async def restore(self) -> list[Table]:
        """Load every running game from the database (after a restart)."""
        tables = []
        for record in await self.repository.running_games():
            if record.kind not in REGISTRY:
                continue
            try:
                table = Table.from_record(record, self._rng_for(record.id, record.version))
            except Exception:
                log.exception("game %s could not be restored", record.id)
                continue
            self.by_channel[table.channel_id] = table
            self.by_id[table.id] = table
            tables.append(table)
        return tables

    async def close(self) -> None:
        self._closing = True
        for table in list(self.by_id.values()):
            self._cancel_timers(table)
        with contextlib.suppress(Exception):
            await self.repository.close()


def _humans_gone(table: Table) -> bool:
    """Every human seated in the game has left it (eliminated players still watch)."""
    kind = REGISTRY[table.kind]
    return not any(
        kind.still_here(table.state, seat.player)
        for seat in table.state.seats
        if seat.player not in table.cpus
    )
