"""Discord's documented limits on what a bot sends, checked the way Discord checks them.

A bot that passes its tests against a lenient fake and then gets "400 Invalid Form Body" in
production has tested nothing: so the emulator refuses what Discord refuses (message length,
embed sizes, component layout, custom_id length and uniqueness, command names and descriptions,
autocomplete choices, modal fields) with Discord's error codes and paths.
"""

from __future__ import annotations

import re
from typing import Any

from tests.e2e.transcript import (
    ACTION_ROW,
    BUTTON,
    IS_COMPONENTS_V2,
    LABEL,
    LINK_STYLE,
    PREMIUM_STYLE,
    SELECTS,
    STRING_SELECT,
    TEXT_DISPLAY,
    TEXT_INPUT,
    walk_components,
)

Problem = tuple[list[str | int], str, str]  # (path, code, message)

LOCALES = {
    "id", "da", "de", "en-GB", "en-US", "es-ES", "es-419", "fr", "hr", "it", "lt", "hu", "nl",
    "no", "pl", "pt-BR", "ro", "fi", "sv-SE", "vi", "tr", "cs", "el", "bg", "ru", "uk", "hi",
    "th", "zh-CN", "ja", "zh-TW", "ko",
}  # fmt: skip

# Discord's pattern is ^[-_'\p{L}\p{N}\p{sc=Deva}\p{sc=Thai}]{1,32}$; \w is close enough.
_COMMAND_NAME = re.compile(r"^[-_'\w]{1,32}$")


def _too_long(path: list[str | int], value: Any, limit: int) -> list[Problem]:
    if isinstance(value, str) and len(value) > limit:
        return [(path, "BASE_TYPE_MAX_LENGTH", f"Must be {limit} or fewer in length.")]
    return []


def _length(path: list[str | int], value: Any, low: int, high: int) -> list[Problem]:
    if not isinstance(value, str) or not low <= len(value) <= high:
        return [(path, "BASE_TYPE_BAD_LENGTH", f"Must be between {low} and {high} in length.")]
    return []


def error_body(problems: list[Problem]) -> dict[str, Any]:
    """Discord's "Invalid Form Body" (50035) with its nested ``errors`` tree."""
    errors: dict[str, Any] = {}
    for path, code, message in problems:
        node = errors
        for part in path:
            node = node.setdefault(str(part), {})
        node.setdefault("_errors", []).append({"code": code, "message": message})
    return {"message": "Invalid Form Body", "code": 50035, "errors": errors}


# --- messages -------------------------------------------------------------------------------


def message_problems(body: dict[str, Any]) -> list[Problem]:
    """Limits on one message body (create or edit; only the keys present are checked)."""
    problems: list[Problem] = []
    flags = int(body.get("flags") or 0)
    v2 = bool(flags & IS_COMPONENTS_V2)
    content = body.get("content")
    if v2 and content:
        problems.append((["content"], "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2", ""))
    problems += _too_long(["content"], content, 2000)
    embeds = body.get("embeds") or []
    if v2 and embeds:
        problems.append((["embeds"], "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2", ""))
    problems += _embed_problems(embeds)
    components = body.get("components")
    if components:
        problems += _component_problems(components, v2=v2)
    return problems


def _embed_problems(embeds: list[dict[str, Any]]) -> list[Problem]:
    problems: list[Problem] = []
    if len(embeds) > 10:
        problems.append((["embeds"], "BASE_TYPE_MAX_LENGTH", "Must be 10 or fewer in length."))
    total = 0
    for index, embed in enumerate(embeds):
        path: list[str | int] = ["embeds", index]
        for key, limit in (("title", 256), ("description", 4096)):
            problems += _too_long([*path, key], embed.get(key), limit)
            total += len(embed.get(key) or "")
        fields = embed.get("fields") or []
        if len(fields) > 25:
            problems.append(([*path, "fields"], "BASE_TYPE_MAX_LENGTH", "Must be 25 or fewer."))
        for number, embed_field in enumerate(fields):
            problems += _length([*path, "fields", number, "name"], embed_field.get("name"), 1, 256)
            problems += _length(
                [*path, "fields", number, "value"], embed_field.get("value"), 1, 1024
            )
            total += len(embed_field.get("name") or "") + len(embed_field.get("value") or "")
        footer = (embed.get("footer") or {}).get("text")
        author = (embed.get("author") or {}).get("name")
        problems += _too_long([*path, "footer", "text"], footer, 2048)
        problems += _too_long([*path, "author", "name"], author, 256)
        total += len(footer or "") + len(author or "")
    if total > 6000:
        problems.append((["embeds"], "BASE_TYPE_MAX_LENGTH", "Embed size exceeds maximum size"))
    return problems


