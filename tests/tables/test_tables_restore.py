"""Restarts: a live hand continues where its last committed action left it, or is voided when its log
cannot be replayed; a failed write leaves the table as the store has it."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path
from typing import Any

import pytest

from bot.runtime.config import Config
from bot.store import Store, StoreBusy
from bot.store.copying import lift_guards, restore_guards
from bot.tables import Table, TableError, Tables

from .conftest import (
    ALICE,
    BOB,
    CAROL,
    CHANNEL,
    DAVE,
    HOST,
    G,
    OpenStore,
    deal,
    engine_state,
    finish,
    play_hand,
    randomly,
    seat_players,
    settings,
    take_snapshot,
)


class PowerCut(RuntimeError):
    """The injected failure."""


async def advance(table: Table, rng: random.Random, steps: int) -> None:
    """Up to ``steps`` random legal actions (the hand stays live)."""
    policy = randomly(rng)
    for _ in range(steps):
        actor = table.actor()
        if actor is None:
            return
        action = policy(table)
        if action == "f" and table.hand is not None and len(table.hand.in_hand()) == 2:
            action = "cc"  # keep the hand going
        result = await table.act(actor, action, table.next_seq())
        assert not result.hand_over


GAMES: list[tuple[str, dict[str, Any]]] = [
    ("five-card-draw", {}),
    ("five-card-draw", {"structure": "pot-limit", "draw_limit": "3-or-4-with-ace"}),
    ("assassin", {"jokers": True}),
    ("single-draw-a5", {}),
    ("triple-draw-27", {}),
    ("double-draw-a6", {"ante": 1}),
    ("dealers-choice", {}),
]


@pytest.mark.parametrize(("game", "options"), GAMES, ids=[g + "-" + "-".join(o) for g, o in GAMES])
async def test_restore_continues_the_same_hand(open_store: OpenStore, game: str, options: dict[str, Any]) -> None:
    store = await open_store()
    tables = Tables(store, random.Random(game))
    table = await tables.create(G, CHANNEL, HOST, settings(game, **options))
    await seat_players(table, [ALICE, BOB, CAROL, DAVE], 100)
    rng = random.Random(1)
    await play_hand(table, randomly(rng), game="triple-draw-a5" if game == "dealers-choice" else None)
    await deal(table, "assassin")
    await advance(table, rng, 7)
    assert table.live is not None
    state, actor, seq, legal = engine_state(table.hand), table.actor(), table.next_seq(), table.legal()
    users, button, hand_id = table.live.users, table.record.button, table.live.record.id
    await store.close()  # the bot stops mid-hand

    store = await open_store()
    tables = Tables(store, random.Random(99))
    [again] = await tables.restore()
    assert tables.require(CHANNEL) is again and again.live is not None
    assert again.live.record.id == hand_id and again.live.record.status == "live"
    assert engine_state(again.hand) == state  # the same actions, cards, stacks and deck
    assert (again.actor(), again.next_seq(), again.legal(), again.live.users) == (actor, seq, legal, users)
    assert again.record.button == button and again.settings == table.settings and again.choice == table.choice
    if seq:  # a click from before the restart is refused as stale
        with pytest.raises(TableError, match="earlier moment"):
            await again.act(actor, "cc", seq - 1)  # type: ignore[arg-type]
    await finish(again, randomly(rng))
    done = await store.get_hand(hand_id)
    assert done.status == "complete" and list(done.actions[:len(state[0])]) == list(state[0])
    await play_hand(again, randomly(rng))


async def test_restore_many_tables_in_many_guilds(open_store: OpenStore) -> None:
    store = await open_store()
    tables = Tables(store, random.Random(4))
    rng = random.Random(5)
    expected: dict[int, tuple[Any, ...]] = {}
    for n, game in enumerate(["assassin", "dealers-choice", "triple-draw-27", "single-draw-27"]):
        table = await tables.create(G + n % 2, CHANNEL + n, HOST, settings(game))
        await seat_players(table, [ALICE, BOB, CAROL][: 2 + n % 2], 100)
        if n != 3:  # the last table waits between hands
            await deal(table)
            await advance(table, rng, n + 1)
        expected[CHANNEL + n] = engine_state(table.hand)
    await store.close()
    store = await open_store()
    tables = Tables(store)
    restored = await tables.restore()
    assert [t.record.channel_id for t in restored] == list(expected)
    assert {c: engine_state(t.hand) for c, t in tables.by_channel.items()} == expected
    assert tables.require(CHANNEL + 3).hand is None


async def test_a_sharded_process_restores_only_the_tables_of_its_own_shards(open_store: OpenStore) -> None:
    """With SHARD_COUNT=2 and SHARD_IDS=1 a process deals only in the guilds of shard 1; shard 0's process the
    others. Each guild's shard is (guild_id >> 22) % 2, as Discord routes its events."""
    store = await open_store()
    tables = Tables(store, random.Random(4))
    guilds = [(7 << 22) + 5, (8 << 22) + 5, (9 << 22) + 5]  # shards 1, 0, 1
    for n, guild in enumerate(guilds):
        table = await tables.create(guild, CHANNEL + n, HOST, settings("five-card-draw"))
        await seat_players(table, [ALICE, BOB], 100)
        await deal(table)
    await store.close()
    store = await open_store()
    one = await Tables(store).restore(Config(shard_count=2, shard_ids=(1,)).runs_guild)
    zero = await Tables(store).restore(Config(shard_count=2, shard_ids=(0,)).runs_guild)
    everything = await Tables(store).restore(Config(shard_count=2).runs_guild)  # one process, both shards
    assert [t.record.guild_id for t in one] == [guilds[0], guilds[2]]
    assert [t.record.guild_id for t in zero] == [guilds[1]]
    assert [t.record.guild_id for t in everything] == guilds
    assert all(t.live is not None for t in one + zero)


