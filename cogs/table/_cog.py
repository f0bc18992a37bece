"""The /poker commands: thin adapters over bot.tables (no game rules here)."""

from __future__ import annotations

import io
import logging
from collections.abc import Sequence
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot import render
from bot.poker import DEALERS_CHOICE, GAMES, Event
from bot.table_settings import SettingsError, TableSettings
from bot.tables import Table, TableError

from ..errors import report
from ._views import ModalSubmit

if TYPE_CHECKING:
    from bot.app import PokerBot

    from ._runner import TableRunner

log = logging.getLogger(__name__)

GAME_CHOICES = [app_commands.Choice(name=g.name[:100], value=g.id) for g in GAMES.values()]
GAME_CHOICES.append(app_commands.Choice(name="Dealer's choice", value=DEALERS_CHOICE))
STRUCTURE_CHOICES = [app_commands.Choice(name=n, value=v) for v, n in render.STRUCTURE_NAMES.items()]
DRAW_LIMIT_CHOICES = [
    app_commands.Choice(name="Unlimited", value="none"),
    app_commands.Choice(name="Three cards", value="3"),
    app_commands.Choice(name="Three, or four keeping an ace", value="3-or-4-with-ace"),
]
CHOICE_PER_CHOICES = [
    app_commands.Choice(name="Each hand", value="hand"),
    app_commands.Choice(name="Each orbit", value="orbit"),
]
CHIPS = app_commands.Range[int, 0, 1_000_000_000]
POSITIVE = app_commands.Range[int, 1, 1_000_000_000_000]


def is_host(table: Table, interaction: discord.Interaction) -> bool:
    """The table's host, or a member with Manage Server."""
    perms = getattr(interaction.user, "guild_permissions", None)
    return interaction.user.id == table.record.host_id or bool(perms and perms.manage_guild)


