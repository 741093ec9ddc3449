"""What the bot showed to whom: every message it created, edited or deleted, with its visibility.

A message is *public* (a channel message, or a non-ephemeral interaction response or followup)
or *ephemeral* to exactly one user (the user of the interaction it answers). DMs are public in
their channel, which only the recipient can see: ``Transcript.visible_to`` knows that.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any, Literal

EPHEMERAL = 1 << 6
LOADING = 1 << 7
IS_COMPONENTS_V2 = 1 << 15

# Component types (https://discord.com/developers/docs/components/reference).
ACTION_ROW = 1
BUTTON = 2
STRING_SELECT = 3
TEXT_INPUT = 4
USER_SELECT = 5
ROLE_SELECT = 6
MENTIONABLE_SELECT = 7
CHANNEL_SELECT = 8
SECTION = 9
TEXT_DISPLAY = 10
CONTAINER = 17
LABEL = 18
SELECTS = {STRING_SELECT, USER_SELECT, ROLE_SELECT, MENTIONABLE_SELECT, CHANNEL_SELECT}
LINK_STYLE = 5
PREMIUM_STYLE = 6

Visibility = Literal["public", "ephemeral"]

_MENTION = re.compile(r"<@!?(\d+)>")
# Commands whose public answers carry an embed but are not a table.
OTHER_COMMANDS = {"classement", "stats", "aide", "reglages", "donnees", "help", "leaderboard"}


@dataclass
class Attachment:
    id: int
    filename: str
    data: bytes
    content_type: str | None = None
    description: str | None = None

    def payload(self) -> dict[str, Any]:
        url = f"https://cdn.discordapp.com/attachments/0/{self.id}/{self.filename}"
        body: dict[str, Any] = {
            "id": str(self.id),
            "filename": self.filename,
            "size": len(self.data),
            "url": url,
            "proxy_url": url,
        }
        if self.content_type:
            body["content_type"] = self.content_type
        if self.description:
            body["description"] = self.description
        return body


@dataclass(frozen=True)
class Component:
    """One interactive or textual piece of a message, flattened out of its rows and containers."""

    type: int
    raw: dict[str, Any]

    @property
    def custom_id(self) -> str | None:
        return self.raw.get("custom_id")

    @property
    def label(self) -> str | None:
        return self.raw.get("label")

    @property
    def emoji(self) -> str | None:
        emoji = self.raw.get("emoji")
        if not emoji:
            return None
        return emoji.get("name") if not emoji.get("id") else f"{emoji.get('name')}:{emoji['id']}"

    @property
    def style(self) -> int | None:
        return self.raw.get("style")

    @property
    def disabled(self) -> bool:
        return bool(self.raw.get("disabled", False))

    @property
    def url(self) -> str | None:
        return self.raw.get("url")

    @property
    def placeholder(self) -> str | None:
        return self.raw.get("placeholder")

    @property
    def options(self) -> list[dict[str, Any]]:
        return list(self.raw.get("options", []))

    @property
    def values(self) -> list[str]:
        """A string select's option values."""
        return [option["value"] for option in self.options]

    @property
    def is_button(self) -> bool:
        return self.type == BUTTON

    @property
    def is_select(self) -> bool:
        return self.type in SELECTS

    @property
    def clickable(self) -> bool:
        """Whether clicking it sends the bot an interaction (link and premium buttons do not)."""
        if self.type not in SELECTS and self.type != BUTTON:
            return False
        return not self.disabled and self.style not in (LINK_STYLE, PREMIUM_STYLE)

    def __repr__(self) -> str:
        return f"Component(type={self.type}, custom_id={self.custom_id!r}, label={self.label!r})"


