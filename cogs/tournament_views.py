"""Tournaments in Discord (issue 15): the registration message and its buttons, the level lines of the table
message, the news posted in the channel (who is out, the final standings), and the ``/poker tournament``
commands, which the table cog's short methods call.

The rules and the chips are the table layer's (``bot.tables.tournament``) and the store's: this module shows
and translates. It imports nothing of ``cogs.table`` (which imports it): the table cog is reached through the
interaction's client (``get_cog``) and typed by the :class:`Host` protocol.
"""

from __future__ import annotations

import asyncio
import logging
import re
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, NamedTuple, Protocol

import discord
from discord import app_commands

from bot.poker import GAMES, Structure
from bot.store.db import MAX_BALANCE
from bot.tables import Table, TableError
from bot.tables import tournament as mode
from bot.tables.settings import MAX_BUY_IN
from bot.tables.tournament import Broke, Eliminated, Finished, News, TournamentMode, Wake, new_tournament, tournament_of
from bot.tournament import Break, Placing, format_levels, format_payouts, next_level, shares_for
from bot.tournament.levels import MAX_LEVELS, MAX_MINUTES
from cogs import render
from cogs.render import chips, mention

from .errors import answers_errors

if TYPE_CHECKING:
    from bot.app import PokerBot

log = logging.getLogger(__name__)

COG_NAME = "TableCog"
BUTTON = discord.ui.Button[discord.ui.View]
TOURNAMENT_ID = r"pk:n:(?P<table>\d+):(?P<kind>reg|unreg|rebuy)"
NONE = discord.AllowedMentions.none()
ANNOUNCE_DELAY = 0.5  # seconds: the hand's own showdown is posted first
WAKE_MARGIN = 0.05  # seconds past the end of a break before the deal is tried again
MAX_LISTED = 25  # players named in an embed field

# The options of /poker tournament create (the ranges Discord's client enforces; the table layer checks again).
BUY_IN = app_commands.Range[int, 0, MAX_BUY_IN]
STACK = app_commands.Range[int, 1, MAX_BALANCE]
MINUTES = app_commands.Range[int, 1, int(MAX_MINUTES)]
LEVELS = app_commands.Range[int, 0, MAX_LEVELS]


class Session(Protocol):
    """What this module uses of a table's session (``cogs.table._session.TableSession``)."""

    async def publish(self, interaction: discord.Interaction | None = None) -> None: ...

    async def post(self, text: str) -> None: ...

    def schedule_deal(self, delay: float | None = None) -> None: ...

    def cancel_clock(self) -> None: ...

    async def close(self) -> None: ...


class Host(Protocol):
    """What this module uses of the table cog."""

    bot: PokerBot
    sessions: dict[int, Any]

    def session(self, table: Table) -> Session: ...

    async def tournament_click(self, interaction: discord.Interaction, table_id: int, kind: str) -> None: ...


class EmbedField(NamedTuple):
    """An embed field: the table message's tournament lines."""

    name: str
    value: str


# ------------------------------------------------------------------ the table message's lines


def tournament_field(table: Table, at: float | None = None) -> EmbedField | None:
    """The tournament's lines for the table message (None at a cash table): the level, the next one and when it
    comes, the players left and the prize pool; before the start, the registrations; at the end, the winners.
    ``at``: the tournament time to show (default: now)."""
    t = tournament_of(table)
    if t is None:
        return None
    state = t.state
    if state.stage == "registering":
        first = state.schedule[0]
        return EmbedField("Tournament: registration open", (
            f"{state.entrants} registered · prize pool {chips(state.prize_pool)}\n"
            f"First level {first.describe(_structure(table))}; the host starts with `/poker tournament start`."))
    if state.stage != "running":
        return EmbedField("Tournament over", _podium(state.placings(), t))
    when = mode.now() if at is None else at
    step = state.next_hand(when)
    structure = _structure(table)
    ends = "" if step.seconds_left is None or step.status == "paused" else \
        f"<t:{int(mode.CLOCK.wall(when + step.seconds_left))}:R>"  # a paused clock's level does not end by itself
    if isinstance(state.schedule[step.step], Break):
        lines = [f"Break: play resumes {ends} at {step.level.describe(structure)}" if ends
                 else f"Break, then {step.level.describe(structure)}"]
    else:
        lines = [f"Level {t.level_number(step.step)} of {t.levels}: {step.level.describe(structure)}"]
        coming = next_level(state.schedule, step.step)
        lines.append(f"Next: {coming.describe(structure)} {ends}".rstrip() if coming is not None
                     else "Last level: the blinds rise no more")
    if step.status == "paused":
        left = step.seconds_left
        lines.append("Paused by the host" + (f" ({_minutes(left)} left in this level)" if left is not None else ""))
    alive = len(state.standing.alive)
    lines.append(f"{alive} of {state.entrants} players left · prize pool {chips(state.prize_pool)}")
    if state.awaiting_rebuy:
        names = ", ".join(mention(b.player) for b in state.awaiting_rebuy)
        lines.append(f"No chips left: {names} may rebuy")
    return EmbedField("Tournament", "\n".join(lines))


