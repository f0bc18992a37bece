"""Sessions and the night's reads in the store: a session per table night, every hand and ledger row in one, the
facts kept with each hand's result, a member's stats in one query, nets by session or since a time."""

from __future__ import annotations

import random
from dataclasses import asdict, replace

import pytest

from bot.night.facts import hand_facts
from bot.night.stats import PlayerStats, stats_by_game
from bot.poker import Hand, Stakes
from bot.store import (
    HandInProgress,
    HandRecord,
    InvalidArgument,
    NotFound,
    Store,
    TableNotEmpty,
)
from bot.tools.simulate import random_action

from ..night.known import assassin_carry, heads_up_triple_draw
from .conftest import refused_by_schema

G = 42
ANN, BOB, CAT = 11, 22, 33  # the users of tests/night/known.py
CHANNEL = 7777
FL = Stakes("fixed-limit", 5, 10)


def hand_settings(stakes: Stakes) -> dict[str, object]:
    """The hand settings the table layer stores (``bot.tables.stored_hand`` reads them back)."""
    data = asdict(stakes)
    if data["antes"] is not None:
        data["antes"] = list(data["antes"])
    return {"stakes": data, "jokers": False, "draw_limit": "none", "button": 1}


async def store_hand(store: Store, table_id: int, users: list[int], hand: Hand, *, facts: bool = True,
                     actions: bool = False) -> HandRecord:
    """Record a finished engine hand at the table (its players seated with its starting stacks)."""
    record = await store.start_hand(table_id, hand.game.id, hand_settings(hand.stakes), hand.seed or 0, users,
                                    hand.starting_stacks, hand.carried_in)
    if actions:
        for seq, action in enumerate(hand.actions):
            await store.append_action(record.id, seq, action)
    return await store.finish_hand(record.id, hand.stacks, hand.carried_out, {"stacks": hand.stacks},
                                   facts=hand_facts(hand, users) if facts else None)


async def seated(store: Store, users: list[int], stack: int = 200, channel: int = CHANNEL) -> int:
    table = await store.create_table(G, channel, users[0], {"game": "five-card-draw"})
    for seat, user in enumerate(users, 1):
        await store.buy_in(table.id, user, stack, seat)
    return table.id


async def test_a_table_night_is_a_session_from_create_to_close(store: Store) -> None:
    table_id = await seated(store, [ANN, BOB])
    first = await store.last_night(CHANNEL)
    assert first is not None and (first.table_id, first.number, first.is_open, first.hands) == (table_id, 1, True, 0)
    assert first.channel_id == CHANNEL and first.guild_id == G
    hand = await store_hand(store, table_id, [ANN, BOB], heads_up_triple_draw())
    assert hand.night_id == first.id
    closed, _ = await store.close_table(table_id)
    ended = await store.night(first.id)
    assert (ended.ended_at, ended.hands) == (closed.closed_at, 1)
    assert await store.last_night(CHANNEL) == ended  # the channel's last night, once its table is closed
    rows = await store.db.fetch(
        "SELECT kind, session_id FROM ledger WHERE table_id IS NOT NULL ORDER BY id")
    assert [tuple(r) for r in rows] == [("buy-in", first.id)] * 2 + [("cash-out", first.id)] * 2
    again = await store.create_table(G, CHANNEL, BOB, {})
    assert (await store.last_night(CHANNEL)) == replace(await store.night(first.id + 1), hands=0)
    assert (await store.night(first.id + 1)).table_id == again.id
    with pytest.raises(NotFound, match="There is no night number 999"):
        await store.night(999)
    assert await store.last_night(CHANNEL + 1) is None


