"""Every /chips command through Discord, with the banker permission checks."""

from __future__ import annotations

import pytest

from .conftest_bot import PokerBotStarter
from .fakediscord import FakeDiscord
from .players import Players, bettor

pytestmark = pytest.mark.e2e

NOT_BANKER = "Only members with Manage Server (or the banker role) can grant or remove chips."


async def test_balance_give_leaderboard_and_ledger(fake: FakeDiscord, poker_bot: PokerBotStarter) -> None:
    await poker_bot()
    players = Players(fake, poker_bot)
    alice, bob = players.uid("alice"), players.uid("bob")

    mine = await players.chips("alice", "balance")
    assert mine.ephemeral and mine.content == f"<@{alice}> has 1,000 chips in the bank."
    his = await players.chips("alice", "balance", member=fake.user("bob"))
    assert his.content == f"<@{bob}> has 1,000 chips in the bank."
    bots = await players.chips("alice", "balance", member=fake.bot_user)
    assert bots.ephemeral and bots.content == "Bots have no chips."

    given = await players.chips("alice", "give", member=fake.user("bob"), amount=250)
    assert not given.ephemeral
    assert given.content == f"<@{alice}> gives 250 chips to <@{bob}>. Your balance: 750."
    assert (await players.chips("bob", "balance")).content == f"<@{bob}> has 1,250 chips in the bank."
    too_much = await players.chips("alice", "give", member=fake.user("bob"), amount=751)
    assert too_much.ephemeral and too_much.content == "You have 750 chips, so you cannot send 751."
    to_self = await players.chips("alice", "give", member=fake.user("alice"), amount=1)
    assert to_self.ephemeral and to_self.content == "You cannot send chips to yourself."
    to_bot = await players.chips("alice", "give", member=fake.bot_user, amount=1)
    assert to_bot.ephemeral and to_bot.content == "Bots have no use for chips."
    with pytest.raises(ValueError, match="below the minimum 1"):
        await fake.slash("alice", "chips", subcommand="give", options={"member": fake.user("bob"), "amount": 0})
    assert await players.bot.store.balance(fake.guild_id, alice) == 750

    board = await players.chips("carol", "leaderboard")
    lines = board.content.splitlines()
    assert lines[0] == f"1. <@{bob}> 1,250" and f"<@{alice}> 750" in board.content

    ledger = await players.chips("alice", "ledger")
    assert ledger.ephemeral
    assert ledger.content.splitlines()[0] == f"<@{alice}>'s ledger, page 1/1"
    assert "transfer-out -250 → 750" in ledger.content and "starting-grant +1,000 → 1,000" in ledger.content
    others = await players.chips("alice", "ledger", member=fake.user("bob"))
    assert others.ephemeral and others.content == (
        "Only members with Manage Server (or the banker role) can see another member's ledger.")
    banker_view = await players.chips("manager", "ledger", member=fake.user("bob"))
    assert "transfer-in +250 → 1,250" in banker_view.content


