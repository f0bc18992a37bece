"""Is the bot in touch with Discord? The watch of its gateway connections that beats the health file.

With ``HEALTH_FILE`` set (the Docker image sets it), the running bot writes the file every ``BEAT`` seconds while
every gateway connection it runs is up; ``python -m bot health`` reads it (``bot.runtime.health``).
"""

from __future__ import annotations

import asyncio
import logging
import time
from pathlib import Path

import discord

from bot.runtime.health import write_health_file
from bot.runtime.scheduler import Scheduler

__all__ = ["BEAT", "GatewayWatch"]

log = logging.getLogger(__name__)

BEAT = 20.0  # seconds between two writes of the health file while connected
BEATING = "beat"  # the task that writes the health file


class GatewayWatch:
    """Follows the bot's gateway connections (one per shard) and beats the health file while all are up."""

    def __init__(self, bot: discord.Client, path: Path | None, beat: float = BEAT) -> None:
        self.bot = bot
        self.path = path
        self.beat = beat
        self.down: set[int | None] = {None}  # connections not up (None: the bot's only one, until it connects)
        self.lost_at: float | None = None
        self.scheduler = Scheduler("health")
        add = getattr(bot, "add_listener", None)
        if add is not None:
            add(self._up, "on_connect")
            add(self._up, "on_resumed")
            add(self._down, "on_disconnect")
            add(self._shard_up, "on_shard_connect")
            add(self._shard_up, "on_shard_resumed")
            add(self._shard_down, "on_shard_disconnect")

    @property
    def connected(self) -> bool:
        """True while every gateway connection of this process is up."""
        return not self.down

    async def _up(self) -> None:
        if not self._sharded():
            self.down.discard(None)
            self._changed()

    async def _down(self) -> None:
        if not self._sharded():
            self.down.add(None)
            self._changed()

    async def _shard_up(self, shard_id: int) -> None:
        self.down.discard(None)
        self.down.discard(shard_id)
        self._changed()

    async def _shard_down(self, shard_id: int) -> None:
        self.down.add(shard_id)
        self._changed()

    def _sharded(self) -> bool:
        return isinstance(self.bot, discord.AutoShardedClient)

    def _changed(self) -> None:
        if self.connected:
            if self.lost_at is not None:
                log.info("in touch with Discord again after %.0f s", time.time() - self.lost_at)
            self.lost_at = None
            self.touch()
        elif self.lost_at is None:
            self.lost_at = time.time()

    def touch(self) -> None:
        """Write the health file now (when there is one)."""
        if self.path is not None:
            write_health_file(self.path)

    def start(self) -> None:
        """Beat the health file while connected (no-op without one)."""
        if self.path is not None and BEATING not in self.scheduler:
            self.scheduler.schedule(BEATING, self._beat())

    def stop(self) -> None:
        """Stop beating (the bot is stopping)."""
        self.scheduler.cancel_all()

    async def _beat(self) -> None:
        while True:
            if self.connected:
                self.touch()
            await asyncio.sleep(self.beat)
