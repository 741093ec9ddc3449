"""The emulated Discord world: users, servers, channels, roles and the payloads Discord sends about them.

Kept separate from the emulator so that a test can build or change the world (a user's locale,
a role, a new channel) without knowing anything about HTTP or the gateway.
"""

from __future__ import annotations

import itertools
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

DISCORD_EPOCH_MS = 1_420_070_400_000

# Permission bits (https://discord.com/developers/docs/topics/permissions). Defined here rather
# than taken from discord.Permissions so that the emulator never shares a bug with the client.
CREATE_INSTANT_INVITE = 1 << 0
ADMINISTRATOR = 1 << 3
MANAGE_CHANNELS = 1 << 4
MANAGE_GUILD = 1 << 5
ADD_REACTIONS = 1 << 6
VIEW_CHANNEL = 1 << 10
SEND_MESSAGES = 1 << 11
MANAGE_MESSAGES = 1 << 13
EMBED_LINKS = 1 << 14
ATTACH_FILES = 1 << 15
READ_MESSAGE_HISTORY = 1 << 16
MENTION_EVERYONE = 1 << 17
USE_EXTERNAL_EMOJIS = 1 << 18
CHANGE_NICKNAME = 1 << 26
USE_APPLICATION_COMMANDS = 1 << 31
CREATE_PUBLIC_THREADS = 1 << 35
CREATE_PRIVATE_THREADS = 1 << 36
SEND_MESSAGES_IN_THREADS = 1 << 38
ALL_PERMISSIONS = (1 << 53) - 1

# What @everyone may do on a freshly created server.
EVERYONE_DEFAULT = (
    CREATE_INSTANT_INVITE
    | ADD_REACTIONS
    | VIEW_CHANNEL
    | SEND_MESSAGES
    | EMBED_LINKS
    | ATTACH_FILES
    | READ_MESSAGE_HISTORY
    | MENTION_EVERYONE
    | USE_EXTERNAL_EMOJIS
    | CHANGE_NICKNAME
    | USE_APPLICATION_COMMANDS
    | CREATE_PUBLIC_THREADS
    | SEND_MESSAGES_IN_THREADS
)

# What a bot invited with the usual "send messages, embed, react, manage messages" scope gets.
BOT_ROLE_DEFAULT = EVERYONE_DEFAULT | MANAGE_MESSAGES

TEXT_CHANNEL = 0
DM_CHANNEL = 1
ANNOUNCEMENT_CHANNEL = 5  # GUILD_ANNOUNCEMENT: its threads are announcement threads
ANNOUNCEMENT_THREAD = 10
PUBLIC_THREAD = 11
PRIVATE_THREAD = 12
THREAD_TYPES = (ANNOUNCEMENT_THREAD, PUBLIC_THREAD, PRIVATE_THREAD)
# The threads a channel may start without a message, by the channel's type.
THREADS_OF = {
    TEXT_CHANNEL: (PUBLIC_THREAD, PRIVATE_THREAD),
    ANNOUNCEMENT_CHANNEL: (ANNOUNCEMENT_THREAD,),
}

# A snowflake's low 22 bits are its worker, process and increment; Discord shards on the rest.
SNOWFLAKE_TIME_SHIFT = 22


def shard_of(guild_id: int, count: int) -> int:
    """The shard (of ``count``) that Discord sends a guild's events to."""
    return (guild_id >> SNOWFLAKE_TIME_SHIFT) % count


def now_iso(offset: float = 0.0) -> str:
    return datetime.fromtimestamp(time.time() + offset, UTC).isoformat()


class Snowflakes:
    """Time-based ids, like Discord's: discord.py derives ``created_at`` (and so an interaction's
    15-minute expiry) from the id, so ids must carry the current time."""

    def __init__(self) -> None:
        self._counter = itertools.count()
        self.offset = 0.0  # seconds added by DiscordEmulator.travel()

    def next(self) -> int:
        ms = int((time.time() + self.offset) * 1000) - DISCORD_EPOCH_MS
        return (ms << 22) | (next(self._counter) & 0x3FFFFF)


def _fixed_ids(start: int) -> itertools.count[int]:
    # Fixed, readable ids for the world's objects so that log lines stay comparable between runs.
    return itertools.count(start)


