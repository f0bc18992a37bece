"""Dealer's choice in Discord: the menu of games (and, if the host allows it, of structures) for the player on the
button, and the Deal button that deals what he picked. Picking only shows the choice on the table message; Deal
deals it. Who chooses, and what may be chosen, is the table's to say (``Table.check_choice``, ``Table.choices``).
"""

from __future__ import annotations

import re
from typing import Any

import discord

from bot.poker import get_game
from bot.rules_text import GAME_BLURBS
from bot.tables import Table, TableError
from cogs import render
from cogs.render import mention

from ..errors import answers_errors
from ._runner import TableRunner
from ._runners import Admitting, clicked_runner
from ._screen import Screen

__all__ = ["DealButton", "GameSelect", "StructureSelect", "menu"]

SELECT = discord.ui.Select[discord.ui.View]
BUTTON = discord.ui.Button[discord.ui.View]
DEFAULT_STRUCTURE = "default"  # the structure menu's "each game's own"
MAX_OPTIONS = 25  # Discord: options in a select menu


def _picked(interaction: discord.Interaction) -> str | None:
    data: Any = interaction.data or {}
    values = data.get("values") or []
    return str(values[0]) if values else None


def menu(table: Table, screen: Screen) -> list[discord.ui.Item[Any]]:
    """The menu's items when the table waits for the dealer's choice (none otherwise)."""
    step = table.next()
    if step.kind != "choose":
        return []
    number, picked = screen.choice_number, screen.pending_game
    options = [discord.SelectOption(label=g.name[:100], value=g.id, description=GAME_BLURBS.get(g.id, "")[:100] or None,
                                    default=g.id == picked)
               for g in table.choices()][:MAX_OPTIONS]
    items: list[discord.ui.Item[Any]] = [GameSelect(table.id, number, options)]
    if table.settings.dealer_picks_structure:
        pending = screen.pending_structure
        kinds = [(DEFAULT_STRUCTURE, "Each game's own structure"), *render.STRUCTURE_NAMES.items()]
        items.append(StructureSelect(table.id, number, [
            discord.SelectOption(label=name, value=value, default=value == (pending or DEFAULT_STRUCTURE))
            for value, name in kinds]))
    label = f"Deal {get_game(picked).name}"[:80] if picked else "Pick a game first"
    items.append(DealButton(table.id, number, label, disabled=picked is None))
    return items


class GameSelect(Admitting, discord.ui.DynamicItem[SELECT], template=r"pk:game:(?P<table>\d+):(?P<number>\d+)"):
    """The games the button player may pick for the next hand."""

    def __init__(self, table: int, number: int, options: list[discord.SelectOption] | None = None,
                 runner: TableRunner | None = None) -> None:
        super().__init__(discord.ui.Select(custom_id=f"pk:game:{table}:{number}",
                                           placeholder="Dealer's choice: pick the game",
                                           options=options or [discord.SelectOption(label="…")], row=0))
        self.table, self.number, self.runner = table, number, runner

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> GameSelect:
        return cls(int(match["table"]), int(match["number"]), runner=clicked_runner(interaction, match))

    @answers_errors
    async def callback(self, interaction: discord.Interaction) -> None:
        """The chooser picked a game: it is shown, and dealt when he presses Deal."""
        runner = self.runner
        assert runner is not None
        table = runner.table
        game = _picked(interaction) or ""
        table.check_choice(interaction.user.id)
        try:
            get_game(game)
        except ValueError as error:
            raise TableError(str(error)) from None
        if game not in {g.id for g in table.choices()}:
            raise TableError("That game cannot be dealt to these players; pick another.")
        runner.pending_game = game
        async with runner.answers.answering(interaction):
            await runner.publish(interaction)


class StructureSelect(Admitting, discord.ui.DynamicItem[SELECT],
                      template=r"pk:structure:(?P<table>\d+):(?P<number>\d+)"):
    """When the host allows it: the structure of the next game (picked before the game)."""

    def __init__(self, table: int, number: int, options: list[discord.SelectOption] | None = None,
                 runner: TableRunner | None = None) -> None:
        super().__init__(discord.ui.Select(custom_id=f"pk:structure:{table}:{number}", placeholder="Structure",
                                           options=options or [discord.SelectOption(label="…")], row=1))
        self.table, self.number, self.runner = table, number, runner

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> StructureSelect:
        return cls(int(match["table"]), int(match["number"]), runner=clicked_runner(interaction, match))

    @answers_errors
    async def callback(self, interaction: discord.Interaction) -> None:
        """The chooser picks the structure (the default: each game's own); shown until the deal."""
        runner = self.runner
        assert runner is not None
        value = _picked(interaction) or DEFAULT_STRUCTURE
        structure = None if value == DEFAULT_STRUCTURE else value
        runner.table.check_choice(interaction.user.id, structure)
        runner.pending_structure = structure
        async with runner.answers.answering(interaction):
            await runner.publish(interaction)


class DealButton(Admitting, discord.ui.DynamicItem[BUTTON], template=r"pk:deal:(?P<table>\d+):(?P<number>\d+)"):
    """Deal the game picked (picking in the menu only shows the choice; this deals it)."""

    def __init__(self, table: int, number: int, label: str = "Deal", *, disabled: bool = False,
                 runner: TableRunner | None = None) -> None:
        super().__init__(discord.ui.Button(label=label, style=discord.ButtonStyle.success, row=2,
                                           custom_id=f"pk:deal:{table}:{number}", disabled=disabled))
        self.table, self.number, self.runner = table, number, runner

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> DealButton:
        return cls(int(match["table"]), int(match["number"]), runner=clicked_runner(interaction, match))

    @answers_errors
    async def callback(self, interaction: discord.Interaction) -> None:
        """Deal pressed: the game (and structure) picked are dealt."""
        runner = self.runner
        assert runner is not None
        table = runner.table
        table.check_choice(interaction.user.id, runner.pending_structure)
        if self.number != runner.choice_number():
            raise TableError("That menu is from an earlier hand; use the current one.")
        game = runner.pending_game
        if game is None:
            raise TableError("Pick a game in the menu first.")
        async with runner.answers.answering(interaction):
            outcome = await table.choose_game(interaction.user.id, game, runner.pending_structure)
            runner.cancel_clock()
            await runner.hand_started(outcome, interaction)
            runner.note(f"{mention(interaction.user.id)} chose {get_game(game).name}")
            runner.writer.refresh()
