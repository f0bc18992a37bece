"""The bot under Discord's per-channel rate limit (scaled down in time): a whole hand still plays, every click
is acknowledged in time, and the bot waits out the 429s instead of failing."""

from __future__ import annotations

import pytest

from .conftest_bot import PokerBotStarter
from .fakediscord import FakeConfig, FakeDiscord, RateLimitModel
from .players import Players, calling_station

pytestmark = pytest.mark.e2e


@pytest.fixture
def fake_config() -> FakeConfig:
    return FakeConfig(rate_limit=RateLimitModel(limit=2, period=0.5))


async def test_a_triple_draw_hand_under_the_rate_limit(fake: FakeDiscord, poker_bot: PokerBotStarter) -> None:
    await poker_bot(seed=51)
    players = Players(fake, poker_bot)
    await players.open_table("alice", ("alice", "bob", "carol"), game="triple-draw-a5")
    await players.play(calling_station)
    assert all(rec.acknowledged and not rec.late for rec in fake.interactions.values())
    edits = [c for c in fake.calls if c.channel_id == players.channel_id and c.method in ("POST", "PATCH")]
    assert len(edits) > 2 and all(c.status == 200 for c in edits)  # over the limit, waited out, none refused
