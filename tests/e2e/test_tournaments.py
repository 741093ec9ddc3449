"""Tournaments through the real bot: ``/tournoi creer``, sign-ups with the button, each
round's matches in their threads with a check-in (the one ping of their players), results
taken from the games' ends, forfeits at a round's deadline, the bracket and standings told
in the channel after every match, the winner announced with an achievement; and a SIGKILL
in the middle of a round loses nothing."""

from __future__ import annotations

import json

import pytest

from bot.storage import open_repository
from tests.e2e.botprocess import BotProcess
from tests.e2e.emulator import DiscordEmulator
from tests.e2e.tournament_driver import (
    CheckIn,
    by_id,
    give_up,
    people,
    places,
    present,
    round_called,
    signed_up,
    started,
    tournament_id,
)
from tests.e2e.world import CREATE_PUBLIC_THREADS, User

# A tournament's minute lasts a second here: a round of ``ronde: 8`` ends 8 s after it opens.
FAST = pytest.mark.bot_env(GOBELET_MINUTE_SECONDS="1")


async def ended(emulator: DiscordEmulator, bot: BotProcess, tournament: int) -> dict:
    """The tournament's stored data once it is over (stored once its end is told)."""
    await emulator.wait_for(
        lambda: stored(bot, tournament)[0] == "over" or None, what="the tournament over"
    )
    return stored(bot, tournament)[1]


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
    # With the bracket's picture: a PNG the embed shows.
    (picture,) = won.attachments
    assert picture.filename == "tableau.png" and picture.data.startswith(b"\x89PNG")
    assert won.embeds[0]["image"]["url"] == "attachment://tableau.png"
    standing = places(won)
    assert standing[:2] == [(1, seeds[1]), (2, seeds[0])]
    assert {player for place, player in standing if place == 3} == {seeds[2], seeds[4]}
    assert len(standing) == 8

    data = await ended(emulator, bot, tournament)
    assert data["tournament"]["status"] == "over"
    held = bot.query("SELECT user_id, code FROM achievements WHERE code = 'yades_tournament'")
    assert held == [(seeds[1], "yades_tournament")]


@FAST
async def test_a_swiss_tournament_of_six_pairs_by_score_never_twice_and_breaks_ties_by_buchholz(
    emulator: DiscordEmulator, bot: BotProcess
) -> None:
    patron = emulator.user("patron")
    comptoir = emulator.channel("bar", "comptoir")
    players = people(emulator, 6)
    known = by_id(players)
    s1, s2, s3, s4, s5, s6 = (p.id for p in players)
    swiss = {"jeu": "yades", "format": "swiss", "ronde": 30}
    tournament, opened = await signed_up(emulator, patron, comptoir, swiss, players)
    assert "Rondes suisses" in opened.text
    await (await emulator.click(patron, opened, label="Lancer")).reply()

    async def play(
        number: int, tables: int, winners: list[int], crash: bool = False
    ) -> list[set[int]]:
        called = await round_called(emulator, tournament, number, tables)
        pairs = [set(c.players) for c in called]
        for index, check_in in enumerate(called):
            await present(emulator, check_in, [known[p] for p in check_in.players])
            await started(emulator, check_in)
            if crash and index == 0:
                await bot.restart()
            (loser,) = set(check_in.players) - set(winners)
            await give_up(emulator, "yades", check_in, known[loser])
        return pairs

    # Round 1 by seed; round 2 by points, then Buchholz; round 3 without a rematch: the
    # pairing the standings give first (s3 v s2) would leave s4 v s6 to meet again.
    assert await play(1, 3, [s1, s3, s5]) == [{s1, s2}, {s3, s4}, {s5, s6}]
    assert await play(2, 3, [s1, s5, s4], crash=True) == [{s1, s3}, {s5, s2}, {s4, s6}]
    assert await play(3, 3, [s5, s3, s2]) == [{s1, s5}, {s3, s6}, {s4, s2}]

    won = await emulator.wait_message(comptoir, containing="remporte le tournoi", timeout=20)
    assert f"<@{s5}>" in won.text
    # s1 and s3 both have 2 points: s1's opponents scored 6, s3's 3 (Buchholz); the same
    # between s2 and s4 on 1 point.
    assert places(won) == [(1, s5), (2, s1), (3, s3), (4, s2), (5, s4), (6, s6)]
    lines = {
        int(p): line
        for line in won.text.splitlines()
        if (p := line.split("<@")[-1].split(">")[0]).isdigit()
    }
    assert "2 pt · Buchholz 6" in lines[s1] and "2 pt · Buchholz 3" in lines[s3]
    assert "3 pt" in lines[s5] and "0 pt" in lines[s6]
    assert f"<@{s1}> · <@{s2}> → <@{s1}>" in won.text  # each match's winner in the bracket
    data = await ended(emulator, bot, tournament)
    assert len(data["tournament"]["rounds"]) == 3


