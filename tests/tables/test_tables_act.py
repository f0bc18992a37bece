"""Acting in a hand: every bad request is refused with a clear error and changes nothing."""

from __future__ import annotations

from typing import Any

import pytest

from bot.poker import IllegalAction
from bot.store import Store
from bot.tables import Table, TableError, Tables

from .conftest import (
    ALICE,
    BOB,
    CAROL,
    CHANNEL,
    DAVE,
    HOST,
    G,
    deal,
    engine_state,
    finish,
    seat_players,
    settings,
    take_snapshot,
)


async def three_handed(tables: Tables, game: str = "five-card-draw") -> Table:
    table = await tables.create(G, CHANNEL, HOST, settings(game))
    await seat_players(table, [ALICE, BOB, CAROL])
    await deal(table)
    return table


class Unchanged:
    """``async with Unchanged(table):`` fails if the store rows or the engine state changed inside."""

    def __init__(self, table: Table) -> None:
        self.table = table

    async def __aenter__(self) -> None:
        self.rows = await take_snapshot(self.table.store)
        self.state = engine_state(self.table.hand)
        self.seq = self.table.next_seq()
        self.actor = self.table.actor()

    async def __aexit__(self, exc_type: Any, *exc: Any) -> None:
        if exc_type is not None:
            return  # the test failed inside: let its own error through
        assert await take_snapshot(self.table.store) == self.rows
        assert engine_state(self.table.hand) == self.state
        assert (self.table.next_seq(), self.table.actor()) == (self.seq, self.actor)


async def test_acting_out_of_turn_is_refused(tables: Tables) -> None:
    table = await three_handed(tables)
    actor = table.actor()
    others = [u for u in (ALICE, BOB, CAROL) if u != actor]
    async with Unchanged(table):
        for user in others:
            for action in ("cc", "f", "cbr 10"):
                with pytest.raises(TableError, match="not your turn"):
                    await table.act(user, action, table.next_seq())
    await finish(table)


async def test_acting_for_another_player_is_refused(tables: Tables) -> None:
    """The engine lets a leaving player be folded out of turn (``p2 f``); a player must not use that."""
    table = await three_handed(tables)
    actor = table.actor()
    assert actor is not None and table.live is not None
    mine = table.engine_seat(actor)
    assert mine is not None
    others = [p for p in range(3) if p != mine]
    async with Unchanged(table):
        for p in others:
            for action in (f"p{p + 1} f", f"p{p + 1} cc", f" p{p + 1}   f ", f"p{p + 1} sm"):
                with pytest.raises(TableError, match="only for yourself"):
                    await table.act(actor, action, table.next_seq())
        with pytest.raises((TableError, IllegalAction)):
            await table.act(actor, "p9 f", table.next_seq())
    await table.act(actor, f"p{mine + 1} cc", table.next_seq())  # naming one's own seat is fine
    assert table.hand is not None and table.hand.actions[-1] == f"p{mine + 1} cc"
    await finish(table)


async def test_a_stale_seq_is_refused(tables: Tables) -> None:
    table = await three_handed(tables)
    await table.act(table.actor(), "cc", 0)  # type: ignore[arg-type]
    actor = table.actor()
    assert actor is not None and table.next_seq() == 1
    async with Unchanged(table):
        for seq in (0, 2, 100, -1):
            with pytest.raises(TableError, match="earlier moment"):
                await table.act(actor, "cc", seq)
    await finish(table)


async def test_a_double_click_is_refused_the_second_time_and_changes_nothing(tables: Tables, store: Store) -> None:
    table = await tables.create(G, CHANNEL, HOST, settings())
    await seat_players(table, [ALICE, BOB])
    await deal(table)
    actor = table.actor()
    assert actor is not None
    seq = table.next_seq()
    await table.act(actor, "cbr 6", seq)
    async with Unchanged(table):
        with pytest.raises(TableError, match="earlier moment"):
            await table.act(actor, "cbr 6", seq)
    # Both clicks at once: the lock serialises them and exactly one goes through.
    other = table.actor()
    assert other is not None and other != actor
    seq = table.next_seq()
    import asyncio

    results = await asyncio.gather(table.act(other, "cc", seq), table.act(other, "cc", seq), return_exceptions=True)
    assert sum(isinstance(r, TableError) for r in results) == 1
    assert table.next_seq() == seq + 1
    assert table.live is not None
    assert len((await store.get_hand(table.live.record.id)).actions) == seq + 1
    await finish(table)


