"""Concurrent operations on one guild: over one Store, over two Stores on one file, with a busy file."""

from __future__ import annotations

import asyncio
import random
import sqlite3
from contextlib import closing
from pathlib import Path

import pytest

from bot.store import MAX_SEATS, ActionOutOfOrder, InsufficientFunds, Store, StoreBusy

from .conftest import OpenStore

G = 9
USERS = list(range(100, 110))


async def _random_transfers(stores: list[Store], count: int, seed: int) -> tuple[int, int]:
    """Fire ``count`` random transfers at once over ``stores``; return (done, refused for lack of chips)."""
    rng = random.Random(seed)
    calls = []
    for i in range(count):
        src, dst = rng.sample(USERS, 2)
        calls.append(stores[i % len(stores)].transfer(G, src, dst, rng.randint(1, 400)))
    results = await asyncio.gather(*calls, return_exceptions=True)
    for result in results:
        if isinstance(result, BaseException) and not isinstance(result, InsufficientFunds):
            raise result
    refused = sum(isinstance(r, InsufficientFunds) for r in results)
    return count - refused, refused


async def _check_books(store: Store) -> None:
    report = await store.audit(G)
    assert report.ok, report.problems
    assert report.balances == 1000 * len(USERS)
    balances = [await store.balance(G, u) for u in USERS]
    assert min(balances) >= 0 and sum(balances) == 1000 * len(USERS)


async def test_many_transfers_at_once_over_one_store(store: Store) -> None:
    done, _ = await _random_transfers([store], 400, seed=1)
    assert done > 200
    await _check_books(store)
    ledger_rows = (await store.audit(G)).ledger_rows
    assert ledger_rows == len(USERS) + 2 * done


async def test_many_transfers_at_once_over_two_stores_on_one_file(open_store: OpenStore) -> None:
    first, second = await open_store(), await open_store()
    done, _ = await _random_transfers([first, second], 400, seed=2)
    await _check_books(first)
    await _check_books(second)
    assert (await second.audit(G)).ledger_rows == len(USERS) + 2 * done


async def test_racing_to_spend_the_same_chips(open_store: OpenStore) -> None:
    """Ten spends of 300 from a 1,000 balance through two connections: exactly three succeed."""
    first, second = await open_store(), await open_store()
    await first.balance(G, USERS[0])
    calls = [(first, second)[i % 2].transfer(G, USERS[0], USERS[1 + i % 3], 300) for i in range(10)]
    results = await asyncio.gather(*calls, return_exceptions=True)
    assert sum(not isinstance(r, BaseException) for r in results) == 3
    assert all(isinstance(r, InsufficientFunds) for r in results if isinstance(r, BaseException))
    assert await first.balance(G, USERS[0]) == 100


async def test_concurrent_buy_ins_and_action_clicks(open_store: OpenStore) -> None:
    first, second = await open_store(), await open_store()
    table = await first.create_table(G, 1, USERS[0], {})
    seats = await asyncio.gather(
        *[(first, second)[i % 2].buy_in(table.id, u, 100 + i, 1 + i) for i, u in enumerate(USERS[:MAX_SEATS])]
    )
    assert sorted(s.seat_no for s in seats) == list(range(1, MAX_SEATS + 1))
    hand = await first.start_hand(table.id, "five-card-draw", {}, 1, USERS[:3], [100, 101, 102])
    # Everybody double-clicks the same button: each seq is recorded exactly once.
    for seq in range(5):
        clicks = [(first, second)[i % 2].append_action(hand.id, seq, f"p{seq % 3 + 1} cc") for i in range(6)]
        results = await asyncio.gather(*clicks, return_exceptions=True)
        assert sum(r is None for r in results) == 1
        assert all(isinstance(r, ActionOutOfOrder) and r.is_duplicate for r in results if r is not None)
    assert (await second.get_hand(hand.id)).actions == tuple(f"p{s % 3 + 1} cc" for s in range(5))


@pytest.mark.sqlite_only  # PostgreSQL's: tests/store/test_store_postgres.py
async def test_a_file_locked_for_too_long_gives_a_friendly_busy_error(open_store: OpenStore, db_path: Path) -> None:
    store = await open_store(busy_timeout=0.05)
    await store.balance(G, USERS[0])
    table = await store.create_table(G, 1, USERS[0], {})
    await store.buy_in(table.id, USERS[0], 10, 1)
    await store.buy_in(table.id, USERS[1], 10, 2)
    hand = await store.start_hand(table.id, "assassin", {}, 1, USERS[:2], [10, 10])
    with closing(sqlite3.connect(db_path, isolation_level=None)) as other:
        other.execute("BEGIN IMMEDIATE")
        with pytest.raises(StoreBusy, match="busy right now"):
            await store.grant(G, USERS[0], 5, USERS[1])
        with pytest.raises(StoreBusy, match="busy right now"):
            await store.append_action(hand.id, 0, "cc")
        other.execute("ROLLBACK")
    assert await store.grant(G, USERS[0], 5, USERS[1]) == 995  # the store is usable again
    await store.append_action(hand.id, 0, "cc")


async def test_a_cancelled_operation_leaves_the_connection_clean(store: Store) -> None:
    await store.balance(G, USERS[0])
    for delay in (0, 0.0001, 0.0005, 0.001, 0.002):
        task = asyncio.ensure_future(store.transfer(G, USERS[0], USERS[1], 1))
        await asyncio.sleep(delay)
        task.cancel()
        try:
            await task
        except asyncio.CancelledError:
            pass
        assert not store.db.in_transaction
    total = await store.balance(G, USERS[0]) + await store.balance(G, USERS[1])
    assert total == 2000
