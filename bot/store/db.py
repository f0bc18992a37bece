"""What the store's parts share, whichever the engine: the migrations, the checks of arguments, JSON columns, and
``StoreBase`` with its transactions.

Migrations are the files ``migrations/NNNN_name.sql`` beside this module, numbered from 0001 without gaps, each
applied in one transaction with the new schema version (``bot.store.sqlite``, ``bot.store.postgres``). A migration
is one portable file for both engines, or, where SQLite and PostgreSQL need different SQL (triggers, JSON checks),
a file per engine: ``NNNN_name.sql`` for SQLite beside ``NNNN_name.postgresql.sql`` with the same number and name.

``StoreBase`` is what the store's parts share: the connection that writes and one that only reads (a read never
waits behind a write: SQLite's WAL, PostgreSQL's snapshots), an ``asyncio.Lock`` for each that serialises its
transactions, the clock, and the ``_write()``/``_read()`` helpers. A write waits for the database only until the
deadline of the task that asked (``bot.store.waits``), then is refused as busy; a disk that is full or read-only,
an I/O error or a lost database server refuses it with ``StoreUnavailable`` (``bot.store.faults``: one ERROR line
per outage).
"""

from __future__ import annotations

import asyncio
import json
import re
import sqlite3
import time
from collections.abc import AsyncIterator, Callable, Iterable, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass
from importlib import resources
from importlib.abc import Traversable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..i18n.text import Text
from ..poker.hand import MAX_CHIPS
from .dialect import Engine, Params
from .errors import InvalidAmount, InvalidArgument, SchemaError, SchemaTooNew
from .waits import BUSY, deadline, held

if TYPE_CHECKING:
    from .connection import Connection, Row

__all__ = [
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
    "split_sql",
    "too_new",
]

SYNC_MODES = {"normal": "NORMAL", "full": "FULL"}
DEFAULT_BUSY_TIMEOUT = 10.0  # seconds an operation waits for the database when its task set no deadline

MAX_AMOUNT = 10**12  # the largest single movement (grant, transfer, buy-in...)
MAX_BALANCE = MAX_CHIPS  # the largest balance or stack
MAX_ID = 2**63 - 1  # SQLite INTEGER, PostgreSQL BIGINT; Discord snowflakes fit easily

Clock = Callable[[], float]

_MIGRATION_NAME = re.compile(r"^(\d{4})_([A-Za-z0-9_\-]+)(?:\.(postgresql))?\.sql$")


# ------------------------------------------------------------------ migrations


@dataclass(frozen=True, slots=True)
class Migration:
    """One numbered SQL file."""

    version: int
    name: str
    sql: str


def _default_migrations() -> Traversable:
    return resources.files(__package__ or "bot.store") / "migrations"


def load_migrations(directory: Traversable | Path | str | None = None, engine: Engine = "sqlite") -> list[Migration]:
    """Read ``NNNN_name.sql`` files from ``directory`` (default: the package's own), in order, as ``engine`` runs
    them: for PostgreSQL, ``NNNN_name.postgresql.sql`` where there is one.

    Raises ``SchemaError`` when the numbers do not run 1, 2, 3... without gaps or repeats, or when an engine's file
    has no portable or SQLite file of the same number and name beside it.
    """
    folder: Traversable = _default_migrations() if directory is None else (
        Path(directory) if isinstance(directory, str | Path) else directory
    )
    found: list[Migration] = []
    variants: dict[tuple[int, str], str] = {}
    for entry in folder.iterdir():
        match = _MIGRATION_NAME.match(entry.name)
        if match is None:
            continue
        key = (int(match.group(1)), match.group(2))
        if match.group(3):
            variants[key] = entry.read_text(encoding="utf-8")
        else:
            found.append(Migration(*key, entry.read_text(encoding="utf-8")))
    found.sort(key=lambda m: m.version)
    for expected, migration in enumerate(found, start=1):
        if migration.version != expected:
            raise SchemaError(
                f"migrations must be numbered 0001, 0002... without gaps or repeats; "
                f"found {migration.version:04d}_{migration.name}.sql where {expected:04d} was expected"
            )
    if not found:
        raise SchemaError(f"no migration files (NNNN_name.sql) in {folder}")
    orphans = set(variants) - {(m.version, m.name) for m in found}
    if orphans:
        version, name = min(orphans)
        raise SchemaError(f"{version:04d}_{name}.postgresql.sql has no {version:04d}_{name}.sql beside it")
    if engine == "postgresql":
        return [Migration(m.version, m.name, variants.get((m.version, m.name), m.sql)) for m in found]
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


