"""A loopback fake Discord for end-to-end tests of the bot.

An aiohttp server on 127.0.0.1 (random port) that speaks enough of Discord's REST API (v10) and gateway for the
real, unmodified discord.py to log in, receive events and answer interactions. Tests act as users through
:meth:`FakeDiscord.slash`, :meth:`~FakeDiscord.click`, :meth:`~FakeDiscord.select` and
:meth:`~FakeDiscord.submit_modal`, then read what each channel, DM and ephemeral reply shows.

What is modelled (see ``/work/shared/TESTING-DISCORD.md`` for the patch points and pitfalls):

* one guild with text channels, roles and members (members travel in interaction payloads; the bot asks for no
  privileged intent, so GUILD_CREATE carries only the bot's own member, as on Discord);
* every channel's messages (create, edit, delete, fetch, history), per-user DM channels and closed DMs (50007);
* interaction callbacks 4, 5, 6, 7, 8, 9 answered as an InteractionCallbackResponse (pitfall 2), followups and
  ``@original`` edits through the interaction webhook, all kept per interaction;
* multipart uploads (``payload_json`` plus ``files[n]``), the file bytes kept with the message;
* Discord's limits (pitfall 6): the acknowledgement deadline, component/embed/content/modal limits answered with
  400 / 50035 like Discord, 40060 for a second response, an optional per-channel rate limit answering 429;
* fault injection (status codes and delays for the next N matching calls), gateway drops with RESUME, duplicate
  interaction delivery, expired interaction tokens, closed DMs, messages deleted by a moderator and a channel where
  the bot may not post (:meth:`FakeDiscord.set_bot_can_send`), and many users acting at the same moment
  (:meth:`FakeDiscord.together` sends the interactions made inside it as one burst);
* application command sync, stored so tests can assert the command tree.

Anything the bot does that Discord would reject or that a user would see as a failure (a late or missing
acknowledgement, an invalid body, a second response, an unknown route, a followup before the acknowledgement, an
expired token, a deferral never completed) is recorded as a :class:`Violation`; the ``fake`` fixture fails the test
on any that the test did not take with :meth:`FakeDiscord.take_violations`.

Typical use (fixtures from ``conftest.py``)::

    async def test_join(fake, start_bot):
        await start_bot(PokerBot(...))
        reply = await fake.reply_to(await fake.slash("alice", "poker", subcommand="create", options={...}))
        table = fake.channel_messages("poker")[-1]
        await fake.reply_to(await fake.click("bob", table, table.button("Join")["custom_id"]))
        assert "bob" in table.text()
"""

from __future__ import annotations

import asyncio
import contextlib
import copy
import fnmatch
import json
import math
import re
import secrets
import time
import traceback
from collections.abc import AsyncIterator, Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any, TypeVar

import yarl
from aiohttp import BodyPartReader, WSMsgType, web

if TYPE_CHECKING:
    import pytest

__all__ = [
    "FakeChannel",
    "FakeConfig",
    "FakeDiscord",
    "FakeRole",
    "FakeUser",
    "Fault",
    "Intent",
    "InteractionRecord",
    "MessageFlag",
    "Perm",
    "RateLimitModel",
    "RestCall",
    "RoleSpec",
    "StoredFile",
    "StoredMessage",
    "UserSpec",
    "Violation",
    "patch_discord",
]

JSON = dict[str, Any]
_T = TypeVar("_T")

API_VERSION = 10


# --------------------------------------------------------------------------------------------------------------
# Constants
# --------------------------------------------------------------------------------------------------------------


class Perm:
    """Permission bits used by the fake (a subset of Discord's)."""

    CREATE_INSTANT_INVITE = 1 << 0
    KICK_MEMBERS = 1 << 1
    BAN_MEMBERS = 1 << 2
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
    MANAGE_ROLES = 1 << 28
    USE_APPLICATION_COMMANDS = 1 << 31
    SEND_MESSAGES_IN_THREADS = 1 << 38
    ALL = (1 << 51) - 1

    EVERYONE_DEFAULT = (
        CREATE_INSTANT_INVITE
        | ADD_REACTIONS
        | VIEW_CHANNEL
        | SEND_MESSAGES
        | EMBED_LINKS
        | ATTACH_FILES
        | READ_MESSAGE_HISTORY
        | USE_EXTERNAL_EMOJIS
        | CHANGE_NICKNAME
        | USE_APPLICATION_COMMANDS
        | SEND_MESSAGES_IN_THREADS
    )
    BOT_DEFAULT = (
        VIEW_CHANNEL
        | SEND_MESSAGES
        | EMBED_LINKS
        | ATTACH_FILES
        | READ_MESSAGE_HISTORY
        | ADD_REACTIONS
        | USE_EXTERNAL_EMOJIS
        | SEND_MESSAGES_IN_THREADS
    )


class Intent:
    """Gateway intent bits."""

    GUILDS = 1 << 0
    GUILD_MEMBERS = 1 << 1
    GUILD_PRESENCES = 1 << 8
    GUILD_MESSAGES = 1 << 9
    DIRECT_MESSAGES = 1 << 12
    MESSAGE_CONTENT = 1 << 15
    PRIVILEGED = GUILD_MEMBERS | GUILD_PRESENCES | MESSAGE_CONTENT


class MessageFlag:
    SUPPRESS_EMBEDS = 1 << 2
    EPHEMERAL = 1 << 6
    LOADING = 1 << 7
    COMPONENTS_V2 = 1 << 15
    EDITABLE = SUPPRESS_EMBEDS | COMPONENTS_V2


# Interaction types (what the user did) and callback types (how the bot answered).
PING, APPLICATION_COMMAND, MESSAGE_COMPONENT, AUTOCOMPLETE, MODAL_SUBMIT = 1, 2, 3, 4, 5
CALLBACK_PONG, CALLBACK_MESSAGE, CALLBACK_DEFERRED_MESSAGE = 1, 4, 5
CALLBACK_DEFERRED_UPDATE, CALLBACK_UPDATE, CALLBACK_AUTOCOMPLETE, CALLBACK_MODAL = 6, 7, 8, 9
ALLOWED_CALLBACKS: dict[int, frozenset[int]] = {
    PING: frozenset({CALLBACK_PONG}),
    APPLICATION_COMMAND: frozenset({CALLBACK_MESSAGE, CALLBACK_DEFERRED_MESSAGE, CALLBACK_MODAL}),
    MESSAGE_COMPONENT: frozenset(
        {CALLBACK_MESSAGE, CALLBACK_DEFERRED_MESSAGE, CALLBACK_DEFERRED_UPDATE, CALLBACK_UPDATE, CALLBACK_MODAL}
    ),
    AUTOCOMPLETE: frozenset({CALLBACK_AUTOCOMPLETE}),
    MODAL_SUBMIT: frozenset({CALLBACK_MESSAGE, CALLBACK_DEFERRED_MESSAGE, CALLBACK_DEFERRED_UPDATE, CALLBACK_UPDATE}),
}

# Component types.
ACTION_ROW, BUTTON, STRING_SELECT, TEXT_INPUT = 1, 2, 3, 4
USER_SELECT, ROLE_SELECT, MENTIONABLE_SELECT, CHANNEL_SELECT = 5, 6, 7, 8
SECTION, TEXT_DISPLAY, CONTAINER, LABEL = 9, 10, 17, 18
SELECT_TYPES = frozenset({STRING_SELECT, USER_SELECT, ROLE_SELECT, MENTIONABLE_SELECT, CHANNEL_SELECT})
LINK_STYLE, PREMIUM_STYLE = 5, 6

# Application command option types.
OPT_SUB_COMMAND, OPT_SUB_COMMAND_GROUP, OPT_STRING, OPT_INTEGER, OPT_BOOLEAN = 1, 2, 3, 4, 5
OPT_USER, OPT_CHANNEL, OPT_ROLE, OPT_MENTIONABLE, OPT_NUMBER, OPT_ATTACHMENT = 6, 7, 8, 9, 10, 11

# Gateway opcodes.
OP_DISPATCH, OP_HEARTBEAT, OP_IDENTIFY, OP_RESUME, OP_REQUEST_MEMBERS = 0, 1, 2, 6, 8
OP_INVALID_SESSION, OP_HELLO, OP_HEARTBEAT_ACK = 9, 10, 11

_DISCORD_EPOCH_MS = 1_420_070_400_000


class _Snowflakes:
    """Real-looking, strictly increasing snowflakes (``discord.utils.snowflake_time`` gives the creation time)."""

    def __init__(self) -> None:
        self._last = 0

    def __call__(self) -> int:
        candidate = (int(time.time() * 1000) - _DISCORD_EPOCH_MS) << 22
        self._last = max(candidate, self._last + 1)
        return self._last


new_snowflake = _Snowflakes()


def _iso_now() -> str:
    return datetime.now(UTC).isoformat()


# --------------------------------------------------------------------------------------------------------------
# Model
# --------------------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class RoleSpec:
    name: str
    permissions: int = 0


@dataclass(frozen=True)
class UserSpec:
    name: str
    roles: tuple[str, ...] = ()
    dms_open: bool = True


@dataclass
class RateLimitModel:
    """Per-channel rate limit on message create/edit/delete: ``limit`` requests per ``period`` seconds."""

    limit: int = 5
    period: float = 5.0
    methods: frozenset[str] = frozenset({"POST", "PATCH", "DELETE"})


def _default_users() -> tuple[UserSpec, ...]:
    return (
        UserSpec("owner"),
        UserSpec("manager", ("Staff",)),
        UserSpec("alice"),
        UserSpec("bob"),
        UserSpec("carol"),
        UserSpec("dave"),
        UserSpec("erin"),
        UserSpec("frank"),
    )


@dataclass
class FakeConfig:
    """How the fake guild looks. Override the ``fake_config`` fixture to change it for a module or a test."""

    guild_name: str = "Home Game"
    channels: Sequence[str] = ("poker", "poker-2", "general")
    roles: Sequence[RoleSpec] = (RoleSpec("Staff", Perm.MANAGE_GUILD), RoleSpec("Banker"))
    users: Sequence[UserSpec] = field(default_factory=_default_users)
    owner: str = "owner"
    everyone_permissions: int = Perm.EVERYONE_DEFAULT
    bot_permissions: int = Perm.BOT_DEFAULT
    bot_name: str = "pokerbot"
    ack_deadline: float = 3.0
    token_ttl: float = 15 * 60.0
    rate_limit: RateLimitModel | None = None
    message_events: bool = True
    allow_privileged_intents: bool = False
    check_deferred: bool = True


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
    timestamp: str = field(default_factory=_iso_now)
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
class Fault:
    """A fault armed with :meth:`FakeDiscord.inject`."""

    match: Callable[[RestCall], bool]
    description: str
    status: int | None = None
    body: JSON | None = None
    delay: float = 0.0
    times: int | None = 1
    retry_after: float = 0.05
    hits: int = 0

    @property
    def exhausted(self) -> bool:
        return self.times is not None and self.hits >= self.times


@dataclass(eq=False)
class RestCall:
    """One REST request the bot made, with what the fake answered."""

    index: int
    method: str
    path: str
    query: dict[str, str]
    time: float
    json: Any = None
    files: list[StoredFile] = field(default_factory=list)
    route: str = ""
    params: dict[str, str] = field(default_factory=dict)
    status: int | None = None
    response: Any = None
    handled_at: float | None = None
    fault: Fault | None = None

    @property
    def channel_id(self) -> int | None:
        value = self.params.get("channel_id")
        return int(value) if value and value.isdigit() else None

    @property
    def interaction_id(self) -> int | None:
        value = self.params.get("interaction_id")
        return int(value) if value and value.isdigit() else None

    @property
    def ok(self) -> bool:
        return self.status is not None and 200 <= self.status < 300

    def __str__(self) -> str:
        body = json.dumps(self.json)[:100] if self.json is not None else ""
        return f"#{self.index} {self.time:7.3f}s {self.method} {self.path} -> {self.status} {body}"


@dataclass(eq=False)
class InteractionRecord:
    """One interaction sent to the bot, and everything the bot answered to it."""

    id: int
    token: str
    type: int
    user: FakeUser
    channel_id: int
    payload: JSON
    sent_at: float
    deadline: float
    expect_ack: bool = True
    source_message: StoredMessage | None = None
    response_type: int | None = None
    acked_at: float | None = None
    ack_latency: float | None = None
    late: bool = False
    original: StoredMessage | None = None
    followups: list[StoredMessage] = field(default_factory=list)
    modal: JSON | None = None
    choices: list[JSON] | None = None
    expired: bool = False
    deliveries: int = 1
    deadline_passed: bool = False

    @property
    def acknowledged(self) -> bool:
        return self.response_type is not None

    @property
    def message(self) -> StoredMessage | None:
        """The reply the user sees: the original response (or, for updates, the message the component is on)."""
        return self.original

    @property
    def content(self) -> str:
        return self.original.content if self.original else ""

    @property
    def embeds(self) -> list[JSON]:
        return self.original.embeds if self.original else []

    @property
    def components(self) -> list[JSON]:
        return self.original.components if self.original else []

    @property
    def flags(self) -> int:
        return self.original.flags if self.original else 0

    @property
    def ephemeral(self) -> bool:
        return bool(self.flags & MessageFlag.EPHEMERAL)

    def __repr__(self) -> str:
        return (
            f"<Interaction {self.id} type={self.type} user={self.user.name} response={self.response_type} "
            f"latency={self.ack_latency}>"
        )


@dataclass
class Violation:
    """Something the bot did that Discord would reject, or that a user would see as a failure."""

    kind: str
    detail: str
    call: RestCall | None = None
    interaction_id: int | None = None

    def __str__(self) -> str:
        where = f" [{self.call.method} {self.call.path}]" if self.call else ""
        return f"{self.kind}: {self.detail}{where}"


