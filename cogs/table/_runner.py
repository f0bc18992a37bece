"""One table in Discord (its ``TableRunner``): its message writer, its clock, its next deal, this hand's log, and
what it remembers of its players' clicks (the last move, each one's draw report).

Rules are not decided here: every change goes to ``bot.tables.Table``, which asks the engine and writes
through the store, and returns an ``Outcome`` that says what happened and what the table waits for next. A
runner shows outcomes (``show``): the log lines, the table message, the private hands, and the deal that
comes next. A player's clock starts when his turn is on screen (the writer says so: ``shown``), never before,
so a table message that Discord was slow to show costs nobody his time.

The message's components (the buttons and menus, which play moves through this runner) are made by a function
the registry gives it (``Components``: ``cogs.table._controls.view``), so that this module imports none of them.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import discord

from bot.cardfaces import card_text
from bot.poker import Card, Dealt, Hand, IllegalAction
from bot.scheduler import Scheduler
from bot.store import StoreError
from bot.tables import Outcome, Table, TableError
from cogs.render import CardText, mention

from ..store_retry import until_stored
from ..transport import DISCORD_ERRORS
from . import _hole, _preactions, _screen, _text
from ._alerts import TurnAlerts
from ._closes import show_closed
from ._colours import CardColours
from ._dms import DmSender
from ._private import Cards, PrivateMessages
from ._writer import CannotPost, Rendered, TableWriter, token_usable

log = logging.getLogger(__name__)

Components = Callable[[Table, _screen.Screen], discord.ui.View]  # the table message's buttons and menus
PRIVATE_FIRST = 0.5  # seconds a new hand's table waits for the players' private messages to show their cards
CLOCK = "clock"  # the turn's clock (a player's action or the dealer's choice), in the table's scheduler
DEALING = "next deal"
NEEDED_PERMISSIONS = {"view_channel": "View Channel", "send_messages": "Send Messages", "embed_links": "Embed Links"}


@dataclass(frozen=True, slots=True)
class Turn:
    """A moment that runs on a clock: a player's action (hand id, action number) or the dealer's choice."""

    kind: str  # "act" or "choose"
    user: int
    hand: int
    seq: int


@dataclass(frozen=True, slots=True)
class _Shown:
    turn: Turn | None
    deadline: float | None


@dataclass(frozen=True, slots=True)
class LastMove:
    """The last move made at the table: by whom, whether it was a draw, and when (``time.monotonic``)."""

    user: int
    draw: bool
    at: float


class TableRunner:
    """The Discord side of one table; the registry (``cogs.table._runners.Runners``) keeps one per open table."""

    def __init__(self, bot: discord.Client, table: Table, *, dms: DmSender,
                 components: Components, next_hand_delay: float, is_open: Callable[[Table], bool],
                 card: CardText = card_text, emoji: Callable[[Card], discord.PartialEmoji | None] = lambda card: None,
                 wants_alerts: Callable[[int, int], Any] | None = None, colours: CardColours | None = None) -> None:
        self.bot = bot
        self.table = table
        self.dms = dms
        self.components = components
        self.next_hand_delay = next_hand_delay
        self._is_open = is_open
        self.card = card
        self.emoji = emoji  # a card's picture on a button (None: its text)
        self.colours = colours
        self.recent: list[str] = []  # this hand's public lines (as many as the screen shows)
        self.last_move: LastMove | None = None
        self.show_finished = False  # between hands: the page shows the hand just over
        self.clocked: Turn | None = None  # the turn whose clock runs
        self.deadline: float | None = None  # when it runs out (Unix time)
        self.restart_elapsed = 0.0  # after a restart: the time the turn on screen had already taken
        self.scheduler = Scheduler(f"table {table.id}")  # its clock, next deal, writes, alerts: stopped together
        self.stopped = False
        self.writer = TableWriter(self, bot, self.scheduler)
        self._wants_alerts = wants_alerts
        self.alerts = TurnAlerts(self.send_dm, self._alerts_wanted, self.scheduler)
        self.preactions = _preactions.PreActions()  # what players chose to do when their turn comes
        self.openers: list[discord.Interaction] = []  # "Table open…", "Shuffle up and deal!": gone at the deal
        self.private = PrivateMessages(self.cards_of, self.turn_of, self.preaction_view)

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

    @property
    def message_nonce(self) -> str | None:
        """The nonce of a table message being posted."""
        return self.table.message_nonce

    async def remember_post(self, nonce: str) -> None:
        """Store the nonce of the table message about to be posted."""
        await self.table.remember_post(nonce)

    def is_open(self) -> bool:
        """False once the table is closed or the bot is stopping."""
        return not self.stopped and self._is_open(self.table)

    def turn(self) -> Turn | None:
        """The moment on the clock now: the player to act, or the dealer's choice."""
        table = self.table
        step = table.next()
        if step.kind == "act" and step.user is not None and table.live is not None:
            return Turn("act", step.user, table.live.record.id, table.live.seq)
        if step.kind == "choose" and step.user is not None and not self.show_finished:  # the menu is on screen
            return Turn("choose", step.user, 0, self.choice_number())
        return None

    def turn_of(self, user: int) -> Turn | None:
        """The turn ``user`` is to play now, if it is his."""
        turn = self.turn()
        return turn if turn is not None and turn.user == user else None

    def choice_number(self) -> int:
        """Tells one dealer's-choice menu from the next: the button's seat and the table's hand count."""
        return (self.table.record.button or 0) * 1000 + self.table.hands_dealt

    def screen(self, deadline: float | None = None) -> _screen.Screen:
        """What the message shows besides the table."""
        notices = [f"⚠ {mention(s.user_id)} gets no DMs: press **My hand** to see your cards."
                   for s in self.table.record.seats if s.dms_closed]
        return _screen.Screen(recent=tuple(self.recent), deadline=deadline, choice_number=self.choice_number(),
                              card=self.card, notices=notices, show_finished=self.show_finished)

    def render(self) -> Rendered:
        """The table message as the table is now; its clock as it will run once shown."""
        turn = self.turn()
        deadline = self.deadline if turn is not None and turn == self.clocked else None
        if turn is not None and deadline is None:
            deadline = time.time() + max(0.0, self.table.settings.clock - self.restart_elapsed)
        screen = self.screen(deadline)
        return Rendered(_screen.embed(self.table, screen), self.components(self.table, screen), _Shown(turn, deadline),
                        _screen.board_content(self.table, screen))

    def shown(self, token: Any) -> None:
        """A rendering is on screen: if it shows a turn not yet on the clock, its clock (and alerts) start now."""
        if not isinstance(token, _Shown) or token.turn is None or token.deadline is None or self.stopped:
            return
        if token.turn != self.turn() or token.turn == self.clocked:
            return
        self.restart_elapsed = 0.0
        self._start_clock(token.turn, token.deadline)

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
                "(Edit Channel → Permissions), then use `/poker table show`.")

    # ------------------------------------------------------------------ showing

    async def publish(self, interaction: discord.Interaction | None = None) -> None:
        """Show the table as it is now (answering ``interaction`` with it when it can)."""
        if self.clocked is not None and self.clocked != self.turn():
            self.cancel_clock()  # that turn is over
        await self.writer.publish(interaction)

    def note(self, line: str) -> None:
        """Add a line to this hand's log."""
        self.recent.append(line)
        del self.recent[:-_screen.MAX_LOG_LINES]

    def log_events(self, outcome: Outcome) -> None:
        """The public lines of an outcome's events, into the log."""
        game = outcome.hand.game if outcome.hand is not None else None
        for event in outcome.events:
            if game is not None and _text.starts_street(event, game):
                self.recent.clear()  # a new street: the log keeps its lines only
            line = _text.event_line(event, outcome.users, self.card, game)
            if line:
                self.note(line)

    async def show(self, outcome: Outcome, interaction: discord.Interaction | None = None) -> None:
        """Show what a change did; after a hand, show its end on its page and deal the next one after a pause."""
        if outcome.timed_out is not None:
            self.note(f"{mention(outcome.timed_out)} ran out of time")
        self.log_events(outcome)
        street = _hole.dealt_a_street(outcome.hand, outcome.events)
        while not outcome.hand_over and (ahead := await self.play_ahead()) is not None:
            outcome = ahead  # the next player's pre-action, played as his move: shown with this one
            self.log_events(outcome)
            street = street or _hole.dealt_a_street(outcome.hand, outcome.events)
        if outcome.hand_over:
            self.cancel_clock()
            self.show_finished = True
            await self.publish(interaction)
            if outcome.hand is not None:  # each player still in it sees his final hand
                self.private.finished(_hole.final_hands(outcome.hand, outcome.users, self.table.last_number,
                                                        self.card_for))
            self.schedule_deal()
            return
        await self.publish(interaction)
        if street:  # each player's private message shows it
            self.private.refresh(list(outcome.users))

    def link(self) -> str:
        """A link to the table message."""
        record = self.table.record
        return f"https://discord.com/channels/{record.guild_id}/{record.channel_id}/{self.message_id}"

    # ------------------------------------------------------------------ dealing

    def schedule_deal(self, delay: float | None = None) -> None:
        """Deal the next hand (or ask for the dealer's choice) after a pause."""
        if self.table.paused or self.stopped:
            return
        wait = self.next_hand_delay if delay is None else delay
        self.scheduler.schedule_later(wait, DEALING, self._deal_now())  # in place of a deal scheduled before

    @property
    def dealing(self) -> asyncio.Task[Any] | None:
        """The next deal, scheduled (or just done)."""
        return self.scheduler.get(DEALING)

    @property
    def clock(self) -> asyncio.Task[Any] | None:
        """The clock of the turn on screen, running (or just run out)."""
        return self.scheduler.get(CLOCK)

    async def _deal_now(self) -> None:
        try:
            await until_stored(self.deal, what=f"table {self.table.id}: the next deal", going_on=self.is_open)
        except asyncio.CancelledError:
            raise
        except CannotPost:
            log.warning("table %s: dealt, but the table message cannot be shown", self.table.id, exc_info=True)
        except TableError as error:  # paused, players gone, or a break begun while the deal waited for the table
            log.info("table %s: no deal: %s", self.table.id, error)
            self.writer.refresh()  # the table message says why (a break: when play resumes)
        except Exception:
            if not self.stopped:  # else the store closed under it: the deal is made after the restart
                log.exception("could not deal at table %s", self.table.id)

    def _new_page(self) -> None:
        """The hand over gets its summary; the next hand (or the dealer's choice) a message of its own."""
        if self.show_finished:
            self.writer.turn_page(_screen.summary_embed(self.table))
            self.show_finished = False
        self.recent.clear()

    async def deal(self) -> None:
        """Start the next hand, or ask the button for the dealer's choice, as the table says."""
        if not self.is_open():
            return
        step = self.table.next()
        if step.kind == "idle":
            await self.publish()
            return
        if step.kind == "choose":
            self._new_page()
            await self.publish()
            return
        if step.kind == "deal":
            await self.hand_started(await self.table.start_hand(), None)

    async def hand_started(self, outcome: Outcome, interaction: discord.Interaction | None) -> None:
        """A new hand: its own message, private hands by DM, the clock once it is shown."""
        live = self.table.live
        if live is None:
            return
        self._new_page()
        self.preactions.clear()
        self._remove_openers()
        hand = live.hand
        if self.colours is not None:
            await self.colours.learn(self.table.record.guild_id, live.users)
        dms = [self.send_dm(user, self.deal_text(hand, seat), hand=live.record.id)
               for seat, user in enumerate(live.users)]
        # Each player's private message shows his new cards before the turn does (a slow edit holds the table
        # back PRIVATE_FIRST seconds at most); the DMs go out while the table is shown (a slow or failing edit
        # does not hold them up), and even if the table cannot be shown.
        private = self.scheduler.schedule(("private deal", live.record.id), self.private.deal(list(live.users)))
        await asyncio.wait([private], timeout=PRIVATE_FIRST)
        shown, *_ = await asyncio.gather(self.publish(interaction), *dms, private, return_exceptions=True)
        if isinstance(shown, BaseException):
            raise shown

    def keep_opener(self, interaction: discord.Interaction) -> None:
        """``interaction`` was answered in the channel with what only matters until the first deal (the table's
        opening, the host's start): its answer goes once a hand is dealt, so that the channel holds the table."""
        self.openers.append(interaction)

    def _remove_openers(self) -> None:
        openers, self.openers = self.openers, []
        for interaction in openers:
            if token_usable(interaction):  # (an answer older than its token stays: nothing else removes it)
                self._remove_later(interaction)

    def _remove_later(self, interaction: discord.Interaction) -> None:
        async def remove() -> None:
            try:
                await interaction.delete_original_response()
            except DISCORD_ERRORS as error:
                log.info("could not remove the answer to interaction %s (%r)", interaction.id, error)

        self.scheduler.schedule(("removal", interaction.id), remove())

    # ------------------------------------------------------------------ pre-actions

    async def play_ahead(self) -> Outcome | None:
        """The pre-action of the player to act, if he chose one: played as his move when it still fits (the
        engine's ``Legal`` says), else dropped (he acts himself); its outcome, or None when nothing was played."""
        live, legal, user = self.table.live, self.table.legal(), self.table.actor()
        if live is None or legal is None or user is None:
            return None
        chosen = self.preactions.take(user)
        move = _preactions.move_for(chosen, legal, live.record.id, live.hand.round) if chosen is not None else None
        if move is None:
            return None
        try:
            outcome = await self.table.act(user, move, live.seq, live.record.id)
        except (TableError, IllegalAction, StoreError) as error:  # someone acted first, or the store failed
            log.info("table %s: the pre-action of user %s was not played (%r)", self.table.id, user, error)
            return None
        self.last_move = LastMove(user, False, time.monotonic())
        return outcome

    def preaction_view(self, user: int) -> discord.ui.View | None:
        """The pre-action buttons of ``user``'s private message: while others act in a betting round he is in."""
        live, seat = self.table.live, self.table.engine_seat(user)
        if live is None or seat is None:
            return None
        chosen = self.preactions.get(user, live.record.id, _preactions.betting_round(live.hand))
        return _preactions.view(self.table.id, live.record.id, live.hand, seat, chosen)

    # ------------------------------------------------------------------ private hands

    def hand_text(self, user: int) -> str:
        """A player's own cards (ephemeral), or his last hand's when none is being played."""
        table = self.table
        seat = table.engine_seat(user)
        if table.hand is not None and seat is not None:
            if table.hand.folded[seat]:
                return "You folded this hand."
            return f"{table.hand.game.name} · #{table.live.record.number if table.live else ''}\n" \
                   f"{_hole.private_hand(table.hand, seat, self.card_for(user))}"
        last, users = table.last_hand, table.last_users
        if last is not None and user in users:
            seat = users.index(user)
            return f"No hand now. Your last one, {last.game.name} · #{table.last_number}:\n" \
                   f"{_hole.private_hand(last, seat, self.card_for(user))}"
        return "You have no cards: you are not in the hand being played."

    def card_for(self, user: int) -> CardText:
        """How ``user``'s own cards are drawn (his deck: ``/poker cards``)."""
        if self.colours is None:
            return self.card
        return self.colours.card_for(self.table.record.guild_id, user)

    def emoji_for(self, user: int) -> Callable[[Card], discord.PartialEmoji | None]:
        """``user``'s own cards' pictures, for the picker's buttons."""
        if self.colours is None:
            return self.emoji
        return self.colours.emoji_for(self.table.record.guild_id, user)

    def my_hand(self, user: int) -> str | None:
        """What My hand answers: nothing of its own while he holds cards (his private message shows them), else
        ``hand_text``."""
        return None if self.cards_of(user) is not None else self.hand_text(user)

    def dm_heading(self, hand: Hand) -> str:
        """The first line of a DM about ``hand``: which hand, at which table (a DM is not in the table's channel)."""
        number = self.table.live.record.number if self.table.live else self.table.last_number
        return f"{hand.game.name} · #{number} at <#{self.channel_id}>"

    def deal_text(self, hand: Hand, seat: int) -> str:
        """The DM of a player's cards when a hand is dealt."""
        user = self.table.live.users[seat] if self.table.live is not None else 0
        return f"{self.dm_heading(hand)}\n{_hole.private_hand(hand, seat, self.card_for(user))}"

    async def send_dm(self, user: int, text: str, *, hand: int | None = None) -> None:
        """DM a player (see ``DmSender.send``); with ``hand`` (its id), his one DM of that hand, sent at the deal and
        edited afterwards (``DmSender.hand``). A player whose DMs are closed is named on the table message."""
        closed_before = self.table.dms_closed(user)
        if hand is None:
            await self.dms.send(self.table, user, text)
        else:
            await self.dms.hand(self.table, user, hand, text)
        if self.table.dms_closed(user) != closed_before:
            self.writer.refresh()

    def cards_of(self, user: int) -> Cards | None:
        """A player's cards in the hand being played, for his private message; None if he holds none (not dealt
        in, folded, no hand)."""
        live = self.table.live
        seat = self.table.engine_seat(user)
        if live is None or seat is None or live.hand.folded[seat]:
            return None
        hand = live.hand
        card = self.card_for(user)
        return Cards(live.record.id, _hole.cards_line(hand, seat, card),
                     _hole.caption(hand, seat, live.record.number, card))

    @staticmethod
    def drawn_cards(outcome: Outcome, seat: int | None) -> list[Card]:
        """The cards an outcome dealt to ``seat`` (a draw's replacements)."""
        return [c for e in outcome.events if isinstance(e, Dealt) and e.player == seat for c in e.cards]

    async def _alerts_wanted(self, user: int) -> bool:
        if self._wants_alerts is None:
            return True
        return bool(await self._wants_alerts(self.table.record.guild_id, user))

    # ------------------------------------------------------------------ clocks

    def _start_clock(self, turn: Turn, deadline: float) -> None:
        self.cancel_clock()
        self.clocked, self.deadline = turn, deadline
        if turn.kind == "act":
            self.scheduler.schedule_at(deadline, CLOCK, self._expire(turn.seq))
            legal = self.table.legal()
            asked = _screen.asked(legal) if legal is not None else "your move"
        else:
            self.scheduler.schedule_at(deadline, CLOCK, self._choice_expires())
            asked = "pick the next game"
        game = self.table.hand.game.name if self.table.hand is not None else "Dealer's choice"
        where = f"<#{self.channel_id}> ({game})"
        link = self.link()
        # The time left as Discord's relative timestamp, which counts down as the table's clock does (a number of
        # seconds written when the DM is sent would be stale when it is read).
        ends = f"<t:{int(deadline)}:R>"
        self.alerts.watch(turn, turn.user, deadline,
                          lambda left: f"🔔 Your turn at {where}: {asked} · ⏱ {ends}\n{link}",
                          lambda left: f"⏰ Time runs out {ends} at {where}: {asked}\n{link}")

    def cancel_clock(self) -> None:
        """Stop the table's clock (and the alerts of that turn)."""
        self.deadline, self.clocked = None, None
        self.alerts.cancel()
        self.scheduler.cancel(CLOCK)  # (a clock that runs out goes on: it stops the clock itself)

    async def _expire(self, seq: int) -> None:
        try:
            outcome = await until_stored(lambda: self.table.timeout(seq), what=f"table {self.table.id}: the clock",
                                         going_on=self.is_open)
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

    async def _choice_expires(self) -> None:
        try:
            if self.table.next().kind != "choose":
                return
            outcome = await until_stored(self.table.choice_timed_out, going_on=self.is_open,
                                         what=f"table {self.table.id}: the dealer's choice running out")
            if outcome is None:
                return
            self.cancel_clock()
            await self.hand_started(outcome, None)
            self.note("No choice in time: the previous game is dealt again")
            self.writer.refresh()
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
        """After a start: the clock of the turn on screen keeps the time it had used (a restart gives nobody a
        fresh clock), the dealing goes on, and the stored state is shown (a crash may have come between an
        action and its edit)."""
        live = self.table.live
        if live is not None:
            try:
                since = await self.table.store.last_activity(live.record.id)
            except StoreError:
                log.warning("table %s: no time for its hand's last action; a fresh clock", self.table.id,
                            exc_info=True)
                since = time.time()
            self.restart_elapsed = max(0.0, time.time() - since)
        elif not self.table.paused:
            self.schedule_deal()
        self.writer.refresh()

    def stop(self) -> list[asyncio.Task[Any]]:
        """The bot is stopping: cancel the clock, the pending deal, the writes and every other task of the table;
        return the tasks to wait for."""
        self.stopped = True
        tasks = self.scheduler.cancel_all()
        self.writer.stop()
        return tasks

    async def close(self, results: Sequence[str] = ()) -> bool:
        """The table closed: no more clocks, deals or writes; its message says so, with the night's ``results``
        (each cash-out, who pays whom) when given. False if the message could not say it."""
        self.cancel_clock()
        self.scheduler.cancel(DEALING)
        self.stopped = True
        await self.writer.close()
        message_id = self.message_id
        last = _screen.summary_embed(self.table) if self.show_finished else None  # the hand it was showing
        closed = _screen.closed_embed(last, _screen.closing_line(self.table, results=bool(results)), results)
        shown = message_id is not None and await self.writer.edit(message_id, closed)
        if shown:
            await show_closed(self.table.store, self.table.id)
        await self.private.clear()
        self.scheduler.cancel_all()  # whatever the table still ran (its news, an answer's removal)
        return shown

    async def retire(self, message_id: int) -> None:
        """An older table message (after ``/poker table show`` posted a new one): its buttons go, a link stays."""
        record = self.table.record
        embed = _screen.moved_embed(record.guild_id, record.channel_id, self.message_id)
        await self.writer.edit(message_id, embed)

    async def post(self, text: str) -> None:
        """Post a line in the table's channel; a failure is logged, not raised."""
        channel = self.bot.get_partial_messageable(self.channel_id)
        nonce = secrets.token_hex(12)  # tried again, the line is not posted twice
        try:
            await channel.send(text[:2000], allowed_mentions=discord.AllowedMentions.none(), nonce=nonce)
        except DISCORD_ERRORS as error:
            log.warning("could not post in channel %s (%r)", self.channel_id, error)
