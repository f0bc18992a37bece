"""What every part of the fake shares: where it listens, its clock, and the signal that its state changed."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field

from .constants import API_VERSION


@dataclass
class Runtime:
    """The fake's address (``port`` is 0 until started), clock and change signal."""

    port: int = 0
    started_at: float = 0.0
    changed: asyncio.Event = field(default_factory=asyncio.Event)

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def api_base(self) -> str:
        return f"{self.base_url}/api/v{API_VERSION}"

    @property
    def gateway_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/"

    def start_clock(self) -> None:
        self.started_at = asyncio.get_running_loop().time()

    def now(self) -> float:
        """Seconds since the fake started (the clock of ``RestCall.time`` and interaction timings)."""
        return asyncio.get_running_loop().time() - self.started_at

    def notify(self) -> None:
        """Wake everyone waiting for a change (``FakeDiscord.wait_for`` re-checks its condition)."""
        self.changed.set()
        self.changed = asyncio.Event()
