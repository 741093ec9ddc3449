"""The real bot, run as ``python -m bot`` in a subprocess pointed at the emulator."""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import ctypes
import ctypes.util
import os
import signal
import sqlite3
import subprocess
import sys
from collections.abc import AsyncIterator, Mapping, Sequence
from pathlib import Path
from typing import IO

import asyncpg

from bot.storage.sql import numbered
from tests.e2e.emulator import DiscordEmulator

REPO_ROOT = Path(__file__).resolve().parents[2]
BOOT_DIR = Path(__file__).resolve().parent / "boot"

# discord.py waits this long after the last GUILD_CREATE before on_ready (see boot/).
GUILD_READY_TIMEOUT = 0.05
READY_MARGIN = 0.1

# A long turn by default so that no timer fires in a test that is not about timers; a timer
# test sets its own with @pytest.mark.bot_env(GOBELET_TURN_SECONDS="1").
DEFAULT_ENV = {
    "GOBELET_CPU_DELAY_SECONDS": "0",
    "GOBELET_TURN_SECONDS": "60",
    "GOBELET_LOG_LEVEL": "INFO",
    "GOBELET_DEV_GUILD_ID": "",
}


class BotStartError(RuntimeError):
    pass


class BotDied(RuntimeError):
    pass


def _die_with_parent() -> None:
    """Runs in the child before exec: if pytest dies, the kernel kills the bot too, so that no
    orphaned bot keeps reconnecting to a port nobody listens on."""
    libc_name = ctypes.util.find_library("c")
    if libc_name is None:
        return
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL(libc_name).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG


