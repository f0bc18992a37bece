"""One table in Discord (its ``TableRunner``): the small owner of what the table's Discord side is made of, made
together and closed together.

- ``presenter`` (``_presenter.TablePresenter``): what the table message shows; the ``Surface`` the ``writer``
  (``_writer.TableWriter``) draws from; ``own_cards`` (``_own_cards.OwnCards``): what each player sees of his cards;
- ``dealer`` (``_dealer.Dealer``): what happens and when: showing a change, the pre-actions played, the next deal,
  the turn's ``clock`` (``_clock.TurnClock``) and its alerts;
- ``private`` (``_private.PrivateMessages``): each player's private message at the table; ``preactions``: what
  players chose to do when their turn comes; ``scheduler``: every task of the table, stopped together.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from typing import Any

import discord

from bot.content.cardfaces import card_text
from bot.i18n import Language
from bot.poker import Card
from bot.runtime.scheduler import Scheduler
from bot.tables import Table
from cogs.language import table_language
from cogs.render import CardText

from . import _preactions
from ._clock import TurnClock
from ._closes import show_closed
from ._colours import CardColours
from ._dealer import Dealer
from ._dms import DmSender
from ._own_cards import OwnCards
from ._presenter import Components, TablePresenter
from ._private import PrivateMessages
from ._writer import TableWriter


class TableRunner:
    """The Discord side of one table; the registry (``cogs.table._runners.Runners``) keeps one per open table."""

    def __init__(self, bot: discord.Client, table: Table, *, dms: DmSender,
                 components: Components, next_hand_delay: float, is_open: Callable[[Table], bool],
                 card: CardText = card_text, emoji: Callable[[Card], discord.PartialEmoji | None] = lambda card: None,
                 wants_alerts: Callable[[int, int], Any] | None = None, colours: CardColours | None = None) -> None:
        self.bot = bot
        self.table = table
        self._is_open = is_open
        self.stopped = False
        self.scheduler = Scheduler(f"table {table.id}")  # its clock, next deal, writes, alerts: stopped together
        self.clock = TurnClock(table, self.scheduler)
        self.preactions = _preactions.PreActions()
        self.presenter = TablePresenter(
            bot, table, self.clock, self.scheduler, components=components, is_open=self.is_open,
            turn_shown=lambda turn, deadline: self.dealer.turn_shown(turn, deadline), card=card)
        self.own_cards = OwnCards(table, self.preactions, card=card, emoji=emoji, colours=colours)
        self.writer = TableWriter(self.presenter, bot, self.scheduler)
        self.private = PrivateMessages(self.own_cards.cards_of, self.presenter.turn_of, self.own_cards.preaction_view)
        self.dealer = Dealer(table, self.scheduler, clock=self.clock, presenter=self.presenter,
                             own_cards=self.own_cards, writer=self.writer, private=self.private,
                             preactions=self.preactions, dms=dms, next_hand_delay=next_hand_delay,
                             is_open=self.is_open, wants_alerts=wants_alerts)

    @property
    def language(self) -> Language:
        """What everyone at the table reads in (``cogs.language.table_language``)."""
        return table_language(self.bot, self.table)

    def is_open(self) -> bool:
        """False once the table is closed or the bot is stopping."""
        return not self.stopped and self._is_open(self.table)

    async def retire(self, message_id: int) -> None:
        """An older table message (after ``/poker table show`` posted a new one): its buttons go, a link stays."""
        await self.writer.edit(message_id, self.presenter.moved_embed())

    def stop(self) -> list[asyncio.Task[Any]]:
        """The bot is stopping: cancel the clock, the pending deal, the writes and every other task of the table;
        return the tasks to wait for."""
        self.stopped = True
        tasks = self.scheduler.cancel_all()
        self.writer.stop()
        return tasks

    async def close(self, results: Sequence[str] = ()) -> bool:
        """The table closed: no more clocks, deals or writes; its message says so (in the table's language), with
        the night's ``results`` (each cash-out, who pays whom, worded by the caller in ``language``) when given.
        False if the message could not say it."""
        self.dealer.stop()
        self.stopped = True
        await self.writer.close()
        message_id = self.table.message_id
        closed = self.presenter.closed_embed(results)
        shown = message_id is not None and await self.writer.edit(message_id, closed)
        if shown:
            await show_closed(self.table.store, self.table.id)
        await self.private.clear()
        self.scheduler.cancel_all()  # whatever the table still ran (its news, an answer's removal)
        return shown
