"""What the night-after commands show: texts, embeds and files built from ``bot.tables.night`` and ``bot.night``
results. No rules and no SQL here: the sums, the settle-up and the rows come ready.

Members are written as mentions everywhere (they render as names and, sent with no allowed mentions, ping
nobody); only the chip graph, a picture, needs names (the cog looks them up).
"""

from __future__ import annotations

import datetime as dt
import io
from collections.abc import Callable, Mapping, Sequence
from typing import Final

import discord
from discord import app_commands

from bot.night import (
    ChipValue,
    Payment,
    PlayerStats,
    games_table,
    hand_story,
    money,
    money_nets,
    money_settle,
    stats_lines,
    total,
)
from bot.night.stats import game_label
from bot.poker import Hand
from bot.store import HandRecord, NightRecord, Store
from bot.tables import TableSettings
from bot.tables.night import TONIGHT_HOURS, Board, Night, NightResults, member_phh
from cogs.render import chip_count, mention

NONE: Final = discord.AllowedMentions.none()
STORY_WIDTH: Final = 72  # an action's text with its mention is about twice as long as what a phone shows
EMBED_TEXT: Final = 5800  # Discord allows 6,000 characters over a message's embeds (titles and footers count)
MAX_CHOICES: Final = 25
PERIOD_CHOICES: Final = [
    app_commands.Choice(name="Tonight", value="tonight"),
    app_commands.Choice(name="This month", value="month"),
    app_commands.Choice(name="All time", value="all"),
]
PERIOD_TITLES: Final = {"tonight": "Tonight", "month": "This month", "all": "All time"}
NO_CHIP_VALUE: Final = frozenset({"off", "none", "clear", "no", "0", "-"})


# ------------------------------------------------------------------------------------------------- pieces


def amount(chips: int, value: ChipValue | None, *, sign: bool = True, cents: int | None = None) -> str:
    """``+1,200`` chips, with the money beside when the host set a chip value: ``+1,200 (+$12.00)``; ``cents``
    is that money when the night's rounding decided it (``bot.night.money``)."""
    text = f"{chips:+,}" if sign else f"{chips:,}"
    if value is None:
        return text
    return f"{text} ({money(chips, value, sign=sign) if cents is None else value.format_cents(cents, sign=sign)})"


def night_name(night: Night, running: bool | None = None) -> str:
    """``Night 12 at #poker`` (running), or ``Every night since 2026-11-01 (3)``. ``running``: whether a table of it
    still plays (None: whether its table is open)."""
    if night.since is not None:
        count = len(night.nights)
        return f"Every night since {night.since.isoformat()} ({count} night{'s' if count != 1 else ''})"
    record = night.nights[0]
    running = record.is_open if running is None else running
    return f"Night {record.id} at <#{record.channel_id}>" + (" (running)" if running else "")


def _header(title: str, results: NightResults) -> str:
    hands = len(results.hands)
    parts = [f"**{title}**", f"{hands:,} hand{'s' if hands != 1 else ''}"]
    if results.chip_value is not None:
        parts.append(str(results.chip_value))
    return " · ".join(parts)


def _notes(results: NightResults) -> list[str]:
    notes = []
    if results.pending:
        owners = ", ".join(f"{mention(u)} {c:,}" for u, c in sorted(results.pending.items()))
        notes.append(f"🔁 {chip_count(results.carried)} still carried to the next deal count as returned to those "
                     f"who put them in, as closing the table now would: {owners}.")
    for number in results.live:
        notes.append(f"⏳ Hand #{number} is being played: it counts once it ends.")
    return notes


# -------------------------------------------------------------------------------------- results, settle-up


def results_text(results: NightResults) -> str:
    """``/chips results``: each player's net for the night, best first, with his hands."""
    title = night_name(results.night, results.running)
    if not results.hands and not results.nets:
        return f"**{title}**: no hand has been finished yet."
    order = sorted(results.nets, key=lambda user: (-results.nets[user], user))
    value = results.chip_value
    cents = money_nets(results.nets, value) if value is not None else {}
    lines = [_header(title, results)]
    for user in order:
        hands = results.hands_of(user)
        lines.append(f"{mention(user)} {amount(results.nets[user], value, cents=cents.get(user))} · "
                     f"{hands:,} hand{'s' if hands != 1 else ''}")
    return "\n".join(lines + _notes(results))


def payment_lines(results: NightResults, payments: Sequence[Payment]) -> list[str]:
    """Who pays whom, one payment a line (``@bob pays @alice 120``, as money too with a chip value), or that
    everyone is square."""
    if not payments:
        return ["Everyone is square: nobody pays anybody."]
    value = results.chip_value
    paid = money_settle(payments, value)[1] if value is not None else [0] * len(payments)
    return [f"{mention(p.payer)} pays {mention(p.payee)} {amount(p.amount, value, sign=False, cents=c)}"
            for p, c in zip(payments, paid)]


