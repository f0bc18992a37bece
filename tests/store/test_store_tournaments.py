"""Tournaments in the store: the prize pool, entries, rebuys, the payout with the last hand, cancel, and the audit
(tournament chips are not bank chips; the pool is counted until it is paid)."""

from __future__ import annotations

import pytest

from bot.store import (
    AlreadySeated,
    ChipsNotConserved,
    InsufficientFunds,
    InvalidArgument,
    Store,
    TableExists,
    TableNotEmpty,
    TournamentError,
    TournamentHand,
)

from .conftest import Snapshot

G = 42
HOST, ALICE, BOB, CAROL = 1000, 1001, 1002, 1003
CHANNEL = 7777
STATE = {"version": 1, "note": "opaque to the store"}


async def open_tournament(store: Store, buy_in: int = 100, chips: int = 1500) -> tuple[int, int]:
    table, tournament = await store.create_tournament(G, CHANNEL, HOST, {"game": "five-card-draw"}, buy_in=buy_in,
                                                      starting_chips=chips, state=STATE)
    assert (tournament.status, tournament.pool, tournament.table_id, table.status) == ("registering", 0, table.id,
                                                                                       "open")
    return table.id, tournament.id


async def night_money(store: Store) -> tuple[set[int], dict[int, int]]:
    """The tournament tables of the channel's night and each member's money result at them (what the night's
    results count for a tournament)."""
    night = await store.last_night(CHANNEL)
    assert night is not None
    return await store.night_tournament_money([night.id])


async def audit_ok(store: Store) -> None:
    report = await store.audit(G)
    assert report.ok, report.problems


async def test_buy_ins_go_to_the_pool_and_the_audit_counts_it(store: Store) -> None:
    table_id, tid = await open_tournament(store)
    for n, user in enumerate((ALICE, BOB, CAROL), start=1):
        seat = await store.register_tournament(tid, user, n, {**STATE, "entrants": n})
        assert (seat.seat_no, seat.stack) == (n, 1500)
    assert await store.balance(G, ALICE) == 900
    record = await store.get_tournament(table_id)
    assert record is not None and (record.pool, record.state["entrants"], len(record.entries)) == (300, 3, 3)
    report = await store.audit(G)
    assert report.ok, report.problems
    # The bank's chips: balances plus the pool. The 4500 tournament chips on the seats are not bank chips.
    assert (report.prize_pools, report.seat_stacks, report.tournament_chips) == (300, 0, 4500)
    assert report.in_play == report.minted == 3000
    assert await store.unregister_tournament(tid, CAROL, STATE) == 100
    assert await store.balance(G, CAROL) == 1000
    assert (await store.get_table_by_id(table_id)).seat_of(CAROL) is None
    await audit_ok(store)
    # tournament chips are worth nothing at the bank: the night's money is the buy-ins less the refund
    assert await night_money(store) == ({table_id}, {ALICE: -100, BOB: -100, CAROL: 0})


async def test_refusals_change_nothing(store: Store, snapshot: Snapshot) -> None:
    table_id, tid = await open_tournament(store, buy_in=2000)
    await store.grant(G, ALICE, 5000, HOST)
    await store.register_tournament(tid, ALICE, 1, STATE)
    before = await snapshot(store)
    with pytest.raises(InsufficientFunds, match="The buy-in is 2,000 chips and you have 1,000"):
        await store.register_tournament(tid, BOB, 2, STATE)
    with pytest.raises(AlreadySeated):
        await store.register_tournament(tid, ALICE, 3, STATE)
    with pytest.raises(TournamentError, match="during the tournament"):
        await store.rebuy_tournament(tid, ALICE, STATE)
    # A tournament table's seats are not bought into or cashed out with bank chips.
    with pytest.raises(InvalidArgument, match="plays a tournament"):
        await store.buy_in(table_id, BOB, 100, 2)
    with pytest.raises(InvalidArgument, match="cannot be cashed out"):
        await store.cash_out(table_id, ALICE)
    with pytest.raises(TableNotEmpty, match="cancel it"):
        await store.close_table(table_id)
    with pytest.raises(TableExists):
        await store.create_table(G, CHANNEL, HOST, {})
    with pytest.raises(TournamentError, match="Only a running"):
        await store.save_tournament(tid, STATE, prizes={ALICE: 2000})
    assert await snapshot(store) == before


