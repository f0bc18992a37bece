"""The night after the cards at the table layer: the host's chip value, a new night between hands, the facts kept
with each hand, which night a command means, a night's results and settle-up, boards by period, the facts of
hands finished before they were kept."""

from __future__ import annotations

import datetime as dt
import random
import re
from pathlib import Path

import pytest

from bot.night.facts import hand_facts
from bot.night.money import ChipValue
from bot.night.stats import stats_by_game
from bot.store import Store
from bot.tables import Table, TableError, Tables
from bot.tables.night import (
    history_hands,
    keep_missing_facts,
    night_board,
    night_results,
    parse_night,
    rebuild,
    resolve_night,
)

from ..store.test_store_sessions_migration import release_0002_database
from .conftest import ALICE, BOB, CAROL, CHANNEL, HOST, G, OpenStore, play_hand, randomly, seat_players, settings
from .test_tables_assassin import assassin_table, play_script, seed_where


def test_the_chip_value_is_checked_and_kept_in_one_written_form() -> None:
    assert settings(chip_value="100=1").chip_value == "100 chips = 1.00"
    assert settings(chip_value="100 chips = $1").money == ChipValue(100, 100, "$")
    assert settings(chip_value="1,000 chips = 5 EUR").chip_value == "1,000 chips = 5.00 EUR"
    assert settings().money is None
    with pytest.raises(ValueError, match=re.escape('Write the chip value like "100 = 1.00"')):
        settings(chip_value="a lot")
    with pytest.raises(ValueError, match=r"Money is counted to the cent: .* e\.g\. 1,000 = 0\.01"):
        settings(chip_value="100 = 0.001")


async def test_the_host_changes_the_chip_value_between_hands(tables: Tables) -> None:
    table = await tables.create(G, CHANNEL, HOST, settings(chip_value="100 = $1"))
    await seat_players(table, [ALICE, BOB])
    await table.start_hand()
    with pytest.raises(TableError, match="Settings can change between hands"):
        await table.update_settings(chip_value="1 = $1")
    await _finish(table)
    assert (await table.update_settings(chip_value="1 = 0.05€")).chip_value == "1 chip = 0.05€"
    assert (await tables.store.get_table_by_id(table.id)).settings["chip_value"] == "1 chip = 0.05€"
    with pytest.raises(TableError, match="Write the chip value like"):
        await table.update_settings(chip_value="free")
    assert (await table.update_settings(chip_value=None)).money is None


async def _finish(table: Table) -> None:
    while (actor := table.actor()) is not None:
        legal = table.legal()
        assert legal is not None
        await table.act(actor, "sd" if legal.phase == "drawing" else "cc", table.next_seq())


async def test_each_hand_keeps_its_facts_and_a_new_night_starts_between_hands(tables: Tables) -> None:
    store = tables.store
    table = await tables.create(G, CHANNEL, HOST, settings("triple-draw-27"))
    await seat_players(table, [ALICE, BOB, CAROL])
    first = await play_hand(table, randomly(random.Random(3)))
    users = list((await store.recent_hands(table.id, 1))[0].seat_users)
    for user in (ALICE, BOB, CAROL):
        assert await store.player_stats(G, user) == stats_by_game(f for f in hand_facts(first, users)
                                                                  if f.user_id == user)
    night_one = await store.last_night(CHANNEL)
    await table.start_hand()
    with pytest.raises(TableError, match="Hand #2 is being played; a new night starts between hands"):
        await table.new_night()
    await _finish(table)
    night_two = await table.new_night()
    assert night_one is not None and (night_two.number, night_two.id) == (2, night_one.id + 1)
    assert table.record.seats == (await store.get_table_by_id(table.id)).seats  # seated, stacks kept
    await play_hand(table)
    assert (await store.recent_hands(table.id, 1))[0].night_id == night_two.id
    one = await night_results(store, tables, await resolve_night(store, G, CHANNEL, str(night_one.id)))
    two = await night_results(store, tables, await resolve_night(store, G, CHANNEL, None))
    assert (len(one.hands), len(two.hands)) == (2, 1)
    stacks = {s.user_id: s.stack for s in table.record.seats}
    assert {u: one.nets.get(u, 0) + two.nets.get(u, 0) for u in stacks} == {u: s - 100 for u, s in stacks.items()}
    assert sum(one.nets.values()) == sum(two.nets.values()) == 0


