"""Playing Maya/Mia through the emulator the way people do: reading the table, clicking.

The driver only looks at what a user sees: the public table message (its buttons carry
``gob:{table}:{step}:{action}``, its embed says whose turn it is) and the user's own
ephemeral messages (their dice and the announcement menu).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from tests.e2e.emulator import DiscordEmulator
from tests.e2e.transcript import Message
from tests.e2e.world import Channel, User

FACE_VALUES = {"⚀": 1, "⚁": 2, "⚂": 3, "⚃": 4, "⚄": 5, "⚅": 6}
FACES = "".join(FACE_VALUES)
DICE = re.compile(rf"([{FACES}]) ([{FACES}]) \((\d\d)\)")
MENTION = re.compile(r"<@(\d+)>")
ORDER = (31, 32, 41, 42, 43, 51, 52, 53, 54, 61, 62, 63, 64, 65, 11, 22, 33, 44, 55, 66, 21)

PHASES = {
    "roll": "open",
    "roll_blind": "open",
    "roll_reverse": "open",
    "dice": "announce",
    "believe": "respond",
    "believe_blind": "respond",
    "fragile": "maya",
    "warrior": "maya",
    "accept_maya": "maya",
}


@dataclass(frozen=True)
class Turn:
    step: int
    player: int | None  # None: a CPU, or nobody (lobby, over)
    phase: str  # lobby, open, announce, respond, maya, over
    actions: tuple[str, ...]


def rank(value: int) -> int:
    return ORDER.index(value)


def dice_in(text: str) -> list[tuple[int, int, int]]:
    """Every ``⚄ ⚂ (53)`` in a text, as (die, die, value)."""
    return [(FACE_VALUES[a], FACE_VALUES[b], int(v)) for a, b, v in DICE.findall(text)]


class MayaDriver:
    def __init__(self, emulator: DiscordEmulator, channel: Channel) -> None:
        self.emulator = emulator
        self.channel = channel
        self.table: Message | None = None

    # ---- reading the table

    async def find_table(self) -> Message:
        message = await self.emulator.wait_message(
            self.channel, where=lambda m: any(c.startswith("gob:") for c in m.custom_ids)
        )
        self.table = message
        return message

    def turn(self) -> Turn:
        assert self.table is not None
        actions: list[str] = []
        step = 0
        for custom_id in self.table.custom_ids:
            parts = custom_id.split(":")
            if parts[0] == "gob" and len(parts) == 4:
                step = max(step, int(parts[2]))
                actions.append(parts[3])
        if not actions or actions == ["join"]:
            return Turn(step, None, "over", tuple(actions))
        if "start" in actions:
            return Turn(0, None, "lobby", tuple(actions))
        phase = next((PHASES[a] for a in actions if a in PHASES), "over")
        player = None
        for embed in self.table.embeds:
            for field in embed.get("fields", []):
                if field.get("name") in ("Au tour de", "Turn"):
                    found = MENTION.search(field.get("value", ""))
                    player = int(found.group(1)) if found else None
        return Turn(step, player, phase, tuple(actions))

    async def wait_turn(self, *, after: int = -1, timeout: float = 10.0) -> Turn:
        """The next decision point (step > ``after``) that is a human's, or the end."""

        def ready() -> Turn | None:
            turn = self.turn()
            if turn.phase == "over":
                return turn
            if turn.step > after and turn.player is not None:
                return turn
            return None

        return await self.emulator.wait_for(ready, timeout=timeout, what="a human's turn")

    def over(self) -> bool:
        return self.turn().phase == "over"

    # ---- acting

    async def click(self, user: User | str, action: str) -> Message | None:
        """Click the table's button for ``action``; returns the private answer if there is one."""
        assert self.table is not None
        turn = self.turn()
        custom_id = next(c for c in self.table.custom_ids if c.split(":")[-1] == action)
        clicked = await self.emulator.click(user, self.table, custom_id)
        await clicked.response()
        if turn.phase in ("open", "respond") and action in (
            "roll",
            "roll_blind",
            "roll_reverse",
            "believe",
            "believe_blind",
        ):
            return await clicked.reply()
        return None

    async def announce(self, user: User | str, panel: Message, value: str) -> Message:
        """Pick an announcement in the private panel's menu ("53", "21" or "photo")."""
        chosen = await self.emulator.choose(user, panel, [value])
        await chosen.response()
        return panel

    def menu_values(self, panel: Message) -> list[str]:
        if not panel.selects:
            return []
        return [option["value"] for option in panel.selects[0].options]
