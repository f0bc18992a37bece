"""The fake's data model: snowflakes, roles, users, channels, messages, the files attached to them, and the
application's emojis."""

from __future__ import annotations

import copy
import time
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from .constants import BUTTON, DISCORD_EPOCH_MS, JSON, MessageFlag


class _Snowflakes:
    """Real-looking, strictly increasing snowflakes (``discord.utils.snowflake_time`` gives the creation time)."""

    def __init__(self) -> None:
        self._last = 0

    def __call__(self) -> int:
        candidate = (int(time.time() * 1000) - DISCORD_EPOCH_MS) << 22
        self._last = max(candidate, self._last + 1)
        return self._last


new_snowflake = _Snowflakes()


def iso_now() -> str:
    return datetime.now(UTC).isoformat()


@dataclass(eq=False)
class FakeRole:
    id: int
    name: str
    permissions: int = 0
    position: int = 1
    managed: bool = False
    bot_id: int | None = None

    @property
    def mention(self) -> str:
        return f"<@&{self.id}>"

    def payload(self) -> JSON:
        data: JSON = {
            "id": str(self.id),
            "name": self.name,
            "permissions": str(self.permissions),
            "position": self.position,
            "color": 0,
            "hoist": False,
            "icon": None,
            "unicode_emoji": None,
            "managed": self.managed,
            "mentionable": False,
            "flags": 0,
        }
        if self.bot_id is not None:
            data["tags"] = {"bot_id": str(self.bot_id)}
        return data


@dataclass(eq=False)
class FakeUser:
    id: int
    name: str
    roles: list[FakeRole] = field(default_factory=list)
    dms_open: bool = True
    bot: bool = False
    locale: str = "en-US"  # the language of his Discord client

    @property
    def mention(self) -> str:
        return f"<@{self.id}>"

    def payload(self) -> JSON:
        return {
            "id": str(self.id),
            "username": self.name,
            "discriminator": "0",
            "global_name": None if self.bot else self.name,
            "avatar": None,
            "bot": self.bot,
            "public_flags": 0,
        }

    def __repr__(self) -> str:
        return f"<FakeUser {self.name} {self.id}>"


@dataclass(eq=False)
class StoredFile:
    """An uploaded file: what the bot attached to a message."""

    id: int
    filename: str
    data: bytes
    content_type: str | None = None
    url: str = ""
    description: str | None = None
    field: str = ""  # the multipart field it came in (files[n])

    def payload(self) -> JSON:
        data: JSON = {
            "id": str(self.id),
            "filename": self.filename,
            "size": len(self.data),
            "url": self.url,
            "proxy_url": self.url,
        }
        if self.content_type:
            data["content_type"] = self.content_type
        if self.description:
            data["description"] = self.description
        return data


def walk_components(components: Sequence[Mapping[str, Any]]) -> Iterator[Mapping[str, Any]]:
    """Every component, depth first: rows, their children, sections' accessories, containers, labels."""
    for component in components:
        yield component
        yield from walk_components(component.get("components") or [])
        for key in ("component", "accessory"):
            inner = component.get(key)
            if isinstance(inner, Mapping):
                yield from walk_components([inner])


