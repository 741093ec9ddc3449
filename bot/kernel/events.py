"""Events: what happened, in the past tense, as frozen dataclasses.

Each game declares its events as subclasses of ``Event``, registered in the game's own
``EventTypes`` under the type name they are stored with (``"announced"``, ``"revealed"``):
two games may both have a ``"rolled"``. An event stores as ``{"type", "data", "visibility",
"to"}``, ``data`` holding its fields, so an event log written before events were typed
reads back as the same events.

Visibility: a ``PUBLIC`` event may be told to the channel; a ``PRIVATE`` one only to
``to`` (a player's own dice); a ``SECRET`` one to nobody (dice nobody looked at): secret
events exist for replay and persistence only.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, fields
from enum import StrEnum
from typing import Any, ClassVar, TypeVar


class Visibility(StrEnum):
    PUBLIC = "public"
    PRIVATE = "private"
    SECRET = "secret"


PUBLIC = Visibility.PUBLIC
PRIVATE = Visibility.PRIVATE
SECRET = Visibility.SECRET

_BASE_FIELDS = frozenset({"visibility", "to"})


@dataclass(frozen=True, slots=True, kw_only=True)
class Event:
    """Something that happened. Subclasses add their fields and a ``type`` name."""

    type: ClassVar[str] = "event"
    visibility: Visibility = PUBLIC
    to: int | None = None

    @property
    def public(self) -> bool:
        return self.visibility == PUBLIC

    def visible_to(self, player: int | None) -> bool:
        """Whether ``player`` (None: anyone watching the channel) may see this event."""
        if self.visibility == PUBLIC:
            return True
        return self.visibility == PRIVATE and player is not None and player == self.to

    @property
    def data(self) -> dict[str, Any]:
        """The event's own fields, as stored."""
        return {f.name: getattr(self, f.name) for f in fields(self) if f.name not in _BASE_FIELDS}

    def to_json(self) -> dict[str, Any]:
        return {
            "type": self.type,
            "data": self.data,
            "visibility": str(self.visibility),
            "to": self.to,
        }


E = TypeVar("E", bound=type[Event])


class EventTypes:
    """One game's events by type name: how its stored events are read back."""

    def __init__(self, game: str) -> None:
        self.game = game
        self._types: dict[str, type[Event]] = {}

    def register(self, name: str) -> Callable[[E], E]:
        """Class decorator: the event stored as ``name``."""

        def decorate(cls: E) -> E:
            if name in self._types:
                raise ValueError(f"{self.game} already has an event {name!r}")
            cls.type = name
            self._types[name] = cls
            return cls

        return decorate

    def __iter__(self) -> Iterator[type[Event]]:
        return iter(self._types.values())

    def __contains__(self, name: object) -> bool:
        return name in self._types

    def build(
        self,
        name: str,
        data: Mapping[str, Any],
        visibility: str = PUBLIC,
        to: int | None = None,
    ) -> Event:
        """The event stored as ``name`` with ``data`` (an event log's row)."""
        cls = self._types.get(name)
        if cls is None:
            raise ValueError(f"{self.game} has no event {name!r}")
        return cls(**data, visibility=Visibility(visibility), to=to)

    def from_json(self, raw: Mapping[str, Any]) -> Event:
        return self.build(raw["type"], raw["data"], raw.get("visibility", PUBLIC), raw.get("to"))
