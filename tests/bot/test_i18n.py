"""Every text exists in both languages, with the same placeholders."""

from __future__ import annotations

import string

import pytest

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
