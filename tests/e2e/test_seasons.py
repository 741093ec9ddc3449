"""Seasons through Discord: a server chooses where its podium is announced, plays a rated
game, and its season closes on its date while the bot is down (the emulator's clock and the
bot's travel past it): after the restart the podium is posted once, the season is archived
for `/classement saison:`, and the ratings start the new season from the soft reset."""

from __future__ import annotations

import calendar
import re
import time
from datetime import UTC, date, datetime, timedelta

import pytest

from tests.e2e.botprocess import BotProcess
from tests.e2e.emulator import DiscordEmulator
from tests.e2e.maya_driver import lines_since, mark
from tests.e2e.test_persistence import (
    EMPTY_BOARD_FR,
    Game,
    footer,
    leaderboard_rows,
    mia_places,
    number,
    private_answer,
    shown_rating,
)
from tests.e2e.transcript import Message

pytestmark = pytest.mark.bot_env(GOBELET_DICE_SEED="7031")

PODIUM = "🏁 Fin de la saison 1"
STAT_RATING = re.compile(r"classement Elo : \*\*([\d.]+)\*\*")


def wall(emulator: DiscordEmulator) -> float:
    """The bot's wall clock: the real one, plus how far the emulator travelled."""
    return time.time() + emulator.travelled


def first_of_next_month(today: date) -> date:
    return (today.replace(day=1) + timedelta(days=32)).replace(day=1)


def day_shown(day: date) -> str:
    return day.strftime("%d/%m/%Y")


async def test_a_season_closes_on_its_date_announces_its_podium_and_resets_the_ratings(
    emulator: DiscordEmulator, bot: BotProcess
) -> None:
    alice, bob, carol = emulator.user("alice"), emulator.user("bob"), emulator.user("carol")
    comptoir, terrasse = emulator.channel("bar", "comptoir"), emulator.channel("bar", "terrasse")

    # carol (Manage Server) sends the podiums to #terrasse; carol's client speaks English.
    chosen = await private_answer(emulator, carol, comptoir, "reglages saison", {"salon": terrasse})
    today = datetime.fromtimestamp(wall(emulator), UTC).date()
    ends = first_of_next_month(today)
    last = ends - timedelta(days=1)
    assert chosen.text.startswith("✅ Settings saved (they apply to new tables).")
    assert f"🏁 Seasons: 1 month; podium announced in <#{terrasse.id}>" in chosen.text
    # Looking begins nothing: the first season begins with the first counted game.
    assert chosen.text.endswith(
        "No season yet: the first begins with the first game counted on this server."
    )

    # A rated game: alice and bob, one life each.
    since = mark(emulator)
    game = Game(emulator, comptoir, [alice, bob])
    await game.open(lives=1)
    assert (await game.play_to_the_end()).phase == "over"
    shown = await private_answer(emulator, carol, comptoir, "reglages saison")
    midnight = calendar.timegm(ends.timetuple())
    assert shown.text.endswith(
        f"Current season: season 1 ({today.isoformat()} – {last.isoformat()}), "
        f"ends <t:{midnight}:f> (<t:{midnight}:R>)."
    )
    places = mia_places(lines_since(emulator, comptoir, since))
    rated = shown_rating(places)
    winner, loser = places
    expected = [(1, winner, number(rated[winner])), (2, loser, number(rated[loser]))]
    now_board = await (
        await emulator.slash(alice, comptoir, "classement", {"jeu": "mia", "critere": "rating"})
    ).reply()
    assert leaderboard_rows(now_board) == expected
    assert not [m for m in emulator.transcript.public(terrasse.id) if PODIUM in m.text]

    # The bot is down when the month turns; it comes back an hour after midnight.
    await bot.kill()
    emulator.travel(midnight + 3600 - wall(emulator))
    await bot.start()
    span = f"saison 1 ({day_shown(today)} – {day_shown(last)})"
    podium: Message = await emulator.wait_message(terrasse, containing=PODIUM)
    (embed,) = podium.embeds
    assert embed["title"] == f"🏁 Fin de la {span} : le podium"
    assert embed["fields"] == [
        {
            "name": "Mia (vies)",
            "value": f"🥇 <@{winner}> — **{expected[0][2]}**\n🥈 <@{loser}> — **{expected[1][2]}**",
            "inline": False,
        }
    ]
    assert footer(podium) == (
        "La saison 2 commence : chaque classement Elo repart à mi-chemin de 1000."
    )
    # Nobody is pinged by a podium.
    assert podium.allowed_mentions == {"parse": []}, podium.allowed_mentions

    # The new season ranks nobody by rating until they play; the old one is archived.
    fresh = await (
        await emulator.slash(alice, comptoir, "classement", {"jeu": "mia", "critere": "rating"})
    ).reply()
    assert fresh.embeds[0]["description"] == EMPTY_BOARD_FR
    archived = await (
        await emulator.slash(
            alice, comptoir, "classement", {"jeu": "mia", "critere": "rating", "saison": 1}
        )
    ).reply()
    assert archived.embeds[0]["title"] == f"🏆 Mia (vies) — classement Elo ({span})"
    assert leaderboard_rows(archived) == expected
    wins = await (
        await emulator.slash(
            alice, comptoir, "classement", {"jeu": "mia", "critere": "wins", "saison": 1}
        )
    ).reply()
    assert leaderboard_rows(wins) == [(1, winner, "1")]

    # Halfway back to 1000; /stats draws how the rating moved (the game, then the reset).
    stats = await (await emulator.slash(alice, comptoir, "stats", {"joueur": winner})).reply()
    (shown,) = STAT_RATING.findall(stats.text)
    assert float(shown) == round(1000 + (rated[winner] - 1000) / 2)
    (picture,) = stats.attachments
    assert picture.filename == "stats.png" and picture.data.startswith(b"\x89PNG\r\n\x1a\n")
    assert stats.embeds[0]["image"]["url"] == "attachment://stats.png"
    history = bot.query("SELECT rating FROM rating_history WHERE user_id = ? ORDER BY at", winner)
    assert [row[0] for row in history] == [rated[winner], 1000 + (rated[winner] - 1000) / 2]

    # The server's seasons, offered to whoever types one: the current one first.
    typed = await emulator.autocomplete(
        alice, comptoir, "classement", {"jeu": "mia", "saison": ""}, "saison"
    )
    next_last = first_of_next_month(ends) - timedelta(days=1)
    assert [(c["name"], c["value"]) for c in await typed.autocomplete_choices()] == [
        (f"saison 2 ({day_shown(ends)} – {day_shown(next_last)}), en cours", 2),
        (f"{span}", 1),
    ]

    unknown = await private_answer(emulator, alice, comptoir, "classement", {"saison": 7})
    assert unknown.text == "Saison inconnue : ce serveur a les saisons 1 à 2."

    # The podium is posted once, whatever restarts follow.
    await bot.restart(hard=True)
    await (await emulator.slash(alice, comptoir, "classement")).reply()
    assert len([m for m in emulator.transcript.public(terrasse.id) if PODIUM in m.text]) == 1