async def test_a_non_player_cannot_act(tables: Tables) -> None:
    table = await three_handed(tables)
    await table.join(DAVE, 100)  # seated, but joined after the deal
    async with Unchanged(table):
        with pytest.raises(TableError, match="You are not in this hand"):
            await table.act(DAVE, "cc", table.next_seq())
        with pytest.raises(TableError, match="You are not seated at this table"):
            await table.act(999, "cc", table.next_seq())
    await finish(table)
    async with Unchanged(table):
        with pytest.raises(TableError, match="No hand is being played"):
            await table.act(ALICE, "cc", 0)


@pytest.mark.parametrize("structure", ["no-limit", "fixed-limit", "pot-limit"])
async def test_illegal_amounts_are_refused(tables: Tables, structure: str) -> None:
    table = await tables.create(G, CHANNEL, HOST, settings(structure=structure))
    await seat_players(table, [ALICE, BOB, CAROL])
    await deal(table)
    actor = table.actor()
    legal = table.legal()
    assert actor is not None and legal is not None and legal.can_raise
    bad: list[Any] = [
        "cbr -5", "cbr 0", "cbr abc", "cbr 2.5", "cbr", "cbr 1e3", f"cbr {10**20}", "cbr 1",
        f"cbr {legal.max_raise_to + 1}", "cbr ４", "", "   ", "xyz", "raise 10", "sd", "sd 2c", "sdu 2c",
        "p1", 5, None, b"cc", ["cc"],
    ]
    if structure == "fixed-limit":
        bad.append(f"cbr {legal.min_raise_to + 1}")
    async with Unchanged(table):
        for action in bad:
            with pytest.raises((IllegalAction, TableError)) as caught:
                await table.act(actor, action, table.next_seq())
            assert str(caught.value), action  # a reason is given
    await table.act(actor, f"cbr {legal.min_raise_to}", table.next_seq())
    await finish(table)


async def test_illegal_draws_are_refused(tables: Tables) -> None:
    table = await three_handed(tables)
    while table.legal() is not None and table.legal().phase != "drawing":  # type: ignore[union-attr]
        await table.act(table.actor(), "cc", table.next_seq())  # type: ignore[arg-type]
    legal = table.legal()
    actor = table.actor()
    assert legal is not None and actor is not None
    held = "".join(c.code for c in legal.hand)
    not_held = next(code for code in ("As", "Kd", "Qh", "Jc", "Ts") if code not in held)
    async with Unchanged(table):
        for action in (f"sd {not_held}", f"sd {held}{not_held}", "sd zz", f"sd {held[:2]}{held[:2]}",
                       f"sdu {held[:2]}", "cc", "cbr 10"):
            with pytest.raises(IllegalAction):
                await table.act(actor, action, table.next_seq())
    await table.act(actor, f"sd {held[:4]}", table.next_seq())  # two cards: fine
    await finish(table)


async def test_an_action_result_reports_the_events_and_the_next_seq(tables: Tables) -> None:
    table = await three_handed(tables)
    actor = table.actor()
    result = await table.act(actor, "f", 0)  # type: ignore[arg-type]
    assert (result.hand_over, result.next_seq) == (False, 1)
    assert [type(e).__name__ for e in result.events] == ["Acted"]
    results = await finish(table)
    assert results[-1].hand_over and not any(r.hand_over for r in results[:-1])
    assert table.next_seq() == 0 and table.actor() is None and table.legal() is None
