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
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from typing import Any

import discord

from .. import transport
from ..errors import ALREADY_ACKNOWLEDGED, APPLIED, GIVEN_UP, UNKNOWN_INTERACTION
from ..transport import CONNECTION_ERRORS, DEADLINE

__all__ = ["APPLIED", "GIVEN_UP", "Answers", "answer", "give_up", "mark_answered", "seconds_left"]

log = logging.getLogger(__name__)

ACK_WITHIN = 1.5  # seconds after a click arrives by which it is acknowledged if its answer is not ready (Discord: 3)


def seconds_left(interaction: discord.Interaction) -> float:
    """What is left of Discord's deadline to answer ``interaction``."""
    return transport.seconds_left(interaction.id)


def mark_answered(interaction: discord.Interaction,
                  kind: discord.InteractionResponseType = discord.InteractionResponseType.deferred_message_update
                  ) -> None:
    """Note that ``interaction`` was answered (a repeat found the first answer had landed, or it is too late), so
    that nothing tries again: discord.py keeps this state in ``InteractionResponse._response_type``."""
    interaction.response._response_type = kind


def give_up(interaction: discord.Interaction, kind: discord.InteractionResponseType) -> None:
    """``interaction`` cannot be answered any more (too late, or Discord unreachable until its deadline): nothing
    more is sent to it, neither an answer nor a follow-up (``cogs.errors.report`` reads ``GIVEN_UP``)."""
    interaction.extras[GIVEN_UP] = True
    mark_answered(interaction, kind)


async def answer(interaction: discord.Interaction, call: Callable[[], Awaitable[Any]], *,
                 kind: discord.InteractionResponseType) -> bool:
    """Send an interaction's answer (once: the transport under it tries it again while Discord's deadline lasts,
    and takes a repeat that Discord calls already acknowledged as proof the first landed). False when it could not
    be answered: too late, or Discord unreachable (logged as a warning; the table message shows what happened)."""
    try:
        await call()
        return True
    except discord.InteractionResponded:  # answered meanwhile (or given up as late): never twice
        return False
    except discord.HTTPException as error:
        if error.code == ALREADY_ACKNOWLEDGED:  # answered by another path first
            mark_answered(interaction, kind)
            return True
        if error.code == UNKNOWN_INTERACTION:
            log.warning("interaction %s was answered too late (%s)", interaction.id, error.text or error)
            give_up(interaction, kind)
            return False
        raise
    except CONNECTION_ERRORS as error:
        log.warning("could not answer interaction %s: Discord is unreachable (%r)", interaction.id, error)
        give_up(interaction, kind)
        return False


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
            return await answer(interaction, lambda: interaction.response.defer(ephemeral=True, thinking=True),
                                kind=discord.InteractionResponseType.deferred_channel_message)
        return await answer(interaction, interaction.response.defer,
                            kind=discord.InteractionResponseType.deferred_message_update)

    async def update(self, interaction: discord.Interaction, **fields: Any) -> None:
        """Answer a click by editing the message it was on (once acknowledged already, by editing it through the
        interaction's webhook); raises if that could not be done (the caller edits the message another way)."""
        if interaction.response.is_done() or interaction.id in self._guards:
            await self.settled(interaction)
            if interaction.extras.get(GIVEN_UP):  # never acknowledged (too late): its message cannot be edited
                raise ConnectionError("the interaction could not be answered in time")
            try:
                await interaction.edit_original_response(**fields)
                return
            except (discord.HTTPException, *CONNECTION_ERRORS) as error:
                raise ConnectionError("the message of the interaction could not be edited") from error
        if not await answer(interaction, lambda: interaction.response.edit_message(**fields),
                            kind=discord.InteractionResponseType.message_update):
            raise ConnectionError("the interaction could not be answered with an update")

    @staticmethod
    async def send(interaction: discord.Interaction, content: str | None = None, **fields: Any) -> bool:
        """Answer with a message (ephemeral unless said otherwise), or a follow-up if it is answered already."""
        fields.setdefault("ephemeral", True)
        if interaction.extras.get(GIVEN_UP):
            return False
        if interaction.response.is_done():
            try:
                await interaction.followup.send(content or "", **fields)
                return True
            except (discord.HTTPException, *CONNECTION_ERRORS) as error:
                log.warning("could not send a follow-up to interaction %s (%r)", interaction.id, error)
                return False
        return await answer(interaction, lambda: interaction.response.send_message(content, **fields),
                            kind=discord.InteractionResponseType.channel_message)

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
            return await answer(interaction, send, kind=discord.InteractionResponseType.modal)
        except _TooLate:
            log.warning("interaction %s: the form could not be opened in time", interaction.id)
            give_up(interaction, discord.InteractionResponseType.modal)
            return False


class _TooLate(Exception):
    """A form that would open after Discord's deadline."""
