"""Store benchmark: durable action appends/s, transfers/s, and loading 1,000 open tables with live hands.

    python bench/bench_store.py [--dir DIR] [--appends N] [--transfers N] [--tables N]

Each figure is measured on a fresh SQLite file in WAL mode, once with
``synchronous=NORMAL`` (the default: a commit survives a process crash) and once
with ``FULL`` (a commit also survives a power cut). The files go in ``--dir``
(default: the folder of ``$POKER_DB``, i.e. ``data/``), since the disk under the
file is what the durable figures measure; they are deleted afterwards.

Target (issue 3): at least 2,000 appends/s with WAL and NORMAL; rebuilding
1,000 open tables with live hands in under 2 s (the store's share is the load;
the replay through the engine is measured here too, for the whole picture).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import shutil
import sqlite3
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.poker import Hand, Stakes
from bot.runtime.config import DEFAULT_DB_PATH
from bot.store import Store

GUILD = 1


def _filesystem(path: Path) -> str:
    """The filesystem type under ``path`` (from /proc/mounts), or '?'."""
    try:
        mounts = [line.split() for line in Path("/proc/mounts").read_text().splitlines()]
    except OSError:
        return "?"
    best, kind = "", "?"
    target = str(path.resolve())
    for fields in mounts:
        if len(fields) > 2 and target.startswith(fields[1]) and len(fields[1]) > len(best):
            best, kind = fields[1], fields[2]
    return kind


async def _seed_tables(store: Store, tables: int, base_channel: int) -> list[int]:
    """Open ``tables`` tables with two seated players and a live hand each; return the hand ids."""
    hands = []
    for i in range(tables):
        table = await store.create_table(GUILD, base_channel + i, 10, {"game": "five-card-draw"})
        a, b = 1000 + 2 * i, 1001 + 2 * i
        await store.buy_in(table.id, a, 500, 1)
        await store.buy_in(table.id, b, 500, 2)
        hand = await store.start_hand(table.id, "five-card-draw", {"sb": 5, "bb": 10}, i, [a, b], [500, 500])
        hands.append(hand.id)
    return hands


async def bench_appends(path: Path, sync: str, count: int) -> float:
    """Sequential action appends (each its own committed transaction) spread over 50 live hands."""
    async with await Store.open(path, synchronous=sync) as store:
        hands = await _seed_tables(store, 50, 1)
        seqs = dict.fromkeys(hands, 0)
        start = time.perf_counter()
        for i in range(count):
            hand = hands[i % len(hands)]
            await store.append_action(hand, seqs[hand], "cc")
            seqs[hand] += 1
        elapsed = time.perf_counter() - start
    return count / elapsed


async def bench_transfers(path: Path, sync: str, count: int, concurrent: bool) -> float:
    """Transfers among 50 members, one after another or all at once with asyncio.gather."""
    rng = random.Random(1)
    async with await Store.open(path, synchronous=sync) as store:
        users = list(range(1, 51))
        for user in users:
            await store.grant(GUILD, user, 10**9, 999)
        pairs = [rng.sample(users, 2) for _ in range(count)]
        start = time.perf_counter()
        if concurrent:
            await asyncio.gather(*(store.transfer(GUILD, s, d, rng.randint(1, 100)) for s, d in pairs))
        else:
            for s, d in pairs:
                await store.transfer(GUILD, s, d, rng.randint(1, 100))
        elapsed = time.perf_counter() - start
        report = await store.audit(GUILD)
        assert report.ok, report.problems
    return count / elapsed


async def bench_rebuild(path: Path, tables: int) -> tuple[float, float, int]:
    """Create ``tables`` tables with live engine hands (about 8 actions each), reopen, load and replay them."""
    rng = random.Random(7)
    stakes = Stakes(structure="no-limit", small_blind=5, big_blind=10)
    async with await Store.open(path) as store:
        for i in range(tables):
            table = await store.create_table(GUILD, 10_000 + i, 10, {"game": "five-card-draw"})
            players = [2000 + 3 * i, 2001 + 3 * i, 2002 + 3 * i]
            for seat_no, user in enumerate(players, start=1):
                await store.buy_in(table.id, user, 500, seat_no)
            record = await store.start_hand(table.id, "five-card-draw", {"sb": 5, "bb": 10}, i, players,
                                            [500, 500, 500])
            hand = Hand("five-card-draw", stakes, [500, 500, 500], seed=i)
            while not hand.is_complete and len(hand.actions) < 8:
                legal = hand.legal()
                if legal.phase == "betting":
                    action = f"cbr {legal.min_raise_to}" if legal.can_raise and rng.random() < 0.2 else "cc"
                else:
                    action = str(hand.default_action())
                seq = len(hand.actions)
                hand.act(action)
                if not hand.is_complete:
                    await store.append_action(record.id, seq, action)
    start = time.perf_counter()
    async with await Store.open(path) as store:
        open_tables = await store.list_open_tables()
        live = await store.live_hands()
        loaded = time.perf_counter() - start
        for record in live:
            rebuilt = Hand(record.game, stakes, list(record.stacks_before), seed=record.seed)
            for action in record.actions:
                rebuilt.act(action)
        replayed = time.perf_counter() - start
    assert len(open_tables) == tables and len(live) == tables
    return loaded, replayed, sum(len(r.actions) for r in live)


async def main(argv: list[str] | None = None) -> int:
    """Run the benchmarks and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--dir", type=Path, default=DEFAULT_DB_PATH.parent)
    parser.add_argument("--appends", type=int, default=5000)
    parser.add_argument("--transfers", type=int, default=3000)
    parser.add_argument("--tables", type=int, default=1000)
    args = parser.parse_args(argv)
    args.dir.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix="bench-store-", dir=args.dir))
    print(f"SQLite {sqlite3.sqlite_version}, Python {sys.version.split()[0]}, journal_mode=WAL, "
          f"files in {work} ({_filesystem(work)}), {os.cpu_count()} CPUs")
    try:
        for sync in ("normal", "full"):
            appends = await bench_appends(work / f"appends-{sync}.db", sync, args.appends)
            target = "  (target >= 2,000)" if sync == "normal" else ""
            print(f"action appends  synchronous={sync.upper():6}  {appends:10,.0f} /s  "
                  f"({args.appends:,} durable appends, one transaction each){target}")
        for sync in ("normal", "full"):
            for concurrent in (False, True):
                rate = await bench_transfers(work / f"transfers-{sync}-{concurrent}.db", sync, args.transfers,
                                             concurrent)
                mode = "asyncio.gather" if concurrent else "one by one"
                print(f"transfers       synchronous={sync.upper():6}  {rate:10,.0f} /s  "
                      f"({args.transfers:,} transfers, {mode}, audit ok)")
        loaded, replayed, actions = await bench_rebuild(work / "rebuild.db", args.tables)
        print(f"rebuild         {args.tables:,} open tables with live hands ({actions:,} actions): "
              f"store load {loaded * 1000:,.0f} ms, load + engine replay {replayed * 1000:,.0f} ms"
              "  (target < 2,000 ms)")
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
