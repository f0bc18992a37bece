"""Every open table's Discord side, for one bot: the one owner of per-table Discord state.

A table's ``TableRunner`` holds all of it (its presenter, with this hand's log; its dealer, with its clock, next
deal and the last move made there; its writer; its players' private messages); ``Runners`` makes one when a table is
first shown or clicked and drops it in one place (``close``), when the table closes. Commands, components and forms
find it from the interaction (``runners_of``: the table cog, found with ``get_cog`` as RoboDanny's items do) and
resolve the table once; a component's check admits its interaction here (``admitted``), making its ``Reply``.
"""

from __future__ import annotations

import asyncio
import logging
import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol, cast

import discord

from bot.i18n import Text
from bot.poker import Card
from bot.store import CashOut
from bot.tables import Table, TableError

from ..errors import admitted_first, report
from ..language import learn_server_languages
from ..reply import Reply, release
from ._colours import CardColours
from ._dms import DmSender
from ._presenter import Components
from ._runner import TableRunner

if TYPE_CHECKING:
    from cogs.app import PokerBot

log = logging.getLogger(__name__)

Results = Callable[[list[CashOut]], Awaitable[list[str]]]  # a close's lines for the table message, from its cash-outs


@dataclass(frozen=True, slots=True)
class Closed:
    """A table closed: its cash-outs, the results its message was to show, and whether it shows them."""

    cashes: list[CashOut]
    results: list[str]
    shown: bool


COG_NAME = "TableCog"
CLOSED = Text("This table is closed.")  # refusals: worded in the reader's language
UNKNOWN = Text("That button is not one of this table's.")


class Runners:
    """The Discord side of every open table of one bot, and what they share: the interactions being answered,
    the players' DM channels."""

    def __init__(self, bot: PokerBot, components: Components) -> None:
        self.bot = bot
        self.components = components
        self.dms = DmSender(bot)
        self.colours = CardColours(bot.store, lambda: getattr(self.bot, "card_emojis", None))
        self.stopped = False
        self._by_table: dict[int, TableRunner] = {}

    def of(self, table: Table) -> TableRunner:
        """The Discord side of an open table (made on first use)."""
        runner = self._by_table.get(table.id)
        if runner is None or runner.table is not table:
            runner = self._by_table[table.id] = TableRunner(
                self.bot, table, dms=self.dms, components=self.components,
                next_hand_delay=self.bot.next_hand_delay, is_open=self._is_open, card=self.card, emoji=self.emoji,
                wants_alerts=self.bot.store.turn_alerts, colours=self.colours)
        return runner

    def here(self, reply: Reply) -> TableRunner:
        """The runner of the table in the channel of ``reply``'s interaction (its private answers are the player's
        private message there); ``TableError`` if there is none."""
        runner = self.of(self.bot.tables.require(reply.interaction.channel_id or 0))
        runner.private.follow(reply)
        return runner

    def hosted(self, reply: Reply) -> TableRunner:
        """The runner of the table in the channel of ``reply``'s interaction, for its host (or a member with Manage
        Server); ``TableError`` for anyone else."""
        runner = self.here(reply)
        interaction = reply.interaction
        perms = getattr(interaction.user, "guild_permissions", None)
        if interaction.user.id != runner.table.record.host_id and not (perms and perms.manage_guild):
            raise TableError(Text("Only the table's host (or someone with Manage Server) can do that."))
        return runner

    def clicked(self, interaction: discord.Interaction, table_id: int) -> TableRunner | None:
        """The runner of table ``table_id`` if it is still the open table of the channel clicked in, else None (a
        component of a closed table, or forged for another one)."""
        table = self.bot.tables.get(interaction.channel_id or 0)
        return self.of(table) if table is not None and table.id == table_id else None

    def _is_open(self, table: Table) -> bool:
        return not self.stopped and self.bot.tables.get(table.record.channel_id) is table

    def card(self, card: Card) -> str:
        """A card as the bot's own emoji (four colours: the table message is everyone's), or as text until the
        emojis are uploaded."""
        return self.colours.card(card)

    def emoji(self, card: Card) -> discord.PartialEmoji | None:
        """A card's emoji, for a button (None until the emojis are uploaded)."""
        return self.colours.emoji(card)

    async def resume_all(self) -> None:
        """After a start: every open table's clock, deal and message as they stood (in its server's language)."""
        tables = list(self.bot.tables.by_channel.values())
        await learn_server_languages(self.bot, (table.record.guild_id for table in tables))
        for table in tables:
            await self.of(table).dealer.resume()

    async def close(self, table: Table, closing: Callable[[], Awaitable[list[CashOut]]] | None = None,
                    results: Results | None = None) -> Closed:
        """Close a table (``closing``: how, by default ``Tables.close``) and its Discord side: its clock stops,
        its message says it is closed (with ``results``' lines, made from the cash-outs), and everything kept for
        it is dropped, here and only here."""
        runner = self.of(table)
        runner.dealer.cancel_clock()
        cashes = await (closing or (lambda: self.bot.tables.close(table.record.channel_id)))()
        lines = await results(cashes) if results is not None else []
        shown = await runner.close(lines)
        self._by_table.pop(table.id, None)
        return Closed(cashes, lines, shown)

    def stop(self) -> list[asyncio.Task[Any]]:
        """The bot is stopping: every runner stops (its scheduler's tasks: clock, pending deal, writes, alerts,
        news); the tasks to wait for."""
        self.stopped = True
        return [task for runner in self._by_table.values() for task in runner.stop()]

    def get(self, table_id: int) -> TableRunner | None:
        """The runner of table ``table_id``, if it has one."""
        return self._by_table.get(table_id)


async def admitted(interaction: discord.Interaction, runner: TableRunner | None, *, known: bool = True) -> bool:
    """The check of a table's component before its callback: an interaction delivered a second time is ignored (it
    was answered once), and a click on a closed table's component, or on none of ours, is refused (answered
    ephemerally) and goes no further. Its ``Reply``, made here, is the one its callback is given
    (``cogs.errors.answers_errors``)."""
    reply = admitted_first(interaction)
    if reply is None:
        return False
    if runner is None or not known:
        await report(reply, TableError(CLOSED if runner is None else UNKNOWN))
        release(interaction)  # refused: its callback, which lets it go, does not run
        return False
    runner.private.follow(reply)
    return True


def clicked_runner(interaction: discord.Interaction, match: re.Match[str]) -> TableRunner | None:
    """The runner of the table a component's custom_id names (its ``table`` group), resolved once, in the item's
    ``from_custom_id``; None for a closed table's component or one forged for another table."""
    return runners_of(interaction).clicked(interaction, int(match["table"]))


class Admitting:
    """A table component's check before its callback (``admitted``), for an item with a ``runner`` and, when its
    custom_id names an action, whether that action is one of ours (``known``)."""

    runner: TableRunner | None
    known: bool = True

    async def interaction_check(self, interaction: discord.Interaction, /) -> bool:
        return await admitted(interaction, self.runner, known=self.known)


class _WithRunners(Protocol):
    runners: Runners


def runners_of(interaction: discord.Interaction) -> Runners:
    """The tables' Discord side of the bot that received the interaction (its table cog's)."""
    cog: Any = interaction.client.get_cog(COG_NAME)  # type: ignore[attr-defined]
    if cog is None:
        raise RuntimeError("the table extension is not loaded")
    return cast(_WithRunners, cog).runners
