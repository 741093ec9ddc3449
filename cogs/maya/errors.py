"""Maya's own refusals in words (the shared ones are worded by ``bot.interactions.refusals``)."""

from __future__ import annotations

from bot.games import maya
from bot.i18n import t
from bot.interactions.refusals import quoted
from cogs.maya.render import maya_value


def explain(
    error: BaseException, lang: str, rules: maya.Rules | None = None, photo: bool = False
) -> str | None:
    """``rules``: the table's (how its players name 21); ``photo``: a Photo is possible."""
    if not isinstance(error, maya.GameError):
        return None
    params = dict(error.params)
    rules = rules or maya.Rules.for_preset()
    if isinstance(error, maya.AnnouncementTooLow):
        previous = maya_value(params["previous"], rules, lang)
        if params.get("minimum") is None:
            return t(lang, "err.announcement_too_low_none", previous=previous)
        minimum = maya_value(params["minimum"], rules, lang)
        return t(
            lang,
            "err.announcement_too_low",
            minimum=minimum,
            previous=previous,
            photo="yes" if photo else "no",
        )
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
