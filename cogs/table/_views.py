"""The components of the table: persistent action buttons, the dealer's-choice selects, the amount form and
the draw form.

They carry the table, hand and action number in their custom_id, so a stale or repeated click is recognised,
and they work after a restart. Each item finds what it acts on once, from the interaction: the table cog
(``bot.get_cog``, typed by the ``Controls`` protocol, so this module imports nothing of the cog's) checks the
turn in ``interaction_check`` and then handles the click; the items decide nothing themselves.
"""

from __future__ import annotations

import re
from typing import Any, Protocol

import discord

from bot.poker import Legal
from cogs.render import chips

from ..errors import answers_errors, report
from ..tournament_views import TournamentButton

BUTTON = discord.ui.Button[discord.ui.View]
SELECT = discord.ui.Select[discord.ui.View]

COG_NAME = "TableCog"
ACTION_ID = r"pk:a:(?P<table>\d+):(?P<hand>\d+):(?P<seq>\d+):(?P<kind>[a-z]+)"
CHOICE_ID = r"pk:c:(?P<table>\d+):(?P<number>\d+)"
STRUCTURE_ID = r"pk:s:(?P<table>\d+):(?P<number>\d+)"
DEAL_ID = r"pk:g:(?P<table>\d+):(?P<number>\d+)"
SEAT_ID = r"pk:t:(?P<table>\d+):(?P<kind>[a-z]+)"
TOGGLE_ID = r"pk:d:(?P<table>\d+):(?P<hand>\d+):(?P<seq>\d+):(?P<mask>\d+):(?P<card>\d)"
CONFIRM_ID = r"pk:e:(?P<table>\d+):(?P<hand>\d+):(?P<seq>\d+):(?P<mask>\d+):(?P<up>[01])"
DEFAULT_STRUCTURE = "default"
TURN_FREE_KINDS = frozenset({"hand"})  # buttons anyone seated may press, whoever's turn it is


class Controls(Protocol):
    """What the components ask of the table cog."""

    def check_click(self, interaction: discord.Interaction, table: int, hand: int, seq: int, kind: str) -> None:
        """Raise a refusal (not this table, not your turn, an old button) before a click is handled."""

    async def on_button(self, interaction: discord.Interaction, table: int, hand: int, seq: int,
                        kind: str) -> None: ...

    async def on_amount(self, interaction: discord.Interaction, table: int, hand: int, seq: int,
                        text: str) -> None: ...

    async def on_draw(self, interaction: discord.Interaction, table: int, hand: int, seq: int, codes: list[str],
                      *, face_up: bool) -> None: ...

    async def on_choice(self, interaction: discord.Interaction, table: int, game: str) -> None: ...

    async def on_structure(self, interaction: discord.Interaction, table: int, structure: str | None) -> None: ...

    async def on_deal(self, interaction: discord.Interaction, table: int, number: int) -> None: ...

    async def on_seat(self, interaction: discord.Interaction, table: int, kind: str) -> None: ...

    async def on_rebuy(self, interaction: discord.Interaction, table: int, text: str) -> None: ...

    async def on_toggle(self, interaction: discord.Interaction, table: int, hand: int, seq: int, mask: int,
                        card: int) -> None: ...

    async def on_draw_confirm(self, interaction: discord.Interaction, table: int, hand: int, seq: int, mask: int,
                              face_up: bool) -> None: ...


def controls_of(interaction: discord.Interaction) -> Controls:
    """The table cog of the bot that received the interaction."""
    cog: Any = interaction.client.get_cog(COG_NAME)  # type: ignore[attr-defined]
    if cog is None:
        raise RuntimeError("the table extension is not loaded")
    controls: Controls = cog
    return controls


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

    async def interaction_check(self, interaction: discord.Interaction, /) -> bool:
        """The turn is checked once, here: a refused click is answered and goes no further."""
        first_delivery = getattr(interaction.client, "first_delivery", None)
        if first_delivery is not None and not first_delivery(interaction):
            return False  # delivered again: answered once already
        try:
            controls_of(interaction).check_click(interaction, self.table, self.hand, self.seq, self.kind)
        except Exception as error:
            await report(interaction, error)
            return False
        return True

    @answers_errors
    async def callback(self, interaction: discord.Interaction) -> None:
        await controls_of(interaction).on_button(interaction, self.table, self.hand, self.seq, self.kind)


