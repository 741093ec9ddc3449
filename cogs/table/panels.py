"""Private panels kept live: a player's ephemeral panel (their dice, their moves) is edited
as the game goes on, while Discord lets the bot edit it.

An interaction's token lets the bot edit its answer for 15 minutes: a panel is followed a
little less (``PANEL_SECONDS``), so that an edit never races the token's end. A game's cog
keeps its players' panels (``Panels``: by table, then player) and says what each shows now.

A panel keeps what editing it needs (the interaction's token and the message's id), not
the interaction: that holds the whole message clicked (a table with its embed and
components) and would stay in memory for the panel's 15 minutes. Nor its webhook, which
takes more than the token it is made from again at each edit."""

from __future__ import annotations

import hashlib
import logging
import time
from dataclasses import dataclass, field
from typing import Any, cast

import discord

log = logging.getLogger(__name__)

PANEL_SECONDS = 14 * 60.0
# How long a panel may be edited at all: its token's 15 minutes, less a margin for the time
# between the interaction and its answer, and for the edit's own way to Discord.
EDITABLE_SECONDS = 15 * 60.0 - 30.0
# Discord's name, in a webhook message's path, for an interaction's original response.
ORIGINAL = "@original"

Shown = bytes


def signature(content: str, view: discord.ui.View | None) -> Shown:
    """What a panel shows (its text and its components' ids), to compare: a digest of it,
    kept for each panel instead of the text and ids themselves, which are far larger."""
    items = view.children if view is not None else []
    ids = "\0".join(getattr(item, "custom_id", None) or "" for item in items)
    shown = f"{content}\0\0{ids}".encode(errors="surrogatepass")
    return hashlib.blake2b(shown, digest_size=16).digest()


@dataclass(eq=False, slots=True)
class Panel:
    """A player's private panel: the message that answered one of their interactions (what
    ``answers.reply`` returned), the reader's language, what it shows."""

    client: discord.Client
    application: int  # the interaction's webhook: the application's id, and its token
    token: str
    id: int | None  # the message's
    original: bool  # the interaction's original response (else a followup)
    lang: str
    opened: float = field(default_factory=time.monotonic)
    shown: Shown | None = None
    live: bool = False  # it offers the moves of its player's turn

    @classmethod
    def answering(cls, interaction: discord.Interaction, message: Any, lang: str) -> Panel:
        """The panel ``message`` shows, sent in answer to ``interaction``: its age counts
        from the interaction, where its token's quarter of an hour starts."""
        since = (discord.utils.utcnow() - interaction.created_at).total_seconds()
        return cls(
            client=interaction.client,
            application=interaction.application_id,
            token=interaction.token,
            id=getattr(message, "id", None),
            original=isinstance(message, discord.InteractionMessage),
            lang=lang,
            # At most a minute: a clock out of step with Discord's must not age every panel.
            opened=time.monotonic() - min(max(0.0, since), 60.0),
        )

    def age(self) -> float:
        return time.monotonic() - self.opened

    @property
    def followed(self) -> bool:
        return self.age() <= PANEL_SECONDS

    @property
    def editable(self) -> bool:
        return self.age() <= EDITABLE_SECONDS

    async def show(self, content: str, view: discord.ui.View | None) -> bool:
        """Edit the panel; False if Discord refused it (the panel is gone, or its token), or
        if its token is too old to try (Discord would answer 401)."""
        if not self.editable:
            return False
        # The original response is edited as Discord names it, a followup by its id.
        target = cast(int, ORIGINAL) if self.original or self.id is None else self.id
        webhook = discord.Webhook.partial(self.application, self.token, client=self.client)
        try:
            await webhook.edit_message(target, content=content, view=view)
        except discord.HTTPException:
            log.info("a private panel could not be edited")
            return False
        self.shown = signature(content, view)
        return True


class Panels:
    """The open panels of a game's tables, by table, then player (one each).

    A table's panels are edited with awaits in between, while their players may open new
    ones (a click is not serialised with the table's moves): ``drop`` takes a panel away
    only if it is still the one kept, and nothing iterates the live mapping itself."""

    def __init__(self) -> None:
        self._tables: dict[int, dict[int, Panel]] = {}

    def get(self, table: int, player: int) -> Panel | None:
        return self._tables.get(table, {}).get(player)

    def keep(self, table: int, player: int, panel: Panel) -> Panel | None:
        """``panel`` is now ``player``'s at ``table``; returns the one it replaces."""
        mine = self._tables.setdefault(table, {})
        old = mine.get(player)
        mine[player] = panel
        return old

    def at(self, table: int) -> list[tuple[int, Panel]]:
        """The panels open at ``table`` now, by player (a copy)."""
        return list(self._tables.get(table, {}).items())

    def drop(self, table: int, player: int, panel: Panel) -> None:
        """Stop following ``panel`` (unless another one has replaced it)."""
        mine = self._tables.get(table)
        if mine is None or mine.get(player) is not panel:
            return
        del mine[player]
        if not mine:
            del self._tables[table]

    def __len__(self) -> int:
        return sum(len(mine) for mine in self._tables.values())
