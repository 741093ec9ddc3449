"""Runs the server's tournaments (docs/tournaments.md, docs/playing.md#tournaments): their
sign-ups, each round's matches (``matches.py``: threads, check-ins, tables), the results
taken from the games' ends, the deadlines (stored timers: ``tournoi:{id}``), forfeits and
withdrawals, the bracket and standings told after every match, the winner and their
achievement.

Every change is stored before it is told, with what the channel is still to be told
(``Hosted.unsaid``); every step can be taken again. After a restart, or a step that failed
(a retry timer, ``tournoi:{id}:retry``), ``reconcile`` finds what is left to do (a result
not recorded, a round not opened, a check-in not posted, a table not opened or not started,
a message not told) and does it. A tournament's changes take its lock; a table's end
reaches it through ``ended`` as a task of its own, so that the tournament's lock is always
taken before a table's, never while one is held.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import defaultdict
from dataclasses import replace
from typing import TYPE_CHECKING, Any

import discord

from bot.i18n import t
from bot.kernel.rating import INITIAL_RATING
from bot.storage import Repository, StorageError, Timer
from bot.table import Table, TableError
from bot.table.scoring import places, stored_places
from bot.tournaments import (
    SWISS,
    Entrant,
    Match,
    NotEntrant,
    Tournament,
    advance,
    forfeit,
    pending_matches,
    record,
    start,
    winner,
    withdraw,
)
from bot.tournaments.hosted import (
    CANCELLED,
    OVER,
    RUNNING,
    SIGNUP,
    Hosted,
    table_ranking,
    timer_key,
)
from cogs.table import threads
from cogs.tournoi import render
from cogs.tournoi.matches import Matches
from cogs.tournoi.picture import FILENAME, bracket_file

if TYPE_CHECKING:
    from bot.client import Gobelet

log = logging.getLogger(__name__)

MOST_ENTRANTS = 64
RETRY_SECONDS = 30.0  # a step that failed (Discord, the database) is tried again after this


def retry_key(tournament_id: int) -> str:
    return f"{timer_key(tournament_id)}:retry"


class Director:
    """Every open tournament of this process's servers (the clock's handler of their
    deadlines, and the watcher of their tables)."""

    def __init__(self, bot: Gobelet) -> None:
        self.bot = bot
        self.matches = Matches(bot)
        self.open: dict[int, Hosted] = {}  # by tournament id: signing up or running
        self.places: dict[int, tuple[int, int]] = {}  # tournament id -> (server, channel)
        self.by_game: dict[int, tuple[int, str]] = {}  # a table's game -> (tournament, match)
        self.locks: defaultdict[int, asyncio.Lock] = defaultdict(asyncio.Lock)
        self._loaded = False
        self._loading = asyncio.Lock()
        self._tasks: set[asyncio.Task[None]] = set()

    @property
    def repository(self) -> Repository:
        return self.bot.tables.repository

    # ------------------------------------------------------------------ loading, storing

    async def load(self) -> None:
        """The open tournaments of this process's servers, read once."""
        if self._loaded:
            return
        async with self._loading:
            if self._loaded:
                return
            for found in await self.repository.open_tournaments(self.bot.settings.shards):
                try:
                    hosted = Hosted.from_json(found.data)
                except (KeyError, TypeError, ValueError):
                    log.exception("tournament %s could not be read back", found.id)
                    continue
                self._keep(found.id, found.guild_id, found.channel_id, hosted)
            self._loaded = True

    async def restored(self) -> None:
        """After a restart: the open tournaments read back before their tables resume."""
        await self.load()

    def _keep(self, tournament_id: int, guild_id: int, channel_id: int, hosted: Hosted) -> None:
        self.places[tournament_id] = (guild_id, channel_id)
        for game in [g for g, (tid, _) in self.by_game.items() if tid == tournament_id]:
            del self.by_game[game]
        if not hosted.open:
            self.open.pop(tournament_id, None)
            return
        self.open[tournament_id] = hosted
        for match_id, table in hosted.tables.items():
            if table.game is not None:
                self.by_game[table.game] = (tournament_id, match_id)

    def in_channel(self, channel_id: int) -> int | None:
        """The open tournament of ``channel_id`` (its id)."""
        return next(
            (tid for tid, (_, ch) in self.places.items() if ch == channel_id and tid in self.open),
            None,
        )

    async def save(
        self, tournament_id: int, hosted: Hosted, timers: dict[str, Timer | None] | None = None
    ) -> Hosted:
        await self.repository.save_tournament(
            tournament_id, status=hosted.status, data=hosted.to_json(), timers=timers
        )
        if timers:
            self.bot.tables.clock.stored(timers)
        guild_id, channel_id = self.places[tournament_id]
        self._keep(tournament_id, guild_id, channel_id, hosted)
        return hosted

    def _timer(self, tournament_id: int, due: float, **payload: Any) -> dict[str, Timer | None]:
        guild_id, _ = self.places[tournament_id]
        key = timer_key(tournament_id)
        return {key: Timer(key, due, guild_id, payload)}

    def _no_timers(self, tournament_id: int) -> dict[str, Timer | None]:
        return {timer_key(tournament_id): None, retry_key(tournament_id): None}

    async def _retry_later(self, tournament_id: int, what: str) -> None:
        """A step failed: the tournament looks again at what is left to do in a while."""
        log.warning("tournament %s: could not %s; trying again soon", tournament_id, what)
        guild_id, _ = self.places[tournament_id]
        due = time.time() + RETRY_SECONDS
        try:
            await self.bot.tables.clock.set(
                Timer(retry_key(tournament_id), due, guild_id, {"phase": "retry"})
            )
        except StorageError:
            log.error("tournament %s: not even its retry could be stored", tournament_id)

    def _spawn(self, work: Any) -> None:
        task = asyncio.create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def close(self) -> None:
        for task in list(self._tasks):
            task.cancel()

    # ------------------------------------------------------------------ telling

    async def _send(
        self, tournament_id: int, text: str, *, ping: int | None = None, **kwargs: Any
    ) -> bool:
        guild_id, channel_id = self.places[tournament_id]
        channel = self.bot.get_partial_messageable(channel_id, guild_id=guild_id)
        mentions = discord.AllowedMentions(
            users=[discord.Object(ping)] if ping is not None else False,
            everyone=False,
            roles=False,
        )
        try:
            await channel.send(text[:2000], allowed_mentions=mentions, **kwargs)
        except discord.HTTPException as error:
            log.warning(
                "tournament %s: a message to its channel was refused (%s)",
                tournament_id,
                error.status,
            )
            return False
        return True

    async def _say(
        self,
        tournament_id: int,
        hosted: Hosted,
        text: str,
        timers: dict[str, Timer | None] | None = None,
        *,
        status: str | None = None,
    ) -> Hosted:
        """Store ``hosted`` with ``text`` still to tell, tell it in the channel (with the
        bracket and standings once it started), then store it told (and, if given, its new
        ``status``: a tournament is over once its end is told)."""
        hosted = await self.save(tournament_id, replace(hosted, unsaid=text), timers)
        return await self._tell_unsaid(tournament_id, hosted, status=status)

    async def _tell_unsaid(
        self, tournament_id: int, hosted: Hosted, *, status: str | None = None
    ) -> Hosted:
        if hosted.unsaid is None:
            return hosted
        extra: dict[str, Any] = {}
        won = None
        if hosted.tournament is not None:  # the bracket and standings, and their picture
            won = winner(hosted.tournament)
            extra["embed"] = render.status_embed(hosted)
            image = await bracket_file(hosted)
            if image is not None:
                extra["embed"].set_image(url=f"attachment://{FILENAME}")
                extra["file"] = image
        if not await self._send(tournament_id, hosted.unsaid, ping=won, **extra):
            await self._retry_later(tournament_id, "tell its channel")
            return hosted
        return await self.save(
            tournament_id, replace(hosted, unsaid=None, status=status or hosted.status)
        )

    # ------------------------------------------------------------------ creating

    async def create(self, guild_id: int, channel_id: int, hosted: Hosted) -> int:
        """A new tournament signing up in ``channel_id``, its deadline stored with it."""
        await self.load()

        def signup(tournament_id: int) -> Timer:
            return Timer(
                timer_key(tournament_id), hosted.signup_ends, guild_id, {"phase": "signup"}
            )

        tournament_id = await self.repository.create_tournament(
            guild_id=guild_id,
            channel_id=channel_id,
            game=hosted.game,
            data=hosted.to_json(),
            timer=signup,
        )
        self.bot.tables.clock.stored({timer_key(tournament_id): signup(tournament_id)})
        self._keep(tournament_id, guild_id, channel_id, hosted)
        return tournament_id

    async def shown_at(self, tournament_id: int, message_id: int) -> None:
        """Its sign-up message is ``message_id``."""
        async with self.locks[tournament_id]:
            hosted = self.open.get(tournament_id)
            if hosted is not None:
                await self.save(tournament_id, replace(hosted, message=message_id))

    # ------------------------------------------------------------------ sign-ups

    async def sign(self, tournament_id: int, player: int, name: str, *, joining: bool) -> Hosted:
        """``player`` signs up (or takes their name off) while the tournament signs up."""
        await self.load()
        async with self.locks[tournament_id]:
            hosted = self._signing(tournament_id)
            if joining:
                if player in hosted.entrants:
                    raise TableError("tour_signed_already")
                if player in hosted.removed:
                    raise TableError("tour_removed")
                if len(hosted.entrants) >= MOST_ENTRANTS:
                    raise TableError("tour_full", most=MOST_ENTRANTS)
                hosted = replace(
                    hosted,
                    entrants=(*hosted.entrants, player),
                    names={**hosted.names, player: name},
                )
            else:
                if player not in hosted.entrants:
                    raise TableError("tour_not_signed")
                hosted = replace(hosted, entrants=tuple(p for p in hosted.entrants if p != player))
            return await self.save(tournament_id, hosted)

    def _signing(self, tournament_id: int) -> Hosted:
        hosted = self.open.get(tournament_id)
        if hosted is None:
            raise TableError("tour_over")
        if hosted.status != SIGNUP:
            raise TableError("tour_started")
        return hosted

    async def _draw_signups(self, tournament_id: int, hosted: Hosted) -> None:
        """The sign-up message shows the sign-ups as they are; once they are closed (the
        tournament started or called off), without its buttons."""
        if hosted.message is None:
            return
        guild_id, channel_id = self.places[tournament_id]
        channel = self.bot.get_partial_messageable(channel_id, guild_id=guild_id)
        # Open, its buttons stay as they are (MISSING); closed, they go (None).
        view = discord.utils.MISSING if hosted.status == SIGNUP else None
        try:
            await channel.get_partial_message(hosted.message).edit(
                embed=render.signup_embed(hosted), view=view
            )
        except discord.HTTPException as error:
            log.info(
                "tournament %s: its sign-up message was not edited (%s)",
                tournament_id,
                error.status,
            )

    # ------------------------------------------------------------------ the clock

    async def due(self, timer: Timer) -> None:
        """A tournament's timer: its sign-ups' end (it starts), a round's deadline
        (forfeits), or a retry of what failed."""
        tournament_id = int(timer.key.split(":")[1])
        await self.load()
        await self.bot.wait_until_ready()
        async with self.locks[tournament_id]:
            hosted = self.open.get(tournament_id)
            if hosted is None:
                return
            phase = timer.payload.get("phase")
            tournament = hosted.tournament
            if phase == "retry":
                await self._reconcile(tournament_id)
            elif phase == "signup" and hosted.status == SIGNUP:
                await self._start(tournament_id, hosted)
            elif (
                phase == "round"
                and hosted.status == RUNNING
                and tournament is not None
                and not tournament.over
                and tournament.current.number == timer.payload.get("round")
            ):
                await self._deadline(tournament_id, hosted)

    # ------------------------------------------------------------------ starting

    async def start_now(self, tournament_id: int) -> None:
        """The organizer starts it before its time."""
        await self.load()
        async with self.locks[tournament_id]:
            hosted = self._signing(tournament_id)
            if len(hosted.entrants) < 2:
                raise TableError("tour_too_few", count=len(hosted.entrants))
            await self._start(tournament_id, hosted)

    async def _start(self, tournament_id: int, hosted: Hosted) -> None:
        guild_id, _ = self.places[tournament_id]
        lang = hosted.lang
        if len(hosted.entrants) < 2:  # it does not take place
            hosted = replace(hosted, status=CANCELLED)
            await self.save(tournament_id, hosted, self._no_timers(tournament_id))
            await self._draw_signups(tournament_id, hosted)
            await self._send(tournament_id, t(lang, "tour.too_few", count=len(hosted.entrants)))
            return
        try:
            known = await self.repository.ratings(
                guild_id, hosted.spec.board, list(hosted.entrants)
            )
        except StorageError:
            known = {}
        entrants = [
            Entrant(p, known[p].rating if p in known else INITIAL_RATING) for p in hosted.entrants
        ]
        options = hosted.options
        if options.format == SWISS and options.rounds is not None:
            # More rounds than it has players for: as many as it can (docs/tournaments.md).
            options = replace(options, rounds=min(options.rounds, len(entrants) - 1))
        tournament = start(entrants, options)
        hosted = replace(hosted, status=RUNNING, tournament=tournament, options=tournament.options)
        heading = t(lang, "tour.started", count=len(entrants), game=render.game_name(hosted, lang))
        await self._draw_signups(tournament_id, hosted)
        await self._progress(tournament_id, hosted, heading, opened=True)

    # ------------------------------------------------------------------ rounds

    async def _progress(
        self, tournament_id: int, hosted: Hosted, heading: str, *, opened: bool = False
    ) -> None:
        """After a change (``opened``: the first round was just drawn): the next round
        opened once this one is decided, or the end; ``heading`` told with the bracket."""
        tournament = hosted.tournament
        assert tournament is not None
        number = tournament.current.number
        while not tournament.over and not pending_matches(tournament):
            tournament = advance(tournament)  # byes, walkovers, withdrawn players: on
        hosted = replace(hosted, tournament=tournament)
        if tournament.over:
            await self._finish(tournament_id, replace(hosted, round_ends=None), heading)
            return
        if not opened and tournament.current.number == number:
            await self._say(tournament_id, hosted, heading)
            return
        due = time.time() + hosted.round_seconds
        hosted = replace(hosted, round_ends=due)
        number = tournament.current.number
        text = f"{heading}\n{t(hosted.lang, 'tour.round_opened', number=number)}"
        timers = self._timer(tournament_id, due, phase="round", round=number)
        await self._say(tournament_id, hosted, text, timers)
        await self._call_matches(tournament_id)

    async def _call_matches(self, tournament_id: int) -> None:
        """Each pending match of the round without its check-in gets its thread and message
        (the one ping of its players); a refusal is tried again later."""
        guild_id, channel_id = self.places[tournament_id]
        failed = False
        for match in pending_matches(self._tournament(tournament_id)):
            hosted = self.open[tournament_id]
            mine = hosted.table(match.id)
            if mine.message is not None:
                continue
            if mine.thread is None:
                thread = await self.matches.thread(hosted, guild_id, channel_id, match)
                if isinstance(thread, int):  # kept at once: a crash now starts no second one
                    mine = replace(mine, thread=thread)
                    hosted = await self.save(tournament_id, hosted.with_table(match.id, mine))
                elif thread == threads.BUSY and not hosted.told_unthreaded:
                    hosted = await self._tell_unthreaded(tournament_id, hosted)
            where = mine.thread or channel_id
            sent = await self.matches.call(tournament_id, hosted, guild_id, where, match)
            if sent is None:
                failed = True
                continue
            await self.save(tournament_id, hosted.with_table(match.id, replace(mine, message=sent)))
        if failed:
            await self._retry_later(tournament_id, "call a match's players")

    async def _tell_unthreaded(self, tournament_id: int, hosted: Hosted) -> Hosted:
        """Discord rate-limits the server's threads for long: the matches without one are
        played in the channel, one after the other, and the organizer is told so, once
        (privately; in the channel if their direct messages are closed)."""
        _, channel_id = self.places[tournament_id]
        text = t(
            hosted.lang,
            "tour.threads_busy",
            game=render.game_name(hosted, hosted.lang),
            channel=f"<#{channel_id}>",
        )
        if not await self.matches.tell_organizer(hosted, text):
            await self._send(tournament_id, text)
        return await self.save(tournament_id, replace(hosted, told_unthreaded=True))

    def _tournament(self, tournament_id: int) -> Tournament:
        hosted = self.open.get(tournament_id)
        if hosted is None or hosted.tournament is None:
            raise TableError("tour_over")
        return hosted.tournament

    # ------------------------------------------------------------------ checking in

    async def check_in(
        self, tournament_id: int, match_id: str, player: int
    ) -> tuple[Hosted, Match]:
        """``player`` is at their table: once all its players are, it opens."""
        await self.load()
        async with self.locks[tournament_id]:
            hosted = self.open.get(tournament_id)
            if hosted is None or hosted.status != RUNNING or hosted.tournament is None:
                raise TableError("tour_over")
            match = next((m for m in pending_matches(hosted.tournament) if m.id == match_id), None)
            if match is None:
                raise TableError("tour_match_over")
            if player in match.forfeited:
                raise TableError("tour_too_late")
            if player not in match.present:
                raise TableError("tour_not_your_match")
            mine = hosted.table(match_id)
            if player in mine.present or mine.game is not None:
                raise TableError("tour_checked_in")
            mine = replace(mine, present=(*mine.present, player))
            hosted = await self.save(tournament_id, hosted.with_table(match_id, mine))
            if all(p in mine.present for p in match.present):
                try:
                    hosted = await self._open_table(tournament_id, hosted, match)
                except Exception:  # they are checked in: the table opens on a retry
                    log.exception("tournament %s: match %s's table", tournament_id, match_id)
                    await self._retry_later(tournament_id, "open a match's table")
            return hosted, match

    async def _open_table(self, tournament_id: int, hosted: Hosted, match: Match) -> Hosted:
        """The match's table, with its players present, opened (in its thread) and started;
        one opened or half started before a crash is finished. In the channel itself (no
        thread), it waits for the channel to be free."""
        guild_id, channel_id = self.places[tournament_id]
        mine = hosted.table(match.id)
        players = [p for p in match.present if p in mine.present]
        table = self.matches.table_of(hosted, mine)
        if table is not None and table.started:
            return hosted  # under way: its end is the match's result
        if mine.game is not None and table is None:
            if await stored_places(self.repository, mine.game) is not None:
                return hosted  # played to its end: reconcile records it
            hosted = self.matches.with_game(hosted, match.id, None)  # closed unplayed
        if table is None:
            where = mine.thread or channel_id
            table = self.matches.found_in(hosted, where, players)
            if table is None:
                try:
                    table = await self.matches.open(hosted, guild_id, where, players)
                except TableError as error:
                    if error.code != "table_busy":
                        raise
                    log.info(
                        "tournament %s: match %s waits for its channel", tournament_id, match.id
                    )
                    return hosted
            self.by_game[table.id] = (tournament_id, match.id)
            hosted = await self.save(
                tournament_id, self.matches.with_game(hosted, match.id, table.id)
            )
        await self.matches.start(hosted, table, players)
        return hosted

    async def waiting(self, tournament_id: int) -> None:
        """A table ended in the tournament's channel: a match waiting for it may open."""
        async with self.locks[tournament_id]:
            await self._open_waiting(tournament_id)

    async def _open_waiting(self, tournament_id: int) -> None:
        """The matches whose players are all present but whose table waits for the
        channel (no thread): the first opens if the channel is free."""
        hosted = self.open.get(tournament_id)
        if hosted is None or hosted.tournament is None or hosted.status != RUNNING:
            return
        for match in pending_matches(hosted.tournament):
            mine = hosted.table(match.id)
            if mine.game is None and mine.message is not None and self._all_in(match, hosted):
                hosted = await self._open_table(tournament_id, hosted, match)

    @staticmethod
    def _all_in(match: Match, hosted: Hosted) -> bool:
        return all(p in hosted.table(match.id).present for p in match.present)

    # ------------------------------------------------------------------ results

    def claims(self, table: Table) -> bool:
        return table.id in self.by_game

    async def ended(self, table: Table) -> None:
        found = self.by_game.get(table.id)
        if table.running:
            return
        if found is None:  # a table of the channel: a match waiting for it may open now
            for tournament_id, (_, channel_id) in list(self.places.items()):
                if channel_id == table.channel_id and tournament_id in self.open:
                    self._spawn(self.waiting(tournament_id))
            return
        self._spawn(self._played(found[0], found[1], table.id, places(table)))

    async def _played(
        self, tournament_id: int, match_id: str, game_id: int, placed: list[list[int]]
    ) -> None:
        try:
            async with self.locks[tournament_id]:
                await self._record(tournament_id, match_id, game_id, placed)
        except Exception:
            log.exception("tournament %s: match %s's result was not kept", tournament_id, match_id)
            await self._retry_later(tournament_id, "keep a match's result")

    async def _record(
        self, tournament_id: int, match_id: str, game_id: int, placed: list[list[int]]
    ) -> bool:
        hosted = self.open.get(tournament_id)
        if hosted is None or hosted.tournament is None or hosted.status != RUNNING:
            return False
        tournament = hosted.tournament
        match = next((m for m in pending_matches(tournament) if m.id == match_id), None)
        if match is None or hosted.table(match_id).game != game_id:
            return False  # recorded already (a restart's second look)
        ranking = table_ranking(placed, match.present, tournament.players)
        tournament = record(tournament, match_id, ranking)
        decided = next(m for m in tournament.current.matches if m.id == match_id)
        await self.matches.archive(hosted.table(match_id))
        heading = render.result_line(hosted.lang, decided)
        await self._progress(tournament_id, replace(hosted, tournament=tournament), heading)
        await self._open_waiting(tournament_id)  # its channel may be free for the next
        return True

    # ------------------------------------------------------------------ a round's deadline

    async def _deadline(self, tournament_id: int, hosted: Hosted) -> None:
        """The round's time is up: whoever has not checked in forfeits (a match whose
        check-in never went out is given a new deadline instead); the players present at a
        table short of some play it; a party table (no end of its own) is stopped and
        ranked as it stands. A table already playing goes on to its end."""
        tournament = hosted.tournament
        assert tournament is not None
        lang = hosted.lang
        lines = [t(lang, "tour.deadline", number=tournament.current.number)]
        uncalled = False
        for match in pending_matches(tournament):
            mine = hosted.table(match.id)
            if mine.game is not None:
                continue
            if mine.message is None:
                uncalled = True  # never called: not their absence
                continue
            absent = [p for p in match.present if p not in mine.present]
            if absent:
                tournament = forfeit(tournament, match.id, absent)
                lines.append(t(lang, "tour.forfeit", players=render.names(absent)))
        hosted = replace(hosted, tournament=tournament)
        timers = None
        if uncalled:
            due = time.time() + hosted.round_seconds
            hosted = replace(hosted, round_ends=due)
            number = tournament.current.number
            timers = self._timer(tournament_id, due, phase="round", round=number)
        hosted = await self.save(tournament_id, hosted, timers)
        for match in tournament.current.matches:
            mine = hosted.table(match.id)
            if match.decided and mine.game is None:
                await self.matches.archive(mine)  # decided by its forfeits
        for match in pending_matches(tournament):
            try:
                mine = hosted.table(match.id)
                if mine.message is not None and self._all_in(match, hosted):
                    hosted = await self._open_table(tournament_id, hosted, match)
                    mine = hosted.table(match.id)
                if hosted.spec.endless and mine.game is not None:
                    await self.matches.stop(hosted, mine.game)
            except Exception:
                log.exception("tournament %s: match %s at its deadline", tournament_id, match.id)
                await self._retry_later(tournament_id, "take up a match at its deadline")
        if uncalled:
            await self._call_matches(tournament_id)
        await self._progress(tournament_id, self.open[tournament_id], "\n".join(lines))

    # ------------------------------------------------------------------ the end

    async def _finish(self, tournament_id: int, hosted: Hosted, heading: str | None) -> None:
        """Over: the winner's achievement kept, then the end told (the winner pinged), and
        only then the tournament is over (a crash before: all of it again, the achievement
        kept once)."""
        tournament = hosted.tournament
        assert tournament is not None
        guild_id, _ = self.places[tournament_id]
        lang = hosted.lang
        won = winner(tournament)
        if won is not None:
            games = [mine.game for mine in hosted.tables.values() if mine.game is not None]
            played = [
                mine.game
                for match_id, mine in hosted.tables.items()
                if mine.game is not None
                and any(m.id == match_id and won in m.players for _, m in tournament.matches())
            ]
            if played or games:  # the last game they played in it, else the last game of it
                code = f"{hosted.spec.kind}_tournament"
                await self.repository.award(guild_id, won, code, max(played or games))
            end = t(
                lang, "tour.winner", player=render.mention(won), game=render.game_name(hosted, lang)
            )
        else:
            end = t(lang, "tour.no_winner")
        text = f"{heading}\n{end}" if heading else end
        await self._say(tournament_id, hosted, text, self._no_timers(tournament_id), status=OVER)

    # ------------------------------------------------------------------ the organizer

    async def cancel(self, tournament_id: int) -> Hosted:
        await self.load()
        async with self.locks[tournament_id]:
            hosted = self.open.get(tournament_id)
            if hosted is None:
                raise TableError("tour_over")
            hosted = replace(hosted, status=CANCELLED, round_ends=None)
            hosted = await self.save(tournament_id, hosted, self._no_timers(tournament_id))
            await self._draw_signups(tournament_id, hosted)
            if hosted.tournament is not None:
                for match in pending_matches(hosted.tournament):
                    if hosted.table(match.id).game is None:
                        await self.matches.archive(hosted.table(match.id))
            return hosted

    async def remove(self, tournament_id: int, player: int) -> Hosted:
        """The organizer takes ``player`` out: off the sign-ups (they may not sign up again),
        or out of the tournament (docs/tournaments.md#withdrawals): their match forfeited,
        or their table left."""
        await self.load()
        leave: int | None = None
        async with self.locks[tournament_id]:
            hosted = self.open.get(tournament_id)
            if hosted is None:
                raise TableError("tour_over")
            if player not in hosted.entrants or player in hosted.removed:
                raise TableError("tour_not_entrant")
            hosted = replace(hosted, removed=(*hosted.removed, player))
            line = t(hosted.lang, "tour.removed_line", player=render.mention(player))
            if hosted.status == SIGNUP:
                hosted = replace(hosted, entrants=tuple(p for p in hosted.entrants if p != player))
                hosted = await self._say(tournament_id, hosted, line)
                await self._draw_signups(tournament_id, hosted)
                return hosted
            tournament = hosted.tournament
            assert tournament is not None
            match = next((m for m in pending_matches(tournament) if player in m.present), None)
            mine = hosted.table(match.id) if match is not None else None
            if mine is not None and self.matches.table_of(hosted, mine) is not None:
                # At their table: they leave it, and its end is the match's result.
                withdrawn = (*tournament.withdrawn, player)
                hosted = replace(hosted, tournament=replace(tournament, withdrawn=withdrawn))
                hosted = await self._say(tournament_id, hosted, line)
                leave = mine.game
            else:
                try:
                    tournament = withdraw(tournament, player)
                except NotEntrant:
                    raise TableError("tour_not_entrant") from None
                hosted = replace(hosted, tournament=tournament)
                if match is not None and mine is not None:
                    still = next((m for m in pending_matches(tournament) if m.id == match.id), None)
                    if still is None:
                        await self.matches.archive(mine)
                    elif mine.message is not None and self._all_in(still, hosted):
                        hosted = await self._open_table(tournament_id, hosted, still)
                await self._progress(tournament_id, hosted, line)
        if leave is not None:
            await self.matches.leave(hosted, leave, player)
        return self.open.get(tournament_id, hosted)

    async def forget(self, guild_id: int, player: int) -> None:
        """``player`` had the server forget them (``/donnees effacer``): the name they signed
        up with leaves the open tournaments too (the stored ones lost it with the rest)."""
        await self.load()
        for tournament_id, (guild, _) in list(self.places.items()):
            if guild != guild_id:
                continue
            async with self.locks[tournament_id]:
                hosted = self.open.get(tournament_id)
                if hosted is not None and player in hosted.names:
                    names = {p: n for p, n in hosted.names.items() if p != player}
                    await self.save(tournament_id, replace(hosted, names=names))

    # ------------------------------------------------------------------ restart

    async def reconcile(self) -> None:
        """After a restart: each open tournament's steps left undone are done."""
        await self.load()
        for tournament_id in list(self.open):
            try:
                async with self.locks[tournament_id]:
                    await self._reconcile(tournament_id)
            except Exception:
                log.exception("tournament %s could not be taken up again", tournament_id)
                await self._retry_later(tournament_id, "take it up again")

    async def _reconcile(self, tournament_id: int) -> None:
        hosted = self.open.get(tournament_id)
        if hosted is None:
            return
        if hosted.tournament is not None and hosted.tournament.over:
            if hosted.unsaid is not None:  # its end, not told yet
                await self._tell_unsaid(tournament_id, hosted, status=OVER)
            else:
                await self._finish(tournament_id, hosted, None)
            return
        hosted = await self._tell_unsaid(tournament_id, hosted)
        if hosted.status != RUNNING or hosted.tournament is None:
            return
        # The tables that ended while nobody looked: their results, one at a time (each may
        # open the next round).
        recorded = True
        while recorded:
            recorded = False
            hosted = self.open.get(tournament_id) or hosted
            if hosted.tournament is None or hosted.status != RUNNING:
                return
            for match in pending_matches(hosted.tournament):
                game = hosted.table(match.id).game
                placed = await stored_places(self.repository, game) if game is not None else None
                if game is not None and placed is not None:
                    recorded = await self._record(tournament_id, match.id, game, placed)
                    break
        hosted = self.open.get(tournament_id) or hosted
        if hosted.status != RUNNING or hosted.tournament is None:
            return
        if not pending_matches(hosted.tournament):
            await self._progress(tournament_id, hosted, t(hosted.lang, "tour.back"))
            return
        await self._call_matches(tournament_id)
        for match in pending_matches(hosted.tournament):
            hosted = self.open[tournament_id]
            mine = hosted.table(match.id)
            if mine.message is not None and self._all_in(match, hosted):
                hosted = await self._open_table(tournament_id, hosted, match)
