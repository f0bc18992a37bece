"""What the fake records: every REST call the bot made, every interaction sent to it, and every violation."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any, Protocol

from .constants import (
    APPLICATION_COMMAND,
    AUTOCOMPLETE,
    JSON,
    MESSAGE_COMPONENT,
    MODAL_SUBMIT,
    OPT_SUB_COMMAND,
    OPT_SUB_COMMAND_GROUP,
    MessageFlag,
)
from .model import FakeUser, StoredFile, StoredMessage


class AppliedFault(Protocol):
    """What a call keeps of the fault that hit it (``faults.Fault``, which imports this module)."""

    @property
    def kind(self) -> str:
        """The fault's kind: a status, a connection fault, ``slow`` or ``late``."""

    @property
    def connection(self) -> str | None:
        """The connection fault, if it is one."""


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
    fault: AppliedFault | None = None
    connection: str | None = None  # a connection fault instead of the answer: what the client saw

    @property
    def answered(self) -> bool:
        """Whether the client got the fake's answer (not a closed, reset or cut-short connection)."""
        return self.status is not None and self.connection is None

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
        outcome = f"{self.status}" + (f" ({self.connection})" if self.connection else "")
        return f"#{self.index} {self.time:7.3f}s {self.method} {self.path} -> {outcome} {body}"


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
    lost: bool = False  # a "late" fault answered its callback 10062: not the bot's fault if it goes unanswered
    ack_call: RestCall | None = None  # the callback that acknowledged it

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

    def describe(self) -> str:
        """What the user did, for messages: ``/poker join``, ``component 'table:fold'``, ``modal 'raise'``."""
        data = self.payload.get("data") or {}
        if self.type in (APPLICATION_COMMAND, AUTOCOMPLETE):
            names = [str(data.get("name"))]
            options = data.get("options") or []
            while options and options[0].get("type") in (OPT_SUB_COMMAND, OPT_SUB_COMMAND_GROUP):
                names.append(str(options[0]["name"]))
                options = options[0].get("options") or []
            return "/" + " ".join(names)
        if self.type == MESSAGE_COMPONENT:
            return f"component {data.get('custom_id')!r}"
        if self.type == MODAL_SUBMIT:
            return f"modal {data.get('custom_id')!r}"
        return f"type {self.type}"

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
