"""Each planned night's course, one task per night: it waits (on :mod:`.clock`) for its next step, as
``bot.planning.next_step`` says from the stored night, and takes it: the reminders, then the start (the table
opens, the channel is told, the event marked active); a night the bot missed whole is marked so. A member who
marks the event Interested (or unmarks it) is heard of through the gateway within seconds (``heard``): the event's
members are read again and the sign-up message shows them. As a fallback (an event lost while the bot was
disconnected), while it waits it reads the event's Interested members and sends the reminders due (a sign-up after
the reminder time, one that failed) every ``SYNC_EVERY`` seconds, and reads the event again at each step.

Everything is read again from the store at each step, so a task started after a restart takes up where the last
one stopped: a reminder marked handled is never sent again, and a night whose start has passed opens at once.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

import discord

from bot.planning import due_reminders, next_step
from bot.runtime.scheduler import Scheduler
from bot.store import PlanClosed, PlanRecord
from bot.store.plans import PlanStatus
from bot.tables import Table
from cogs import plan_clock as clock
from cogs.failures import DISCORD_ERRORS

from . import _events, _table
from ._events import ACTIVE, CANCELED, COMPLETED
from ._message import reminder_text, signup_embed, signup_view, start_text

if TYPE_CHECKING:
    from cogs.app import PokerBot

log = logging.getLogger(__name__)

SYNC_EVERY = 10 * 60  # seconds between two looks at a waiting night (its event's Interested, reminders due)
RETRY_PAUSE = 30.0  # real seconds before a step that failed is tried again
CLOSED_DMS = 50007
OPEN: tuple[PlanStatus, ...] = ("open",)
PLANNED: tuple[PlanStatus, ...] = ("planned",)


class Runner:
    """The planned nights' tasks of one bot."""

    def __init__(self, bot: PokerBot) -> None:
        self.bot = bot
        self.scheduler = Scheduler("planned nights")  # each night's course under its plan id; the tables' ends
        self.stopped = False
        self._syncing: dict[int, asyncio.Lock] = {}  # one read-and-store of a night's Interested at a time

    # ------------------------------------------------------------------ the tasks

    def follow(self, plan_id: int) -> None:
        """Run the night's course (again, from where the store says it is)."""
        if not self.stopped:
            self.scheduler.schedule(plan_id, self._course(plan_id))  # in place of the one before

    def drop(self, plan_id: int) -> None:
        """Stop following the night (cancelled)."""
        self.scheduler.cancel(plan_id)

    def following(self, plan_id: int) -> bool:
        """True while the night's course runs."""
        return plan_id in self.scheduler

    def stop(self) -> list[asyncio.Task[Any]]:
        """Stop every task (the bot is stopping); returns them, to be waited for."""
        self.stopped = True
        return self.scheduler.cancel_all()

    async def _course(self, plan_id: int) -> None:
        while not self.stopped:
            try:
                if await self._step(plan_id):
                    break
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("planned night %s: a step failed; it is tried again in %.0f s", plan_id, RETRY_PAUSE)
                await asyncio.sleep(RETRY_PAUSE)

    async def _step(self, plan_id: int) -> bool:
        """Wait for the night's next step and take it; True when the night needs its task no more."""
        plan = await self.bot.store.get_plan(plan_id)
        if plan.status != "planned":
            return True
        step = next_step(plan.starts_at, plan.remind_minutes, plan.reminded, clock.now())
        if step.kind == "missed":
            await self.missed(plan)
            return True
        if clock.now() < step.at:
            await clock.sleep_until(min(step.at, clock.now() + SYNC_EVERY))
            if clock.now() < step.at:  # a look between the steps: the event's Interested, the reminders due
                await self.sync(plan_id)
                await self.remind(plan_id)
                return False
        await self.sync(plan_id)  # the moments that matter read the event again
        if step.kind == "remind":
            await self.remind(plan_id)
            await self.bot.store.reminders_done(plan_id)
            return False
        await self.start(plan_id)
        return True

    # ------------------------------------------------------------------ the steps

    async def sync(self, plan_id: int) -> None:
        """Read the event's Interested members into the night; show the sign-up message again if that changed
        who is in. One at a time per night: an older read stored after a newer one would undo it."""
        lock = self._syncing.setdefault(plan_id, asyncio.Lock())
        async with lock:
            plan = await self.bot.store.get_plan(plan_id)
            found = await _events.interested(self.bot, plan)
            if found is None:
                return
            changed, _ = await self.bot.store.sync_interested(plan_id, found)
            if changed.signups != plan.signups:
                await self.refresh(changed)

    async def heard(self, guild_id: int, event_id: int) -> None:
        """A member marked the Discord event ``event_id`` Interested, or unmarked it (the gateway says so): the
        planned night it belongs to, if any, reads its event's members now, and reminds a newcomer whose reminder
        is due."""
        for plan in await self.bot.store.plans(guild=guild_id, statuses=PLANNED):
            if plan.event_id != event_id or not self.following(plan.id):
                continue
            try:
                await self.sync(plan.id)
                await self.remind(plan.id)
            except Exception:  # the night's own course reads the event again at its next look
                log.exception("planned night %s: its event's Interested members could not be taken in", plan.id)

    async def remind(self, plan_id: int) -> None:
        """DM every member whose reminder is due (each once: marked before it is sent), unless he turned alerts
        off (``/poker alerts``); in his language (as his last interaction showed it, else the channel's)."""
        plan = await self.bot.store.get_plan(plan_id)
        for user in due_reminders(plan.signups, plan.starts_at, plan.remind_minutes, clock.now()):
            if not await self.bot.store.mark_reminded(plan_id, user):
                continue  # handled already (by another path, or before a restart)
            if await self.bot.store.turn_alerts(plan.guild_id, user):
                lang = self.bot.member_languages.of(user, _table.language(self.bot, plan))
                await self.dm(user, reminder_text(plan, user, lang=lang))

    async def dm(self, user: int, text: str) -> None:
        """A DM that may fail (closed DMs, Discord down): logged, never raised."""
        try:
            channel = await self.bot.create_dm(discord.Object(user))
            await channel.send(text)
        except discord.Forbidden as error:
            if error.code != CLOSED_DMS:
                log.warning("could not DM member %s (%r)", user, error)
        except DISCORD_ERRORS as error:
            log.warning("could not DM member %s (%r)", user, error)

    async def start(self, plan_id: int) -> None:
        """The start: the table opens with the planned settings (seats held for those who signed up), the
        channel is told, the event marked active, the sign-up message shows it."""
        plan = await self.bot.store.get_plan(plan_id)
        table = await _table.open_table(self.bot, plan)
        try:
            plan = await self.bot.store.open_plan(plan_id, table.id)
        except PlanClosed:  # cancelled meanwhile
            return
        held = _table.hold_seats(table, plan)
        await _table.show(self.bot, table)
        await self.post(plan, start_text(plan, held, lang=_table.language(self.bot, plan)), mentions=True)
        await self.event_status(plan, ACTIVE)
        await self.refresh(plan)

    async def missed(self, plan: PlanRecord) -> None:
        """The bot was away for the whole night: nothing opens; the sign-up message says so."""
        plan = await self.bot.store.end_plan(plan.id, "missed")
        await self.event_status(plan, CANCELED)
        await self.refresh(plan)

    async def ended(self, plan_id: int) -> None:
        """The night's table closed: the night is over, its event completed."""
        try:
            plan = await self.bot.store.end_plan(plan_id, "done")
        except PlanClosed:
            return
        await self.event_status(plan, COMPLETED)
        await self.refresh(plan)

    # ------------------------------------------------------------------ Discord

    async def event_status(self, plan: PlanRecord, status: int) -> None:
        """Move the event; a night whose event is gone forgets it."""
        if not await _events.set_status(self.bot, plan, status):
            await self.bot.store.set_plan_event(plan.id, None)

    async def refresh(self, plan: PlanRecord) -> None:
        """Show the sign-up message as the night is now, in the channel's language (a message gone is not posted
        again)."""
        if plan.message_id is None:
            return
        message = self.bot.get_partial_messageable(plan.channel_id).get_partial_message(plan.message_id)
        lang = _table.language(self.bot, plan)
        await self._discord(message.edit(embed=signup_embed(plan, lang=lang), view=signup_view(plan, lang=lang),
                                         allowed_mentions=discord.AllowedMentions.none()),
                            f"plan {plan.id}: its sign-up message could not be shown")

    async def post(self, plan: PlanRecord, text: str, *, mentions: bool) -> None:
        """A message in the night's channel (naming its players, pinging them if ``mentions``)."""
        channel = self.bot.get_partial_messageable(plan.channel_id)
        allowed = discord.AllowedMentions(users=True, everyone=False, roles=False) if mentions \
            else discord.AllowedMentions.none()
        await self._discord(channel.send(text, allowed_mentions=allowed), f"plan {plan.id}: could not post")

    @staticmethod
    async def _discord(call: Awaitable[object], what: str) -> None:
        try:
            await call
        except DISCORD_ERRORS as error:
            log.warning("%s (%r)", what, error)


def on_close(runner: Runner, bot: PokerBot) -> Callable[[Table], None]:
    """The table registry's listener: a closed table ends the night it was opened for."""

    def closed(table: Table) -> None:
        if not runner.stopped:
            runner.scheduler.schedule(("ending", table.id), _end_nights_of(runner, bot, table.id))

    return closed


async def _end_nights_of(runner: Runner, bot: PokerBot, table_id: int) -> None:
    try:
        for plan in await bot.store.plans(table=table_id, statuses=OPEN):
            await runner.ended(plan.id)
    except Exception:
        log.exception("the nights of table %s could not be ended", table_id)

