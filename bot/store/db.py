"""The SQLite file: where it is, how it is opened, and how its schema is upgraded.

``open_database()`` returns an aiosqlite connection in autocommit mode (the
store writes its own ``BEGIN IMMEDIATE``/``COMMIT``), with WAL, foreign keys,
a busy timeout, and ``synchronous`` NORMAL (nothing committed is lost when the
process dies) or FULL (nothing committed is lost when the power goes).

Migrations are the files ``migrations/NNNN_name.sql`` beside this module,
numbered from 0001 without gaps. ``PRAGMA user_version`` holds the number of
the last one applied; each pending file is applied in its own transaction
together with the new ``user_version``, so a file is either fully applied or
not at all. A file whose ``user_version`` is above the newest migration the
code knows was written by a newer bot and is refused (``SchemaTooNew``)
without being changed.

``StoreBase`` is what the store's parts share: the connection that writes and
one that only reads (in WAL mode a read never waits behind a write, ours or
another program's), an ``asyncio.Lock`` for each that serialises its
transactions, the clock, and the ``_write()``/``_read()`` helpers. A write
waits for the database only until the deadline of the task that asked
(``bot.store.waits``), then is refused as busy; a disk that is full or
read-only or an I/O error refuses it with ``StoreUnavailable``
(``bot.store.faults``: one ERROR line per outage).
"""

from __future__ import annotations

import asyncio
import json
import re
import sqlite3
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass
from importlib import resources
from importlib.abc import Traversable
from pathlib import Path
from typing import Any

import aiosqlite

from ..poker.hand import MAX_CHIPS
from .errors import InvalidAmount, InvalidArgument, SchemaError, SchemaTooNew, StoreBusy, StoreError
from .faults import Outage, is_busy
from .waits import BUSY, deadline, held

__all__ = [
    "BUSY_SLICE",
    "DEFAULT_BUSY_TIMEOUT",
    "MAX_AMOUNT",
    "MAX_BALANCE",
    "SYNC_MODES",
    "Clock",
    "Migration",
    "StoreBase",
    "Tx",
    "latest_version",
    "load_migrations",
    "migrate",
    "open_database",
    "open_reader",
    "readonly_uri",
    "split_sql",
    "user_version",
]

SYNC_MODES = {"normal": "NORMAL", "full": "FULL"}
DEFAULT_BUSY_TIMEOUT = 10.0  # seconds an operation waits for the database when its task set no deadline
BUSY_SLICE = 0.1  # seconds SQLite itself waits for a lock before the store looks at the deadline again
BUSY_PAUSE = 0.02  # seconds between two tries to take the write lock

MAX_AMOUNT = 10**12  # the largest single movement (grant, transfer, buy-in...)
MAX_BALANCE = MAX_CHIPS  # the largest balance or stack
MAX_ID = 2**63 - 1  # SQLite INTEGER; Discord snowflakes fit easily

Clock = Callable[[], float]

_MIGRATION_NAME = re.compile(r"^(\d{4})_([A-Za-z0-9_\-]+)\.sql$")


# ------------------------------------------------------------------ migrations


@dataclass(frozen=True, slots=True)
class Migration:
    """One numbered SQL file."""

    version: int
    name: str
    sql: str


def _default_migrations() -> Traversable:
    return resources.files(__package__ or "bot.store") / "migrations"


def load_migrations(directory: Traversable | Path | str | None = None) -> list[Migration]:
    """Read ``NNNN_name.sql`` files from ``directory`` (default: the package's own), in order.

    Raises ``SchemaError`` when the numbers do not run 1, 2, 3... without gaps or repeats.
    """
    folder: Traversable = _default_migrations() if directory is None else (
        Path(directory) if isinstance(directory, str | Path) else directory
    )
    found: list[Migration] = []
    for entry in folder.iterdir():
        match = _MIGRATION_NAME.match(entry.name)
        if match is None:
            continue
        found.append(Migration(int(match.group(1)), match.group(2), entry.read_text(encoding="utf-8")))
    found.sort(key=lambda m: m.version)
    for expected, migration in enumerate(found, start=1):
        if migration.version != expected:
            raise SchemaError(
                f"migrations must be numbered 0001, 0002... without gaps or repeats; "
                f"found {migration.version:04d}_{migration.name}.sql where {expected:04d} was expected"
            )
    if not found:
        raise SchemaError(f"no migration files (NNNN_name.sql) in {folder}")
    return found


