"""Playing Maya/Mia through the emulator the way people do: reading the table, clicking.

The driver only looks at what a user sees: the public table message (its buttons carry
``gob:{table}:{step}:{action}``, its embed says whose turn it is) and the user's own
ephemeral messages (their dice and the announcement menu).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass

from tests.e2e.appcommands import find_command, interaction_data
from tests.e2e.botprocess import BotProcess
from tests.e2e.emulator import APPLICATION_COMMAND, DiscordEmulator
from tests.e2e.handles import InjectedInteraction
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

    # ---- reading the table

    @property
    def table(self) -> Message | None:
        """The table's message: its newest copy, at the bottom of the channel."""
        return self.emulator.transcript.table(self.channel.id)

    async def find_table(self) -> Message:
        return await self.emulator.wait_for(lambda: self.table, what="the table message")

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
                    # The turn text starts with whoever is to act (a CPU's name is no mention).
                    found = MENTION.match(field.get("value", ""))
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


# ---- reading the table embed and the channel (added for the party-game tests)

SEAT_SCORE = re.compile(r"<@(\d+)> — (\d+) 🍺 · (\d+) 🥃")
PLAYERS_FIELDS = ("Joueurs (sens ", "Players (direction ")


def _field(table: Message, starts: tuple[str, ...]) -> dict[str, str] | None:
    for embed in table.embeds:
        for field in embed.get("fields", []):
            if str(field.get("name", "")).startswith(starts):
                return field
    return None


def seat_order(table: Message) -> list[int]:
    """The players' ids in seating order, as the table embed lists them."""
    field = _field(table, PLAYERS_FIELDS)
    assert field is not None, f"no players field in {table.text!r}"
    return [int(found) for found in MENTION.findall(field["value"])]


def tallies(table: Message) -> dict[int, tuple[int, int]]:
    """Party preset: each human player's (sips, glasses) as the table embed shows them."""
    field = _field(table, PLAYERS_FIELDS)
    assert field is not None, f"no players field in {table.text!r}"
    return {int(p): (int(s), int(g)) for p, s, g in SEAT_SCORE.findall(field["value"])}


def direction_arrow(table: Message) -> str:
    """The direction of play shown in the table embed: ↻ or ↺."""
    field = _field(table, PLAYERS_FIELDS)
    assert field is not None, f"no players field in {table.text!r}"
    return "↺" if "↺" in field["name"] else "↻"


def announcement_shown(table: Message) -> str | None:
    """The table embed's current announcement field, if any."""
    field = _field(table, ("Annonce en cours", "Current announcement"))
    return None if field is None else field["value"]


def public_since(emulator: DiscordEmulator, channel: Channel, mark: int) -> list[Message]:
    """Public messages in ``channel`` created or edited after ``mark`` (see ``mark``)."""
    touched = {
        event.message.id for event in emulator.transcript.events[mark:] if event.kind != "delete"
    }
    return [
        m
        for m in emulator.transcript.messages
        if m.id in touched and not m.deleted and not m.ephemeral and m.channel_id == channel.id
    ]


def mark(emulator: DiscordEmulator) -> int:
    """A point in the transcript, for ``public_since``, ``wait_line`` and ``lines_since``."""
    return len(emulator.transcript.events)


async def wait_line(
    emulator: DiscordEmulator, channel: Channel, text: str, *, since: int, timeout: float = 5.0
) -> str:
    """The first public line containing ``text`` shown in ``channel`` after ``since`` (in a
    new message, or folded into the table's)."""

    def found() -> str | None:
        for line in lines_since(emulator, channel, since):
            if text in line:
                return line
        return None

    return await emulator.wait_for(found, timeout=timeout, what=f"a public line with {text!r}")


def lines_since(emulator: DiscordEmulator, channel: Channel, since: int) -> list[str]:
    """Every public content line shown in ``channel`` after ``since``, once each."""
    return emulator.transcript.shown_lines(channel.id, since)


async def panel_click(
    emulator: DiscordEmulator, user: User | str, panel: Message, action: str
) -> InjectedInteraction:
    """Click the button for ``action`` (``tap0``, ``second_chance`` …) in a private panel."""
    custom_id = next(c for c in panel.custom_ids if c.split(":")[-1] == action)
    clicked = await emulator.click(user, panel, custom_id)
    await clicked.response()
    return clicked


