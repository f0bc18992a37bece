"""``python -m bot db check``, ``db backup`` and ``db copy`` (into PostgreSQL): their output and exit status."""

from __future__ import annotations

import io
import os
import sqlite3
import subprocess
import sys
from contextlib import closing
from pathlib import Path

from bot.runtime.bank_location import BankAddress
from bot.store import Store, latest_version
from bot.tools.dbcli import backup_database, check_database

ROOT = Path(__file__).resolve().parents[2]
G, ALICE, BOB = 11, 101, 102


def python_m_bot(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "POKER_DB"}
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))
    return subprocess.run([sys.executable, "-m", "bot", *args], cwd=cwd, env=env, capture_output=True, text=True,
                          timeout=60, stdin=subprocess.DEVNULL)


async def a_bank(path: Path) -> None:
    """A bank with a gift, a grant and a table with a hand in play."""
    store = await Store.open(path)
    try:
        await store.transfer(G, ALICE, BOB, 250)
        await store.grant(G, BOB, 100, ALICE)
        table = await store.create_table(G, 5, ALICE, {})
        await store.buy_in(table.id, ALICE, 300, 1)
        await store.buy_in(table.id, BOB, 300, 2)
        hand = await store.start_hand(table.id, "five-card-draw", {}, 1, [ALICE, BOB], [300, 300])
        await store.append_action(hand.id, 0, "p1 cc")
    finally:
        await store.close()


async def test_check_of_a_clean_bank_and_of_one_whose_books_do_not_balance(tmp_path: Path) -> None:
    db = tmp_path / "poker.db"
    await a_bank(db)
    done = python_m_bot("db", "check", "--db", str(db), cwd=tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith(f"Checking {db} (") and lines[0].endswith(f", schema version {latest_version()})")
    assert lines[1] == "  SQLite integrity and foreign keys: ok"
    assert lines[2] == (f"  server {G}: chips conserved, ledger consistent: minted 2,100 = balances 1,500 + at tables "
                        "600 + carried 0 + prize pools 0 (2 accounts, 7 ledger rows, 1 open tables, 1 live hands)")
    assert lines[-1] == "The database is clean."

    with closing(sqlite3.connect(db)) as conn:  # chips appear from nowhere (not through the ledger)
        conn.execute("UPDATE accounts SET balance = balance + 5 WHERE user_id = ?", (BOB,))
        conn.commit()
    out = io.StringIO()
    assert await check_database(BankAddress("sqlite", db), out) == 1
    text = out.getvalue()
    assert "problem(s)" in text and "chips minted" in text and text.endswith("The database is NOT clean: see above.\n")


def test_check_of_something_that_is_not_a_database(tmp_path: Path) -> None:
    junk = tmp_path / "poker.db"
    junk.write_text("hello\n" * 1000)
    done = python_m_bot("db", "check", "--db", str(junk), cwd=tmp_path)
    assert done.returncode == 2 and not done.stdout
    assert done.stderr.strip() == f"{junk} is not a readable SQLite database (file is not a database)"
    missing = python_m_bot("db", "check", "--db", str(tmp_path / "nope.db"), cwd=tmp_path)
    assert missing.returncode == 2 and missing.stderr.strip() == f"{tmp_path / 'nope.db'}: no database there"
    url = python_m_bot("db", "check", "--db", "mysql://h/db", cwd=tmp_path)
    assert url.returncode == 2 and "--db=mysql://h/db names a mysql:// URL" in url.stderr
    nowhere = python_m_bot("db", "check", "--db", "postgresql://poker:secret@nowhere.invalid/db", cwd=tmp_path)
    assert nowhere.returncode == 2 and not nowhere.stdout
    assert nowhere.stderr.startswith("postgresql://poker:***@nowhere.invalid/db: the database server cannot be "
                                     "reached (") and "secret" not in nowhere.stderr


async def test_backup_is_one_file_that_checks_clean(tmp_path: Path) -> None:
    db = tmp_path / "poker.db"
    await a_bank(db)
    copy = tmp_path / "backups" / "poker-monday.db"
    copy.parent.mkdir()
    done = python_m_bot("db", "backup", str(copy), "--db", str(db), cwd=tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.splitlines()[-1] == f"Backed up to {copy}: it checks clean. Keep a copy on another disk."
    assert sorted(p.name for p in copy.parent.iterdir()) == ["poker-monday.db"]  # one file, no -wal, no leftovers
    with closing(sqlite3.connect(copy)) as conn:
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "delete"
    out = io.StringIO()
    assert await check_database(BankAddress("sqlite", copy), out) == 0, out.getvalue()
    again = io.StringIO()
    assert await backup_database(BankAddress("sqlite", db), copy, again) == 0  # replaced
    same = python_m_bot("db", "backup", str(db), "--db", str(db), cwd=tmp_path)
    assert same.returncode == 2
    assert same.stderr.strip() == (f"{db} is the database itself (or one of its files): write the backup somewhere "
                                   "else")


async def test_copy_into_postgresql_and_check_of_it_from_the_command_line(tmp_path: Path) -> None:
    import asyncpg

    from tests.pg import drop_database, new_database

    url = await new_database(empty=True)
    try:
        db = tmp_path / "poker.db"
        await a_bank(db)
        done = python_m_bot("db", "copy", str(db), url, cwd=tmp_path)
        assert done.returncode == 0, done.stdout + done.stderr
        assert done.stdout.splitlines()[0] == f"Copying {db} into {url}"
        assert done.stdout.splitlines()[-1] == "Both banks are clean."

        check = python_m_bot("db", "check", "--db", url, cwd=tmp_path)
        assert check.returncode == 0, check.stdout + check.stderr
        lines = check.stdout.splitlines()
        assert lines[0].startswith(f"Checking {url} (PostgreSQL, ") and lines[0].endswith(
            f", schema version {latest_version()})")
        assert lines[1] == "  PostgreSQL constraints and guards: ok"
        assert lines[2] == (f"  server {G}: chips conserved, ledger consistent: minted 2,100 = balances 1,500 + at "
                            "tables 600 + carried 0 + prize pools 0 (2 accounts, 7 ledger rows, 1 open tables, 1 live "
                            "hands)")
        assert lines[-1] == "The database is clean."

        conn = await asyncpg.connect(url)  # chips appear from nowhere (not through the ledger)
        try:
            await conn.execute("UPDATE accounts SET balance = balance + 5 WHERE user_id = $1", BOB)
        finally:
            await conn.close()
        unbalanced = python_m_bot("db", "check", "--db", url, cwd=tmp_path)
        assert unbalanced.returncode == 1
        assert "chips minted" in unbalanced.stdout
        assert unbalanced.stdout.endswith("The database is NOT clean: see above.\n")
    finally:
        await drop_database(url)
