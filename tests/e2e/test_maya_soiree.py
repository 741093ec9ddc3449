"""A Maya party (``soiree``) among three friends, end to end, through buttons and commands.

Dice are random (seeded for reproducibility), so the tests drive the game adaptively:
they read each player's private dice and choose the moves that reach the situation
under test (a real Maya, a Warrior's success …), within a bound. Every sip and glass is
checked in the public table embed against what docs/rules.md#maya says the move costs.
"""

from __future__ import annotations

import pytest

from tests.e2e.botprocess import BotProcess
from tests.e2e.emulator import DiscordEmulator
from tests.e2e.maya_driver import (
    MayaDriver,
    Turn,
    announcement_shown,
    audience_problems,
    dice_in,
    direction_arrow,
    lines_since,
    mark,
    panel_click,
    public_dice_leaks,
    rank,
    seat_order,
    tallies,
    wait_line,
)
from tests.e2e.transcript import Message
from tests.e2e.world import ADD_REACTIONS, MANAGE_MESSAGES, User

pytestmark = pytest.mark.bot_env(GOBELET_DICE_SEED="20260")

NEIGHBOURS = {pip: {o for o in range(1, 7) if o not in (pip, 7 - pip)} for pip in range(1, 7)}
BLIND_FR = "🙈 Tu n'as pas regardé tes dés."


class Party:
    """Three friends at one table in `bar`/#comptoir, and what the table must show."""

    def __init__(self, emulator: DiscordEmulator, names: tuple[str, ...]) -> None:
        self.emulator = emulator
        self.channel = emulator.channel("bar", "comptoir")
        self.driver = MayaDriver(emulator, self.channel)
        self.people = [emulator.user(name) for name in names]
        self.users = {user.id: user for user in self.people}
        self.expected = {user.id: (0, 0) for user in self.people}  # sips, glasses

    @property
    def table(self) -> Message:
        assert self.driver.table is not None
        return self.driver.table

    def turn(self) -> Turn:
        return self.driver.turn()

    async def start(self) -> Turn:
        starter, *others = self.people
        opened = await self.emulator.slash(starter, self.channel, "maya start")
        assert not (await opened.reply()).ephemeral
        await self.driver.find_table()
        for user in others:
            await self.driver.click(user, "join")
            await self.emulator.wait_for(
                lambda who=user: f"<@{who.id}>" in self.table.text, what=f"{user.name} seated"
            )
        await self.driver.click(starter, "start")
        return await self.settle(-1, "open")

    async def settle(self, after: int, phase: str) -> Turn:
        """The table once it moved past step ``after`` to a human's ``phase``."""

        def ready() -> Turn | None:
            turn = self.driver.turn()
            return turn if turn.step > after and turn.phase == phase and turn.player else None

        return await self.emulator.wait_for(ready, what=f"the {phase} phase after step {after}")

    def next_of(self, player: int) -> int:
        order = seat_order(self.table)
        step = 1 if direction_arrow(self.table) == "↻" else -1
        return order[(order.index(player) + step) % len(order)]

    def drinks(self, player: int, *, sips: int = 0, glasses: int = 0) -> None:
        had_sips, had_glasses = self.expected[player]
        self.expected[player] = (had_sips + sips, had_glasses + glasses)

    def check_tallies(self) -> None:
        assert tallies(self.table) == self.expected, self.table.text

    # ---- moves

    async def roll(self, action: str = "roll") -> tuple[User, Message, Turn]:
        """The opener rolls (button ``action``); returns them, their private panel, the turn."""
        turn = self.turn()
        assert turn.phase == "open" and action in turn.actions, turn
        user = self.users[turn.player]
        panel = await self.driver.click(user, action)
        assert panel is not None and panel.ephemeral and panel.audience == user.id
        return user, panel, await self.settle(turn.step, "announce")

    async def believe(self, action: str = "believe") -> tuple[User, Message, Turn]:
        turn = self.turn()
        assert turn.phase == "respond" and action in turn.actions, turn
        user = self.users[turn.player]
        panel = await self.driver.click(user, action)
        assert panel is not None and panel.ephemeral and panel.audience == user.id
        return user, panel, await self.settle(turn.step, "announce")

    async def announce(self, user: User, panel: Message, value: str) -> Turn:
        step = self.turn().step
        await self.driver.announce(user, panel, value)
        phase = "maya" if value == "21" else "respond"
        turn = await self.settle(step, phase)
        assert turn.player == self.next_of(user.id)
        return turn

    async def respond(self, action: str) -> tuple[User, Turn]:
        """The responder lifts / goes Fragile / Warrior; returns them and the next opening."""
        turn = self.turn()
        assert action in turn.actions, turn
        user = self.users[turn.player]
        await self.driver.click(user, action)
        return user, await self.settle(turn.step, "open")


