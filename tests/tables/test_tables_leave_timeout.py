"""Leaving during a hand (folded now, cashed out at its end) and the action clock's timeouts."""

from __future__ import annotations

import pytest

from bot.poker import Acted
from bot.store import Store
from bot.tables import Table, TableError, Tables

from .conftest import (
    ALICE,
    BOB,
    CAROL,
    CHANNEL,
    HOST,
    G,
    deal,
    finish,
    play_hand,
    seat_players,
    settings,
    take_snapshot,
)


async def cash_out_rows(store: Store, user: int) -> list[tuple[int, float]]:
    """The member's cash-out ledger rows: (amount, time)."""
    page = await store.ledger_page(G, user, per_page=100)
    return [(e.delta, e.created_at) for e in page.entries if e.kind == "cash-out"]


async def test_leaving_mid_hand_folds_now_and_cashes_out_with_the_result(tables: Tables, store: Store) -> None:
    table = await tables.create(G, CHANNEL, HOST, settings())
    await seat_players(table, [ALICE, BOB, CAROL], 100)
    await deal(table)
    assert table.live is not None and table.live.users == (ALICE, BOB, CAROL) and table.actor() == CAROL
    await table.act(CAROL, "cbr 6", 0)
    cash, outcome = await table.leave(ALICE)  # the small blind leaves out of turn
    events = list(outcome.events)
    assert cash is None
    assert [(type(e), e.player) for e in events] == [(Acted, 0)] and events[0].verb == "fold"  # type: ignore[union-attr]
    assert table.hand is not None and table.hand.folded[0] and table.actor() == BOB
    seat = table.seat_of(ALICE)
    assert seat is not None and seat.leaving and seat.stack == 100  # still seated until the hand ends
    assert await store.balance(G, ALICE) == 900
    with pytest.raises(TableError, match="already seated"):
        await table.join(ALICE, 100)
    hand_id = table.live.record.id
    await finish(table)
    assert table.seat_of(ALICE) is None
    assert await store.balance(G, ALICE) == 999  # lost the small blind
    done = await store.get_hand(hand_id)
    assert done.status == "complete" and done.actions[1] == "p1 f"
    # Cashed out in the same transaction as the result: the same store time.
    assert await cash_out_rows(store, ALICE) == [(99, done.ended_at)]
    assert (await deal(table)).players == 2
    await finish(table)


async def test_the_player_to_act_leaves(tables: Tables, store: Store) -> None:
    table = await tables.create(G, CHANNEL, HOST, settings())
    await seat_players(table, [ALICE, BOB, CAROL], 100)
    await deal(table)
    assert table.actor() == CAROL
    cash, outcome = await table.leave(CAROL)
    events = list(outcome.events)
    assert cash is None and len(events) == 1 and table.actor() == ALICE
    await finish(table)
    assert table.seat_of(CAROL) is None and await store.balance(G, CAROL) == 1000


async def test_a_leaver_who_ends_the_hand(tables: Tables, store: Store) -> None:
    table = await tables.create(G, CHANNEL, HOST, settings())
    await seat_players(table, [ALICE, BOB], 100)
    await deal(table)
    assert table.live is not None and table.live.users == (ALICE, BOB)
    hand_id = table.live.record.id
    cash, outcome = await table.leave(ALICE)  # the big blind leaves: BOB wins the blinds
    events = list(outcome.events)
    assert cash is None and events[-1].__class__.__name__ == "HandEnded"
    assert table.hand is None and [s.user_id for s in table.record.seats] == [BOB]
    done = await store.get_hand(hand_id)
    assert (done.status, done.stacks_after) == ("complete", (98, 102))
    assert await cash_out_rows(store, ALICE) == [(98, done.ended_at)]
    assert table.seat_of(BOB).stack == 102  # type: ignore[union-attr]


async def test_an_all_in_player_who_leaves_stays_in_to_the_showdown(tables: Tables, store: Store) -> None:
    table = await tables.create(G, CHANNEL, HOST, settings())
    await table.join(ALICE, 40)
    await seat_players(table, [BOB, CAROL], 200)
    await deal(table)
    assert table.live is not None and table.live.users == (ALICE, BOB, CAROL)
    await table.act(CAROL, "cc", 0)
    await table.act(ALICE, "cbr 40", 1)  # all in
    assert table.hand is not None and table.hand.is_all_in(0)
    cash, outcome = await table.leave(ALICE)
    events = list(outcome.events)
    assert (cash, events) == (None, [])
    assert not table.hand.folded[0] and table.seat_of(ALICE).leaving  # type: ignore[union-attr]
    hand_id = table.live.record.id
    await finish(table)  # BOB and CAROL call and check it down
    done = await store.get_hand(hand_id)
    assert done.result["stacks"][0] == done.stacks_after[0]  # type: ignore[index]
    assert table.seat_of(ALICE) is None
    won = done.stacks_after[0]  # type: ignore[index]
    assert await store.balance(G, ALICE) == 960 + won
    assert await cash_out_rows(store, ALICE) == ([(won, done.ended_at)] if won else [])
    assert "p1 sm" in (done.phh or "")  # ALICE's hand was shown at the showdown


async def test_a_folded_player_who_leaves_is_cashed_out_at_the_end(tables: Tables, store: Store) -> None:
    table = await tables.create(G, CHANNEL, HOST, settings())
    await seat_players(table, [ALICE, BOB, CAROL], 100)
    await deal(table)
    await table.act(CAROL, "f", 0)
    cash, outcome = await table.leave(CAROL)
    assert cash is None and outcome.events == ()  # folded already: nothing more to do now
    assert table.seat_of(CAROL) is not None
    await table.leave(CAROL)  # leaving twice changes nothing
    await finish(table)
    assert table.seat_of(CAROL) is None and await store.balance(G, CAROL) == 1000


