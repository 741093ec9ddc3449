"""What a game's Discord side (its cog) offers the client and the shared commands."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    import discord
    from discord import app_commands

    from bot.table import Table


Names = Callable[[int | None], str]  # a player's name as a message shows it


class GameSide(Protocol):
    """A game's Discord side (its cog), as the client and the shared commands use it."""

    @property
    def lifts(self) -> bool:
        """A cup is lifted in this game (``/soulever``)."""

    @property
    def game(self) -> str: ...

    @property
    def app_command(self) -> app_commands.Group | None: ...

    def explain(
        self, error: BaseException, lang: str, table: Table | None, names: Names
    ) -> str | None:
        """This game's wording of its own refusals (None: the shared wording applies)."""

    def possible(self, table: Table, player: int, lang: str) -> list[str]:
        """What ``player`` may do now at ``table``, as the buttons name it."""

    def game_name(self, table: Table, lang: str) -> str:
        """The game played at ``table``, as its players call it."""

    async def on_component(
        self,
        interaction: discord.Interaction,
        table: Table,
        step: int,
        action: str,
        value: str | None,
    ) -> None:
        """A click on one of this game's table components (its custom_id's parts)."""

    async def rematch(self, interaction: discord.Interaction, table_id: int) -> None:
        """A click on **Revanche** under the ended game ``table_id``: the same table again."""

    async def lift(self, interaction: discord.Interaction, table: Table) -> None:
        """``/soulever`` at this game's table."""

    async def resume(self) -> None:
        """After a restart, before the bot connects."""

    async def resume_tables(self) -> None:
        """Resume every restored table not resumed yet (in the background)."""