def _picked(interaction: discord.Interaction) -> str | None:
    data: Any = interaction.data or {}
    values = data.get("values") or []
    return str(values[0]) if values else None


class ChoiceSelect(discord.ui.DynamicItem[SELECT], template=CHOICE_ID):
    """Dealer's choice: the games the button player may pick for the next hand."""

    def __init__(self, table: int, number: int, options: list[discord.SelectOption] | None = None) -> None:
        super().__init__(discord.ui.Select(custom_id=f"pk:c:{table}:{number}",
                                           placeholder="Dealer's choice: pick the game",
                                           options=options or [discord.SelectOption(label="…")], row=0))
        self.table, self.number = table, number

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> ChoiceSelect:
        return cls(int(match["table"]), int(match["number"]))

    @answers_errors
    async def callback(self, interaction: discord.Interaction) -> None:
        await controls_of(interaction).on_choice(interaction, self.table, _picked(interaction) or "")


class StructureSelect(discord.ui.DynamicItem[SELECT], template=STRUCTURE_ID):
    """Dealer's choice, when the host allows it: the structure of the next game (before the game is picked)."""

    def __init__(self, table: int, number: int, options: list[discord.SelectOption] | None = None) -> None:
        super().__init__(discord.ui.Select(custom_id=f"pk:s:{table}:{number}", placeholder="Structure",
                                           options=options or [discord.SelectOption(label="…")], row=1))
        self.table, self.number = table, number

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> StructureSelect:
        return cls(int(match["table"]), int(match["number"]))

    @answers_errors
    async def callback(self, interaction: discord.Interaction) -> None:
        value = _picked(interaction) or DEFAULT_STRUCTURE
        await controls_of(interaction).on_structure(interaction, self.table,
                                                    None if value == DEFAULT_STRUCTURE else value)


class DealButton(discord.ui.DynamicItem[BUTTON], template=DEAL_ID):
    """Dealer's choice: deal the game picked (picking in the menu only shows the choice; this deals it)."""

    def __init__(self, table: int, number: int, label: str = "Deal", *, disabled: bool = False) -> None:
        super().__init__(discord.ui.Button(label=label, style=discord.ButtonStyle.success, row=2,
                                           custom_id=f"pk:g:{table}:{number}", disabled=disabled))
        self.table, self.number = table, number

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> DealButton:
        return cls(int(match["table"]), int(match["number"]))

    @answers_errors
    async def callback(self, interaction: discord.Interaction) -> None:
        await controls_of(interaction).on_deal(interaction, self.table, self.number)


class SeatButton(discord.ui.DynamicItem[BUTTON], template=SEAT_ID):
    """A button for everyone at the table, whoever's turn it is: My hand, Join, Sit out / in, Rebuy…, Leave."""

    def __init__(self, table: int, kind: str, label: str = "…",
                 style: discord.ButtonStyle = discord.ButtonStyle.secondary, row: int | None = None) -> None:
        super().__init__(discord.ui.Button(label=label, style=style, row=row, custom_id=f"pk:t:{table}:{kind}"))
        self.table, self.kind = table, kind

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> SeatButton:
        return cls(int(match["table"]), match["kind"])

    @answers_errors
    async def callback(self, interaction: discord.Interaction) -> None:
        await controls_of(interaction).on_seat(interaction, self.table, self.kind)