def latest_version(directory: Traversable | Path | str | None = None) -> int:
    """The schema version the code knows: the number of the newest migration."""
    return load_migrations(directory)[-1].version


def split_sql(script: str) -> list[str]:
    """Split a script into single statements (triggers' ``BEGIN ... END;`` bodies stay whole).

    ``sqlite3.executescript`` would commit any open transaction first, so the
    runner executes statement by statement inside its own transaction.
    """
    statements: list[str] = []
    buffer = ""
    pieces = script.split(";")
    for index, piece in enumerate(pieces):
        buffer += piece if index == len(pieces) - 1 else piece + ";"
        if sqlite3.complete_statement(buffer):
            statement = buffer.strip()
            if _has_code(statement):
                statements.append(statement)
            buffer = ""
    if _has_code(buffer):
        raise SchemaError(f"unterminated SQL statement at the end of a migration: {buffer.strip()[:80]!r}")
    return statements


def _has_code(sql: str) -> bool:
    """True if ``sql`` holds anything besides comments, blanks and semicolons."""
    without_comments = re.sub(r"--[^\n]*", "", sql)
    without_comments = re.sub(r"/\*.*?\*/", "", without_comments, flags=re.S)
    return bool(without_comments.replace(";", "").strip())


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
        raise _too_new(before, known)
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


def _too_new(found: int, known: int) -> SchemaTooNew:
    return SchemaTooNew(
        f"This database was written by a newer version of the bot (schema version {found}; this version "
        f"knows up to {known}). Upgrade the bot, or point POKER_DB at another file. The file was not changed.",
        found=found,
        known=known,
    )


# ------------------------------------------------------------------ opening


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
    usable database. (The configuration, not the store, reads the environment: ``bot.config``.)
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
            raise _too_new(found, migrations[-1].version)
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


# ------------------------------------------------------------------ validation and JSON


def check_id(value: object, what: str) -> int:
    """``value`` as a Discord id (a positive int that fits SQLite), or ``InvalidArgument``."""
    if not isinstance(value, int) or isinstance(value, bool) or not 0 < value <= MAX_ID:
        raise InvalidArgument(f"{what} must be a Discord id (a positive whole number), not {value!r}.")
    return value


def check_amount(value: object, what: str = "The amount", *, limit: int = MAX_AMOUNT) -> int:
    """``value`` as a chip amount from 1 to ``limit``, or ``InvalidAmount``."""
    if not isinstance(value, int) or isinstance(value, bool) or not 0 < value <= limit:
        shown = f"{value:,}" if isinstance(value, int) and not isinstance(value, bool) else repr(value)
        raise InvalidAmount(f"{what} must be a whole number of chips from 1 to {limit:,}, not {shown}.")
    return value


def check_count(value: object, what: str, low: int, high: int) -> int:
    """``value`` as an int from ``low`` to ``high``, or ``InvalidArgument``."""
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise InvalidArgument(f"{what} must be a whole number from {low} to {high}, not {value!r}.")
    return value


def to_json(value: Any, what: str) -> str:
    """Compact, key-sorted JSON text for a JSON column, or ``InvalidArgument``."""
    try:
        return json.dumps(value, sort_keys=True, separators=(",", ":"), allow_nan=False)
    except (TypeError, ValueError) as error:
        raise InvalidArgument(f"{what} must be JSON-serialisable: {error}") from error


def from_json(text: str | None) -> Any:
    """Decode a JSON column (``None`` stays ``None``)."""
    return None if text is None else json.loads(text)


# ------------------------------------------------------------------ the shared base


class Tx:
    """A thin helper over the connection inside one transaction (or one locked read).

    ``now`` is read once from the store's clock, so every row written by one
    operation carries the same time.
    """

    __slots__ = ("conn", "now")

    def __init__(self, conn: aiosqlite.Connection, now: float) -> None:
        self.conn = conn
        self.now = now

    # Each helper is one round trip to aiosqlite's thread (execute and fetch together).

    async def one(self, sql: str, params: Sequence[Any] | Mapping[str, Any] = ()) -> sqlite3.Row | None:
        """The first row of a query, or None."""
        rows = await self.conn.execute_fetchall(sql, params)
        return next(iter(rows), None)

    async def all(self, sql: str, params: Sequence[Any] | Mapping[str, Any] = ()) -> list[sqlite3.Row]:
        """Every row of a query."""
        return list(await self.conn.execute_fetchall(sql, params))

    async def value(self, sql: str, params: Sequence[Any] | Mapping[str, Any] = (), default: Any = None) -> Any:
        """The first column of the first row, or ``default``."""
        row = await self.one(sql, params)
        return default if row is None or row[0] is None else row[0]

    async def run(self, sql: str, params: Sequence[Any] | Mapping[str, Any] = ()) -> int:
        """Execute a statement that returns no rows; return the number of rows it changed."""
        cursor = await self.conn.execute(sql, params)
        return cursor.rowcount

    async def insert(self, sql: str, params: Sequence[Any] | Mapping[str, Any] = ()) -> int:
        """Execute an INSERT; return the new rowid."""
        row = await self.conn.execute_insert(sql, params)
        assert row is not None
        return int(row[0])


