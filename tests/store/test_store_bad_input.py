"""Every bad input gets a clear StoreError and changes nothing (every row of every table compared)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import pytest

from bot.store import (
    ActionOutOfOrder,
    AlreadySeated,
    BuyInOutOfRange,
    ChipsNotConserved,
    HandInProgress,
    HandNotLive,
    InsufficientFunds,
    InvalidAmount,
    InvalidArgument,
    NotFound,
    NotSeated,
    SeatTaken,
    SelfTransfer,
    Store,
    StoreError,
    TableClosed,
    TableExists,
    TableNotEmpty,
)

from .conftest import Snapshot

G, OTHER_GUILD = 1_000_000_000_000_001, 1_000_000_000_000_002
ALICE, BOB, CAROL, DAVE, NEWBIE, BANKER = 11, 12, 13, 14, 15, 99
C1, C2, C3, C4 = 501, 502, 503, 504


@dataclass
class World:
    """A guild with accounts, a table with a carried pot, a table with a live hand, and a closed table."""

    store: Store
    table: int  # ALICE seat 1 (500), BOB seat 2 (400), 10 chips carried, 1 complete hand
    live_table: int  # ALICE seat 1, DAVE seat 2, hand #2 live with 2 actions and carried_in 20
    closed_table: int
    done_hand: int
    live_hand: int


@pytest.fixture
async def world(store: Store) -> World:
    await store.transfer(G, ALICE, BOB, 1)
    await store.balance(G, DAVE)
    await store.grant(G, ALICE, 2000, BANKER)
    table = await store.create_table(G, C1, ALICE, {"game": "five-card-draw", "big_blind": 10})
    await store.buy_in(table.id, ALICE, 500, 1)
    await store.buy_in(table.id, BOB, 400, 2)
    hand = await store.start_hand(table.id, "five-card-draw", {"big_blind": 10}, 7, [ALICE, BOB], [500, 400])
    await store.append_action(hand.id, 0, "p1 cc")
    done = await store.finish_hand(hand.id, [495, 395], 10, {"carried": 10}, "phh text")

    live_table = await store.create_table(G, C2, BOB, {"game": "assassin"})
    await store.buy_in(live_table.id, ALICE, 300, 1)
    await store.buy_in(live_table.id, DAVE, 300, 2)
    first = await store.start_hand(live_table.id, "assassin", {}, 8, [ALICE, DAVE], [300, 300])
    await store.finish_hand(first.id, [290, 290], 20, None)
    live = await store.start_hand(live_table.id, "assassin", {}, 9, [DAVE, ALICE], [290, 290], carried_in=20)
    await store.append_action(live.id, 0, "p1 cbr 20")
    await store.append_action(live.id, 1, "p2 cc")

    closed = await store.create_table(G, C3, CAROL, {})
    await store.close_table(closed.id)
    return World(store, table.id, live_table.id, closed.id, done.id, live.id)


Call = Callable[[World], Awaitable[Any]]

CASES: list[tuple[str, Call, type[StoreError], str]] = [
    # unknown or malformed guilds and members
    ("zero member id", lambda w: w.store.balance(G, 0), InvalidArgument, "must be a Discord id"),
    ("negative guild id", lambda w: w.store.balance(-5, ALICE), InvalidArgument, "must be a Discord id"),
    ("text guild id", lambda w: w.store.transfer("G", ALICE, BOB, 5), InvalidArgument, "must be a Discord id"),
    ("bool member id", lambda w: w.store.balance(G, True), InvalidArgument, "must be a Discord id"),
    ("huge member id", lambda w: w.store.grant(G, 2**64, 5, BANKER), InvalidArgument, "must be a Discord id"),
    ("unknown member's history", lambda w: w.store.ledger_page(G, NEWBIE), NotFound, "no chips account"),
    ("unknown guild's history", lambda w: w.store.ledger_page(OTHER_GUILD, ALICE), NotFound, "no chips account"),
    ("unknown table", lambda w: w.store.get_table_by_id(9999), NotFound, "no table number 9999"),
    ("unknown hand", lambda w: w.store.get_hand(9999), NotFound, "no hand number 9999"),
    # transfers
    ("transfer to oneself", lambda w: w.store.transfer(G, ALICE, ALICE, 5), SelfTransfer, "to yourself"),
    ("more than the balance", lambda w: w.store.transfer(G, BOB, ALICE, 700), InsufficientFunds,
     "You have 601 chips, so you cannot send 700."),
    ("a newcomer sends more than the starting balance",
     lambda w: w.store.transfer(G, NEWBIE, ALICE, 1001), InsufficientFunds, "You have 1,000 chips"),
    ("zero", lambda w: w.store.transfer(G, ALICE, BOB, 0), InvalidAmount, "from 1 to 1,000,000,000,000, not 0."),
    ("negative", lambda w: w.store.transfer(G, ALICE, BOB, -50), InvalidAmount, "not -50."),
    ("absurd", lambda w: w.store.transfer(G, ALICE, BOB, 10**13), InvalidAmount, "not 10,000,000,000,000."),
    ("fractional", lambda w: w.store.transfer(G, ALICE, BOB, 2.5), InvalidAmount, "whole number"),
    ("nan", lambda w: w.store.transfer(G, ALICE, BOB, float("nan")), InvalidAmount, "whole number"),
    ("text amount", lambda w: w.store.transfer(G, ALICE, BOB, "10"), InvalidAmount, "whole number"),
    ("bool amount", lambda w: w.store.transfer(G, ALICE, BOB, True), InvalidAmount, "whole number"),
    ("no amount", lambda w: w.store.transfer(G, ALICE, BOB, None), InvalidAmount, "whole number"),
    ("overlong reference", lambda w: w.store.transfer(G, ALICE, BOB, 5, reference="x" * 500), InvalidArgument,
     "at most 200 characters"),
    # grants and removals
    ("grant zero", lambda w: w.store.grant(G, ALICE, 0, BANKER), InvalidAmount, "whole number"),
    ("grant absurd", lambda w: w.store.grant(G, ALICE, 10**15, BANKER), InvalidAmount, "whole number"),
    ("remove more than the balance", lambda w: w.store.remove(G, BOB, 602, BANKER), InsufficientFunds,
     "cannot be removed"),
    ("remove from a newcomer", lambda w: w.store.remove(G, NEWBIE, 1001, BANKER), InsufficientFunds,
     "cannot be removed"),
    ("negative starting balance", lambda w: w.store.set_starting_balance(G, -1), InvalidArgument, "from 0"),
    ("bad page", lambda w: w.store.ledger_page(G, ALICE, page=0), InvalidArgument, "The page"),
    ("bad page size", lambda w: w.store.ledger_page(G, ALICE, per_page=1000), InvalidArgument, "page size"),
    ("bad leaderboard size", lambda w: w.store.leaderboard(G, 0), InvalidArgument, "leaderboard size"),
    # tables
    ("a second table in one channel", lambda w: w.store.create_table(G, C1, BOB, {}), TableExists,
     "already has a table"),
    ("settings not a dict", lambda w: w.store.create_table(G, C4, BOB, "fast"), InvalidArgument, "JSON object"),
    ("settings not JSON", lambda w: w.store.create_table(G, C4, BOB, {"x": object()}), InvalidArgument,
     "JSON-serialisable"),
    ("settings of a closed table", lambda w: w.store.update_settings(w.closed_table, {}), TableClosed, "closed"),
    ("button on seat 0", lambda w: w.store.set_button(w.table, 0), InvalidArgument, "seat number"),
    ("close without refunding the carried pot", lambda w: w.store.close_table(w.table), TableNotEmpty,
     "refunds add up to 0"),
    ("close with refunds above the carried pot", lambda w: w.store.close_table(w.table, refunds={ALICE: 11}),
     TableNotEmpty, "refunds add up to 11"),
    ("close with a live hand and no reason", lambda w: w.store.close_table(w.live_table), HandInProgress,
     "still being played"),
    ("close a closed table", lambda w: w.store.close_table(w.closed_table), TableClosed, "closed"),
    # buy-ins, top-ups, leaving
    ("buy in twice", lambda w: w.store.buy_in(w.table, ALICE, 100, 3), AlreadySeated, "already seated"),
    ("a taken seat", lambda w: w.store.buy_in(w.table, CAROL, 100, 1), SeatTaken, "Seat 1 is taken"),
    ("buy in below the range", lambda w: w.store.buy_in(w.table, CAROL, 50, 3, min_amount=100, max_amount=1000),
     BuyInOutOfRange, "at least 100 chips"),
    ("buy in above the range", lambda w: w.store.buy_in(w.table, CAROL, 999, 3, min_amount=100, max_amount=500),
     BuyInOutOfRange, "at most 500 chips"),
    ("buy in for more than the balance", lambda w: w.store.buy_in(w.table, CAROL, 5000, 3), InsufficientFunds,
     "not enough for 5,000"),
    ("buy in for zero", lambda w: w.store.buy_in(w.table, CAROL, 0, 3), InvalidAmount, "The buy-in"),
    ("seat number 11", lambda w: w.store.buy_in(w.table, CAROL, 100, 11), InvalidArgument, "from 1 to 10"),
    ("buy in at an unknown table", lambda w: w.store.buy_in(9999, CAROL, 100, 3), NotFound, "no table"),
    ("buy in at a closed table", lambda w: w.store.buy_in(w.closed_table, CAROL, 100, 3), TableClosed, "closed"),
    ("leave a table one is not at", lambda w: w.store.cash_out(w.table, CAROL), NotSeated, "not seated"),
    ("leave during one's hand", lambda w: w.store.cash_out(w.live_table, DAVE), HandInProgress, "playing hand #2"),
    ("top up during one's hand", lambda w: w.store.top_up(w.live_table, ALICE, 5), HandInProgress, "playing"),
    ("top up above the maximum", lambda w: w.store.top_up(w.table, BOB, 200, max_stack=500), BuyInOutOfRange,
     "at most 500"),
    ("top up beyond the balance", lambda w: w.store.top_up(w.table, BOB, 602), InsufficientFunds, "not enough"),
    ("top up at a table one is not at", lambda w: w.store.top_up(w.table, CAROL, 5), NotSeated, "not seated"),
    ("sit out at a table one is not at", lambda w: w.store.update_seat(w.table, CAROL, sitting_out=True), NotSeated,
     "not seated"),
    ("refund nobody", lambda w: w.store.refund_carried(w.table, {}), InvalidArgument, "non-empty"),
    ("refund more than carried", lambda w: w.store.refund_carried(w.table, {ALICE: 6, BOB: 5}), InsufficientFunds,
     "Only 10 chips are carried"),
    ("refund during a hand", lambda w: w.store.refund_carried(w.live_table, {ALICE: 1}), HandInProgress,
     "between hands"),
    ("refund a negative share", lambda w: w.store.refund_carried(w.table, {ALICE: -1}), InvalidAmount, "A refund"),
    # hands
    ("a second live hand", lambda w: w.store.start_hand(w.live_table, "assassin", {}, 1, [ALICE, DAVE], [290, 290]),
     HandInProgress, "still being played"),
    ("a player twice", lambda w: w.store.start_hand(w.table, "g", {}, 1, [ALICE, ALICE], [495, 495]),
     InvalidArgument, "different players"),
    ("one player", lambda w: w.store.start_hand(w.table, "g", {}, 1, [ALICE], [495]), InvalidArgument, "2 to 10"),
    ("an unseated player", lambda w: w.store.start_hand(w.table, "g", {}, 1, [ALICE, CAROL], [495, 5]), NotSeated,
     "not seated"),
    ("wrong starting stacks", lambda w: w.store.start_hand(w.table, "g", {}, 1, [ALICE, BOB], [500, 395]),
     ChipsNotConserved, "has 495 chips at the table, not 500"),
    ("more carried chips than the table has",
     lambda w: w.store.start_hand(w.table, "g", {}, 1, [ALICE, BOB], [495, 395], carried_in=11),
     ChipsNotConserved, "Only 10 chips are carried"),
    ("negative seed", lambda w: w.store.start_hand(w.table, "g", {}, -1, [ALICE, BOB], [495, 395]),
     InvalidArgument, "seed"),
    ("no game", lambda w: w.store.start_hand(w.table, "", {}, 1, [ALICE, BOB], [495, 395]), InvalidArgument, "game"),
    ("a repeated action (double click)", lambda w: w.store.append_action(w.live_hand, 1, "p2 cc"), ActionOutOfOrder,
     "already taken"),
    ("a gap in the actions", lambda w: w.store.append_action(w.live_hand, 5, "p1 cc"), ActionOutOfOrder,
     "cannot be recorded before number 2"),
    ("an action on a finished hand", lambda w: w.store.append_action(w.done_hand, 1, "p1 cc"), HandNotLive,
     "already over (complete)"),
    ("an action on an unknown hand", lambda w: w.store.append_action(9999, 0, "cc"), NotFound, "no hand"),
    ("an empty action", lambda w: w.store.append_action(w.live_hand, 2, "  "), InvalidArgument, "An action"),
    ("a finish that creates chips", lambda w: w.store.finish_hand(w.live_hand, [300, 301], 0, None),
     ChipsNotConserved, "do not add up"),
    ("a finish that loses the carried pot", lambda w: w.store.finish_hand(w.live_hand, [290, 290], 0, None),
     ChipsNotConserved, "do not add up"),
    ("a finish with one stack missing", lambda w: w.store.finish_hand(w.live_hand, [600], 0, None),
     InvalidArgument, "one final stack per player"),
    ("a negative final stack", lambda w: w.store.finish_hand(w.live_hand, [-10, 620], 0, None), InvalidArgument,
     "A final stack"),
    ("a finish whose last action is a repeat",
     lambda w: w.store.finish_hand(w.live_hand, [600, 0], 0, None, last_action=(1, "p2 cc")), ActionOutOfOrder,
     "already taken"),
    ("a finish that cashes out a stranger",
     lambda w: w.store.finish_hand(w.live_hand, [600, 0], 0, None, cash_out=[CAROL]), NotSeated, "not seated"),
    ("finish a finished hand", lambda w: w.store.finish_hand(w.done_hand, [495, 395], 10, None), HandNotLive,
     "already over"),
    ("void a finished hand", lambda w: w.store.void_hand(w.done_hand, "oops"), HandNotLive, "already over"),
    ("void without a reason", lambda w: w.store.void_hand(w.live_hand, ""), InvalidArgument, "reason"),
]


@pytest.mark.parametrize(("case", "call", "error", "message"), CASES, ids=[c[0] for c in CASES])
async def test_bad_input_is_refused_clearly_and_changes_nothing(
    world: World, snapshot: Snapshot, case: str, call: Call, error: type[StoreError], message: str
) -> None:
    before = await snapshot(world.store)
    with pytest.raises(error) as caught:
        await call(world)
    text = str(caught.value)
    assert message in text, text
    assert len(text) > 10 and "sqlite" not in text.lower() and "Traceback" not in text
    assert await snapshot(world.store) == before
    # ... and the store still works afterwards.
    assert await world.store.balance(G, ALICE) >= 0


async def test_the_world_is_consistent(world: World) -> None:
    report = await world.store.audit(G)
    assert report.ok, report.problems
    assert report.live_hands == 1 and report.open_tables == 2 and report.carried_pots == 30
