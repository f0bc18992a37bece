"""Each interaction's ``Reply`` is found again by its handler (``cogs.reply.reply_to``), and a second delivery of
the same interaction (the same id, another object: a gateway replay) never takes its place."""

from __future__ import annotations

from types import SimpleNamespace
from typing import cast

import discord

from cogs.reply import release, reply_to


def interaction(interaction_id: int) -> discord.Interaction:
    return cast(discord.Interaction, SimpleNamespace(id=interaction_id))


def test_a_second_delivery_does_not_take_the_first_ones_reply() -> None:
    first, again = interaction(9_001), interaction(9_001)
    reply = reply_to(first)
    reply.applied = True
    other = reply_to(again)
    assert other is not reply and not other.applied
    assert reply_to(first) is reply and reply_to(first).applied  # the first handler's state is kept
    release(again)  # the replay's end lets go of nothing of the first
    assert reply_to(first) is reply
    release(first)
    assert reply_to(first) is not reply  # once handled, a new one
    release(first)
