"""Crash safety: a failure in the middle of a transaction, and a process killed at random instants."""

from __future__ import annotations

import asyncio
import os
import random
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path
from typing import Any

import pytest

import bot.store.bank as bank
import bot.store.tables as tables
from bot.store import Store

from .conftest import Snapshot

G = 5
ALICE, BOB = 51, 52
REPO = Path(__file__).resolve().parents[2]


class PowerCut(RuntimeError):
    """The injected failure."""


async def test_a_failure_between_the_ledger_row_and_the_balance_leaves_nothing(
    store: Store, snapshot: Snapshot, monkeypatch: pytest.MonkeyPatch
) -> None:
    await store.transfer(G, ALICE, BOB, 10)
    before = await snapshot(store)

    async def cut(*args: Any) -> None:
        raise PowerCut("after the ledger insert, before the balance update")

    monkeypatch.setattr(bank, "_set_balance", cut)
    with pytest.raises(PowerCut):
        await store.transfer(G, ALICE, BOB, 25)
    with pytest.raises(PowerCut):
        await store.grant(G, ALICE, 25, BOB)
    with pytest.raises(PowerCut):  # even the opening of a new account is undone
        await store.transfer(G, 53, BOB, 25)
    assert await snapshot(store) == before
    monkeypatch.undo()
    assert (await store.transfer(G, ALICE, BOB, 25)).src_balance == 965


async def test_a_failure_in_the_second_leg_of_a_transfer_undoes_the_first(
    store: Store, snapshot: Snapshot, monkeypatch: pytest.MonkeyPatch
) -> None:
    await store.transfer(G, ALICE, BOB, 10)
    before = await snapshot(store)
    real = bank._insert_ledger
    calls = 0

    async def second_insert_fails(*args: Any) -> None:
        nonlocal calls
        calls += 1
        if calls == 2:
            raise PowerCut("between the two legs")
        await real(*args)

    monkeypatch.setattr(bank, "_insert_ledger", second_insert_fails)
    with pytest.raises(PowerCut):
        await store.transfer(G, ALICE, BOB, 25)
    assert calls == 2
    assert await snapshot(store) == before


async def test_a_failure_while_finishing_a_hand_undoes_the_whole_result(
    store: Store, snapshot: Snapshot, monkeypatch: pytest.MonkeyPatch
) -> None:
    table = await store.create_table(G, 1, ALICE, {})
    await store.buy_in(table.id, ALICE, 300, 1)
    await store.buy_in(table.id, BOB, 300, 2)
    hand = await store.start_hand(table.id, "assassin", {}, 1, [ALICE, BOB], [300, 300])
    await store.append_action(hand.id, 0, "p1 cbr 20")
    before = await snapshot(store)

    async def cut(*args: Any) -> None:
        raise PowerCut("while cashing out the leavers")

    monkeypatch.setattr(tables, "_cash_out", cut)
    with pytest.raises(PowerCut):
        await store.finish_hand(hand.id, [280, 300], 20, None, last_action=(1, "p2 f"), cash_out=[BOB])
    assert await snapshot(store) == before
    monkeypatch.undo()
    done = await store.finish_hand(hand.id, [280, 300], 20, None, last_action=(1, "p2 f"), cash_out=[BOB])
    assert done.status == "complete"


WORKER = textwrap.dedent(
    """
    import asyncio, random, sys
    from bot.store import Store, StoreError

    async def main(path, seed):
        rng = random.Random(seed)
        store = await Store.open(path)
        users = list(range(1, 7))
        guild = 77
        table = next(iter(await store.list_open_tables(guild)), None) or await store.create_table(guild, 4242, 1, {})
        print("ready", flush=True)
        while True:
            op = rng.random()
            try:
                if op < 0.4:
                    src, dst = rng.sample(users, 2)
                    await store.transfer(guild, src, dst, rng.randint(1, 300))
                elif op < 0.5:
                    await store.grant(guild, rng.choice(users), rng.randint(1, 50), 99)
                elif op < 0.6:
                    user = rng.choice(users)
                    free = [n for n in range(1, 7) if table.seat_at(n) is None]
                    if table.seat_of(user) is None and free:
                        await store.buy_in(table.id, user, rng.randint(1, 400), rng.choice(free))
                    else:
                        await store.cash_out(table.id, user)
                else:
                    live = await store.live_hand(table.id)
                    if live is None:
                        seated = [s for s in table.seats if s.stack > 0]
                        if len(seated) >= 2:
                            await store.start_hand(table.id, "assassin", {}, rng.randint(0, 10**9),
                                                   [s.user_id for s in seated], [s.stack for s in seated],
                                                   carried_in=table.carried_pot)
                    elif len(live.actions) < 5:
                        await store.append_action(live.id, live.next_seq, "cc")
                    else:
                        total = sum(live.stacks_before) + live.carried_in
                        carried = rng.randint(0, total // 10)
                        cuts = sorted(rng.randint(0, total - carried) for _ in live.seat_users[:-1])
                        stacks = [b - a for a, b in zip([0] + cuts, cuts + [total - carried])]
                        await store.finish_hand(live.id, stacks, carried, {"ok": True})
                table = await store.get_table_by_id(table.id)
            except StoreError:
                table = await store.get_table_by_id(table.id)

    asyncio.run(main(sys.argv[1], int(sys.argv[2])))
    """
)


async def _audit_after_kill(path: Path, round_no: int) -> int:
    async with await Store.open(path) as store:
        report = await store.audit(77)
        assert report.ok, (round_no, report.problems)
        return report.ledger_rows


def test_killed_at_random_instants_the_books_still_balance(tmp_path: Path, _audited_paths: dict[Path, Any]) -> None:
    """SIGKILL a process doing bank and table work at random moments; after each kill the file audits clean."""

    path = tmp_path / "killed.db"
    script = tmp_path / "worker.py"
    script.write_text(WORKER)
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    rng = random.Random(2024)
    kills = int(os.environ.get("STORE_KILLS", "12"))
    for round_no in range(kills):
        proc = subprocess.Popen([sys.executable, str(script), str(path), str(round_no)], env=env,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        assert proc.stdout is not None
        line = proc.stdout.readline()
        assert line.strip() == "ready", proc.stderr.read() if proc.stderr else line
        time.sleep(rng.uniform(0.01, 0.25))
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        assert proc.returncode == -signal.SIGKILL, proc.stderr.read() if proc.stderr else ""

        rows = asyncio.run(_audit_after_kill(path, round_no))
        assert rows > 0
    _audited_paths[path] = None
