"""Closing a table, pausing it, changing its settings, and the session's results."""

from __future__ import annotations

import random

import pytest

from bot.store import Store, StoreError
from bot.tables import TableError, Tables

from .conftest import (
    ALICE,
    BOB,
    CAROL,
    CHANNEL,
    DAVE,
    HOST,
    G,
    OpenStore,
    channel_night,
    deal,
    finish,
    play_hand,
    randomly,
    seat_players,
    settings,
    take_snapshot,
)


async def test_close_voids_a_live_hand_and_cashes_everyone_out(tables: Tables, store: Store) -> None:
    table = await tables.create(G, CHANNEL, HOST, settings())
    await seat_players(table, [ALICE, BOB, CAROL, DAVE], 100)
    await table.sit_out(DAVE)
    await play_hand(table, randomly(random.Random(3)))
    stacks = {s.user_id: s.stack for s in table.record.seats}
    hand = await deal(table)
    await table.act(table.actor(), "cbr 10", 0)  # type: ignore[arg-type]
    await table.act(table.actor(), "cc", 1)  # type: ignore[arg-type]
    await table.leave(table.actor())  # type: ignore[arg-type]
    assert table.live is not None and sum(hand.contributed) > 0
    hand_id = table.live.record.id
    cashes = await tables.close(CHANNEL)
    assert {c.user_id: c.amount for c in cashes} == stacks  # every chip put into the hand went back
    void = await store.get_hand(hand_id)
    assert (void.status, void.void_reason) == ("void", "the table was closed")
    closed = await store.get_table_by_id(table.id)
    assert (closed.status, closed.seats, closed.carried_pot) == ("closed", (), 0)
    assert tables.get(CHANNEL) is None and table.hand is None
    for user in (ALICE, BOB, CAROL, DAVE):
        assert await store.balance(G, user) == 1000 - 100 + stacks[user]
    results = await channel_night(store, tables)
    assert sum(results.nets.values()) == 0 and results.pending == {}
    assert results.nets == {user: await store.balance(G, user) - 1000 for user in results.nets}
    with pytest.raises(StoreError):  # nothing more happens at a closed table
        await table.join(ALICE, 100)
    with pytest.raises(TableError, match="no table"):
        await tables.close(CHANNEL)


async def test_close_an_empty_table(tables: Tables, store: Store) -> None:
    await tables.create(G, CHANNEL, HOST, settings())
    assert await tables.close(CHANNEL) == []
    assert await store.list_open_tables() == []


async def test_pause_and_resume(tables: Tables, store: Store) -> None:
    table = await tables.create(G, CHANNEL, HOST, settings())
    await seat_players(table, [ALICE, BOB])
    await table.pause()
    assert table.paused and table.record.status == "paused"
    before = await take_snapshot(store)
    with pytest.raises(TableError, match="paused"):
        await deal(table)
    assert await take_snapshot(store) == before
    await table.resume()
    assert (await store.get_table_by_id(table.id)).status == "open"
    await deal(table)
    await table.pause()  # the hand in play is finished
    await finish(table)
    with pytest.raises(TableError, match="paused"):
        await deal(table)
    [restored] = await Tables(store).restore()  # a paused table is restored paused
    assert restored.paused
    await restored.resume()
    await play_hand(restored)


async def test_settings_change_between_hands_only(tables: Tables, store: Store) -> None:
    table = await tables.create(G, CHANNEL, HOST, settings())
    await seat_players(table, [ALICE, BOB])
    new = await table.update_settings(small_blind=2, big_blind=4, clock=30)
    assert (new.big_blind, new.clock, new.buy_in_range) == (4, 30, (80, 400)) and table.settings == new
    hand = await deal(table)
    assert (hand.stakes.small_blind, hand.stakes.big_blind) == (2, 4)
    before = await take_snapshot(store)
    with pytest.raises(TableError, match="between hands"):
        await table.update_settings(big_blind=10, small_blind=5)
    assert await take_snapshot(store) == before and table.settings == new
    await finish(table)
    before = await take_snapshot(store)
    with pytest.raises(TableError, match="small blind cannot be bigger"):
        await table.update_settings(small_blind=8)
    with pytest.raises(TableError):
        await table.update_settings(no_such_setting=1)
    with pytest.raises(TableError, match="Unknown game"):
        await table.update_settings(game="chess")
    assert await take_snapshot(store) == before and table.settings == new
    await table.update_settings(game="triple-draw-27")
    assert (await play_hand(table)).game.id == "triple-draw-27"
    await seat_players(table, [CAROL, DAVE])
    before = await take_snapshot(store)
    with pytest.raises(TableError, match="4 players are seated; the table cannot have only 3 seats"):
        await table.update_settings(seats=3)
    assert await take_snapshot(store) == before
    await table.leave(DAVE)
    assert (await table.update_settings(seats=3)).max_seats == 3
    [restored] = await Tables(store).restore()
    assert restored.settings == table.settings


async def test_session_results_after_a_few_hands(open_store: OpenStore) -> None:
    store = await open_store()
    tables = Tables(store, random.Random(8))
    table = await tables.create(G, CHANNEL, HOST, settings("assassin"))
    await seat_players(table, [ALICE, BOB, CAROL], 100)
    policy = randomly(random.Random(9))
    for number in range(12):
        if number == 6:
            await table.leave(BOB)
            await table.join(DAVE, 60)
        for seat in table.record.seats:
            if seat.stack == 0:
                await table.rebuy(seat.user_id, 40)
        await play_hand(table, policy)
    results = await channel_night(store, tables)
    assert set(results.nets) == {ALICE, BOB, CAROL, DAVE}
    # The chips still carried count as returned to those who put them in, as a close now would return them.
    assert sum(results.pending.values()) == table.record.carried_pot and sum(results.nets.values()) == 0
    for user, net in results.nets.items():
        mine = table.seat_of(user)
        assert net == await store.balance(G, user) + (mine.stack if mine else 0) - 1000 + results.pending.get(user, 0)
    assert table.seat_of(BOB) is None
    for user, first in ((ALICE, 100), (DAVE, 60)):  # the first buy-in, then rebuys of 40
        entries = (await store.ledger_page(G, user, per_page=100)).entries
        bought = [-e.delta for e in entries if e.kind in ("buy-in", "rebuy", "top-up")]
        assert bought[-1] == first and set(bought[:-1]) <= {40}
    assert len(await store.recent_hands(table.id, 50)) == 12
    assert all(h.status == "complete" and h.phh for h in await store.recent_hands(table.id, 50))
    await tables.close(CHANNEL)
    results = await channel_night(store, tables)
    assert sum(results.nets.values()) == 0 and results.pending == {}
    assert results.nets == {user: await store.balance(G, user) - 1000 for user in results.nets}
