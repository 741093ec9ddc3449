"""Every command option held by the bot to what the command declares to Discord.

A command declares its options' ranges (``app_commands.Range``), lengths, choices and kinds
of channel to Discord, whose client keeps a user within them. A modified client or a raw
call to the API does not, and discord.py hands any value of the option's type to the command
(a declared range is only declared). So the command tree checks each option against its own
declaration before any check or command runs (``bot.client.Tree``): no command repeats it,
none meets a value it never offered, and a new option is checked as soon as it is declared.
A value out of its declaration is refused privately (``bot.interactions.refusals`` words it).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

import discord
from discord import AppCommandOptionType, app_commands

NESTED = (AppCommandOptionType.subcommand.value, AppCommandOptionType.subcommand_group.value)
NUMBERS = (AppCommandOptionType.integer, AppCommandOptionType.number)

# What an option's value can break: ``range`` (a number's bounds), ``length`` (a text's),
# ``choice`` (none of its choices), ``channel`` (a kind of channel it does not take).
RANGE, LENGTH, CHOICE, CHANNEL = "range", "length", "choice", "channel"


class OptionRefused(app_commands.AppCommandError):
    """An option's value is out of what its command declares (``problem``: what it breaks)."""

    def __init__(
        self, command: str, parameter: app_commands.Parameter, value: Any, problem: str
    ) -> None:
        super().__init__(f"/{command} {parameter.display_name}: {value!r} ({problem})")
        self.command = command
        self.parameter = parameter
        self.value = value
        self.problem = problem


def check(interaction: discord.Interaction[Any]) -> None:
    """Refuse a slash command whose options are not all within their declaration."""
    if interaction.type is not discord.InteractionType.application_command:
        return  # an autocomplete carries what is typed so far; a component has no options
    command = interaction.command
    if not isinstance(command, app_commands.Command):
        return
    data: Mapping[str, Any] = interaction.data or {}
    declared = {parameter.display_name: parameter for parameter in command.parameters}
    resolved = data.get("resolved", {})
    for option in _given(data.get("options", [])):
        parameter = declared.get(option.get("name", ""))
        if parameter is None:
            continue  # an option the command does not have: discord.py leaves it out
        value = option.get("value")
        problem = _problem(parameter, value, resolved)
        if problem is not None:
            raise OptionRefused(command.qualified_name, parameter, value, problem)


def _given(options: list[Mapping[str, Any]]) -> Iterator[Mapping[str, Any]]:
    """The options given to the command itself, below its group and subcommand."""
    for option in options:
        if option.get("type") in NESTED:
            yield from _given(option.get("options", []))
        else:
            yield option


def _problem(
    parameter: app_commands.Parameter, value: Any, resolved: Mapping[str, Any]
) -> str | None:
    if parameter.choices and not any(value == choice.value for choice in parameter.choices):
        return CHOICE
    least, most = parameter.min_value, parameter.max_value
    bounded = least is not None or most is not None
    if bounded and parameter.type is AppCommandOptionType.string:
        text = isinstance(value, str)
        return None if text and _within(len(value), least, most) else LENGTH
    if bounded and parameter.type in NUMBERS:
        number = isinstance(value, int | float) and not isinstance(value, bool)
        return None if number and _within(value, least, most) else RANGE
    if parameter.type is AppCommandOptionType.channel and parameter.channel_types:
        channel = resolved.get("channels", {}).get(str(value), {})
        if channel.get("type") not in {kind.value for kind in parameter.channel_types}:
            return CHANNEL
    return None


def _within(value: float, least: float | None, most: float | None) -> bool:
    return (least is None or value >= least) and (most is None or value <= most)
