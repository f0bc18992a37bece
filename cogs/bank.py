"""The /chips commands: balances, gifts, the ledger, the banker's grants and the starting balance; with the night's
/chips commands (``cogs.night_commands``: results, settle-up, graph, leaderboards) in one /chips group, which the
bank's cog adds to the tree."""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

import discord
from discord import app_commands
from discord.ext import commands

from bot.content.command_help import COMMAND_HELP, describe
from bot.i18n import Language, Text, say
from bot.store.db import MAX_AMOUNT
from bot.tables import TableError
from cogs import night_commands, render

from .groups import CommandGroup, bot_of
from .language import guild_language
from .reply import PUBLIC_ANSWER, Reply, reply_to

if TYPE_CHECKING:
    from cogs.app import PokerBot

AMOUNT = app_commands.Range[int, 1, 1_000_000_000_000]
NONE = discord.AllowedMentions.none()
LEDGER_PAGE = 10  # movements a ledger page shows
# The ledger's kinds of movement (``bot.store.bank``) as a member reads them; English: the kind as it is stored.
LEDGER_KINDS: Final = {
    "starting-grant": Text("starting-grant"), "admin-grant": Text("admin-grant"),
    "admin-removal": Text("admin-removal"), "transfer-in": Text("transfer-in"), "transfer-out": Text("transfer-out"),
    "buy-in": Text("buy-in"), "rebuy": Text("rebuy"), "top-up": Text("top-up"), "cash-out": Text("cash-out"),
    "carried-refund": Text("carried-refund"), "tournament-buy-in": Text("tournament-buy-in"),
    "tournament-rebuy": Text("tournament-rebuy"), "tournament-prize": Text("tournament-prize"),
    "tournament-refund": Text("tournament-refund"),
}
NOT_BANKER: Final = Text("Only members with Manage Server (or the banker role) can grant or remove chips.")
NOT_BANKER_LEDGER: Final = Text("Only members with Manage Server (or the banker role) can see another member's "
                                "ledger.")


async def _require_banker(interaction: discord.Interaction, refusal: Text = NOT_BANKER) -> None:
    """Members with Manage Server, or the banker role set with /chips banker role; else ``refusal``, which says
    what was refused."""
    member = interaction.user
    perms = getattr(member, "guild_permissions", None)
    if perms is not None and perms.manage_guild:
        return
    assert interaction.guild_id is not None
    role = (await bot_of(interaction).store.guild_settings(interaction.guild_id)).banker_role_id
    roles = {r.id for r in getattr(member, "roles", [])}
    if role is None or role not in roles:
        raise TableError(refusal)


@app_commands.command(name="balance", description="Your chips (or another member's)")
@app_commands.describe(**describe("chips balance"))
async def balance(interaction: discord.Interaction, member: discord.Member | None = None) -> None:
    """/chips balance"""
    reply = reply_to(interaction)
    who = member or interaction.user
    if who.bot:
        raise TableError(Text("Bots have no chips."))
    assert interaction.guild_id is not None
    amount = await bot_of(interaction).store.balance(interaction.guild_id, who.id)
    await reply.send(say(reply.language, "{member} has {chips} in the bank.", member=who.mention,
                         chips=render.chip_count(amount, lang=reply.language)), allowed_mentions=NONE)


@app_commands.command(name="give", extras=PUBLIC_ANSWER, description="Give some of your chips to another member")
@app_commands.describe(**describe("chips give"))
async def give(interaction: discord.Interaction, member: discord.Member, amount: AMOUNT) -> None:
    """/chips give"""
    reply = reply_to(interaction)
    if member.bot:
        raise TableError(Text("Bots have no use for chips."))
    assert interaction.guild_id is not None
    result = await bot_of(interaction).store.transfer(interaction.guild_id, interaction.user.id, member.id, amount)
    lang = guild_language(interaction)
    await reply.send(
        say(lang, "{giver} gives {chips} to {member}. Your balance: {balance}.", giver=interaction.user.mention,
            chips=render.chip_count(amount, lang=lang), member=member.mention, balance=result.src_balance),
        ephemeral=False, allowed_mentions=NONE)


