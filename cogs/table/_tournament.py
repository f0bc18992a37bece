"""Tournaments in Discord: the /poker tournament commands, the registration message's buttons (Register,
Unregister, Rebuy), and the news posted in the channel as the tournament goes (``Announcer``).

What a tournament shows is ``cogs.tournament_views``'s; its rules and chips are the table layer's
(``bot.tables.tournament``) and the store's. The registration message and the channel's posts are in the table's
language, a member's private answers in his.
"""

from __future__ import annotations

import itertools
import logging
from collections.abc import Awaitable, Callable
from typing import Literal

import discord
from discord import app_commands

from bot.content.command_help import COMMAND_HELP, describe
from bot.i18n import ENGLISH, Language, Text, say
from bot.store import CashOut
from bot.store.db import MAX_BALANCE
from bot.tables import Table, TableError
from bot.tables import tournament as mode
from bot.tables.settings import MAX_BUY_IN
from bot.tables.tournament import Finished, News, TournamentMode, Wake, new_tournament, tournament_of
from bot.tournament.levels import MAX_LEVELS, MAX_MINUTES
from cogs.language import table_language
from cogs.render import mention
from cogs.tournament_views import (
    MAX_LISTED,
    lobby_embed,
    news_text,
    placing_line,
    structure_of,
    tournament_field,
)

from ..options import STRUCTURE_CHOICES, TABLE_CHOICES
from ..reply import PUBLIC_ANSWER, Reply, reply_to
from ..views import dynamic_view
from ._items import TableItem, word
from ._runner import TableRunner
from ._runners import Runners, runners_of

__all__ = ["COMMANDS", "TournamentButton", "listen_all", "lobby_view"]

log = logging.getLogger(__name__)

NONE = discord.AllowedMentions.none()
ANNOUNCE_DELAY = 0.5  # seconds: the hand's own showdown is posted first
WAKE_MARGIN = 0.05  # seconds past the end of a break before the deal is tried again
_NEWS = itertools.count()  # tells one piece of news from the next (each is a task of its own)
BUTTON = discord.ui.Button[discord.ui.View]
Kind = Literal["register", "unregister", "rebuy"]

# The options of /poker tournament create (the ranges Discord's client enforces; the table layer checks again).
BUY_IN = app_commands.Range[int, 0, MAX_BUY_IN]
STACK = app_commands.Range[int, 1, MAX_BALANCE]
MINUTES = app_commands.Range[int, 1, int(MAX_MINUTES)]
LEVELS = app_commands.Range[int, 0, MAX_LEVELS]


def require(table: Table) -> TournamentMode:
    """The table's tournament; ``TableError`` at a cash table."""
    t = tournament_of(table)
    if t is None:
        raise TableError(Text("This channel's table plays no tournament; `/poker tournament create` opens one."))
    return t


# ------------------------------------------------------------------ the registration message's buttons


def lobby_view(table: Table, *, lang: Language = ENGLISH) -> discord.ui.View:
    """The registration message's buttons: Register and Unregister before the start, Register during late
    registration, Rebuy while a broke player may rebuy; labelled in ``lang``."""
    view = dynamic_view()
    t = tournament_of(table)
    if t is None:
        return view
    state = t.state
    if state.stage == "registering" or (state.stage == "running" and state.can_register_late(mode.now())):
        view.add_item(TournamentButton(table.id, "register", say(lang, "Register"), discord.ButtonStyle.success))
    if state.stage == "registering":
        view.add_item(TournamentButton(table.id, "unregister", say(lang, "Unregister"),
                                       discord.ButtonStyle.secondary))
    if state.stage == "running" and state.awaiting_rebuy:
        view.add_item(TournamentButton(table.id, "rebuy", say(lang, "Rebuy ({amount})", amount=state.buy_in),
                                       discord.ButtonStyle.primary))
    return view