@FAST
async def test_a_menteur_pool_tournament_goes_to_a_final_table_through_a_forfeit_and_a_crash(
    emulator: DiscordEmulator, bot: BotProcess
) -> None:
    patron = emulator.user("patron")
    comptoir = emulator.channel("bar", "comptoir")
    players = people(emulator, 7)
    known = by_id(players)
    s1, s2, s3, s4, s5, s6, s7 = (p.id for p in players)
    pools = {"jeu": "menteur", "format": "pools", "places": 4, "qualifies": 2, "ronde": 8}
    tournament, _ = await signed_up(emulator, patron, comptoir, pools, players)
    await (await emulator.slash(patron, comptoir, "tournoi commencer")).reply()

    # Two pools dealt by seed there and back: 1 4 5 and 2 3 6 7.
    first, second = await round_called(emulator, tournament, 1, 2)
    assert first.players == [s1, s4, s5] and second.players == [s2, s3, s6, s7]
    await present(emulator, first, [known[p] for p in first.players])
    await started(emulator, first)
    await bot.restart()  # a crash in the middle of the pools
    await give_up(emulator, "menteur", first, known[s5])
    await give_up(emulator, "menteur", first, known[s4])
    # Seed 2 never comes: at the deadline it forfeits, and the three others play.
    await present(emulator, second, [known[s3], known[s6], known[s7]])
    forfeit = await emulator.wait_message(comptoir, containing="Forfait", timeout=30)
    assert f"<@{s2}>" in forfeit.text
    late = await (await emulator.click(known[s2], second.message, label="Présent")).reply()
    assert late.ephemeral and "Trop tard" in late.text
    await started(emulator, second)
    await give_up(emulator, "menteur", second, known[s7])
    await give_up(emulator, "menteur", second, known[s6])

    # The final table: the two best of each pool, in seed order.
    (final,) = await round_called(emulator, tournament, 2, 1)
    assert final.players == [s1, s3, s4, s6]
    await present(emulator, final, [known[p] for p in final.players])
    await started(emulator, final)
    for loser in (s1, s4, s6):
        await give_up(emulator, "menteur", final, known[loser])
    won = await emulator.wait_message(comptoir, containing="remporte le tournoi", timeout=20)
    assert f"<@{s3}>" in won.text
    # The final's order, then the pools' thirds (sharing 5th), then the forfeit.
    assert places(won) == [(1, s3), (2, s1), (3, s4), (4, s6), (5, s5), (5, s7), (7, s2)]
    assert (await ended(emulator, bot, tournament))["unsaid"] is None


async def refused(
    emulator: DiscordEmulator,
    user: object,
    channel: object,
    command: str,
    options: dict | None = None,
) -> str:
    answer = await (
        await emulator.slash(user, channel, command, options or {}, locale="fr")
    ).reply()
    assert answer.ephemeral, answer.text
    return answer.text


