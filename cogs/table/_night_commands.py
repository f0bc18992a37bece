"""/poker session new and export, stats, history: the night after the cards at this table.

Each command asks ``bot.tables.night`` or the store and shows what comes back with ``cogs.night_views``. A night
of play is a *session* in the commands' names and options (``/poker session new``, ``session:``), as members know
it; the code calls it a night.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import discord
from discord import app_commands

from bot.content.command_help import COMMAND_HELP, describe
from bot.i18n import say
from bot.poker import Hand, IllegalAction
from bot.store import HandRecord
from bot.tables.night import history_hands, night_phhs, rebuild, resolve_night
from cogs import night_views

from ..options import GAME_CHOICES
from ..reply import PUBLIC_ANSWER, reply_to
from ._runners import runners_of

__all__ = ["COMMANDS"]

log = logging.getLogger(__name__)

nights = app_commands.Group(name="session", description="Nights at this table: start the next, export one")


@nights.command(name="new", extras=PUBLIC_ANSWER, description=COMMAND_HELP["poker session new"])
async def night_new(interaction: discord.Interaction) -> None:
    """/poker session new"""
    reply = reply_to(interaction)
    runner = runners_of(interaction).hosted(reply)
    table = runner.table
    ended = await table.store.last_night(table.record.channel_id)
    returned = table.carried_refunds()
    started = await table.new_night()
    await reply.send(night_views.new_night_text(ended, started, returned, lang=runner.language), ephemeral=False,
                     allowed_mentions=night_views.NONE)
    await runner.dealer.publish()


async def _night_choices(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    return await night_views.night_choices_of(runners_of(interaction).bot.store, interaction, current)


@app_commands.command(name="stats", description=COMMAND_HELP["poker stats"])
@app_commands.describe(**describe("poker stats"))
@app_commands.choices(game=GAME_CHOICES)
@app_commands.autocomplete(session=_night_choices)
async def stats(interaction: discord.Interaction, member: discord.Member | None = None, game: str | None = None,
                session: str | None = None) -> None:
    """/poker stats"""
    reply = reply_to(interaction)
    lang = reply.language  # the asker's alone
    assert interaction.guild_id is not None
    store = runners_of(interaction).bot.store
    who = member or interaction.user
    night = await resolve_night(store, interaction.guild_id, interaction.channel_id or 0, session) if session \
        else None
    by_game = await store.player_stats(interaction.guild_id, who.id, game=game, nights=night.ids if night else None)
    embed = night_views.stats_embed(who, by_game, night_views.stats_scope(night, lang=lang), game, lang=lang)
    await reply.send(embed=embed, allowed_mentions=night_views.NONE)


@app_commands.command(name="history", description="Recent hands at this table, told in a few lines, with their files")
@app_commands.describe(**describe("poker history"))
async def history(interaction: discord.Interaction, count: app_commands.Range[int, 1, 10] = 3) -> None:
    """/poker history"""
    reply = reply_to(interaction)
    bot = runners_of(interaction).bot
    records = await history_hands(bot.store, bot.tables, interaction.channel_id or 0, count)
    if not records:
        await reply.send(say(reply.language, "No hand has been finished at this table yet."))
        return
    text, embeds, files = night_views.history_message([(r, _told(r)) for r in records], interaction.user.id,
                                                      lang=reply.language)
    await reply.send(text, embeds=embeds, files=files, allowed_mentions=night_views.NONE)


@nights.command(name="export", description=COMMAND_HELP["poker session export"])
@app_commands.describe(**describe("poker session export"))
@app_commands.autocomplete(session=_night_choices)
async def export(interaction: discord.Interaction, session: str | None = None) -> None:
    """/poker session export: the file is written in a worker thread, after acknowledging."""
    reply = reply_to(interaction)
    assert interaction.guild_id is not None
    store = runners_of(interaction).bot.store
    night = await resolve_night(store, interaction.guild_id, interaction.channel_id or 0, session)
    hands = await store.night_hands(night.ids)
    if not hands:
        await reply.send(night_views.export_message(night, 0, 0, lang=reply.language))
        return
    await reply.defer_thinking(ephemeral=True)
    document, skipped = await asyncio.to_thread(night_phhs, hands, interaction.user.id)
    text = night_views.export_message(night, len(hands) - skipped, skipped, lang=reply.language)
    file = night_views.export_file(document, night) if document else discord.utils.MISSING
    await reply.send(text, file=file, allowed_mentions=night_views.NONE)


def _told(record: HandRecord) -> Hand | None:
    """The finished hand rebuilt, to be told; None if it cannot be (its file is still attached)."""
    try:
        return rebuild(record)
    except (IllegalAction, ValueError, KeyError, TypeError):
        log.warning("hand %s could not be rebuilt to be told", record.id, exc_info=True)
        return None


COMMANDS: tuple[app_commands.Command[Any, ..., None] | app_commands.Group, ...] = (nights, stats, history)
