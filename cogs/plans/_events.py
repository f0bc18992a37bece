"""The night's Discord scheduled event: created with the plan (an external event, its location the channel's link,
``NIGHT_LENGTH`` long), marked active at the start, completed when the table closes, cancelled with the plan; and
the members who marked it Interested, read page by page, and heard of as they mark or unmark it (the gateway's
user add and remove events, ``hear_interest``).

Without the Create Events permission there is no event: the plan says so once, and the sign-up message works
alone. Any later failure (the event deleted by a moderator, a permission taken away, Discord down) is logged and
changes nothing else: the night goes on without its event. The event's name and description are in the server's
language (every member of it sees the event).
"""

from __future__ import annotations

import datetime
import logging
from collections.abc import Callable
from typing import Any

import discord

from bot.i18n import Language, Text, say
from bot.planning import NIGHT_LENGTH
from bot.store import PlanRecord
from cogs.discord_seam import Parser, wrap_parser
from cogs.failures import DISCORD_ERRORS

from ._message import channel_mention

log = logging.getLogger(__name__)

SCHEDULED, ACTIVE, COMPLETED, CANCELED = 1, 2, 3, 4
PAGE = 100  # Discord's most users a page
MAX_DESCRIPTION = 1000
NO_PERMISSION = Text("I could not create the Discord event: I need the **Create Events** permission (and **Manage "
                     "Events** to start and end it). Give my role both, or invite me again with the link in the "
                     "README. The sign-up message works without the event.")
NO_EVENT = Text("Discord could not create the event just now; the sign-up message works without it.")
USER_EVENTS = {"GUILD_SCHEDULED_EVENT_USER_ADD": True, "GUILD_SCHEDULED_EVENT_USER_REMOVE": False}
INTEREST = "event_interest"  # the bot's own event: on_event_interest(guild_id, event_id, user_id, interested)


def channel_link(plan: PlanRecord) -> str:
    """Where the night is played: the channel's link (an external event's location)."""
    return f"https://discord.com/channels/{plan.guild_id}/{plan.channel_id}"


async def create_event(guild: discord.Guild, plan: PlanRecord, name: str, permissions: discord.Permissions, *,
                       lang: Language) -> tuple[int | None, Text | None]:
    """Create the night's event, named ``name``, its description in ``lang``: (its id, None), or (None, what to
    tell the host, worded in his language by the caller)."""
    if not (permissions.create_events or permissions.manage_events):
        return None, NO_PERMISSION
    start = datetime.datetime.fromtimestamp(plan.starts_at, datetime.UTC)
    notes = f"{plan.notes}\n\n" if plan.notes else ""
    description = notes + say(lang, "Sign up with the buttons in {channel}; the table opens there at the start.",
                              channel=channel_mention(plan.channel_id))
    try:
        event = await guild.create_scheduled_event(
            name=name, start_time=start, end_time=start + datetime.timedelta(seconds=NIGHT_LENGTH),
            entity_type=discord.EntityType.external, privacy_level=discord.PrivacyLevel.guild_only,
            location=channel_link(plan), description=description[:MAX_DESCRIPTION])
    except discord.Forbidden:
        return None, NO_PERMISSION
    except DISCORD_ERRORS as error:
        log.warning("plan %s: the Discord event could not be created (%r)", plan.id, error)
        return None, NO_EVENT
    return event.id, None


async def set_status(bot: discord.Client, plan: PlanRecord, status: int) -> bool:
    """Move the night's event to ``status`` (active, completed, cancelled); False when it is gone (a moderator
    deleted it) and the night should forget it. Any other failure is logged, and the night goes on."""
    if plan.event_id is None:
        return True
    try:
        await bot.http.edit_scheduled_event(plan.guild_id, plan.event_id, status=status)
    except discord.NotFound:
        log.info("plan %s: its Discord event %s is gone", plan.id, plan.event_id)
        return False
    except DISCORD_ERRORS as error:
        log.warning("plan %s: its Discord event %s could not be moved to status %s (%r)", plan.id, plan.event_id,
                    status, error)
    return True


async def interested(bot: discord.Client, plan: PlanRecord) -> set[int] | None:
    """The members who mark the night's event Interested (None: it has no event, or they could not be read)."""
    if plan.event_id is None:
        return None
    found: set[int] = set()
    after: int | None = None
    try:
        while True:
            page = await bot.http.get_scheduled_event_users(plan.guild_id, plan.event_id, limit=PAGE,
                                                            with_member=False, after=after)
            ids = [int(row["user"]["id"]) for row in page]
            found.update(i for i, row in zip(ids, page) if not row["user"].get("bot"))
            if len(page) < PAGE:
                return found
            after = max(ids)
    except DISCORD_ERRORS as error:
        log.warning("plan %s: the Interested members of its event could not be read (%r)", plan.id, error)
        return None


def hear_interest(bot: discord.Client) -> Callable[[], None]:
    """Make each gateway event of a member marking a scheduled event Interested (or unmarking it) reach the bot as
    ``on_event_interest(guild_id, event_id, user_id, interested)``; returns what undoes it.

    discord.py turns these events into ``on_scheduled_event_user_add`` / ``_remove`` only when it holds both the
    event and the user in its cache, and without the members intent a member who never spoke to the bot is not
    there: the event would be dropped. So the gateway's own data (the event's id, the member's id) is passed on,
    after discord.py's parser has run."""
    def hearing(name: str) -> Callable[[Parser], Parser]:
        interested = USER_EVENTS[name]

        def wrap(parse: Parser) -> Parser:
            def heard(data: Any) -> None:
                parse(data)
                try:
                    guild, event, user = (int(data[key]) for key in ("guild_id", "guild_scheduled_event_id", "user_id"))
                except (KeyError, TypeError, ValueError):
                    log.warning("%s without its ids: %r", name, data)
                    return
                bot.dispatch(INTEREST, guild, event, user, interested)

            return heard

        return wrap

    undos = [wrap_parser(bot, name, hearing(name)) for name in USER_EVENTS]

    def undo() -> None:
        for each in undos:
            each()

    return undo
