"""A member marking a scheduled event Interested (or unmarking it) in the fake: a bot with the GUILD_SCHEDULED_EVENTS
intent is sent GUILD_SCHEDULED_EVENT_USER_ADD / _REMOVE with the event's, the member's and the guild's ids, as by
Discord; a bot without it is sent nothing, nor is anyone for a mark that changes nothing or one the test says was
never heard (``heard=False``)."""

from __future__ import annotations

import datetime
import json
from typing import Any

import discord
import pytest

from pokerdev.fakediscord import FakeDiscord
from tests.e2e.conftest import BotStarter

pytestmark = pytest.mark.e2e

USER_EVENTS = ("GUILD_SCHEDULED_EVENT_USER_ADD", "GUILD_SCHEDULED_EVENT_USER_REMOVE")


class Listening(discord.Client):
    """A client that keeps the scheduled events' user events the gateway sends it."""

    def __init__(self, intents: discord.Intents) -> None:
        super().__init__(intents=intents, enable_debug_events=True)
        self.heard: list[tuple[str, dict[str, Any]]] = []

    async def on_socket_raw_receive(self, message: str) -> None:
        frame = json.loads(message)
        if frame.get("t") in USER_EVENTS:
            self.heard.append((frame["t"], frame["d"]))


async def an_event(bot: discord.Client, fake: FakeDiscord) -> discord.ScheduledEvent:
    guild = bot.get_guild(fake.guild_id)
    assert guild is not None
    start = discord.utils.utcnow() + datetime.timedelta(hours=1)
    return await guild.create_scheduled_event(
        name="Poker night", start_time=start, end_time=start + datetime.timedelta(hours=4),
        entity_type=discord.EntityType.external, privacy_level=discord.PrivacyLevel.guild_only,
        location="https://discord.com/channels/1/2")


async def test_a_bot_with_the_intent_hears_of_each_mark(fake: FakeDiscord, start_bot: BotStarter) -> None:
    bot = await start_bot(Listening(discord.Intents(guilds=True, guild_scheduled_events=True)))
    assert isinstance(bot, Listening)
    event = await an_event(bot, fake)
    fake.mark_interested("alice", event.id)
    fake.mark_interested("alice", event.id)  # (no change: nothing sent)
    fake.mark_interested("bob", event.id, heard=False)  # lost on the way
    fake.mark_interested("alice", event.id, interested=False)
    await fake.wait_for(lambda: len(bot.heard) == 2, 5, what="alice's two user events")
    await fake.quiet()
    ids = {"guild_scheduled_event_id": str(event.id), "user_id": str(fake.user("alice").id),
           "guild_id": str(fake.guild_id)}
    assert bot.heard == [("GUILD_SCHEDULED_EVENT_USER_ADD", ids), ("GUILD_SCHEDULED_EVENT_USER_REMOVE", ids)]
    assert fake.scheduled_event(event.id).interested == [fake.user("bob").id]


async def test_a_bot_without_the_intent_hears_nothing(fake: FakeDiscord, start_bot: BotStarter) -> None:
    bot = await start_bot(Listening(discord.Intents(guilds=True)))
    assert isinstance(bot, Listening)
    event = await an_event(bot, fake)
    fake.mark_interested("alice", event.id)
    await fake.quiet()
    assert bot.heard == [] and fake.scheduled_event(event.id).interested == [fake.user("alice").id]
