"""The discord.py client: intents, start-up (storage, cogs, dynamic items, sync), errors."""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import gc
import logging
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

import discord
import yarl
from discord import app_commands
from discord.ext import commands

from bot import buckets, collector, identifies, option_checks, pacing, shutdown, thread_budget
from bot.config import Settings
from bot.games import REGISTRY
from bot.i18n.commands import CommandTranslator
from bot.interactions import answers, stale
from bot.interactions.shared import Shared, Sharing
from bot.storage import StorageError, open_repository
from bot.table import TableRunner
from bot.table.clock import backoff

log = logging.getLogger(__name__)

# How often a process waiting for a shard another process runs asks again, and how often a
# process checks it still holds its own (a lost lease means another process may take over).
LEASE_RETRY_SECONDS = 2.0
LEASE_CHECK_SECONDS = 5.0

T = TypeVar("T")


class IdentifyBudgetLow(RuntimeError):
    """Discord's identify budget for the day is too low for this process to start."""


def extensions() -> tuple[str, ...]:
    """The extensions loaded at start-up, in order: the tables' shared parts, each registered
    game's Discord package (``cogs.<game>``), then what iterates the games."""
    games = tuple(f"cogs.{spec.name}" for spec in REGISTRY)
    return (
        "cogs.table",
        *games,
        "cogs.tournoi",
        "cogs.classement",
        "cogs.succes",
        "cogs.reglages",
        "cogs.donnees",
        "cogs.aide",
    )


def point_at(settings: Settings) -> None:
    """Send REST and gateway traffic to a proxy or a local emulator when the settings ask for it."""
    if settings.api_base_url:
        discord.http.Route.BASE = settings.api_base_url.rstrip("/")
    if settings.gateway_url:
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(settings.gateway_url)


def intents() -> discord.Intents:
    """Guilds, guild messages and guild reactions: nothing privileged (a message's text
    reaches the bot only when it is mentioned in it, to point to /aide)."""
    chosen = discord.Intents.none()
    chosen.guilds = True
    chosen.guild_messages = True
    chosen.guild_reactions = True
    return chosen


# The bot never joins voice: don't warn about the voice libraries it does not install.
discord.VoiceClient.warn_nacl = False
discord.VoiceClient.warn_dave = False


# Discord's answers that a channel is no longer the bot's: Unknown Channel, Missing Access.
PLACE_GONE = (10003, 50001)


def watched(request: Callable[..., Any], lost: Callable[[int], None]) -> Callable[..., Any]:
    """``request`` (discord.py's ``HTTPClient.request``) telling ``lost`` of the channel a
    call was about when Discord answers that the channel is gone for the bot."""

    async def request_watched(route: discord.http.Route, *args: Any, **kwargs: Any) -> Any:
        try:
            return await request(route, *args, **kwargs)
        except discord.HTTPException as error:
            if error.code in PLACE_GONE and route.channel_id is not None:
                lost(int(route.channel_id))
            raise

    return request_watched


def command_ids(synced: list[app_commands.AppCommand]) -> dict[str, int]:
    """Each synced command's id by its path ("aide", "maya start"): a subcommand is
    mentioned with its group's id."""
    ids: dict[str, int] = {}
    subcommand = discord.AppCommandOptionType.subcommand
    for found in synced:
        groups = [o for o in found.options if isinstance(o, app_commands.AppCommandGroup)]
        if not groups:  # a group itself is no command one can mention
            ids[found.name] = found.id
        for option in groups:
            if option.type is subcommand:
                ids[f"{found.name} {option.name}"] = found.id
    return ids


class Tree(app_commands.CommandTree[Any]):
    """The command tree: a slash command runs only with every option within what it declares
    to Discord (``bot.option_checks``), whatever client sent it."""

    async def interaction_check(self, interaction: discord.Interaction[Any]) -> bool:
        option_checks.check(interaction)
        return True