async def slash_unchecked(
    emulator: DiscordEmulator,
    user: User | str,
    channel: Channel,
    command: str,
    options: dict[str, object] | None = None,
) -> InjectedInteraction:
    """Send a synced command where Discord's client would not offer it (a guild-only command
    in DMs, as an outdated client or a user-installed app can): what does the bot answer?"""
    who = emulator.user(user)
    guild = emulator.world.guild_of(channel)
    definition = find_command(emulator.commands, command.split()[0], guild.id if guild else None)
    assert definition is not None, f"no synced command {command!r}"
    data = interaction_data(emulator.world, definition, command, options or {}, guild)
    payload = emulator._interaction_payload(APPLICATION_COMMAND, who, channel, data, None)
    return await emulator._inject(payload, who, channel, command=command)


# ---------------------------------------------------------------------------------------------
# Added for the Mia, leak, timer and multi-channel tests (test_maya_vies.py). Everything below
# reads what people see (the transcript) or acts as they do; nothing above was changed.

TURN_FIELDS = ("Au tour de", "Turn")
PLAYERS_FIELD = re.compile(r"^(Joueurs|Players) ")
ROUND_FOOTER = re.compile(r"(?:Manche|Round) (\d+)")
# Who a story line is about: a human's mention or a CPU's bold name.
WHO = r"(<@\d+>|\*\*[^*]+\*\* 🤖)"
ANNOUNCE_LINE = re.compile(rf"^(?:📣|🔥|📸) {WHO} (?:annonce|announces) ")
REVEAL_LINE = re.compile(
    rf"{WHO} (?:soulève :|lifts:) ([{FACES}]) ([{FACES}]) \((\d\d)\) — {WHO} "
    r"(?:avait annoncé|announced) (MAYA \(21\)|MIA \(21\)|double \d|\d\d)"
)
LIFE_LOST_LINE = re.compile(rf"^💔 {WHO} (?:perd|loses) (\d+) \S+ \((?:reste )?(\d+)(?: left)?\)")
ELIMINATED_LINE = re.compile(rf"^☠️ {WHO} ")
BLIND_SUFFIXES = ("(à l'aveugle)", "(blind)")
# The private texts that say which dice a player looked at, or that they did not look.
SEEN_DICE = re.compile(rf"(?:Tes dés :|Your dice:) ([{FACES}]) ([{FACES}]) \((\d\d)\)")
NOT_LOOKED = (
    "Tu n'as pas regardé",
    "You did not look",
    "Tu as tapoté",
    "You tapped",
    "Tu as relancé sans regarder",
    "You re-rolled without looking",
)
# Public lines that may show dice: a lift's reveal and a Warrior's open roll
# (docs/rules.md#hidden-dice).
PUBLIC_DICE_ALLOWED = ("soulève", "lifts", "⚔️")
BLIND = "blind"  # a player's knowledge of their own cup: dice (a, b, value), BLIND, or None


def user_id_of(who: str) -> int | None:
    """The user id in ``<@id>``; None for a CPU's name."""
    found = MENTION.fullmatch(who)
    return int(found.group(1)) if found else None


def snapshot_turn(snapshot: dict) -> int | None:
    """Whose turn a table message snapshot shows (its "Au tour de" / "Turn" field)."""
    for embed in snapshot.get("embeds", []):
        for embed_field in embed.get("fields", []):
            if embed_field.get("name") in TURN_FIELDS:
                found = MENTION.search(embed_field.get("value", ""))
                return int(found.group(1)) if found else None
    return None


def story_lines(transcript, channel_id: int) -> list[str]:
    """Every line the bot showed in public in a channel (new messages and what edits added,
    embeds included), oldest first."""
    return transcript.shown_lines(channel_id, part="text")


def public_dice_leaks(transcript, channel_id: int | None = None) -> list[str]:
    """Every version of every public message: lines or components showing a die face, other
    than a lift's reveal and a Warrior's roll."""
    leaks: list[str] = []
    for event in transcript.events:
        message = event.message
        if message.ephemeral or event.kind == "delete":
            continue
        if channel_id is not None and message.channel_id != channel_id:
            continue
        for line in event.snapshot["text"].splitlines():
            if any(face in line for face in FACES) and not any(
                marker in line for marker in PUBLIC_DICE_ALLOWED
            ):
                leaks.append(f"message {message.id}: {line}")
        for component in _walk(event.snapshot["components"]):
            shown = " ".join(
                str(component.get(key) or "") for key in ("label", "placeholder", "content")
            )
            shown += " ".join(
                f"{o.get('label', '')} {o.get('description', '')}"
                for o in component.get("options", [])
            )
            if any(face in shown for face in FACES):
                leaks.append(f"message {message.id} component: {shown}")
    return leaks


def _walk(components: list) -> list[dict]:
    found: list[dict] = []
    for component in components:
        found.append(component)
        found.extend(_walk(component.get("components", [])))
        for key in ("accessory", "component"):
            if isinstance(component.get(key), dict):
                found.extend(_walk([component[key]]))
    return found


