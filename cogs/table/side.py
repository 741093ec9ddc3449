"""What a game's Discord side declares, for the table controller to run its tables: its
table message (from views and legal moves), the story of its events, its final standings,
its private panels, and what it keeps in step with its moves. Each game's cog implements it
(``TableCog`` gives the common defaults); the controller knows a game only through it."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    import discord

    from bot.table import Table
    from cogs.table.panels import Panel

Drawing = tuple["discord.Embed", "discord.ui.View | None"]  # a message's embed and components
PanelShown = tuple[str, "discord.ui.View | None"]  # a private panel's text and components


class Side(Protocol):
    """A game's Discord side, as its tables' controller uses it."""

    @property
    def game(self) -> str: ...

    @property
    def headlines(self) -> tuple[type, ...]:
        """The events worth a message of their own (a reveal, a round's end, the end)."""
        ...

    @property
    def endings(self) -> tuple[type, ...]:
        """The events that end a game (its final standings are told with them)."""
        ...

    @property
    def panels_wait(self) -> bool:
        """A private panel that offers no move is still followed, for its player's next
        turn (else it is left once it offers none)."""
        ...

    def game_name(self, table: Table, lang: str) -> str:
        """The game played at ``table``, as its players call it (Mia is not Maya)."""
        ...

    def table_message(self, table: Table) -> Drawing:
        """The table's public message: its embed and its components."""
        ...

    def lines(self, table: Table, events: Sequence[Any], notes: Sequence[Any]) -> list[str]:
        """The public story of ``events`` (and of the runtime's ``notes``: a timeout…)."""
        ...

    def standings(self, table: Table, logged: Sequence[Any]) -> list[str]:
        """The final standings of a game just ended, from its whole event log."""
        ...

    def about_people(self, table: Table, event: Any) -> bool:
        """Whether ``event`` concerns a human at the table."""
        ...

    def panel_now(self, table: Table, player: int, panel: Panel) -> PanelShown | None:
        """What ``player``'s open panel shows now (None: leave it as it is)."""
        ...

    def panel_settled(self, table: Table, player: int, panel: Panel) -> str | None:
        """What a panel no longer followed says last, without components (None: nothing)."""
        ...

    def rematch_rules(self, rules: Any) -> Any:
        """The rules of a rematch of a game played with ``rules`` (a duel's stake does not)."""
        ...

    async def kept(self, table: Table, events: Sequence[Any]) -> None:
        """What the game keeps in step once a move is told (Maya's accusations)."""

    async def starting(self, table: Table) -> None:
        """Before a table's game starts (what its CPU needs, say)."""

    async def restoring(self, table: Table) -> None:
        """A table is back after a restart, before it is redrawn."""

    async def restored(self, table: Table) -> None:
        """A table is back and redrawn (its votes counted again, say)."""