async def test_a_season_asked_for_wrongly_is_explained_privately(
    emulator: DiscordEmulator, bot: BotProcess
) -> None:
    alice = emulator.user("alice")
    comptoir = emulator.channel("bar", "comptoir")
    none_yet = await private_answer(emulator, alice, comptoir, "classement", {"saison": 1})
    assert none_yet.text == (
        "Ce serveur n'a pas encore de saison : elle commence avec la première partie comptée."
    )
    both = await private_answer(
        emulator, alice, comptoir, "classement", {"saison": 1, "periode": "mois"}
    )
    assert both.text == "Choisis une période ou une saison, pas les deux."
    patron = emulator.user("patron")
    terrasse = emulator.channel("bar", "terrasse")
    asked = await private_answer(emulator, patron, comptoir, "reglages saison", {"annonces": True})
    assert asked.text == "Choisis d'abord le salon des annonces : /reglages saison salon:…"
    both = await private_answer(
        emulator, patron, comptoir, "reglages saison", {"salon": terrasse, "annonces": False}
    )
    assert both.text == "Choisis un salon pour les annonces ou arrête-les, pas les deux."
    await private_answer(emulator, patron, comptoir, "reglages saison", {"salon": terrasse})
    quiet = await private_answer(emulator, patron, comptoir, "reglages saison", {"annonces": False})
    assert "🏁 Saisons : 1 mois ; podium non annoncé" in quiet.text
    # A bot whose host serves no web page says so, privately.
    web = await private_answer(emulator, patron, comptoir, "reglages web", {"activer": True})
    assert web.text == (
        "La page web n'est pas disponible sur ce bot : la personne qui l'héberge doit lui"
        " donner un port (GOBELET_WEB_PORT) et une adresse (GOBELET_WEB_URL)."
    )
