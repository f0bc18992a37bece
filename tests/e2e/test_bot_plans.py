"""Planned nights through Discord: /poker night plan makes a Discord event and a sign-up message; I'm in, Can't
make it and the event's Interested fill the roster and its waiting list; the reminders go by DM on a clock the
test moves (respecting /poker alerts), and at once for a night planned closer than them; the table opens on time
with the planned settings and its seats held for those who signed up; /poker close ends the event; a restart
between the reminder and the start sends no reminder twice, and a bot back after the start opens the table then;
cancel (the event too, the players told); and every bad input answered privately with nothing changed.

Time for the nights is a clock the test moves (``cogs.plan_clock.CLOCK``): a step comes when the test says,
however fast the machine is; the test then waits for what the bot does.
"""

from __future__ import annotations

import asyncio
import datetime
import time
from collections.abc import Iterator
from zoneinfo import ZoneInfo

import pytest

from bot.planning import NIGHT_LENGTH
from cogs import plan_clock as clock

from .conftest_bot import PokerBotStarter
from .fakediscord import FakeDiscord, FakeEvent, InteractionRecord, Perm, StoredMessage

pytestmark = pytest.mark.e2e

HOUR = 3600


class StepClock(clock.Clock):
    """Time that moves only when the test moves it; every wait for a moment still to come is woken then."""

    def __init__(self) -> None:
        self.t = float(int(time.time()))
        self.waiters: list[asyncio.Future[None]] = []

    def now(self) -> float:
        return self.t

    async def sleep_until(self, at: float) -> None:
        while self.t < at:
            waiter = asyncio.get_running_loop().create_future()
            self.waiters.append(waiter)
            try:
                await waiter
            finally:
                self.waiters.remove(waiter)

    def advance(self, seconds: float) -> None:
        self.t += seconds
        for waiter in list(self.waiters):
            if not waiter.done():
                waiter.set_result(None)


@pytest.fixture
def hours(monkeypatch: pytest.MonkeyPatch) -> Iterator[StepClock]:
    step = StepClock()
    monkeypatch.setattr(clock, "CLOCK", step)
    yield step


async def night(fake: FakeDiscord, user: str, sub: str, channel: str = "poker", followups: int = 0,
                **options: object) -> InteractionRecord:
    """``/poker night sub`` by ``user``; its answer."""
    return await fake.reply_to(await fake.slash(user, "poker", group="night", subcommand=sub, options=options,
                                                channel=channel), followups=followups)


async def plan(fake: FakeDiscord, user: str = "manager", channel: str = "poker", **options: object
               ) -> tuple[StoredMessage, InteractionRecord]:
    """A night planned by ``user``: its sign-up message, and the answer (with the host's private word)."""
    settings: dict[str, object] = {"when": "in 2 hours", "game": "five-card-draw", "small_blind": 5, "big_blind": 10}
    settings.update(options)
    answer = await night(fake, user, "plan", channel=channel, followups=1, **settings)
    assert answer.message is not None and not answer.ephemeral, answer.content
    assert answer.followups[0].ephemeral, answer.followups[0].content
    return answer.message, answer


async def tap(fake: FakeDiscord, user: str, message: StoredMessage, label: str) -> InteractionRecord:
    """``user`` taps a button of the sign-up message; the answer (with its private followup, if any)."""
    record = await fake.reply_to(await fake.click(user, fake.message(message.id),
                                                  str(fake.message(message.id).button(label)["custom_id"])))
    if not record.ephemeral:  # the message was updated: the member's word follows
        record = await fake.reply_to(record.id, followups=1)
    return record


def field(message: StoredMessage, name: str) -> str | None:
    """The value of the sign-up message's field whose name starts with ``name``."""
    for embed in message.embeds:
        for f in embed.get("fields") or []:
            if str(f["name"]).startswith(name):
                return f"{f['name']}: {f['value']}"
    return None


def reminders(fake: FakeDiscord, user: str) -> list[StoredMessage]:
    return [m for m in fake.dms(user) if m.content.startswith("⏰")]


def only_event(fake: FakeDiscord) -> FakeEvent:
    events = fake.scheduled_events()
    assert len(events) == 1, events
    return events[0]


