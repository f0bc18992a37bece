"""The bot's one scheduler (``bot.runtime.scheduler``): named tasks replaced, cancelled one by one or all at once,
delayed ones that never run once cancelled, failures logged; and the check that nothing else in the bot starts tasks
or timers by hand."""

from __future__ import annotations

import asyncio
import inspect
import logging
import re
import time
from pathlib import Path

import pytest

from bot.runtime.scheduler import Scheduler, background, call_after

ROOT = Path(__file__).resolve().parents[1]

# Where asyncio's tasks and timers may be started by hand: the scheduler, the start-up, the store's connection and
# its lock (issue 31's four). The acknowledgement timers and the private messages' edits go through the scheduler.
STARTED_BY_HAND = {
    "bot/runtime/scheduler.py",
    "cogs/run.py",
    "bot/store/connection.py",
    "bot/store/lock.py",
}
BY_HAND = re.compile(r"\b(?:create_task|ensure_future|call_later)\(")


async def _forever(ran: list[str], name: str) -> None:
    ran.append(name)
    await asyncio.Event().wait()


async def test_a_task_scheduled_under_a_used_key_replaces_the_one_before() -> None:
    scheduler = Scheduler("test")
    ran: list[str] = []
    first = scheduler.schedule("clock", _forever(ran, "first"))
    await asyncio.sleep(0)
    second = scheduler.schedule("clock", _forever(ran, "second"))
    await asyncio.sleep(0)
    assert first.cancelled() and not second.done() and ran == ["first", "second"]
    assert scheduler.get("clock") is second and "clock" in scheduler and len(scheduler) == 1
    scheduler.cancel_all()


async def test_cancel_all_stops_every_task_and_timer_and_returns_the_tasks_to_wait_for() -> None:
    scheduler = Scheduler("test")
    ran: list[str] = []
    called: list[str] = []
    tasks = [scheduler.schedule(key, _forever(ran, key)) for key in ("a", "b")]
    later = scheduler.schedule_later(0.01, "c", _forever(ran, "c"))
    scheduler.call_after(0.01, "d", called.append, "d")
    await asyncio.sleep(0)
    cancelled = scheduler.cancel_all()
    assert set(cancelled) == {*tasks, later} and len(scheduler) == 0
    await asyncio.wait(cancelled)
    await asyncio.sleep(0.03)
    assert all(t.cancelled() for t in cancelled) and ran == ["a", "b"] and called == []


async def test_a_task_done_leaves_the_scheduler() -> None:
    scheduler = Scheduler("test")
    task = scheduler.schedule("quick", asyncio.sleep(0, result=7))
    assert await task == 7
    await asyncio.sleep(0)
    assert "quick" not in scheduler and scheduler.get("quick") is None


async def test_a_failure_is_logged_not_lost(caplog: pytest.LogCaptureFixture) -> None:
    async def fails() -> None:
        raise ValueError("the store is gone")

    scheduler = Scheduler("table 7")
    with caplog.at_level(logging.ERROR, logger="bot.runtime.scheduler"):
        task = scheduler.schedule("deal", fails())
        await asyncio.wait([task])
        await asyncio.sleep(0)
        orphan = background(fails(), name="orphan")
        await asyncio.wait([orphan])
        await asyncio.sleep(0)
    failed = [r for r in caplog.records if r.exc_info is not None and isinstance(r.exc_info[1], ValueError)]
    assert [r.getMessage() for r in failed] == ["task 'table 7: deal' failed", "task 'orphan' failed"]


async def test_a_timer_that_fails_is_logged(caplog: pytest.LogCaptureFixture) -> None:
    def fails() -> None:
        raise ValueError("boom")

    scheduler = Scheduler("acks")
    with caplog.at_level(logging.ERROR, logger="bot.runtime.scheduler"):
        scheduler.call_after(0, "ack", fails)
        call_after(0, fails)
        await asyncio.sleep(0.01)
    assert [r.getMessage() for r in caplog.records] == ["acks: ack failed", f"{fails.__qualname__} failed"]
    assert "ack" not in scheduler


