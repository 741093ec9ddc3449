"""Maya's own refusals in words (the shared ones are worded by ``cogs.table.errors``)."""

from __future__ import annotations

from bot.games import maya
from bot.i18n import t
from cogs.maya.render import maya_value
from cogs.table.errors import quoted


def explain(error: BaseException, lang: str) -> str | None:
    if not isinstance(error, maya.GameError):
        return None
    params = dict(error.params)
    if isinstance(error, maya.AnnouncementTooLow):
        previous = maya_value(params["previous"])
        if params.get("minimum") is None:
            return t(lang, "err.announcement_too_low_none", previous=previous)
        minimum = maya_value(params["minimum"])
        return t(lang, "err.announcement_too_low", minimum=minimum, previous=previous)
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
    return None
