"""Opening tables, sitting down, buying in, rebuys and top-ups, sitting out, leaving between hands."""

from __future__ import annotations

import pytest

from bot.store import AlreadySeated, BuyInOutOfRange, InsufficientFunds, InvalidAmount, SeatTaken, Store, TableExists
from bot.tables import Table, TableError, Tables, TableSettings

from .conftest import (
    ALICE,
    BOB,
    CAROL,
    CHANNEL,
    DAVE,
    ERIN,
    FRANK,
    GRACE,
    HEIDI,
    HOST,
    G,
    Policy,
    deal,
    finish,
    play_hand,
    seat_players,
    settings,
    take_snapshot,
)


def shove(table: Table) -> str:
    """All in whenever possible, else call; stand pat."""
    legal = table.legal()
    assert legal is not None
    if legal.phase == "drawing":
        return "sd"
    return f"cbr {legal.max_raise_to}" if legal.can_raise else "cc"


async def bust_someone(table: Table, policy: Policy = shove) -> int:
    """Heads-up all in until one of the two seated players has no chips; return him."""
    for _ in range(20):
        await play_hand(table, policy)
        busted = [s.user_id for s in table.record.seats if s.stack == 0]
        if busted:
            return busted[0]
    raise AssertionError("nobody busted")


async def test_create_join_and_leave(tables: Tables, store: Store) -> None:
    table = await tables.create(G, CHANNEL, HOST, settings())
    assert tables.get(CHANNEL) is table and tables.require(CHANNEL) is table
    assert (table.record.status, table.record.host_id, table.record.guild_id) == ("open", HOST, G)
    assert table.settings == settings() and table.hand is None and not table.paused
    assert all(table.offers(doing) for doing in ("join", "rebuy", "leave", "start", "pause", "resume"))
    seat = await table.join(ALICE, 150)
    assert (seat.seat_no, seat.stack, seat.user_id, seat.sitting_out, seat.leaving) == (1, 150, ALICE, False, False)
    assert await store.balance(G, ALICE) == 850
    assert table.seat_of(ALICE) == seat and table.seat_of(BOB) is None
    cash, outcome = await table.leave(ALICE)
    events = list(outcome.events)
    assert cash is not None and events == []
    assert (cash.amount, cash.balance, cash.seat_no) == (150, 1000, 1)
    assert table.record.seats == () and await store.balance(G, ALICE) == 1000
    with pytest.raises(TableError, match="no table in this channel"):
        tables.require(CHANNEL + 1)


async def test_the_default_buy_in_range_is_20_to_100_big_blinds_in_chips(tables: Tables, store: Store) -> None:
    assert settings().buy_in_range == (40, 200)
    assert settings(small_blind=5, big_blind=10).buy_in_range == (200, 1000)
    assert settings(min_buy_in=50, max_buy_in=60).buy_in_range == (50, 60)
    assert settings(small_blind=0, big_blind=0, ante=3).buy_in_range == (60, 300)
    table = await tables.create(G, CHANNEL, HOST, settings())
    before = await take_snapshot(store)
    for amount in (39, 201, 10**6):
        with pytest.raises(BuyInOutOfRange):
            await table.join(ALICE, amount)
    for amount in (0, -40):
        with pytest.raises(InvalidAmount):
            await table.join(ALICE, amount)
    assert await take_snapshot(store) == before
    assert (await table.join(ALICE, 40)).stack == 40
    assert (await table.join(BOB, 200)).stack == 200
    assert (await table.join(CAROL)).stack == 200  # no amount: the most the table allows
    await store.transfer(G, DAVE, ERIN, 900)
    assert (await table.join(DAVE)).stack == 100  # no amount: the most his balance covers
    await store.transfer(G, FRANK, ERIN, 970)
    with pytest.raises(TableError, match="smallest buy-in is 40 chips and you have 30"):
        await table.join(FRANK)
    with pytest.raises(InsufficientFunds):
        await table.join(FRANK, 40)
    assert table.seat_of(FRANK) is None


async def test_joining_twice_is_refused_and_changes_nothing(tables: Tables, store: Store) -> None:
    table = await tables.create(G, CHANNEL, HOST, settings())
    await table.join(ALICE, 100)
    before = await take_snapshot(store)
    with pytest.raises(TableError, match="already seated"):
        await table.join(ALICE, 100)
    with pytest.raises(TableError, match="already seated"):
        await table.join(ALICE, 50, seat_no=5)
    assert await take_snapshot(store) == before
    with pytest.raises(AlreadySeated):  # the store refuses it too, whatever the table layer believes
        await store.buy_in(table.id, ALICE, 100, 4)