@dataclass(eq=False)
class _ShownModal:
    data: JSON
    source: InteractionRecord


@dataclass(eq=False)
class _Bucket:
    count: int
    reset_at: float


@dataclass(eq=False)
class _GatewaySession:
    """A logical gateway session (survives a dropped connection until resumed or invalidated)."""

    session_id: str
    intents: int
    identify: JSON
    ws: web.WebSocketResponse | None = None
    seq: int = 0
    frames: list[tuple[int, str]] = field(default_factory=list)
    resumable: bool = True
    ended: bool = False
    dropped: web.WebSocketResponse | None = None  # a connection the fake itself closed
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)

    @property
    def connected(self) -> bool:
        return self.ws is not None and not self.ws.closed


class ApiError(Exception):
    """An error answer, in Discord's format; ``violation`` names the bot bug it reveals, if any."""

    def __init__(
        self,
        status: int,
        code: int,
        message: str,
        *,
        errors: JSON | None = None,
        violation: str | None = None,
        detail: str | None = None,
    ) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.errors = errors
        self.violation = violation
        self.detail = detail or message

    def body(self) -> JSON:
        body: JSON = {"message": self.message, "code": self.code}
        if self.errors:
            body["errors"] = self.errors
        return body


@dataclass
class _Answer:
    status: int = 200
    body: Any = None
    headers: dict[str, str] = field(default_factory=dict)


# --------------------------------------------------------------------------------------------------------------
# Validation of bodies against Discord's limits
# --------------------------------------------------------------------------------------------------------------

Path = tuple[str | int, ...]


class FormErrors:
    """Collects field errors and renders them like Discord's 50035 "Invalid Form Body"."""

    def __init__(self) -> None:
        self.items: list[tuple[Path, str, str]] = []

    def __bool__(self) -> bool:
        return bool(self.items)

    def add(self, path: Path, code: str, message: str) -> None:
        self.items.append((path, code, message))

    def max_len(self, path: Path, value: Any, limit: int) -> None:
        if isinstance(value, str) and len(value) > limit:
            self.add(path, "BASE_TYPE_MAX_LENGTH", f"Must be {limit} or fewer in length.")

    def length(self, path: Path, value: Any, low: int, high: int) -> None:
        size = len(value) if isinstance(value, (str, list, tuple)) else 0
        if not low <= size <= high:
            self.add(path, "BASE_TYPE_BAD_LENGTH", f"Must be between {low} and {high} in length.")

    def required(self, path: Path, value: Any) -> bool:
        if value is None or value == "":
            self.add(path, "BASE_TYPE_REQUIRED", "This field is required")
            return False
        return True

    def in_range(self, path: Path, value: Any, low: int, high: int) -> None:
        if value is not None and (not isinstance(value, int) or not low <= value <= high):
            self.add(path, "NUMBER_TYPE_OUT_OF_RANGE", f"Value should be between {low} and {high}.")

    def nested(self) -> JSON:
        root: JSON = {}
        for path, code, message in self.items:
            node = root
            for key in path:
                node = node.setdefault(str(key), {})
            node.setdefault("_errors", []).append({"code": code, "message": message})
        return root

    def summary(self) -> str:
        return "; ".join(f"{'.'.join(map(str, p)) or '(body)'}: {m}" for p, _, m in self.items)


def _validate_button(errors: FormErrors, button: Mapping[str, Any], path: Path, seen: set[str]) -> None:
    style = button.get("style")
    if style not in (1, 2, 3, 4, LINK_STYLE, PREMIUM_STYLE):
        errors.add((*path, "style"), "BASE_TYPE_CHOICES", f"Value must be one of {{1, 2, 3, 4, 5, 6}}, not {style!r}.")
    errors.max_len((*path, "label"), button.get("label"), 80)
    if style == LINK_STYLE:
        errors.required((*path, "url"), button.get("url"))
        if button.get("custom_id"):
            errors.add(
                (*path, "custom_id"), "BUTTON_COMPONENT_CUSTOM_ID_NOT_ALLOWED", "A link button cannot have a custom id."
            )
        errors.max_len((*path, "url"), button.get("url"), 512)
    elif style == PREMIUM_STYLE:
        errors.required((*path, "sku_id"), button.get("sku_id"))
    else:
        _validate_custom_id(errors, button.get("custom_id"), (*path, "custom_id"), seen)
        if not button.get("label") and not button.get("emoji"):
            errors.add(path, "BUTTON_COMPONENT_LABEL_OR_EMOJI_REQUIRED", "A button needs a label or an emoji.")


def _validate_custom_id(errors: FormErrors, custom_id: Any, path: Path, seen: set[str]) -> None:
    if not errors.required(path, custom_id):
        return
    errors.length(path, str(custom_id), 1, 100)
    if custom_id in seen:
        errors.add(path, "COMPONENT_CUSTOM_ID_DUPLICATED", "Component custom id cannot be duplicated")
    seen.add(str(custom_id))


def _validate_select(errors: FormErrors, select: Mapping[str, Any], path: Path, seen: set[str]) -> None:
    _validate_custom_id(errors, select.get("custom_id"), (*path, "custom_id"), seen)
    errors.max_len((*path, "placeholder"), select.get("placeholder"), 150)
    min_values, max_values = select.get("min_values"), select.get("max_values")
    errors.in_range((*path, "min_values"), min_values, 0, 25)
    errors.in_range((*path, "max_values"), max_values, 1, 25)
    if isinstance(min_values, int) and isinstance(max_values, int) and min_values > max_values:
        errors.add((*path, "min_values"), "SELECT_COMPONENT_MIN_VALUES_EXCEEDS_MAX", "min_values exceeds max_values.")
    if select.get("type") != STRING_SELECT:
        return
    options = select.get("options") or []
    errors.length((*path, "options"), options, 1, 25)
    values: set[str] = set()
    for i, option in enumerate(options):
        opath = (*path, "options", i)
        if errors.required((*opath, "label"), option.get("label")):
            errors.length((*opath, "label"), str(option["label"]), 1, 100)
        if errors.required((*opath, "value"), option.get("value")):
            errors.length((*opath, "value"), str(option["value"]), 1, 100)
            if option["value"] in values:
                errors.add(
                    (*opath, "value"), "SELECT_COMPONENT_OPTION_VALUE_DUPLICATED", "Option values must be unique."
                )
            values.add(str(option["value"]))
        errors.max_len((*opath, "description"), option.get("description"), 100)
    if isinstance(max_values, int) and options and max_values > len(options):
        errors.add((*path, "max_values"), "SELECT_COMPONENT_MAX_VALUES_EXCEEDS_OPTIONS", "max_values exceeds options.")


def _validate_row(errors: FormErrors, row: Mapping[str, Any], path: Path, seen: set[str]) -> None:
    if row.get("type") != ACTION_ROW:
        errors.add(
            (*path, "type"),
            "UNION_TYPE_CHOICES",
            f'Value of field "type" must be one of (1,), not {row.get("type")!r}.',
        )
        return
    children = row.get("components") or []
    errors.length((*path, "components"), children, 1, 5)
    if any(c.get("type") in SELECT_TYPES for c in children) and len(children) > 1:
        errors.add(
            (*path, "components"),
            "COMPONENT_LAYOUT_WIDTH_EXCEEDED",
            "The specified component exceeds the maximum width",
        )
    for j, child in enumerate(children):
        cpath = (*path, "components", j)
        if child.get("type") == BUTTON:
            _validate_button(errors, child, cpath, seen)
        elif child.get("type") in SELECT_TYPES:
            _validate_select(errors, child, cpath, seen)
        else:
            errors.add(
                (*cpath, "type"), "COMPONENT_TYPE_INVALID", f"Component type {child.get('type')!r} is invalid here."
            )


def _validate_components_v2(errors: FormErrors, components: Sequence[Mapping[str, Any]], path: Path) -> None:
    seen: set[str] = set()
    total = 0
    text = 0

    def visit(items: Sequence[Mapping[str, Any]], ipath: Path) -> None:
        nonlocal total, text
        for i, item in enumerate(items):
            total += 1
            kind = item.get("type")
            cpath = (*ipath, i)
            if kind == ACTION_ROW:
                _validate_row(errors, item, cpath, seen)
                total += len(item.get("components") or [])
                continue
            if kind == BUTTON:
                _validate_button(errors, item, cpath, seen)
            elif kind in SELECT_TYPES:
                _validate_select(errors, item, cpath, seen)
            elif kind == TEXT_DISPLAY:
                text += len(str(item.get("content") or ""))
            visit(item.get("components") or [], (*cpath, "components"))
            accessory = item.get("accessory")
            if isinstance(accessory, Mapping):
                visit([accessory], (*cpath, "accessory"))

    visit(components, path)
    if total > 40:
        errors.add(path, "BASE_TYPE_MAX_LENGTH", "Must be 40 or fewer in length.")
    if text > 4000:
        errors.add(path, "MESSAGE_COMPONENTS_TEXT_TOO_LONG", "Text displays must be 4000 or fewer characters in total.")


def _validate_embeds(errors: FormErrors, embeds: Sequence[Mapping[str, Any]], path: Path) -> None:
    errors.length(path, list(embeds), 0, 10)
    total = 0
    for i, embed in enumerate(embeds):
        epath = (*path, i)
        for key, limit in (("title", 256), ("description", 4096)):
            errors.max_len((*epath, key), embed.get(key), limit)
            total += len(str(embed.get(key) or ""))
        footer = embed.get("footer") or {}
        errors.max_len((*epath, "footer", "text"), footer.get("text"), 2048)
        author = embed.get("author") or {}
        errors.max_len((*epath, "author", "name"), author.get("name"), 256)
        total += len(str(footer.get("text") or "")) + len(str(author.get("name") or ""))
        fields = embed.get("fields") or []
        errors.length((*epath, "fields"), fields, 0, 25)
        for j, fld in enumerate(fields):
            fpath = (*epath, "fields", j)
            if errors.required((*fpath, "name"), fld.get("name")):
                errors.max_len((*fpath, "name"), fld.get("name"), 256)
            if errors.required((*fpath, "value"), fld.get("value")):
                errors.max_len((*fpath, "value"), fld.get("value"), 1024)
            total += len(str(fld.get("name") or "")) + len(str(fld.get("value") or ""))
    if total > 6000:
        errors.add(path, "MESSAGE_EMBEDS_TOO_LONG", "Embed size exceeds maximum size of 6000")


def validate_message(errors: FormErrors, data: Mapping[str, Any], path: Path = ()) -> None:
    """Check a message create/edit body against Discord's limits (present fields only)."""
    content = data.get("content")
    if content is not None:
        errors.max_len((*path, "content"), str(content), 2000)
    embeds = data.get("embeds")
    if embeds:
        _validate_embeds(errors, embeds, (*path, "embeds"))
    components = data.get("components")
    if components:
        if int(data.get("flags") or 0) & MessageFlag.COMPONENTS_V2:
            _validate_components_v2(errors, components, (*path, "components"))
            if content:
                errors.add(
                    (*path, "content"),
                    "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2",
                    "Cannot use content with components v2.",
                )
        else:
            errors.length((*path, "components"), components, 0, 5)
            seen: set[str] = set()
            for i, row in enumerate(components):
                _validate_row(errors, row, (*path, "components", i), seen)


def _validate_text_input(
    errors: FormErrors, item: Mapping[str, Any], path: Path, seen: set[str], *, labelled: bool
) -> None:
    _validate_custom_id(errors, item.get("custom_id"), (*path, "custom_id"), seen)
    if item.get("style") not in (1, 2):
        errors.add((*path, "style"), "BASE_TYPE_CHOICES", "Value must be one of {1, 2}.")
    if not labelled and errors.required((*path, "label"), item.get("label")):
        errors.length((*path, "label"), str(item["label"]), 1, 45)
    errors.in_range((*path, "min_length"), item.get("min_length"), 0, 4000)
    errors.in_range((*path, "max_length"), item.get("max_length"), 1, 4000)
    errors.max_len((*path, "placeholder"), item.get("placeholder"), 100)
    errors.max_len((*path, "value"), item.get("value"), int(item.get("max_length") or 4000))


def validate_modal(errors: FormErrors, data: Mapping[str, Any], path: Path = ()) -> None:
    seen: set[str] = set()
    if errors.required((*path, "custom_id"), data.get("custom_id")):
        errors.length((*path, "custom_id"), str(data["custom_id"]), 1, 100)
    if errors.required((*path, "title"), data.get("title")):
        errors.length((*path, "title"), str(data["title"]), 1, 45)
    components = data.get("components") or []
    errors.length((*path, "components"), components, 1, 5)
    for i, top in enumerate(components):
        cpath = (*path, "components", i)
        kind = top.get("type")
        if kind == ACTION_ROW:
            children = top.get("components") or []
            errors.length((*cpath, "components"), children, 1, 1)
            for j, child in enumerate(children):
                if child.get("type") == TEXT_INPUT:
                    _validate_text_input(errors, child, (*cpath, "components", j), seen, labelled=False)
                else:
                    errors.add(
                        (*cpath, "components", j, "type"),
                        "COMPONENT_TYPE_INVALID",
                        "Only text inputs go in modal rows.",
                    )
        elif kind == LABEL:
            if errors.required((*cpath, "label"), top.get("label")):
                errors.length((*cpath, "label"), str(top["label"]), 1, 45)
            errors.max_len((*cpath, "description"), top.get("description"), 100)
            inner = top.get("component") or {}
            if inner.get("type") == TEXT_INPUT:
                _validate_text_input(errors, inner, (*cpath, "component"), seen, labelled=True)
            elif inner.get("type") in SELECT_TYPES:
                _validate_select(errors, inner, (*cpath, "component"), seen)
            else:
                errors.add((*cpath, "component", "type"), "COMPONENT_TYPE_INVALID", "Invalid component in a label.")
        elif kind != TEXT_DISPLAY:
            errors.add((*cpath, "type"), "COMPONENT_TYPE_INVALID", f"Component type {kind!r} is invalid in a modal.")


