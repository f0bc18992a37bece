"""/chips results, settle, graph and leaderboard: a night's nets, its settle-up, its chip graph, and who won most
at tables over a period. Each asks ``bot.tables.night`` and shows what comes back with ``cogs.night_views``.

The night's commands of /poker (session new, stats, history, export) need a table's Discord side and are the
table extension's (``cogs.table``).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterable
from typing import cast

import discord
from discord import app_commands

from bot.content.command_help import COMMAND_HELP, describe
from bot.i18n import Member, Text, say
from bot.night import chip_graph_png
from bot.tables import TableError
from bot.tables.night import NightResults, Period, night_board, night_results, resolve_night
from cogs import night_views, render
from cogs.language import guild_language

from .groups import Child, bot_of
from .reply import PUBLIC_ANSWER, reply_to

__all__ = ["COMMANDS"]

NONE = discord.AllowedMentions.none()
MAX_BOARD = 10  # members on the balances' leaderboard


async def _night(interaction: discord.Interaction, session: str | None) -> NightResults:
    return await night_of(interaction, session)


async def night_of(interaction: discord.Interaction, session: str | None = None) -> NightResults:
    """The night a command means (``session``; default: the channel's current or last) and its results."""
    assert interaction.guild_id is not None
    bot = bot_of(interaction)
    night = await resolve_night(bot.store, interaction.guild_id, interaction.channel_id or 0, session)
    return await night_results(bot.store, bot.tables, night)


async def _night_choices(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    return await night_views.night_choices_of(bot_of(interaction).store, interaction, current)


@app_commands.command(name="leaderboard", extras=PUBLIC_ANSWER,
                      description="The members with the most chips, or who won most at tables")
@app_commands.describe(**describe("chips leaderboard"))
@app_commands.choices(period=night_views.PERIOD_CHOICES)
async def leaderboard(interaction: discord.Interaction, period: str | None = None) -> None:
    """/chips leaderboard"""
    reply = reply_to(interaction)
    assert interaction.guild_id is not None
    bot = bot_of(interaction)
    lang = guild_language(interaction)
    if period is not None:
        channel = interaction.channel_id or 0
        board = await night_board(bot.store, interaction.guild_id, channel, cast(Period, period), time.time())
        table = bot.tables.get(channel)
        here = board.night.nights[0].table_id if board.here and board.night else None
        value = table.settings.money if table is not None and table.id == here else None  # this table's night
        await reply.send(night_views.board_text(board, value, lang=lang), ephemeral=False, allowed_mentions=NONE)
        return
    rows = await bot.store.leaderboard(interaction.guild_id, MAX_BOARD)
    lines = [say(lang, "{rank}. {member} {amount} ({at_tables} at tables)", rank=str(r.rank),
                 member=render.mention(r.user_id), amount=r.total, at_tables=r.at_tables) if r.at_tables
             else f"{r.rank}. {render.mention(r.user_id)} {render.chips(r.total, lang=lang)}" for r in rows]
    await reply.send("\n".join(lines) or say(lang, "Nobody has chips yet."), ephemeral=False, allowed_mentions=NONE)


@app_commands.command(name="results", extras=PUBLIC_ANSWER, description=COMMAND_HELP["chips results"])
@app_commands.describe(**describe("chips results"))
@app_commands.autocomplete(session=_night_choices)
async def results(interaction: discord.Interaction, session: str | None = None) -> None:
    """/chips results"""
    reply = reply_to(interaction)
    night = await _night(interaction, session)
    await reply.send(night_views.results_text(night, lang=guild_language(interaction)), ephemeral=False,
                     allowed_mentions=NONE)


@app_commands.command(name="settle", extras=PUBLIC_ANSWER, description=COMMAND_HELP["chips settle"])
@app_commands.describe(**describe("chips settle"))
@app_commands.autocomplete(session=_night_choices)
async def settle(interaction: discord.Interaction, session: str | None = None) -> None:
    """/chips settle"""
    reply = reply_to(interaction)
    night = await _night(interaction, session)
    await reply.send(night_views.settle_text(night, night.payments(), lang=guild_language(interaction)),
                     ephemeral=False, allowed_mentions=NONE)


@app_commands.command(name="graph", extras=PUBLIC_ANSWER, description=COMMAND_HELP["chips graph"])
@app_commands.describe(**describe("chips graph"))
@app_commands.autocomplete(session=_night_choices)
async def graph(interaction: discord.Interaction, session: str | None = None,
                member: discord.Member | None = None) -> None:
    """/chips graph: drawn in a worker thread (a table's clicks go on meanwhile), after acknowledging."""
    reply = reply_to(interaction)
    night = await _night(interaction, session)
    series = night.series
    if not series:  # "no hand has been finished yet", to the asker alone
        raise TableError(night_views.results_text(night, lang=reply.language))
    if member is not None:
        if member.id not in series:
            raise TableError(Text("{member} played no hand in this night.", member=Member(member.id)))
        series = {member.id: series[member.id]}
    await reply.defer_thinking()
    lang = guild_language(interaction)
    names = await _names(interaction, series)
    png = await asyncio.to_thread(chip_graph_png, series, names, night_views.graph_title(night, lang=lang),
                                  lang=lang)
    alt = night_views.graph_alt(series, names, len(night.hands), lang=lang)
    await reply.send(night_views.graph_message(night, member.id if member else None, lang=lang),
                     file=night_views.graph_file(png, night, alt), ephemeral=False, allowed_mentions=NONE)


async def _names(interaction: discord.Interaction, users: Iterable[int]) -> dict[int, str]:
    """The members' names as the server shows them (a picture cannot hold mentions), looked up if need be."""
    guild = interaction.guild
    names: dict[int, str] = {}
    if guild is None:
        return names

    async def look_up(user: int) -> None:
        member = guild.get_member(user)
        if member is None:
            try:
                member = await guild.fetch_member(user)
            except discord.HTTPException:  # left the server: he keeps a number
                return
        names[user] = member.display_name

    await asyncio.gather(*(look_up(user) for user in users))
    return names


COMMANDS: tuple[Child, ...] = (leaderboard, results, settle, graph)
