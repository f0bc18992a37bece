"""The SQLite engine: the bank in one file, opened with aiosqlite.

``open_database()`` returns an aiosqlite connection in autocommit mode (the store writes its own ``BEGIN
IMMEDIATE``/``COMMIT``), with WAL, foreign keys, a busy timeout, and ``synchronous`` NORMAL (nothing committed is
lost when the process dies) or FULL (nothing committed is lost when the power goes).

``PRAGMA user_version`` holds the number of the last migration applied; each pending file is applied in its own
transaction together with the new ``user_version``, so a file is either fully applied or not at all. A file whose
``user_version`` is above the newest migration the code knows was written by a newer bot and is refused
(``SchemaTooNew``) without being changed.

``SqliteConnection`` is the store's view of one connection (``bot.store.connection``). A reader opened beside the
writer (``open_reader``) reads the last committed state while a write, ours or another program's, holds the
write lock (WAL): a read never waits behind a write.
"""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import Awaitable, Callable, Sequence
from importlib.abc import Traversable
from pathlib import Path
from typing import Any

import aiosqlite

from ..i18n.text import Text
from .connection import Connection, Row, settle
from .db import DEFAULT_BUSY_TIMEOUT, SYNC_MODES, Migration, load_migrations, split_sql, too_new
from .dialect import Params, for_sqlite
from .errors import InvalidArgument, SchemaError, StoreBusy, StoreError
from .faults import Outage, is_busy

__all__ = [
    "BUSY_PAUSE",
    "BUSY_SLICE",
    "SqliteConnection",
    "migrate",
    "open_database",
    "open_reader",
    "readonly_uri",
    "user_version",
]

BUSY_SLICE = 0.1  # seconds SQLite itself waits for a lock before the store looks at the deadline again
BUSY_PAUSE = 0.02  # seconds between two tries to take the write lock


async def user_version(conn: aiosqlite.Connection) -> int:
    async with conn.execute("PRAGMA user_version") as cursor:
        row = await cursor.fetchone()
    return int(row[0]) if row else 0


async def migrate(conn: aiosqlite.Connection, migrations: Sequence[Migration]) -> tuple[int, int]:
    """Apply the pending ``migrations`` to ``conn``; return ``(version before, version after)``.

    Each migration runs in one ``BEGIN IMMEDIATE`` transaction with its
    ``PRAGMA user_version``; a failure rolls it back and raises ``SchemaError``.
    Foreign keys are off while migrating (so a migration can rebuild a table,
    as SQLite's docs recommend) and ``PRAGMA foreign_key_check`` must come out
    clean before each commit. Safe when two processes migrate the same file:
    the version is read again once the write lock is held.
    """
    known = migrations[-1].version if migrations else 0
    before = await user_version(conn)
    if before > known:
        raise too_new(before, known)
    await conn.execute("PRAGMA foreign_keys = OFF")
    try:
        for migration in migrations:
            if migration.version <= before:
                continue
            await conn.execute("BEGIN IMMEDIATE")
            try:
                current = await user_version(conn)
                if current >= migration.version:  # another process got there first
                    await conn.execute("COMMIT")
                    continue
                for statement in split_sql(migration.sql):
                    await conn.execute(statement)
                await conn.execute(f"PRAGMA user_version = {int(migration.version)}")
                async with conn.execute("PRAGMA foreign_key_check") as cursor:
                    broken = await cursor.fetchall()
                if broken:
                    raise SchemaError(f"foreign keys broken by the migration: {[tuple(r) for r in list(broken)[:5]]}")
                await conn.execute("COMMIT")
            except BaseException as error:
                await conn.execute("ROLLBACK")
                if isinstance(error, sqlite3.Error):
                    raise SchemaError(
                        f"migration {migration.version:04d}_{migration.name}.sql failed and was rolled back: {error}"
                    ) from error
                raise
    finally:
        await conn.execute("PRAGMA foreign_keys = ON")
    return before, await user_version(conn)