def too_new(found: int, known: int) -> SchemaTooNew:
    """The refusal of a bank written by a newer bot (schema version ``found``; this code knows ``known``)."""
    return SchemaTooNew(
        f"This database was written by a newer version of the bot (schema version {found}; this version "
        f"knows up to {known}). Upgrade the bot, or point POKER_DB at another file. The file was not changed.",
        found=found,
        known=known,
    )


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

    def __init__(self, conn: Connection, now: float) -> None:
        self.conn = conn
        self.now = now

    @property
    def engine(self) -> Engine:
        """The database engine: ``sqlite`` or ``postgresql``."""
        return self.conn.engine

    async def one(self, sql: str, params: Params = ()) -> Row | None:
        """The first row of a query, or None."""
        rows = await self.conn.fetch(sql, params)
        return rows[0] if rows else None

    async def all(self, sql: str, params: Params = ()) -> list[Row]:
        """Every row of a query."""
        return await self.conn.fetch(sql, params)

    async def value(self, sql: str, params: Params = (), default: Any = None) -> Any:
        """The first column of the first row, or ``default``."""
        row = await self.one(sql, params)
        return default if row is None or row[0] is None else row[0]

    async def run(self, sql: str, params: Params = ()) -> int:
        """Execute a statement that returns no rows; return the number of rows it changed."""
        return await self.conn.execute(sql, params)

    async def many(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        """Execute a statement once per parameter row."""
        await self.conn.executemany(sql, list(rows))

    async def insert(self, sql: str, params: Params = ()) -> int:
        """Execute an INSERT; return the new row's id."""
        return await self.conn.insert(sql, params)


class StoreBase:
    """The connections, their locks and the clock shared by the bank, tables and audit parts of ``Store``.

    ``reader``: a second connection to the same database for ``_read()`` (None: reads use ``conn``, as for an
    SQLite database in memory). ``busy_timeout``: how long an operation waits for the database when its task set
    no deadline (``bot.store.waits``).
    """

    def __init__(self, conn: Connection, *, clock: Clock = time.time, path: Path | None = None,
                 reader: Connection | None = None, busy_timeout: float = DEFAULT_BUSY_TIMEOUT,
                 where: str | None = None) -> None:
        self._conn = conn
        self._lock = asyncio.Lock()
        self._reader = reader or conn
        self._read_lock = asyncio.Lock() if reader is not None else self._lock
        self._clock = clock
        self._wait = busy_timeout
        self.path = path
        self.where = where or str(path or "(in memory)")  # the bank, as the log names it
        self.closed = False

    @property
    def db(self) -> Connection:
        """The connection that writes (tests and tools only: the store's writes go through its operations)."""
        return self._conn

    @property
    def engine(self) -> Engine:
        """The database engine: ``sqlite`` or ``postgresql``."""
        return self._conn.engine

    @asynccontextmanager
    async def _writing(self, busy: Text = BUSY) -> AsyncIterator[float | None]:
        """The write connection's lock, waited for until the task's deadline (yields the deadline); an error of
        the host's raised inside (a full disk, a lost server...) becomes ``StoreUnavailable``, a lock of another
        program's held past the deadline ``StoreBusy``."""
        until = deadline(self._wait)
        async with held(self._lock, until, busy):
            try:
                yield until
            except Exception as error:
                refusal = self._conn.refusal(error, writing=True, busy=busy)
                if refusal is None:
                    raise
                raise refusal from error
            self._conn.outage.succeeded()

    @asynccontextmanager
    async def _write(self) -> AsyncIterator[Tx]:
        """One write transaction: committed if the block ends, rolled back if it raises."""
        conn = self._conn
        async with self._writing() as until:
            try:
                await conn.begin_write(until, BUSY)
                yield Tx(conn, self._clock())
                await conn.commit()
            except BaseException:
                if conn.in_transaction:
                    await conn.rollback()
                raise

    @asynccontextmanager
    async def _read(self) -> AsyncIterator[Tx]:
        """A consistent read: one read-only transaction on the read connection (never behind a write)."""
        conn = self._reader
        async with held(self._read_lock, deadline(self._wait)):
            try:
                await conn.begin_read()
                yield Tx(conn, self._clock())
            except Exception as error:
                refusal = conn.refusal(error, writing=False, busy=BUSY)
                if refusal is None:
                    raise
                raise refusal from error
            finally:
                if conn.in_transaction:
                    await conn.commit()
