"""What a call to Discord can fail with: the names the transport, the replies and the error handler share (each
written once, here, below all three)."""

from __future__ import annotations

import aiohttp
import discord

__all__ = ["ALREADY_ACKNOWLEDGED", "CONNECTION_ERRORS", "DISCORD_ERRORS", "UNKNOWN_INTERACTION"]

ALREADY_ACKNOWLEDGED, UNKNOWN_INTERACTION = 40060, 10062  # Discord's codes: answered already; too late to answer
# What a call to Discord can fail with on the way (not an answer of Discord's), and every failure of a call.
CONNECTION_ERRORS = (TimeoutError, OSError, aiohttp.ClientError)
DISCORD_ERRORS = (discord.HTTPException, *CONNECTION_ERRORS)