def _component_problems(components: list[dict[str, Any]], *, v2: bool) -> list[Problem]:
    problems: list[Problem] = []
    if not v2:
        if len(components) > 5:
            problems.append((["components"], "BASE_TYPE_MAX_LENGTH", "Must be 5 or fewer."))
        for index, row in enumerate(components):
            path: list[str | int] = ["components", index]
            if row.get("type") != ACTION_ROW:
                problems.append((path, "COMPONENT_LAYOUT_WIDTH_EXCEEDED", "Expected action row"))
                continue
            children = row.get("components") or []
            selects = [c for c in children if c.get("type") in SELECTS]
            if not children or len(children) > 5 or (selects and len(children) > 1):
                problems.append(
                    ([*path, "components"], "COMPONENT_LAYOUT_WIDTH_EXCEEDED", "Row too wide")
                )
    else:
        count = sum(1 for _ in walk_components(components))
        if count > 40:
            problems.append((["components"], "BASE_TYPE_MAX_LENGTH", "Must be 40 or fewer."))
        text = sum(
            len(c.get("content") or "")
            for c in walk_components(components)
            if c.get("type") == TEXT_DISPLAY
        )
        if text > 4000:
            problems.append((["components"], "BASE_TYPE_MAX_LENGTH", "Text exceeds 4000."))
    seen: set[str] = set()
    for number, component in enumerate(walk_components(components)):
        path = ["components", number]
        kind = component.get("type")
        custom_id = component.get("custom_id")
        if custom_id is not None:
            problems += _length([*path, "custom_id"], custom_id, 1, 100)
            if custom_id in seen:
                problems.append(
                    ([*path, "custom_id"], "COMPONENT_CUSTOM_ID_DUPLICATED", "Duplicate custom_id")
                )
            seen.add(custom_id)
        if kind == BUTTON:
            problems += _button_problems(path, component)
        elif kind in SELECTS:
            problems += _select_problems(path, component)
    return problems


def _button_problems(path: list[str | int], button: dict[str, Any]) -> list[Problem]:
    problems = _too_long([*path, "label"], button.get("label"), 80)
    style = button.get("style")
    if style == LINK_STYLE:
        if not button.get("url") or button.get("custom_id"):
            problems.append((path, "BUTTON_COMPONENT_INVALID_URL", "A link needs a url only"))
    elif style != PREMIUM_STYLE and not button.get("custom_id"):
        problems.append(([*path, "custom_id"], "BASE_TYPE_REQUIRED", "This field is required"))
    if style != PREMIUM_STYLE and not button.get("label") and not button.get("emoji"):
        problems.append((path, "BUTTON_COMPONENT_LABEL_OR_EMOJI_REQUIRED", "Label or emoji"))
    return problems


