"""The REST plumbing: each request is read (JSON, or multipart with ``payload_json`` and files), recorded as a
:class:`~.records.RestCall`, matched to a route, put through the armed faults and the rate limit, and answered
by the route's handler (an :class:`~.answers.ApiError` becomes Discord's error answer, and a violation when it
reveals a bot bug)."""

from __future__ import annotations

import asyncio
import json
import re
import socket
import struct
import traceback
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from aiohttp import BodyPartReader, web

from .answers import Answer, ApiError, json_response
from .faults import NOT_APPLIED, FaultInjector
from .model import StoredFile
from .pseudo import check_and_unwrap
from .ratelimit import ChannelRateLimits, GlobalRate
from .records import RestCall
from .runtime import Runtime
from .seams import Seams
from .spec import SpecChecker
from .violations import Violations

Handler = Callable[[RestCall], Awaitable[Answer]]


@dataclass(frozen=True)
class Route:
    method: str
    regex: re.Pattern[str]
    template: str  # "PATCH /channels/{channel_id}/messages/{message_id}"
    handler: Handler


def route(method: str, template: str, handler: Handler) -> Route:
    """A route; ``{name}`` in the template matches one path segment, found in ``call.params[name]``."""
    regex = re.compile("^" + re.sub(r"\\\{(\w+)\\\}", r"(?P<\1>[^/]+)", re.escape(template)) + "$")
    return Route(method, regex, f"{method} {template}", handler)


class RestServer:
    """Answers the bot's REST calls and keeps them all in ``calls``."""

    def __init__(
        self,
        runtime: Runtime,
        seams: Seams,
        violations: Violations,
        faults: FaultInjector,
        rate_limits: ChannelRateLimits,
        spec: SpecChecker | None,
        lose_interaction: Callable[[int | None], None],
        allowed_words: Callable[[str], bool] | None = None,
        allowed_phrases: frozenset[str] = frozenset(),
    ) -> None:
        self.runtime = runtime
        self.seams = seams
        self.violations = violations
        self.faults = faults
        self.rate_limits = rate_limits
        self.spec = spec
        self.lose_interaction = lose_interaction
        self.allowed_words = allowed_words  # set: the pseudo-language check runs (``pseudo.py``)
        self.allowed_phrases = allowed_phrases
        self.global_rate = GlobalRate()
        self.routes: list[Route] = []
        self.calls: list[RestCall] = []
        self.inflight = 0
        self.last_activity = 0.0

    async def handle(self, request: web.Request) -> web.StreamResponse:
        call = RestCall(len(self.calls), request.method, "/" + request.match_info["tail"], dict(request.query),
                        self.runtime.now())
        self.inflight += 1
        try:
            await read_body(request, call)
            if self.allowed_words is not None:
                for text in check_and_unwrap(call.path, call.json, self.allowed_words, self.allowed_phrases):
                    self.violations.record("bare-text", f"a text not from the catalogue: {text}", call=call)
            self.calls.append(call)
            self.runtime.notify()
            answer = await self.seams._answer(call)
        except Exception as error:  # a bug in the fake (or a body it cannot parse): fail fast, and loudly
            if call not in self.calls:
                self.calls.append(call)
            self.violations.record("fake-error", f"{type(error).__name__}: {error}\n{traceback.format_exc()}",
                                   call=call)
            answer = Answer(400, {"message": f"fake Discord error: {type(error).__name__}: {error}", "code": 0})
        finally:
            self.inflight -= 1
            self.last_activity = asyncio.get_running_loop().time()
        connection = call.fault.connection if call.fault is not None else None
        if connection in NOT_APPLIED:
            answer = Answer(0)  # the request never reached a handler, and nothing is answered
        call.status, call.response, call.handled_at = answer.status or None, answer.body, self.runtime.now()
        call.connection = connection
        self.runtime.notify()
        if connection is not None:
            return await cut_connection(request, connection, answer)
        return json_response(answer)

    def match(self, call: RestCall) -> Handler | None:
        """The handler of the call's route (filling ``call.route`` and ``call.params``), or None."""
        for candidate in self.routes:
            found = candidate.regex.match(call.path)
            if found and candidate.method == call.method:
                call.route, call.params = candidate.template, found.groupdict()
                return candidate.handler
        return None

    async def answer(self, call: RestCall) -> Answer:
        handler = self.match(call)
        self.global_rate.count(call, asyncio.get_running_loop().time())
        fault = self.faults.pick(call)
        if fault is not None:
            if fault.delay > 0:
                await asyncio.sleep(fault.delay)
            if fault.late:
                self.lose_interaction(call.interaction_id)
            if fault.status is not None or fault.late:
                return fault.answer()
            if fault.connection in NOT_APPLIED:
                return Answer(0)
        if handler is None:
            self.violations.record("unknown-route", f"the fake does not know {call.method} {call.path}", call=call)
            return Answer(404, {"message": "404: Not Found", "code": 0})
        limited = self.rate_limits.check(call)
        if limited is not None and limited.status == 429:
            return limited
        try:
            if self.spec is not None:
                self.spec.check(call.method, call.path, call.json).raise_if_any(source="OpenAPI")
            answer = await handler(call)
        except ApiError as error:
            if error.violation:
                self.violations.record(error.violation, error.detail, call=call, interaction_id=call.interaction_id)
            answer = Answer(error.status, error.body())
        if limited is not None:
            answer.headers.update(limited.headers)
        return answer


async def cut_connection(request: web.Request, kind: str, answer: Answer) -> web.StreamResponse:
    """End the exchange as a connection fault: closed (before or after the request was applied), reset (TCP RST),
    or cut short (the answer's headers and half its body, then closed)."""
    transport = request.transport
    if transport is None or transport.is_closing():
        return web.Response(status=answer.status or 500)
    if kind == "reset":
        sock = transport.get_extra_info("socket")
        if sock is not None:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        transport.abort()
    elif kind == "cut-short":
        body = json.dumps(answer.body).encode() if answer.body is not None else b"{}"
        status = answer.status if answer.body is not None else 200  # a 204 has no body to cut: promise one
        response = web.StreamResponse(status=status, headers=answer.headers)
        response.content_type = "application/json"
        response.content_length = len(body)
        await response.prepare(request)
        await response.write(body[: len(body) // 2])
        transport.close()
        return response
    else:
        transport.close()
    return web.Response(status=answer.status or 500)  # never sent: the connection is gone


async def read_body(request: web.Request, call: RestCall) -> None:
    """The call's JSON body (``payload_json`` of a multipart request) and uploaded files."""
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
                call.files.append(StoredFile(0, part.filename or str(part.name), data, ctype, field=str(part.name)))
    else:
        text = await request.text()
        call.json = text or None
