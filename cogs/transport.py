"""Calls to Discord that survive its failures: the one place every REST call of the bot goes through.

A call can fail on the way: the connection refused, reset, closed before or after Discord applied the request
(aiohttp's ``ServerDisconnectedError``), an answer cut short (``ClientPayloadError``), a timeout. discord.py
retries none of these (only a reset reported as errno 54 or 10054, which Linux never uses), nor a 503.
``install`` puts a layer under discord.py's two ways to Discord (the bot's token, and the interaction callbacks and
follow-ups; through ``cogs.discord_seam``) that sorts every call by what a repeat would do:

* **idempotent** (GET, PUT, PATCH, DELETE: edits, reactions, fetches; opening a DM channel, which gives the same
  channel every time): tried again with backoff after a connection failure or a 5xx.
* **a new message** (POST .../messages): it carries a nonce with ``enforce_nonce`` (one is added if the caller
  gave none), so Discord answers a repeat with the message the first try made: tried again like an edit, and
  nothing is posted twice.
* **an interaction callback**: tried again while Discord's 3 s last; a repeat that Discord calls "already
  acknowledged" (40060) proves the first try landed, and is answered as if it had (reconciled: the caller sees
  its answer sent, and does not send it again).
* **anything else** (a follow-up, an emoji upload: no way to tell whether it landed): tried again only when the
  connection was never made; otherwise the failure is raised to the caller, who says so.

This is the bot's one retry policy: no caller tries a call again (an answer, an edit, a DM is sent once, and the
transport under it repeats it as above). What is not a repeat of one call is a new call: a table message whose
write failed is written again later with the state of that moment (``show_again_in``: how much later).
"""

from __future__ import annotations

import asyncio
import datetime
import logging
import re
import secrets
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

import aiohttp
import discord
from discord.http import HTTPClient, Route

from .discord_seam import BotRequest, WebhookRequest, wrap_bot_requests, wrap_webhook_requests
from .failures import ALREADY_ACKNOWLEDGED, CONNECTION_ERRORS, DISCORD_ERRORS

__all__ = ["CONNECTION_ERRORS", "DEADLINE", "DISCORD_ERRORS", "install", "kind_of", "seconds_left", "show_again_in"]

log = logging.getLogger(__name__)

CALL_PAUSES = (0.1, 0.3, 0.7, 1.5)  # the transport's waits between tries of an idempotent call
CALLBACK_PAUSES = (0.05, 0.2, 0.4)  # between tries of an interaction callback (Discord's 3 s deadline)
DEADLINE = 3.0  # Discord's: an interaction not answered within it is refused
SHOW_AGAIN = (0.5, 1.0, 2.0, 4.0, 8.0)  # after a message's writes failed 1, 2... times in a row: its next write
SHOW_AGAIN_EVERY = 10.0  # then, until one lands
T = TypeVar("T")

# A failure that proves the request never left: the connection could not be made.
NEVER_SENT = (aiohttp.ClientConnectorError,)

IDEMPOTENT, MESSAGE, CALLBACK, ONCE = "idempotent", "message", "callback", "once"
_MESSAGES = re.compile(r"^/channels/\{channel_id\}/messages$")
_CALLBACK = re.compile(r"^/interactions/\{[a-z_]+\}/\{[a-z_]+\}/callback$")
_DM_CHANNEL = "/users/@me/channels"
CHANNEL_MESSAGE = discord.InteractionResponseType.channel_message.value  # a callback that sends a new message


class Stats:
    """What the transport did, for one process (the fault tests and ``docs/reliability.md`` read it)."""

    retried = 0  # calls tried again after a failure on the way or a 5xx
    reconciled = 0  # callbacks whose repeat found the first try had landed (40060)
    given_up = 0  # calls whose failure was raised to the caller


def kind_of(route: Route) -> str:
    """How a call may be tried again (see the module's docstring)."""
    if _CALLBACK.match(route.path):
        return CALLBACK
    if route.method in ("GET", "PUT", "PATCH", "DELETE", "HEAD"):
        return IDEMPOTENT
    if route.method == "POST" and route.path == _DM_CHANNEL:
        return IDEMPOTENT
    if route.method == "POST" and _MESSAGES.match(route.path):
        return MESSAGE
    return ONCE


def _transient(error: BaseException) -> bool:
    """A failure worth another try: on the way, or Discord's 5xx."""
    if isinstance(error, discord.HTTPException):
        return error.status >= 500
    return isinstance(error, CONNECTION_ERRORS)


