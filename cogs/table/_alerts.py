"""Your turn finds you: a DM to the player to act when he is not looking.

Embeds never ping and the table's posts mention nobody, so a player who put his phone down would only learn
of his turn when his clock folds him. The DM goes out when his turn (or his dealer's choice) has waited
``NOTIFY_AFTER`` seconds on screen (a player who is looking acts before that: no DM), and once more
``WARN_BEFORE`` seconds before his clock runs out. A player turns them off with ``/poker alerts``.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any

log = logging.getLogger(__name__)

NOTIFY_AFTER = 5.0  # seconds a turn waits on screen before its player is told by DM
WARN_BEFORE = 15.0  # seconds before the clock runs out when he is warned


class TurnAlerts:
    """The alerts of one table: at most one player's turn is watched at a time."""

    def __init__(self, send: Callable[[int, str], Awaitable[None]], wants: Callable[[int], Awaitable[bool]]) -> None:
        self._send = send
        self._wants = wants
        self._task: asyncio.Task[None] | None = None
        self.key: Any = None
        self.sent = 0  # alerts sent (for tests and the load bench)

    def watch(self, key: Any, user: int, deadline: float, turn_text: str, warn_text: str) -> None:
        """Watch the turn ``key`` of ``user``, whose clock runs out at ``deadline`` (Unix time)."""
        if key == self.key:
            return
        self.cancel()
        self.key = key
        self._task = asyncio.create_task(self._run(user, deadline, turn_text, warn_text))

    def cancel(self) -> None:
        """The turn is over (or the table stops): no alert for it."""
        task, self._task, self.key = self._task, None, None
        if task is not None and task is not asyncio.current_task():
            task.cancel()

    async def _run(self, user: int, deadline: float, turn_text: str, warn_text: str) -> None:
        try:
            first = time.time() + NOTIFY_AFTER
            warn_at = deadline - WARN_BEFORE
            if warn_at > first:
                await asyncio.sleep(NOTIFY_AFTER)
                await self._alert(user, turn_text)
            delay = warn_at - time.time()
            if delay > 0:
                await asyncio.sleep(delay)
                await self._alert(user, warn_text)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.warning("could not send a turn alert to %s", user, exc_info=True)

    async def _alert(self, user: int, text: str) -> None:
        if await self._wants(user):
            await self._send(user, text)
            self.sent += 1
