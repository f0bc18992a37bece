"""Fault injection: answers Discord gives when things go wrong, armed by a test for the calls it chooses."""

from __future__ import annotations

import fnmatch
from collections.abc import Callable
from dataclasses import dataclass

from .answers import Answer, reason
from .constants import JSON
from .ratelimit import too_many
from .records import RestCall

CallMatcher = Callable[[RestCall], bool]


@dataclass(eq=False)
class Fault:
    """A fault armed with :meth:`FakeDiscord.inject`."""

    match: CallMatcher
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

    def answer(self) -> Answer:
        """The error answer of a fault with a status (a 429 with Discord's body and headers)."""
        assert self.status is not None
        if self.status == 429:
            return too_many(self.retry_after, limit=1, bucket="injected", body=self.body)
        return Answer(self.status, self.body or {"message": reason(self.status), "code": 0})


def call_matcher(glob: str) -> CallMatcher:
    """``"PATCH /channels/*"`` matches that method and path; ``"/channels/*"`` any method."""
    pattern = glob if not glob.startswith("/") else f"* {glob}"

    def matches(call: RestCall) -> bool:
        return fnmatch.fnmatchcase(f"{call.method} {call.path}", pattern)

    return matches


class FaultInjector:
    """The armed faults, tried in the order they were added: the first live match applies to a call."""

    def __init__(self) -> None:
        self.faults: list[Fault] = []

    def inject(
        self,
        match: str | CallMatcher,
        *,
        status: int | None = None,
        delay: float = 0.0,
        times: int | None = 1,
        body: JSON | None = None,
        retry_after: float = 0.05,
    ) -> Fault:
        if status is None and delay <= 0:
            raise ValueError("a fault needs a status or a delay")
        predicate = call_matcher(match) if isinstance(match, str) else match
        description = match if isinstance(match, str) else getattr(match, "__name__", repr(match))
        fault = Fault(predicate, description, status, body, delay, times, retry_after)
        self.faults.append(fault)
        return fault

    def pick(self, call: RestCall) -> Fault | None:
        """The fault that applies to this call (counted as a hit), if any."""
        fault = next((f for f in self.faults if not f.exhausted and f.match(call)), None)
        if fault is not None:
            fault.hits += 1
            call.fault = fault
        return fault

    def hits(self) -> int:
        return sum(f.hits for f in self.faults)
