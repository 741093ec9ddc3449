"""Live private panels: a game that ends takes its players' panels with it, even while
players elsewhere open panels of their own in the meantime (a click is not serialised with
another table's moves)."""

from __future__ import annotations

import time
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import discord
import pytest

from bot.config import load_settings
from bot.games import maya
from bot.games import menteur as lm
from bot.interactions.shared import Shared
from bot.storage.sqlite import SqliteRepository
from bot.table import Table, TableRunner
from cogs.maya.cog import MayaCog
from cogs.menteur.cog import MenteurCog

GUILD = 1
A, B = 101, 102


class Message:
    """A panel message as ``answers.reply`` returns it (a followup: edited by its id)."""

    def __init__(self, message_id: int, edited: Callable[[], Awaitable[None]]) -> None:
        self.id = message_id
        self._edited = edited

    async def edit(self, **changes: Any) -> None:
        await self._edited()


class Webhook:
    def __init__(self, edited: Callable[[], Awaitable[None]]) -> None:
        self._edited = edited

    async def edit_message(self, message_id: Any, **changes: Any) -> None:
        await self._edited()


# The interactions' webhooks, by application and token: a panel makes its own from them
# (``partial``), with the client.
APPLICATION = 1
WEBHOOKS: dict[tuple[int, str], Webhook] = {}


class Interaction:
    """What keeping a panel reads of the interaction it answered."""

    def __init__(self, user: int, edited: Callable[[], Awaitable[None]]) -> None:
        self.user = SimpleNamespace(id=user)
        self.locale = "fr"
        self.extras: dict[str, Any] = {}
        self.client = CLIENT
        self.application_id = APPLICATION
        self.token = f"token-{len(WEBHOOKS)}"
        self.created_at = discord.utils.utcnow()
        self.followup = WEBHOOKS[APPLICATION, self.token] = Webhook(edited)


CLIENT = SimpleNamespace()


def partial(application: int, token: str, *, client: Any) -> Webhook:
    assert client is CLIENT
    return WEBHOOKS[application, token]