async def test_restore_sets_the_button_of_a_hand_dealt_just_before_a_crash(open_store: OpenStore) -> None:
    store = await open_store()
    tables = Tables(store, random.Random(4))
    table = await tables.create(G, CHANNEL, HOST, settings())
    await seat_players(table, [ALICE, BOB, CAROL], 100)
    await play_hand(table)
    await deal(table)
    assert table.record.button == 1
    await store.set_button(table.id, 3)  # as if the bot died between recording the hand and moving the button
    await store.close()
    store = await open_store()
    [again] = await Tables(store).restore()
    assert again.record.button == 1 and (await store.get_table_by_id(table.id)).button == 1
    await finish(again)
    assert again.next_button() == 2


async def corrupt(store: Store, sql: str, params: tuple[Any, ...] = ()) -> None:
    """Change the bank behind the table layer's back (the append-only guards lifted meanwhile), in one
    transaction of the store's connection."""
    conn = store.db
    await conn.begin_write(None, "")
    lifted = await lift_guards(conn, ["hand_actions"])
    await conn.execute(sql, params)
    await restore_guards(conn, lifted)
    await conn.commit()


CORRUPTIONS: dict[str, tuple[str, str]] = {
    "illegal raise": ("UPDATE hand_actions SET action = 'cbr 99999' WHERE hand_id = :h AND seq = 1", "largest"),
    "not an action": ("UPDATE hand_actions SET action = 'dance' WHERE hand_id = :h AND seq = 0", "not an action"),
    "out of turn": ("UPDATE hand_actions SET action = 'p4 sd' WHERE hand_id = :h AND seq = 2", ""),
    "a log that ends the hand": (
        "INSERT INTO hand_actions (hand_id, seq, action, created_at) SELECT :h, 3, 'f', 0 UNION ALL"
        " SELECT :h, 4, 'f', 0", "not recorded as finished"),
    "unknown game": ("UPDATE hands SET game = 'chess' WHERE id = :h", "unknown game"),
    "no stakes": ("UPDATE hands SET settings = '{}' WHERE id = :h", "stakes"),
    "a stack of zero": ("UPDATE hands SET stacks_before = '[0, 100, 100]' WHERE id = :h", "starting stack"),
}


