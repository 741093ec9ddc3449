"""Yadès through the real bot: challenges, a duel played with the buttons, the CPU, advice."""

from __future__ import annotations

import copy
import re

import pytest

from tests.e2e.botprocess import BotProcess
from tests.e2e.emulator import DiscordEmulator
from tests.e2e.transcript import Message
from tests.e2e.world import Channel, User

TURN = re.compile(r"🎯 .*?<@(\d+)>")
STEP = re.compile(r"^gob:(\d+):(\d+):")


def table_id(message: Message) -> int:
    return next(int(m.group(1)) for c in message.custom_ids if (m := STEP.match(c)))


def step_of(message: Message) -> int:
    steps = [int(m.group(2)) for c in message.custom_ids if (m := STEP.match(c))]
    return max(steps, default=-1)


class Duel:
    """Plays a Yadès table to the end through its public message."""

    def __init__(self, emulator: DiscordEmulator, channel: Channel, users: list[User]) -> None:
        self.emulator = emulator
        self.channel = channel
        self.users = {user.id: user for user in users}
        self.last = -1
        self.rerolls = 0

    async def table(self) -> Message:
        """The table message once it shows a new decision (or the end)."""

        def ready() -> Message | None:
            for message in reversed(self.emulator.transcript.public(self.channel.id)):
                if "Yadès" not in message.text or not message.embeds:
                    continue
                if not message.table_controls and "🏁" in message.text:
                    return message
                if step_of(message) > self.last and TURN.search(message.text):
                    return message
            return None

        message = await self.emulator.wait_for(ready, what="the next Yadès decision")
        self.last = step_of(message)
        return message

    async def hold_first_and_reroll(self, user: User, message: Message) -> None:
        """Toggle the first die held (the message is redrawn), then re-roll the four others."""
        self.rerolls += 1
        prefix = f"gob:{table_id(message)}:{self.last}:"
        await (await self.emulator.click(user, message, f"{prefix}hold0_0")).response()

        def held() -> Message | None:
            return message if f"{prefix}reroll1" in message.custom_ids else None

        await self.emulator.wait_for(held, what="the first die held")
        assert "🔒" in (message.button(custom_id=f"{prefix}hold1_0").label or "")
        await (await self.emulator.click(user, message, f"{prefix}reroll1")).response()

    async def play(self, *, max_decisions: int = 400) -> Message:
        for _ in range(max_decisions):
            message = await self.table()
            if not message.table_controls:
                return message
            found = TURN.search(message.text)
            assert found is not None
            player = int(found.group(1))
            if player not in self.users:
                continue  # the CPU plays
            user = self.users[player]
            rolls = [b for b in message.buttons if b.custom_id and b.custom_id.endswith(":roll")]
            if rolls:
                await (await self.emulator.click(user, message, rolls[0])).response()
                continue
            reroll = [b for b in message.buttons if ":reroll" in (b.custom_id or "")]
            if reroll and self.rerolls < 6 and self.last % 3 == 1:
                await self.hold_first_and_reroll(user, message)
                continue
            select = message.selects[0]
            await (await self.emulator.choose(user, message, select.values[0], select)).response()
        raise AssertionError("the game did not end")