def lowest(driver: MayaDriver, panel: Message) -> str:
    values = [v for v in driver.menu_values(panel) if v != "photo"]
    return values[-1]


def kept_secrets_and_calm(party: Party, bot: BotProcess) -> None:
    """No die shown publicly before the rules reveal it, every private answer to the right
    person, and nothing unexpected in the bot's log."""
    assert public_dice_leaks(party.emulator.transcript, party.channel.id) == []
    assert audience_problems(party.emulator) == []
    log = bot.log()
    assert "Traceback" not in log and " ERROR " not in log, log[-4000:]


async def offered(
    emulator: DiscordEmulator, user: User, channel_name: str = "comptoir"
) -> list[str]:
    """The values ``/maya annoncer valeur:`` suggests to ``user`` right now."""
    channel = emulator.channel("bar", channel_name)
    typed = await emulator.autocomplete(user, channel, "maya annoncer", {"valeur": ""}, "valeur")
    return [choice["value"] for choice in await typed.autocomplete_choices()]


# --------------------------------------------------------------------------- Photo, blind plays


async def test_photo_and_the_blind_plays(emulator: DiscordEmulator, bot: BotProcess) -> None:
    party = Party(emulator, ("alice", "bob", "patron"))
    comptoir = party.channel
    driver = party.driver
    await party.start()
    party.check_tallies()
    assert "roll_reverse" not in party.turn().actions  # only after a Maya

    # ---- Photo: not as opener, accepted on an announcement, not right after a Photo.
    opener, panel, _ = await party.roll()
    assert "photo" not in driver.menu_values(panel)
    assert "photo" not in await offered(emulator, opener)
    refused = await (
        await emulator.slash(opener, comptoir, "maya annoncer", {"valeur": "photo"})
    ).reply()
    assert refused.ephemeral and refused.audience == opener.id
    assert refused.text == "Photo impossible : personne n'a encore annoncé dans cette manche."
    await party.announce(opener, panel, "31")

    since = mark(emulator)
    photographer, panel, _ = await party.believe()
    photo = next(o for o in panel.selects[0].options if o["value"] == "photo")
    assert photo["label"] == "📸 Photo (31)"
    assert "photo" in await offered(emulator, photographer)
    turn = await party.announce(photographer, panel, "photo")
    line = await wait_line(emulator, comptoir, "annonce **Photo**", since=since)
    assert line == f"📸 <@{photographer.id}> annonce **Photo** → à <@{turn.player}>."
    assert announcement_shown(party.table) == f"📸 **31** — <@{photographer.id}>"

    after_photo, panel, _ = await party.believe()
    assert "photo" not in driver.menu_values(panel)
    assert "photo" not in await offered(emulator, after_photo)
    refused = await (
        await emulator.slash(after_photo, comptoir, "maya annoncer", {"valeur": "photo"})
    ).reply()
    assert refused.ephemeral and refused.text == "Pas de Photo juste après une Photo."
    too_low = await (
        await emulator.slash(after_photo, comptoir, "maya annoncer", {"valeur": "31"})
    ).reply()
    assert too_low.ephemeral and too_low.text.startswith("Annonce trop basse : il faut au moins 32")
    ((_, _, value),) = dice_in(panel.text)
    await party.announce(after_photo, panel, "32")

    # The opener lifts: the real dice decide.
    since = mark(emulator)
    lifter, _ = await party.respond("lift")
    line = await wait_line(emulator, comptoir, "soulève", since=since)
    truthful = rank(value) >= rank(32)
    assert ("**vrai**" in line) == truthful and dice_in(line)[0][2] == value
    party.drinks(lifter.id if truthful else after_photo.id, sips=1)
    party.check_tallies()

    # A Photo lifted: it stands for the value it copied.
    opener, panel, _ = await party.roll()
    ((_, _, value),) = dice_in(panel.text)
    copied = value if value != 21 else 31  # no Photo on a Maya: copy something else
    await party.announce(opener, panel, str(copied))
    photographer, panel, _ = await party.believe()
    ((_, _, photo_value),) = dice_in(panel.text)
    await party.announce(photographer, panel, "photo")
    since = mark(emulator)
    lifter, _ = await party.respond("lift")
    line = await wait_line(emulator, comptoir, "soulève", since=since)
    truthful = rank(photo_value) >= rank(copied)
    verdict = "**vrai**" if truthful else "**du bluff**"
    assert f"avait annoncé {copied} (Photo), c'était {verdict}" in line, line
    party.drinks(lifter.id if truthful else photographer.id, sips=1)
    party.check_tallies()

    # ---- À l'aveugle: roll blind, then believe blind.
    since = mark(emulator)
    blind_opener, panel, _ = await party.roll("roll_blind")
    assert panel.text.startswith(BLIND_FR) and dice_in(panel.text) == []
    assert not any(c.split(":")[-1] in ("tap0", "tap1", "second_chance") for c in panel.custom_ids)
    assert f"🙈 <@{blind_opener.id}> secoue le gobelet et ne regarde pas." in lines_since(
        emulator, comptoir, since
    )
    turn = await party.announce(blind_opener, panel, lowest(driver, panel))
    line = await wait_line(emulator, comptoir, f"<@{blind_opener.id}> annonce", since=since)
    assert line == f"📣 <@{blind_opener.id}> annonce **31** (à l'aveugle) → à <@{turn.player}>."

    since = mark(emulator)
    blind_believer, panel, _ = await party.believe("believe_blind")
    assert panel.text.startswith(BLIND_FR) and dice_in(panel.text) == []
    assert (
        f"🤝 <@{blind_believer.id}> croit <@{blind_opener.id}> et relance, à l'aveugle 🙈."
        in lines_since(emulator, comptoir, since)
    )
    await party.announce(blind_believer, panel, "32")
    line = await wait_line(emulator, comptoir, f"<@{blind_believer.id}> annonce", since=since)
    assert "**32** (à l'aveugle)" in line

    # ---- Tapote: look, tap one die without looking again, announce blind.
    since = mark(emulator)
    tapper, panel, _ = await party.believe()
    ((first, second, _),) = dice_in(panel.text)
    labels = {b.custom_id.split(":")[-1]: b.label for b in panel.buttons}
    faces = "⚀⚁⚂⚃⚄⚅"
    assert labels["tap0"] == f"Tapoter {faces[first - 1]}"
    assert labels["tap1"] == f"Tapoter {faces[second - 1]}"
    before = panel.text.splitlines()[0].removeprefix("🎲 Tes dés : ")
    await panel_click(emulator, tapper, panel, "tap0")
    await emulator.wait_for(lambda: panel.text.startswith("👆"), what="the tapped panel")
    assert panel.text.startswith(
        f"👆 Tu as tapoté un dé sans regarder : tu ne sais pas où il est tombé. Avant : {before}"
    )
    assert not any(c.split(":")[-1] in ("tap0", "tap1", "second_chance") for c in panel.custom_ids)
    await party.announce(tapper, panel, "41")
    told = lines_since(emulator, comptoir, since)
    assert f"👆 <@{tapper.id}> tapote le gobelet sans regarder…" in told
    assert any(f"<@{tapper.id}> annonce **41** (à l'aveugle)" in line for line in told), told

    since = mark(emulator)
    lifter, _ = await party.respond("lift")
    line = await wait_line(emulator, comptoir, "soulève", since=since)
    ((tapped, untouched, revealed),) = dice_in(line)
    assert untouched == second, "the other die does not move"
    assert tapped == first or tapped in NEIGHBOURS[first], "a tapped die tips to a neighbour"
    truthful = rank(revealed) >= rank(41)
    assert ("**vrai**" in line) == truthful
    party.drinks(lifter.id if truthful else tapper.id, sips=1)
    party.check_tallies()

    # ---- Seconde chance: look, re-roll both without looking, announce blind.
    since = mark(emulator)
    shaker, panel, _ = await party.roll()
    before = panel.text.splitlines()[0].removeprefix("🎲 Tes dés : ")
    await panel_click(emulator, shaker, panel, "second_chance")
    await emulator.wait_for(lambda: panel.text.startswith("🔁"), what="the re-rolled panel")
    assert panel.text.startswith(f"🔁 Tu as relancé sans regarder. Avant : {before}")
    turn = await party.announce(shaker, panel, "54")
    told = lines_since(emulator, comptoir, since)
    assert f"🔁 <@{shaker.id}> secoue une seconde fois, sans regarder." in told
    assert f"📣 <@{shaker.id}> annonce **54** (à l'aveugle) → à <@{turn.player}>." in told
    since = mark(emulator)
    lifter, _ = await party.respond("lift")
    line = await wait_line(emulator, comptoir, "soulève", since=since)
    ((_, _, revealed),) = dice_in(line)
    truthful = rank(revealed) >= rank(54)
    assert ("**vrai**" in line) == truthful
    party.drinks(lifter.id if truthful else shaker.id, sips=1)
    party.check_tallies()
    kept_secrets_and_calm(party, bot)