def seconds_left(interaction_id: Any) -> float:
    """What is left of Discord's deadline to answer the interaction ``interaction_id`` (0 for a bad id)."""
    try:
        created = discord.utils.snowflake_time(int(interaction_id))
    except (TypeError, ValueError):
        return 0.0
    return DEADLINE - (discord.utils.utcnow() - created) / datetime.timedelta(seconds=1)


def _with_nonce(kwargs: dict[str, Any], key: str) -> None:
    """A new message without a nonce gets one, enforced, so that a repeat of it is not posted twice."""
    payload = kwargs.get(key)
    if isinstance(payload, dict) and "nonce" not in payload:
        payload["nonce"] = secrets.token_hex(12)
        payload["enforce_nonce"] = True


def _landed(route: Route) -> dict[str, Any]:
    """The answer of a callback whose first try landed (its repeat was refused as already acknowledged): what
    discord.py needs to note the interaction answered (the message made, if any, is not known)."""
    return {"interaction": {"id": str(route.webhook_id), "type": 0}}


async def _send(route: Route, kind: str, call: Callable[[], Awaitable[T]],
                closed: Callable[[], bool]) -> T | dict[str, Any]:
    pauses = CALLBACK_PAUSES if kind == CALLBACK else CALL_PAUSES
    tried_again = False
    for pause in (*pauses, None):
        try:
            return await call()
        except discord.HTTPException as error:
            if kind == CALLBACK and tried_again and error.code == ALREADY_ACKNOWLEDGED:
                Stats.reconciled += 1
                log.info("%s %s: the first try had landed (already acknowledged)", route.method, route.path)
                return _landed(route)
            if not _transient(error) or kind == ONCE or pause is None or closed():
                if _transient(error):
                    Stats.given_up += 1
                raise
            failure: BaseException = error
        except CONNECTION_ERRORS as error:
            retry = kind != ONCE or isinstance(error, NEVER_SENT)
            if not retry or pause is None or closed():
                Stats.given_up += 1
                raise
            failure = error
        if kind == CALLBACK and seconds_left(route.webhook_id) < pause + 0.05:
            Stats.given_up += 1
            raise failure
        log.info("%s %s failed on the way (%r); trying again in %ss", route.method, route.path, failure, pause)
        Stats.retried += 1
        tried_again = True
        await asyncio.sleep(pause)
    raise AssertionError("unreachable")


def install(http: HTTPClient, *, closed: Callable[[], bool] = lambda: False) -> None:
    """Put the transport under this client's calls (once) and under every interaction callback and follow-up
    (discord.py's webhook adapter is one per process: it is wrapped once for all)."""

    def wrap(request: BotRequest) -> BotRequest:
        async def bot_request(route: Route, **kwargs: Any) -> Any:
            kind = kind_of(route)
            if kind == MESSAGE:
                _with_nonce(kwargs, "json")
                if not isinstance(kwargs.get("json"), dict):  # a message with files: its nonce, if any, is not seen
                    kind = ONCE
            files = kwargs.get("files")

            async def call() -> Any:
                for file in files or ():
                    file.reset(seek=True)
                return await request(route, **kwargs)

            return await _send(route, kind, call, closed)

        return bot_request

    wrap_bot_requests(http, wrap)
    wrap_webhook_requests(_wrap_webhook)


def _answers_in_place(kwargs: dict[str, Any]) -> bool:
    """A callback that makes no message (an edit of the clicked one, a deferral, a form): asked without
    ``with_response``, Discord answers it with no body, and discord.py builds no message object from the edited
    message it would send back (nothing reads it: only a new message's id is kept, by ``Reply.send``)."""
    payload = kwargs.get("payload")
    return isinstance(payload, dict) and payload.get("type") not in (None, CHANNEL_MESSAGE)


def _wrap_webhook(request: WebhookRequest) -> WebhookRequest:
    async def webhook_request(adapter: Any, route: Route, session: aiohttp.ClientSession, **kwargs: Any) -> Any:
        files = kwargs.get("files")
        kind = kind_of(route)
        in_place = kind == CALLBACK and _answers_in_place(kwargs)
        if in_place:
            kwargs["params"] = None

        async def call() -> Any:
            for file in files or ():
                file.reset(seek=True)
            return await request(adapter, route, session, **kwargs)

        answered = await _send(route, kind, call, lambda: session.closed)
        return answered or _landed(route) if in_place else answered

    return webhook_request


def show_again_in(failures: int) -> float:
    """Seconds until a message is written again (with the state of that moment) after ``failures`` writes of it in
    a row failed, each tried by the transport already: a table never stands still waiting for a click."""
    return SHOW_AGAIN[failures - 1] if 0 < failures <= len(SHOW_AGAIN) else SHOW_AGAIN_EVERY
