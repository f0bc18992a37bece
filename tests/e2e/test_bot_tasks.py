"""A table's tasks through Discord (issue 31, item 4): its clock, its turn alerts and its next deal are its runner's
scheduler's, replaced as the turns go, and all cancelled in one place when the table closes or the bot stops."""

from __future__ import annotations

import pytest

from cogs.table._alerts import ALERTS
from cogs.table._cog import TableCog
from cogs.table._runner import TableRunner
from cogs.table._runners import COG_NAME

from .conftest_bot import PokerBotStarter
from .fakediscord import FakeDiscord
from .players import Players, calling_station

pytestmark = pytest.mark.e2e

PLAYERS = ("alice", "bob", "carol")
LONG_PAUSE = 30.0  # seconds between hands: the next deal waits while the test looks


def runner_of(players: Players) -> TableRunner:
    cog: TableCog = players.bot.get_cog(COG_NAME)  # type: ignore[assignment]
    runner = cog.runners.get(players.table.id)
    assert runner is not None
    return runner


async def test_the_clock_and_alerts_are_replaced_at_each_turn_and_cancelled_when_the_table_closes(
    fake: FakeDiscord, poker_bot: PokerBotStarter
) -> None:
    await poker_bot(seed=22)
    players = Players(fake, poker_bot)
    await players.open_table("alice", PLAYERS)
    turn = await players.turn(1)
    runner = runner_of(players)
    await fake.wait_for(lambda: runner.clock.task is not None, what="the turn's clock (once the turn is shown)")
    clock, alerts = runner.clock.task, runner.scheduler.get(ALERTS)
    assert clock is not None and alerts is not None and not clock.done() and not alerts.done()

    await players.act("cc", turn=turn)  # the next player's turn: his clock and alerts in place of the first's
    await fake.wait_for(lambda: runner.clock.task not in (None, clock), what="the next turn's clock")
    assert clock.cancelled() and alerts.cancelled()
    clock, alerts = runner.clock.task, runner.scheduler.get(ALERTS)
    assert clock is not None and alerts is not None and not clock.done()

    closed = await players.poker("alice", "close")
    assert closed.followups[-1].content.startswith("Done"), closed.followups[-1].content
    assert len(runner.scheduler) == 0 and runner.clock.task is None and runner.dealer.dealing is None
    await fake.quiet(0.1)
    assert clock.cancelled() and alerts.cancelled()


async def test_the_bot_stopping_cancels_the_next_deal(fake: FakeDiscord, poker_bot: PokerBotStarter) -> None:
    await poker_bot(seed=22, next_hand_delay=LONG_PAUSE)
    players = Players(fake, poker_bot)
    await players.open_table("alice", PLAYERS)
    await players.play(calling_station, number=1)
    runner = runner_of(players)
    await fake.wait_for(lambda: runner.dealer.dealing is not None, what="the next deal scheduled")
    dealing = runner.dealer.dealing
    assert dealing is not None and not dealing.done()

    await poker_bot.stop()
    assert dealing.cancelled() and len(runner.scheduler) == 0
