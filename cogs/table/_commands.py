"""The moves by slash command (issue 16): /poker fold, check, call, bet, raise, allin, draw and pat.

A command is the typed twin of a button: it finds the turn the table is at now (hand and action number), asks the
cog the same turn check a click gets (``TableCog.check_click``, which asks ``Table.check_turn``), builds the same
typed move, and plays it through the same path (``TableCog._apply`` and ``TableCog._draw``: the table's lock and
store write, the table message, the DM of a draw). It then answers the caller, ephemerally, with what happened.
Nothing here decides a rule: what is legal comes from the engine's ``Legal`` and its refusals.

A command and a click for the same turn race on the table's lock; the second finds the action number moved on
and is refused as late. A command is acknowledged (ephemerally) as soon as its checks pass, before the move: its
answer, which may show new cards, can then never become a public message.
"""

from __future__ import annotations

import itertools
import re
import time
from collections.abc import Awaitable
from typing import TYPE_CHECKING

import discord
from discord import app_commands

from bot.poker import BetRaise, Card, CardError, CheckCall, Draw, Fold, IllegalAction, Legal, Move, parse_cards
from bot.tables import Table, TableError

from ..acknowledge import defer_thinking
from ._answers import APPLIED
from ._text import chips

if TYPE_CHECKING:
    from ._cog import TableCog

MAX_CHOICES = 25  # Discord: an autocomplete answer holds at most 25 choices
MAX_NAME = 100  # and each name at most 100 characters
FACE_UP, FACE_DOWN = "face-up", "face-down"
TWOS_CHOICES = [app_commands.Choice(name="Face up: one extra card after the draw", value=FACE_UP),
                app_commands.Choice(name="Face down", value=FACE_DOWN)]
NO_TWO_TO_SHOW = "You chose to throw twos face up, but the cards you picked hold no two."
LATE = "Too late: your turn was already played (a click, another command or the clock came first)."
LATE_WINDOW = 3.0  # seconds: Discord's time to answer an interaction; a command sent with a click comes within it
_SUITS = {"♠": "s", "♥": "h", "♦": "d", "♣": "c"}
_SUIT_OF = {v: k for k, v in _SUITS.items()}


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
    for symbol, suit in _SUITS.items():
        cleaned = cleaned.replace(symbol, suit)
    cleaned = re.sub(r"jokers?", "X1", cleaned, flags=re.IGNORECASE)
    cleaned = cleaned.replace("10", "T")
    return parse_cards(cleaned)


def _move_text(move: Move, legal: Legal) -> str:
    """What the caller is told once his move is made ("You call 20.")."""
    if isinstance(move, Fold):
        return "You fold."
    if isinstance(move, CheckCall):
        if legal.can_check:
            return "You check."
        return f"You call {chips(legal.call_amount)}" + (", all in." if legal.call_is_all_in else ".")
    if isinstance(move, BetRaise):
        all_in = " (all in)" if move.to == legal.all_in_to else ""
        verb = "bet" if legal.is_bet else "raise to"
        return f"You {verb} {chips(move.to)}{all_in}."
    return "Done."


def parse_amount(text: str, legal: Legal) -> int:
    """The chips a player typed in the amount form ("1,000" is 1000); the range is the engine's to check."""
    amount = text.strip().replace(",", "").replace("_", "")
    word = "bet" if legal.is_bet else "raise"
    bounds = f"from {chips(legal.min_raise_to)} to {chips(legal.max_raise_to)}"
    if not amount:
        raise TableError(f"Type how many chips to {word} to, {bounds}.")
    if amount.startswith("-") and amount[1:].isascii() and amount[1:].isdigit():
        raise TableError(f"An amount cannot be negative: give a whole number of chips, {bounds}.")
    if not amount.isascii() or not amount.isdigit():
        shown = text.strip()
        shown = shown if len(shown) <= 40 else shown[:40] + "…"
        raise TableError(f"“{shown}” is not an amount: give a whole number of chips, {bounds}.")
    return int(amount) if len(amount.lstrip("0")) <= 16 else legal.max_raise_to + 1  # no 10**4000 here


def with_range(error: IllegalAction, legal: Legal) -> TableError:
    """The engine's refusal of an amount, with the amounts allowed now."""
    text = str(error)
    text = text[:1].upper() + text[1:].rstrip(".")
    if legal.can_raise and legal.min_raise_to != legal.max_raise_to:
        word = "bet" if legal.is_bet else "raise"
        text += f": you can {word} to any total from {chips(legal.min_raise_to)} to {chips(legal.max_raise_to)}"
    return TableError(text + ".")