class Gobelet(Sharing, commands.AutoShardedBot):
    tables: TableRunner
    components: list[stale.DynamicType]

    def __init__(self, settings: Settings, *, sync_commands: bool = True) -> None:
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=intents(),
            help_command=None,
            tree_cls=Tree,
            allowed_mentions=discord.AllowedMentions.none(),  # a ping is always explicit
            # No message cache: every listener reads raw events (reactions, deletions), and
            # the cache would hold the last thousand messages seen, the bot's own included.
            max_messages=None,
            shard_count=settings.shard_count,
            shard_ids=list(settings.shard_ids),
            # A rate limit of minutes (thread creation's) is a refusal, never a wait.
            max_ratelimit_timeout=thread_budget.LONG_WAIT,
        )
        buckets.compact(self.http)
        self.thread_budget = thread_budget.ThreadBudget()
        # Every call made with the bot token counts against its global limit: paced.
        self.pacer = pacing.Pacer(settings.global_budget)
        self.http.request = pacing.paced(self.http.request, self.pacer)  # type: ignore[method-assign]
        # A table whose channel Discord no longer knows for the bot is closed (``place_lost``).
        self.http.request = watched(  # type: ignore[method-assign]
            self.http.request, lambda place: self.dispatch("place_lost", place)
        )
        self.settings = settings
        self.sync_commands = sync_commands
        self.tree.error(self.on_app_command_error)
        self.components = []
        self.lost_shard: int | None = None  # set when another process may have taken it
        self.budget: identifies.Budget | None = None  # Discord's identify budget at start
        self._claimed = False  # this process holds its shards' leases
        self._lease_watch: asyncio.Task[None] | None = None
        self._resumption: asyncio.Task[None] | None = None  # the restored tables resuming
        self.closing = False  # set by a graceful stop (bot.shutdown): interactions are refused
        self._stopped = asyncio.Event()  # set once the bot closes: a start stops waiting
        shutdown.refuse_while_closing(self)

    def add_components(self, *items: stale.DynamicType) -> None:
        """Register a cog's buttons and selects (they survive restarts)."""
        self.add_dynamic_items(*items)
        self.components.extend(item for item in items if item not in self.components)

    def remove_components(self, *items: stale.DynamicType) -> None:
        self.remove_dynamic_items(*items)
        self.components = [item for item in self.components if item not in items]

    async def on_message(self, message: discord.Message) -> None:
        """No prefix commands: every command is a slash command (cogs.aide answers a mention)."""
        return

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        # Every interaction is answered within Discord's window, and a click on a component
        # its message no longer shows still reaches the component's handler.
        answers.watch(interaction)
        await stale.dispatch_stale(interaction, list(self.components))

    async def prepare(self, database_url: str) -> None:
        """Open the storage and load every cog (no network needed)."""
        repository = await open_repository(database_url)
        self.tables = TableRunner(repository, self.settings)
        self.shared = Shared(self.tables)
        await self.tree.set_translator(CommandTranslator())
        for name in extensions():
            await self.load_extension(name)

    async def launch_shard(
        self, gateway: yarl.URL, shard_id: int, *, initial: bool = False
    ) -> None:
        # discord.py tries a shard's connection again for ever, even once the client is
        # closed (a stop while the next shard waits its turn to identify): the process
        # would never exit.
        if self.is_closed():
            return
        try:
            await super().launch_shard(gateway, shard_id, initial=initial)
        except asyncio.CancelledError:
            if not self._stopping():
                raise
            # stopped while the shard waited for its identify slot: it never identifies

    def _stopping(self) -> bool:
        return self.closing or self.is_closed()

    async def claim_shards(self) -> bool:
        """Wait until this process holds every shard it runs: a process started while
        another runs them waits (connected to nothing) and takes over when that one dies.
        All or nothing: while one is missing it holds none, so that a shard another
        process could run is never held by one that waits. False: stopped meanwhile."""
        repository, count = self.tables.repository, self.settings.shard_count
        told = False
        while not self._stopping():
            taken: list[int] = []
            try:
                for shard in self.settings.shard_ids:
                    if await repository.try_lock_shard(shard, count):
                        taken.append(shard)
            except StorageError as error:
                log.warning("cannot take the shard leases yet (%s); trying again", error)
            missing = [shard for shard in self.settings.shard_ids if shard not in taken]
            if not missing and not self._stopping():
                log.info("running shards %s of %d", ", ".join(map(str, taken)), count)
                self._claimed = True
                self._lease_watch = asyncio.create_task(self._watch_leases())
                return True
            for shard in taken:
                await repository.release_shard(shard)
            if not told and missing:
                log.info(
                    "shards %s of %d are run by another process (or processes count the"
                    " shards otherwise): waiting to take them over",
                    ", ".join(map(str, missing)),
                    count,
                )
                told = True
            await asyncio.sleep(LEASE_RETRY_SECONDS)
        return False

    async def _watch_leases(self) -> None:
        """Stop at once if a shard's lease is lost and could not be taken back: another
        process may run that shard now, and two processes must never run one shard."""
        repository, count = self.tables.repository, self.settings.shard_count
        while not self.is_closed():
            await asyncio.sleep(LEASE_CHECK_SECONDS)
            try:
                lost = await repository.keep_shards(self.settings.shard_ids, count)
            except StorageError as error:
                log.warning("cannot check the shard leases (%s)", error)
                continue
            if lost:
                log.error(
                    "lost the lease of shards %s: stopping so as not to run them twice",
                    ", ".join(map(str, lost)),
                )
                self.lost_shard = lost[0]
                await self.close()
                return

    async def patiently(self, what: str, call: Callable[[], Awaitable[T]]) -> T | None:
        """``call()``'s result once the database answers: while it does not (a stall longer
        than the statement timeout, a database restarting), tried again after a pause that
        grows. None: the bot was stopped meanwhile, at once, even in the middle of a try."""
        attempt = 0
        while not self._stopping():
            work = asyncio.ensure_future(call())
            stopped = asyncio.ensure_future(self._stopped.wait())
            await asyncio.wait((work, stopped), return_when=asyncio.FIRST_COMPLETED)
            stopped.cancel()
            if not work.done():
                work.cancel()
                with contextlib.suppress(asyncio.CancelledError, StorageError):
                    await work
                return None
            try:
                result = work.result()
            except StorageError as error:
                pause = backoff(attempt)
                attempt += 1
                log.warning(
                    "cannot %s: the database does not answer (%s); trying again in %g s",
                    what,
                    error,
                    pause,
                )
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._stopped.wait(), pause)
                continue
            if attempt:
                log.info("the database answers again: could %s", what)
            return result
        return None

    async def follow_recommended_shards(self) -> None:
        """Read ``GET /gateway/bot`` once: the identify budget (``self.budget``), and without
        GOBELET_SHARD_COUNT as many shards as Discord recommends, all run by this process."""
        try:
            count, _, limit = await self.http.get_bot_gateway()
        except discord.GatewayNotFound:
            log.warning(
                "Discord did not say how many shards it recommends nor how many identifies"
                " it allows: running %s",
                "the shards configured" if self.settings.shards_given else "one",
            )
            return
        self.budget = identifies.Budget.read(limit)
        if self.budget is None:
            log.warning("Discord's session_start_limit is unreadable: %r", limit)
        if self.settings.shards_given:
            return
        count = max(1, int(count))
        if count != self.settings.shard_count:
            ids = tuple(range(count))
            self.settings = dataclasses.replace(self.settings, shard_count=count, shard_ids=ids)
            self.shard_count, self.shard_ids = count, list(ids)
            log.info("running the %d shards Discord recommends", count)

    def check_budget(self) -> None:
        """Refuse to start (``IdentifyBudgetLow``) when identifying this process's shards
        would leave less of the day's identifies than ``identifies.RESERVE``."""
        if self.budget is None:
            return
        refusal = identifies.shortfall(self.budget, len(self.settings.shard_ids))
        if refusal is not None:
            log.error("%s", refusal)
            raise IdentifyBudgetLow(refusal)
        log.info(
            "Discord allows %d more identifies today, %d at a time",
            self.budget.remaining,
            self.budget.max_concurrency,
        )

    async def _pause(self, seconds: float) -> None:
        """Wait ``seconds``, or less if the bot stops meanwhile."""
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._stopped.wait(), seconds)

    async def back_off(self) -> None:
        """A process restarting in a loop (its shards started again and again soon after,
        with no clean stop) waits longer each time before identifying them."""
        repository, shards = self.tables.repository, self.settings.shard_ids
        streak = await self.patiently(
            "count the restarts",
            lambda: repository.record_start(shards, identifies.QUICK_RESTART),
        )
        pause = identifies.restart_pause(streak or 0)
        if pause:
            log.warning(
                "shards %s restarted %d times in a row within %g s of each other: waiting"
                " %g s before identifying them (Discord allows %s identifies a day)",
                ", ".join(map(str, shards)),
                streak,
                identifies.QUICK_RESTART,
                pause,
                self.budget.total if self.budget else "a limited number of",
            )
            await self._pause(pause)

    async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False) -> None:
        """Identify only once this shard's concurrency bucket is free, across every process
        sharing the database (it replaces discord.py's 5 s between one process's shards)."""
        if not hasattr(self, "tables"):
            await super().before_identify_hook(shard_id, initial=initial)
            return
        concurrency = self.budget.max_concurrency if self.budget else 1
        bucket = (shard_id or 0) % concurrency
        window = identifies.IDENTIFY_WINDOW + identifies.SLOT_MARGIN
        while not self._stopping():
            try:
                wait = await self.tables.repository.take_identify_slot(bucket, window)
            except StorageError as error:
                log.warning("cannot take an identify slot (%s); trying again", error)
                wait = window
            if wait <= 0:
                return
            log.debug("shard %s waits %.2f s for its identify slot", shard_id, wait)
            await self._pause(wait)
        # Stopped while waiting: identifying now would spend one outside the window (the
        # connection is dropped instead; discord.py ends a cancelled reconnection quietly).
        raise asyncio.CancelledError

    async def setup_hook(self) -> None:
        await self.follow_recommended_shards()
        self.check_budget()
        await self.prepare(self.settings.database_url)
        if not await self.claim_shards():
            return  # stopped while waiting for the shards
        await self.back_off()
        if self._stopping():
            return
        # The database may stall now (a lock held elsewhere): the bot waits for it, since
        # it can run no table it has not restored.
        restored = await self.patiently("restore the tables", self.tables.restore)
        if restored is None:
            return  # stopped while waiting for the database
        if restored:
            log.info("restored %d running tables", len(restored))
        for cog in list(self.shared.games.values()):
            await cog.resume()
        for watcher in list(self.shared.watchers):
            await self.patiently("restore the tournaments", watcher.restored)
            if self._stopping():
                return
        if self._stopping():
            return
        # The tables say they are back in the background, behind what people wait on: the
        # bot connects meanwhile, and a table someone uses first resumes at once.
        self._resumption = asyncio.create_task(self._resume_tables())
        if not self.sync_commands:
            return
        if self.settings.dev_guild_id:
            guild = discord.Object(id=self.settings.dev_guild_id)
            self.tree.copy_global_to(guild=guild)
            synced = await self.tree.sync(guild=guild)
        else:
            synced = await self.tree.sync()
        log.info("synced %d application commands", len(synced))
        self.shared.command_ids = command_ids(synced)
        # What start-up made (modules, commands, the texts, restored tables) lives as long
        # as the process: frozen, so that the cycle collector's full collections walk only
        # what the games make since; and each leaves what survived it out of the next
        # one's (``bot.collector``).
        gc.freeze()
        collector.keep_full_collections_short()

    async def _resume_tables(self) -> None:
        with pacing.background():
            for cog in list(self.shared.games.values()):
                await cog.resume_tables()
        if not self._stopping():
            await self.tables.clock.start()  # once every table has said it is back

    async def on_app_command_error(
        self, interaction: discord.Interaction, error: app_commands.AppCommandError
    ) -> None:
        from bot.interactions.refusals import refuse

        table = None
        if hasattr(self, "tables") and interaction.channel_id is not None:
            table = self.tables.in_channel(interaction.channel_id)
        await refuse(interaction, error, table)

    async def close(self) -> None:
        self._stopped.set()
        if self._resumption is not None:
            self._resumption.cancel()
        if self._lease_watch is not None and self._lease_watch is not asyncio.current_task():
            self._lease_watch.cancel()
        if hasattr(self, "tables"):
            # The clock first (no timer begins a move), the gateway next, the storage and
            # with it the shard leases last: a standby takes over only once nothing here
            # can answer.
            await self.tables.clock.close()
        if hasattr(self, "tables") and self.closing and self._claimed:
            # A clean stop: the next start is no restart in a loop. Before the gateway
            # closes, since the process ends soon after it does.
            self._claimed = False
            try:
                await self.tables.repository.forget_starts(self.settings.shard_ids)
            except StorageError as error:
                log.warning("cannot note the clean stop (%s): the next start backs off", error)
        await super().close()
        if hasattr(self, "tables"):
            await self.tables.close()
