"""The store: chip bank, tables, seats and hand logs, in one SQLite file (aiosqlite) or a PostgreSQL database
(asyncpg, the ``postgres`` extra).

Usage::

    store = await Store.open("data/poker.db")  # created and migrated; or "postgresql://user:pw@host/db"
    await store.transfer(guild, alice, bob, 250)
    table = await store.create_table(guild, channel, host, {"game": "2-7-triple-draw"})
    await store.buy_in(table.id, alice, 500, seat_no=1, min_amount=200, max_amount=1000)
    ...
    report = await store.audit(guild)          # report.ok, report.problems
    await store.close()

One ``Store`` writes through one connection and reads through another. Its
operations are coroutines and safe to run concurrently (``asyncio.gather``):
one lock serialises the transactions of each connection; with SQLite,
``BEGIN IMMEDIATE`` with a busy timeout serialises them with other connections
(other ``Store`` objects or processes on the same file); with PostgreSQL, a
chip movement locks the rows of the accounts it changes (``FOR UPDATE``).
Both engines run the same SQL (``bot.store.dialect``) and the same numbered
migrations.

Every write is one transaction: it happens completely or not at all. A
refusal is a ``StoreError`` subclass with a message fit for the user; see
``bot.store.errors``. Ids are Discord snowflakes (``int``); chip amounts are
``int`` from 1 to ``MAX_AMOUNT`` per movement, balances and stacks at most
``MAX_BALANCE``. Times come from the ``clock`` given to ``Store.open``.

The methods are grouped by module: ``bank`` (guild settings, balances,
transfers, grants, ledger pages, leaderboard), ``tables`` (tables, seats,
buy-ins and cash-outs, hands and action logs), ``night`` (nights, the hands and refunds
of a night, player stats, nets by period), ``tournaments`` (prize pools, entries, payouts), ``plans`` (planned
nights, their answers, each server's time zone) and ``audit``; the helpers they share live in ``rows`` (the
records of tables, seats and hands and the reads inside a transaction) and ``prize_pool`` (the pool's movements
and a tournament hand's part of ``finish_hand``), so that no module of the store imports another's private names
or imports it back.
"""

from __future__ import annotations

import sqlite3
import time
from contextlib import nullcontext
from importlib.abc import Traversable
from pathlib import Path
from types import TracebackType

import aiosqlite

from .audit import AuditMixin, AuditReport
from .bank import (
    DEFAULT_STARTING_BALANCE,
    BankMixin,
    GuildSettings,
    LeaderboardEntry,
    LedgerEntry,
    LedgerPage,
    TransferResult,
)
from .db import DEFAULT_BUSY_TIMEOUT, MAX_AMOUNT, MAX_BALANCE, Clock, latest_version
from .errors import (
    ActionOutOfOrder,
    AlreadySeated,
    BuyInOutOfRange,
    ChipsNotConserved,
    HandInProgress,
    HandNotLive,
    InsufficientFunds,
    InvalidAmount,
    InvalidArgument,
    NotFound,
    NotSeated,
    SchemaError,
    SchemaTooNew,
    SeatTaken,
    SelfTransfer,
    StoreBusy,
    StoreError,
    StoreUnavailable,
    TableClosed,
    TableExists,
    TableNotEmpty,
)
from .faults import Outage
from .night import NetEntry, NightMixin, NightRecord
from .plans import PlanClash, PlanClosed, PlanRecord, PlansMixin
from .postgres import is_postgres_url, open_postgres, redact
from .sqlite import BUSY_SLICE, SqliteConnection, open_database, open_reader, readonly_uri
from .tables import MAX_SEATS, CashOut, HandRecord, SeatRecord, TableRecord, TablesMixin
from .tournaments import TournamentError, TournamentHand, TournamentRecord, TournamentsMixin

