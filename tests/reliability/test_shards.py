"""Several bot processes over one PostgreSQL bank: one owner per shard, a standby that takes over after a SIGKILL,
processes with half the shards each, a process with another shard count refused, the REST base URL setting.

Each bot is the real one in a process of its own (``python -m pokerdev.launch``) against an in-test fake Discord
whose guild is on a chosen shard (``FakeConfig.shard``): a fake per shard stands for Discord sending each guild's
events to the process of its shard.
"""

from __future__ import annotations

import asyncio
import random
import re
import time
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from tests.e2e.fakediscord import FakeConfig, FakeDiscord
from tests.pg import drop_database, new_database

from .conftest import Figures
from .helpers import chips_lost
from .remote import ANSI, BotProcess, RemotePlayers, Stint, progress

pytestmark = pytest.mark.e2e

STANDBY = re.compile(r"shard 0 of 2 is run by poker-bot pid (?P<pid>\d+) on host \S+ on postgresql://\S+: this bot "
                     r"waits as a standby and takes it over when that bot stops")


@pytest.fixture
def fake_config() -> FakeConfig:
    return FakeConfig(shard=(0, 2))


@pytest.fixture
async def pg_bank() -> AsyncIterator[str]:
    """An empty PostgreSQL database of the test's own (the bot makes its tables)."""
    url = await new_database(empty=True)
    yield url
    await drop_database(url)


async def open_table(fake: FakeDiscord, channel: str = "poker") -> RemotePlayers:
    """A table of three in ``channel``, dealt."""
    created = await fake.reply_to(await fake.slash("alice", "poker", subcommand="create", channel=channel, options={
        "game": "five-card-draw", "small_blind": 5, "big_blind": 10}), timeout=15)
    assert created.content.startswith("Table open"), created.content
    for name in ("alice", "bob", "carol"):
        await fake.reply_to(await fake.slash(name, "poker", subcommand="join", channel=channel), timeout=15)
    await fake.reply_to(await fake.slash("alice", "poker", group="table", subcommand="start", channel=channel),
                        timeout=15)
    return RemotePlayers(fake, channel, ("alice", "bob", "carol"), random.Random(7))


async def play(players: RemotePlayers, moves: int, timeout: float = 60.0) -> None:
    """At least ``moves`` more moves answered at the table."""
    goal = players.moves + moves
    deadline = time.monotonic() + timeout
    while players.moves < goal:
        assert time.monotonic() < deadline, f"{players.moves} moves of {goal} in {timeout} s"
        if not await players.step():
            await asyncio.sleep(0.05)


async def test_a_standby_waits_unconnected_then_takes_over_when_the_owner_is_killed(
    fake: FakeDiscord, tmp_path: Path, pg_bank: str, figures: Figures
) -> None:
    owner = BotProcess(fake, pg_bank, tmp_path, name="owner", log_level="INFO", options=("--shards", "2:0"))
    await owner.start(timeout=30)
    players = await open_table(fake)
    await play(players, 6)

    standby = BotProcess(fake, pg_bank, tmp_path, name="standby", log_level="INFO", options=("--shards", "2:0"))
    await standby.spawn()
    await fake.wait_for(lambda: STANDBY.search(ANSI.sub("", standby.output())), 30, what="the standby's line")
    waiting = STANDBY.search(ANSI.sub("", standby.output()))
    assert waiting is not None and owner.proc is not None and int(waiting["pid"]) == owner.proc.pid
    identified = len(fake.identify_payloads)
    await play(players, 6)  # the owner deals on; the standby has not joined the gateway
    assert len(fake.identify_payloads) == identified and standby.proc is not None and standby.proc.returncode is None
    before = sum(progress(pg_bank).values())

    await owner.kill()  # its session ends: the server frees its locks, the standby takes them
    await fake.wait_for(lambda: len(fake.identify_payloads) > identified and fake.connected(), 30,
                        what="the standby to take over and connect")
    standby.stints.append(Stint(fake.now()))
    assert fake.identify_payloads[-1].get("shard") == [0, 2]
    await play(players, 10)  # the table goes on from the store, dealt by the new owner
    assert sum(progress(pg_bank).values()) >= before + 10
    assert await standby.terminate() == 0
    assert not await chips_lost(pg_bank, fake.guild_id)
    assert not [line for bot in (owner, standby) for line in bot.errors()]
    figures["standby takeovers after a SIGKILL (PostgreSQL)"] += 1


