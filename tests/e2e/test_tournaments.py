"""Tournaments through the real bot: ``/tournoi creer``, sign-ups with the button, each
round's matches in their threads with a check-in (the one ping of their players), results
taken from the games' ends, forfeits at a round's deadline, the bracket and standings told
in the channel after every match, the winner announced with an achievement; and a SIGKILL
in the middle of a round loses nothing."""

from __future__ import annotations

import json

import pytest

from tests.e2e.botprocess import BotProcess
from tests.e2e.emulator import DiscordEmulator
from tests.e2e.tournament_driver import (
    by_id,
    give_up,
    people,
    places,
    present,
    round_called,
    started,
    tournament_id,
)

# A tournament's minute lasts a second here: a round of ``ronde: 8`` ends 8 s after it opens.
FAST = pytest.mark.bot_env(GOBELET_MINUTE_SECONDS="1")


def stored(bot: BotProcess, tournament: int) -> tuple[str, dict]:
    ((status, data),) = bot.query(
        "SELECT status, data_json FROM tournaments WHERE id = ?", tournament
    )
    return str(status), json.loads(str(data))


@FAST
async def test_an_eight_player_yades_bracket_is_played_to_its_winner_through_a_forfeit_and_a_crash(
    emulator: DiscordEmulator, bot: BotProcess
) -> None:
    patron = emulator.user("patron")
    comptoir = emulator.channel("bar", "comptoir")
    players = people(emulator, 8)
    known = by_id(players)
    opened = await (
        await emulator.slash(
            patron,
            comptoir,
            "tournoi creer",
            {"jeu": "yades", "format": "single_elimination", "ronde": 8, "inscriptions": 600},
        )
    ).reply()
    assert not opened.ephemeral and "Élimination directe" in opened.text
    tournament = tournament_id(opened)
    for player in players:
        await (await emulator.click(player, opened, label="S'inscrire")).response()
    signed = emulator.transcript.get(opened.id)
    assert "Inscrits (8)" in signed.text
    again = await (await emulator.click(players[0], opened, label="S'inscrire")).reply()
    assert again.ephemeral and "déjà inscrit" in again.text

    await (await emulator.slash(patron, comptoir, "tournoi commencer")).reply()
    await emulator.wait_message(comptoir, containing="commence avec 8 joueurs")

    # Round 1: four duels in four threads, seeded 1 v 8, 4 v 5, 2 v 7, 3 v 6 (equal
    # ratings: the order of sign-up).
    first = await round_called(emulator, tournament, 1, 4)
    seeds = [p.id for p in players]
    assert [c.players for c in first] == [
        [seeds[0], seeds[7]],
        [seeds[3], seeds[4]],
        [seeds[1], seeds[6]],
        [seeds[2], seeds[5]],
    ]
    for check_in in first:
        assert check_in.thread.is_thread and check_in.thread.parent_id == comptoir.id
        assert sorted(check_in.message.pings) == sorted(check_in.players)  # their one ping
    # Table 2: the better seed is absent; the others play, the second seat giving up.
    for check_in in first:
        if check_in.match == "1-2":
            await present(emulator, check_in, [known[check_in.players[1]]])
            continue
        await present(emulator, check_in, [known[p] for p in check_in.players])
        await started(emulator, check_in)
        await give_up(emulator, "yades", check_in, known[check_in.players[1]])
    forfeit = await emulator.wait_message(comptoir, containing="Forfait", timeout=30)
    assert f"<@{seeds[3]}>" in forfeit.text

    # Round 2: 1 v 5 and 2 v 3. A crash once the first table runs.
    second = await round_called(emulator, tournament, 2, 2)
    assert [c.players for c in second] == [[seeds[0], seeds[4]], [seeds[1], seeds[2]]]
    await present(emulator, second[0], [known[p] for p in second[0].players])
    await started(emulator, second[0])
    await present(emulator, second[1], [known[second[1].players[0]]])
    await bot.restart()
    await present(emulator, second[1], [known[second[1].players[1]]])
    await started(emulator, second[1])
    for check_in in second:
        await give_up(emulator, "yades", check_in, known[check_in.players[1]])

    # The final: seed 1 v seed 2; seed 2 wins.
    (final,) = await round_called(emulator, tournament, 3, 1)
    assert final.players == [seeds[0], seeds[1]]
    await present(emulator, final, [known[p] for p in final.players])
    await started(emulator, final)
    await give_up(emulator, "yades", final, known[seeds[0]])
    won = await emulator.wait_message(comptoir, containing="remporte le tournoi", timeout=20)
    assert f"<@{seeds[1]}>" in won.text and won.pings == [seeds[1]]
    standing = places(won)
    assert standing[:2] == [(1, seeds[1]), (2, seeds[0])]
    assert {player for place, player in standing if place == 3} == {seeds[2], seeds[4]}
    assert len(standing) == 8

    status, data = stored(bot, tournament)
    assert status == "over" and data["tournament"]["status"] == "over"
    held = bot.query("SELECT user_id, code FROM achievements WHERE code = 'yades_tournament'")
    assert held == [(seeds[1], "yades_tournament")]