async def test_a_player_not_in_the_hand_leaves_at_once(tables: Tables, store: Store) -> None:
    table = await tables.create(G, CHANNEL, HOST, settings())
    await seat_players(table, [ALICE, BOB], 100)
    await deal(table)
    await table.join(CAROL, 100)
    cash, outcome = await table.leave(CAROL)
    events = list(outcome.events)
    assert cash is not None and cash.amount == 100 and events == []
    assert table.seat_of(CAROL) is None
    await finish(table)


async def test_leaving_in_the_draw(tables: Tables, store: Store) -> None:
    table = await tables.create(G, CHANNEL, HOST, settings("triple-draw-27"))
    await seat_players(table, [ALICE, BOB, CAROL], 100)
    await deal(table)
    while table.legal().phase != "drawing":  # type: ignore[union-attr]
        await table.act(table.actor(), "cc", table.next_seq())  # type: ignore[arg-type]
    drawer = table.actor()
    cash, outcome = await table.leave(drawer)  # type: ignore[arg-type]
    events = list(outcome.events)
    assert cash is None and events and table.actor() != drawer
    await finish(table)
    assert table.seat_of(drawer) is None  # type: ignore[arg-type]


async def test_kick_is_leaving(tables: Tables, store: Store) -> None:
    table = await tables.create(G, CHANNEL, HOST, settings())
    await seat_players(table, [ALICE, BOB, CAROL], 100)
    await deal(table)
    cash, outcome = await table.kick(BOB)
    events = list(outcome.events)
    assert cash is None and events
    await finish(table)
    assert table.seat_of(BOB) is None


# ------------------------------------------------------------------ timeouts


async def test_a_timeout_checks_if_it_can_else_folds(tables: Tables) -> None:
    table = await tables.create(G, CHANNEL, HOST, settings())
    await seat_players(table, [ALICE, BOB, CAROL], 100)
    await deal(table)
    hand = table.hand
    assert hand is not None and table.actor() == CAROL
    result = await table.timeout(0)  # CAROL faces the big blind: folds
    assert result is not None and hand.actions == ["p3 f"]
    await table.act(ALICE, "cc", 1)
    result = await table.timeout(2)  # BOB, the big blind, can check: checks
    assert result is not None and hand.actions[-1] == "p2 cc" and hand.phase == "drawing"
    await table.timeout(3)  # stands pat in the draw
    assert hand.actions[-1] == "p1 sd"
    await finish(table)


async def test_a_stale_timer_does_nothing(tables: Tables, store: Store) -> None:
    table = await tables.create(G, CHANNEL, HOST, settings())
    await seat_players(table, [ALICE, BOB, CAROL], 100)
    assert await table.timeout(0) is None  # no hand
    await deal(table)
    await table.act(CAROL, "cc", 0)
    before = await take_snapshot(store)
    for seq in (0, 2, 50):
        assert await table.timeout(seq) is None
    assert await take_snapshot(store) == before and table.next_seq() == 1
    await finish(table)


async def play_with_timeouts(table: Table, sleeper: int) -> None:
    """Play a hand in which ``sleeper`` lets his clock run out every time."""
    await deal(table)
    while (actor := table.actor()) is not None:
        if actor == sleeper:
            await table.timeout(table.next_seq())
        else:
            await table.act(actor, "sd" if table.legal().phase == "drawing" else "cc",  # type: ignore[union-attr]
                            table.next_seq())


async def test_two_hands_in_a_row_with_a_timeout_sit_the_player_out(tables: Tables) -> None:
    table = await tables.create(G, CHANNEL, HOST, settings())
    await seat_players(table, [ALICE, BOB, CAROL], 100)
    await play_with_timeouts(table, BOB)
    seat = table.seat_of(BOB)
    assert seat is not None and (seat.timeouts, seat.sitting_out) == (1, False)
    await play_hand(table)  # no timeout: the count starts again
    assert table.seat_of(BOB).timeouts == 0  # type: ignore[union-attr]
    await play_with_timeouts(table, BOB)
    await play_with_timeouts(table, BOB)
    seat = table.seat_of(BOB)
    assert seat is not None and (seat.timeouts, seat.sitting_out) == (2, True)
    hand = await deal(table)
    assert hand.players == 2 and table.engine_seat(BOB) is None
    await finish(table)
    back = await table.sit_in(BOB)
    assert (back.sitting_out, back.timeouts) == (False, 0)
    assert (await deal(table)).players == 3
    await finish(table)


async def test_a_timeout_before_a_restart_still_counts_toward_two_in_a_row(tables: Tables, store: Store) -> None:
    table = await tables.create(G, CHANNEL, HOST, settings())
    await seat_players(table, [ALICE, BOB, CAROL], 100)
    await play_with_timeouts(table, BOB)  # the first hand with a timeout
    await deal(table)
    while table.actor() != BOB:  # the second hand: BOB's clock runs out once, then the bot restarts
        await table.act(table.actor(), "cc", table.next_seq())  # type: ignore[arg-type]
    await table.timeout(table.next_seq())
    [restored] = await Tables(store).restore()
    seat = restored.seat_of(BOB)
    assert restored.live is not None and seat is not None and seat.timed_out_hand == restored.live.record.id
    while (actor := restored.actor()) is not None:
        action = "sd" if restored.legal().phase == "drawing" else "cc"  # type: ignore[union-attr]
        await restored.act(actor, action, restored.next_seq())
    seat = restored.seat_of(BOB)
    assert seat is not None and (seat.timeouts, seat.sitting_out) == (2, True)
