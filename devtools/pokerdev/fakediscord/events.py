"""The guild's scheduled events: create, read, edit (its status: scheduled, active, completed, cancelled), delete,
and the members who mark one Interested (``FakeDiscord.mark_interested``: a bot with the GUILD_SCHEDULED_EVENTS
intent is sent GUILD_SCHEDULED_EVENT_USER_ADD or _REMOVE, as by Discord).

Discord's rules that its specification does not say, answered as Discord answers them: an external event needs a
location and an end time after its start, its start must be to come (50035), the bot needs Create Events (or
Manage Events) to create one and to change one it created (Manage Events for another's: 403 / 50013), a status
moves only scheduled → active or cancelled and active → completed, and an unknown event is 404 / 10070.
"""

from __future__ import annotations

import datetime
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

from .answers import ApiError
from .constants import JSON, Perm
from .form import FormErrors
from .guild import Guild
from .model import new_snowflake

SCHEDULED, ACTIVE, COMPLETED, CANCELED = 1, 2, 3, 4
STATUS_NAMES = {SCHEDULED: "scheduled", ACTIVE: "active", COMPLETED: "completed", CANCELED: "cancelled"}
MOVES = {SCHEDULED: {ACTIVE, CANCELED}, ACTIVE: {COMPLETED}}
EXTERNAL = 3
UNKNOWN_EVENT = 10070
PAGE = 100  # users a page holds at most (the query's limit)


def _time(value: Any) -> datetime.datetime | None:
    if not isinstance(value, str):
        return None
    try:
        moment = datetime.datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        return None
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=datetime.UTC)


@dataclass(eq=False)
class FakeEvent:
    """A scheduled event and, in the order they marked it, the members Interested in it."""

    id: int
    guild_id: int
    creator_id: int
    name: str
    description: str | None
    start: datetime.datetime
    end: datetime.datetime | None
    entity_type: int
    location: str | None
    channel_id: int | None
    status: int = SCHEDULED
    interested: list[int] = field(default_factory=list)

    @property
    def state(self) -> str:
        """``scheduled``, ``active``, ``completed`` or ``cancelled``."""
        return STATUS_NAMES[self.status]

    def payload(self, with_count: bool = False) -> JSON:
        data: JSON = {
            "id": str(self.id), "guild_id": str(self.guild_id), "name": self.name, "description": self.description,
            "channel_id": str(self.channel_id) if self.channel_id else None, "creator_id": str(self.creator_id),
            "image": None, "scheduled_start_time": self.start.isoformat(),
            "scheduled_end_time": self.end.isoformat() if self.end else None, "status": self.status,
            "entity_type": self.entity_type, "entity_id": None, "privacy_level": 2, "recurrence_rule": None,
            "entity_metadata": {"location": self.location} if self.location is not None else None,
        }
        if with_count:
            data["user_count"] = len(self.interested)
        return data