async def test_grant_and_remove_need_manage_server_or_the_banker_role(
    fake: FakeDiscord, poker_bot: PokerBotStarter
) -> None:
    await poker_bot()
    players = Players(fake, poker_bot)
    dave, erin = players.uid("dave"), players.uid("erin")

    for sub in ("grant", "remove"):
        refused = await players.chips("alice", sub, member=fake.user("dave"), amount=100)
        assert refused.ephemeral and refused.content == NOT_BANKER
    assert await players.bot.store.balance(fake.guild_id, dave) == 1000

    granted = await players.chips("manager", "grant", member=fake.user("dave"), amount=500)
    assert granted.content == f"Granted 500 chips to <@{dave}>; balance 1,500."
    removed = await players.chips("manager", "remove", member=fake.user("dave"), amount=200)
    assert removed.content == f"Removed 200 chips from <@{dave}>; balance 1,300."
    overdrawn = await players.chips("manager", "remove", member=fake.user("dave"), amount=1301)
    assert overdrawn.ephemeral
    assert overdrawn.content == f"<@{dave}> has 1,300 chips in the bank; 1,301 cannot be removed."
    owner = await players.chips("owner", "grant", member=fake.user("dave"), amount=1)  # the server owner
    assert owner.content.startswith("Granted 1 chip to")

    # The banker role: only Manage Server may set it; then a member with the role may grant and remove.
    fake.set_roles("erin", ["Banker"])
    assert (await players.chips("erin", "grant", member=fake.user("dave"), amount=5)).content == NOT_BANKER
    not_allowed = await players.chips("erin", "role", group="banker", role=fake.role("Banker"))
    assert not_allowed.ephemeral
    assert not_allowed.content == "Only members with Manage Server can choose the banker role."
    chosen = await players.chips("manager", "role", group="banker", role=fake.role("Banker"))
    assert chosen.content == f"<@&{fake.role('Banker').id}> can now grant and remove chips."
    by_banker = await players.chips("erin", "grant", member=fake.user("dave"), amount=5)
    assert by_banker.content == f"Granted 5 chips to <@{dave}>; balance 1,306."
    assert (await players.chips("erin", "remove", member=fake.user("erin"), amount=5)).content == (
        f"Removed 5 chips from <@{erin}>; balance 995.")
    others = await players.chips("erin", "ledger", member=fake.user("dave"))
    assert f"<@{dave}>'s ledger" in others.content and "admin-grant +5 → 1,306" in others.content
    cleared = await players.chips("manager", "role", group="banker")
    assert cleared.content == "The banker role is cleared."
    assert (await players.chips("erin", "grant", member=fake.user("dave"), amount=5)).content == NOT_BANKER
    assert await players.bot.store.balance(fake.guild_id, dave) == 1306


async def test_results_at_the_table(fake: FakeDiscord, poker_bot: PokerBotStarter) -> None:
    await poker_bot(seed=31)
    players = Players(fake, poker_bot)
    nothing = await players.chips("alice", "results")
    assert nothing.content == "There is no table in this channel; `/poker create` opens one."
    await players.open_table("alice", ("alice", "bob", "carol"))
    # Paused during the first hand, so that no second hand is being played when the results are asked for (the
    # next deal comes 0.01 s after a hand: whether it came first would depend on the machine's speed).
    assert (await players.poker("alice", "table pause")).content == "The table pauses after this hand."
    await players.play(bettor)
    await fake.wait_for(lambda: players.table.live is None, what="the table to pause")
    results = await players.chips("dave", "results")
    header, *lines = results.content.splitlines()
    assert header.startswith(f"**Night 1 at <#{players.channel_id}> (running)** · 1 hand")
    nets = {line.split(" ")[0]: int(line.split(" ")[1].replace(",", "")) for line in lines}
    stacks = players.stacks()
    assert nets == {f"<@{players.uid(n)}>": stacks[n] - 1000 for n in ("alice", "bob", "carol")}
    assert sum(nets.values()) == 0
    assert list(nets.values()) == sorted(nets.values(), reverse=True)
    board = await players.chips("dave", "leaderboard")
    assert "at tables" in board.content  # chips on seats count in the leaderboard


async def test_the_starting_balance_is_a_server_setting_for_manage_server(
    fake: FakeDiscord, poker_bot: PokerBotStarter
) -> None:
    """Anyone can see it; only Manage Server changes it; it applies to accounts opened afterwards."""
    await poker_bot()
    players = Players(fake, poker_bot)
    alice, dave = players.uid("alice"), players.uid("dave")
    shown = await players.chips("alice", "starting_balance")
    assert shown.ephemeral and shown.content == "New members start with 1,000 chips."
    assert (await players.chips("alice", "balance")).content == f"<@{alice}> has 1,000 chips in the bank."
    refused = await players.chips("alice", "starting_balance", amount=5000)
    assert refused.ephemeral and refused.content == "Only members with Manage Server can change the starting balance."
    assert (await players.bot.store.guild_settings(fake.guild_id)).starting_balance == 1000
    changed = await players.chips("manager", "starting_balance", amount=2500)
    assert not changed.ephemeral
    assert changed.content == "New members now start with 2,500 chips; accounts already open keep their balance."
    assert (await players.chips("dave", "balance")).content == f"<@{dave}> has 2,500 chips in the bank."
    assert (await players.chips("alice", "balance")).content == f"<@{alice}> has 1,000 chips in the bank."
    assert (await players.chips("bob", "starting_balance")).content == "New members start with 2,500 chips."
    zero = await players.chips("owner", "starting_balance", amount=0)  # a bank where the banker hands out chips
    assert zero.content.startswith("New members now start with 0 chips")
