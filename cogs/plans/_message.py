"""What a planned night shows: its sign-up message (an embed and its buttons), the reminder DM, the start's
mention, the cancel notice, the list and the answers to a tap. Pure functions of the stored night: no I/O.

Times are Discord timestamps (``<t:…:F>``), which every member's phone shows in his own time zone.
"""

from __future__ import annotations

import re
from typing import Any

import discord

from bot.planning import Roster, event_name, roster
from bot.poker import GAMES
from bot.store import PlanRecord
from cogs.errors import answers_errors
from cogs.render import MIX_NAMES, STRUCTURE_NAMES, chips, mention
from cogs.reply import Reply
from cogs.views import dynamic_view

__all__ = [
    "SIGNUP_ID", "SignupButton", "answer_text", "cancel_text", "event_url", "game_name", "list_text", "name_of",
    "reminder_text", "signup_embed", "signup_view", "start_text",
]

SIGNUP_ID = r"pk:night:(?P<night>\d+):(?P<answer>in|out)"
COG_NAME = "PlansCog"
BUTTON = discord.ui.Button[discord.ui.View]
MAX_LISTED = 30  # members named in one field (a field holds 1,024 characters)
STATUS_LINES = {
    "open": "Started: the table is open in {channel}.",
    "done": "Over: the table was closed.",
    "cancelled": "Cancelled by the host.",
    "missed": "Missed: the bot was away for the whole night.",
}


def game_name(game: str) -> str:
    """``Dealer's choice``, ``HORSE``, ``2-7 Triple Draw``..."""
    return str(MIX_NAMES[game]) if game in MIX_NAMES else GAMES[game].name


def name_of(plan: PlanRecord) -> str:
    """The night's name, as its Discord event is called: ``Poker night: Dealer's choice 1/2``."""
    return event_name(game_name(plan.game), plan.small_blind, plan.big_blind)


def event_url(plan: PlanRecord) -> str | None:
    """The link to the night's Discord event (None: it has none)."""
    return None if plan.event_id is None else f"https://discord.com/events/{plan.guild_id}/{plan.event_id}"


def when(plan: PlanRecord) -> str:
    """The start as every member's phone shows it: ``Friday, 11 December 2026 20:00 · in 3 days``."""
    return f"<t:{plan.starts_at}:F> · <t:{plan.starts_at}:R>"


def _names(users: tuple[int, ...], numbered: bool = False) -> str:
    shown = [f"{k}. {mention(u)}" if numbered else mention(u) for k, u in enumerate(users[:MAX_LISTED], start=1)]
    if len(users) > MAX_LISTED:
        shown.append(f"and {len(users) - MAX_LISTED} more")
    return ("\n" if numbered else " ").join(shown)


def _settings_line(plan: PlanRecord) -> str:
    parts = [str(STRUCTURE_NAMES[plan.structure])] if plan.structure else []
    if plan.buy_in is not None:
        parts.append(f"buy-in {chips(plan.buy_in)}")
    parts.append(f"{plan.seats} seats")
    return " · ".join(parts)


def signup_embed(plan: PlanRecord) -> discord.Embed:
    """The sign-up message: when and where, the host and settings, who is in, the waiting list, who cannot come."""
    r = roster(plan.signups, plan.seats)
    lines = [when(plan), f"In <#{plan.channel_id}> · host {mention(plan.host_id)}", _settings_line(plan)]
    if plan.notes:
        lines.append(plan.notes)
    status = STATUS_LINES.get(plan.status)
    if status:
        lines.append(f"**{status.format(channel=f'<#{plan.channel_id}>')}**")
    colour = discord.Colour.dark_green() if plan.status in ("planned", "open") else discord.Colour.dark_grey()
    embed = discord.Embed(title=name_of(plan), description="\n".join(lines), colour=colour)
    left = plan.seats - len(r.playing)
    room = f"{left} seat{'s' if left != 1 else ''} left" if left else "full"
    embed.add_field(name=f"In · {len(r.playing)} of {plan.seats} · {room}", inline=False,
                    value=_names(r.playing) or "Nobody yet: tap **I'm in**.")
    if r.waiting:
        embed.add_field(name=f"Waiting list · {len(r.waiting)}", value=_names(r.waiting, numbered=True), inline=False)
    if r.out:
        embed.add_field(name="Can't make it", value=_names(r.out), inline=False)
    if plan.status == "planned" and plan.event_id is not None:
        embed.set_footer(text="Marked Interested on the event? You count as in.")
    return embed


