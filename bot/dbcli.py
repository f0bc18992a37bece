"""``python -m bot db``: the host's commands for the bank's database.

    python -m bot db check [--db URL]          SQLite's integrity check and the store's audit; exit 0 clean, 1 not
    python -m bot db backup FILE [--db URL]    a consistent copy while the bot runs, checked before it says done

``--db`` takes what ``POKER_DB`` takes (default: ``POKER_DB`` from the environment or ``.env``). Both commands only
read the database, so they run beside the bot: a backup uses SQLite's online backup API, which copies one
consistent moment of the bank, WAL included (a plain copy of ``poker.db`` taken while the bot runs may hold no bank
at all: the recent changes live in ``poker.db-wal``). A problem that stops a command is one line and exit 2.
Another engine (PostgreSQL) adds its own implementation of each command behind the same names.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import sqlite3
import sys
from contextlib import closing
from pathlib import Path
from typing import TextIO

from .bank_location import BankAddress, parse_bank
from .store import Store, latest_version
from .store.db import readonly_uri

__all__ = ["backup_database", "check_database", "db_command"]

MB = 1024 * 1024


class DbError(Exception):
    """A problem that stops a ``db`` command; ``str()`` is the line to print."""


def db_command(args: argparse.Namespace, out: TextIO = sys.stdout) -> int:
    """Run ``python -m bot db ...``; the exit status."""
    try:
        address = _address(args.db)
        if args.db_command == "check":
            return asyncio.run(check_database(address, out))
        return asyncio.run(backup_database(address, args.file, out))
    except DbError as error:
        print(error, file=sys.stderr)
        return 2


def _address(url: str | None) -> BankAddress:
    if url is not None:
        try:
            return parse_bank(url, "--db")
        except ValueError as error:
            raise DbError(str(error)) from None
    from .config import load_config

    try:
        return parse_bank(str(load_config().db_path))
    except ValueError as error:
        raise DbError(f"Configuration error: {error}") from None


def _existing(address: BankAddress) -> Path:
    path = address.path
    if not path.is_file():
        raise DbError(f"{path}: no database there" + (" (it is a folder)" if path.is_dir() else ""))
    return path


def _integrity(path: Path) -> tuple[list[str], int, int]:
    """SQLite's full integrity check and foreign key check of ``path`` (problems), its user_version and size."""
    try:
        with closing(sqlite3.connect(readonly_uri(path), uri=True, timeout=30)) as conn:
            problems = [str(row[0]) for row in conn.execute("PRAGMA integrity_check(20)")]
            problems = [] if problems == ["ok"] else problems
            broken = list(conn.execute("PRAGMA foreign_key_check"))
            problems += [f"foreign key: row {row[1]} of {row[0]} points at a missing row of {row[2]}"
                         for row in broken[:20]]
            version = int(conn.execute("PRAGMA user_version").fetchone()[0])
            pages = int(conn.execute("PRAGMA page_count").fetchone()[0])
            page_size = int(conn.execute("PRAGMA page_size").fetchone()[0])
    except sqlite3.DatabaseError as error:
        raise DbError(f"{path} is not a readable SQLite database ({error})") from None
    return problems, version, pages * page_size


async def _audit(path: Path, out: TextIO) -> bool:
    """The store's audit of every server in ``path``, one line each; True when all are clean."""
    store = await Store.open_readonly(path)
    try:
        reports = await store.audit_all()
    finally:
        await store.close()
    for report in reports:
        state = "chips conserved, ledger consistent" if report.ok else f"{len(report.problems)} problem(s)"
        print(f"  server {report.guild_id}: {state}: minted {report.minted:,} = balances {report.balances:,}"
              f" + at tables {report.seat_stacks:,} + carried {report.carried_pots:,}"
              f" + prize pools {report.prize_pools:,} ({report.accounts} accounts, {report.ledger_rows:,} ledger"
              f" rows, {report.open_tables} open tables, {report.live_hands} live hands)", file=out)
        for problem in report.problems[:20]:
            print(f"    {problem}", file=out)
    if not reports:
        print("  no server has chips in it yet", file=out)
    return all(report.ok for report in reports)


async def check_database(address: BankAddress, out: TextIO = sys.stdout) -> int:
    """``db check``: 0 when the file is sound and every server's books balance, 1 when not."""
    path = _existing(address)
    problems, version, size = _integrity(path)
    known = latest_version()
    print(f"Checking {path} ({size / MB:.1f} MB, schema version {version})", file=out)
    print(f"  SQLite integrity and foreign keys: {'ok' if not problems else 'DAMAGED'}", file=out)
    for problem in problems:
        print(f"    {problem}", file=out)
    if version != known:
        raise DbError(f"{path} has schema version {version}; this bot's is {known}: "
                      + ("start the bot once to upgrade it, then check it" if version < known else
                         "check it with the newer bot that wrote it"))
    clean = await _audit(path, out) and not problems
    print("The database is clean." if clean else "The database is NOT clean: see above.", file=out)
    return 0 if clean else 1


def _copy(source: Path, target: Path) -> None:
    """SQLite's online backup of ``source`` into a new file ``target``, as one self-contained file."""
    with closing(sqlite3.connect(readonly_uri(source), uri=True, timeout=30)) as src, \
            closing(sqlite3.connect(target)) as dst:
        src.backup(dst)  # one step: one consistent moment, the WAL included; the bot's writes go on meanwhile
        dst.execute("PRAGMA journal_mode = DELETE")  # one file, no -wal beside it
    with open(target, "rb") as written:
        os.fsync(written.fileno())


async def backup_database(address: BankAddress, file: Path, out: TextIO = sys.stdout) -> int:
    """``db backup FILE``: copy, check the copy (integrity and audit), then put it in place; 0 when done, 1 when
    the copy does not check clean (it is not kept)."""
    source = _existing(address)
    target = file.absolute()
    near = {source.absolute(), *(source.absolute().with_name(source.name + s) for s in ("-wal", "-shm", ".lock"))}
    if target in near or (target.exists() and source.exists() and target.samefile(source)):
        raise DbError(f"{file} is the database itself (or one of its files): write the backup somewhere else")
    if target.is_dir():
        raise DbError(f"{file} is a folder: name the backup file, such as {file / 'poker-backup.db'}")
    if not target.parent.is_dir():
        raise DbError(f"{target.parent} does not exist: create the folder first")
    partial = target.with_name(f".{target.name}.partial-{os.getpid()}")
    try:
        try:
            _copy(source, partial)
        except sqlite3.Error as error:
            raise DbError(f"{source} could not be copied ({error})") from None
        except OSError as error:
            raise DbError(f"{partial} could not be written ({error.strerror})") from None
        problems, version, size = _integrity(partial)
        print(f"Copied {source} ({size / MB:.1f} MB, schema version {version}); checking the copy:", file=out)
        print(f"  SQLite integrity and foreign keys: {'ok' if not problems else 'DAMAGED'}", file=out)
        clean = not problems and (version != latest_version() or await _audit(partial, out))
        if not clean:
            print(f"The copy does NOT check clean; it was not kept. Check the database: python -m bot db check "
                  f"--db {source}", file=out)
            return 1
        os.replace(partial, target)
        with contextlib.suppress(OSError):  # the rename itself, durably
            folder = os.open(target.parent, os.O_RDONLY)
            try:
                os.fsync(folder)
            finally:
                os.close(folder)
    finally:
        partial.unlink(missing_ok=True)
    print(f"Backed up to {target}: it checks clean. Keep a copy on another disk.", file=out)
    return 0
