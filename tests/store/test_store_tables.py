"""Tables, seats, chips at tables, and hands: the paths the table layer will use."""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest

from bot.poker import Hand, Stakes
from bot.store import ActionOutOfOrder, HandInProgress, HandRecord, InvalidArgument, Store, TableNotEmpty

from .conftest import OpenStore

G = 42
ALICE, BOB, CAROL, DAVE = 1001, 1002, 1003, 1004
CHANNEL = 7777


async def nets(store: Store, table_id: int, users: Sequence[int]) -> dict[int, int]:
    """Each player's chips won at the table as the bank holds them: his balance and his seat's stack, less the
    starting grant (each player here started with 1,000 chips and played at this table only)."""
    stacks = {s.user_id: s.stack for s in (await store.get_table_by_id(table_id)).seats}
    return {user: await store.balance(G, user) + stacks.get(user, 0) - 1000 for user in users}


async def test_table_lifecycle(store: Store) -> None:
    table = await store.create_table(G, CHANNEL, ALICE, {"game": "dealers-choice", "seats": 6})
    assert (table.status, table.host_id, table.settings, table.seats, table.button) == (
        "open", ALICE, {"game": "dealers-choice", "seats": 6}, (), None)
    assert await store.list_open_tables(G) == [table] and table.channel_id == CHANNEL
    table = await store.update_settings(table.id, {"game": "assassin", "seats": 6})
    table = await store.set_paused(table.id, True)
    assert (table.settings["game"], table.host_id, table.status, table.is_open) == ("assassin", ALICE, "paused", True)
    assert [t.id for t in await store.list_open_tables()] == [table.id]
    assert [t.id for t in await store.list_open_tables(G + 1)] == []
    table = await store.set_paused(table.id, False)
    table = await store.set_button(table.id, 3)
    assert table.button == 3
    closed, cashes = await store.close_table(table.id)
    assert (closed.status, closed.is_open, closed.closed_at is not None, cashes) == ("closed", False, True, [])
    assert await store.list_open_tables() == []
    again = await store.create_table(G, CHANNEL, CAROL, {})  # the channel is free again
    assert again.id != table.id
    assert (await store.get_table_by_id(table.id)).status == "closed"


async def test_buy_in_top_up_rebuy_and_cash_out(store: Store) -> None:
    table = await store.create_table(G, CHANNEL, ALICE, {})
    seat = await store.buy_in(table.id, ALICE, 400, 2, min_amount=200, max_amount=1000)
    assert (seat.seat_no, seat.stack, seat.sitting_out, seat.leaving, seat.timeouts) == (2, 400, False, False, 0)
    assert await store.balance(G, ALICE) == 600
    assert (await store.top_up(table.id, ALICE, 100, max_stack=1000)).stack == 500
    seat = await store.update_seat(table.id, ALICE, sitting_out=True, leaving=True, timeouts=2)
    assert (seat.sitting_out, seat.leaving, seat.timeouts) == (True, True, 2)
    assert not (await store.update_seat(table.id, ALICE, sitting_out=False)).sitting_out
    cash = await store.cash_out(table.id, ALICE)
    assert (cash.amount, cash.balance, cash.seat_no) == (500, 1000, 2)
    assert (await store.get_table_by_id(table.id)).seats == ()
    kinds = [e.kind for e in (await store.ledger_page(G, ALICE)).entries]
    assert kinds == ["cash-out", "top-up", "buy-in", "starting-grant"]
    # A busted stack: rebuy is its own kind; a zero stack cashes out with no ledger row.
    await store.buy_in(table.id, BOB, 100, 1)
    await store.buy_in(table.id, CAROL, 100, 3)
    hand = await store.start_hand(table.id, "five-card-draw", {}, 1, [BOB, CAROL], [100, 100])
    await store.finish_hand(hand.id, [200, 0], 0, {"winner": BOB})
    assert (await store.top_up(table.id, CAROL, 50)).stack == 50
    assert (await store.ledger_page(G, CAROL)).entries[0].kind == "rebuy"
    hand = await store.start_hand(table.id, "five-card-draw", {}, 2, [BOB, CAROL], [200, 50])
    await store.finish_hand(hand.id, [250, 0], 0, None)
    rows = (await store.ledger_page(G, CAROL)).total
    assert (await store.cash_out(table.id, CAROL)).amount == 0
    assert (await store.ledger_page(G, CAROL)).total == rows


