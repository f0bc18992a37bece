"""A street dealt edits each player's private message to show his hand (``PrivateMessages.refresh``), in the
background. A player who opens a question of his turn (the bet menu) right after the street is dealt keeps it:
the edit, asked before his click, must not turn his menu back into his cards."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import Any, cast

import discord

from cogs.reply import Reply
from cogs.table._private import Cards, PrivateMessages

ALICE = 101
TURN = ("hand 5", 7)  # what turn_of gives while it is alice's turn


@dataclass
class Click:
    """An interaction, as far as the private messages use one."""

    id: int
    edits: list[dict[str, Any]] = field(default_factory=list)
    deleted: bool = False

    def __post_init__(self) -> None:
        self.user = discord.Object(ALICE)
        self.created_at = discord.utils.utcnow()
        self.locale = discord.Locale.american_english  # his client's language: his private message is in it
        self.message = None

    async def edit_original_response(self, **fields: Any) -> None:
        self.edits.append(fields)

    async def delete_original_response(self) -> None:
        self.deleted = True


def reply(click: Click, *, controls: bool = False) -> Reply:
    """The click's reply; ``controls``: its private answer has buttons (a question of his turn)."""
    made = Reply(cast(discord.Interaction, click))
    made.controls = controls
    return made


async def background_done() -> None:
    """Let the private messages' background edits run to their end."""
    await asyncio.sleep(0.01)
    await asyncio.gather(*(task for task in asyncio.all_tasks() if task is not asyncio.current_task()))


async def test_a_menu_opened_after_the_street_was_dealt_is_not_turned_back_into_cards() -> None:
    private = PrivateMessages(lambda user: Cards(5, "A♠ K♠", "Texas Hold'em · #5 · Ace high"), lambda user: TURN)
    cards = Click(1)
    private.sent(reply(cards), None, followup=False)  # his cards under the table
    private.refresh([ALICE])  # the turn was dealt: his cards are to be shown again, in the background
    menu = Click(2)
    private.sent(reply(menu, controls=True), None, followup=False)  # meanwhile he tapped Raise…: the menu is his
    await background_done()
    assert menu.edits == [] and not menu.deleted  # the menu stays as it is
    assert cards.deleted  # his older message went


async def test_a_street_dealt_shows_the_cards_in_a_message_that_is_no_question() -> None:
    private = PrivateMessages(lambda user: Cards(5, "A♠ K♠", "Texas Hold'em · #5 · Ace high"), lambda user: TURN)
    cards = Click(1)
    private.sent(reply(cards), None, followup=False)
    private.refresh([ALICE])
    await background_done()
    assert len(cards.edits) == 1 and cards.edits[0]["content"] == "A♠ K♠"