def _structure(table: Table) -> Structure | None:
    settings = table.settings
    return None if settings.is_dealers_choice else settings.structure_for(GAMES[settings.game])


def _minutes(seconds: float) -> str:
    whole = max(0, int(seconds))
    return f"{whole // 60}:{whole % 60:02d}"


def _podium(placings: Sequence[Placing], t: TournamentMode) -> str:
    prizes = {e.user_id: e.prize or 0 for e in t.record.entries}
    return "\n".join(_placing_line(p, prizes) for p in placings[:3]) or "Nobody played."


# ------------------------------------------------------------------ the registration message


def lobby_embed(table: Table) -> discord.Embed:
    """The tournament's registration message: its settings, the players, the pool, and what happens now."""
    t = tournament_of(table)
    assert t is not None
    state = t.state
    settings = table.settings
    game = "Dealer's choice" if settings.is_dealers_choice else GAMES[settings.game].name
    structure = _structure(table)
    minutes = next((s.minutes for s in state.schedule), 0)
    embed = discord.Embed(title=f"Tournament: {game}", colour=discord.Colour.gold(), description=(
        f"Buy-in {chips(state.buy_in)} · {chips(state.starting_chips)} chips each · "
        f"{float(minutes):g}-minute levels"
        + (f" · {render.STRUCTURE_NAMES[structure]}" if structure else "")))
    blinds = format_levels(state.schedule)
    embed.add_field(name="Blinds", value=blinds if len(blinds) <= 1000 else blinds[:1000] + "…", inline=False)
    shares = shares_for(max(2, state.entrants), state.payouts)
    paid = " · ".join(f"{_ordinal(place)} {chips(amount)} ({format_payouts([share])}%)"
                      for place, (share, amount) in enumerate(zip(shares, state.payout_amounts()), start=1))
    embed.add_field(name="Payouts", value=paid, inline=True)
    embed.add_field(name="Prize pool", value=chips(state.prize_pool), inline=True)
    options = []
    if state.late_registration_levels:
        options.append(f"late registration for {state.late_registration_levels} level(s)")
    if state.rebuy_levels:
        options.append(f"rebuys for {state.rebuy_levels} level(s)")
    if options:
        embed.add_field(name="Options", value=", ".join(options), inline=True)
    embed.add_field(name=f"Players ({state.entrants})", value=_players(state.placings(), state.standing.alive),
                    inline=False)
    embed.add_field(name="Status", value=_status(table), inline=False)
    return embed


def _players(placings: Sequence[Placing], alive: Sequence[int]) -> str:
    lines = [mention(p) for p in alive] if len(alive) != 1 or not placings else []
    lines += [f"{mention(p)} ({_ordinal(placing.place)})" for placing in placings for p in placing.players
              if p not in alive or len(alive) == 1]
    if len(lines) > MAX_LISTED:
        lines = [*lines[:MAX_LISTED], f"and {len(lines) - MAX_LISTED} more"]
    return ", ".join(lines) or "Nobody yet: press Register."


