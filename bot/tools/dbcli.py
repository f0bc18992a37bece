"""``python -m bot db``: the host's commands for the bank's database.

    python -m bot db check [--db URL]          the database's own checks and the store's audit; exit 0 clean, 1 not
    python -m bot db backup FILE [--db URL]    a consistent copy while the bot runs, checked before it says done
    python -m bot db copy SOURCE TARGET        the whole bank into an empty bank of either engine, both audited

``--db``, SOURCE and TARGET take what ``POKER_DB`` takes: an SQLite file or a ``postgresql://`` URL (``--db``'s
default: ``POKER_DB`` from the environment or ``.env``). Check and backup only read the database, so they run
beside the bot. An SQLite backup uses SQLite's online backup API, which copies one consistent moment of the bank,
WAL included (a plain copy of ``poker.db`` taken while the bot runs may hold no bank at all: the recent changes live
in ``poker.db-wal``); a PostgreSQL backup is handed over to ``pg_dump`` (its custom format, one consistent
snapshot), checked with ``pg_restore --list``. A copy moves a bank between engines (``bot.store.copying``): read in
one snapshot, written in one transaction, refused into a target that holds a bank. A problem that stops a command
is one line and exit 2.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import shutil
import sqlite3
import subprocess
import sys
from contextlib import closing
from pathlib import Path
from typing import TextIO

from ..runtime.bank_location import BankAddress, parse_bank
from ..store import SchemaError, Store, StoreError, latest_version
from ..store.copying import CopyRefused, copy_bank
from ..store.postgres import cause_of_pg
from ..store.sqlite import readonly_uri

__all__ = ["backup_database", "check_database", "copy_database", "db_command"]

MB = 1024 * 1024


class DbError(Exception):
    """A problem that stops a ``db`` command; ``str()`` is the line to print."""


def db_command(args: argparse.Namespace, out: TextIO = sys.stdout) -> int:
    """Run ``python -m bot db ...``; the exit status."""
    try:
        if args.db_command == "copy":
            return asyncio.run(copy_database(_address(args.source, "SOURCE"), _address(args.target, "TARGET"), out))
        address = _address(args.db)
        if args.db_command == "check":
            return asyncio.run(check_database(address, out))
        return asyncio.run(backup_database(address, args.file, out))
    except DbError as error:
        print(error, file=sys.stderr)
        return 2


def _address(url: str | None, setting: str = "--db") -> BankAddress:
    if url is not None:
        try:
            return parse_bank(url, setting)
        except ValueError as error:
            raise DbError(str(error)) from None
    from ..runtime.config import load_config

    try:
        return parse_bank(str(load_config().db_path))
    except ValueError as error:
        raise DbError(f"Configuration error: {error}") from None


def _existing(address: BankAddress) -> Path:
    path = address.path
    assert path is not None, "an SQLite bank"
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


async def _audit(path: Path | str, out: TextIO) -> bool:
    """The store's audit of every server in ``path`` (a file or a URL), one line each; True when all are clean."""
    store = await _open_readonly(path)
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


async def _open_readonly(bank: Path | str) -> Store:
    """The bank, only read; a PostgreSQL server's refusal or absence is one line."""
    try:
        return await Store.open_readonly(bank)
    except SchemaError as error:
        raise DbError(str(error)) from None
    except Exception as error:
        cause = cause_of_pg(error) if isinstance(bank, str) else None
        if cause is None:
            raise
        raise DbError(f"{_shown(bank)}: {cause} ({error})") from None


def _shown(bank: Path | str) -> str:
    return str(parse_bank(str(bank)))


def _version_check(shown: str, version: int) -> None:
    known = latest_version()
    if version != known:
        raise DbError(f"{shown} has schema version {version}; this bot's is {known}: "
                      + ("start the bot once to upgrade it, then check it" if version < known else
                         "check it with the newer bot that wrote it"))


async def _postgres_problems(store: Store) -> list[str]:
    """PostgreSQL's part of a check: every guard of the bank in force (no trigger disabled, no constraint left
    unchecked). The server checks its constraints and foreign keys at every write."""
    conn = store.db
    rows = await conn.fetch("SELECT tgrelid::regclass AS t, tgname FROM pg_trigger WHERE NOT tgisinternal"
                            " AND tgenabled = 'D' ORDER BY 1, 2")
    problems = [f"the guard {r['tgname']} of {r['t']} is disabled" for r in rows]
    rows = await conn.fetch("SELECT conrelid::regclass AS t, conname FROM pg_constraint WHERE NOT convalidated"
                            " AND connamespace = CAST(current_schema() AS regnamespace) ORDER BY 1, 2")
    return problems + [f"the constraint {r['conname']} of {r['t']} is not checked" for r in rows]


async def _check_postgres(address: BankAddress, out: TextIO) -> int:
    url = address.target
    store = await _open_readonly(url)
    try:
        version = await store.schema_version()
        problems = await _postgres_problems(store)
        size = await store.db.fetch("SELECT pg_database_size(current_database())")
    finally:
        await store.close()
    return await _report(str(address), url, f"PostgreSQL, {int(size[0][0]) / MB:.1f} MB", version,
                         ("PostgreSQL constraints and guards", "NOT ALL IN FORCE", problems), out)


async def _report(name: str, bank: str | Path, what: str, version: int, checks: tuple[str, str, list[str]],
                  out: TextIO) -> int:
    """``db check``'s report of a bank: the engine's own ``checks`` (their name, the word when some fail, the
    problems), the schema version's check and the audit of every server; 0 when all is clean, 1 when not."""
    checked, failing, problems = checks
    print(f"Checking {name} ({what}, schema version {version})", file=out)
    print(f"  {checked}: {'ok' if not problems else failing}", file=out)
    for problem in problems:
        print(f"    {problem}", file=out)
    _version_check(name, version)
    clean = await _audit(bank, out) and not problems
    print("The database is clean." if clean else "The database is NOT clean: see above.", file=out)
    return 0 if clean else 1