@pytest.fixture(autouse=True)
def webhooks(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(discord.Webhook, "partial", partial)


@pytest.fixture
async def tables(tmp_path: Path) -> AsyncIterator[TableRunner]:
    repository = await SqliteRepository.open(tmp_path / "panels.db")
    made = TableRunner(repository, load_settings({"GOBELET_DICE_SEED": "2"}, dotenv=False))
    yield made
    await made.close()


async def a_game(tables: TableRunner, kind: str, rules: Any, channel: int) -> Table:
    table = await tables.open(
        kind=kind, guild_id=GUILD, channel_id=channel, starter=A, rules=rules, lang="fr"
    )
    await tables.join_lobby(table, B)
    await tables.start(table)
    return table


def the_cog(cls: Any, tables: TableRunner) -> Any:
    return cls(SimpleNamespace(tables=tables, shared=Shared(tables)))


async def test_a_maya_game_ending_settles_every_panel_while_another_table_opens_one(
    tables: TableRunner,
) -> None:
    cog: MayaCog = the_cog(MayaCog, tables)
    ending = await a_game(tables, "maya", maya.Rules.for_preset("vies"), 10)
    other = await a_game(tables, "maya", maya.Rules.for_preset("vies"), 11)
    opened_meanwhile: list[int] = []

    async def someone_opens_a_panel_elsewhere() -> None:
        # While the ending table's panels are edited, a player opens theirs at another table.
        if not opened_meanwhile:
            opened_meanwhile.append(A)
            await cog.controller.keep_panel(
                Interaction(A, nothing), other, Message(900, nothing), "fr"
            )

    for player, message_id in ((A, 1), (B, 2)):
        edited = someone_opens_a_panel_elsewhere
        await cog.controller.keep_panel(
            Interaction(player, edited), ending, Message(message_id, edited), "fr"
        )
    for _, panel in cog.controller.panels.at(ending.id):
        panel.live = True
    await tables.stop(ending)  # the game is over: its panels go

    await cog.controller.follow_panels(ending)

    assert opened_meanwhile == [A]
    assert cog.controller.panels.at(ending.id) == []
    assert [player for player, _ in cog.controller.panels.at(other.id)] == [A]


async def test_a_menteur_game_ending_closes_every_panel_while_another_table_opens_one(
    tables: TableRunner, monkeypatch: pytest.MonkeyPatch
) -> None:
    cog: MenteurCog = the_cog(MenteurCog, tables)
    sent: list[int] = []

    async def reply(interaction: Interaction, *args: Any, **kwargs: Any) -> Message:
        sent.append(len(sent) + 1)
        return Message(sent[-1], interaction.followup._edited)

    monkeypatch.setattr("cogs.menteur.cog.answers.reply", reply)
    ending = await a_game(tables, "menteur", lm.Rules(), 20)
    other = await a_game(tables, "menteur", lm.Rules(), 21)
    opened_meanwhile: list[int] = []

    async def someone_opens_a_panel_elsewhere() -> None:
        if not opened_meanwhile:
            opened_meanwhile.append(A)
            await cog.show_dice(Interaction(A, nothing), other)  # type: ignore[arg-type]

    for player in (A, B):
        interaction = Interaction(player, someone_opens_a_panel_elsewhere)
        await cog.show_dice(interaction, ending)  # type: ignore[arg-type]
    await tables.stop(ending)

    await cog.controller.follow_panels(ending)

    assert opened_meanwhile == [A]
    assert cog.controller.panels.at(ending.id) == []
    assert [player for player, _ in cog.controller.panels.at(other.id)] == [A]


async def nothing() -> None:
    return None


def test_what_a_panel_shows_compares_by_its_text_and_its_components() -> None:
    from cogs.table.components import TableButton
    from cogs.table.panels import signature

    def view(*actions: str) -> Any:
        return SimpleNamespace(children=[TableButton(7, 3, a, label=a).item for a in actions])

    dice = "🎲 Tes dés : ⚃ 4 · ⚀ 1"
    shown = signature(dice, view("roll", "lift"))
    assert signature(dice, view("roll", "lift")) == shown  # the same: not edited again
    assert signature(dice + " ", view("roll", "lift")) != shown
    assert signature(dice, view("roll")) != shown
    assert signature(dice, view("lift", "roll")) != shown
    assert signature(dice, None) == signature(dice, view())  # no components either way
    assert signature(dice + "\0\0gob:7:3:roll", None) != signature(dice, view("roll"))
    assert len(shown) == 16  # kept for every open panel: a digest, not the text
    signature("\ud800", None)  # a lone surrogate, as texts may hold, does not raise


async def test_a_maya_panel_is_never_edited_once_its_token_has_expired(
    tables: TableRunner, monkeypatch: pytest.MonkeyPatch
) -> None:
    # An interaction's token lets the bot edit its answer for 15 minutes; Discord answers
    # 401 past them. A panel the table did not move for that long is left as it is.
    cog: MayaCog = the_cog(MayaCog, tables)
    table = await a_game(tables, "maya", maya.Rules.for_preset("vies"), 30)
    edits: list[str] = []

    async def edited() -> None:
        edits.append("edit")

    clock = [time.monotonic()]  # a panel's opening time is read from the real clock
    monkeypatch.setattr("cogs.table.panels.time.monotonic", lambda: clock[0])
    for player, message_id in ((A, 1), (B, 2)):
        await cog.controller.keep_panel(
            Interaction(player, edited), table, Message(message_id, edited), "fr"
        )
    for _, panel in cog.controller.panels.at(table.id):
        panel.live = True
    clock[0] += 15 * 60 + 1  # a quarter of an hour without a move

    await cog.controller.follow_panels(table)  # the next move: the panels are no longer followed
    assert edits == []
    assert cog.controller.panels.at(table.id) == []

    # A panel replaced by a fresh one after its token expired is not edited either.
    await cog.controller.keep_panel(Interaction(A, edited), table, Message(3, edited), "fr")
    for _, panel in cog.controller.panels.at(table.id):
        panel.live = True
    clock[0] += 15 * 60 + 1
    await cog.controller.keep_panel(Interaction(A, edited), table, Message(4, edited), "fr")
    assert edits == []


def test_a_panel_s_age_counts_from_the_click_not_from_its_answer() -> None:
    # The token's quarter of an hour starts with the interaction: an answer the watchdog
    # deferred, then sent late, has less time left than its own age says.
    from datetime import timedelta

    from cogs.table.panels import Panel

    clicked = Interaction(A, nothing)
    clicked.created_at = discord.utils.utcnow() - timedelta(seconds=60)
    panel = Panel.answering(clicked, Message(5, nothing), "fr")  # type: ignore[arg-type]
    assert 60 <= panel.age() < 70