@dataclass
class User:
    id: int
    name: str
    locale: str = "fr"
    bot: bool = False

    def payload(self) -> dict[str, Any]:
        return {
            "id": str(self.id),
            "username": self.name,
            "discriminator": "0",
            "global_name": self.name.title(),
            "avatar": None,
            "bot": self.bot,
            "public_flags": 0,
            "flags": 0,
        }

    @property
    def mention(self) -> str:
        return f"<@{self.id}>"


@dataclass
class Role:
    id: int
    name: str
    permissions: int = 0
    position: int = 0

    def payload(self) -> dict[str, Any]:
        return {
            "id": str(self.id),
            "name": self.name,
            "color": 0,
            "hoist": False,
            "icon": None,
            "unicode_emoji": None,
            "position": self.position,
            "permissions": str(self.permissions),
            "managed": False,
            "mentionable": False,
            "flags": 0,
        }


@dataclass
class Overwrite:
    """A channel's permission overwrite for a role (``@everyone``'s id is the server's) or for
    one member: what it allows and denies there beyond their server-wide permissions."""

    id: int
    member: bool
    allow: int = 0
    deny: int = 0

    def payload(self) -> dict[str, Any]:
        return {
            "id": str(self.id),
            "type": 1 if self.member else 0,
            "allow": str(self.allow),
            "deny": str(self.deny),
        }


@dataclass
class Channel:
    id: int
    name: str
    guild_id: int | None
    type: int = TEXT_CHANNEL
    position: int = 0
    recipient: User | None = None  # DM channels only
    overwrites: list[Overwrite] = field(default_factory=list)
    parent_id: int | None = None  # a thread's channel
    owner_id: int | None = None  # who started a thread
    archived: bool = False  # a thread's
    locked: bool = False  # a thread's: only members who may manage threads unarchive it
    auto_archive_duration: int = 1440  # a thread's: minutes without a message to archive it
    active_at: float = 0.0  # a thread's: its last message (or its creation), emulator clock

    @property
    def is_dm(self) -> bool:
        return self.guild_id is None

    @property
    def is_thread(self) -> bool:
        return self.type in THREAD_TYPES

    def payload(self) -> dict[str, Any]:
        if self.recipient is not None:
            return {
                "id": str(self.id),
                "type": DM_CHANNEL,
                "last_message_id": None,
                "flags": 0,
                "recipients": [self.recipient.payload()],
            }
        return {
            "id": str(self.id),
            "type": self.type,
            "guild_id": str(self.guild_id),
            "name": self.name,
            "position": self.position,
            "permission_overwrites": [overwrite.payload() for overwrite in self.overwrites],
            "nsfw": False,
            "topic": None,
            "last_message_id": None,
            "rate_limit_per_user": 0,
            "parent_id": str(self.parent_id) if self.parent_id is not None else None,
            "flags": 0,
            **(self._thread_payload() if self.is_thread else {}),
        }

    def _thread_payload(self) -> dict[str, Any]:
        return {
            "owner_id": str(self.owner_id),
            "message_count": 0,
            "member_count": 1,
            "thread_metadata": {
                "archived": self.archived,
                "auto_archive_duration": self.auto_archive_duration,
                "archive_timestamp": now_iso(),
                "locked": self.locked,
            },
        }


@dataclass
class Member:
    user: User
    role_ids: list[int] = field(default_factory=list)
    nick: str | None = None
    joined_at: str = field(default_factory=now_iso)

    def payload(self, *, permissions: int | None = None, with_user: bool = True) -> dict[str, Any]:
        data: dict[str, Any] = {
            "roles": [str(role_id) for role_id in self.role_ids],
            "nick": self.nick,
            "avatar": None,
            "banner": None,
            "joined_at": self.joined_at,
            "premium_since": None,
            "deaf": False,
            "mute": False,
            # discord.py >= 2.2 reads member["flags"] unconditionally.
            "flags": 0,
            "pending": False,
            "communication_disabled_until": None,
        }
        if with_user:
            data["user"] = self.user.payload()
        if permissions is not None:
            data["permissions"] = str(permissions)
        return data


