"""Crashes: the bot process is SIGKILLed at random moments while players play two tables through the fake Discord,
then started again on the same database. Every interrupted hand goes on from where it stood (none is voided), the
table message and its buttons work again after every start, the audit passes and no chip is lost. A SIGTERM stops
the bot cleanly: it exits at once with code 0, nothing it acknowledged is lost, and a new start carries on."""

from __future__ import annotations

import asyncio
import contextlib
import random
from collections.abc import Iterable
from pathlib import Path

import pytest

from tests.e2e.conftest_bot import MessageLog, leaked_cards, played_hands
from tests.e2e.fakediscord import FakeDiscord

from .conftest import Figures
from .helpers import chips_lost
from .remote import ACTION, BotProcess, RemotePlayers, hand_status, live_hands, progress, query

pytestmark = pytest.mark.e2e

KILLS = 32
TABLES = {"poker": ("alice", "bob", "carol"), "poker-2": ("dave", "erin", "frank")}


async def open_tables(fake: FakeDiscord) -> None:
    for channel, (host, *_) in TABLES.items():
        names = TABLES[channel]
        created = await fake.reply_to(await fake.slash(
            host, "poker", subcommand="create", channel=channel,
            options={"game": "five-card-draw", "small_blind": 5, "big_blind": 10}))
        assert created.content.startswith("Table open"), created.content
        for name in names:
            joined = await fake.reply_to(await fake.slash(name, "poker", subcommand="join", channel=channel))
            assert joined.content.startswith("You sit in seat"), joined.content
        started = await fake.reply_to(await fake.slash(host, "poker", group="table", subcommand="start",
                                                       channel=channel))
        assert started.content == "Shuffle up and deal!"


async def keep_playing(players: RemotePlayers, stop: asyncio.Event) -> None:
    while not stop.is_set():
        if not await players.step():
            await asyncio.sleep(0.03)


async def tables_move(fake: FakeDiscord, db: Path, table_ids: Iterable[int]) -> None:
    """Wait until every table moves (an action, or a new hand)."""
    before = progress(db)
    await fake.wait_for(lambda: all(progress(db).get(t, 0) > before.get(t, 0) for t in table_ids), 20,
                        what="every table to move", poll=0.05)


def shown_moment(players: RemotePlayers) -> tuple[int, int] | None:
    """(hand id, action number) that the table message's buttons carry."""
    turn = players.turn()
    return (turn.hand_id, turn.seq) if turn is not None else None


def stored_moment(db: Path, table_id: int) -> tuple[int, int] | None:
    live = live_hands(db).get(table_id)
    return (live.hand_id, live.actions) if live is not None else None


