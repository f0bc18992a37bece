"""The checks every bot test ends with catch what they are for: hole cards in the channel before the showdown."""

from __future__ import annotations

import pytest

from cogs import render

from .conftest_bot import PokerBotStarter
from .fakediscord import FakeDiscord
from .players import Players, standing_pat

pytestmark = pytest.mark.e2e


@pytest.mark.languages  # it posts texts of its own, as a leak would: in English, outside the catalogue
async def test_a_hole_card_in_any_version_of_a_channel_message_is_caught(
    fake: FakeDiscord, poker_bot: PokerBotStarter
) -> None:
    await poker_bot(seed=41)
    players = Players(fake, poker_bot)
    table = await players.open_table("alice", ("alice", "bob", "carol"))
    await players.turn(1)
    await players.poker("alice", "table pause")  # no second hand: its deck could hold the cards shown below
    assert table.hand is not None
    card = table.hand.holes[1][0]
    channel = players.bot.get_partial_messageable(players.channel_id)
    leak = await channel.send(f"psst, bob holds {card.pretty()}")  # what a buggy bot might do
    await leak.edit(content="nothing to see")  # gone from the message, not from its history
    await players.play(standing_pat)  # after the showdown, the same card in the channel is fine
    await channel.send(f"bob held {render.cards(table.last_hand.holes[1])}")

    problems = await poker_bot.finish()

    assert len(problems) == 1, problems
    assert problems[0].startswith(f"hand #1 (id 1): message {leak.id} showed {card.pretty()} before the showdown")
