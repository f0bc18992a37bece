"""One bot per bank: an operating-system lock held for the process's life.

Two bots on one database and one token both run every command: each gift, grant and move is carried out twice.
``BankLock`` takes an exclusive ``flock`` on a file beside the database (``poker.db.lock``) and keeps it until the
process ends; the kernel releases it when the process dies, however it dies, so a restart after a crash or a
SIGKILL is never blocked. The holder writes its pid and host name in the file, so a second bot can say who holds
it. ``flock`` holds across processes and containers of one machine (on one volume or bind mount).

Another engine brings its own lock here (PostgreSQL: an advisory lock per shard, held by the bot's session).
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import socket
from pathlib import Path

__all__ = ["BankInUse", "BankLock", "lock_path"]


class BankInUse(Exception):
    """Another process holds the bank's lock; ``holder`` says who, as it wrote itself ("pid 12 on host web1")."""

    def __init__(self, path: Path, holder: str | None) -> None:
        self.path = path
        self.holder = holder
        who = f" ({holder})" if holder else ""
        super().__init__(f"another bot is already running on {path}{who}")


def lock_path(database: Path) -> Path:
    """The lock file of an SQLite database: beside it, its name plus ``.lock``."""
    return database.with_name(database.name + ".lock")


class BankLock:
    """The exclusive lock of one bank, taken with ``acquire`` and kept until ``release`` or the process's end."""

    def __init__(self, database: Path) -> None:
        self.database = database
        self.path = lock_path(database)
        self._fd: int | None = None

    @property
    def held(self) -> bool:
        """True while this process holds the lock."""
        return self._fd is not None

    def acquire(self) -> None:
        """Take the lock, or raise ``BankInUse`` (at once: never waits). OSError if the file cannot be made."""
        if self._fd is not None:
            return
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)  # not inherited by child processes
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = _read(fd)
            os.close(fd)
            raise BankInUse(self.database, holder) from None
        except BaseException:
            os.close(fd)
            raise
        os.ftruncate(fd, 0)
        os.pwrite(fd, f"pid {os.getpid()} on host {socket.gethostname()}\n".encode(), 0)
        self._fd = fd

    def release(self) -> None:
        """Let the lock go (the file stays, empty)."""
        fd, self._fd = self._fd, None
        if fd is None:
            return
        with contextlib.suppress(OSError):
            os.ftruncate(fd, 0)
        fcntl.flock(fd, fcntl.LOCK_UN)
        os.close(fd)


def _read(fd: int) -> str | None:
    try:
        text = os.pread(fd, 200, 0).decode(errors="replace").strip()
    except OSError:
        return None
    return text or None