def _select_problems(path: list[str | int], select: dict[str, Any]) -> list[Problem]:
    problems = _too_long([*path, "placeholder"], select.get("placeholder"), 150)
    low = select.get("min_values", 1)
    high = select.get("max_values", 1)
    if not (0 <= low <= 25 and 1 <= high <= 25 and low <= high):
        problems.append((path, "BASE_TYPE_BAD_INT", "min_values/max_values out of range"))
    if select.get("type") == STRING_SELECT:
        options = select.get("options") or []
        if not 1 <= len(options) <= 25:
            problems.append(([*path, "options"], "BASE_TYPE_BAD_LENGTH", "1 to 25 options"))
        if high > len(options):
            problems.append(([*path, "max_values"], "BASE_TYPE_MAX", "More than the options"))
        values = [option.get("value") for option in options]
        if len(set(values)) != len(values):
            problems.append(([*path, "options"], "SELECT_COMPONENT_OPTION_VALUE_DUPLICATED", ""))
        for number, option in enumerate(options):
            problems += _length([*path, "options", number, "label"], option.get("label"), 1, 100)
            problems += _length([*path, "options", number, "value"], option.get("value"), 1, 100)
            problems += _too_long(
                [*path, "options", number, "description"], option.get("description"), 100
            )
    return problems


def is_empty_message(body: dict[str, Any], *, has_attachments: bool) -> bool:
    return not (
        body.get("content")
        or body.get("embeds")
        or body.get("components")
        or body.get("sticker_ids")
        or body.get("poll")
        or has_attachments
    )


# --- interaction answers other than messages ------------------------------------------------


def choices_problems(choices: Any) -> list[Problem]:
    if not isinstance(choices, list):
        return [(["data", "choices"], "BASE_TYPE_REQUIRED", "This field is required")]
    problems: list[Problem] = []
    if len(choices) > 25:
        problems.append((["data", "choices"], "BASE_TYPE_MAX_LENGTH", "Must be 25 or fewer."))
    for index, choice in enumerate(choices):
        problems += _length(["data", "choices", index, "name"], choice.get("name"), 1, 100)
        problems += _too_long(["data", "choices", index, "value"], choice.get("value"), 100)
    return problems


def modal_problems(data: dict[str, Any]) -> list[Problem]:
    problems = _length(["data", "title"], data.get("title"), 1, 45)
    problems += _length(["data", "custom_id"], data.get("custom_id"), 1, 100)
    components = data.get("components") or []
    if not 1 <= len(components) <= 5:
        problems.append((["data", "components"], "BASE_TYPE_BAD_LENGTH", "1 to 5 components"))
    for index, component in enumerate(walk_components(components)):
        path: list[str | int] = ["data", "components", index]
        if component.get("type") == TEXT_INPUT:
            problems += _length([*path, "custom_id"], component.get("custom_id"), 1, 100)
            problems += _too_long([*path, "label"], component.get("label"), 45)
            problems += _too_long([*path, "value"], component.get("value"), 4000)
            problems += _too_long([*path, "placeholder"], component.get("placeholder"), 100)
        elif component.get("type") == LABEL:
            problems += _length([*path, "label"], component.get("label"), 1, 45)
    return problems


# --- application commands -------------------------------------------------------------------


def commands_problems(commands: list[dict[str, Any]]) -> list[Problem]:
    """Limits on a bulk overwrite of application commands (PUT .../commands)."""
    problems: list[Problem] = []
    by_type: dict[int, int] = {}
    names: set[tuple[int, str]] = set()
    for index, command in enumerate(commands):
        kind = command.get("type", 1)
        by_type[kind] = by_type.get(kind, 0) + 1
        key = (kind, command.get("name", ""))
        if key in names:
            problems.append(([index, "name"], "APPLICATION_COMMANDS_DUPLICATE_NAME", "Duplicate"))
        names.add(key)
        problems += _command_problems([index], command, chat_input=kind == 1, depth=0)
    if by_type.get(1, 0) > 100 or by_type.get(2, 0) > 15 or by_type.get(3, 0) > 15:
        problems.append(([], "APPLICATION_COMMANDS_TOO_MANY", "Too many application commands"))
    return problems


def _name_problems(path: list[str | int], name: Any, *, chat_input: bool) -> list[Problem]:
    if not isinstance(name, str) or not name:
        return [([*path, "name"], "BASE_TYPE_REQUIRED", "This field is required")]
    if not chat_input:
        return _length([*path, "name"], name, 1, 32)
    if not _COMMAND_NAME.match(name) or name != name.lower():
        return [([*path, "name"], "APPLICATION_COMMAND_INVALID_NAME", f"Invalid name {name!r}")]
    return []