def audience_problems(emulator: DiscordEmulator) -> list[str]:
    """Ephemeral messages whose audience is not the user of the interaction they answer (or
    that sit in another channel than that interaction)."""
    by_id = {interaction.id: interaction for interaction in emulator.interactions}
    problems: list[str] = []
    for message in emulator.transcript.messages:
        if not message.ephemeral:
            continue
        interaction = by_id.get(message.interaction_id or -1)
        if interaction is None:
            problems.append(f"ephemeral message {message.id} answers no known interaction")
        elif message.audience != interaction.user.id:
            problems.append(
                f"ephemeral message {message.id} shown to {message.audience}, "
                f"but it answers {interaction.user.name} ({interaction.user.id})"
            )
        elif message.channel_id != interaction.channel.id:
            problems.append(f"ephemeral message {message.id} is not in its interaction's channel")
    return problems


def sightings(transcript, user_id: int, channel_id: int) -> list[tuple[int, int, int]]:
    """Every pair of dice shown to ``user_id`` privately in a channel, in order, with repeats
    in a row collapsed (the same cup shown again by "Mes dés")."""
    seen: list[tuple[int, int, int]] = []
    for event in transcript.events:
        message = event.message
        if event.kind == "delete" or message.channel_id != channel_id:
            continue
        if not (message.ephemeral and message.audience == user_id):
            continue
        for dice in dice_in(event.snapshot["text"]):
            if not seen or seen[-1] != dice:
                seen.append(dice)
    return seen


def collapse(items: list) -> list:
    out: list = []
    for item in items:
        if not out or out[-1] != item:
            out.append(item)
    return out


def reveal_problems(transcript, channel_id: int) -> tuple[list[str], int]:
    """Check every lift against what the announcer saw: when a human announcer had looked at
    their dice and made no blind play (their own private messages say so), the revealed pair
    must be the pair they last saw; and a public announcement says "blind" exactly when
    they had not. Returns the problems and how many reveals were checked."""
    knows: dict[int, object] = {}  # user -> their last private view of their cup this turn
    announced: dict[int, object] = {}  # announcer -> what they knew when they announced
    problems: list[str] = []
    checked = 0
    fresh = transcript.fresh_lines(channel_id, part="text")
    for index, event in enumerate(transcript.events):
        message = event.message
        if event.kind == "delete" or message.channel_id != channel_id:
            continue
        text = event.snapshot["text"]
        if message.ephemeral:
            if message.audience is None:
                continue
            found = SEEN_DICE.search(text)
            if found:
                a, b, v = found.groups()
                knows[message.audience] = (FACE_VALUES[a], FACE_VALUES[b], int(v))
            elif any(marker in text for marker in NOT_LOOKED):
                knows[message.audience] = BLIND
            continue
        for line in fresh.get(index, []):  # what this message, or this edit, added
            line_found = ANNOUNCE_LINE.match(line)
            if line_found:
                player = user_id_of(line_found.group(1))
                if player is not None:
                    knowledge = knows.pop(player, None)
                    announced[player] = knowledge
                    said_blind = any(suffix in line for suffix in BLIND_SUFFIXES)
                    if knowledge is not None and said_blind != (knowledge == BLIND):
                        problems.append(f"blindness of {line!r} vs what <@{player}> saw")
                continue
            reveal = REVEAL_LINE.search(line)
            if reveal:
                player = user_id_of(reveal.group(5))
                if player is None:
                    continue
                knowledge = announced.get(player)
                revealed = (FACE_VALUES[reveal.group(2)], FACE_VALUES[reveal.group(3)])
                if isinstance(knowledge, tuple):
                    checked += 1
                    if sorted(revealed) != sorted(knowledge[:2]):
                        problems.append(f"{line!r}: <@{player}> had seen {knowledge}")
    return problems, checked


def turn_problems(transcript, channel_id: int) -> list[str]:
    """Eliminated or departed players never get the turn again: checked on every version of
    the table message and on every public story line after they went."""
    gone: set[int] = set()
    problems: list[str] = []
    fresh = transcript.fresh_lines(channel_id, part="text")
    for index, event in enumerate(transcript.events):
        message = event.message
        if event.kind == "delete" or message.channel_id != channel_id or message.ephemeral:
            continue
        current = snapshot_turn(event.snapshot)
        if current is not None and current in gone:
            problems.append(f"the table gives the turn to <@{current}>, who is out")
        for line in fresh.get(index, []):  # what this message, or this edit, added
            for mentioned in MENTION.findall(line):
                if int(mentioned) in gone and ("ouvre" in line or "opens" in line or "→" in line):
                    problems.append(f"{line!r}: <@{mentioned}> is out")
            found = ELIMINATED_LINE.match(line)
            if found and user_id_of(found.group(1)) is not None:
                gone.add(user_id_of(found.group(1)) or 0)
            if ("laissé passer" in line or "let 3 turns" in line) and MENTION.search(line):
                gone.add(int(MENTION.search(line).group(1)))  # type: ignore[union-attr]
    return problems


