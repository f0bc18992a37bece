"""The PostgreSQL engine: the bank in a PostgreSQL database, through asyncpg (``pip install '.[postgres]'``).

``open_postgres(url)`` connects twice (a connection that writes, one that reads a snapshot: a read never waits
behind a write) and applies the pending migrations, each in one transaction with the new version in the table
``poker_schema``, under a transaction-level advisory lock so that two processes starting at once apply each
migration once. The database must exist; a database of another program (tables, but no ``poker_schema``) is refused,
never adopted.

A write transaction waits for another program's lock only until the asking task's deadline (``lock_timeout``, set
for the transaction), then is refused as busy. A lost connection (the server restarted, the network dropped) is
opened again at the next operation; meanwhile operations are refused with ``StoreUnavailable`` ("the database
server cannot be reached"), as a full disk is with SQLite, and timers try again by themselves.

PostgreSQL's ``sum(bigint)`` is a numeric: it is read back as an int (a float if it has a fraction), as SQLite's is.
"""

from __future__ import annotations

import asyncio
import os
import re
import socket
from collections.abc import Awaitable, Callable, Sequence
from importlib.abc import Traversable
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from ..i18n.text import Text
from .connection import Connection, Row, settle
from .db import Migration, load_migrations, too_new
from .dialect import Params, ddl_for_postgres, postgres_args
from .errors import SchemaError, StoreBusy, StoreError
from .faults import Outage

if TYPE_CHECKING:
    import asyncpg

__all__ = [
    "MIGRATION_LOCK",
    "PgConnection",
    "cause_of_pg",
    "connect",
    "is_postgres_url",
    "open_postgres",
    "redact",
]

_URL = re.compile(r"^postgres(?:ql)?://", re.IGNORECASE)
MIGRATION_LOCK = 0x706F6B72  # "pokr": the advisory lock (with key 0) taken while migrating
STATEMENT_CACHE = 1024  # prepared statements kept per connection (the store has a few hundred queries)
DRIVER_MISSING = ("PostgreSQL needs the asyncpg driver, which is not installed: pip install 'draw-poker-bot[postgres]' "
                  "(or pip install asyncpg)")

# PostgreSQL's SQLSTATE codes (https://www.postgresql.org/docs/current/errcodes-appendix.html) the host must fix.
PG_CAUSES = {
    "53100": "disk full",
    "53200": "out of memory",
    "53300": "too many connections",
    "53000": "out of resources",
    "25006": "read-only",
    "57P01": "the database server is shutting down",
    "57P02": "the database server crashed",
    "57P03": "the database server is starting or stopping",
    "58030": "I/O error",
    "XX001": "damaged data",
    "XX002": "damaged index",
    "42501": "permission denied",
    "3D000": "the database does not exist",
    "28P01": "the password was refused",
    "28000": "the login was refused",
}
LOST = "the database server cannot be reached"
BUSY_STATES = frozenset({"55P03", "40P01", "40001"})  # lock timeout, deadlock, serialization failure


def is_postgres_url(text: str) -> bool:
    """True for a ``postgresql://`` (or ``postgres://``) URL."""
    return bool(_URL.match(text.strip()))


def redact(url: str) -> str:
    """A URL as it may be printed: a password in it is hidden."""
    return re.sub(r"(://[^:/@]+:)[^@/]*@", r"\1***@", url)


def _driver() -> Any:
    try:
        import asyncpg
    except ImportError:
        raise SchemaError(DRIVER_MISSING) from None
    return asyncpg


def cause_of_pg(error: BaseException) -> str | None:
    """The host's problem behind a PostgreSQL or connection error ("disk full", "the database server cannot be
    reached"...), or None (a bug, a constraint, a wait)."""
    state = getattr(error, "sqlstate", None)
    if isinstance(state, str):
        if state in PG_CAUSES:
            return PG_CAUSES[state]
        if state.startswith("08"):  # connection exceptions
            return LOST
        if state.startswith("53"):
            return PG_CAUSES["53000"]
        return None
    asyncpg = _driver()
    # Closed, reset or refused; or the driver's state broken by the server ending the session under it.
    if isinstance(error, (OSError, ConnectionError, asyncpg.InterfaceError, asyncpg.exceptions.InternalClientError)):
        return LOST
    return None


def _number(text: str) -> int | float:
    """A numeric (a sum of bigints) as a Python number."""
    try:
        return int(text)
    except ValueError:
        return float(text)


def _name() -> str:
    """What the server shows of this process in ``pg_stat_activity`` (and a second bot in its refusal)."""
    return f"poker-bot pid {os.getpid()} on host {socket.gethostname()}"[:63]