async def test_a_full_table_refuses_one_more(tables: Tables, store: Store) -> None:
    table = await tables.create(G, CHANNEL, HOST, settings(seats=3))
    await seat_players(table, [ALICE, BOB, CAROL])
    before = await take_snapshot(store)
    with pytest.raises(TableError, match=r"full \(3 seats\)"):
        await table.join(DAVE, 100)
    assert await take_snapshot(store) == before
    # Without a seats setting, the game's maximum: 6 for triple draw, 10 for dealer's choice (hold'em seats ten).
    assert settings("triple-draw-27").max_seats == 6
    assert settings("dealers-choice").max_seats == 10
    other = await tables.create(G, CHANNEL + 1, HOST, settings("triple-draw-27"))
    await seat_players(other, [ALICE, BOB, CAROL, DAVE, ERIN, FRANK], 40)
    with pytest.raises(TableError, match="full"):
        await other.join(GRACE, 40)


async def test_seat_numbers(tables: Tables, store: Store) -> None:
    table = await tables.create(G, CHANNEL, HOST, settings(seats=6))
    assert (await table.join(ALICE, 100, seat_no=4)).seat_no == 4
    assert (await table.join(BOB, 100)).seat_no == 1  # the first free seat
    assert (await table.join(CAROL, 100)).seat_no == 2
    before = await take_snapshot(store)
    with pytest.raises(SeatTaken):
        await table.join(DAVE, 100, seat_no=4)
    for bad in (0, 7, 9, -1):
        with pytest.raises(TableError, match="numbered 1 to 6"):
            await table.join(DAVE, 100, seat_no=bad)
    assert await take_snapshot(store) == before
    assert (await table.join(DAVE, 100, seat_no=6)).seat_no == 6
    assert [s.seat_no for s in table.record.seats] == [1, 2, 4, 6]
    await table.leave(BOB)
    assert (await table.join(ERIN, 100)).seat_no == 1  # a freed seat is taken again


async def test_a_second_table_in_one_channel_is_refused(tables: Tables, store: Store) -> None:
    table = await tables.create(G, CHANNEL, HOST, settings())
    before = await take_snapshot(store)
    with pytest.raises(TableError, match="already has a table"):
        await tables.create(G, CHANNEL, ALICE, settings("assassin"))
    with pytest.raises(TableExists):  # another registry over the same file: the store refuses it
        await Tables(store).create(G, CHANNEL, ALICE, settings("assassin"))
    assert await take_snapshot(store) == before
    assert tables.get(CHANNEL) is table
    await tables.create(G, CHANNEL + 1, HOST, settings("assassin"))  # another channel is fine
    await tables.close(CHANNEL)
    assert tables.get(CHANNEL) is None
    again = await tables.create(G, CHANNEL, HOST, settings())  # the channel is free again
    assert again.id != table.id


async def test_leaving_a_table_one_is_not_at_is_refused(tables: Tables, store: Store) -> None:
    table = await tables.create(G, CHANNEL, HOST, settings())
    await seat_players(table, [ALICE, BOB])
    before = await take_snapshot(store)
    for call in (table.leave, table.kick, table.sit_out, table.sit_in):
        with pytest.raises(TableError, match="not seated"):
            await call(CAROL)
    with pytest.raises(TableError, match="not seated"):
        await table.rebuy(CAROL, 10)
    assert await take_snapshot(store) == before
    await deal(table)
    with pytest.raises(TableError, match="not seated"):
        await table.leave(CAROL)
    await table.leave(ALICE)
    with pytest.raises(TableError, match="not seated"):  # gone already (folded, then cashed out)
        await table.leave(ALICE)


async def test_top_up_and_rebuy_between_hands_only(tables: Tables, store: Store) -> None:
    table = await tables.create(G, CHANNEL, HOST, settings())
    await seat_players(table, [ALICE, BOB], 100)
    assert (await table.rebuy(ALICE, 50)).stack == 150
    before = await take_snapshot(store)
    with pytest.raises(BuyInOutOfRange):  # 150 + 51 is above the 200 maximum
        await table.rebuy(ALICE, 51)
    for bad in (0, -5):
        with pytest.raises(InvalidAmount):
            await table.rebuy(ALICE, bad)
    assert await take_snapshot(store) == before
    await deal(table)
    await table.join(CAROL, 100)  # joins during the hand; not in it
    before = await take_snapshot(store)
    for user in (ALICE, BOB):
        with pytest.raises(TableError, match="between hands"):
            await table.rebuy(user, 10)
    assert await take_snapshot(store) == before
    assert (await table.rebuy(CAROL, 10)).stack == 110  # not in the hand: allowed
    await finish(table)
    assert (await table.rebuy(ALICE, 1)).stack == table.seat_of(ALICE).stack  # type: ignore[union-attr]
    kinds = {e.kind for e in (await store.ledger_page(G, ALICE)).entries}
    assert kinds == {"starting-grant", "buy-in", "top-up"}