async def start_three(store: Store) -> tuple[int, int]:
    table_id, tid = await open_tournament(store)
    for n, user in enumerate((ALICE, BOB, CAROL), start=1):
        await store.register_tournament(tid, user, n, STATE)
    await store.save_tournament(tid, {**STATE, "started": True}, start=True)
    return table_id, tid


async def play(store: Store, table_id: int, users: list[int], before: list[int], after: list[int],
               change: TournamentHand | None) -> None:
    hand = await store.start_hand(table_id, "five-card-draw", {}, 1, users, before)
    await store.finish_hand(hand.id, after, 0, {"winners": []}, tournament=change)


async def test_a_rebuy_then_the_payout_with_the_last_hand(store: Store, snapshot: Snapshot) -> None:
    table_id, tid = await start_three(store)
    # Carol goes broke and may rebuy: she stays seated with no chips.
    await play(store, table_id, [ALICE, BOB, CAROL], [1500] * 3, [3000, 1500, 0], TournamentHand(STATE))
    with pytest.raises(TournamentError, match="no chips left"):
        await store.rebuy_tournament(tid, BOB, STATE)
    seat = await store.rebuy_tournament(tid, CAROL, STATE)
    assert seat.stack == 1500 and await store.balance(G, CAROL) == 800
    await audit_ok(store)
    # Bob and Carol go out in the same hand: their empty seats are freed.
    await play(store, table_id, [ALICE, BOB, CAROL], [3000, 1500, 1500], [6000, 0, 0],
               TournamentHand(STATE, out=(BOB, CAROL), prizes=None))
    await audit_ok(store)
    table = await store.get_table_by_id(table_id)
    assert [s.user_id for s in table.seats] == [ALICE]
    # Prizes that do not add up to the pool (400) are refused, with nothing written.
    before = await snapshot(store)
    with pytest.raises(ChipsNotConserved, match="prize pool of 400"):
        await store.save_tournament(tid, STATE, prizes={ALICE: 300})
    assert await snapshot(store) == before
    record = await store.save_tournament(tid, {**STATE, "over": True}, prizes={ALICE: 280, BOB: 120})
    assert (record.status, record.pool, record.ended_at is not None) == ("finished", 0, True)
    assert {e.user_id: e.prize for e in record.entries} == {ALICE: 280, BOB: 120, CAROL: 0}
    assert [await store.balance(G, u) for u in (ALICE, BOB, CAROL)] == [1180, 1020, 800]
    table = await store.get_table_by_id(table_id)
    assert (table.status, table.seats) == ("open", ())  # it shows the standings until closed
    await audit_ok(store)
    assert await night_money(store) == ({table_id}, {ALICE: 180, BOB: 20, CAROL: -200})
    closed, cashes = await store.close_table(table_id)
    assert closed.status == "closed" and cashes == []
    await audit_ok(store)


async def test_the_last_hand_pays_out_in_its_own_transaction(store: Store) -> None:
    table_id, _tid = await start_three(store)
    await play(store, table_id, [ALICE, BOB, CAROL], [1500] * 3, [4500, 0, 0],
               TournamentHand(STATE, out=(BOB, CAROL), prizes={ALICE: 200, BOB: 100}))
    record = await store.get_tournament(table_id)
    assert record is not None and (record.status, record.pool) == ("finished", 0)
    assert (await store.get_table_by_id(table_id)).seats == ()
    await audit_ok(store)