async def test_two_users_play_a_whole_duel_with_the_buttons_and_the_leaderboard_counts_it(
    emulator: DiscordEmulator, bot: BotProcess
) -> None:
    alice, bob = emulator.user("alice"), emulator.user("bob")
    comptoir = emulator.channel("bar", "comptoir")
    defi = await emulator.slash(alice, comptoir, "yades defi", {"adversaire": bob, "mise": 10})
    challenge = await defi.reply()
    assert not challenge.ephemeral and f"<@{bob.id}>" in challenge.text
    accepted = await emulator.click(bob, challenge, label="Accepter")
    await accepted.response()
    await emulator.wait_for(
        lambda: challenge if "relève le défi" in challenge.text else None, what="accepted"
    )
    duel = Duel(emulator, comptoir, [alice, bob])
    first = await duel.table()
    found = TURN.search(first.text)
    assert found is not None
    # Someone else's click is refused privately, naming whose turn it is.
    other = bob if int(found.group(1)) == alice.id else alice
    refused = await (await emulator.click(other, first, first.buttons[0])).reply()
    assert refused.ephemeral and refused.audience == other.id
    duel.last -= 1  # the same decision again
    end = await duel.play()
    assert "🏁" in end.text
    assert duel.rerolls > 0
    won = emulator.transcript.containing("gagne la partie") + emulator.transcript.containing(
        "Égalité"
    )
    assert won and not won[-1].ephemeral
    summary = await emulator.wait_message(comptoir, containing="face au jeu parfait")
    assert f"<@{alice.id}>" in summary.text and f"<@{bob.id}>" in summary.text
    board = await (
        await emulator.slash(alice, comptoir, "classement", {"jeu": "yades", "critere": "games"})
    ).reply()
    assert f"<@{alice.id}>" in board.text and f"<@{bob.id}>" in board.text
    best = await (
        await emulator.slash(
            alice, comptoir, "classement", {"jeu": "yades", "critere": "best_score"}
        )
    ).reply()
    assert "meilleur score" in best.text and f"<@{alice.id}>" in best.text
    if "Égalité" not in won[-1].text:
        stakes = await (
            await emulator.slash(
                alice, comptoir, "classement", {"jeu": "yades", "critere": "stake_won"}
            )
        ).reply()
        assert "**10**" in stakes.text
        # The duel rating: plain Elo from 1000 each, K = 32.
        rating = await (
            await emulator.slash(
                alice, comptoir, "classement", {"jeu": "yades", "critere": "rating"}
            )
        ).reply()
        assert "**1016**" in rating.text and "**984**" in rating.text


async def test_a_duel_against_the_cpu_with_advice_and_the_sheet(
    emulator: DiscordEmulator, bot: BotProcess
) -> None:
    alice = emulator.user("alice")
    terrasse = emulator.channel("bar", "terrasse")
    started = await emulator.slash(
        alice, terrasse, "yades defi", {"cpu": True, "preset": "classique"}
    )
    assert not (await started.reply()).ephemeral
    duel = Duel(emulator, terrasse, [alice])
    message = await duel.table()
    while int(TURN.search(message.text).group(1)) != alice.id:  # type: ignore[union-attr]
        message = await duel.table()
    await (
        await emulator.click(
            alice,
            message,
            message.button(
                custom_id=f"gob:{STEP.match(message.custom_ids[0])[1]}:{duel.last}:roll"
            ),
        )
    ).response()
    advice = await (await emulator.slash(alice, terrasse, "yades conseil")).reply()
    assert advice.ephemeral and advice.audience == alice.id
    assert "jeu parfait" in advice.text and "coût" in advice.text
    sheet = await (await emulator.slash(alice, terrasse, "yades feuille")).reply()
    assert sheet.ephemeral and "Chance" in sheet.text
    (picture,) = sheet.attachments
    assert picture.filename == "feuille.png" and picture.data.startswith(b"\x89PNG")
    end = await duel.play()
    assert "🏁" in end.text
    summary = await emulator.wait_message(terrasse, containing="face au jeu parfait")
    lost = summary.content[summary.content.index("face au jeu parfait") :]
    assert f"<@{alice.id}>" in lost and "Dédé" not in lost


async def test_a_declined_challenge_and_a_click_from_someone_else(
    emulator: DiscordEmulator, bot: BotProcess
) -> None:
    alice, bob, carol = emulator.user("alice"), emulator.user("bob"), emulator.user("carol")
    comptoir = emulator.channel("bar", "comptoir")
    challenge = await (
        await emulator.slash(alice, comptoir, "yades defi", {"adversaire": bob})
    ).reply()
    intruder = await (await emulator.click(carol, challenge, label="Accepter")).reply()
    assert intruder.ephemeral and intruder.audience == carol.id
    await (await emulator.click(bob, challenge, label="Refuser")).response()
    await emulator.wait_for(
        lambda: challenge if "décline" in challenge.text else None, what="declined"
    )
    assert not challenge.buttons
    # The channel is still free: a lobby opens.
    opened = await (await emulator.slash(alice, comptoir, "yades start")).reply()
    assert "Yadès" in opened.text


async def test_an_expired_challenge_is_refused_politely(
    emulator: DiscordEmulator, bot: BotProcess
) -> None:
    alice, bob = emulator.user("alice"), emulator.user("bob")
    comptoir = emulator.channel("bar", "comptoir")
    challenge = await (
        await emulator.slash(alice, comptoir, "yades defi", {"adversaire": bob})
    ).reply()
    emulator.travel(301)
    late = await (await emulator.click(bob, challenge, label="Accepter")).reply()
    assert late.ephemeral and "expiré" in late.text
    await emulator.wait_for(
        lambda: challenge if "a expiré" in challenge.text else None, what="expired"
    )
    assert not challenge.buttons