def _described(path: list[str | int], item: dict[str, Any], *, chat_input: bool) -> list[Problem]:
    """Name, description and their localizations (all checked: Discord refuses a bad French
    description even when the English one is fine)."""
    problems = _name_problems(path, item.get("name"), chat_input=chat_input)
    if chat_input:
        problems += _length([*path, "description"], item.get("description"), 1, 100)
    for key in ("name_localizations", "description_localizations"):
        for locale, text in (item.get(key) or {}).items():
            if locale not in LOCALES:
                problems.append(([*path, key, locale], "LOCALE_INVALID", f"Bad locale {locale}"))
            elif key == "name_localizations":
                problems += _name_problems([*path, key, locale], text, chat_input=chat_input)
            else:
                problems += _length([*path, key, locale], text, 1, 100)
    return problems


def _command_problems(
    path: list[str | int], item: dict[str, Any], *, chat_input: bool, depth: int
) -> list[Problem]:
    """``depth`` 0 is a command, 1 a subcommand group or subcommand, 2 a grouped subcommand."""
    problems = _described(path, item, chat_input=chat_input)
    options = item.get("options") or []
    if len(options) > 25:
        problems.append(([*path, "options"], "BASE_TYPE_MAX_LENGTH", "Must be 25 or fewer."))
    nested = [option for option in options if option.get("type") in (1, 2)]
    if nested and len(nested) != len(options):
        problems.append(([*path, "options"], "APPLICATION_COMMAND_OPTIONS_TYPE_INVALID", "Mix"))
    seen_optional = False
    names: set[str] = set()
    for index, option in enumerate(options):
        option_path: list[str | int] = [*path, "options", index]
        if option.get("name") in names:
            problems.append(([*option_path, "name"], "APPLICATION_COMMAND_OPTIONS_DUPLICATE", ""))
        names.add(option.get("name", ""))
        kind = option.get("type")
        if kind in (1, 2):
            # Groups only at the top; subcommands at the top or in a group; nothing deeper.
            if (kind == 2 and depth > 0) or (kind == 1 and depth > 0 and item.get("type") != 2):
                problems.append((option_path, "APPLICATION_COMMAND_OPTIONS_TYPE_INVALID", ""))
            problems += _command_problems(option_path, option, chat_input=True, depth=depth + 1)
            continue
        problems += _described(option_path, option, chat_input=True)
        if option.get("required"):
            if seen_optional:
                problems.append(
                    (option_path, "APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID", "Order")
                )
        else:
            seen_optional = True
        choices = option.get("choices") or []
        if len(choices) > 25:
            problems.append(([*option_path, "choices"], "BASE_TYPE_MAX_LENGTH", "25 or fewer"))
        if choices and option.get("autocomplete"):
            problems.append(([*option_path, "autocomplete"], "AUTOCOMPLETE_WITH_CHOICES", ""))
        for number, choice in enumerate(choices):
            choice_path: list[str | int] = [*option_path, "choices", number]
            problems += _length([*choice_path, "name"], choice.get("name"), 1, 100)
            problems += _too_long([*choice_path, "value"], choice.get("value"), 100)
            for locale, text in (choice.get("name_localizations") or {}).items():
                problems += _length([*choice_path, "name_localizations", locale], text, 1, 100)
    if chat_input and depth == 0 and _characters(item) > 4000:
        problems.append((path, "APPLICATION_COMMAND_TOO_LARGE", "Command exceeds 4000 characters"))
    return problems


def _characters(item: dict[str, Any]) -> int:
    """Discord's 4000-character budget: names, descriptions, choice names and values."""
    total = len(item.get("name", "")) + len(item.get("description", ""))
    for option in item.get("options") or []:
        total += _characters(option)
        for choice in option.get("choices") or []:
            total += len(str(choice.get("name", ""))) + len(str(choice.get("value", "")))
    return total
