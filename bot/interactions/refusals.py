"""Refusals: every error an interaction can meet becomes a clear, private explanation.

A game's own refusals (a bid too low, a Photo after a Photo) are worded by its cog
(``GameSide.explain``); this module words what every game shares: turns, seats, the
table's own refusals (``TableError``), the storage and Discord's checks.
"""

from __future__ import annotations

import contextlib
import logging
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands

from bot.i18n import ENGLISH, command, language, t
from bot.i18n.commands import ENGLISH as ENGLISH_COMMANDS
from bot.interactions import answers, permissions
from bot.interactions.games import Names
from bot.interactions.shared import shared
from bot.kernel.errors import GameError, InvalidRules, NotNow, NotYourTurn, UnknownPlayer
from bot.option_checks import CHANNEL, CHOICE, LENGTH, OptionRefused
from bot.storage import Repository, StorageError
from bot.table import Table, TableError

if TYPE_CHECKING:
    from bot.interactions.games import GameSide

log = logging.getLogger(__name__)


def private_lang(interaction: discord.Interaction) -> str:
    return language(interaction.locale)


def public_lang(interaction: discord.Interaction) -> str:
    return language(interaction.guild_locale or "fr")


async def public_language(repository: Repository, interaction: discord.Interaction) -> str:
    """The language of the server's public messages: ``/reglages langue``, else its locale."""
    settings = await repository.guild_settings(interaction.guild_id or 0)
    return language(settings.get("language") or public_lang(interaction))


async def say_privately(interaction: discord.Interaction, text: str) -> None:
    """An ephemeral answer, whether or not the interaction was already answered."""
    await answers.reply(interaction, text[:2000], ephemeral=True)


QUOTED_LENGTH = 40


def quoted(value: object) -> str:
    """Something a user typed, safe to echo: one line, short, no markdown, no mention."""
    text = " ".join(str(value).split())
    if len(text) > QUOTED_LENGTH:
        text = text[: QUOTED_LENGTH - 1] + "…"
    return discord.utils.escape_mentions(discord.utils.escape_markdown(text))


def _names(table: Table | None) -> Names:
    def name(player: int | None) -> str:
        if player is None:
            return "?"
        return table.name(player) if table is not None else f"<@{player}>"

    return name


def _game_error(
    error: GameError,
    lang: str,
    table: Table | None,
    actor: int | None,
    names: Names,
    games: dict[str, GameSide] | None = None,
) -> str:
    params = dict(error.params)
    if isinstance(error, NotYourTurn):
        return t(lang, "err.not_your_turn", current=names(params.get("current")))
    if isinstance(error, UnknownPlayer):
        player = params.get("player")
        if actor is not None and player is not None and player != actor:
            return t(lang, "err.accused_not_playing", player=names(player))
        # A spectator pressing a turn button is told whose turn it is (docs/rules.md#turns).
        current = table.current if table is not None else None
        if current is not None:
            return t(lang, "err.unknown_player_turn", current=names(current))
        return t(lang, "err.unknown_player")
    if isinstance(error, NotNow) and table is not None and actor is not None and games:
        cog = games.get(table.kind)
        possible = cog.possible(table, actor, lang) if cog is not None else []
        if possible:
            shown = ", ".join(dict.fromkeys(label.rstrip("…") for label in possible))
            return t(lang, "err.not_now_possible", possible=shown)
    if isinstance(error, InvalidRules):
        return t(
            lang,
            "err.invalid_rules",
            option=quoted(params.get("option")),
            value=quoted(params.get("value")),
        )
    try:
        return t(lang, f"err.{error.code}")
    except KeyError:
        return t(lang, "err.game_error")


def _table_error(
    error: TableError,
    lang: str,
    table: Table | None,
    names: Names,
    games: dict[str, GameSide],
) -> str:
    params = dict(error.params)
    if "starter" in params:
        params["starter"] = names(params["starter"])
    for key in ("command", "other"):  # commands, as the reader's client names them
        if key in params:
            params[key] = command(lang, params[key])
    if "permissions" in params:  # the bot's own, as Discord names them to the reader
        params["permissions"] = permissions.names(lang, params["permissions"])
    if error.code == "no_table":
        params["game"] = t(lang, f"game.any.{params['game']}")
    if error.code == "table_busy":
        # Name the game that is running here, as its players call it (Mia is not Maya).
        cog = games.get(table.kind) if table is not None else None
        if cog is not None and table is not None:
            params["game"] = cog.game_name(table, lang)
        else:
            params["game"] = t(lang, f"game.{params['game']}")
    return t(lang, f"err.{error.code}", **params)


