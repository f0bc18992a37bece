"""Fault injection: what goes wrong between the bot and Discord, armed by a test for the calls it chooses (by a
route glob or a predicate), deterministically (:meth:`FaultInjector.inject`) or at random with a seed
(:class:`RandomFaults`), plus RESUMEs refused on the gateway (:class:`ResumeRefusals`).

What a fault does to the call it hits:

=================  ==========================================================  ================================
kind               the fake                                                    the client sees
=================  ==========================================================  ================================
``429``            answers 429 with Discord's body and X-RateLimit headers     discord.py waits and retries
``500``, ``503``   answers the status (nothing applied)                        retries (500) or DiscordServerError
``slow``           waits ``delay`` seconds, then answers normally              a slow call
``late``           answers an interaction callback 404 / 10062 (not applied)   NotFound, as for a late answer
``closed-before``  closes the connection before the request is applied         ServerDisconnectedError
``closed-after``   applies the request, closes without answering               ServerDisconnectedError
``reset``          resets the connection (TCP RST), nothing applied            ClientOSError (ECONNRESET)
``cut-short``      applies it, sends the headers and half the body, closes     ClientPayloadError
=================  ==========================================================  ================================

A ``late`` fault hits interaction callbacks only; the interaction is then lost (``InteractionRecord.lost``): no
acknowledgement-deadline violation is blamed on the bot for it.
"""

from __future__ import annotations

import fnmatch
import random
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Literal, get_args

from .answers import Answer, reason
from .constants import JSON
from .ratelimit import too_many
from .records import RestCall

CallMatcher = Callable[[RestCall], bool]
Connection = Literal["closed-before", "closed-after", "reset", "cut-short"]
CONNECTION_FAULTS: tuple[Connection, ...] = get_args(Connection)
NOT_APPLIED: frozenset[str] = frozenset({"closed-before", "reset"})  # the request never reaches a handler
CALLBACK_ROUTE = "POST /interactions/{interaction_id}/{token}/callback"
UNKNOWN_INTERACTION: JSON = {"message": "Unknown interaction", "code": 10062}
KINDS = ("429", "500", "503", "slow", "late", *CONNECTION_FAULTS)


@dataclass(eq=False)
class Fault:
    """A fault armed with :meth:`FakeDiscord.inject` (or one kind of a :class:`RandomFaults`)."""

    match: CallMatcher
    description: str
    status: int | None = None
    body: JSON | None = None
    delay: float = 0.0
    times: int | None = 1
    retry_after: float = 0.05
    hits: int = 0
    connection: Connection | None = None
    late: bool = False

    def __post_init__(self) -> None:
        if self.status is None and self.delay <= 0 and self.connection is None and not self.late:
            raise ValueError("a fault needs a status, a delay, a connection fault or late=True")
        if sum((self.status is not None, self.connection is not None, self.late)) > 1:
            raise ValueError("a fault answers with a status, cuts the connection or is late: one of them")
        if self.connection is not None and self.connection not in CONNECTION_FAULTS:
            raise ValueError(f"connection faults are {CONNECTION_FAULTS}, not {self.connection!r}")

    @property
    def kind(self) -> str:
        if self.status is not None:
            return str(self.status)
        return self.connection or ("late" if self.late else "slow")

    @property
    def exhausted(self) -> bool:
        return self.times is not None and self.hits >= self.times

    def applies_to(self, call: RestCall) -> bool:
        return not self.exhausted and (not self.late or call.route == CALLBACK_ROUTE) and self.match(call)

    def answer(self) -> Answer:
        """The error answer of a fault with a status (a 429 with Discord's body and headers), or a late one."""
        if self.late:
            return Answer(404, dict(UNKNOWN_INTERACTION))
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


def _matcher(match: str | CallMatcher) -> tuple[CallMatcher, str]:
    if isinstance(match, str):
        return call_matcher(match), match
    return match, getattr(match, "__name__", repr(match))