class TableCog(commands.Cog):
    """Tables in channels: create, join, play, close."""

    poker = app_commands.Group(name="poker", description="Draw poker tables", guild_only=True)

    def __init__(self, bot: PokerBot, runner: TableRunner) -> None:
        self.bot = bot
        self.runner = runner

    async def cog_app_command_error(self, interaction: discord.Interaction,
                                    error: app_commands.AppCommandError) -> None:
        await report(interaction, error)

    def _table(self, interaction: discord.Interaction) -> Table:
        return self.bot.tables.require(interaction.channel_id or 0)

    def _host_table(self, interaction: discord.Interaction) -> Table:
        table = self._table(interaction)
        if not is_host(table, interaction):
            raise TableError("Only the table's host (or someone with Manage Server) can do that.")
        return table

    @commands.Cog.listener()
    async def on_raw_message_delete(self, payload: discord.RawMessageDeleteEvent) -> None:
        """Someone deleted the table message: post it again, so the game can go on."""
        table = self.bot.tables.get(payload.channel_id)
        if table is None or table.meta.get("message") != payload.message_id:
            return
        table.meta.pop("message", None)
        try:
            await self.runner.publish(table)
        except (discord.HTTPException, TableError):  # TableError: the bot may not post here (the host is told)
            log.warning("could not post table %s again after its message was deleted", table.id, exc_info=True)

    @commands.Cog.listener()
    async def on_interaction(self, interaction: discord.Interaction) -> None:
        """A table modal submitted (the amount, the draw): handled by its custom_id, so one opened before a
        restart still works."""
        if interaction.type is discord.InteractionType.modal_submit:
            submit = ModalSubmit.parse(interaction.data)
            if submit is not None:
                await submit.callback(interaction)

    # ------------------------------------------------------------------ the table

    @poker.command(name="create", description="Open a table in this channel")
    @app_commands.choices(game=GAME_CHOICES, structure=STRUCTURE_CHOICES, draw_limit=DRAW_LIMIT_CHOICES,
                          choice_per=CHOICE_PER_CHOICES)
    @app_commands.describe(
        game="The game, or dealer's choice", small_blind="Small blind", big_blind="Big blind",
        structure="Betting structure (default: each game's own)", ante="Ante from every player",
        min_buy_in="Smallest buy-in in chips (default 20 big blinds)",
        max_buy_in="Largest buy-in in chips (default 100 big blinds)", seats="Seats at the table",
        clock="Seconds each player has to act (default 60)", jokers="Assassin: add two jokers that play as twos",
        draw_limit="Five Card Draw and Assassin: how many cards may be drawn",
        choice_per="Dealer's choice: the button picks the game for each hand (default) or for an orbit",
        dealer_picks_structure="Dealer's choice: the button may also pick the betting structure",
    )
    async def create(
        self, interaction: discord.Interaction, game: str, small_blind: CHIPS, big_blind: CHIPS,
        structure: str | None = None, ante: CHIPS = 0, min_buy_in: POSITIVE | None = None,
        max_buy_in: POSITIVE | None = None, seats: app_commands.Range[int, 2, 8] | None = None,
        clock: app_commands.Range[int, 10, 3600] = 60, jokers: bool = False, draw_limit: str = "none",
        choice_per: str = "hand", dealer_picks_structure: bool = False,
    ) -> None:
        """/poker create"""
        try:
            settings = TableSettings(
                game=game, small_blind=small_blind, big_blind=big_blind, structure=structure,  # type: ignore[arg-type]
                ante=ante, min_buy_in=min_buy_in, max_buy_in=max_buy_in, seats=seats, clock=clock, jokers=jokers,
                draw_limit=draw_limit, choice_per=choice_per,  # type: ignore[arg-type]
                dealer_picks_structure=dealer_picks_structure,
            )
        except SettingsError as error:
            raise TableError(str(error)) from None
        assert interaction.guild_id is not None and interaction.channel_id is not None
        table = await self.bot.tables.create(interaction.guild_id, interaction.channel_id, interaction.user.id,
                                             settings)
        await table.pause()  # nothing is dealt until the host starts the game
        low, high = settings.buy_in_range
        await interaction.response.send_message(
            f"Table open: {render.stakes_line(settings, None if settings.is_dealers_choice else GAMES[game])}. "
            f"Buy-ins {render.chips(low)} to {render.chips(high)}. Join with `/poker join`, "
            "then the host deals with `/poker start`.")
        await self.runner.publish(table)

    @poker.command(name="join", description="Sit down at this channel's table")
    @app_commands.describe(buy_in="Chips to bring (default: as many as the table allows and you have)")
    async def join(self, interaction: discord.Interaction, buy_in: POSITIVE | None = None) -> None:
        """/poker join"""
        table = self._table(interaction)
        seat = await table.join(interaction.user.id, buy_in)
        await interaction.response.send_message(f"You sit in seat {seat.seat_no} with {render.chips(seat.stack)} "
                                                "chips.", ephemeral=True)
        await self.runner.publish(table)
        if table.live is None and not table.paused:
            self.runner.schedule_deal(table)

    @poker.command(name="leave", description="Leave the table (cashed out now, or at the end of your hand)")
    async def leave(self, interaction: discord.Interaction) -> None:
        """/poker leave"""
        table = self._table(interaction)
        cash, events = await table.leave(interaction.user.id)
        if cash is not None:
            text = f"You leave with {render.chips(cash.amount)} chips; your balance is {render.chips(cash.balance)}."
        else:
            text = "You fold and leave; your chips go back to your balance when this hand ends."
        await interaction.response.send_message(text, ephemeral=True)
        await self._after_events(table, events)

    async def _after_events(self, table: Table, events: Sequence[Event]) -> None:
        if table.live is None and events:
            await self.runner.post_showdown(table)
            self.runner.schedule_deal(table)
        elif events:
            self.runner.arm_clock(table)
        await self.runner.publish(table)

    @poker.command(name="start", description="Start dealing (host)")
    async def start(self, interaction: discord.Interaction) -> None:
        """/poker start"""
        table = self._host_table(interaction)
        if table.live is not None:
            raise TableError("A hand is already being played.")
        if len(table.dealt_in()) < 2:
            raise TableError("At least two players with chips must be seated.")
        await table.resume()
        await interaction.response.send_message("Shuffle up and deal!")
        await self.runner.deal(table)

    @poker.command(name="pause", description="Stop dealing after this hand (host)")
    async def pause(self, interaction: discord.Interaction) -> None:
        """/poker pause"""
        table = self._host_table(interaction)
        await table.pause()
        await interaction.response.send_message("The table pauses after this hand.")
        await self.runner.publish(table)

    @poker.command(name="resume", description="Deal again (host)")
    async def resume(self, interaction: discord.Interaction) -> None:
        """/poker resume"""
        table = self._host_table(interaction)
        await table.resume()
        await interaction.response.send_message("Dealing resumes.")
        if table.live is None:
            self.runner.schedule_deal(table, 0)

    @poker.command(name="close", description="Close the table and cash everyone out (host)")
    async def close(self, interaction: discord.Interaction) -> None:
        """/poker close"""
        table = self._host_table(interaction)
        await interaction.response.defer()
        await self.runner.close(table)
        cashes = await self.bot.tables.close(interaction.channel_id or 0)
        await self.runner.show_closed(table)
        lines = [f"{render.mention(c.user_id)} cashes out {render.chips(c.amount)}" for c in cashes]
        await interaction.followup.send("Table closed.\n" + "\n".join(lines),
                                        allowed_mentions=discord.AllowedMentions.none())

    @poker.command(name="kick", description="Remove a player from the table (host)")
    async def kick(self, interaction: discord.Interaction, member: discord.Member) -> None:
        """/poker kick"""
        table = self._host_table(interaction)
        cash, events = await table.kick(member.id)
        when = "now" if cash is not None else "at the end of this hand"
        await interaction.response.send_message(f"{member.mention} leaves the table; cashed out {when}.",
                                                allowed_mentions=discord.AllowedMentions.none())
        await self._after_events(table, events)

    @poker.command(name="settings", description="Show this table's settings")
    async def settings(self, interaction: discord.Interaction) -> None:
        """/poker settings"""
        table = self._table(interaction)
        s = table.settings
        low, high = s.buy_in_range
        game = GAMES[s.game].name if not s.is_dealers_choice else f"Dealer's choice (per {s.choice_per}" + (
            ", the dealer also picks the structure)" if s.dealer_picks_structure else ")")
        text = (f"**{game}**\n{render.stakes_line(s, None if s.is_dealers_choice else GAMES[s.game])}\n"
                f"Buy-ins {render.chips(low)} to {render.chips(high)} · {s.max_seats} seats · clock {s.clock}s\n"
                f"Host: {render.mention(table.record.host_id)}")
        await interaction.response.send_message(text, ephemeral=True, allowed_mentions=discord.AllowedMentions.none())

    @poker.command(name="sitout", description="Sit out from the next hand")
    async def sitout(self, interaction: discord.Interaction) -> None:
        """/poker sitout"""
        table = self._table(interaction)
        await table.sit_out(interaction.user.id)
        await interaction.response.send_message("You sit out from the next hand.", ephemeral=True)
        await self.runner.publish(table)

    @poker.command(name="sitin", description="Come back into the game")
    async def sitin(self, interaction: discord.Interaction) -> None:
        """/poker sitin"""
        table = self._table(interaction)
        await table.sit_in(interaction.user.id)
        await interaction.response.send_message("You are dealt in from the next hand.", ephemeral=True)
        await self.runner.publish(table)
        if table.live is None and not table.paused:
            self.runner.schedule_deal(table)

    @poker.command(name="rebuy", description="Add chips to your stack between hands")
    async def rebuy(self, interaction: discord.Interaction, amount: POSITIVE) -> None:
        """/poker rebuy"""
        table = self._table(interaction)
        seat = await table.rebuy(interaction.user.id, amount)
        await interaction.response.send_message(f"Your stack is now {render.chips(seat.stack)}.", ephemeral=True)
        await self.runner.publish(table)
        if table.live is None and not table.paused:
            self.runner.schedule_deal(table)

    @poker.command(name="table", description="Post the table message again")
    async def table(self, interaction: discord.Interaction) -> None:
        """/poker table"""
        table = self._table(interaction)
        old = table.meta.pop("message", None)
        await interaction.response.send_message("Here is the table:", ephemeral=True)
        await self.runner.publish(table)
        if old is not None:
            await self.runner.retire_message(table, old)

    @poker.command(name="hand", description="Show your cards (only you see them)")
    async def hand(self, interaction: discord.Interaction) -> None:
        """/poker hand"""
        table = self._table(interaction)
        await interaction.response.send_message(self.runner.hand_text(table, interaction.user.id), ephemeral=True)

    @poker.command(name="rules", description="The rules of a game")
    @app_commands.choices(game=GAME_CHOICES[:-1])
    async def rules(self, interaction: discord.Interaction, game: str | None = None) -> None:
        """/poker rules"""
        await interaction.response.send_message(render.rules_text(game), ephemeral=True)

    @poker.command(name="history", description="Recent hands at this table, with their hand histories")
    async def history(self, interaction: discord.Interaction, count: app_commands.Range[int, 1, 10] = 3) -> None:
        """/poker history"""
        table = self._table(interaction)
        hands = [h for h in await self.bot.store.recent_hands(table.id, 25) if h.status == "complete"][:count]
        if not hands:
            await interaction.response.send_message("No hand has been finished at this table yet.", ephemeral=True)
            return
        lines, files = [], []
        for record in hands:
            winners = (record.result or {}).get("winners", [])
            names = ", ".join(render.mention(w) for w in winners) or "nobody (carried)"
            lines.append(f"#{record.number} {GAMES[record.game].name}: won by {names}")
            if record.phh:
                files.append(discord.File(io.BytesIO(record.phh.encode()), filename=f"hand-{record.number}.phh"))
        await interaction.response.send_message("\n".join(lines), files=files, ephemeral=True,
                                                allowed_mentions=discord.AllowedMentions.none())
