"""Fixtures shared by the store and table-layer tests: real SQLite files in tmp_path (each directory's
``db_path`` names its own), a deterministic clock, and an audit after every test of every guild in every file
the test opened (``open_store(..., audit=False)`` opts out, for tests that corrupt a file on purpose or cannot
open it)."""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import settings

from bot.store import Store

# No property test may fail for the machine's speed: Hypothesis's default 200 ms deadline per example fails a test
# on a machine busy with other work (seen: tests/night/test_settle.py at 329 ms). A test's own @settings keeps this.
settings.register_profile("suite", deadline=None)
settings.load_profile("suite")

OpenStore = Callable[..., Awaitable[Store]]


class FakeClock:
    """A clock that starts at a fixed time and advances one second per reading: every store transaction reads
    it once, so rows written by one transaction share a time and rows of two transactions never do."""

    def __init__(self, start: float = 1_700_000_000.0) -> None:
        self.now = start

    def __call__(self) -> float:
        self.now += 1.0
        return self.now


async def audit_file(path: Path, migrations_dir: Any = None) -> None:
    """Reopen ``path`` and require a clean audit of every guild, a clean ledger and a sound file."""
    store = await Store.open(path, migrations_dir=migrations_dir)
    try:
        reports = await store.audit_all()
        bad = [r for r in reports if not r.ok]
        assert not bad, "\n".join(f"{r.summary()}\n  " + "\n  ".join(r.problems) for r in bad)
        for report in reports:
            assert await store.check_ledger_integrity(report.guild_id) == []
        assert await store.connection.execute_fetchall("PRAGMA foreign_key_check") == []
        assert next(iter(await store.connection.execute_fetchall("PRAGMA integrity_check")))[0] == "ok"
    finally:
        await store.close()


@pytest.fixture
def clock() -> FakeClock:
    """A deterministic clock for ``created_at`` columns."""
    return FakeClock()


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    """The default database file of a test."""
    return tmp_path / "poker.db"


@pytest.fixture(autouse=True)
async def _audited_paths() -> AsyncIterator[dict[Path, Any]]:
    """Autouse: after the test, reopen every registered file (path -> migrations dir or None) and audit it."""
    paths: dict[Path, Any] = {}
    yield paths
    for path, migrations_dir in sorted(paths.items()):
        await audit_file(path, migrations_dir)


@pytest.fixture
async def open_store(db_path: Path, clock: FakeClock, _audited_paths: dict[Path, Any]) -> AsyncIterator[OpenStore]:
    """Open a Store (default: ``db_path``, the fake clock); closed after the test, then audited."""
    opened: list[Store] = []

    async def _open(path: Path | None = None, *, audit: bool = True, **kwargs: Any) -> Store:
        target = db_path if path is None else path
        kwargs.setdefault("clock", clock)
        store = await Store.open(target, **kwargs)
        opened.append(store)
        if audit:
            _audited_paths[target] = kwargs.get("migrations_dir")
        return store

    yield _open
    for store in opened:
        await store.close()


@pytest.fixture
async def store(open_store: OpenStore) -> Store:
    """A fresh store over ``db_path``."""
    return await open_store()
