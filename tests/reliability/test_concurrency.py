"""Concurrency: 20 tables of 6 players, and at every turn all six players of every table press at the same moment
(the player to act twice). Exactly the legal actions are applied, in order: one per table per turn, by the player
to act; every other press is refused. Every table's state, in memory and in the store, matches a replay of its
action log from the hand's seed."""

from __future__ import annotations

import asyncio
import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from bot.poker import Hand
from bot.tables import stored_hand
from tests.e2e.conftest_bot import PokerBotStarter
from tests.e2e.fakediscord import FakeConfig, FakeDiscord, InteractionRecord, UserSpec
from tests.e2e.players import Players, Turn

from .conftest import Figures
from .helpers import assert_acknowledged_in_time, chips_lost

pytestmark = pytest.mark.e2e

TABLES = 20
SEATS = 6
SENT: list[float] = []  # per batch: seconds to write the whole burst of presses to the bot's connection


def seat_names(table: int) -> list[str]:
    return [f"p{table:02d}{seat}" for seat in range(SEATS)]


@pytest.fixture
def fake_config() -> FakeConfig:
    users = [UserSpec("owner")] + [UserSpec(name) for t in range(TABLES) for name in seat_names(t)]
    return FakeConfig(channels=tuple(f"table-{t:02d}" for t in range(TABLES)), users=tuple(users))


def replay(db: Path, hand_id: int) -> tuple[Hand, dict[str, Any]]:
    con = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    con.row_factory = sqlite3.Row
    try:
        row = con.execute("SELECT * FROM hands WHERE id = ?", (hand_id,)).fetchone()
        actions = [(r["seq"], r["action"]) for r in con.execute(
            "SELECT seq, action FROM hand_actions WHERE hand_id = ? ORDER BY seq", (hand_id,))]
    finally:
        con.close()
    assert [seq for seq, _ in actions] == list(range(len(actions)))  # in order, no gap, no repeat
    hand = stored_hand(row["game"], json.loads(row["settings"]), json.loads(row["stacks_before"]), row["seed"],
                       row["carried_in"])
    for _, action in actions:
        hand.act(action)
    return hand, dict(row)


async def press_together(fake: FakeDiscord, presses: list[tuple[str, Any, str]]) -> list[InteractionRecord]:
    """Everyone presses at once (the interactions go out back to back, before the bot answers any), then the
    answers are collected."""
    loop = asyncio.get_running_loop()
    async with fake.together():
        ids = [await fake.click(user, message, custom_id) for user, message, custom_id in presses]
        queued = loop.time()
    SENT.append(loop.time() - queued)  # the burst: every press written to the bot's connection, back to back
    assert SENT[-1] < 0.1, f"the burst took {SENT[-1] * 1000:.0f} ms to write"
    return [await fake.reply_to(iid, timeout=10) for iid in ids]


async def test_twenty_tables_of_six_pressing_at_once(
    fake: FakeDiscord, poker_bot: PokerBotStarter, figures: Figures
) -> None:
    await poker_bot(seed=401)
    tables = [Players(fake, poker_bot, f"table-{t:02d}") for t in range(TABLES)]
    await asyncio.gather(*(p.open_table(seat_names(t)[0], seat_names(t), game="five-card-draw")
                           for t, p in enumerate(tables)))
    await asyncio.gather(*(p.turn(1, timeout=10) for p in tables))  # every first hand is dealt
    expected: dict[int, list[str]] = {p.table.id: [] for p in tables}  # the log each table must end with
    presses = refusals = rounds = 0
    while True:
        turns: list[tuple[Players, Turn]] = []
        for p in tables:
            live = p.table.live
            if live is not None and live.record.number == 1:
                turns.append((p, await p.turn(1, timeout=10)))
        if not turns:
            break
        rounds += 1
        batch: list[tuple[str, Any, str]] = []
        owners: list[tuple[Players, Turn, str]] = []
        for p, turn in turns:
            kind = "pat" if turn.legal.phase == "drawing" else "cc"
            custom_id = p.button_id(turn, kind)
            for name in [*seat_names(tables.index(p)), turn.name]:  # the player to act presses twice
                batch.append((name, turn.message, custom_id))
                owners.append((p, turn, name))
        answers = await press_together(fake, batch)
        presses += len(batch)
        for p in {id(p): p for p, _, _ in owners}.values():
            mine = [(turn, name, answer) for (q, turn, name), answer in zip(owners, answers) if q is p]
            turn = mine[0][0]
            applied = [a for _, name, a in mine if a.response_type in (6, 7)]
            refused = [(name, a) for _, name, a in mine if a.response_type == 4]
            refusals += len(refused)
            assert all(a.ephemeral for _, a in refused)
            # (what each refusal said when sent: a private message is edited to the player's new cards at the next
            # deal, which a busy machine may reach before these lines)
            texts = {a.original.history[0]["content"] if a.original else "" for _, a in refused}
            # One of his two presses acts; the second is from an earlier moment; the others are not in turn.
            assert len(applied) == 1 and len(refused) == SEATS, texts
            assert texts <= {"It is not your turn.",
                             "That button is from an earlier moment of the hand; use the current one."}, texts
            move = "sd" if turn.legal.phase == "drawing" else "cc"  # Stand pat, or Check/Call
            expected[p.table.id].append(f"p{turn.legal.player + 1} {move}")
        for p, turn in turns:  # exactly one action per table, by the player to act
            live = p.table.live
            if live is not None and live.record.number == 1:
                assert live.seq == turn.seq + 1, (p.channel, live.seq, turn.seq)
    assert rounds >= 18

    db = poker_bot.db_path
    for p in tables:
        table = p.table
        [first] = [h for h in await p.bot.store.recent_hands(table.id, 5) if h.number == 1]
        hand, row = replay(db, first.id)
        log = list(first.actions)
        assert [a.split(" ", 1)[0] + " " + a.split(" ", 1)[1].split()[0] for a in log] == expected[table.id], log
        assert hand.is_complete and row["status"] == "complete"
        assert json.loads(row["stacks_after"]) == list(hand.stacks)
        # The next hand, live in memory, is the replay of its own log (dealt a moment after the first ended: the
        # test waits for it rather than race it).
        live = await fake.wait_for(lambda table=table: table.live, 10, what="the next hand dealt")
        again, _ = replay(db, live.record.id)
        assert list(again.stacks) == list(live.hand.stacks) and list(again.actions) == list(live.hand.actions)
        assert [c.code for cards in again.holes for c in cards] == [c.code for cards in live.hand.holes for c in cards]
        # And the seats hold what the finished hand left (the new hand's blinds are still on the seats).
        stacks = {s.user_id: s.stack for s in table.record.seats}
        assert [stacks[u] for u in first.seat_users] == json.loads(row["stacks_after"])
    slowest = assert_acknowledged_in_time(fake)
    figures["simultaneous presses"] += presses
    figures["presses refused (not in turn or stale)"] += refusals
    figures["tables replayed from their logs"] += TABLES
    figures["chips lost"] += await chips_lost(db, fake.guild_id)
    median = sorted(SENT)[len(SENT) // 2]
    print(f"slowest acknowledgement: {slowest:.3f}s over {len(fake.interactions)} interactions; each burst of "
          f"{TABLES * (SEATS + 1)} presses written in {median * 1000:.1f} ms (at most {max(SENT) * 1000:.1f} ms)")
