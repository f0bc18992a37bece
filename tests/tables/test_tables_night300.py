"""A night of 300 hands, written through the store in a fixture (no Discord, no table clock): its results, its
settle-up, its graph data, the players' stats and its .phhs export all agree with the hands that were played."""

from __future__ import annotations

import random
from dataclasses import asdict, dataclass

import pytest

from bot.night.facts import hand_facts
from bot.night.phhs import split_phhs
from bot.night.stats import total
from bot.poker import GAMES, Hand
from bot.poker.phh import export_phh, parse_phh, replay
from bot.store import Store
from bot.tables import MAX_SEED, Tables
from bot.tables.night import member_phh, night_phhs, night_results, resolve_night
from bot.tools.simulate import default_stakes, play_hand

from .conftest import CHANNEL, HOST, PLAYERS, G, settings

USERS = PLAYERS[:6]
BUY_IN = 200
HANDS = 300


@dataclass(frozen=True)
class Night:
    table_id: int
    hands: list[Hand]
    seats: list[tuple[int, ...]]  # who sat in each engine seat, hand by hand


@pytest.fixture
async def night_of_300(store: Store) -> Night:
    """Six random players (``bot.tools.simulate``) play 300 hands of fixed-limit Five Card Draw at one table; the button
    moves every hand and a busted player rebuys 200 before the next. Written straight through the store (about a
    second): each hand started, finished with its facts and PHH, each rebuy a top-up."""
    rng = random.Random(300)
    stakes = default_stakes(GAMES["five-card-draw"], "fixed-limit")
    table = await store.create_table(G, CHANNEL, HOST, settings(chip_value="100 = $1").to_json())
    for seat, user in enumerate(USERS, 1):
        await store.buy_in(table.id, user, BUY_IN, seat)
    stacks = dict.fromkeys(USERS, BUY_IN)
    order = list(USERS)
    hands, seats = [], []
    stakes_json = asdict(stakes)
    for _ in range(HANDS):
        for user in order:
            if stacks[user] == 0:
                await store.top_up(table.id, user, BUY_IN)
                stacks[user] = BUY_IN
        seed = rng.randrange(MAX_SEED)
        hand = play_hand("five-card-draw", stakes, [stacks[u] for u in order], rng, seed=seed)
        record = await store.start_hand(table.id, "five-card-draw", {"stakes": stakes_json}, seed, order,
                                        hand.starting_stacks)
        await store.finish_hand(record.id, hand.stacks, 0, {}, export_phh(hand, players=[str(u) for u in order]),
                                facts=hand_facts(hand, order))
        hands.append(hand)
        seats.append(tuple(order))
        stacks.update(zip(order, hand.stacks))
        order = order[1:] + order[:1]
    return Night(table.id, hands, seats)


async def test_the_results_settle_up_graph_and_stats_of_a_300_hand_night(store: Store, night_of_300: Night) -> None:
    nets = {user: 0 for user in USERS}
    for hand, users in zip(night_of_300.hands, night_of_300.seats):
        for user, before, after in zip(users, hand.starting_stacks, hand.stacks):
            nets[user] += after - before
    assert sum(nets.values()) == 0 and len(set(nets.values())) > 1

    night = await resolve_night(store, G, CHANNEL, None)
    results = await night_results(store, Tables(store), night)
    assert len(results.hands) == HANDS and results.nets == nets and results.pending == {}
    assert str(results.chip_value) == "100 chips = $1.00"
    # The board of the night says the same, from the facts kept with each hand.
    assert {e.user_id: e.net for e in await store.net_board(G, nights=night.ids, limit=len(USERS))} == nets
    # The graph's data: one point per hand dealt (every player every hand here), ending at his net.
    for user, points in results.series.items():
        assert [x for x, _ in points] == list(range(HANDS + 1)) and points[-1][1] == nets[user]
        assert results.hands_of(user) == HANDS
    payments = results.payments()
    assert payments == results.payments() and len(payments) <= len(USERS) - 1
    settled = dict(nets)
    for payment in payments:
        assert payment.payer != payment.payee and payment.amount > 0
        settled[payment.payer] += payment.amount
        settled[payment.payee] -= payment.amount
    assert set(settled.values()) == {0}
    for user in USERS:
        stats = total((await store.player_stats(G, user, nights=night.ids)).values())
        assert (stats.hands, stats.net) == (HANDS, nets[user])
        assert stats.played == sum(f.vpip for hand, users in zip(night_of_300.hands, night_of_300.seats)
                                   for f in hand_facts(hand, users) if f.user_id == user)
    board = await store.net_board(G, nights=night.ids)
    assert [(e.user_id, e.net) for e in board] == sorted(nets.items(), key=lambda item: (-item[1], item[0]))


async def test_a_300_hand_night_exports_as_one_phhs_file_that_replays_hand_by_hand(
    store: Store, night_of_300: Night
) -> None:
    night = await resolve_night(store, G, CHANNEL, None)
    hands = await store.night_hands(night.ids)
    member = USERS[0]
    document, skipped = night_phhs(hands, member)
    assert skipped == 0
    texts = split_phhs(document)
    # Every hand, as the member may have it: the cards shown at the table and his own.
    assert texts == [member_phh(hand, member) for hand in hands] and len(texts) == HANDS
    assert "_seed" not in document
    for text, users, hand in zip(texts, night_of_300.seats, night_of_300.hands):
        mine = f"d dh p{users.index(member) + 1} "
        assert next(a for a in hand.history if a.startswith(mine)) in text
        assert all("??" in a for a in parse_phh(text).actions if a.startswith("d dh ") and not a.startswith(mine))
    # Replaying is about 3 ms a hand: every tenth one here (python -m bot replay does them all, tests/night).
    assert [replay(text).stacks for text in texts[::10]] == [hand.stacks for hand in night_of_300.hands[::10]]
