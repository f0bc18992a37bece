"""The writer of one table's message: one write at a time, always of the newest state, until it is shown.

A busy table coalesces its edits (states asked for while a write is in flight are skipped, the last one is
shown) and stays under Discord's per-channel rate limit instead of queueing behind it. A click on the table
message is answered with the table itself (an interaction update, which costs no channel edit) unless a write is
in flight; then it is acknowledged at once and the writer shows its result.

A write that Discord fails (a 5xx, a dropped connection, a timeout) is tried again, with growing pauses, until
the message shows the current state: a table never stands still waiting for a click. A message that cannot be
edited any more is posted again. Each hand gets its own message: ``turn_page`` posts the next one and reduces
the previous one to its one-line summary, in that order, so the buttons are always on the newest message.

Discord's global limit (50 requests/s a bot) counts channel edits but not the interaction endpoints, so a
write edits the message through the token of the last click answered on it (``Handles``: an update or a
deferred one, whose original response is that message) while the token is young, and edits the channel
message only without one: a draw thrown from the picker, or a clock running out, then costs no global call.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from dataclasses import dataclass
from typing import Any, Protocol

import discord

from bot.i18n import Language, say
from bot.runtime.scheduler import Scheduler
from bot.tables import TableError

from ..reply import Reply
from ..store_retry import DATABASE_REFUSALS
from ..transport import DISCORD_ERRORS, show_again_in
from ._ratelimit import edit_pause

log = logging.getLogger(__name__)

WRITING = "table message"  # the writer's task, in its table's scheduler
CLICK_GRACE = 0.4  # seconds a click on the table message waits for a write in flight before it is just acknowledged
MISSING_ACCESS, MISSING_PERMISSIONS = 50001, 50013
UNKNOWN_MESSAGE = 10008
UPDATES = (discord.InteractionResponseType.message_update, discord.InteractionResponseType.deferred_message_update)
TOKEN_REUSE = 13 * 60.0  # seconds after a click its token edits the table message (Discord: it lasts 15 minutes)


class CannotPost(TableError):
    """The bot may not post or edit the table message in the table's channel; the message says what to grant."""


@dataclass(frozen=True, slots=True)
class Rendered:
    """The table message at one moment, and what it shows (``token``: handed back to ``Surface.shown``)."""

    embed: discord.Embed
    view: discord.ui.View
    token: Any = None
    content: str | None = None  # above the embed (a flop game's board, large); None: the message has none

    def fields(self) -> dict[str, Any]:
        """The message's fields to send or edit."""
        fields: dict[str, Any] = {"embed": self.embed, "view": self.view}
        if self.content is not None:
            fields["content"] = self.content
        return fields


class Surface(Protocol):
    """What the writer shows and where: the table's presenter (``_presenter.TablePresenter``) answers these."""

    @property
    def channel_id(self) -> int:
        """The table's channel."""

    def render(self) -> Rendered:
        """The table message as the table is now."""

    def shown(self, token: Any) -> None:
        """A rendering is on screen now (the player to act sees his turn: his clock may start)."""

    @property
    def message_id(self) -> int | None:
        """The table message, if it has been posted."""

    async def remember_message(self, message_id: int | None) -> None:
        """Store the table message's id (None: it is gone)."""

    @property
    def message_nonce(self) -> str | None:
        """The nonce of a new table message being posted (stored before the post), or None."""

    async def remember_post(self, nonce: str) -> None:
        """Store the nonce of the table message about to be posted."""

    def is_open(self) -> bool:
        """False once the table is closed (or the bot is stopping): nothing more is written."""

    @property
    def language(self) -> Language:
        """What everyone at the table reads in."""

    def permission_text(self, *, lang: Language) -> str:
        """What to grant the bot so that it can show the table in its channel, in ``lang``."""


@dataclass(slots=True)
class _Waiter:
    version: int
    future: asyncio.Future[None]


@dataclass(slots=True)
class _PageTurn:
    old_message: int | None  # the previous page, to reduce to its summary once the new one is posted
    summary: discord.Embed | None


def token_usable(interaction: discord.Interaction) -> bool:
    """Whether ``interaction``'s token may still be used later on (for ``TOKEN_REUSE`` seconds after the click)."""
    return (discord.utils.utcnow() - interaction.created_at).total_seconds() < TOKEN_REUSE


