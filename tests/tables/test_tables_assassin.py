"""Assassin's carried pot at a table: into the next deal, and back to its owners when the table closes."""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest

from bot.poker import Carried, Hand, get_game
from bot.poker.rotation import RotationError, carried_refunds
from bot.store import Store
from bot.tables import Table, Tables

from .conftest import (
    ALICE,
    BOB,
    CAROL,
    CHANNEL,
    DAVE,
    HOST,
    G,
    OpenStore,
    ScriptedSeeds,
    channel_night,
    find_seed,
    passive,
    settings,
)

ASSASSIN = settings("assassin")


def seed_where(players: int, twos: Sequence[bool | None], start: int = 0) -> int:
    """A hand seed whose deal gives engine seat i a two exactly when ``twos[i]`` (None: either)."""
    stakes = ASSASSIN.stakes_for(get_game("assassin"))

    def ok(hand: Hand) -> bool:
        return all(want is None or any(c.is_two for c in hand.holes[i]) == want for i, want in enumerate(twos))

    return find_seed(ok, lambda seed: Hand("assassin", stakes, [100] * players, seed=seed), start)


async def assassin_table(store: Store, seeds: Sequence[int], buy_ins: Sequence[int] = (100, 100, 100),
                         game: str = "assassin") -> tuple[Tables, Table]:
    tables = Tables(store, ScriptedSeeds(seeds, fallback=7))
    table = await tables.create(G, CHANNEL, HOST, settings(game))
    for user, amount in zip((ALICE, BOB, CAROL, DAVE), buy_ins):
        await table.join(user, amount)
    return tables, table


async def play_script(table: Table, script: dict[int, list[str]], game: str | None = None) -> Hand:
    """Deal and play a hand: each member's actions in ``script`` first, then check/call and stand pat."""
    chooser = table.chooser()
    hand = (await (table.choose_game(chooser, game or "assassin") if chooser is not None else table.start_hand())).hand
    while (actor := table.actor()) is not None:
        queue = script.get(actor)
        await table.act(actor, queue.pop(0) if queue else passive(table), table.next_seq())
    return hand


async def test_a_carried_pot_goes_into_the_next_deal(store: Store) -> None:
    everyone = seed_where(3, [True, True, True])
    not_everyone = seed_where(3, [False, True, True])  # the next deal: someone without a two wins
    tables, table = await assassin_table(store, [everyone, not_everyone])
    hand = await play_script(table, {})
    assert hand.carried_out == 6 and all(hand.is_assassinated(i) for i in range(3))
    carried = [e for e in hand.events if isinstance(e, Carried)]
    assert [(e.amount, e.paid_in, e.with_carried_in) for e in carried] == [(6, (2, 2, 2), False)]
    assert table.record.carried_pot == 6
    assert table.carried_owners == {ALICE: 2, BOB: 2, CAROL: 2}
    assert [s.stack for s in table.record.seats] == [98, 98, 98]
    nxt = await play_script(table, {})
    assert nxt.carried_in == 6 and table.live is None
    record = (await store.recent_hands(table.id, 1))[0]
    assert (record.carried_in, record.carried_out) == (6, 0)
    assert table.record.carried_pot == 0 and table.carried_owners == {}
    assert sum(s.stack for s in table.record.seats) == 300  # the carried chips were won
    cashes = await tables.close(CHANNEL)
    assert sum(c.amount for c in cashes) == 300


async def test_closing_while_chips_are_carried_refunds_who_put_them_in(store: Store) -> None:
    # The small blind folds; the big blind and the button both hold twos: 5 chips carried (1 + 2 + 2).
    seed = seed_where(3, [None, True, True])
    tables, table = await assassin_table(store, [seed])
    await play_script(table, {ALICE: ["f"]})
    assert table.record.carried_pot == 5 and table.carried_owners == {ALICE: 1, BOB: 2, CAROL: 2}
    cashes = await tables.close(CHANNEL)
    assert {c.user_id: c.amount for c in cashes} == {ALICE: 99, BOB: 98, CAROL: 98}
    for user, refund in ((ALICE, 1), (BOB, 2), (CAROL, 2)):
        entries = (await store.ledger_page(G, user)).entries
        assert [(e.kind, e.delta) for e in entries[:2]] == [("cash-out", 100 - refund), ("carried-refund", refund)]
        assert await store.balance(G, user) == 1000
    closed = await store.get_table_by_id(table.id)
    assert (closed.status, closed.carried_pot, closed.seats) == ("closed", 0, ())
    results = await channel_night(store, tables)
    assert (results.refunds, results.nets) == ({ALICE: 1, BOB: 2, CAROL: 2}, {ALICE: 0, BOB: 0, CAROL: 0})