@FAST
async def test_who_may_organize_and_every_mistake_gets_a_private_answer(
    emulator: DiscordEmulator, bot: BotProcess
) -> None:
    patron, alice, bob, dave = (emulator.user(n) for n in ("patron", "alice", "bob", "dave"))
    comptoir = emulator.channel("bar", "comptoir")
    duel = {"jeu": "yades", "format": "single_elimination"}
    assert "Seuls les membres qui gèrent le serveur" in await refused(
        emulator, alice, comptoir, "tournoi creer", duel
    )
    # The organizers' role: dave holds it, with no permission of his own.
    role = await emulator.add_role("bar", "Organisateurs", 0, dave)
    saved = await (
        await emulator.slash(patron, comptoir, "reglages tournois", {"role": role})
    ).reply()
    assert saved.ephemeral and f"<@&{role.id}>" in saved.text
    assert "ne se joue pas à ce jeu" in await refused(
        emulator, dave, comptoir, "tournoi creer", {"jeu": "yades", "format": "pools"}
    )
    assert "places ne vaut que pour les poules" in await refused(
        emulator, dave, comptoir, "tournoi creer", {**duel, "places": 4}
    )
    assert "Pas de tournoi ouvert dans ce salon" in await refused(
        emulator, dave, comptoir, "tournoi commencer"
    )

    opened = await (await emulator.slash(dave, comptoir, "tournoi creer", duel)).reply()
    assert not opened.ephemeral and f"<@{dave.id}>" in opened.text
    assert "déjà un tournoi" in await refused(emulator, patron, comptoir, "tournoi creer", duel)
    await (await emulator.click(alice, opened, label="S'inscrire")).response()
    off = await (await emulator.click(bob, opened, label="Se désinscrire")).reply()
    assert off.ephemeral and "n'étais pas inscrit" in off.text
    started = await (await emulator.click(bob, opened, label="Lancer", locale="fr")).reply()
    assert started.ephemeral and f"Seul l'organisateur (<@{dave.id}>)" in started.text
    assert "au moins 2 inscrits" in await refused(emulator, dave, comptoir, "tournoi commencer")
    await (await emulator.click(bob, opened, label="S'inscrire")).response()
    await (await emulator.slash(dave, comptoir, "tournoi retirer", {"joueur": bob})).reply()
    await emulator.wait_for(
        lambda: "Inscrits (1)" in emulator.transcript.get(opened.id).text or None,
        what="the sign-ups redrawn without bob",
    )
    assert "ne joue pas dans ce tournoi" in await refused(
        emulator, dave, comptoir, "tournoi retirer", {"joueur": bob}
    )
    back = await (await emulator.click(bob, opened, label="S'inscrire")).reply()
    assert back.ephemeral and "t'a retiré" in back.text  # removed stays removed

    sign_up, tournament = opened.button(label="S'inscrire"), tournament_id(opened)
    cancelled = await (await emulator.slash(patron, comptoir, "tournoi annuler")).reply()
    assert not cancelled.ephemeral and "annulé" in cancelled.text
    await emulator.wait_for(
        lambda: not emulator.transcript.get(opened.id).buttons, what="the sign-ups closed"
    )
    late = await (await emulator.click(bob, opened, sign_up, stale=True)).reply()
    assert late.ephemeral and "terminé ou annulé" in late.text
    assert stored(bot, tournament)[0] == "cancelled"


@FAST
async def test_a_removed_player_leaves_their_table_and_their_opponent_wins(
    emulator: DiscordEmulator, bot: BotProcess
) -> None:
    patron, alice, bob, carol = (emulator.user(n) for n in ("patron", "alice", "bob", "carol"))
    comptoir = emulator.channel("bar", "comptoir")
    tournament, match = await two_player_duel(emulator, [alice, bob])
    intruder = await (
        await emulator.click(carol, match.message, label="Présent", locale="fr")
    ).reply()
    assert intruder.ephemeral and "Ce n'est pas ton match" in intruder.text
    check_in = match.message.button(label="Présent")
    await present(emulator, match, [alice, bob])
    twice = await (await emulator.click(alice, match.message, check_in, stale=True)).reply()
    assert twice.ephemeral and "déjà noté" in twice.text
    await started(emulator, match)
    # Its players may not stop a tournament table: it is played to its end.
    stop = await (await emulator.slash(alice, match.thread, "yades stop")).reply()
    assert stop.ephemeral and "table de tournoi" in stop.text
    await (await emulator.slash(patron, comptoir, "tournoi retirer", {"joueur": bob})).reply()
    won = await emulator.wait_message(comptoir, containing="remporte le tournoi", timeout=20)
    assert f"<@{alice.id}>" in won.text and "(retiré·e)" in won.text
    assert places(won) == [(1, alice.id), (2, bob.id)]
    # No rematch is offered under a tournament's game.
    offered = [m.text for m in emulator.transcript.public(match.thread.id) if m.rematch_offered]
    assert not offered, offered

    # Forgetting a player takes the name they signed up with out of the tournament.
    before = stored(bot, tournament)[1]["names"]
    assert str(alice.id) in before
    asked = await (await emulator.slash(alice, comptoir, "donnees effacer")).reply()
    await (await emulator.click(alice, asked, label="Oui, tout effacer")).response()
    await emulator.wait_for(lambda: not asked.buttons, what="the erasure done")
    assert str(alice.id) not in stored(bot, tournament)[1]["names"]