class CardToggle(discord.ui.DynamicItem[BUTTON], template=TOGGLE_ID):
    """One card of the draw picker: a tap marks it to throw, another keeps it. The cards marked so far travel in
    the custom_id (``mask``), so the picker needs no memory and survives a restart."""

    def __init__(self, table: int, hand: int, seq: int, mask: int, card: int, *, label: str | None = None,
                 emoji: discord.PartialEmoji | str | None = None, thrown: bool = False,
                 disabled: bool = False) -> None:
        style = discord.ButtonStyle.danger if thrown else discord.ButtonStyle.secondary
        super().__init__(discord.ui.Button(label=label, emoji=emoji, style=style, row=0, disabled=disabled,
                                           custom_id=f"pk:d:{table}:{hand}:{seq}:{mask}:{card}"))
        self.table, self.hand, self.seq, self.mask, self.card = table, hand, seq, mask, card

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> CardToggle:
        return cls(int(match["table"]), int(match["hand"]), int(match["seq"]), int(match["mask"]), int(match["card"]))

    @answers_errors
    async def callback(self, interaction: discord.Interaction) -> None:
        await controls_of(interaction).on_toggle(interaction, self.table, self.hand, self.seq, self.mask, self.card)


class DrawConfirm(discord.ui.DynamicItem[BUTTON], template=CONFIRM_ID):
    """The draw picker's confirmation: throw the marked cards (none: stand pat), Assassin's twos face up or not."""

    def __init__(self, table: int, hand: int, seq: int, mask: int, face_up: bool, label: str = "Draw",
                 style: discord.ButtonStyle = discord.ButtonStyle.primary) -> None:
        super().__init__(discord.ui.Button(label=label, style=style, row=1,
                                           custom_id=f"pk:e:{table}:{hand}:{seq}:{mask}:{int(face_up)}"))
        self.table, self.hand, self.seq, self.mask, self.face_up = table, hand, seq, mask, face_up

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> DrawConfirm:
        return cls(int(match["table"]), int(match["hand"]), int(match["seq"]), int(match["mask"]), match["up"] == "1")

    @answers_errors
    async def callback(self, interaction: discord.Interaction) -> None:
        await controls_of(interaction).on_draw_confirm(interaction, self.table, self.hand, self.seq, self.mask,
                                                       self.face_up)


DYNAMIC_ITEMS = (ActionButton, ChoiceSelect, StructureSelect, DealButton, SeatButton, CardToggle, DrawConfirm,
                 TournamentButton)  # issue 15: Register...

AMOUNT_MODAL_ID = re.compile(r"pk:m:(?P<table>\d+):(?P<hand>\d+):(?P<seq>\d+)")
REBUY_MODAL_ID = re.compile(r"pk:r:(?P<table>\d+)")
DRAW_MODAL_ID = re.compile(r"pk:w:(?P<table>\d+):(?P<hand>\d+):(?P<seq>\d+)")
AMOUNT_FIELD, THROW_FIELD, TWOS_FIELD = "amount", "throw", "twos"
FACE_UP = "up"


def _unstored(modal: discord.ui.Modal) -> discord.ui.Modal:
    """A modal that discord.py will not keep: its submit is handled by custom_id (:class:`ModalSubmit`), like the
    dynamic buttons, so it works after a restart and costs no memory while the player types."""
    modal.stop()
    return modal


def amount_modal(table: int, hand: int, seq: int, legal: Legal) -> discord.ui.Modal:
    """Bet or raise any amount in pot and no limit. The range goes in the label's description: a text input's own
    label is deprecated and holds only 45 characters, too few for big stakes."""
    modal = discord.ui.Modal(title="Bet or raise", custom_id=f"pk:m:{table}:{hand}:{seq}")
    amount: discord.ui.TextInput[discord.ui.Modal] = discord.ui.TextInput(
        custom_id=AMOUNT_FIELD, max_length=20, placeholder=str(legal.min_raise_to))
    word = "Bet" if legal.is_bet else "Raise to"
    modal.add_item(discord.ui.Label(
        text=f"{word} (total this round)", component=amount,
        description=f"From {chips(legal.min_raise_to)} to {chips(legal.max_raise_to)} chips"))
    return _unstored(modal)


