"""One table's dealer: what happens at the table and when. It shows what a change did (``show``), plays the
pre-actions it brings to turn, deals the next hand after a pause (or asks for the dealer's choice), sends each
player his cards by DM, and runs the turn's clock (``_clock``) and its alerts from the moment the turn is on screen.

Rules are not decided here: every change goes to ``bot.tables.Table``, which asks the engine and writes through the
store, and returns an ``Outcome`` that says what happened and what the table waits for next. A player's clock starts
when his turn is on screen (the presenter says so: ``turn_shown``), never before, so a table message that Discord was
slow to show costs nobody his time. What the messages say is the presenter's (``_presenter``): the table's lines in
the table's language, a player's DMs and alerts in his (``member_language``).
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from bot.i18n import Language, say
from bot.poker import IllegalAction
from bot.runtime.scheduler import Scheduler
from bot.store import StoreError
from bot.tables import Outcome, Table, TableError
from cogs.language import MemberLanguages, table_language
from cogs.render import mention

from ..reply import Reply
from ..store_retry import until_stored
from . import _hole, _preactions
from ._alerts import TurnAlerts
from ._clock import Turn, TurnClock
from ._dms import DmSender
from ._own_cards import OwnCards
from ._presenter import TablePresenter
from ._private import PrivateMessages
from ._writer import CannotPost, TableWriter

log = logging.getLogger(__name__)

PRIVATE_FIRST = 0.5  # seconds a new hand's table waits for the players' private messages to show their cards
DEALING = "next deal"  # the next deal, in the table's scheduler


@dataclass(frozen=True, slots=True)
class LastMove:
    """The last move made at the table: by whom, whether it was a draw, and when (``time.monotonic``)."""

    user: int
    draw: bool
    at: float


class Dealer:
    """What happens at one table and when: its next deal, its clock, the pre-actions played."""

    def __init__(self, table: Table, scheduler: Scheduler, *, clock: TurnClock, presenter: TablePresenter,
                 own_cards: OwnCards, writer: TableWriter, private: PrivateMessages, preactions: _preactions.PreActions,
                 dms: DmSender, next_hand_delay: float, is_open: Callable[[], bool],
                 wants_alerts: Callable[[int, int], Any] | None = None) -> None:
        self.table = table
        self.scheduler = scheduler  # its table's: the clock and the next deal stop with the table
        self.clock = clock
        self.presenter = presenter
        self.own_cards = own_cards
        self.writer = writer
        self.private = private
        self.preactions = preactions
        self.dms = dms
        self.next_hand_delay = next_hand_delay
        self.is_open = is_open  # False once the table is closed or the bot is stopping
        self._wants_alerts = wants_alerts
        self.alerts = TurnAlerts(self.send_dm, self._alerts_wanted, scheduler)
        self.last_move: LastMove | None = None

    @property
    def language(self) -> Language:
        """What everyone at the table reads in: the table's language."""
        return table_language(self.presenter.bot, self.table)

    def member_language(self, user: int) -> Language:
        """A DM's or an alert's language: the player's, as his last interaction showed it, else the table's."""
        languages = getattr(self.presenter.bot, "member_languages", None)
        return languages.of(user, self.language) if isinstance(languages, MemberLanguages) else self.language

    # ------------------------------------------------------------------ showing a change

    async def publish(self, reply: Reply | None = None) -> None:
        """Show the table as it is now (answering ``reply``'s interaction with it when it can)."""
        if self.clock.clocked is not None and self.clock.clocked != self.presenter.turn():
            self.cancel_clock()  # that turn is over
        await self.writer.publish(reply)

    async def show(self, outcome: Outcome, reply: Reply | None = None) -> None:
        """Show what a change did; after a hand, show its end on its page and deal the next one after a pause."""
        presenter = self.presenter
        if outcome.timed_out is not None:
            presenter.note(say(self.language, "{member} ran out of time", member=mention(outcome.timed_out)))
        presenter.log_events(outcome)
        street = _hole.dealt_a_street(outcome.hand, outcome.events)
        while not outcome.hand_over and (ahead := await self.play_ahead()) is not None:
            outcome = ahead  # the next player's pre-action, played as his move: shown with this one
            presenter.log_events(outcome)
            street = street or _hole.dealt_a_street(outcome.hand, outcome.events)
        if outcome.hand_over:
            self.cancel_clock()
            presenter.show_finished = True
            await self.publish(reply)
            if outcome.hand is not None:  # each player still in it sees his final hand
                self.private.finished(_hole.final_hands(
                    outcome.hand, outcome.users, self.table.last_number, self.own_cards.card_for,
                    lang_for=lambda user: self.private.language_of(user, self.member_language(user))))
            self.schedule_deal()
            return
        await self.publish(reply)
        if street:  # each player's private message shows it
            self.private.refresh(list(outcome.users))

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

    # ------------------------------------------------------------------ dealing

    def schedule_deal(self, delay: float | None = None) -> None:
        """Deal the next hand (or ask for the dealer's choice) after a pause."""
        if self.table.paused or not self.is_open():
            return
        wait = self.next_hand_delay if delay is None else delay
        self.scheduler.schedule_later(wait, DEALING, self._deal_now())  # in place of a deal scheduled before

    @property
    def dealing(self) -> asyncio.Task[Any] | None:
        """The next deal, scheduled (or just done)."""
        return self.scheduler.get(DEALING)

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
            if self.is_open():  # else the store closed under it: the deal is made after the restart
                log.exception("could not deal at table %s", self.table.id)

    def _new_page(self) -> None:
        """The hand over gets its summary; the next hand (or the dealer's choice) a message of its own."""
        summary = self.presenter.new_page()
        if summary is not None:
            self.writer.turn_page(summary)

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

    async def hand_started(self, outcome: Outcome, reply: Reply | None) -> None:
        """A new hand: its own message, private hands by DM, the clock once it is shown."""
        live = self.table.live
        if live is None:
            return
        self._new_page()
        self.preactions.clear()
        self.presenter.remove_openers()
        hand = live.hand
        await self.own_cards.learn_decks(live.users)
        dms = [self.send_dm(user, self.own_cards.deal_text(hand, seat, lang=self.member_language(user)),
                            hand=live.record.id) for seat, user in enumerate(live.users)]
        # Each player's private message shows his new cards before the turn does (a slow edit holds the table
        # back PRIVATE_FIRST seconds at most); the DMs go out while the table is shown (a slow or failing edit
        # does not hold them up), and even if the table cannot be shown.
        private = self.scheduler.schedule(("private deal", live.record.id), self.private.deal(list(live.users)))
        await asyncio.wait([private], timeout=PRIVATE_FIRST)
        shown, *_ = await asyncio.gather(self.publish(reply), *dms, private, return_exceptions=True)
        if isinstance(shown, BaseException):
            raise shown

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
            self.clock.restart_elapsed = max(0.0, time.time() - since)
        elif not self.table.paused:
            self.schedule_deal()
        self.writer.refresh()

    def stop(self) -> None:
        """The table closes: no more clocks or deals."""
        self.cancel_clock()
        self.scheduler.cancel(DEALING)

    # ------------------------------------------------------------------ the clock

    def turn_shown(self, turn: Turn, deadline: float) -> None:
        """``turn``, the one to play now, is on screen: its clock (and its alerts) start, if not running yet."""
        if not self.is_open() or turn == self.clock.clocked:
            return
        self.clock.restart_elapsed = 0.0
        self._start_clock(turn, deadline)

    def _start_clock(self, turn: Turn, deadline: float) -> None:
        self.cancel_clock()
        self.clock.start(turn, deadline, self._expire(turn.seq) if turn.kind == "act" else self._choice_expires())
        self.alerts.watch(turn, turn.user, deadline,
                          *self.presenter.alert_texts(turn, deadline, lang=self.member_language(turn.user)))

    def cancel_clock(self) -> None:
        """Stop the table's clock (and the alerts of that turn)."""
        self.clock.cancel()
        self.alerts.cancel()

    async def _alerts_wanted(self, user: int) -> bool:
        if self._wants_alerts is None:
            return True
        return bool(await self._wants_alerts(self.table.record.guild_id, user))

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
            if self.is_open():
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
            self.presenter.note(say(self.language, "No choice in time: the previous game is dealt again"))
            self.writer.refresh()
        except asyncio.CancelledError:
            raise
        except CannotPost:
            log.warning("table %s: dealt, but the table message cannot be shown", self.table.id, exc_info=True)
        except (TableError, IllegalAction):  # the chooser picked at the last moment: his game is dealt
            return
        except Exception:
            log.exception("dealer's choice clock failed at table %s", self.table.id)