async def test_sigkill_at_random_moments(
    fake: FakeDiscord, tmp_path: Path, figures: Figures, monkeypatch: pytest.MonkeyPatch
) -> None:
    db = tmp_path / "poker.db"
    log = MessageLog(fake, monkeypatch)  # every version of every channel message, for the hole-card check
    bot = BotProcess(fake, db, tmp_path, seed=11)
    rng = random.Random(20261129)
    await bot.start()
    await open_tables(fake)
    tables = dict(query(db, "SELECT channel_id, id FROM tables"))
    players = [RemotePlayers(fake, channel, names, random.Random(rng.random())) for channel, names in TABLES.items()]
    stop = asyncio.Event()
    playing = [asyncio.create_task(keep_playing(p, stop)) for p in players]
    interrupted: list[tuple[int, int]] = []  # (hand id, actions it had) at each kill
    try:
        for _ in range(KILLS):
            # The tables move again after the (re)start: the table message and its buttons work.
            await tables_move(fake, db, tables.values())
            await asyncio.sleep(rng.uniform(0.0, 0.35))  # then a random moment
            await bot.kill()
            interrupted += [(h.hand_id, h.actions) for h in live_hands(db).values()]
            await bot.start()
        await tables_move(fake, db, tables.values())
    finally:
        stop.set()
        for task in playing:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task

    # After the last start, with nobody clicking: each table message shows the moment the store holds.
    await fake.quiet(0.3)
    for p in players:
        table_id = tables[fake.channel(p.channel).id]
        await fake.wait_for(lambda p=p, t=table_id: shown_moment(p) == stored_moment(db, t), 10,
                            what=f"#{p.channel}'s message to show the stored moment")
    code = await bot.terminate()
    assert code == 0

    # Every interrupted hand went on from where it stood: finished, or live with at least the same actions.
    for hand_id, actions in interrupted:
        status, count = hand_status(db, hand_id)
        assert status in ("complete", "live") and count >= actions, (hand_id, status, count, actions)
    assert query(db, "SELECT count(*) FROM hands WHERE status = 'void'") == [(0,)]
    lost = await chips_lost(db, fake.guild_id)
    assert lost == 0
    assert not leaked_cards(played_hands(db), log.versions)
    assert not bot.errors(), "\n".join(bot.errors())

    # Only interactions sent around a kill may have gone unanswered (the user sees "interaction failed").
    await fake.settle()
    missed = [v for v in fake.take_violations("ack-deadline")]
    for violation in missed:
        rec = fake.interactions[violation.interaction_id or 0]
        assert bot.excused(rec), f"{violation} (not near a kill)"
    hands = query(db, "SELECT count(*) FROM hands")[0][0]
    moves = sum(p.moves for p in players)
    assert len(interrupted) >= KILLS // 2 and moves > 2 * KILLS and hands > 4  # (a kill between hands interrupts none)
    figures["kills survived (SIGKILL)"] += KILLS
    figures["hands interrupted and continued"] += len(interrupted)
    figures["interactions lost with a killed process"] += len(missed)
    figures["chips lost"] += lost


async def test_sigterm_stops_cleanly_and_loses_nothing(
    fake: FakeDiscord, tmp_path: Path, figures: Figures
) -> None:
    db = tmp_path / "poker.db"
    bot = BotProcess(fake, db, tmp_path, seed=12)
    await bot.start()
    await open_tables(fake)
    tables = dict(query(db, "SELECT channel_id, id FROM tables"))
    players = [RemotePlayers(fake, channel, names, random.Random(i)) for i, (channel, names) in
               enumerate(TABLES.items())]
    while min(p.moves for p in players) < 12:
        for p in players:
            if not await p.step():
                await asyncio.sleep(0.02)
    await fake.settle()
    acknowledged = {tables[fake.channel(p.channel).id]: stored_moment(db, tables[fake.channel(p.channel).id])
                    for p in players}
    calls = fake.mark()
    loop = asyncio.get_running_loop()
    started = loop.time()
    assert await bot.terminate() == 0
    assert loop.time() - started < 3.0  # the clocks and writers stop at once: nothing waits for them
    assert all(c.ok for c in fake.calls[calls:]), [str(c) for c in fake.calls[calls:]]
    exited = fake.mark()
    await asyncio.sleep(0.3)
    assert fake.calls[exited:] == [] and not fake.connected()  # the gateway was closed, nothing goes on
    for table_id, moment in acknowledged.items():
        assert stored_moment(db, table_id) == moment  # every action the players were told of is stored
    assert await chips_lost(db, fake.guild_id) == 0
    # A new start carries on from there: the clocks run again and the buttons work.
    await bot.start()
    for p in players:
        turn = await fake.wait_for(p.turn, 5, what="a turn")
        table_id = turn.table_id
        assert (turn.hand_id, turn.seq) == acknowledged[table_id]
        assert ACTION.match(turn.kinds["cc"] if "cc" in turn.kinds else turn.kinds["draw"])
        while not await p.step():
            await asyncio.sleep(0.02)
        await fake.wait_for(lambda t=table_id, m=acknowledged[table_id]: stored_moment(db, t) != m, 5,
                            what="the table to move")
    assert await bot.terminate() == 0
    assert await chips_lost(db, fake.guild_id) == 0
    assert not bot.errors(), "\n".join(bot.errors())
    figures["clean stops (SIGTERM)"] += 2
