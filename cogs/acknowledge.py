"""Every interaction answered within Discord's 3 s, whatever the database does.

Most answers are ready in milliseconds and go out as they are: one request, no "thinking…". When an answer is not
out ``ACK_WITHIN`` seconds after the interaction arrived (another program holds the database, the machine is
swamped), ``guard`` acknowledges it in time: a slash command with Discord's "thinking…" (seen only by the user
unless the command's answer is for everyone: ``PUBLIC`` in its extras), a click or a form with a deferred update.
The answer, when it comes, takes the place of "thinking…" (``respond``) or follows up the click. A click whose
handler acknowledges it itself (``cogs.table._answers``) says so with ``GUARDED``.

The guard and the answer take one lock per interaction, so exactly one of them answers it first, and the other
knows what was sent.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import Any, Protocol

import discord

from bot.discord_seam import mark_responded

from . import transport
from .failures import ALREADY_ACKNOWLEDGED, CONNECTION_ERRORS, GIVEN_UP, UNKNOWN_INTERACTION

log = logging.getLogger(__name__)

ACK_WITHIN = 1.5  # seconds after an interaction arrives by which it is acknowledged if its answer is not out
PUBLIC = "public answer"  # an application command's extras: its answer is for the channel, not only the user
PUBLIC_ANSWER = {PUBLIC: True}  # extras= of a command whose answer is for the channel
GUARDED = "guarded"  # interaction.extras: its handler acknowledges it in time itself
THINKING = "thinking"  # interaction.extras: "public" or "private": guard() deferred it with "thinking…"
NOT_DONE = "Not done: only {user} is told why."  # a public "thinking…" whose answer turned out private
PRIVATE = "private messages"  # interaction.extras: the ``PrivateMessages`` an ephemeral answer to it belongs to
_LOCK = "answer lock"
_TIMER = "guard timer"

Sender = Callable[[], Awaitable[Any]]


class PrivateMessages(Protocol):
    """A user's private messages at a table (``cogs.table._private``): an ephemeral answer is dressed by it (his
    cards added) and, once sent, replaces his previous one."""

    def dress(self, interaction: discord.Interaction, content: str | None, fields: dict[str, Any]
              ) -> tuple[str | None, dict[str, Any]]: ...

    def sent(self, interaction: discord.Interaction, message_id: int | None, *, followup: bool) -> None: ...


def seconds_left(interaction: discord.Interaction) -> float:
    """What is left of Discord's deadline to answer ``interaction``."""
    return transport.seconds_left(interaction.id)


def mark_answered(interaction: discord.Interaction,
                  kind: discord.InteractionResponseType = discord.InteractionResponseType.deferred_message_update
                  ) -> None:
    """Note that ``interaction`` was answered (a repeat found the first answer had landed, or it is too late), so
    that nothing tries again."""
    mark_responded(interaction, kind)


def give_up(interaction: discord.Interaction, kind: discord.InteractionResponseType) -> None:
    """``interaction`` cannot be answered any more (too late, or Discord unreachable until its deadline): nothing
    more is sent to it, neither an answer nor a follow-up (``cogs.errors.report`` reads ``GIVEN_UP``)."""
    interaction.extras[GIVEN_UP] = True
    mark_answered(interaction, kind)


async def answer(interaction: discord.Interaction, call: Sender, *, kind: discord.InteractionResponseType) -> bool:
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


def answer_lock(interaction: discord.Interaction) -> asyncio.Lock:
    """The lock that the guard and the answer of ``interaction`` take before they look at it and answer."""
    lock = interaction.extras.get(_LOCK)
    if not isinstance(lock, asyncio.Lock):
        lock = interaction.extras[_LOCK] = asyncio.Lock()
    return lock


def guard(interaction: discord.Interaction) -> None:
    """Acknowledge ``interaction`` ``ACK_WITHIN`` seconds from now (it has just arrived) unless it is answered by
    then."""
    if interaction.type is discord.InteractionType.autocomplete or interaction.extras.get(_TIMER):
        return
    loop = asyncio.get_running_loop()
    interaction.extras[_TIMER] = loop.call_later(ACK_WITHIN, lambda: _start(loop, interaction))


_TASKS: set[asyncio.Task[None]] = set()  # acknowledgements under way (kept until done)


def _start(loop: asyncio.AbstractEventLoop, interaction: discord.Interaction) -> None:
    task = loop.create_task(_acknowledge(interaction))
    _TASKS.add(task)
    task.add_done_callback(_TASKS.discard)


