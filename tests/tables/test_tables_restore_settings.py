"""A table whose stored settings this version cannot read does not stop the other tables from loading."""

from __future__ import annotations

import logging

import pytest

from bot.store import Store
from bot.tables import Tables

from .conftest import seat_players, settings


async def test_restore_skips_a_table_with_unreadable_settings_and_loads_the_others(
    store: Store, tables: Tables, caplog: pytest.LogCaptureFixture
) -> None:
    broken = await tables.create(1, 100, 7, settings())
    good = await tables.create(1, 200, 7, settings("triple-draw-27"))
    await seat_players(good, [11, 12, 13])
    # A later version wrote a game this one does not know.
    await store.update_settings(broken.id, {**broken.settings.to_json(), "game": "chess"})

    with caplog.at_level(logging.ERROR, logger="bot.tables"):
        restored = await Tables(store).restore()

    assert [t.id for t in restored] == [good.id]
    assert [s.user_id for s in restored[0].record.seats] == [11, 12, 13]
    assert any("could not be loaded" in r.getMessage() for r in caplog.records)
    # The broken table is still open in the store, untouched, for a newer version to load.
    stored = [(t.channel_id, t.settings["game"]) for t in await store.list_open_tables(1)]
    assert stored == [(100, "chess"), (200, "triple-draw-27")]
