"""Refusals: every error an interaction can meet becomes a clear, private explanation."""

from __future__ import annotations

import logging

import discord
from discord import app_commands

from bot.games import maya, menteur
from bot.i18n import command, language, t
from bot.storage import Repository, StorageError
from bot.tables import Table, TableError
from cogs import answers, render

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


def explain(
    error: BaseException, lang: str, table: Table | None, actor: int | None = None
) -> str | None:
    """The private explanation of a refusal, or None for an unexpected error.

    ``actor``: who tried (to tell "you are not playing" from "they are not playing")."""

    def name(player: int | None) -> str:
        if player is None:
            return "?"
        return table.name(player) if table is not None else f"<@{player}>"

    if isinstance(error, maya.GameError):
        params = dict(error.params)
        code = error.code
        if isinstance(error, maya.NotYourTurn):
            return t(lang, "err.not_your_turn", current=name(params.get("current")))
        if isinstance(error, maya.UnknownPlayer):
            player = params.get("player")
            if actor is not None and player is not None and player != actor:
                return t(lang, "err.accused_not_playing", player=name(player))
            # A spectator pressing a turn button is told whose turn it is (RULES.md §4).
            current = table.state.current if table is not None and table.state else None
            if current is not None:
                return t(lang, "err.unknown_player_turn", current=name(current))
            return t(lang, "err.unknown_player")
        if isinstance(error, maya.AnnouncementTooLow):
            previous = render.maya_value(params["previous"])
            if params.get("minimum") is None:
                return t(lang, "err.announcement_too_low_none", previous=previous)
            minimum = render.maya_value(params["minimum"])
            return t(lang, "err.announcement_too_low", minimum=minimum, previous=previous)
        if isinstance(error, menteur.BidTooLow):
            if params.get("minimum") is not None:
                return t(lang, "err.bid_too_low", minimum=_bid(params["minimum"]))
            raises = ", ".join(_bid(value) for value in params.get("raises") or ())
            return t(lang, "err.bid_too_low_none", raises=raises or "—")
        if isinstance(error, menteur.InvalidBid):
            reason = t(lang, f"err.invalid_bid.{params.get('reason')}")
            return t(lang, "err.invalid_bid", reason=reason)
        if isinstance(error, menteur.NotNow) and params.get("reason") == "no_bid":
            return t(lang, "err.no_bid")
        if isinstance(error, maya.PhotoNotAllowed):
            return t(lang, f"err.photo_{params['reason']}")
        if isinstance(error, maya.BlindPlayNotAllowed):
            return t(lang, f"err.blind_play_{params['reason']}")
        if isinstance(error, maya.FaultNotAllowed):
            reason = t(lang, f"err.fault_reason.{params['reason']}")
            return t(lang, "err.fault_not_allowed", reason=reason)
        if isinstance(error, maya.TableFull):
            return t(lang, "err.table_full", most=params.get("limit", maya.MAX_PLAYERS))
        if isinstance(error, maya.UnknownValue):
            return t(lang, "err.unknown_value", value=quoted(params.get("value")))
        if isinstance(error, maya.InvalidRules):
            return t(
                lang,
                "err.invalid_rules",
                option=quoted(params.get("option")),
                value=quoted(params.get("value")),
            )
        try:
            return t(lang, f"err.{code}")
        except KeyError:
            return t(lang, "err.game_error")
    if isinstance(error, TableError):
        params = dict(error.params)
        if "starter" in params:
            params["starter"] = name(params["starter"])
        for key in ("command", "other"):  # commands, as the reader's client names them
            if key in params:
                params[key] = command(lang, params[key])
        if error.code == "no_table":
            params["game"] = t(lang, f"game.any.{params.get('game', 'maya')}")
        if error.code == "table_busy":
            # Name the game that is running here: a Mia table is not "a Maya game".
            if table is not None and table.kind != "maya":
                params["game"] = t(lang, f"game.{table.kind}")
            else:
                lives = table is not None and table.rules.lives
                params["game"] = t(lang, "game.mia" if lives else "game.maya")
        return t(lang, f"err.{error.code}", **params)
    if isinstance(error, StorageError):
        return t(lang, "err.storage")
    if isinstance(error, app_commands.NoPrivateMessage):
        return t(lang, "err.dm")
    if isinstance(error, app_commands.MissingPermissions) and error.missing_permissions == [
        "manage_guild"
    ]:
        return t(lang, "err.need_manage_guild")
    if isinstance(error, app_commands.CommandOnCooldown):
        return t(lang, "err.rate_limited", seconds=max(1, round(error.retry_after)))
    return None


QUOTED_LENGTH = 40


def quoted(value: object) -> str:
    """Something a user typed, safe to echo: one line, short, no markdown, no mention."""
    text = " ".join(str(value).split())
    if len(text) > QUOTED_LENGTH:
        text = text[: QUOTED_LENGTH - 1] + "…"
    return discord.utils.escape_mentions(discord.utils.escape_markdown(text))


def _bid(value: object) -> str:
    quantity, face = value  # type: ignore[misc]
    return f"{quantity} × {face}"


async def refuse(
    interaction: discord.Interaction, error: BaseException, table: Table | None = None
) -> None:
    """Explain a refusal privately; log anything unexpected with who and where."""
    if isinstance(error, app_commands.CommandInvokeError):
        error = error.original
    text = explain(error, private_lang(interaction), table, interaction.user.id)
    if text is None:
        command = interaction.command.qualified_name if interaction.command else None
        log.error(
            "interaction failed (command %s, user %s, channel %s)",
            command,
            interaction.user.id,
            interaction.channel_id,
            exc_info=error,
        )
        text = t(private_lang(interaction), "err.internal")
    try:
        await say_privately(interaction, text)
    except discord.HTTPException:
        log.warning("could not deliver a refusal to user %s", interaction.user.id)