@app_commands.command(name="ledger", description="Recent chip movements (yours, or a member's)")
@app_commands.describe(**describe("chips ledger"))
async def ledger(interaction: discord.Interaction, member: discord.Member | None = None,
                 page: app_commands.Range[int, 1, 10_000] = 1) -> None:
    """/chips ledger"""
    reply = reply_to(interaction)
    who = member or interaction.user
    assert interaction.guild_id is not None
    if who.id != interaction.user.id:
        await _require_banker(interaction, NOT_BANKER_LEDGER)
    result = await bot_of(interaction).store.ledger_page(interaction.guild_id, who.id, page, LEDGER_PAGE)
    lang = reply.language
    lines = [f"<t:{int(e.created_at)}:d> {_kind(e.kind, lang)} {_signed(e.delta, lang)} → "
             f"{render.chips(e.balance_after, lang=lang)}" for e in result.entries]
    header = say(lang, "{member}'s ledger, page {page}/{pages}", member=who.mention, page=str(result.page),
                 pages=str(result.pages))
    await reply.send("\n".join([header, *lines]), allowed_mentions=NONE)


def _kind(kind: str, lang: Language) -> str:
    """A ledger movement's kind in ``lang`` (one the bot does not know yet as it is stored)."""
    text = LEDGER_KINDS.get(kind)
    return text.worded(lang) if text is not None else kind


def _signed(amount: int, lang: Language) -> str:
    """A movement with its sign: ``+1,000``, ``-250``."""
    return ("-" if amount < 0 else "+") + render.chips(abs(amount), lang=lang)


async def _banker_moves(reply: Reply, member: discord.Member, amount: int, *, created: bool) -> None:
    """A banker creates (``created``) or removes chips of a member's balance, and says his balance after."""
    interaction = reply.interaction
    await _require_banker(interaction)
    assert interaction.guild_id is not None
    store = bot_of(interaction).store
    move = store.grant if created else store.remove
    balance = await move(interaction.guild_id, member.id, amount, interaction.user.id)
    lang = guild_language(interaction)
    chips = render.chip_count(amount, lang=lang)
    await reply.send(
        say(lang, "Granted {chips} to {member}; balance {balance}.", chips=chips, member=member.mention,
            balance=balance) if created else
        say(lang, "Removed {chips} from {member}; balance {balance}.", chips=chips, member=member.mention,
            balance=balance), ephemeral=False, allowed_mentions=NONE)


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
        await reply.send(say(reply.language, "New members start with {chips}.",
                             chips=render.chip_count(current, lang=reply.language)))
        return
    perms = getattr(interaction.user, "guild_permissions", None)
    if perms is None or not perms.manage_guild:
        raise TableError(Text("Only members with Manage Server can change the starting balance."))
    settings = await store.set_starting_balance(interaction.guild_id, amount)
    lang = guild_language(interaction)
    await reply.send(
        say(lang, "New members now start with {chips}; accounts already open keep their balance.",
            chips=render.chip_count(settings.starting_balance, lang=lang)), ephemeral=False)


banker = app_commands.Group(name="banker", description="Who may grant and remove chips")


@banker.command(name="role", extras=PUBLIC_ANSWER, description="Let a role grant and remove chips (Manage Server)")
@app_commands.describe(**describe("chips banker role"))
async def banker_role(interaction: discord.Interaction, role: discord.Role | None = None) -> None:
    """/chips banker role"""
    reply = reply_to(interaction)
    perms = getattr(interaction.user, "guild_permissions", None)
    if perms is None or not perms.manage_guild:
        raise TableError(Text("Only members with Manage Server can choose the banker role."))
    assert interaction.guild_id is not None
    await bot_of(interaction).store.set_banker_role(interaction.guild_id, role.id if role else None)
    lang = guild_language(interaction)
    text = (say(lang, "{role} can now grant and remove chips.", role=role.mention) if role
            else say(lang, "The banker role is cleared."))
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
