"""Every text exists in both languages, with the same placeholders, and reads well."""

from __future__ import annotations

import re
from collections import Counter

import pytest
from discord import app_commands
from fluent.syntax import parse

from bot.i18n import keys, language, t, template, unreadable, variables

FRENCH_KEYS = keys("fr")


def test_french_and_english_have_the_same_texts():
    assert set(FRENCH_KEYS) - set(keys("en")) == set()
    assert set(keys("en")) - set(FRENCH_KEYS) == set()


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_every_catalogue_reads_whole_and_names_each_text_once(lang):
    assert unreadable(lang) == []
    assert [key for key, count in Counter(keys(lang)).items() if count > 1] == []


@pytest.mark.parametrize("key", sorted(FRENCH_KEYS))
def test_a_text_takes_the_same_placeholders_in_both_languages(key):
    assert variables("fr", key) == variables("en", key)


@pytest.mark.parametrize(
    ("locale", "expected"),
    [("fr", "fr"), ("en-US", "en"), ("en-GB", "en"), ("de", "fr"), (None, "fr")],
)
def test_english_clients_get_english_and_everyone_else_french(locale, expected):
    assert language(locale) == expected


def test_a_text_is_formatted_in_the_reader_language():
    assert t("fr", "ev.eliminated", player="A") == "☠️ A est éliminé·e."
    assert t("en-US", "ev.eliminated", player="A") == "☠️ A is out."


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_numbers_are_written_as_the_bot_always_wrote_them(lang):
    # Whole numbers are not grouped ("1000", not "1 000"), figures keep the caller's rounding.
    assert "1000" in t(lang, "err.stake", most=1000)
    assert "2.5" in t(lang, "y.option", box="X", points=2.5)


@pytest.mark.parametrize(
    ("lang", "key", "params", "expected"),
    [
        ("fr", "data.erased", {"rows": 1}, "🗑️ C'est fait : 1 ligne effacée."),
        ("fr", "data.erased", {"rows": 4}, "🗑️ C'est fait : 4 lignes effacées."),
        ("en", "data.erased", {"rows": 1}, "🗑️ Done: 1 row erased."),
        ("en", "data.erased", {"rows": 0}, "🗑️ Done: 0 rows erased."),
        ("fr", "preset.lives", {"lives": 1}, "1 vie"),
        ("fr", "preset.lives", {"lives": 3}, "3 vies"),
        ("en", "preset.lives", {"lives": 1}, "1 life"),
        (
            "fr",
            "m.ev.die_lost",
            {"player": "A", "left": 0, "you": "no"},
            "🎲 A perd un dé (plus aucun).",
        ),
        (
            "fr",
            "m.ev.die_lost",
            {"player": "A", "left": 1, "you": "no"},
            "🎲 A perd un dé (1 restant).",
        ),
        (
            "fr",
            "m.ev.die_lost",
            {"player": "A", "left": 3, "you": "no"},
            "🎲 A perd un dé (3 restants).",
        ),
        ("fr", "y.btn.reroll", {"left": 1}, "Relancer (1 restant)"),
        ("fr", "y.btn.reroll", {"left": 2}, "Relancer (2 restants)"),
        ("fr", "y.option", {"box": "Chance", "points": 1}, "Chance : 1 pt"),
        ("fr", "y.option", {"box": "Chance", "points": 0}, "Chance : 0 pt"),
        ("fr", "y.option", {"box": "Chance", "points": 22}, "Chance : 22 pts"),
        ("en", "y.option", {"box": "Chance", "points": 1}, "Chance: 1 pt"),
        ("en", "y.option", {"box": "Chance", "points": 0}, "Chance: 0 pts"),
        ("fr", "y.stake", {"mise": 1}, "mise 1 pt"),
        ("en", "y.challenge.stake", {"mise": 10}, ", stake: 10 pts"),
        ("fr", "m.rules_jokers", {"dice": 5}, "5 dés, les 1 sont jokers"),
    ],
)
def test_counted_words_agree_with_their_number(lang, key, params, expected):
    assert t(lang, key, **params) == expected