async def test_a_night_from_the_plan_to_the_close(fake: FakeDiscord, poker_bot: PokerBotStarter,
                                                  hours: StepClock) -> None:
    bot = await poker_bot(seed=1)
    u = {name: fake.user(name).mention for name in ("manager", "alice", "bob", "carol", "dave", "erin", "frank")}
    message, answer = await plan(fake, seats=3, notes="Bring snacks")
    start = int(hours.now()) + 2 * HOUR
    word = answer.followups[0].content
    assert word.startswith("Planned: **Poker night: Five Card Draw 5/10**") and "(UTC)" in word
    assert "Reminders go 60 minutes before; the table opens here at the start." in word
    assert "Create Events" not in word
    # The Discord event: external, the channel's link as its place, four hours long, the notes.
    event = only_event(fake)
    assert (event.name, event.state, int(event.start.timestamp())) == ("Poker night: Five Card Draw 5/10",
                                                                      "scheduled", start)
    assert event.end is not None and (event.end - event.start).total_seconds() == NIGHT_LENGTH
    channel = fake.channel("poker")
    assert event.location == f"https://discord.com/channels/{fake.guild_id}/{channel.id}"
    assert event.description is not None and event.description.startswith("Bring snacks")
    shown = fake.message(message.id)
    assert shown.embeds[0]["title"] == "Poker night: Five Card Draw 5/10" and f"<t:{start}:F>" in shown.text()
    assert shown.button("Event")["url"] == f"https://discord.com/events/{fake.guild_id}/{event.id}"
    assert field(shown, "In") == "In · 0 of 3 · 3 seats left: Nobody yet: tap **I'm in**."

    # Sign-ups: three seats, then the waiting list; a tap tells the member where he stands.
    said = {name: (await tap(fake, name, message, "I'm in")).followups[0].content
            for name in ("alice", "bob", "carol", "dave")}
    assert said["alice"].startswith("You're in. It starts <t:") and "I'll DM you 60 minutes before." in said["alice"]
    assert said["dave"].startswith("You're number 1 on the waiting list")
    out = await tap(fake, "frank", message, "Can't make it")
    assert out.followups[0].content.startswith("Noted: you can't make it.") and out.followups[0].ephemeral
    shown = fake.message(message.id)
    assert field(shown, "In") == f"In · 3 of 3 · full: {u['alice']} {u['bob']} {u['carol']}"
    assert field(shown, "Waiting list") == f"Waiting list · 1: 1. {u['dave']}"
    assert field(shown, "Can't make it") == f"Can't make it: {u['frank']}"
    again = await tap(fake, "carol", message, "Can't make it")  # carol drops out: dave gets her seat
    assert again.followups[0].content.startswith("Noted")
    assert field(fake.message(message.id), "In") == f"In · 3 of 3 · full: {u['alice']} {u['bob']} {u['dave']}"
    fake.mark_interested("erin", event)  # the event's Interested counts as in, read when the bot next looks
    fake.mark_interested("frank", event)  # ... but never over a tap
    alerts = await fake.reply_to(await fake.slash("bob", "poker", subcommand="alerts", options={"on": False}))
    assert alerts.ephemeral

    # The reminder time: a DM to everyone who is in (the waiting list too), bob has turned alerts off.
    hours.advance(HOUR)
    await fake.wait_for(lambda: len(reminders(fake, "erin")) == 1, 5, what="erin's reminder")
    await fake.wait_for(lambda: field(fake.message(message.id), "Waiting list") == f"Waiting list · 1: 1. {u['erin']}",
                        5, what="erin on the waiting list")
    for name in ("alice", "dave"):
        assert len(reminders(fake, name)) == 1
    for name in ("bob", "carol", "frank"):
        assert reminders(fake, name) == []
    dm = reminders(fake, "alice")[0].content
    assert f"starts <t:{start}:R>" in dm and f"https://discord.com/channels/{fake.guild_id}/{channel.id}" in dm
    assert "You're in." in dm
    assert "You're number 1 on the waiting list" in reminders(fake, "erin")[0].content

    # The start: the table opens with the planned settings, the channel is told, the event is active.
    phone = fake.message(message.id).snapshot()  # the sign-up message as a phone still shows it
    hours.advance(HOUR)
    started = await fake.wait_for_message("poker", lambda m: m.content.startswith("🃏"), 5)
    assert started.content.startswith("🃏 **Poker night: Five Card Draw 5/10** starts now. "
                                      f"{u['alice']} {u['bob']} {u['dave']} {u['erin']}")
    assert "the host deals with `/poker table start`" in started.content
    table = bot.tables.get(channel.id)
    assert table is not None and table.record.host_id == fake.user("manager").id
    assert (table.settings.game, table.settings.small_blind, table.settings.big_blind, table.settings.max_seats) == (
        "five-card-draw", 5, 10, 3)
    await fake.wait_for(lambda: event.state == "active", 5, what="the event active")
    await fake.wait_for(lambda: "Started: the table is open" in fake.message(message.id).text(), 5,
                        what="the sign-up message's start")
    assert [b.get("label") for b in fake.message(message.id).buttons()] == ["Event"]
    # Seats go first to those who signed up: three seats, four of them to come.
    table_message = await fake.wait_for_message("poker", lambda m: bool(m.buttons()) and m.id != message.id, 5)
    join = str(table_message.button("Join")["custom_id"])
    refused = await fake.reply_to(await fake.click("frank", table_message, join))
    assert refused.ephemeral and "held until" in refused.content and "4 still to come" in refused.content
    refused = await fake.reply_to(await fake.click("erin", table_message, join))  # second on the waiting list
    assert refused.ephemeral and "held until" in refused.content
    for name in ("alice", "bob", "dave"):
        seated = await fake.reply_to(await fake.click(name, fake.message(table_message.id), join))
        assert seated.content.startswith("You sit in seat"), seated.content
    refused = await fake.reply_to(await fake.click("carol", phone, "pk:night:1:in"))
    assert refused.ephemeral and refused.content.startswith("This poker night has started: tap **Join**")

    # /poker close ends the night and its event.
    closed = await fake.reply_to(await fake.slash("manager", "poker", subcommand="close", channel="poker"),
                                 followups=1)
    assert closed.followups[0].ephemeral and closed.followups[0].content.startswith("Done: everyone is cashed out")
    await fake.wait_for(lambda: event.state == "completed", 5, what="the event completed")
    await fake.wait_for(lambda: "Over: the table was closed." in fake.message(message.id).text(), 5,
                        what="the sign-up message's end")