def draw_modal(table: int, hand: int, seq: int, legal: Legal) -> discord.ui.Modal:
    """The draw in one form: a multi-select of the player's cards (none picked: stand pat) and, in Assassin with a
    two in hand, whether the twos thrown go face up."""
    cards = legal.hand
    limit = max(1, min(legal.max_discards, len(cards)))
    modal = discord.ui.Modal(title="Draw", custom_id=f"pk:w:{table}:{hand}:{seq}")
    throw: SELECT = discord.ui.Select(
        custom_id=THROW_FIELD, placeholder=f"Cards to throw (up to {limit})", min_values=0, max_values=limit,
        required=False, options=[discord.SelectOption(label=c.pretty(), value=c.code) for c in cards])
    modal.add_item(discord.ui.Label(
        text=f"Cards to throw (up to {limit})", component=throw,
        description=f"Your hand: {' '.join(c.pretty() for c in cards)}. Pick none to stand pat."))
    if legal.face_up_twos:
        twos: SELECT = discord.ui.Select(
            custom_id=TWOS_FIELD, placeholder="Face down", min_values=0, max_values=1, required=False,
            options=[discord.SelectOption(label="Face up: one extra card", value=FACE_UP)])
        modal.add_item(discord.ui.Label(
            text="The twos you throw", component=twos,
            description="Thrown face up, they earn one extra card after the draw."))
    return _unstored(modal)


def rebuy_modal(table: int, low: int, high: int, stack: int) -> discord.ui.Modal:
    """Add chips between hands: how many, with the table's limits said."""
    modal = discord.ui.Modal(title="Rebuy", custom_id=f"pk:r:{table}")
    room = max(0, high - stack)
    amount: discord.ui.TextInput[discord.ui.Modal] = discord.ui.TextInput(
        custom_id=AMOUNT_FIELD, max_length=20, placeholder=str(room or low), default=str(room) if room else None)
    modal.add_item(discord.ui.Label(
        text="Chips to add", component=amount,
        description=f"Your stack may go up to {chips(high)} chips (now {chips(stack)})"))
    return _unstored(modal)


def modal_fields(data: Any) -> dict[str, list[str]]:
    """What a modal submission holds, by field custom_id: a text input's value, or a select's values."""
    fields: dict[str, list[str]] = {}

    def visit(component: Any) -> None:
        if not isinstance(component, dict):
            return
        if "custom_id" in component:
            if "values" in component:
                fields[str(component["custom_id"])] = [str(v) for v in component["values"] or []]
            elif "value" in component:
                fields[str(component["custom_id"])] = [str(component["value"] or "")]
        for child in component.get("components") or []:
            visit(child)
        visit(component.get("component"))

    for top in (data or {}).get("components") or []:
        visit(top)
    return fields


class ModalSubmit:
    """A submitted table modal (the amount, the draw), recognised by its custom_id as the buttons are."""

    def __init__(self, kind: str, table: int, hand: int, seq: int, fields: dict[str, list[str]]) -> None:
        self.kind, self.table, self.hand, self.seq, self.fields = kind, table, hand, seq, fields

    @classmethod
    def parse(cls, data: Any) -> ModalSubmit | None:
        """The submission of one of our modals, or None (another bot's, or not a table modal)."""
        custom_id = str((data or {}).get("custom_id") or "")
        for kind, pattern in (("amount", AMOUNT_MODAL_ID), ("draw", DRAW_MODAL_ID)):
            match = pattern.fullmatch(custom_id)
            if match:
                return cls(kind, int(match["table"]), int(match["hand"]), int(match["seq"]), modal_fields(data))
        match = REBUY_MODAL_ID.fullmatch(custom_id)
        if match:
            return cls("rebuy", int(match["table"]), 0, 0, modal_fields(data))
        return None

    @answers_errors
    async def callback(self, interaction: discord.Interaction) -> None:
        controls = controls_of(interaction)
        if self.kind == "rebuy":
            await controls.on_rebuy(interaction, self.table, (self.fields.get(AMOUNT_FIELD) or [""])[0])
            return
        controls.check_click(interaction, self.table, self.hand, self.seq, self.kind)
        if self.kind == "amount":
            text = (self.fields.get(AMOUNT_FIELD) or [""])[0]
            await controls.on_amount(interaction, self.table, self.hand, self.seq, text)
        else:
            face_up = FACE_UP in (self.fields.get(TWOS_FIELD) or [])
            await controls.on_draw(interaction, self.table, self.hand, self.seq, self.fields.get(THROW_FIELD) or [],
                                   face_up=face_up)
