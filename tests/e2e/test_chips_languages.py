"""The /chips commands in their readers' languages: a private answer (a balance, a ledger, a refusal) in the member's
own, a public one (a gift, a grant, the leaderboard, the banker role) in the server's; every text through the
catalogue (the pseudo-language check: the fake fails a test on English that bypassed it)."""

from __future__ import annotations

import dataclasses

import pytest

from .conftest_bot import PokerBotStarter
from .fakediscord import FakeConfig, FakeDiscord
from .players import Players

pytestmark = [pytest.mark.e2e]

PSEUDO_EVERYWHERE = FakeConfig(pseudo_locale=True)
# The server reads the pseudo-language, bob too; alice's Discord speaks English.
MIXED = FakeConfig(locale="qps", users=tuple(dataclasses.replace(user, locale="qps") if user.name == "bob" else user
                                             for user in FakeConfig().users))


@pytest.fixture
def fake_config(request: pytest.FixtureRequest) -> FakeConfig:
    config: FakeConfig = request.param
    return config


@pytest.mark.parametrize("fake_config", [PSEUDO_EVERYWHERE], indirect=True)
async def test_every_chips_answer_comes_through_the_catalogue(fake: FakeDiscord, poker_bot: PokerBotStarter) -> None:
    await poker_bot()
    players = Players(fake, poker_bot)
    alice, bob = players.uid("alice"), players.uid("bob")
    # The fake takes the pseudo-language's wraps out: the tests read the English, and any bare English fails them.
    assert (await players.chips("alice", "balance")).content == f"<@{alice}> has 1,000 chips in the bank."
    assert (await players.chips("alice", "balance", member=fake.bot_user)).content == "Bots have no chips."
    given = await players.chips("alice", "give", member=fake.user("bob"), amount=250)
    assert given.content == f"<@{alice}> gives 250 chips to <@{bob}>. Your balance: 750."
    ledger = (await players.chips("alice", "ledger")).content
    assert f"<@{alice}>'s ledger, page 1/1" in ledger and "transfer-out -250 → 750" in ledger
    refused = await players.chips("alice", "ledger", member=fake.user("bob"))
    assert refused.content == "Only members with Manage Server (or the banker role) can see another member's ledger."
    assert (await players.chips("alice", "grant", member=fake.user("bob"), amount=5)).content == (
        "Only members with Manage Server (or the banker role) can grant or remove chips.")
    granted = await players.chips("manager", "grant", member=fake.user("bob"), amount=1)
    assert granted.content == f"Granted 1 chip to <@{bob}>; balance 1,251."
    removed = await players.chips("manager", "remove", member=fake.user("bob"), amount=51)
    assert removed.content == f"Removed 51 chips from <@{bob}>; balance 1,200."
    assert "admin-grant +1 → 1,251" in (await players.chips("manager", "ledger", member=fake.user("bob"))).content
    board = (await players.chips("carol", "leaderboard")).content
    assert board.splitlines()[0] == f"1. <@{bob}> 1,200"
    assert (await players.chips("manager", "starting_balance")).content == "New members start with 1,000 chips."
    assert (await players.chips("manager", "starting_balance", amount=500)).content == (
        "New members now start with 500 chips; accounts already open keep their balance.")
    assert (await players.chips("alice", "starting_balance", amount=1)).content == (
        "Only members with Manage Server can change the starting balance.")
    assert (await players.chips("alice", "role", group="banker")).content == (
        "Only members with Manage Server can choose the banker role.")
    assert (await players.chips("manager", "role", group="banker")).content == "The banker role is cleared."
    assert (await players.chips("alice", "results")).content == (
        "There is no table in this channel; `/poker create` opens one.")


@pytest.mark.languages  # the locales as MIXED gives them
@pytest.mark.parametrize("fake_config", [MIXED], indirect=True)
async def test_a_private_answer_is_in_the_members_language_a_public_one_in_the_servers(
    fake: FakeDiscord, poker_bot: PokerBotStarter,
) -> None:
    await poker_bot()
    players = Players(fake, poker_bot)
    alice, bob = players.uid("alice"), players.uid("bob")
    mine = await players.chips("alice", "balance")  # private, alice reads English
    assert mine.ephemeral and mine.content == f"<@{alice}> has 1,000 chips in the bank."
    his = await players.chips("bob", "balance")  # private, bob reads the pseudo-language
    assert his.ephemeral and his.content == f"⟦<@{bob}> has ⟦1,000 chips⟧ in the bank.⟧"
    refused = await players.chips("bob", "balance", member=fake.bot_user)
    assert refused.content == "⟦Bots have no chips.⟧"
    given = await players.chips("alice", "give", member=fake.user("bob"), amount=250)  # public: the server's
    assert not given.ephemeral
    assert given.content == f"⟦<@{alice}> gives ⟦250 chips⟧ to <@{bob}>. Your balance: 750.⟧"
    board = await players.chips("alice", "leaderboard")
    assert board.content.splitlines()[0] == f"1. <@{bob}> 1,250"
    ledger = await players.chips("alice", "ledger")
    assert "transfer-out -250 → 750" in ledger.content and "⟦" not in ledger.content
    assert "⟦transfer-in⟧ +250 → 1,250" in (await players.chips("bob", "ledger")).content
