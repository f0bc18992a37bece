"""The /chips commands: balances, gifts, the ledger, the banker's grants and the starting balance; with the night's
/chips commands (``cogs.night_commands``: results, settle-up, graph, leaderboards) in one /chips group, which the
bank's cog adds to the tree."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.content.command_help import COMMAND_HELP, describe
from bot.store.db import MAX_AMOUNT
from bot.tables import TableError
from cogs import night_commands, render

from .groups import CommandGroup, bot_of
from .reply import PUBLIC_ANSWER, Reply, reply_to

if TYPE_CHECKING:
    from cogs.app import PokerBot

AMOUNT = app_commands.Range[int, 1, 1_000_000_000_000]
NONE = discord.AllowedMentions.none()
LEDGER_PAGE = 10  # movements a ledger page shows


async def _require_banker(interaction: discord.Interaction, what: str = "grant or remove chips") -> None:
    """Members with Manage Server, or the banker role set with /chips banker role; the refusal says ``what`` was
    refused."""
    member = interaction.user
    perms = getattr(member, "guild_permissions", None)
    if perms is not None and perms.manage_guild:
        return
    assert interaction.guild_id is not None
    role = (await bot_of(interaction).store.guild_settings(interaction.guild_id)).banker_role_id
    roles = {r.id for r in getattr(member, "roles", [])}
    if role is None or role not in roles:
        raise TableError(f"Only members with Manage Server (or the banker role) can {what}.")


@app_commands.command(name="balance", description="Your chips (or another member's)")
@app_commands.describe(**describe("chips balance"))
async def balance(interaction: discord.Interaction, member: discord.Member | None = None) -> None:
    """/chips balance"""
    reply = reply_to(interaction)
    who = member or interaction.user
    if who.bot:
        raise TableError("Bots have no chips.")
    assert interaction.guild_id is not None
    amount = await bot_of(interaction).store.balance(interaction.guild_id, who.id)
    await reply.send(f"{who.mention} has {render.chip_count(amount)} in the bank.", allowed_mentions=NONE)


@app_commands.command(name="give", extras=PUBLIC_ANSWER, description="Give some of your chips to another member")
@app_commands.describe(**describe("chips give"))
async def give(interaction: discord.Interaction, member: discord.Member, amount: AMOUNT) -> None:
    """/chips give"""
    reply = reply_to(interaction)
    if member.bot:
        raise TableError("Bots have no use for chips.")
    assert interaction.guild_id is not None
    result = await bot_of(interaction).store.transfer(interaction.guild_id, interaction.user.id, member.id, amount)
    await reply.send(
        f"{interaction.user.mention} gives {render.chip_count(amount)} to {member.mention}. "
        f"Your balance: {render.chips(result.src_balance)}.", ephemeral=False, allowed_mentions=NONE)


@app_commands.command(name="ledger", description="Recent chip movements (yours, or a member's)")
@app_commands.describe(**describe("chips ledger"))
async def ledger(interaction: discord.Interaction, member: discord.Member | None = None,
                 page: app_commands.Range[int, 1, 10_000] = 1) -> None:
    """/chips ledger"""
    reply = reply_to(interaction)
    who = member or interaction.user
    assert interaction.guild_id is not None
    if who.id != interaction.user.id:
        await _require_banker(interaction, "see another member's ledger")
    result = await bot_of(interaction).store.ledger_page(interaction.guild_id, who.id, page, LEDGER_PAGE)
    lines = [f"<t:{int(e.created_at)}:d> {e.kind} {e.delta:+,} → {render.chips(e.balance_after)}"
             for e in result.entries]
    header = f"{who.mention}'s ledger, page {result.page}/{result.pages}"
    await reply.send("\n".join([header, *lines]), allowed_mentions=NONE)


async def _banker_moves(reply: Reply, member: discord.Member, amount: int, *, created: bool) -> None:
    """A banker creates (``created``) or removes chips of a member's balance, and says his balance after."""
    interaction = reply.interaction
    await _require_banker(interaction)
    assert interaction.guild_id is not None
    store = bot_of(interaction).store
    move = store.grant if created else store.remove
    balance = await move(interaction.guild_id, member.id, amount, interaction.user.id)
    done = f"Granted {render.chip_count(amount)} to" if created else f"Removed {render.chip_count(amount)} from"
    await reply.send(f"{done} {member.mention}; balance {render.chips(balance)}.", ephemeral=False,
                     allowed_mentions=NONE)