class Handles:
    """The last click answered on each of the table's messages (the current one and the page before): the
    interaction whose token edits that message for ``TOKEN_REUSE`` seconds after the click."""

    KEPT = 2

    def __init__(self) -> None:
        self._by_message: dict[int, discord.Interaction] = {}

    def remember(self, reply: Reply) -> None:
        """``reply``'s interaction, a click on one of the table's messages, was answered with an update (or
        deferred)."""
        interaction = reply.interaction
        message = interaction.message
        if message is None or reply.given_up or interaction.response.type not in UPDATES:
            return  # not answered with its message (or given up as late): its token edits nothing of the table
        self._by_message.pop(message.id, None)
        self._by_message[message.id] = interaction
        while len(self._by_message) > self.KEPT:
            del self._by_message[next(iter(self._by_message))]

    def get(self, message_id: int | None) -> discord.Interaction | None:
        """A click whose token may still edit ``message_id``, if any."""
        interaction = self._by_message.get(message_id) if message_id is not None else None
        if interaction is None:
            return None
        if not token_usable(interaction):
            del self._by_message[message_id]  # type: ignore[arg-type]
            return None
        return interaction

    def forget(self, message_id: int) -> None:
        """That token failed: the channel edit it is."""
        self._by_message.pop(message_id, None)