async def test_a_busted_player_rebuys_at_least_the_minimum(tables: Tables, store: Store) -> None:
    table = await tables.create(G, CHANNEL, HOST, settings())
    await seat_players(table, [ALICE, BOB], 40)
    busted = await bust_someone(table)
    assert table.seat_of(busted).stack == 0  # type: ignore[union-attr]
    with pytest.raises(TableError, match="At least two players"):  # a seat without chips is not dealt in
        await deal(table)
    with pytest.raises(BuyInOutOfRange):
        await table.rebuy(busted, 39)
    assert (await table.rebuy(busted, 40)).stack == 40
    assert (await store.ledger_page(G, busted)).entries[0].kind == "rebuy"
    await play_hand(table)


async def test_sitting_out_and_back_in(tables: Tables, store: Store) -> None:
    table = await tables.create(G, CHANNEL, HOST, settings())
    await seat_players(table, [ALICE, BOB, CAROL])
    assert (await table.sit_out(BOB)).sitting_out
    assert [s.user_id for s in table.dealt_in()] == [ALICE, CAROL]
    hand = await deal(table)
    assert hand.players == 2 and table.engine_seat(BOB) is None and set(table.live.users) == {ALICE, CAROL}  # type: ignore[union-attr]
    await table.sit_in(BOB)  # back from the next hand on, not this one
    assert table.engine_seat(BOB) is None
    await table.sit_out(ALICE)  # sitting out during a hand he plays: this hand is played to its end
    assert table.engine_seat(ALICE) is not None
    await finish(table)
    hand = await deal(table)
    assert table.live is not None and set(table.live.users) == {BOB, CAROL}
    await finish(table)
    await table.sit_out(CAROL)
    with pytest.raises(TableError, match="At least two players"):
        await deal(table)
    await table.sit_in(ALICE)
    await table.sit_in(CAROL)
    hand = await deal(table)
    assert hand.players == 3
    await finish(table)


async def test_joining_after_the_deal_waits_for_the_next_hand(tables: Tables) -> None:
    table = await tables.create(G, CHANNEL, HOST, settings())
    await seat_players(table, [ALICE, BOB])
    await deal(table)
    await table.join(CAROL, 100)
    assert table.engine_seat(CAROL) is None and table.hand is not None and table.hand.players == 2
    await finish(table)
    assert (await deal(table)).players == 3
    await finish(table)


async def test_eight_players_at_five_card_draw(tables: Tables) -> None:
    table = await tables.create(G, CHANNEL, HOST, settings())
    await seat_players(table, [ALICE, BOB, CAROL, DAVE, ERIN, FRANK, GRACE, HEIDI])
    assert table.settings.max_seats == 8
    hand = await play_hand(table)
    assert hand.players == 8


def test_settings_errors_say_what_to_change() -> None:
    from bot.tables import SettingsError

    cases: list[tuple[dict[str, object], str]] = [
        ({"game": "chess"}, "Unknown game"),
        ({"small_blind": 3}, "small blind cannot be bigger"),
        ({"small_blind": -1}, "small blind must be"),
        ({"big_blind": "2"}, "whole number"),
        ({"min_buy_in": 300}, "minimum buy-in cannot be bigger"),
        ({"min_buy_in": 1}, "at least one big blind"),
        ({"seats": 9}, "Five Card Draw is dealt to at most 8 players: this table has at most 8 seats, not 9"),
        ({"seats": 1}, "number of seats must be from 2"),
        ({"clock": 5}, "clock"),
        ({"jokers": True}, "Assassin option"),
        ({"draw_limit": "4"}, "draw limit"),
        ({"choice_per": "week"}, "per hand or per orbit"),
        ({"dealer_picks_structure": "yes"}, "on or off"),
        ({"jokers": 1}, "on or off"),
        ({"structure": "spread-limit"}, "structure"),
    ]
    for changes, message in cases:
        with pytest.raises(SettingsError, match=message):
            settings(**changes)
    with pytest.raises(SettingsError, match="2-7 Triple Draw is played with blinds: give a small and a big blind"):
        TableSettings("triple-draw-27", 0, 0, ante=1)
    assert settings().with_changes(big_blind=4, small_blind=2).buy_in_range == (80, 400)
    assert TableSettings.from_json({**settings().to_json(), "_choice": {}, "unknown": 1}) == settings()