async def test_a_side_pot_is_carried_while_the_main_pot_is_won(store: Store) -> None:
    # ALICE (all in for 40, no two) wins the main pot; BOB and CAROL hold twos: their side pot is carried.
    seed = seed_where(3, [False, True, True])
    tables, table = await assassin_table(store, [seed], buy_ins=(40, 200, 200))
    hand = await play_script(table, {CAROL: ["cc"], ALICE: ["cbr 40"], BOB: ["cc", "sd", "cbr 20"]})
    carried = [e for e in hand.events if isinstance(e, Carried)]
    assert [(e.pot, e.amount, e.paid_in) for e in carried] == [(1, 40, (0, 20, 20))]
    assert 0 in hand.winners and hand.payouts[0] == 120
    assert table.record.carried_pot == 40 and table.carried_owners == {BOB: 20, CAROL: 20}
    await tables.close(CHANNEL)
    assert [await store.balance(G, u) for u in (ALICE, BOB, CAROL)] == [1080, 960, 960]


async def test_carried_twice_and_refunded_in_proportion(store: Store) -> None:
    # Hand 1: everyone holds a two, 6 carried. Hand 2 (button on seat 1): BOB folds his small blind,
    # CAROL and ALICE hold twos again: the 6 carried chips and the new 5 are carried together.
    first = seed_where(3, [True, True, True])
    second = seed_where(3, [None, True, True], start=first + 1)
    tables, table = await assassin_table(store, [first, second])
    await play_script(table, {})
    hand = await play_script(table, {BOB: ["f"]})
    assert table.live is None and hand.carried_in == 6
    carried = [e for e in hand.events if isinstance(e, Carried)]
    assert [(e.amount, e.with_carried_in) for e in carried] == [(11, True)]
    assert table.record.carried_pot == 11
    assert table.carried_owners == {ALICE: 4, BOB: 3, CAROL: 4}
    await tables.close(CHANNEL)
    refunds = {u: (await store.ledger_page(G, u)).entries[1].delta for u in (ALICE, BOB, CAROL)}
    assert refunds == {ALICE: 4, BOB: 3, CAROL: 4}


async def test_owners_who_left_are_refunded_too(store: Store) -> None:
    seed = seed_where(3, [True, True, True])
    tables, table = await assassin_table(store, [seed])
    await play_script(table, {})
    cash, _ = await table.leave(BOB)
    assert cash is not None and cash.amount == 98 and await store.balance(G, BOB) == 998
    await tables.close(CHANNEL)
    assert await store.balance(G, BOB) == 1000  # his 2 carried chips came back after he left
    assert [await store.balance(G, u) for u in (ALICE, CAROL)] == [1000, 1000]


async def test_the_carried_pot_and_its_owners_survive_a_restart(open_store: OpenStore) -> None:
    store = await open_store()
    seed = seed_where(3, [True, True, True])
    _, table = await assassin_table(store, [seed])
    await play_script(table, {ALICE: ["cbr 10"]})  # everyone calls 10: 30 carried
    assert table.carried_owners == {ALICE: 10, BOB: 10, CAROL: 10}
    await store.close()
    store = await open_store()
    tables = Tables(store)
    [restored] = await tables.restore()
    assert restored.record.carried_pot == 30 and restored.carried_owners == {ALICE: 10, BOB: 10, CAROL: 10}
    await tables.close(CHANNEL)
    assert [await store.balance(G, u) for u in (ALICE, BOB, CAROL)] == [1000, 1000, 1000]


