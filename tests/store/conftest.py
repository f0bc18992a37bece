"""Fixtures for the store tests, beside the shared ones of ``tests/conftest.py`` (the store over a real file, the
clock, the audit after every test): snapshots of every row, and the file's user_version read directly."""

from __future__ import annotations

import sqlite3
from collections.abc import Awaitable, Callable
from contextlib import closing
from pathlib import Path
from typing import Any

import pytest

from bot.store import Store

from ..conftest import FakeClock as FakeClock  # re-exported for the tests of this folder
from ..conftest import OpenStore as OpenStore

Snapshot = Callable[[Store], Awaitable[dict[str, list[tuple[Any, ...]]]]]


async def take_snapshot(store: Store) -> dict[str, list[tuple[Any, ...]]]:
    """Every row of every table of the bank, sorted, and its schema version: compare before and after a refused
    operation (either engine)."""
    conn = store.db
    result: dict[str, list[tuple[Any, ...]]] = {}
    for name in await conn.table_names():
        rows = await conn.fetch(f'SELECT * FROM "{name}"')
        result[name] = sorted((tuple(r) for r in rows), key=repr)
    result["schema version"] = [(await store.schema_version(),)]
    return result


def refused_by_schema(store: Store) -> type[Exception]:
    """The error of a write the schema itself refuses (a CHECK, a guard trigger), on the store's engine."""
    if store.engine == "sqlite":
        return sqlite3.IntegrityError
    import asyncpg

    return asyncpg.PostgresError


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
