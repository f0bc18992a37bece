"""What each player at one table sees of his own cards: My hand, the DM of his cards at the deal and after a
draw, the cards of his private message and its pre-action buttons, each drawn with his own deck (``/poker cards``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import partial

import discord

from bot.content.cardfaces import card_text
from bot.i18n import ENGLISH, Language, say
from bot.poker import Card, Dealt, Hand
from bot.tables import Outcome, Table
from cogs.render import CardText, channel_mention, hand_title

from . import _hole, _preactions
from ._colours import CardColours
from ._private import Cards


class OwnCards:
    """The texts of each player's own cards at one table."""

    def __init__(self, table: Table, preactions: _preactions.PreActions, *, card: CardText = card_text,
                 emoji: Callable[[Card], discord.PartialEmoji | None] = lambda card: None,
                 colours: CardColours | None = None) -> None:
        self.table = table
        self.preactions = preactions
        self.card = card  # a card as the table draws it: everyone's own, without ``colours``
        self.emoji = emoji  # a card's picture on a button (None: its text)
        self.colours = colours

    async def learn_decks(self, users: Sequence[int]) -> None:
        """Before a deal: how each of ``users`` has his own cards drawn (``card_for``)."""
        if self.colours is not None:
            await self.colours.learn(self.table.record.guild_id, users)

    def card_for(self, user: int) -> CardText:
        """How ``user``'s own cards are drawn (his deck: ``/poker cards``)."""
        if self.colours is None:
            return self.card
        return self.colours.card_for(self.table.record.guild_id, user)

    def emoji_for(self, user: int) -> Callable[[Card], discord.PartialEmoji | None]:
        """``user``'s own cards' pictures, for the picker's buttons."""
        if self.colours is None:
            return self.emoji
        return self.colours.emoji_for(self.table.record.guild_id, user)

    def hand_text(self, user: int, *, lang: Language) -> str:
        """A player's own cards (ephemeral), or his last hand's when none is being played, in his language."""
        table = self.table
        seat = table.engine_seat(user)
        if table.hand is not None and seat is not None:
            if table.hand.folded[seat]:
                return say(lang, "You folded this hand.")
            title = hand_title(table.hand.game.name, table.live.record.number if table.live else '', lang=lang)
            return f"{title}\n{_hole.private_hand(table.hand, seat, self.card_for(user), lang=lang)}"
        last, users = table.last_hand, table.last_users
        if last is not None and user in users:
            seat = users.index(user)
            last_one = say(lang, "No hand now. Your last one, {hand}:",
                           hand=hand_title(last.game.name, table.last_number, lang=lang))
            return f"{last_one}\n{_hole.private_hand(last, seat, self.card_for(user), lang=lang)}"
        return say(lang, "You have no cards: you are not in the hand being played.")

    def my_hand(self, user: int, *, lang: Language = ENGLISH) -> str | None:
        """What My hand answers, in ``lang``: nothing of its own while he holds cards (his private message shows
        them), else ``hand_text``."""
        return None if self.cards_of(user) is not None else self.hand_text(user, lang=lang)

    def dm_heading(self, hand: Hand, *, lang: Language = ENGLISH) -> str:
        """The first line of a DM about ``hand``, in ``lang`` (the member's): which hand, at which table (a DM is
        not in the table's channel)."""
        number = self.table.live.record.number if self.table.live else self.table.last_number
        return say(lang, "{hand} at {channel}", hand=hand_title(hand.game.name, number, lang=lang),
                   channel=channel_mention(self.table.record.channel_id))

    def deal_text(self, hand: Hand, seat: int, *, lang: Language = ENGLISH) -> str:
        """The DM of a player's cards when a hand is dealt, in ``lang`` (the member's)."""
        user = self.table.live.users[seat] if self.table.live is not None else 0
        cards = _hole.private_hand(hand, seat, self.card_for(user), lang=lang)
        return f"{self.dm_heading(hand, lang=lang)}\n{cards}"

    def cards_of(self, user: int) -> Cards | None:
        """A player's cards in the hand being played, for his private message (what they make worded in the
        reader's language); None if he holds none (not dealt in, folded, no hand)."""
        live = self.table.live
        seat = self.table.engine_seat(user)
        if live is None or seat is None or live.hand.folded[seat]:
            return None
        hand = live.hand
        card = self.card_for(user)
        return Cards(live.record.id, _hole.cards_line(hand, seat, card),
                     partial(_caption, hand, seat, live.record.number, card))

    @staticmethod
    def drawn_cards(outcome: Outcome, seat: int | None) -> list[Card]:
        """The cards an outcome dealt to ``seat`` (a draw's replacements)."""
        return [c for e in outcome.events if isinstance(e, Dealt) and e.player == seat for c in e.cards]

    def preaction_view(self, user: int, lang: Language) -> discord.ui.View | None:
        """The pre-action buttons of ``user``'s private message, in ``lang``: while others act in a betting round he
        is in."""
        live, seat = self.table.live, self.table.engine_seat(user)
        if live is None or seat is None:
            return None
        chosen = self.preactions.get(user, live.record.id, _preactions.betting_round(live.hand))
        return _preactions.view(self.table.id, live.record.id, live.hand, seat, chosen, lang=lang)


def _caption(hand: Hand, seat: int, number: int, card: CardText, lang: Language) -> str:
    """The words under a player's large cards (``_hole.caption``), in ``lang``."""
    return _hole.caption(hand, seat, number, card, lang=lang)