async def test_session_results_and_carried_pot_refund(store: Store) -> None:
    table = await store.create_table(G, CHANNEL, ALICE, {})
    for seat_no, user in enumerate((ALICE, BOB, CAROL), start=1):
        await store.buy_in(table.id, user, 300, seat_no)
    hand = await store.start_hand(table.id, "assassin", {}, 5, [ALICE, BOB, CAROL], [300, 300, 300])
    # Nobody wins: 90 chips are carried into the next deal.
    await store.finish_hand(hand.id, [270, 270, 270], 90, {"carried": 90})
    assert (await store.get_table_by_id(table.id)).carried_pot == 90
    hand = await store.start_hand(table.id, "assassin", {}, 6, [BOB, CAROL, ALICE], [270, 270, 270], carried_in=90)
    await store.finish_hand(hand.id, [470, 200, 200], 30, None)  # bob wins; 30 carried again
    await store.top_up(table.id, CAROL, 100)
    await store.cash_out(table.id, BOB)
    assert await nets(store, table.id, (ALICE, BOB, CAROL)) == {ALICE: -100, BOB: 170, CAROL: -100}  # 30 carried
    assert (await store.get_table_by_id(table.id)).seat_of(BOB) is None
    assert [(e.kind, e.delta) for e in (await store.ledger_page(G, BOB)).entries[:2]] == [("cash-out", 470),
                                                                                          ("buy-in", -300)]
    assert [(e.kind, e.delta) for e in (await store.ledger_page(G, CAROL)).entries[:2]] == [("top-up", -100),
                                                                                            ("buy-in", -300)]
    remaining = await store.refund_carried(table.id, {ALICE: 15, CAROL: 10})
    assert remaining == 5
    assert await store.refund_carried(table.id, {BOB: 5}) == 0
    assert await nets(store, table.id, (ALICE, BOB, CAROL)) == {ALICE: -85, BOB: 175, CAROL: -90}
    night = await store.last_night(CHANNEL)
    assert night is not None and await store.night_refunds([night.id]) == {ALICE: 15, BOB: 5, CAROL: 10}
    await store.cash_out(table.id, ALICE)
    await store.cash_out(table.id, CAROL)
    closed, _ = await store.close_table(table.id)
    assert closed.status == "closed"
    assert (await store.audit(G)).ok


async def test_finish_hand_with_last_action_and_leavers_is_one_transaction(store: Store) -> None:
    table = await store.create_table(G, CHANNEL, ALICE, {})
    await store.buy_in(table.id, ALICE, 300, 1)
    await store.buy_in(table.id, BOB, 300, 2)
    hand = await store.start_hand(table.id, "five-card-draw", {"bb": 10}, 3, [ALICE, BOB], [300, 300])
    await store.append_action(hand.id, 0, "p1 cbr 30")
    await store.update_seat(table.id, BOB, leaving=True)
    done = await store.finish_hand(
        hand.id, [310, 290], 0, {"winner": ALICE}, "phh", last_action=(1, "p2 f"), cash_out=[BOB]
    )
    assert (done.status, done.actions, done.stacks_after, done.phh) == (
        "complete", ("p1 cbr 30", "p2 f"), (310, 290), "phh")
    assert await store.balance(G, BOB) == 990
    assert [s.user_id for s in (await store.get_table_by_id(table.id)).seats] == [ALICE]
    assert (await store.get_hand(hand.id)).phh == "phh"