# --------------------------------------------------------------------------- Maya episodes


async def test_maya_lifted_fragile_warrior_and_the_direction_reversal(
    emulator: DiscordEmulator, bot: BotProcess
) -> None:
    party = Party(emulator, ("alice", "bob", "patron"))
    comptoir = party.channel
    await party.start()
    seen: set[str] = set()
    wanted = {
        "real maya lifted",
        "bluffed maya lifted",
        "fragile",
        "warrior success",
        "warrior failure",
        "reversed by button",
        "reversed by command",
    }
    for _episode in range(200):
        if seen >= wanted:
            break
        turn = party.turn()
        assert turn.phase == "open", turn
        opener = party.users[turn.player]
        since = mark(emulator)

        # ---- the opening: the Maya's receiver may reverse the direction first.
        arrow = direction_arrow(party.table)
        ahead, behind = party.next_of(opener.id), None
        if "roll_reverse" in turn.actions and "reversed by button" not in seen:
            behind = ahead
            label = next(b.label for b in party.table.buttons if b.custom_id.endswith("reverse"))
            assert label == "Inverser le sens et lancer"
            _, panel, _ = await party.roll("roll_reverse")
            seen.add("reversed by button")
        elif "roll_reverse" in turn.actions and "reversed by command" not in seen:
            behind = ahead
            command = await emulator.slash(opener, comptoir, "maya lancer", {"inverser": True})
            panel = await command.reply()
            assert panel.ephemeral and panel.audience == opener.id
            await party.settle(turn.step, "announce")
            seen.add("reversed by command")
        else:
            _, panel, _ = await party.roll()
        if behind is not None:
            assert f"🔄 <@{opener.id}> inverse le sens du jeu." in lines_since(
                emulator, comptoir, since
            )
            assert direction_arrow(party.table) == ("↺" if arrow == "↻" else "↻")
            assert party.next_of(opener.id) != behind, "the other neighbour plays next"
        else:
            assert direction_arrow(party.table) == arrow

        # ---- Maya announced (true or bluffed): the next player must answer it.
        ((_, _, value),) = dice_in(panel.text)
        if value == 21 and "real maya lifted" not in seen:
            plan = "real maya lifted"
        elif value != 21 and "bluffed maya lifted" not in seen:
            plan = "bluffed maya lifted"
        elif "fragile" not in seen:
            plan = "fragile"
        else:
            plan = "warrior"
        assert "21" in party.driver.menu_values(panel)
        turn = await party.announce(opener, panel, "21")
        receiver = party.users[turn.player]
        assert receiver.id == party.next_of(opener.id)
        if behind is not None:
            assert receiver.id != behind
        told = lines_since(emulator, comptoir, since)
        assert f"🔥 <@{opener.id}> annonce **MAYA** (21) ! → <@{receiver.id}>" in told, told
        # Nothing beats a Maya and there is no Photo on one: lift, Fragile or Warrior only.
        assert sorted(a for a in turn.actions if a != "join") == ["fragile", "lift", "warrior"]
        assert announcement_shown(party.table) == f"**MAYA (21)** — <@{opener.id}>"
        refused = await (
            await emulator.slash(receiver, comptoir, "maya annoncer", {"valeur": "photo"})
        ).reply()
        assert refused.ephemeral and refused.audience == receiver.id
        # What is possible instead, as the table's buttons name it.
        assert refused.text == (
            "Pas maintenant. Ce que tu peux faire : Soulever, Fragile (1 gorgée), Warrior."
        )
        assert await offered(emulator, receiver) == []

        since = mark(emulator)
        if plan in ("real maya lifted", "bluffed maya lifted"):
            _, turn = await party.respond("lift")
            line = await wait_line(emulator, comptoir, "soulève", since=since)
            assert dice_in(line)[0][2] == value
            loser = receiver if value == 21 else opener
            assert ("**vrai**" in line) == (value == 21), line
            party.drinks(loser.id, glasses=1)
            seen.add(plan)
        elif plan == "fragile":
            _, turn = await party.respond("fragile")
            told = lines_since(emulator, comptoir, since)
            assert f"🙇 <@{receiver.id}> croit le Maya et se soumet (Fragile)." in told
            assert f"🍺 <@{receiver.id}> prend 1 gorgée." in told
            loser = receiver
            party.drinks(receiver.id, sips=1)
            seen.add(plan)
        else:
            verifier = party.next_of(receiver.id)
            _, turn = await party.respond("warrior")
            line = await wait_line(emulator, comptoir, f"⚔️ <@{receiver.id}> lance", since=since)
            # The Warrior's roll is public by the rules: its dice are in the line.
            ((_, _, rolled),) = dice_in(line)
            success = rolled == 21
            if success:
                assert line.endswith(f"**MAYA** ! <@{verifier}> vérifie et boit."), line
                loser = party.users[verifier]
            else:
                assert line.endswith(f"pas de Maya, <@{verifier}> a vérifié."), line
                loser = receiver
            party.drinks(loser.id, glasses=1)
            seen.add("warrior success" if success else "warrior failure")

        # Whatever happened, the Maya's receiver opens and may reverse the direction.
        told = lines_since(emulator, comptoir, since)
        if plan != "fragile":
            assert f"🥃 <@{loser.id}> boit son verre cul sec !" in told, told
        assert f"➡️ <@{receiver.id}> ouvre la manche suivante et peut inverser le sens." in told, (
            told
        )
        assert turn.player == receiver.id and "roll_reverse" in turn.actions
        party.check_tallies()
    missing = wanted - seen
    assert not missing, f"not reached in 200 Maya episodes: {missing}"
    kept_secrets_and_calm(party, bot)