class TableWriter:
    """The table message of one table: versions asked for and written, at most one write in flight."""

    def __init__(self, surface: Surface, bot: discord.Client, scheduler: Scheduler) -> None:
        self.surface = surface
        self.scheduler = scheduler  # its table's: the writes stop with the table
        self.bot = bot
        self.wanted = 0  # versions asked for (each publish asks for one)
        self.written = 0  # every version up to this one is shown (a write renders the table as it is when it starts)
        self.busy = False  # a write (channel edit or post, or an interaction's update) is in flight
        self.claims = 0  # clicks waiting to answer with the table: the writer lets them go first
        self.idle = asyncio.Event()
        self.idle.set()
        self.task: asyncio.Task[None] | None = None
        self.waiters: list[_Waiter] = []
        self.closed = False
        self.page: _PageTurn | None = None  # a new page to post at the next write
        self.failures = 0  # writes failed in a row
        self.writes = 0  # writes of the table message (edits and posts), through a token or the channel
        self.token_edits = 0  # of them, edits through a click's token (not under the global limit)
        self.handles = Handles()
        self.updates = 0  # clicks answered with the table
        self.last_write: float | None = None  # loop time of the last channel write

    def _set_busy(self, busy: bool) -> None:
        self.busy = busy
        if busy:
            self.idle.clear()
        else:
            self.idle.set()

    def _settle(self, error: BaseException | None = None) -> None:
        """Release the publishers waiting for a version now shown (all of them, with ``error``, on a failure)."""
        keep = []
        for waiter in self.waiters:
            if waiter.future.done():
                continue
            if error is not None:
                waiter.future.set_exception(error)
            elif waiter.version <= self.written or self.closed:
                waiter.future.set_result(None)
            else:
                keep.append(waiter)
        self.waiters = keep

    def turn_page(self, summary: discord.Embed | None) -> None:
        """The next write posts a new table message; the current one then becomes ``summary`` (no buttons)."""
        if self.page is None:
            self.page = _PageTurn(self.surface.message_id, summary)
        elif summary is not None:
            self.page.summary = summary

    async def publish(self, reply: Reply | None = None) -> None:
        """Show the table as it is now, and return once it is shown (or coalesced into a write in flight).

        ``reply``'s interaction, a click or form on the table, is answered: with the table itself when no write is
        in flight (or one lands within ``CLICK_GRACE``), else acknowledged at once (the writer shows the table).
        Raises ``CannotPost`` when the bot may not post in the channel (whoever asked is told what to grant).
        """
        if self.closed or not self.surface.is_open():
            return
        self.wanted += 1
        version = self.wanted
        if reply is not None and reply.claim():
            if await self._answer_with_table(reply):
                self._kick()
                return
            if not reply.is_done():  # (a late answer is given up: nothing more is sent)
                await reply.acknowledge()  # the writer edits the table message
        message = reply.interaction.message if reply is not None else None
        if reply is not None and message is not None and message.id == self.surface.message_id:
            self.handles.remember(reply)  # acknowledged here or by its deadline guard: the newest token
        if self.written >= version:
            return
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.waiters.append(_Waiter(version, future))
        self._kick()
        await future

    def refresh(self) -> None:
        """Show the table again in the background (after a restart)."""
        if self.closed or not self.surface.is_open():
            return
        self.wanted += 1
        self._kick()

    async def _answer_with_table(self, reply: Reply) -> bool:
        """Answer a click on the table message with the table (an interaction update): True if answered."""
        message = reply.interaction.message
        if message is None or message.id != self.surface.message_id or self.page is not None:
            return False  # a click on an older copy, or a new page is due: the writer posts and edits
        if self.busy:
            self.claims += 1
            try:
                await asyncio.wait_for(self.idle.wait(), CLICK_GRACE)
            except TimeoutError:
                return False
            finally:
                self.claims -= 1
            if not self.idle.is_set() or message.id != self.surface.message_id or self.page is not None:
                return False
        upto = self.wanted
        self._set_busy(True)
        try:
            rendered = self.surface.render()
            await reply.update(**rendered.fields())
        except DISCORD_ERRORS as error:
            log.warning("could not answer interaction %s with the table (%r); the message is edited instead",
                        reply.interaction.id, error)
            return False
        finally:
            self._set_busy(False)
        self.updates += 1
        self.handles.remember(reply)
        self.written = max(self.written, upto)
        self.surface.shown(rendered.token)
        self._settle()
        return True

    def _kick(self) -> None:
        """Start the writer if a version is still to be shown and nothing is being written."""
        if self.task is None and not self.busy and not self.closed and self.written < self.wanted \
                and self.surface.is_open():
            self.task = self.scheduler.schedule(WRITING, self._write_loop())

    async def _write_loop(self) -> None:
        """Write the newest state until every version asked for is shown; the versions asked for while a write
        is in flight are coalesced into the next write. A failed write is tried again after a pause."""
        try:
            await asyncio.sleep(0)  # the publishes of this same moment join this write
            while self.written < self.wanted and not self.busy and not self.claims:
                if not self.surface.is_open():
                    self.closed = True
                    break
                loop = asyncio.get_running_loop()
                pause = edit_pause(self.bot.http, self.surface.channel_id, loop.time(), self.last_write)
                if pause > 0:  # not busy meanwhile: a click is answered with the table, and may make this needless
                    await asyncio.sleep(pause)
                    continue
                upto = self.wanted
                self._set_busy(True)
                self.last_write = loop.time()
                try:
                    rendered = await self._write_table()
                except CannotPost as error:
                    self.written = upto
                    self._settle(error)
                    continue
                except Exception as error:
                    self.failures += 1
                    wait = show_again_in(self.failures)
                    if isinstance(error, (*DISCORD_ERRORS, *DATABASE_REFUSALS)):  # not a bug: no traceback
                        log.warning("could not show the table in channel %s (try %d, %r); trying again in %ss",
                                    self.surface.channel_id, self.failures, error, wait)
                    else:
                        log.exception("could not show the table in channel %s (try %d); trying again in %ss",
                                      self.surface.channel_id, self.failures, wait)
                    self._set_busy(False)
                    await asyncio.sleep(wait)
                    continue
                finally:
                    self._set_busy(False)
                self.failures = 0
                self.written = max(self.written, upto)
                self.surface.shown(rendered.token)
                self._settle()
        finally:
            self.task = None
            self._settle()
            if self.claims == 0 and not self.closed:
                self._kick_later()

    def _kick_later(self) -> None:
        """When the writer stopped with a version still to show (it let a click go first, and the click did not
        answer with the table after all): start it again."""
        if self.written < self.wanted and not self.busy:
            asyncio.get_running_loop().call_soon(self._kick)

    async def _write_table(self) -> Rendered:
        """One write: a new page (posted, then the old one reduced to its summary), or an edit of the table
        message (posted again if it is gone or can no longer be edited). Raises what Discord failed.

        A post is idempotent: its nonce is stored first and sent with ``enforce_nonce``, so a post repeated after
        a dropped connection, or by the next bot after a crash between the post and the store, is answered with
        the message already made instead of making a second one."""
        channel = self.bot.get_partial_messageable(self.surface.channel_id)
        rendered = self.surface.render()
        page, message_id, pending = self.page, self.surface.message_id, self.surface.message_nonce
        if pending is not None and page is None:  # a post was under way when the bot stopped: finish it
            page = _PageTurn(message_id, None)
        if page is None and message_id is not None:
            if await self._edit_by_token(message_id, **rendered.fields()):
                return rendered
            try:
                self.writes += 1
                await channel.get_partial_message(message_id).edit(**rendered.fields())
                return rendered
            except discord.NotFound:  # deleted by someone: the table is posted again
                if self.surface.message_id == message_id:
                    await self.surface.remember_message(None)
            except discord.Forbidden as error:
                self._cannot_post(error)
        nonce = pending or secrets.token_hex(12)
        if pending is None:
            await self.surface.remember_post(nonce)
        try:
            self.writes += 1
            message = await channel.send(**rendered.fields(), nonce=nonce)
            if pending is not None:  # the message found again may show an older moment: show this one
                await message.edit(**rendered.fields())
        except discord.Forbidden as error:
            self._cannot_post(error)
            raise
        await self.surface.remember_message(message.id)
        if page is not None:
            self.page = None
            if page.old_message is not None and page.old_message != message.id:
                await self._retire(page.old_message, page.summary or self._over())
        return rendered

    def _over(self) -> discord.Embed:
        """The old page of a hand whose summary was lost in a crash."""
        lang = self.surface.language
        return discord.Embed(description=say(lang, "This hand is over."), colour=discord.Colour.dark_grey())

    async def _edit_by_token(self, message_id: int, **fields: Any) -> bool:
        """Edit ``message_id`` through the token of the last click answered on it: True if done. A failure (the
        token refused, the message gone, the connection) is logged, and the caller edits the channel message."""
        interaction = self.handles.get(message_id)
        if interaction is None:
            return False
        try:
            self.writes += 1
            await interaction.edit_original_response(**fields)
        except DISCORD_ERRORS as error:
            self.handles.forget(message_id)
            log.info("could not edit table message %s through interaction %s (%r): edited in the channel",
                     message_id, interaction.id, error)
            return False
        self.token_edits += 1
        return True

    def _cannot_post(self, error: discord.Forbidden) -> None:
        if error.code in (MISSING_ACCESS, MISSING_PERMISSIONS):
            raise CannotPost(self.surface.permission_text(lang=self.surface.language)) from None

    async def _retire(self, message_id: int, summary: discord.Embed | None) -> None:
        """The previous page: its summary, no buttons, no large board above it (a failure is logged: the new page
        is up already)."""
        channel = self.bot.get_partial_messageable(self.surface.channel_id)
        embeds = [summary] if summary is not None else []
        if await self._edit_by_token(message_id, content="", embeds=embeds, view=None):
            return

        try:
            await channel.get_partial_message(message_id).edit(content="", embeds=embeds, view=None)
        except discord.NotFound:
            pass
        except DISCORD_ERRORS as error:
            log.warning("could not reduce the old table message %s to its summary (%r)", message_id, error)

    async def quiet(self, timeout: float = 10.0) -> None:
        """Wait until no write of the table message is in flight (before an edit of it by hand). A closed table's
        writer that is only waiting for its turn under the rate limit is stopped instead."""
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(timeout):
                while self.busy or self.task is not None:
                    task = self.task
                    if task is not None and self.closed and not self.busy:
                        task.cancel()
                    if task is not None:
                        await asyncio.wait({task})
                    else:
                        await self.idle.wait()

    async def close(self) -> None:
        """No more writes: the one in flight ends (or, waiting for its turn, is stopped), then waiters are freed."""
        self.closed = True
        await self.quiet()
        self._settle()

    def stop(self) -> None:
        """Write no more (the bot is stopping: the write in flight is cancelled with its table's other tasks, by
        ``TableRunner.stop``); the publishers waiting are freed."""
        self.closed = True
        self._settle()

    async def edit(self, message_id: int, embed: discord.Embed) -> bool:
        """Edit one of the table's messages by hand (closed, moved), after the writes in flight; failures logged.
        True once the message shows ``embed`` (or is gone)."""
        channel = self.bot.get_partial_messageable(self.surface.channel_id)
        await self.quiet()
        if await self._edit_by_token(message_id, embed=embed, view=None):
            return True

        try:
            await channel.get_partial_message(message_id).edit(embed=embed, view=None)
            return True
        except discord.NotFound:  # deleted: it shows nothing any more
            return True
        except DISCORD_ERRORS as error:
            log.warning("could not edit the table message %s (%r)", message_id, error)
            return False