_COMMAND_NAME = re.compile(r"^[-_'\w]{1,32}$")


def _validate_options(errors: FormErrors, options: Sequence[Mapping[str, Any]], path: Path) -> None:
    errors.length(path, list(options), 0, 25)
    seen_optional = False
    names: set[str] = set()
    for i, option in enumerate(options):
        opath = (*path, i)
        name = str(option.get("name") or "")
        if not _COMMAND_NAME.match(name) or name != name.lower():
            errors.add((*opath, "name"), "APPLICATION_COMMAND_INVALID_NAME", f"Invalid option name {name!r}.")
        if name in names:
            errors.add(
                (*opath, "name"), "APPLICATION_COMMAND_OPTIONS_NAME_ALREADY_EXISTS", f"Duplicate option {name!r}."
            )
        names.add(name)
        if errors.required((*opath, "description"), option.get("description")):
            errors.length((*opath, "description"), str(option["description"]), 1, 100)
        kind = option.get("type")
        if kind in (OPT_SUB_COMMAND, OPT_SUB_COMMAND_GROUP):
            _validate_options(errors, option.get("options") or [], (*opath, "options"))
            continue
        if option.get("required"):
            if seen_optional:
                errors.add(
                    (*opath, "required"),
                    "APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID",
                    "Required options must be placed before non-required options",
                )
        else:
            seen_optional = True
        choices = option.get("choices") or []
        errors.length((*opath, "choices"), choices, 0, 25)
        for j, choice in enumerate(choices):
            errors.length((*opath, "choices", j, "name"), str(choice.get("name") or ""), 1, 100)
            errors.max_len((*opath, "choices", j, "value"), choice.get("value"), 100)


def validate_commands(errors: FormErrors, commands: Sequence[Mapping[str, Any]]) -> None:
    errors.length((), list(commands), 0, 100)
    names: set[tuple[int, str]] = set()
    for i, command in enumerate(commands):
        kind = int(command.get("type") or 1)
        name = str(command.get("name") or "")
        if kind == 1 and (not _COMMAND_NAME.match(name) or name != name.lower()):
            errors.add((i, "name"), "APPLICATION_COMMAND_INVALID_NAME", f"Invalid command name {name!r}.")
        if (kind, name) in names:
            errors.add((i, "name"), "APPLICATION_COMMANDS_DUPLICATE_NAME", f"Duplicate command {name!r}.")
        names.add((kind, name))
        if kind == 1:
            if errors.required((i, "description"), command.get("description")):
                errors.length((i, "description"), str(command["description"]), 1, 100)
            _validate_options(errors, command.get("options") or [], (i, "options"))


# --------------------------------------------------------------------------------------------------------------
# The server
# --------------------------------------------------------------------------------------------------------------


def _json_response(answer: _Answer) -> web.Response:
    if answer.body is None:
        return web.Response(status=answer.status, headers=answer.headers)
    # discord.http.json_or_text parses JSON only for the exact content type 'application/json' (pitfall 1).
    return web.Response(
        body=json.dumps(answer.body).encode(),
        status=answer.status,
        content_type="application/json",
        headers=answer.headers,
    )


