"""The time a live hand last moved, which the clock of the player to act counts from after a restart."""

from __future__ import annotations

import pytest

from bot.store import Store
from bot.store.errors import NotFound

from .conftest import FakeClock, OpenStore


async def test_last_activity_is_the_deal_then_each_action(open_store: OpenStore, clock: FakeClock) -> None:
    store: Store = await open_store()
    table = await store.create_table(1, 10, 7, {"game": "five-card-draw"})
    for seat, user in enumerate((11, 12), start=1):
        await store.buy_in(table.id, user, 100, seat)
    hand = await store.start_hand(table.id, "five-card-draw", {}, 1, [11, 12], [100, 100])
    assert await store.last_activity(hand.id) == hand.started_at
    await store.append_action(hand.id, 0, "p2 cc")
    after_first = clock.now
    assert await store.last_activity(hand.id) == after_first
    await store.append_action(hand.id, 1, "p1 cc")
    assert await store.last_activity(hand.id) > after_first
    await store.void_hand(hand.id, "test over")


async def test_last_activity_of_an_unknown_hand_is_not_found(open_store: OpenStore) -> None:
    store: Store = await open_store()
    with pytest.raises(NotFound):
        await store.last_activity(999)