class ScheduledEvents:
    """Every scheduled event of the guild, by id."""

    def __init__(self, guild: Guild) -> None:
        self.guild = guild
        self.by_id: dict[int, FakeEvent] = {}

    def __iter__(self) -> Iterator[FakeEvent]:
        return iter(self.by_id.values())

    def find(self, event_id: int | str) -> FakeEvent:
        event = self.by_id.get(int(event_id)) if str(event_id).isdigit() else None
        if event is None:
            raise ApiError(404, UNKNOWN_EVENT, "Unknown Guild Scheduled Event")
        return event

    def _may(self, wanted: int) -> bool:
        return bool(self.guild.permissions(self.guild.bot_user) & wanted)

    def create(self, data: Mapping[str, Any]) -> FakeEvent:
        if not self._may(Perm.CREATE_EVENTS | Perm.MANAGE_EVENTS):
            raise ApiError(403, 50013, "Missing Permissions")
        errors = FormErrors()
        start, end = _time(data.get("scheduled_start_time")), _time(data.get("scheduled_end_time"))
        location = (data.get("entity_metadata") or {}).get("location")
        if start is None:
            errors.add(("scheduled_start_time",), "BASE_TYPE_REQUIRED", "This field is required")
        elif start <= datetime.datetime.now(datetime.UTC):
            errors.add(("scheduled_start_time",), "GUILD_SCHEDULED_EVENT_SCHEDULE_PAST",
                       "Cannot schedule event in the past.")
        if data.get("entity_type") == EXTERNAL:
            if not location:
                errors.add(("entity_metadata", "location"), "BASE_TYPE_REQUIRED", "This field is required")
            if end is None:
                errors.add(("scheduled_end_time",), "BASE_TYPE_REQUIRED", "This field is required")
            if data.get("channel_id") is not None:
                errors.add(("channel_id",), "BASE_TYPE_INVALID", "An external event has no channel.")
        if start is not None and end is not None and end <= start:
            errors.add(("scheduled_end_time",), "GUILD_SCHEDULED_EVENT_END_BEFORE_START",
                       "Cannot schedule event to end before starting.")
        errors.raise_if_any()
        assert start is not None
        channel = data.get("channel_id")
        event = FakeEvent(new_snowflake(), self.guild.id, self.guild.bot_user.id, str(data.get("name")),
                          data.get("description"), start, end, int(data.get("entity_type") or 0), location,
                          int(channel) if channel else None)
        self.by_id[event.id] = event
        return event

    def _check_manage(self, event: FakeEvent) -> None:
        mine = event.creator_id == self.guild.bot_user.id and self._may(Perm.CREATE_EVENTS)
        if not mine and not self._may(Perm.MANAGE_EVENTS):
            raise ApiError(403, 50013, "Missing Permissions")

    def edit(self, event: FakeEvent, data: Mapping[str, Any]) -> None:
        self._check_manage(event)
        errors = FormErrors()
        status = data.get("status")
        if status is not None and status != event.status and status not in MOVES.get(event.status, set()):
            errors.add(("status",), "GUILD_SCHEDULED_EVENT_INVALID_STATUS_TRANSITION",
                       f"Cannot move an event from {event.state} to {STATUS_NAMES.get(status, status)}.")
        errors.raise_if_any()
        if status is not None:
            event.status = int(status)
        for key in ("name", "description"):
            if key in data:
                setattr(event, key, data[key])
        if "scheduled_start_time" in data and (start := _time(data["scheduled_start_time"])) is not None:
            event.start = start
        if "scheduled_end_time" in data:
            event.end = _time(data["scheduled_end_time"])

    def delete(self, event: FakeEvent) -> None:
        self._check_manage(event)
        del self.by_id[event.id]

    def users(self, event: FakeEvent, query: Mapping[str, str]) -> list[JSON]:
        """The event's Interested users, by id ascending: ``limit`` (at most 100) of them, ``before`` or ``after``
        a user id, each with his member when ``with_member`` is true."""
        limit = min(PAGE, max(1, int(query.get("limit", PAGE))))
        ids = sorted(event.interested)
        if "after" in query:
            ids = [u for u in ids if u > int(query["after"])][:limit]
        elif "before" in query:
            ids = [u for u in ids if u < int(query["before"])][-limit:]
        else:
            ids = ids[:limit]
        with_member = query.get("with_member", "false").lower() in ("true", "1")
        out = []
        for user_id in ids:
            user = self.guild.user(user_id)
            row: JSON = {"guild_scheduled_event_id": str(event.id), "user_id": str(user_id), "user": user.payload()}
            if with_member:
                row["member"] = self.guild.member_payload(user)
            out.append(row)
        return out

    def mark(self, event: FakeEvent, user_id: int, interested: bool) -> bool:
        """Mark (or unmark) the user Interested; False when he already was (was not)."""
        if interested and user_id not in event.interested:
            event.interested.append(user_id)
            return True
        if not interested and user_id in event.interested:
            event.interested.remove(user_id)
            return True
        return False


def user_event(event: FakeEvent, user_id: int, interested: bool) -> tuple[str, JSON]:
    """The gateway event Discord sends when a member marks (``interested``) or unmarks an event Interested."""
    name = "GUILD_SCHEDULED_EVENT_USER_ADD" if interested else "GUILD_SCHEDULED_EVENT_USER_REMOVE"
    return name, {"guild_scheduled_event_id": str(event.id), "user_id": str(user_id), "guild_id": str(event.guild_id)}
