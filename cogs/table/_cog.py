"""The table extension's wiring: the /poker commands by concern, the components that work after a restart, the
listeners, and the tables' Discord side (``Runners``) started and stopped with the extension.

Nothing is decided or shown here: each concern has its module (``_table_commands``, ``_move_commands``,
``_night_commands``, ``_tournament``), each component its declaration (``_turn``, ``_seats``, ``_choice``,
``_draw``), and every table its ``TableRunner``.
"""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING

import discord
from discord.ext import commands

from bot.tables import TableError

from ..errors import ignore_unknown_commands, running_callbacks
from ..groups import CommandGroup
from . import _controls, _move_commands, _night_commands, _table_commands, _tournament
from ._choice import ChooseButton, DealButton, GameSelect, StructureSelect
from ._closes import finish_closes
from ._draw import CardButton, ThrowButton
from ._forms import ModalSubmit
from ._preaction_taps import PreActionButton
from ._runners import COG_NAME, Runners
from ._seats import SeatButton
from ._turn import TurnButton

if TYPE_CHECKING:
    from cogs.app import PokerBot

log = logging.getLogger(__name__)

DYNAMIC_ITEMS = (TurnButton, SeatButton, ChooseButton, GameSelect, StructureSelect, DealButton, CardButton,
                 ThrowButton, _tournament.TournamentButton, PreActionButton)


POKER = CommandGroup("poker", "Draw poker tables", *_table_commands.COMMANDS, *_move_commands.COMMANDS,
                     *_night_commands.COMMANDS, *_tournament.COMMANDS)


class TableCog(commands.Cog, name=COG_NAME):
    """Tables in channels: create, join, play, close."""

    def __init__(self, bot: PokerBot) -> None:
        self.bot = bot
        self.runners = Runners(bot, components=_controls.view)

    async def cog_load(self) -> None:
        if ignore_unknown_commands not in self.bot.extra_events.get("on_command_error", []):
            self.bot.add_listener(ignore_unknown_commands, "on_command_error")  # "@bot hello" is not an error
        self.bot.tree.add_command(POKER, override=True)
        self.bot.add_dynamic_items(*DYNAMIC_ITEMS)
        await self.runners.resume_all()
        await finish_closes(self.bot)  # closes stored before the last stop but never shown

    async def cog_unload(self) -> None:
        """Stop every clock, pending deal and table message write (the state is in the store already), and wait
        for them to end, so that none still writes while the bot closes the store."""
        self.bot.remove_dynamic_items(*DYNAMIC_ITEMS)
        self.bot.tree.remove_command(POKER.name)
        tasks = self.runners.stop()
        current = asyncio.current_task()
        pending = [t for t in tasks if t is not current and not t.done()]
        if pending:
            await asyncio.wait(pending, timeout=5)
        clicks = [t for t in running_callbacks() if t is not current]
        if clicks:  # a click under way finishes (its action is stored already; its answer goes out)
            await asyncio.wait(clicks, timeout=3)

    @commands.Cog.listener()
    async def on_raw_message_delete(self, payload: discord.RawMessageDeleteEvent) -> None:
        """Someone deleted the table message: post it again, so the game can go on."""
        table = self.bot.tables.get(payload.channel_id)
        if table is None or table.message_id != payload.message_id:
            return
        try:
            await table.remember_message(None)
            await self.runners.of(table).dealer.publish()
        except (discord.HTTPException, TableError):  # TableError: the bot may not post here (the host is told)
            log.warning("could not post table %s again after its message was deleted", table.id, exc_info=True)

    @commands.Cog.listener()
    async def on_interaction(self, interaction: discord.Interaction) -> None:
        """A table form submitted: handled by its custom_id, so one opened before a restart still works."""
        if interaction.type is discord.InteractionType.modal_submit:
            submit = ModalSubmit.parse(interaction.data)
            if submit is not None:
                await submit.callback(interaction)

    @commands.Cog.listener("on_ready")
    async def tournament_news(self) -> None:
        """Show every open tournament's news (what happened while the bot was away first)."""
        _tournament.listen_all(self.runners)
