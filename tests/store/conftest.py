"""Fixtures for the store tests: real SQLite files in tmp_path, a deterministic clock, and an audit after
every test of every guild in every file the test opened (``open_store(..., audit=False)`` opts out, for
tests that corrupt a file on purpose or cannot open it)."""

from __future__ import annotations

import sqlite3
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import closing
from pathlib import Path
from typing import Any

import pytest

from bot.store import Store


class FakeClock:
    """A clock that starts at a fixed time and advances one second per reading."""

    def __init__(self, start: float = 1_700_000_000.0) -> None:
        self.now = start

    def __call__(self) -> float:
        self.now += 1.0
        return self.now


OpenStore = Callable[..., Awaitable[Store]]
Snapshot = Callable[[Store], Awaitable[dict[str, list[tuple[Any, ...]]]]]


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
    """Autouse: after the test, reopen every registered file (path -> migrations dir or None) and require a
    clean audit of every guild in it."""
    paths: dict[Path, Any] = {}
    yield paths
    for path, migrations_dir in sorted(paths.items()):
        store = await Store.open(path, migrations_dir=migrations_dir)
        try:
            reports = await store.audit_all()
            bad = [r for r in reports if not r.ok]
            assert not bad, "\n".join(f"{r.summary()}\n  " + "\n  ".join(r.problems) for r in bad)
            for report in reports:
                assert await store.check_ledger_integrity(report.guild_id) == []
            assert await store.connection.execute_fetchall("PRAGMA foreign_key_check") == []
            assert (await store.connection.execute_fetchall("PRAGMA integrity_check"))[0][0] == "ok"
        finally:
            await store.close()


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
    """A fresh store over ``tmp_path/poker.db``."""
    return await open_store()


async def take_snapshot(store: Store) -> dict[str, list[tuple[Any, ...]]]:
    """Every row of every table of the file, sorted: compare before and after a refused operation."""
    conn = store.connection
    names = [r[0] for r in await conn.execute_fetchall(
        "SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name"
    )]
    result: dict[str, list[tuple[Any, ...]]] = {}
    for name in names:
        rows = await conn.execute_fetchall(f'SELECT * FROM "{name}"')
        result[name] = sorted((tuple(r) for r in rows), key=repr)
    result["user_version"] = [tuple(r) for r in await conn.execute_fetchall("PRAGMA user_version")]
    return result


@pytest.fixture
def snapshot() -> Snapshot:
    """``await snapshot(store)``: every row of every table, to compare before and after a refusal."""
    return take_snapshot


def raw_user_version(path: Path) -> int:
    """Read ``PRAGMA user_version`` with the plain sqlite3 module."""
    with closing(sqlite3.connect(path)) as conn:
        return int(conn.execute("PRAGMA user_version").fetchone()[0])


@pytest.fixture
def user_version_of() -> Callable[[Path], int]:
    """``user_version_of(path)``: the file's ``PRAGMA user_version``, read without the store."""
    return raw_user_version