async def test_a_restart_between_the_reminder_and_the_start_sends_no_reminder_twice(
    fake: FakeDiscord, poker_bot: PokerBotStarter, hours: StepClock
) -> None:
    bot = await poker_bot(seed=2)
    message, _ = await plan(fake, when="in 3 hours", remind=30)
    for name in ("alice", "bob"):
        await tap(fake, name, message, "I'm in")
    hours.advance(2 * HOUR + 30 * 60)  # the reminder time
    await fake.wait_for(lambda: len(reminders(fake, "alice")) == len(reminders(fake, "bob")) == 1, 5,
                        what="the reminders")
    await fake.wait_for(lambda: bot.store is not None and _reminded(poker_bot), 5, what="the reminders stored")
    bot = await poker_bot.restart()
    hours.advance(60)  # past the reminder time still: nothing is sent again
    await fake.quiet()
    assert len(reminders(fake, "alice")) == len(reminders(fake, "bob")) == 1
    hours.advance(30 * 60)  # the start
    await fake.wait_for(lambda: bot.tables.get(fake.channel("poker").id), 5, what="the table opened")
    await fake.wait_for_message("poker", lambda m: m.content.startswith("🃏"), 5)
    await fake.quiet()
    assert len(reminders(fake, "alice")) == len(reminders(fake, "bob")) == 1
    assert only_event(fake).state == "active"


def _reminded(poker_bot: PokerBotStarter) -> bool:
    import sqlite3

    with sqlite3.connect(poker_bot.db_path) as con:
        return con.execute("SELECT count(*) FROM planned_nights WHERE reminded_at IS NOT NULL").fetchone()[0] == 1


async def test_a_bot_back_after_the_start_opens_the_table_then_and_reminds_nobody(
    fake: FakeDiscord, poker_bot: PokerBotStarter, hours: StepClock
) -> None:
    await poker_bot(seed=3)
    message, _ = await plan(fake, when="in 2 hours", game="dealers-choice", small_blind=1, big_blind=2)
    await tap(fake, "alice", message, "I'm in")
    await poker_bot.stop()
    hours.advance(2 * HOUR + 5 * 60)  # the reminder time and the start went by while the bot was away
    bot = await poker_bot.restart()
    started = await fake.wait_for_message("poker", lambda m: m.content.startswith("🃏"), 5)
    assert "Poker night: Dealer's choice 1/2" in started.content
    table = bot.tables.get(fake.channel("poker").id)
    assert table is not None and table.settings.is_dealers_choice
    await fake.quiet()
    assert reminders(fake, "alice") == [] and only_event(fake).state == "active"