async def test_history_is_the_open_tables_latest_hands_and_after_the_close_its_last_nights(tables: Tables) -> None:
    store = tables.store
    with pytest.raises(TableError, match="There is no table in this channel"):
        await history_hands(store, tables, CHANNEL, 3)
    table = await tables.create(G, CHANNEL, HOST, settings("triple-draw-27"))
    await seat_players(table, [ALICE, BOB])
    await play_hand(table)
    await table.new_night()
    await play_hand(table)
    await play_hand(table)
    await table.start_hand()  # being played: not in the history
    assert [h.number for h in await history_hands(store, tables, CHANNEL, 5)] == [3, 2, 1]
    assert [h.number for h in await history_hands(store, tables, CHANNEL, 2)] == [3, 2]
    await tables.close(CHANNEL)
    last = await history_hands(store, tables, CHANNEL, 5)  # the closed table's last night, as results answer
    assert [h.number for h in last] == [3, 2] and all(h.status == "complete" for h in last)


async def test_a_new_night_returns_the_carried_pot_and_a_running_one_counts_it_as_returned(store: Store) -> None:
    everyone = seed_where(3, [True, True, True])
    tables, table = await assassin_table(store, [everyone, everyone])
    await play_script(table, {})
    assert table.record.carried_pot == 6
    results = await night_results(store, tables, await resolve_night(store, G, CHANNEL, None))
    assert results.pending == {ALICE: 2, BOB: 2, CAROL: 2} and results.carried == 6
    assert results.nets == {ALICE: 0, BOB: 0, CAROL: 0} and results.payments() == []
    await play_script(table, {})  # carried again: 6 + 6
    results = await night_results(store, tables, await resolve_night(store, G, CHANNEL, None))
    assert results.pending == {ALICE: 4, BOB: 4, CAROL: 4} and sum(results.nets.values()) == 0
    night_one = results.night.nights[0]
    await table.new_night()
    assert table.record.carried_pot == 0 and table.carried_owners == {}
    assert {s.user_id: s.stack for s in table.record.seats} == {ALICE: 96, BOB: 96, CAROL: 96}
    assert await store.balance(G, ALICE) == 904  # 1,000 - 100 bought in + 4 returned
    past = await night_results(store, tables, await resolve_night(store, G, CHANNEL, str(night_one.id)))
    assert (past.refunds, past.pending, past.nets) == ({ALICE: 4, BOB: 4, CAROL: 4}, {}, {ALICE: 0, BOB: 0, CAROL: 0})