def _option_refused(error: OptionRefused, lang: str) -> str:
    """An option out of its declaration: in its command's own words when it has some
    (``err.option.<command>.<option>``), else said by what it broke, naming what it allows."""
    parameter, value = error.parameter, error.value

    def shown(name: str) -> str:  # as the reader's client shows it
        return ENGLISH_COMMANDS.get(name, name) if lang == ENGLISH else name

    params: dict[str, Any] = {"option": shown(parameter.display_name), "value": quoted(value)}
    least, most = parameter.min_value, parameter.max_value
    if least is not None:
        params["least"] = least
    if most is not None:
        params["most"] = most
    if parameter.choices:
        params["choices"] = ", ".join(shown(choice.name) for choice in parameter.choices)
        params["values"] = ", ".join(str(choice.value) for choice in parameter.choices)
        params["codes"] = ", ".join(f"`{choice.value}`" for choice in parameter.choices)
    own = f"err.option.{error.command.replace(' ', '_')}.{parameter.display_name}"
    with contextlib.suppress(KeyError):
        return t(lang, own, **params)
    if error.problem == CHOICE:
        return t(lang, "err.option_choice", **params)
    if error.problem == CHANNEL:
        return t(lang, "err.option_channel", **params)
    if error.problem == LENGTH:
        if isinstance(value, str) and most is not None and len(value) > most:
            return t(lang, "err.text_too_long", **params)
        if least is None or least <= 1:
            return t(lang, "err.text_empty")
        return t(lang, "err.text_too_short", **params)
    if least is None:
        return t(lang, "err.option_most", **params)
    if most is None:
        return t(lang, "err.option_least", **params)
    return t(lang, "err.option_range", **params)


def explain(
    error: BaseException,
    lang: str,
    table: Table | None,
    actor: int | None = None,
    games: dict[str, GameSide] | None = None,
) -> str | None:
    """The private explanation of a refusal, or None for an unexpected error.

    ``actor``: who tried (to tell "you are not playing" from "they are not playing");
    ``games``: the cogs of the games, which word their own refusals (the table's first)."""
    names = _names(table)
    cogs = list((games or {}).values())
    if table is not None and games and table.kind in games:
        cogs.insert(0, games[table.kind])
    for cog in cogs:
        text = cog.explain(error, lang, table, names)
        if text is not None:
            return text
    if isinstance(error, GameError):
        return _game_error(error, lang, table, actor, names, games)
    if isinstance(error, TableError):
        return _table_error(error, lang, table, names, games or {})
    if isinstance(error, StorageError):
        return t(lang, "err.storage")
    if isinstance(error, OptionRefused):
        return _option_refused(error, lang)
    if isinstance(error, app_commands.NoPrivateMessage):
        return t(lang, "err.dm")
    if isinstance(error, app_commands.MissingPermissions) and error.missing_permissions == [
        "manage_guild"
    ]:
        return t(lang, "err.need_manage_guild")
    if isinstance(error, app_commands.CommandOnCooldown):
        return t(lang, "err.rate_limited", seconds=max(1, round(error.retry_after)))
    return None


async def refuse(
    interaction: discord.Interaction, error: BaseException, table: Table | None = None
) -> None:
    """Explain a refusal privately; log anything unexpected with who and where."""
    if isinstance(error, app_commands.CommandInvokeError):
        error = error.original
    bot = shared(interaction.client)
    games: dict[str, GameSide] = bot.games if bot is not None else {}
    text = explain(error, private_lang(interaction), table, interaction.user.id, games)
    if text is None:
        where = interaction.command.qualified_name if interaction.command else None
        log.error(
            "interaction failed (command %s, user %s, channel %s)",
            where,
            interaction.user.id,
            interaction.channel_id,
            exc_info=error,
        )
        text = t(private_lang(interaction), "err.internal")
    try:
        await say_privately(interaction, text)
    except discord.HTTPException:
        log.warning("could not deliver a refusal to user %s", interaction.user.id)
