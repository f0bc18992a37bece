"""The components of the table: persistent action buttons, the dealer's-choice select,
the amount modal and the ephemeral draw view. They carry the table, hand and action
number in their custom_id, so a stale or repeated click is recognised, and they work
after a restart."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import discord

from bot.poker import Card, Legal, format_cards
from bot.render import chips

from ..errors import answers_errors

if TYPE_CHECKING:
    from ._runner import TableRunner

BUTTON = discord.ui.Button[discord.ui.View]
SELECT = discord.ui.Select[discord.ui.View]


def runner_of(interaction: discord.Interaction) -> TableRunner:
    """The table runner of the bot that received the interaction."""
    runner: TableRunner = interaction.client.table_runner  # type: ignore[attr-defined]
    return runner


ACTION_ID = r"pk:a:(?P<table>\d+):(?P<hand>\d+):(?P<seq>\d+):(?P<kind>[a-z]+)"
CHOICE_ID = r"pk:c:(?P<table>\d+):(?P<number>\d+)"


class ActionButton(discord.ui.DynamicItem[BUTTON], template=ACTION_ID):
    """A betting, drawing or "My hand" button of one table, hand and action number."""

    def __init__(self, table: int, hand: int, seq: int, kind: str, label: str = "…",
                 style: discord.ButtonStyle = discord.ButtonStyle.secondary, row: int | None = None) -> None:
        super().__init__(discord.ui.Button(label=label, style=style, row=row,
                                           custom_id=f"pk:a:{table}:{hand}:{seq}:{kind}"))
        self.table, self.hand, self.seq, self.kind = table, hand, seq, kind

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> ActionButton:
        return cls(int(match["table"]), int(match["hand"]), int(match["seq"]), match["kind"])

    @answers_errors
    async def callback(self, interaction: discord.Interaction) -> None:
        await runner_of(interaction).on_button(interaction, self.table, self.hand, self.seq, self.kind)


class ChoiceSelect(discord.ui.DynamicItem[SELECT], template=CHOICE_ID):
    """Dealer's choice: the games the button player may pick for the next hand."""

    def __init__(self, table: int, number: int, options: list[discord.SelectOption] | None = None) -> None:
        super().__init__(discord.ui.Select(custom_id=f"pk:c:{table}:{number}",
                                           placeholder="Dealer's choice: pick the game",
                                           options=options or [discord.SelectOption(label="…")]))
        self.table, self.number = table, number

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> ChoiceSelect:
        return cls(int(match["table"]), int(match["number"]))

    @answers_errors
    async def callback(self, interaction: discord.Interaction) -> None:
        data: Any = interaction.data or {}
        values = data.get("values") or []
        await runner_of(interaction).on_choice(interaction, self.table, self.number, str(values[0]) if values else "")


class AmountModal(discord.ui.Modal, title="Bet or raise"):
    """Any amount in pot and no limit. The range goes in the label's description: a text input's own label
    is deprecated and holds only 45 characters, too few for big stakes."""

    def __init__(self, table: int, hand: int, seq: int, legal: Legal) -> None:
        super().__init__(custom_id=f"pk:m:{table}:{hand}:{seq}")
        self.table, self.hand, self.seq = table, hand, seq
        self.amount: discord.ui.TextInput[AmountModal] = discord.ui.TextInput(
            custom_id="amount", max_length=20, placeholder=str(legal.min_raise_to))
        word = "Bet" if legal.is_bet else "Raise to"
        self.add_item(discord.ui.Label(
            text=f"{word} (total this round)", component=self.amount,
            description=f"From {chips(legal.min_raise_to)} to {chips(legal.max_raise_to)} chips"))

    @answers_errors
    async def on_submit(self, interaction: discord.Interaction) -> None:
        await runner_of(interaction).on_amount(interaction, self.table, self.hand, self.seq, self.amount.value)


DRAW_PICK_ID = r"pk:p:(?P<table>\d+):(?P<hand>\d+):(?P<seq>\d+)"
DRAW_ID = r"pk:d:(?P<table>\d+):(?P<hand>\d+):(?P<seq>\d+):(?P<kind>sd|sdu|pat):(?P<cards>(?:[2-9TJQKA][cdhs]|X[12])*)"


class DrawPick(discord.ui.DynamicItem[SELECT], template=DRAW_PICK_ID):
    """The draw view's multi-select of the player's cards."""

    def __init__(self, table: int, hand: int, seq: int, legal: Legal | None = None,
                 chosen: Sequence[Card] = ()) -> None:
        cards = legal.hand if legal is not None else ()
        limit = max(1, min(legal.max_discards, len(cards))) if legal is not None else 1
        options = [discord.SelectOption(label=c.pretty(), value=c.code, default=c in chosen) for c in cards]
        super().__init__(discord.ui.Select(
            custom_id=f"pk:p:{table}:{hand}:{seq}", placeholder=f"Cards to throw (up to {limit})", min_values=0,
            max_values=limit, options=options or [discord.SelectOption(label="…")], row=0))
        self.table, self.hand, self.seq = table, hand, seq

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> DrawPick:
        return cls(int(match["table"]), int(match["hand"]), int(match["seq"]))

    @answers_errors
    async def callback(self, interaction: discord.Interaction) -> None:
        data: Any = interaction.data or {}
        values = [str(v) for v in data.get("values") or []]
        await runner_of(interaction).on_draw_pick(interaction, self.table, self.hand, self.seq, values)


class DrawButton(discord.ui.DynamicItem[BUTTON], template=DRAW_ID):
    """Discard (the cards picked, carried in the custom_id), Stand pat, or Assassin's discard with twos face up."""

    LABELS = {"sd": ("Discard", discord.ButtonStyle.primary), "pat": ("Stand pat", discord.ButtonStyle.secondary),
              "sdu": ("Discard, twos face up", discord.ButtonStyle.danger)}

    def __init__(self, table: int, hand: int, seq: int, kind: str, cards: str = "") -> None:
        label, style = self.LABELS[kind]
        super().__init__(discord.ui.Button(label=label, style=style, row=1,
                                           custom_id=f"pk:d:{table}:{hand}:{seq}:{kind}:{cards}"))
        self.table, self.hand, self.seq, self.kind, self.cards = table, hand, seq, kind, cards

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> DrawButton:
        return cls(int(match["table"]), int(match["hand"]), int(match["seq"]), match["kind"], match["cards"])

    @answers_errors
    async def callback(self, interaction: discord.Interaction) -> None:
        await runner_of(interaction).on_draw_button(interaction, self.table, self.hand, self.seq, self.kind,
                                                    self.cards)


def draw_view(table: int, hand: int, seq: int, legal: Legal, chosen: Sequence[Card] = ()) -> discord.ui.View:
    """The ephemeral draw: pick the cards to throw, then discard or stand pat. Every component carries the table,
    hand and action number (and Discard the cards picked), so the view needs no memory and survives a restart."""
    view = discord.ui.View(timeout=None)
    view.add_item(DrawPick(table, hand, seq, legal, chosen))
    cards = format_cards(chosen)
    view.add_item(DrawButton(table, hand, seq, "sd", cards))
    view.add_item(DrawButton(table, hand, seq, "pat"))
    if legal.face_up_twos:
        view.add_item(DrawButton(table, hand, seq, "sdu", cards))
    return view
