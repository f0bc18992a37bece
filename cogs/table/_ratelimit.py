"""How long to wait before the next edit of a channel's message, from the rate limit Discord announced.

discord.py keeps the rate limit headers of Discord's last answers in its HTTP client, but not publicly: this is
the one place that reads them (``http._bucket_hashes``, ``http._buckets``; discord.py is pinned to 2.7 and
``tests/cogs/test_ratelimit.py`` fails loudly if they move). Nothing known: no wait.
"""

from __future__ import annotations

import discord

RATE_RESERVE = 1  # requests of the channel's rate limit the table message leaves for other posts (showdowns)


def edit_pause(http: discord.http.HTTPClient, channel_id: int, now: float, last_write: float | None) -> float:
    """Seconds to wait before editing a message of the channel, so that the edits stay under the channel's rate
    limit with ``RATE_RESERVE`` requests to spare, instead of queueing behind it in discord.py: the requests left
    in the window are spread over the time left in it (a busy table is shown every second or so, not four times at
    once and then not for five seconds). 0 when there is room, or nothing is known. ``now`` is loop time."""
    route = discord.http.Route("PATCH", "/channels/{channel_id}/messages/{message_id}", channel_id=channel_id,
                               message_id=0)
    hashes = getattr(http, "_bucket_hashes", None)
    buckets = getattr(http, "_buckets", None)
    if not isinstance(hashes, dict) or not isinstance(buckets, dict):
        return 0.0
    bucket_hash = hashes.get(route.key)
    ratelimit = buckets.get(f"{bucket_hash or route.key}:{route.major_parameters}")
    if ratelimit is None or not getattr(ratelimit, "dirty", False):
        return 0.0  # no answer with rate limit headers yet
    expires, limit, remaining = ratelimit.expires, int(ratelimit.limit), int(ratelimit.remaining)
    left = (expires - now) if expires is not None else 0.0
    if left <= 0:
        return 0.0  # the window is over: a full one starts
    usable = remaining - (RATE_RESERVE if limit > RATE_RESERVE + 1 else 0)
    if usable <= 0:
        return float(left)
    return 0.0 if last_write is None else max(0.0, left / usable - (now - last_write))
