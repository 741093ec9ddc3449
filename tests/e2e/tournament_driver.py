"""Drives tournaments through the emulator as their players and organizer do: sign-ups with
the button, each round's check-ins in their threads, a match ended by its loser giving up,
and the channel's bracket and standings read back."""

from __future__ import annotations

import re
from dataclasses import dataclass

from tests.e2e.emulator import DiscordEmulator
from tests.e2e.transcript import Message
from tests.e2e.world import Channel, User

CHECK_IN = "gobtp:"
MENTION = re.compile(r"<@(\d+)>")
PLACE = re.compile(r"^(\d+)\. <@(\d+)>", re.MULTILINE)
# What a player types to give up, in each game (the other players play on, or win).
GIVE_UP = {"yades": "yades abandon", "menteur": "menteur quitter", "maya": "maya quitter"}


def people(emulator: DiscordEmulator, count: int, guild: str = "bar") -> list[User]:
    """``count`` members of ``guild`` to sign up (new ones made as needed)."""
    found = []
    for index in range(count):
        name = f"joueur{index + 1}"
        if name not in emulator.world.users:
            emulator.world.add_user(name)
            emulator.world.join(guild, name)
        found.append(emulator.user(name))
    return found


@dataclass
class CheckIn:
    message: Message
    thread: Channel
    players: list[int]  # in seat order
    match: str  # "round-table"


def check_ins(emulator: DiscordEmulator, tournament: int, number: int) -> list[CheckIn]:
    """Round ``number``'s check-in messages posted so far, by table."""
    found = []
    for message in emulator.transcript.public():
        prefix = f"{CHECK_IN}{tournament}:{number}-"
        ids = [c for c in message.custom_ids if c.startswith(prefix)]
        if not ids:
            continue
        match = ids[0].split(":")[2]
        first = message.content.split("\n")[0]
        found.append(
            CheckIn(
                message,
                emulator.world.channel(message.channel_id),
                [int(p) for p in MENTION.findall(first)],
                match,
            )
        )
    return sorted(found, key=lambda c: int(c.match.split("-")[1]))


async def round_called(
    emulator: DiscordEmulator, tournament: int, number: int, tables: int, timeout: float = 20
) -> list[CheckIn]:
    """Waits for round ``number``'s ``tables`` check-ins."""
    await emulator.wait_for(
        lambda: len(check_ins(emulator, tournament, number)) >= tables or None,
        what=f"round {number}'s {tables} check-ins",
        timeout=timeout,
    )
    return check_ins(emulator, tournament, number)


async def present(emulator: DiscordEmulator, check_in: CheckIn, who: list[User]) -> None:
    for user in who:
        await (await emulator.click(user, check_in.message, label="Présent")).response()


async def started(emulator: DiscordEmulator, check_in: CheckIn) -> None:
    await emulator.wait_message(check_in.thread, containing="La partie commence", timeout=20)


async def give_up(emulator: DiscordEmulator, game: str, check_in: CheckIn, loser: User) -> None:
    await (await emulator.slash(loser, check_in.thread, GIVE_UP[game])).response()


async def signed_up(
    emulator: DiscordEmulator,
    organizer: User,
    channel: Channel,
    options: dict[str, object],
    players: list[User],
) -> tuple[int, Message]:
    """``/tournoi creer`` with ``options`` by ``organizer``, then ``players`` signed up with
    the button: the tournament's id and its sign-up message."""
    opened = await (await emulator.slash(organizer, channel, "tournoi creer", options)).reply()
    assert not opened.ephemeral, opened.text
    for player in players:
        await (await emulator.click(player, opened, label="S'inscrire")).response()
    return tournament_id(opened), opened


def tournament_id(signup: Message) -> int:
    return next(int(c.split(":")[1]) for c in signup.custom_ids if c.startswith("gobto:"))


def places(message: Message) -> list[tuple[int, int]]:
    """A standings message's (place, player) lines, best first."""
    section = message.text.split("__Classement__", 1)[-1]
    return [(int(place), int(player)) for place, player in PLACE.findall(section)]


def by_id(users: list[User]) -> dict[int, User]:
    return {user.id: user for user in users}
