"""The bot's background tasks, started and cancelled in one place (python-discord's ``Scheduler``, kept small).

Each owner of tasks (a table's runner, the planned nights, the card emojis' upload, the health beat) holds one
``Scheduler``: its tasks have names (keys) that say what they are ("clock", "deal", a plan's id), a task scheduled
under a key already used replaces (cancels) the one before, and ``cancel_all`` stops them all when the owner goes
(a table closes, the bot stops). A task that fails is logged, never lost. ``background`` and ``call_after`` are
the same for a task or a timer without an owner: kept referenced until done, logged if it fails.

Pure asyncio: nothing here knows of Discord.
"""

from __future__ import annotations

import asyncio
import inspect
import logging
import time
from collections.abc import Callable, Coroutine, Hashable
from functools import partial
from typing import Any, TypeVar

__all__ = ["Scheduler", "background", "call_after"]

log = logging.getLogger(__name__)

T = TypeVar("T")

_BACKGROUND: set[asyncio.Task[Any]] = set()  # owner-less tasks under way (the loop keeps only weak references)


class Scheduler:
    """The named tasks and timers of one owner."""

    def __init__(self, name: str) -> None:
        self.name = name
        self._entries: dict[Hashable, asyncio.Task[Any] | asyncio.TimerHandle] = {}
        self._detached: set[asyncio.Task[Any]] = set()  # cancelled from inside: they end by themselves

    def __contains__(self, key: Hashable) -> bool:
        return key in self._entries

    def __len__(self) -> int:
        return len(self._entries)

    def get(self, key: Hashable) -> asyncio.Task[Any] | None:
        """The task scheduled under ``key`` (running, or done a moment ago), if any."""
        entry = self._entries.get(key)
        return entry if isinstance(entry, asyncio.Task) else None

    def schedule(self, key: Hashable, coro: Coroutine[Any, Any, T]) -> asyncio.Task[T]:
        """Run ``coro`` now as the task ``key``, in place of the one scheduled under it before (cancelled)."""
        self.cancel(key)
        task = asyncio.create_task(coro, name=f"{self.name}: {key}")
        self._entries[key] = task
        task.add_done_callback(partial(self._done, key))
        return task

    def schedule_later(self, delay: float, key: Hashable, coro: Coroutine[Any, Any, T]) -> asyncio.Task[T]:
        """Run ``coro`` as the task ``key`` after ``delay`` seconds; cancelled before, it never runs."""
        task = self.schedule(key, _after(delay, coro))
        task.add_done_callback(lambda _: _close_unstarted(coro))
        return task

    def schedule_at(self, when: float, key: Hashable, coro: Coroutine[Any, Any, T]) -> asyncio.Task[T]:
        """Run ``coro`` as the task ``key`` at ``when`` (Unix time; at once if that has passed)."""
        return self.schedule_later(max(0.0, when - time.time()), key, coro)

    def call_after(self, delay: float, key: Hashable, callback: Callable[..., object], *args: Any) -> None:
        """Call ``callback(*args)`` after ``delay`` seconds, under ``key`` (a timer, lighter than a task)."""
        self.cancel(key)

        def fire() -> None:
            if self._entries.get(key) is handle:
                del self._entries[key]
            _call_logged(f"{self.name}: {key}", callback, args)

        handle = asyncio.get_running_loop().call_later(delay, fire)
        self._entries[key] = handle

    def cancel(self, key: Hashable) -> None:
        """Cancel the task or timer ``key``, if scheduled. A task that cancels itself is only let go: it ends by
        itself (``cancel_all`` still stops it)."""
        entry = self._entries.pop(key, None)
        if entry is None:
            return
        if entry is _current_task():
            assert isinstance(entry, asyncio.Task)
            self._detached.add(entry)
        else:
            entry.cancel()

    def cancel_all(self) -> list[asyncio.Task[Any]]:
        """Cancel every task and timer (the owner is going); the tasks cancelled, to wait for."""
        current = _current_task()
        tasks = [e for e in self._entries.values() if isinstance(e, asyncio.Task)] + list(self._detached)
        for entry in self._entries.values():
            if not isinstance(entry, asyncio.Task):
                entry.cancel()
        self._entries.clear()
        self._detached.clear()
        cancelled = [task for task in tasks if task is not current and not task.done()]
        for task in cancelled:
            task.cancel()
        return cancelled

    def _done(self, key: Hashable, task: asyncio.Task[Any]) -> None:
        if self._entries.get(key) is task:
            del self._entries[key]
        self._detached.discard(task)
        _log_failure(task)


def background(coro: Coroutine[Any, Any, T], *, name: str | None = None) -> asyncio.Task[T]:
    """Run ``coro`` as a task of its own, kept referenced until done; a failure is logged."""
    task = asyncio.create_task(coro, name=name)
    _BACKGROUND.add(task)
    task.add_done_callback(_BACKGROUND.discard)
    task.add_done_callback(_log_failure)
    return task


def call_after(delay: float, callback: Callable[..., object], *args: Any) -> asyncio.TimerHandle:
    """Call ``callback(*args)`` after ``delay`` seconds (the handle cancels it); a failure is logged."""
    return asyncio.get_running_loop().call_later(delay, _call_logged, getattr(callback, "__qualname__", "a timer"),
                                                 callback, args)


def _current_task() -> asyncio.Task[Any] | None:
    try:
        return asyncio.current_task()
    except RuntimeError:  # no loop running (a synchronous test's teardown)
        return None


async def _after(delay: float, coro: Coroutine[Any, Any, T]) -> T:
    await asyncio.sleep(delay)
    return await coro


def _close_unstarted(coro: Coroutine[Any, Any, Any]) -> None:
    """A delayed coroutine cancelled before its time is closed (no "never awaited" warning)."""
    if inspect.getcoroutinestate(coro) == inspect.CORO_CREATED:
        coro.close()


def _call_logged(what: str, callback: Callable[..., object], args: tuple[Any, ...]) -> None:
    try:
        callback(*args)
    except Exception:
        log.exception("%s failed", what)


def _log_failure(task: asyncio.Task[Any]) -> None:
    if not task.cancelled() and (error := task.exception()) is not None:
        log.error("task %r failed", task.get_name(), exc_info=error)