async def check_database(address: BankAddress, out: TextIO = sys.stdout) -> int:
    """``db check``: 0 when the file is sound and every server's books balance, 1 when not."""
    if address.engine == "postgresql":
        return await _check_postgres(address, out)
    path = _existing(address)
    problems, version, size = _integrity(path)
    return await _report(str(path), path, f"{size / MB:.1f} MB", version,
                         ("SQLite integrity and foreign keys", "DAMAGED", problems), out)


def _copy(source: Path, target: Path) -> None:
    """SQLite's online backup of ``source`` into a new file ``target``, as one self-contained file."""
    with closing(sqlite3.connect(readonly_uri(source), uri=True, timeout=30)) as src, \
            closing(sqlite3.connect(target)) as dst:
        src.backup(dst)  # one step: one consistent moment, the WAL included; the bot's writes go on meanwhile
        dst.execute("PRAGMA journal_mode = DELETE")  # one file, no -wal beside it
    with open(target, "rb") as written:
        os.fsync(written.fileno())


def _backup_postgres(address: BankAddress, file: Path, out: TextIO) -> int:
    """``db backup`` of a PostgreSQL bank: handed over to ``pg_dump`` (custom format: one consistent snapshot,
    taken while the bots run), then checked with ``pg_restore --list``."""
    dump, restore = shutil.which("pg_dump"), shutil.which("pg_restore")
    if dump is None or restore is None:
        raise DbError("a PostgreSQL backup is made by pg_dump, which is not installed here: install PostgreSQL's "
                      "client programs (apt-get install postgresql-client), or copy the bank into an SQLite file "
                      "with python -m bot db copy")
    target = file.absolute()
    if target.is_dir():
        raise DbError(f"{file} is a folder: name the backup file, such as {file / 'poker.dump'}")
    if not target.parent.is_dir():
        raise DbError(f"{target.parent} does not exist: create the folder first")
    partial = target.with_name(f".{target.name}.partial-{os.getpid()}")
    print(f"Backing up {address} with pg_dump (custom format) into {target}", file=out)
    try:
        made = subprocess.run([dump, "--format=custom", "--no-owner", f"--file={partial}", "--dbname", str(
            address.target)], capture_output=True, text=True, check=False)
        if made.returncode != 0:
            raise DbError(f"pg_dump failed: {made.stderr.strip()[-500:]}")
        listed = subprocess.run([restore, "--list", str(partial)], capture_output=True, text=True, check=False)
        if listed.returncode != 0 or "TABLE DATA" not in listed.stdout:
            print(f"The dump does NOT read back (pg_restore --list: {listed.stderr.strip()[-300:]}); it was not kept.",
                  file=out)
            return 1
        os.replace(partial, target)
    finally:
        partial.unlink(missing_ok=True)
    tables = sum(1 for line in listed.stdout.splitlines() if " TABLE DATA " in line)
    print(f"Backed up to {target} ({target.stat().st_size / MB:.1f} MB, {tables} tables' data; pg_restore --list "
          "reads it). Restore it into a new, empty database with: pg_restore --no-owner --dbname URL "
          f"{target}. Keep a copy on another disk.", file=out)
    return 0


async def backup_database(address: BankAddress, file: Path, out: TextIO = sys.stdout) -> int:
    """``db backup FILE``: copy, check the copy (integrity and audit), then put it in place; 0 when done, 1 when
    the copy does not check clean (it is not kept). A PostgreSQL bank is handed over to ``pg_dump``."""
    if address.engine == "postgresql":
        return _backup_postgres(address, file, out)
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


async def copy_database(source: BankAddress, target: BankAddress, out: TextIO = sys.stdout) -> int:
    """``db copy SOURCE TARGET``: the whole bank into an empty bank (created and migrated: an SQLite file is made, a
    PostgreSQL database must exist), then the audit of both; 0 when both are clean, 1 when not."""
    if source.engine == "sqlite":
        _existing(source)
    if str(source) == str(target):
        raise DbError("SOURCE and TARGET are the same bank")
    if target.engine == "sqlite" and target.path is not None and target.path.exists() and target.path.stat().st_size:
        raise DbError(f"{target} exists already: copy into a new file (the target must hold no bank)")
    reader = await _open_readonly(source.target)
    try:
        _version_check(str(source), await reader.schema_version())
        try:
            writer = await Store.open(target.target)
        except SchemaError as error:
            raise DbError(f"{target}: {error}") from None
        except Exception as error:
            cause = cause_of_pg(error) if target.engine == "postgresql" else None
            if cause is None:
                raise
            raise DbError(f"{target}: {cause} ({error})") from None
        try:
            print(f"Copying {source} into {target}", file=out)
            report = await copy_bank(reader.db, writer.db)
        except (CopyRefused, StoreError) as error:
            raise DbError(f"nothing was copied: {error}") from None
        finally:
            await writer.close()
    finally:
        await reader.close()
    print(f"  copied {report.total:,} rows in {report.seconds:.1f} s: "
          + ", ".join(f"{table} {count:,}" for table, count in report.rows.items()), file=out)
    print(f"Audit of {source}:", file=out)
    clean = await _audit(source.target, out)
    print(f"Audit of {target}:", file=out)
    clean = await _audit(target.target, out) and clean
    print("Both banks are clean." if clean else "The banks are NOT both clean: see above.", file=out)
    return 0 if clean else 1
