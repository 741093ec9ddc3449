"""The runtime of every table: one game per channel, one lock per table, write-ahead
persistence, then the turns that play themselves (``bot.table.turns``).

Every engine action goes through ``TableRunner.act``, which fills the dice it rolls, applies it
to a copy of the state with the steps nobody decides that follow it (a deal), writes the
events and the new snapshot (and a finished game's results, ``bot.table.scoring``) in one
transaction, and only then makes the new state current: a refused write leaves the table
exactly as it was. Telling players what
happened is the ``Herald``'s job (the game's cog), always after the write.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from bot import telemetry
from bot.config import Settings
from bot.games import REGISTRY
from bot.kernel.spec import Ending
from bot.storage import (
    ChannelBusy,
    EventRecord,
    Repository,
    StorageError,
    Timer,
    VersionConflict,
)
from bot.table.clock import Clock
from bot.table.record import CPU_LEVELS, CPU_NAMES, SYSTEM_RANDOM, Cpu, Table, TableError
from bot.table.scoring import Scoring
from bot.table.seasons import SEASON, Seasons
from bot.table.turns import TURN, Herald, Turns, turn_key

log = logging.getLogger(__name__)

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


# The timers (by key; None: cancelled) a move's events set besides the turn's, written with
# the move (a contested fault's vote closes in a minute).
Deadlines = Callable[[Table, Sequence[Any]], Mapping[str, Timer | None]]


def _records(events: Sequence[Any]) -> list[EventRecord]:
    return [EventRecord(e.type, e.visibility, e.to, e.data) for e in events]


class TableRunner(Turns):
    """The registry of running tables and the only way their games change. ``clock``: the
    dispatcher of this process's deadlines (by default every shard's, on the wall clock)."""

    def __init__(
        self, repository: Repository, settings: Settings, *, clock: Clock | None = None
    ) -> None:
        self.repository = repository
        self.settings = settings
        self.clock = clock or Clock(repository, settings.shards)
        self.clock.handle(TURN, self._turn_due)
        self.seasons = Seasons(repository, self.clock)
        self.clock.handle(SEASON, self.seasons.close)
        self.scoring = Scoring(repository, self.seasons)
        self.heralds: dict[str, Herald] = {}  # per game: who tells the channel its bot moves
        # Per game: the timers its moves' events set or cancel besides the turn's.
        self.deadlines: dict[str, Deadlines] = {}
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
            return SYSTEM_RANDOM
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
        kind: str,
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
        """Store table data that is not a game action (lobby seats, timeouts)."""
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
        timers = {turn_key(table.id): self._turn_timer(table, state, table.deadline)}
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
                timers=timers,
            )
        except Exception:
            table.status, table.state, table.deadline = previous, None, None
            raise
        table.version = version
        self.clock.stored(timers)
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
        timers = self._timers_after(table, state, events, deadline, running=status == "active")
        try:
            scored = await self.scoring.score(table, state, events) if state.over else None
            with telemetry.STORAGE_WRITES.time():
                await self.repository.save_game(
                    table.id,
                    previous_version=table.version,
                    version=table.version + 1,
                    status=status,
                    state=state.to_json(),
                    meta=table.meta(),
                    events=_records(events),
                    results=scored.results if scored is not None else None,
                    timers=timers,
                )
        except StorageError as error:
            if isinstance(error, VersionConflict) or not await self._landed(table):
                table.timeouts, table.names = previous_timeouts, previous_names
                if isinstance(error, VersionConflict):
                    await self._resync(table)
                raise
            log.warning(
                "table %s: the move was stored though its write failed (%s)", table.id, error
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
        self.clock.stored(timers)
        table.retries = 0  # the database takes writes again
        if scored is not None:
            table.results, table.event_log = scored.results, scored.event_log
            await self.scoring.counted(table)
        if not table.running:
            self._forget(table)
        return events

    async def _landed(self, table: Table) -> bool:
        """Whether a write that failed was stored all the same: a commit can succeed while
        its answer is lost (a timeout, a broken connection). Only this process writes this
        table (its shard's lease, the table's lock), so one version more is this move."""
        try:
            record = await self.repository.game(table.id)
        except StorageError:
            return False
        return record is not None and record.version == table.version + 1

    async def _resync(self, table: Table) -> None:
        """The database holds a newer version than the table (a write whose outcome was
        unknown, and stored): take the stored game back, so that the next move writes on it."""
        try:
            record = await self.repository.game(table.id)
        except StorageError:
            return
        if record is None or record.version == table.version:
            return
        stored = Table.from_record(record, table.rng)
        for field in ("state", "version", "status", "players", "names", "timeouts"):
            setattr(table, field, getattr(stored, field))
        log.warning("table %s: taken back from the database at version %s", table.id, table.version)

    def turn_seconds(self, table: Table) -> float:
        return table.turn_seconds or self.settings.turn_seconds

    def _deadline_for(self, table: Table, state: Any) -> float | None:
        if state.over or state.current is None or state.current in table.cpus:
            return None
        return self.clock.now() + self.turn_seconds(table)

    def _turn_timer(self, table: Table, state: Any, deadline: float | None) -> Timer | None:
        """The timer of the turn ``state`` waits for (None: no human's turn)."""
        if deadline is None or state.over or state.current is None:
            return None
        payload = {"table": table.id, "step": state.step}
        return Timer(turn_key(table.id), deadline, table.guild_id, payload)

    def _timers_after(
        self,
        table: Table,
        state: Any,
        events: Sequence[Any],
        deadline: float | None,
        *,
        running: bool,
    ) -> dict[str, Timer | None]:
        """The timers a move sets or cancels, stored with it: the turn's when it changes,
        and what its events call for; once the game is over, every timer of the table."""
        if not running:
            mine = [t.key for t in self.clock.pending() if t.payload.get("table") == table.id]
            return dict.fromkeys([turn_key(table.id), *mine])
        deadlines = self.deadlines.get(table.kind)
        timers = dict(deadlines(table, events)) if deadlines is not None else {}
        turn = self._turn_timer(table, state, deadline)
        live = self.clock.get(turn_key(table.id))
        same = (turn.due, turn.payload["step"]) if turn is not None else None
        if live is None or same != (live.due, live.payload["step"]):
            timers[turn_key(table.id)] = turn
        # Else the same decision waits: its timer stays as it is (and its attempts).
        return timers

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

    async def discard(self, table: Table) -> None:
        """The table's place is gone (its channel, its thread, its server): stored as
        stopped where it stands, its game not counted (no result, no rating) and every timer
        of it cancelled, then forgotten. The caller holds ``table.lock``."""
        mine = [t.key for t in self.clock.pending() if t.payload.get("table") == table.id]
        timers: dict[str, Timer | None] = dict.fromkeys([turn_key(table.id), *mine])
        try:
            await self.repository.save_game(
                table.id,
                previous_version=table.version,
                version=table.version,
                status="stopped",
                state=table.state.to_json() if table.state else None,
                meta=table.meta(),
                timers=timers,
            )
        finally:  # unstored, it is closed at the next start (its place is gone then too)
            table.status = "stopped"
            self.clock.stored(timers)
            self._forget(table)

    def _forget(self, table: Table) -> None:
        self.by_channel.pop(table.channel_id, None)
        self.by_id.pop(table.id, None)
        self._cancel_timers(table)

    def _cancel_timers(self, table: Table) -> None:
        """Stop the table's CPU move (its stored timers go with its last write)."""
        current = asyncio.current_task()
        if table.timer is not None and table.timer is not current:
            table.timer.cancel()
        table.timer = None

    # ---- start-up and shutdown

    async def restore(self) -> list[Table]:
        """Load every running game of this process's shards from the database, and their
        timers (after a restart, or when taking a shard over from a process that died; the
        clock starts once the tables have resumed)."""
        await self.clock.load()
        tables = []
        for record in await self.repository.running_games(self.clock.shards):
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
        for table in tables:
            await self._restore_turn(table)
        return tables

    async def drain(self, timeout: float) -> bool:
        """Let the moves in flight finish and start no other (a graceful stop): True when
        every table's lock came free within ``timeout`` seconds."""
        self._closing = True  # a move that ends now arms no timer

        async def settled(table: Table) -> None:
            async with table.lock:  # no timer is mid-move while the lock is ours
                self._cancel_timers(table)

        try:
            async with asyncio.timeout(timeout):
                await self.clock.pause()
                await asyncio.gather(*(settled(table) for table in list(self.by_id.values())))
        except TimeoutError:
            return False
        return True

    async def _restore_turn(self, table: Table) -> None:
        """The restored turn's deadline is its timer's. A game stored by a release that kept
        the deadline in the table's data, with no timer, gets its timer from it (or a
        whole turn, if it had none)."""
        timer = self.clock.get(turn_key(table.id))
        state = table.state
        whole_turn = self._deadline_for(table, state) if state is not None else None
        if timer is None and whole_turn is not None:  # a human's turn without its timer
            timer = self._turn_timer(table, state, table.deadline or whole_turn)
            if timer is not None:
                try:
                    await self.clock.set(timer)
                except StorageError:
                    log.warning("table %s: its turn's timer could not be stored", table.id)
        table.deadline = timer.due if timer is not None else None

    async def close(self) -> None:
        self._closing = True
        for table in list(self.by_id.values()):
            self._cancel_timers(table)
        await self.clock.close()
        with contextlib.suppress(Exception):
            await self.repository.close()