@dataclass(eq=False)
class StoredMessage:
    """A message as Discord holds it, updated in place by edits (use :meth:`snapshot` to keep a past state)."""

    id: int
    channel_id: int
    guild_id: int | None
    author: JSON
    content: str = ""
    embeds: list[JSON] = field(default_factory=list)
    components: list[JSON] = field(default_factory=list)
    flags: int = 0
    attachments: list[StoredFile] = field(default_factory=list)
    type: int = 0
    timestamp: str = field(default_factory=iso_now)
    edited_timestamp: str | None = None
    created_at: float = 0.0
    edited_at: float | None = None
    deleted: bool = False
    pinned: bool = False
    ephemeral_to: int | None = None
    webhook_id: int | None = None
    interaction_metadata: JSON | None = None
    history: list[JSON] = field(default_factory=list)
    detached: bool = False

    @property
    def ephemeral(self) -> bool:
        return bool(self.flags & MessageFlag.EPHEMERAL)

    @property
    def loading(self) -> bool:
        return bool(self.flags & MessageFlag.LOADING)

    @property
    def edits(self) -> int:
        return max(0, len(self.history) - 1)

    def state(self) -> JSON:
        return {
            "content": self.content,
            "embeds": copy.deepcopy(self.embeds),
            "components": copy.deepcopy(self.components),
            "flags": self.flags,
            "attachments": [a.filename for a in self.attachments],
        }

    def payload(self) -> JSON:
        data: JSON = {
            "id": str(self.id),
            "channel_id": str(self.channel_id),
            "author": dict(self.author),
            "content": self.content,
            "timestamp": self.timestamp,
            "edited_timestamp": self.edited_timestamp,
            "tts": False,
            "mention_everyone": False,
            "mentions": [],
            "mention_roles": [],
            "attachments": [a.payload() for a in self.attachments],
            "embeds": copy.deepcopy(self.embeds),
            "pinned": self.pinned,
            "type": self.type,
            "flags": self.flags,
            "components": copy.deepcopy(self.components),
        }
        if self.guild_id is not None:
            data["guild_id"] = str(self.guild_id)
        if self.webhook_id is not None:
            data["webhook_id"] = str(self.webhook_id)
            data["application_id"] = str(self.webhook_id)
        if self.interaction_metadata is not None:
            data["interaction_metadata"] = copy.deepcopy(self.interaction_metadata)
        return data

    def snapshot(self) -> StoredMessage:
        """A detached copy of the current state: what a user's client showed at this moment."""
        clone = copy.deepcopy(self)
        clone.detached = True
        return clone

    # -- reading helpers --------------------------------------------------------------------------------------

    def all_components(self) -> list[Mapping[str, Any]]:
        return list(walk_components(self.components))

    def component(self, custom_id: str) -> Mapping[str, Any] | None:
        return next((c for c in self.all_components() if c.get("custom_id") == custom_id), None)

    def custom_ids(self) -> list[str]:
        return [str(c["custom_id"]) for c in self.all_components() if c.get("custom_id")]

    def buttons(self) -> list[Mapping[str, Any]]:
        return [c for c in self.all_components() if c.get("type") == BUTTON]

    def button(self, label: str) -> Mapping[str, Any]:
        """The button whose label is ``label`` (or starts with it); ``button(...)["custom_id"]`` to click it."""
        buttons = self.buttons()
        for candidate in buttons:
            if candidate.get("label") == label:
                return candidate
        for candidate in buttons:
            if str(candidate.get("label") or "").startswith(label):
                return candidate
        raise LookupError(f"no button {label!r} on message {self.id}; buttons: {[b.get('label') for b in buttons]}")

    def text(self) -> str:
        """Everything a reader sees: content, embeds, component labels and text displays."""
        parts = [self.content]
        for embed in self.embeds:
            parts += [str(embed.get(k) or "") for k in ("title", "description")]
            parts += [str((embed.get(k) or {}).get(sub) or "") for k, sub in (("author", "name"), ("footer", "text"))]
            for fld in embed.get("fields") or []:
                parts += [str(fld.get("name") or ""), str(fld.get("value") or "")]
        for component in self.all_components():
            parts += [str(component.get(k) or "") for k in ("label", "placeholder", "content")]
            parts += [
                str(o.get("label") or "") + " " + str(o.get("description") or "")
                for o in component.get("options") or []
            ]
        parts += [a.filename for a in self.attachments]
        return "\n".join(p for p in parts if p.strip())

    def __repr__(self) -> str:
        flags = "".join(n for n, bit in (("E", MessageFlag.EPHEMERAL), ("L", MessageFlag.LOADING)) if self.flags & bit)
        state = " deleted" if self.deleted else ""
        return f"<StoredMessage {self.id} ch={self.channel_id}{state} {flags} {self.content[:40]!r}>"


@dataclass(eq=False)
class FakeChannel:
    id: int
    name: str
    type: int  # 0 guild text, 1 DM
    position: int = 0
    guild_id: int | None = None
    recipient: FakeUser | None = None
    bot_can_send: bool = True
    messages: list[StoredMessage] = field(default_factory=list)

    @property
    def is_dm(self) -> bool:
        return self.type == 1

    @property
    def mention(self) -> str:
        return f"<#{self.id}>"

    def current(self) -> list[StoredMessage]:
        return [m for m in self.messages if not m.deleted]



@dataclass(eq=False)
class FakeEmoji:
    """An application emoji: its name, and the image uploaded for it (kept as uploaded)."""

    id: int
    name: str
    image: bytes
    content_type: str  # image/png, image/jpeg, image/gif or image/webp
    creator: JSON
    animated: bool = False

    @property
    def mention(self) -> str:
        """How a message shows it: ``<:name:id>`` (``<a:name:id>`` if animated)."""
        return f"<{'a' if self.animated else ''}:{self.name}:{self.id}>"

    def payload(self) -> JSON:
        return {
            "id": str(self.id),
            "name": self.name,
            "roles": [],
            "user": dict(self.creator),
            "require_colons": True,
            "managed": False,
            "animated": self.animated,
            "available": True,
        }
