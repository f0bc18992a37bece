"""A planned night hears of its Discord event's Interested as they change (issue 33, item 10): the gateway's
GUILD_SCHEDULED_EVENT_USER_ADD / _REMOVE bring the sign-up message up to date within seconds, with no clock
moved, so a member who marked the event Interested keeps his place against one who taps I'm in after him. An
event the bot never heard (lost while it was away) is still found by the night's look every 10 minutes.

The night's clock (``cogs.plan_clock``) is the test's and does not move unless said: nothing here waits for the
10-minute look except the last check, which moves the clock to it."""

from __future__ import annotations

import pytest

from .conftest_bot import PokerBotStarter
from .fakediscord import FakeDiscord
from .test_bot_plans import StepClock, field, only_event, plan, tap
from .test_bot_plans import hours as hours  # the fixture

pytestmark = pytest.mark.e2e


async def test_interested_shows_within_seconds_and_keeps_the_seat_before_a_later_tap(
    fake: FakeDiscord, poker_bot: PokerBotStarter, hours: StepClock
) -> None:
    await poker_bot(seed=1)
    u = {name: fake.user(name).mention for name in ("alice", "bob", "erin", "frank")}
    message, _ = await plan(fake, seats=2)
    event = only_event(fake)
    await tap(fake, "alice", message, "I'm in")
    fake.mark_interested("erin", event)  # the last seat, marked in Discord's event list
    both = f"In · 2 of 2 · full: {u['alice']} {u['erin']}"
    await fake.wait_for(lambda: field(fake.message(message.id), "In") == both, 5,
                        what="erin in, from the event's Interested, with no clock moved")
    late = await tap(fake, "bob", message, "I'm in")  # after her: the waiting list
    assert late.followups[0].content.startswith("You're number 1 on the waiting list"), late.followups[0].content
    assert field(fake.message(message.id), "Waiting list") == f"Waiting list · 1: 1. {u['bob']}"

    fake.mark_interested("erin", event, interested=False)  # she changes her mind: bob moves up
    moved_up = f"In · 2 of 2 · full: {u['alice']} {u['bob']}"
    await fake.wait_for(lambda: field(fake.message(message.id), "In") == moved_up, 5,
                        what="erin gone and bob in, with no clock moved")
    assert field(fake.message(message.id), "Waiting list") is None

    # An Interested the bot never heard of (its gateway was away too long) is found by the night's next look.
    fake.mark_interested("frank", event, heard=False)
    await fake.quiet()
    assert field(fake.message(message.id), "Waiting list") is None
    hours.advance(10 * 60)
    waiting = f"Waiting list · 1: 1. {u['frank']}"
    await fake.wait_for(lambda: field(fake.message(message.id), "Waiting list") == waiting, 5,
                        what="frank on the waiting list after the 10-minute look")
