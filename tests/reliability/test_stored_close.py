"""A close the bot stored but did not show (it was stopped before "Table closed" reached the message, or Discord
failed the edit): the restarted bot takes the old message's buttons away."""

from __future__ import annotations

import pytest

from tests.e2e.conftest_bot import PokerBotStarter
from tests.e2e.fakediscord import FakeDiscord
from tests.e2e.players import Players

from .conftest import Figures

pytestmark = pytest.mark.e2e


async def test_a_restarted_bot_finishes_a_close_it_finds_stored_but_not_shown(
    fake: FakeDiscord, poker_bot: PokerBotStarter, figures: Figures
) -> None:
    await poker_bot(seed=41)
    players = Players(fake, poker_bot)
    table = await players.open_table("alice", ("alice", "bob", "carol"))
    await players.turn(1)
    message_id = table.message_id
    assert message_id is not None
    # The edit of the table message fails (as if the bot had been stopped first): the close is stored, not shown.
    edits = [fake.inject(f"PATCH /channels/*/messages/{message_id}", status=403, times=None),
             fake.inject("PATCH /webhooks/*", status=403, times=None)]
    closed = await players.poker("alice", "close")
    assert closed.followups[-1].ephemeral and "could not be changed" in closed.followups[-1].content
    # the table message cannot say it: the night's results are posted in the channel, for everyone
    [posted] = [m for m in fake.channel_messages("poker") if m.content.startswith("Table closed.")]
    assert "<@" in posted.content and " cashes out " in posted.content
    assert fake.message(message_id).custom_ids(), "the old message still has its buttons"
    assert [t.id for t in await players.bot.store.closes_not_shown()] == [table.id]
    for fault in edits:
        fault.times = fault.hits  # Discord works again
    await poker_bot.restart()
    await fake.wait_for(lambda: not fake.message(message_id).custom_ids(), 10,
                        what="the old table message without its buttons")
    assert fake.message(message_id).embeds[0]["title"] == "Table closed"
    assert await poker_bot.bot.store.closes_not_shown() == []
    figures["closes stored but not shown, finished by the restarted bot"] += 1
