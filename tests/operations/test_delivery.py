"""An interaction is told from a repeat of it by its own id, never by the id() of the Python object that carried it:
Python gives a freed object's id() to the next one, so a repeat that arrives after the first was answered and freed
must still be recognised."""

from __future__ import annotations

from typing import Any, cast

import discord

from bot.app import PokerBot
from bot.config import Config


class Delivery:
    """What ``first_delivery`` reads of an interaction: its id and its extras."""

    def __init__(self, interaction_id: int) -> None:
        self.id = interaction_id
        self.extras: dict[str, Any] = {}


async def test_a_repeat_in_a_recycled_object_is_still_a_repeat() -> None:
    bot = PokerBot(Config(), sync_commands=False)
    first = Delivery(1234)
    check = cast(discord.Interaction, first)
    assert bot.first_delivery(check) and bot.first_delivery(check)  # the check, then the callback
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