# --------------------------------------------------------------------------- faute de jeu


async def test_faute_de_jeu_accepted_voted_guilty_appealed_and_acquitted_on_a_tie(
    emulator: DiscordEmulator, bot: BotProcess
) -> None:
    party = Party(emulator, ("alice", "bob", "patron"))
    comptoir = party.channel
    alice, bob, patron = party.people
    await party.start()

    async def accuse(accuser: User, accused: User, motive: str) -> Message:
        answer = await emulator.slash(
            accuser, comptoir, "faute", {"joueur": accused, "motif": motive}
        )
        message = await answer.reply()
        assert not message.ephemeral
        assert message.content == (
            f"⚖️ <@{accuser.id}> accuse <@{accused.id}> de **faute de jeu** : « {motive} »"
        )
        # The accused is named, not pinged: the only ping is the turn's.
        assert message.pings == [] and f"<@{accused.id}>" in message.content
        assert sorted(b.label for b in message.buttons) == ["Accepter", "Contester"]
        return message

    async def press(user: User, message: Message, label: str) -> None:
        await (await emulator.click(user, message, label=label)).response()

    # ---- accepted: one sip.
    since = mark(emulator)
    accusation = await accuse(alice, bob, "26 au lieu de 62")
    wrong = await (await emulator.click(patron, accusation, label="Accepter")).reply()
    assert wrong.ephemeral and wrong.text == "Impossible : cette accusation ne t'attend pas."
    await press(bob, accusation, "Accepter")
    await wait_line(emulator, comptoir, "reconnaît la faute", since=since)
    told = lines_since(emulator, comptoir, since)
    assert f"⚖️ <@{bob.id}> reconnaît la faute." in told
    assert f"🍺 <@{bob.id}> prend 1 gorgée." in told
    party.drinks(bob.id, sips=1)
    await emulator.wait_for(lambda: tallies(party.table) == party.expected, what="bob's sip")
    await emulator.wait_for(lambda: not accusation.buttons, what="the accusation settled")

    # ---- contested, voted guilty by the majority, appealed: rejected, no extra sip.
    since = mark(emulator)
    accusation = await accuse(bob, patron, "dés mal secoués")
    await press(patron, accusation, "Contester")
    await wait_line(emulator, comptoir, f"⚖️ <@{patron.id}> conteste !", since=since)
    await emulator.wait_for(
        lambda: accusation.reacted("✅") and accusation.reacted("❌"), what="the vote reactions"
    )
    await emulator.react(patron, accusation, "❌")  # the accused does not vote
    await emulator.react(alice, accusation, "✅")
    await emulator.react(bob, accusation, "✅")
    line = await wait_line(emulator, comptoir, "Verdict", since=since)
    assert (
        line == f"⚖️ Verdict : <@{patron.id}> est **coupable** (✅ coupable : 2, ❌ innocent : 0)."
    )
    await wait_line(emulator, comptoir, f"🍺 <@{patron.id}> prend 1 gorgée.", since=since)
    party.drinks(patron.id, sips=1)
    await emulator.wait_for(lambda: tallies(party.table) == party.expected, what="the sip")
    await emulator.wait_for(
        lambda: [b.label for b in accusation.buttons] == ["Faire appel"], what="the appeal"
    )
    since = mark(emulator)
    await press(patron, accusation, "Faire appel")
    line = await wait_line(emulator, comptoir, "fait appel", since=since)
    assert line == f"⚖️ <@{patron.id}> fait appel… **Appel rejeté.** (Comme toujours.)"
    await emulator.wait_for(lambda: not accusation.buttons, what="the appeal settled")
    assert not any("🍺" in line for line in lines_since(emulator, comptoir, since))
    party.check_tallies()

    # ---- contested, a tie: acquitted, no sip.
    since = mark(emulator)
    accusation = await accuse(patron, alice, "a regardé sous le gobelet")
    await press(alice, accusation, "Contester")
    await emulator.wait_for(
        lambda: accusation.reacted("✅") and accusation.reacted("❌"), what="the vote reactions"
    )
    await emulator.react(bob, accusation, "✅")
    await emulator.react(patron, accusation, "❌")
    line = await wait_line(emulator, comptoir, "Verdict", since=since)
    assert (
        line
        == f"⚖️ Verdict : <@{alice.id}> est **acquitté·e** (✅ coupable : 1, ❌ innocent : 1 ; l'égalité acquitte)."
    )
    await emulator.wait_for(lambda: not accusation.buttons, what="no appeal after an acquittal")
    assert not any("🍺" in line for line in lines_since(emulator, comptoir, since))
    party.check_tallies()
    assert party.expected == {alice.id: (0, 0), bob.id: (1, 0), patron.id: (1, 0)}
    kept_secrets_and_calm(party, bot)


