"""A small discord.py bot with one command per emulated feature (``python -m tests.e2e.probe_bot``).

It checks the emulator against the real client independently of Gobelet's cogs: every kind of
interaction answer, components that survive a restart, modals, autocomplete, reactions, DMs,
files, channel messages, components v2, a late answer, a burst of channel messages that
meets the rate limits, and (``PROBE_SHARD=id/count``) one shard of a sharded bot.
"""

from __future__ import annotations

import asyncio
import io
import logging
import os
import re
from typing import Any, cast

import discord
from discord import app_commands
from discord.ext import commands

from bot.client import point_at
from bot.config import load_settings

SLOW_SECONDS = float(os.environ.get("PROBE_SLOW_SECONDS", "0.5"))


class Counter(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"probe:count:(?P<n>\d+)"):
    def __init__(self, n: int) -> None:
        super().__init__(discord.ui.Button(label=f"+1 ({n})", custom_id=f"probe:count:{n}"))
        self.n = n

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> Counter:
        return cls(int(match["n"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await interaction.response.edit_message(
            content=f"count {self.n + 1}", view=counter_view(self.n + 1)
        )


class Pick(discord.ui.DynamicItem[discord.ui.Select[Any]], template=r"probe:pick"):
    def __init__(self) -> None:
        options = [discord.SelectOption(label=x.upper(), value=x) for x in "abc"]
        super().__init__(discord.ui.Select(custom_id="probe:pick", options=options, max_values=2))

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> Pick:
        return cls()

    async def callback(self, interaction: discord.Interaction) -> None:
        data = cast(dict[str, Any], interaction.data or {})
        values = [str(value) for value in data.get("values", [])]
        await interaction.response.send_message(f"picked {','.join(values)}", ephemeral=True)


def counter_view(n: int) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(Counter(n))
    view.add_item(Pick())
    return view


class Form(discord.ui.Modal, title="Form"):
    answer: discord.ui.TextInput[Form] = discord.ui.TextInput(
        label="Answer", custom_id="probe:answer"
    )

    async def on_submit(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(f"you said {self.answer.value}", ephemeral=True)


class Card(discord.ui.LayoutView):
    container: discord.ui.Container[Card] = discord.ui.Container(
        discord.ui.TextDisplay("## Table"),
        discord.ui.TextDisplay("two players"),
    )
    row: discord.ui.ActionRow[Card] = discord.ui.ActionRow()

    @row.button(label="Join", custom_id="probe:v2:join")
    async def join(self, interaction: discord.Interaction, button: discord.ui.Button[Card]) -> None:
        await interaction.response.defer()
        await interaction.edit_original_response(view=Joined())


class Joined(discord.ui.LayoutView):
    text: discord.ui.TextDisplay[Joined] = discord.ui.TextDisplay("joined")


game = app_commands.Group(name="game", description="Nested commands")
table = app_commands.Group(name="table", description="TableRunner", parent=game)


@table.command(name="open", description="Open a table")
@app_commands.describe(size="How many seats")
async def table_open(interaction: discord.Interaction, size: app_commands.Range[int, 2, 6]) -> None:
    await interaction.response.send_message(f"open {size}")


def options() -> dict[str, Any]:
    intents = discord.Intents.none()
    intents.guilds = True
    intents.guild_reactions = True
    intents.dm_reactions = True
    return {"command_prefix": commands.when_mentioned, "intents": intents, "help_command": None}


class ProbeBehaviour:
    """The probe's commands and listeners, on a plain bot or on a sharded one."""

    async def setup_hook(self: Any) -> None:
        self.add_dynamic_items(Counter, Pick)
        self.add_view(Card(timeout=None))
        tree = self.tree
        tree.add_command(game)

        @tree.command(description="Say it back")
        async def echo(interaction: discord.Interaction, text: str, private: bool = False) -> None:
            where = interaction.guild_locale.value if interaction.guild_locale else "dm"
            await interaction.response.send_message(
                f"{text} [{interaction.locale.value}/{where}]", ephemeral=private
            )

        @tree.command(description="Defer, then follow up")
        async def think(interaction: discord.Interaction, private: bool = False) -> None:
            await interaction.response.defer(thinking=True, ephemeral=private)
            await asyncio.sleep(0.05)
            await interaction.followup.send("thought")

        @tree.command(description="Answer, edit, follow up")
        async def edit(interaction: discord.Interaction) -> None:
            await interaction.response.send_message("v1")
            await interaction.edit_original_response(content="v2")
            await interaction.followup.send("extra", ephemeral=True)

        @tree.command(description="A counter button and a select")
        async def counter(interaction: discord.Interaction) -> None:
            await interaction.response.send_message("count 0", view=counter_view(0))

        @tree.command(description="Send a file")
        async def file(interaction: discord.Interaction) -> None:
            data = discord.File(io.BytesIO(b"hello"), "hello.txt", description="greeting")
            await interaction.response.send_message("here", file=data)

        @tree.command(description="Show a modal")
        async def form(interaction: discord.Interaction) -> None:
            await interaction.response.send_modal(Form())

        @tree.command(description="Autocomplete a fruit")
        async def fruit(interaction: discord.Interaction, name: str) -> None:
            await interaction.response.send_message(f"fruit {name}")

        @fruit.autocomplete("name")
        async def fruit_names(
            interaction: discord.Interaction, current: str
        ) -> list[app_commands.Choice[str]]:
            names = ["apple", "banana", "blueberry", "cherry"]
            return [app_commands.Choice(name=n, value=n) for n in names if n.startswith(current)]

        @tree.command(description="For managers")
        @app_commands.default_permissions(manage_guild=True)
        @app_commands.guild_only()
        async def admin(interaction: discord.Interaction) -> None:
            allowed = interaction.permissions.manage_guild
            await interaction.response.send_message(f"admin {allowed}", ephemeral=True)

        @tree.command(description="Who is it")
        async def whois(interaction: discord.Interaction, who: discord.Member) -> None:
            await interaction.response.send_message(f"{who.name} {type(who).__name__}")

        @tree.command(description="Answer and react")
        async def react(interaction: discord.Interaction) -> None:
            await interaction.response.send_message("react here")
            message = await interaction.original_response()
            await message.add_reaction("🎲")

        @tree.command(description="Send a DM")
        async def dm(interaction: discord.Interaction) -> None:
            await interaction.user.send("psst")
            await interaction.response.send_message("sent", ephemeral=True)

        @tree.command(description="Answer too late")
        async def slow(interaction: discord.Interaction) -> None:
            await asyncio.sleep(SLOW_SECONDS)
            await interaction.response.send_message("too late")

        @tree.command(description="Post, edit and delete channel messages")
        async def post(interaction: discord.Interaction) -> None:
            assert isinstance(interaction.channel, discord.TextChannel)
            kept = await interaction.channel.send("posted")
            await kept.edit(content="posted!")
            gone = await interaction.channel.send("gone")
            await gone.delete()
            await interaction.response.send_message("ok", ephemeral=True)

        @tree.command(description="Defer, then post channel messages one after the other")
        async def burst(
            interaction: discord.Interaction, count: app_commands.Range[int, 1, 10]
        ) -> None:
            await interaction.response.defer(ephemeral=True, thinking=True)
            assert isinstance(interaction.channel, discord.TextChannel)
            for number in range(count):
                await interaction.channel.send(f"burst {number}")
            await interaction.followup.send(f"sent {count}")

        @tree.command(description="Which process answers")
        async def whoami(interaction: discord.Interaction) -> None:
            await interaction.response.send_message(f"pid {os.getpid()}")

        @tree.command(description="A components v2 card")
        async def card(interaction: discord.Interaction) -> None:
            await interaction.response.send_message(view=Card(timeout=None))

        await tree.sync()

    async def on_raw_reaction_add(self: Any, payload: discord.RawReactionActionEvent) -> None:
        if self.user is not None and payload.user_id == self.user.id:
            return
        channel = self.get_channel(payload.channel_id)
        if isinstance(channel, discord.TextChannel):
            await channel.send(f"{payload.user_id} {payload.emoji} {payload.type.name}")


class Probe(ProbeBehaviour, commands.Bot):
    def __init__(self) -> None:
        super().__init__(**options())


class ShardedProbe(ProbeBehaviour, commands.AutoShardedBot):
    """One shard of ``count``, as each process of a bot sharded over processes runs."""

    def __init__(self, shard: int, count: int) -> None:
        super().__init__(**options(), shard_ids=[shard], shard_count=count)


def main() -> None:
    settings = load_settings(dotenv=False)
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    point_at(settings)
    shard = os.environ.get("PROBE_SHARD")
    if shard:
        number, count = (int(part) for part in shard.split("/"))
        probe: commands.Bot | commands.AutoShardedBot = ShardedProbe(number, count)
    else:
        probe = Probe()
    probe.run(settings.token or "", log_handler=None)


if __name__ == "__main__":
    main()
