"""What a planned night shows: its sign-up message (an embed and its buttons), the reminder DM, the start's
mention, the cancel notice, the list and the answers to a tap. Pure functions of the stored night: no I/O.

Times are Discord timestamps (``<t:…:F>``), which every member's phone shows in his own time zone. Each text is
worded in ``lang``: the channel's language for what everyone reads (the sign-up message, the start's mention, the
cancel notice), the member's for his answers and his reminder, the server's for the event's name.
"""

from __future__ import annotations

import re
from typing import Any

import discord

from bot.i18n import ENGLISH, Language, say, say_n
from bot.planning import Roster, event_name, roster
from bot.poker import GAMES
from bot.store import PlanRecord
from cogs.errors import answers_errors
from cogs.render import MIX_NAMES, mention, structure_name
from cogs.reply import Reply
from cogs.views import dynamic_view

__all__ = [
    "SIGNUP_ID", "SignupButton", "answer_text", "cancel_text", "channel_mention", "event_url", "game_name",
    "list_text", "name_of", "reminder_text", "signup_embed", "signup_view", "stamp", "start_text",
]

SIGNUP_ID = r"pk:night:(?P<night>\d+):(?P<answer>in|out)"
COG_NAME = "PlansCog"
BUTTON = discord.ui.Button[discord.ui.View]
MAX_LISTED = 30  # members named in one field (a field holds 1,024 characters)


def stamp(at: int, style: str) -> str:
    """A Discord timestamp (``<t:…:F>``): every member's client shows it in his time zone and language."""
    return f"<t:{at}:{style}>"


def channel_mention(channel: int) -> str:
    """A channel, as Discord names it in a message."""
    return f"<#{channel}>"


def game_name(game: str, *, lang: Language = ENGLISH) -> str:
    """``Dealer's choice``, ``HORSE``, ``2-7 Triple Draw``... (a mix's name in ``lang``; a game's is its own)."""
    return MIX_NAMES[game].worded(lang) if game in MIX_NAMES else GAMES[game].name


def name_of(plan: PlanRecord, *, lang: Language) -> str:
    """The night's name, as its Discord event is called: ``Poker night: Dealer's choice 1/2``."""
    return event_name(game_name(plan.game, lang=lang), plan.small_blind, plan.big_blind, lang=lang)


def event_url(plan: PlanRecord) -> str | None:
    """The link to the night's Discord event (None: it has none)."""
    return None if plan.event_id is None else f"https://discord.com/events/{plan.guild_id}/{plan.event_id}"


def when(plan: PlanRecord) -> str:
    """The start as every member's phone shows it: ``Friday, 11 December 2026 20:00 · in 3 days``."""
    return f"<t:{plan.starts_at}:F> · <t:{plan.starts_at}:R>"


def _names(users: tuple[int, ...], lang: Language, numbered: bool = False) -> str:
    shown = [f"{k}. {mention(u)}" if numbered else mention(u) for k, u in enumerate(users[:MAX_LISTED], start=1)]
    if len(users) > MAX_LISTED:
        shown.append(say(lang, "and {count} more", count=len(users) - MAX_LISTED))
    return ("\n" if numbered else " ").join(shown)


def _settings_line(plan: PlanRecord, lang: Language) -> str:
    parts = [structure_name(plan.structure, lang)] if plan.structure else []
    if plan.buy_in is not None:
        parts.append(say(lang, "buy-in {amount}", amount=plan.buy_in))
    parts.append(say_n(lang, "{count} seat", "{count} seats", count=plan.seats))
    return " · ".join(parts)


def _status_line(plan: PlanRecord, lang: Language) -> str | None:
    """What became of the night, once it is no longer only planned."""
    if plan.status == "open":
        return say(lang, "Started: the table is open in {channel}.", channel=channel_mention(plan.channel_id))
    if plan.status == "done":
        return say(lang, "Over: the table was closed.")
    if plan.status == "cancelled":
        return say(lang, "Cancelled by the host.")
    if plan.status == "missed":
        return say(lang, "Missed: the bot was away for the whole night.")
    return None


def signup_embed(plan: PlanRecord, *, lang: Language) -> discord.Embed:
    """The sign-up message: when and where, the host and settings, who is in, the waiting list, who cannot come."""
    r = roster(plan.signups, plan.seats)
    lines = [when(plan), say(lang, "In {channel} · host {host}", channel=channel_mention(plan.channel_id),
                             host=mention(plan.host_id)), _settings_line(plan, lang)]
    if plan.notes:
        lines.append(plan.notes)
    status = _status_line(plan, lang)
    if status:
        lines.append(f"**{status}**")
    colour = discord.Colour.dark_green() if plan.status in ("planned", "open") else discord.Colour.dark_grey()
    embed = discord.Embed(title=name_of(plan, lang=lang), description="\n".join(lines), colour=colour)
    left = plan.seats - len(r.playing)
    room = say_n(lang, "{count} seat left", "{count} seats left", count=left) if left else say(lang, "full")
    embed.add_field(name=" · ".join([say(lang, "In · {playing} of {seats}", playing=len(r.playing), seats=plan.seats),
                                     room]),
                    inline=False, value=_names(r.playing, lang) or say(lang, "Nobody yet: tap **I'm in**."))
    if r.waiting:
        embed.add_field(name=say(lang, "Waiting list · {count}", count=len(r.waiting)),
                        value=_names(r.waiting, lang, numbered=True), inline=False)
    if r.out:
        embed.add_field(name=say(lang, "Can't make it"), value=_names(r.out, lang), inline=False)
    if plan.status == "planned" and plan.event_id is not None:
        embed.set_footer(text=say(lang, "Marked Interested on the event? You count as in."))
    return embed