async def test_start_hand_moves_the_button_and_writes_the_settings_in_its_transaction(store: Store) -> None:
    table = await store.create_table(G, CHANNEL, ALICE, {"game": "dealers-choice"})
    await store.buy_in(table.id, ALICE, 300, 1)
    await store.buy_in(table.id, BOB, 300, 2)
    chosen = {"game": "dealers-choice", "_choice": {"last_game": "assassin"}}
    # Refused (a bad button, or a second live hand): nothing is written, the settings and button neither.
    with pytest.raises(InvalidArgument):
        await store.start_hand(table.id, "assassin", {}, 1, [ALICE, BOB], [300, 300], button=0,
                               table_settings=chosen)
    hand = await store.start_hand(table.id, "assassin", {}, 1, [ALICE, BOB], [300, 300], button=2,
                                  table_settings=chosen)
    with pytest.raises(HandInProgress):
        await store.start_hand(table.id, "assassin", {}, 2, [ALICE, BOB], [300, 300], button=1,
                               table_settings={"game": "dealers-choice"})
    after = await store.get_table_by_id(table.id)
    assert (after.button, after.settings) == (2, chosen)
    assert (await store.live_hand(table.id)) == hand
    # Without them, the button and settings stay as they are.
    await store.finish_hand(hand.id, [300, 300], 0, None)
    await store.start_hand(table.id, "assassin", {}, 3, [BOB, ALICE], [300, 300])
    again = await store.get_table_by_id(table.id)
    assert (again.button, again.settings) == (2, chosen)


async def test_void_hand_leaves_every_chip_where_it_was(store: Store) -> None:
    table = await store.create_table(G, CHANNEL, ALICE, {})
    await store.buy_in(table.id, ALICE, 300, 1)
    await store.buy_in(table.id, BOB, 300, 2)
    first = await store.start_hand(table.id, "assassin", {}, 1, [ALICE, BOB], [300, 300])
    await store.finish_hand(first.id, [290, 290], 20, None)
    hand = await store.start_hand(table.id, "assassin", {}, 2, [BOB, ALICE], [290, 290], carried_in=20)
    await store.append_action(hand.id, 0, "p1 cbr 50")
    void = await store.void_hand(hand.id, "the seed no longer replays")
    assert (void.status, void.void_reason, void.actions) == ("void", "the seed no longer replays", ("p1 cbr 50",))
    table = await store.get_table_by_id(table.id)
    assert ([s.stack for s in table.seats], table.carried_pot) == ([290, 290], 20)
    assert await store.live_hands() == []
    nxt = await store.start_hand(table.id, "assassin", {}, 3, [BOB, ALICE], [290, 290], carried_in=20)
    assert nxt.number == 3


async def test_recent_and_live_hands(store: Store) -> None:
    table = await store.create_table(G, CHANNEL, ALICE, {})
    await store.buy_in(table.id, ALICE, 300, 1)
    await store.buy_in(table.id, BOB, 300, 2)
    for number in range(1, 4):
        hand = await store.start_hand(table.id, "five-card-draw", {"n": number}, number, [ALICE, BOB], [300, 300])
        await store.append_action(hand.id, 0, "p1 f")
        await store.finish_hand(hand.id, [300, 300], 0, None)
    live = await store.start_hand(table.id, "five-card-draw", {"n": 4}, 4, [ALICE, BOB], [300, 300])
    await store.append_action(live.id, 0, "p1 cc")
    recent = await store.recent_hands(table.id, 2)
    assert [(h.number, h.status) for h in recent] == [(4, "live"), (3, "complete")]
    [again] = await store.live_hands()
    assert (again.id, again.actions, again.next_seq, again.settings) == (live.id, ("p1 cc",), 1, {"n": 4})
    assert await store.live_hand(table.id) == again


def _play_some(hand: Hand, rng: random.Random, steps: int) -> list[str]:
    """Advance a hand by up to ``steps`` random legal actions; return the actions taken."""
    taken: list[str] = []
    while not hand.is_complete and len(taken) < steps:
        legal = hand.legal()
        if legal.phase == "betting" and legal.can_raise and rng.random() < 0.3:
            action = f"cbr {legal.min_raise_to}"
        elif legal.phase == "betting":
            action = "cc" if rng.random() < 0.85 else "f"
        else:
            action = hand.default_action()
        hand.act(action)
        taken.append(action)
    return taken