async def votes_shown(emulator: DiscordEmulator, accusation: Message, tally: str) -> None:
    """The accusation's own tally reads ``tally`` ("1 vote sur 2")."""
    await emulator.wait_for(lambda: f"({tally})" in accusation.content, what=f"the tally {tally!r}")


async def contested(party: Party, accuser: User, accused: User) -> Message:
    """``accuser`` accuses ``accused``, who contests: the accusation, open to the vote."""
    emulator = party.emulator
    options = {"joueur": accused, "motif": "triche"}
    accusation = await (await emulator.slash(accuser, party.channel, "faute", options)).reply()
    await (await emulator.click(accused, accusation, label="Contester")).response()
    await emulator.wait_for(
        lambda: accusation.reacted("✅") and accusation.reacted("❌"), what="the vote reactions"
    )
    return accusation


async def test_a_motive_shows_as_typed_on_the_accusation_through_its_vote(
    emulator: DiscordEmulator, bot: BotProcess
) -> None:
    party = Party(emulator, ("alice", "bob", "patron"))
    alice, bob, _ = party.people
    await party.start()
    options = {"joueur": bob, "motif": "*dés* pipés __exprès__"}
    accusation = await (await emulator.slash(alice, party.channel, "faute", options)).reply()
    typed = "\\*dés\\* pipés \\_\\_exprès\\_\\_"  # markdown shown, not applied
    assert typed in accusation.content
    await (await emulator.click(bob, accusation, label="Contester")).response()
    # Redrawn with its vote, the accusation still shows the motive as it was typed.
    await emulator.wait_for(lambda: "Votez ici" in accusation.content, what="the vote open")
    assert typed in accusation.content