async def test_carried_chips_go_into_whatever_game_is_dealt_next(store: Store) -> None:
    seed = seed_where(3, [True, True, True])
    _, table = await assassin_table(store, [seed], game="dealers-choice")
    await play_script(table, {}, game="assassin")
    assert table.record.carried_pot == 6
    hand = await play_script(table, {}, game="triple-draw-27")
    assert hand.carried_in == 6 and hand.carried_out == 0 and table.record.carried_pot == 0
    assert sum(hand.payouts) == hand.pot_total == 6 + 3 * 2


async def test_a_void_hand_leaves_the_carried_pot_carried(store: Store) -> None:
    seed = seed_where(3, [True, True, True])
    tables, table = await assassin_table(store, [seed])
    await play_script(table, {})
    await table.start_hand()
    assert table.hand is not None and table.hand.carried_in == 6
    await table.act(table.actor(), "cbr 10", 0)  # type: ignore[arg-type]
    cashes = await tables.close(CHANNEL)  # voids the live hand first, then refunds the 6
    assert sum(c.amount for c in cashes) == 294
    assert [await store.balance(G, u) for u in (ALICE, BOB, CAROL)] == [1000, 1000, 1000]


# ------------------------------------------------------------------ carried_refunds


def test_refunds_are_in_proportion_to_what_each_put_in() -> None:
    assert carried_refunds(100, {1: 30, 2: 70}, [1, 2]) == {1: 30, 2: 70}
    assert carried_refunds(50, {1: 30, 2: 70}, [1, 2]) == {1: 15, 2: 35}
    assert carried_refunds(5, {1: 1, 2: 2, 3: 2}, [3, 1, 2]) == {1: 1, 2: 2, 3: 2}


def test_remainders_go_one_chip_each_from_the_first_owner_left_of_the_button() -> None:
    assert carried_refunds(10, {1: 1, 2: 1, 3: 1}, [2, 3, 1]) == {1: 3, 2: 4, 3: 3}
    assert carried_refunds(11, {1: 1, 2: 1, 3: 1}, [3, 1, 2]) == {1: 4, 2: 3, 3: 4}
    assert carried_refunds(2, {1: 1, 2: 1, 3: 1}, [2, 9, 3, 1]) == {2: 1, 3: 1}  # 9 owns nothing


def test_owners_no_longer_seated_get_their_share_and_the_odd_chips_last() -> None:
    # 1 and 4 left the table: their shares stand; odd chips go to the seated owners first, in order,
    # then to those who left (by member id).
    assert carried_refunds(7, {1: 1, 2: 1, 3: 1, 4: 1}, [3, 2]) == {1: 2, 2: 2, 3: 2, 4: 1}
    assert carried_refunds(6, {1: 1, 2: 1, 3: 1, 4: 1}, [3, 2]) == {1: 1, 2: 2, 3: 2, 4: 1}
    assert carried_refunds(3, {8: 1, 5: 1}, [1, 2]) == {5: 2, 8: 1}  # nobody seated: by member id


def test_without_known_owners_the_seated_players_share_equally() -> None:
    assert carried_refunds(7, {}, [5, 6, 7]) == {5: 3, 6: 2, 7: 2}
    assert carried_refunds(7, {5: 0}, [5, 6, 7]) == {5: 3, 6: 2, 7: 2}
    assert carried_refunds(1, {}, [5, 6]) == {5: 1}
    with pytest.raises(RotationError, match="Nobody"):
        carried_refunds(7, {}, [])


def test_refunds_always_add_up_and_stay_within_a_chip_of_the_proportion() -> None:
    rng = random.Random(5)
    for _ in range(2000):
        owners = {u: rng.choice([0, 1, 2, rng.randint(1, 10**6)]) for u in rng.sample(range(1, 30), rng.randint(1, 8))}
        order = rng.sample(range(1, 30), rng.randint(0, 8))
        carried = rng.randint(1, 10**7)
        if not any(owners.values()) and not order:
            continue
        shares = carried_refunds(carried, owners, order)
        assert sum(shares.values()) == carried and all(a > 0 for a in shares.values())
        weights = {u: a for u, a in owners.items() if a > 0} or {u: 1 for u in order}
        total = sum(weights.values())
        for user, weight in weights.items():
            floor = carried * weight // total
            assert floor <= shares.get(user, 0) <= floor + 1
