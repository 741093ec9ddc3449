"""One way to answer an interaction: the first response once, then the right followup."""

from __future__ import annotations

import asyncio
import re
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import discord
import pytest

from bot.interactions import answers

ROOT = Path(__file__).resolve().parents[2]


class FakeResponse:
    def __init__(self, calls: list[tuple[str, dict[str, Any]]], delay: float = 0.0) -> None:
        self.calls = calls
        self.delay = delay
        self.kind: str | None = None

    def is_done(self) -> bool:
        return self.kind is not None

    async def _first(self, name: str, **kwargs: Any) -> Any:
        if self.kind is not None:
            raise discord.InteractionResponded(None)  # type: ignore[arg-type]
        await asyncio.sleep(self.delay)  # the HTTP call: others may run meanwhile
        if self.kind is not None:
            self.calls.append(("second initial response", {}))
        self.kind = name
        self.calls.append((name, kwargs))
        return type("Callback", (), {"resource": "the message"})()

    async def send_message(self, content: Any = None, **kwargs: Any) -> Any:
        return await self._first("send_message", content=content, **kwargs)

    async def defer(self, **kwargs: Any) -> None:
        await self._first("defer", **kwargs)

    async def edit_message(self, **kwargs: Any) -> None:
        await self._first("edit_message", **kwargs)


class FakeInteraction:
    def __init__(self, kind: discord.InteractionType, delay: float = 0.0) -> None:
        self.calls: list[tuple[str, dict[str, Any]]] = []
        self.type = kind
        self.id = 1
        self.extras: dict[str, Any] = {}
        self.created_at = datetime.now(UTC)
        self.response = FakeResponse(self.calls, delay)
        self.followup = self
        self.channel_id = 5
        self.channel = None  # a text channel (not an archived thread)
        self.guild_id = 6
        self.client = self

    async def send(self, content: Any = None, **kwargs: Any) -> str:  # followup.send
        self.calls.append(("followup", {"content": content, **kwargs}))
        return "followup message"

    async def edit_original_response(self, **kwargs: Any) -> str:
        self.calls.append(("edit_original", kwargs))
        return "original"

    async def delete_original_response(self) -> None:
        self.calls.append(("delete_original", {}))

    def get_partial_messageable(self, channel_id: int, **kwargs: Any) -> Any:
        calls = self.calls

        class Channel:
            async def send(self, content: Any = None, **kwargs: Any) -> str:
                calls.append(("channel", {"content": content, **kwargs}))
                return "channel message"

        return Channel()


def names(interaction: FakeInteraction) -> list[str]:
    return [name for name, _ in interaction.calls]


SLASH = discord.InteractionType.application_command
CLICK = discord.InteractionType.component


async def test_an_unanswered_interaction_is_answered_with_a_message() -> None:
    interaction = FakeInteraction(SLASH)
    await answers.reply(interaction, "hello", ephemeral=True)  # type: ignore[arg-type]
    assert interaction.calls == [("send_message", {"content": "hello", "ephemeral": True})]


async def test_a_private_answer_after_a_public_thinking_never_fills_it() -> None:
    interaction = FakeInteraction(SLASH)
    await answers.think(interaction, ephemeral=False)  # type: ignore[arg-type]
    await answers.reply(interaction, "refused", ephemeral=True)  # type: ignore[arg-type]
    assert names(interaction) == ["defer", "delete_original", "followup"]
    assert interaction.calls[-1][1]["ephemeral"] is True


async def test_a_public_answer_after_a_private_thinking_goes_to_the_channel() -> None:
    interaction = FakeInteraction(SLASH)
    await answers.think(interaction, ephemeral=True)  # type: ignore[arg-type]
    await answers.reply(interaction, "story", ephemeral=False)  # type: ignore[arg-type]
    assert names(interaction) == ["defer", "channel", "delete_original"]


async def test_an_answer_of_the_same_visibility_replaces_the_thinking() -> None:
    interaction = FakeInteraction(SLASH)
    await answers.think(interaction, ephemeral=False)  # type: ignore[arg-type]
    await answers.reply(interaction, "story", ephemeral=False)  # type: ignore[arg-type]
    await answers.reply(interaction, "more", ephemeral=True)  # type: ignore[arg-type]
    assert names(interaction) == ["defer", "edit_original", "followup"]


async def test_the_watchdog_defers_what_is_still_unanswered(monkeypatch) -> None:
    monkeypatch.setattr(answers, "WATCH_SECONDS", 0.05)
    slash, click = FakeInteraction(SLASH), FakeInteraction(CLICK)
    answers.expect_public(slash)  # type: ignore[arg-type]
    answers.watch(slash)  # type: ignore[arg-type]
    answers.watch(click)  # type: ignore[arg-type]
    await asyncio.sleep(0.2)
    assert slash.calls == [("defer", {"ephemeral": False, "thinking": True})]
    assert click.calls == [("defer", {})]
    # The handler's answer then replaces the thinking, and the click's message is edited.
    await answers.reply(slash, "story", ephemeral=False)  # type: ignore[arg-type]
    await answers.update(click, content="x")  # type: ignore[arg-type]
    assert names(slash)[-1] == "edit_original" and names(click)[-1] == "edit_original"


async def test_the_watchdog_and_a_handler_never_both_answer_first(monkeypatch) -> None:
    monkeypatch.setattr(answers, "WATCH_SECONDS", 0.05)
    interaction = FakeInteraction(SLASH, delay=0.1)  # a slow first answer, in flight
    answers.watch(interaction)  # type: ignore[arg-type]
    await asyncio.sleep(0.04)
    await answers.reply(interaction, "late but first", ephemeral=True)  # type: ignore[arg-type]
    await asyncio.sleep(0.2)
    assert names(interaction) == ["send_message"]


async def test_a_handler_that_answered_in_time_is_left_alone(monkeypatch) -> None:
    monkeypatch.setattr(answers, "WATCH_SECONDS", 0.05)
    interaction = FakeInteraction(CLICK)
    answers.watch(interaction)  # type: ignore[arg-type]
    await answers.acknowledge(interaction)  # type: ignore[arg-type]
    await asyncio.sleep(0.15)
    assert names(interaction) == ["defer"]


@pytest.mark.parametrize("folder", ["bot", "cogs"])
def test_only_the_answers_module_answers_interactions(folder: str) -> None:
    # One helper answers or follows up, so that no deferred interaction is left unanswered.
    direct = re.compile(r"\.response\.|\.followup\.|original_response\(")
    found = []
    for path in sorted((ROOT / folder).rglob("*.py")):
        if path == ROOT / "bot" / "interactions" / "answers.py":
            continue
        for number, line in enumerate(path.read_text().splitlines(), 1):
            if direct.search(line):
                found.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()}")
    assert found == []
