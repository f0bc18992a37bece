"""Calls to Discord that survive its failures: one place that retries what Discord failed.

discord.py retries some 5xx answers itself but not 503, a dropped connection or a timeout. ``retrying`` tries
a call again after a pause for those; anything else (a 4xx answer: a refusal) is raised at once.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import TypeVar

import aiohttp
import discord

log = logging.getLogger(__name__)

RETRY_PAUSES = (0.5, 1.0, 2.0)  # waits before a call that Discord failed (5xx, dropped) is tried again
T = TypeVar("T")

# What a call to Discord can fail with on the way (not an answer of Discord's).
CONNECTION_ERRORS = (TimeoutError, OSError, aiohttp.ClientError)
# Every failure of a call to Discord, answered or not.
DISCORD_ERRORS = (discord.HTTPException, *CONNECTION_ERRORS)


async def retrying(call: Callable[[], Awaitable[T]], *, closed: Callable[[], bool] = lambda: False) -> T:
    """``call()``, tried again after a pause when Discord answers 5xx or the request fails on the way; the
    last failure is raised. ``closed``: True once the bot is closing (no more tries then)."""
    for pause in (*RETRY_PAUSES, None):
        try:
            return await call()
        except discord.HTTPException as error:
            if error.status < 500 or pause is None or closed():
                raise
            log.info("Discord answered %s; trying again in %ss", error.status, pause)
        except CONNECTION_ERRORS:
            if pause is None or closed():
                raise
        await asyncio.sleep(pause)
    raise AssertionError("unreachable")
