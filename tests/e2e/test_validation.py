"""The emulator alone (no bot): Discord's limits, HTTP details discord.py depends on, the world."""

from __future__ import annotations

from typing import Any

import aiohttp

from tests.e2e.emulator import DiscordEmulator
from tests.e2e.validation import commands_problems, message_problems
from tests.e2e.world import (
    ALL_PERMISSIONS,
    EMBED_LINKS,
    MANAGE_GUILD,
    SEND_MESSAGES,
    VIEW_CHANNEL,
    World,
)


def _codes(problems: list[tuple[list[str | int], str, str]]) -> list[tuple[str, str]]:
    return [(".".join(map(str, path)), code) for path, code, _ in problems]


def test_message_content_is_at_most_2000_characters() -> None:
    assert message_problems({"content": "x" * 2000}) == []
    assert _codes(message_problems({"content": "x" * 2001})) == [
        ("content", "BASE_TYPE_MAX_LENGTH")
    ]


def test_custom_ids_are_unique_within_a_message() -> None:
    button = {"type": 2, "style": 1, "label": "go", "custom_id": "same"}
    row = {"type": 1, "components": [button, dict(button)]}
    assert ("components.2.custom_id", "COMPONENT_CUSTOM_ID_DUPLICATED") in _codes(
        message_problems({"components": [row]})
    )


def test_a_message_has_at_most_five_rows_of_five_buttons() -> None:
    def row(size: int, prefix: str) -> dict[str, Any]:
        buttons = [
            {"type": 2, "style": 1, "label": "b", "custom_id": f"{prefix}{n}"} for n in range(size)
        ]
        return {"type": 1, "components": buttons}

    assert message_problems({"components": [row(5, f"r{n}:") for n in range(5)]}) == []
    assert message_problems({"components": [row(5, f"r{n}:") for n in range(6)]})
    assert message_problems({"components": [row(6, "r:")]})


def test_embeds_respect_their_field_limits() -> None:
    embed = {"title": "t" * 257, "fields": [{"name": "", "value": "v"}]}
    assert _codes(message_problems({"embeds": [embed]})) == [
        ("embeds.0.title", "BASE_TYPE_MAX_LENGTH"),
        ("embeds.0.fields.0.name", "BASE_TYPE_BAD_LENGTH"),
    ]


def test_command_names_are_lowercase_and_descriptions_localized_within_limits() -> None:
    good = {"name": "maya", "description": "Jouer", "options": []}
    assert commands_problems([good]) == []
    assert _codes(commands_problems([{**good, "name": "Maya"}])) == [
        ("0.name", "APPLICATION_COMMAND_INVALID_NAME")
    ]
    too_long = {**good, "description_localizations": {"en-US": "x" * 101}}
    assert _codes(commands_problems([too_long])) == [
        ("0.description_localizations.en-US", "BASE_TYPE_BAD_LENGTH")
    ]


def test_required_options_come_before_optional_ones() -> None:
    options = [
        {"type": 3, "name": "a", "description": "a"},
        {"type": 3, "name": "b", "description": "b", "required": True},
    ]
    problems = commands_problems([{"name": "x", "description": "x", "options": options}])
    assert _codes(problems) == [("0.options.1", "APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID")]


def test_permissions_come_from_roles_and_ownership() -> None:
    world = World.default()
    bar = world.guild("bar")
    assert bar.permissions(world.user("patron")) == ALL_PERMISSIONS
    assert bar.permissions(world.user("carol")) & MANAGE_GUILD
    assert not bar.permissions(world.user("alice")) & MANAGE_GUILD
    assert world.guild("pub").permissions(world.user("dave")) & MANAGE_GUILD


def test_a_channel_overwrite_changes_permissions_in_that_channel_only() -> None:
    world = World.default()
    bar = world.guild("bar")
    comptoir, terrasse = bar.channel("comptoir"), bar.channel("terrasse")
    bot, barman = world.bot, bar.role("Barman")
    world.overwrite(terrasse, bot, deny=SEND_MESSAGES | EMBED_LINKS)
    assert not bar.permissions(bot, terrasse) & (SEND_MESSAGES | EMBED_LINKS)
    assert bar.permissions(bot, terrasse) & VIEW_CHANNEL
    assert bar.permissions(bot, comptoir) & SEND_MESSAGES
    assert bar.permissions(bot) & SEND_MESSAGES  # server-wide, as before
    # @everyone's overwrite, then the roles', then the member's own.
    world.overwrite(terrasse, bar.everyone, deny=SEND_MESSAGES)
    world.overwrite(terrasse, barman, allow=SEND_MESSAGES)
    assert not bar.permissions(world.user("alice"), terrasse) & SEND_MESSAGES
    assert bar.permissions(world.user("carol"), terrasse) & SEND_MESSAGES
    world.overwrite(terrasse, world.user("carol"), deny=SEND_MESSAGES)
    assert not bar.permissions(world.user("carol"), terrasse) & SEND_MESSAGES
    assert bar.permissions(world.user("patron"), terrasse) == ALL_PERMISSIONS  # the owner
    sent = {o["id"]: o for o in terrasse.payload()["permission_overwrites"]}
    assert sent[str(bot.id)] == {
        "id": str(bot.id),
        "type": 1,
        "allow": "0",
        "deny": str(SEND_MESSAGES | EMBED_LINKS),
    }
    assert sent[str(barman.id)]["type"] == 0


async def test_json_answers_are_exactly_application_json(emulator: DiscordEmulator) -> None:
    # discord.py parses a body as JSON only when the header is exactly this.
    headers = {"Authorization": f"Bot {emulator.token}"}
    async with (
        aiohttp.ClientSession() as session,
        session.get(f"{emulator.api_url}/users/@me", headers=headers) as response,
    ):
        assert response.headers["Content-Type"] == "application/json"
        assert (await response.json())["id"] == str(emulator.world.bot.id)


async def test_rest_calls_need_the_bot_token(emulator: DiscordEmulator) -> None:
    async with (
        aiohttp.ClientSession() as session,
        session.get(
            f"{emulator.api_url}/users/@me", headers={"Authorization": "Bot wrong"}
        ) as response,
    ):
        assert response.status == 401


async def test_channel_messages_are_checked_and_files_recorded(emulator: DiscordEmulator) -> None:
    channel = emulator.channel("bar", "comptoir")
    url = f"{emulator.api_url}/channels/{channel.id}/messages"
    headers = {"Authorization": f"Bot {emulator.token}"}
    async with aiohttp.ClientSession(headers=headers) as session:
        async with session.post(url, json={"content": ""}) as empty:
            assert (empty.status, (await empty.json())["code"]) == (400, 50006)
        async with session.post(url, json={"content": "x" * 2001}) as long:
            assert (long.status, (await long.json())["code"]) == (400, 50035)
        form = aiohttp.FormData()
        payload = '{"content": "score", "attachments": [{"id": 0, "filename": "s.txt"}]}'
        form.add_field("payload_json", payload, content_type="application/json")
        form.add_field("files[0]", b"1-0", filename="s.txt")
        async with session.post(url, data=form) as posted:
            assert posted.status == 200
    [message] = emulator.transcript.public(channel.id)
    assert (message.content, message.attachments[0].data) == ("score", b"1-0")
    assert [call.status for call in emulator.calls] == [400, 400, 200]