@app_commands.command(name="grant", extras=PUBLIC_ANSWER, description="Create chips for a member (banker)")
@app_commands.describe(**describe("chips grant"))
async def grant(interaction: discord.Interaction, member: discord.Member, amount: AMOUNT) -> None:
    """/chips grant"""
    reply = reply_to(interaction)
    await _banker_moves(reply, member, amount, created=True)


@app_commands.command(name="remove", extras=PUBLIC_ANSWER, description="Remove chips from a member (banker)")
@app_commands.describe(**describe("chips remove"))
async def remove(interaction: discord.Interaction, member: discord.Member, amount: AMOUNT) -> None:
    """/chips remove"""
    reply = reply_to(interaction)
    await _banker_moves(reply, member, amount, created=False)


@app_commands.command(name="starting_balance", extras=PUBLIC_ANSWER,
                      description=COMMAND_HELP["chips starting_balance"])
@app_commands.describe(**describe("chips starting_balance"))
async def starting_balance(interaction: discord.Interaction,
                           amount: app_commands.Range[int, 0, MAX_AMOUNT] | None = None) -> None:
    """/chips starting_balance: show it, or (Manage Server) set it; accounts already open keep theirs."""
    reply = reply_to(interaction)
    assert interaction.guild_id is not None
    store = bot_of(interaction).store
    if amount is None:
        current = (await store.guild_settings(interaction.guild_id)).starting_balance
        await reply.send(f"New members start with {render.chip_count(current)}.")
        return
    perms = getattr(interaction.user, "guild_permissions", None)
    if perms is None or not perms.manage_guild:
        raise TableError("Only members with Manage Server can change the starting balance.")
    settings = await store.set_starting_balance(interaction.guild_id, amount)
    await reply.send(
        f"New members now start with {render.chip_count(settings.starting_balance)}; "
        "accounts already open keep their balance.", ephemeral=False)


banker = app_commands.Group(name="banker", description="Who may grant and remove chips")


@banker.command(name="role", extras=PUBLIC_ANSWER, description="Let a role grant and remove chips (Manage Server)")
@app_commands.describe(**describe("chips banker role"))
async def banker_role(interaction: discord.Interaction, role: discord.Role | None = None) -> None:
    """/chips banker role"""
    reply = reply_to(interaction)
    perms = getattr(interaction.user, "guild_permissions", None)
    if perms is None or not perms.manage_guild:
        raise TableError("Only members with Manage Server can choose the banker role.")
    assert interaction.guild_id is not None
    await bot_of(interaction).store.set_banker_role(interaction.guild_id, role.id if role else None)
    text = f"{role.mention} can now grant and remove chips." if role else "The banker role is cleared."
    await reply.send(text, ephemeral=False, allowed_mentions=NONE)


CHIPS = CommandGroup("chips", "Your server's chip bank", balance, give, ledger, grant, remove, starting_balance,
                     banker, *night_commands.COMMANDS)


class BankCog(commands.Cog):
    """Each server's chip bank: the /chips group, added to the tree while the extension is loaded."""

    def __init__(self, bot: PokerBot) -> None:
        self.bot = bot

    async def cog_load(self) -> None:
        self.bot.tree.add_command(CHIPS, override=True)

    async def cog_unload(self) -> None:
        self.bot.tree.remove_command(CHIPS.name)


async def setup(bot: PokerBot) -> None:
    """Load the extension."""
    await bot.add_cog(BankCog(bot))