async def test_a_changed_or_withdrawn_vote_counts_as_it_stands_when_the_vote_closes(
    emulator: DiscordEmulator, bot: BotProcess
) -> None:
    # docs/rules.md#maya-faute: Bob accuses Patron, who contests; Alice votes ✅, takes it
    # back, votes ❌;
    # Bob votes ✅. One each: a tie, which acquits.
    party = Party(emulator, ("alice", "bob", "patron"))
    comptoir = party.channel
    alice, bob, patron = party.people
    await party.start()
    since = mark(emulator)
    accusation = await contested(party, bob, patron)
    # The vote is cast on the accusation, which says so with its closing time; its tally
    # is edited, no message is posted per vote.
    assert "Votez ici" in accusation.content and "fin du vote <t:" in accusation.content
    posted = len(emulator.transcript.public(comptoir.id))
    await emulator.react(alice, accusation, "✅")
    await votes_shown(emulator, accusation, "1 vote sur 2")
    await emulator.unreact(alice, accusation, "✅")
    await votes_shown(emulator, accusation, "0 vote sur 2")
    assert len(emulator.transcript.public(comptoir.id)) == posted
    await emulator.react(alice, accusation, "❌")
    await emulator.react(bob, accusation, "✅")
    line = await wait_line(emulator, comptoir, "Verdict", since=since)
    assert (
        line
        == f"⚖️ Verdict : <@{patron.id}> est **acquitté·e** (✅ coupable : 1, ❌ innocent : 1 ; l'égalité acquitte)."
    )
    assert not any("🍺" in text for text in lines_since(emulator, comptoir, since))
    # What the message shows is what was counted: the bot's own reactions are gone.
    await emulator.wait_for(
        lambda: accusation.reacted("✅") == [bob.id] and accusation.reacted("❌") == [alice.id],
        what="the counted votes alone on the message",
    )
    party.check_tallies()
    kept_secrets_and_calm(party, bot)