async def test_a_new_session_between_hands_keeps_the_players_seated(store: Store) -> None:
    table_id = await seated(store, [ANN, BOB])
    first = await store.last_night(CHANNEL)
    assert first is not None
    live = await store.start_hand(table_id, "five-card-draw", {}, 1, [ANN, BOB], [200, 200])
    with pytest.raises(HandInProgress, match="Hand #1 is being played; a new night starts between hands"):
        await store.new_night(table_id)
    await store.void_hand(live.id, "test")
    second = await store.new_night(table_id)
    assert (second.number, second.table_id, second.is_open, second.hands) == (2, table_id, True, 0)
    assert not (await store.night(first.id)).is_open
    assert [s.stack for s in (await store.get_table_by_id(table_id)).seats] == [200, 200]
    await store.top_up(table_id, ANN, 10)
    hand = await store_hand(store, table_id, [ANN, BOB], passive_hand([210, 200]))
    assert hand.night_id == second.id
    rows = await store.db.fetch("SELECT kind, session_id FROM ledger WHERE kind = 'top-up'")
    assert [tuple(r) for r in rows] == [("top-up", second.id)]
    assert [s.id for s in await store.guild_nights(G)] == [second.id, first.id]
    assert [s.id for s in await store.guild_nights(G, started_since=second.started_at)] == [second.id]
    # The first night ended as the second began (one transaction): active then, not a moment later.
    assert [s.id for s in await store.guild_nights(G, active_since=second.started_at)] == [second.id, first.id]
    assert [s.id for s in await store.guild_nights(G, active_since=second.started_at + 1)] == [second.id]
    assert await store.guild_nights(G + 1) == []


def passive_hand(stacks: list[int], seed: int = 3) -> Hand:
    """Five Card Draw 5/10 checked and called down, everyone standing pat."""
    hand = Hand("five-card-draw", FL, stacks, seed=seed)
    while not hand.is_complete:
        hand.act("sd" if hand.phase == "drawing" else "cc")
    return hand


async def test_a_new_night_returns_the_carried_pot_to_those_who_put_it_in(store: Store) -> None:
    table_id = await seated(store, [ANN, BOB], 100)
    carry = assassin_carry()
    await store_hand(store, table_id, [ANN, BOB], carry)
    first = await store.last_night(CHANNEL)
    assert first is not None and carry.carried_out == 4
    with pytest.raises(TableNotEmpty, match="4 chips are carried to the next deal; the refunds add up to 3"):
        await store.new_night(table_id, refunds={ANN: 3})
    second = await store.new_night(table_id, refunds={ANN: 2, BOB: 2})
    assert (await store.get_table_by_id(table_id)).carried_pot == 0
    assert await store.night_refunds([first.id]) == {ANN: 2, BOB: 2}
    assert await store.night_refunds([second.id]) == {}
    board = await store.net_board(G, nights=[first.id])
    assert [(e.user_id, e.net, e.hands) for e in board] == [(ANN, 0, 1), (BOB, 0, 1)]  # nets and refunds: square
    assert board[0].rank == board[1].rank == 1


async def test_the_facts_are_kept_with_the_result_and_checked_against_it(store: Store) -> None:
    table_id = await seated(store, [ANN, BOB])
    hand = heads_up_triple_draw()
    record = await store.start_hand(table_id, hand.game.id, {}, 0, [ANN, BOB], [200, 200])
    facts = hand_facts(hand, [ANN, BOB])
    wrong = [replace(facts[0], net=facts[0].net + 1), facts[1]]
    with pytest.raises(InvalidArgument, match="The facts of seat 0 give a net of 31, but the stack went from 200"
                                              " to 230"):
        await store.finish_hand(record.id, hand.stacks, 0, {}, facts=wrong)
    with pytest.raises(InvalidArgument, match="not those of hand #1's player"):
        await store.finish_hand(record.id, hand.stacks, 0, {}, facts=facts[::-1])
    with pytest.raises(InvalidArgument, match="every player of the hand \\(2\\), not 1"):
        await store.finish_hand(record.id, hand.stacks, 0, {}, facts=facts[:1])
    assert (await store.get_hand(record.id)).status == "live"  # each refusal rolled the whole result back
    await store.finish_hand(record.id, hand.stacks, 0, {}, facts=facts)
    stats = await store.player_stats(G, ANN)
    assert stats == stats_by_game(facts[:1])
    assert stats["triple-draw-27"] == PlayerStats(hands=1, played=1, raised=0, won=1, showdowns=0, won_at_showdown=0,
                                                  draws=2, cards_drawn=2, pats=1, biggest_pot=60, net=30)
    assert await store.player_stats(G + 1, ANN) == {}  # another server's stats are its own
    assert await store.player_stats(G, ANN, game="assassin") == {}
    session = await store.last_night(CHANNEL)
    assert session is not None
    assert await store.player_stats(G, BOB, nights=[session.id]) == stats_by_game(facts[1:])
    raw = "INSERT INTO ledger (guild_id, user_id, delta, balance_after, kind, table_id, created_at)" \
          " VALUES (42, 11, 1, 801, 'cash-out', ?, 0)"
    with pytest.raises(refused_by_schema(store), match="must name the table's running session"):
        await store.db.execute(raw, (table_id,))


