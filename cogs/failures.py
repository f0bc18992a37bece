"""What a call to Discord can fail with, and what the bot notes on an interaction about its answer: the names the
transport, the answers and the error handler share (each written once, here, below all three)."""

from __future__ import annotations

import aiohttp
import discord

__all__ = ["ALREADY_ACKNOWLEDGED", "APPLIED", "CONNECTION_ERRORS", "DISCORD_ERRORS", "GIVEN_UP", "UNKNOWN_INTERACTION"]

ALREADY_ACKNOWLEDGED, UNKNOWN_INTERACTION = 40060, 10062  # Discord's codes: answered already; too late to answer
# What a call to Discord can fail with on the way (not an answer of Discord's), and every failure of a call.
CONNECTION_ERRORS = (TimeoutError, OSError, aiohttp.ClientError)
DISCORD_ERRORS = (discord.HTTPException, *CONNECTION_ERRORS)
GIVEN_UP = "given up"  # interaction.extras: too late to answer (10062, or its deadline passed): nothing more is sent
APPLIED = "applied"  # interaction.extras: the player's action was stored (an error after it must not say otherwise)
