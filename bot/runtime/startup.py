"""Opening the bank at start: every problem the host must fix is one line that names it and the file.

``open_bank`` checks the path (a folder, a path under a file, a read-only file or disk, a folder the bot cannot
write), takes the bank's lock (one bot per bank: ``bot.store.lock``), looks at the file before the store touches
it (not an SQLite database, another program's database, a damaged file), then opens and upgrades it. Each
problem is a ``StartupError`` whose text is the line to print; ``python -m bot`` prints it and exits 2, with no
traceback. The log names the database once it is open.

A PostgreSQL bank (``POKER_DB=postgresql://...``) is shared by the bot's processes, each running some shards:
``open_bank`` takes the advisory lock of each shard this process runs (``bot.store.lock.ShardLocks``), waiting as
a standby while another process runs one, before the store opens (and before Discord is reached). A server out of
reach at start is tried again for ``REACH_DB_FOR`` seconds; a lost lock later stops the process at once, since
another may take its shards over.
"""

from __future__ import annotations

import asyncio
import logging
import os
import socket
import sqlite3
from collections.abc import Awaitable, Callable
from contextlib import closing
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

from ..store import SchemaError, Store
from ..store.lock import BankInUse, BankLock, ShardCountMismatch, ShardLocks
from ..store.postgres import cause_of_pg, redact
from ..store.sqlite import readonly_uri

__all__ = ["BANK_TABLES", "OpenBank", "StartupError", "check_path", "inspect_file", "open_bank"]

log = logging.getLogger(__name__)

BANK_TABLES = frozenset({"accounts", "ledger", "tables", "hands"})  # tables every version of the bank has
REACH_DB_FOR = 60.0  # seconds a PostgreSQL server out of reach is tried again at start
LOST_SHARDS_EXIT = 3  # the exit status of a process that lost the lock of its shards
T = TypeVar("T")


class StartupError(Exception):
    """A problem that stops the bot from starting; ``str()`` is the one line to show the host."""


@dataclass(slots=True)
class OpenBank:
    """The bank's lock (held: the file's, or the shards' of a PostgreSQL bank) and its open store."""

    lock: BankLock | ShardLocks
    store: Store

    async def close(self) -> None:
        """Close the store, then let the lock go."""
        try:
            await self.store.close()
        finally:
            if isinstance(self.lock, ShardLocks):
                await self.lock.release()
            else:
                self.lock.release()


def _uid() -> int:
    return os.geteuid() if hasattr(os, "geteuid") else -1


def _is_read_only_disk(folder: Path) -> bool:
    try:
        return bool(os.statvfs(folder).f_flag & os.ST_RDONLY)
    except OSError:
        return False


def _owner(path: Path) -> str:
    try:
        return f"uid {path.stat().st_uid}"
    except OSError:
        return "another user"


def check_path(path: Path, setting: str = "POKER_DB") -> None:
    """Refuse a database path the bot cannot use, with the reason; create its folder when it is missing."""
    name = f"{setting} {path}"
    if path.is_dir():
        raise StartupError(f"{name} is a folder: name the database file in it, such as {path / 'poker.db'}")
    for parent in path.parents:
        if parent.exists() and not parent.is_dir():
            raise StartupError(f"{name} cannot be used: {parent} is a file, not a folder")
    if path.exists() and not path.is_file():
        raise StartupError(f"{name} is not a regular file")
    folder = path.parent
    if not folder.exists():
        try:
            folder.mkdir(parents=True)
        except OSError as error:
            raise StartupError(f"{name}: its folder {folder} cannot be created ({error.strerror})") from None
        log.warning("created the folder %s for the database", folder.resolve())
    if _is_read_only_disk(folder):
        raise StartupError(f"{name} is on a read-only disk (mounted read-only): the bot must write its database")
    if path.exists() and not os.access(path, os.R_OK | os.W_OK):
        raise StartupError(f"{name} is a read-only file for the bot (uid {_uid()}; the file belongs to "
                           f"{_owner(path)}): the bot must read and write it")
    if not os.access(folder, os.W_OK | os.X_OK):
        raise StartupError(f"{name}: the folder {folder} is read-only for the bot (uid {_uid()}; the folder belongs "
                           f"to {_owner(folder)}), and SQLite writes {path.name}-wal and {path.name}-shm beside "
                           "the file")
    for extra in (path.with_name(path.name + "-wal"), path.with_name(path.name + "-shm")):
        if extra.exists() and not os.access(extra, os.R_OK | os.W_OK):
            raise StartupError(f"{name}: {extra} is read-only for the bot (uid {_uid()}; it belongs to "
                               f"{_owner(extra)})")


