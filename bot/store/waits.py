"""How long a store operation may wait for the database: a deadline carried by the task that asks.

Another program may hold the database (a backup holding ``BEGIN EXCLUSIVE``, a second bot). A store operation
waits for it, but only until the deadline of whoever asked: an interaction sets its own
(``limit_waits(seconds)`` when it arrives), so a wait never outlives the interaction; a clock or a deal that is
refused as busy tries again by itself. Without a deadline an operation waits the store's default.

The deadline is a context variable: set at the start of an interaction's task, it covers every store call that
task makes, and nothing else. The tasks it starts (a turn's clock, the next deal, the table's writer) inherit the
variable but not the deadline: it names the task it belongs to, so a clock that runs out a minute later waits
for the database as long as the store allows, not until an interaction's deadline long past.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, contextmanager
from contextvars import ContextVar

from ..i18n.text import Text
from .errors import StoreBusy

__all__ = ["BUSY", "deadline", "held", "limit_waits", "waiting_at_most"]

BUSY = Text("The bot's database is busy right now (another program is using it); nothing was changed. Please try "
            "again in a moment.")

# (the task that set it, the deadline on the event loop's clock)
_DEADLINE: ContextVar[tuple[asyncio.Task[object] | None, float] | None] = ContextVar("store_deadline", default=None)


def _from_now(seconds: float) -> tuple[asyncio.Task[object] | None, float]:
    return asyncio.current_task(), asyncio.get_running_loop().time() + seconds


def limit_waits(seconds: float) -> None:
    """From now on in this task, no store operation waits for the database more than ``seconds`` from now."""
    _DEADLINE.set(_from_now(seconds))


@contextmanager
def waiting_at_most(seconds: float) -> Iterator[None]:
    """Within the block, no store operation waits for the database more than ``seconds`` from now."""
    token = _DEADLINE.set(_from_now(seconds))
    try:
        yield
    finally:
        _DEADLINE.reset(token)


def deadline(default_wait: float | None) -> float | None:
    """When the current wait must end (the event loop's clock): this task's deadline, or ``default_wait`` from
    now when it has none (None: no end)."""
    set_by = _DEADLINE.get()
    if set_by is not None and set_by[0] is asyncio.current_task():
        return set_by[1]
    if default_wait is None:
        return None
    return asyncio.get_running_loop().time() + default_wait


@asynccontextmanager
async def held(lock: asyncio.Lock, until: float | None, busy: Text = BUSY) -> AsyncIterator[None]:
    """``lock``, waited for until ``until`` at most (then ``StoreBusy`` with ``busy``: nothing was done)."""
    try:
        async with asyncio.timeout_at(until):
            await lock.acquire()
    except TimeoutError:
        raise StoreBusy(busy) from None
    try:
        yield
    finally:
        lock.release()
