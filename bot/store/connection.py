"""What the store asks of a database connection, whichever the engine (``bot.store.sqlite``,
``bot.store.postgres``): run one SQL text (``bot.store.dialect``) and read its rows, open and end a transaction
that writes (waiting for another program's lock only until a deadline) or one that reads a consistent snapshot,
and tell a failure the host must fix (a full disk, a lost server) from a bug.

A row is read by column name or position (``row["balance"]``, ``row[0]``), as ``sqlite3.Row`` and
``asyncpg.Record`` both are.
"""

from __future__ import annotations

import asyncio
from abc import ABC, abstractmethod
from collections.abc import Awaitable, Callable, Iterable, Iterator, Sequence
from typing import Any, Protocol

from ..i18n.text import Text
from .dialect import Engine, Params
from .errors import StoreError
from .faults import Outage

__all__ = ["Connection", "Row", "settle"]


class Row(Protocol):
    """A row of a result: by column name or by position."""

    def __getitem__(self, key: int | str, /) -> Any: ...

    def keys(self) -> Iterable[str]: ...

    def __iter__(self) -> Iterator[Any]: ...


async def settle(operation: Awaitable[Any]) -> Any:
    """Wait for ``operation`` to complete even if the caller is cancelled meanwhile, then raise the cancellation.

    A transaction's BEGIN, COMMIT or ROLLBACK, once sent, happens anyway: waiting for it keeps the connection's
    state (in a transaction or not) known before the store's lock is released.
    """
    task = asyncio.ensure_future(operation)
    cancelled = False
    while not task.done():
        try:
            await asyncio.shield(task)
        except asyncio.CancelledError:
            cancelled = True
    result = task.result()
    if cancelled:
        raise asyncio.CancelledError
    return result


class Connection(ABC):
    """One connection of the store to its database, used by one transaction at a time (the store's locks)."""

    engine: Engine
    outage: Outage

    @property
    @abstractmethod
    def in_transaction(self) -> bool:
        """True between a BEGIN and its COMMIT or ROLLBACK."""

    @abstractmethod
    async def fetch(self, sql: str, params: Params = ()) -> list[Row]:
        """Every row of a query."""

    @abstractmethod
    async def execute(self, sql: str, params: Params = ()) -> int:
        """Run a statement that returns no rows; the number of rows it changed."""

    @abstractmethod
    async def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        """Run a statement once per parameter row."""

    @abstractmethod
    async def insert(self, sql: str, params: Params = ()) -> int:
        """Run an INSERT into a table with an ``id`` key; the new row's id."""

    @abstractmethod
    async def begin_write(self, until: float | None, busy: Text) -> None:
        """Open a write transaction, waiting for another program's lock until ``until`` (the event loop's clock;
        None: the engine's default), then ``StoreBusy(busy)``."""

    @abstractmethod
    async def begin_read(self) -> None:
        """Open a read-only transaction over one consistent state of the database."""

    @abstractmethod
    async def commit(self) -> None: ...

    @abstractmethod
    async def rollback(self) -> None: ...

    @abstractmethod
    async def autocommit(self, statement: Callable[[], Awaitable[None]], until: float | None, busy: Text) -> None:
        """Run ``statement`` (one statement, its own transaction), again while another program holds a lock it
        needs, until ``until``; then ``StoreBusy(busy)``."""

    @abstractmethod
    def refusal(self, error: BaseException, *, writing: bool, busy: Text) -> StoreError | None:
        """The store's refusal for an error the host must fix or a wait that ran out (``StoreUnavailable``,
        ``StoreBusy``), else None (a bug or a refusal of the store's own: raised as it is)."""

    @abstractmethod
    async def table_names(self) -> list[str]:
        """The bank's tables (the schema's, not the engine's own), sorted."""

    @abstractmethod
    async def schema_version(self) -> int:
        """The number of the last migration applied."""

    @abstractmethod
    async def close(self) -> None: ...