def inspect_file(path: Path, setting: str = "POKER_DB") -> bool:
    """Look at an existing database before the store opens it: refuse a file that is not an SQLite database,
    another program's database (never adopted) or a damaged one. True if the file is a bank (False: new)."""
    name = f"{setting} {path}"
    if not path.exists() or path.stat().st_size == 0:
        return False
    try:
        with closing(sqlite3.connect(readonly_uri(path), uri=True, timeout=10)) as conn:
            names = {row[0] for row in conn.execute(
                "SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")}
            version = int(conn.execute("PRAGMA user_version").fetchone()[0])
            check = [row[0] for row in conn.execute("PRAGMA quick_check(3)")]
    except sqlite3.DatabaseError as error:
        if "not a database" in str(error) or "malformed" in str(error):
            raise StartupError(f"{name} is not an SQLite database, or it is damaged ({error}): restore it from a "
                               "backup (README: Backups), or point POKER_DB at another file") from None
        raise StartupError(f"{name} cannot be read ({error})") from None
    if names and not names >= BANK_TABLES:
        shown = ", ".join(sorted(names)[:5]) + (", ..." if len(names) > 5 else "")
        raise StartupError(f"{name} is another program's SQLite database (tables: {shown}): the bot will not write "
                           "into it; point POKER_DB at the bot's own file, or a new one")
    if not names and version:
        raise StartupError(f"{name} is an SQLite database of another program (user_version {version}, no tables): "
                           "the bot will not write into it")
    if check != ["ok"]:
        raise StartupError(f"{name} is damaged (SQLite's quick check: {'; '.join(check)}): restore it from a "
                           "backup (README: Backups)")
    return bool(names)


async def open_bank(bank: Path | str, *, synchronous: str = "normal", setting: str = "POKER_DB",
                    shards: tuple[int, tuple[int, ...]] = (1, (0,))) -> OpenBank:
    """Check the path, take the bank's lock, check the file, open and upgrade it; ``StartupError`` for any
    problem the host must fix. A PostgreSQL URL: take the locks of ``shards`` (count, ids), then open it."""
    if isinstance(bank, str):
        return await open_postgres_bank(bank, shards=shards, setting=setting)
    path = bank
    check_path(path, setting)
    lock = BankLock(path)
    try:
        lock.acquire()
    except BankInUse as error:
        who = f" ({error.holder})" if error.holder else ""
        raise StartupError(f"A bot is already running on {path}{who}: stop it first (two bots on one bank would "
                           "carry out every command twice)") from None
    except OSError as error:
        raise StartupError(f"{setting} {path}: its lock file {lock.path} cannot be written ({error.strerror})") \
            from None
    try:
        existed = inspect_file(path, setting)
        try:
            store = await Store.open(path, synchronous=synchronous)
        except SchemaError as error:
            raise StartupError(f"{setting} {path}: {error}") from None
        except sqlite3.Error as error:
            raise StartupError(f"{setting} {path} cannot be opened ({error})") from None
    except BaseException:
        lock.release()
        raise
    where = path.resolve()
    if existed:
        log.info("the bank: %s (schema version %d)", where, await store.schema_version())
    else:
        log.warning("no bank at %s: a new, empty one was created there", where)
    return OpenBank(lock, store)


def _lost_shards(shards: tuple[int, ...]) -> Callable[[], None]:
    def lost() -> None:
        log.critical("the connection holding the lock of shards %s to the database was lost: this process stops at "
                     "once (another bot may take them over; every action is stored)", _listed(shards))
        logging.shutdown()
        os._exit(LOST_SHARDS_EXIT)

    return lost


def _listed(shards: tuple[int, ...]) -> str:
    return ", ".join(str(s) for s in shards)


async def _reaching(step: Callable[[], Awaitable[T]], where: str, setting: str) -> T:
    """``step()``, tried again while the server cannot be reached (or is starting), for ``REACH_DB_FOR`` seconds;
    every other problem of the host's is one line."""
    loop = asyncio.get_running_loop()
    began, pause = loop.time(), 1.0
    while True:
        try:
            return await step()
        except SchemaError as error:
            raise StartupError(f"{setting} {where}: {error}") from None
        except Exception as error:
            if isinstance(error, socket.gaierror):  # a name that resolves to no machine: the setting is wrong
                raise StartupError(f"{setting} {where}: the database server's name does not resolve ({error})") \
                    from None
            cause = cause_of_pg(error)
            if cause is None:
                raise
            retry = cause in ("the database server cannot be reached", "the database server is starting or stopping",
                              "too many connections")
            if not retry or loop.time() - began + pause > REACH_DB_FOR:
                raise StartupError(f"{setting} {where}: {cause} ({type(error).__name__}: {error})") from None
            log.warning("the database %s: %s; trying again in %.0f s", where, cause, pause)
            await asyncio.sleep(pause)
            pause = min(pause * 2, 10.0)


async def open_postgres_bank(url: str, *, shards: tuple[int, tuple[int, ...]] = (1, (0,)),
                             setting: str = "POKER_DB") -> OpenBank:
    """Take the locks of this process's shards on the PostgreSQL bank at ``url`` (waiting as a standby while another
    process runs one), then open and upgrade it."""
    where = redact(url)
    count, ids = shards
    locks = ShardLocks(url, count, ids)

    def waiting(shard: int, holder: str | None) -> None:
        log.warning("shard %d of %d is run by %s on %s: this bot waits as a standby and takes it over when that bot "
                    "stops", shard, count, holder or "another bot", where)

    try:
        await _reaching(lambda: locks.acquire(on_wait=waiting, on_lost=_lost_shards(ids)), where, setting)
    except ShardCountMismatch as error:
        raise StartupError(f"{setting} {where}: {error}") from None
    try:
        store = await _reaching(lambda: Store.open(url), where, setting)
    except BaseException:
        await locks.release()
        raise
    log.info("the bank: %s (PostgreSQL, schema version %d); this process runs shards %s of %d", where,
             await store.schema_version(), _listed(ids), count)
    return OpenBank(locks, store)
