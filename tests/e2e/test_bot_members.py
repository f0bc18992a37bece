"""Members who left the server, and refusals that say what was refused.

A member option whose user is not in the server cannot become a ``discord.Member`` (discord.py raises
``TransformerError``): each such command says so and does nothing, instead of "Something went wrong" and an ERROR
in the log. A player who left can still be kicked: his stack goes back to his account."""

from __future__ import annotations

import pytest

from .conftest_bot import PokerBotStarter
from .fakediscord import FakeDiscord
from .players import Players, calling_station

pytestmark = pytest.mark.e2e


async def test_a_player_who_left_the_server_can_be_kicked_and_member_options_say_who_is_not_a_member(
    fake: FakeDiscord, poker_bot: PokerBotStarter
) -> None:
    await poker_bot(seed=51)
    players = Players(fake, poker_bot)
    table = await players.open_table("alice", ("alice", "bob", "carol"))
    assert (await players.poker("alice", "table pause")).content == "The table pauses after this hand."
    await players.play(calling_station, number=1)
    await fake.wait_for(lambda: table.live is None, what="the table to pause")
    bob = fake.user("bob")
    stack = table.seat_of(bob.id).stack
    del fake.guild.users[bob.id]  # bob leaves the server; his seat and chips stay

    for sub, options in (("give", {"amount": 10}), ("balance", {}), ("ledger", {}), ("grant", {"amount": 5})):
        who = "manager" if sub == "grant" else "dave"
        answer = await fake.reply_to(await fake.slash(who, "chips", subcommand=sub, channel="poker",
                                                      options={"member": bob, **options}))
        assert answer.ephemeral and answer.content == (
            f"<@{bob.id}> is not a member of this server, so `/chips {sub}` cannot name them; nothing was done.")
    stats = await fake.reply_to(await fake.slash("dave", "poker", subcommand="stats", channel="poker",
                                                 options={"member": bob}))
    assert stats.content == f"<@{bob.id}> is not a member of this server, so `/poker stats` cannot name them; " \
                            "nothing was done."
    balance = await players.bot.store.balance(fake.guild_id, bob.id)

    kicked = await fake.reply_to(await fake.slash("alice", "poker", subcommand="kick", group="table",
                                                  channel="poker", options={"member": bob}))
    assert kicked.content == f"<@{bob.id}> leaves the table; cashed out now."
    assert table.seat_of(bob.id) is None
    assert await players.bot.store.balance(fake.guild_id, bob.id) == balance + stack  # his chips are his

    others = await players.chips("dave", "ledger", member=fake.user("carol"))
    assert others.ephemeral and others.content == (
        "Only members with Manage Server (or the banker role) can see another member's ledger.")
