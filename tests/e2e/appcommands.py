"""The ``data`` of a slash-command interaction, built from the command tree the bot synced.

Values are checked as Discord's client checks them before it sends anything (required options,
choices, bounds, lengths, kinds of channel, where a command is offered, who sees it), so that a test cannot send
what no user could type, and a test that types something wrong learns it at once.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal

from tests.e2e.world import Channel, Guild, Role, User, World

# Application command option types.
SUB_COMMAND, SUB_COMMAND_GROUP = 1, 2
STRING, INTEGER, BOOLEAN, USER, CHANNEL, ROLE, MENTIONABLE, NUMBER, ATTACHMENT = range(3, 12)

Resolvable = Literal["user", "channel", "role", "mentionable"]
OPTION_RESOLVES: dict[int, Resolvable] = {
    USER: "user",
    CHANNEL: "channel",
    ROLE: "role",
    MENTIONABLE: "mentionable",
}
# Select menus use their own numbering (component types), not the option types above.
SELECT_RESOLVES: dict[int, Resolvable] = {5: "user", 6: "role", 7: "mentionable", 8: "channel"}


class EmulatorError(Exception):
    """A test asked for something a Discord user could not do (click a disabled button, run a
    command that is not synced, see someone else's ephemeral message...)."""


def find_command(
    commands: Mapping[int | None, list[dict[str, Any]]], name: str, guild_id: int | None
) -> dict[str, Any] | None:
    """A synced chat-input command by name: the server's own first, then the global ones."""
    scopes = [guild_id, None] if guild_id is not None else [None]
    for scope in scopes:
        for command in commands.get(scope, []):
            if command["name"] == name and command.get("type", 1) == 1:
                return command
    return None


def check_available(user: User, guild: Guild | None, definition: dict[str, Any]) -> None:
    """Raise when Discord's client would not offer the command to this user here."""
    name = definition["name"]
    contexts = definition.get("contexts")
    if guild is None:
        if definition.get("guild_id") or definition.get("dm_permission") is False:
            raise EmulatorError(f"/{name} is not available in DMs")
        if contexts is not None and 1 not in contexts:
            raise EmulatorError(f"/{name} is not available in DMs")
        return
    if contexts is not None and 0 not in contexts:
        raise EmulatorError(f"/{name} is not available in servers")
    required = definition.get("default_member_permissions")
    if required is not None:
        needed = int(required)
        if guild.permissions(user) & needed != needed:
            raise EmulatorError(
                f"Discord hides /{name} from {user.name} in {guild.name}: "
                f"needs permissions {needed}"
            )


def interaction_data(
    world: World,
    definition: dict[str, Any],
    command: str,
    options: Mapping[str, Any],
    guild: Guild | None,
    focused: str | None = None,
    *,
    forged: bool = False,
) -> dict[str, Any]:
    """``command`` is the path typed ("game", "game sub", "game group sub"); ``focused`` names
    the option being typed in, for autocomplete. ``forged``: values are sent as given, past
    the choices, bounds, lengths and kinds of channel Discord's client would hold them to (a
    modified client or a raw API call can send anything of the option's type)."""
    path = command.split()
    resolved: dict[str, dict[str, Any]] = {}
    level = definition
    nested: list[dict[str, Any]] = []
    for part in path[1:]:
        child = next((o for o in level.get("options", []) if o["name"] == part), None)
        if child is None or child["type"] not in (SUB_COMMAND, SUB_COMMAND_GROUP):
            raise EmulatorError(f"/{command}: {part!r} is not a subcommand of {level['name']}")
        nested.append(child)
        level = child
    if any(o["type"] in (SUB_COMMAND, SUB_COMMAND_GROUP) for o in level.get("options", [])):
        raise EmulatorError(f"/{command} needs a subcommand")
    leaf = _option_values(world, command, level, options, focused, guild, resolved, forged)
    for child in reversed(nested):
        leaf = [{"name": child["name"], "type": child["type"], "options": leaf}]
    data: dict[str, Any] = {
        "id": str(definition["id"]),
        "name": definition["name"],
        "type": 1,
        "options": leaf,
    }
    if resolved:
        data["resolved"] = resolved
    if definition.get("guild_id"):
        data["guild_id"] = str(definition["guild_id"])
    return data


def _option_values(
    world: World,
    command: str,
    level: dict[str, Any],
    given: Mapping[str, Any],
    focused: str | None,
    guild: Guild | None,
    resolved: dict[str, dict[str, Any]],
    forged: bool = False,
) -> list[dict[str, Any]]:
    definitions = {o["name"]: o for o in level.get("options", [])}
    unknown = set(given) - set(definitions)
    if unknown:
        raise EmulatorError(f"/{command} has no options {sorted(unknown)}: {list(definitions)}")
    sent: list[dict[str, Any]] = []
    for name, definition in definitions.items():
        if name not in given:
            # While autocompleting, required options may still be empty.
            if definition.get("required") and focused is None:
                raise EmulatorError(f"/{command} requires option {name!r}")
            continue
        kind = definition["type"]
        if name == focused:
            # Autocomplete sends what is typed so far, unchecked.
            sent.append({"name": name, "type": kind, "value": given[name], "focused": True})
            continue
        value = _option_value(world, command, definition, given[name], guild, resolved, forged)
        sent.append({"name": name, "type": kind, "value": value})
    return sent


def _option_value(
    world: World,
    command: str,
    definition: dict[str, Any],
    value: Any,
    guild: Guild | None,
    resolved: dict[str, dict[str, Any]],
    forged: bool = False,
) -> Any:
    kind = definition["type"]
    name = f"/{command} {definition['name']}"
    if kind == CHANNEL and not forged and definition.get("channel_types"):
        channel = value if isinstance(value, Channel) else world.channel(value)
        if channel.type not in definition["channel_types"]:
            raise EmulatorError(
                f"{name}: Discord's client offers channels of types {definition['channel_types']},"
                f" not {channel.name!r} (type {channel.type})"
            )
    if kind in OPTION_RESOLVES:
        return resolve(world, value, OPTION_RESOLVES[kind], guild, resolved)
    if kind == ATTACHMENT:
        raise EmulatorError(f"{name}: attachment options are not emulated")
    types: dict[int, type | tuple[type, ...]] = {
        STRING: str,
        INTEGER: int,
        BOOLEAN: bool,
        NUMBER: (int, float),
    }
    expected = types[kind]
    # bool is an int for Python, not for Discord. (A plain flag keeps ``value`` un-narrowed.)
    well_typed = isinstance(value, expected) and (kind == BOOLEAN or not isinstance(value, bool))
    if not well_typed:
        raise EmulatorError(f"{name} takes a {expected}, not {value!r}")
    if forged:
        return float(value) if kind == NUMBER else value
    choices = definition.get("choices")
    if choices and value not in [c["value"] for c in choices]:
        raise EmulatorError(f"{name}: {value!r} is not one of {[c['value'] for c in choices]}")
    low, high = definition.get("min_value"), definition.get("max_value")
    if (low is not None and value < low) or (high is not None and value > high):
        raise EmulatorError(f"{name}: {value!r} is outside {low}..{high}")
    low, high = definition.get("min_length"), definition.get("max_length")
    if kind == STRING and (
        (low is not None and len(value) < low) or (high is not None and len(value) > high)
    ):
        raise EmulatorError(f"{name}: {value!r} length is outside {low}..{high}")
    return float(value) if kind == NUMBER else value


def resolve(
    world: World,
    value: Any,
    what: Resolvable,
    guild: Guild | None,
    resolved: dict[str, dict[str, Any]],
) -> str:
    """The id sent for a user, channel or role (given as an object, a name or an id), with
    its entry in ``resolved`` as Discord adds it (users come with their member data)."""
    if what == "user" or (what == "mentionable" and not isinstance(value, Role)):
        user = world.user(value)
        resolved.setdefault("users", {})[str(user.id)] = user.payload()
        if guild is not None and user.id in guild.members:
            member = guild.member(user).payload(
                permissions=guild.permissions(user), with_user=False
            )
            resolved.setdefault("members", {})[str(user.id)] = member
        return str(user.id)
    if what == "channel":
        channel = value if isinstance(value, Channel) else world.channel(value)
        entry = {"id": str(channel.id), "name": channel.name, "type": channel.type}
        entry["permissions"] = str(guild.permissions(world.bot) if guild else 0)
        resolved.setdefault("channels", {})[str(channel.id)] = entry
        return str(channel.id)
    if guild is None:
        raise EmulatorError("roles only exist in servers")
    if isinstance(value, Role):
        role = value
    elif isinstance(value, str):
        role = guild.role(value)
    else:
        role = next(r for r in guild.roles if r.id == value)
    resolved.setdefault("roles", {})[str(role.id)] = role.payload()
    return str(role.id)


def improvised_command(command_id: int, command: str, options: Mapping[str, Any]) -> dict[str, Any]:
    """A definition for a command Discord never registered, typed from the Python values, so
    that a test can check what the bot does with a stale or unknown command."""

    def kind(value: Any) -> int:
        if isinstance(value, bool):
            return BOOLEAN
        if isinstance(value, int):
            return INTEGER
        if isinstance(value, float):
            return NUMBER
        if isinstance(value, User):
            return USER
        if isinstance(value, Channel):
            return CHANNEL
        if isinstance(value, Role):
            return ROLE
        return STRING

    path = command.split()
    level: dict[str, Any] = {
        "options": [
            {"name": name, "type": kind(value), "description": "-"}
            for name, value in options.items()
        ]
    }
    for depth in range(len(path) - 1, 0, -1):
        nested_kind = SUB_COMMAND if depth == len(path) - 1 else SUB_COMMAND_GROUP
        level = {
            "options": [{"name": path[depth], "type": nested_kind, "description": "-", **level}]
        }
    return {"id": str(command_id), "name": path[0], "type": 1, "description": "-", **level}