class TournamentButton(TableItem[BUTTON], kind="tournament", fields=[word("kind", "register|unregister|rebuy")]):
    """Register, Unregister or Rebuy, for one tournament table (it works after a restart)."""

    def __init__(self, table: int, kind: str, label: str = "…",
                 style: discord.ButtonStyle = discord.ButtonStyle.secondary, runner: TableRunner | None = None) -> None:
        super().__init__(discord.ui.Button(label=label, style=style, custom_id=self.make_id(table, kind)))
        self.table, self.kind, self.runner = table, kind, runner

    async def clicked(self, reply: Reply) -> None:
        """The message shows the change (in the table's language on the registration message, in the member's on
        his status reply), the member is told privately, and the table message is shown again."""
        runner = self.runner
        assert runner is not None
        table = runner.table
        t = require(table)
        interaction, user, lang = reply.interaction, reply.user, reply.language
        if self.kind == "register":
            seat = await t.register(table, user)
            text = say(lang, "You are in: seat {seat}, {stack} tournament chips; {amount} chips left your balance for "
                       "the prize pool.", seat=str(seat.seat_no), stack=seat.stack, amount=t.state.buy_in)
        elif self.kind == "unregister":
            refund = await t.unregister(table, user)
            text = say(lang, "You are no longer registered; {amount} chips are back in your balance.", amount=refund)
        else:
            seat = await t.rebuy(table, user)
            text = say(lang, "Rebought: {stack} tournament chips for {amount} from your balance.", stack=seat.stack,
                       amount=t.state.buy_in)
        on_status = interaction.message is None or interaction.message.id != t.record.message_id
        shown = lang if on_status else runner.language  # the message pressed on: his status reply, or everyone's
        await reply.edit(embed=lobby_embed(table, lang=shown), view=lobby_view(table, lang=shown),
                         allowed_mentions=NONE)
        await interaction.followup.send(text, ephemeral=True)
        if on_status:  # pressed on a status reply: the registration message shows it too
            await refresh_lobby(runner.bot, table)
        await runner.dealer.publish()
        if table.live is None and t.state.stage == "running":
            runner.dealer.schedule_deal()


# ------------------------------------------------------------------ the channel's news


class Announcer:
    """The Discord side of one tournament's news: the channel lines, the registration message, and the deal tried
    again when a break or a wait for a rebuy ends."""

    def __init__(self, runners: Runners, table: Table) -> None:
        self.runners = runners
        self.table = table
        self.scheduler = runners.of(table).scheduler  # the table's: the news stops with its clock and deals

    def __call__(self, news: News) -> None:
        if isinstance(news, Wake):
            delay = mode.CLOCK.real_seconds(max(0.0, news.at - mode.now())) + WAKE_MARGIN
            self.scheduler.call_after(0, "tournament wake", self._wake, delay)  # once the refused deal has ended
            return
        # the hand's own showdown is posted first
        self.scheduler.schedule_later(ANNOUNCE_DELAY, ("tournament news", next(_NEWS)), self._announce(news))

    def _open(self) -> bool:
        bot = self.runners.bot
        return not bot.is_closed() and bot.tables.get(self.table.record.channel_id) is self.table

    def _wake(self, delay: float) -> None:
        if self._open():
            self.runners.of(self.table).dealer.schedule_deal(delay)

    async def _announce(self, news: News) -> None:
        if not self._open():
            return
        text = news_text(news, lang=self.runners.of(self.table).language)
        try:
            if text:
                await self.runners.of(self.table).presenter.post(text)
            t = tournament_of(self.table)
            if isinstance(news, Finished) and t is not None:
                await t.announced()
            await refresh_lobby(self.runners.bot, self.table)
        except Exception:
            if self._open():
                log.exception("table %s: the tournament's news could not be shown", self.table.id)


def listen(runners: Runners, table: Table) -> None:
    """Show the tournament's news of ``table`` (its news so far first)."""
    t = tournament_of(table)
    if t is not None:
        t.listen(Announcer(runners, table))