async def test_a_voter_who_reacts_both_ways_counts_as_their_later_reaction(
    emulator: DiscordEmulator, bot: BotProcess
) -> None:
    party = Party(emulator, ("alice", "bob", "patron"))
    comptoir = party.channel
    alice, bob, patron = party.people
    await party.start()
    since = mark(emulator)
    accusation = await contested(party, alice, bob)
    await emulator.react(bob, accusation, "❌")  # the accused: no vote, taken off
    await emulator.wait_for(lambda: bob.id not in accusation.reacted("❌"), what="bob's taken off")
    await emulator.react(patron, accusation, "✅")
    await emulator.react(patron, accusation, "❌")  # changes his mind: the ✅ is taken off
    await emulator.wait_for(
        lambda: patron.id not in accusation.reacted("✅"), what="patron's earlier reaction off"
    )
    await emulator.react(alice, accusation, "✅")
    line = await wait_line(emulator, comptoir, "Verdict", since=since)
    assert (
        line
        == f"⚖️ Verdict : <@{bob.id}> est **acquitté·e** (✅ coupable : 1, ❌ innocent : 1 ; l'égalité acquitte)."
    )
    kept_secrets_and_calm(party, bot)


async def test_without_manage_messages_a_reaction_that_is_no_vote_is_left_and_never_tried(
    emulator: DiscordEmulator, bot: BotProcess
) -> None:
    bar = emulator.world.guild("bar")
    role = next(r for r in bar.roles if r.name == emulator.world.bot.name)
    role.permissions &= ~MANAGE_MESSAGES
    party = Party(emulator, ("alice", "bob", "patron"))
    comptoir = party.channel
    alice, bob, patron = party.people
    await party.start()
    since = mark(emulator)
    accusation = await contested(party, alice, bob)
    for emoji in ("❌", "✅"):  # the accused: no vote, and the bot may not take it off
        await emulator.react(bob, accusation, emoji)
    await emulator.unreact(bob, accusation, "❌")
    await emulator.react(bob, accusation, "❌")
    await emulator.react(patron, accusation, "✅")
    await emulator.react(alice, accusation, "✅")
    line = await wait_line(emulator, comptoir, "Verdict", since=since)
    assert line.startswith(
        f"⚖️ Verdict : <@{bob.id}> est **coupable** (✅ coupable : 2, ❌ innocent : 0)"
    )
    assert bob.id in accusation.reacted("❌") and bob.id in accusation.reacted("✅")
    # Known from the accusation's own interaction: never tried, so never refused.
    tried = [c for c in emulator.calls if c.method == "DELETE" and c.path.endswith(f"/{bob.id}")]
    assert tried == [] and [c for c in emulator.http_errors if c.status == 403] == []
    kept_secrets_and_calm(party, bot)