def private_dice_in_database(bot: BotProcess, table_id: int) -> dict[int, list[tuple[int, int]]]:
    """The dice each player was shown privately, from the bot's own event log (ground truth)."""
    found: dict[int, list[tuple[int, int]]] = {}
    rows = bot.query(
        "SELECT recipient, payload_json FROM game_events"
        " WHERE game_id = ? AND type = 'dice' AND visibility = 'private' ORDER BY seq",
        table_id,
    )
    for recipient, payload in rows:
        dice = json.loads(str(payload))["dice"]
        found.setdefault(int(str(recipient)), []).append((dice[0], dice[1]))
    return found


def table_id_of(message: Message) -> int:
    """The table id in the buttons of a table message (or of an earlier version of it)."""
    versions = [c.custom_id or "" for c in message.all_components()]
    for snapshot in reversed(message.history):
        versions += [c.get("custom_id") or "" for c in _walk(snapshot["components"])]
    for custom_id in versions:
        parts = custom_id.split(":")
        if parts[0] == "gob":
            return int(parts[1])
    raise LookupError(f"message {message.id} never had table buttons")


class MayaTableDriver(MayaDriver):
    """A ``MayaDriver`` that also reads the table's lives and round, and acts through the
    private panel's buttons and slash commands."""

    # ---- reading

    def turn(self) -> Turn:
        """As ``MayaDriver.turn``, but a CPU's turn reads as ``player=None`` in every phase: the
        turn text starts with the current player ("X doit croire ou soulever Y" names the
        announcer Y too, and Y may be a human while X is a CPU)."""
        turn = super().turn()
        if turn.player is None:
            return turn
        assert self.table is not None
        for embed in self.table.embeds:
            for embed_field in embed.get("fields", []):
                if embed_field.get("name") in TURN_FIELDS:
                    found = MENTION.match(embed_field.get("value", ""))
                    player = int(found.group(1)) if found else None
                    return Turn(turn.step, player, turn.phase, turn.actions)
        return turn

    def _field(self, pattern: re.Pattern[str]) -> str:
        assert self.table is not None
        for embed in self.table.embeds:
            for embed_field in embed.get("fields", []):
                if pattern.search(embed_field.get("name", "")):
                    return embed_field.get("value", "")
        return ""

    def round(self) -> int:
        assert self.table is not None
        for embed in self.table.embeds:
            found = ROUND_FOOTER.search((embed.get("footer") or {}).get("text", ""))
            if found:
                return int(found.group(1))
        return 0

    def hearts(self) -> dict[int, int]:
        """Lives per human seat as the table shows them (0 when out or gone)."""
        lives: dict[int, int] = {}
        for line in self._field(PLAYERS_FIELD).splitlines():
            found = MENTION.search(line)
            if found:
                lives[int(found.group(1))] = line.count("❤️")
        return lives

    def table_id(self) -> int:
        """The table's id, from the newest of its copies that had buttons."""
        for message in reversed(self.emulator.transcript.messages):
            if message.channel_id == self.channel.id and not message.ephemeral:
                try:
                    return table_id_of(message)
                except LookupError:
                    continue
        raise LookupError(f"no table message in channel {self.channel.id}")

    @staticmethod
    def panel_actions(panel: Message) -> list[str]:
        """The blind plays a private panel offers (``tap0``, ``tap1``, ``second_chance``)."""
        return [b.custom_id.split(":")[-1] for b in panel.buttons if b.custom_id and b.clickable]

    # ---- acting

    async def slash(self, user: User | str, command: str, options: dict | None = None):
        """Run a slash command in this table's channel; returns the injected interaction."""
        return await self.emulator.slash(user, self.channel, command, options or {})

    async def show_dice(self, user: User | str) -> Message:
        """Click the table's "Mes dés" button (once the table shows it); returns the private
        answer."""

        def button() -> str | None:
            assert self.table is not None
            return next((c for c in self.table.custom_ids if c.endswith(":dice")), None)

        custom_id = await self.emulator.wait_for(button, what='the "Mes dés" button')
        assert self.table is not None
        clicked = await self.emulator.click(user, self.table, custom_id)
        return await clicked.reply()

    async def panel_click(self, user: User | str, panel: Message, action: str) -> Message:
        """Click a blind play on the private panel; the panel is updated in place."""
        button = next(b for b in panel.buttons if (b.custom_id or "").endswith(":" + action))
        clicked = await self.emulator.click(user, panel, button)
        await clicked.response()
        return panel