def listen_all(runners: Runners) -> None:
    """Show the news of every open tournament (after a start: what happened before is shown now)."""
    for table in list(runners.bot.tables.by_channel.values()):
        listen(runners, table)


async def refresh_lobby(bot: discord.Client, table: Table) -> None:
    """Edit the registration message to show the tournament as it is now, in the table's language (a message gone
    is not posted again: ``/poker tournament status`` shows the same)."""
    t = tournament_of(table)
    if t is None or t.record.message_id is None:
        return
    message = bot.get_partial_messageable(table.record.channel_id).get_partial_message(t.record.message_id)
    lang = table_language(bot, table)
    try:
        await message.edit(embed=lobby_embed(table, lang=lang), view=lobby_view(table, lang=lang),
                           allowed_mentions=NONE)
    except discord.NotFound:
        log.info("table %s: the tournament's message is gone", table.id)


# ------------------------------------------------------------------ /poker tournament

tournament = app_commands.Group(name="tournament", description="Sit-and-go tournaments: one buy-in, blinds rising "
                                "on a clock")


@tournament.command(name="create", extras=PUBLIC_ANSWER, description=COMMAND_HELP["poker tournament create"])
@app_commands.choices(game=TABLE_CHOICES, structure=STRUCTURE_CHOICES)
@app_commands.describe(**describe("poker tournament create"))
async def create(
    interaction: discord.Interaction, game: str, buy_in: BUY_IN, starting_chips: STACK, level_minutes: MINUTES,
    levels: str | None = None, payouts: str | None = None, late_registration_levels: LEVELS = 0,
    rebuys: LEVELS = 0, structure: str | None = None, games: str | None = None,
    hands_per_game: app_commands.Range[int, 1, 1000] | None = None,
) -> None:
    """/poker tournament create: a tournament table in this channel, its registration message and the table."""
    reply = reply_to(interaction)
    runners = runners_of(interaction)
    settings, new = new_tournament(
        game, buy_in, starting_chips, level_minutes, levels=levels, payouts=payouts,
        late_registration_levels=late_registration_levels, rebuys=rebuys, structure=structure, games=games,
        hands_per_game=hands_per_game)
    assert interaction.guild_id is not None and interaction.channel_id is not None
    tables = runners.bot.tables
    old = tables.get(interaction.channel_id)
    ended = tournament_of(old) if old is not None else None
    if old is not None and ended is not None and not ended.is_active and not old.record.seats:
        await runners.close(old)  # the last tournament's standings give way to the new one
    table = await tables.create(interaction.guild_id, interaction.channel_id, interaction.user.id, settings,
                                tournament=new)
    listen(runners, table)
    lang = runners.of(table).language  # the registration message is everyone's
    await reply.send(embed=lobby_embed(table, lang=lang), view=lobby_view(table, lang=lang), ephemeral=False,
                     allowed_mentions=NONE)
    message = await interaction.original_response()
    await require(table).remember_message(message.id)
    await runners.of(table).dealer.publish()


@tournament.command(name="start", extras=PUBLIC_ANSWER, description=COMMAND_HELP["poker tournament start"])
async def start(interaction: discord.Interaction) -> None:
    """/poker tournament start"""
    reply = reply_to(interaction)
    runner = runners_of(interaction).hosted(reply)
    table = runner.table
    t = require(table)
    await t.start(table)
    lang = runner.language  # the channel's answer
    level = t.state.schedule[0].describe(structure_of(table), lang=lang)
    await reply.send(say(lang, "The tournament starts: {count} players, prize pool {pool}. Level 1: {level}. Shuffle "
                         "up and deal!", count=t.state.entrants, pool=t.state.prize_pool, level=level),
                     ephemeral=False)
    runner.presenter.keep_opener(interaction)  # gone with the first deal: the table shows the level from then on
    await refresh_lobby(runner.bot, table)
    runner.dealer.schedule_deal(0)


