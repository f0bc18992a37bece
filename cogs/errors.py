"""One place that turns errors into short ephemeral answers (and logs the unexpected)."""

from __future__ import annotations

import asyncio
import logging
import weakref
from collections.abc import Callable, Coroutine
from functools import wraps
from typing import Any, Concatenate, ParamSpec, TypeVar

import discord
from discord import app_commands
from discord.ext import commands

from bot.poker import CardError, IllegalAction
from bot.refusal import Refusal
from bot.store.errors import StoreError
from bot.tables import SettingsError, TableError
from cogs.render import mention

log = logging.getLogger(__name__)

EXPECTED = (TableError, IllegalAction, StoreError, SettingsError, CardError)
UNEXPECTED = "Something went wrong on our side and nothing was changed. Please try again."
OUTSIDE_A_SERVER = "This command works in a server's channels, not in direct messages."

_RUNNING: weakref.WeakSet[asyncio.Task[object]] = weakref.WeakSet()  # component and modal callbacks under way


def running_callbacks() -> list[asyncio.Task[object]]:
    """The component and modal callbacks still running (a clean stop lets them finish first)."""
    return [task for task in _RUNNING if not task.done()]


def explain(error: BaseException) -> str | None:
    """The message to show for an error a user can cause, or None for a bug."""
    if isinstance(error, app_commands.CommandInvokeError):
        error = error.original
    if isinstance(error, IllegalAction):
        text = str(error)
        return text[:1].upper() + text[1:] + ("" if text.endswith(".") else ".")
    if isinstance(error, Refusal):
        return error.render(mention)
    if isinstance(error, EXPECTED):
        return str(error)
    if isinstance(error, app_commands.MissingPermissions | app_commands.CheckFailure):
        return str(error) or "You are not allowed to do that."
    return None


async def reply(interaction: discord.Interaction, text: str) -> None:
    """Answer ephemerally, whether or not the interaction was answered already."""
    if interaction.response.is_done():
        await interaction.followup.send(text, ephemeral=True)
    else:
        await interaction.response.send_message(text, ephemeral=True)


async def report(interaction: discord.Interaction, error: BaseException) -> None:
    """Tell the user what went wrong; log anything unexpected with its traceback."""
    if interaction.client.is_closed():  # the bot is stopping: its connection is gone, nobody can be told
        log.info("interaction %s was cut short by the bot stopping: %r", interaction.id, error)
        return
    text = explain(error)
    command = interaction.type is discord.InteractionType.application_command
    if text is None and command and interaction.guild_id is None:
        # The commands are guild-only (Discord does not offer them in DMs); one that arrives from a DM anyway
        # cannot find its server: say where to use it.
        log.info("a command from a DM failed: %r", error)
        text = OUTSIDE_A_SERVER
    if text is None:
        log.error("unexpected error in an interaction", exc_info=error)
        text = UNEXPECTED
    try:
        await reply(interaction, text)
    except discord.HTTPException:
        log.warning("could not tell %s about an error", interaction.user.id)


async def ignore_unknown_commands(context: commands.Context[Any], error: commands.CommandError) -> None:
    """``on_command_error``: the bot has no prefix commands, so a message that looks like one (a DM or a mention
    such as "@bot help") is ignored instead of logged as an error; anything else is logged."""
    if isinstance(error, commands.CommandNotFound):
        return
    log.error("error in the prefix command %s", context.command, exc_info=error)


P = ParamSpec("P")
T = TypeVar("T")


def answers_errors(
    callback: Callable[Concatenate[Any, discord.Interaction, P], Coroutine[Any, Any, None]],
) -> Callable[Concatenate[Any, discord.Interaction, P], Coroutine[Any, Any, None]]:
    """Decorate a component or modal callback so that its errors are answered, not swallowed; an interaction
    delivered a second time is ignored (it was answered once, and a second answer is refused)."""

    @wraps(callback)
    async def wrapper(self: Any, interaction: discord.Interaction, /, *args: P.args, **kwargs: P.kwargs) -> None:
        first_delivery = getattr(interaction.client, "first_delivery", None)
        if first_delivery is not None and not first_delivery(interaction):
            return
        task = asyncio.current_task()
        if task is not None:
            _RUNNING.add(task)
        try:
            await callback(self, interaction, *args, **kwargs)
        except Exception as error:  # every error is answered, the unexpected also logged
            await report(interaction, error)
        finally:
            if task is not None:
                _RUNNING.discard(task)

    return wrapper