class BotProcess:
    """One bot, started and stopped as many times as a test needs, always on the same
    database file, so that a restart test sees what survived."""

    def __init__(
        self,
        emulator: DiscordEmulator,
        workdir: Path,
        *,
        env: Mapping[str, str] | None = None,
        database: Path | None = None,
        database_url: str | None = None,
        command: Sequence[str] = (sys.executable, "-m", "bot"),
    ) -> None:
        self.emulator = emulator
        self.command = list(command)
        self.workdir = workdir
        # The SQLite file, or, when ``database_url`` names another database, where the
        # bot's caches go (a test reading the file itself runs on SQLite only).
        self.database = database or workdir / "gobelet.db"
        self.database_url = database_url or f"sqlite:///{self.database}"
        self.overrides = dict(env or {})
        self.log_paths: list[Path] = []
        self.process: subprocess.Popen[bytes] | None = None
        self._log_file: IO[bytes] | None = None
        self._sessions_before = self._syncs_before = 0  # the emulator's, at the last launch

    # --- what the bot sees -----------------------------------------------------------------

    def env(self) -> dict[str, str]:
        # Nothing from the developer's own Discord or Gobelet settings leaks in; .env in the
        # repository cannot either, since python-dotenv never overrides a variable that is set.
        inherited = {
            key: value
            for key, value in os.environ.items()
            if not key.startswith(("DISCORD_", "GOBELET_"))
        }
        python_path = os.pathsep.join(filter(None, [str(BOOT_DIR), os.environ.get("PYTHONPATH")]))
        return {
            **inherited,
            **DEFAULT_ENV,
            "DISCORD_TOKEN": self.emulator.token,
            "DISCORD_API_BASE_URL": self.emulator.api_url,
            "DISCORD_GATEWAY_URL": self.emulator.gateway_url,
            "GOBELET_DATABASE_URL": self.database_url,
            # What the bot caches (a server's own Yadès sheet) stays with the test's database.
            "GOBELET_DATA_DIR": str(self.database.parent),
            "GOBELET_E2E_GUILD_READY_TIMEOUT": str(GUILD_READY_TIMEOUT),
            # The bot's wall clock shows the emulator's time (see boot/): a test that moves
            # it while the bot is down sees what was due meanwhile happen at the next start.
            "GOBELET_E2E_CLOCK_OFFSET": str(self.emulator.travelled),
            "PYTHONPATH": python_path,
            "PYTHONUNBUFFERED": "1",
            **self.overrides,
        }

    def query(self, sql: str, *params: object) -> list[tuple[object, ...]]:
        """Rows of ``sql`` (``?`` marks) read from the bot's database, whichever backend: the
        tests' ground truth. Synchronous, for checks written as plain functions."""
        if self.database_url.startswith("sqlite:///"):
            connection = sqlite3.connect(f"file:{self.database}?mode=ro", uri=True)
            try:
                return [tuple(row) for row in connection.execute(sql, params).fetchall()]
            finally:
                connection.close()

        async def fetch() -> list[tuple[object, ...]]:
            connection = await asyncpg.connect(self.database_url)
            try:
                return [tuple(r) for r in await connection.fetch(numbered(sql), *params)]
            finally:
                await connection.close()

        # Called from inside the test's event loop: the query runs on a loop of its own.
        with concurrent.futures.ThreadPoolExecutor(1) as pool:
            return pool.submit(asyncio.run, fetch()).result()

    # --- life and death --------------------------------------------------------------------

    @property
    def alive(self) -> bool:
        return self.process is not None and self.process.poll() is None

    @property
    def pid(self) -> int | None:
        return self.process.pid if self.process else None

    @property
    def returncode(self) -> int | None:
        return self.process.poll() if self.process else None

    def log(self) -> str:
        """Everything every run of the bot printed (stdout and stderr), oldest run first."""
        parts = []
        for number, path in enumerate(self.log_paths, 1):
            text = path.read_text(errors="replace") if path.exists() else ""
            parts.append(f"----- bot run {number} -----\n{text}")
        return "\n".join(parts)

    def check_alive(self) -> None:
        """The emulator's watchdog: a wait for the bot ends at once when the bot has died."""
        if self.process is not None and self.process.poll() is not None:
            raise BotDied(
                f"the bot exited with code {self.process.returncode}\n{self.log()[-4000:]}"
            )

    async def start(self, *, timeout: float = 20.0, expect_sync: bool = True) -> None:
        """Run the bot (``python -m bot``) and return once it identified on the gateway, received every
        server, and (unless ``expect_sync`` is false) bulk-overwrote its commands."""
        self.launch()
        await self.started(timeout=timeout, expect_sync=expect_sync)

    def launch(self) -> None:
        """Run the bot and return at once (``started`` waits for it to be up): a test may
        look at what it does on its way up."""
        if self.alive:
            raise RuntimeError("the bot is already running")
        emulator = self.emulator
        self._sessions_before = len(emulator.sessions)
        self._syncs_before = len(emulator.syncs)
        log_path = self.workdir / f"bot-{len(self.log_paths) + 1}.log"
        self.log_paths.append(log_path)
        self._log_file = log_path.open("wb")
        self.process = subprocess.Popen(
            self.command,
            cwd=REPO_ROOT,
            env=self.env(),
            stdin=subprocess.DEVNULL,
            stdout=self._log_file,
            stderr=subprocess.STDOUT,
            preexec_fn=_die_with_parent if sys.platform == "linux" else None,
        )
        emulator.watchdog = self.check_alive

    async def started(self, *, timeout: float = 20.0, expect_sync: bool = True) -> None:
        """Return once the bot ``launch`` ran is up (see ``start``)."""
        emulator = self.emulator
        sessions_before, syncs_before = self._sessions_before, self._syncs_before

        def logged_in() -> bool:
            return any(s.guilds_sent_at is not None for s in emulator.sessions[sessions_before:])

        try:
            await emulator.wait_for(logged_in, timeout=timeout, what="the bot to log in")
        except BotDied as error:
            raise BotStartError(f"the bot did not start: {error}") from None
        except TimeoutError as error:
            await self.kill()
            raise BotStartError(f"the bot did not start: {error}\n{self.log()[-4000:]}") from None
        if expect_sync and len(emulator.syncs) == syncs_before:
            await self.kill()
            raise BotStartError(f"the bot logged in without syncing commands\n{self.log()}")
        # on_ready comes GUILD_READY_TIMEOUT after the last GUILD_CREATE; nothing on the wire
        # says when, so wait that long (plus a margin) for anything the bot does in on_ready.
        await asyncio.sleep(GUILD_READY_TIMEOUT + READY_MARGIN)

    @contextlib.asynccontextmanager
    async def frozen(self) -> AsyncIterator[None]:
        """Suspend the bot (SIGSTOP) for the duration of the block, then let it go on (SIGCONT):
        what reaches it meanwhile waits unanswered, as behind a stuck event loop."""
        assert self.process is not None and self.alive
        self.process.send_signal(signal.SIGSTOP)
        try:
            yield
        finally:
            if self.process.poll() is None:
                self.process.send_signal(signal.SIGCONT)

    async def stop(self, timeout: float = 5.0) -> int | None:
        """Stop like Ctrl-C does (SIGINT: discord.py closes its connections), SIGKILL after
        ``timeout``. Returns the exit code."""
        if self.process is None:
            return None
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGCONT)  # a frozen bot could not handle SIGINT
            self.process.send_signal(signal.SIGINT)
            if not await self._exited(timeout):
                self.process.kill()
                await self._exited(timeout)
        return self._finish()

    async def terminate(self, timeout: float = 20.0) -> int | None:
        """Stop as a container's orchestrator does (SIGTERM: the bot refuses new interactions
        and finishes the moves in flight), SIGKILL after ``timeout``. Returns the exit code."""
        self.signal(signal.SIGTERM)
        return await self.exit_code(timeout)

    def signal(self, signum: int) -> None:
        """Send ``signum`` to the running bot, and return at once."""
        assert self.process is not None and self.alive
        self.process.send_signal(signum)

    async def exit_code(self, timeout: float = 20.0) -> int | None:
        """Wait for the bot to exit (SIGKILL after ``timeout``); its exit code."""
        if self.process is None:
            return None
        if not await self._exited(timeout):
            self.process.kill()
            await self._exited(5.0)
        return self._finish()

    async def kill(self) -> int | None:
        """SIGKILL: the bot gets no chance to save or say anything, as in a crash."""
        if self.process is None:
            return None
        if self.process.poll() is None:
            self.process.kill()
            await self._exited(5.0)
        return self._finish()

    async def restart(self, *, hard: bool = True, timeout: float = 20.0) -> None:
        """Kill (``hard``) or stop the bot, then start it again on the same database."""
        await (self.kill() if hard else self.stop())
        await self.start(timeout=timeout)

    async def _exited(self, timeout: float) -> bool:
        assert self.process is not None
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while self.process.poll() is None:
            if loop.time() >= deadline:
                return False
            await asyncio.sleep(0.01)
        return True

    def _finish(self) -> int | None:
        if self.emulator.watchdog == self.check_alive:
            self.emulator.watchdog = None
        if self._log_file is not None:
            self._log_file.close()
            self._log_file = None
        return self.process.poll() if self.process else None
