"""Planned nights in the store: the server's time zone, a plan and its clash with another in the channel, answers
(first come, first seated; a tap beats the event's Interested), reminders marked once, the night's course, and
refusals that change nothing."""

from __future__ import annotations

from typing import Any

import pytest

from bot.planning import NIGHT_LENGTH, roster
from bot.store import InvalidArgument, NotFound, PlanClash, PlanClosed, PlanRecord, Store

from .conftest import Snapshot

G, CHANNEL, OTHER_CHANNEL = 42, 7777, 7778
HOST, ALICE, BOB, CAROL, DAVE = 1000, 1001, 1002, 1003, 1004
START = 1_800_000_000


async def plan(store: Store, starts_at: int = START, channel: int = CHANNEL, **changes: Any) -> PlanRecord:
    options: dict[str, Any] = dict(game="dealers-choice", small_blind=1, big_blind=2, structure=None, buy_in=None,
                                   seats=2, remind_minutes=60, notes="Bring snacks", length=NIGHT_LENGTH)
    options.update(changes)
    return await store.create_plan(G, channel, HOST, starts_at, **options)


async def test_the_servers_time_zone(store: Store) -> None:
    assert await store.time_zone(G) is None
    await store.set_time_zone(G, "Europe/Berlin")
    await store.set_time_zone(G, "America/New_York")
    assert await store.time_zone(G) == "America/New_York"
    with pytest.raises(InvalidArgument):
        await store.set_time_zone(G, "")


async def test_a_plan_and_the_nights_that_clash_with_it(store: Store, snapshot: Snapshot) -> None:
    night = await plan(store)
    assert (night.status, night.starts_at, night.seats, night.notes, night.signups) == ("planned", START, 2,
                                                                                        "Bring snacks", ())
    before = await snapshot(store)
    with pytest.raises(PlanClash) as clashed:
        await plan(store, START + NIGHT_LENGTH - 1)
    assert (clashed.value.plan_id, clashed.value.starts_at) == (night.id, START)
    assert await snapshot(store) == before
    later = await plan(store, START + NIGHT_LENGTH)  # right after it: fine
    elsewhere = await plan(store, START, OTHER_CHANNEL)  # another channel: fine
    assert [p.id for p in await store.plans(guild=G)] == [night.id, elsewhere.id, later.id]
    assert [p.id for p in await store.plans(channel=CHANNEL)] == [night.id, later.id]
    await store.end_plan(night.id, "cancelled")
    assert (await plan(store, START - 60)).status == "planned"  # a cancelled night clashes with nothing
    assert [p.status for p in await store.plans(channel=CHANNEL, statuses=("cancelled",))] == ["cancelled"]


async def test_answers_first_come_first_seated_and_the_event_never_beats_a_tap(store: Store) -> None:
    night = await plan(store)
    await store.answer_plan(night.id, ALICE, "in")
    await store.answer_plan(night.id, BOB, "out")
    night, added = await store.sync_interested(night.id, {BOB, CAROL, DAVE})
    assert added == [CAROL, DAVE]  # bob tapped Can't make it: the event does not put him in
    r = roster(night.signups, night.seats)
    assert (r.playing, r.waiting, r.out) == ((ALICE, CAROL), (DAVE,), (BOB,))
    night = await store.answer_plan(night.id, CAROL, "in")  # interested, then tapped: keeps his place
    assert roster(night.signups, 2).playing == (ALICE, CAROL)
    await store.answer_plan(night.id, ALICE, "out")
    night = await store.answer_plan(night.id, ALICE, "in")  # back in: at the end of the list
    assert roster(night.signups, 2).order == (CAROL, DAVE, ALICE)
    night, added = await store.sync_interested(night.id, {CAROL})  # dave unmarked the event: dropped
    assert added == [] and roster(night.signups, 2).order == (CAROL, ALICE)


async def test_a_reminder_is_marked_once(store: Store) -> None:
    night = await plan(store)
    await store.answer_plan(night.id, ALICE, "in")
    assert await store.mark_reminded(night.id, ALICE)
    assert not await store.mark_reminded(night.id, ALICE)
    assert not await store.mark_reminded(night.id, BOB)  # no answer: nothing to mark
    await store.reminders_done(night.id)
    night = await store.get_plan(night.id)
    assert night.reminded and night.signups[0].reminded


async def test_the_nights_course_and_what_a_closed_night_refuses(store: Store, snapshot: Snapshot) -> None:
    night = await plan(store)
    await store.set_plan_event(night.id, 555)
    await store.set_plan_message(night.id, 666)
    table = await store.create_table(G, CHANNEL, HOST, {"game": "dealers-choice"})
    opened = await store.open_plan(night.id, table.id)
    assert (opened.status, opened.table_id, opened.event_id, opened.message_id) == ("open", table.id, 555, 666)
    assert [p.id for p in await store.plans(table=table.id)] == [night.id]
    before = await snapshot(store)
    for refused in (store.answer_plan(night.id, ALICE, "in"), store.open_plan(night.id, table.id),
                    store.end_plan(night.id, "cancelled")):
        with pytest.raises(PlanClosed, match="has started"):
            await refused
    assert await snapshot(store) == before
    done = await store.end_plan(night.id, "done")
    assert done.status == "done"
    with pytest.raises(PlanClosed, match="is over"):
        await store.end_plan(night.id, "done")
    cancelled = await store.end_plan((await plan(store, START + NIGHT_LENGTH)).id, "cancelled")
    with pytest.raises(PlanClosed, match="was cancelled"):
        await store.answer_plan(cancelled.id, ALICE, "in")
    night, added = await store.sync_interested(cancelled.id, {ALICE})
    assert added == [] and night.signups == ()
    with pytest.raises(NotFound):
        await store.get_plan(999)