async def test_a_challenge_posted_before_a_restart_is_accepted_after_it(
    emulator: DiscordEmulator, bot: BotProcess
) -> None:
    alice, bob = emulator.user("alice"), emulator.user("bob")
    comptoir = emulator.channel("bar", "comptoir")
    challenge = await (
        await emulator.slash(alice, comptoir, "yades defi", {"adversaire": bob, "mise": 10})
    ).reply()
    await bot.restart()
    # Someone else is still told it is not theirs, and the one challenged accepts it.
    intruder = await (await emulator.click("carol", challenge, label="Accepter")).reply()
    assert intruder.ephemeral and f"<@{bob.id}>" in intruder.text
    await (await emulator.click(bob, challenge, label="Accepter")).response()
    await emulator.wait_for(
        lambda: challenge if "relève le défi" in challenge.text else None, what="accepted"
    )
    assert not challenge.buttons
    first = await Duel(emulator, comptoir, [alice, bob]).table()
    assert f"<@{alice.id}>" in first.text and f"<@{bob.id}>" in first.text


async def a_challenge_the_bot_was_down_for(
    emulator: DiscordEmulator, bot: BotProcess, channel: Channel
) -> Message:
    """Alice challenges Bob, then the bot is down past the challenge's five minutes."""
    bob = emulator.user("bob")
    challenge = await (
        await emulator.slash("alice", channel, "yades defi", {"adversaire": bob})
    ).reply()
    await bot.kill()
    emulator.travel(301)
    return challenge


async def expired(emulator: DiscordEmulator, challenge: Message) -> None:
    await emulator.wait_for(
        lambda: challenge if "a expiré" in challenge.text else None, what="expired"
    )


async def test_a_challenge_expires_at_its_time_even_when_the_bot_was_down_then(
    emulator: DiscordEmulator, bot: BotProcess
) -> None:
    bob, comptoir = emulator.user("bob"), emulator.channel("bar", "comptoir")
    challenge = await a_challenge_the_bot_was_down_for(emulator, bot, comptoir)
    accept = challenge.button("Accepter")
    await bot.start()
    await expired(emulator, challenge)
    assert not challenge.buttons
    # A screen not yet redrawn: the click is told the challenge is over.
    late = await (await emulator.click(bob, challenge, accept, stale=True)).reply()
    assert late.ephemeral and "expiré" in late.text


async def test_an_answer_clicked_while_the_challenge_expires_never_starts_the_duel(
    emulator: DiscordEmulator, bot: BotProcess
) -> None:
    bob, comptoir = emulator.user("bob"), emulator.channel("bar", "comptoir")
    challenge = await a_challenge_the_bot_was_down_for(emulator, bot, comptoir)
    accept = challenge.button("Accepter")
    # The expiry fires at once on start; its edit of the message is held on the way, and
    # the one challenged clicks meanwhile.
    held = emulator.hold("PATCH", f"/messages/{challenge.id}")
    await bot.start()
    await emulator.wait_for(lambda: held.path, what="the expiry's edit on its way")
    late = await (await emulator.click(bob, challenge, accept)).reply()
    assert late.ephemeral and "expiré" in late.text, late.text
    held.release()
    await expired(emulator, challenge)
    assert emulator.transcript.table(comptoir.id) is None  # no duel began