def signup_view(plan: PlanRecord, *, lang: Language) -> discord.ui.View:
    """I'm in and Can't make it while the night is planned, and the link to its Discord event."""
    view = dynamic_view()
    if plan.status == "planned":
        view.add_item(SignupButton(plan.id, "in", say(lang, "I'm in"), discord.ButtonStyle.success))
        view.add_item(SignupButton(plan.id, "out", say(lang, "Can't make it"), discord.ButtonStyle.secondary))
    url = event_url(plan)
    if url is not None and plan.status in ("planned", "open"):
        view.add_item(discord.ui.Button(label=say(lang, "Event"), style=discord.ButtonStyle.link, url=url))
    return view


class SignupButton(discord.ui.DynamicItem[BUTTON], template=SIGNUP_ID):
    """I'm in or Can't make it, for one planned night (it works after a restart)."""

    def __init__(self, night: int, answer: str, label: str = "…",
                 style: discord.ButtonStyle = discord.ButtonStyle.secondary) -> None:
        super().__init__(discord.ui.Button(label=label, style=style, custom_id=f"pk:night:{night}:{answer}"))
        self.night, self.answer = night, answer

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> SignupButton:
        return cls(int(match["night"]), match["answer"])

    @answers_errors
    async def callback(self, reply: Reply) -> None:
        cog: Any = reply.interaction.client.get_cog(COG_NAME)  # type: ignore[attr-defined]
        if cog is None:
            raise RuntimeError("the planned nights' extension is not loaded")
        await cog.on_signup(reply, self.night, self.answer)


def _place(r: Roster, user: int, lang: Language) -> str:
    place = r.place(user)
    if place is None:
        return say(lang, "You can't make it.")
    kind, number = place
    if kind == "playing":
        return say(lang, "You're in.")
    return say(lang, "You're number {number} on the waiting list: a seat is yours if someone drops out or the table "
               "has room.", number=str(number))


def answer_text(plan: PlanRecord, user: int, *, lang: Language) -> str:
    """The private answer to a tap: where he stands now."""
    r = roster(plan.signups, plan.seats)
    if r.place(user) is None:
        return say(lang, "Noted: you can't make it. Tap **I'm in** if that changes.")
    said = [_place(r, user, lang), say(lang, "It starts {when}.", when=stamp(plan.starts_at, "R"))]
    if plan.remind_minutes:  # "minutes" even for 1: the English of today
        said.append(say(lang, "I'll DM you {count} minutes before.", count=plan.remind_minutes))
    return " ".join(said)


def reminder_text(plan: PlanRecord, user: int, *, lang: Language) -> str:
    """The reminder DM."""
    r = roster(plan.signups, plan.seats)
    link = f"https://discord.com/channels/{plan.guild_id}/{plan.channel_id}"
    return "\n".join([
        say(lang, "⏰ **{name}** starts {when} ({time}) in {channel}: {link}", name=name_of(plan, lang=lang),
            when=stamp(plan.starts_at, "R"), time=stamp(plan.starts_at, "t"), channel=channel_mention(plan.channel_id),
            link=link),
        " ".join([_place(r, user, lang), say(lang, "Tap **Join** on the table when it opens.")])])


def start_text(plan: PlanRecord, held_until: int | None, *, lang: Language) -> str:
    """The channel's mention at the start: everyone who is in, and how to sit down."""
    r = roster(plan.signups, plan.seats)
    who = _names(r.order, lang)
    first = [say(lang, "🃏 **{name}** starts now.", name=name_of(plan, lang=lang)), *([who] if who else [])]
    then = [say(lang, "Tap **Join** on the table below; the host deals with `/poker table start`.")]
    if held_until and r.order:
        then.append(say(lang, "Seats go first to those who signed up, until {time}.", time=stamp(held_until, "t")))
    return " ".join(first) + "\n" + " ".join(then)


def cancel_text(plan: PlanRecord, by: int, *, lang: Language) -> str:
    """The channel's notice of a cancelled night, naming everyone who was in."""
    who = _names(roster(plan.signups, plan.seats).order, lang)
    said = say(lang, "**{name}** on {when} is cancelled by {member}.", name=name_of(plan, lang=lang),
               when=stamp(plan.starts_at, "F"), member=mention(by))
    return f"{said} {who}" if who else said


def list_text(plans: list[PlanRecord], *, lang: Language) -> str:
    """``/poker night list``: the server's nights to come (and one under way), soonest first."""
    if not plans:
        return say(lang, "No night is planned. Plan one with `/poker night plan`.")
    lines = []
    for plan in plans:
        r = roster(plan.signups, plan.seats)
        title = [say(lang, "**{name}** (plan {id})", name=name_of(plan, lang=lang), id=str(plan.id))]
        if plan.status == "open":
            title.append(say(lang, "**under way**"))
        about = [say(lang, "{when} in {channel}", when=when(plan), channel=channel_mention(plan.channel_id))]
        seats = say(lang, "{playing} of {seats} in", playing=len(r.playing), seats=plan.seats)
        about.append(say(lang, "{seats}, {count} waiting", seats=seats, count=len(r.waiting)) if r.waiting else seats)
        url = event_url(plan)
        if url:
            about.append(say(lang, "[event]({url})", url=url))
        lines.append(" · ".join(title) + "\n" + " · ".join(about))
    return "\n".join(lines)
