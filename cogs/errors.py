"""One place that turns errors into short ephemeral answers (and logs the unexpected)."""

from __future__ import annotations

import asyncio
import logging
import weakref
from collections.abc import Callable, Coroutine
from functools import wraps
from typing import Any, Concatenate, Final, ParamSpec, TypeVar

import discord
from discord import app_commands
from discord.ext import commands

from bot.i18n import Language, Text, as_sentence, say
from bot.poker import CardError, IllegalAction
from bot.refusal import Refusal
from bot.store.errors import StoreError
from bot.tables import SettingsError, TableError
from cogs.failures import ALREADY_ACKNOWLEDGED, CONNECTION_ERRORS, DISCORD_ERRORS, UNKNOWN_INTERACTION
from cogs.language import MemberLanguages
from cogs.render import mention
from cogs.reply import Reply, admit, release, reply_to

log = logging.getLogger(__name__)

EXPECTED = (TableError, IllegalAction, StoreError, SettingsError, CardError)
# What a member is told, worded in his language (``reply.language``).
UNEXPECTED_TEXT: Final = Text("Something went wrong on our side and nothing was changed. Please try again.")
UNEXPECTED: Final = str(UNEXPECTED_TEXT)  # its English, which the tests look for
UNEXPECTED_APPLIED: Final = Text("Something went wrong on our side after your action was made; the table shows it.")
LOST_APPLIED: Final = Text("Your action was made, but Discord lost my answer; the table message shows it.")
LOST_ANSWER: Final = Text("Discord lost my answer on the way; the table message shows what was done.")
OUTSIDE_A_SERVER: Final = Text("This command works in a server's channels, not in direct messages.")

_RUNNING: weakref.WeakSet[asyncio.Task[object]] = weakref.WeakSet()  # component and modal callbacks under way


def running_callbacks() -> list[asyncio.Task[object]]:
    """The component and modal callbacks still running (a clean stop lets them finish first)."""
    return [task for task in _RUNNING if not task.done()]


def explain(error: BaseException, lang: Language) -> str | None:
    """The message to show for an error a user can cause, in ``lang``, or None for a bug. A refusal from below
    carries its ``Text`` (its English source and values), worded here."""
    if isinstance(error, app_commands.CommandInvokeError):
        error = error.original
    if isinstance(error, IllegalAction):
        return as_sentence(worded(error, lang))  # (capitalised past the pseudo-language's wraps too)
    if isinstance(error, (Refusal, *EXPECTED)):
        return worded(error, lang)
    if isinstance(error, app_commands.MissingPermissions | app_commands.CheckFailure):
        return worded(error, lang) or say(lang, "You are not allowed to do that.")
    return None


def worded(error: BaseException, lang: Language) -> str:
    """An error's message in ``lang``: its ``Text``, with members as mentions; else its English."""
    text = error.args[0] if error.args else None
    if isinstance(text, Text):
        return text.worded(lang, mention)
    return str(error)


async def answer(reply: Reply, text: str) -> bool:
    """Answer ephemerally, whether or not the interaction was answered already; False if Discord could not be
    reached (logged: an error's answer that cannot be shown must not raise)."""
    try:
        return await reply.send(text)
    except DISCORD_ERRORS as error:
        log.warning("could not answer interaction %s of %s: %r", reply.interaction.id, reply.user, error)
        return False


def is_late(error: BaseException) -> bool:
    """Discord refused an answer as too late (10062): the interaction is gone, nothing more can be sent."""
    return isinstance(error, discord.NotFound) and error.code == UNKNOWN_INTERACTION


def is_transport(error: BaseException) -> bool:
    """A failure of Discord or of the way to it (a dropped connection, a timeout, a 5xx): not a bug, and not
    proof that nothing was changed."""
    if isinstance(error, discord.HTTPException):
        return error.status >= 500 or error.code == ALREADY_ACKNOWLEDGED
    return isinstance(error, CONNECTION_ERRORS)


def lost_answer(reply: Reply) -> str:
    """What a player is told, in his language, when Discord lost part of the bot's answer: what is known to have
    happened."""
    return (LOST_APPLIED if reply.applied else LOST_ANSWER).worded(reply.language)