async def test_a_delayed_task_cancelled_never_runs() -> None:
    scheduler = Scheduler("test")
    ran: list[str] = []
    coro = _forever(ran, "late")
    task = scheduler.schedule_later(0.01, "late", coro)
    await asyncio.sleep(0)
    scheduler.cancel("late")
    await asyncio.sleep(0.03)
    assert task.cancelled() and ran == [] and "late" not in scheduler
    assert inspect.getcoroutinestate(coro) == inspect.CORO_CLOSED  # closed: no "never awaited" warning


async def test_a_delayed_task_replaced_before_its_first_step_is_closed() -> None:
    scheduler = Scheduler("test")
    ran: list[str] = []
    coro = _forever(ran, "first")
    scheduler.schedule_later(0.01, "deal", coro)
    scheduler.schedule_later(0.01, "deal", _forever(ran, "second"))  # before the first ever ran
    await asyncio.sleep(0.03)
    assert ran == ["second"] and inspect.getcoroutinestate(coro) == inspect.CORO_CLOSED
    scheduler.cancel_all()


async def test_a_delayed_task_and_a_timer_run_on_time() -> None:
    scheduler = Scheduler("test")
    called: list[str] = []
    start = time.monotonic()
    task = scheduler.schedule_at(time.time() + 0.02, "at", asyncio.sleep(0, result="done"))
    scheduler.call_after(0.02, "timer", called.append, "timer")
    handle = call_after(0.02, called.append, "orphan")
    assert await task == "done" and time.monotonic() - start >= 0.015
    await asyncio.sleep(0.01)
    assert called == ["timer", "orphan"] and isinstance(handle, asyncio.TimerHandle)
    assert scheduler.schedule_at(time.time() - 5, "past", asyncio.sleep(0, result=1)) is not None  # at once


async def test_a_cancelled_timer_is_not_called() -> None:
    scheduler = Scheduler("test")
    called: list[str] = []
    scheduler.call_after(0.01, "ack", called.append, "ack")
    scheduler.cancel("ack")
    call_after(0.01, called.append, "orphan").cancel()
    await asyncio.sleep(0.03)
    assert called == [] and "ack" not in scheduler


async def test_a_task_that_cancels_itself_goes_on_but_cancel_all_stops_it() -> None:
    scheduler = Scheduler("test")
    steps: list[str] = []
    went_on = asyncio.Event()

    async def clock() -> None:
        scheduler.cancel("clock")  # as a clock that runs out stops its table's clock
        steps.append("let go")
        went_on.set()
        await asyncio.Event().wait()

    task = scheduler.schedule("clock", clock())
    await went_on.wait()
    assert not task.done() and "clock" not in scheduler and steps == ["let go"]
    assert scheduler.cancel_all() == [task]
    await asyncio.wait([task])
    assert task.cancelled()


async def test_a_background_task_is_kept_until_done() -> None:
    from bot.runtime import scheduler as module

    task = background(asyncio.sleep(0.01, result=3), name="kept")
    assert task in module._BACKGROUND
    assert await task == 3
    await asyncio.sleep(0)
    assert task not in module._BACKGROUND


def test_tasks_and_timers_are_started_by_hand_only_where_allowed() -> None:
    found = sorted(
        f"{path.relative_to(ROOT)}:{number}: {line.strip()}"
        for folder in ("bot", "cogs") for path in (ROOT / folder).rglob("*.py")
        if str(path.relative_to(ROOT)) not in STARTED_BY_HAND
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1) if BY_HAND.search(line))
    assert found == [], "start tasks and timers through bot.runtime.scheduler (a Scheduler, background, call_after)"
    assert all((ROOT / path).exists() for path in STARTED_BY_HAND)  # the list names files that exist