@pytest.mark.parametrize("game", ["five-card-draw", "assassin", "triple-draw-27"])
async def test_a_real_hand_is_logged_rebuilt_and_finished(open_store: OpenStore, game: str) -> None:
    """Play an engine hand, "crash" half-way (close the store), rebuild it from the seed and the log, finish."""
    store = await open_store()
    players = [ALICE, BOB, CAROL, DAVE]
    table = await store.create_table(G, CHANNEL, ALICE, {"game": game})
    for seat_no, user in enumerate(players, start=1):
        await store.buy_in(table.id, user, 500, seat_no)
    rng = random.Random(game)
    stakes = {"small_blind": 5, "big_blind": 10, "structure": "fixed-limit"}
    if game != "triple-draw-27":
        stakes["structure"] = "no-limit"
    for deal in range(1, 6):
        table_now = await store.get_table_by_id(table.id)
        seated = [s for s in table_now.seats if s.stack > 0]
        if len(seated) < 2:
            break
        stacks = [s.stack for s in seated]
        carried = table_now.carried_pot
        record = await store.start_hand(table.id, game, {"stakes": stakes}, 1000 + deal,
                                        [s.user_id for s in seated], stacks, carried_in=carried)
        hand = Hand(game, Stakes(**stakes), stacks, seed=record.seed, carried_in=carried)  # type: ignore[arg-type]
        for _ in range(4):  # log each action as it is taken, then "crash" mid-hand
            if hand.is_complete:
                break
            seq = len(hand.actions)
            _play_some(hand, rng, 1)
            await store.append_action(record.id, seq, hand.actions[-1])

        # Restart: a new store over the same file rebuilds the hand from the seed and the log.
        await store.close()
        store = await open_store()
        [live] = await store.live_hands()
        rebuilt = Hand(live.game, Stakes(**live.settings["stakes"]), list(live.stacks_before), seed=live.seed,
                       carried_in=live.carried_in)
        for action in live.actions:
            rebuilt.act(action)
        assert rebuilt.actions == hand.actions and rebuilt.stacks == hand.stacks and rebuilt.phase == hand.phase
        if live.actions:  # a click from before the restart is refused as a repeat
            with pytest.raises(ActionOutOfOrder) as caught:
                await store.append_action(live.id, live.next_seq - 1, live.actions[-1])
            assert caught.value.is_duplicate

        while not rebuilt.is_complete:
            seq = len(rebuilt.actions)
            _play_some(rebuilt, rng, 1)
            if not rebuilt.is_complete:
                await store.append_action(live.id, seq, rebuilt.actions[-1])
        finished = await store.finish_hand(
            live.id, rebuilt.stacks, rebuilt.carried_out, {"winners": sorted(rebuilt.winners)},
            last_action=(len(rebuilt.actions) - 1, rebuilt.actions[-1]),
        )
        assert isinstance(finished, HandRecord) and list(finished.actions) == rebuilt.actions
        report = await store.audit(G)
        assert report.ok, report.problems
    assert sum((await nets(store, table.id, players)).values()) == -(await store.get_table_by_id(table.id)).carried_pot


async def test_close_is_one_transaction_void_refund_cash_out_close(store: Store) -> None:
    """Closing voids the live hand, refunds the carried pot and cashes everyone out in one transaction: a
    refusal (refunds that do not add up) changes nothing at all."""
    table = await store.create_table(G, CHANNEL, ALICE, {})
    for seat_no, user in enumerate((ALICE, BOB, CAROL), start=1):
        await store.buy_in(table.id, user, 300, seat_no)
    hand = await store.start_hand(table.id, "assassin", {}, 5, [ALICE, BOB, CAROL], [300, 300, 300])
    await store.finish_hand(hand.id, [270, 270, 270], 90, {"carried": 90})
    live = await store.start_hand(table.id, "assassin", {}, 6, [BOB, CAROL, ALICE], [270, 270, 270], carried_in=90)
    with pytest.raises(TableNotEmpty, match="refunds add up to 89"):
        await store.close_table(table.id, void_reason="closed", refunds={ALICE: 89})
    still = await store.get_table_by_id(table.id)
    assert still.is_open and len(still.seats) == 3 and (await store.live_hand(table.id)) is not None
    closed, cashes = await store.close_table(table.id, void_reason="the table was closed",
                                             refunds={ALICE: 30, BOB: 30, CAROL: 30})
    assert closed.status == "closed" and closed.seats == () and closed.carried_pot == 0
    # 1,000 - 300 bought in + 30 refunded + 270 cashed out:
    assert [(c.user_id, c.amount, c.balance) for c in cashes] == [(ALICE, 270, 1000), (BOB, 270, 1000),
                                                                  (CAROL, 270, 1000)]
    assert (await store.get_hand(live.id)).status == "void"
    assert (await store.audit(G)).ok