async def test_a_bot_with_another_shard_count_is_refused(
    fake: FakeDiscord, tmp_path: Path, pg_bank: str, figures: Figures
) -> None:
    owner = BotProcess(fake, pg_bank, tmp_path, name="owner", options=("--shards", "2:0"))
    await owner.start(timeout=30)
    other = BotProcess(fake, pg_bank, tmp_path, name="other", options=("--shards", "4:1"))
    proc = await other.spawn()
    assert await asyncio.wait_for(proc.wait(), 30) == 2
    last = ANSI.sub("", other.output()).strip().splitlines()[-1]
    assert re.fullmatch(r"POKER_DB postgresql://\S+: poker-bot pid \d+ on host \S+ runs this bank with SHARD_COUNT=2, "
                        r"this one with 4: every bot of one bank must use the same count", last), last
    other.proc = None
    assert await owner.terminate() == 0
    figures["start-up problems tried (one line, exit 2, no traceback)"] += 1


async def test_two_processes_with_half_the_shards_each_deal_only_their_own_tables(
    fake: FakeDiscord, tmp_path: Path, pg_bank: str, figures: Figures
) -> None:
    other_fake = FakeDiscord(FakeConfig(shard=(1, 2)))  # Discord, as the process of shard 1 sees it
    await other_fake.start()
    try:
        zero = BotProcess(fake, pg_bank, tmp_path, name="zero", log_level="INFO", options=("--shards", "2:0"))
        one = BotProcess(other_fake, pg_bank, tmp_path, name="one", log_level="INFO", options=("--shards", "2:1"))
        await asyncio.gather(zero.start(timeout=30), one.start(timeout=30))
        tables = await asyncio.gather(open_table(fake), open_table(other_fake))
        await asyncio.gather(*(play(players, 12) for players in tables))
        assert await zero.terminate() == 0 and await one.terminate() == 0

        # Restarted, each restores the open table of its own shard's server only: one each, never both.
        again = [BotProcess(f, pg_bank, tmp_path, name=f"{b.name}-again", log_level="INFO", options=b.options)
                 for f, b in ((fake, zero), (other_fake, one))]
        await asyncio.gather(*(bot.start(timeout=30) for bot in again))
        for bot in again:
            await fake.wait_for(lambda b=bot: "restored" in b.output(), 30, what="the restore's line")
            assert "restored 1 open table(s)" in bot.output(), bot.output()
        await asyncio.gather(*(play(players, 6) for players in tables))
        assert all([await bot.terminate() == 0 for bot in again])
        for guild in (fake.guild_id, other_fake.guild_id):
            assert not await chips_lost(pg_bank, guild)
        assert not [line for bot in (zero, one, *again) for line in bot.errors()]
        figures["processes with half the shards each over one PostgreSQL bank"] += 2
    finally:
        await other_fake.stop()


async def test_rest_calls_go_through_discord_api_base(fake: FakeDiscord, tmp_path: Path, figures: Figures) -> None:
    """DISCORD_API_BASE sends every REST call to the URL given (a rate-limiting proxy in production; the fake here,
    while discord.py itself is not pointed at it)."""
    bot = BotProcess(fake, tmp_path / "poker.db", tmp_path, options=(
        "--api-base", f"http://127.0.0.1:{fake.port}/api/v10"))
    await bot.start(timeout=30)
    balance = await fake.reply_to(await fake.slash("erin", "chips", subcommand="balance"), timeout=10)
    assert balance.content.endswith("has 1,000 chips in the bank."), balance.content
    assert await bot.terminate() == 0
    figures["processes whose REST calls went through DISCORD_API_BASE"] += 1