def walk_components(components: list[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    """Every component, depth first, through action rows, sections, containers and labels."""
    for component in components:
        yield component
        yield from walk_components(component.get("components", []))
        for key in ("accessory", "component"):
            if isinstance(component.get(key), dict):
                yield from walk_components([component[key]])


@dataclass
class Message:
    """The current state of one message the bot produced (``history`` keeps earlier versions)."""

    id: int
    channel_id: int
    guild_id: int | None
    author_id: int
    content: str = ""
    embeds: list[dict[str, Any]] = field(default_factory=list)
    components: list[dict[str, Any]] = field(default_factory=list)
    attachments: list[Attachment] = field(default_factory=list)
    flags: int = 0
    visibility: Visibility = "public"
    audience: int | None = None  # the one user who sees an ephemeral message
    interaction_id: int | None = None  # the interaction this message answers, if any
    interaction_user: dict[str, Any] | None = None  # the user payload of that interaction
    interaction_type: int | None = None
    interaction_name: str | None = None
    webhook_id: int | None = None
    message_type: int = 0
    allowed_mentions: dict[str, Any] | None = None
    created_at: float = 0.0
    edited_at: float | None = None
    timestamp: str = ""
    edited_timestamp: str | None = None
    deleted: bool = False
    reactions: dict[str, list[int]] = field(default_factory=dict)  # emoji -> user ids, in order
    history: list[dict[str, Any]] = field(default_factory=list)

    # --- reading ---------------------------------------------------------------------------

    @property
    def ephemeral(self) -> bool:
        return self.visibility == "ephemeral"

    @property
    def loading(self) -> bool:
        """A deferred response still showing "<bot> is thinking..."."""
        return bool(self.flags & LOADING)

    @property
    def text(self) -> str:
        """Everything a reader sees as text: content, embed parts and text displays, one per line."""
        parts: list[str] = [self.content] if self.content else []
        for embed in self.embeds:
            for key in ("title", "description"):
                if embed.get(key):
                    parts.append(embed[key])
            for embed_field in embed.get("fields", []):
                parts.append(f"{embed_field.get('name', '')}\n{embed_field.get('value', '')}")
            for key in ("author", "footer"):
                piece = embed.get(key) or {}
                if piece.get("name") or piece.get("text"):
                    parts.append(str(piece.get("name") or piece.get("text")))
        for component in walk_components(self.components):
            if component.get("type") == TEXT_DISPLAY and component.get("content"):
                parts.append(component["content"])
        return "\n".join(parts)

    @property
    def mentions(self) -> list[int]:
        """User ids written as mentions in the content (whether or not they were pinged)."""
        return [int(found) for found in _MENTION.findall(self.content)]

    @property
    def pings(self) -> list[int]:
        """User ids that this message notifies, after ``allowed_mentions``; ephemeral messages
        notify no one."""
        if self.ephemeral:
            return []
        mentioned = list(dict.fromkeys(self.mentions))  # a user is notified once
        allowed = self.allowed_mentions
        if allowed is None:
            return mentioned
        if "users" in allowed.get("parse", []):
            return mentioned
        explicit = {int(user_id) for user_id in allowed.get("users", [])}
        return [user_id for user_id in mentioned if user_id in explicit]

    def all_components(self) -> list[Component]:
        return [Component(c.get("type", 0), c) for c in walk_components(self.components)]

    @property
    def buttons(self) -> list[Component]:
        return [c for c in self.all_components() if c.is_button]

    @property
    def selects(self) -> list[Component]:
        return [c for c in self.all_components() if c.is_select]

    @property
    def custom_ids(self) -> list[str]:
        return [c.custom_id for c in self.all_components() if c.custom_id]

    @property
    def table_controls(self) -> list[str]:
        """The custom_ids of a table's own buttons and menus: an ended game's last message
        keeps only its **Revanche** (``gobre:``), which is no control of the table."""
        return [c for c in self.custom_ids if c.startswith(("gob:", "gobsel:"))]

    @property
    def rematch_offered(self) -> bool:
        return any(c.startswith("gobre:") for c in self.custom_ids)

    def button(
        self, label: str | None = None, *, custom_id: str | None = None, emoji: str | None = None
    ) -> Component:
        """The one button matching a label (exact), a custom_id (exact or prefix ending in ':'),
        or an emoji; LookupError lists what the message does offer."""
        found = [
            button
            for button in self.buttons
            if (label is None or button.label == label)
            and (custom_id is None or _custom_id_matches(button.custom_id, custom_id))
            and (emoji is None or button.emoji == emoji)
        ]
        if len(found) != 1:
            offered = [(b.label, b.emoji, b.custom_id) for b in self.buttons]
            raise LookupError(
                f"{len(found)} buttons match label={label!r} custom_id={custom_id!r} "
                f"emoji={emoji!r} on message {self.id}; buttons: {offered}"
            )
        return found[0]

    def select(self, custom_id: str | None = None, *, placeholder: str | None = None) -> Component:
        found = [
            select
            for select in self.selects
            if (custom_id is None or _custom_id_matches(select.custom_id, custom_id))
            and (placeholder is None or select.placeholder == placeholder)
        ]
        if len(found) != 1:
            offered = [(s.placeholder, s.custom_id) for s in self.selects]
            raise LookupError(
                f"{len(found)} selects match custom_id={custom_id!r} placeholder={placeholder!r} "
                f"on message {self.id}; selects: {offered}"
            )
        return found[0]

    def reacted(self, emoji: str) -> list[int]:
        return list(self.reactions.get(emoji, []))

    def visible_to(self, user_id: int, *, dm_recipient: int | None = None) -> bool:
        if self.deleted:
            return False
        if self.ephemeral:
            return self.audience == user_id
        return dm_recipient is None or dm_recipient == user_id

    # --- the wire format -------------------------------------------------------------------

    def snapshot(self) -> dict[str, Any]:
        return {
            "content": self.content,
            "text": self.text,
            # An edit replaces a message's embeds and components with new ones, never
            # changes them in place: the version can share them.
            "embeds": list(self.embeds),
            "components": list(self.components),
            "attachments": [a.filename for a in self.attachments],
            "flags": self.flags,
            "pings": self.pings,  # whom this version notifies (only a new message notifies)
        }

    def payload(self, bot_user: dict[str, Any]) -> dict[str, Any]:
        """The message object Discord returns and puts in a component interaction."""
        data: dict[str, Any] = {
            "id": str(self.id),
            "type": self.message_type,
            "channel_id": str(self.channel_id),
            "author": bot_user,
            "content": self.content,
            "timestamp": self.timestamp,
            "edited_timestamp": self.edited_timestamp,
            "tts": False,
            "mention_everyone": False,
            "mentions": [],
            "mention_roles": [],
            "attachments": [a.payload() for a in self.attachments],
            # An edit replaces a message's embeds and components with new ones, never
            # changes them in place: the version can share them.
            "embeds": list(self.embeds),
            "components": list(self.components),
            "reactions": [
                {
                    "emoji": _emoji_payload(emoji),
                    "count": len(users),
                    "count_details": {"burst": 0, "normal": len(users)},
                    "me": int(bot_user["id"]) in users,
                    "me_burst": False,
                    "burst_colors": [],
                }
                for emoji, users in self.reactions.items()
                if users
            ],
            "pinned": False,
            "flags": self.flags,
        }
        if self.guild_id is not None:
            data["guild_id"] = str(self.guild_id)
        if self.webhook_id is not None:
            data["webhook_id"] = str(self.webhook_id)
            data["application_id"] = str(self.webhook_id)
        if self.interaction_id is not None and self.interaction_user is not None:
            data["interaction_metadata"] = {
                "id": str(self.interaction_id),
                "type": self.interaction_type or 2,
                "user": self.interaction_user,
                "authorizing_integration_owners": {},
            }
        return data


def _custom_id_matches(actual: str | None, wanted: str) -> bool:
    if actual is None:
        return False
    return actual == wanted or (wanted.endswith(":") and actual.startswith(wanted))


def _emoji_payload(emoji: str) -> dict[str, Any]:
    name, _, emoji_id = emoji.partition(":")
    return {"id": emoji_id or None, "name": name}


@dataclass
class TranscriptEvent:
    kind: Literal["create", "edit", "delete"]
    message: Message
    at: float
    snapshot: dict[str, Any]


@dataclass
class Transcript:
    messages: list[Message] = field(default_factory=list)
    events: list[TranscriptEvent] = field(default_factory=list)
    dm_recipients: dict[int, int] = field(default_factory=dict)  # DM channel id -> user id

    def record(
        self, kind: Literal["create", "edit", "delete"], message: Message, at: float
    ) -> None:
        if kind == "create":
            self.messages.append(message)
        self.events.append(TranscriptEvent(kind, message, at, message.snapshot()))

    def get(self, message_id: int) -> Message:
        for message in self.messages:
            if message.id == message_id:
                return message
        raise LookupError(f"the bot never produced message {message_id}")

    def _live(self, channel_id: int | None) -> list[Message]:
        return [
            m
            for m in self.messages
            if not m.deleted and (channel_id is None or m.channel_id == channel_id)
        ]

    def public(self, channel_id: int | None = None) -> list[Message]:
        """Messages every member of the channel sees, oldest first (deleted ones left out)."""
        return [m for m in self._live(channel_id) if not m.ephemeral]

    def ephemeral_to(self, user_id: int, channel_id: int | None = None) -> list[Message]:
        """Ephemeral messages only ``user_id`` sees, oldest first."""
        return [m for m in self._live(channel_id) if m.ephemeral and m.audience == user_id]

    def visible_to(self, user_id: int, channel_id: int | None = None) -> list[Message]:
        """Everything ``user_id`` sees: public messages (DMs only their own) and their ephemerals."""
        return [
            m
            for m in self._live(channel_id)
            if m.visible_to(user_id, dm_recipient=self.dm_recipients.get(m.channel_id))
        ]

    def dms_to(self, user_id: int) -> list[Message]:
        channels = {c for c, u in self.dm_recipients.items() if u == user_id}
        return [m for m in self._live(None) if m.channel_id in channels]

    def last(self, channel_id: int, *, user_id: int | None = None) -> Message | None:
        """The newest public message in a channel, or the newest one ``user_id`` sees there."""
        found = self.public(channel_id) if user_id is None else self.visible_to(user_id, channel_id)
        return found[-1] if found else None

    def containing(self, text: str, channel_id: int | None = None) -> list[Message]:
        return [m for m in self._live(channel_id) if text in m.text]

    def table(self, channel_id: int) -> Message | None:
        """A channel's table message: the newest public message with an embed that answers
        no other command (the table moves to the bottom as the game goes on)."""
        for message in reversed(self.public(channel_id)):
            name = (message.interaction_name or "").split(" ")[0]
            if message.embeds and name not in OTHER_COMMANDS:
                return message
        return None

    def shown_lines(self, channel_id: int, since: int = 0, *, part: str = "content") -> list[str]:
        """See ``fresh_lines``: every line shown, in order, from event ``since`` on."""
        fresh = self.fresh_lines(channel_id, part=part)
        return [line for index in sorted(fresh) if index >= since for line in fresh[index]]

    def fresh_lines(self, channel_id: int, *, part: str = "content") -> dict[int, list[str]]:
        """Every line the channel was shown, in order, from event ``since`` on: a new
        message's lines and the lines an edit added (a table's folded story). The copies of
        a table (messages with an embed) are one message: a line a new copy carries over
        from the one before is not shown again. ``part``: "content" or "text" (embeds too)."""
        shown: dict[int, list[str]] = {}
        before: dict[object, list[str]] = {}
        for index, event in enumerate(self.events):
            message = event.message
            if message.channel_id != channel_id or message.ephemeral or event.kind == "delete":
                continue
            key: object = "table" if event.snapshot["embeds"] else message.id
            lines = event.snapshot[part].splitlines()
            old = list(before.get(key, []))
            if key == "table":
                old += before.get(message.id, [])
            fresh = []
            for line in lines:
                if line in old:
                    old.remove(line)
                else:
                    fresh.append(line)
            before[key] = before[message.id] = lines
            shown[index] = fresh
        return shown

    def deleted(self, channel_id: int | None = None) -> list[Message]:
        return [
            m
            for m in self.messages
            if m.deleted and (channel_id is None or m.channel_id == channel_id)
        ]

    def dump(self) -> str:
        """A readable log of everything, for assertion messages and debugging."""
        lines = []
        for event in self.events:
            message = event.message
            who = "public" if not message.ephemeral else f"ephemeral->{message.audience}"
            text = event.snapshot["text"].replace("\n", " / ")
            ids = [
                c["custom_id"]
                for c in walk_components(event.snapshot["components"])
                if c.get("custom_id")
            ]
            buttons = f" {ids}" if ids and event.kind != "delete" else ""
            lines.append(
                f"{event.at:9.3f} {event.kind:6} #{message.channel_id} {message.id} {who}: "
                f"{text[:160]!r}{buttons}"
            )
        return "\n".join(lines)