def _status(table: Table) -> str:
    t = tournament_of(table)
    assert t is not None
    state = t.state
    if state.stage == "registering":
        return "Registration is open. The host starts the tournament with `/poker tournament start`."
    if state.stage == "cancelled":
        return "Cancelled: every buy-in and rebuy was returned."
    if state.stage == "finished":
        return "Over. " + _podium(state.placings(), t).replace("\n", " · ")
    late = " Late registration is open." if state.can_register_late(mode.now()) else ""
    return ("Paused by the host." if state.status == "paused" else "Under way.") + late


def lobby_view(table: Table) -> discord.ui.View:
    """The registration message's buttons: Register and Unregister before the start, Register during late
    registration, Rebuy while a broke player may rebuy."""
    view = discord.ui.View(timeout=None)
    t = tournament_of(table)
    if t is None:
        return view
    state = t.state
    if state.stage == "registering" or (state.stage == "running" and state.can_register_late(mode.now())):
        view.add_item(TournamentButton(table.id, "reg", "Register", discord.ButtonStyle.success))
    if state.stage == "registering":
        view.add_item(TournamentButton(table.id, "unreg", "Unregister", discord.ButtonStyle.secondary))
    if state.stage == "running" and state.awaiting_rebuy:
        view.add_item(TournamentButton(table.id, "rebuy", f"Rebuy ({chips(state.buy_in)})",
                                       discord.ButtonStyle.primary))
    return view


class TournamentButton(discord.ui.DynamicItem[BUTTON], template=TOURNAMENT_ID):
    """Register, Unregister or Rebuy, for one tournament table (it works after a restart)."""

    def __init__(self, table: int, kind: str, label: str = "…",
                 style: discord.ButtonStyle = discord.ButtonStyle.secondary) -> None:
        super().__init__(discord.ui.Button(label=label, style=style, custom_id=f"pk:n:{table}:{kind}"))
        self.table, self.kind = table, kind

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> TournamentButton:
        return cls(int(match["table"]), match["kind"])

    @answers_errors
    async def callback(self, interaction: discord.Interaction) -> None:
        host: Any = interaction.client.get_cog(COG_NAME)  # type: ignore[attr-defined]
        if host is None:
            raise RuntimeError("the table extension is not loaded")
        typed: Host = host
        await typed.tournament_click(interaction, self.table, self.kind)


# ------------------------------------------------------------------ the channel's news


def _ordinal(place: int) -> str:
    suffix = "th" if 10 <= place % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(place % 10, "th")
    return f"{place}{suffix}"


def _places(placing: Placing) -> str:
    places = list(placing.places)
    if len(places) == 1:
        return f"{_ordinal(places[0])} place"
    return " and ".join([", ".join(_ordinal(p) for p in places[:-1]), _ordinal(places[-1])]) + " places"


def _placing_line(placing: Placing, prizes: dict[int, int]) -> str:
    names = " and ".join(mention(p) for p in placing.players)
    won = [prizes.get(p, 0) for p in placing.players]
    prize = "" if not any(won) else " — " + " / ".join(chips(w) for w in won)
    tie = " (tied)" if len(placing.players) > 1 else ""
    return f"{_ordinal(placing.place)}. {names}{tie}{prize}"


def news_text(news: News) -> str | None:
    """The channel line of a piece of news (None: nothing to post)."""
    if isinstance(news, Eliminated):
        lines = []
        for placing in news.placings:
            names = " and ".join(mention(p) for p in placing.players)
            verb = "is" if len(placing.players) == 1 else "are"
            share = "" if len(placing.players) == 1 else ", sharing"
            lines.append(f"{names} {verb} out of the tournament{share} in {_places(placing)}.")
        return "\n".join(lines)
    if isinstance(news, Broke):
        names = " and ".join(mention(p) for p in news.players)
        return (f"{names} {'has' if len(news.players) == 1 else 'have'} no chips left: press Rebuy on the tournament"
                " message to stay in (until the next hand ends, or for a minute when the table waits).")
    if isinstance(news, Finished):
        prizes = dict(news.prizes)
        return "**Final standings**\n" + "\n".join(_placing_line(p, prizes) for p in news.placings)
    return None


