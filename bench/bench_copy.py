"""Moving a bank between engines: ``python -m bot db copy`` of a bank with 100,000 ledger rows and 10,000 hands, from
an SQLite file into PostgreSQL and back into a new SQLite file, with the audit of both banks each way.

    python bench/bench_copy.py [--ledger 100000] [--hands 10000] [--dir DIR]

The bank is made through the store, as the bot makes one: members giving each other chips (two ledger rows a gift)
and three-handed tables whose hands are played to the end with random legal moves (their action logs, results and
facts kept), buy-ins and cash-outs. The PostgreSQL server is a throwaway one (``pokerdev.pgserver``). The copy is
timed as the host runs it, ``python -m bot db copy SOURCE TARGET``: the copy itself (one read snapshot, one write
transaction) and the audits it runs after, which it prints.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.night.facts import hand_facts
from bot.poker import Hand, Stakes
from bot.store import Store
from bot.tools.simulate import random_action

ROOT = Path(__file__).resolve().parents[1]
GUILD = 1
MEMBERS = 200
BANKER = 999
STAKES = {"small_blind": 1, "big_blind": 2}


async def seat(store: Store, table_id: int, user: int, seat_no: int) -> None:
    """Buy ``user`` in for 300 chips, granting him 1,000 first when his balance cannot pay (a long run busts some)."""
    if await store.balance(GUILD, user) < 300:
        await store.grant(GUILD, user, 1000, BANKER)
    await store.buy_in(table_id, user, 300, seat_no)


async def make_bank(path: Path, ledger: int, hands: int, seed: int = 1) -> tuple[int, int]:
    """A bank with about ``ledger`` ledger rows and ``hands`` finished hands; (ledger rows, hands) made."""
    rng = random.Random(seed)
    store = await Store.open(path)
    try:
        members = list(range(1000, 1000 + MEMBERS))
        tables: list[tuple[int, list[int]]] = []
        for t in range(max(1, hands // 200)):  # a table plays about 200 hands (a few nights' worth)
            players = rng.sample(members, 3)
            table = await store.create_table(GUILD, 10_000 + t, players[0], {"game": "five-card-draw", **STAKES})
            for seat_no, user in enumerate(players, start=1):
                await seat(store, table.id, user, seat_no)
            tables.append((table.id, players))
        played = 0
        while played < hands:
            table_id, players = tables[played % len(tables)]
            stacks = [s.stack for s in (await store.get_table_by_id(table_id)).seats]
            if min(stacks) < 10:  # a busted player cashes out and buys in again
                for user in players:
                    await store.cash_out(table_id, user)
                for seat_no, user in enumerate(players, start=1):
                    await seat(store, table_id, user, seat_no)
                stacks = [300, 300, 300]
            seed_of_hand = rng.randrange(2**32)
            hand = Hand("five-card-draw", Stakes("fixed-limit", 1, 2), stacks, seed=seed_of_hand)
            record = await store.start_hand(table_id, "five-card-draw", STAKES, seed_of_hand, players, stacks)
            seq = 0
            while not hand.is_complete:
                action = random_action(hand, rng)
                hand.act(action)
                if hand.is_complete:
                    break
                await store.append_action(record.id, seq, action)
                seq += 1
            await store.finish_hand(record.id, hand.stacks, 0, {"seed": seed_of_hand},
                                    last_action=(seq, hand.actions[-1]), facts=hand_facts(hand, players))
            played += 1
        rows = (await store.audit(GUILD)).ledger_rows
        while rows < ledger:
            src, dst = rng.sample(members, 2)
            if await store.balance(GUILD, src) > 10:
                await store.transfer(GUILD, src, dst, rng.randint(1, 10))
                rows += 2
            else:
                await store.grant(GUILD, src, 500, dst)
                rows += 1
        report = await store.audit(GUILD)
        assert report.ok, report.problems
        return report.ledger_rows, played
    finally:
        await store.close()


def copy(source: str, target: str) -> tuple[float, str]:
    began = time.monotonic()
    done = subprocess.run([sys.executable, "-m", "bot", "db", "copy", source, target], cwd=ROOT,
                          capture_output=True, text=True, check=False)
    took = time.monotonic() - began
    if done.returncode != 0:
        raise SystemExit(f"db copy {source} {target} failed ({done.returncode}):\n{done.stdout}{done.stderr}")
    return took, done.stdout


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--ledger", type=int, default=100_000)
    parser.add_argument("--hands", type=int, default=10_000)
    parser.add_argument("--dir", type=Path, default=None)
    args = parser.parse_args(argv)
    from pokerdev.pgserver import throwaway_server

    folder = Path(tempfile.mkdtemp(prefix="bench-copy-", dir=args.dir))
    try:
        source = folder / "source.db"
        began = time.monotonic()
        rows, hands = asyncio.run(make_bank(source, args.ledger, args.hands))
        print(f"made {source.name}: {rows:,} ledger rows, {hands:,} hands in {time.monotonic() - began:.0f} s "
              f"({source.stat().st_size / 2**20:.0f} MB)")
        with throwaway_server() as server:
            url = server.url.rsplit("/", 1)[0] + "/poker"
            subprocess.run(["psql", server.url, "-qc", "CREATE DATABASE poker"], check=True)
            for label, src, dst in (("SQLite -> PostgreSQL", str(source), url),
                                    ("PostgreSQL -> SQLite", url, str(folder / "back.db"))):
                took, out = copy(src, dst)
                copied = next(line for line in out.splitlines() if line.strip().startswith("copied "))
                seconds = float(copied.split(" in ", 1)[1].split(" s", 1)[0])
                audits = [line.strip() for line in out.splitlines() if "chips conserved" in line
                          or "problem(s)" in line]
                rows_copied = copied.split(":")[0].strip()
                print(f"{label}: db copy {took:.1f} s in all: the copy {seconds:.1f} s ({rows_copied}), the rest "
                      f"starting Python and the audit of both banks; {out.strip().splitlines()[-1]}")
                for audit in audits:
                    print(f"    {audit}")
    finally:
        shutil.rmtree(folder, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