def settle_text(results: NightResults, payments: Sequence[Payment]) -> str:
    """``/chips settle``: who pays whom (the fewest payments), then each player's net."""
    title = f"Settle-up · {night_name(results.night, results.running)}"
    if not results.hands and not results.nets:
        return f"**{title}**: no hand has been finished yet."
    value = results.chip_value
    cents = money_settle(payments, value)[0] if value is not None else {}
    lines = [_header(title, results), *payment_lines(results, payments)]
    nets = sorted(results.nets.items(), key=lambda item: (-item[1], item[0]))
    shown = [f"{mention(u)} {amount(n, value, cents=cents.get(u, 0))}" for u, n in nets if n]
    if shown:
        lines.append("Nets: " + " · ".join(shown))
    return "\n".join(lines + _notes(results))


# ------------------------------------------------------------------------------------------------- graph


def graph_title(results: NightResults) -> str:
    """The graph's own title (short enough for its width): ``Night 12 · 42 hands``."""
    night, hands = results.night, len(results.hands)
    head = f"Since {night.since:%d %b %Y}" if night.since is not None else f"Night {night.nights[0].id}"
    return f"{head} · {hands:,} hand{'s' if hands != 1 else ''}"


def graph_alt(series: Mapping[int, Sequence[tuple[int, int]]], names: Mapping[int, str], hands: int) -> str:
    """The graph in words (its description, for a screen reader): ``Chips won over 42 hands: ann +120, ...``."""
    finish = sorted(series, key=lambda user: (-series[user][-1][1], user))
    text = ", ".join(f"{names.get(user, str(user))} {series[user][-1][1]:+,}" for user in finish)
    return f"Chips won over {hands:,} hands: {text}"[:1000] if text else "No hands yet"


def graph_message(results: NightResults, only: int | None) -> str:
    """The text sent with the graph."""
    who = f" · {mention(only)}'s line" if only is not None else ""
    return "\n".join([_header(night_name(results.night), results) + who, *_notes(results)])


def graph_file(png: bytes, results: NightResults, alt: str) -> discord.File:
    """The PNG as an attachment, with its description."""
    return discord.File(io.BytesIO(png), filename=_file_stem(results.night) + ".png", description=alt)


def _file_stem(night: Night) -> str:
    return f"since-{night.since.isoformat()}" if night.since is not None else f"night-{night.nights[0].id}"


# ------------------------------------------------------------------------------------------------- stats


def stats_embed(member: discord.abc.User, by_game: Mapping[str, PlayerStats], scope: str,
                game: str | None) -> discord.Embed:
    """``/poker stats``: the lines of the total (or of the one game), then a line a game when he played several."""
    title = f"{member.display_name} · {game_label(game) if game else 'every game'} · {scope}"
    lines = stats_lines(total(by_game.values()), by_game)
    if len(by_game) > 1:
        lines += ["```", *games_table(by_game), "```"]
    return discord.Embed(title=title[:256], description="\n".join(lines))


def stats_scope(night: Night | None) -> str:
    """``all time``, ``night 12`` or ``since 2026-11-01``."""
    if night is None:
        return "all time"
    return f"since {night.since.isoformat()}" if night.since is not None else f"night {night.nights[0].id}"


# ----------------------------------------------------------------------------------------------- history


def history_message(told: Sequence[tuple[HandRecord, Hand | None]], member: int,
                    ) -> tuple[str, list[discord.Embed], list[discord.File]]:
    """``/poker history``: each hand as its story (an embed each, newest first) with its PHH file attached, as
    ``member`` may have it (the cards shown at the table and his own, ``bot.tables.night.member_phh``). Hands
    whose stories no longer fit in one message (Discord's 6,000 characters of embeds), or that could not be
    rebuilt, are named in the text."""
    embeds: list[discord.Embed] = []
    files: list[discord.File] = []
    left_out: list[int] = []
    room = EMBED_TEXT
    for record, hand in told:
        story = hand_story(hand, record.seat_users, mention, number=record.number, width=STORY_WIDTH) if hand else ""
        if story and len(story) <= room:
            embeds.append(discord.Embed(description=story))
            room -= len(story)
        else:
            left_out.append(record.number)
        phh = member_phh(record, member)
        if phh:
            files.append(discord.File(io.BytesIO(phh.encode()), filename=f"hand-{record.number}.phh"))
    count = len(told)
    text = f"The last {count} hand{'s' if count != 1 else ''} at this table, newest first, with their hand histories."
    if left_out:
        text += " Not told here: " + ", ".join(f"#{n}" for n in left_out) + " (see their files)."
    return text, embeds, files


# -------------------------------------------------------------------------------------- nights, chip value


