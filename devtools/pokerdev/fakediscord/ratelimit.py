"""Discord's rate limits as the fake models them: the per-channel message bucket (answering 429 with Discord's
headers once exhausted), the 429 answer itself, and the global limit (50 requests a second per bot, interaction
answers exempt) counted but not enforced."""

from __future__ import annotations

import asyncio
import math
import time
from collections import deque
from dataclasses import dataclass, field

from .answers import Answer
from .config import RateLimitModel
from .constants import JSON
from .records import RestCall


@dataclass(eq=False)
class Bucket:
    count: int
    reset_at: float


def too_many(retry_after: float, *, limit: int, bucket: str, body: JSON | None = None) -> Answer:
    """A 429 as Discord sends it: ``retry_after`` in the body and the X-RateLimit headers."""
    headers = {
        "Retry-After": str(max(1, math.ceil(retry_after))),
        "X-RateLimit-Limit": str(limit),
        "X-RateLimit-Remaining": "0",
        "X-RateLimit-Reset": f"{time.time() + retry_after:.3f}",
        "X-RateLimit-Reset-After": f"{retry_after:.3f}",
        "X-RateLimit-Bucket": bucket,
        "X-RateLimit-Scope": "user",
        "Via": "1.1 google",  # discord.py treats a 429 without Via as a Cloudflare ban
    }
    payload = body or {
        "message": "You are being rate limited.",
        "retry_after": round(retry_after, 3),
        "global": False,
    }
    return Answer(429, payload, headers)


class ChannelRateLimits:
    """``model.limit`` message creates/edits/deletes per channel per ``model.period`` seconds (None: no limit)."""

    def __init__(self, model: RateLimitModel | None) -> None:
        self.model = model
        self.buckets: dict[int, Bucket] = {}

    def check(self, call: RestCall) -> Answer | None:
        """A 429 if the call's channel bucket is exhausted, else (for limited routes) the headers to answer with."""
        model = self.model
        channel_id = call.channel_id
        if model is None or channel_id is None or call.method not in model.methods or "/messages" not in call.route:
            return None
        if "/reactions/" in call.route or "/pins/" in call.route:
            return None
        now = asyncio.get_running_loop().time()
        bucket = self.buckets.get(channel_id)
        if bucket is None or now >= bucket.reset_at:
            bucket = self.buckets[channel_id] = Bucket(0, now + model.period)
        reset_after = max(0.0, bucket.reset_at - now)
        if bucket.count >= model.limit:
            return too_many(reset_after, limit=model.limit, bucket="channel-messages")
        bucket.count += 1
        headers = {
            "X-RateLimit-Limit": str(model.limit),
            "X-RateLimit-Remaining": str(model.limit - bucket.count),
            "X-RateLimit-Reset": f"{time.time() + reset_after:.3f}",
            "X-RateLimit-Reset-After": f"{reset_after:.3f}",
            "X-RateLimit-Bucket": "channel-messages",
        }
        return Answer(200, None, headers)


GLOBAL_LIMIT = 50  # requests per second per bot token
EXEMPT_PATHS = ("/interactions/", "/webhooks/")  # interaction endpoints: not bound to the global limit


@dataclass(eq=False)
class GlobalRate:
    """Discord's global rate limit, counted (not enforced): every call but interaction answers (callbacks and
    interaction webhooks), in a sliding one-second window. ``over_limit`` counts the calls Discord would have
    answered with a global 429 (the window already held ``limit``)."""

    limit: int = GLOBAL_LIMIT
    counted: int = 0
    exempt: int = 0
    peak_per_second: int = 0
    over_limit: int = 0
    window: deque[float] = field(default_factory=deque)

    def count(self, call: RestCall, now: float) -> None:
        if call.path.startswith(EXEMPT_PATHS):
            self.exempt += 1
            return
        window = self.window
        while window and window[0] <= now - 1.0:
            window.popleft()
        if len(window) >= self.limit:
            self.over_limit += 1
        window.append(now)
        self.counted += 1
        self.peak_per_second = max(self.peak_per_second, len(window))

    def reset(self) -> GlobalRate:
        """Start counting afresh; returns what was counted so far."""
        old = GlobalRate(self.limit, self.counted, self.exempt, self.peak_per_second, self.over_limit)
        self.counted = self.exempt = self.peak_per_second = self.over_limit = 0
        self.window.clear()
        return old