def is_public(interaction: discord.Interaction) -> bool:
    """True for a slash command whose answer is for everyone in the channel."""
    command = interaction.command
    return command is not None and bool(command.extras.get(PUBLIC))


async def _acknowledge(interaction: discord.Interaction) -> None:
    if interaction.extras.get(GUARDED) or interaction.client.is_closed():
        return
    async with answer_lock(interaction):
        if interaction.response.is_done() or interaction.extras.get(GIVEN_UP):
            return
        if interaction.type is discord.InteractionType.application_command:
            public = is_public(interaction)
            if await answer(interaction, lambda: interaction.response.defer(ephemeral=not public, thinking=True),
                            kind=discord.InteractionResponseType.deferred_channel_message):
                interaction.extras[THINKING] = "public" if public else "private"
        else:
            await answer(interaction, interaction.response.defer,
                         kind=discord.InteractionResponseType.deferred_message_update)
        log.info("interaction %s was acknowledged before its answer was ready", interaction.id)


async def defer_thinking(interaction: discord.Interaction, *, ephemeral: bool = False) -> None:
    """Acknowledge a slash command with "thinking…" now, unless it is already (a command that knows it takes a
    while: drawing a picture, writing a file); its answer then comes with ``respond``."""
    async with answer_lock(interaction):
        if not interaction.response.is_done():
            await answer(interaction, lambda: interaction.response.defer(ephemeral=ephemeral, thinking=True),
                         kind=discord.InteractionResponseType.deferred_channel_message)


async def update(interaction: discord.Interaction, **fields: Any) -> None:
    """Answer a click by editing its message: at once, or through the interaction's webhook once acknowledged."""
    async with answer_lock(interaction):
        if not interaction.response.is_done():
            await answer(interaction, lambda: interaction.response.edit_message(**fields),
                         kind=discord.InteractionResponseType.message_update)
            return
    await interaction.edit_original_response(**fields)


def _as_edit(fields: dict[str, Any]) -> dict[str, Any]:
    """``send_message``'s keywords as ``edit_original_response``'s (files become attachments)."""
    edit = {k: v for k, v in fields.items() if k not in ("ephemeral", "file", "files", "silent", "suppress_embeds")}
    files = list(fields.get("files") or []) + ([fields["file"]] if fields.get("file") else [])
    if files:
        edit["attachments"] = files
    return edit


async def respond(interaction: discord.Interaction, content: str | None = None, *, ephemeral: bool = False,
                  **fields: Any) -> bool:
    """Answer ``interaction`` with a message: at once if it is not acknowledged yet, in place of "thinking…" if
    ``guard`` acknowledged it, as a follow-up otherwise. A private answer after a public "thinking…" goes to the
    user alone, and the public message says so. A private answer at a table (``PRIVATE`` in the extras) is
    dressed and recorded by the table's ``PrivateMessages``. False if Discord could not be reached (logged)."""
    private: PrivateMessages | None = interaction.extras.get(PRIVATE) if ephemeral else None
    if private is not None:
        content, fields = private.dress(interaction, content, fields)
    async with answer_lock(interaction):
        if interaction.extras.get(GIVEN_UP):
            return False
        if not interaction.response.is_done():
            sent: list[Any] = []

            async def send() -> None:
                sent.append(await interaction.response.send_message(content, ephemeral=ephemeral, **fields))

            done = await answer(interaction, send, kind=discord.InteractionResponseType.channel_message)
            if done and private is not None:
                private.sent(interaction, _message_id(sent[0] if sent else None), followup=False)
            return done
        thinking = interaction.extras.pop(THINKING, None)
    try:
        if thinking == "public" and ephemeral:
            await interaction.edit_original_response(content=NOT_DONE.format(user=interaction.user.mention),
                                                     allowed_mentions=discord.AllowedMentions.none())
            thinking = None
        if thinking is not None:
            await interaction.edit_original_response(content=content, **_as_edit(fields))
            if private is not None:
                private.sent(interaction, None, followup=False)
        else:
            message = await interaction.followup.send(content or "", ephemeral=ephemeral, wait=True, **fields)
            if private is not None:
                private.sent(interaction, message.id, followup=True)
        return True
    except (TimeoutError, discord.HTTPException, OSError) as error:
        log.warning("could not send the answer to interaction %s (%r)", interaction.id, error)
        return False


def _message_id(callback: Any) -> int | None:
    """The id of the message an interaction callback created (Discord returns it), if known."""
    resource = getattr(callback, "resource", None)
    message_id = getattr(resource, "id", None)
    return message_id if isinstance(message_id, int) else None
