"""The PostgreSQL server of the tests: a fresh database per test, copied from a template that holds the bank's
schema (the migrations run once per server and version of the migrations, not once per test).

``POKER_TEST_PG`` names the server (a URL of its ``postgres`` database): ``make test`` and ``.ci/run`` start a
throwaway one (``python -m pokerdev.pgserver run``). Without it the PostgreSQL tests are skipped with the reason,
except in CI (``CI=true``), where they must run: a missing server fails them.
"""

from __future__ import annotations

import hashlib
import itertools
import os
from importlib import resources

import pytest

from bot.store import Store

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
