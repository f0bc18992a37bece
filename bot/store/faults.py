"""What SQLite's errors mean for the host: a disk that is full or read-only, an I/O error, a damaged file.

``cause_of(error)`` names the cause of an ``sqlite3`` error the host must fix (None for anything else: a lock is
a wait, a constraint is a refusal or a bug). ``Outage`` tells the log once per outage, in one ERROR line that
names the cause and the file, and once more (INFO) when the database can be written again; every operation
refused meanwhile raises ``StoreUnavailable``, whose words a player can be shown.
"""

from __future__ import annotations

import logging
import sqlite3
from pathlib import Path

from .errors import StoreUnavailable

__all__ = ["CAUSES", "Outage", "cause_of", "is_busy"]

log = logging.getLogger(__name__)

# SQLite's primary result codes (https://www.sqlite.org/rescode.html) and what they mean for the host.
CAUSES = {
    sqlite3.SQLITE_FULL: "disk full",
    sqlite3.SQLITE_READONLY: "read-only",
    sqlite3.SQLITE_IOERR: "I/O error",
    sqlite3.SQLITE_CANTOPEN: "cannot open the file",
    sqlite3.SQLITE_PERM: "permission denied",
    sqlite3.SQLITE_CORRUPT: "damaged file",
    sqlite3.SQLITE_NOTADB: "damaged file",
}
BUSY_CODES = frozenset({sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED})


def _code(error: BaseException) -> int | None:
    code = getattr(error, "sqlite_errorcode", None)
    return code & 0xFF if isinstance(code, int) else None


def cause_of(error: BaseException) -> str | None:
    """The host's problem behind an ``sqlite3`` error ("disk full", "read-only", "I/O error"...), or None."""
    code = _code(error)
    return CAUSES.get(code) if code is not None else None


def is_busy(error: BaseException) -> bool:
    """True for SQLite's "database is locked": another connection holds the lock (a wait, not a failure)."""
    code = _code(error)
    if code is not None:
        return code in BUSY_CODES
    text = str(error)
    return isinstance(error, sqlite3.OperationalError) and ("locked" in text or "busy" in text)


class Outage:
    """The database of one store, as far as being written goes: logs the start and the end of each outage."""

    def __init__(self, path: Path | None) -> None:
        self.path = path
        self.cause: str | None = None  # the outage under way, if any

    def failed(self, error: BaseException, *, writing: bool) -> StoreUnavailable | None:
        """The refusal for ``error`` if it is the host's problem (logged once per outage), else None."""
        cause = cause_of(error)
        if cause is None:
            return None
        if cause != self.cause:
            self.cause = cause
            log.error("cannot %s the database %s: %s (SQLite: %s); every change is refused until it can be "
                      "written again", "write" if writing else "read", self.path or "(in memory)", cause, error)
        verb = "write" if writing else "read"
        tail = "; nothing was changed." if writing else "."
        return StoreUnavailable(f"The bot cannot {verb} its database right now ({cause}){tail}", cause=cause)

    def succeeded(self) -> None:
        """A write went through: an outage under way is over."""
        if self.cause is not None:
            log.info("the database %s can be written again (it was: %s)", self.path or "(in memory)", self.cause)
            self.cause = None
