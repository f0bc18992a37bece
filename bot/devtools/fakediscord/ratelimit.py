"""Discord's rate limits as the fake models them: the per-channel message bucket (answering 429 with Discord's
headers once exhausted) and the 429 answer itself."""

from __future__ import annotations

import asyncio
import math
import time
from dataclasses import dataclass

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