__all__ = [
    "DEFAULT_STARTING_BALANCE",
    "MAX_AMOUNT",
    "MAX_BALANCE",
    "MAX_SEATS",
    "ActionOutOfOrder",
    "AlreadySeated",
    "AuditReport",
    "BuyInOutOfRange",
    "CashOut",
    "ChipsNotConserved",
    "GuildSettings",
    "HandInProgress",
    "HandNotLive",
    "HandRecord",
    "InsufficientFunds",
    "InvalidAmount",
    "InvalidArgument",
    "LeaderboardEntry",
    "LedgerEntry",
    "LedgerPage",
    "NetEntry",
    "NightRecord",
    "NotFound",
    "NotSeated",
    "PlanClash",
    "PlanClosed",
    "PlanRecord",
    "SchemaError",
    "SchemaTooNew",
    "SeatRecord",
    "SeatTaken",
    "SelfTransfer",
    "Store",
    "StoreBusy",
    "StoreError",
    "StoreUnavailable",
    "TableClosed",
    "TableExists",
    "TableNotEmpty",
    "TableRecord",
    "TournamentError",
    "TournamentHand",
    "TournamentRecord",
    "TransferResult",
    "latest_version",
]


class Store(BankMixin, TablesMixin, NightMixin, TournamentsMixin, PlansMixin, AuditMixin):
    """The bot's persistent state. Open with ``await Store.open(...)``; close with ``await store.close()``
    (or use ``async with await Store.open(...) as store``)."""

    @classmethod
    async def open(
        cls,
        path: str | Path,
        *,
        synchronous: str = "normal",
        clock: Clock = time.time,
        migrations_dir: Traversable | Path | str | None = None,
        busy_timeout: float = DEFAULT_BUSY_TIMEOUT,
    ) -> Store:
        """Open (create, upgrade) the database and return a store over it.

        ``path``: the SQLite file (its folder is created), or a ``postgresql://`` URL (the database must exist;
        its tables are created). ``synchronous``: ``"normal"`` or ``"full"`` (the configuration's
        ``POKER_DB_SYNC``; SQLite only: PostgreSQL's durability is the server's). ``clock``: seconds since the
        epoch, for ``created_at`` columns. ``migrations_dir``: tests only. Raises ``SchemaTooNew`` for a bank
        written by a newer bot.
        """
        if isinstance(path, str) and is_postgres_url(path):
            outage = Outage(redact(path))
            writer, reader = await open_postgres(path, outage, migrations_dir=migrations_dir)
            return cls(writer, clock=clock, reader=reader, busy_timeout=busy_timeout, where=redact(path))
        target = Path(path)
        outage = Outage(str(target))
        conn = await open_database(
            target, synchronous=synchronous, migrations_dir=migrations_dir, busy_timeout=busy_timeout
        )
        read_conn = None
        try:
            await conn.execute(f"PRAGMA busy_timeout = {int(min(busy_timeout, BUSY_SLICE) * 1000)}")
            if str(target) != ":memory:":  # reads on a connection of their own, never behind a write
                read_conn = SqliteConnection(await open_reader(target, busy_timeout), outage)
        except BaseException:
            await conn.close()
            raise
        return cls(SqliteConnection(conn, outage), clock=clock, path=target, reader=read_conn,
                   busy_timeout=busy_timeout)

    @classmethod
    async def open_readonly(cls, path: str | Path) -> Store:
        """A store that only reads an existing bank (``python -m bot db check``, a backup's copy): nothing is
        migrated or written. Its writes fail."""
        if isinstance(path, str) and is_postgres_url(path):
            outage = Outage(redact(path))
            writer, reader = await open_postgres(path, outage, upgrade=False, read_only=True)
            return cls(writer, reader=reader, where=redact(path))
        target = Path(path)
        conn = await aiosqlite.connect(readonly_uri(target), uri=True, isolation_level=None)
        conn.row_factory = sqlite3.Row
        return cls(SqliteConnection(conn, Outage(str(target))), path=target)

    @property
    def connection(self) -> aiosqlite.Connection:
        """The underlying aiosqlite connection of an SQLite store (tests and tools only: writes must go through
        the store); ``db`` is the engine's connection, for either engine."""
        conn = self._conn
        if not isinstance(conn, SqliteConnection):
            raise TypeError(f"the store's database is {conn.engine}: use store.db")
        return conn.raw

    async def close(self) -> None:
        """Close the connections (waits for a running operation to finish); closing twice is harmless."""
        async with self._lock, self._read_lock if self._read_lock is not self._lock else nullcontext():
            if not self.closed:
                self.closed = True
                if self._reader is not self._conn:
                    await self._reader.close()
                await self._conn.close()

    async def schema_version(self) -> int:
        """The number of the last migration applied to the bank (SQLite: its ``PRAGMA user_version``)."""
        async with self._lock:
            return await self._conn.schema_version()

    async def __aenter__(self) -> Store:
        return self

    async def __aexit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        await self.close()