async def test_which_night_a_command_means(tables: Tables) -> None:
    store = tables.store
    assert parse_night(None) is None and parse_night(" current ") is None
    assert parse_night("12") == parse_night("#12") == parse_night("night 12") == 12
    assert parse_night("since 2026-11-01") == parse_night("2026-11-01") == dt.date(2026, 11, 1)
    with pytest.raises(TableError, match="2026-13-01 is not a date"):
        parse_night("2026-13-01")
    with pytest.raises(TableError, match="“friday” is not a night: give a night's number"):
        parse_night("friday")
    with pytest.raises(TableError, match="There is no table in this channel"):
        await resolve_night(store, G, CHANNEL, None)
    table = await tables.create(G, CHANNEL, HOST, settings())
    other = await tables.create(G, CHANNEL + 1, HOST, settings())
    night = await resolve_night(store, G, CHANNEL, None)
    assert [s.table_id for s in night.nights] == [table.id] and night.since is None
    assert (await resolve_night(store, G, CHANNEL + 5, str(night.ids[0]))).ids == night.ids  # from any channel
    with pytest.raises(TableError, match=f"There is no night number {night.ids[0]} on this server"):
        await resolve_night(store, G + 1, CHANNEL, str(night.ids[0]))
    with pytest.raises(TableError, match="There is no night number 99 on this server"):
        await resolve_night(store, G, CHANNEL, "99")
    since = await resolve_night(store, G, CHANNEL, "since 2000-01-01")  # the fake clock is in 2023
    assert [s.table_id for s in since.nights] == [table.id, other.id] and since.since == dt.date(2000, 1, 1)
    with pytest.raises(TableError, match="No night started on this server since 2030-01-01"):
        await resolve_night(store, G, CHANNEL, "2030-01-01")


async def test_boards_by_period(tables: Tables) -> None:
    store = tables.store
    here = await tables.create(G, CHANNEL, HOST, settings())
    there = await tables.create(G, CHANNEL + 1, HOST, settings())
    await seat_players(here, [ALICE, BOB])
    await seat_players(there, [ALICE, CAROL])
    for _ in range(3):
        await play_hand(here)
        await play_hand(there)
    nets_here = {s.user_id: s.stack - 100 for s in here.record.seats}
    nets_there = {s.user_id: s.stack - 100 for s in there.record.seats}
    assert any(nets_here.values()) and any(nets_there.values())
    now = 1_700_000_500.0  # the fake clock's time, a few hundred transactions in
    tonight = await night_board(store, G, CHANNEL, "tonight", now)
    assert tonight.here and {e.user_id: e.net for e in tonight.entries} == nets_here
    elsewhere = await night_board(store, G, CHANNEL + 9, "tonight", now)
    both = {u: nets_here.get(u, 0) + nets_there.get(u, 0) for u in {*nets_here, *nets_there}}
    assert not elsewhere.here and {e.user_id: e.net for e in elsewhere.entries} == both
    assert elsewhere.night is not None and len(elsewhere.night.nights) == 2
    assert {e.user_id: e.hands for e in elsewhere.entries} == {ALICE: 6, BOB: 3, CAROL: 3}
    assert [e.net for e in elsewhere.entries] == sorted(both.values(), reverse=True)
    later = await night_board(store, G, CHANNEL + 9, "tonight", now + 13 * 3600)  # 12 hours: still running
    assert {e.user_id: e.net for e in later.entries} == both
    month = await night_board(store, G, CHANNEL, "month", now)
    assert {e.user_id: e.net for e in month.entries} == both
    assert month.since == dt.datetime(2023, 11, 1, tzinfo=dt.UTC).timestamp()
    next_month = await night_board(store, G, CHANNEL, "month", now + 40 * 86400)
    assert next_month.entries == []
    assert (await night_board(store, G, CHANNEL, "all", now)).entries == month.entries
    empty = await night_board(store, G + 1, CHANNEL + 9, "tonight", now)
    assert empty.entries == [] and not empty.here


@pytest.mark.sqlite_only  # a bank of version 0002 exists only as an SQLite file
async def test_the_facts_of_hands_finished_before_they_were_kept(open_store: OpenStore, db_path: Path) -> None:
    release_0002_database(db_path)
    store = await open_store()
    missing = await store.hands_without_facts()
    assert len(missing) == 2
    expected = {record.id: hand_facts(rebuild(record), record.seat_users) for record in missing}
    tables = Tables(store, random.Random(1))
    await tables.restore()  # keeps them on start
    assert await store.hands_without_facts() == []
    for user in (11, 22):
        assert await store.player_stats(42, user) == stats_by_game(
            f for facts in expected.values() for f in facts if f.user_id == user)
    assert await keep_missing_facts(store) == 0  # once