async def report(reply: Reply, error: BaseException) -> None:
    """Tell the user what went wrong; log anything unexpected with its traceback. An answer Discord refused as
    late is logged as a warning and not sent again; a failure on the way to Discord is not called a bug, and
    the player is told only what is known (never "nothing was changed" where something may have been)."""
    interaction = reply.interaction
    if isinstance(error, app_commands.CommandInvokeError):
        error = error.original
    if interaction.client.is_closed():  # the bot is stopping: its connection is gone, nobody can be told
        log.info("interaction %s was cut short by the bot stopping: %r", interaction.id, error)
        return
    if is_late(error) or reply.given_up:
        log.warning("interaction %s could not be answered in time (%r); nothing more is sent to it",
                    interaction.id, error)
        return
    if is_transport(error):
        log.warning("interaction %s: Discord failed a call (%r)%s", interaction.id, error,
                    "; the action was stored" if reply.applied else "")
        if isinstance(error, discord.HTTPException) and error.code == ALREADY_ACKNOWLEDGED:
            return  # its answer is out already
        await answer(reply, lost_answer(reply))
        return
    try:
        text = explain(error, reply.language) or not_a_member(interaction, error, reply.language)
    except Exception:  # a bug in wording the error: it is still answered, as a bug
        log.exception("could not word %r", error)
        text = None
    command = interaction.type is discord.InteractionType.application_command
    if text is None and command and interaction.guild_id is None:
        # The commands are guild-only (Discord does not offer them in DMs); one that arrives from a DM anyway
        # cannot find its server: say where to use it.
        log.info("a command from a DM failed: %r", error)
        text = OUTSIDE_A_SERVER.worded(reply.language)
    if text is None:
        log.error("unexpected error in an interaction", exc_info=error)
        text = (UNEXPECTED_APPLIED if reply.applied else UNEXPECTED_TEXT).worded(reply.language)
    await answer(reply, text)


def not_a_member(interaction: discord.Interaction, error: BaseException, lang: Language) -> str | None:
    """What to say (in ``lang``) when a command's member option names someone who is not in the server (left, or
    never was): discord.py cannot make a ``discord.Member`` of him and raises ``TransformerError``; None for
    another error."""
    if not isinstance(error, app_commands.TransformerError) or error.type is not discord.AppCommandOptionType.user:
        return None
    who = getattr(error.value, "id", None)
    if interaction.command is None:
        return (say(lang, "{member} is not a member of this server, so this command cannot name them; nothing was "
                          "done.", member=mention(who)) if isinstance(who, int)
                else say(lang, "That user is not a member of this server, so this command cannot name them; nothing "
                               "was done."))
    command = interaction.command.qualified_name  # the command's name stays English
    if isinstance(who, int):
        return say(lang, "{member} is not a member of this server, so `/{command}` cannot name them; nothing was "
                         "done.", member=mention(who), command=command)
    return say(lang, "That user is not a member of this server, so `/{command}` cannot name them; nothing was done.",
               command=command)


async def ignore_unknown_commands(context: commands.Context[Any], error: commands.CommandError) -> None:
    """``on_command_error``: the bot has no prefix commands, so a message that looks like one (a DM or a mention
    such as "@bot help") is ignored instead of logged as an error; anything else is logged."""
    if isinstance(error, commands.CommandNotFound):
        return
    log.error("error in the prefix command %s", context.command, exc_info=error)


P = ParamSpec("P")
T = TypeVar("T")


def admitted_first(interaction: discord.Interaction) -> Reply | None:
    """Admit an interaction: None for one delivered a second time (it was answered once, and a second answer is
    refused); else its ``Reply``, made now, which acknowledges it in time if its answer is slow (the database busy,
    say). Done once per interaction, where it arrives."""
    first_delivery = getattr(interaction.client, "first_delivery", None)
    if first_delivery is not None and not first_delivery(interaction):
        release(interaction)
        return None
    languages: MemberLanguages | None = getattr(interaction.client, "member_languages", None)
    if languages is not None:
        languages.seen(interaction)  # his DMs and alerts are in it
    return admit(interaction)


def answers_errors(
    callback: Callable[Concatenate[Any, Reply, P], Coroutine[Any, Any, None]],
) -> Callable[Concatenate[Any, discord.Interaction, P], Coroutine[Any, Any, None]]:
    """Make a component's or a form's callback of a body that takes the interaction's ``Reply``: the interaction is
    admitted first (``admitted_first``) unless its item's check admitted it already (its ``Reply`` is then that
    one), and the body's errors are answered, not swallowed."""

    @wraps(callback)
    async def wrapper(self: Any, interaction: discord.Interaction, /, *args: P.args, **kwargs: P.kwargs) -> None:
        reply = reply_to(interaction)  # made by its item's check, which admitted it; or made now, not admitted yet
        if not reply.armed:
            admitted = admitted_first(interaction)
            if admitted is None:
                return
            reply = admitted
        task = asyncio.current_task()
        if task is not None:
            _RUNNING.add(task)
        try:
            await callback(self, reply, *args, **kwargs)
        except Exception as error:  # every error is answered, the unexpected also logged
            await report(reply, error)
        finally:
            release(interaction)
            if task is not None:
                _RUNNING.discard(task)

    return wrapper
