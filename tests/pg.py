"""The PostgreSQL server of the tests: an empty bank per test, from databases that hold the bank's schema, copied
from a template (the migrations run once per server and version of the migrations, not once per test). A copy takes
most of a second, so each worker keeps its databases and empties them (TRUNCATE) for the next test; a test that
migrates a database itself gets a new, empty one.

``POKER_TEST_PG`` names the server (a URL of its ``postgres`` database): ``make test`` and ``.ci/run`` start a
throwaway one (``python -m pokerdev.pgserver run``). Without it the PostgreSQL tests are skipped with the reason,
except in CI (``CI=true``), where they must run: a missing server fails them.
"""

from __future__ import annotations

import asyncio
import hashlib
import itertools
import os
import sqlite3
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from importlib import resources
from pathlib import Path
from typing import Any

import pytest

from bot.store import Store
from bot.store.dialect import postgres_args

VARIABLE = "POKER_TEST_PG"
TEMPLATE_LOCK = 0x74706C  # an advisory lock: one worker builds the template, the others wait for it
_numbers = itertools.count()


def server_url() -> str:
    """The server's URL, or skip (fail in CI) when there is none."""
    url = os.environ.get(VARIABLE, "").strip()
    if url:
        return url
    reason = (f"no PostgreSQL server for the tests: {VARIABLE} is not set (make test starts one: python -m "
              "pokerdev.pgserver run -- python -m pytest ...)")
    if os.environ.get("CI", "").lower() in ("1", "true", "yes"):
        pytest.fail(f"{reason}; CI runs the PostgreSQL tests", pytrace=False)
    pytest.skip(reason)


def _with_database(url: str, name: str) -> str:
    return f"{url.rsplit('/', 1)[0]}/{name}"


def _migrations_digest() -> str:
    folder = resources.files("bot.store") / "migrations"
    digest = hashlib.sha256()
    for entry in sorted(folder.iterdir(), key=lambda e: e.name):
        if entry.name.endswith(".sql"):
            digest.update(entry.name.encode() + entry.read_bytes())
    return digest.hexdigest()[:12]


async def _template(url: str) -> str:
    """The template database of this version of the migrations, made once per server."""
    import asyncpg

    name = f"poker_template_{_migrations_digest()}"
    conn = await asyncpg.connect(url)
    try:
        await conn.execute(f"SELECT pg_advisory_lock({TEMPLATE_LOCK})")
        try:
            if not await conn.fetchval("SELECT 1 FROM pg_database WHERE datname = $1", name):
                building = f"{name}_building_{os.getpid()}"
                await conn.execute(f'DROP DATABASE IF EXISTS "{building}"')
                await conn.execute(f'CREATE DATABASE "{building}" TEMPLATE template0')
                store = await Store.open(_with_database(url, building))
                await store.close()
                await conn.execute(f'ALTER DATABASE "{building}" RENAME TO "{name}"')
        finally:
            await conn.execute(f"SELECT pg_advisory_unlock({TEMPLATE_LOCK})")
    finally:
        await conn.close()
    return name


_pool: list[str] = []  # this worker's databases with the schema, handed out again (emptied) to the next test
_emptying: dict[str, str] = {}  # database URL -> the statements that empty it
EMPTY_WITHIN = 5.0  # seconds an emptying waits for a lock (a connection a test left open); then a new database


async def _emptying_script(conn: Any) -> str:
    """Delete every row (the guards' triggers off: replica mode) and number ids from 1 again, as in a new bank."""
    tables = [r[0] for r in await conn.fetch(
        "SELECT tablename FROM pg_tables WHERE schemaname = current_schema()"
        " AND tablename NOT IN ('poker_schema', 'ledger_kinds') ORDER BY 1")]
    numbered = [r[0] for r in await conn.fetch(
        "SELECT table_name FROM information_schema.columns WHERE table_schema = current_schema()"
        " AND column_name = 'id' AND is_identity = 'YES' ORDER BY 1")]
    deletes = "; ".join(f'DELETE FROM "{t}"' for t in tables)
    restarts = ", ".join(f"setval(pg_get_serial_sequence('{t}', 'id'), 1, false)" for t in numbered)
    return (f"SET lock_timeout = {int(EMPTY_WITHIN * 1000)}; SET session_replication_role = replica; {deletes};"
            f" SELECT {restarts or '1'}")


async def pooled_database(index: int) -> str:
    """The ``index``-th database of the bank's schema for the test (0: its first), empty."""
    import asyncpg

    if len(_pool) <= index:
        _pool.append(await new_database())
        return _pool[-1]
    url = _pool[index]
    conn = await asyncpg.connect(url)
    try:
        if url not in _emptying:
            _emptying[url] = await _emptying_script(conn)
        await conn.execute(_emptying[url])
    except asyncpg.LockNotAvailableError:  # still in use by something a test left behind: a new one
        _pool[index] = await new_database()
    finally:
        await conn.close()
    return _pool[index]


async def new_database(*, empty: bool = False) -> str:
    """A new database on the test server, with the bank's schema (``empty``: none); its URL."""
    import asyncpg

    url = server_url()
    template = "template0" if empty else await _template(url)
    worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
    name = f"t_{worker}_{os.getpid()}_{next(_numbers)}"
    conn = await asyncpg.connect(url)
    try:
        await conn.execute(f'DROP DATABASE IF EXISTS "{name}"')
        await conn.execute(f'CREATE DATABASE "{name}" TEMPLATE "{template}"')
    finally:
        await conn.close()
    return _with_database(url, name)


async def drop_database(url: str) -> None:
    """Remove a test's database (its connections ended first)."""
    import asyncpg

    name = url.rsplit("/", 1)[1]
    conn = await asyncpg.connect(server_url())
    try:
        await conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    finally:
        await conn.close()


def query(bank: Path | str, sql: str, *args: Any) -> list[tuple[Any, ...]]:
    """The rows of a query on a bank, read from a test while a bot may run: an SQLite file (read-only), or a
    PostgreSQL URL (the store's SQL: ``?`` parameters, rewritten by ``bot.store.dialect``)."""
    if isinstance(bank, str):
        with ThreadPoolExecutor(1) as pool:  # the caller may be inside an event loop: asyncpg runs in a thread
            return pool.submit(asyncio.run, _pg_query(bank, sql, args)).result()
    con = sqlite3.connect(f"file:{bank}?mode=ro", uri=True, timeout=5)
    try:
        return [tuple(row) for row in con.execute(sql, args)]
    finally:
        con.close()


async def _pg_query(url: str, sql: str, args: Sequence[Any]) -> list[tuple[Any, ...]]:
    import asyncpg

    text, values = postgres_args(sql, args)
    conn = await asyncpg.connect(url)
    try:
        return [tuple(row) for row in await conn.fetch(text, *values)]
    finally:
        await conn.close()