async def test_a_night_the_bot_missed_whole_opens_nothing(fake: FakeDiscord, poker_bot: PokerBotStarter,
                                                           hours: StepClock) -> None:
    await poker_bot(seed=3)
    message, _ = await plan(fake)
    await tap(fake, "alice", message, "I'm in")
    await poker_bot.stop()
    hours.advance(2 * HOUR + NIGHT_LENGTH)  # the whole night went by while the bot was away
    bot = await poker_bot.restart()
    await fake.wait_for(lambda: "Missed: the bot was away for the whole night." in fake.message(message.id).text(),
                        5, what="the sign-up message saying so")
    await fake.wait_for(lambda: only_event(fake).state == "cancelled", 5, what="the event cancelled")
    assert bot.tables.get(fake.channel("poker").id) is None and fake.message(message.id).buttons() == []
    assert reminders(fake, "alice") == []


async def test_a_night_planned_closer_than_its_reminder_reminds_at_once(
    fake: FakeDiscord, poker_bot: PokerBotStarter, hours: StepClock
) -> None:
    await poker_bot(seed=4)
    message, answer = await plan(fake, when="in 30 minutes")  # reminders 60 minutes before: due already
    assert "Reminders go 60 minutes before" in answer.followups[0].content
    await tap(fake, "alice", message, "I'm in")
    dm = await fake.wait_for_dm("alice", lambda m: m.content.startswith("⏰"))
    assert "**Poker night: Five Card Draw 5/10** starts <t:" in dm.content
    fake.mark_interested("bob", only_event(fake))
    hours.advance(10 * 60)  # the bot reads the event's Interested members every 10 minutes while it waits
    await fake.wait_for(lambda: len(reminders(fake, "bob")) == 1, 5, what="bob's reminder")
    await tap(fake, "alice", message, "I'm in")  # again: nothing new
    hours.advance(10 * 60)
    await fake.quiet()
    assert len(reminders(fake, "alice")) == len(reminders(fake, "bob")) == 1
    quiet, _ = await plan(fake, channel="poker-2", when="in 20 minutes", remind=0)
    await tap(fake, "carol", quiet, "I'm in")
    await fake.quiet()
    assert reminders(fake, "carol") == []


async def test_cancel_the_event_too_and_the_players_told(fake: FakeDiscord, poker_bot: PokerBotStarter,
                                                         hours: StepClock) -> None:
    bot = await poker_bot(seed=5)
    message, _ = await plan(fake)
    for name in ("alice", "bob"):
        await tap(fake, name, message, "I'm in")
    refused = await night(fake, "alice", "cancel")
    assert refused.ephemeral
    assert refused.content == "Only the night's host (or someone with Manage Server) can cancel it."
    listed = await night(fake, "carol", "list")
    assert listed.ephemeral and "**Poker night: Five Card Draw 5/10** (plan 1)" in listed.content
    assert "2 of 8 in" in listed.content
    phone = fake.message(message.id).snapshot()  # the sign-up message as a phone still shows it
    typed = await fake.reply_to(await fake.autocomplete("manager", "poker", "night", group="night",
                                                        subcommand="cancel", options={"night": 1}))
    assert [c["value"] for c in typed.choices or []] == [1]
    assert (typed.choices or [{}])[0]["name"].endswith("· Poker night: Five Card Draw 5/10 · #poker")
    cancelled = await night(fake, "manager", "cancel")
    alice, bob = fake.user("alice").mention, fake.user("bob").mention
    assert not cancelled.ephemeral and cancelled.content.endswith(f"is cancelled by {fake.user('manager').mention}. "
                                                                  f"{alice} {bob}")
    await fake.wait_for(lambda: only_event(fake).state == "cancelled", 5, what="the event cancelled")
    await fake.wait_for(lambda: "Cancelled by the host." in fake.message(message.id).text(), 5,
                        what="the sign-up message cancelled")
    assert fake.message(message.id).buttons() == []
    # A button of the cancelled night (a phone that still shows it): a private answer, nothing changed.
    before = [(s.user, s.answer) for s in (await bot.store.get_plan(1)).signups]
    old = await fake.reply_to(await fake.click("carol", phone, "pk:night:1:in"))
    assert old.ephemeral and old.content == "This poker night was cancelled: there is nothing to sign up for."
    assert [(s.user, s.answer) for s in (await bot.store.get_plan(1)).signups] == before
    again = await night(fake, "manager", "cancel")
    assert again.ephemeral and again.content.startswith("No night is planned in this channel.")
    listed = await night(fake, "carol", "list")
    assert listed.content.startswith("No night is planned.")
    hours.advance(2 * HOUR)  # its start: nothing opens
    await fake.quiet()
    assert bot.tables.get(fake.channel("poker").id) is None


