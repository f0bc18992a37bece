"""The components of the table: persistent action buttons, the dealer's-choice select,
the amount modal and the ephemeral draw view. They carry the table, hand and action
number in their custom_id, so a stale or repeated click is recognised after a restart."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

import discord

from bot.poker import Card, Legal, format_cards, parse_cards
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
    """Any amount in pot and no limit."""

    amount: discord.ui.TextInput[AmountModal] = discord.ui.TextInput(label="Total bet this round", max_length=20)

    def __init__(self, table: int, hand: int, seq: int, legal: Legal) -> None:
        super().__init__(custom_id=f"pk:m:{table}:{hand}:{seq}")
        self.table, self.hand, self.seq = table, hand, seq
        word = "Bet" if legal.is_bet else "Raise to"
        self.amount.label = f"{word} ({chips(legal.min_raise_to)} to {chips(legal.max_raise_to)})"
        self.amount.placeholder = str(legal.min_raise_to)

    @answers_errors
    async def on_submit(self, interaction: discord.Interaction) -> None:
        await runner_of(interaction).on_amount(interaction, self.table, self.hand, self.seq, self.amount.value)


class DrawView(discord.ui.View):
    """The ephemeral draw: pick the cards to throw, then discard or stand pat."""

    def __init__(self, table: int, hand: int, seq: int, legal: Legal, user: int) -> None:
        super().__init__(timeout=600)
        self.table, self.hand, self.seq, self.user = table, hand, seq, user
        self.chosen: list[Card] = []
        limit = min(legal.max_discards, len(legal.hand))
        select: SELECT = discord.ui.Select(
            placeholder=f"Cards to throw (up to {limit})", min_values=0, max_values=max(limit, 1),
            options=[discord.SelectOption(label=c.pretty(), value=c.code) for c in legal.hand],
        )
        select.callback = self._picked  # type: ignore[method-assign]
        self.select = select
        self.add_item(select)
        self.add_item(self._button("Discard", discord.ButtonStyle.primary, "discard"))
        self.add_item(self._button("Stand pat", discord.ButtonStyle.secondary, "pat"))
        if legal.face_up_twos:
            self.add_item(self._button("Discard, twos face up", discord.ButtonStyle.danger, "up"))

    def _button(self, label: str, style: discord.ButtonStyle, kind: str) -> BUTTON:
        button: BUTTON = discord.ui.Button(label=label, style=style)

        async def clicked(interaction: discord.Interaction) -> None:
            await self._decide(interaction, kind)

        button.callback = clicked  # type: ignore[method-assign]
        return button

    @answers_errors
    async def _picked(self, interaction: discord.Interaction) -> None:
        self.chosen = parse_cards(self.select.values)
        shown = " ".join(c.pretty() for c in self.chosen) or "nothing"
        await interaction.response.edit_message(content=f"Throwing: {shown}. Now press Discard (or Stand pat).")

    @answers_errors
    async def _decide(self, interaction: discord.Interaction, kind: str) -> None:
        if kind == "pat":
            action = "sd"
        elif not self.chosen:
            await interaction.response.send_message("Pick the cards to throw first, or press Stand pat.",
                                                    ephemeral=True)
            return
        else:
            action = ("sdu " if kind == "up" else "sd ") + format_cards(self.chosen)
        await runner_of(interaction).on_draw(interaction, self.table, self.hand, self.seq, action)
        self.stop()