@FAST
async def test_maya_party_tables_are_stopped_at_the_rounds_deadline_and_ranked_by_sips(
    emulator: DiscordEmulator, bot: BotProcess
) -> None:
    patron = emulator.user("patron")
    comptoir = emulator.channel("bar", "comptoir")
    players = people(emulator, 6)
    s1, s2, s3, s4, s5, s6 = (p.id for p in players)
    known = by_id(players)
    party = {"jeu": "maya", "format": "pools", "places": 3, "ronde": 6}
    tournament, _ = await signed_up(emulator, patron, comptoir, party, players)
    await (await emulator.slash(patron, comptoir, "tournoi commencer")).reply()
    first, second = await round_called(emulator, tournament, 1, 2)
    assert first.players == [s1, s4, s5] and second.players == [s2, s3, s6]
    # The first table plays until the deadline stops it; at the second, seed 6 never
    # comes: at the deadline the two present sit down, and their table, opened after its
    # round's time, is stopped at once.
    await present(emulator, first, [known[p] for p in first.players])
    await started(emulator, first)
    await present(emulator, second, [known[s2], known[s3]])
    forfeit = await emulator.wait_message(comptoir, containing="Forfait", timeout=30)
    assert f"<@{s6}>" in forfeit.text
    await emulator.wait_message(second.thread, containing="🏁", timeout=20)
    # Nobody drank: equal sips, the best seed of each table goes on to the final.
    (final,) = await round_called(emulator, tournament, 2, 1, timeout=30)
    assert final.players == [s1, s2]
    await present(emulator, final, [known[s1], known[s2]])
    await started(emulator, final)
    won = await emulator.wait_message(comptoir, containing="remporte le tournoi", timeout=30)
    assert f"<@{s1}>" in won.text
    assert [p for _, p in places(won)][:2] == [s1, s2]
    assert emulator.transcript.containing("🏁", first.thread.id)


async def two_player_duel(emulator: DiscordEmulator, players: list[User]) -> tuple[int, CheckIn]:
    """A one-round Swiss tournament of two, started by its organizer's button: its id and
    its match's check-in."""
    patron = emulator.user("patron")
    comptoir = emulator.channel("bar", "comptoir")
    duel = {"jeu": "yades", "format": "swiss", "rondes": 1}
    tournament, opened = await signed_up(emulator, patron, comptoir, duel, players)
    await (await emulator.click(patron, opened, label="Lancer")).reply()
    (match,) = await round_called(emulator, tournament, 1, 1)
    return tournament, match