async def test_stats_and_nets_over_many_hands_add_up_per_game_and_period(store: Store) -> None:
    rng = random.Random(5)
    users = [ANN, BOB, CAT]
    table_id = await seated(store, users, 1000)
    played: list[tuple[Hand, HandRecord]] = []
    for k in range(30):
        game = ["five-card-draw", "triple-draw-27", "single-draw-a5"][k % 3]
        stacks = [s.stack for s in (await store.get_table_by_id(table_id)).seats]
        hand = Hand(game, FL, stacks, seed=rng.randrange(2**32))
        while not hand.is_complete:
            hand.act(random_action(hand, rng))
        played.append((hand, await store_hand(store, table_id, users, hand)))
    session = await store.last_night(CHANNEL)
    assert session is not None and session.hands == 30
    for user in users:
        seat = users.index(user)
        expected = stats_by_game(f for hand, _ in played for f in hand_facts(hand, users) if f.user_id == user)
        assert await store.player_stats(G, user) == expected
        one_game = await store.player_stats(G, user, game="triple-draw-27")
        assert one_game == {"triple-draw-27": expected["triple-draw-27"]}
        net = sum(h.stacks[seat] - h.starting_stacks[seat] for h, _ in played)
        assert sum(s.net for s in expected.values()) == net
    board = await store.net_board(G, nights=[session.id])
    nets = {user: sum(h.stacks[i] - h.starting_stacks[i] for h, _ in played) for i, user in enumerate(users)}
    assert [(e.user_id, e.net, e.hands) for e in board] == sorted(((u, n, 30) for u, n in nets.items()),
                                                                   key=lambda e: (-e[1], e[0]))
    assert await store.net_board(G) == board  # all time: the same night
    late = played[20][1].ended_at
    assert late is not None
    since = {e.user_id: e.net for e in await store.net_board(G, since=late)}
    assert since == {u: sum(h.stacks[i] - h.starting_stacks[i] for h, _ in played[20:]) for i, u in enumerate(users)}
    hands = await store.night_hands([session.id])
    assert [h.id for h in hands] == [r.id for _, r in played]
    assert await store.net_board(G, limit=1) == board[:1]


async def test_hands_without_facts_and_adding_them_later(store: Store) -> None:
    table_id = await seated(store, [ANN, BOB])
    hand = heads_up_triple_draw()
    record = await store_hand(store, table_id, [ANN, BOB], hand, facts=False)
    assert [h.id for h in await store.hands_without_facts()] == [record.id]
    assert await store.hands_without_facts(after=record.id) == []
    await store.add_facts(record.id, hand_facts(hand, [ANN, BOB]))
    assert await store.hands_without_facts() == []
    with pytest.raises(InvalidArgument, match="kept already"):
        await store.add_facts(record.id, hand_facts(hand, [ANN, BOB]))
    rows = list(await store.db.fetch("SELECT ended_at FROM hand_facts"))
    assert [r[0] for r in rows] == [record.ended_at] * 2  # the hand's own end, not the time of the backfill
