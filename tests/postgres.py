"""A real PostgreSQL server for the tests: the one ``GOBELET_TEST_POSTGRES_URL`` names, or a
throwaway cluster started from the machine's PostgreSQL binaries (Debian's ``postgresql``
package; ``.ci/run`` installs it). Each test gets a database of its own.

Without either, the PostgreSQL tests are skipped with the reason, except under CI, where
they fail: CI must run every backend.
"""

from __future__ import annotations

import contextlib
import glob
import itertools
import os
import shutil
import socket
import subprocess
import tempfile
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import asyncpg
import pytest

URL_VARIABLE = "GOBELET_TEST_POSTGRES_URL"


class NoPostgres(RuntimeError):
    pass


def _binaries() -> Path | None:
    """The folder of ``initdb`` and ``pg_ctl``: on the PATH, else Debian's newest."""
    found = shutil.which("pg_ctl")
    if found and shutil.which("initdb"):
        return Path(found).resolve().parent
    versions = sorted(glob.glob("/usr/lib/postgresql/*/bin"), key=lambda p: int(p.split("/")[4]))
    return Path(versions[-1]) if versions else None


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class PostgresServer:
    """A server the tests may create databases in."""

    def __init__(
        self,
        url: str,
        *,
        folder: Path | None = None,
        as_user: list[str] | None = None,
        binaries: Path | None = None,
    ) -> None:
        self.url = url  # of its maintenance database
        self._folder = folder  # a cluster of our own, removed at the end
        self._as_user = as_user or []
        self._binaries = binaries or Path("/usr/bin")
        self._names = itertools.count(1)

    @classmethod
    def start(cls) -> PostgresServer:
        given = os.environ.get(URL_VARIABLE, "").strip()
        if given:
            return cls(given)
        binaries = _binaries()
        if binaries is None:
            raise NoPostgres(
                f"no PostgreSQL: install it (apt-get install postgresql) or set {URL_VARIABLE}"
            )
        # PostgreSQL refuses to run as root: root runs it as the package's own user.
        as_user = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []
        folder = Path(tempfile.mkdtemp(prefix="gobelet-pg-"))
        if as_user:
            shutil.chown(folder, "postgres")
        data = folder / "data"
        run = [*as_user, str(binaries / "initdb"), "-D", str(data), "-A", "trust", "-U", "gobelet"]
        subprocess.run([*run, "-E", "UTF8", "--no-sync"], check=True, capture_output=True)
        # Each xdist worker starts a cluster of its own, and the tests open ports all the
        # time: the free port found may be taken before the server binds it. Then the
        # server does not start, and another port is tried.
        for attempt in range(1, 6):
            port = _free_port()
            options = (
                f"-p {port} -k {folder} -c listen_addresses=127.0.0.1 -c fsync=off"
                " -c synchronous_commit=off -c full_page_writes=off -c max_connections=300"
            )
            log = str(folder / "log")
            started = subprocess.run(
                [
                    *as_user,
                    str(binaries / "pg_ctl"),
                    "-D",
                    str(data),
                    "-o",
                    options,
                    "-l",
                    log,
                    "-w",
                    "start",
                ],
                capture_output=True,
            )
            if started.returncode == 0:
                break
            if attempt == 5:
                shutil.rmtree(folder, ignore_errors=True)
                raise subprocess.CalledProcessError(
                    started.returncode, started.args, started.stdout, started.stderr
                )
        return cls(
            f"postgresql://gobelet@127.0.0.1:{port}/postgres",
            folder=folder,
            as_user=as_user,
            binaries=binaries,
        )

    def stop(self) -> None:
        if self._folder is None:
            return
        with contextlib.suppress(subprocess.CalledProcessError):
            data = str(self._folder / "data")
            subprocess.run(
                [
                    *self._as_user,
                    str(self._binaries / "pg_ctl"),
                    "-D",
                    data,
                    "-m",
                    "immediate",
                    "-w",
                    "stop",
                ],
                check=True,
                capture_output=True,
            )
        shutil.rmtree(self._folder, ignore_errors=True)

    def database_url(self, name: str) -> str:
        parts = urlsplit(self.url)
        return urlunsplit(parts._replace(path=f"/{name}"))

    async def new_database(self) -> str:
        """A new, empty database; returns its URL."""
        name = f"gobelet_test_{os.getpid()}_{next(self._names)}"
        connection = await asyncpg.connect(self.url)
        try:
            await connection.execute(f'DROP DATABASE IF EXISTS "{name}"')
            await connection.execute(f'CREATE DATABASE "{name}"')
        finally:
            await connection.close()
        return self.database_url(name)


def server_or_skip(started: PostgresServer | NoPostgres) -> PostgresServer:
    """The session's server; without one, skip (or fail under CI, which must test both)."""
    if isinstance(started, PostgresServer):
        return started
    if os.environ.get("CI", "").lower() in {"1", "true", "yes"}:
        pytest.fail(f"CI runs every backend, but {started}")
    pytest.skip(str(started))