@tournament.command(name="pause", description=COMMAND_HELP["poker tournament pause"])
async def pause(interaction: discord.Interaction) -> None:
    """/poker tournament pause: the host is answered privately; the table message says "Paused by the host"."""
    reply = reply_to(interaction)
    runner = runners_of(interaction).hosted(reply)
    await require(runner.table).pause(runner.table)
    await reply.send(say(reply.language, "The tournament's clock is stopped; no new hand until "
                         "`/poker tournament resume`."))
    await runner.dealer.publish()
    await refresh_lobby(runner.bot, runner.table)


@tournament.command(name="resume", description=COMMAND_HELP["poker tournament resume"])
async def resume(interaction: discord.Interaction) -> None:
    """/poker tournament resume: the host is answered privately; the table message's clock runs again."""
    reply = reply_to(interaction)
    runner = runners_of(interaction).hosted(reply)
    await require(runner.table).resume(runner.table)
    await reply.send(say(reply.language, "The clock runs again."))
    await refresh_lobby(runner.bot, runner.table)
    await runner.dealer.publish()
    runner.dealer.schedule_deal(0)


@tournament.command(name="cancel", description=COMMAND_HELP["poker tournament cancel"])
async def cancel(interaction: discord.Interaction) -> None:
    """/poker tournament cancel: every buy-in and rebuy returned; the table closes, and its message says so with
    the refunds (the host is answered privately; the refunds posted in the channel if that message cannot say
    them)."""
    reply = reply_to(interaction)
    runners = runners_of(interaction)
    runner = runners.hosted(reply)
    table = runner.table
    if not require(table).is_active:
        raise TableError(Text("The tournament is over already; `/poker close` closes its table."))
    await reply.defer_thinking(ephemeral=True)
    lang = runner.language  # the table message's and the channel's
    closed = await runners.close(table, results=_refund_lines(lang))
    reply.private = None  # the table is gone: this answer is no private message at it
    await refresh_lobby(runners.bot, table)
    if not closed.shown:
        await runner.presenter.post("\n".join([say(lang, "The tournament is cancelled: every buy-in and rebuy is "
                                                    "returned."), *closed.results]))
    await reply.send(say(reply.language, "Done: the tournament is cancelled: every buy-in and rebuy is returned. The "
                         "table message says so, with the refunds.") if closed.shown else
                     say(reply.language, "Done: the tournament is cancelled: every buy-in and rebuy is returned. The "
                         "table message could not be changed, so the refunds are posted in the channel."))


def _refund_lines(lang: Language) -> Callable[[list[CashOut]], Awaitable[list[str]]]:
    """The closed table message's lines: who gets what back, in ``lang``."""
    async def lines(refunds: list[CashOut]) -> list[str]:
        return [say(lang, "{member} gets {amount} back", member=mention(r.user_id), amount=r.amount)
                for r in refunds]

    return lines


@tournament.command(name="status", description=COMMAND_HELP["poker tournament status"])
async def status(interaction: discord.Interaction) -> None:
    """/poker tournament status (only the member sees it, with the buttons: he can register from here if the
    tournament's message is gone)."""
    reply = reply_to(interaction)
    table = runners_of(interaction).here(reply).table
    t = require(table)
    lang = reply.language  # only he sees it
    embed = lobby_embed(table, lang=lang)
    field = tournament_field(table, lang=lang)
    if field is not None and t.state.stage == "running":
        embed.add_field(name=field.name, value=field.value, inline=False)
    placings = t.state.placings()
    if placings:
        prizes = {e.user_id: e.prize or 0 for e in t.record.entries}
        embed.add_field(name=say(lang, "Standings"), inline=False,
                        value="\n".join(placing_line(p, prizes, lang=lang) for p in placings[:MAX_LISTED]))
    await reply.send(embed=embed, view=lobby_view(table, lang=lang), allowed_mentions=NONE)


COMMANDS: tuple[app_commands.Group, ...] = (tournament,)
