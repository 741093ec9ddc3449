"""User-facing texts: French by default, English for English clients and servers.

Texts are Project Fluent messages (with plural rules; numbers written as digits), one
catalogue per language beside the code that says them: ``cogs/texts/`` for what every
table shares, ``cogs/<game>/texts/`` for each game (a new game brings its own),
``bot/web/texts/`` for the servers' web pages. A text is
named as the code asks for it, ``"ev.round_started"`` being the message
``ev-round_started``. ``t(locale, key, **params)`` picks the language from a Discord
locale (``"fr"``, ``"en-US"``, ``"en-GB"`` …): any English locale gets English, every
other gets French.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from functools import cache, lru_cache
from pathlib import Path
from typing import Any

from fluent.runtime import FluentBundle, FluentResource
from fluent.runtime.types import fluent_number
from fluent.syntax import Visitor, parse
from fluent.syntax import ast as fluent_ast

from bot.i18n import commands
from bot.i18n.catalogues import CATALOGUES

FRENCH = "fr"
ENGLISH = "en"
LANGUAGES = (FRENCH, ENGLISH)

WEB_CATALOGUES = Path(__file__).resolve().parents[1] / "web"  # the web pages' own texts


class TextError(RuntimeError):
    """A text could not be formatted (a parameter it needs was not given)."""


def language(locale: object) -> str:
    """``"en"`` for any English Discord locale, else ``"fr"``."""
    value = str(getattr(locale, "value", locale) or "").lower()
    return ENGLISH if value.startswith("en") else FRENCH


def catalogue_files(lang: str) -> list[Path]:
    """The catalogues of ``lang``: the shared one first, then each package's, by path, then
    the web pages'."""
    found = sorted(CATALOGUES.glob(f"**/texts/{lang}.ftl"), key=lambda p: (len(p.parts), p))
    return [*found, *sorted(WEB_CATALOGUES.glob(f"texts/{lang}.ftl"))]


@cache
def _bundle(lang: str) -> FluentBundle:
    # No Unicode isolation marks around placeables: they would break Discord's mentions.
    bundle = FluentBundle([lang], use_isolating=False)
    for path in catalogue_files(lang):
        bundle.add_resource(FluentResource(path.read_text(encoding="utf-8")))
    return bundle


def _message_id(key: str) -> str:
    return key.replace(".", "-")


def _value(value: Any, counted: bool) -> Any:
    # Only a number a text selects on goes to Fluent as a number (its plural rules need
    # it), written as the bot always wrote numbers: no grouping ("1000 points"). Every other
    # value is text as given (a caller rounds its figures itself): formatting a number
    # through Babel costs more than the rest of a text.
    if isinstance(value, int) and not isinstance(value, bool) and counted:
        return fluent_number(value, useGrouping=False)
    return value if isinstance(value, str) else str(value)


def t(locale: object, key: str, /, **params: Any) -> str:
    """The text ``key`` in the language of ``locale``, formatted with ``params``.

    A text missing from English is said in French; a text missing from both raises
    ``KeyError`` (callers that word a server's own names rely on it)."""
    lang = language(locale)
    # A table redraws the same labels and lines again and again: a text formatted once
    # with the same plain parameters is taken from a cache. Any other object is formatted
    # anew (its text may change).
    values = params.values()
    if not _PLAIN.issuperset(map(type, values)):
        return _format(lang, key, params)
    return _format_again(lang, key, tuple(params), *values).decode(errors="surrogatepass")


_PLAIN = frozenset({str, int, bool, type(None)})  # not float: -0.0 == 0.0 reads apart


# Kept compact, since the cache's texts are most of what the bot holds beyond its tables:
# the values are separate arguments, so that their key is one flat tuple (``typed`` puts
# their types in it: True and 1 read differently), and each text is kept in UTF-8, which
# takes a byte for most of its characters where a ``str`` with one emoji in it takes four
# for every one. And kept short: the same labels and lines come again and again, while a
# text naming players is rarely asked for long, so a bigger cache holds much more for few
# more hits (``bench/texts.py``; figures in docs/benchmarks.md).
@lru_cache(maxsize=1024, typed=True)
def _format_again(lang: str, key: str, names: tuple[str, ...], *values: Any) -> bytes:
    text = _format(lang, key, dict(zip(names, values, strict=True)))
    return text.encode(errors="surrogatepass")  # a lone surrogate comes back as it was


