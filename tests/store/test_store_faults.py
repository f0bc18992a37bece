"""The store when the disk or another program gets in the way: a write waits for a lock only until its task's
deadline, a read never waits behind a write, and a full or read-only disk refuses each change with the cause (one
ERROR line per outage) until the disk is back, when the next change goes through by itself.

The full disk is a real one: a 4 MB tmpfs filled to the last byte (``tests/disks.py``); SQLite gets ENOSPC from the
kernel when the WAL must grow."""

from __future__ import annotations

import asyncio
import logging
import sqlite3
import threading
import time
from contextlib import closing
from pathlib import Path

import pytest

from bot.store import StoreBusy, StoreUnavailable
from bot.store.faults import CAUSE_WORDS, CAUSES, cause_of, is_busy
from bot.store.postgres import LOST, PG_CAUSES
from bot.store.waits import deadline, limit_waits, waiting_at_most

from ..disks import SmallDisk, small_disk
from .conftest import OpenStore

__all__ = ["small_disk"]

pytestmark = pytest.mark.sqlite_only  # PostgreSQL's waits and faults: tests/store/test_store_postgres.py

G = 7
ALICE, BOB = 101, 102


async def test_a_write_waits_for_a_lock_only_until_its_deadline_and_reads_do_not_wait(
    open_store: OpenStore, db_path: Path
) -> None:
    store = await open_store()
    await store.balance(G, ALICE)
    with closing(sqlite3.connect(db_path, isolation_level=None)) as other:
        other.execute("BEGIN EXCLUSIVE")  # a backup program, say; in WAL mode readers still read
        began = time.monotonic()
        assert await store.balance(G, ALICE) == 1000  # a read: at once, on the read connection
        assert (await store.audit(G)).ok
        read = time.monotonic() - began
        with waiting_at_most(0.3), pytest.raises(StoreBusy, match="nothing was changed"):
            await store.transfer(G, ALICE, BOB, 10)
        waited = time.monotonic() - began - read
        other.execute("ROLLBACK")
    assert read < 1.0 and waited < 5.0  # not the old 10 s busy timeout (generous bounds: a loaded machine)
    assert await store.balance(G, ALICE) == 1000  # nothing was changed


async def test_a_write_goes_through_when_the_lock_is_freed_before_its_deadline(
    open_store: OpenStore, db_path: Path
) -> None:
    store = await open_store()
    await store.balance(G, ALICE)
    other = sqlite3.connect(db_path, isolation_level=None, check_same_thread=False)
    other.execute("BEGIN IMMEDIATE")
    released = threading.Event()

    def release() -> None:
        other.execute("ROLLBACK")
        other.close()
        released.set()

    timer = threading.Timer(0.3, release)
    timer.start()
    try:
        with waiting_at_most(30):
            result = await store.transfer(G, ALICE, BOB, 10)
    finally:
        timer.join()
    assert released.is_set() and result.src_balance == 990


async def test_queued_writes_of_one_store_wait_only_until_their_deadline(open_store: OpenStore, db_path: Path) -> None:
    """Writes queued behind a write that waits for another program's lock are refused at their own deadline."""
    store = await open_store()
    await store.balance(G, ALICE)
    with closing(sqlite3.connect(db_path, isolation_level=None)) as other:
        other.execute("BEGIN IMMEDIATE")
        async def click() -> int:  # each in its own task, as each interaction is
            with waiting_at_most(0.3):
                return await store.grant(G, ALICE, 1, BOB)

        results = await asyncio.gather(*(click() for _ in range(5)), return_exceptions=True)
        other.execute("ROLLBACK")
    assert all(isinstance(r, StoreBusy) for r in results), results
    assert await store.balance(G, ALICE) == 1000


