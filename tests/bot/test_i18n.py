"""Every text exists in both languages, with the same placeholders."""

from __future__ import annotations

import re
import string

import pytest
from discord import app_commands

from bot.i18n import en, fr, language, t


def placeholders(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


def test_french_and_english_have_the_same_texts():
    assert set(fr.TEXTS) - set(en.TEXTS) == set()
    assert set(en.TEXTS) - set(fr.TEXTS) == set()


@pytest.mark.parametrize("key", sorted(fr.TEXTS))
def test_a_text_takes_the_same_placeholders_in_both_languages(key):
    assert placeholders(fr.TEXTS[key]) == placeholders(en.TEXTS[key])


@pytest.mark.parametrize(
    ("locale", "expected"),
    [("fr", "fr"), ("en-US", "en"), ("en-GB", "en"), ("de", "fr"), (None, "fr")],
)
def test_english_clients_get_english_and_everyone_else_french(locale, expected):
    assert language(locale) == expected


def test_a_text_is_formatted_in_the_reader_language():
    assert t("fr", "ev.eliminated", player="A") == "☠️ A est éliminé·e."
    assert t("en-US", "ev.eliminated", player="A") == "☠️ A is out."


def command_paths(lang: str) -> set[str]:
    """Every command of the tree that runs (no group) as a client in ``lang`` shows it."""
    import asyncio

    from bot.client import Gobelet
    from bot.config import Settings
    from bot.i18n import command

    async def load() -> set[str]:
        bot = Gobelet(Settings(token=None), sync_commands=False)
        async with bot:
            await bot.prepare("sqlite:///:memory:")
            return {
                command(lang, c.qualified_name)
                for c in bot.tree.walk_commands()
                if not isinstance(c, app_commands.Group)
            }

    return asyncio.run(load())


COMMAND = re.compile(r"(?<![\w/<])/[a-z_]+(?: [a-z_]+)?")


@pytest.mark.parametrize(("lang", "catalog"), [("fr", fr.TEXTS), ("en", en.TEXTS)])
def test_a_text_names_commands_as_the_reader_client_shows_them(lang, catalog):
    known = command_paths(lang)
    wrong = {}
    for key, template in catalog.items():
        for found in COMMAND.findall(template):
            # "/maya start", or "/soulever" followed by a word of the sentence.
            if found not in known and found.split(" ")[0] not in known:
                wrong.setdefault(key, []).append(found)
    assert wrong == {}