class FakeDiscord:
    """The fake Discord. ``await FakeDiscord().start()``, point discord.py at it with :func:`patch_discord`."""

    def __init__(self, config: FakeConfig | None = None) -> None:
        self.config = config or FakeConfig()
        cfg = self.config
        self.ack_deadline = cfg.ack_deadline
        self.token_ttl = cfg.token_ttl
        self.rate_limit = cfg.rate_limit
        self.message_events = cfg.message_events
        self.allow_privileged_intents = cfg.allow_privileged_intents
        self.check_deferred = cfg.check_deferred

        self.app_id = new_snowflake()
        self.bot_user = FakeUser(self.app_id, cfg.bot_name, bot=True)
        self.guild_id = new_snowflake()
        self.guild_name = cfg.guild_name
        self.everyone = FakeRole(self.guild_id, "@everyone", cfg.everyone_permissions, position=0)
        self.bot_role = FakeRole(new_snowflake(), cfg.bot_name, cfg.bot_permissions, managed=True, bot_id=self.app_id)
        self.bot_user.roles.append(self.bot_role)
        self.roles: dict[int, FakeRole] = {self.everyone.id: self.everyone, self.bot_role.id: self.bot_role}
        self.users: dict[int, FakeUser] = {}
        self.channels: dict[int, FakeChannel] = {}
        self.messages: dict[int, StoredMessage] = {}
        self.calls: list[RestCall] = []
        self.interactions: dict[int, InteractionRecord] = {}
        self.violations: list[Violation] = []
        self.faults: list[Fault] = []
        self.global_commands: dict[str, JSON] = {}
        self.guild_commands: dict[str, JSON] = {}
        self.identify_payloads: list[JSON] = []
        self.resumes = 0
        self.port = 0
        self._local_commands: tuple[dict[str, JSON], dict[str, JSON]] = ({}, {})
        self._by_token: dict[str, InteractionRecord] = {}
        self._sessions: list[_GatewaySession] = []
        self._modals: dict[tuple[int, str], _ShownModal] = {}
        self._buckets: dict[int, _Bucket] = {}
        self._dm_by_user: dict[int, FakeChannel] = {}
        self._changed = asyncio.Event()
        self._inflight = 0
        self._last_activity = 0.0
        self._timers: list[asyncio.TimerHandle] = []
        self._tasks: set[asyncio.Task[Any]] = set()
        self._held: list[tuple[str, JSON]] | None = None  # events held by together(), sent as one burst
        self._routes = self._build_routes()
        self._runner: web.AppRunner | None = None
        self._t0 = 0.0

        for spec in cfg.roles:
            self.add_role(spec.name, spec.permissions)
        for user_spec in cfg.users:
            self.add_user(user_spec.name, roles=user_spec.roles, dms_open=user_spec.dms_open)
        self.owner_id = self.user(cfg.owner).id if cfg.owner else self.app_id
        for name in cfg.channels:
            self.add_channel(name)

    # -- lifecycle --------------------------------------------------------------------------------------------

    async def start(self) -> FakeDiscord:
        app = web.Application(client_max_size=64 * 1024 * 1024)
        app.router.add_get("/", self._gateway)
        app.router.add_get("/attachments/{channel_id}/{attachment_id}/{filename}", self._attachment)
        app.router.add_route("*", f"/api/v{API_VERSION}/{{tail:.*}}", self._rest)
        self._runner = web.AppRunner(app, shutdown_timeout=0.5, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        self.port = int(self._runner.addresses[0][1])
        self._t0 = asyncio.get_running_loop().time()
        self._last_activity = self._t0
        return self

    async def stop(self) -> None:
        for timer in self._timers:
            timer.cancel()
        for task in list(self._tasks):
            task.cancel()
        for session in self._sessions:
            if session.connected and session.ws is not None:
                with contextlib.suppress(Exception):
                    await session.ws.close()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def __aenter__(self) -> FakeDiscord:
        return await self.start()

    async def __aexit__(self, *exc: object) -> None:
        await self.stop()

    @property
    def api_base(self) -> str:
        return f"http://127.0.0.1:{self.port}/api/v{API_VERSION}"

    @property
    def gateway_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/"

    def now(self) -> float:
        """Seconds since the fake started (the clock of ``RestCall.time`` and interaction timings)."""
        return asyncio.get_running_loop().time() - self._t0

    # -- the guild ------------------------------------------------------------------------------------------

    def add_role(self, name: str, permissions: int = 0) -> FakeRole:
        role = FakeRole(new_snowflake(), name, permissions, position=len(self.roles))
        self.roles[role.id] = role
        self._send_soon("GUILD_ROLE_CREATE", lambda: {"guild_id": str(self.guild_id), "role": role.payload()})
        return role

    def add_user(self, name: str, *, roles: Sequence[str | FakeRole] = (), dms_open: bool = True) -> FakeUser:
        user = FakeUser(new_snowflake(), name, [self.role(r) for r in roles], dms_open=dms_open)
        self.users[user.id] = user
        return user

    def add_channel(self, name: str, *, bot_can_send: bool = True) -> FakeChannel:
        position = sum(1 for c in self.channels.values() if not c.is_dm)
        channel = FakeChannel(new_snowflake(), name, 0, position, self.guild_id, bot_can_send=bot_can_send)
        self.channels[channel.id] = channel
        self._send_soon("CHANNEL_CREATE", lambda: self._channel_payload(channel))
        return channel

    def user(self, ref: FakeUser | str | int) -> FakeUser:
        if isinstance(ref, FakeUser):
            return ref
        for user in self.users.values():
            if ref in (user.name, user.id, str(user.id)):
                return user
        if ref in (self.bot_user.id, str(self.bot_user.id), self.bot_user.name):
            return self.bot_user
        raise LookupError(f"no user {ref!r}; users: {[u.name for u in self.users.values()]}")

    def role(self, ref: FakeRole | str | int) -> FakeRole:
        if isinstance(ref, FakeRole):
            return ref
        for role in self.roles.values():
            if ref in (role.name, role.id, str(role.id)):
                return role
        raise LookupError(f"no role {ref!r}; roles: {[r.name for r in self.roles.values()]}")

    def channel(self, ref: FakeChannel | str | int) -> FakeChannel:
        if isinstance(ref, FakeChannel):
            return ref
        if isinstance(ref, int) or ref.isdigit():
            found = self.channels.get(int(ref))
            if found is not None:
                return found
        for channel in self.channels.values():
            if channel.name == ref and not channel.is_dm:
                return channel
        raise LookupError(f"no channel {ref!r}; channels: {[c.name for c in self.channels.values() if not c.is_dm]}")

    @property
    def default_channel(self) -> FakeChannel:
        return next(c for c in self.channels.values() if not c.is_dm)

    def dm_channel(self, user: FakeUser | str | int) -> FakeChannel:
        """The user's DM channel with the bot (created on first use; stable afterwards)."""
        who = self.user(user)
        channel = self._dm_by_user.get(who.id)
        if channel is None:
            channel = FakeChannel(new_snowflake(), f"dm-{who.name}", 1, recipient=who)
            self.channels[channel.id] = channel
            self._dm_by_user[who.id] = channel
        return channel

    def dm_channel_count(self) -> int:
        """How many users have a DM channel with the bot (opened by the bot, or by a test)."""
        return len(self._dm_by_user)

    def set_bot_can_send(self, channel: FakeChannel | str | int, allowed: bool) -> None:
        """Deny (or grant again) the bot Send Messages in a channel, as a moderator editing the channel's
        permissions: posts answer 403 / 50013 while denied, and the bot gets CHANNEL_UPDATE."""
        ch = self.channel(channel)
        ch.bot_can_send = allowed
        self._send_soon("CHANNEL_UPDATE", lambda: self._channel_payload(ch))

    def faults_hit(self) -> int:
        """How many calls the injected faults have hit so far."""
        return sum(f.hits for f in self.faults)

    def close_dms(self, user: FakeUser | str | int) -> None:
        """From now on, messages to this user's DM channel fail with 403 / 50007."""
        self.user(user).dms_open = False

    def open_dms(self, user: FakeUser | str | int) -> None:
        self.user(user).dms_open = True

    def set_roles(self, user: FakeUser | str | int, roles: Sequence[str | FakeRole]) -> None:
        self.user(user).roles = [self.role(r) for r in roles]

    def permissions(self, user: FakeUser | str | int, channel: FakeChannel | None = None) -> int:
        """The user's permissions in the guild (and channel): @everyone, his roles, channel overwrites."""
        who = self.user(user)
        value = self.everyone.permissions
        for role in who.roles:
            value |= role.permissions
        if who.id == self.owner_id or value & Perm.ADMINISTRATOR:
            return Perm.ALL
        if who.bot and channel is not None and not channel.is_dm and not channel.bot_can_send:
            value &= ~Perm.SEND_MESSAGES
        return value

    # -- reading state ----------------------------------------------------------------------------------------

    def channel_messages(
        self, channel: FakeChannel | str | int, *, include_deleted: bool = False
    ) -> list[StoredMessage]:
        """What the channel shows now, oldest first (ephemeral replies are not in channels)."""
        ch = self.channel(channel)
        return list(ch.messages) if include_deleted else ch.current()

    def dms(self, user: FakeUser | str | int) -> list[StoredMessage]:
        """The messages the bot delivered to the user's DMs."""
        who = self.user(user)
        channel = self._dm_by_user.get(who.id)
        return channel.current() if channel else []

    def ephemeral_for(self, user: FakeUser | str | int) -> list[StoredMessage]:
        who = self.user(user)
        return [m for m in self.messages.values() if m.ephemeral_to == who.id and not m.deleted]

    def visible_to(self, user: FakeUser | str | int) -> list[StoredMessage]:
        """Every message the user can see: guild channels, his DMs and his ephemeral replies."""
        who = self.user(user)
        out = [m for c in self.channels.values() if not c.is_dm for m in c.current()]
        return sorted([*out, *self.dms(who), *self.ephemeral_for(who)], key=lambda m: m.id)

    def message(self, message_id: int | str) -> StoredMessage:
        return self.messages[int(message_id)]

    def interaction(self, interaction_id: int) -> InteractionRecord:
        return self.interactions[interaction_id]

    def calls_to(self, method: str | None = None, pattern: str = "*") -> list[RestCall]:
        """Recorded calls whose path matches the glob ``pattern`` (and method)."""
        return [
            c for c in self.calls if (method is None or c.method == method) and fnmatch.fnmatchcase(c.path, pattern)
        ]

    def command_paths(self, *, guild: bool | None = None) -> list[str]:
        """Synced chat-input commands as paths: ``["chips give", "poker create", ...]``."""
        sources = {None: [self.global_commands, self.guild_commands], False: [self.global_commands]}.get(
            guild, [self.guild_commands]
        )
        paths: list[str] = []

        def walk(prefix: str, options: Sequence[Mapping[str, Any]]) -> bool:
            found = False
            for option in options:
                if option.get("type") in (OPT_SUB_COMMAND, OPT_SUB_COMMAND_GROUP):
                    found = True
                    if not walk(f"{prefix} {option['name']}", option.get("options") or []):
                        paths.append(f"{prefix} {option['name']}")
            return found

        for commands in sources:
            for name, command in commands.items():
                if int(command.get("type") or 1) == 1 and not walk(name, command.get("options") or []):
                    paths.append(name)
        return sorted(paths)

    # -- violations ---------------------------------------------------------------------------------------

    def _violate(
        self, kind: str, detail: str, *, call: RestCall | None = None, interaction_id: int | None = None
    ) -> None:
        self.violations.append(Violation(kind, detail, call, interaction_id))

    def take_violations(self, kind: str | None = None) -> list[Violation]:
        """Remove and return the recorded violations (of one kind): a test that provokes them takes them."""
        taken = [v for v in self.violations if kind is None or v.kind == kind]
        self.violations = [v for v in self.violations if v not in taken]
        return taken

    def verify(self) -> list[Violation]:
        """Every problem so far: recorded violations, plus deferrals that never completed."""
        problems = list(self.violations)
        if self.check_deferred:
            for rec in self.interactions.values():
                original = rec.original
                if (
                    rec.response_type == CALLBACK_DEFERRED_MESSAGE
                    and original is not None
                    and original.loading
                    and not original.deleted
                    and not rec.followups
                ):
                    problems.append(
                        Violation(
                            "deferred-unfinished",
                            f"interaction {rec.id} from {rec.user.name} was deferred and never answered (the user "
                            "sees 'thinking...' forever)",
                            interaction_id=rec.id,
                        )
                    )
        return problems

    # -- waiting ------------------------------------------------------------------------------------------

    def _notify(self) -> None:
        self._changed.set()
        self._changed = asyncio.Event()

    async def wait_for(
        self, condition: Callable[[], _T | None], timeout: float = 5.0, *, what: str = "", poll: float = 0.02
    ) -> _T:
        """Wait until ``condition()`` returns something other than None/False, and return it.

        Re-checked on every change the fake sees, and every ``poll`` seconds (for conditions on the bot's state).
        """
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            event = self._changed
            result = condition()
            if result is not None and result is not False:
                return result
            remaining = deadline - loop.time()
            if remaining <= 0:
                recent = "\n  ".join(str(c) for c in self.calls[-12:])
                raise TimeoutError(
                    f"timed out after {timeout}s waiting for {what or condition!r}; last calls:\n  {recent}"
                )
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(event.wait(), min(remaining, poll))

    async def wait_for_call(
        self, predicate: Callable[[RestCall], bool], timeout: float = 5.0, *, after: int = 0
    ) -> RestCall:
        """The first recorded call with index >= ``after`` matching ``predicate`` (waiting for it to be answered)."""

        def find() -> RestCall | None:
            return next((c for c in self.calls[after:] if c.status is not None and predicate(c)), None)

        return await self.wait_for(find, timeout, what="a matching REST call")

    def mark(self) -> int:
        """The index the next call will get: ``wait_for_call(..., after=fake.mark())`` ignores earlier calls."""
        return len(self.calls)

    async def wait_for_message(
        self,
        channel: FakeChannel | str | int,
        predicate: Callable[[StoredMessage], bool] = lambda m: True,
        timeout: float = 5.0,
    ) -> StoredMessage:
        """The newest current message of the channel that satisfies ``predicate`` (waiting for it)."""
        ch = self.channel(channel)

        def find() -> StoredMessage | None:
            return next((m for m in reversed(ch.current()) if predicate(m)), None)

        return await self.wait_for(find, timeout, what=f"a message in #{ch.name}")

    async def wait_for_dm(
        self,
        user: FakeUser | str | int,
        predicate: Callable[[StoredMessage], bool] = lambda m: True,
        timeout: float = 5.0,
    ) -> StoredMessage:
        who = self.user(user)

        def find() -> StoredMessage | None:
            return next((m for m in reversed(self.dms(who)) if predicate(m)), None)

        return await self.wait_for(find, timeout, what=f"a DM to {who.name}")

    async def reply_to(self, interaction_id: int, *, timeout: float = 5.0, followups: int = 0) -> InteractionRecord:
        """Wait for the bot's answer to an interaction and return its record.

        Returns once the interaction is acknowledged, a deferred message (type 5) has been edited or followed up,
        and at least ``followups`` followups were sent. ``record.content/embeds/components/flags`` read the
        original response as it is now. Fails at once if the acknowledgement deadline passed.
        """
        rec = self.interactions[interaction_id]

        def ready() -> InteractionRecord | None:
            if rec.late:
                raise AssertionError(f"interaction {rec.id} was acknowledged late ({rec.ack_latency:.3f}s)")
            if rec.response_type is None:
                if rec.deadline_passed:
                    raise AssertionError(f"interaction {rec.id} was not acknowledged within {rec.deadline}s")
                return None
            original = rec.original
            if rec.response_type == CALLBACK_DEFERRED_MESSAGE and original and original.loading and not rec.followups:
                return None
            return rec if len(rec.followups) >= followups else None

        return await self.wait_for(ready, timeout, what=f"the reply to interaction {interaction_id}")

    async def settle(self, timeout: float | None = None) -> None:
        """Wait until every interaction is acknowledged (or past its deadline) and every deferral completed."""

        def settled() -> bool:
            for rec in self.interactions.values():
                if rec.expect_ack and rec.response_type is None and not rec.deadline_passed:
                    return False
                original = rec.original
                deferred = rec.response_type == CALLBACK_DEFERRED_MESSAGE and original and original.loading
                if deferred and not (rec.followups or (original and original.deleted)):
                    return False
            return True

        limit = timeout if timeout is not None else self.ack_deadline + 2.0
        with contextlib.suppress(TimeoutError):
            await self.wait_for(settled, limit, what="interactions to settle")

    async def quiet(self, period: float = 0.1, timeout: float = 5.0) -> None:
        """Wait until no REST call is in flight and none arrived for ``period`` seconds."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            idle = loop.time() - self._last_activity
            if self._inflight == 0 and idle >= period:
                return
            if loop.time() >= deadline:
                raise TimeoutError(f"the bot kept calling for {timeout}s")
            await asyncio.sleep(max(0.005, period - idle if self._inflight == 0 else period / 4))

    # -- faults ---------------------------------------------------------------------------------------------

    def inject(
        self,
        match: str | Callable[[RestCall], bool],
        *,
        status: int | None = None,
        delay: float = 0.0,
        times: int | None = 1,
        body: JSON | None = None,
        retry_after: float = 0.05,
    ) -> Fault:
        """Make the next ``times`` calls (None: all) matching ``match`` wait ``delay`` s and/or fail with ``status``.

        ``match`` is a predicate on :class:`RestCall` or a glob on ``"METHOD /path"`` (``"PATCH /channels/*"``;
        a pattern starting with ``/`` matches any method). A 429 gets Discord's body and headers with
        ``retry_after``. Faults are tried in the order they were added; the first live match applies.
        """
        if status is None and delay <= 0:
            raise ValueError("a fault needs a status or a delay")
        predicate = _call_matcher(match) if isinstance(match, str) else match
        description = match if isinstance(match, str) else getattr(match, "__name__", repr(match))
        fault = Fault(predicate, description, status, body, delay, times, retry_after)
        self.faults.append(fault)
        return fault

    def expire_tokens(self, *interaction_ids: int) -> None:
        """Expire interaction tokens (all, or the given ones): later webhook calls answer 401 / 50027."""
        for rec in self.interactions.values():
            if not interaction_ids or rec.id in interaction_ids:
                rec.expired = True

    # -- gateway --------------------------------------------------------------------------------------------

    async def _gateway(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse(autoping=True, max_msg_size=0)
        await ws.prepare(request)
        await ws.send_str(json.dumps({"op": OP_HELLO, "d": {"heartbeat_interval": 41250}}))
        session: _GatewaySession | None = None
        try:
            async for msg in ws:
                if msg.type != WSMsgType.TEXT:
                    continue
                frame = json.loads(msg.data)
                op = frame.get("op")
                if op == OP_HEARTBEAT:
                    await ws.send_str(json.dumps({"op": OP_HEARTBEAT_ACK}))
                elif op == OP_IDENTIFY:
                    session = await self._identify(ws, frame["d"])
                elif op == OP_RESUME:
                    session = await self._resume(ws, frame["d"])
                elif op == OP_REQUEST_MEMBERS and session is not None:
                    members = [self._member_payload(u) for u in self.users.values()]
                    members.append(self._member_payload(self.bot_user))
                    chunk = {"guild_id": str(self.guild_id), "members": members, "chunk_index": 0, "chunk_count": 1}
                    if frame["d"].get("nonce"):
                        chunk["nonce"] = frame["d"]["nonce"]
                    await self._send(session, "GUILD_MEMBERS_CHUNK", chunk)
        finally:
            if session is not None and session.ws is ws and session.dropped is not ws and ws.close_code == 1000:
                session.ended = True  # the bot closed cleanly
            self._notify()
        return ws

    async def _identify(self, ws: web.WebSocketResponse, data: JSON) -> _GatewaySession | None:
        self.identify_payloads.append(data)
        intents = int(data.get("intents") or 0)
        if intents & Intent.PRIVILEGED and not self.allow_privileged_intents:
            await ws.close(code=4014, message=b"Disallowed intent(s).")
            return None
        for old in self._sessions:
            old.ended = True
        session = _GatewaySession(secrets.token_hex(16), intents, data, ws)
        self._sessions.append(session)
        ready = {
            "v": API_VERSION,
            "user": self.bot_user.payload(),
            "session_id": session.session_id,
            "resume_gateway_url": self.gateway_url,
            "guilds": [{"id": str(self.guild_id), "unavailable": True}],
            "application": {"id": str(self.app_id), "flags": 0},
            "private_channels": [],
            "relationships": [],
        }
        await self._send(session, "READY", ready)
        await self._send(session, "GUILD_CREATE", self._guild_create_payload())
        self._notify()
        return session

    async def _resume(self, ws: web.WebSocketResponse, data: JSON) -> _GatewaySession | None:
        session = next((s for s in self._sessions if s.session_id == data.get("session_id")), None)
        if session is None or not session.resumable or session.ended:
            if session is not None:
                session.ended = True
            await ws.send_str(json.dumps({"op": OP_INVALID_SESSION, "d": False}))
            return None
        self.resumes += 1
        async with session.lock:
            session.ws = ws
            last = int(data.get("seq") or 0)
            for seq, frame in session.frames:
                if seq > last:
                    await ws.send_str(frame)
        await self._send(session, "RESUMED", {})
        self._notify()
        return session

    def _active_session(self) -> _GatewaySession | None:
        live = [s for s in self._sessions if not s.ended]
        return live[-1] if live else None

    def connected(self) -> bool:
        session = self._active_session()
        return session is not None and session.connected

    async def _send(self, session: _GatewaySession, event: str, data: JSON) -> None:
        async with session.lock:
            session.seq += 1
            frame = json.dumps({"op": OP_DISPATCH, "t": event, "s": session.seq, "d": data})
            session.frames.append((session.seq, frame))
            del session.frames[:-500]
            if session.connected and session.ws is not None:
                with contextlib.suppress(ConnectionError, RuntimeError):
                    await session.ws.send_str(frame)

    async def dispatch(self, event: str, data: JSON) -> None:
        """Send a gateway event to the bot (the latest session; buffered for RESUME while disconnected)."""
        session = self._active_session()
        if session is None:
            raise RuntimeError(f"no bot is connected to the fake Discord (cannot send {event})")
        if self._held is not None:
            self._held.append((event, data))
            return
        await self._send(session, event, data)

    @contextlib.asynccontextmanager
    async def together(self) -> AsyncIterator[None]:
        """Hold the events sent inside (``click``, ``slash``...) and send them back to back when the block ends,
        with nothing in between: many users pressing at the same moment."""
        if self._held is not None:
            raise RuntimeError("together() does not nest")
        self._held = []
        try:
            yield
        finally:
            held, self._held = self._held, None
            session = self._active_session()
            if session is not None:
                for event, data in held:
                    await self._send(session, event, data)

    def _send_soon(self, event: str, data: Callable[[], JSON]) -> None:
        if self._active_session() is None:
            return
        task = asyncio.get_running_loop().create_task(self.dispatch(event, data()))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _message_event(self, event: str, message: StoredMessage) -> None:
        """MESSAGE_CREATE/UPDATE/DELETE for a non-ephemeral message, if the bot's intents ask for it."""
        session = self._active_session()
        if not self.message_events or session is None or message.ephemeral:
            return
        guild = message.guild_id is not None
        wanted = Intent.GUILD_MESSAGES if guild else Intent.DIRECT_MESSAGES
        if not session.intents & wanted:
            return
        if event == "MESSAGE_DELETE":
            data: JSON = {"id": str(message.id), "channel_id": str(message.channel_id)}
            if guild:
                data["guild_id"] = str(message.guild_id)
        else:
            data = message.payload()
            own = message.author.get("id") == str(self.app_id)
            if (
                guild
                and not own
                and not session.intents & Intent.MESSAGE_CONTENT
                and self.bot_user.mention not in message.content
            ):
                data.update(content="", embeds=[], attachments=[], components=[])
        await self._send(session, event, data)

    async def drop_gateway(self, *, resumable: bool = True, code: int = 4000) -> None:
        """Close the bot's gateway connection; it resumes (or re-identifies if not ``resumable``)."""
        session = self._active_session()
        if session is None or session.ws is None:
            raise RuntimeError("no bot is connected")
        session.resumable = resumable
        session.dropped = session.ws
        await session.ws.close(code=code, message=b"dropped by the test")

    # -- payloads -------------------------------------------------------------------------------------------

    def _channel_payload(self, channel: FakeChannel) -> JSON:
        if channel.is_dm:
            assert channel.recipient is not None
            return {
                "id": str(channel.id),
                "type": 1,
                "recipients": [channel.recipient.payload()],
                "last_message_id": None,
                "flags": 0,
            }
        overwrites = []
        if not channel.bot_can_send:
            overwrites.append({"id": str(self.app_id), "type": 1, "allow": "0", "deny": str(Perm.SEND_MESSAGES)})
        return {
            "id": str(channel.id),
            "type": 0,
            "guild_id": str(self.guild_id),
            "name": channel.name,
            "position": channel.position,
            "permission_overwrites": overwrites,
            "topic": None,
            "nsfw": False,
            "parent_id": None,
            "rate_limit_per_user": 0,
            "last_message_id": None,
            "flags": 0,
        }

    def _member_payload(self, user: FakeUser, *, with_user: bool = True, channel: FakeChannel | None = None) -> JSON:
        data: JSON = {
            "roles": [str(r.id) for r in user.roles],
            "joined_at": "2024-01-01T00:00:00+00:00",
            "premium_since": None,
            "deaf": False,
            "mute": False,
            "flags": 0,
            "pending": False,
            "nick": None,
            "avatar": None,
            "communication_disabled_until": None,
            "permissions": str(self.permissions(user, channel)),
        }
        if with_user:
            data["user"] = user.payload()
        return data

    def _guild_create_payload(self) -> JSON:
        return {
            "id": str(self.guild_id),
            "name": self.guild_name,
            "icon": None,
            "owner_id": str(self.owner_id),
            "roles": [r.payload() for r in self.roles.values()],
            "emojis": [],
            "stickers": [],
            "features": [],
            "member_count": len(self.users) + 1,
            "large": False,
            "members": [self._member_payload(self.bot_user)],
            "channels": [self._channel_payload(c) for c in self.channels.values() if not c.is_dm],
            "threads": [],
            "presences": [],
            "voice_states": [],
            "unavailable": False,
            "joined_at": "2024-01-01T00:00:00+00:00",
            "preferred_locale": "en-US",
            "system_channel_id": None,
            "afk_channel_id": None,
            "afk_timeout": 300,
            "verification_level": 0,
            "default_message_notifications": 0,
            "explicit_content_filter": 0,
            "mfa_level": 0,
            "premium_tier": 0,
            "nsfw_level": 0,
            "application_id": None,
        }

    def _guild_payload(self) -> JSON:
        data = self._guild_create_payload()
        for key in (
            "members",
            "channels",
            "threads",
            "presences",
            "voice_states",
            "joined_at",
            "large",
            "member_count",
        ):
            data.pop(key, None)
        return data

    # -- acting as users: interactions ----------------------------------------------------------------------

    async def _send_interaction(
        self,
        itype: int,
        user: FakeUser,
        channel: FakeChannel,
        data: JSON,
        *,
        message: StoredMessage | None = None,
        expect_ack: bool = True,
    ) -> int:
        if self._active_session() is None:
            raise RuntimeError("no bot is connected to the fake Discord")
        iid = new_snowflake()
        token = f"itok.{iid}.{secrets.token_urlsafe(24)}"
        payload: JSON = {
            "id": str(iid),
            "application_id": str(self.app_id),
            "type": itype,
            "token": token,
            "version": 1,
            "data": data,
            "channel_id": str(channel.id),
            "locale": "en-US",
            "attachment_size_limit": 8 * 1024 * 1024,
            "entitlements": [],
            "app_permissions": str(self.permissions(self.bot_user, channel)),
        }
        channel_payload = self._channel_payload(channel)
        if channel.is_dm:
            payload.update(user=user.payload(), context=1, authorizing_integration_owners={"0": str(self.guild_id)})
        else:
            channel_payload["permissions"] = str(self.permissions(user, channel))
            payload.update(
                guild_id=str(self.guild_id),
                guild={"id": str(self.guild_id), "locale": "en-US", "features": []},
                guild_locale="en-US",
                member=self._member_payload(user, channel=channel),
                context=0,
                authorizing_integration_owners={"0": str(self.guild_id)},
            )
        payload["channel"] = channel_payload
        live = None
        if message is not None:
            payload["message"] = message.payload()
            live = self.messages.get(message.id, message)
        rec = InteractionRecord(
            iid, token, itype, user, channel.id, payload, self.now(), self.ack_deadline, expect_ack, live
        )
        self.interactions[iid] = rec
        self._by_token[token] = rec
        loop = asyncio.get_running_loop()
        self._timers.append(loop.call_later(rec.deadline + 0.01, self._deadline_passed, rec))
        await self.dispatch("INTERACTION_CREATE", payload)
        self._notify()
        return iid

    def _deadline_passed(self, rec: InteractionRecord) -> None:
        rec.deadline_passed = True
        if rec.expect_ack and rec.response_type is None and not rec.late:
            self._violate(
                "ack-deadline",
                f"interaction {rec.id} ({_describe(rec)}) from {rec.user.name} was not acknowledged within "
                f"{rec.deadline}s",
                interaction_id=rec.id,
            )
        self._notify()

    def _interaction_channel(self, user: FakeUser, channel: FakeChannel | str | int | None, dm: bool) -> FakeChannel:
        if dm:
            return self.dm_channel(user)
        return self.channel(channel) if channel is not None else self.default_channel

    async def slash(
        self,
        user: FakeUser | str,
        command: str,
        *,
        subcommand: str | None = None,
        group: str | None = None,
        options: Mapping[str, Any] | None = None,
        channel: FakeChannel | str | int | None = None,
        dm: bool = False,
        expect_ack: bool = True,
        force: bool = False,
    ) -> int:
        """A user runs ``/command [group] [subcommand] options...``; returns the interaction id.

        Option types come from the synced (or the bot's local) command tree when the command is known, else from
        the Python values: str 3, int 4, bool 5, FakeUser 6, FakeChannel 7, FakeRole 8, float 10. Options that
        Discord's client would refuse (unknown, missing, out of range, not a choice) raise ValueError unless
        ``force``.
        """
        who = self.user(user)
        where = self._interaction_channel(who, channel, dm)
        data = self._command_data(who, command, group, subcommand, options or {}, force=force, dm=where.is_dm)
        return await self._send_interaction(APPLICATION_COMMAND, who, where, data, expect_ack=expect_ack)

    async def autocomplete(
        self,
        user: FakeUser | str,
        command: str,
        focused: str,
        *,
        subcommand: str | None = None,
        group: str | None = None,
        options: Mapping[str, Any] | None = None,
        channel: FakeChannel | str | int | None = None,
        dm: bool = False,
    ) -> int:
        """A user types in option ``focused`` of a command: the bot should answer with choices (callback 8)."""
        who = self.user(user)
        where = self._interaction_channel(who, channel, dm)
        data = self._command_data(who, command, group, subcommand, options or {}, force=True, dm=where.is_dm)
        leaf = data
        while leaf.get("options") and leaf["options"][0].get("type") in (OPT_SUB_COMMAND, OPT_SUB_COMMAND_GROUP):
            leaf = leaf["options"][0]
        for option in leaf.get("options") or []:
            if option["name"] == focused:
                option["focused"] = True
                option["value"] = str(option["value"])
        return await self._send_interaction(AUTOCOMPLETE, who, where, data)

    def _live_message(self, message: StoredMessage | int | str) -> tuple[StoredMessage, StoredMessage]:
        """(what the user's client shows, the live message)."""
        if isinstance(message, StoredMessage):
            live = self.messages.get(message.id, message)
            return (message if message.detached else live), live
        live = self.messages[int(message)]
        return live, live

    def _check_can_use(self, who: FakeUser, shown: StoredMessage, live: StoredMessage) -> None:
        if live.deleted:
            raise ValueError(f"message {live.id} was deleted; nobody can click it")
        if shown.ephemeral_to is not None and shown.ephemeral_to != who.id:
            raise ValueError(f"message {shown.id} is ephemeral to someone else; {who.name} cannot see it")

    async def click(
        self,
        user: FakeUser | str,
        message: StoredMessage | int | str,
        custom_id: str,
        *,
        expect_ack: bool = True,
        force: bool = False,
    ) -> int:
        """A user presses a button. Pass ``message.snapshot()`` to click what an older state showed (stale click).

        Raises ValueError for a button the message does not show, a disabled or link button, a deleted message or
        someone else's ephemeral message, unless ``force`` (forged interactions).
        """
        who = self.user(user)
        shown, live = self._live_message(message)
        component = shown.component(custom_id)
        if not force:
            self._check_can_use(who, shown, live)
            if component is None or component.get("type") != BUTTON:
                raise ValueError(f"message {shown.id} has no button {custom_id!r}; it has {shown.custom_ids()}")
            if component.get("disabled"):
                raise ValueError(f"button {custom_id!r} is disabled")
        data: JSON = {"custom_id": custom_id, "component_type": BUTTON}
        channel = self.channels[shown.channel_id]
        return await self._send_interaction(MESSAGE_COMPONENT, who, channel, data, message=shown, expect_ack=expect_ack)

    async def select(
        self,
        user: FakeUser | str,
        message: StoredMessage | int | str,
        custom_id: str,
        values: Sequence[str | FakeUser | FakeRole | FakeChannel],
        *,
        expect_ack: bool = True,
        force: bool = False,
    ) -> int:
        """A user picks ``values`` in a select menu (string values, or users/roles/channels for entity selects)."""
        who = self.user(user)
        shown, live = self._live_message(message)
        component = shown.component(custom_id)
        kind = int(component.get("type") or STRING_SELECT) if component else STRING_SELECT
        raw = [str(v.id) if isinstance(v, (FakeUser, FakeRole, FakeChannel)) else str(v) for v in values]
        if not force:
            self._check_can_use(who, shown, live)
            if component is None or kind not in SELECT_TYPES:
                raise ValueError(f"message {shown.id} has no select {custom_id!r}; it has {shown.custom_ids()}")
            if component.get("disabled"):
                raise ValueError(f"select {custom_id!r} is disabled")
            low, high = int(component.get("min_values", 1)), int(component.get("max_values", 1))
            if not low <= len(raw) <= high:
                raise ValueError(f"select {custom_id!r} takes {low}..{high} values, not {len(raw)}")
            if kind == STRING_SELECT:
                allowed = [str(o["value"]) for o in component.get("options") or []]
                unknown = [v for v in raw if v not in allowed]
                if unknown:
                    raise ValueError(f"select {custom_id!r} has no option {unknown}; options: {allowed}")
        data: JSON = {"custom_id": custom_id, "component_type": kind, "values": raw}
        resolved = self._resolve_entities(values, dm=self.channels[shown.channel_id].is_dm)
        if resolved:
            data["resolved"] = resolved
        channel = self.channels[shown.channel_id]
        return await self._send_interaction(MESSAGE_COMPONENT, who, channel, data, message=shown, expect_ack=expect_ack)

    async def submit_modal(
        self,
        user: FakeUser | str,
        custom_id: str | None,
        fields: Mapping[str, str | Sequence[str]],
        *,
        expect_ack: bool = True,
        force: bool = False,
    ) -> int:
        """A user submits a modal the bot showed him (``custom_id`` None: the latest one shown to him).

        ``fields`` maps each input's custom_id to the text typed (fields left out keep their prefilled value).
        Raises ValueError for a modal not shown to the user, an unknown field, or a value the modal's own
        constraints (required, min/max length) would refuse, unless ``force``.
        """
        who = self.user(user)
        shown: _ShownModal | None
        if custom_id is None:
            candidates = [m for (uid, _), m in self._modals.items() if uid == who.id]
            shown = candidates[-1] if candidates else None
            if shown is None:
                raise ValueError(f"no modal is open for {who.name}")
            custom_id = str(shown.data["custom_id"])
        else:
            shown = self._modals.get((who.id, custom_id))
        if shown is None and not force:
            raise ValueError(f"no modal {custom_id!r} was shown to {who.name}")
        remaining = dict(fields)
        components = self._modal_submission(shown.data if shown else {"components": []}, remaining, force=force)
        if remaining:
            if not force:
                raise ValueError(f"modal {custom_id!r} has no field(s) {sorted(remaining)}")
            for key, value in remaining.items():  # a forged field: text typed, or a select's values
                if isinstance(value, str):
                    field: JSON = {"type": ACTION_ROW, "components": [{"type": TEXT_INPUT, "custom_id": key,
                                                                       "value": value}]}
                else:
                    field = {"type": LABEL, "component": {"type": STRING_SELECT, "custom_id": key,
                                                          "values": [str(v) for v in value]}}
                components.append(field)
        data: JSON = {"custom_id": custom_id, "components": components}
        if shown is not None:
            self._modals.pop((who.id, custom_id), None)
            source = shown.source
            channel = self.channels[source.channel_id]
            message = source.source_message
        else:
            channel, message = self.default_channel, None
        return await self._send_interaction(MODAL_SUBMIT, who, channel, data, message=message, expect_ack=expect_ack)

    def _modal_submission(self, modal: JSON, fields: dict[str, Any], *, force: bool) -> list[JSON]:
        def convert(items: Sequence[Mapping[str, Any]]) -> list[JSON]:
            out: list[JSON] = []
            for item in items:
                kind = item.get("type")
                if kind == ACTION_ROW:
                    out.append({"type": ACTION_ROW, "components": convert(item.get("components") or [])})
                elif kind == LABEL:
                    inner = convert([item.get("component") or {}])
                    if inner:
                        out.append({"type": LABEL, "component": inner[0]})
                elif kind == TEXT_INPUT:
                    cid = str(item["custom_id"])
                    value = str(fields.pop(cid)) if cid in fields else str(item.get("value") or "")
                    if not force:
                        self._check_text_input(item, value)
                    out.append({"type": TEXT_INPUT, "custom_id": cid, "value": value})
                elif kind in SELECT_TYPES:
                    cid = str(item["custom_id"])
                    chosen = fields.pop(cid, [])
                    values = [chosen] if isinstance(chosen, str) else [str(v) for v in chosen]
                    if not force:
                        self._check_select(item, values)
                    out.append({"type": kind, "custom_id": cid, "values": values})
            return out

        return convert(modal.get("components") or [])

    @staticmethod
    def _check_select(item: Mapping[str, Any], values: Sequence[str]) -> None:
        """What Discord's client lets a user submit in a modal's select: offered options, within min/max values
        (none at all when the select is not required)."""
        cid = item.get("custom_id")
        offered = {str(o.get("value")) for o in item.get("options") or []}
        if item.get("type") == STRING_SELECT and any(v not in offered for v in values):
            raise ValueError(f"modal select {cid!r} offers no option {sorted(set(values) - offered)}")
        low, high = int(item.get("min_values", 1)), int(item.get("max_values", 1))
        if not values and not item.get("required", True):
            return
        if not low <= len(values) <= high:
            raise ValueError(f"modal select {cid!r} takes {low} to {high} values, not {len(values)}")

    @staticmethod
    def _check_text_input(item: Mapping[str, Any], value: str) -> None:
        cid = item.get("custom_id")
        if item.get("required", True) and not value:
            raise ValueError(f"modal field {cid!r} is required; Discord would not submit it empty")
        low, high = item.get("min_length"), item.get("max_length")
        if value and low is not None and len(value) < int(low):
            raise ValueError(f"modal field {cid!r} needs at least {low} characters")
        if high is not None and len(value) > int(high):
            raise ValueError(f"modal field {cid!r} takes at most {high} characters")

    async def resend(self, interaction_id: int) -> None:
        """Deliver an interaction a second time (same id and token), as after a gateway hiccup."""
        rec = self.interactions[interaction_id]
        rec.deliveries += 1
        await self.dispatch("INTERACTION_CREATE", rec.payload)

    async def delete_message(self, message: StoredMessage | int) -> None:
        """Someone (a moderator) deletes a message: it is gone and the bot gets MESSAGE_DELETE."""
        msg = self.messages[message.id if isinstance(message, StoredMessage) else int(message)]
        msg.deleted = True
        self._notify()
        await self._message_event("MESSAGE_DELETE", msg)

    async def post_as(self, user: FakeUser | str, channel: FakeChannel | str | int, content: str) -> StoredMessage:
        """A user writes a message in a channel (or, with ``fake.dm_channel(user)``, to the bot in DMs)."""
        who = self.user(user)
        ch = self.channel(channel)
        msg = self._new_message(ch, {"content": content}, [], author=who.payload())
        await self._message_event("MESSAGE_CREATE", msg)
        return msg

    # -- commands ---------------------------------------------------------------------------------------------

    def register_commands(self, global_commands: Sequence[JSON], guild_commands: Sequence[JSON] = ()) -> None:
        """Tell the fake the bot's local command tree (used for option types when commands were not synced)."""
        self._local_commands = (
            {c["name"]: c for c in global_commands if int(c.get("type") or 1) == 1},
            {c["name"]: c for c in guild_commands if int(c.get("type") or 1) == 1},
        )

    def _find_command(self, name: str) -> tuple[JSON | None, bool]:
        for commands, in_guild in (
            (self.guild_commands, True),
            (self.global_commands, False),
            (self._local_commands[1], True),
            (self._local_commands[0], False),
        ):
            if name in commands and int(commands[name].get("type") or 1) == 1:
                return commands[name], in_guild
        return None, False

    def _command_data(
        self,
        user: FakeUser,
        command: str,
        group: str | None,
        subcommand: str | None,
        options: Mapping[str, Any],
        *,
        force: bool,
        dm: bool,
    ) -> JSON:
        declared, in_guild = self._find_command(command)
        if (
            declared is None
            and not force
            and (self.global_commands or self.guild_commands or any(self._local_commands))
        ):
            raise ValueError(f"the bot has no command /{command}")
        if in_guild and dm and not force:
            raise ValueError(f"/{command} is a guild command; it cannot be used in DMs")
        leaf_decl: list[JSON] | None = list(declared.get("options") or []) if declared else None
        for level, (kind, name) in enumerate(((OPT_SUB_COMMAND_GROUP, group), (OPT_SUB_COMMAND, subcommand))):
            if leaf_decl is None:
                break
            subs = [o for o in leaf_decl if o.get("type") == kind]
            if name is None:
                if subs and not force and (level == 1 or not any(o.get("type") == OPT_SUB_COMMAND for o in leaf_decl)):
                    raise ValueError(f"/{command} needs a {'group' if kind == OPT_SUB_COMMAND_GROUP else 'subcommand'}")
                continue
            match = next((o for o in subs if o.get("name") == name), None)
            if match is None:
                if not force:
                    raise ValueError(f"/{command} has no {'group' if level == 0 else 'subcommand'} {name!r}")
                leaf_decl = None
                break
            leaf_decl = list(match.get("options") or [])
        resolved: JSON = {}
        leaf = [
            self._command_option(name, value, leaf_decl, resolved, force=force, dm=dm)
            for name, value in options.items()
        ]
        if leaf_decl is not None and not force:
            missing = [o["name"] for o in leaf_decl if o.get("required") and o["name"] not in options]
            if missing:
                raise ValueError(f"/{command} {subcommand or ''}: missing required option(s) {missing}")
        wrapped: list[JSON] = leaf
        if subcommand is not None:
            wrapped = [{"type": OPT_SUB_COMMAND, "name": subcommand, "options": wrapped}]
        if group is not None:
            wrapped = [{"type": OPT_SUB_COMMAND_GROUP, "name": group, "options": wrapped}]
        data: JSON = {
            "id": str(declared.get("id") or new_snowflake()) if declared else str(new_snowflake()),
            "name": command,
            "type": 1,
            "options": wrapped,
        }
        if in_guild:
            data["guild_id"] = str(self.guild_id)
        if resolved:
            data["resolved"] = resolved
        return data

    def _command_option(
        self, name: str, value: Any, declared: list[JSON] | None, resolved: JSON, *, force: bool, dm: bool
    ) -> JSON:
        decl = next((o for o in declared or [] if o.get("name") == name), None)
        if declared is not None and decl is None and not force:
            raise ValueError(f"unknown option {name!r}; the command has {[o.get('name') for o in declared]}")
        kind = int(decl["type"]) if decl else _infer_option_type(value)
        wire: Any
        if kind in (OPT_USER, OPT_ROLE, OPT_CHANNEL, OPT_MENTIONABLE):
            entity = self._entity(value, kind)
            wire = str(entity.id)
            self._resolve_into(resolved, entity, dm=dm)
        elif kind == OPT_INTEGER:
            if not force and (isinstance(value, bool) or not isinstance(value, int)):
                raise TypeError(f"option {name!r} is an integer, not {value!r}")
            wire = value
        elif kind == OPT_NUMBER:
            if not force and (isinstance(value, bool) or not isinstance(value, (int, float))):
                raise TypeError(f"option {name!r} is a number, not {value!r}")
            wire = value
        elif kind == OPT_BOOLEAN:
            if not force and not isinstance(value, bool):
                raise TypeError(f"option {name!r} is a boolean, not {value!r}")
            wire = value
        elif kind == OPT_STRING:
            if not force and not isinstance(value, str):
                raise TypeError(f"option {name!r} is a string, not {value!r}")
            wire = value
        else:
            raise NotImplementedError(f"option type {kind} ({name!r}) is not supported by the fake")
        if decl is not None and not force:
            _check_option_value(name, wire, decl)
        return {"name": name, "type": kind, "value": wire}

    def _entity(self, value: Any, kind: int) -> FakeUser | FakeRole | FakeChannel:
        if isinstance(value, (FakeUser, FakeRole, FakeChannel)):
            return value
        if kind == OPT_USER:
            return self.user(value)
        if kind == OPT_ROLE:
            return self.role(value)
        if kind == OPT_CHANNEL:
            return self.channel(value)
        try:
            return self.user(value)
        except LookupError:
            return self.role(value)

    def _resolve_into(self, resolved: JSON, entity: FakeUser | FakeRole | FakeChannel, *, dm: bool) -> None:
        key = str(entity.id)
        if isinstance(entity, FakeUser):
            resolved.setdefault("users", {})[key] = entity.payload()
            if not dm and (entity.id in self.users or entity is self.bot_user):
                member = self._member_payload(entity, with_user=False)
                resolved.setdefault("members", {})[key] = member
        elif isinstance(entity, FakeRole):
            resolved.setdefault("roles", {})[key] = entity.payload()
        else:
            channel = self._channel_payload(entity)
            channel["permissions"] = str(Perm.EVERYONE_DEFAULT)
            resolved.setdefault("channels", {})[key] = channel

    def _resolve_entities(self, values: Sequence[Any], *, dm: bool) -> JSON:
        resolved: JSON = {}
        for value in values:
            if isinstance(value, (FakeUser, FakeRole, FakeChannel)):
                self._resolve_into(resolved, value, dm=dm)
        return resolved

    # -- REST plumbing ------------------------------------------------------------------------------------------

    def _build_routes(self) -> list[tuple[str, re.Pattern[str], str, Callable[[RestCall], Any]]]:
        table: list[tuple[str, str, Callable[[RestCall], Any]]] = [
            ("GET", "/users/@me", self._get_me),
            ("POST", "/users/@me/channels", self._open_dm),
            ("GET", "/users/{user_id}", self._get_user),
            ("GET", "/oauth2/applications/@me", self._get_application),
            ("GET", "/applications/@me", self._get_application),
            ("GET", "/gateway", self._get_gateway),
            ("GET", "/gateway/bot", self._get_gateway),
            ("GET", "/applications/{app_id}/commands", self._get_commands),
            ("PUT", "/applications/{app_id}/commands", self._put_commands),
            ("GET", "/applications/{app_id}/guilds/{guild_id}/commands", self._get_commands),
            ("PUT", "/applications/{app_id}/guilds/{guild_id}/commands", self._put_commands),
            ("POST", "/interactions/{interaction_id}/{token}/callback", self._callback),
            ("POST", "/webhooks/{app_id}/{token}", self._followup),
            ("GET", "/webhooks/{app_id}/{token}/messages/{message_id}", self._webhook_message),
            ("PATCH", "/webhooks/{app_id}/{token}/messages/{message_id}", self._webhook_message),
            ("DELETE", "/webhooks/{app_id}/{token}/messages/{message_id}", self._webhook_message),
            ("GET", "/channels/{channel_id}", self._get_channel),
            ("GET", "/channels/{channel_id}/messages", self._history),
            ("POST", "/channels/{channel_id}/messages", self._create_message),
            ("GET", "/channels/{channel_id}/messages/{message_id}", self._get_message),
            ("PATCH", "/channels/{channel_id}/messages/{message_id}", self._edit_message),
            ("DELETE", "/channels/{channel_id}/messages/{message_id}", self._delete_message),
            ("POST", "/channels/{channel_id}/typing", self._no_content),
            ("PUT", "/channels/{channel_id}/pins/{message_id}", self._pin),
            ("DELETE", "/channels/{channel_id}/pins/{message_id}", self._pin),
            ("PUT", "/channels/{channel_id}/messages/pins/{message_id}", self._pin),
            ("DELETE", "/channels/{channel_id}/messages/pins/{message_id}", self._pin),
            ("PUT", "/channels/{channel_id}/messages/{message_id}/reactions/{emoji}/@me", self._reaction),
            ("DELETE", "/channels/{channel_id}/messages/{message_id}/reactions/{emoji}/@me", self._reaction),
            ("GET", "/guilds/{guild_id}", self._get_guild),
            ("GET", "/guilds/{guild_id}/channels", self._get_guild_channels),
            ("GET", "/guilds/{guild_id}/roles", self._get_roles),
            ("GET", "/guilds/{guild_id}/members/{user_id}", self._get_member),
        ]
        routes = []
        for method, template, handler in table:
            regex = re.compile("^" + re.sub(r"\\\{(\w+)\\\}", r"(?P<\1>[^/]+)", re.escape(template)) + "$")
            routes.append((method, regex, f"{method} {template}", handler))
        return routes

    async def _read_body(self, request: web.Request, call: RestCall) -> None:
        if not request.can_read_body:
            return
        if request.content_type == "application/json":
            call.json = await request.json()
        elif request.content_type.startswith("multipart/"):
            reader = await request.multipart()
            while (part := await reader.next()) is not None:
                if not isinstance(part, BodyPartReader):
                    continue
                if part.name == "payload_json":
                    call.json = json.loads(await part.text())
                else:
                    data = bytes(await part.read(decode=False))
                    ctype = part.headers.get("Content-Type")
                    upload = StoredFile(0, part.filename or str(part.name), data, ctype, field=str(part.name))
                    call.files.append(upload)
        else:
            text = await request.text()
            call.json = text or None

    async def _rest(self, request: web.Request) -> web.StreamResponse:
        path = "/" + request.match_info["tail"]
        call = RestCall(len(self.calls), request.method, path, dict(request.query), self.now())
        self._inflight += 1
        try:
            await self._read_body(request, call)
            self.calls.append(call)
            self._notify()
            answer = await self._answer(call)
        except Exception as error:  # a bug in the fake (or a body it cannot parse): fail fast, and loudly
            if call not in self.calls:
                self.calls.append(call)
            self._violate("fake-error", f"{type(error).__name__}: {error}\n{traceback.format_exc()}", call=call)
            answer = _Answer(400, {"message": f"fake Discord error: {type(error).__name__}: {error}", "code": 0})
        finally:
            self._inflight -= 1
            self._last_activity = asyncio.get_running_loop().time()
        call.status, call.response, call.handled_at = answer.status, answer.body, self.now()
        self._notify()
        return _json_response(answer)

    async def _answer(self, call: RestCall) -> _Answer:
        handler: Callable[[RestCall], Any] | None = None
        for method, regex, template, candidate in self._routes:
            found = regex.match(call.path)
            if found and method == call.method:
                call.route, call.params, handler = template, found.groupdict(), candidate
                break
        fault = next((f for f in self.faults if not f.exhausted and f.match(call)), None)
        if fault is not None:
            fault.hits += 1
            call.fault = fault
            if fault.delay > 0:
                await asyncio.sleep(fault.delay)
            if fault.status is not None:
                return self._fault_answer(fault)
        if handler is None:
            self._violate("unknown-route", f"the fake does not know {call.method} {call.path}", call=call)
            return _Answer(404, {"message": "404: Not Found", "code": 0})
        limited = self._rate_limit(call)
        if limited is not None and limited.status == 429:
            return limited
        try:
            answer: _Answer = await handler(call)
        except ApiError as error:
            if error.violation:
                self._violate(error.violation, error.detail, call=call, interaction_id=call.interaction_id)
            answer = _Answer(error.status, error.body())
        if limited is not None:
            answer.headers.update(limited.headers)
        return answer

    def _fault_answer(self, fault: Fault) -> _Answer:
        assert fault.status is not None
        if fault.status == 429:
            return self._too_many(fault.retry_after, limit=1, bucket="injected", body=fault.body)
        return _Answer(fault.status, fault.body or {"message": _reason(fault.status), "code": 0})

    @staticmethod
    def _too_many(retry_after: float, *, limit: int, bucket: str, body: JSON | None = None) -> _Answer:
        headers = {
            "Retry-After": str(max(1, math.ceil(retry_after))),
            "X-RateLimit-Limit": str(limit),
            "X-RateLimit-Remaining": "0",
            "X-RateLimit-Reset": f"{time.time() + retry_after:.3f}",
            "X-RateLimit-Reset-After": f"{retry_after:.3f}",
            "X-RateLimit-Bucket": bucket,
            "X-RateLimit-Scope": "user",
            "Via": "1.1 google",  # discord.py treats a 429 without Via as a Cloudflare ban
        }
        payload = body or {
            "message": "You are being rate limited.",
            "retry_after": round(retry_after, 3),
            "global": False,
        }
        return _Answer(429, payload, headers)

    def _rate_limit(self, call: RestCall) -> _Answer | None:
        model = self.rate_limit
        channel_id = call.channel_id
        if model is None or channel_id is None or call.method not in model.methods or "/messages" not in call.route:
            return None
        if "/reactions/" in call.route or "/pins/" in call.route:
            return None
        now = asyncio.get_running_loop().time()
        bucket = self._buckets.get(channel_id)
        if bucket is None or now >= bucket.reset_at:
            bucket = self._buckets[channel_id] = _Bucket(0, now + model.period)
        reset_after = max(0.0, bucket.reset_at - now)
        if bucket.count >= model.limit:
            return self._too_many(reset_after, limit=model.limit, bucket="channel-messages")
        bucket.count += 1
        headers = {
            "X-RateLimit-Limit": str(model.limit),
            "X-RateLimit-Remaining": str(model.limit - bucket.count),
            "X-RateLimit-Reset": f"{time.time() + reset_after:.3f}",
            "X-RateLimit-Reset-After": f"{reset_after:.3f}",
            "X-RateLimit-Bucket": "channel-messages",
        }
        return _Answer(200, None, headers)

    async def _attachment(self, request: web.Request) -> web.Response:
        attachment_id = int(request.match_info["attachment_id"])
        for message in self.messages.values():
            for attachment in message.attachments:
                if attachment.id == attachment_id:
                    return web.Response(
                        body=attachment.data, content_type=attachment.content_type or "application/octet-stream"
                    )
        return web.Response(status=404)

    # -- REST handlers: identity, gateway, commands -------------------------------------------------------------

    async def _get_me(self, call: RestCall) -> _Answer:
        return _Answer(body={**self.bot_user.payload(), "verified": True, "mfa_enabled": False, "flags": 0})

    async def _get_user(self, call: RestCall) -> _Answer:
        try:
            return _Answer(body=self.user(call.params["user_id"]).payload())
        except LookupError:
            raise ApiError(404, 10013, "Unknown User") from None

    async def _get_application(self, call: RestCall) -> _Answer:
        owner = self.user(self.owner_id) if self.owner_id in self.users else self.bot_user
        return _Answer(
            body={
                "id": str(self.app_id),
                "name": self.bot_user.name,
                "description": "",
                "icon": None,
                "bot_public": True,
                "bot_require_code_grant": False,
                "owner": owner.payload(),
                "verify_key": "0" * 64,
                "flags": 0,
                "team": None,
            }
        )

    async def _get_gateway(self, call: RestCall) -> _Answer:
        limit = {"total": 1000, "remaining": 1000, "reset_after": 0, "max_concurrency": 1}
        return _Answer(body={"url": self.gateway_url, "shards": 1, "session_start_limit": limit})

    def _check_app(self, call: RestCall) -> None:
        if call.params.get("app_id") != str(self.app_id):
            raise ApiError(
                403,
                50001,
                "Missing Access",
                violation="wrong-application",
                detail=f"app id {call.params.get('app_id')}",
            )

    async def _get_commands(self, call: RestCall) -> _Answer:
        self._check_app(call)
        store = self.guild_commands if "guild_id" in call.params else self.global_commands
        return _Answer(body=list(store.values()))

    async def _put_commands(self, call: RestCall) -> _Answer:
        self._check_app(call)
        in_guild = "guild_id" in call.params
        if in_guild and call.params["guild_id"] != str(self.guild_id):
            raise ApiError(403, 50001, "Missing Access")
        commands = call.json if isinstance(call.json, list) else []
        errors = FormErrors()
        validate_commands(errors, commands)
        if errors:
            raise ApiError(
                400,
                50035,
                "Invalid Form Body",
                errors=errors.nested(),
                violation="invalid-commands",
                detail=errors.summary(),
            )
        store = self.guild_commands if in_guild else self.global_commands
        old = dict(store)
        store.clear()
        for command in commands:
            entry = copy.deepcopy(command)
            previous = old.get(command["name"])
            entry.update(
                id=previous["id"] if previous else str(new_snowflake()),
                application_id=str(self.app_id),
                version=str(new_snowflake()),
                type=int(command.get("type") or 1),
            )
            if in_guild:
                entry["guild_id"] = str(self.guild_id)
            store[entry["name"]] = entry
        return _Answer(body=list(store.values()))

    # -- REST handlers: guild and channels ----------------------------------------------------------------------

    def _check_guild(self, call: RestCall) -> None:
        if call.params.get("guild_id") != str(self.guild_id):
            raise ApiError(404, 10004, "Unknown Guild")

    async def _get_guild(self, call: RestCall) -> _Answer:
        self._check_guild(call)
        return _Answer(body=self._guild_payload())

    async def _get_guild_channels(self, call: RestCall) -> _Answer:
        self._check_guild(call)
        return _Answer(body=[self._channel_payload(c) for c in self.channels.values() if not c.is_dm])

    async def _get_roles(self, call: RestCall) -> _Answer:
        self._check_guild(call)
        return _Answer(body=[r.payload() for r in self.roles.values()])

    async def _get_member(self, call: RestCall) -> _Answer:
        self._check_guild(call)
        try:
            user = self.user(call.params["user_id"])
        except LookupError:
            raise ApiError(404, 10007, "Unknown Member") from None
        return _Answer(body=self._member_payload(user))

    def _channel_for(self, call: RestCall) -> FakeChannel:
        channel = self.channels.get(call.channel_id or 0)
        if channel is None:
            raise ApiError(404, 10003, "Unknown Channel")
        return channel

    async def _get_channel(self, call: RestCall) -> _Answer:
        return _Answer(body=self._channel_payload(self._channel_for(call)))

    async def _open_dm(self, call: RestCall) -> _Answer:
        recipient = (call.json or {}).get("recipient_id") if isinstance(call.json, dict) else None
        try:
            user = self.user(str(recipient))
        except LookupError:
            raise ApiError(400, 50033, "Invalid Recipient(s)") from None
        return _Answer(body=self._channel_payload(self.dm_channel(user)))

    def _message_in(self, call: RestCall, channel: FakeChannel) -> StoredMessage:
        message = self.messages.get(int(call.params["message_id"])) if call.params["message_id"].isdigit() else None
        if message is None or message.deleted or message.channel_id != channel.id or message.ephemeral:
            raise ApiError(404, 10008, "Unknown Message")
        return message

    async def _history(self, call: RestCall) -> _Answer:
        channel = self._channel_for(call)
        messages = channel.current()
        if "before" in call.query:
            messages = [m for m in messages if m.id < int(call.query["before"])]
        if "after" in call.query:
            messages = [m for m in messages if m.id > int(call.query["after"])]
        limit = int(call.query.get("limit", 50))
        newest_first = list(reversed(messages))
        if "after" in call.query:
            newest_first = list(reversed(messages[:limit]))
        return _Answer(body=[m.payload() for m in newest_first[:limit]])

    async def _create_message(self, call: RestCall) -> _Answer:
        channel = self._channel_for(call)
        if channel.is_dm and channel.recipient is not None and not channel.recipient.dms_open:
            raise ApiError(403, 50007, "Cannot send messages to this user")
        if not channel.is_dm and not channel.bot_can_send:
            raise ApiError(403, 50013, "Missing Permissions")
        data = call.json if isinstance(call.json, dict) else {}
        self._validate(data, (), files=len(call.files))
        msg = self._new_message(channel, data, call.files)
        await self._message_event("MESSAGE_CREATE", msg)
        return _Answer(body=msg.payload())

    async def _get_message(self, call: RestCall) -> _Answer:
        return _Answer(body=self._message_in(call, self._channel_for(call)).payload())

    async def _edit_message(self, call: RestCall) -> _Answer:
        channel = self._channel_for(call)
        message = self._message_in(call, channel)
        if message.author.get("id") != str(self.app_id):
            raise ApiError(403, 50005, "Cannot edit a message authored by another user")
        data = call.json if isinstance(call.json, dict) else {}
        self._validate(data, (), files=len(call.files), partial=message)
        self._apply_edit(message, data, call.files)
        await self._message_event("MESSAGE_UPDATE", message)
        return _Answer(body=message.payload())

    async def _delete_message(self, call: RestCall) -> _Answer:
        channel = self._channel_for(call)
        message = self._message_in(call, channel)
        others = message.author.get("id") != str(self.app_id) and not channel.is_dm
        if others and not self.permissions(self.bot_user, channel) & Perm.MANAGE_MESSAGES:
            raise ApiError(403, 50013, "Missing Permissions")
        message.deleted = True
        await self._message_event("MESSAGE_DELETE", message)
        return _Answer(204)

    async def _no_content(self, call: RestCall) -> _Answer:
        self._channel_for(call)
        return _Answer(204)

    async def _pin(self, call: RestCall) -> _Answer:
        message = self._message_in(call, self._channel_for(call))
        message.pinned = call.method == "PUT"
        return _Answer(204)

    async def _reaction(self, call: RestCall) -> _Answer:
        self._message_in(call, self._channel_for(call))
        return _Answer(204)

    # -- REST handlers: interactions ------------------------------------------------------------------------

    async def _callback(self, call: RestCall) -> _Answer:
        rec = self.interactions.get(call.interaction_id or 0)
        if rec is None or rec.token != call.params["token"]:
            raise ApiError(404, 10062, "Unknown interaction", violation="unknown-interaction")
        body = call.json if isinstance(call.json, dict) else {}
        rtype = int(body.get("type") or 0)
        data: JSON = body.get("data") or {}
        if rec.response_type is not None:
            raise ApiError(
                400,
                40060,
                "Interaction has already been acknowledged.",
                violation="already-acknowledged",
                detail=f"interaction {rec.id} ({_describe(rec)}) answered twice "
                f"(type {rec.response_type}, then {rtype})",
            )
        latency = self.now() - rec.sent_at
        if latency > rec.deadline or rec.late:
            rec.late, rec.ack_latency = True, latency
            detail = (
                f"interaction {rec.id} ({_describe(rec)}) acknowledged after {latency:.3f}s (deadline {rec.deadline}s)"
            )
            existing = next(
                (v for v in self.violations if v.kind == "ack-deadline" and v.interaction_id == rec.id), None
            )
            if existing is not None:
                existing.detail, existing.call = detail, call
            else:
                self._violate("ack-deadline", detail, call=call, interaction_id=rec.id)
            self._notify()
            raise ApiError(404, 10062, "Unknown interaction")
        if rtype not in ALLOWED_CALLBACKS.get(rec.type, frozenset()) or (
            rtype in (CALLBACK_DEFERRED_UPDATE, CALLBACK_UPDATE) and rec.source_message is None
        ):
            errors = FormErrors()
            errors.add(
                ("type",),
                "INTERACTION_RESPONSE_TYPE_INVALID",
                f"Response type {rtype} is invalid for this interaction.",
            )
            raise ApiError(
                400,
                50035,
                "Invalid Form Body",
                errors=errors.nested(),
                violation="invalid-response-type",
                detail=f"callback type {rtype} to a type-{rec.type} interaction ({_describe(rec)})",
            )
        errors = FormErrors()
        if rtype in (CALLBACK_MESSAGE, CALLBACK_UPDATE):
            validate_message(errors, data, ("data",))
        elif rtype == CALLBACK_MODAL:
            validate_modal(errors, data, ("data",))
        elif rtype == CALLBACK_AUTOCOMPLETE:
            choices = data.get("choices") or []
            errors.length(("data", "choices"), choices, 0, 25)
            for i, choice in enumerate(choices):
                errors.length(("data", "choices", i, "name"), str(choice.get("name") or ""), 1, 100)
        if errors:
            raise ApiError(
                400,
                50035,
                "Invalid Form Body",
                errors=errors.nested(),
                violation="invalid-form-body",
                detail=errors.summary(),
            )
        if rtype == CALLBACK_MESSAGE:
            self._check_not_empty(data, len(call.files))
        if rtype == CALLBACK_UPDATE and rec.source_message is not None:
            self._check_not_empty(data, len(call.files), base=rec.source_message)

        rec.response_type, rec.acked_at, rec.ack_latency = rtype, self.now(), latency
        message: StoredMessage | None = None
        channel = self.channels[rec.channel_id]
        flags = int(data.get("flags") or 0)
        if rtype == CALLBACK_MESSAGE:
            message = self._new_message(channel, data, call.files, interaction=rec)
            rec.original = message
        elif rtype == CALLBACK_DEFERRED_MESSAGE:
            loading = {"flags": MessageFlag.LOADING | (flags & MessageFlag.EPHEMERAL)}
            message = self._new_message(channel, loading, [], interaction=rec)
            rec.original = message
        elif rtype in (CALLBACK_DEFERRED_UPDATE, CALLBACK_UPDATE):
            message = rec.source_message
            assert message is not None
            rec.original = message
            if rtype == CALLBACK_UPDATE and not message.deleted:
                self._apply_edit(message, data, call.files)
        elif rtype == CALLBACK_MODAL:
            rec.modal = copy.deepcopy(data)
            self._modals[(rec.user.id, str(data.get("custom_id")))] = _ShownModal(rec.modal, rec)
        elif rtype == CALLBACK_AUTOCOMPLETE:
            rec.choices = list(data.get("choices") or [])
        if message is not None and rtype in (CALLBACK_MESSAGE, CALLBACK_DEFERRED_MESSAGE):
            await self._message_event("MESSAGE_CREATE", message)
        elif message is not None and rtype == CALLBACK_UPDATE:
            await self._message_event("MESSAGE_UPDATE", message)
        self._notify()

        interaction: JSON = {
            "id": str(rec.id),
            "type": rec.type,
            "response_message_loading": rtype == CALLBACK_DEFERRED_MESSAGE,
            "response_message_ephemeral": bool(message and message.ephemeral),
        }
        resource: JSON = {"type": rtype}
        if message is not None:
            interaction["response_message_id"] = str(message.id)
            if rtype != CALLBACK_DEFERRED_UPDATE:
                resource["message"] = message.payload()
        body_out: JSON = {"interaction": interaction}
        if rtype != CALLBACK_DEFERRED_UPDATE:
            body_out["resource"] = resource
        if call.query.get("with_response") in ("1", "true", "True"):
            return _Answer(200, body_out)
        return _Answer(204)

    def _webhook_interaction(self, call: RestCall) -> InteractionRecord:
        if call.params.get("app_id") != str(self.app_id):
            raise ApiError(
                404,
                10015,
                "Unknown Webhook",
                violation="unknown-webhook",
                detail=f"webhook id {call.params.get('app_id')}",
            )
        rec = self._by_token.get(call.params["token"])
        if rec is None:
            raise ApiError(
                404, 10015, "Unknown Webhook", violation="unknown-webhook", detail="no interaction has this token"
            )
        if rec.expired or self.now() - rec.sent_at > self.token_ttl:
            raise ApiError(
                401,
                50027,
                "Invalid Webhook Token",
                violation="expired-token",
                detail=f"interaction {rec.id} ({_describe(rec)}): token used after it expired",
            )
        if rec.response_type is None:
            raise ApiError(
                404,
                10015,
                "Unknown Webhook",
                violation="followup-before-ack",
                detail=f"interaction {rec.id} ({_describe(rec)}): webhook used before the interaction was acknowledged",
            )
        return rec

    async def _followup(self, call: RestCall) -> _Answer:
        rec = self._webhook_interaction(call)
        data = call.json if isinstance(call.json, dict) else {}
        self._validate(data, (), files=len(call.files))
        channel = self.channels[rec.channel_id]
        message = self._new_message(channel, data, call.files, interaction=rec)
        rec.followups.append(message)
        await self._message_event("MESSAGE_CREATE", message)
        self._notify()
        if call.query.get("wait") in ("1", "true", "True"):
            return _Answer(body=message.payload())
        return _Answer(204)

    async def _webhook_message(self, call: RestCall) -> _Answer:
        rec = self._webhook_interaction(call)
        wanted = call.params["message_id"]
        if wanted == "@original":
            message = rec.original
        else:
            message = next((m for m in [rec.original, *rec.followups] if m is not None and str(m.id) == wanted), None)
        if message is None or message.deleted:
            raise ApiError(404, 10008, "Unknown Message")
        if call.method == "GET":
            return _Answer(body=message.payload())
        if call.method == "DELETE":
            message.deleted = True
            await self._message_event("MESSAGE_DELETE", message)
            self._notify()
            return _Answer(204)
        data = call.json if isinstance(call.json, dict) else {}
        self._validate(data, (), files=len(call.files), partial=message)
        self._apply_edit(message, data, call.files)
        await self._message_event("MESSAGE_UPDATE", message)
        self._notify()
        return _Answer(body=message.payload())

    # -- messages -------------------------------------------------------------------------------------------

    def _validate(self, data: JSON, path: Path, *, files: int, partial: StoredMessage | None = None) -> None:
        errors = FormErrors()
        validate_message(errors, data, path)
        if errors:
            raise ApiError(
                400,
                50035,
                "Invalid Form Body",
                errors=errors.nested(),
                violation="invalid-form-body",
                detail=errors.summary(),
            )
        self._check_not_empty(data, files, base=partial)

    @staticmethod
    def _check_not_empty(data: Mapping[str, Any], files: int, *, base: StoredMessage | None = None) -> None:
        def pick(key: str, current: Any) -> Any:
            return data.get(key, current)

        content = pick("content", base.content if base else None)
        embeds = pick("embeds", base.embeds if base else None)
        components = pick("components", base.components if base else None)
        attachments = pick("attachments", base.attachments if base else None)
        if not (content or embeds or components or attachments or files or data.get("sticker_ids") or data.get("poll")):
            if base is not None and base.loading and not data:
                return
            raise ApiError(
                400, 50006, "Cannot send an empty message", violation="empty-message", detail="empty message body"
            )

    def _stored_files(self, data: Mapping[str, Any], files: Sequence[StoredFile], channel_id: int) -> list[StoredFile]:
        by_index: dict[int, StoredFile] = {}
        for position, upload in enumerate(files):
            match = re.match(r"files\[(\d+)\]", upload.field)
            by_index[int(match.group(1)) if match else position] = upload
        out: list[StoredFile] = []
        declared = {
            int(a["id"]): a
            for a in data.get("attachments") or []
            if isinstance(a.get("id"), int) or str(a.get("id")).isdigit()
        }
        for index, upload in sorted(by_index.items()):
            meta = declared.get(index, {})
            stored = StoredFile(
                new_snowflake(),
                str(meta.get("filename") or upload.filename),
                upload.data,
                upload.content_type,
                description=meta.get("description"),
            )
            stored.url = f"http://127.0.0.1:{self.port}/attachments/{channel_id}/{stored.id}/{stored.filename}"
            out.append(stored)
        return out

    def _new_message(
        self,
        channel: FakeChannel,
        data: Mapping[str, Any],
        files: Sequence[StoredFile],
        *,
        interaction: InteractionRecord | None = None,
        author: JSON | None = None,
    ) -> StoredMessage:
        flags = int(data.get("flags") or 0)
        message = StoredMessage(
            id=new_snowflake(),
            channel_id=channel.id,
            guild_id=None if channel.is_dm else self.guild_id,
            author=author or self.bot_user.payload(),
            content=str(data.get("content") or ""),
            embeds=list(copy.deepcopy(data.get("embeds") or [])),
            components=list(copy.deepcopy(data.get("components") or [])),
            flags=flags,
            attachments=self._stored_files(data, files, channel.id),
            created_at=self.now(),
        )
        if interaction is not None:
            message.webhook_id = self.app_id
            message.type = 20 if interaction.type == APPLICATION_COMMAND else 0
            message.interaction_metadata = {
                "id": str(interaction.id),
                "type": interaction.type,
                "user": interaction.user.payload(),
                "authorizing_integration_owners": {"0": str(self.guild_id)},
            }
            if flags & MessageFlag.EPHEMERAL:
                message.ephemeral_to = interaction.user.id
        message.history.append(message.state())
        self.messages[message.id] = message
        if not message.ephemeral:
            channel.messages.append(message)
        self._notify()
        return message

    def _apply_edit(self, message: StoredMessage, data: Mapping[str, Any], files: Sequence[StoredFile]) -> None:
        if "content" in data:
            message.content = str(data["content"] or "")
        if "embeds" in data:
            message.embeds = list(copy.deepcopy(data["embeds"] or []))
        if "components" in data:
            message.components = list(copy.deepcopy(data["components"] or []))
        if data.get("flags") is not None:
            editable = int(data["flags"]) & MessageFlag.EDITABLE
            message.flags = (message.flags & ~MessageFlag.EDITABLE) | editable
        uploaded = self._stored_files(data, files, message.channel_id)
        if "attachments" in data:
            keep = {str(a.get("id")) for a in data["attachments"] or []}
            message.attachments = [a for a in message.attachments if str(a.id) in keep] + uploaded
        else:
            message.attachments += uploaded
        message.flags &= ~MessageFlag.LOADING
        message.edited_at = self.now()
        message.edited_timestamp = _iso_now()
        message.history.append(message.state())
        self._notify()


def _call_matcher(glob: str) -> Callable[[RestCall], bool]:
    """``"PATCH /channels/*"`` matches that method and path; ``"/channels/*"`` any method."""
    pattern = glob if not glob.startswith("/") else f"* {glob}"

    def matches(call: RestCall) -> bool:
        return fnmatch.fnmatchcase(f"{call.method} {call.path}", pattern)

    return matches


def _describe(rec: InteractionRecord) -> str:
    data = rec.payload.get("data") or {}
    if rec.type in (APPLICATION_COMMAND, AUTOCOMPLETE):
        names = [str(data.get("name"))]
        options = data.get("options") or []
        while options and options[0].get("type") in (OPT_SUB_COMMAND, OPT_SUB_COMMAND_GROUP):
            names.append(str(options[0]["name"]))
            options = options[0].get("options") or []
        return "/" + " ".join(names)
    if rec.type == MESSAGE_COMPONENT:
        return f"component {data.get('custom_id')!r}"
    if rec.type == MODAL_SUBMIT:
        return f"modal {data.get('custom_id')!r}"
    return f"type {rec.type}"


def _reason(status: int) -> str:
    from http import HTTPStatus

    try:
        return f"{status}: {HTTPStatus(status).phrase}"
    except ValueError:
        return f"{status}: Error"


def _infer_option_type(value: Any) -> int:
    if isinstance(value, bool):
        return OPT_BOOLEAN
    if isinstance(value, int):
        return OPT_INTEGER
    if isinstance(value, float):
        return OPT_NUMBER
    if isinstance(value, FakeUser):
        return OPT_USER
    if isinstance(value, FakeRole):
        return OPT_ROLE
    if isinstance(value, FakeChannel):
        return OPT_CHANNEL
    return OPT_STRING


def _check_option_value(name: str, value: Any, decl: Mapping[str, Any]) -> None:
    choices = decl.get("choices")
    if choices and value not in [c.get("value") for c in choices]:
        raise ValueError(f"option {name!r}: {value!r} is not one of the choices {[c.get('value') for c in choices]}")
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        low, high = decl.get("min_value"), decl.get("max_value")
        if low is not None and value < low:
            raise ValueError(f"option {name!r}: {value} is below the minimum {low}")
        if high is not None and value > high:
            raise ValueError(f"option {name!r}: {value} is above the maximum {high}")
    if isinstance(value, str):
        low, high = decl.get("min_length"), decl.get("max_length")
        if low is not None and len(value) < low:
            raise ValueError(f"option {name!r}: shorter than {low} characters")
        if high is not None and len(value) > high:
            raise ValueError(f"option {name!r}: longer than {high} characters")


def patch_discord(monkeypatch: pytest.MonkeyPatch, fake: FakeDiscord) -> None:
    """Point discord.py's REST base (bot calls and interaction webhooks) and gateway URL at the fake.

    ``monkeypatch.setattr`` raises AttributeError if discord.py ever moves these attributes.
    """
    import discord.gateway
    import discord.http

    monkeypatch.setattr(discord.http.Route, "BASE", fake.api_base)
    monkeypatch.setattr(discord.gateway.DiscordWebSocket, "DEFAULT_GATEWAY", yarl.URL(fake.gateway_url))
