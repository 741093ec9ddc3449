"""What the bot's parts share, as one typed object: the tables, each game's Discord side,
the synced commands' ids, and the services a game's components reach from a click (its
tutorials, its challenges…). The client carries it (``Sharing``); a component's callback,
which is given only the interaction, finds it with ``shared(interaction.client)``."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Protocol, TypeVar

if TYPE_CHECKING:
    import discord

    from bot.interactions.games import GameSide
    from bot.table import Table, TableRunner

T = TypeVar("T")


class Watcher(Protocol):
    """Something that runs tables of its own (a tournament's matches): told when one ends."""

    def claims(self, table: Table) -> bool:
        """Whether ``table`` is one of its own (no rematch offered, no stop by its players)."""
        ...

    async def ended(self, table: Table) -> None:
        """``table``'s game is over (told, drawn): its result is taken from it."""
        ...

    async def restored(self) -> None:
        """After a restart, once the tables are restored and before they resume: it knows
        its own tables again."""
        ...


@dataclass(eq=False)
class Shared:
    """The state every cog shares."""

    tables: TableRunner
    games: dict[str, GameSide] = field(default_factory=dict)  # game -> its Discord side
    command_ids: dict[str, int] = field(default_factory=dict)  # "maya start" -> id, once synced
    watchers: list[Watcher] = field(default_factory=list)  # told of every table's end
    _services: dict[type, object] = field(default_factory=dict)

    def provide(self, service: object) -> None:
        """``service`` is the one of its class that components reach (a cog's, once loaded)."""
        self._services[type(service)] = service

    def withdraw(self, service: object) -> None:
        if self._services.get(type(service)) is service:
            del self._services[type(service)]

    def claimed(self, table: Table) -> bool:
        """Whether a watcher runs ``table`` as one of its own."""
        return any(watcher.claims(table) for watcher in self.watchers)

    def service(self, kind: type[T]) -> T | None:
        """The service of class ``kind`` a loaded cog provides (None: its cog is not loaded)."""
        found = self._services.get(kind)
        return found if isinstance(found, kind) else None


class Sharing:
    """Mixed into the client: it carries the shared state once its storage is open."""

    _shared: Shared | None = None

    @property
    def shared(self) -> Shared:
        if self._shared is None:
            raise RuntimeError("the bot's storage is not open yet")
        return self._shared

    @shared.setter
    def shared(self, shared: Shared) -> None:
        self._shared = shared


def shared(client: discord.Client) -> Shared | None:
    """The shared state of the bot an interaction reached (None: not started yet)."""
    return client._shared if isinstance(client, Sharing) else None