class Announcer:
    """The Discord side of one tournament's news: the channel lines, the registration message, and the deal tried
    again when a break or a wait for a rebuy ends."""

    def __init__(self, host: Host, table: Table) -> None:
        self.host = host
        self.table = table
        self.tasks: set[asyncio.Task[None]] = set()

    def __call__(self, news: News) -> None:
        loop = asyncio.get_running_loop()
        if isinstance(news, Wake):
            delay = mode.CLOCK.real_seconds(max(0.0, news.at - mode.now())) + WAKE_MARGIN
            loop.call_soon(self._wake, delay)  # after the deal that was refused has ended
            return
        task = loop.create_task(self._announce(news))
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    def _open(self) -> bool:
        bot = self.host.bot
        return not bot.is_closed() and bot.tables.get(self.table.record.channel_id) is self.table

    def _wake(self, delay: float) -> None:
        if self._open():
            self.host.session(self.table).schedule_deal(delay)

    async def _announce(self, news: News) -> None:
        await asyncio.sleep(ANNOUNCE_DELAY)
        if not self._open():
            return
        text = news_text(news)
        try:
            if text:
                await self.host.session(self.table).post(text)
            t = tournament_of(self.table)
            if isinstance(news, Finished) and t is not None:
                await t.announced()
            await refresh_lobby(self.host.bot, self.table)
        except Exception:
            if self._open():
                log.exception("table %s: the tournament's news could not be shown", self.table.id)


def listen(host: Host, table: Table) -> None:
    """Show the tournament's news of ``table`` (its news so far first)."""
    t = tournament_of(table)
    if t is not None:
        t.listen(Announcer(host, table))


def listen_all(host: Host) -> None:
    """Show the news of every open tournament (after a start: what happened before is shown now)."""
    for table in list(host.bot.tables.by_channel.values()):
        listen(host, table)


async def refresh_lobby(bot: discord.Client, table: Table) -> None:
    """Edit the registration message to show the tournament as it is now (a message gone is not posted again:
    ``/poker tournament status`` shows the same)."""
    t = tournament_of(table)
    if t is None or t.record.message_id is None:
        return
    message = bot.get_partial_messageable(table.record.channel_id).get_partial_message(t.record.message_id)
    try:
        await message.edit(embed=lobby_embed(table), view=lobby_view(table), allowed_mentions=NONE)
    except discord.NotFound:
        log.info("table %s: the tournament's message is gone", table.id)


# ------------------------------------------------------------------ the commands (called by the table cog)


async def create(host: Host, interaction: discord.Interaction, *, game: str, buy_in: int, starting_chips: int,
                 level_minutes: int, levels: str | None, payouts: str | None, late_registration_levels: int,
                 rebuys: int, structure: str | None) -> None:
    """/poker tournament create: a tournament table in this channel, its registration message and the table."""
    settings, tournament = new_tournament(
        game, buy_in, starting_chips, level_minutes, levels=levels, payouts=payouts,
        late_registration_levels=late_registration_levels, rebuys=rebuys, structure=structure)
    assert interaction.guild_id is not None and interaction.channel_id is not None
    tables = host.bot.tables
    old = tables.get(interaction.channel_id)
    ended = tournament_of(old) if old is not None else None
    if old is not None and ended is not None and not ended.is_active and not old.record.seats:
        await close_table(host, old)  # the last tournament's standings give way to the new one
    table = await tables.create(interaction.guild_id, interaction.channel_id, interaction.user.id, settings,
                                tournament=tournament)
    listen(host, table)
    await interaction.response.send_message(embed=lobby_embed(table), view=lobby_view(table), allowed_mentions=NONE)
    message = await interaction.original_response()
    await require(table).remember_message(message.id)
    await host.session(table).publish()


async def close_table(host: Host, table: Table) -> None:
    """Close a tournament table and its session (cancelling the tournament if it is not over)."""
    session = host.session(table)
    session.cancel_clock()
    await host.bot.tables.close(table.record.channel_id)
    await session.close()
    host.sessions.pop(table.id, None)