async def test_a_full_disk_refuses_each_change_with_its_cause_and_one_error_line(
    open_store: OpenStore, small_disk: SmallDisk, caplog: pytest.LogCaptureFixture
) -> None:
    path = small_disk.path / "poker.db"
    store = await open_store(path, audit=False)
    await store.balance(G, ALICE)
    table = await store.create_table(G, 1, ALICE, {})
    await store.buy_in(table.id, ALICE, 100, 1)
    await store.buy_in(table.id, BOB, 100, 2)
    hand = await store.start_hand(table.id, "five-card-draw", {}, 1, [ALICE, BOB], [100, 100])
    small_disk.fill()
    with caplog.at_level(logging.INFO, logger="bot.store"):
        for _ in range(3):
            with pytest.raises(StoreUnavailable) as refused:
                await store.grant(G, ALICE, 5, BOB)
            assert str(refused.value) == "The bot cannot write its database right now (disk full); nothing was changed."
            assert refused.value.cause == "disk full"
        with pytest.raises(StoreUnavailable, match=r"\(disk full\)"):
            await store.append_action(hand.id, 0, "p1 cc")
        assert await store.balance(G, ALICE) == 900  # reads go on
        errors = [r for r in caplog.records if r.levelno >= logging.ERROR]
        assert len(errors) == 1 and errors[0].exc_info is None
        assert "disk full" in errors[0].getMessage() and str(path) in errors[0].getMessage()
        small_disk.free()
        assert await store.grant(G, ALICE, 5, BOB) == 905
        await store.append_action(hand.id, 0, "p1 cc")
        assert any("can be written again" in r.getMessage() for r in caplog.records)
    report = await store.audit(G)
    assert report.ok, report.problems
    assert (await store.get_hand(hand.id)).actions == ("p1 cc",)


def test_sqlites_errors_are_named_by_their_cause(tmp_path: Path) -> None:
    """Real SQLite errors, classified by their result code (a full disk is tested above on a real one)."""
    path = tmp_path / "x.db"
    with closing(sqlite3.connect(path)) as conn:
        conn.execute("CREATE TABLE t (x)")
    with closing(sqlite3.connect(f"file:{path}?mode=ro", uri=True)) as conn, \
            pytest.raises(sqlite3.OperationalError) as read_only:
        conn.execute("INSERT INTO t VALUES (1)")
    assert cause_of(read_only.value) == "read-only"
    garbage = tmp_path / "garbage.db"
    garbage.write_bytes(b"not a database at all, just some text " * 100)
    with closing(sqlite3.connect(garbage)) as conn, pytest.raises(sqlite3.DatabaseError) as damaged:
        conn.execute("SELECT * FROM sqlite_schema")
    assert cause_of(damaged.value) == "damaged file"
    with closing(sqlite3.connect(path, timeout=0, isolation_level=None)) as one, \
            closing(sqlite3.connect(path, timeout=0, isolation_level=None)) as two:
        one.execute("BEGIN IMMEDIATE")
        with pytest.raises(sqlite3.OperationalError) as locked:
            two.execute("BEGIN IMMEDIATE")
        assert cause_of(locked.value) is None and is_busy(locked.value)


def test_every_cause_a_player_can_be_shown_has_words_in_the_catalogue() -> None:
    """A refusal for a cause without words would say it in English in every language."""
    causes = {*CAUSES.values(), *PG_CAUSES.values(), LOST}
    assert set(CAUSE_WORDS) == causes
    assert all(str(words) == cause for cause, words in CAUSE_WORDS.items())


async def test_a_task_started_by_an_interaction_does_not_inherit_its_deadline() -> None:
    """A clock started while a click was handled runs out a minute later: it must not wait for the database only
    until the click's deadline, long past by then."""
    async def child() -> float | None:
        return deadline(None)

    limit_waits(0.5)  # the click's task
    mine = deadline(None)
    assert mine is not None and mine <= asyncio.get_running_loop().time() + 0.5
    assert await asyncio.create_task(child()) is None  # the clock's task: the store's own wait
    with waiting_at_most(0.1):
        assert deadline(None) != mine
    assert deadline(None) == mine