@pytest.mark.parametrize("kind", list(CORRUPTIONS))
async def test_a_corrupted_action_log_voids_the_hand_with_every_chip_back(
    open_store: OpenStore, db_path: Path, kind: str
) -> None:
    store = await open_store()
    tables = Tables(store, random.Random(4))
    table = await tables.create(G, CHANNEL, HOST, settings())
    await seat_players(table, [ALICE, BOB, CAROL], 100)
    await play_hand(table, randomly(random.Random(2)))
    stacks = {s.user_id: s.stack for s in table.record.seats}
    await deal(table)
    for action in ("cbr 10", "cc", "cc"):  # everyone puts 10 in
        await table.act(table.actor(), action, table.next_seq())  # type: ignore[arg-type]
    assert table.live is not None and sum(table.live.hand.contributed) == 30
    hand_id = table.live.record.id
    await store.close()
    sql, reason = CORRUPTIONS[kind]
    store = await open_store()
    await corrupt(store, sql.replace(":h", str(hand_id)))
    [again] = await Tables(store).restore()
    assert again.live is None
    void = await store.get_hand(hand_id)
    assert void.status == "void" and void.void_reason is not None
    assert void.void_reason.startswith("could not be rebuilt") and reason in void.void_reason
    assert {s.user_id: s.stack for s in again.record.seats} == stacks  # every chip back on its seat
    await play_hand(again)  # the table deals on


async def test_a_leaver_in_a_voided_hand_is_cashed_out(open_store: OpenStore, db_path: Path) -> None:
    store = await open_store()
    table = await Tables(store, random.Random(4)).create(G, CHANNEL, HOST, settings())
    await seat_players(table, [ALICE, BOB, CAROL], 100)
    await deal(table)
    await table.act(table.actor(), "cbr 10", 0)  # type: ignore[arg-type]
    await table.leave(ALICE)  # folded; to be cashed out when the hand ends
    assert table.live is not None
    hand_id = table.live.record.id
    await store.close()
    store = await open_store()
    await corrupt(store, "UPDATE hand_actions SET action = 'cbr 1' WHERE hand_id = ? AND seq = 0", (hand_id,))
    [again] = await Tables(store).restore()
    assert (await store.get_hand(hand_id)).status == "void"
    assert again.seat_of(ALICE) is None and await store.balance(G, ALICE) == 1000
    assert [s.user_id for s in again.record.seats] == [BOB, CAROL]
    await play_hand(again)