@dataclass(eq=False)
class RandomFaults:
    """Faults on a random share (``rate``) of the calls matching ``match``, of kinds drawn at random from
    ``kinds``, from a :class:`random.Random` seeded with ``seed`` (the same calls in the same order get the same
    faults; concurrent calls may arrive in another order). ``times``: at most that many faults in all."""

    match: CallMatcher
    description: str
    rate: float
    rng: random.Random
    faults: dict[str, Fault]
    times: int | None = None

    @property
    def hits(self) -> int:
        return sum(f.hits for f in self.faults.values())

    def by_kind(self) -> Counter[str]:
        """How many calls each kind of fault hit."""
        return Counter({kind: f.hits for kind, f in self.faults.items() if f.hits})

    def pick(self, call: RestCall) -> Fault | None:
        if (self.times is not None and self.hits >= self.times) or not self.match(call):
            return None
        if self.rng.random() >= self.rate:
            return None
        candidates = [f for f in self.faults.values() if not f.late or call.route == CALLBACK_ROUTE]
        return self.rng.choice(candidates) if candidates else None


@dataclass(eq=False)
class ResumeRefusals:
    """RESUMEs the gateway refuses (invalid session, op 9 with ``d: false``): the next ``times`` (None: all),
    each with probability ``chance``. The bot must IDENTIFY afresh."""

    times: int | None = 1
    chance: float = 1.0
    rng: random.Random = field(default_factory=random.Random)
    refused: int = 0

    def refuse(self) -> bool:
        if self.times is not None and self.refused >= self.times:
            return False
        if self.chance < 1.0 and self.rng.random() >= self.chance:
            return False
        self.refused += 1
        return True


class FaultInjector:
    """The armed faults, tried in the order they were added (the first live match applies to a call), then
    the random ones."""

    def __init__(self) -> None:
        self.faults: list[Fault] = []
        self.random: list[RandomFaults] = []

    def inject(
        self,
        match: str | CallMatcher,
        *,
        status: int | None = None,
        delay: float = 0.0,
        times: int | None = 1,
        body: JSON | None = None,
        retry_after: float = 0.05,
        connection: Connection | None = None,
        late: bool = False,
    ) -> Fault:
        predicate, description = _matcher(match)
        fault = Fault(predicate, description, status, body, delay, times, retry_after, connection=connection,
                      late=late)
        self.faults.append(fault)
        return fault

    def inject_random(
        self,
        seed: int,
        rate: float,
        *,
        match: str | CallMatcher = "*",
        kinds: Sequence[str] = KINDS,
        times: int | None = None,
        slow: float = 1.0,
        retry_after: float = 0.2,
    ) -> RandomFaults:
        unknown = sorted(set(kinds) - set(KINDS))
        if unknown or not kinds:
            raise ValueError(f"fault kinds are {KINDS}, not {unknown or 'none'}")
        predicate, description = _matcher(match)
        faults = {kind: _fault_of_kind(kind, predicate, f"{description} ({kind})", slow=slow, retry_after=retry_after)
                  for kind in dict.fromkeys(kinds)}
        source = RandomFaults(predicate, description, rate, random.Random(seed), faults, times)
        self.random.append(source)
        return source

    def pick(self, call: RestCall) -> Fault | None:
        """The fault that applies to this call (counted as a hit), if any."""
        fault = next((f for f in self.faults if f.applies_to(call)), None)
        if fault is None:
            fault = next((f for f in (r.pick(call) for r in self.random) if f is not None), None)
        if fault is not None:
            fault.hits += 1
            call.fault = fault
        return fault

    def hits(self) -> int:
        return sum(f.hits for f in self.faults) + sum(r.hits for r in self.random)


def _fault_of_kind(kind: str, match: CallMatcher, description: str, *, slow: float, retry_after: float) -> Fault:
    connection = next((c for c in CONNECTION_FAULTS if c == kind), None)
    if connection is not None:
        return Fault(match, description, times=None, connection=connection)
    if kind == "slow":
        return Fault(match, description, times=None, delay=slow)
    if kind == "late":
        return Fault(match, description, times=None, late=True)
    return Fault(match, description, times=None, status=int(kind), retry_after=retry_after)