def test_no_text_hedges_a_plural():
    # A count is worded by the language's plural rules, never "restant·s" or "1 jokers".
    for lang in ("fr", "en"):
        for key in keys(lang):
            pattern = template(lang, key)
            assert "·s)" not in pattern and "(s)" not in pattern, (lang, key, pattern)
            assert "1 jokers" not in pattern, (lang, key, pattern)


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_a_plural_is_chosen_in_the_text_itself(lang):
    # t() hands Fluent a number only where a text selects on it directly ("{ $n -> ...}"):
    # a plural reached through a term, another message or a function would get text and
    # silently take its default form.
    from fluent.syntax import ast as fluent_ast

    from bot.i18n import catalogue_files

    indirect = (
        fluent_ast.Term,
        fluent_ast.TermReference,
        fluent_ast.MessageReference,
        fluent_ast.FunctionReference,
    )
    found = []

    def walk(node):
        if isinstance(node, indirect):
            found.append(node)
        for value in vars(node).values():
            for child in value if isinstance(value, list) else [value]:
                if isinstance(child, fluent_ast.BaseNode):
                    walk(child)

    for path in catalogue_files(lang):
        walk(parse(path.read_text(encoding="utf-8")))
    assert found == []


def test_a_text_said_again_reads_the_same_and_never_mixes_values():
    # Texts are cached by their parameters: equal values of other types, or objects whose
    # text changes, must not come back from the cache.
    assert t("fr", "err.stake", most=1) == t("fr", "err.stake", most=1)
    assert "True" in t("fr", "err.stake", most=True)
    assert "1 points" in t("fr", "err.stake", most=1)
    # Kept encoded: what comes back is the text itself, emoji and accents included.
    for _ in range(2):
        assert t("fr", "ev.eliminated", player="Zoé 🎲") == "☠️ Zoé 🎲 est éliminé·e."
        # A lone surrogate (a name decoded from an odd escape) is said as it came.
        assert t("fr", "ev.eliminated", player="a\ud800") == "☠️ a\ud800 est éliminé·e."

    class Name:
        shown = "Alice"

        def __str__(self) -> str:
            return self.shown

    name = Name()
    assert t("fr", "ev.eliminated", player=name) == "☠️ Alice est éliminé·e."
    name.shown = "Bob"
    assert t("fr", "ev.eliminated", player=name) == "☠️ Bob est éliminé·e."


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


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_a_text_names_commands_as_the_reader_client_shows_them(lang):
    known = command_paths(lang)
    wrong = {}
    for key in keys(lang):
        for found in COMMAND.findall(template(lang, key)):
            # "/maya start", or "/soulever" followed by a word of the sentence.
            if found not in known and found.split(" ")[0] not in known:
                wrong.setdefault(key, []).append(found)
    assert wrong == {}


GAMES = ("maya", "yades", "menteur")


def _owner(module: str | None) -> str:
    parts = (module or "").split(".")
    return parts[1] if len(parts) > 1 and parts[0] == "cogs" and parts[1] in GAMES else "shared"


def command_texts() -> dict[str, set[str]]:
    """Every French text of the command tree -> who declares it (a game, or "shared")."""
    import asyncio

    from bot.client import Gobelet
    from bot.config import Settings

    async def load() -> dict[str, set[str]]:
        owners: dict[str, set[str]] = {}
        bot = Gobelet(Settings(token=None), sync_commands=False)
        async with bot:
            await bot.prepare("sqlite:///:memory:")
            for cmd in bot.tree.walk_commands():
                texts = [cmd.name, cmd.description]
                if isinstance(cmd, app_commands.Group):
                    owner = _owner(cmd.module)
                else:
                    owner = _owner(cmd.callback.__module__)
                    for param in cmd.parameters:
                        texts += [param.name, param.description]
                        texts += [choice.name for choice in param.choices]
                for text in texts:
                    owners.setdefault(str(text), set()).add(owner)
        return owners

    return asyncio.run(load())


def test_every_command_text_has_its_english_beside_the_game_that_declares_it():
    import tomllib

    from bot.i18n.commands import CATALOGUES, ENGLISH, catalogue_files

    where: dict[str, str] = {}
    for path in catalogue_files():
        folder = path.relative_to(CATALOGUES).parts[0]
        for french in tomllib.loads(path.read_text(encoding="utf-8")):
            where[french] = folder if folder in GAMES else "shared"
    owners = command_texts()
    # Only texts that read the same in English go without a translation.
    assert set(owners) - set(ENGLISH) == {"3", "4", "5", "auto"}
    assert set(ENGLISH) <= set(owners), (
        "translated but never declared",
        set(ENGLISH) - set(owners),
    )
    for text, declared_by in owners.items():
        owner = declared_by.pop() if len(declared_by) == 1 else "shared"
        assert where.get(text, owner) == owner, (text, where[text], owner)