def signup_view(plan: PlanRecord) -> discord.ui.View:
    """I'm in and Can't make it while the night is planned, and the link to its Discord event."""
    view = dynamic_view()
    if plan.status == "planned":
        view.add_item(SignupButton(plan.id, "in", "I'm in", discord.ButtonStyle.success))
        view.add_item(SignupButton(plan.id, "out", "Can't make it", discord.ButtonStyle.secondary))
    url = event_url(plan)
    if url is not None and plan.status in ("planned", "open"):
        view.add_item(discord.ui.Button(label="Event", style=discord.ButtonStyle.link, url=url))
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


def _place(r: Roster, user: int) -> str:
    place = r.place(user)
    if place is None:
        return "You can't make it."
    kind, number = place
    if kind == "playing":
        return "You're in."
    return f"You're number {number} on the waiting list: a seat is yours if someone drops out or the table has room."


def answer_text(plan: PlanRecord, user: int) -> str:
    """The private answer to a tap: where he stands now."""
    r = roster(plan.signups, plan.seats)
    if r.place(user) is None:
        return "Noted: you can't make it. Tap **I'm in** if that changes."
    text = _place(r, user)
    reminder = f" I'll DM you {plan.remind_minutes} minutes before." if plan.remind_minutes else ""
    return f"{text} It starts <t:{plan.starts_at}:R>.{reminder}"


def reminder_text(plan: PlanRecord, user: int) -> str:
    """The reminder DM."""
    r = roster(plan.signups, plan.seats)
    link = f"https://discord.com/channels/{plan.guild_id}/{plan.channel_id}"
    return (f"⏰ **{name_of(plan)}** starts <t:{plan.starts_at}:R> (<t:{plan.starts_at}:t>) in <#{plan.channel_id}>: "
            f"{link}\n{_place(r, user)} Tap **Join** on the table when it opens.")


def start_text(plan: PlanRecord, held_until: int | None) -> str:
    """The channel's mention at the start: everyone who is in, and how to sit down."""
    r = roster(plan.signups, plan.seats)
    who = _names(r.order)
    held = f" Seats go first to those who signed up, until <t:{held_until}:t>." if held_until and r.order else ""
    return (f"🃏 **{name_of(plan)}** starts now.{(' ' + who) if who else ''}\nTap **Join** on the table below;"
            f" the host deals with `/poker table start`.{held}")


def cancel_text(plan: PlanRecord, by: int) -> str:
    """The channel's notice of a cancelled night, naming everyone who was in."""
    who = _names(roster(plan.signups, plan.seats).order)
    return f"**{name_of(plan)}** on <t:{plan.starts_at}:F> is cancelled by {mention(by)}." + (f" {who}" if who else "")


def list_text(plans: list[PlanRecord]) -> str:
    """``/poker night list``: the server's nights to come (and one under way), soonest first."""
    if not plans:
        return "No night is planned. Plan one with `/poker night plan`."
    lines = []
    for plan in plans:
        r = roster(plan.signups, plan.seats)
        waiting = f", {len(r.waiting)} waiting" if r.waiting else ""
        url = event_url(plan)
        event = f" · [event]({url})" if url else ""
        under_way = " · **under way**" if plan.status == "open" else ""
        lines.append(f"**{name_of(plan)}** (plan {plan.id}){under_way}\n{when(plan)} in <#{plan.channel_id}> · "
                     f"{len(r.playing)} of {plan.seats} in{waiting}{event}")
    return "\n".join(lines)