async def test_a_bad_payout_rolls_the_whole_hand_back(store: Store, snapshot: Snapshot) -> None:
    table_id, _tid = await start_three(store)
    hand = await store.start_hand(table_id, "five-card-draw", {}, 1, [ALICE, BOB, CAROL], [1500] * 3)
    before = await snapshot(store)
    with pytest.raises(ChipsNotConserved):
        await store.finish_hand(hand.id, [4500, 0, 0], 0, {}, tournament=TournamentHand(
            STATE, out=(BOB, CAROL), prizes={ALICE: 1}))
    with pytest.raises(ChipsNotConserved, match="still has chips"):
        await store.finish_hand(hand.id, [3000, 1500, 0], 0, {}, tournament=TournamentHand(STATE, out=(BOB,)))
    assert await snapshot(store) == before
    live = await store.live_hand(table_id)
    assert live is not None and live.id == hand.id


async def test_cancel_returns_every_buy_in_and_rebuy(store: Store) -> None:
    table_id, tid = await start_three(store)
    await play(store, table_id, [ALICE, BOB, CAROL], [1500] * 3, [3000, 1500, 0], TournamentHand(STATE))
    await store.rebuy_tournament(tid, CAROL, STATE)
    await store.start_hand(table_id, "five-card-draw", {}, 2, [ALICE, BOB, CAROL], [3000, 1500, 1500])
    closed, refunds = await store.cancel_tournament(tid, {**STATE, "cancelled": True})
    assert closed.status == "closed" and closed.seats == ()
    assert [(r.user_id, r.seat_no, r.amount, r.balance) for r in refunds] == [
        (ALICE, 1, 100, 1000), (BOB, 2, 100, 1000), (CAROL, 3, 200, 1000)]
    assert (await store.recent_hands(table_id, 1))[0].status == "void"
    record = await store.get_tournament(table_id)
    assert record is not None and (record.status, record.pool, record.state["cancelled"]) == ("cancelled", 0, True)
    await audit_ok(store)
    with pytest.raises(TournamentError, match="cancelled"):
        await store.cancel_tournament(tid, STATE)


async def test_the_audit_finds_a_pool_that_does_not_add_up(store: Store) -> None:
    table_id, tid = await start_three(store)
    await store.db.execute("UPDATE tournaments SET pool = pool - 1 WHERE id = ?", (tid,))
    await store.db.execute("UPDATE seats SET stack = stack + 5 WHERE table_id = ? AND user_id = ?",
                                   (table_id, ALICE))
    report = await store.audit(G)
    text = "\n".join(report.problems)
    assert "chips minted" in text and "prize pool 299 != chips its ledger rows took in 300" in text
    assert "!= the tournament chips given out 4,500" in text and f"user {ALICE}: stack 1,505" in text
    await store.db.execute("UPDATE tournaments SET pool = pool + 1 WHERE id = ?", (tid,))
    await store.db.execute("UPDATE seats SET stack = stack - 5 WHERE table_id = ? AND user_id = ?",
                                   (table_id, ALICE))
    await audit_ok(store)


async def test_tournament_chips_are_not_on_the_leaderboard(store: Store) -> None:
    _, tid = await open_tournament(store)
    await store.register_tournament(tid, ALICE, 1, STATE)
    [entry] = [e for e in await store.leaderboard(G) if e.user_id == ALICE]
    assert (entry.balance, entry.at_tables) == (900, 0)


async def test_a_tournament_hand_cannot_end_without_its_tournament(store: Store, snapshot: Snapshot) -> None:
    table_id, _ = await start_three(store)
    hand = await store.start_hand(table_id, "five-card-draw", {}, 1, [ALICE, BOB, CAROL], [1500] * 3)
    before = await snapshot(store)
    with pytest.raises(InvalidArgument, match="tournament="):
        await store.finish_hand(hand.id, [3000, 1500, 0], 0, {})
    assert await snapshot(store) == before
