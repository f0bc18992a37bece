"""Property test: random sequences of bank and table operations, checked against a simple model.

After every operation the store must agree with the model on success or the kind of refusal, and the
audit must pass; at the end every balance, seat and carried pot must equal the model's.
"""

from __future__ import annotations

import asyncio
import random
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from hypothesis.errors import InvalidArgument

from bot.store import (
    MAX_AMOUNT,
    ActionOutOfOrder,
    AlreadySeated,
    BuyInOutOfRange,
    ChipsNotConserved,
    HandInProgress,
    InsufficientFunds,
    InvalidAmount,
    NotSeated,
    SeatTaken,
    SelfTransfer,
    Store,
    StoreError,
    TableClosed,
    TableExists,
    TableNotEmpty,
)

G = 3
USERS = [1, 2, 3, 4]
CHANNELS = [10, 11]
START = 1000
MAX_BUY_IN = 2000
MAX_STACK = 3000


@dataclass
class MTable:
    id: int
    channel: int
    closed: bool = False
    carried: int = 0
    seats: dict[int, list[int]] = field(default_factory=dict)  # user -> [seat_no, stack]
    live: dict[str, Any] | None = None  # id, users, before, carried_in, actions


@dataclass
class Model:
    balances: dict[int, int] = field(default_factory=dict)
    tables: list[MTable] = field(default_factory=list)

    def balance(self, user: int) -> int:
        return self.balances.get(user, START)

    def move(self, user: int, delta: int) -> None:
        self.balances[user] = self.balance(user) + delta


def _note(text: str) -> None:
    """Count outcomes in hypothesis' statistics (``--hypothesis-show-statistics``); a no-op outside it."""
    try:
        event(text)
    except InvalidArgument:
        pass


def _valid(amount: object) -> bool:
    return isinstance(amount, int) and 0 < amount <= MAX_AMOUNT


users = st.sampled_from(USERS)
good_amounts = st.integers(1, 600)
amounts = st.one_of(good_amounts, good_amounts, good_amounts, st.integers(-2, 1200),
                    st.sampled_from([0, 2500, MAX_AMOUNT, MAX_AMOUNT + 1]))
table_index = st.integers(0, 2)
bank_operations = st.one_of(
    st.tuples(st.just("transfer"), users, users, amounts),
    st.tuples(st.just("grant"), users, amounts),
    st.tuples(st.just("remove"), users, amounts),
)
table_operations = st.one_of(
    st.tuples(st.just("create"), st.sampled_from(CHANNELS)),
    st.tuples(st.just("buy_in"), table_index, users, amounts, st.integers(1, 4)),
    st.tuples(st.just("top_up"), table_index, users, amounts),
    st.tuples(st.just("cash_out"), table_index, users),
    st.tuples(st.just("start"), table_index, st.integers(0, 2**32)),
    st.tuples(st.just("act"), table_index),
    st.tuples(st.just("finish"), table_index, st.integers(0, 2**32)),
    st.tuples(st.just("void"), table_index),
    st.tuples(st.just("refund"), table_index),
    st.tuples(st.just("close"), table_index),
)
operations = st.one_of(bank_operations, table_operations, table_operations)
# Every run starts with two tables and a few players seated, so that table operations have work to do.
OPENING: list[tuple[Any, ...]] = [
    ("create", 10), ("create", 11),
    ("buy_in", 0, 1, 300, 1), ("buy_in", 0, 2, 300, 2), ("buy_in", 0, 3, 300, 3),
    ("buy_in", 1, 2, 200, 1), ("buy_in", 1, 4, 200, 2),
]


