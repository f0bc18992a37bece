"""The draw: the picker (the player's cards as buttons; a tap marks a card to throw, one more tap draws), the cards
a player types for ``/poker draw``, and the draw form of an earlier version.

Drawing k cards takes k + 2 taps (Draw…, the k cards, then Throw k); standing pat takes one (the table's Stand
pat button). The cards marked travel in the buttons' custom_ids as a bit mask, so the picker keeps no state and
works after a restart. Which twos may go face up (Assassin) is the engine's to say (``Legal.draw``).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

import discord

from bot.i18n import ENGLISH, Language, Text, say
from bot.poker import Card, CardError, Draw, Legal, Move, parse_cards
from bot.tables import TableError

from ..reply import Reply
from ..views import dynamic_view
from ._items import Field, TableItem, number
from ._play import draw, in_phase
from ._runner import TableRunner
from ._text import unbroken

__all__ = ["CardButton", "ThrowButton", "picker", "read_cards", "readable", "thrown", "typed_draw"]

BUTTON = discord.ui.Button[discord.ui.View]
FACE_UP, FACE_DOWN = "face-up", "face-down"  # the twos option of /poker draw
OVER = Text("That draw is over; press Draw… again.")
_SUITS = {"♠": "s", "♥": "h", "♦": "d", "♣": "c"}
_SUIT_OF = {v: k for k, v in _SUITS.items()}
_FOUR_COLOUR_SUITS = {"\U0001f537": "d", "\u2618": "c"}  # the four-colour text deck's diamond and club


def thrown(legal: Legal, mask: int) -> tuple[Card, ...]:
    """The cards a mask marks, in the order of the hand."""
    return tuple(card for i, card in enumerate(legal.hand) if mask >> i & 1)


def _marked(legal: Legal, mask: int) -> Legal:
    """``legal`` if the hand is at a draw and ``mask`` marks cards of it; else the picker is stale."""
    if legal.phase != "drawing" or mask >> len(legal.hand):
        raise TableError(OVER)
    return legal


def hand_user(table: Any, seat: int) -> int:
    """The member in ``seat`` of the hand being played (0 if none)."""
    live = table.live
    return live.users[seat] if live is not None and 0 <= seat < len(live.users) else 0


def picker(runner: TableRunner, hand_id: int, seq: int, legal: Legal, mask: int, *, lang: Language
           ) -> tuple[str, discord.ui.View]:
    """The picker's text and buttons for the cards marked in ``mask``, in the player's language: his cards appear
    once, as the buttons (one row, the marked ones red; the Throw button counts them), the text says only which
    draw and what he holds."""
    table = runner.table
    hand = table.hand
    assert hand is not None
    value = hand.value_of(legal.player)
    describe = (say(lang, "holds a two") if hand.is_assassinated(legal.player)
                else unbroken(value.describe(lang=lang)) if value else None)
    user = hand_user(table, legal.player)
    card, emoji = runner.own_cards.card_for(user), runner.own_cards.emoji_for(user)
    picked = thrown(legal, mask)
    head = _picker_head(legal, str(hand.draw_number + 1), str(hand.game.draws), lang)
    lines = [head, describe] if describe else [head]  # the cards once: as the buttons, in one row of five
    result = dynamic_view()
    full = len(picked) >= legal.max_discards
    for i, held in enumerate(legal.hand):
        marked = bool(mask >> i & 1)
        face = emoji(held)
        result.add_item(CardButton(table.id, hand_id, seq, mask ^ (1 << i), i, emoji=face, thrown=marked,
                                   label=None if face else card(held), disabled=full and not marked))
    for label, up, style in _confirmations(legal, picked, lang=lang):
        result.add_item(ThrowButton(table.id, hand_id, seq, mask, up, label, style))
    return "\n".join(lines), result


def _picker_head(legal: Legal, draw: str, draws: str, lang: Language) -> str:
    """The picker's first line: which draw, and how many cards may be thrown when not all."""
    if legal.max_discards >= len(legal.hand):
        return say(lang, "Draw {draw} of {draws} · tap the cards to throw", draw=draw, draws=draws)
    if legal.max_needs_ace:
        return say(lang, "Draw {draw} of {draws} · tap the cards to throw (up to {limit}, four only keeping an ace)",
                   draw=draw, draws=draws, limit=legal.max_discards)
    return say(lang, "Draw {draw} of {draws} · tap the cards to throw (up to {limit})", draw=draw, draws=draws,
               limit=legal.max_discards)


def _confirmations(legal: Legal, picked: Sequence[Card], *, lang: Language = ENGLISH
                   ) -> list[tuple[str, bool, discord.ButtonStyle]]:
    """The picker's last buttons: stand pat, throw the marked cards, and in Assassin whether their twos go face
    up. Face up, one card more than thrown, however many twos (docs/rules.md, Assassin: "Twos kill")."""
    if not picked:
        return [(say(lang, "Stand pat"), False, discord.ButtonStyle.secondary)]
    count = len(picked)
    twos = legal.face_up_among(picked)
    if not twos:
        return [(say(lang, "Throw {count}", count=count), False, discord.ButtonStyle.primary)]
    return [(_face_up(twos, count, lang), True, discord.ButtonStyle.primary),
            (say(lang, "Throw {count} · face down, draw {drawn}", count=count, drawn=count), False,
             discord.ButtonStyle.secondary)]


