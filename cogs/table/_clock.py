"""One table's turn clock: the turn it runs for (a player's action or the dealer's choice), when it runs out, and
the time a turn had already taken before a restart.

The clock only keeps time: the presenter (``_presenter``) shows its deadline and says when a turn is on screen,
the dealer (``_dealer``) starts it then, with what to do when it runs out, and stops it when the turn is over.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Coroutine
from dataclasses import dataclass
from typing import Any

from bot.runtime.scheduler import Scheduler
from bot.tables import Table

CLOCK = "clock"  # the turn's clock (a player's action or the dealer's choice), in the table's scheduler


@dataclass(frozen=True, slots=True)
class Turn:
    """A moment that runs on a clock: a player's action (hand id, action number) or the dealer's choice."""

    kind: str  # "act" or "choose"
    user: int
    hand: int
    seq: int


class TurnClock:
    """The clock of the turn on screen at one table: at most one runs at a time."""

    def __init__(self, table: Table, scheduler: Scheduler) -> None:
        self.table = table
        self.scheduler = scheduler  # its table's: the clock stops with the table
        self.clocked: Turn | None = None  # the turn whose clock runs
        self.deadline: float | None = None  # when it runs out (Unix time)
        self.restart_elapsed = 0.0  # after a restart: the time the turn on screen had already taken

    @property
    def task(self) -> asyncio.Task[Any] | None:
        """The clock of the turn on screen, running (or just run out)."""
        return self.scheduler.get(CLOCK)

    def deadline_for(self, turn: Turn) -> float:
        """When ``turn``'s clock runs out: as it runs, or, not yet on the clock, as it will run once shown."""
        if turn == self.clocked and self.deadline is not None:
            return self.deadline
        return time.time() + max(0.0, self.table.settings.clock - self.restart_elapsed)

    def start(self, turn: Turn, deadline: float, expiry: Coroutine[Any, Any, None]) -> None:
        """Run ``turn``'s clock until ``deadline`` (Unix time), then ``expiry``, in place of the clock before."""
        self.clocked, self.deadline = turn, deadline
        self.scheduler.schedule_at(deadline, CLOCK, expiry)

    def cancel(self) -> None:
        """Stop the clock (a clock that runs out goes on: it stops the clock itself)."""
        self.deadline, self.clocked = None, None
        self.scheduler.cancel(CLOCK)