async def test_a_lobby_played_with_slash_commands_until_someone_gives_up(
    emulator: DiscordEmulator, bot: BotProcess
) -> None:
    alice, bob = emulator.user("alice"), emulator.user("bob")
    comptoir = emulator.channel("bar", "comptoir")
    await (await emulator.slash(alice, comptoir, "yades start")).reply()
    lobby = await emulator.wait_message(comptoir, where=lambda m: bool(m.buttons))
    await (await emulator.click(bob, lobby, label="Rejoindre")).response()
    await emulator.wait_for(lambda: lobby if f"<@{bob.id}>" in lobby.text else None, what="bob in")
    busy = await (await emulator.slash(bob, comptoir, "maya start")).reply()
    assert busy.ephemeral and "Yadès" in busy.text
    await (await emulator.slash(alice, comptoir, "yades commencer")).response()
    duel = Duel(emulator, comptoir, [alice, bob])
    first = await duel.table()
    found = TURN.search(first.text)
    assert found is not None
    player = emulator.user(int(found.group(1)))
    # A roll keeps the turn: the command is answered privately, the table tells everyone.
    rolled = await (await emulator.slash(player, comptoir, "yades lancer")).reply()
    assert rolled.ephemeral and "lance (1/3)" in rolled.text
    await emulator.wait_for(
        lambda: rolled.content in getattr(emulator.transcript.table(comptoir.id), "content", ""),
        what="the roll told on the table",
    )
    dice = re.findall(r"[⚀⚁⚂⚃⚄⚅](\d)", rolled.text)
    kept = await (await emulator.slash(player, comptoir, "yades garder", {"des": "1 2"})).reply()
    assert kept.ephemeral and "lance (2/3)" in kept.text
    assert re.findall(r"[⚀⚁⚂⚃⚄⚅](\d)", kept.text)[:2] == dice[:2]
    typed = await emulator.autocomplete(player, comptoir, "yades marquer", {"case": ""}, "case")
    choices = await typed.autocomplete_choices()
    assert "chance" in [c["value"] for c in choices]
    scored = await (
        await emulator.slash(player, comptoir, "yades marquer", {"case": "chance"})
    ).reply()
    # The turn passes: the answer is the table's new copy, at the bottom.
    assert not scored.ephemeral and "en Chance" in scored.text and scored.embeds
    gone = await (await emulator.slash(player, comptoir, "yades abandon")).reply()
    assert "quitte la table" in gone.text
    end = await emulator.wait_message(comptoir, containing="🏁 Partie terminée")
    assert not end.table_controls and end.rematch_offered


@pytest.mark.bot_env(GOBELET_TURN_SECONDS="1")
async def test_the_cpu_plays_for_a_player_whose_timer_ran_out(
    emulator: DiscordEmulator, bot: BotProcess
) -> None:
    alice, bob = emulator.user("alice"), emulator.user("bob")
    comptoir = emulator.channel("bar", "comptoir")
    challenge = await (
        await emulator.slash(alice, comptoir, "yades defi", {"adversaire": bob})
    ).reply()
    await (await emulator.click(bob, challenge, label="Accepter")).response()
    late = await emulator.wait_message(comptoir, containing="n'a pas joué à temps")
    assert not late.ephemeral
    # The CPU fills a box for the absent player: their turn is over.
    await emulator.wait_message(
        comptoir, where=lambda m: "marque **" in m.text or "raye la case" in m.text
    )


async def test_a_duel_goes_on_after_a_restart_from_the_same_message(
    emulator: DiscordEmulator, bot: BotProcess
) -> None:
    alice, bob = emulator.user("alice"), emulator.user("bob")
    comptoir = emulator.channel("bar", "comptoir")
    challenge = await (
        await emulator.slash(alice, comptoir, "yades defi", {"adversaire": bob, "mise": 5})
    ).reply()
    await (await emulator.click(bob, challenge, label="Accepter")).response()
    duel = Duel(emulator, comptoir, [alice, bob])
    first = await duel.table()
    found = TURN.search(first.text)
    assert found is not None
    roll = f"gob:{table_id(first)}:{duel.last}:roll"
    await (await emulator.click(int(found.group(1)), first, roll)).response()
    rolled = await duel.table()  # stored with the roll, message id included
    player = int(found.group(1))
    prefix = f"gob:{table_id(rolled)}:{duel.last}:"
    await (await emulator.click(player, rolled, f"{prefix}hold0_2")).response()
    await emulator.wait_for(lambda: f"{prefix}reroll4" in rolled.custom_ids, what="die 3 held")
    dice_before = copy.deepcopy(rolled.embeds)
    await bot.restart()  # SIGKILL in the middle of the turn
    await emulator.wait_message(comptoir, containing="de retour")
    duel.last -= 1
    again = await duel.table()
    assert again.id == rolled.id == first.id
    # Same dice, same rolls left, and the die held before the kill is still held.
    assert again.embeds == dice_before
    assert f"{prefix}reroll4" in again.custom_ids
    assert "🔒" in (again.button(custom_id=f"{prefix}hold4_2").label or "")
    # A button drawn before the restart still works: let go of that die.
    await (await emulator.click(player, again, f"{prefix}hold4_2")).response()
    await emulator.wait_for(lambda: f"{prefix}reroll0" in again.custom_ids, what="die 3 let go")
    duel.last -= 1
    end = await duel.play()
    assert "🏁" in end.text
    board = await (
        await emulator.slash(alice, comptoir, "classement", {"jeu": "yades", "critere": "wins"})
    ).reply()
    assert "victoires" in board.text


