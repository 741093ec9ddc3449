"""Turns that play themselves: a CPU's move, the move played for a player whose time ran
out, a decision's timer (a vote's close), each tried again when it fails.

A turn's deadline is a timer (``turn:{table}``, its payload the table and the step it
belongs to) stored with the move that started the turn, and fired by the clock. A CPU's
move is no deadline: it follows from the state alone, so it stays an in-memory task, and
a restart plays it again from the stored state."""

from __future__ import annotations

import asyncio
import dataclasses
import functools
import logging
from collections.abc import Awaitable, Callable, Sequence
from typing import TYPE_CHECKING, Any, Protocol

from bot.config import Settings
from bot.games import REGISTRY
from bot.storage import StorageError, Timer
from bot.table.clock import MAX_RETRIES, Clock, backoff
from bot.table.record import Table

log = logging.getLogger(__name__)

ABSENT_LEVEL = "moyen"  # the CPU that plays for a player whose timer ran out
MAX_TIMEOUTS = 3
TURN = "turn"  # the kind of a turn's timer


def turn_key(table_id: int) -> str:
    return f"{TURN}:{table_id}"


class Herald(Protocol):
    """Tells the channel what happened (implemented by the Discord cog)."""

    async def publish(
        self, table: Table, events: Sequence[Any], *, notes: Sequence[Any] = ()
    ) -> None: ...


# A table timer's decision once its time is up (the table locked), given the timer's
# payload: the move to play, if any.
Decision = Callable[["Table", dict[str, Any]], Awaitable[Any | None]]


class Turns:
    """Mixed into ``TableRunner``: who plays when nobody at the keyboard does."""

    settings: Settings
    heralds: dict[str, Herald]
    clock: Clock
    _closing: bool

    if TYPE_CHECKING:

        async def act(
            self, table: Table, action: Any, *, in_person: bool = True, name: str | None = None
        ) -> list[Any]: ...

        def get(self, table_id: int) -> Table | None: ...

    def _herald(self, table: Table) -> Herald | None:
        return self.heralds.get(table.kind)

    # ---- turns: CPUs, timers

    def schedule(self, table: Table) -> None:
        """After any change: let a CPU play if it is its turn (a human's turn has its timer,
        stored with the move). The caller holds the lock."""
        current = asyncio.current_task()
        if table.timer is not None and table.timer is not current:
            table.timer.cancel()
        table.timer = None
        if self._closing or not table.running or table.state is None or table.state.over:
            return
        player = table.state.current
        if player in table.cpus:
            delay = self.settings.cpu_delay_seconds
            table.timer = asyncio.create_task(self._cpu_turn(table, table.state.step, delay))

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
                    # Everyone left (docs/rules.md#when-people-leave): the CPUs do not play on alone.
                    events = await self.act(table, REGISTRY[table.kind].stop(), in_person=False)
                    await self._publish(table, events)
                    return
                await self._play_for(table, player, table.cpus[player].level, notes=())
            except Exception as error:
                self._retry(table, error)
                return
            self.schedule(table)

    async def _turn_due(self, timer: Timer) -> None:
        """A turn's time is up: the CPU plays for the absent player (and the third time in a
        row, the player leaves the table). Nothing happens once the turn's decision (the
        timer's step) is taken. A failure before anything is stored raises (the clock tries
        again); once part of the turn is stored, with the count, the rest is tried again
        soon without counting it again (``counted`` in the payload)."""
        table = self.get(timer.payload["table"])
        if table is None:
            return
        async with table.lock:
            player = self._waiting(table, timer.payload["step"])
            if player is None or player in table.cpus:
                return
            before = table.version
            try:
                await self._absent(table, player, count=not timer.payload.get("counted"))
            except Exception as error:
                if table.version == before:
                    raise
                log.error("table %s: a timed-out turn failed halfway", table.id, exc_info=error)
                await self._rest_of_turn(table, player, timer, error)
                return
            self.schedule(table)

    async def _rest_of_turn(
        self, table: Table, player: int, timer: Timer, error: Exception
    ) -> None:
        """The timer of a timed-out turn played in part: due again after a pause (as the clock
        does with a failed timer), marked as counted. The stored part set the turn's next
        timer: that one is brought forward."""
        turn = self.clock.get(turn_key(table.id))
        if turn is None or self._waiting(table, turn.payload["step"]) != player:
            return
        if not isinstance(error, StorageError) and timer.attempts >= MAX_RETRIES:
            return  # a bug, not the database: left to the log
        await self.clock.set(
            dataclasses.replace(
                turn,
                due=self.clock.now() + backoff(timer.attempts),
                attempts=timer.attempts + 1,
                payload={**turn.payload, "counted": True},
            )
        )

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

    def _retry(self, table: Table, error: Exception) -> None:
        """Try a CPU's move again after a pause that grows while it keeps failing, so that
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
        step, delay = table.state.step, backoff(attempt)
        table.timer = asyncio.create_task(self._cpu_turn(table, step, delay))

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

    def decide(self, kind: str, decision: Decision) -> None:
        """When a table's timer of ``kind`` is due (its payload names the table: ``table``),
        play the move ``decision`` returns, if any, with the table locked, then tell it. A
        decision returns None once its timer no longer applies (the vote was closed)."""
        self.clock.handle(kind, functools.partial(self._decided, decision))

    async def _decided(self, decision: Decision, timer: Timer) -> None:
        table = self.get(timer.payload["table"])
        if table is None:
            return
        async with table.lock:
            if not table.running or table.state is None:
                return
            action = await decision(table, timer.payload)
            if action is None:
                return
            events = await self.act(table, action, in_person=False)
            await self._publish(table, events)


def _humans_gone(table: Table) -> bool:
    """Every human seated in the game has left it (eliminated players still watch)."""
    kind = REGISTRY[table.kind]
    return not any(
        kind.still_here(table.state, seat.player)
        for seat in table.state.seats
        if seat.player not in table.cpus
    )