async def test_a_table_a_crash_left_unstarted_is_started_after_the_restart(
    emulator: DiscordEmulator, bot: BotProcess
) -> None:
    """The crash between a match's table being opened (its id kept) and its game started:
    the restarted bot finds that lobby and starts it, rather than open a second one."""
    alice, bob = emulator.user("alice"), emulator.user("bob")
    tournament, match = await two_player_duel(emulator, [alice, bob])
    await bot.kill()
    repository = await open_repository(bot.database_url)
    try:
        found = await repository.tournament(tournament)
        assert found is not None
        data = found.data
        first, second = match.players
        lobby = await repository.create_game(
            guild_id=found.guild_id,
            channel_id=match.thread.id,
            kind="yades",
            meta={
                "starter": first,
                "lang": "fr",
                "rules": data["rules"],
                "players": [first],
                "cpus": {},
                "names": {},
                "timeouts": {},
                "turn_seconds": None,
            },
        )
        data["tables"]["1-1"].update(present=[first, second], game=lobby)
        await repository.save_tournament(tournament, status="running", data=data)
    finally:
        await repository.close()
    await bot.start()
    await started(emulator, match)
    games = bot.query("SELECT id, status FROM games WHERE channel_id = ?", match.thread.id)
    assert games == [(lobby, "active")]  # that lobby, started: no second table
    await give_up(emulator, "yades", match, alice if first == alice.id else bob)
    won = await emulator.wait_message(
        emulator.channel("bar", "comptoir"), containing="remporte le tournoi", timeout=20
    )
    assert f"<@{second}>" in won.text


async def test_the_end_a_crash_left_untold_is_told_after_the_restart(
    emulator: DiscordEmulator, bot: BotProcess
) -> None:
    """The crash between the end stored and told: the restarted bot tells it (the winner
    pinged), and only then is the tournament over."""
    alice, bob = emulator.user("alice"), emulator.user("bob")
    comptoir = emulator.channel("bar", "comptoir")
    tournament, match = await two_player_duel(emulator, [alice, bob])
    await present(emulator, match, [alice, bob])
    await started(emulator, match)
    await give_up(emulator, "yades", match, bob)
    told = await emulator.wait_message(comptoir, containing="remporte le tournoi", timeout=20)
    data = await ended(emulator, bot, tournament)
    await bot.kill()
    # As it was stored just before its end was told.
    repository = await open_repository(bot.database_url)
    try:
        await repository.save_tournament(
            tournament, status="running", data={**data, "status": "running", "unsaid": told.content}
        )
    finally:
        await repository.close()
    await bot.start()
    again = await emulator.wait_message(
        comptoir, containing="remporte le tournoi", where=lambda m: m.id > told.id, timeout=20
    )
    assert again.pings == [alice.id] and again.content == told.content
    after = await ended(emulator, bot, tournament)
    assert after["unsaid"] is None
    assert bot.query("SELECT COUNT(*) FROM achievements WHERE code = 'yades_tournament'") == [(1,)]


@FAST
async def test_without_threads_the_matches_are_played_in_the_channel_one_after_the_other(
    emulator: DiscordEmulator, bot: BotProcess
) -> None:
    patron = emulator.user("patron")
    terrasse = emulator.channel("bar", "terrasse")
    emulator.world.overwrite(terrasse, emulator.world.bot, deny=CREATE_PUBLIC_THREADS)
    players = people(emulator, 4)
    known = by_id(players)
    swiss = {"jeu": "yades", "format": "swiss", "rondes": 1}
    tournament, _ = await signed_up(emulator, patron, terrasse, swiss, players)
    told = await emulator.wait_message(terrasse, containing="l'un après l'autre", user=patron)
    assert told.ephemeral and "Créer des fils publics" in told.text
    await (await emulator.slash(patron, terrasse, "tournoi commencer")).reply()
    first, second = await round_called(emulator, tournament, 1, 2)
    assert first.thread.id == terrasse.id == second.thread.id  # no thread: the channel
    await present(emulator, first, [known[p] for p in first.players])
    await present(emulator, second, [known[p] for p in second.players])
    begun = await emulator.wait_message(terrasse, containing="La partie commence", timeout=20)
    # One table at a time: the second match waits for the first to end.
    assert all(f"<@{p}>" in begun.text for p in first.players)
    await give_up(emulator, "yades", first, known[first.players[1]])
    again = await emulator.wait_message(
        terrasse, containing="La partie commence", where=lambda m: m.id > begun.id, timeout=20
    )
    assert all(f"<@{p}>" in again.text for p in second.players)
    await give_up(emulator, "yades", second, known[second.players[1]])
    won = await emulator.wait_message(terrasse, containing="remporte le tournoi", timeout=20)
    assert f"<@{first.players[0]}>" in won.text
    assert not emulator.guild("bar").threads