async def _apply(store: Store, model: Model, op: tuple[Any, ...]) -> None:
    """Apply ``op`` to the store and the model; the store must refuse exactly when the model says so."""
    kind = op[0]
    expected: type[StoreError] | None = None
    if kind == "transfer":
        _, src, dst, amount = op
        if not _valid(amount):
            expected = InvalidAmount
        elif src == dst:
            expected = SelfTransfer
        elif model.balance(src) < amount:
            expected = InsufficientFunds
        call = store.transfer(G, src, dst, amount)
        if expected is None:
            model.move(src, -amount)
            model.move(dst, amount)
    elif kind == "grant":
        _, user, amount = op
        expected = None if _valid(amount) else InvalidAmount
        call = store.grant(G, user, amount, 99)
        if expected is None:
            model.move(user, amount)
    elif kind == "remove":
        _, user, amount = op
        expected = InvalidAmount if not _valid(amount) else InsufficientFunds if model.balance(user) < amount else None
        call = store.remove(G, user, amount, 99)
        if expected is None:
            model.move(user, -amount)
    elif kind == "create":
        _, channel = op
        taken = any(t.channel == channel and not t.closed for t in model.tables)
        expected = TableExists if taken else None
        try:
            record = await store.create_table(G, channel, USERS[0], {"n": len(model.tables)})
        except StoreError as error:
            assert isinstance(error, TableExists) and taken
            return
        assert not taken
        model.tables.append(MTable(record.id, channel))
        return
    else:
        if op[1] >= len(model.tables):
            return
        t = model.tables[op[1]]

        def in_live(user: int) -> bool:
            return t.live is not None and user in t.live["users"]

        if kind == "buy_in":
            _, _, user, amount, seat_no = op
            if not _valid(amount):
                expected = InvalidAmount
            elif amount > MAX_BUY_IN:
                expected = BuyInOutOfRange
            elif t.closed:
                expected = TableClosed
            elif user in t.seats:
                expected = AlreadySeated
            elif any(s[0] == seat_no for s in t.seats.values()):
                expected = SeatTaken
            elif model.balance(user) < amount:
                expected = InsufficientFunds
            call = store.buy_in(t.id, user, amount, seat_no, max_amount=MAX_BUY_IN)
            if expected is None:
                model.move(user, -amount)
                t.seats[user] = [seat_no, amount]
        elif kind == "top_up":
            _, _, user, amount = op
            if not _valid(amount):
                expected = InvalidAmount
            elif t.closed:
                expected = TableClosed
            elif user not in t.seats:
                expected = NotSeated
            elif in_live(user):
                expected = HandInProgress
            elif t.seats[user][1] + amount > MAX_STACK:
                expected = BuyInOutOfRange
            elif model.balance(user) < amount:
                expected = InsufficientFunds
            call = store.top_up(t.id, user, amount, max_stack=MAX_STACK)
            if expected is None:
                model.move(user, -amount)
                t.seats[user][1] += amount
        elif kind == "cash_out":
            _, _, user = op
            expected = NotSeated if user not in t.seats else HandInProgress if in_live(user) else None
            call = store.cash_out(t.id, user)
            if expected is None:
                model.move(user, t.seats.pop(user)[1])
        elif kind == "start":
            players = sorted((s[0], u, s[1]) for u, s in t.seats.items() if s[1] > 0)
            if t.closed or len(players) < 2:
                return
            rng = random.Random(op[2])
            carried_in = rng.randint(0, t.carried)
            expected = HandInProgress if t.live is not None else None
            call = store.start_hand(t.id, "assassin", {"seed": op[2]}, op[2], [p[1] for p in players],
                                    [p[2] for p in players], carried_in)
            if expected is None:
                try:
                    record = await call
                except StoreError as error:
                    raise AssertionError(f"{op}: refused with {error!r}") from error
                t.live = {"id": record.id, "users": [p[1] for p in players], "before": [p[2] for p in players],
                          "carried_in": carried_in, "actions": 0}
                _note("start: done")
                return
        elif kind == "act":
            if t.live is None:
                return
            seq = t.live["actions"]
            await store.append_action(t.live["id"], seq, "cc")
            t.live["actions"] += 1
            expected, call = ActionOutOfOrder, store.append_action(t.live["id"], seq, "cc")  # the double click
        elif kind == "finish":
            if t.live is None:
                return
            rng = random.Random(op[2])
            live = t.live
            total = sum(live["before"]) + live["carried_in"]
            carried_out = rng.randint(0, total // 5)
            cuts = sorted(rng.randint(0, total - carried_out) for _ in live["users"][:-1])
            stacks = [b - a for a, b in zip([0, *cuts], [*cuts, total - carried_out])]
            if op[2] % 7 == 0:  # a wrong result: refused
                stacks[0] += 1
                expected = ChipsNotConserved
            call = store.finish_hand(live["id"], stacks, carried_out, {"op": list(op)})
            if expected is None:
                for user, stack in zip(live["users"], stacks):
                    t.seats[user][1] = stack
                t.carried += carried_out - live["carried_in"]
                t.live = None
        elif kind == "void":
            if t.live is None:
                return
            call = store.void_hand(t.live["id"], "test")
            t.live = None
        elif kind == "refund":
            if t.carried == 0:
                return
            expected = HandInProgress if t.live is not None else None
            shares = {USERS[0]: t.carried} if t.carried == 1 else {USERS[0]: t.carried // 2, USERS[1]: t.carried // 2}
            call = store.refund_carried(t.id, shares)
            if expected is None:
                for user, amount in shares.items():
                    model.move(user, amount)
                t.carried -= sum(shares.values())
        elif kind == "close":  # one transaction: refused as a whole, or every seat cashed out and the table closed
            if t.closed:
                expected = TableClosed
            elif t.live is not None:
                expected = HandInProgress  # closed only with a reason to void it
            elif t.carried:
                expected = TableNotEmpty  # the carried pot must be refunded exactly
            call = store.close_table(t.id)
            if expected is None:
                for user, (_, stack) in t.seats.items():
                    model.move(user, stack)
                t.seats.clear()
                t.closed = True
        else:  # pragma: no cover
            raise AssertionError(kind)
    try:
        await call
    except StoreError as error:
        assert expected is not None and isinstance(error, expected), f"{op}: got {error!r}, expected {expected}"
        _note(f"{kind}: {type(error).__name__}")
        return
    assert expected is None, f"{op}: succeeded, expected {expected}"
    _note(f"{kind}: done")


async def _run(ops: list[tuple[Any, ...]], path: Path) -> None:
    model = Model()
    async with await Store.open(path) as store:
        for op in [*OPENING, *ops]:
            await _apply(store, model, op)
            report = await store.audit(G)
            assert report.ok, (op, report.problems)
            assert report.balances == sum(model.balances.values())
        rows = await store.db.fetch("SELECT user_id, balance FROM accounts WHERE guild_id = ?", (G,))
        actual = {r[0]: r[1] for r in rows}
        assert actual == model.balances
        assert all(b >= 0 for b in actual.values())
        for t in model.tables:
            record = await store.get_table_by_id(t.id)
            assert {s.user_id: [s.seat_no, s.stack] for s in record.seats} == t.seats
            assert (record.carried_pot, record.status == "closed") == (t.carried, t.closed)
        assert len(await store.live_hands()) == sum(t.live is not None for t in model.tables)
        for report in await store.audit_all():
            assert report.ok, report.problems


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(operations, min_size=5, max_size=60))
def test_random_operations_keep_the_books_exact(ops: list[tuple[Any, ...]]) -> None:
    with tempfile.TemporaryDirectory() as folder:
        asyncio.run(_run(ops, Path(folder) / "poker.db"))


def _random_op(rng: random.Random) -> tuple[Any, ...]:
    """One operation drawn like the strategies above, for long seeded sessions."""
    amount = rng.choice([rng.randint(1, 600)] * 4 + [rng.randint(-2, 1200), rng.choice([0, 2500, MAX_AMOUNT + 1])])
    t, user, other, seed = rng.randint(0, 2), rng.choice(USERS), rng.choice(USERS), rng.randint(0, 2**32)
    return rng.choice([
        ("transfer", user, other, amount), ("grant", user, amount), ("remove", user, amount),
        ("create", rng.choice(CHANNELS)), ("buy_in", t, user, amount, rng.randint(1, 4)), ("top_up", t, user, amount),
        ("cash_out", t, user), ("start", t, seed), ("act", t), ("act", t), ("finish", t, seed), ("finish", t, seed),
        ("void", t), ("refund", t), ("close", t),
    ])


@pytest.mark.parametrize("seed", range(4))
def test_long_random_sessions_keep_the_books_exact(seed: int, tmp_path: Path) -> None:
    rng = random.Random(seed)
    asyncio.run(_run([_random_op(rng) for _ in range(300)], tmp_path / "poker.db"))