async def test_without_create_events_the_sign_ups_work_alone(fake: FakeDiscord, poker_bot: PokerBotStarter,
                                                             hours: StepClock) -> None:
    bot = await poker_bot(seed=6)
    fake.bot_role.permissions &= ~(Perm.CREATE_EVENTS | Perm.MANAGE_EVENTS)
    message, answer = await plan(fake)
    assert "I need the **Create Events** permission" in answer.followups[0].content
    assert fake.scheduled_events() == [] and [b.get("label") for b in message.buttons()] == ["I'm in",
                                                                                            "Can't make it"]
    await tap(fake, "alice", message, "I'm in")
    hours.advance(HOUR)
    await fake.wait_for(lambda: len(reminders(fake, "alice")) == 1, 5, what="the reminder")
    hours.advance(HOUR)
    await fake.wait_for(lambda: bot.tables.get(fake.channel("poker").id), 5, what="the table opened")
    assert sum(1 for c in fake.calls if "scheduled-events" in c.path) == 0  # not tried again and again


async def test_time_zones(fake: FakeDiscord, poker_bot: PokerBotStarter, hours: StepClock) -> None:
    await poker_bot(seed=7)
    shown = await night(fake, "alice", "timezone")
    assert shown.ephemeral and shown.content.startswith("This server's nights are planned in UTC")
    refused = await night(fake, "alice", "timezone", zone="Europe/Berlin")
    assert refused.ephemeral and refused.content == "Only members with Manage Server can change the server's time zone."
    unknown = await night(fake, "manager", "timezone", zone="Europe/Berln")
    assert unknown.ephemeral and "“Europe/Berln” is not a time zone I know. Did you mean Europe/Berlin, " in (
        unknown.content)
    typed = await fake.reply_to(await fake.autocomplete("manager", "poker", "zone", group="night",
                                                        subcommand="timezone", options={"zone": "berl"}))
    assert [c["value"] for c in typed.choices or []] == ["Europe/Berlin"]
    done = await night(fake, "manager", "timezone", zone="europe/berlin")
    assert done.content.startswith("Nights are now planned in Europe/Berlin: it is ")
    berlin = ZoneInfo("Europe/Berlin")
    day = datetime.datetime.fromtimestamp(hours.now(), berlin).date() + datetime.timedelta(days=2)
    _, answer = await plan(fake, when=f"{day:%Y-%m-%d} 20:00")
    expected = int(datetime.datetime(day.year, day.month, day.day, 20, tzinfo=berlin).timestamp())
    assert int(only_event(fake).start.timestamp()) == expected
    assert "20:00 (Europe/Berlin)" in answer.followups[0].content


async def test_every_bad_input_is_answered_privately_and_changes_nothing(
    fake: FakeDiscord, poker_bot: PokerBotStarter, hours: StepClock
) -> None:
    bot = await poker_bot(seed=8)
    await plan(fake, when="in 2 hours")
    calls, messages = len(fake.calls), len(fake.channel_messages("poker"))
    cases = {
        "yesterday 20:00": "which has passed",
        "blah blah": "I cannot read “blah blah” as a time.",
        "in 3 hours": "This channel already has a night planned at <t:",  # overlaps the one planned
    }
    for when, words in cases.items():
        refused = await night(fake, "manager", "plan", when=when, game="five-card-draw", small_blind=5, big_blind=10)
        assert refused.ephemeral and words in refused.content, refused.content
    refused = await night(fake, "alice", "plan", when="in 9 hours", game="badugi", small_blind=5, big_blind=10)
    assert refused.ephemeral and "it takes the Create Events or Manage Server permission" in refused.content
    refused = await night(fake, "manager", "plan", when="in 9 hours", game="badugi", small_blind=5, big_blind=10,
                          seats=8)
    assert refused.ephemeral and "Badugi is dealt to at most 6 players: this table has at most 6 seats, not 8" \
        in refused.content
    refused = await night(fake, "manager", "timezone", zone="Mars/Olympus")
    assert refused.ephemeral and "not a time zone I know" in refused.content
    refused = await night(fake, "manager", "cancel", night=99)
    assert refused.ephemeral and "There is no such planned night" in refused.content
    assert len(await bot.store.plans()) == 1 and len(fake.scheduled_events()) == 1
    assert await bot.store.time_zone(fake.guild_id) is None
    assert len(fake.channel_messages("poker")) == messages
    assert not [c for c in fake.calls[calls:] if c.method != "POST" or "/interactions/" not in c.path]
