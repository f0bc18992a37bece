"""The level clock, crash-safe by construction.

The clock is a value, :class:`ClockState`: the schedule step it was last known to be in, when that step
started, how long the clock has been paused since then, and since when it is paused (None while it runs).
Nothing ticks: every answer is computed from that value and the time ``now`` the caller passes in, so a bot
killed at any moment recomputes, from the state it stored, exactly the level and the time left it would have
had (floats survive JSON exactly). Storing the state again after :func:`advance_due` is never needed for
correctness; it only keeps the stored step current.

Levels change between hands, never during one: the table calls :func:`level_for_next_hand` just before it
deals and plays the whole hand at the stakes it got, even if the clock moves on meanwhile. A break is played
by dealing nothing until it ends; a paused clock deals nothing until resumed (the hand in play is finished).
The last level never ends: the blinds stop rising there.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any, Literal, NamedTuple

from bot.i18n.text import Text

from .levels import Break, Level, Step, level_at_or_after


@dataclass(frozen=True, slots=True)
class ClockState:
    """Where the clock stands: ``step`` is the index of the schedule step that started at ``started`` (seconds);
    ``paused`` is how long the clock has been paused since (not counting a pause still going on), and
    ``paused_since`` when the current pause began, or None while the clock runs."""

    step: int
    started: float
    paused: float = 0.0
    paused_since: float | None = None

    def __post_init__(self) -> None:
        if isinstance(self.step, bool) or not isinstance(self.step, int) or self.step < 0:
            raise ValueError(f"the clock's step must be a whole number from 0, not {self.step!r}")
        times = [self.started, self.paused, *(() if self.paused_since is None else (self.paused_since,))]
        if not all(isinstance(t, int | float) and not isinstance(t, bool) and math.isfinite(t) for t in times):
            raise ValueError(f"the clock's times must be finite numbers of seconds: {self!r}")
        if self.paused < 0:
            raise ValueError("the clock cannot have been paused for less than no time")

    @property
    def is_paused(self) -> bool:
        return self.paused_since is not None

    def to_json(self) -> dict[str, Any]:
        return {"step": self.step, "started": self.started, "paused": self.paused, "paused_since": self.paused_since}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> ClockState:
        return cls(data["step"], data["started"], data["paused"], data["paused_since"])


class LevelNow(NamedTuple):
    """The schedule step the clock is in and the seconds left in it (None in the last level: it never ends)."""

    step: int
    seconds_left: float | None


@dataclass(frozen=True, slots=True)
class NextHand:
    """What the table does before a deal: ``deal`` at ``level``; wait for a ``break`` to end; or wait while
    the clock is ``paused``. ``level`` is the level in force, or on a break the one that follows it (for
    'next: 50/100'); ``step`` and ``seconds_left`` are the clock's step and the time left in it."""

    status: Literal["deal", "break", "paused"]
    step: int
    level: Level
    seconds_left: float | None


def start_clock(now: float) -> ClockState:
    """The clock of a tournament starting at ``now``, in the first level."""
    return ClockState(0, now)


def advance_due(schedule: Sequence[Step], state: ClockState, now: float) -> ClockState:
    """``state`` moved on to the step the clock is in at ``now`` (the same answers as ``state`` from then on).

    Each step that has run its length ends, and the next starts when it ended: its start is the previous
    start plus the pauses plus the step's length. The last step never ends."""
    if not 0 <= state.step < len(schedule):
        raise ValueError(f"the clock is at step {state.step} of a schedule of {len(schedule)}")
    running_until = now if state.paused_since is None else state.paused_since
    index, started, paused = state.step, state.started, state.paused
    while index < len(schedule) - 1 and running_until - started - paused >= schedule[index].seconds:
        started, paused, index = started + paused + schedule[index].seconds, 0.0, index + 1
    if index == state.step:
        return state
    return ClockState(index, started, paused, state.paused_since)


def current_level(schedule: Sequence[Step], state: ClockState, now: float) -> LevelNow:
    """The step the clock is in at ``now`` (a level or a break) and the seconds left in it."""
    state = advance_due(schedule, state, now)
    if state.step == len(schedule) - 1:
        return LevelNow(state.step, None)
    running_until = now if state.paused_since is None else state.paused_since
    # A clock read before its own start (the system clock set back) counts no time as run.
    ran = max(0.0, running_until - state.started - state.paused)
    return LevelNow(state.step, schedule[state.step].seconds - ran)


def pause(state: ClockState, now: float) -> ClockState:
    """The clock stopped at ``now``."""
    if state.paused_since is not None:
        raise ValueError(Text("the clock is already paused"))
    return replace(state, paused_since=now)


def resume(state: ClockState, now: float) -> ClockState:
    """The clock running again from ``now``; the pause does not count against the level."""
    if state.paused_since is None:
        raise ValueError(Text("the clock is not paused"))
    return replace(state, paused=state.paused + max(0.0, now - state.paused_since), paused_since=None)


def level_for_next_hand(schedule: Sequence[Step], state: ClockState, now: float) -> NextHand:
    """What the table deals at ``now``: call it before each deal, and play the whole hand at that level."""
    index, seconds_left = current_level(schedule, state, now)
    level = level_at_or_after(schedule, index)
    if state.paused_since is not None:
        return NextHand("paused", index, level, seconds_left)
    return NextHand("break" if isinstance(schedule[index], Break) else "deal", index, level, seconds_left)


def open_through_level(schedule: Sequence[Step], state: ClockState, now: float, levels: int) -> bool:
    """Whether the clock is still within the first ``levels`` blind levels (with any breaks between them):
    late registration and rebuys close the moment level ``levels`` runs out. 0: never open."""
    if levels <= 0:
        return False
    last_open = [i for i, step in enumerate(schedule) if isinstance(step, Level)][:levels][-1]
    return current_level(schedule, state, now).step <= last_open
