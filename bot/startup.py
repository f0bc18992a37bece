"""Opening the bank at start: every problem the host must fix is one line that names it and the file.

``open_bank`` checks the path (a folder, a path under a file, a read-only file or disk, a folder the bot cannot
write), takes the bank's lock (one bot per bank: ``bot.store.lock``), looks at the file before the store touches
it (not an SQLite database, another program's database, a damaged file), then opens and upgrades it. Each
problem is a ``StartupError`` whose text is the line to print; ``python -m bot`` prints it and exits 2, with no
traceback. The log names the database once it is open.
"""

from __future__ import annotations

import logging
import os
import sqlite3
from contextlib import closing
from dataclasses import dataclass
from pathlib import Path

from .store import SchemaError, Store
from .store.db import readonly_uri
from .store.lock import BankInUse, BankLock

__all__ = ["BANK_TABLES", "OpenBank", "StartupError", "check_path", "inspect_file", "open_bank"]

log = logging.getLogger(__name__)

BANK_TABLES = frozenset({"accounts", "ledger", "tables", "hands"})  # tables every version of the bank has


class StartupError(Exception):
    """A problem that stops the bot from starting; ``str()`` is the one line to show the host."""


@dataclass(slots=True)
class OpenBank:
    """The bank's lock (held) and its open store."""

    lock: BankLock
    store: Store

    async def close(self) -> None:
        """Close the store, then let the lock go."""
        try:
            await self.store.close()
        finally:
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


async def open_bank(path: Path, *, synchronous: str = "normal", setting: str = "POKER_DB") -> OpenBank:
    """Check the path, take the bank's lock, check the file, open and upgrade it; ``StartupError`` for any
    problem the host must fix."""
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