def new_night_text(ended: NightRecord | None, started: NightRecord, returned: Mapping[int, int]) -> str:
    """``/poker session new``: the night that ended (and how to settle it), the one that starts."""
    lines = []
    if ended is not None:
        lines.append(f"Night {ended.id} is over after {ended.hands:,} hand{'s' if ended.hands != 1 else ''}: "
                     f"`/chips settle session:{ended.id}` settles it.")
    if returned:
        owners = ", ".join(f"{mention(u)} {c:,}" for u, c in sorted(returned.items()))
        lines.append(f"🔁 The {chip_count(sum(returned.values()))} carried to the next deal go back to those who put "
                     f"them in: {owners}.")
    lines.append(f"**Night {started.id}** starts now at this table: results, settle-up and stats count from here.")
    return "\n".join(lines)


def chip_value_text(settings: TableSettings, *, changed: bool = False) -> str:
    """``/poker table chipvalue``: the table's chip value, or that it has none."""
    if settings.chip_value is None:
        return "Chips are worth nothing here now." if changed else (
            "This table has no chip value: the host sets one with `/poker table chipvalue value:100 chips = $1`.")
    return f"{'From now on, ' if changed else 'Here, '}{settings.chip_value}: amounts are also shown as money."


# ------------------------------------------------------------------------------------------------ export


def export_message(night: Night, hands: int, skipped: int) -> str:
    """The text sent with a night's ``.phhs`` file."""
    stem = _file_stem(night)
    text = (f"**{night_name(night)}**: {hands:,} hand{'s' if hands != 1 else ''} in one hand-history file. "
            f"`python -m bot replay {stem}.phhs` replays it hand by hand.")
    if skipped:
        text += f" Left out: {skipped:,} hand{'s' if skipped != 1 else ''} with no hand history kept."
    return text


def export_file(document: str, night: Night) -> discord.File:
    """The ``.phhs`` document as an attachment."""
    return discord.File(io.BytesIO(document.encode()), filename=_file_stem(night) + ".phhs")


# ------------------------------------------------------------------------------------------------ boards


def board_text(board: Board, value: ChipValue | None = None) -> str:
    """``/chips leaderboard period:``: the members by net won at tables."""
    if board.period == "tonight":
        night = board.night
        if board.here and night is not None and night.nights:
            where = night_name(night)
        else:
            count = len(night.nights) if night is not None else 0
            where = (f"this server's {count} night{'s' if count != 1 else ''} of the last {TONIGHT_HOURS} hours"
                     if count else "this server")
        title = f"**Tonight** · {where}"
    elif board.period == "month" and board.since is not None:
        title = f"**This month** · since {dt.datetime.fromtimestamp(board.since, dt.UTC):%d %b} (UTC)"
    else:
        title = f"**{PERIOD_TITLES[board.period]}**"
    if not board.entries:
        return f"{title}\nNobody has played a hand yet."
    cents = money_nets({e.user_id: e.net for e in board.entries}, value) if value is not None else {}
    lines = [f"{e.rank}. {mention(e.user_id)} {amount(e.net, value, cents=cents.get(e.user_id))} · "
             f"{e.hands:,} hand{'s' if e.hands != 1 else ''}" for e in board.entries]
    return "\n".join([title + " · chips won at tables", *lines])


# ---------------------------------------------------------------------------------------- the session option


def night_choices(nights: Sequence[NightRecord], channel_name: Callable[[int], str], typed: str,
                  ) -> list[app_commands.Choice[str]]:
    """The ``session`` option's suggestions: the nights given (this channel's first), filtered by what was typed;
    ``since DATE`` typed is offered as it is."""
    choices: list[app_commands.Choice[str]] = []
    words = typed.strip().lower()
    if words.startswith("since") or words[:2] == "20":
        choices.append(app_commands.Choice(name=f"Every night {typed.strip()}"[:100], value=typed.strip()[:100]))
    for record in nights:
        day = dt.datetime.fromtimestamp(record.started_at, dt.UTC)
        name = (f"Night {record.id} · #{channel_name(record.channel_id)} · {day:%a %d %b %Y} · "
                f"{record.hands:,} hand{'s' if record.hands != 1 else ''}{' · running' if record.is_open else ''}")
        if not words or words in name.lower() or words.lstrip("#") == str(record.id):
            choices.append(app_commands.Choice(name=name[:100], value=str(record.id)))
    return choices[:MAX_CHOICES]


async def night_choices_of(store: Store, interaction: discord.Interaction,
                           typed: str) -> list[app_commands.Choice[str]]:
    """The suggestions for a ``session`` option: this channel's current or last night first, then the server's
    latest nights."""
    if interaction.guild_id is None:
        return []
    last = await store.last_night(interaction.channel_id or 0) if interaction.channel_id else None
    latest = await store.guild_nights(interaction.guild_id, limit=MAX_CHOICES)
    nights = ([last] if last is not None else []) + [s for s in latest if last is None or s.id != last.id]
    guild = interaction.guild

    def channel_name(channel_id: int) -> str:
        channel = guild.get_channel(channel_id) if guild is not None else None
        return channel.name if channel is not None else str(channel_id)

    return night_choices(nights, channel_name, typed)