def require(table: Table) -> TournamentMode:
    """The table's tournament; ``TableError`` at a cash table."""
    t = tournament_of(table)
    if t is None:
        raise TableError("This channel's table plays no tournament; `/poker tournament create` opens one.")
    return t


async def start(host: Host, interaction: discord.Interaction, table: Table) -> None:
    """/poker tournament start."""
    t = require(table)
    await t.start(table)
    level = t.state.schedule[0]
    await interaction.response.send_message(
        f"The tournament starts: {t.state.entrants} players, prize pool {chips(t.state.prize_pool)}. "
        f"Level 1: {level.describe(_structure(table))}. Shuffle up and deal!")
    await refresh_lobby(host.bot, table)
    host.session(table).schedule_deal(0)


async def pause(host: Host, interaction: discord.Interaction, table: Table) -> None:
    """/poker tournament pause."""
    await require(table).pause(table)
    await interaction.response.send_message("The tournament's clock is stopped; no new hand until "
                                            "`/poker tournament resume`.")
    await host.session(table).publish()
    await refresh_lobby(host.bot, table)


async def resume(host: Host, interaction: discord.Interaction, table: Table) -> None:
    """/poker tournament resume."""
    await require(table).resume(table)
    await interaction.response.send_message("The clock runs again.")
    await refresh_lobby(host.bot, table)
    host.session(table).schedule_deal(0)


async def cancel(host: Host, interaction: discord.Interaction, table: Table) -> None:
    """/poker tournament cancel: every buy-in and rebuy returned; the table closes."""
    t = require(table)
    if not t.is_active:
        raise TableError("The tournament is over already; `/poker close` closes its table.")
    await interaction.response.defer()
    session = host.session(table)
    session.cancel_clock()
    refunds = await host.bot.tables.close(table.record.channel_id)
    await session.close()
    host.sessions.pop(table.id, None)
    await refresh_lobby(host.bot, table)
    lines = [f"{mention(r.user_id)} gets {chips(r.amount)} back" for r in refunds]
    await interaction.followup.send("The tournament is cancelled: every buy-in and rebuy is returned.\n"
                                    + "\n".join(lines), allowed_mentions=NONE)


async def status(host: Host, interaction: discord.Interaction, table: Table) -> None:
    """/poker tournament status (only the member sees it)."""
    t = require(table)
    embed = lobby_embed(table)
    field = tournament_field(table)
    if field is not None and t.state.stage == "running":
        embed.add_field(name=field.name, value=field.value, inline=False)
    placings = t.state.placings()
    if placings:
        prizes = {e.user_id: e.prize or 0 for e in t.record.entries}
        embed.add_field(name="Standings", value="\n".join(_placing_line(p, prizes) for p in placings[:MAX_LISTED]),
                        inline=False)
    # Its buttons too: a member can register from here if the tournament's message is gone.
    await interaction.response.send_message(embed=embed, view=lobby_view(table), ephemeral=True,
                                            allowed_mentions=NONE)


async def click(host: Host, interaction: discord.Interaction, table: Table, kind: str) -> None:
    """Register, Unregister or Rebuy pressed on the registration message: the message shows the change, the
    member is told privately, and the table message is shown again."""
    t = require(table)
    user = interaction.user.id
    if kind == "reg":
        seat = await t.register(table, user)
        text = (f"You are in: seat {seat.seat_no}, {chips(seat.stack)} tournament chips; "
                f"{chips(t.state.buy_in)} chips left your balance for the prize pool.")
    elif kind == "unreg":
        refund = await t.unregister(table, user)
        text = f"You are no longer registered; {chips(refund)} chips are back in your balance."
    else:
        seat = await t.rebuy(table, user)
        text = f"Rebought: {chips(seat.stack)} tournament chips for {chips(t.state.buy_in)} from your balance."
    await interaction.response.edit_message(embed=lobby_embed(table), view=lobby_view(table), allowed_mentions=NONE)
    await interaction.followup.send(text, ephemeral=True)
    if interaction.message is None or interaction.message.id != t.record.message_id:  # pressed on a status reply
        await refresh_lobby(host.bot, table)
    session = host.session(table)
    await session.publish()
    if table.live is None and t.state.stage == "running":
        session.schedule_deal()
