"""An interaction is told from a repeat of it by its own id, never by the id() of the Python object that carried it:
Python gives a freed object's id() to the next one, so a repeat that arrives after the first was answered and freed
must still be recognised."""

from __future__ import annotations

from typing import cast

import discord

from bot.runtime.config import Config
from cogs.app import PokerBot


class Delivery:
    """What ``first_delivery`` reads of an interaction: its id and its server."""

    def __init__(self, interaction_id: int, guild_id: int | None = None) -> None:
        self.id = interaction_id
        self.guild_id = guild_id


async def test_a_repeat_in_a_recycled_object_is_still_a_repeat() -> None:
    bot = PokerBot(Config(), sync_commands=False)
    first = Delivery(1234)
    check = cast(discord.Interaction, first)
    assert bot.first_delivery(check)  # asked once, where the interaction is admitted
    assert not bot.first_delivery(check)  # the same id again: a repeat
    address = id(first)
    del first, check
    recycled = None
    for _ in range(1000):  # CPython hands the freed slot to the next object of the same size
        candidate = Delivery(1234)
        if id(candidate) == address:
            recycled = candidate
            break
    assert recycled is not None, "CPython did not reuse the freed object's id(); the test shows nothing"
    assert not bot.first_delivery(cast(discord.Interaction, recycled))
    assert bot.first_delivery(cast(discord.Interaction, Delivery(1235)))


async def test_an_interaction_of_a_server_of_another_process_is_not_carried_out_here() -> None:
    """Discord sends a server's interactions to the process of its shard; one that reaches another process (run with
    other SHARD_IDS) is ignored there: that server's tables are the other process's. One without a server (a DM)
    is handled by any process."""
    bot = PokerBot(Config(shard_count=2, shard_ids=(1,)), sync_commands=False)
    on_shard_0, on_shard_1 = 2 << 22, 3 << 22  # (guild_id >> 22) % 2
    assert not bot.first_delivery(cast(discord.Interaction, Delivery(1, on_shard_0)))
    assert bot.first_delivery(cast(discord.Interaction, Delivery(2, on_shard_1)))
    assert bot.first_delivery(cast(discord.Interaction, Delivery(3, None)))
