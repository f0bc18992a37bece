"""One bot per bank: an operating-system lock held for the process's life.

Two bots on one database and one token both run every command: each gift, grant and move is carried out twice.
``BankLock`` takes an exclusive ``flock`` on a file beside the database (``poker.db.lock``) and keeps it until the
process ends; the kernel releases it when the process dies, however it dies, so a restart after a crash or a
SIGKILL is never blocked. The holder writes its pid and host name in the file, so a second bot can say who holds
it. ``flock`` holds across processes and containers of one machine (on one volume or bind mount).

With PostgreSQL the bank is shared by the processes of one bot, each running some of its shards (``SHARD_IDS``):
``ShardLocks`` holds an advisory lock per shard for the process's life, so that exactly one process deals at the
tables of a guild; a second process for the same shards waits as a standby and takes over when the first dies.
"""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import os
import socket
from collections.abc import Callable
from pathlib import Path
from typing import Any

__all__ = ["BankInUse", "BankLock", "ShardCountMismatch", "ShardLocks", "lock_path"]


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


# ------------------------------------------------------------------ PostgreSQL: one owner per shard


SHARD_LOCKS = 0x706B7368  # advisory lock keys (SHARD_LOCKS, shard id): the process that runs the shard
SHARD_COUNTS = 0x706B6373  # (SHARD_COUNTS, shard count), taken shared: the shard count the bots of a bank use
POLL = 1.0  # seconds between two tries of a standby to take the shards
HEARTBEAT = 5.0  # seconds between two checks that the lock's connection is alive


class ShardCountMismatch(Exception):
    """Another bot runs this bank with another ``SHARD_COUNT``: its shards would cover other guilds than ours."""


class ShardLocks:
    """The shards this process runs, each held as a PostgreSQL advisory lock on a connection of its own, for the
    process's life: when the process dies, however it dies, its session ends and the server frees the locks.

    ``acquire`` takes them in shard order (so that two processes never wait for each other), waiting as a standby
    while another process holds one (``on_wait`` is told who, once per shard). ``on_lost`` is called if the
    connection that holds them is lost: the shards are no longer ours, and another process may take them over.
    """

    def __init__(self, url: str, shard_count: int, shard_ids: tuple[int, ...]) -> None:
        self.url = url
        self.shard_count = shard_count
        self.shard_ids = tuple(sorted(set(shard_ids)))
        self.held: list[int] = []
        self._conn: Any = None
        self._watch: asyncio.Task[None] | None = None
        self._on_lost: Callable[[], None] | None = None

    @property
    def owned(self) -> bool:
        """True once every shard is held."""
        return self._conn is not None and len(self.held) == len(self.shard_ids)

    async def acquire(self, on_wait: Callable[[int, str | None], None] | None = None,
                      on_lost: Callable[[], None] | None = None) -> None:
        """Take every shard's lock, waiting while another process holds one; ``ShardCountMismatch`` if another bot
        runs the bank with another shard count."""
        from .postgres import connect

        conn = self._conn = await connect(self.url)
        try:
            await conn.execute("SELECT pg_advisory_lock_shared($1, $2)", SHARD_COUNTS, self.shard_count)
            others = await conn.fetch(
                "SELECT DISTINCT l.objid, a.application_name FROM pg_locks l"
                " LEFT JOIN pg_stat_activity a ON a.pid = l.pid"
                " WHERE l.locktype = 'advisory' AND l.classid = $1 AND l.objid != $2 AND l.objsubid = 2"
                " AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())",
                _oid(SHARD_COUNTS), self.shard_count)
            if others:
                who = others[0]["application_name"] or "another bot"
                raise ShardCountMismatch(f"{who} runs this bank with SHARD_COUNT={others[0]['objid']}, this one "
                                         f"with {self.shard_count}: every bot of one bank must use the same count")
            for shard in self.shard_ids:
                told = False
                while not await conn.fetchval("SELECT pg_try_advisory_lock($1, $2)", SHARD_LOCKS, shard):
                    if not told and on_wait is not None:
                        on_wait(shard, await self.holder(shard))
                        told = True
                    await asyncio.sleep(POLL)
                self.held.append(shard)
        except BaseException:
            await self.release()
            raise
        self._on_lost = on_lost
        conn.add_termination_listener(lambda _conn: self._lost())
        self._watch = asyncio.create_task(self._heartbeat(), name="the shards' lock")

    async def holder(self, shard: int) -> str | None:
        """Who holds ``shard``'s lock, as it named itself ("poker-bot pid 12 on host web1"), if known."""
        row = await self._conn.fetchrow(
            "SELECT a.application_name, a.client_addr FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid"
            " WHERE l.locktype = 'advisory' AND l.granted AND l.classid = $1 AND l.objid = $2 AND l.objsubid = 2"
            " AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())",
            _oid(SHARD_LOCKS), shard)
        if row is None:
            return None
        return str(row["application_name"] or f"a session from {row['client_addr']}")

    async def _heartbeat(self) -> None:
        """Ask the server every few seconds (a half-open connection is noticed too)."""
        try:
            while True:
                await asyncio.sleep(HEARTBEAT)
                await asyncio.wait_for(self._conn.fetchval("SELECT 1"), HEARTBEAT * 2)
        except asyncio.CancelledError:
            raise
        except Exception:
            self._lost()

    def _lost(self) -> None:
        if not self.held:
            return  # released on purpose
        self.held = []
        on_lost, self._on_lost = self._on_lost, None
        if on_lost is not None:
            on_lost()

    async def release(self) -> None:
        """Let every shard go (the connection ends; the server frees its locks)."""
        self.held = []
        watch, self._watch = self._watch, None
        if watch is not None and watch is not asyncio.current_task():
            watch.cancel()
        conn, self._conn = self._conn, None
        if conn is not None and not conn.is_closed():
            try:
                await asyncio.wait_for(conn.close(), 5)
            except (OSError, TimeoutError):
                conn.terminate()


def _oid(key: int) -> int:
    """An advisory lock key as ``pg_locks`` shows it (an oid: unsigned 32 bits)."""
    return key & 0xFFFFFFFF