async def connect(url: str, *, read_only: bool = False, timeout: float = 10.0) -> asyncpg.Connection:
    """A new connection as the store uses it (numerics read as numbers, a name in ``pg_stat_activity``)."""
    driver = _driver()
    settings = {"application_name": _name()}
    if read_only:
        settings["default_transaction_read_only"] = "on"
    conn: asyncpg.Connection = await driver.connect(url, timeout=timeout, statement_cache_size=STATEMENT_CACHE,
                                 server_settings=settings)
    try:
        await conn.set_type_codec("numeric", schema="pg_catalog", encoder=str, decoder=_number, format="text")
    except BaseException:
        await conn.close()
        raise
    return conn


class PgConnection(Connection):
    """One asyncpg connection as the store uses it; opened again after it was lost."""

    engine = "postgresql"

    def __init__(self, url: str, raw: asyncpg.Connection, outage: Outage, *, read_only: bool = False) -> None:
        self.url = url
        self.raw: asyncpg.Connection | None = raw
        self.outage = outage
        self.read_only = read_only
        self.closed = False

    @property
    def in_transaction(self) -> bool:
        raw = self.raw
        return raw is not None and not raw.is_closed() and bool(raw.is_in_transaction())

    async def _conn(self) -> asyncpg.Connection:
        """The connection, opened again if it was lost."""
        raw = self.raw
        if raw is not None and not raw.is_closed():
            return raw
        if self.closed:
            raise _driver().InterfaceError("the store is closed")
        self.raw = None
        if raw is not None:
            raw.terminate()
        self.raw = await connect(self.url, read_only=self.read_only)
        return self.raw

    def _live(self) -> asyncpg.Connection:
        """The connection inside a transaction (opened by ``begin_*``)."""
        raw = self.raw
        if raw is None:
            raise _driver().InterfaceError("the connection to the database was lost")
        return raw

    async def fetch(self, sql: str, params: Params = ()) -> list[Row]:
        text, args = postgres_args(sql, params)
        return cast(list[Row], await self._live().fetch(text, *args))

    async def execute(self, sql: str, params: Params = ()) -> int:
        text, args = postgres_args(sql, params)
        status = await self._live().execute(text, *args)
        last = status.rsplit(" ", 1)[-1]
        return int(last) if last.isdigit() else 0

    async def executemany(self, sql: str, rows: Sequence[Sequence[Any]]) -> None:
        if not rows:
            return
        text, _ = postgres_args(sql, rows[0])
        await self._live().executemany(text, [list(row) for row in rows])

    async def insert(self, sql: str, params: Params = ()) -> int:
        text, args = postgres_args(sql, params)
        return int(await self._live().fetchval(f"{text} RETURNING id", *args))

    async def _begin(self, sql: str) -> None:
        """Open a transaction; on a connection found lost at that moment (the server restarted since the last
        operation), once more on a new one: nothing was sent that could have been carried out."""
        raw = await self._conn()
        try:
            await settle(raw.execute(sql))
        except Exception as error:
            if cause_of_pg(error) != LOST:
                raise
            raw.terminate()
            await settle((await self._conn()).execute(sql))

    async def begin_write(self, until: float | None, busy: Text) -> None:
        if until is None:
            await self._begin("BEGIN")
            return
        left = until - asyncio.get_running_loop().time()
        if left <= 0:
            raise StoreBusy(busy)
        # One round trip: the transaction and how long its statements may wait for another program's lock.
        await self._begin(f"BEGIN; SET LOCAL lock_timeout = {max(1, int(left * 1000))}")

    async def begin_read(self) -> None:
        await self._begin("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")

    async def commit(self) -> None:
        await settle(self._live().execute("COMMIT"))

    async def rollback(self) -> None:
        raw = self.raw
        if raw is None or raw.is_closed():
            return
        try:
            await settle(raw.execute("ROLLBACK"))
        except Exception as error:  # lost meanwhile: the server rolls it back
            if cause_of_pg(error) != LOST:
                raise
            raw.terminate()

    async def autocommit(self, statement: Callable[[], Awaitable[None]], until: float | None, busy: Text) -> None:
        # One statement in a transaction of its own, so that its wait for a lock ends at the deadline on the server
        # (a statement cancelled from here could have been committed all the same).
        await self.begin_write(until, busy)
        try:
            await statement()
            await self.commit()
        except BaseException:
            if self.in_transaction:
                await self.rollback()
            raise

    def refusal(self, error: BaseException, *, writing: bool, busy: Text) -> StoreError | None:
        state = getattr(error, "sqlstate", None)
        if state in BUSY_STATES:
            return StoreBusy(busy)
        cause = cause_of_pg(error)
        if cause is None:
            return None
        if cause == LOST and self.raw is not None:
            self.raw.terminate()  # opened again at the next operation
        return self.outage.failed_because(cause, error, writing=writing, engine="PostgreSQL")

    async def table_names(self) -> list[str]:
        raw = await self._conn()
        rows = await raw.fetch("SELECT tablename FROM pg_tables WHERE schemaname = current_schema()"
                               " ORDER BY tablename")
        return [str(r[0]) for r in rows]

    async def schema_version(self) -> int:
        return await schema_version(await self._conn())

    async def close(self) -> None:
        self.closed = True
        raw, self.raw = self.raw, None
        if raw is not None and not raw.is_closed():
            try:
                await asyncio.wait_for(raw.close(), 5)
            except (OSError, TimeoutError, _driver().InterfaceError):
                raw.terminate()


