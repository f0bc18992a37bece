"""Answering an interaction: one ``Reply`` each, exactly one answer, in time, through Discord's failures.

A ``Reply`` is made once, where the interaction is admitted (``admit``: the command tree's check, a component's
or a form's), and passed explicitly from there to whatever answers: a component's or a form's callback is given it
by its error decorator (``cogs.errors.answers_errors``); a slash command, whose callback discord.py calls with the
interaction, takes it once, on its first line, with ``reply_to``, and so do the error handlers. It owns everything
about the answer: the lock its answers take,
the one acknowledgement timer, whether the interaction was claimed, acknowledged late ("thinking…" public or
private), given up, whether the player's action was stored (``applied``), and the player's private message at a
table (``private``), which dresses and records its private answers.

Most answers are ready in milliseconds and go out as they are: one request, no "thinking…". When an answer is not
out ``ACK_WITHIN`` seconds after the interaction arrived (another program holds the database, the machine is
swamped), the timer acknowledges it: a slash command with Discord's "thinking…" (seen only by the user unless the
command's answer is for everyone: ``PUBLIC`` in its extras, and it is not a table move), a click or a form with a
deferred update. The answer, when it comes, takes the place of "thinking…" or follows up the click. Whoever answers
first, the timer or the table writer, claims the interaction (``claim``); an error is answered only once the late
acknowledgement is out (``settled``).

An answer is an interaction callback, which may or may not have reached Discord when its connection drops: the
transport sends it again, and Discord's "already acknowledged" (40060) to the repeat means the first one landed.
An answer Discord refuses as too late (10062, "unknown interaction") is logged as a warning and never sent again.
"""

from __future__ import annotations

import asyncio
import logging
from collections import OrderedDict
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from typing import Any, Literal, Protocol

import discord

from bot.i18n import Language, say
from bot.runtime.scheduler import background, call_after

from . import transport
from .discord_seam import mark_responded
from .failures import ALREADY_ACKNOWLEDGED, CONNECTION_ERRORS, UNKNOWN_INTERACTION
from .language import guild_language, reader_language

__all__ = ["ACK_WITHIN", "PUBLIC", "PUBLIC_ANSWER", "PrivateMessages", "Reply", "admit", "is_public",
           "release", "reply_to"]

log = logging.getLogger(__name__)

ACK_WITHIN = 1.5  # seconds after an interaction arrives by which it is acknowledged if its answer is not out
PUBLIC = "public answer"  # an application command's extras: its answer is for the channel, not only the user
PUBLIC_ANSWER = {PUBLIC: True}  # extras= of a command whose answer is for the channel
KEPT = 4096  # replies kept at most: those being answered (``release`` lets go of each once it is handled)
Response = discord.InteractionResponseType
Sender = Callable[[], Awaitable[Any]]

_REPLIES: OrderedDict[int, Reply] = OrderedDict()  # by interaction id: one process answers each interaction once


class PrivateMessages(Protocol):
    """A user's private messages at a table (``cogs.table._private``): an ephemeral answer is dressed by it (his
    cards added) and, once sent, replaces his previous one."""

    def dress(self, reply: Reply, content: str | None, fields: dict[str, Any]) -> tuple[str | None, dict[str, Any]]:
        ...

    def sent(self, reply: Reply, message_id: int | None, *, followup: bool) -> None: ...

    def updated(self, reply: Reply, *, controls: bool) -> None: ...


class _TooLate(Exception):
    """A form that would open after Discord's deadline."""


def reply_to(interaction: discord.Interaction) -> Reply:
    """The ``Reply`` of ``interaction`` (made when it was admitted; made now, without its timer, if it was not), for
    the entry points that discord.py hands the interaction alone (a slash command's callback, an error handler):
    below them the ``Reply`` is passed, not looked up. A second delivery of an interaction being answered (the same
    id, another object) gets a reply of its own, kept nowhere: the first one's stays its handler's."""
    reply = _REPLIES.get(interaction.id)
    if reply is not None and reply.interaction is interaction:
        return reply
    made = Reply(interaction)
    if reply is None:
        _REPLIES[interaction.id] = made
        while len(_REPLIES) > KEPT:
            _REPLIES.popitem(last=False)
    return made


