"""Settings from the environment (and an optional ``.env`` file), as one frozen object."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

from dotenv import load_dotenv

from bot.pacing import DEFAULT_GLOBAL_RATE, DISCORD_GLOBAL_RATE
from bot.storage.base import Shards

DEFAULT_DATABASE_URL = "sqlite:///data/gobelet.db"
# Files the bot can make again (caches): beside a SQLite database unless GOBELET_DATA_DIR
# says otherwise, and in data/ when the database is not a file.
DEFAULT_DATA_DIR = Path("data")
# Files that come with the bot (the presets' Yadès tables), read only: the source tree's
# data/ unless GOBELET_SHIPPED_DIR says otherwise (the image builds them outside its volume).
DEFAULT_SHIPPED_DIR = Path(__file__).resolve().parent.parent / "data"
LOG_FORMATS = ("text", "json")


class ConfigError(ValueError):
    """A setting is present but unusable; the message says which and why."""


@dataclass(frozen=True, slots=True)
class Settings:
    token: str | None
    database_url: str = DEFAULT_DATABASE_URL
    data_dir: Path = DEFAULT_DATA_DIR
    api_base_url: str | None = None
    gateway_url: str | None = None
    dev_guild_id: int | None = None
    turn_seconds: float = 90.0
    cpu_delay_seconds: float = 1.5
    log_level: str = "INFO"
    dice_seed: int | None = None  # tests and demos only: reproducible dice per table
    # Tests and demos only: how long a tournament's minute lasts (its sign-ups and rounds).
    minute_seconds: float = 60.0
    shard_count: int = 1  # Discord's shards in all, across every process
    shard_ids: tuple[int, ...] = (0,)  # the shards this process runs
    shards_given: bool = False  # GOBELET_SHARD_COUNT set; else Discord's recommendation
    log_format: str = "text"
    shipped_dir: Path = DEFAULT_SHIPPED_DIR
    http_port: int | None = None  # the health and metrics endpoint; None: not served
    http_host: str = "127.0.0.1"
    web_port: int | None = None  # the servers' web pages; None: not served
    web_host: str = "127.0.0.1"
    web_url: str | None = None  # the address people open them at (required to give one)
    global_rate: float | None = None  # this process's calls a second under the global limit

    @property
    def global_budget(self) -> float:
        """The globally limited calls a second this process may make: ``GOBELET_GLOBAL_RATE``,
        else 45 for the token (a margin under Discord's 50) shared by its processes, as
        their shards are."""
        if self.global_rate is not None:
            return self.global_rate
        return DEFAULT_GLOBAL_RATE * len(self.shard_ids) / self.shard_count

    @property
    def web_address(self) -> str | None:
        """Where people open the web pages, without a trailing slash (None: not served, or
        served at no address others can open: a page's address is then never given)."""
        if self.web_port is None or not self.web_url:
            return None
        return self.web_url.rstrip("/")

    @property
    def shards(self) -> Shards:
        return Shards(self.shard_count, frozenset(self.shard_ids))

    @property
    def database_path(self) -> Path:
        """The SQLite file named by ``database_url`` (``sqlite:///relative`` or ``sqlite:////abs``)."""
        prefix = "sqlite:///"
        if not self.database_url.startswith(prefix):
            raise ConfigError(
                f"GOBELET_DATABASE_URL must start with {prefix!r} (got {self.database_url!r})"
            )
        return Path(self.database_url[len(prefix) :])

    @property
    def secrets(self) -> tuple[str, ...]:
        """What no log line or printed setting may show: the token, the database's password."""
        return tuple(s for s in (self.token, database_password(self.database_url)) if s)

    def __repr__(self) -> str:  # never print the token, nor the database's password
        shown = "set" if self.token else "missing"
        database_url = self.database_url
        password = database_password(database_url)
        if password:
            database_url = database_url.replace(f":{password}@", ":<hidden>@", 1)
        return (
            f"Settings(token=<{shown}>, database_url={database_url!r}, "
            f"data_dir={str(self.data_dir)!r}, "
            f"api_base_url={self.api_base_url!r}, gateway_url={self.gateway_url!r}, "
            f"dev_guild_id={self.dev_guild_id!r}, turn_seconds={self.turn_seconds!r}, "
            f"cpu_delay_seconds={self.cpu_delay_seconds!r}, log_level={self.log_level!r}, "
            f"dice_seed={self.dice_seed!r}, minute_seconds={self.minute_seconds!r}, shard_count={self.shard_count!r}, "
            f"shard_ids={self.shard_ids!r}, shards_given={self.shards_given!r}, "
            f"log_format={self.log_format!r}, "
            f"shipped_dir={str(self.shipped_dir)!r}, http_port={self.http_port!r}, "
            f"http_host={self.http_host!r}, web_port={self.web_port!r}, "
            f"web_host={self.web_host!r}, web_url={self.web_url!r}, "
            f"global_rate={self.global_rate!r})"
        )


def database_password(url: str) -> str | None:
    """The password in a ``postgresql://user:password@host/db`` URL, if any."""
    try:
        return urlsplit(url).password
    except ValueError:
        return None


def _number(env: dict[str, str], name: str, default: float, *, minimum: float) -> float:
    raw = env.get(name, "").strip()
    if not raw:
        return default
    try:
        value = float(raw)
    except ValueError:
        raise ConfigError(f"{name} must be a number of seconds (got {raw!r})") from None
    if value < minimum:
        raise ConfigError(f"{name} must be at least {minimum:g} (got {raw!r})")
    return value


def _rate(env: dict[str, str], name: str) -> float | None:
    raw = env.get(name, "").strip()
    if not raw:
        return None
    try:
        value = float(raw)
    except ValueError:
        raise ConfigError(f"{name} must be a number of requests a second (got {raw!r})") from None
    if not 0 < value <= DISCORD_GLOBAL_RATE:
        raise ConfigError(
            f"{name} must be above 0 and at most {DISCORD_GLOBAL_RATE:g}, Discord's limit "
            f"for a token (got {raw!r})"
        )
    return value


def _folder(env: dict[str, str], name: str, default: Path) -> Path:
    raw = env.get(name, "").strip()
    if not raw:
        return default
    path = Path(raw).expanduser()
    # A missing folder is made when first needed; a file in its place never could be.
    if path.exists() and not path.is_dir():
        raise ConfigError(f"{name} must be a folder (got the file {raw!r})")
    return path


def _shards(env: dict[str, str]) -> tuple[int, tuple[int, ...]]:
    """GOBELET_SHARD_COUNT (every process the same) and GOBELET_SHARD_IDS (this process's:
    "0,1" or "0-3"; all of them by default)."""
    count_raw = env.get("GOBELET_SHARD_COUNT", "").strip()
    ids_raw = env.get("GOBELET_SHARD_IDS", "").strip()
    if not count_raw:
        if ids_raw:
            raise ConfigError("GOBELET_SHARD_IDS needs GOBELET_SHARD_COUNT (the shards in all)")
        return 1, (0,)
    if not count_raw.isdigit() or int(count_raw) < 1:
        raise ConfigError(f"GOBELET_SHARD_COUNT must be a whole number from 1 (got {count_raw!r})")
    count = int(count_raw)
    if not ids_raw:
        return count, tuple(range(count))
    ids: set[int] = set()
    for part in ids_raw.split(","):
        first, _, last = part.strip().partition("-")
        if not first.isdigit() or (last and not last.isdigit()):
            raise ConfigError(
                f'GOBELET_SHARD_IDS must list shard numbers, as "0,2" or "0-3" (got {ids_raw!r})'
            )
        ids.update(range(int(first), int(last or first) + 1))
    if not ids or max(ids) >= count:
        raise ConfigError(
            f"GOBELET_SHARD_IDS must be shards from 0 to {count - 1}"
            f" (GOBELET_SHARD_COUNT is {count}; got {ids_raw!r})"
        )
    return count, tuple(sorted(ids))


def _shipped(env: dict[str, str]) -> Path:
    path = _folder(env, "GOBELET_SHIPPED_DIR", DEFAULT_SHIPPED_DIR)
    # Nothing is ever written there: a folder that is missing is a mistake, not one to make.
    if path != DEFAULT_SHIPPED_DIR and not path.is_dir():
        raise ConfigError(f"GOBELET_SHIPPED_DIR must be a folder that exists (got {str(path)!r})")
    return path


def _port(env: dict[str, str], name: str) -> int | None:
    raw = env.get(name, "").strip()
    if not raw:
        return None
    if not raw.isdigit() or not 1 <= int(raw) <= 65535:
        raise ConfigError(f"{name} must be a port number from 1 to 65535 (got {raw!r})")
    return int(raw)


def _web_url(env: dict[str, str]) -> str | None:
    raw = env.get("GOBELET_WEB_URL", "").strip()
    if not raw:
        return None
    parts = urlsplit(raw)
    if parts.scheme not in ("http", "https") or not parts.netloc or parts.query:
        raise ConfigError(
            f"GOBELET_WEB_URL must be an http(s) address such as https://gobelet.example.org"
            f" (got {raw!r})"
        )
    return raw


def _choice(env: dict[str, str], name: str, choices: tuple[str, ...]) -> str:
    raw = env.get(name, "").strip().lower() or choices[0]
    if raw not in choices:
        raise ConfigError(f"{name} must be {' or '.join(choices)} (got {raw!r})")
    return raw


def _beside(database_url: str) -> Path:
    """The caches' default folder: the SQLite file's own (where they always were), else
    ``data``."""
    prefix = "sqlite:///"
    if database_url.startswith(prefix) and database_url != f"{prefix}:memory:":
        return Path(database_url[len(prefix) :]).parent
    return DEFAULT_DATA_DIR


def load_settings(env: dict[str, str] | None = None, *, dotenv: bool = True) -> Settings:
    """Read the settings; ``.env`` in the working directory fills what the environment lacks."""
    if env is None:
        if dotenv:
            load_dotenv(Path.cwd() / ".env", override=False)
        env = dict(os.environ)
    guild_raw = env.get("GOBELET_DEV_GUILD_ID", "").strip()
    if guild_raw and not guild_raw.isdigit():
        raise ConfigError(f"GOBELET_DEV_GUILD_ID must be a server id (got {guild_raw!r})")
    level = env.get("GOBELET_LOG_LEVEL", "INFO").strip().upper() or "INFO"
    if level not in {"DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"}:
        raise ConfigError(
            f"GOBELET_LOG_LEVEL must be DEBUG, INFO, WARNING or ERROR (got {level!r})"
        )
    seed_raw = env.get("GOBELET_DICE_SEED", "").strip()
    if seed_raw and not seed_raw.lstrip("-").isdigit():
        raise ConfigError(f"GOBELET_DICE_SEED must be a whole number (got {seed_raw!r})")
    database_url = env.get("GOBELET_DATABASE_URL", "").strip() or DEFAULT_DATABASE_URL
    shard_count, shard_ids = _shards(env)
    return Settings(
        token=env.get("DISCORD_TOKEN", "").strip() or None,
        database_url=database_url,
        data_dir=_folder(env, "GOBELET_DATA_DIR", _beside(database_url)),
        api_base_url=env.get("DISCORD_API_BASE_URL", "").strip() or None,
        gateway_url=env.get("DISCORD_GATEWAY_URL", "").strip() or None,
        dev_guild_id=int(guild_raw) if guild_raw else None,
        turn_seconds=_number(env, "GOBELET_TURN_SECONDS", 90.0, minimum=1.0),
        cpu_delay_seconds=_number(env, "GOBELET_CPU_DELAY_SECONDS", 1.5, minimum=0.0),
        log_level=level,
        dice_seed=int(seed_raw) if seed_raw else None,
        minute_seconds=_number(env, "GOBELET_MINUTE_SECONDS", 60.0, minimum=0.1),
        shard_count=shard_count,
        shard_ids=shard_ids,
        shards_given=bool(env.get("GOBELET_SHARD_COUNT", "").strip()),
        log_format=_choice(env, "GOBELET_LOG_FORMAT", LOG_FORMATS),
        shipped_dir=_shipped(env),
        http_port=_port(env, "GOBELET_HTTP_PORT"),
        http_host=env.get("GOBELET_HTTP_HOST", "").strip() or "127.0.0.1",
        web_port=_port(env, "GOBELET_WEB_PORT"),
        web_host=env.get("GOBELET_WEB_HOST", "").strip() or "127.0.0.1",
        web_url=_web_url(env),
        global_rate=_rate(env, "GOBELET_GLOBAL_RATE"),
    )