# ------------------------------------------------------------------ migrations


async def schema_version(conn: asyncpg.Connection) -> int:
    """The version in ``poker_schema`` (0: no bank yet)."""
    if await conn.fetchval("SELECT to_regclass('poker_schema')") is None:
        return 0
    return int(await conn.fetchval("SELECT coalesce(max(version), 0) FROM poker_schema"))


async def _foreign_tables(conn: asyncpg.Connection) -> list[str]:
    """The tables of a database that holds no bank (no ``poker_schema``): another program's. Read in one statement:
    a bot starting beside another on a new database must not see the other's first migration committed between
    two reads (no ``poker_schema`` yet, then its tables), which took a bank being created for a foreign one."""
    rows = await conn.fetch("SELECT tablename FROM pg_tables WHERE schemaname = current_schema() ORDER BY 1")
    tables = [str(r[0]) for r in rows]
    return [] if "poker_schema" in tables else tables


async def migrate(conn: asyncpg.Connection, migrations: Sequence[Migration], where: str) -> tuple[int, int]:
    """Apply the pending ``migrations``; return ``(version before, version after)``. Each runs in one transaction
    with its new version, after taking the migration lock and reading the version again (another process may have
    applied it meanwhile). A failure rolls it back and raises ``SchemaError``."""
    asyncpg = _driver()
    known = migrations[-1].version if migrations else 0
    before = await schema_version(conn)
    if before > known:
        raise too_new(before, known)
    for migration in migrations:
        if migration.version <= before:
            continue
        try:
            async with conn.transaction():
                await conn.execute(f"SELECT pg_advisory_xact_lock({MIGRATION_LOCK}, 0)")
                await conn.execute("CREATE TABLE IF NOT EXISTS poker_schema (version INTEGER NOT NULL)")
                current = await schema_version(conn)
                if current >= migration.version:
                    continue
                await conn.execute(ddl_for_postgres(migration.sql))
                await conn.execute("DELETE FROM poker_schema")
                await conn.execute("INSERT INTO poker_schema (version) VALUES ($1)", migration.version)
        except asyncpg.PostgresError as error:
            if cause_of_pg(error) is not None:
                raise
            raise SchemaError(f"migration {migration.version:04d}_{migration.name}.sql failed and was rolled back "
                              f"({where}): {error}") from error
    return before, await schema_version(conn)


async def open_postgres(
    url: str,
    outage: Outage,
    *,
    migrations_dir: Traversable | Path | str | None = None,
    upgrade: bool = True,
    read_only: bool = False,
) -> tuple[PgConnection, PgConnection]:
    """Connect (writer and reader), refuse another program's database or a newer bot's bank, and apply the pending
    migrations (unless ``upgrade`` is False: a bank that is only read)."""
    where = redact(url)
    migrations = load_migrations(migrations_dir, engine="postgresql")
    writer = await connect(url, read_only=read_only)
    try:
        foreign = await _foreign_tables(writer)
        if foreign:
            shown = ", ".join(foreign[:5]) + (", ..." if len(foreign) > 5 else "")
            raise SchemaError(f"{where} is another program's database (tables: {shown}): the bot will not write "
                              "into it; point POKER_DB at a database of its own, or a new one")
        found = await schema_version(writer)
        if found > migrations[-1].version:
            raise too_new(found, migrations[-1].version)
        if upgrade:
            await migrate(writer, migrations, where)
        reader = await connect(url, read_only=True)
    except BaseException:
        writer.terminate()
        raise
    return (PgConnection(url, writer, outage, read_only=read_only),
            PgConnection(url, reader, outage, read_only=True))
