"""Dealer's choice in Discord. Between hands the table message carries one button, **Pick the game…**: the player
on the button taps it and gets his menu (the games; the structures, if the host allows it; Deal) as his private
message at the table, which nobody else sees; anyone else is told whose choice it is. Picking changes only his
menu (Deal then names the game), not the table message; Deal deals it, and his private message shows his new cards.

What he picked travels in the menu's custom_ids (the game in Deal's and the structure select's, the structure in
the game select's and Deal's), so the menu keeps no state and works after a restart; the choice number in each
tells this hand's menu from an earlier one. Who chooses, and what may be chosen, is the table's to say
(``Table.check_choice``, ``Table.choices``, ``Table.choose_game``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import discord

from bot.content.rules_text import game_blurb
from bot.i18n import ENGLISH, Language, Text, say
from bot.poker import FAMILIES, Game, get_game
from bot.tables import Table, TableError
from cogs import render
from cogs.render import mention

from ..reply import Reply
from ..views import dynamic_view
from ._items import Field, TableItem, number, word
from ._runner import TableRunner
from ._screen import Screen
from ._turn import ACTIONS_ROW

__all__ = ["ChooseButton", "DealButton", "GameSelect", "StructureSelect", "grouped", "menu", "option_label",
           "private_menu"]

SELECT = discord.ui.Select[discord.ui.View]
BUTTON = discord.ui.Button[discord.ui.View]
DEFAULT_STRUCTURE = "default"  # the structure menu's "each game's own"
MAX_OPTIONS = 25  # Discord: options in a select menu
CHOOSE_LABEL = Text("Pick the game…")
FAMILY_NAMES = {"draw": Text("Draw"), "flop": Text("Flop"), "stud": Text("Stud")}
EARLIER = Text("That menu is from an earlier hand; use the current one.")
_NAME = r"[a-z0-9-]+"  # a game's or a structure's id in a custom_id


def menu(table: Table, screen: Screen, *, lang: Language = ENGLISH) -> list[discord.ui.Item[Any]]:
    """The table message's item when the table waits for the dealer's choice (none otherwise): the chooser's
    button to his menu, labelled in ``lang`` (the table's)."""
    if table.next().kind != "choose":
        return []
    return [ChooseButton(table.id, screen.choice_number, label=CHOOSE_LABEL.worded(lang))]


def private_menu(runner: TableRunner, game: str | None, structure: str | None, *, lang: Language
                 ) -> tuple[str, discord.ui.View]:
    """The chooser's menu (its text and items) in his language, ``game`` and ``structure`` picked so far (None: not
    yet, or each game's own structure)."""
    table = runner.table
    number = runner.presenter.choice_number()
    result = dynamic_view()
    games = grouped(table.choices())
    if game not in {g.id for g in games}:
        game = None  # (a custom_id carrying a game that may not be dealt: none picked)
    options = [discord.SelectOption(label=option_label(g, lang=lang), value=g.id,
                                    description=game_blurb(g.id, lang=lang)[:100] or None, default=g.id == game)
               for g in games][:MAX_OPTIONS]
    result.add_item(GameSelect(table.id, number, structure, options, placeholder=say(lang, "Pick the game")))
    if table.settings.dealer_picks_structure:
        kinds = [(DEFAULT_STRUCTURE, say(lang, "Each game's own structure")),
                 *((k, render.structure_name(k, lang)) for k in render.STRUCTURE_NAMES)]
        result.add_item(StructureSelect(table.id, number, game, [
            discord.SelectOption(label=name, value=value, default=value == (structure or DEFAULT_STRUCTURE))
            for value, name in kinds], placeholder=say(lang, "Structure")))
    label = say(lang, "Deal {game}", game=get_game(game).name)[:80] if game else say(lang, "Pick a game first")
    result.add_item(DealButton(table.id, number, game, structure, label, disabled=game is None))
    lines = [say(lang, "**Your choice**: pick the next game, then press **Deal**.")]
    if runner.clock.deadline is not None:
        lines.append(f"⏱ <t:{int(runner.clock.deadline)}:R>")
    return "\n".join(lines), result


def grouped(games: Sequence[Game]) -> list[Game]:
    """The games by family, draw, flop then stud (each family in the table's order), so that the menu reads as
    three groups on a phone."""
    return sorted(games, key=lambda g: FAMILIES.index(g.family))


def option_label(game: Game, *, lang: Language = ENGLISH) -> str:
    """A game's option in the menu, its group first: ``Draw · Badugi``, ``Flop · Hold'em``, ``Stud · Razz``."""
    return f"{FAMILY_NAMES[game.family].worded(lang)} · {game.name}"[:100]


def _picked(interaction: discord.Interaction) -> str | None:
    data: Any = interaction.data or {}
    values = data.get("values") or []
    return str(values[0]) if values else None


def _structure(value: str | None) -> str | None:
    return None if value in (None, DEFAULT_STRUCTURE) else value


GAME = word("game", _NAME, optional=True)
STRUCTURE = Field("structure", _NAME, _structure, optional=True)


def _checked(runner: TableRunner | None, interaction: discord.Interaction, number: int,
             structure: str | None = None, game: str | None = None) -> TableRunner:
    """The runner, once ``interaction``'s user is the chooser of this hand's choice (and may pick ``structure``,
    and ``game`` can be dealt): a menu of an earlier hand, or someone else, is refused."""
    assert runner is not None
    if number != runner.presenter.choice_number():
        raise TableError(EARLIER)
    runner.table.check_choice(interaction.user.id, structure, game)
    return runner


async def _show(runner: TableRunner, reply: Reply, game: str | None, structure: str | None) -> None:
    """Answer a pick in the menu with the menu as it now is (the table message does not change)."""
    content, view = private_menu(runner, game, structure, lang=reply.language)
    await reply.update(content=content, view=view)


class ChooseButton(TableItem[BUTTON], kind="choose", fields=[number("number")]):
    """The table message's Pick the game…: the chooser's menu, for him only."""

    def __init__(self, table: int, number: int, *, label: str = str(CHOOSE_LABEL),
                 runner: TableRunner | None = None) -> None:
        super().__init__(discord.ui.Button(label=label, style=discord.ButtonStyle.primary,
                                           row=ACTIONS_ROW, custom_id=self.make_id(table, number)))
        self.table, self.number, self.runner = table, number, runner

    async def clicked(self, reply: Reply) -> None:
        """The chooser gets his menu as his private message; anyone else is told whose choice it is.

        The click is answered with the table (an interaction update) and the menu follows it: the click's token
        then edits the table message when the hand is dealt from the menu, which costs no call under Discord's
        global limit (a click on the menu cannot edit the table message)."""
        runner = self.runner
        assert runner is not None
        runner.table.check_choice(reply.user)
        if self.number != runner.presenter.choice_number():
            raise TableError(EARLIER)
        content, view = private_menu(runner, None, None, lang=reply.language)
        async with reply.answering():
            await runner.dealer.publish(reply)
            await reply.send(content, view=view)


class GameSelect(TableItem[SELECT], kind="game", fields=[number("number"), STRUCTURE]):
    """The games the chooser may pick for the next hand (with the structure he picked, if any)."""

    def __init__(self, table: int, number: int, structure: str | None = None,
                 options: list[discord.SelectOption] | None = None, *, placeholder: str = "Pick the game",
                 runner: TableRunner | None = None) -> None:
        super().__init__(discord.ui.Select(custom_id=self.make_id(table, number, structure),
                                           placeholder=placeholder,
                                           options=options or [discord.SelectOption(label="…")], row=0))
        self.table, self.number, self.structure, self.runner = table, number, structure, runner

    async def clicked(self, reply: Reply) -> None:
        """The chooser picked a game: his menu shows it, and Deal deals it."""
        game = _picked(reply.interaction) or ""
        runner = _checked(self.runner, reply.interaction, self.number, self.structure, game)
        await _show(runner, reply, game, self.structure)


class StructureSelect(TableItem[SELECT], kind="structure", fields=[number("number"), GAME]):
    """When the host allows it: the structure of the next game (with the game he picked, if any)."""

    def __init__(self, table: int, number: int, game: str | None = None,
                 options: list[discord.SelectOption] | None = None, *, placeholder: str = "Structure",
                 runner: TableRunner | None = None) -> None:
        super().__init__(discord.ui.Select(custom_id=self.make_id(table, number, game), placeholder=placeholder,
                                           options=options or [discord.SelectOption(label="…")], row=1))
        self.table, self.number, self.game, self.runner = table, number, game, runner

    async def clicked(self, reply: Reply) -> None:
        """The chooser picks the structure (the default: each game's own); his menu shows it until the deal."""
        structure = _structure(_picked(reply.interaction))
        runner = _checked(self.runner, reply.interaction, self.number, structure)
        await _show(runner, reply, self.game, structure)


class DealButton(TableItem[BUTTON], kind="deal", fields=[number("number"), GAME, STRUCTURE]):
    """Deal the game picked (picking in the menu only shows the choice; this deals it)."""

    def __init__(self, table: int, number: int, game: str | None = None, structure: str | None = None,
                 label: str = "Deal", *, disabled: bool = False, runner: TableRunner | None = None) -> None:
        custom_id = self.make_id(table, number, game, structure if game else None)
        super().__init__(discord.ui.Button(label=label, style=discord.ButtonStyle.success, row=2,
                                           custom_id=custom_id, disabled=disabled))
        self.table, self.number, self.game, self.structure, self.runner = table, number, game, structure, runner

    async def clicked(self, reply: Reply) -> None:
        """Deal pressed: the game (and structure) picked are dealt; the table shows the new hand, and his menu
        becomes his cards."""
        runner = _checked(self.runner, reply.interaction, self.number, self.structure)
        game = self.game
        if game is None:
            raise TableError(Text("Pick a game in the menu first."))
        async with reply.answering():
            outcome = await runner.table.choose_game(reply.user, game, self.structure)
            runner.dealer.cancel_clock()
            await runner.dealer.hand_started(outcome, reply)
            runner.presenter.note(say(runner.language, "{player} chose {game}", player=mention(reply.user),
                                      game=get_game(game).name))
            runner.writer.refresh()