async def open_database(
    path: str | Path,
    *,
    synchronous: str = "normal",
    migrations_dir: Traversable | Path | str | None = None,
    busy_timeout: float = DEFAULT_BUSY_TIMEOUT,
) -> aiosqlite.Connection:
    """Open (creating it and its folder if needed) and upgrade the database; return the connection.

    ``synchronous`` is ``normal`` (safe against a crash of the process) or ``full`` (also against power
    loss). Raises ``SchemaTooNew`` for a file from a newer bot and ``SchemaError`` for a file that is not a
    usable database. (The configuration, not the store, reads the environment: ``bot.runtime.config``.)
    """
    migrations = load_migrations(migrations_dir)
    sync = synchronous.strip().lower() if isinstance(synchronous, str) else ""
    if sync not in SYNC_MODES:
        raise InvalidArgument(f"synchronous must be one of {', '.join(SYNC_MODES)}, not {synchronous!r}")
    target = Path(path)
    if str(target) != ":memory:":
        target.parent.mkdir(parents=True, exist_ok=True)
    conn = await aiosqlite.connect(str(target), isolation_level=None)
    try:
        conn.row_factory = sqlite3.Row
        await conn.execute(f"PRAGMA busy_timeout = {int(busy_timeout * 1000)}")
        try:
            found = await user_version(conn)
        except sqlite3.DatabaseError as error:
            raise SchemaError(f"{target} is not a usable SQLite database: {error}") from error
        if found > migrations[-1].version:
            raise too_new(found, migrations[-1].version)
        async with conn.execute("PRAGMA journal_mode = WAL") as cursor:
            row = await cursor.fetchone()
        mode = str(row[0]).lower() if row else ""
        if mode not in ("wal", "memory"):
            raise SchemaError(f"could not switch {target} to WAL mode (journal_mode is {mode!r})")
        await conn.execute(f"PRAGMA synchronous = {SYNC_MODES[sync]}")
        await migrate(conn, migrations)
        async with conn.execute("PRAGMA foreign_keys") as cursor:
            row = await cursor.fetchone()
        if not row or row[0] != 1:
            raise SchemaError("this SQLite build cannot enforce foreign keys")
    except BaseException:
        await conn.close()
        raise
    return conn


def readonly_uri(path: Path) -> str:
    """The URI that opens ``path`` read-only (``sqlite3.connect(..., uri=True)``): never created, never written."""
    return f"{path.absolute().as_uri()}?mode=ro"


async def open_reader(path: Path, busy_timeout: float = DEFAULT_BUSY_TIMEOUT) -> aiosqlite.Connection:
    """A second connection to an opened database, for reads only (``query_only``): in WAL mode it reads the last
    committed state while a write, ours or another program's, holds the write lock."""
    conn = await aiosqlite.connect(str(path), isolation_level=None)
    try:
        conn.row_factory = sqlite3.Row
        await conn.execute(f"PRAGMA busy_timeout = {int(min(busy_timeout, BUSY_SLICE) * 1000)}")
        await conn.execute("PRAGMA query_only = ON")
    except BaseException:
        await conn.close()
        raise
    return conn


class SqliteConnection(Connection):
    """One aiosqlite connection (``raw``) as the store uses it."""

    engine = "sqlite"

    def __init__(self, raw: aiosqlite.Connection, outage: Outage) -> None:
        self.raw = raw
        self.outage = outage

    @property
    def in_transaction(self) -> bool:
        return self.raw.in_transaction

    # Each call is one round trip to aiosqlite's thread (execute and fetch together).

    async def fetch(self, sql: str, params: Params = ()) -> list[Row]:
        return list(await self.raw.execute_fetchall(for_sqlite(sql), params))

    async def execute(self, sql: str, params: Params = ()) -> int:
        cursor = await self.raw.execute(for_sqlite(sql), params)
        return cursor.rowcount

    async def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        await self.raw.executemany(for_sqlite(sql), rows)

    async def insert(self, sql: str, params: Params = ()) -> int:
        row = await self.raw.execute_insert(for_sqlite(sql), params)
        assert row is not None
        return int(row[0])

    async def _until_free(self, attempt: Callable[[], Awaitable[None]], until: float | None, busy: Text) -> None:
        """``attempt()`` (a statement that takes the write lock) again and again while another connection
        holds the lock, until ``until``; then ``StoreBusy``. Each try waits ``BUSY_SLICE`` inside SQLite."""
        loop = asyncio.get_running_loop()
        while True:
            try:
                await attempt()
                return
            except sqlite3.OperationalError as error:
                if not is_busy(error):
                    raise
                if until is not None and loop.time() + BUSY_PAUSE >= until:
                    raise StoreBusy(busy) from error
            await asyncio.sleep(BUSY_PAUSE)

    async def begin_write(self, until: float | None, busy: Text) -> None:
        await self._until_free(lambda: settle(self.raw.execute("BEGIN IMMEDIATE")), until, busy)

    async def begin_read(self) -> None:
        await settle(self.raw.execute("BEGIN"))

    async def commit(self) -> None:
        await settle(self.raw.execute("COMMIT"))

    async def rollback(self) -> None:
        await settle(self.raw.execute("ROLLBACK"))

    async def autocommit(self, statement: Callable[[], Awaitable[None]], until: float | None, busy: Text) -> None:
        try:
            await self._until_free(statement, until, busy)
        finally:
            if self.raw.in_transaction:  # only if something odd left one open
                await self.rollback()

    def refusal(self, error: BaseException, *, writing: bool, busy: Text) -> StoreError | None:
        if isinstance(error, sqlite3.Error):
            return self.outage.failed(error, writing=writing)
        return None

    async def table_names(self) -> list[str]:
        rows = await self.fetch("SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
                                " ORDER BY name")
        return [str(r[0]) for r in rows]

    async def schema_version(self) -> int:
        return await user_version(self.raw)

    async def close(self) -> None:
        await self.raw.close()
