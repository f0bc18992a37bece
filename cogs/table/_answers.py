"""Answering interactions: exactly one answer each, in time, through Discord's failures.

An interaction that acts (a click, a form) is answered with the table itself when it is ready in time; when
the bot is swamped and the answer is not out ``ACK_WITHIN`` seconds after the interaction arrived, it is
acknowledged then (deferred), and the table is shown by an edit instead. Whoever answers first, this guard or
the table writer, claims the interaction; an error is reported only once the guard's acknowledgement is out.

An answer is an interaction callback, which may or may not have reached Discord when its connection drops: the
transport sends it again, and Discord's "already acknowledged" (40060) to the repeat means the first one landed.
An answer Discord refuses as too late (10062, "unknown interaction") is logged as a warning and never sent again.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import discord

from ..acknowledge import (
    ACK_WITHIN,
    GUARDED,
    PRIVATE,
    answer,
    answer_lock,
    defer_thinking,
    give_up,
    respond,
    seconds_left,
)
from ..failures import APPLIED, GIVEN_UP
from ..transport import CONNECTION_ERRORS, DEADLINE

__all__ = ["APPLIED", "GIVEN_UP", "Answers"]

log = logging.getLogger(__name__)



class Answers:
    """The interactions being answered, for one bot."""

    def __init__(self) -> None:
        self._claimed: set[int] = set()  # interactions being answered (see answering())
        self._guards: dict[int, asyncio.Task[bool]] = {}  # the deadline guards' acknowledgements under way

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
        interaction.extras[GUARDED] = True  # acknowledged here (as an update), not by cogs.acknowledge's guard
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
            self._guards[interaction.id] = asyncio.create_task(self.acknowledge(interaction))

    @staticmethod
    async def acknowledge(interaction: discord.Interaction) -> bool:
        """Acknowledge an interaction: a click or form on a component (its message is edited later), or a command,
        privately (Discord's "thinking…", seen only by the caller: its answer may show his cards)."""
        if interaction.type is discord.InteractionType.application_command:
            await defer_thinking(interaction, ephemeral=True)
            return interaction.response.is_done()
        async with answer_lock(interaction):
            if interaction.response.is_done():
                return True
            return await answer(interaction, interaction.response.defer,
                                kind=discord.InteractionResponseType.deferred_message_update)

    async def update(self, interaction: discord.Interaction, **fields: Any) -> None:
        """Answer a click by editing the message it was on (once acknowledged already, by editing it through the
        interaction's webhook); raises if that could not be done (the caller edits the message another way). A
        private message at a table so edited stays its player's one (``cogs.table._private``)."""
        await self._update(interaction, **fields)
        private = interaction.extras.get(PRIVATE)
        if private is not None:
            private.updated(interaction, controls=fields.get("view") is not None)

    async def _update(self, interaction: discord.Interaction, **fields: Any) -> None:
        if not interaction.response.is_done() and interaction.id not in self._guards:
            async with answer_lock(interaction):  # not while cogs.acknowledge's guard acknowledges it
                if not interaction.response.is_done():
                    if not await answer(interaction, lambda: interaction.response.edit_message(**fields),
                                        kind=discord.InteractionResponseType.message_update):
                        raise ConnectionError("the interaction could not be answered with an update")
                    return
        await self.settled(interaction)
        if interaction.extras.get(GIVEN_UP):  # never acknowledged (too late): its message cannot be edited
            raise ConnectionError("the interaction could not be answered in time")
        try:
            await interaction.edit_original_response(**fields)
        except (discord.HTTPException, *CONNECTION_ERRORS) as error:
            raise ConnectionError("the message of the interaction could not be edited") from error

    async def send(self, interaction: discord.Interaction, content: str | None = None, *, ephemeral: bool = True,
                   **fields: Any) -> bool:
        """Answer with a message (ephemeral unless said otherwise), or a follow-up if it is answered already."""
        await self.settled(interaction)
        return await respond(interaction, content, ephemeral=ephemeral, **fields)

    @staticmethod
    async def modal(interaction: discord.Interaction, modal: discord.ui.Modal) -> bool:
        """Open a form. A form cannot be deferred, so one that would land after Discord's deadline (a long rate
        limit wait) is given up instead of sent late."""
        left = min(DEADLINE, seconds_left(interaction))

        async def send() -> None:
            try:
                async with asyncio.timeout(max(0.05, left - 0.1)):
                    await interaction.response.send_modal(modal)
            except TimeoutError:
                raise _TooLate from None

        try:
            async with answer_lock(interaction):
                if interaction.response.is_done():  # acknowledged meanwhile (a form cannot follow): given up
                    return False
                return await answer(interaction, send, kind=discord.InteractionResponseType.modal)
        except _TooLate:
            log.warning("interaction %s: the form could not be opened in time", interaction.id)
            give_up(interaction, discord.InteractionResponseType.modal)
            return False


class _TooLate(Exception):
    """A form that would open after Discord's deadline."""
