"""The rules of a planned night: who is in and who waits, when reminders are due, what happens next, which
seats are held for the players who signed up, and which plans clash.

Pure: every time is passed in (seconds since the epoch). A member's answer is ``in`` (he tapped I'm in), ``out``
(Can't make it) or ``interested`` (he marked the Discord event Interested and tapped nothing): ``in`` and
``interested`` both count as in, in the order the bot learnt of them; a tap overrides the event.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass
from typing import Literal

from ..i18n.text import ENGLISH, Language, say
from ..poker.rotation import buy_in_range

NIGHT_LENGTH = 4 * 3600  # seconds: the Discord event's length (an external event needs an end time)
SEAT_HOLD = 15 * 60  # seconds after the start during which seats are held for the players who signed up
DEFAULT_REMIND = 60  # minutes before the start
MAX_REMIND = 7 * 24 * 60  # minutes: a week
MAX_NAME = 100  # characters: Discord's limit for an event's name

Answer = Literal["in", "out", "interested"]
COUNTS_IN: tuple[Answer, ...] = ("in", "interested")


@dataclass(frozen=True, slots=True)
class Signup:
    """A member's answer to a planned night: since when, and whether his reminder was handled."""

    user: int
    answer: Answer
    at: float
    reminded: bool = False

    @property
    def is_in(self) -> bool:
        return self.answer in COUNTS_IN


@dataclass(frozen=True, slots=True)
class Roster:
    """Who plays (the first ``seats`` who are in), who waits (the rest, in order) and who cannot make it."""

    playing: tuple[int, ...]
    waiting: tuple[int, ...]
    out: tuple[int, ...]

    @property
    def order(self) -> tuple[int, ...]:
        """Everyone who is in, first come first seated."""
        return self.playing + self.waiting

    def place(self, user: int) -> tuple[Literal["playing", "waiting"], int] | None:
        """``("playing", k)`` for the k-th in (from 1), ``("waiting", k)`` for the k-th on the waiting list."""
        if user in self.playing:
            return "playing", self.playing.index(user) + 1
        if user in self.waiting:
            return "waiting", self.waiting.index(user) + 1
        return None


def roster(signups: Iterable[Signup], seats: int) -> Roster:
    """The night's roster: who is in, by when the bot learnt it (then by id), split at ``seats``."""
    ordered = sorted(signups, key=lambda s: (s.at, s.user))
    inside = tuple(s.user for s in ordered if s.is_in)
    return Roster(inside[:seats], inside[seats:], tuple(s.user for s in ordered if not s.is_in))


def interested_changes(signups: Iterable[Signup], interested: Collection[int]) -> tuple[list[int], list[int]]:
    """What the event's Interested list changes: (members to add as interested: they answered nothing yet,
    members no longer interested to drop: they never tapped). A tap is never overridden."""
    known = {s.user: s.answer for s in signups}
    added = sorted(u for u in interested if u not in known)
    dropped = sorted(u for u, answer in known.items() if answer == "interested" and u not in interested)
    return added, dropped


def remind_at(starts_at: float, remind_minutes: int) -> float | None:
    """When the reminders are due (None: no reminders)."""
    return None if remind_minutes <= 0 else starts_at - 60 * remind_minutes


def due_reminders(signups: Iterable[Signup], starts_at: float, remind_minutes: int, now: float) -> list[int]:
    """The members to remind now: in, not reminded yet, once the reminder time has come and before the start (a
    member who signs up later than the reminder time is reminded at once; after the start nobody is)."""
    moment = remind_at(starts_at, remind_minutes)
    if moment is None or not moment <= now < starts_at:
        return []
    return [s.user for s in sorted(signups, key=lambda s: (s.at, s.user)) if s.is_in and not s.reminded]


@dataclass(frozen=True, slots=True)
class Step:
    """What a planned night waits for next: its reminders, its start (the table opens), or nothing (missed: the
    whole night went by while the bot was away), and when."""

    kind: Literal["remind", "open", "missed"]
    at: float


def next_step(starts_at: float, remind_minutes: int, reminded: bool, now: float) -> Step:
    """The next step of a planned night at ``now``. ``reminded``: its reminder time has been handled."""
    if now >= starts_at + NIGHT_LENGTH:
        return Step("missed", now)
    moment = remind_at(starts_at, remind_minutes)
    if moment is not None and not reminded and now < starts_at:
        return Step("remind", moment)
    return Step("open", starts_at)


def seats_held(order: Sequence[int], seated: Collection[int], free: int, user: int) -> int:
    """How many of the signed-up players ahead of ``user`` are still to sit, when they need every free seat
    (0: ``user`` may sit). A player not signed up comes after all of them."""
    ahead = order[:order.index(user)] if user in order else order
    coming = sum(1 for u in ahead if u not in seated)
    return coming if coming >= free else 0


def holds_seats(starts_at: float, now: float) -> bool:
    """Whether seats are still held for the players who signed up (for ``SEAT_HOLD`` after the start)."""
    return now < starts_at + SEAT_HOLD


def clash(starts_at: float, others: Iterable[tuple[int, float]]) -> int | None:
    """The first of ``others`` (plan id, start) in the same channel whose night overlaps one starting at
    ``starts_at`` (each lasting ``NIGHT_LENGTH``), or None."""
    for plan_id, other in others:
        if abs(other - starts_at) < NIGHT_LENGTH:
            return plan_id
    return None


def event_name(game: str, small_blind: int, big_blind: int, *, lang: Language = ENGLISH) -> str:
    """The Discord event's name: ``Poker night: Dealer's choice 1/2``, worded in ``lang``."""
    name = say(lang, "Poker night: {game} {small}/{big}", game=game, small=small_blind, big=big_blind)
    return name if len(name) <= MAX_NAME else name[:MAX_NAME - 1] + "…"


def planned_buy_ins(big_blind: int, buy_in: int | None) -> tuple[int | None, int | None]:
    """The (smallest, largest) buy-in a planned night's table is opened with (None: the house's default). The
    planned ``buy_in`` is the largest, what Join brings; the smallest stays the house's, or the buy-in when that
    is less."""
    if buy_in is None:
        return None, None
    low, _ = buy_in_range(big_blind, 0, None, None)
    return min(low, buy_in), buy_in
