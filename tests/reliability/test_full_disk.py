"""The bot's disk fills up during a night, then has room again.

The disk is real: the bot's database lives on a 4 MB tmpfs of the test's own, filled to the last byte
(``tests/disks.py``), so SQLite gets ENOSPC from the kernel. While it is full every change is refused with
"The bot cannot write its database right now (disk full); nothing was changed.", the log gets one ERROR line naming
the cause and the file (no traceback), and reads go on. The turn's clock, the next deal and the dealer's choice
running out each try again by themselves: once the disk has room, the table moves on with nobody clicking.
"""

from __future__ import annotations

import logging
import time

import pytest

from cogs.table._runner import TableRunner
from tests.disks import SmallDisk, small_disk
from tests.e2e.conftest import DiscordErrors
from tests.e2e.conftest_bot import PokerBotStarter
from tests.e2e.fakediscord import FakeDiscord
from tests.e2e.players import Players, calling_station

from .conftest import Figures
from .helpers import assert_shows_table, runner_of

__all__ = ["small_disk"]

pytestmark = pytest.mark.e2e

PLAYERS = ("alice", "bob", "carol")
FULL = "The bot cannot write its database right now (disk full); nothing was changed."


def run_out(runner: TableRunner) -> None:
    """The clock of the moment on screen runs out now (as if its player had used all his time)."""
    turn = runner.presenter.turn()
    assert turn is not None
    runner.dealer.cancel_clock()
    runner.dealer.turn_shown(turn, time.time() + 0.05)


async def waited_for_the_database(fake: FakeDiscord, caplog: pytest.LogCaptureFixture, what: str) -> None:
    await fake.wait_for(lambda: any(what in r.getMessage() and "waits for the database" in r.getMessage()
                                    for r in caplog.records), 10, what=f"{what} refused by the full disk")


def one_error_line(discord_errors: DiscordErrors, path: str) -> None:
    errors = discord_errors.take()
    assert len(errors) == 1, [DiscordErrors.describe(r) for r in errors]
    message = errors[0].getMessage()
    assert "disk full" in message and path in message and errors[0].exc_info is None, message


async def test_a_full_disk_refuses_changes_and_the_table_moves_on_once_it_has_room(
    small_disk: SmallDisk, fake: FakeDiscord, poker_bot: PokerBotStarter, figures: Figures,
    discord_errors: DiscordErrors, caplog: pytest.LogCaptureFixture,
) -> None:
    poker_bot.db_path = small_disk.path / "poker.db"
    await poker_bot(seed=31, next_hand_delay=3600)  # the next deal only when the test asks for it
    players = Players(fake, poker_bot)
    table = await players.open_table("alice", PLAYERS)
    runner = runner_of(players, table)
    await players.chips("dave", "balance")
    turn = await players.turn(1)
    assert table.live is not None
    seq = table.live.seq
    caplog.set_level(logging.INFO)

    small_disk.fill()
    refused = await players.click("cc", turn=turn)
    assert refused.ephemeral and refused.content == FULL, refused.content
    gift = await players.chips("dave", "give", member=fake.user("alice"), amount=10)
    assert gift.ephemeral and gift.content == FULL
    joined = await players.poker("erin", "join")
    assert joined.ephemeral and joined.content == FULL
    balance = await players.chips("dave", "balance")  # a read
    assert balance.content == f"<@{players.uid('dave')}> has 1,000 chips in the bank."
    assert table.live.seq == seq and table.seat_of(players.uid("erin")) is None
    run_out(runner)  # the clock runs out while the disk is full: its move cannot be stored yet
    await waited_for_the_database(fake, caplog, "the clock")
    assert table.live.seq == seq
    small_disk.free()
    await fake.wait_for(lambda: table.live is not None and table.live.seq == seq + 1, 10,
                        what="the clock's move, stored once the disk had room, with nobody clicking")
    one_error_line(discord_errors, str(poker_bot.db_path))
    figures["changes refused on a full disk (said so, nothing changed)"] += 3

    await players.play(calling_station, number=1)
    assert table.live is None
    small_disk.fill()
    runner.dealer.schedule_deal(0)  # the next deal comes while the disk is full
    await waited_for_the_database(fake, caplog, "the next deal")
    assert table.live is None
    small_disk.free()
    await fake.wait_for(lambda: table.live is not None and table.live.record.number == 2, 10,
                        what="hand #2 dealt once the disk had room, with nobody clicking")
    one_error_line(discord_errors, str(poker_bot.db_path))
    await players.play(calling_station, number=2)
    await assert_shows_table(players)
    assert not await poker_bot.finish()  # the audit, while the disk is still mounted
    figures["timers refused by a full disk that moved on by themselves once it had room"] += 2


async def test_the_dealers_choice_running_out_on_a_full_disk_deals_once_it_has_room(
    small_disk: SmallDisk, fake: FakeDiscord, poker_bot: PokerBotStarter, figures: Figures,
    discord_errors: DiscordErrors, caplog: pytest.LogCaptureFixture,
) -> None:
    poker_bot.db_path = small_disk.path / "poker.db"
    await poker_bot(seed=32)
    players = Players(fake, poker_bot)
    table = await players.open_table("alice", PLAYERS, game="dealers-choice")
    runner = runner_of(players, table)
    await fake.wait_for(players.choice_button, what="the dealer's choice menu")
    assert table.live is None
    caplog.set_level(logging.INFO)
    small_disk.fill()
    run_out(runner)
    await waited_for_the_database(fake, caplog, "the dealer's choice running out")
    assert table.live is None
    small_disk.free()
    await fake.wait_for(lambda: table.live is not None, 10, what="the hand dealt once the disk had room")
    one_error_line(discord_errors, str(poker_bot.db_path))
    await players.play(calling_station, number=1)
    assert not await poker_bot.finish()
    figures["timers refused by a full disk that moved on by themselves once it had room"] += 1
