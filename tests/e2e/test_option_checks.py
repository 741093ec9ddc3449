"""Every option the bot declares to Discord with a range, a length, choices or kinds of
channel is held to them by the bot too: Discord's client keeps a user within them, a modified
client or a raw API call does not. A value out of them gets a clear, polite, private refusal
naming what is allowed (never "Oups", never a traceback) and changes nothing."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from tests.e2e.appcommands import (
    BOOLEAN,
    CHANNEL,
    INTEGER,
    NUMBER,
    STRING,
    SUB_COMMAND,
    SUB_COMMAND_GROUP,
    USER,
)
from tests.e2e.botprocess import BotProcess
from tests.e2e.emulator import DiscordEmulator
from tests.e2e.transcript import Message
from tests.e2e.world import Channel

OOPS = "Oups"
GUILD_CATEGORY = 4  # a channel type no option of the bot takes


async def refusal(
    emulator: DiscordEmulator,
    channel: Channel,
    command: str,
    options: dict[str, Any],
    user: str = "alice",
) -> Message:
    sent = await emulator.slash(user, channel, command, options, forged=True)
    answer = await sent.reply()
    assert answer.ephemeral and answer.audience == emulator.user(user).id, answer.text
    assert OOPS not in answer.text, answer.text
    return answer


def calm(bot: BotProcess) -> None:
    log = bot.log()
    assert "Traceback" not in log and " ERROR " not in log, log[-4000:]


async def test_a_tutorial_against_more_cpus_than_it_has_is_refused_politely(
    emulator: DiscordEmulator, bot: BotProcess
) -> None:
    comptoir = emulator.channel("bar", "comptoir")
    french = await refusal(emulator, comptoir, "menteur tutoriel", {"cpu": 10})
    assert (
        french.text == "Désolé, 10 n'est pas possible pour `cpu` : choisis de 1 à 5, s'il te plaît."
    )
    english = await refusal(emulator, comptoir, "menteur tutoriel", {"cpu": 0}, user="carol")
    assert english.text == "Sorry, 0 is not possible for `cpu`: please pick from 1 to 5."
    assert emulator.transcript.public(comptoir.id) == []
    calm(bot)


# --------------------------------------------------------------------------- every option


@dataclass(frozen=True)
class Case:
    command: str  # "maya start"
    option: dict[str, Any]  # its definition, as synced
    value: Any  # out of what the definition allows
    siblings: dict[str, Any]  # the command's other required options, within theirs

    def __str__(self) -> str:
        return f"/{self.command} {self.option['name']}:{self.value!r}"


def leaves(definition: dict[str, Any]) -> Iterator[tuple[str, dict[str, Any]]]:
    """Each runnable command of a synced definition: its path and its own level."""
    nested = [
        o for o in definition.get("options", []) if o["type"] in (SUB_COMMAND, SUB_COMMAND_GROUP)
    ]
    if not nested:
        yield definition["name"], definition
    for child in nested:
        for path, level in leaves(child):
            yield f"{definition['name']} {path}", level


def allowed(option: dict[str, Any], channel: Channel, user: str) -> Any:
    """A value within what ``option`` allows (for the required options beside the one tested)."""
    if option.get("choices"):
        return option["choices"][0]["value"]
    kind = option["type"]
    if kind == STRING:
        return "x" * max(1, option.get("min_length", 1))
    if kind in (INTEGER, NUMBER):
        return option.get("min_value", 1)
    if kind == BOOLEAN:
        return False
    if kind == USER:
        return user
    if kind == CHANNEL:
        return channel
    raise AssertionError(f"no value for {option}")


def out_of_bounds(option: dict[str, Any], odd_channel: Channel) -> list[Any]:
    """Values a modified client may send that ``option`` does not allow."""
    kind, values = option["type"], []
    if "min_value" in option:
        values.append(option["min_value"] - 1)
    if "max_value" in option:
        values.append(option["max_value"] + 1)
    if "min_length" in option:
        values.append("")
    if "max_length" in option:
        values.append("x" * (option["max_length"] + 1))
    if option.get("choices"):
        offered = [choice["value"] for choice in option["choices"]]
        values.append(max(offered) + 1 if kind in (INTEGER, NUMBER) else "zzz")
    if option.get("channel_types"):
        values.append(odd_channel)
    return values


def cases(
    emulator: DiscordEmulator, channel: Channel, odd_channel: Channel, user: str
) -> list[Case]:
    found = []
    guild_id = emulator.world.guild_of(channel).id  # type: ignore[union-attr]
    definitions = [*emulator.commands.get(None, []), *emulator.commands.get(guild_id, [])]
    for definition in definitions:
        for path, level in leaves(definition):
            options = level.get("options", [])
            for option in options:
                siblings = {
                    other["name"]: allowed(other, channel, user)
                    for other in options
                    if other.get("required") and other is not option
                }
                for value in out_of_bounds(option, odd_channel):
                    found.append(Case(path, option, value, siblings))
    return found


def names_what_is_allowed(case: Case, text: str) -> bool:
    """The refusal says what the option allows: its bounds, its length, its choices."""
    option, value = case.option, case.value
    if option.get("choices"):
        return all(str(c["value"]) in text or c["name"] in text for c in option["choices"])
    if isinstance(value, Channel):
        return f"`{option['name']}`" in text
    if value == "":
        return text == "Le texte est vide."
    if isinstance(value, str):
        return str(option["max_length"]) in text
    bounds = [option[key] for key in ("min_value", "max_value") if key in option]
    return all(str(bound) in text for bound in bounds)


# The options a game words in its own terms, without repeating what is allowed.
WORDED = {("maya tapote", "de"): "Dés invalides."}


async def test_every_option_out_of_what_it_declares_is_refused_privately(
    emulator: DiscordEmulator, bot: BotProcess
) -> None:
    comptoir = emulator.channel("bar", "comptoir")
    odd_channel = emulator.world.add_channel("bar", "rangement")
    odd_channel.type = GUILD_CATEGORY
    user = "patron"  # the owner, who sees every command (the settings' too)
    before = await (await emulator.slash(user, comptoir, "reglages voir")).reply()
    all_cases = cases(emulator, comptoir, odd_channel, user)
    covered = {(case.command, case.option["name"]) for case in all_cases}
    # Ranges, lengths, choices and a kind of channel, among them.
    assert {
        ("menteur tutoriel", "cpu"),
        ("maya start", "gage"),
        ("classement", "periode"),
        ("reglages saison", "salon"),
    } <= covered
    wrong = []
    for case in all_cases:
        shown = len(emulator.transcript.public(comptoir.id))
        options = {**case.siblings, case.option["name"]: case.value}
        answer = await (
            await emulator.slash(user, comptoir, case.command, options, forged=True)
        ).reply()
        worded = WORDED.get((case.command, case.option["name"]))
        fine = (
            answer.ephemeral
            and answer.audience == emulator.user(user).id
            and OOPS not in answer.text
            and len(emulator.transcript.public(comptoir.id)) == shown
            and (answer.text == worded if worded else names_what_is_allowed(case, answer.text))
        )
        if not fine:
            where = "private" if answer.ephemeral else "public"
            wrong.append(f"{case} -> {where}: {answer.text[:160]!r}")
    assert wrong == [], f"{len(wrong)} of {len(all_cases)} not refused:\n" + "\n".join(wrong)
    after = await (await emulator.slash(user, comptoir, "reglages voir")).reply()
    assert after.text == before.text  # no setting changed
    calm(bot)