async def test_a_failed_write_leaves_the_hand_as_the_store_has_it(
    tables: Tables, store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    table = await tables.create(G, CHANNEL, HOST, settings())
    await seat_players(table, [ALICE, BOB, CAROL], 100)
    await deal(table)
    await table.act(table.actor(), "cc", 0)  # type: ignore[arg-type]
    actor, rows, state = table.actor(), await take_snapshot(store), engine_state(table.hand)
    for failure in (StoreBusy("busy"), PowerCut("the disk went away"), OSError("I/O error")):

        async def fail(*args: Any, error: BaseException = failure, **kwargs: Any) -> Any:
            raise error

        monkeypatch.setattr(store, "append_action", fail)
        with pytest.raises(type(failure)):
            await table.act(actor, "cbr 10", 1)  # type: ignore[arg-type]
        assert engine_state(table.hand) == state and table.next_seq() == 1 and table.actor() == actor
        assert await take_snapshot(store) == rows
    monkeypatch.undo()
    await table.act(actor, "cbr 10", 1)  # type: ignore[arg-type]
    assert table.next_seq() == 2


async def test_a_failed_result_leaves_the_hand_live(
    tables: Tables, store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    table = await tables.create(G, CHANNEL, HOST, settings())
    await seat_players(table, [ALICE, BOB], 100)
    await deal(table)
    actor = table.actor()
    assert actor is not None and table.live is not None
    rows, state = await take_snapshot(store), engine_state(table.hand)

    async def fail(*args: Any, **kwargs: Any) -> Any:
        raise PowerCut("while writing the result")

    monkeypatch.setattr(store, "finish_hand", fail)
    with pytest.raises(PowerCut):
        await table.act(actor, "f", 0)  # the fold would end the hand
    assert engine_state(table.hand) == state and table.actor() == actor
    assert await take_snapshot(store) == rows
    monkeypatch.undo()
    result = await table.act(actor, "f", 0)
    assert result.hand_over and table.hand is None


async def test_a_cancelled_action_leaves_the_hand_as_the_store_has_it(
    tables: Tables, store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    table = await tables.create(G, CHANNEL, HOST, settings())
    await seat_players(table, [ALICE, BOB, CAROL], 100)
    await deal(table)
    actor = table.actor()
    state = engine_state(table.hand)
    started = asyncio.Event()

    async def slow(*args: Any, **kwargs: Any) -> None:
        started.set()
        await asyncio.sleep(10)

    monkeypatch.setattr(store, "append_action", slow)
    task = asyncio.ensure_future(table.act(actor, "cc", 0))  # type: ignore[arg-type]
    await started.wait()
    task.cancel()  # e.g. the interaction that carried the click timed out
    with pytest.raises(asyncio.CancelledError):
        await task
    monkeypatch.undo()
    assert engine_state(table.hand) == state and table.next_seq() == 0
    await finish(table)


async def test_a_deal_interrupted_after_it_was_recorded_is_picked_up_by_the_next_request(
    tables: Tables, store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    table = await tables.create(G, CHANNEL, HOST, settings())
    await seat_players(table, [ALICE, BOB, CAROL], 100)
    real_start = store.start_hand

    async def recorded_then_cut(*args: Any, **kwargs: Any) -> Any:
        await real_start(*args, **kwargs)
        raise PowerCut("after the commit, before the answer")  # as a cancellation during COMMIT would

    monkeypatch.setattr(store, "start_hand", recorded_then_cut)
    with pytest.raises(PowerCut):
        await table.start_hand()
    monkeypatch.undo()
    assert (await store.live_hand(table.id)) is not None
    with pytest.raises(TableError, match="already being played"):  # the table read the store again first
        await table.start_hand()
    assert table.live is not None and table.record.button == 3 and table.actor() == CAROL
    await finish(table)

    async def cut(*args: Any, **kwargs: Any) -> Any:
        raise PowerCut("before the deal's commit")

    # The hand and the moved button are one transaction: a deal cut before its commit leaves neither.
    monkeypatch.setattr(store, "start_hand", cut)
    with pytest.raises(PowerCut):
        await table.start_hand()
    monkeypatch.undo()
    assert (await store.live_hand(table.id)) is None and (await store.get_table_by_id(table.id)).button == 3
    await table.start_hand()
    assert table.record.button == 1 and (await store.get_table_by_id(table.id)).button == 1
    await finish(table)


async def test_a_settings_write_that_fails_leaves_the_settings_the_store_has(
    tables: Tables, store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    table = await tables.create(G, CHANNEL, HOST, settings("dealers-choice"))
    await seat_players(table, [ALICE, BOB], 100)
    real = store.update_settings

    async def cut(*args: Any, **kwargs: Any) -> Any:
        raise asyncio.CancelledError

    monkeypatch.setattr(store, "update_settings", cut)
    with pytest.raises(asyncio.CancelledError):
        await table.update_settings(clock=30)
    monkeypatch.setattr(store, "update_settings", real)
    # The dealer's choice is written with the deal, in its transaction: a deal cut before the commit leaves no
    # hand and no remembered choice.
    real_start = store.start_hand
    monkeypatch.setattr(store, "start_hand", cut)
    with pytest.raises(asyncio.CancelledError):
        await table.choose_game(BOB, "assassin")
    monkeypatch.setattr(store, "start_hand", real_start)
    with pytest.raises(TableError):
        await table.act(BOB, "cc", 0)  # the table reads the store again first: no hand
    assert table.settings.clock == 60 and table.choice.last_game is None  # as the store has them
    assert (await store.live_hand(table.id)) is None
    await table.choose_game(BOB, "assassin")
    stored = await store.get_table_by_id(table.id)
    assert table.choice.last_game == "assassin" and stored.settings["_choice"]["last_game"] == "assassin"
    await table.act(table.actor(), "cc", 0)  # type: ignore[arg-type]
    await finish(table)


async def test_a_failing_hand_history_does_not_cost_the_result(
    tables: Tables, store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    import bot.tables.table

    def broken(*args: Any, **kwargs: Any) -> str:
        raise PowerCut("the PHH writer has a bug")

    monkeypatch.setattr(bot.tables.table, "export_phh", broken)
    table = await tables.create(G, CHANNEL, HOST, settings())
    await seat_players(table, [ALICE, BOB], 100)
    await deal(table)
    assert table.live is not None
    hand_id = table.live.record.id
    result = await table.act(table.actor(), "f", 0)  # type: ignore[arg-type]
    assert result.hand_over
    done = await store.get_hand(hand_id)
    assert (done.status, done.phh) == ("complete", None)
