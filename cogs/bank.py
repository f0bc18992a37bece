"""The /chips commands: balances, gifts, the leaderboards, the ledger, the banker's grants, and a night's results,
settle-up and chip graph (``bot.tables.night``, shown by ``night_views``)."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterable
from typing import TYPE_CHECKING, cast

import discord
from discord import app_commands
from discord.ext import commands

from bot.command_help import COMMAND_HELP, describe
from bot.night import chip_graph_png
from bot.store.db import MAX_AMOUNT
from bot.tables import TableError
from bot.tables.night import NightResults, Period, night_board, night_results, resolve_night
from cogs import render

from . import night_views
from .errors import report

if TYPE_CHECKING:
    from bot.app import PokerBot

AMOUNT = app_commands.Range[int, 1, 1_000_000_000_000]
NONE = discord.AllowedMentions.none()


class BankCog(commands.Cog):
    """Each server's chip bank."""

    chips = app_commands.Group(name="chips", description="Your server's chip bank", guild_only=True)
    banker = app_commands.Group(name="banker", description="Who may grant and remove chips", parent=chips)

    def __init__(self, bot: PokerBot) -> None:
        self.bot = bot

    async def cog_app_command_error(self, interaction: discord.Interaction,
                                    error: app_commands.AppCommandError) -> None:
        await report(interaction, error)

    async def _require_banker(self, interaction: discord.Interaction) -> None:
        """Members with Manage Server, or the banker role set with /chips banker role."""
        member = interaction.user
        perms = getattr(member, "guild_permissions", None)
        if perms is not None and perms.manage_guild:
            return
        assert interaction.guild_id is not None
        role = (await self.bot.store.guild_settings(interaction.guild_id)).banker_role_id
        roles = {r.id for r in getattr(member, "roles", [])}
        if role is None or role not in roles:
            raise TableError("Only members with Manage Server (or the banker role) can grant or remove chips.")

    @chips.command(name="balance", description="Your chips (or another member's)")
    async def balance(self, interaction: discord.Interaction, member: discord.Member | None = None) -> None:
        """/chips balance"""
        who = member or interaction.user
        if who.bot:
            raise TableError("Bots have no chips.")
        assert interaction.guild_id is not None
        amount = await self.bot.store.balance(interaction.guild_id, who.id)
        await interaction.response.send_message(f"{who.mention} has {render.chip_count(amount)} in the bank.",
                                                ephemeral=True, allowed_mentions=NONE)

    @chips.command(name="give", description="Give some of your chips to another member")
    async def give(self, interaction: discord.Interaction, member: discord.Member, amount: AMOUNT) -> None:
        """/chips give"""
        if member.bot:
            raise TableError("Bots have no use for chips.")
        assert interaction.guild_id is not None
        result = await self.bot.store.transfer(interaction.guild_id, interaction.user.id, member.id, amount)
        await interaction.response.send_message(
            f"{interaction.user.mention} gives {render.chip_count(amount)} to {member.mention}. "
            f"Your balance: {render.chips(result.src_balance)}.", allowed_mentions=NONE)

    @chips.command(name="leaderboard", description="The members with the most chips, or who won most at tables")
    @app_commands.describe(**describe("chips leaderboard"))
    @app_commands.choices(period=night_views.PERIOD_CHOICES)
    async def leaderboard(self, interaction: discord.Interaction, period: str | None = None) -> None:
        """/chips leaderboard"""
        assert interaction.guild_id is not None
        if period is not None:
            channel = interaction.channel_id or 0
            board = await night_board(self.bot.store, interaction.guild_id, channel, cast(Period, period),
                                      time.time())
            table = self.bot.tables.get(channel)
            here = board.night.nights[0].table_id if board.here and board.night else None
            value = table.settings.money if table is not None and table.id == here else None  # this table's night
            await interaction.response.send_message(night_views.board_text(board, value), allowed_mentions=NONE)
            return
        rows = await self.bot.store.leaderboard(interaction.guild_id, 10)
        lines = [f"{r.rank}. {render.mention(r.user_id)} {render.chips(r.total)}"
                 + (f" ({render.chips(r.at_tables)} at tables)" if r.at_tables else "") for r in rows]
        await interaction.response.send_message("\n".join(lines) or "Nobody has chips yet.", allowed_mentions=NONE)

    @chips.command(name="ledger", description="Recent chip movements (yours, or a member's)")
    async def ledger(self, interaction: discord.Interaction, member: discord.Member | None = None,
                     page: app_commands.Range[int, 1, 10_000] = 1) -> None:
        """/chips ledger"""
        who = member or interaction.user
        assert interaction.guild_id is not None
        if who.id != interaction.user.id:
            await self._require_banker(interaction)
        result = await self.bot.store.ledger_page(interaction.guild_id, who.id, page, 10)
        lines = [f"<t:{int(e.created_at)}:d> {e.kind} {e.delta:+,} → {render.chips(e.balance_after)}"
                 for e in result.entries]
        header = f"{who.mention}'s ledger, page {result.page}/{result.pages}"
        await interaction.response.send_message("\n".join([header, *lines]), ephemeral=True, allowed_mentions=NONE)

    # ---- the night after the cards

    async def _night(self, interaction: discord.Interaction, session: str | None) -> NightResults:
        assert interaction.guild_id is not None
        night = await resolve_night(self.bot.store, interaction.guild_id, interaction.channel_id or 0, session)
        return await night_results(self.bot.store, self.bot.tables, night)

    @chips.command(name="results", description=COMMAND_HELP["chips results"])
    @app_commands.describe(**describe("chips results"))
    async def results(self, interaction: discord.Interaction, session: str | None = None) -> None:
        """/chips results"""
        results = await self._night(interaction, session)
        await interaction.response.send_message(night_views.results_text(results), allowed_mentions=NONE)

    @chips.command(name="settle", description=COMMAND_HELP["chips settle"])
    @app_commands.describe(**describe("chips settle"))
    async def settle(self, interaction: discord.Interaction, session: str | None = None) -> None:
        """/chips settle"""
        results = await self._night(interaction, session)
        text = night_views.settle_text(results, results.payments())
        await interaction.response.send_message(text, allowed_mentions=NONE)

    @chips.command(name="graph", description=COMMAND_HELP["chips graph"])
    @app_commands.describe(**describe("chips graph"))
    async def graph(self, interaction: discord.Interaction, session: str | None = None,
                    member: discord.Member | None = None) -> None:
        """/chips graph: drawn in a worker thread (a table's clicks go on meanwhile), after acknowledging."""
        results = await self._night(interaction, session)
        series = results.series
        if not series:
            raise TableError(night_views.results_text(results))  # "no hand has been finished yet"
        if member is not None:
            if member.id not in series:
                raise TableError(f"{member.mention} played no hand in this night.")
            series = {member.id: series[member.id]}
        await interaction.response.defer(thinking=True)
        names = await self._names(interaction, series)
        png = await asyncio.to_thread(chip_graph_png, series, names, night_views.graph_title(results))
        alt = night_views.graph_alt(series, names, len(results.hands))
        await interaction.followup.send(night_views.graph_message(results, member.id if member else None),
                                        file=night_views.graph_file(png, results, alt), allowed_mentions=NONE)

    async def _names(self, interaction: discord.Interaction, users: Iterable[int]) -> dict[int, str]:
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

    @results.autocomplete("session")
    @settle.autocomplete("session")
    @graph.autocomplete("session")
    async def _night_choices(self, interaction: discord.Interaction, current: str
                               ) -> list[app_commands.Choice[str]]:
        return await night_views.night_choices_of(self.bot.store, interaction, current)

    @chips.command(name="grant", description="Create chips for a member (banker)")
    async def grant(self, interaction: discord.Interaction, member: discord.Member, amount: AMOUNT) -> None:
        """/chips grant"""
        await self._require_banker(interaction)
        assert interaction.guild_id is not None
        balance = await self.bot.store.grant(interaction.guild_id, member.id, amount, interaction.user.id)
        await interaction.response.send_message(
            f"Granted {render.chip_count(amount)} to {member.mention}; balance {render.chips(balance)}.",
            allowed_mentions=NONE)

    @chips.command(name="remove", description="Remove chips from a member (banker)")
    async def remove(self, interaction: discord.Interaction, member: discord.Member, amount: AMOUNT) -> None:
        """/chips remove"""
        await self._require_banker(interaction)
        assert interaction.guild_id is not None
        balance = await self.bot.store.remove(interaction.guild_id, member.id, amount, interaction.user.id)
        await interaction.response.send_message(
            f"Removed {render.chip_count(amount)} from {member.mention}; balance {render.chips(balance)}.",
            allowed_mentions=NONE)

    @chips.command(name="starting_balance", description=COMMAND_HELP["chips starting_balance"])
    @app_commands.describe(**describe("chips starting_balance"))
    async def starting_balance(self, interaction: discord.Interaction,
                               amount: app_commands.Range[int, 0, MAX_AMOUNT] | None = None) -> None:
        """/chips starting_balance: show it, or (Manage Server) set it; accounts already open keep theirs."""
        assert interaction.guild_id is not None
        store = self.bot.store
        if amount is None:
            current = (await store.guild_settings(interaction.guild_id)).starting_balance
            await interaction.response.send_message(
                f"New members start with {render.chip_count(current)}.", ephemeral=True)
            return
        perms = getattr(interaction.user, "guild_permissions", None)
        if perms is None or not perms.manage_guild:
            raise TableError("Only members with Manage Server can change the starting balance.")
        settings = await store.set_starting_balance(interaction.guild_id, amount)
        await interaction.response.send_message(
            f"New members now start with {render.chip_count(settings.starting_balance)}; "
            "accounts already open keep their balance.")

    @banker.command(name="role", description="Let a role grant and remove chips (Manage Server)")
    async def banker_role(self, interaction: discord.Interaction, role: discord.Role | None = None) -> None:
        """/chips banker role"""
        perms = getattr(interaction.user, "guild_permissions", None)
        if perms is None or not perms.manage_guild:
            raise TableError("Only members with Manage Server can choose the banker role.")
        assert interaction.guild_id is not None
        await self.bot.store.set_banker_role(interaction.guild_id, role.id if role else None)
        text = f"{role.mention} can now grant and remove chips." if role else "The banker role is cleared."
        await interaction.response.send_message(text, allowed_mentions=NONE)


async def setup(bot: PokerBot) -> None:
    """Load the extension."""
    await bot.add_cog(BankCog(bot))
