"""A planned night in the readers' languages: with the fake's members and server speaking the pseudo-language, every
text of a night (the sign-up message and its buttons, the host's word, the Discord event, the answers to a tap,
the list, the time zone, a refusal, the reminders, the cancel notice) comes through the catalogue (the fake records
English outside the wraps as a violation, which fails the test). And who reads what: the sign-up message and the
event in the server's language, a member's answer and his reminder in his own.
"""

from __future__ import annotations

import re

import pytest

from bot.poker import GAMES

from .conftest_bot import PokerBotStarter
from .fakediscord import FakeConfig, FakeDiscord, UserSpec
from .test_bot_plans import HOUR, StepClock, field, night, only_event, plan, reminders, tap
from .test_bot_plans import hours as hours  # the fixture

pytestmark = pytest.mark.e2e

GAME_WORDS = frozenset(word for game in GAMES.values() for word in re.findall(r"[A-Za-z][A-Za-z']+", game.name))
PSEUDO = FakeConfig(pseudo_locale=True, pseudo_allowed=GAME_WORDS)
USERS = ("owner", "manager", "alice", "bob", "carol", "dave", "erin", "frank")
SERVER_PSEUDO = FakeConfig(locale="qps", users=tuple(UserSpec(name, ("Staff",) if name == "manager" else ())
                                                     for name in USERS))


@pytest.fixture
def fake_config(request: pytest.FixtureRequest) -> FakeConfig:
    config: FakeConfig = request.param
    return config


@pytest.mark.parametrize("fake_config", [PSEUDO], indirect=True)
async def test_every_text_of_a_night_comes_through_the_catalogue(fake: FakeDiscord, poker_bot: PokerBotStarter,
                                                                 hours: StepClock) -> None:
    await poker_bot(seed=1)
    message, answer = await plan(fake, seats=2, notes="Bring snacks", game="dealers-choice")
    assert answer.followups[0].content.startswith("Planned: **Poker night: Dealer's choice 5/10**")
    event = only_event(fake)
    assert event.name == "Poker night: Dealer's choice 5/10"
    assert event.description is not None and "Sign up with the buttons in" in event.description
    said = [(await tap(fake, name, message, "I'm in")).followups[0].content for name in ("alice", "bob", "carol")]
    assert said[2].startswith("You're number 1 on the waiting list")
    assert (await tap(fake, "dave", message, "Can't make it")).followups[0].content.startswith("Noted")
    shown = fake.message(message.id)
    assert field(shown, "In") is not None and field(shown, "Waiting list") is not None
    listed = await night(fake, "alice", "list")
    assert "(plan 1)" in listed.content and "2 of 2 in, 1 waiting" in listed.content
    zone = await night(fake, "alice", "timezone")
    assert zone.content.startswith("This server's nights are planned in UTC: it is ")
    refused = await night(fake, "alice", "cancel")
    assert refused.ephemeral and refused.content.startswith("Only the night's host")
    hours.advance(HOUR)
    await fake.wait_for(lambda: len(reminders(fake, "carol")) == 1, 5, what="carol's reminder")
    cancelled = await night(fake, "manager", "cancel")
    assert "is cancelled by" in cancelled.content and not cancelled.ephemeral
    await fake.wait_for(lambda: "Cancelled by the host." in fake.message(message.id).text(), 5,
                        what="the sign-up message cancelled")


@pytest.mark.languages  # the server speaks the pseudo-language, a member English: the locales as given
@pytest.mark.parametrize("fake_config", [SERVER_PSEUDO], indirect=True)
async def test_the_channel_reads_the_servers_language_and_a_member_his_own(
        fake: FakeDiscord, poker_bot: PokerBotStarter, hours: StepClock) -> None:
    await poker_bot(seed=1)
    message, answer = await plan(fake)
    assert "⟦" not in answer.followups[0].content  # the host's private word: his client is in English
    assert only_event(fake).name.startswith("⟦Poker night: ")  # the server's
    assert fake.message(message.id).embeds[0]["title"].startswith("⟦Poker night: ")  # the channel's
    assert [b.get("label") for b in fake.message(message.id).buttons()] == ["⟦I'm in⟧", "⟦Can't make it⟧",
                                                                          "⟦Event⟧"]
    tapped = await tap(fake, "alice", message, "⟦I'm in⟧")
    assert tapped.followups[0].content.startswith("You're in. It starts")  # hers
    assert "⟦In · 1 of " in str(fake.message(message.id).embeds[0]["fields"])  # the channel's, shown again
    hours.advance(HOUR)
    await fake.wait_for(lambda: len(reminders(fake, "alice")) == 1, 5, what="alice's reminder")
    assert "⟦" not in reminders(fake, "alice")[0].content  # her DM: her language, as her tap showed it
