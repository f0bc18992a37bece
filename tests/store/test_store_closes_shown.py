"""A closed table keeps its message id until its close is shown (migration 0006): a restarted bot finds the closes
it stored but did not show."""

from __future__ import annotations

import shutil
from pathlib import Path

from bot.store import Store
from bot.store.db import load_migrations

from .conftest import OpenStore

G, ALICE = 5, 101


async def test_a_close_stays_to_be_shown_until_it_is(open_store: OpenStore) -> None:
    store = await open_store()
    table = await store.create_table(G, 1, ALICE, {})
    await store.set_message(table.id, 777)
    assert await store.closes_not_shown() == []  # an open table is not a close
    await store.close_table(table.id)
    [pending] = await store.closes_not_shown()
    assert (pending.id, pending.message_id) == (table.id, 777)
    await store.close_shown(table.id)
    assert await store.closes_not_shown() == []


async def test_tables_closed_before_0006_were_shown_closed(open_store: OpenStore, tmp_path: Path) -> None:
    old = tmp_path / "migrations-0005"
    old.mkdir()
    folder = Path(__file__).parents[2] / "bot/store/migrations"
    for migration in load_migrations()[:5]:
        shutil.copy(folder / f"{migration.version:04d}_{migration.name}.sql", old)
    path = tmp_path / "old.db"
    store = await Store.open(path, migrations_dir=old)
    table = await store.create_table(G, 1, ALICE, {})
    await store.set_message(table.id, 777)
    await store.close_table(table.id)
    await store.close()
    upgraded = await open_store(path)
    assert await upgraded.schema_version() >= 6
    assert await upgraded.closes_not_shown() == []
