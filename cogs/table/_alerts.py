"""Your turn finds you: a DM to the player to act when he is not looking.

Embeds never ping and the table's posts mention nobody, so a player who put his phone down would only learn
of his turn when his clock folds him. The DM goes out when his turn (or his dealer's choice) has waited half his
clock, and at least ``FIRST_AT_LEAST`` seconds, on screen (a player who stops to think is not buzzed every turn),
and once more ``WARN_BEFORE`` seconds before his clock runs out. Each says what is asked and what it costs, with
when his clock runs out, as the countdown the table shows ("call 20, raise or fold · ⏱ in 40 seconds"). A player
turns them off with ``/poker alerts``.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any

from bot.runtime.scheduler import Scheduler

log = logging.getLogger(__name__)

FIRST_SHARE = 0.5  # of the clock a turn waits on screen before its player is told by DM
FIRST_AT_LEAST = 15.0  # seconds, whatever the clock
WARN_BEFORE = 15.0  # seconds before the clock runs out when he is warned

ALERTS = "turn alerts"  # the task of the turn watched, in its table's scheduler

AlertText = Callable[[float], str]  # the DM, from the seconds left on the clock


def first_alert_after(clock: float) -> float:
    """Seconds a turn of a ``clock``-second clock waits on screen before the first alert."""
    return max(FIRST_AT_LEAST, clock * FIRST_SHARE)


class TurnAlerts:
    """The alerts of one table: at most one player's turn is watched at a time."""

    def __init__(self, send: Callable[[int, str], Awaitable[None]], wants: Callable[[int], Awaitable[bool]],
                 scheduler: Scheduler) -> None:
        self._send = send
        self._wants = wants
        self.scheduler = scheduler  # its table's: the alerts stop with the table
        self.key: Any = None
        self.sent = 0  # alerts sent (for tests and the load bench)

    def watch(self, key: Any, user: int, deadline: float, turn_text: AlertText, warn_text: AlertText) -> None:
        """Watch the turn ``key`` of ``user``, whose clock runs out at ``deadline`` (Unix time); the texts are
        made when sent, with the seconds left then."""
        if key == self.key:
            return
        self.key = key
        self.scheduler.schedule(ALERTS, self._run(user, deadline, turn_text, warn_text))  # the last turn's go

    def cancel(self) -> None:
        """The turn is over (or the table stops): no alert for it."""
        self.key = None
        self.scheduler.cancel(ALERTS)

    async def _run(self, user: int, deadline: float, turn_text: AlertText, warn_text: AlertText) -> None:
        try:
            wait = first_alert_after(deadline - time.time())
            warn_at = deadline - WARN_BEFORE
            if warn_at > time.time() + wait:
                await asyncio.sleep(wait)
                await self._alert(user, turn_text(deadline - time.time()))
            delay = warn_at - time.time()
            if delay > 0:
                await asyncio.sleep(delay)
                await self._alert(user, warn_text(deadline - time.time()))
        except asyncio.CancelledError:
            raise
        except Exception:
            log.warning("could not send a turn alert to %s", user, exc_info=True)

    async def _alert(self, user: int, text: str) -> None:
        if await self._wants(user):
            await self._send(user, text)
            self.sent += 1
