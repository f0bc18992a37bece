"""Each member's deck: his own cards (his private message, the draw picker, the DMs of his cards) in four colours
(the default: ♠ black, ♥ red, ♦ blue, ♣ green) or two, as he chose with ``/poker cards``. The table message is
everyone's: it is always in four colours.

Read once per member from the store and kept (changed through ``choose``), so a deal costs no query.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

import discord

from bot.content.cardfaces import card_text
from bot.poker import Card
from cogs.render import CardText


class CardColours:
    """The members' decks, for one bot (``emojis``: its ``cogs.card_emojis.CardEmojis`` once logged in)."""

    def __init__(self, store: Any, emojis: Callable[[], Any]) -> None:
        self._store = store
        self._emojis = emojis
        self._four: dict[tuple[int, int], bool] = {}

    def card(self, card: Card, *, four_colours: bool = True) -> str:
        """A card as the bot's own emoji of that deck, or as text until the emojis are uploaded."""
        emojis = self._emojis()
        if emojis is None:
            return card_text(card, four_colours=four_colours)
        return str(emojis.card(card, four_colours=four_colours))

    def emoji(self, card: Card, *, four_colours: bool = True) -> discord.PartialEmoji | None:
        """A card's emoji of that deck, for a button (None until the emojis are uploaded)."""
        emojis = self._emojis()
        return emojis.partial(card, four_colours=four_colours) if emojis is not None else None

    def four_colours(self, guild: int, user: int) -> bool:
        """Whether the member's own cards are in four colours (as known: ``learn`` reads it from the store)."""
        return self._four.get((guild, user), True)

    def card_for(self, guild: int, user: int) -> CardText:
        """How the member's own cards are drawn."""
        four = self.four_colours(guild, user)
        return lambda card: self.card(card, four_colours=four)

    def emoji_for(self, guild: int, user: int) -> Callable[[Card], discord.PartialEmoji | None]:
        """The member's own cards' emojis, for the picker's buttons."""
        four = self.four_colours(guild, user)
        return lambda card: self.emoji(card, four_colours=four)

    async def learn(self, guild: int, users: Iterable[int]) -> None:
        """Read the decks of the members not known yet (once each)."""
        for user in users:
            if (guild, user) not in self._four:
                self._four[(guild, user)] = await self._store.four_colours(guild, user)

    async def choose(self, guild: int, user: int, *, four_colours: bool) -> None:
        """The member chose his deck: stored, and used from now on."""
        await self._store.set_four_colours(guild, user, four_colours)
        self._four[(guild, user)] = four_colours