async def test_an_english_server_plays_yades_in_english(
    emulator: DiscordEmulator, bot: BotProcess
) -> None:
    carol = emulator.user("carol")
    games = emulator.channel("pub", "games")
    started = await (await emulator.slash(carol, games, "yades defi", {"cpu": True})).reply()
    assert "takes on the CPU" in started.text
    table = await emulator.wait_message(games, containing="🎯")
    assert "pts (0/14 boxes)" in table.text
    refusal = await (
        await emulator.slash(carol, games, "yades garder", {"des": "9"}, locale="en-US")
    ).reply()
    # Before a roll there is nothing to keep; after one, "9" names no die.
    assert refusal.ephemeral
    assert "Roll the dice first" in refusal.text or "Invalid dice to keep" in refusal.text


async def test_a_server_sheet_with_boxes_removed_and_added_is_solved_once_and_used(
    emulator: DiscordEmulator, bot: BotProcess
) -> None:
    carol, alice = emulator.user("carol"), emulator.user("alice")
    comptoir = emulator.channel("bar", "comptoir")
    removed = "as, deux, trois, quatre, cinq, six, brelan, carre, full, petite_suite, grande_suite"
    saved = await emulator.slash(
        carol,
        comptoir,
        "reglages yades",
        {"preset": "yades", "retirer": removed, "ajouter": "paire"},
    )
    answer = await saved.reply()  # after the "thinking" while the new sheet is solved
    assert answer.ephemeral and "petite_suite" in answer.text and "added: paire" in answer.text
    unknown = await emulator.slash(carol, comptoir, "reglages yades", {"ajouter": "licorne"})
    assert (await unknown.reply()).ephemeral
    # The solved table is cached beside the database, not among the shipped ones.
    assert list(bot.database.parent.glob("yades_yades_*.bin"))
    started = await emulator.slash(alice, comptoir, "yades defi", {"cpu": True})
    assert not (await started.reply()).ephemeral
    end = await Duel(emulator, comptoir, [alice]).play()
    assert "🏁" in end.text
    assert "(4/4 cases)" in end.text  # yades, prime_yades, chance, and the added pair


async def test_only_the_starter_or_a_manager_may_stop_a_yades_table(
    emulator: DiscordEmulator, bot: BotProcess
) -> None:
    alice, bob, carol = emulator.user("alice"), emulator.user("bob"), emulator.user("carol")
    comptoir = emulator.channel("bar", "comptoir")
    await (await emulator.slash(alice, comptoir, "yades start")).reply()
    refused = await (await emulator.slash(bob, comptoir, "yades stop")).reply()
    assert refused.ephemeral and refused.audience == bob.id
    assert f"<@{alice.id}>" in refused.text
    stopped = await (await emulator.slash(alice, comptoir, "yades stop")).reply()
    # A lobby stopped: the stopper reads it privately, the lobby message says it.
    assert stopped.ephemeral and "arrête la partie" in stopped.text
    lobby = await emulator.wait_message(comptoir, containing="arrête la partie")
    assert lobby.embeds and not lobby.buttons
    # The channel is free again; a manager may stop a game someone else is playing.
    await (await emulator.slash(alice, comptoir, "yades defi", {"cpu": True})).reply()
    duel = Duel(emulator, comptoir, [alice])
    await duel.table()
    by_manager = await (await emulator.slash(carol, comptoir, "yades stop")).reply()
    assert not by_manager.ephemeral and f"<@{carol.id}>" in by_manager.text
    end = await emulator.wait_message(comptoir, where=lambda m: "🏁" in m.text and bool(m.embeds))
    assert not end.table_controls and end.rematch_offered
    again = await (await emulator.slash(bob, comptoir, "yades start")).reply()
    assert not again.ephemeral


# --------------------------------------------------------------------------- reported defects


def stored_events(bot: BotProcess, kind: str) -> list[dict]:
    import json

    rows = bot.query(
        "SELECT payload_json FROM game_events WHERE type = ? ORDER BY game_id, seq", kind
    )
    return [json.loads(str(row[0])) for row in rows]


