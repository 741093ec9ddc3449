"""Seasons: the periods a server's ratings are ranked over, each closing on its date.

A season covers whole days (UTC): from its first day to the day before it ends, so that
the daily leaderboard figures split exactly between seasons. It ends at midnight UTC on
the first day of a month: the month after it began by default, or 3, 6 or 12 months after
(``/reglages saison``). A server's first season begins with the first game it counts
(on the day of its oldest figure, if it has figures from before seasons existed).

When a season ends (the ``season`` timer, stored: a restart closes it at once when it
is overdue), in one transaction: the final ratings of the players who played in it are
archived, every rating of the server starts the next season from a soft reset,

    new rating = 1000 + (old rating - 1000) / 2

(halfway back to the start: the best stay ahead, but a newcomer can catch them), each
rating's games count starts again at 0 (a player is ranked once they play), and the next
season begins. The podium is announced by a second timer (``podium``) set in that same
transaction, so that a crash just after the close still announces it, once.
"""

from __future__ import annotations

import asyncio
import calendar
import logging
from collections.abc import Callable
from datetime import UTC, date, datetime

from bot.kernel.rating import INITIAL_RATING
from bot.storage import Repository, Season, Timer
from bot.table.clock import Clock

log = logging.getLogger(__name__)

SEASON = "season"  # the timer that closes a server's current season
PODIUM = "podium"  # the timer that announces a closed season's podium
LENGTHS = (1, 3, 6, 12)  # the months a season may last
DEFAULT_MONTHS = 1
CARRY = 0.5  # the share of a rating's distance to INITIAL_RATING a new season keeps
MONTHS_SETTING = "season_months"
CHANNEL_SETTING = "season_channel"


def day_of(moment: float) -> date:
    return datetime.fromtimestamp(moment, UTC).date()


def midnight(day: str) -> float:
    """Unix time of midnight UTC at the start of ``day`` (YYYY-MM-DD)."""
    return calendar.timegm(date.fromisoformat(day).timetuple())


def end_after(started: date, months: int, now: date) -> date:
    """The day a season that began on ``started`` ends: the first day of the month
    ``months`` months after its own, or of a later month (by steps of ``months``) if that
    is not after ``now`` (a season begins with at least a day ahead of it)."""
    index = started.year * 12 + started.month - 1 + months
    end = date(index // 12, index % 12 + 1, 1)
    while end <= now:
        index += months
        end = date(index // 12, index % 12 + 1, 1)
    return end


def season_key(guild_id: int) -> str:
    return f"{SEASON}:{guild_id}"


def podium_key(guild_id: int, number: int) -> str:
    return f"{PODIUM}:{guild_id}:{number}"


class Seasons:
    """Every server's current season: begun, lengthened or shortened, closed on its date."""

    def __init__(
        self, repository: Repository, clock: Clock, *, now: Callable[[], float] | None = None
    ) -> None:
        self.repository = repository
        self.clock = clock
        self.now = now or clock.now
        self._current: dict[int, Season] = {}  # server -> its current season, once read
        self._locks: dict[int, asyncio.Lock] = {}

    def _lock(self, guild_id: int) -> asyncio.Lock:
        return self._locks.setdefault(guild_id, asyncio.Lock())

    async def months(self, guild_id: int) -> int:
        settings = await self.repository.guild_settings(guild_id)
        months = settings.get(MONTHS_SETTING, DEFAULT_MONTHS)
        return months if months in LENGTHS else DEFAULT_MONTHS

    def _timer(self, guild_id: int, season: Season) -> Timer:
        return Timer(
            season_key(guild_id), midnight(season.ends), guild_id, {"season": season.number}
        )

    async def current(self, guild_id: int) -> Season:
        """The server's current season, begun now if it has none yet."""
        known = self._current.get(guild_id)
        if known is not None:
            return known
        async with self._lock(guild_id):
            known = self._current.get(guild_id)
            if known is not None:
                return known
            seasons = await self.repository.seasons(guild_id)
            if seasons and not seasons[-1].closed:
                season = seasons[-1]
            else:
                season = await self._begin(guild_id, seasons)
            self._current[guild_id] = season
            return season

    async def _begin(self, guild_id: int, seasons: list[Season]) -> Season:
        today = day_of(self.now())
        if seasons:  # the last one closed, and its next not begun (not expected): begin it
            started = date.fromisoformat(seasons[-1].ends)
        else:
            first = await self.repository.first_figure_day(guild_id)
            started = min(date.fromisoformat(first), today) if first else today
        ends = end_after(started, await self.months(guild_id), today)
        number = seasons[-1].number + 1 if seasons else 1
        season = Season(number, started.isoformat(), ends.isoformat())
        timer = self._timer(guild_id, season)
        current = await self.repository.open_season(guild_id, season, timer)
        if current == season:
            self.clock.stored({timer.key: timer})
            log.info("server %s: season %s begins, ends %s", guild_id, number, season.ends)
        return current

    async def counted(self, guild_id: int) -> None:
        """A game of the server was counted: it has a current season from now on."""
        await self.current(guild_id)

    async def set_length(self, guild_id: int, months: int) -> Season:
        """The current season ends as a season of ``months`` months begun on its first day
        ends (``end_after``: never before tomorrow, so a length chosen never closes a
        season there and then); the setting itself is saved by the caller."""
        season = await self.current(guild_id)
        async with self._lock(guild_id):
            today = day_of(self.now())
            ends = end_after(date.fromisoformat(season.started), months, today)
            moved = Season(season.number, season.started, ends.isoformat())
            timer = self._timer(guild_id, moved)
            if moved.ends != season.ends and await self.repository.move_season_end(
                guild_id, season.number, moved.ends, timer
            ):
                self.clock.stored({timer.key: timer})
                self._current[guild_id] = moved
                return moved
            return self._current.get(guild_id, season)

    async def close(self, timer: Timer) -> None:
        """Close the season ``timer`` is for (the ``season`` timer's handler); nothing if it
        was closed already (the timer fired again after a crash) or lengthened since."""
        guild_id = timer.guild_id or 0
        number = timer.payload.get("season")
        async with self._lock(guild_id):
            seasons = await self.repository.seasons(guild_id)
            current = seasons[-1] if seasons and not seasons[-1].closed else None
            if current is None or current.number != number:
                return
            if midnight(current.ends) > self.now():
                return  # lengthened since this timer was set: its own timer waits
            today = day_of(self.now())
            started = date.fromisoformat(current.ends)
            ends = end_after(started, await self.months(guild_id), today)
            following = Season(current.number + 1, current.ends, ends.isoformat())
            timers = [
                self._timer(guild_id, following),
                Timer(podium_key(guild_id, current.number), self.now(), guild_id, {}),
            ]
            closed = await self.repository.close_season(
                guild_id,
                current.number,
                following=following,
                timers=timers,
                carry=CARRY,
                initial=INITIAL_RATING,
            )
            if not closed:
                return
            self.clock.stored({t.key: t for t in timers})
            self._current[guild_id] = following
        log.info("server %s: season %s closed, season %s begins", guild_id, number, number + 1)