def release(interaction: discord.Interaction) -> None:
    """The interaction's handling is over: its ``Reply`` is let go (with the interaction it holds), so that the
    replies kept are those being answered. A later ``reply_to`` makes a new one."""
    reply = _REPLIES.get(interaction.id)
    if reply is not None and reply.interaction is interaction:
        del _REPLIES[interaction.id]


def admit(interaction: discord.Interaction) -> Reply:
    """The interaction has just been admitted (delivered for the first time): its ``Reply``, made and kept until
    ``release``, whose timer acknowledges it ``ACK_WITHIN`` seconds from now unless it is answered by then. An
    autocomplete is answered at once with choices, never late: its reply is neither kept nor timed (nothing would
    let it go)."""
    if interaction.type is discord.InteractionType.autocomplete:
        return Reply(interaction)
    reply = reply_to(interaction)
    reply.arm()
    return reply


def is_public(interaction: discord.Interaction) -> bool:
    """True for a slash command whose answer is for everyone in the channel."""
    command = interaction.command
    return command is not None and bool(command.extras.get(PUBLIC))


class Reply:
    """The answer to one interaction (see the module's docstring)."""

    def __init__(self, interaction: discord.Interaction) -> None:
        self.interaction = interaction
        self.lock = asyncio.Lock()  # taken by every answer and by the late acknowledgement
        self.armed = False  # its acknowledgement timer was started
        self.claimed = False  # the first to answer it (the late acknowledgement or the table writer) said so
        self.acting = False  # handled as a table move (``answering``): acknowledged privately if late
        self.late: asyncio.Task[bool] | None = None  # the late acknowledgement, once started
        self.thinking: Literal["public", "private"] | None = None  # acknowledged late with "thinking…"
        self.given_up = False  # too late to answer (10062, or its deadline passed): nothing more is sent
        self.applied = False  # the player's action was stored (an error after it must not say otherwise)
        self.private: PrivateMessages | None = None  # the player's private message at a table, if it is one
        self.controls = False  # its private answer has buttons (a picker, a question): kept while his turn lasts

    # ------------------------------------------------------------------ state

    @property
    def user(self) -> int:
        """The id of the member who sent the interaction."""
        return self.interaction.user.id

    @property
    def language(self) -> Language:
        """The language of the member who sent the interaction (his Discord client's): his answers are in it."""
        return reader_language(self.interaction)

    def is_done(self) -> bool:
        """Answered (or acknowledged, or given up)."""
        return self.interaction.response.is_done()

    def mark_answered(self, kind: Response = Response.deferred_message_update) -> None:
        """Note that the interaction was answered (a repeat found the first answer had landed, or it is too
        late), so that nothing tries again."""
        mark_responded(self.interaction, kind)

    def give_up(self, kind: Response) -> None:
        """The interaction cannot be answered any more (too late, or Discord unreachable until its deadline):
        nothing more is sent to it, neither an answer nor a follow-up."""
        self.given_up = True
        self.mark_answered(kind)

    def seconds_left(self) -> float:
        """What is left of Discord's deadline to answer the interaction."""
        return transport.seconds_left(self.interaction.id)

    # ------------------------------------------------------------------ the acknowledgement in time

    def arm(self) -> None:
        """Acknowledge the interaction ``ACK_WITHIN`` seconds after it arrived unless it is answered by then (once:
        its one timer)."""
        if self.armed:
            return
        self.armed = True
        call_after(ACK_WITHIN, self._start_late)

    def claim(self) -> bool:
        """True for the first to answer the interaction (the table writer, or the late acknowledgement)."""
        if self.claimed or self.is_done():
            return False
        self.claimed = True
        return True

    def _start_late(self) -> None:
        if self.interaction.client.is_closed() or not self.claim():
            return
        self.late = background(self._acknowledge_late(), name=f"acknowledge {self.interaction.id}")

    async def _acknowledge_late(self) -> bool:
        done = await self.acknowledge()
        if done:
            log.info("interaction %s was acknowledged before its answer was ready", self.interaction.id)
        return done

    async def settled(self) -> None:
        """Wait until the late acknowledgement, if it was started, is out."""
        late = self.late
        if late is not None and not late.done() and late is not asyncio.current_task():
            await asyncio.wait([late])

    @asynccontextmanager
    async def answering(self) -> AsyncIterator[None]:
        """Around the handling of an interaction that acts at a table: acknowledged privately if it is late (its
        answer may show the player's cards); an error after it goes once the acknowledgement is out."""
        self.acting = True
        try:
            yield
        finally:
            await self.settled()

    async def acknowledge(self) -> bool:
        """Acknowledge the interaction now: a click or a form with a deferred update (its message is edited
        later), a command with "thinking…" (public for a public command's answer, else seen only by the
        caller). True if it is acknowledged."""
        interaction = self.interaction
        async with self.lock:
            if self.is_done() or self.given_up:
                return self.is_done()
            if interaction.type is discord.InteractionType.application_command:
                public = is_public(interaction) and not self.acting
                if await self._answer(lambda: interaction.response.defer(ephemeral=not public, thinking=True),
                                      kind=Response.deferred_channel_message):
                    self.thinking = "public" if public else "private"
                    return True
                return False
            return await self._answer(interaction.response.defer, kind=Response.deferred_message_update)

    async def defer_thinking(self, *, ephemeral: bool = False) -> None:
        """Acknowledge a slash command with "thinking…" now, unless it is already (a command that knows it takes
        a while: drawing a picture, writing a file); its answer then comes with ``send``."""
        async with self.lock:  # (its answer is the first follow-up, which Discord puts in place of "thinking…")
            if not self.is_done():
                await self._answer(lambda: self.interaction.response.defer(ephemeral=ephemeral, thinking=True),
                                   kind=Response.deferred_channel_message)

    async def _answer(self, call: Sender, *, kind: Response) -> bool:
        """Send the interaction's answer (once: the transport under it tries it again while Discord's deadline
        lasts, and takes a repeat that Discord calls already acknowledged as proof the first landed). False when it
        could not be answered: too late, or Discord unreachable (logged as a warning)."""
        interaction = self.interaction
        try:
            await call()
            return True
        except discord.InteractionResponded:  # answered meanwhile (or given up as late): never twice
            return False
        except discord.HTTPException as error:
            if error.code == ALREADY_ACKNOWLEDGED:  # answered by another path first
                self.mark_answered(kind)
                return True
            if error.code == UNKNOWN_INTERACTION:
                log.warning("interaction %s was answered too late (%s)", interaction.id, error.text or error)
                self.give_up(kind)
                return False
            raise
        except CONNECTION_ERRORS as error:
            log.warning("could not answer interaction %s: Discord is unreachable (%r)", interaction.id, error)
            self.give_up(kind)
            return False

    # ------------------------------------------------------------------ the answers

    async def update(self, **fields: Any) -> None:
        """Answer a click by editing the message it was on (once acknowledged already, by editing it through the
        interaction's webhook); raises ``ConnectionError`` if that could not be done (the caller edits the message
        another way). A private message at a table so edited stays its player's one."""
        interaction = self.interaction
        if not self.is_done() and self.late is None:
            async with self.lock:  # not while the late acknowledgement is being sent
                if not self.is_done():
                    if not await self._answer(lambda: interaction.response.edit_message(**fields),
                                              kind=Response.message_update):
                        raise ConnectionError("the interaction could not be answered with an update")
                    self._updated(fields)
                    return
        await self.settled()
        if self.given_up:  # never acknowledged (too late): its message cannot be edited
            raise ConnectionError("the interaction could not be answered in time")
        try:
            await interaction.edit_original_response(**fields)
        except (discord.HTTPException, *CONNECTION_ERRORS) as error:
            raise ConnectionError("the message of the interaction could not be edited") from error
        self._updated(fields)

    def _updated(self, fields: dict[str, Any]) -> None:
        if self.private is not None:
            self.private.updated(self, controls=fields.get("view") is not None)

    async def edit(self, **fields: Any) -> None:
        """Answer a click by editing its message, at once or through the interaction's webhook once acknowledged;
        a failure of the first is logged, not raised (the message shows what it showed)."""
        async with self.lock:
            if not self.is_done():
                await self._answer(lambda: self.interaction.response.edit_message(**fields),
                                   kind=Response.message_update)
                return
        await self.interaction.edit_original_response(**fields)

    async def send(self, content: str | None = None, *, ephemeral: bool = True, **fields: Any) -> bool:
        """Answer with a message (ephemeral unless said otherwise): at once if the interaction is not acknowledged
        yet, in place of "thinking…" if it was acknowledged late, as a follow-up otherwise. A private answer after
        a public "thinking…" goes to the user alone, and the public message says so. A private answer at a table is
        dressed and recorded by the player's private messages. False if Discord could not be reached (logged)."""
        await self.settled()
        interaction = self.interaction
        private = self.private if ephemeral else None
        if private is not None:
            content, fields = private.dress(self, content, fields)
        async with self.lock:
            if self.given_up:
                return False
            if not self.is_done():
                sent: list[Any] = []

                async def callback() -> None:
                    sent.append(await interaction.response.send_message(content, ephemeral=ephemeral, **fields))

                done = await self._answer(callback, kind=Response.channel_message)
                if done and private is not None:
                    private.sent(self, _message_id(sent[0] if sent else None), followup=False)
                return done
            thinking, self.thinking = self.thinking, None
        try:
            if thinking == "public" and ephemeral:
                # A public "thinking…" whose answer turned out private: everyone reads it, in the server's language
                # (a Reply does not know the table's).
                channel = guild_language(interaction)
                await interaction.edit_original_response(
                    content=say(channel, "Not done: only {user} is told why.", user=interaction.user.mention),
                    allowed_mentions=discord.AllowedMentions.none())
                thinking = None
            if thinking is not None:
                await interaction.edit_original_response(content=content, **_as_edit(fields))
                if private is not None:
                    private.sent(self, None, followup=False)
            else:
                message = await interaction.followup.send(content or "", ephemeral=ephemeral, wait=True, **fields)
                if private is not None:
                    private.sent(self, message.id, followup=True)
            return True
        except (TimeoutError, discord.HTTPException, OSError) as error:
            log.warning("could not send the answer to interaction %s (%r)", interaction.id, error)
            return False

    async def modal(self, modal: discord.ui.Modal) -> bool:
        """Open a form. A form cannot be deferred, so one that would land after Discord's deadline (a long rate
        limit wait) is given up instead of sent late."""
        left = min(transport.DEADLINE, self.seconds_left())

        async def send() -> None:
            try:
                async with asyncio.timeout(max(0.05, left - 0.1)):
                    await self.interaction.response.send_modal(modal)
            except TimeoutError:
                raise _TooLate from None

        try:
            async with self.lock:
                if self.is_done():  # acknowledged meanwhile (a form cannot follow): given up
                    return False
                return await self._answer(send, kind=Response.modal)
        except _TooLate:
            log.warning("interaction %s: the form could not be opened in time", self.interaction.id)
            self.give_up(Response.modal)
            return False


def _as_edit(fields: dict[str, Any]) -> dict[str, Any]:
    """``send_message``'s keywords as ``edit_original_response``'s (files become attachments)."""
    edit = {k: v for k, v in fields.items() if k not in ("ephemeral", "file", "files", "silent", "suppress_embeds")}
    files = list(fields.get("files") or []) + ([fields["file"]] if fields.get("file") else [])
    if files:
        edit["attachments"] = files
    return edit


def _message_id(callback: Any) -> int | None:
    """The id of the message an interaction callback created (Discord returns it), if known."""
    resource = getattr(callback, "resource", None)
    message_id = getattr(resource, "id", None)
    return message_id if isinstance(message_id, int) else None