async def test_without_add_reactions_the_vote_goes_on_by_voters_reactions_and_its_opener_knows(
    emulator: DiscordEmulator, bot: BotProcess
) -> None:
    party = Party(emulator, ("alice", "bob", "patron"))
    comptoir = party.channel
    alice, bob, patron = party.people
    await party.start()
    # Taken away once the table runs (its opener was told nothing then).
    emulator.world.overwrite(comptoir, emulator.world.bot, deny=ADD_REACTIONS)
    since = mark(emulator)
    options = {"joueur": bob, "motif": "triche"}
    accusation = await (await emulator.slash(alice, comptoir, "faute", options)).reply()
    await (await emulator.click(bob, accusation, label="Contester")).response()
    told = await emulator.wait_message(comptoir, containing="je ne peux pas mettre", user=bob)
    assert told.ephemeral and told.audience == bob.id
    assert "Ajouter des réactions" in told.text and "elle compte tout autant" in told.text
    await emulator.react(patron, accusation, "✅")
    await emulator.react(alice, accusation, "✅")
    line = await wait_line(emulator, comptoir, "Verdict", since=since)
    assert line.startswith(
        f"⚖️ Verdict : <@{bob.id}> est **coupable** (✅ coupable : 2, ❌ innocent : 0)"
    )
    # Never tried, so never refused: no reaction of the bot's, put or taken off.
    tried = [c for c in emulator.calls if "/reactions/" in c.path and c.path.endswith("/@me")]
    assert tried == [] and [c for c in emulator.http_errors if c.status == 403] == []
    kept_secrets_and_calm(party, bot)


async def test_a_player_who_joined_during_a_round_may_be_accused(
    emulator: DiscordEmulator, bot: BotProcess
) -> None:
    party = Party(emulator, ("alice", "bob"))
    comptoir = party.channel
    await party.start()
    await party.roll()  # a round is on: a newcomer waits for the next one
    carol = emulator.user("carol")
    joined = await (await emulator.slash(carol, comptoir, "maya rejoindre")).reply()
    # Answered privately; the table tells everyone.
    assert joined.ephemeral and f"<@{carol.id}>" in joined.text
    await emulator.wait_for(lambda: f"<@{carol.id}>" in party.table.text, what="carol seated")
    accusation = await (
        await emulator.slash("alice", comptoir, "faute", {"joueur": carol, "motif": "triche"})
    ).reply()
    assert not accusation.ephemeral, accusation.text
    assert f"accuse <@{carol.id}>" in accusation.text
    kept_secrets_and_calm(party, bot)


async def test_a_reaction_taken_back_while_the_bot_was_away_counts_as_taken_back(
    emulator: DiscordEmulator, bot: BotProcess
) -> None:
    party = Party(emulator, ("alice", "bob", "patron"))
    comptoir = party.channel
    alice, bob, patron = party.people
    await party.start()
    accusation = await contested(party, bob, patron)
    since = mark(emulator)
    await emulator.react(alice, accusation, "✅")
    await votes_shown(emulator, accusation, "1 vote sur 2")
    await bot.kill()
    accusation.reactions["✅"].remove(alice.id)  # while the bot is down
    since = mark(emulator)
    await bot.start()
    await votes_shown(emulator, accusation, "0 vote sur 2")
    await emulator.react(bob, accusation, "✅")
    await emulator.react(alice, accusation, "❌")
    line = await wait_line(emulator, comptoir, "Verdict", since=since)
    assert (
        line
        == f"⚖️ Verdict : <@{patron.id}> est **acquitté·e** (✅ coupable : 1, ❌ innocent : 1 ; l'égalité acquitte)."
    )
