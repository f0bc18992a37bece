"""Random sessions in-process: many hands with players coming and going, timeouts and restarts at random
moments; after every hand the books balance and the table's own bookkeeping agrees with the store."""

from __future__ import annotations

import random

import pytest

from bot.store import Store, StoreError
from bot.tables import Table, TableError, Tables

from .conftest import CHANNEL, HOST, PLAYERS, G, OpenStore, channel_night, deal, engine_state, randomly, settings


def hand_over(table: Table) -> bool:
    """No hand is live (a function, so that type checkers do not keep an earlier narrowing)."""
    return table.live is None


async def check_between_hands(store: Store, table: Table) -> None:
    """What must hold whenever no hand is live."""
    report = await store.audit(G)
    assert report.ok, report.problems
    record = await store.get_table_by_id(table.id)
    assert record == table.record  # memory and store agree
    assert sum(table.carried_owners.values()) == record.carried_pot  # every carried chip has its owners
    for seat in record.seats:
        assert not seat.leaving  # leavers are cashed out with the result
        assert seat.timeouts < 2 or seat.sitting_out
    recent = await store.recent_hands(table.id, 1)
    last = recent[0] if recent else None
    if last is not None and last.status == "complete":
        assert last.phh and last.result["stacks"] == list(last.stacks_after or ())
        assert last.settings["button"] == record.button


async def restart(open_store: OpenStore, store: Store, table: Table) -> tuple[Store, Tables, Table]:
    """Close the store as a stopping bot would and restore everything from the file."""
    state, actor, seq, owners = engine_state(table.hand), table.actor(), table.next_seq(), table.carried_owners
    await store.close()
    store = await open_store()
    tables = Tables(store, random.Random(seq))
    [again] = await tables.restore()
    assert (engine_state(again.hand), again.actor(), again.next_seq()) == (state, actor, seq)
    assert again.carried_owners == owners and again.choice == table.choice
    return store, tables, again


@pytest.mark.parametrize("game", ["assassin", "dealers-choice", "triple-draw-27", "five-card-draw"])
async def test_a_random_session_keeps_the_books(open_store: OpenStore, game: str) -> None:
    rng = random.Random(game)
    policy = randomly(rng)
    store = await open_store()
    tables = Tables(store, random.Random(1))
    options = {"choice_per": "orbit"} if game == "dealers-choice" else {"jokers": True} if game == "assassin" else {}
    table = await tables.create(G, CHANNEL, HOST, settings(game, seats=6, **options))
    hands = 0
    while hands < 40:
        if rng.random() < 0.01:
            store, tables, table = await restart(open_store, store, table)
        if table.live is not None:
            live = table.live
            r = rng.random()
            if r < 0.03:
                user = rng.choice(live.users)
                if table.seat_of(user) is not None:
                    await table.leave(user)
            elif r < 0.08:
                await table.timeout(table.next_seq())
            else:
                await table.act(table.actor(), policy(table), table.next_seq())  # type: ignore[arg-type]
            if hand_over(table):
                hands += 1
                await check_between_hands(store, table)
            continue
        seated = {s.user_id for s in table.record.seats}
        try:
            for seat in table.record.seats:
                if seat.stack == 0:
                    await table.rebuy(seat.user_id, 40)
                elif seat.sitting_out and rng.random() < 0.3:
                    await table.sit_in(seat.user_id)
            free = [u for u in PLAYERS if u not in seated]
            if free and (len(seated) < 3 or rng.random() < 0.2):
                await table.join(rng.choice(free), rng.randint(40, 200))
            elif seated and rng.random() < 0.05:
                await table.sit_out(rng.choice(sorted(seated)))
        except (StoreError, TableError):
            pass  # a balance too small for a buy-in: refused, nothing changed
        choices = table.choices()
        if len(table.dealt_in()) < 2 or not choices:
            continue
        await deal(table, rng.choice(choices).id)
    await tables.close(CHANNEL)
    results = await channel_night(store, tables)
    assert sum(results.nets.values()) == 0 and results.pending == {}
    assert results.nets == {user: await store.balance(G, user) - 1000 for user in results.nets}