def _format(lang: str, key: str, params: dict[str, Any]) -> str:
    message_id = _message_id(key)
    bundle = _bundle(lang)
    if not bundle.has_message(message_id):
        lang = FRENCH
        bundle = _bundle(lang)
        if not bundle.has_message(message_id):
            raise KeyError(key)
    message = bundle.get_message(message_id)
    if message.value is None:
        raise KeyError(key)
    counted = _selectors(lang).get(key, frozenset())
    text, errors = bundle.format_pattern(
        message.value, {name: _value(value, name in counted) for name, value in params.items()}
    )
    if errors:
        raise TextError(f"{key}: {errors[0]}")
    return str(text)


def _messages(lang: str) -> Iterator[tuple[str, fluent_ast.Message | fluent_ast.Junk]]:
    for path in catalogue_files(lang):
        for entry in parse(path.read_text(encoding="utf-8")).body:
            if isinstance(entry, fluent_ast.Message):
                yield entry.id.name.replace("-", "."), entry
            elif isinstance(entry, fluent_ast.Junk):
                yield str(path), entry


def keys(lang: str) -> list[str]:
    """Every text of ``lang``'s catalogues, named as the code asks for it, in file order."""
    return [key for key, entry in _messages(lang) if isinstance(entry, fluent_ast.Message)]


def unreadable(lang: str) -> list[str]:
    """What Fluent could not read in ``lang``'s catalogues (it would silently be left out)."""
    return [
        f"{where}: {(entry.content or '')[:60]!r}"
        for where, entry in _messages(lang)
        if isinstance(entry, fluent_ast.Junk)
    ]


class _Variables(Visitor):
    def __init__(self) -> None:
        super().__init__()
        self.found: set[str] = set()

    def visit_VariableReference(self, node: fluent_ast.VariableReference) -> None:
        self.found.add(node.id.name)
        self.generic_visit(node)


@cache
def _entries(lang: str) -> dict[str, fluent_ast.Message]:
    return {key: entry for key, entry in _messages(lang) if isinstance(entry, fluent_ast.Message)}


class _Selectors(Visitor):
    def __init__(self) -> None:
        super().__init__()
        self.found: set[str] = set()

    def visit_SelectExpression(self, node: fluent_ast.SelectExpression) -> None:
        if isinstance(node.selector, fluent_ast.VariableReference):
            self.found.add(node.selector.id.name)
        self.generic_visit(node)


@cache
def _selectors(lang: str) -> dict[str, frozenset[str]]:
    """For each text of ``lang``: the parameters it chooses a variant by."""
    found = {}
    for key, entry in _entries(lang).items():
        visitor = _Selectors()
        visitor.visit(entry)
        if visitor.found:
            found[key] = frozenset(visitor.found)
    return found


def variables(lang: str, key: str) -> set[str]:
    """The parameters the text ``key`` takes in ``lang``."""
    visitor = _Variables()
    visitor.visit(_entries(lang)[key])
    return visitor.found


def template(lang: str, key: str) -> str:
    """The text ``key`` with each parameter shown as ``{name}`` (its default wording)."""
    return t(lang, key, **{name: f"{{{name}}}" for name in variables(lang, key)})


_COMMAND = re.compile(r"(?<![\w</])/([a-z]+)(?: ([a-z]+))?")
# A command's or option's French name by its English one (what an English text names).
_FRENCH_NAMES = {english: french for french, english in commands.ENGLISH.items()}


def mention_commands(text: str, ids: Mapping[str, int]) -> str:
    """A public text with its commands as Discord command mentions (``</maya start:id>``),
    which each reader's client shows in its own language and makes clickable. ``ids``: the
    synced commands' ids by path ("maya start", "aide"); a text naming a command by its
    English name (an English server) is understood too. Unknown commands stay as text."""
    if not ids or "/" not in text:
        return text

    def mention(found: re.Match[str]) -> str:
        top = _FRENCH_NAMES.get(found.group(1), found.group(1))
        sub = found.group(2)
        if sub is not None:
            path = f"{top} {_FRENCH_NAMES.get(sub, sub)}"
            if path in ids:
                return f"</{path}:{ids[path]}>"
        if top in ids:
            rest = f" {sub}" if sub is not None else ""
            return f"</{top}:{ids[top]}>{rest}"
        return found.group(0)

    return _COMMAND.sub(mention, text)


def command(locale: object, path: str) -> str:
    """A command as the reader's client shows it: ``"menteur rejoindre"`` -> ``/liarsdice join``
    for English clients, ``/menteur rejoindre`` for the others."""
    words = path.split()
    if language(locale) == ENGLISH:
        words = [commands.ENGLISH.get(word, word) for word in words]
    return "/" + " ".join(words)