def stored_meta(bot: BotProcess) -> dict:
    import json

    (row,) = bot.query("SELECT meta_json FROM games ORDER BY id DESC LIMIT 1")
    return json.loads(str(row[0]))


async def cpu_duel_turn(emulator: DiscordEmulator, channel: Channel, user: User) -> Duel:
    await (await emulator.slash(user, channel, "yades defi", {"cpu": True})).reply()
    duel = Duel(emulator, channel, [user])
    while True:
        message = await duel.table()
        found = TURN.search(message.text)
        if found is not None and int(found.group(1)) == user.id:
            duel.last -= 1  # this decision is still to take
            return duel


async def test_yades_lancer_keeps_the_dice_held_with_the_table_toggles(
    emulator: DiscordEmulator, bot: BotProcess
) -> None:
    alice = emulator.user("alice")
    comptoir = emulator.channel("bar", "comptoir")
    duel = await cpu_duel_turn(emulator, comptoir, alice)
    table = await duel.table()
    await (await emulator.click(alice, table, next(b for b in table.buttons if b.label))).response()
    await emulator.wait_for(lambda: any(":hold" in c for c in table.custom_ids), what="the dice")
    prefix = f"gob:{table_id(table)}:{step_of(table)}:"
    await (await emulator.click(alice, table, f"{prefix}hold0_3")).response()
    await emulator.wait_for(lambda: f"{prefix}hold8_4" in table.custom_ids, what="die 4 held")
    await (await emulator.click(alice, table, f"{prefix}hold8_4")).response()
    await emulator.wait_for(lambda: f"{prefix}reroll24" in table.custom_ids, what="die 5 held")
    held = [b.label for b in table.buttons if ":hold" in (b.custom_id or "")]
    assert [("🔒" in (label or "")) for label in held] == [False, False, False, True, True]
    rolled = await (await emulator.slash(alice, comptoir, "yades lancer")).reply()
    assert rolled.ephemeral and "(2/3)" in rolled.text
    # The second roll kept the dice the toggles held: positions 4 and 5.
    assert stored_events(bot, "rolled")[-1]["kept"] == [3, 4]


async def test_a_reroll_from_a_screen_not_yet_redrawn_does_not_undo_a_held_die(
    emulator: DiscordEmulator, bot: BotProcess
) -> None:
    alice = emulator.user("alice")
    comptoir = emulator.channel("bar", "comptoir")
    duel = await cpu_duel_turn(emulator, comptoir, alice)
    table = await duel.table()
    await (await emulator.click(alice, table, next(b for b in table.buttons if b.label))).response()
    await emulator.wait_for(lambda: any(":hold" in c for c in table.custom_ids), what="the dice")
    prefix = f"gob:{table_id(table)}:{step_of(table)}:"
    reroll = table.button(custom_id=f"{prefix}reroll0")
    await (await emulator.click(alice, table, f"{prefix}hold0_3")).response()
    await emulator.wait_for(lambda: f"{prefix}reroll8" in table.custom_ids, what="die 4 held")
    rolls = len(stored_events(bot, "rolled"))
    late = await (await emulator.click(alice, table, reroll, stale=True)).reply()
    assert late.ephemeral and late.text == "Trop tard : ce bouton date d'un tour déjà joué."
    assert len(stored_events(bot, "rolled")) == rolls  # nothing re-rolled
    await (await emulator.click(alice, table, f"{prefix}reroll8")).response()
    await emulator.wait_for(lambda: len(stored_events(bot, "rolled")) > rolls, what="the re-roll")
    assert stored_events(bot, "rolled")[rolls]["kept"] == [3]


async def test_the_sheet_picture_names_players_by_the_names_they_joined_with(
    emulator: DiscordEmulator, bot: BotProcess
) -> None:
    alice, bob = emulator.user("alice"), emulator.user("bob")
    comptoir = emulator.channel("bar", "comptoir")
    challenge = await (
        await emulator.slash(alice, comptoir, "yades defi", {"adversaire": bob})
    ).reply()
    await (await emulator.click(bob, challenge, label="Accepter")).response()
    await emulator.wait_message(comptoir, containing="La partie commence")
    # Names as Discord gave them with each one's interaction: no members intent is needed.
    assert stored_meta(bot)["names"] == {str(alice.id): "Alice", str(bob.id): "Bob"}
    sheet = await (await emulator.slash(bob, comptoir, "yades feuille")).reply()
    assert sheet.ephemeral and sheet.attachments


