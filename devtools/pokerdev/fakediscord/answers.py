"""What a route answers: an :class:`Answer`, or an :class:`ApiError` in Discord's error format."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from http import HTTPStatus
from typing import Any

from aiohttp import web

from .constants import JSON


@dataclass
class Answer:
    status: int = 200
    body: Any = None
    headers: dict[str, str] = field(default_factory=dict)


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


def json_response(answer: Answer) -> web.Response:
    if answer.body is None:
        return web.Response(status=answer.status, headers=answer.headers)
    # discord.http.json_or_text parses JSON only for the exact content type 'application/json' (pitfall 1).
    return web.Response(
        body=json.dumps(answer.body).encode(),
        status=answer.status,
        content_type="application/json",
        headers=answer.headers,
    )


def reason(status: int) -> str:
    """``"503: Service Unavailable"``: the message of Discord's bodyless error answers."""
    try:
        return f"{status}: {HTTPStatus(status).phrase}"
    except ValueError:
        return f"{status}: Error"
