"""One table in Discord: its message writer, its clock, its next deal, its recent lines and pending choice.

Rules are not decided here: every change goes to ``bot.tables.Table``, which asks the engine and writes
through the store, and returns an ``Outcome`` that says what happened and what the table waits for next. A
session shows outcomes (``show``): the log lines, the table message, the showdown, the private hands, and the
clock or the deal that comes next.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable

import discord

from bot import render
from bot.poker import Card, Dealt, Hand, IllegalAction
from bot.store import StoreError
from bot.tables import Outcome, Table, TableError

from . import _screen
from ._answers import Answers
from ._dms import DmSender
from ._transport import DISCORD_ERRORS, retrying
from ._writer import CannotPost, TableWriter

log = logging.getLogger(__name__)

MAX_LOG_LINES = _screen.MAX_LOG_LINES
NEEDED_PERMISSIONS = {"view_channel": "View Channel", "send_messages": "Send Messages", "embed_links": "Embed Links"}


class TableSession:
    """The Discord side of one table; the table cog keeps one per open table."""

    def __init__(self, bot: discord.Client, table: Table, *, answers: Answers, dms: DmSender,
                 next_hand_delay: float, is_open: Callable[[Table], bool]) -> None:
        self.bot = bot
        self.table = table
        self.dms = dms
        self.next_hand_delay = next_hand_delay
        self._is_open = is_open
        self.recent: list[str] = []
        self.pending_structure: str | None = None  # dealer's choice: picked for the next deal
        self.deadline: float | None = None  # when the running clock runs out (Unix time)
        self.clock: asyncio.Task[None] | None = None
        self.dealing: asyncio.Task[None] | None = None
        self.stopped = False
        self.writer = TableWriter(self, bot, answers)

    # ------------------------------------------------------------------ what the writer shows (its Surface)

    @property
    def channel_id(self) -> int:
        """The table's channel."""
        return self.table.record.channel_id

    @property
    def message_id(self) -> int | None:
        """The table message, if posted."""
        return self.table.message_id

    async def remember_message(self, message_id: int | None) -> None:
        """Store the table message's id."""
        await self.table.remember_message(message_id)

    def is_open(self) -> bool:
        """False once the table is closed or the bot is stopping."""
        return not self.stopped and self._is_open(self.table)

    def screen(self) -> _screen.Screen:
        """What the message shows besides the table: the log, the clock, the dealer's pending structure."""
        return _screen.Screen(recent=tuple(self.recent[-MAX_LOG_LINES:]), deadline=self.deadline,
                              pending_structure=self.pending_structure,
                              choice_number=(self.table.record.button or 0) * 1000 + len(self.recent))

    def render(self) -> tuple[discord.Embed, discord.ui.View]:
        """The table message as the table is now."""
        screen = self.screen()
        return _screen.embed(self.table, screen), _screen.view(self.table, screen)

    def permission_text(self) -> str:
        """What to grant the bot so that it can show a table in the channel."""
        missing = list(NEEDED_PERMISSIONS.values())
        channel = self.bot.get_channel(self.channel_id)
        if isinstance(channel, discord.abc.GuildChannel) and channel.guild.me is not None:
            perms = channel.permissions_for(channel.guild.me)
            lacking = [label for name, label in NEEDED_PERMISSIONS.items() if not getattr(perms, name)]
            missing = lacking or missing
        names = ", ".join(f"**{m}**" for m in missing[:-1]) + (" and " if len(missing) > 1 else "") + \
            f"**{missing[-1]}**"
        return (f"I cannot post the table in <#{self.channel_id}>: please grant me {names} in that channel "
                "(Edit Channel → Permissions), then use `/poker table`.")

    # ------------------------------------------------------------------ showing

    async def publish(self, interaction: discord.Interaction | None = None) -> None:
        """Show the table as it is now (answering ``interaction`` with it when it can)."""
        await self.writer.publish(interaction)

    def note(self, line: str) -> None:
        """Add a line to the table's recent actions."""
        self.recent.append(line)
        del self.recent[:-MAX_LOG_LINES]

    async def post(self, text: str) -> None:
        """Post a line in the table's channel (a showdown, a notice); a failure is logged, not raised."""
        channel = self.bot.get_partial_messageable(self.channel_id)
        try:
            await retrying(lambda: channel.send(text[:2000], allowed_mentions=discord.AllowedMentions.none()),
                           closed=self.bot.is_closed)
        except DISCORD_ERRORS:
            log.warning("could not post in channel %s", self.channel_id, exc_info=True)

    def log_events(self, outcome: Outcome) -> None:
        """The public lines of an outcome's events, into the recent actions."""
        hand = outcome.hand
        if hand is None:
            return
        for event in outcome.events:
            line = render.event_line(event, outcome.users, hand)
            if line:
                self.note(line)

    async def show(self, outcome: Outcome, interaction: discord.Interaction | None = None) -> None:
        """Show what a change did, then start what comes next: the clock of the player to act, the dealer's
        choice, or the next deal."""
        if outcome.timed_out is not None:
            self.note(f"{render.mention(outcome.timed_out)} ran out of time")
        self.log_events(outcome)
        if outcome.hand_over:
            self.cancel_clock()
            await self.publish(interaction)
            await self.post_showdown()
            self.schedule_deal()
            return
        if outcome.next.kind == "act":
            self.arm_clock()
        await self.publish(interaction)

    async def post_showdown(self) -> None:
        """Post the end of the hand: hands shown, pots won, carried chips."""
        hand = self.table.last_hand
        if hand is None:
            return
        text = render.showdown(hand, self.table.last_users)
        if text:
            await self.post(text)

    # ------------------------------------------------------------------ dealing

    def schedule_deal(self, delay: float | None = None) -> None:
        """Deal the next hand (or ask for the dealer's choice) after a pause."""
        if self.table.paused or self.stopped:
            return
        if self.dealing is not None:
            self.dealing.cancel()
        wait = self.next_hand_delay if delay is None else delay
        self.dealing = asyncio.create_task(self._deal_later(wait))

    async def _deal_later(self, delay: float) -> None:
        try:
            await asyncio.sleep(delay)
            await self.deal()
        except asyncio.CancelledError:
            raise
        except CannotPost:
            log.warning("table %s: dealt, but the table message cannot be shown", self.table.id, exc_info=True)
        except TableError as error:  # paused, or players gone, while the deal waited for the table
            log.info("table %s: no deal: %s", self.table.id, error)
        except Exception:
            if not self.stopped:  # else the store closed under it: the deal is made after the restart
                log.exception("could not deal at table %s", self.table.id)

    async def deal(self) -> None:
        """Start the next hand, or ask the button for the dealer's choice, as the table says."""
        if not self.is_open():
            return
        step = self.table.next()
        if step.kind == "idle":
            if step.reason == "players":
                self.note("Waiting for at least two players with chips.")
                await self.publish()
            return
        if step.kind == "choose":
            await self.publish()
            self.arm_choice_clock()
            return
        if step.kind == "deal":
            await self.hand_started(await self.table.start_hand(), None)

    async def hand_started(self, outcome: Outcome, interaction: discord.Interaction | None) -> None:
        """A new hand: private hands by DM, the table message, the clock."""
        live = self.table.live
        if live is None:
            return
        self.pending_structure = None  # used by this deal, or not chosen in time
        self.note(f"Hand #{live.record.number}: {live.hand.game.name}")
        self.arm_clock()
        hand = live.hand
        dms = [self.send_dm(user, self.private_text(hand, seat)) for seat, user in enumerate(live.users)]
        # The cards go out while the table is shown (a slow or failing edit does not hold them up), and even if
        # the table cannot be shown.
        shown, *_ = await asyncio.gather(self.publish(interaction), *dms, return_exceptions=True)
        if isinstance(shown, BaseException):
            raise shown

    # ------------------------------------------------------------------ private hands

    def hand_text(self, user: int) -> str:
        """A player's own cards (ephemeral), or why there are none."""
        table = self.table
        seat = table.engine_seat(user)
        if table.hand is None or seat is None:
            return "You have no cards: you are not in the hand being played."
        if table.hand.folded[seat]:
            return "You folded this hand."
        return render.private_hand(table.hand, seat)

    def private_text(self, hand: Hand, seat: int) -> str:
        """The DM of a player's cards in ``hand``."""
        return f"Table <#{self.channel_id}>, {hand.game.name}: {render.private_hand(hand, seat)}"

    async def send_dm(self, user: int, text: str) -> None:
        """DM a player (see ``DmSender.send``)."""
        await self.dms.send(self.table, user, text, self.post)

    @staticmethod
    def drawn_cards(outcome: Outcome, seat: int | None) -> list[Card]:
        """The cards an outcome dealt to ``seat`` (a draw's replacements)."""
        return [c for e in outcome.events if isinstance(e, Dealt) and e.player == seat for c in e.cards]

    # ------------------------------------------------------------------ clocks

    def arm_clock(self, elapsed: float = 0.0) -> None:
        """Start the clock of the player to act (RULES.md section 5), ``elapsed`` seconds of it already gone."""
        self.cancel_clock()
        if self.table.live is None or self.table.actor() is None or self.stopped:
            return
        seconds = max(0.0, self.table.settings.clock - elapsed)
        self.deadline = time.time() + seconds
        self.clock = asyncio.create_task(self._expire(self.table.next_seq(), seconds))

    def arm_choice_clock(self) -> None:
        """Dealer's choice: deal the previous game if the chooser does not pick in time."""
        self.cancel_clock()
        if self.stopped:
            return
        seconds = self.table.settings.clock
        self.deadline = time.time() + seconds
        self.clock = asyncio.create_task(self._choice_expires(seconds))

    def cancel_clock(self) -> None:
        """Stop the table's clock."""
        task, self.clock, self.deadline = self.clock, None, None
        if task is not None and task is not asyncio.current_task():
            task.cancel()

    async def _expire(self, seq: int, seconds: float) -> None:
        try:
            await asyncio.sleep(seconds)
            outcome = await self.table.timeout(seq)
            if outcome is not None:
                await self.show(outcome)
        except asyncio.CancelledError:
            raise
        except CannotPost:
            log.warning("table %s: the clock acted, but the table message cannot be shown", self.table.id,
                        exc_info=True)
        except (TableError, IllegalAction):
            return
        except Exception:
            if not self.stopped:
                log.exception("clock failed at table %s", self.table.id)

    async def _choice_expires(self, seconds: float) -> None:
        try:
            await asyncio.sleep(seconds)
            if self.table.next().kind != "choose":
                return
            outcome = await self.table.choice_timed_out()
            self.note("No choice in time: the previous game is dealt again")
            await self.hand_started(outcome, None)
        except asyncio.CancelledError:
            raise
        except CannotPost:
            log.warning("table %s: dealt, but the table message cannot be shown", self.table.id, exc_info=True)
        except (TableError, IllegalAction):  # the chooser picked at the last moment: his game is dealt
            return
        except Exception:
            log.exception("dealer's choice clock failed at table %s", self.table.id)

    # ------------------------------------------------------------------ lifecycle

    async def resume(self) -> None:
        """After a start: re-arm the clock where it stood (the time since the hand last moved counts: a restart
        gives nobody a fresh clock) or keep dealing, and show the stored state (a crash may have come between
        an action and its edit)."""
        live = self.table.live
        if live is not None:
            try:
                since = await self.table.store.last_activity(live.record.id)
            except StoreError:
                log.warning("table %s: no time for its hand's last action; a fresh clock", self.table.id,
                            exc_info=True)
                since = time.time()
            self.arm_clock(elapsed=max(0.0, time.time() - since))
        elif not self.table.paused:
            self.schedule_deal()
        self.writer.refresh()

    def stop(self) -> list[asyncio.Task[None]]:
        """The bot is stopping: cancel the clock, the pending deal and the writes; return the tasks to wait for."""
        self.stopped = True
        tasks = [t for t in (self.clock, self.dealing, self.writer.cancel()) if t is not None]
        for task in tasks:
            task.cancel()
        self.clock = self.dealing = None
        return tasks

    async def close(self) -> None:
        """The table closed: no more clocks, deals or writes; its message says so."""
        self.cancel_clock()
        if self.dealing is not None:
            self.dealing.cancel()
            self.dealing = None
        self.stopped = True
        await self.writer.close()
        message_id = self.message_id
        if message_id is not None:
            await self.writer.edit(message_id, _screen.closed_embed(), closed=self.bot.is_closed)

    async def retire(self, message_id: int) -> None:
        """An older table message (after ``/poker table`` posted a new one): its buttons go, a link stays."""
        record = self.table.record
        embed = _screen.moved_embed(record.guild_id, record.channel_id, self.message_id)
        await self.writer.edit(message_id, embed, closed=self.bot.is_closed)
