"""Runs the server's tournaments (docs/tournaments.md, docs/playing.md#tournaments): their
sign-ups, each round's threads and check-ins, the tables it opens and follows to their
end, the deadlines (stored timers: ``tournoi:{id}``), forfeits, the bracket and standings
told after every match, the winner and their achievement.

Every change is stored before it is told, and every step can be taken again: after a
restart (or a crash between two steps) ``reconcile`` finds what is left to do (a result
not recorded, a round not opened, a check-in not posted, a table not opened) and does it.
A tournament's changes take its lock; a table's end reaches it through ``ended`` (a task,
so that the table's lock and the tournament's are never held in the wrong order).
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any

import discord

from bot.games import REGISTRY
from bot.i18n import t
from bot.kernel.rating import INITIAL_RATING
from bot.storage import Repository, StorageError, Timer
from bot.table import Table, TableError
from bot.table.scoring import places, stored_places
from bot.tournaments import (
    SWISS,
    Entrant,
    Match,
    Tournament,
    advance,
    forfeit,
    pending_matches,
    record,
    start,
    winner,
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
from cogs.table.cog import TableCog
from cogs.tournoi import render
from cogs.tournoi.components import checkin_view

if TYPE_CHECKING:
    from bot.client import Gobelet
    from cogs.table.controller import TableController

log = logging.getLogger(__name__)

MOST_ENTRANTS = 64


class Director:
    """Every open tournament of this process's servers (the clock's handler of their
    deadlines, and the watcher of their tables)."""

    def __init__(self, bot: Gobelet) -> None:
        self.bot = bot
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

    # ------------------------------------------------------------------ loading

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
        if not hosted.open:
            self.open.pop(tournament_id, None)
            for game in [g for g, (tid, _) in self.by_game.items() if tid == tournament_id]:
                del self.by_game[game]
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

    def _spawn(self, work: Any) -> None:
        task = asyncio.create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def close(self) -> None:
        for task in list(self._tasks):
            task.cancel()

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

    def _timer(self, tournament_id: int, due: float, **payload: Any) -> dict[str, Timer | None]:
        guild_id, _ = self.places[tournament_id]
        return {timer_key(tournament_id): Timer(timer_key(tournament_id), due, guild_id, payload)}

    def _no_timer(self, tournament_id: int) -> dict[str, Timer | None]:
        return {timer_key(tournament_id): None}

    # ------------------------------------------------------------------ sign-ups

    async def sign(self, tournament_id: int, player: int, name: str, *, joining: bool) -> Hosted:
        """``player`` signs up (or takes their name off) while the tournament signs up."""
        await self.load()
        async with self.locks[tournament_id]:
            hosted = self._signing(tournament_id)
            if joining:
                if player in hosted.entrants:
                    raise TableError("tour_signed_already")
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

    # ------------------------------------------------------------------ the clock

    async def due(self, timer: Timer) -> None:
        """A tournament's deadline: its sign-ups' end (it starts), or a round's (forfeits)."""
        tournament_id = int(timer.key.split(":", 1)[1])
        await self.load()
        await self.bot.wait_until_ready()
        async with self.locks[tournament_id]:
            hosted = self.open.get(tournament_id)
            if hosted is None:
                return
            phase = timer.payload.get("phase")
            if phase == "signup" and hosted.status == SIGNUP:
                await self._start(tournament_id, hosted)
            elif (
                phase == "round"
                and hosted.status == RUNNING
                and hosted.tournament is not None
                and hosted.tournament.current.number == timer.payload.get("round")
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
        guild_id, channel_id = self.places[tournament_id]
        lang = hosted.lang
        if len(hosted.entrants) < 2:
            hosted = replace(hosted, status=CANCELLED)
            await self.save(tournament_id, hosted, self._no_timer(tournament_id))
            await self._signup_closed(tournament_id, hosted)
            await self._send(channel_id, t(lang, "tour.too_few", count=len(hosted.entrants)))
            return
        board = hosted.game if hosted.game in ("maya", "mia") else hosted.spec.kind
        try:
            known = await self.repository.ratings(guild_id, board, list(hosted.entrants))
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
        await self._signup_closed(tournament_id, hosted)
        heading = t(
            lang,
            "tour.started",
            count=len(entrants),
            game=render.game_name(hosted, lang),
        )
        await self._round_opened(tournament_id, hosted, heading)

    async def _signup_closed(self, tournament_id: int, hosted: Hosted) -> None:
        """The sign-up message loses its buttons."""
        if hosted.message is None:
            return
        _, channel_id = self.places[tournament_id]
        guild_id, _ = self.places[tournament_id]
        channel = self.bot.get_partial_messageable(channel_id, guild_id=guild_id)
        try:
            await channel.get_partial_message(hosted.message).edit(
                embed=render.signup_embed(hosted), view=None
            )
        except discord.HTTPException as error:
            log.info(
                "tournament %s: its sign-up message was not edited (%s)",
                tournament_id,
                error.status,
            )

    # ------------------------------------------------------------------ rounds

    def _without_removed(self, tournament: Tournament, removed: Sequence[int]) -> Tournament:
        """The players the organizer removed forfeit the matches of a round as it opens."""
        for match in pending_matches(tournament):
            gone = [p for p in match.present if p in removed]
            if gone:
                tournament = forfeit(tournament, match.id, gone)
        return tournament

    async def _progress(
        self, tournament_id: int, hosted: Hosted, heading: str | None = None
    ) -> None:
        """After a result: the next round opened once this one is decided (or the end)."""
        assert hosted.tournament is not None
        tournament = hosted.tournament
        number = tournament.current.number
        while not tournament.over and not pending_matches(tournament):
            tournament = advance(tournament)
            if not tournament.over:
                tournament = self._without_removed(tournament, hosted.removed)
        hosted = replace(hosted, tournament=tournament)
        if tournament.over:
            hosted = replace(hosted, status=OVER, round_ends=None)
            await self.save(tournament_id, hosted, self._no_timer(tournament_id))
            await self._finish(tournament_id, hosted)
        elif tournament.current.number != number:
            await self._round_opened(tournament_id, hosted, heading)
        else:
            await self.save(tournament_id, hosted)
            if heading:
                await self._tell(tournament_id, hosted, heading)

    async def _round_opened(self, tournament_id: int, hosted: Hosted, heading: str | None) -> None:
        """A round is open (the first, or the next): its deadline set and stored with it,
        then told, then each match's check-in posted."""
        assert hosted.tournament is not None
        tournament = self._without_removed(hosted.tournament, hosted.removed)
        if not pending_matches(tournament) and not tournament.over:
            # Byes and walkovers alone (or forfeits of removed players): on to the next.
            await self._progress(tournament_id, replace(hosted, tournament=tournament), heading)
            return
        due = time.time() + hosted.round_seconds
        hosted = replace(hosted, tournament=tournament, round_ends=due)
        number = tournament.current.number
        await self.save(
            tournament_id, hosted, self._timer(tournament_id, due, phase="round", round=number)
        )
        lang = hosted.lang
        opened = t(lang, "tour.round_opened", number=number)
        await self._tell(tournament_id, hosted, f"{heading}\n{opened}" if heading else opened)
        await self._check_ins(tournament_id)

    async def _check_ins(self, tournament_id: int) -> None:
        """Each pending match of the round without its check-in gets its thread and message
        (the one ping of its players)."""
        hosted = self.open.get(tournament_id)
        if hosted is None or hosted.tournament is None:
            return
        for match in pending_matches(hosted.tournament):
            if hosted.table(match.id).message is None:
                hosted = await self._check_in(tournament_id, hosted, match)

    async def _check_in(self, tournament_id: int, hosted: Hosted, match: Match) -> Hosted:
        assert hosted.tournament is not None
        guild_id, channel_id = self.places[tournament_id]
        lang = hosted.lang
        number = hosted.tournament.current.number
        table = hosted.table(match.id)
        where = table.thread
        if where is None:
            name = t(
                lang,
                "tour.thread",
                game=render.game_name(hosted, lang),
                number=number,
                table=match.id.split("-")[1],
            )
            where = await threads.start(self.bot, channel_id, name)
            if where is not None:  # kept at once: a crash now does not start a second one
                hosted = await self.save(
                    tournament_id, hosted.with_table(match.id, replace(table, thread=where))
                )
        assert hosted.round_ends is not None
        ends = int(hosted.round_ends)
        text = t(
            lang,
            "tour.check_in",
            players=render.names(match.present),
            number=number,
            when=f"<t:{ends}:f>",
            left=f"<t:{ends}:R>",
        )
        channel = self.bot.get_partial_messageable(where or channel_id, guild_id=guild_id)
        pinged = discord.AllowedMentions(users=[discord.Object(p) for p in match.present])
        try:
            sent = await channel.send(
                text, view=checkin_view(tournament_id, match.id, lang), allowed_mentions=pinged
            )
        except discord.HTTPException as error:
            log.warning(
                "tournament %s: match %s's check-in was refused (%s)",
                tournament_id,
                match.id,
                error.status,
            )
            return hosted
        table = replace(hosted.table(match.id), thread=where, message=sent.id)
        return await self.save(tournament_id, hosted.with_table(match.id, table))

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
            if player not in match.present:
                raise TableError("tour_not_your_match")
            table = hosted.table(match_id)
            if player in table.present or table.game is not None:
                raise TableError("tour_checked_in")
            table = replace(table, present=(*table.present, player))
            hosted = await self.save(tournament_id, hosted.with_table(match_id, table))
            if all(p in table.present for p in match.present):
                hosted = await self._open_table(tournament_id, hosted, match)
            return hosted, match

    def controller(self, hosted: Hosted) -> TableController:
        side = self.bot.shared.games.get(hosted.spec.kind)
        if not isinstance(side, TableCog):
            raise TableError("stale")
        return side.controller

    async def _open_table(self, tournament_id: int, hosted: Hosted, match: Match) -> Hosted:
        """The match's table, opened in its thread with its players present, started."""
        guild_id, channel_id = self.places[tournament_id]
        mine = hosted.table(match.id)
        if mine.game is not None:
            return hosted
        controller = self.controller(hosted)
        runner = controller.tables
        where = mine.thread or channel_id
        players = [p for p in match.present if p in mine.present] or list(match.present)
        kind = REGISTRY[hosted.spec.kind]
        left = runner.in_channel(where)
        if left is not None and left.running and not left.started and left.starter in players:
            table = left  # opened before a crash, its game not kept yet: it is this match's
        else:
            try:
                table = await runner.open(
                    guild_id=guild_id,
                    channel_id=where,
                    starter=players[0],
                    rules=kind.rules_from_json(hosted.rules),
                    kind=hosted.spec.kind,
                    lang=hosted.lang,
                    turn_seconds=hosted.turn_seconds,
                    starter_name=hosted.names.get(players[0]),
                )
            except TableError as error:
                if error.code == "table_busy":  # in the channel itself: it waits its turn
                    log.info(
                        "tournament %s: match %s waits for its channel", tournament_id, match.id
                    )
                    return hosted
                raise
        self.by_game[table.id] = (tournament_id, match.id)
        hosted = await self.save(
            tournament_id, hosted.with_table(match.id, replace(mine, game=table.id))
        )
        async with table.lock:
            for player in players:
                if player not in table.players:
                    await runner.join_lobby(table, player, name=hosted.names.get(player))
            events = await controller.start(table)
        await controller.begun(table, events, actor=None)
        return hosted

    # ------------------------------------------------------------------ results

    def claims(self, table: Table) -> bool:
        return table.id in self.by_game

    async def ended(self, table: Table) -> None:
        found = self.by_game.get(table.id)
        if found is None or table.running:
            return
        placed = places(table)
        self._spawn(self._played(found[0], found[1], table.id, placed))

    async def _played(
        self, tournament_id: int, match_id: str, game_id: int, placed: Sequence[Sequence[int]]
    ) -> None:
        try:
            async with self.locks[tournament_id]:
                await self._record(tournament_id, match_id, game_id, placed)
        except Exception:
            log.exception(
                "tournament %s: match %s's result could not be kept", tournament_id, match_id
            )

    async def _record(
        self, tournament_id: int, match_id: str, game_id: int, placed: Sequence[Sequence[int]]
    ) -> None:
        hosted = self.open.get(tournament_id)
        if hosted is None or hosted.tournament is None or hosted.status != RUNNING:
            return
        tournament = hosted.tournament
        match = next((m for m in pending_matches(tournament) if m.id == match_id), None)
        if match is None or hosted.table(match_id).game != game_id:
            return  # recorded already (a restart's second look)
        ranking = table_ranking(placed, match.present, tournament.players)
        tournament = record(tournament, match_id, ranking)
        hosted = replace(hosted, tournament=tournament)
        decided = next(m for m in tournament.current.matches if m.id == match_id)
        heading = self._result_line(hosted, decided)
        thread = hosted.table(match_id).thread
        if thread is not None:
            await threads.archive(self.bot, thread)
        await self._progress(tournament_id, hosted, heading)
        await self.waiting(tournament_id)

    def _result_line(self, hosted: Hosted, match: Match) -> str:
        lang = hosted.lang
        assert match.ranking is not None
        order = " > ".join(render.mention(p) for p in match.ranking)
        number = match.id.split("-")[0]
        return t(lang, "tour.result", number=number, table=match.id.split("-")[1], order=order)

    # ------------------------------------------------------------------ a round's deadline

    async def _deadline(self, tournament_id: int, hosted: Hosted) -> None:
        """The round's time is up: whoever has not checked in forfeits; a table of a game
        with no end of its own (Maya's party) is stopped and ranked as it stands."""
        assert hosted.tournament is not None
        tournament = hosted.tournament
        lang = hosted.lang
        lines = [t(lang, "tour.deadline", number=tournament.current.number)]
        endless: list[int] = []
        for match in pending_matches(tournament):
            mine = hosted.table(match.id)
            if mine.game is not None:
                if hosted.spec.endless:
                    endless.append(mine.game)
                continue
            absent = [p for p in match.present if p not in mine.present]
            if absent:
                tournament = forfeit(tournament, match.id, absent)
                lines.append(t(lang, "tour.forfeit", players=render.names(absent)))
        hosted = await self.save(tournament_id, replace(hosted, tournament=tournament))
        for match in pending_matches(tournament):  # two present or more: they play
            if hosted.table(match.id).game is None:
                hosted = await self._open_table(tournament_id, hosted, match)
        for game_id in endless:
            await self._stop_table(hosted, game_id)
        await self._progress(tournament_id, hosted, "\n".join(lines))

    async def _stop_table(self, hosted: Hosted, game_id: int) -> None:
        controller = self.controller(hosted)
        table = controller.tables.get(game_id)
        if table is None:
            return
        async with table.lock:
            if not table.running:
                return
            events = await controller.tables.stop(table)
            await controller.publish(table, events)

    # ------------------------------------------------------------------ the end

    async def _finish(self, tournament_id: int, hosted: Hosted) -> None:
        assert hosted.tournament is not None
        guild_id, channel_id = self.places[tournament_id]
        lang = hosted.lang
        won = winner(hosted.tournament)
        if won is None:
            heading = t(lang, "tour.no_winner")
        else:
            heading = t(
                lang, "tour.winner", player=render.mention(won), game=render.game_name(hosted, lang)
            )
            played = [
                table.game
                for match_id, table in hosted.tables.items()
                if table.game is not None and self._played_in(hosted.tournament, match_id, won)
            ]
            if played:
                code = f"{hosted.spec.kind}_tournament"
                try:
                    await self.repository.award(guild_id, won, code, max(played))
                except StorageError:
                    log.warning(
                        "tournament %s: its winner's achievement was not kept", tournament_id
                    )
        if not hosted.announced:
            pinged = discord.AllowedMentions(users=[discord.Object(won)] if won else False)
            channel = self.bot.get_partial_messageable(channel_id, guild_id=guild_id)
            try:
                await channel.send(
                    heading, embed=render.status_embed(hosted), allowed_mentions=pinged
                )
            except discord.HTTPException as error:
                log.warning(
                    "tournament %s: its end could not be told (%s)", tournament_id, error.status
                )
                return
            await self.save(tournament_id, replace(hosted, announced=True))

    @staticmethod
    def _played_in(tournament: Tournament, match_id: str, player: int) -> bool:
        return any(m.id == match_id and player in m.players for _, m in tournament.matches())

    # ------------------------------------------------------------------ the organizer

    async def cancel(self, tournament_id: int) -> Hosted:
        await self.load()
        async with self.locks[tournament_id]:
            hosted = self.open.get(tournament_id)
            if hosted is None:
                raise TableError("tour_over")
            hosted = replace(hosted, status=CANCELLED, round_ends=None)
            await self.save(tournament_id, hosted, self._no_timer(tournament_id))
            await self._signup_closed(tournament_id, hosted)
            return hosted

    async def remove(self, tournament_id: int, player: int) -> Hosted:
        """The organizer takes ``player`` out: off the sign-ups, or out of the tournament
        (their match forfeited, their table left)."""
        await self.load()
        async with self.locks[tournament_id]:
            hosted = self.open.get(tournament_id)
            if hosted is None:
                raise TableError("tour_over")
            if player not in hosted.entrants or player in hosted.removed:
                raise TableError("tour_not_entrant", player=player)
            if hosted.status == SIGNUP:
                hosted = replace(hosted, entrants=tuple(p for p in hosted.entrants if p != player))
                return await self.save(tournament_id, hosted)
            tournament = hosted.tournament
            assert tournament is not None
            hosted = replace(hosted, removed=(*hosted.removed, player))
            match = next((m for m in pending_matches(tournament) if player in m.present), None)
            leave: int | None = None
            if match is not None:
                mine = hosted.table(match.id)
                if mine.game is None:
                    tournament = forfeit(tournament, match.id, [player])
                else:
                    leave = mine.game
            hosted = await self.save(tournament_id, replace(hosted, tournament=tournament))
            if match is not None and leave is None:
                still = next((m for m in pending_matches(tournament) if m.id == match.id), None)
                if still is not None and all(
                    p in hosted.table(match.id).present for p in still.present
                ):
                    hosted = await self._open_table(tournament_id, hosted, still)
                heading = t(hosted.lang, "tour.removed_line", player=render.mention(player))
                await self._progress(tournament_id, hosted, heading)
        if leave is not None:
            await self._leave(hosted, leave, player)
        return self.open.get(tournament_id, hosted)

    async def _leave(self, hosted: Hosted, game_id: int, player: int) -> None:
        controller = self.controller(hosted)
        table = controller.tables.get(game_id)
        if table is None:
            return
        async with table.lock:
            if not table.running or not table.seated(player):
                return
            events = await controller.tables.act(
                table, REGISTRY[table.kind].leave(player), in_person=False
            )
            await controller.publish(table, events)
            controller.tables.schedule(table)

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

    # ------------------------------------------------------------------ telling

    async def _send(self, channel_id: int, text: str, **kwargs: Any) -> discord.Message | None:
        channel = self.bot.get_partial_messageable(channel_id)
        try:
            return await channel.send(
                text, allowed_mentions=discord.AllowedMentions.none(), **kwargs
            )
        except discord.HTTPException as error:
            log.warning(
                "channel %s: a tournament's message was refused (%s)", channel_id, error.status
            )
            return None

    async def _tell(self, tournament_id: int, hosted: Hosted, heading: str) -> None:
        """The bracket and standings as they stand, in the tournament's channel."""
        _, channel_id = self.places[tournament_id]
        await self._send(channel_id, heading[:2000], embed=render.status_embed(hosted))

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

    async def _reconcile(self, tournament_id: int) -> None:
        hosted = self.open.get(tournament_id)
        if hosted is None or hosted.status != RUNNING or hosted.tournament is None:
            return
        tournament = hosted.tournament
        for match in pending_matches(tournament):
            game_id = hosted.table(match.id).game
            if game_id is None:
                continue
            placed = await stored_places(self.repository, game_id)
            if placed is None:
                continue
            await self._record(tournament_id, match.id, game_id, placed)
            hosted = self.open.get(tournament_id)
            if (
                hosted is None
                or hosted.tournament is None
                or hosted.tournament.current.number != tournament.current.number
            ):
                return
        hosted = self.open.get(tournament_id)
        if hosted is None or hosted.tournament is None:
            return
        if not pending_matches(hosted.tournament):
            await self._progress(tournament_id, hosted)
            return
        await self._check_ins(tournament_id)
        hosted = self.open[tournament_id]
        assert hosted.tournament is not None
        for match in pending_matches(hosted.tournament):
            mine = hosted.table(match.id)
            if mine.game is None and all(p in mine.present for p in match.present):
                hosted = await self._open_table(tournament_id, hosted, match)

    async def waiting(self, hosted_id: int) -> None:
        """A tournament table ended: a match of it waiting for its channel may open now."""
        hosted = self.open.get(hosted_id)
        if hosted is None or hosted.tournament is None:
            return
        for match in pending_matches(hosted.tournament):
            mine = hosted.table(match.id)
            if (
                mine.game is None
                and mine.message is not None
                and all(p in mine.present for p in match.present)
            ):
                hosted = await self._open_table(hosted_id, hosted, match)