@dataclass
class Guild:
    id: int
    name: str
    owner_id: int
    preferred_locale: str = "fr"
    channels: list[Channel] = field(default_factory=list)
    threads: list[Channel] = field(default_factory=list)
    roles: list[Role] = field(default_factory=list)
    members: dict[int, Member] = field(default_factory=dict)

    @property
    def everyone(self) -> Role:
        # Discord gives @everyone the server's own id.
        return next(role for role in self.roles if role.id == self.id)

    def channel(self, name: str) -> Channel:
        for channel in self.channels:
            if channel.name == name:
                return channel
        raise LookupError(
            f"no channel {name!r} in {self.name!r}: {[c.name for c in self.channels]}"
        )

    def role(self, name: str) -> Role:
        for role in self.roles:
            if role.name == name:
                return role
        raise LookupError(f"no role {name!r} in {self.name!r}: {[r.name for r in self.roles]}")

    def member(self, user: User | int) -> Member:
        user_id = user if isinstance(user, int) else user.id
        try:
            return self.members[user_id]
        except KeyError:
            raise LookupError(f"user {user_id} is not a member of {self.name!r}") from None

    def permissions(self, user: User | int, channel: Channel | None = None) -> int:
        """A member's permissions, as Discord computes them: server-wide from their roles, or
        in ``channel``, its overwrites applied (@everyone's, then their roles', then their own)."""
        member = self.member(user)
        if member.user.id == self.owner_id:
            return ALL_PERMISSIONS
        roles = {role.id: role for role in self.roles}
        value = self.everyone.permissions
        for role_id in member.role_ids:
            value |= roles[role_id].permissions
        if value & ADMINISTRATOR:
            return ALL_PERMISSIONS
        if channel is None:
            return value
        if channel.parent_id is not None:  # a thread's are its channel's
            channel = next(c for c in self.channels if c.id == channel.parent_id)
        found = {(o.id, o.member): o for o in channel.overwrites}
        everyone = found.get((self.id, False))
        if everyone is not None:
            value = (value & ~everyone.deny) | everyone.allow
        allow = deny = 0
        for role_id in member.role_ids:
            role = found.get((role_id, False))
            if role is not None:
                allow, deny = allow | role.allow, deny | role.deny
        value = (value & ~deny) | allow
        own = found.get((member.user.id, True))
        if own is not None:
            value = (value & ~own.deny) | own.allow
        return value

    def payload(self) -> dict[str, Any]:
        """The GUILD_CREATE body: every member the world knows is sent, and ``member_count``
        says exactly that many, so discord.py never waits to chunk the member list."""
        return {
            "id": str(self.id),
            "name": self.name,
            "icon": None,
            "splash": None,
            "discovery_splash": None,
            "owner_id": str(self.owner_id),
            "afk_channel_id": None,
            "afk_timeout": 300,
            "verification_level": 0,
            "default_message_notifications": 1,
            "explicit_content_filter": 0,
            "features": [],
            "mfa_level": 0,
            "system_channel_id": None,
            "system_channel_flags": 0,
            "rules_channel_id": None,
            "vanity_url_code": None,
            "description": None,
            "banner": None,
            "premium_tier": 0,
            "premium_subscription_count": 0,
            "preferred_locale": self.preferred_locale,
            "public_updates_channel_id": None,
            "nsfw_level": 0,
            "premium_progress_bar_enabled": False,
            "roles": [role.payload() for role in self.roles],
            "emojis": [],
            "stickers": [],
            "joined_at": now_iso(),
            "large": False,
            "unavailable": False,
            "member_count": len(self.members),
            "voice_states": [],
            "members": [member.payload() for member in self.members.values()],
            "channels": [channel.payload() for channel in self.channels],
            "threads": [thread.payload() for thread in self.threads if not thread.archived],
            "presences": [],
            "stage_instances": [],
            "guild_scheduled_events": [],
            "soundboard_sounds": [],
        }


