"""The planned night's table: its settings, opened at the start (or the channel's table taken as it is), shown
through the table extension, and its seats held for the players who signed up.

The one place that reaches into the table extension (its cog, by name, typed by :class:`TableSide`)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol

from bot.i18n import Language, Plural
from bot.planning import SEAT_HOLD, holds_seats, planned_buy_ins, roster, seats_held
from bot.store import PlanRecord
from bot.tables import Table, TableError, TableSettings
from cogs import plan_clock as clock
from cogs.language import server_language, table_language

from ._message import stamp

if TYPE_CHECKING:
    from cogs.app import PokerBot

TABLE_COG = "TableCog"


class Dealer(Protocol):
    async def publish(self) -> None: ...


class Shown(Protocol):
    @property
    def dealer(self) -> Dealer: ...


class Runners(Protocol):
    def of(self, table: Table) -> Shown: ...


class TableSide(Protocol):
    """What this module uses of the table cog: a table's Discord side."""

    runners: Runners


def language(bot: PokerBot, plan: PlanRecord) -> Language:
    """What everyone in the night's channel reads in (its sign-up message, the start's mention): the channel's
    table's language if it has a table, else the server's."""
    table = bot.tables.get(plan.channel_id)
    if table is not None:
        return table_language(bot, table)
    return server_language(bot, plan.guild_id)



def plan_settings(game: str, small_blind: int, big_blind: int, structure: str | None, buy_in: int | None,
                  seats: int | None) -> TableSettings:
    """The table a night opens: ``buy_in`` is what Join brings (the largest buy-in; the smallest stays the
    default, or the buy-in when that is less). Raises ``SettingsError`` with what to change."""
    low, high = planned_buy_ins(big_blind, buy_in)
    return TableSettings(game=game, small_blind=small_blind, big_blind=big_blind, structure=structure,  # type: ignore[arg-type]
                         max_buy_in=high, min_buy_in=low, seats=seats)


async def open_table(bot: PokerBot, plan: PlanRecord) -> Table:
    """The night's table: the channel's open one if there is one, else a new one with the planned settings,
    paused until the host deals (as ``/poker create`` opens one)."""
    table = bot.tables.get(plan.channel_id)
    if table is not None:
        return table
    settings = plan_settings(plan.game, plan.small_blind, plan.big_blind, plan.structure, plan.buy_in, plan.seats)
    table = await bot.tables.create(plan.guild_id, plan.channel_id, plan.host_id, settings)
    await table.pause()
    return table


async def show(bot: PokerBot, table: Table) -> None:
    """Post (or edit) the table message."""
    side: Any = bot.get_cog(TABLE_COG)
    if side is None:
        raise RuntimeError("the table extension is not loaded")
    typed: TableSide = side
    await typed.runners.of(table).dealer.publish()


def hold_seats(table: Table, plan: PlanRecord) -> int | None:
    """Hold the table's free seats for the night's players, first signed up first, for ``SEAT_HOLD`` after the
    start; returns until when (None: nobody signed up, nothing held)."""
    order = roster(plan.signups, plan.seats).order
    if not order:
        table.seat_hold = None
        return None
    until = plan.starts_at + SEAT_HOLD

    def hold(user: int, seated: frozenset[int], free: int) -> None:
        if not holds_seats(plan.starts_at, clock.now()):
            return
        coming = seats_held(order, seated, free, user)
        if coming:
            raise TableError(Plural(
                "The free seat is held until {time} for the players who signed up for tonight ({coming} still to "
                "come); then anyone may sit.",
                "The {count} free seats are held until {time} for the players who signed up for tonight ({coming} "
                "still to come); then anyone may sit.", count=free, time=stamp(until, "t"), coming=coming))

    table.seat_hold = hold
    return until
