"""Timers that must not die when the database cannot be written: a turn's clock, the next deal, the dealer's
choice running out. Refused for the database (another program holds it, the disk is full or read-only...), each
tries again by itself, so the table moves on once the database is back, with nobody clicking. The store logs the
outage itself (one ERROR line naming the cause and the file); a timer that waits says so once, as a warning."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import TypeVar

from bot.store import StoreBusy, StoreUnavailable

log = logging.getLogger(__name__)

T = TypeVar("T")
PAUSES = (0.5, 1.0, 2.0, 5.0)  # seconds between tries; then every 5 s
DATABASE_REFUSALS = (StoreBusy, StoreUnavailable)


async def until_stored(attempt: Callable[[], Awaitable[T]], *, what: str, going_on: Callable[[], bool]) -> T | None:
    """``attempt()``, tried again after a pause each time the database refuses it, until it goes through (its
    result) or ``going_on()`` turns False (None: the table closed or the bot is stopping)."""
    tries = 0
    while True:
        try:
            return await attempt()
        except DATABASE_REFUSALS as error:
            if not going_on():
                return None
            tries += 1
            pause = PAUSES[min(tries, len(PAUSES)) - 1]
            if tries == 1:
                log.warning("%s waits for the database (%s); trying again every few seconds", what, error)
            await asyncio.sleep(pause)
            if not going_on():
                return None
