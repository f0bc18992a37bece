"""What the error handler says of itself (Discord lost an answer, a member option naming someone who left, a bug)
is in the language of the member who is told, through the catalogue; the English is as before."""

from __future__ import annotations

from types import SimpleNamespace
from typing import cast

import discord
from discord import app_commands

from bot.i18n import ENGLISH
from bot.i18n.catalogue import PSEUDO, language
from cogs.errors import LOST_ANSWER, OUTSIDE_A_SERVER, UNEXPECTED, UNEXPECTED_TEXT, lost_answer, not_a_member
from cogs.reply import Reply

PSEUDO_LANGUAGE = language(PSEUDO)


def reply_in(locale: str) -> Reply:
    return Reply(cast(discord.Interaction, SimpleNamespace(locale=locale)))


def test_a_lost_answer_is_told_in_the_members_language() -> None:
    assert lost_answer(reply_in("en-US")) == "Discord lost my answer on the way; the table message shows what was done."
    assert lost_answer(reply_in(PSEUDO)) == f"⟦{LOST_ANSWER}⟧"
    applied = reply_in(PSEUDO)
    applied.applied = True
    assert lost_answer(applied) == "⟦Your action was made, but Discord lost my answer; the table message shows it.⟧"


def test_the_constant_answers_keep_their_english() -> None:
    assert UNEXPECTED == "Something went wrong on our side and nothing was changed. Please try again."
    assert UNEXPECTED_TEXT.worded(PSEUDO_LANGUAGE) == f"⟦{UNEXPECTED}⟧"
    assert OUTSIDE_A_SERVER.worded(ENGLISH) == "This command works in a server's channels, not in direct messages."


def test_a_member_who_is_not_in_the_server_is_named_in_the_readers_language() -> None:
    command = SimpleNamespace(qualified_name="chips give")
    interaction = cast(discord.Interaction, SimpleNamespace(command=command))
    transformer = cast(app_commands.Transformer, SimpleNamespace(_error_display_name="Member"))
    left = app_commands.TransformerError(SimpleNamespace(id=42), discord.AppCommandOptionType.user, transformer)
    unknown = app_commands.TransformerError("someone", discord.AppCommandOptionType.user, transformer)
    assert not_a_member(interaction, left, ENGLISH) == (
        "<@42> is not a member of this server, so `/chips give` cannot name them; nothing was done.")
    assert not_a_member(interaction, left, PSEUDO_LANGUAGE) == (
        "⟦<@42> is not a member of this server, so `/chips give` cannot name them; nothing was done.⟧")
    assert not_a_member(interaction, unknown, PSEUDO_LANGUAGE) == (
        "⟦That user is not a member of this server, so `/chips give` cannot name them; nothing was done.⟧")
    other = app_commands.TransformerError("x", discord.AppCommandOptionType.string, transformer)
    assert not_a_member(interaction, other, ENGLISH) is None
