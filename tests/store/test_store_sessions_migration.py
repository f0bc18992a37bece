"""Migration 0003 on a database the previous release (schema 0002) wrote: every table gets one session covering
its hands and its ledger rows, from its creation to its closing, and the store goes on from there."""

from __future__ import annotations

import json
import sqlite3
from contextlib import closing
from pathlib import Path

import pytest

from bot.poker import Hand, Stakes
from bot.store import Store, latest_version
from bot.store.db import load_migrations, split_sql

from .conftest import OpenStore

pytestmark = pytest.mark.sqlite_only  # a bank of version 0002 exists only as an SQLite file

G = 42
ANN, BOB = 11, 22
FL = Stakes("fixed-limit", 5, 10)


class OldStore:
    """Writes rows as the 0002 release did, with plain sqlite3 (the ledger triggers check every row)."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn
        self.balances: dict[int, int] = {}

    def post(self, user: int, delta: int, kind: str, at: float, table: int | None = None) -> None:
        self.balances[user] = self.balances.get(user, 0) + delta
        self.conn.execute(
            "INSERT INTO ledger (guild_id, user_id, delta, balance_after, kind, table_id, created_at)"
            " VALUES (?, ?, ?, ?, ?, ?, ?)", (G, user, delta, self.balances[user], kind, table, at))
        self.conn.execute("INSERT INTO accounts (guild_id, user_id, balance, created_at) VALUES (?, ?, ?, ?)"
                          " ON CONFLICT DO UPDATE SET balance = excluded.balance", (G, user, self.balances[user], at))

    def table(self, table_id: int, channel: int, at: float, closed_at: float | None = None) -> None:
        self.conn.execute(
            "INSERT INTO tables (id, guild_id, channel_id, host_id, settings, status, created_at, closed_at)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (table_id, G, channel, ANN, json.dumps({"game": "five-card-draw", "small_blind": 5, "big_blind": 10}),
             "closed" if closed_at else "open", at, closed_at))

    def hand(self, table_id: int, number: int, hand: Hand, at: float, *, live: bool = False) -> None:
        stakes = {"structure": "fixed-limit", "small_blind": 5, "big_blind": 10, "ante": 0, "antes": None,
                  "small_bet": None, "min_bet": None, "raise_cap": 4, "big_bet_round": None}
        cursor = self.conn.execute(
            "INSERT INTO hands (table_id, number, game, settings, seed, seats, stacks_before, carried_in, status,"
            " stacks_after, carried_out, result, started_at, ended_at) VALUES (?, ?, ?, ?, ?, ?, ?, 0, ?, ?, ?, ?,"
            " ?, ?)",
            (table_id, number, hand.game.id, json.dumps({"stakes": stakes, "button": 2}), hand.seed,
             json.dumps([ANN, BOB]), json.dumps(hand.starting_stacks), "live" if live else "complete",
             None if live else json.dumps(hand.stacks), None if live else 0, None if live else "{}", at,
             None if live else at + 1))
        for seq, action in enumerate([] if live else hand.actions):
            self.conn.execute("INSERT INTO hand_actions VALUES (?, ?, ?, ?)", (cursor.lastrowid, seq, action, at))


def checked_down(stacks: list[int], seed: int) -> Hand:
    hand = Hand("five-card-draw", FL, stacks, seed=seed)
    while not hand.is_complete:
        hand.act("sd" if hand.phase == "drawing" else "cc")
    return hand


def release_0002_database(path: Path) -> tuple[Hand, Hand]:
    """Two tables: table 1 played a hand and closed; table 2 played a hand and has one live. A transfer too."""
    first, second = checked_down([200, 200], 1), checked_down([300, 300], 2)
    assert first.stacks != [200, 200] and second.stacks != [300, 300]
    with closing(sqlite3.connect(path)) as conn:
        for migration in load_migrations()[:2]:
            for statement in split_sql(migration.sql):
                conn.execute(statement)
        conn.execute("PRAGMA user_version = 2")
        old = OldStore(conn)
        for user in (ANN, BOB):
            old.post(user, 1000, "starting-grant", 10.0)
        old.post(ANN, -50, "transfer-out", 20.0)
        old.post(BOB, 50, "transfer-in", 20.0)
        old.table(1, 501, 100.0, closed_at=500.0)
        for user in (ANN, BOB):
            old.post(user, -200, "buy-in", 110.0, table=1)
        old.hand(1, 1, first, 120.0)
        for user, stack in zip((ANN, BOB), first.stacks):
            old.post(user, stack, "cash-out", 500.0, table=1)
        old.table(2, 502, 600.0)
        for seat, user in enumerate((ANN, BOB), 1):
            old.post(user, -300, "buy-in", 610.0, table=2)
            conn.execute("INSERT INTO seats (table_id, seat_no, user_id, stack, joined_at) VALUES (2, ?, ?, ?, 610)",
                         (seat, user, second.stacks[seat - 1]))
        old.hand(2, 1, second, 620.0)
        old.hand(2, 2, checked_down(list(second.stacks), 3), 630.0, live=True)
        conn.commit()
    return first, second


async def test_every_table_of_a_0002_database_gets_one_session_covering_its_past(
    open_store: OpenStore, db_path: Path
) -> None:
    first, second = release_0002_database(db_path)
    store: Store = await open_store()
    assert await store.schema_version() == latest_version() >= 3
    closed, running = await store.last_night(501), await store.last_night(502)
    assert closed is not None and running is not None
    assert (closed.table_id, closed.number, closed.started_at, closed.ended_at, closed.hands) == (1, 1, 100.0, 500.0, 1)
    assert (running.table_id, running.number, running.started_at, running.ended_at, running.hands) == (
        2, 1, 600.0, None, 1)
    rows = await store.connection.execute_fetchall("SELECT table_id, number, session_id FROM hands ORDER BY id")
    assert [tuple(r) for r in rows] == [(1, 1, closed.id), (2, 1, running.id), (2, 2, running.id)]
    rows = await store.connection.execute_fetchall("SELECT kind, table_id, session_id FROM ledger ORDER BY id")
    sessions = {None: None, 1: closed.id, 2: running.id}
    assert all(r["session_id"] == sessions[r["table_id"]] for r in rows) and len(rows) == 10
    assert [h.stacks_after for h in await store.night_hands([closed.id, running.id])] == [
        tuple(first.stacks), tuple(second.stacks)]
    # Hands finished before the upgrade have no facts yet (the table layer keeps them on start).
    assert [h.number for h in await store.hands_without_facts()] == [1, 1]
    # The ledger is still append-only, and the new rows of table 2 go to its session.
    with closing(sqlite3.connect(db_path)) as raw:
        try:
            raw.execute("UPDATE ledger SET delta = delta WHERE id = 1")
            raise AssertionError("the ledger could be updated")
        except sqlite3.IntegrityError as error:
            assert "append-only" in str(error)
    live = await store.live_hand(2)
    assert live is not None
    await store.void_hand(live.id, "test")
    await store.close_table(2)
    ended = await store.night(running.id)
    assert not ended.is_open
    rows = await store.connection.execute_fetchall(
        "SELECT session_id FROM ledger WHERE kind = 'cash-out' AND table_id = 2")
    assert [r[0] for r in rows] == [running.id, running.id]
