"""/poker night: plan a night (a Discord event and a sign-up message), the server's time zone, the list of nights,
cancel one; the sign-up buttons; and every night's course resumed when the bot starts.

The rules are ``bot.planning``'s, the state the store's (``bot.store.plans``); this module translates and shows:
what the channel reads in its language (``_table.language``), a member's answers in his, the event in the
server's.
The group joins the table extension's /poker when this extension loads (it is loaded after ``cogs.table``).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.i18n import Text, say
from bot.planning import (
    DEFAULT_REMIND,
    DEFAULT_ZONE,
    MAX_REMIND,
    NIGHT_LENGTH,
    PlanError,
    local_time,
    parse_when,
    time_zone,
    zone_names,
)
from bot.store import InvalidArgument, NotFound, PlanClash, PlanClosed, PlanRecord
from bot.store.plans import PlanStatus
from cogs import plan_clock as clock
from cogs.language import learn_server_languages, reader_language, server_language
from cogs.options import BLINDS_HELP, CHIPS, PLAN_CHOICES, POSITIVE, SEATS, STRUCTURE_CHOICES
from cogs.reply import PUBLIC_ANSWER, Reply, reply_to

from . import _events, _table
from ._events import CANCELED
from ._message import (
    COG_NAME,
    SignupButton,
    answer_text,
    cancel_text,
    channel_mention,
    list_text,
    name_of,
    signup_embed,
    signup_view,
    stamp,
)
from ._runner import Runner, on_close

if TYPE_CHECKING:
    from cogs.app import PokerBot

log = logging.getLogger(__name__)

REMIND = app_commands.Range[int, 0, MAX_REMIND]
NOTES = app_commands.Range[str, 1, 900]
PLANNED: tuple[PlanStatus, ...] = ("planned",)
MAX_CHOICES = 25
NOBODY = discord.AllowedMentions.none()
PLAYERS = discord.AllowedMentions(users=True, everyone=False, roles=False)


def _closed_words(status: str, channel: int) -> Text:
    """Why a night no longer takes sign-ups."""
    if status == "cancelled":
        return Text("This poker night was cancelled: there is nothing to sign up for.")
    if status == "open":
        return Text("This poker night has started: tap **Join** on the table in {channel}.",
                    channel=channel_mention(channel))
    return Text("This poker night is over.")


def _may_plan(interaction: discord.Interaction) -> bool:
    perms = interaction.permissions
    return perms.manage_guild or perms.create_events or perms.manage_events


class NightGroup(app_commands.Group):
    """/poker night: its commands (their errors are answered by /poker's group, ``cogs.groups.CommandGroup``)."""

    def __init__(self, cog: PlansCog) -> None:
        super().__init__(name="night", description="Plan a night: a Discord event, sign-ups, reminders, the table "
        "opened on time")
        self.cog = cog

    @app_commands.command(
        name="plan", extras=PUBLIC_ANSWER,
        description="Plan a night: a Discord event, a sign-up message, reminders, "
        "the table opened on time")
    @app_commands.choices(game=PLAN_CHOICES, structure=STRUCTURE_CHOICES)
    @app_commands.describe(
        when="When it starts, in the server's time zone: “friday 20:00”, “2026-12-11 20:00”, “in 2 hours”",
        game="The game, or dealer's choice", **BLINDS_HELP,
        structure="Betting structure (default: each game's own)",
        buy_in="Chips each player brings (the table's largest buy-in; default 100 big blinds)",
        seats="Seats at the table; more sign-ups go on a waiting list (default: the game's most)",
        remind="Minutes before the start that players get a DM (default 60; 0: none)",
        notes="Anything the players should know (shown on the event and the sign-up message)")
    async def plan(self, interaction: discord.Interaction, when: str, game: str, small_blind: CHIPS,
                   big_blind: CHIPS, structure: str | None = None, buy_in: POSITIVE | None = None,
                   seats: SEATS | None = None, remind: REMIND = DEFAULT_REMIND, notes: NOTES | None = None) -> None:
        """/poker night plan"""
        reply = reply_to(interaction)
        await self.cog.plan(reply, when, game, small_blind, big_blind, structure, buy_in, seats, remind,
                            notes)

    @app_commands.command(name="timezone", description="The time zone this server's nights are planned in "
        "(Manage Server to change it)")
    @app_commands.describe(zone="A time zone like Europe/Berlin or America/New_York (leave empty to show it)")
    async def timezone(self, interaction: discord.Interaction, zone: str | None = None) -> None:
        """/poker night timezone"""
        reply = reply_to(interaction)
        await self.cog.timezone(reply, zone)

    @timezone.autocomplete("zone")
    async def _zones(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        return [app_commands.Choice(name=z, value=z) for z in zone_names(current)]

    @app_commands.command(name="list", description="The nights planned in this server")
    async def list_(self, interaction: discord.Interaction) -> None:
        """/poker night list"""
        reply = reply_to(interaction)
        assert interaction.guild_id is not None
        plans = await self.cog.bot.store.plans(guild=interaction.guild_id)
        await reply.send(list_text(plans, lang=reply.language), allowed_mentions=NOBODY)

    @app_commands.command(
        name="cancel", extras=PUBLIC_ANSWER,
        description="Cancel a planned night: its event too, and the players "
        "are told (its host or Manage Server)")
    @app_commands.describe(night="The night to cancel (default: the next one planned in this channel)")
    async def cancel(self, interaction: discord.Interaction, night: int | None = None) -> None:
        """/poker night cancel"""
        reply = reply_to(interaction)
        await self.cog.cancel(reply, night)

    @cancel.autocomplete("night")
    async def _nights(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[int]]:
        assert interaction.guild_id is not None
        bot = self.cog.bot
        lang = reader_language(interaction)  # the choices only he sees
        zone = await bot.store.time_zone(interaction.guild_id) or DEFAULT_ZONE
        choices = []
        for plan in await bot.store.plans(guild=interaction.guild_id, statuses=PLANNED):
            channel = bot.get_channel(plan.channel_id)
            where = f" · #{channel.name}" if isinstance(channel, discord.TextChannel) else ""
            label = f"{plan.id} · {local_time(plan.starts_at, zone, lang=lang)} · {name_of(plan, lang=lang)}{where}"
            if current.lower() in label.lower():
                choices.append(app_commands.Choice(name=label[:100], value=plan.id))
        return choices[:MAX_CHOICES]


class PlansCog(commands.Cog, name=COG_NAME):
    """Planned nights: /poker night, the sign-up buttons, and every night's course."""

    def __init__(self, bot: PokerBot) -> None:
        self.bot = bot
        self.runner = Runner(bot)
        self.group = NightGroup(self)
        self._closed = on_close(self.runner, bot)
        self._unhear: Callable[[], None] = lambda: None  # the gateway's Interested events, once loaded

    async def cog_load(self) -> None:
        poker = self.bot.tree.get_command("poker")
        if not isinstance(poker, app_commands.Group):
            raise RuntimeError("/poker is the table extension's: load cogs.table first")
        poker.add_command(self.group, override=True)
        self.bot.add_dynamic_items(SignupButton)
        self.bot.tables.closed.append(self._closed)
        self._unhear = _events.hear_interest(self.bot)
        await self.resume_all()

    async def cog_unload(self) -> None:
        poker = self.group.parent  # /poker, even once the table extension took it off the tree
        if poker is not None and poker.get_command(self.group.name) is self.group:
            poker.remove_command(self.group.name)
        self.bot.remove_dynamic_items(SignupButton)
        self._unhear()
        if self._closed in self.bot.tables.closed:
            self.bot.tables.closed.remove(self._closed)
        tasks = self.runner.stop()
        if tasks:
            await asyncio.wait(tasks, timeout=5)

    async def resume_all(self) -> None:
        """After a start: follow every planned night of this process's servers again; a night whose table was
        closed while the bot was away ends, and one still open holds its seats again."""
        plans = await self.bot.store.plans()
        await learn_server_languages(self.bot, (plan.guild_id for plan in plans
                                                if self.bot.config.runs_guild(plan.guild_id)))
        for plan in plans:
            if not self.bot.config.runs_guild(plan.guild_id):
                continue
            if plan.status == "planned":
                self.runner.follow(plan.id)
                continue
            table = self.bot.tables.get(plan.channel_id)
            if table is not None and table.id == plan.table_id:
                _table.hold_seats(table, plan)
                continue
            try:
                await self.runner.ended(plan.id)
            except Exception:  # one night that cannot be ended must not keep the others from being followed
                log.exception("planned night %s: its table was closed, but the night could not be ended", plan.id)

    # ------------------------------------------------------------------ the commands

    async def plan(self, reply: Reply, when: str, game: str, small_blind: int, big_blind: int,
                   structure: str | None, buy_in: int | None, seats: int | None, remind: int,
                   notes: str | None) -> None:
        """/poker night plan: the night stored, its sign-up message as the answer, its Discord event, and a
        private word to the host (what was understood, and anything missing)."""
        interaction = reply.interaction
        assert interaction.guild_id is not None and interaction.channel_id is not None
        if not _may_plan(interaction):
            raise PlanError(Text("Planning a night creates a server event: it takes the Create Events or Manage "
                                 "Server permission."))
        store = self.bot.store
        zone = await store.time_zone(interaction.guild_id)
        starts_at = await asyncio.to_thread(parse_when, when, zone or DEFAULT_ZONE, clock.now(),
                                            language=reply.language.code)  # English, and the host's own
        settings = _table.plan_settings(game, small_blind, big_blind, structure, buy_in, seats)
        try:
            plan = await store.create_plan(
                interaction.guild_id, interaction.channel_id, interaction.user.id, starts_at, game=game,
                small_blind=small_blind, big_blind=big_blind, structure=structure, buy_in=buy_in,
                seats=settings.max_seats, remind_minutes=remind, notes=notes, length=NIGHT_LENGTH)
        except PlanClash as clash:
            raise PlanError(Text("This channel already has a night planned at {time}, and a night lasts {hours} "
                                 "hours. Pick a time {hours} hours from it or more, another channel, or cancel that "
                                 "one with `/poker night cancel`.", time=stamp(clash.starts_at, "F"),
                                 hours=NIGHT_LENGTH // 3600)) from None
        self.runner.follow(plan.id)
        shown = _table.language(self.bot, plan)  # the sign-up message is the channel's
        await reply.send(embed=signup_embed(plan, lang=shown), view=signup_view(plan, lang=shown), ephemeral=False,
                         allowed_mentions=NOBODY)
        message = await interaction.original_response()
        await store.set_plan_message(plan.id, message.id)
        guild = self.bot.get_guild(interaction.guild_id)
        server = server_language(self.bot, plan.guild_id)  # the night's Discord event is the server's
        event_id, problem = (None, _events.NO_EVENT) if guild is None else await _events.create_event(
            guild, plan, name_of(plan, lang=server), interaction.app_permissions, lang=server)
        if event_id is not None:
            await store.set_plan_event(plan.id, event_id)
            plan = await store.get_plan(plan.id)
            await interaction.edit_original_response(embed=signup_embed(plan, lang=shown),
                                                     view=signup_view(plan, lang=shown), allowed_mentions=NOBODY)
        lang = reply.language  # the host's private word
        lines = [say(lang, "Planned: **{name}**, {time}.", name=name_of(plan, lang=lang),
                     time=local_time(plan.starts_at, zone or DEFAULT_ZONE, lang=lang))]
        if zone is None:
            lines.append(say(lang, "(Read in {zone}: set your server's zone with `/poker night timezone`.)",
                             zone=DEFAULT_ZONE))
        lines.append(say(lang, "Reminders go {count} minutes before; the table opens here at the start.", count=remind)
                     if remind else say(lang, "No reminders; the table opens here at the start."))
        if problem is not None:
            lines.append(problem.worded(lang))
        await interaction.followup.send("\n".join(lines), ephemeral=True)

    async def timezone(self, reply: Reply, zone: str | None) -> None:
        """/poker night timezone: show the server's zone, or (Manage Server) set it."""
        interaction = reply.interaction
        assert interaction.guild_id is not None
        store = self.bot.store
        lang = reply.language
        if zone is None:
            current = await store.time_zone(interaction.guild_id)
            shown = current or DEFAULT_ZONE
            text = say(lang, "This server's nights are planned in {zone}: it is {time} there.", zone=shown,
                       time=local_time(clock.now(), shown, lang=lang))
            if not current:
                text += " " + say(lang, "Change it with `/poker night timezone zone:`.")
        else:
            if not interaction.permissions.manage_guild:
                raise PlanError(Text("Only members with Manage Server can change the server's time zone."))
            name = time_zone(zone)
            await store.set_time_zone(interaction.guild_id, name)
            text = say(lang, "Nights are now planned in {zone}: it is {time} there.", zone=name,
                       time=local_time(clock.now(), name, lang=lang))
        await reply.send(text)

    async def cancel(self, reply: Reply, night: int | None) -> None:
        """/poker night cancel: the night cancelled, its event too, its players told in the channel."""
        interaction = reply.interaction
        assert interaction.guild_id is not None
        plan = await self._chosen(interaction, night)
        perms = interaction.permissions
        if interaction.user.id != plan.host_id and not (perms.manage_guild or perms.manage_events):
            raise PlanError(Text("Only the night's host (or someone with Manage Server) can cancel it."))
        try:
            plan = await self.bot.store.end_plan(plan.id, "cancelled")
        except PlanClosed as closed:
            if closed.status == "open":
                raise PlanError(Text("This night has started: `/poker close` ends it.")) from None
            raise
        self.runner.drop(plan.id)
        await reply.send(cancel_text(plan, interaction.user.id, lang=_table.language(self.bot, plan)),
                         ephemeral=False, allowed_mentions=PLAYERS)
        await self.runner.event_status(plan, CANCELED)
        await self.runner.refresh(plan)

    async def _chosen(self, interaction: discord.Interaction, night: int | None) -> PlanRecord:
        """The night a command means: the one given (of this server), or the next one planned in this channel."""
        assert interaction.guild_id is not None
        store = self.bot.store
        if night is None:
            here = await store.plans(channel=interaction.channel_id or 0, statuses=PLANNED)
            if not here:
                raise PlanError(Text("No night is planned in this channel. `/poker night list` shows the server's; "
                                     "`night:` picks one."))
            return here[0]
        try:
            plan = await store.get_plan(night)
        except (NotFound, InvalidArgument):
            plan = None
        if plan is None or plan.guild_id != interaction.guild_id:
            raise PlanError(Text("There is no such planned night in this server: `/poker night list` shows them."))
        return plan

    # ------------------------------------------------------------------ the event's Interested, as they change

    @commands.Cog.listener(f"on_{_events.INTEREST}")
    async def on_event_interest(self, guild_id: int, event_id: int, user_id: int, interested: bool) -> None:
        """A member marked a scheduled event Interested (or unmarked it): a planned night's sign-ups follow."""
        if self.bot.config.runs_guild(guild_id):
            await self.runner.heard(guild_id, event_id)

    # ------------------------------------------------------------------ the sign-up buttons

    async def on_signup(self, reply: Reply, night: int, answer: str) -> None:
        """I'm in or Can't make it: the message shows the change, the member is told where he stands, and his
        reminder goes at once if its time has come."""
        user = reply.user
        try:
            plan = await self.bot.store.answer_plan(night, user, "in" if answer == "in" else "out")
        except PlanClosed as closed:
            stored = await self.bot.store.get_plan(night)
            raise PlanError(_closed_words(closed.status, stored.channel_id)) from None
        except NotFound:
            raise PlanError(Text("This poker night no longer exists.")) from None
        shown = _table.language(self.bot, plan)  # the sign-up message is the channel's
        await reply.edit(embed=signup_embed(plan, lang=shown), view=signup_view(plan, lang=shown),
                         allowed_mentions=NOBODY)
        await reply.interaction.followup.send(answer_text(plan, user, lang=reply.language), ephemeral=True)
        if answer == "in":
            try:
                await self.runner.remind(plan.id)  # due already: the member who just signed up gets it now
            except Exception:  # answered already; the night's course tries the reminders again at its steps
                log.exception("planned night %s: the reminders due could not be sent", plan.id)