class MoveCommands:
    """The move commands of one table cog."""

    def __init__(self, cog: TableCog) -> None:
        self.cog = cog
        self._played: dict[int, tuple[int, bool, float]] = {}  # table id: (who moved last, a draw?, when)

    def played(self, table_id: int, user: int, move: Move) -> None:
        """A move was made at a table (by a click, a form or a command: ``TableCog._apply`` says so)."""
        self._played[table_id] = (user, isinstance(move, Draw), time.monotonic())

    def _just_played(self, table: Table, user: int, kind: str) -> bool:
        """Whether ``user`` made a move of this kind (a bet or a draw) at ``table`` a moment ago: his command, sent
        with a click (or a second command) for the same turn, comes too late, and is told so."""
        last = self._played.get(table.id)
        if last is None or last[0] != user or last[1] != (kind in ("draw", "pat")):
            return False
        return time.monotonic() - last[2] < LATE_WINDOW

    # ------------------------------------------------------------------ the turn

    async def turn(self, interaction: discord.Interaction, kind: str) -> tuple[Table, int, int, Legal]:
        """The table, hand and action number the caller would act on now, and what he may do; the button's
        refusal (not seated, not your turn, not this phase) if he may not. A move being stored is waited for
        first: the command reads the table as it is once that move is made (or undone)."""
        table = self.cog._table(interaction)
        if table.lock.locked():  # acknowledged first: the wait must not outlast Discord's 3 seconds
            await self._acknowledge(interaction)
            async with table.lock:
                pass
        user = interaction.user.id
        live = table.live
        if live is None:
            if table.seat_of(user) is None:
                raise TableError("You are not seated at this table.")
            if self._just_played(table, user, kind):
                raise TableError(LATE)  # his move (a click a moment before) ended the hand
            raise TableError("No hand is being played now.")
        hand_id, seq = live.record.id, live.seq
        try:
            self.cog.check_click(interaction, table.id, hand_id, seq, kind)
        except TableError:
            if self._just_played(table, user, kind):
                raise TableError(LATE) from None  # a click played his turn a moment before
            raise
        return table, hand_id, seq, table.check_turn(user, hand_id, seq)

    async def _acknowledge(self, interaction: discord.Interaction) -> None:
        """The checks passed: acknowledge now, ephemerally (Discord's "thinking…", seen only by the caller)."""
        await defer_thinking(interaction, ephemeral=True)

    @staticmethod
    async def _late_refused(play: Awaitable[object], interaction: discord.Interaction, table: Table, hand_id: int,
                            seq: int) -> None:
        """``play``, the move; a refusal because the turn moved on meanwhile (a click or the clock was first) is
        said as such. A failure after the move was stored (``APPLIED``) is not a refusal and goes as it is."""
        try:
            await play
        except TableError:
            live = table.live
            moved = live is None or live.record.id != hand_id or live.seq != seq
            if moved and not interaction.extras.get(APPLIED):
                raise TableError(LATE) from None
            raise

    # ------------------------------------------------------------------ betting

    async def bet(self, interaction: discord.Interaction, kind: str, amount: str | None = None) -> None:
        """/poker fold, check, call, bet, raise and allin (``kind``: fold, check, call, raise, allin)."""
        table, hand_id, seq, legal = await self.turn(interaction, "allin" if kind == "allin" else
                                               "fold" if kind == "fold" else "cc")
        move = self._betting_move(kind, legal, amount)
        await self._acknowledge(interaction)
        session = self.cog.session(table)
        try:
            await self._late_refused(self.cog._apply(session, interaction.user.id, move, seq, interaction,
                                                     answer=False), interaction, table, hand_id, seq)
        except IllegalAction as error:
            if isinstance(move, BetRaise):
                raise with_range(error, legal) from None
            raise
        done = f"You are all in for {chips(legal.all_in_to)}." if kind == "allin" and isinstance(move, BetRaise) \
            else _move_text(move, legal)  # all in: the words of the button's confirmation
        await self.cog.answers.send(interaction, done)

    @staticmethod
    def _betting_move(kind: str, legal: Legal, amount: str | None) -> Move:
        """The move a betting command makes, as its button would (``button_move``, the amount form)."""
        if kind == "fold":
            return Fold()
        if kind == "check":
            if not legal.can_check:
                raise TableError(f"You cannot check: you face a bet of {chips(legal.call_amount)}. "
                                 "Call it, raise, or fold.")
            return CheckCall()
        if kind == "call":
            if legal.can_check:
                raise TableError("There is no bet to call: check (`/poker check`) or bet.")
            return CheckCall()
        if kind == "allin":
            if not legal.can_raise and legal.call_is_all_in:
                return CheckCall()  # calling takes every chip: that is all in
            return BetRaise(legal.all_in_to)
        if not legal.can_raise:
            why = legal.why_no_raise or "there is no bet or raise to make now"
            raise TableError(why[:1].upper() + why[1:].rstrip(".") + ".")
        return BetRaise(parse_amount(amount or "", legal))

    # ------------------------------------------------------------------ the draw

    async def draw(self, interaction: discord.Interaction, text: str | None, twos: str | None = None) -> None:
        """/poker draw cards [twos] (``text`` None: /poker pat)."""
        table, hand_id, seq, legal = await self.turn(interaction, "pat" if text is None else "draw")
        move = Draw() if text is None else self._draw_move(text, twos, legal)
        await self._acknowledge(interaction)
        await self._late_refused(self.cog._draw(self.cog.session(table), interaction.user.id, move, seq,
                                                interaction, command=True), interaction, table, hand_id, seq)

    @staticmethod
    def _draw_move(text: str, twos: str | None, legal: Legal) -> Draw:
        """The draw the caller typed, checked against his hand as the draw form checks it."""
        held = ", ".join(readable(c) for c in legal.hand)
        if not text.strip():
            raise TableError(f"Name the cards to throw (your hand: {held}), or stand pat with `/poker pat`.")
        try:
            cards = read_cards(text)
        except CardError:
            shown = text.strip() if len(text.strip()) <= 40 else text.strip()[:40] + "…"
            raise TableError(f"“{shown}” is not a list of cards: write them like `Ks 9d` (a ten as 10 or T). "
                             f"Your hand: {held}.") from None
        jokers = [c for c in legal.hand if c.is_joker and c not in cards]
        cards = [jokers.pop(0) if c.is_joker and c not in legal.hand and jokers else c for c in cards]  # "joker"
        foreign = [c for c in cards if c not in legal.hand]
        if foreign:
            raise TableError(f"You do not hold {' '.join(readable(c) for c in foreign)}. Your hand: {held}.")
        if not cards:
            raise TableError("Name the cards to throw, or stand pat with `/poker pat`.")
        face_up = twos == FACE_UP
        thrown_twos = tuple(c for c in cards if c.is_two)
        if face_up and not thrown_twos:
            raise TableError(NO_TWO_TO_SHOW)
        if twos is None and any(c in legal.face_up_twos for c in cards):
            raise TableError("You throw a two: say how, with `twos:face-up` (one extra card after the draw) or "
                             "`twos:face-down`.")
        return Draw(tuple(cards), face_up=thrown_twos if face_up else ())

    def suggestions(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        """The draws the caller could type, from his own cards only (nobody else's: a spectator, a player out of
        the hand or one who folded gets none). Those that keep what he typed so far come first."""
        table = self.cog.bot.tables.get(interaction.channel_id or 0)
        if table is None or table.hand is None:
            return []
        seat = table.engine_seat(interaction.user.id)
        hand = table.hand
        if seat is None or hand.folded[seat]:
            return []
        held = list(hand.holes[seat])
        legal = table.legal()
        limit = legal.max_discards if legal is not None and legal.player == seat and legal.phase == "drawing" \
            else len(held)
        typed: list[Card] = []
        for token in re.split(r"[\s,]+", current.strip()):
            try:
                typed.extend(c for c in read_cards(token) if c in held and c not in typed)
            except CardError:
                continue
        choices: list[app_commands.Choice[str]] = []
        for size in range(max(1, len(typed)), min(limit, len(held)) + 1):
            for combo in itertools.combinations(held, size):
                if not set(typed) <= set(combo):
                    continue
                name = " ".join(readable(c) for c in combo)[:MAX_NAME]
                choices.append(app_commands.Choice(name=name, value=" ".join(c.code for c in combo)))
                if len(choices) == MAX_CHOICES:
                    return choices
        return choices
