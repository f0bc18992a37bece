"""What the database's errors mean for the host: a disk that is full or read-only, an I/O error, a damaged file, a
database server out of reach.

``cause_of(error)`` names the cause of an ``sqlite3`` error the host must fix (None for anything else: a lock is
a wait, a constraint is a refusal or a bug); ``bot.store.postgres`` names PostgreSQL's. ``Outage`` tells the log
once per outage, in one ERROR line that names the cause and the bank, and once more (INFO) when the database can be
written again; every operation refused meanwhile raises ``StoreUnavailable``, whose words a player can be shown (a
``Text``, with the cause in the reader's words: ``CAUSE_WORDS``).
"""

from __future__ import annotations

import logging
import sqlite3

from ..i18n.text import Text
from .errors import StoreUnavailable

__all__ = ["CAUSES", "CAUSE_WORDS", "Outage", "cause_of", "is_busy"]

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

# Each cause (SQLite's above, PostgreSQL's in bot.store.postgres) as a player is shown it, in his language; the
# cause itself stays English (``StoreUnavailable.cause``, the log, the command-line tools).
CAUSE_WORDS: dict[str, Text] = {
    "disk full": Text("disk full"),
    "read-only": Text("read-only"),
    "I/O error": Text("I/O error"),
    "cannot open the file": Text("cannot open the file"),
    "permission denied": Text("permission denied"),
    "damaged file": Text("damaged file"),
    "out of memory": Text("out of memory"),
    "too many connections": Text("too many connections"),
    "out of resources": Text("out of resources"),
    "the database server is shutting down": Text("the database server is shutting down"),
    "the database server crashed": Text("the database server crashed"),
    "the database server is starting or stopping": Text("the database server is starting or stopping"),
    "damaged data": Text("damaged data"),
    "damaged index": Text("damaged index"),
    "the database does not exist": Text("the database does not exist"),
    "the password was refused": Text("the password was refused"),
    "the login was refused": Text("the login was refused"),
    "the database server cannot be reached": Text("the database server cannot be reached"),
}


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

    def __init__(self, where: str | None) -> None:
        self.where = where or "(in memory)"  # the file, or the URL without its password
        self.cause: str | None = None  # the outage under way, if any

    def failed(self, error: BaseException, *, writing: bool) -> StoreUnavailable | None:
        """The refusal for ``error`` if it is the host's problem (logged once per outage), else None."""
        cause = cause_of(error)
        return None if cause is None else self.failed_because(cause, error, writing=writing, engine="SQLite")

    def failed_because(self, cause: str, error: BaseException, *, writing: bool,
                       engine: str) -> StoreUnavailable:
        """The refusal for ``error``, whose cause the host must fix (logged once per outage)."""
        if cause != self.cause:
            self.cause = cause
            log.error("cannot %s the database %s: %s (%s: %s); every change is refused until it can be "
                      "written again", "write" if writing else "read", self.where, cause, engine, error)
        words = CAUSE_WORDS.get(cause, cause)
        if writing:
            text = Text("The bot cannot write its database right now ({cause}); nothing was changed.", cause=words)
        else:
            text = Text("The bot cannot read its database right now ({cause}).", cause=words)
        return StoreUnavailable(text, cause=cause)

    def succeeded(self) -> None:
        """A write went through: an outage under way is over."""
        if self.cause is not None:
            log.info("the database %s can be written again (it was: %s)", self.where, self.cause)
            self.cause = None
