"""The time planned nights run on: the wall clock (:data:`CLOCK`; the tests put one they move by hand there, so
that a reminder or a start comes when the test says, however fast the machine is).

Outside the ``cogs.plans`` extension on purpose: discord.py drops an extension's modules when it unloads it, and
the clock must be the same for the bot started again after a restart."""

from __future__ import annotations

import asyncio
import time

MAX_NAP = 300.0  # seconds: a long wait wakes this often, so a wall clock set right (NTP) is noticed


class Clock:
    """Seconds since the epoch, and a wait until one of them."""

    def now(self) -> float:
        return time.time()

    async def sleep_until(self, at: float) -> None:
        """Return once ``now() >= at``."""
        while (left := at - self.now()) > 0:
            await asyncio.sleep(min(left, MAX_NAP))


CLOCK = Clock()


def now() -> float:
    """The time now, by :data:`CLOCK`."""
    return CLOCK.now()


async def sleep_until(at: float) -> None:
    """Wait until :data:`CLOCK` reads ``at``."""
    await CLOCK.sleep_until(at)
