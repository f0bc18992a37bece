"""A table's language (what everyone at it reads): set by the host at any time, even during a hand, kept across a
restart, refused when the bot does not speak it."""

from __future__ import annotations

import pytest

from bot.store import Store
from bot.tables import TableError, Tables

from .conftest import deal, seat_players, settings


async def test_the_language_changes_during_a_hand_and_survives_a_restart(store: Store, tables: Tables) -> None:
    table = await tables.create(1, 100, 7, settings())
    assert table.settings.language is None  # the server's
    await seat_players(table, [11, 12])
    await deal(table)
    assert table.live is not None
    await table.set_language("de")
    assert table.settings.language == "de"
    [restored] = await Tables(store).restore()
    assert restored.settings.language == "de"
    assert restored.live is not None  # the hand goes on
    await restored.set_language(None)
    [again] = await Tables(store).restore()
    assert again.settings.language is None


async def test_a_language_the_bot_does_not_speak_is_refused_and_changes_nothing(store: Store, tables: Tables) -> None:
    table = await tables.create(1, 100, 7, settings(language="fr"))
    with pytest.raises(TableError) as refused:
        await table.set_language("klingon")
    assert str(refused.value) == "The table's language is one of: en, de, fr, es, pt_BR."
    [restored] = await Tables(store).restore()
    assert restored.settings.language == "fr"
