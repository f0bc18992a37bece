"""The /chips commands: balances, gifts, the leaderboard, the ledger and the banker's grants."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.tables import TableError
from cogs import render

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

    @chips.command(name="leaderboard", description="The members with the most chips")
    async def leaderboard(self, interaction: discord.Interaction) -> None:
        """/chips leaderboard"""
        assert interaction.guild_id is not None
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

    @chips.command(name="results", description="Tonight's net result per player at this channel's table")
    async def results(self, interaction: discord.Interaction) -> None:
        """/chips results"""
        table = self.bot.tables.require(interaction.channel_id or 0)
        rows = sorted(await self.bot.store.session_results(table.id), key=lambda r: -r.net)
        lines = [f"{render.mention(r.user_id)} {r.net:+,}" for r in rows]
        await interaction.response.send_message("\n".join(lines) or "Nobody has played here yet.",
                                                allowed_mentions=NONE)

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