@dataclass
class World:
    """Everything the emulated Discord knows about. ``World.default()`` describes it; a test that
    needs another world overrides the ``world`` fixture or mutates ``emulator.world``."""

    bot: User
    application_id: int
    users: dict[str, User] = field(default_factory=dict)
    guilds: dict[str, Guild] = field(default_factory=dict)
    dm_channels: dict[int, Channel] = field(default_factory=dict)
    _ids: itertools.count[int] = field(
        default_factory=lambda: _fixed_ids(1_100_000_000_000_000_001)
    )

    @classmethod
    def empty(cls, *, bot_name: str = "Gobelet") -> World:
        bot_id = 1_000_000_000_000_000_001
        # A bot's application id equals its user id for every application created since 2019.
        return cls(bot=User(bot_id, bot_name, locale="en-US", bot=True), application_id=bot_id)

    @classmethod
    def default(cls, *, shards: int | None = None) -> World:
        """Two servers, five people.

        - ``bar``: French (``preferred_locale`` "fr"), channels ``comptoir`` and ``terrasse``;
          members patron (owner), alice, bob, carol, dave; carol has the role ``Barman`` with
          Manage Server.
        - ``pub``: English (``en-US``), channels ``general`` and ``games``; members patron
          (owner), alice, carol, dave; dave has the role ``Landlord`` with Manage Server.
        - Users' own locales: alice fr, bob fr, carol en-US, dave en-GB, patron fr.

        The ids are fixed (a database in ``fixtures/`` holds them), and both servers fall on
        one shard; ``shards=2`` (or more) gives ``bar`` an id on shard 0 and ``pub`` one on
        shard 1 of that count, everything else alike.
        """
        world = cls.empty()
        for name, locale in [
            ("patron", "fr"),
            ("alice", "fr"),
            ("bob", "fr"),
            ("carol", "en-US"),
            ("dave", "en-GB"),
        ]:
            world.add_user(name, locale=locale)
        bar = world.add_guild(
            "bar",
            owner="patron",
            locale="fr",
            channels=["comptoir", "terrasse"],
            shard=(0, shards) if shards else None,
        )
        world.add_role("bar", "Barman", MANAGE_GUILD)
        for name in ["alice", "bob", "carol", "dave"]:
            world.join("bar", name)
        bar.member(world.user("carol")).role_ids.append(bar.role("Barman").id)
        pub = world.add_guild(
            "pub",
            owner="patron",
            locale="en-US",
            channels=["general", "games"],
            shard=(1 % shards, shards) if shards else None,
        )
        world.add_role("pub", "Landlord", MANAGE_GUILD)
        for name in ["alice", "carol", "dave"]:
            world.join("pub", name)
        pub.member(world.user("dave")).role_ids.append(pub.role("Landlord").id)
        return world

    # --- building -------------------------------------------------------------------------

    def new_id(self) -> int:
        return next(self._ids)

    def add_user(self, name: str, *, locale: str = "fr") -> User:
        user = User(self.new_id(), name, locale=locale)
        self.users[name] = user
        return user

    def guild_id_on(self, shard: int, count: int) -> int:
        """A fresh guild id on ``shard`` of ``count``: the next id, its time part moved up to
        the nearest value on that shard. The sequence of other ids would have to advance by
        2**22 to meet it again, far more than any test creates."""
        if not 0 <= shard < count:
            raise ValueError(f"no shard {shard} among {count}")
        fresh = self.new_id()
        step = (shard - shard_of(fresh, count)) % count
        return fresh + (step << SNOWFLAKE_TIME_SHIFT)

    def add_guild(
        self,
        name: str,
        *,
        owner: str,
        locale: str = "fr",
        channels: list[str] | None = None,
        shard: tuple[int, int] | None = None,
    ) -> Guild:
        """A server the bot is in; ``shard=(id, count)`` puts it on that shard of ``count``."""
        guild_id = self.guild_id_on(*shard) if shard else self.new_id()
        owner_user = self.user(owner)
        guild = Guild(guild_id, name, owner_user.id, preferred_locale=locale)
        guild.roles.append(Role(guild_id, "@everyone", EVERYONE_DEFAULT, position=0))
        bot_role = Role(self.new_id(), self.bot.name, BOT_ROLE_DEFAULT, position=1)
        guild.roles.append(bot_role)
        guild.members[self.bot.id] = Member(self.bot, [bot_role.id])
        guild.members[owner_user.id] = Member(owner_user)
        self.guilds[name] = guild
        for channel_name in channels or []:
            self.add_channel(name, channel_name)
        return guild

    def add_channel(self, guild_name: str, name: str, *, type: int = TEXT_CHANNEL) -> Channel:
        """A channel of the server: a text one, or (``type=ANNOUNCEMENT_CHANNEL``) an
        announcement one."""
        guild = self.guild(guild_name)
        channel = Channel(self.new_id(), name, guild.id, type, position=len(guild.channels))
        guild.channels.append(channel)
        return channel

    def remove_channel(self, channel: Channel) -> list[Channel]:
        """Delete a channel (its threads go with it) or a thread: what was removed."""
        guild = self.guild(channel.guild_id) if channel.guild_id is not None else None
        if guild is None:
            raise LookupError(f"channel {channel.id} is not a server's")
        gone = [channel, *(t for t in guild.threads if t.parent_id == channel.id)]
        guild.channels = [c for c in guild.channels if c not in gone]
        guild.threads = [t for t in guild.threads if t not in gone]
        return gone

    def remove_bot(self, guild: Guild | int | str) -> Guild:
        """The bot is no longer a member of the server (kicked, or it left)."""
        found = self.guild(guild)
        found.members.pop(self.bot.id, None)
        return found

    def add_role(self, guild_name: str, name: str, permissions: int) -> Role:
        guild = self.guild(guild_name)
        role = Role(self.new_id(), name, permissions, position=len(guild.roles))
        guild.roles.append(role)
        return role

    def join(self, guild_name: str, user_name: str, *, roles: list[str] | None = None) -> Member:
        guild = self.guild(guild_name)
        user = self.user(user_name)
        member = Member(user, [guild.role(role).id for role in roles or []])
        guild.members[user.id] = member
        return member

    def overwrite(
        self, channel: Channel, who: User | Role, *, allow: int = 0, deny: int = 0
    ) -> Overwrite:
        """Allow and deny ``who`` (a member, the bot included, or a role) permissions in
        ``channel``, beyond their server-wide ones, as a channel's settings do."""
        member = isinstance(who, User)
        found = next((o for o in channel.overwrites if (o.id, o.member) == (who.id, member)), None)
        if found is None:
            found = Overwrite(who.id, member)
            channel.overwrites.append(found)
        found.allow, found.deny = allow, deny
        return found

    # --- looking up -----------------------------------------------------------------------

    def user(self, who: User | int | str) -> User:
        if isinstance(who, User):
            return who
        if isinstance(who, str):
            try:
                return self.users[who]
            except KeyError:
                raise LookupError(f"no user {who!r}: {sorted(self.users)}") from None
        if who == self.bot.id:
            return self.bot
        for user in self.users.values():
            if user.id == who:
                return user
        raise LookupError(f"no user with id {who}")

    def guild(self, which: Guild | int | str) -> Guild:
        if isinstance(which, Guild):
            return which
        for guild in self.guilds.values():
            if which in (guild.name, guild.id):
                return guild
        raise LookupError(f"no guild {which!r}: {sorted(self.guilds)}")

    def channel(self, guild_or_id: str | int, name: str | None = None) -> Channel:
        """``world.channel("bar", "comptoir")`` or ``world.channel(channel_id)`` (DMs included)."""
        if name is not None:
            return self.guild(guild_or_id).channel(name)
        for guild in self.guilds.values():
            for channel in (*guild.channels, *guild.threads):
                if channel.id == guild_or_id:
                    return channel
        for channel in self.dm_channels.values():
            if channel.id == guild_or_id:
                return channel
        raise LookupError(f"no channel with id {guild_or_id}")

    def guild_of(self, channel: Channel) -> Guild | None:
        if channel.guild_id is None:
            return None
        return self.guild(channel.guild_id)

    def dm(self, who: User | int | str) -> Channel:
        """The DM channel between the bot and a user, created on first use as Discord does."""
        user = self.user(who)
        if user.id not in self.dm_channels:
            self.dm_channels[user.id] = Channel(self.new_id(), "", None, DM_CHANNEL, recipient=user)
        return self.dm_channels[user.id]
