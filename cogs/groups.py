"""The one pattern of the bot's slash commands: a top-level group (/poker, /chips) whose commands come from small
modules by concern, each command a module-level function of the interaction (which takes its ``Reply`` on its
first line, ``cogs.reply.reply_to``, and passes it down to what answers); the group answers their errors in one
place (``cogs.errors.report``), and the extension's cog only adds the group to the tree and takes it away.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast

import discord
from discord import app_commands

from .errors import report
from .reply import release, reply_to

if TYPE_CHECKING:
    from cogs.app import PokerBot

Child = app_commands.Command[Any, ..., Any] | app_commands.Group


class CommandGroup(app_commands.Group):
    """A top-level command group made of the commands of several modules; every error of theirs is answered."""

    def __init__(self, name: str, description: str, *children: Child) -> None:
        super().__init__(name=name, description=description, guild_only=True)
        for child in children:
            self.add_command(child)

    async def on_error(self, interaction: discord.Interaction, error: app_commands.AppCommandError, /) -> None:
        reply = reply_to(interaction)
        await report(reply, error)
        release(interaction)


def bot_of(interaction: discord.Interaction) -> PokerBot:
    """The bot that received the interaction (its store, its tables)."""
    return cast("PokerBot", interaction.client)
