"""Scheduled events in the fake: discord.py creates, fetches, starts, ends and cancels one and reads its Interested
users page by page; Discord's rules for an external event, the statuses and the permissions are answered as
Discord answers them, and every body is checked against the OpenAPI specification."""

from __future__ import annotations

import datetime
from typing import Any

import aiohttp
import discord
import pytest

from pokerdev.fakediscord import FakeDiscord, Perm
from pokerdev.fakediscord.spec import spec_checker
from tests.e2e.conftest import BotStarter

pytestmark = pytest.mark.e2e

HOUR = datetime.timedelta(hours=1)


async def guild_of(start_bot: BotStarter, fake: FakeDiscord) -> tuple[discord.Client, discord.Guild]:
    bot = await start_bot(discord.Client(intents=discord.Intents(guilds=True)))
    guild = bot.get_guild(fake.guild_id)
    assert guild is not None
    return bot, guild


async def external(guild: discord.Guild, start: datetime.datetime, **options: Any) -> discord.ScheduledEvent:
    return await guild.create_scheduled_event(
        name="Poker night: Badugi 1/2", start_time=start, end_time=start + 4 * HOUR,
        entity_type=discord.EntityType.external, privacy_level=discord.PrivacyLevel.guild_only,
        location="https://discord.com/channels/1/2", description="Bring snacks", **options)


async def test_an_event_through_its_life_and_its_interested_users(fake: FakeDiscord, start_bot: BotStarter) -> None:
    bot, guild = await guild_of(start_bot, fake)
    start = discord.utils.utcnow() + 2 * HOUR
    event = await external(guild, start)
    stored = fake.scheduled_event(event.id)
    assert (stored.name, stored.location, stored.state, stored.start) == (
        "Poker night: Badugi 1/2", "https://discord.com/channels/1/2", "scheduled", start)
    assert event.url == f"https://discord.com/events/{fake.guild_id}/{event.id}"
    for name in ("carol", "alice", "bob"):
        fake.mark_interested(name, event.id)
    fake.mark_interested("bob", event.id, interested=False)
    fetched = await guild.fetch_scheduled_event(event.id, with_counts=True)
    assert fetched.user_count == 2 and fetched.location == stored.location
    first = await bot.http.get_scheduled_event_users(guild.id, event.id, limit=1, with_member=False)
    rest = await bot.http.get_scheduled_event_users(guild.id, event.id, limit=100, with_member=True,
                                                    after=int(first[0]["user_id"]))
    ids = [int(u["user_id"]) for u in first + rest]
    assert ids == sorted(fake.user(n).id for n in ("alice", "carol")) and "member" in rest[0]
    started = await fetched.start()
    assert started.status is discord.EventStatus.active and stored.state == "active"
    ended = await started.end()
    assert ended.status is discord.EventStatus.ended and stored.state == "completed"
    with pytest.raises(discord.HTTPException) as moved:  # an ended event does not start again
        await bot.http.edit_scheduled_event(guild.id, event.id, status=2)
    assert moved.value.status == 400 and moved.value.code == 50035
    assert [v.kind for v in fake.take_violations()] == ["invalid-form-body"]
    other = await external(guild, start)
    await other.cancel()
    assert fake.scheduled_event(other.id).state == "cancelled"
    assert [e.id for e in await guild.fetch_scheduled_events()] == [event.id, other.id]
    await other.delete()
    with pytest.raises(discord.NotFound) as gone:
        await guild.fetch_scheduled_event(other.id)
    assert gone.value.code == 10070


async def test_without_create_events_the_bot_is_refused(fake: FakeDiscord, start_bot: BotStarter) -> None:
    _, guild = await guild_of(start_bot, fake)
    fake.bot_role.permissions &= ~(Perm.CREATE_EVENTS | Perm.MANAGE_EVENTS)
    with pytest.raises(discord.Forbidden) as refused:
        await external(guild, discord.utils.utcnow() + HOUR)
    assert refused.value.code == 50013 and fake.scheduled_events() == []


REFUSED: dict[str, tuple[dict[str, Any], str, str]] = {
    "a start that has passed": ({"scheduled_start_time": "2020-01-01T20:00:00+00:00"}, "scheduled_start_time",
                                "GUILD_SCHEDULED_EVENT_SCHEDULE_PAST"),
    "an external event without an end": ({"scheduled_end_time": None}, "scheduled_end_time", "BASE_TYPE_REQUIRED"),
    "an external event without a place": ({"entity_metadata": {"location": ""}}, "entity_metadata.location",
                                          "BASE_TYPE_REQUIRED"),
    "an end before the start": ({"scheduled_end_time": "2099-01-01T19:00:00+00:00"}, "scheduled_end_time",
                                "GUILD_SCHEDULED_EVENT_END_BEFORE_START"),
    "a name of 101 characters (the specification)": ({"name": "x" * 101}, "name", "BASE_TYPE_MAX_LENGTH"),
}


@pytest.mark.parametrize("case", REFUSED)
async def test_discords_rules_are_answered_400_50035(fake: FakeDiscord, case: str) -> None:
    changes, field, code = REFUSED[case]
    body = {"name": "Poker night", "privacy_level": 2, "entity_type": 3, "entity_metadata": {"location": "#poker"},
            "scheduled_start_time": "2099-01-01T20:00:00+00:00", "scheduled_end_time": "2099-01-02T00:00:00+00:00",
            **changes}
    url = f"{fake.api_base}/guilds/{fake.guild_id}/scheduled-events"
    async with aiohttp.ClientSession() as session, session.post(url, json=body) as response:
        assert response.status == 400
        error = await response.json()
    errors = error["errors"]
    for key in field.split("."):
        errors = errors[key]
    assert error["code"] == 50035 and errors["_errors"][0]["code"] == code
    assert [v.kind for v in fake.take_violations()] == ["invalid-form-body"] and fake.scheduled_events() == []


def test_the_specification_knows_the_event_bodies() -> None:
    good = {"name": "Poker night", "privacy_level": 2, "entity_type": 3, "entity_metadata": {"location": "#poker"},
            "scheduled_start_time": "2099-01-01T20:00:00+00:00", "scheduled_end_time": "2099-01-02T00:00:00+00:00"}
    checker = spec_checker()
    assert not checker.check("POST", "/guilds/1/scheduled-events", good)
    assert not checker.check("PATCH", "/guilds/1/scheduled-events/2", {"status": 2})
    assert checker.check("PATCH", "/guilds/1/scheduled-events/2", {"status": 9})
    assert checker.check("POST", "/guilds/1/scheduled-events", {**good, "privacy_level": 1})
