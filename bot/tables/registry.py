"""Every open table, by channel; restored when the bot starts."""

from __future__ import annotations

import logging
import random
from collections.abc import Callable

from ..i18n.text import Text
from ..store import CashOut, Store
from ..tournament import Tournament
from .night import keep_missing_facts
from .settings import SettingsError, TableSettings
from .table import CASH_GAME, Table, TableError
from .tournament import TournamentMode

log = logging.getLogger(__name__)


class Tables:
    """Every open table, by channel; restores them all when the bot starts."""

    def __init__(self, store: Store, rng: random.Random | None = None) -> None:
        self.store = store
        self.by_channel: dict[int, Table] = {}
        self._rng = rng
        self.closed: list[Callable[[Table], None]] = []  # told of each table closed (a planned night ends)

    async def restore(self, runs_guild: Callable[[int], bool] = lambda guild_id: True) -> list[Table]:
        """Load every open table of the guilds this process runs (``runs_guild``: all of them unless its shards
        are a part) and rebuild its live hand (voiding one that cannot be rebuilt); first keep the facts of
        hands finished before this version kept them (once: then there are none to find)."""
        try:
            kept = await keep_missing_facts(self.store)
            if kept:
                log.info("kept the facts of %d hands finished before they were kept", kept)
        except Exception:  # the stats of old hands must not stop the tables from opening
            log.exception("the facts of old hands could not be kept")
        self.by_channel.clear()
        records = await self.store.list_open_tables()
        live = {hand.table_id: hand for hand in await self.store.live_hands()}  # every log in two queries
        counts = await self.store.hands_dealt_by_table()
        for record in records:
            if not runs_guild(record.guild_id):
                continue  # another process's shard deals there
            try:
                mode = await TournamentMode.load(self.store, record.id) or CASH_GAME
                table = await Table.load(self.store, record, self._rng, live=live.get(record.id),
                                         hands_dealt=counts.get(record.id, 0), mode=mode)
            except (SettingsError, TypeError, ValueError):
                # One table whose stored settings this version cannot read must not stop the others.
                log.exception("table %s in channel %s could not be loaded", record.id, record.channel_id)
                continue
            self.by_channel[record.channel_id] = table
        return list(self.by_channel.values())

    def get(self, channel: int) -> Table | None:
        """The open table in ``channel``, if any."""
        return self.by_channel.get(channel)

    def require(self, channel: int) -> Table:
        """The open table in ``channel``; TableError if there is none."""
        table = self.get(channel)
        if table is None:
            raise TableError(Text("There is no table in this channel; `/poker create` opens one."))
        return table

    async def create(self, guild: int, channel: int, host: int, settings: TableSettings, *,
                     tournament: Tournament | None = None) -> Table:
        """Open a table in ``channel`` (a tournament's, with ``tournament``); TableError if one is already open."""
        if channel in self.by_channel:
            raise TableError(Text("This channel already has a table."))
        if tournament is None:
            table = await Table.create(self.store, guild, channel, host, settings, self._rng)
        else:
            table = await TournamentMode.open(self.store, guild, channel, host, settings, tournament, self._rng)
        self.by_channel[channel] = table
        return table

    async def close(self, channel: int) -> list[CashOut]:
        """Close the channel's table and forget it."""
        table = self.require(channel)
        cashes = await table.close()
        del self.by_channel[channel]
        for listener in list(self.closed):
            listener(table)
        return cashes