def _face_up(twos: Sequence[Card], count: int, lang: Language) -> str:
    """The picker's button that throws ``count`` cards with ``twos`` (twos or jokers) face up: one card more."""
    drawn = count + 1
    if all(c.is_joker for c in twos):
        return say(lang, "Throw {count} · joker face up, draw {drawn}", count=count, drawn=drawn) if len(twos) == 1 \
            else say(lang, "Throw {count} · jokers face up, draw {drawn}", count=count, drawn=drawn)
    return say(lang, "Throw {count} · two face up, draw {drawn}", count=count, drawn=drawn) if len(twos) == 1 \
        else say(lang, "Throw {count} · twos face up, draw {drawn}", count=count, drawn=drawn)


class CardButton(TableItem[BUTTON], kind="card",
                 fields=[number("hand"), number("seq"), number("mask"), number("card", r"\d")]):
    """One card of the picker: a tap marks it to throw, another keeps it (the picker is shown again)."""

    def __init__(self, table: int, hand: int, seq: int, mask: int, card: int, *, label: str | None = None,
                 emoji: discord.PartialEmoji | str | None = None, thrown: bool = False, disabled: bool = False,
                 runner: TableRunner | None = None) -> None:
        style = discord.ButtonStyle.danger if thrown else discord.ButtonStyle.secondary
        super().__init__(discord.ui.Button(label=label, emoji=emoji, style=style, row=0, disabled=disabled,
                                           custom_id=self.make_id(table, hand, seq, mask, card)))
        self.table, self.hand, self.seq, self.mask, self.card, self.runner = table, hand, seq, mask, card, runner

    async def clicked(self, reply: Reply) -> None:
        runner = self.runner
        assert runner is not None
        legal = _marked(runner.table.check_turn(reply.user, self.hand, self.seq), self.mask)
        content, view = picker(runner, self.hand, self.seq, legal, self.mask, lang=reply.language)
        await reply.update(content=content, view=view)


class ThrowButton(TableItem[BUTTON], kind="throw",
                  fields=[number("hand"), number("seq"), number("mask"), Field("face_up", "[01]", "1".__eq__)]):
    """The picker's last tap: throw the marked cards (none: stand pat), Assassin's twos face up or not; the picker
    then shows what came."""

    def __init__(self, table: int, hand: int, seq: int, mask: int, face_up: bool, label: str = "Draw",
                 style: discord.ButtonStyle = discord.ButtonStyle.primary, runner: TableRunner | None = None) -> None:
        super().__init__(discord.ui.Button(label=label, style=style, row=1,
                                           custom_id=self.make_id(table, hand, seq, mask, int(face_up))))
        self.table, self.hand, self.seq, self.mask, self.face_up, self.runner = table, hand, seq, mask, face_up, runner

    async def clicked(self, reply: Reply) -> None:
        assert self.runner is not None

        def move(legal: Legal) -> Move:
            return _marked(legal, self.mask).draw(thrown(legal, self.mask), face_up=self.face_up)

        await draw(self.runner, reply, self.hand, self.seq, move, drawn_from="picker")


# ------------------------------------------------------------------ a draw typed, and the old draw form


def readable(card: Card) -> str:
    """A card as a player reads it: ``K♠``, ``10♦``, ``Joker``."""
    if card.is_joker:
        return "Joker"
    if card.is_unknown:
        return card.code
    rank = "10" if card.code[0] == "T" else card.code[0]
    return rank + _SUIT_OF[card.code[1]]


def read_cards(text: str) -> list[Card]:
    """The cards a player typed: ``"Ks 9d"``, ``"ks9d"``, ``"10h Th"``, ``"K♠ 9♦"`` (as the suggestions show them),
    ``"Joker"``; a CardError saying which part is not a card."""
    cleaned = text.replace("\ufe0f", "")
    for symbol, suit in (*_SUITS.items(), *_FOUR_COLOUR_SUITS.items()):
        cleaned = cleaned.replace(symbol, suit)
    cleaned = re.sub(r"jokers?", "X1", cleaned, flags=re.IGNORECASE)
    cleaned = cleaned.replace("10", "T")
    return parse_cards(cleaned)


def typed_draw(text: str, twos: str | None, legal: Legal) -> Draw:
    """The draw a player typed (``/poker draw cards [twos]``), checked against his hand as the picker would."""
    in_phase("drawing", legal)
    held = ", ".join(readable(c) for c in legal.hand)
    if not text.strip():
        raise TableError(Text("Name the cards to throw (your hand: {hand}), or stand pat with `/poker pat`.",
                              hand=held))
    try:
        typed = read_cards(text)
    except CardError:
        shown = text.strip() if len(text.strip()) <= 40 else text.strip()[:40] + "…"
        raise TableError(Text("“{typed}” is not a list of cards: write them like `Ks 9d` (a ten as 10 or T). "
                              "Your hand: {hand}.", typed=shown, hand=held)) from None
    jokers = [c for c in legal.hand if c.is_joker and c not in typed]
    typed = [jokers.pop(0) if c.is_joker and c not in legal.hand and jokers else c for c in typed]  # "joker"
    foreign = [c for c in typed if c not in legal.hand]
    if foreign:
        raise TableError(Text("You do not hold {cards}. Your hand: {hand}.",
                              cards=" ".join(readable(c) for c in foreign), hand=held))
    if not typed:
        raise TableError(Text("Name the cards to throw, or stand pat with `/poker pat`."))
    if twos is None and legal.face_up_among(typed):
        raise TableError(Text("You throw a two: say how, with `twos:face-up` (one extra card after the draw) or "
                              "`twos:face-down`."))
    return legal.draw(typed, face_up=twos == FACE_UP)