async def test_yades_feuille_shows_the_last_game_once_it_is_over(
    emulator: DiscordEmulator, bot: BotProcess
) -> None:
    alice = emulator.user("alice")
    comptoir = emulator.channel("bar", "comptoir")
    await cpu_duel_turn(emulator, comptoir, alice)
    await (await emulator.slash(alice, comptoir, "yades stop")).reply()
    sheet = await (await emulator.slash(alice, comptoir, "yades feuille")).reply()
    assert sheet.ephemeral and sheet.attachments
    assert sheet.embeds and "Feuilles de score" in sheet.text
    await bot.restart()
    again = await (await emulator.slash(alice, comptoir, "yades feuille")).reply()
    assert again.ephemeral and again.attachments


@pytest.mark.parametrize(
    ("command", "hint"),
    [
        (
            "yades feuille",
            "Il n'y a pas de partie de Yadès dans ce salon. Lancez-en une avec /yades start.",
        ),
        (
            "menteur des",
            "Il n'y a pas de partie de dés du menteur dans ce salon. Lancez-en une avec /menteur start.",
        ),
        (
            "maya des",
            "Il n'y a pas de partie de Maya ou de Mia dans ce salon. Lancez-en une avec /maya start.",
        ),
    ],
)
async def test_a_no_game_here_hint_names_the_game_of_the_command(
    emulator: DiscordEmulator, bot: BotProcess, command: str, hint: str
) -> None:
    terrasse = emulator.channel("bar", "terrasse")
    answer = await (await emulator.slash("alice", terrasse, command)).reply()
    assert answer.ephemeral and answer.text == hint


async def test_a_no_game_here_hint_for_english_clients_names_the_english_command(
    emulator: DiscordEmulator, bot: BotProcess
) -> None:
    terrasse = emulator.channel("bar", "terrasse")
    answer = await (await emulator.slash("carol", terrasse, "menteur des")).reply()
    assert answer.text == (
        "There is no Liar's dice game in this channel. Start one with /liarsdice start."
    )


@pytest.mark.parametrize(("game", "seats"), [("yades", 6), ("menteur", 6), ("maya", 10)])
async def test_a_full_table_says_how_many_it_seats(
    emulator: DiscordEmulator, bot: BotProcess, game: str, seats: int
) -> None:
    comptoir = emulator.channel("bar", "comptoir")
    await (await emulator.slash("alice", comptoir, f"{game} start", {"cpu": seats - 1})).reply()
    full = await (await emulator.slash("bob", comptoir, f"{game} rejoindre")).reply()
    assert full.ephemeral and full.text == f"La table est pleine ({seats} joueurs)."


async def test_a_challenge_with_a_negative_stake_is_refused(
    emulator: DiscordEmulator, bot: BotProcess
) -> None:
    comptoir = emulator.channel("bar", "comptoir")
    bob = emulator.user("bob")
    refused = await (
        await emulator.slash(
            "alice", comptoir, "yades defi", {"adversaire": bob, "mise": -1000}, forged=True
        )
    ).reply()
    assert refused.ephemeral and refused.text == "Mise impossible : de 0 à 1000 points."
    assert not [m for m in emulator.transcript.public(comptoir.id) if bob.id in m.pings]


async def test_challenging_the_same_member_again_and_again_pings_them_once(
    emulator: DiscordEmulator, bot: BotProcess
) -> None:
    comptoir = emulator.channel("bar", "comptoir")
    bob = emulator.user("bob")
    first = await (
        await emulator.slash("alice", comptoir, "yades defi", {"adversaire": bob})
    ).reply()
    assert not first.ephemeral and bob.id in first.pings
    for _ in range(7):
        again = await (
            await emulator.slash("alice", comptoir, "yades defi", {"adversaire": bob})
        ).reply()
        assert again.ephemeral and again.text.startswith(f"Tu as déjà défié <@{bob.id}>")
    carol = emulator.user("carol")
    other = await (
        await emulator.slash("alice", comptoir, "yades defi", {"adversaire": carol})
    ).reply()
    assert other.ephemeral and other.text.startswith("Doucement ! Attends encore")
    pinged = [m for m in emulator.transcript.public(comptoir.id) if bob.id in m.pings]
    assert pinged == [first]