class StoreBase:
    """The connections, their locks and the clock shared by the bank, tables and audit parts of ``Store``.

    ``reader``: a second connection to the same file for ``_read()`` (None: reads use ``conn``, as for a
    database in memory). ``busy_timeout``: how long an operation waits for the database when its task set no
    deadline (``bot.store.waits``).
    """

    def __init__(self, conn: aiosqlite.Connection, *, clock: Clock = time.time, path: Path | None = None,
                 reader: aiosqlite.Connection | None = None, busy_timeout: float = DEFAULT_BUSY_TIMEOUT) -> None:
        self._conn = conn
        self._lock = asyncio.Lock()
        self._reader = reader or conn
        self._read_lock = asyncio.Lock() if reader is not None else self._lock
        self._clock = clock
        self._wait = busy_timeout
        self.path = path
        self.closed = False
        self.outage = Outage(path)

    @property
    def connection(self) -> aiosqlite.Connection:
        """The underlying aiosqlite connection (tests and tools only: writes must go through the store)."""
        return self._conn

    @staticmethod
    async def _settle(conn: aiosqlite.Connection, sql: str) -> None:
        """Run a transaction-control statement to completion even if the caller is cancelled meanwhile.

        aiosqlite runs statements in order on its own thread, so once queued a
        statement happens anyway; waiting for it keeps the connection's state
        (in a transaction or not) known before the lock is released. A
        cancellation that arrived meanwhile is raised afterwards.
        """
        task = asyncio.ensure_future(conn.execute(sql))
        cancelled = False
        while not task.done():
            try:
                await asyncio.shield(task)
            except asyncio.CancelledError:
                cancelled = True
        task.result()
        if cancelled:
            raise asyncio.CancelledError

    async def _until_free(self, attempt: Callable[[], Awaitable[None]], until: float | None, busy: str) -> None:
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

    def _refusal(self, error: BaseException, *, writing: bool) -> StoreError | None:
        """A store refusal for an SQLite error the host must fix (a full or read-only disk...), else None."""
        if isinstance(error, sqlite3.Error):
            return self.outage.failed(error, writing=writing)
        return None

    @asynccontextmanager
    async def _writing(self, busy: str = BUSY) -> AsyncIterator[float | None]:
        """The write connection's lock, waited for until the task's deadline (yields the deadline); an SQLite
        error of the host's (a full disk...) raised inside becomes ``StoreUnavailable``."""
        until = deadline(self._wait)
        async with held(self._lock, until, busy):
            try:
                yield until
            except sqlite3.Error as error:
                refusal = self._refusal(error, writing=True)
                if refusal is None:
                    raise
                raise refusal from error
            self.outage.succeeded()

    @asynccontextmanager
    async def _write(self) -> AsyncIterator[Tx]:
        """One ``BEGIN IMMEDIATE`` transaction: committed if the block ends, rolled back if it raises."""
        conn = self._conn
        async with self._writing() as until:
            try:
                await self._until_free(lambda: self._settle(conn, "BEGIN IMMEDIATE"), until, BUSY)
                yield Tx(conn, self._clock())
                await self._settle(conn, "COMMIT")
            except BaseException:
                if conn.in_transaction:
                    await self._settle(conn, "ROLLBACK")
                raise

    @asynccontextmanager
    async def _read(self) -> AsyncIterator[Tx]:
        """A consistent read: one deferred transaction on the read connection (never behind a write)."""
        conn = self._reader
        async with held(self._read_lock, deadline(self._wait)):
            try:
                await self._settle(conn, "BEGIN")
                yield Tx(conn, self._clock())
            except sqlite3.Error as error:
                refusal = self._refusal(error, writing=False)
                if refusal is None:
                    raise
                raise refusal from error
            finally:
                if conn.in_transaction:
                    await self._settle(conn, "COMMIT")
