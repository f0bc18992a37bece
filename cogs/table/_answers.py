"""Answering interactions in time: exactly one answer each, and never after Discord's 3-second deadline.

An interaction that acts (a click, a form) is answered with the table itself when it is ready in time; when
the bot is swamped and the answer is not out ``ACK_WITHIN`` seconds after the interaction arrived, it is
acknowledged then (deferred), and the table is shown by an edit instead. Whoever answers first, this guard or
the table writer, claims the interaction; an error is reported only once the guard's acknowledgement is out.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import discord

from ._transport import DISCORD_ERRORS

log = logging.getLogger(__name__)

ACK_WITHIN = 1.5  # seconds after a click arrives by which it is acknowledged if its answer is not ready (Discord: 3)


class Answers:
    """The interactions being answered, for one bot."""

    def __init__(self) -> None:
        self._claimed: set[int] = set()  # interactions being answered (see answering())
        self._guards: dict[int, asyncio.Task[None]] = {}  # the deadline guards' acknowledgements under way

    def claim(self, interaction: discord.Interaction) -> bool:
        """True for the first to answer ``interaction`` (its handler or its deadline guard), False after."""
        if interaction.id in self._claimed or interaction.response.is_done():
            return False
        self._claimed.add(interaction.id)
        return True

    async def settled(self, interaction: discord.Interaction) -> None:
        """Wait until the deadline guard's acknowledgement, if it claimed the interaction, is out."""
        guard = self._guards.get(interaction.id)
        if guard is not None and not guard.done():
            await asyncio.wait([guard])

    @asynccontextmanager
    async def answering(self, interaction: discord.Interaction | None) -> AsyncIterator[None]:
        """Around the handling of an interaction that acts: acknowledged ``ACK_WITHIN`` seconds after it arrived
        if its answer is not out by then; the claim is forgotten after."""
        if interaction is None:
            yield
            return
        timer = asyncio.get_running_loop().call_later(ACK_WITHIN, self._acknowledge_late, interaction)
        try:
            yield
        finally:
            timer.cancel()
            await self.settled(interaction)  # the guard's answer goes first, then any error goes as a follow-up
            self._guards.pop(interaction.id, None)
            self._claimed.discard(interaction.id)

    def _acknowledge_late(self, interaction: discord.Interaction) -> None:
        if self.claim(interaction):
            self._guards[interaction.id] = asyncio.create_task(defer(interaction))


async def defer(interaction: discord.Interaction) -> None:
    """Acknowledge an interaction on a component (the table is shown by an edit later)."""
    try:
        await interaction.response.defer()
    except DISCORD_ERRORS:
        log.warning("could not acknowledge interaction %s", interaction.id, exc_info=True)
