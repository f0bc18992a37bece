"""The store's figures against a reference measured in the same run: the same SQL through the bare ``sqlite3``
module, on the same disk, with the same journal and ``synchronous`` settings.

    python bench/store_reference.py [--dir DIR] [--appends N] [--transfers N]

* action appends: ``Store.append_action`` (bench/bench_store.py's loop: one durable transaction per action, spread
  over 50 live hands) against the store's own ``INSERT ... SELECT`` statement run in autocommit by ``sqlite3``
  directly, in the calling thread;
* transfers: ``Store.transfer`` one by one against a bare ``BEGIN IMMEDIATE``, two balance reads, two ledger rows,
  two balance updates, ``COMMIT``.

The ratio (ours / bare) is what the store's checks, its asyncio bridge (aiosqlite's thread) and its Python cost on
top of SQLite itself; the disk's speed cancels out, so the ratio travels between machines better than the rates.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import shutil
import sqlite3
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench_store import GUILD, _seed_tables, bench_appends, bench_transfers

from bot.runtime.config import DEFAULT_DB_PATH
from bot.store import Store

PRAGMAS = {"normal": 1, "full": 2}


def _connect(path: Path, sync: str) -> sqlite3.Connection:
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("PRAGMA journal_mode = WAL")
    conn.execute(f"PRAGMA synchronous = {PRAGMAS[sync]}")
    conn.execute("PRAGMA foreign_keys = ON")
    return conn


async def bare_appends(path: Path, sync: str, count: int) -> float:
    """The store's append statement, autocommit, by sqlite3 directly (same schema, 50 live hands)."""
    async with await Store.open(path, synchronous=sync) as store:
        hands = await _seed_tables(store, 50, 1)
    conn = _connect(path, sync)
    try:
        seqs = dict.fromkeys(hands, 0)
        start = time.perf_counter()
        for i in range(count):
            hand = hands[i % len(hands)]
            seq = seqs[hand]
            cursor = conn.execute(
                "INSERT INTO hand_actions (hand_id, seq, action, created_at)"
                " SELECT id, ?, ?, ? FROM hands WHERE id = ? AND status = 'live'"
                " AND ? = (SELECT coalesce(max(seq) + 1, 0) FROM hand_actions WHERE hand_id = ?)",
                (seq, "cc", time.time(), hand, seq, hand))
            assert cursor.rowcount == 1
            seqs[hand] += 1
        return count / (time.perf_counter() - start)
    finally:
        conn.close()


async def bare_transfers(path: Path, sync: str, count: int) -> float:
    """A transfer's rows by sqlite3 directly: two balances read, two ledger rows, two balances written."""
    rng = random.Random(1)
    users = list(range(1, 51))
    async with await Store.open(path, synchronous=sync) as store:
        for user in users:
            await store.grant(GUILD, user, 10**9, 999)
    pairs = [rng.sample(users, 2) for _ in range(count)]
    conn = _connect(path, sync)
    try:
        start = time.perf_counter()
        for src, dst in pairs:
            amount = rng.randint(1, 100)
            conn.execute("BEGIN IMMEDIATE")
            for user, delta, kind, other in ((src, -amount, "transfer-out", dst), (dst, amount, "transfer-in", src)):
                (balance,) = conn.execute("SELECT balance FROM accounts WHERE guild_id = ? AND user_id = ?",
                                          (GUILD, user)).fetchone()
                conn.execute("INSERT INTO ledger (guild_id, user_id, delta, balance_after, kind, counterparty, "
                             "created_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
                             (GUILD, user, delta, balance + delta, kind, other, time.time()))
                conn.execute("UPDATE accounts SET balance = ? WHERE guild_id = ? AND user_id = ?",
                             (balance + delta, GUILD, user))
            conn.execute("COMMIT")
        return count / (time.perf_counter() - start)
    finally:
        conn.close()


async def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--dir", type=Path, default=DEFAULT_DB_PATH.parent)
    parser.add_argument("--appends", type=int, default=5000)
    parser.add_argument("--transfers", type=int, default=3000)
    args = parser.parse_args(argv)
    args.dir.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix="bench-store-ref-", dir=args.dir))
    print(f"SQLite {sqlite3.sqlite_version}, WAL, files in {work}")
    print(f"{'figure':<34}{'store /s':>12}{'bare sqlite3 /s':>17}{'store / bare':>14}")
    try:
        for sync in ("normal", "full"):
            ours = await bench_appends(work / f"appends-{sync}.db", sync, args.appends)
            bare = await bare_appends(work / f"bare-appends-{sync}.db", sync, args.appends)
            print(f"{'action appends, ' + sync.upper():<34}{ours:>12,.0f}{bare:>17,.0f}{ours / bare:>13.2f}x")
        for sync in ("normal", "full"):
            ours = await bench_transfers(work / f"transfers-{sync}.db", sync, args.transfers, False)
            bare = await bare_transfers(work / f"bare-transfers-{sync}.db", sync, args.transfers)
            print(f"{'transfers one by one, ' + sync.upper():<34}{ours:>12,.0f}{bare:>17,.0f}{ours / bare:>13.2f}x")
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
