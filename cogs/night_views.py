"""What the night-after commands show: texts, embeds and files built from ``bot.tables.night`` and ``bot.night``
results. No rules and no SQL here: the sums, the settle-up and the rows come ready.

Members are written as mentions everywhere (they render as names and, sent with no allowed mentions, ping
nobody); only the chip graph, a picture, needs names (the cog looks them up).

Each function words its text in ``lang``: the reader's for a private answer, the channel's for a public one (the
cogs choose). Dates are written the language's way; ``since 2026-11-01`` stays as the ``session`` option reads it.
"""

from __future__ import annotations

import datetime as dt
import io
from collections.abc import Callable, Mapping, Sequence
from typing import Final

import discord
from babel.dates import format_date
from discord import app_commands

from bot.i18n import ENGLISH, Language, Text, say, say_n
from bot.i18n.catalogue import babel_locale
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
from cogs.language import reader_language
from cogs.render import mention

NONE: Final = discord.AllowedMentions.none()
STORY_WIDTH: Final = 72  # an action's text with its mention is about twice as long as what a phone shows
EMBED_TEXT: Final = 5800  # Discord allows 6,000 characters over a message's embeds (titles and footers count)
MAX_CHOICES: Final = 25
PERIOD_CHOICES: Final = [
    app_commands.Choice(name="Tonight", value="tonight"),
    app_commands.Choice(name="This month", value="month"),
    app_commands.Choice(name="All time", value="all"),
]
PERIOD_TITLES: Final = {"tonight": Text("Tonight"), "month": Text("This month"), "all": Text("All time")}
NO_CHIP_VALUE: Final = frozenset({"off", "none", "clear", "no", "0", "-"})


# ------------------------------------------------------------------------------------------------- pieces


def signed(chips: int, lang: Language) -> str:
    """``+1,200``, ``-40``, ``+0``: a chip result with its sign, grouped the way of ``lang``."""
    return ("-" if chips < 0 else "+") + lang.number(abs(chips))


def amount(chips: int, value: ChipValue | None, *, sign: bool = True, cents: int | None = None,
           lang: Language) -> str:
    """``+1,200`` chips, with the money beside when the host set a chip value: ``+1,200 (+$12.00)``; ``cents``
    is that money when the night's rounding decided it (``bot.night.money``). Written the way of ``lang``."""
    text = signed(chips, lang) if sign else lang.number(chips)
    if value is None:
        return text
    worth = (money(chips, value, sign=sign, lang=lang) if cents is None
             else value.format_cents(cents, sign=sign, lang=lang))
    return f"{text} ({worth})"


def _day(day: dt.date, pattern: str, lang: Language) -> str:
    """A date as ``lang`` writes it, in a CLDR ``pattern`` (``dd MMM``: ``01 Nov``)."""
    return format_date(day, pattern, locale=babel_locale(lang))


def night_name(night: Night, running: bool | None = None, *, lang: Language) -> str:
    """``Night 12 at #poker`` (running), or ``Every night since 2026-11-01 (3)``. ``running``: whether a table of it
    still plays (None: whether its table is open)."""
    if night.since is not None:
        return say_n(lang, "Every night since {date} ({count} night)", "Every night since {date} ({count} nights)",
                     count=len(night.nights), date=night.since.isoformat())
    record = night.nights[0]
    running = record.is_open if running is None else running
    channel = f"<#{record.channel_id}>"
    if running:
        return say(lang, "Night {number} at {channel} (running)", number=str(record.id), channel=channel)
    return say(lang, "Night {number} at {channel}", number=str(record.id), channel=channel)


def _hands(count: int, lang: Language) -> str:
    return say_n(lang, "{count} hand", "{count} hands", count=count)


def _header(title: str, results: NightResults, lang: Language) -> str:
    parts = [f"**{title}**", _hands(len(results.hands), lang)]
    if results.chip_value is not None:
        parts.append(results.chip_value.describe(lang=lang))
    return " · ".join(parts)


def _owners(chips: Mapping[int, int], lang: Language) -> str:
    return ", ".join(f"{mention(u)} {lang.number(c)}" for u, c in sorted(chips.items()))


def _notes(results: NightResults, lang: Language) -> list[str]:
    notes = []
    if results.pending:
        notes.append(say_n(lang, "🔁 {count} chip still carried to the next deal count as returned to those who put "
                                 "them in, as closing the table now would: {owners}.",
                           "🔁 {count} chips still carried to the next deal count as returned to those who put "
                           "them in, as closing the table now would: {owners}.",
                           count=results.carried, owners=_owners(results.pending, lang)))
    for number in results.live:
        notes.append(say(lang, "⏳ Hand #{number} is being played: it counts once it ends.", number=str(number)))
    return notes


# -------------------------------------------------------------------------------------- results, settle-up


def _nothing_yet(title: str, lang: Language) -> str:
    return say(lang, "**{title}**: no hand has been finished yet.", title=title)


def results_text(results: NightResults, *, lang: Language = ENGLISH) -> str:
    """``/chips results``: each player's net for the night, best first, with his hands."""
    title = night_name(results.night, results.running, lang=lang)
    if not results.hands and not results.nets:
        return _nothing_yet(title, lang)
    order = sorted(results.nets, key=lambda user: (-results.nets[user], user))
    value = results.chip_value
    cents = money_nets(results.nets, value) if value is not None else {}
    lines = [_header(title, results, lang)]
    for user in order:
        lines.append(f"{mention(user)} {amount(results.nets[user], value, cents=cents.get(user), lang=lang)} · "
                     f"{_hands(results.hands_of(user), lang)}")
    return "\n".join(lines + _notes(results, lang))


def payment_lines(results: NightResults, payments: Sequence[Payment], *, lang: Language) -> list[str]:
    """Who pays whom, one payment a line (``@bob pays @alice 120``, as money too with a chip value), or that
    everyone is square."""
    if not payments:
        return [say(lang, "Everyone is square: nobody pays anybody.")]
    value = results.chip_value
    paid = money_settle(payments, value)[1] if value is not None else [0] * len(payments)
    return [say(lang, "{payer} pays {payee} {amount}", payer=mention(p.payer), payee=mention(p.payee),
                amount=amount(p.amount, value, sign=False, cents=c, lang=lang))
            for p, c in zip(payments, paid)]


def settle_text(results: NightResults, payments: Sequence[Payment], *, lang: Language = ENGLISH) -> str:
    """``/chips settle``: who pays whom (the fewest payments), then each player's net."""
    title = say(lang, "Settle-up · {night}", night=night_name(results.night, results.running, lang=lang))
    if not results.hands and not results.nets:
        return _nothing_yet(title, lang)
    value = results.chip_value
    cents = money_settle(payments, value)[0] if value is not None else {}
    lines = [_header(title, results, lang), *payment_lines(results, payments, lang=lang)]
    nets = sorted(results.nets.items(), key=lambda item: (-item[1], item[0]))
    shown = [f"{mention(u)} {amount(n, value, cents=cents.get(u, 0), lang=lang)}" for u, n in nets if n]
    if shown:
        lines.append(say(lang, "Nets: {nets}", nets=" · ".join(shown)))
    return "\n".join(lines + _notes(results, lang))


# ------------------------------------------------------------------------------------------------- graph


def graph_title(results: NightResults, *, lang: Language) -> str:
    """The graph's own title (short enough for its width): ``Night 12 · 42 hands``."""
    night = results.night
    head = (say(lang, "Since {date}", date=_day(night.since, "dd MMM y", lang)) if night.since is not None
            else say(lang, "Night {number}", number=str(night.nights[0].id)))
    return f"{head} · {_hands(len(results.hands), lang)}"


def graph_alt(series: Mapping[int, Sequence[tuple[int, int]]], names: Mapping[int, str], hands: int, *,
              lang: Language) -> str:
    """The graph in words (its description, for a screen reader): ``Chips won over 42 hands: ann +120, ...``."""
    finish = sorted(series, key=lambda user: (-series[user][-1][1], user))
    text = ", ".join(f"{names.get(user, str(user))} {signed(series[user][-1][1], lang)}" for user in finish)
    if not text:
        return say(lang, "No hands yet")
    return say_n(lang, "Chips won over {count} hand: {players}", "Chips won over {count} hands: {players}",
                 count=hands, players=text)[:1000]


def graph_message(results: NightResults, only: int | None, *, lang: Language) -> str:
    """The text sent with the graph."""
    head = _header(night_name(results.night, lang=lang), results, lang)
    if only is not None:
        head = " · ".join([head, say(lang, "{member}'s line", member=mention(only))])
    return "\n".join([head, *_notes(results, lang)])


def graph_file(png: bytes, results: NightResults, alt: str) -> discord.File:
    """The PNG as an attachment, with its description."""
    return discord.File(io.BytesIO(png), filename=_file_stem(results.night) + ".png", description=alt)


def _file_stem(night: Night) -> str:
    return f"since-{night.since.isoformat()}" if night.since is not None else f"night-{night.nights[0].id}"


# ------------------------------------------------------------------------------------------------- stats


def stats_embed(member: discord.abc.User, by_game: Mapping[str, PlayerStats], scope: str,
                game: str | None, *, lang: Language = ENGLISH) -> discord.Embed:
    """``/poker stats``: the lines of the total (or of the one game), then a line a game when he played several."""
    title = " · ".join([member.display_name, game_label(game) if game else say(lang, "every game"), scope])
    lines = stats_lines(total(by_game.values()), by_game, lang=lang)
    if len(by_game) > 1:
        lines += ["```", *games_table(by_game, lang=lang), "```"]
    return discord.Embed(title=title[:256], description="\n".join(lines))


def stats_scope(night: Night | None, *, lang: Language) -> str:
    """``all time``, ``night 12`` or ``since 2026-11-01``."""
    if night is None:
        return say(lang, "all time")
    if night.since is not None:
        return say(lang, "since {date}", date=night.since.isoformat())
    return say(lang, "night {number}", number=str(night.nights[0].id))


# ----------------------------------------------------------------------------------------------- history


def history_message(told: Sequence[tuple[HandRecord, Hand | None]], member: int, *, lang: Language = ENGLISH,
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
        story = (hand_story(hand, record.seat_users, mention, number=record.number, width=STORY_WIDTH, lang=lang)
                 if hand else "")
        if story and len(story) <= room:
            embeds.append(discord.Embed(description=story))
            room -= len(story)
        else:
            left_out.append(record.number)
        phh = member_phh(record, member)
        if phh:
            files.append(discord.File(io.BytesIO(phh.encode()), filename=f"hand-{record.number}.phh"))
    text = say_n(lang, "The last {count} hand at this table, newest first, with their hand histories.",
                 "The last {count} hands at this table, newest first, with their hand histories.", count=len(told))
    if left_out:
        text = " ".join([text, say(lang, "Not told here: {hands} (see their files).",
                                   hands=", ".join(f"#{n}" for n in left_out))])
    return text, embeds, files


# -------------------------------------------------------------------------------------- nights, chip value


def new_night_text(ended: NightRecord | None, started: NightRecord, returned: Mapping[int, int], *,
                   lang: Language) -> str:
    """``/poker session new``: the night that ended (and how to settle it), the one that starts."""
    lines = []
    if ended is not None:
        lines.append(say_n(lang, "Night {number} is over after {count} hand: `/chips settle session:{number}` "
                                 "settles it.",
                           "Night {number} is over after {count} hands: `/chips settle session:{number}` settles it.",
                           count=ended.hands, number=str(ended.id)))
    if returned:
        lines.append(say_n(lang, "🔁 The {count} chip carried to the next deal go back to those who put them in: "
                                 "{owners}.",
                           "🔁 The {count} chips carried to the next deal go back to those who put them in: "
                           "{owners}.", count=sum(returned.values()), owners=_owners(returned, lang)))
    lines.append(say(lang, "**Night {number}** starts now at this table: results, settle-up and stats count from "
                           "here.", number=str(started.id)))
    return "\n".join(lines)


def chip_value_text(settings: TableSettings, *, changed: bool = False, lang: Language) -> str:
    """``/poker table chipvalue``: the table's chip value, or that it has none."""
    value = settings.money
    if value is None:
        return say(lang, "Chips are worth nothing here now.") if changed else say(
            lang, "This table has no chip value: the host sets one with `/poker table chipvalue value:100 chips = $1`.")
    if changed:
        return say(lang, "From now on, {chip_value}: amounts are also shown as money.",
                   chip_value=value.describe(lang=lang))
    return say(lang, "Here, {chip_value}: amounts are also shown as money.", chip_value=value.describe(lang=lang))


# ------------------------------------------------------------------------------------------------ export


def export_message(night: Night, hands: int, skipped: int, *, lang: Language) -> str:
    """The text sent with a night's ``.phhs`` file."""
    file = _file_stem(night) + ".phhs"
    text = say_n(lang, "**{night}**: {count} hand in one hand-history file. `python -m bot replay {file}` replays it "
                       "hand by hand.",
                 "**{night}**: {count} hands in one hand-history file. `python -m bot replay {file}` replays it hand "
                 "by hand.", count=hands, night=night_name(night, lang=lang), file=file)
    if skipped:
        text = " ".join([text, say_n(lang, "Left out: {count} hand with no hand history kept.",
                                     "Left out: {count} hands with no hand history kept.", count=skipped)])
    return text


def export_file(document: str, night: Night) -> discord.File:
    """The ``.phhs`` document as an attachment."""
    return discord.File(io.BytesIO(document.encode()), filename=_file_stem(night) + ".phhs")


# ------------------------------------------------------------------------------------------------ boards


def board_text(board: Board, value: ChipValue | None = None, *, lang: Language = ENGLISH) -> str:
    """``/chips leaderboard period:``: the members by net won at tables."""
    if board.period == "tonight":
        night = board.night
        if board.here and night is not None and night.nights:
            where = night_name(night, lang=lang)
        else:
            count = len(night.nights) if night is not None else 0
            where = (say_n(lang, "this server's {count} night of the last {hours} hours",
                           "this server's {count} nights of the last {hours} hours", count=count,
                           hours=str(TONIGHT_HOURS))
                     if count else say(lang, "this server"))
        title = say(lang, "**Tonight** · {where}", where=where)
    elif board.period == "month" and board.since is not None:
        title = say(lang, "**This month** · since {date} (UTC)",
                    date=_day(dt.datetime.fromtimestamp(board.since, dt.UTC).date(), "dd MMM", lang))
    else:
        title = f"**{PERIOD_TITLES[board.period].worded(lang)}**"
    if not board.entries:
        return "\n".join([title, say(lang, "Nobody has played a hand yet.")])
    cents = money_nets({e.user_id: e.net for e in board.entries}, value) if value is not None else {}
    lines = [f"{e.rank}. {mention(e.user_id)} {amount(e.net, value, cents=cents.get(e.user_id), lang=lang)} · "
             f"{_hands(e.hands, lang)}" for e in board.entries]
    return "\n".join([" · ".join([title, say(lang, "chips won at tables")]), *lines])


# ---------------------------------------------------------------------------------------- the session option


def night_choices(nights: Sequence[NightRecord], channel_name: Callable[[int], str], typed: str, *,
                  lang: Language = ENGLISH) -> list[app_commands.Choice[str]]:
    """The ``session`` option's suggestions: the nights given (this channel's first), filtered by what was typed;
    ``since DATE`` typed is offered as it is."""
    choices: list[app_commands.Choice[str]] = []
    words = typed.strip().lower()
    if words.startswith("since") or words[:2] == "20":
        choices.append(app_commands.Choice(name=say(lang, "Every night {typed}", typed=typed.strip())[:100],
                                           value=typed.strip()[:100]))
    for record in nights:
        values = {"number": str(record.id), "channel": f"#{channel_name(record.channel_id)}",
                  "date": _day(dt.datetime.fromtimestamp(record.started_at, dt.UTC).date(), "EEE dd MMM y", lang),
                  "hands": _hands(record.hands, lang)}
        name = (say(lang, "Night {number} · {channel} · {date} · {hands} · running", **values) if record.is_open
                else say(lang, "Night {number} · {channel} · {date} · {hands}", **values))
        if not words or words in name.lower() or words.lstrip("#") == str(record.id):
            choices.append(app_commands.Choice(name=name[:100], value=str(record.id)))
    return choices[:MAX_CHOICES]


async def night_choices_of(store: Store, interaction: discord.Interaction,
                           typed: str) -> list[app_commands.Choice[str]]:
    """The suggestions for a ``session`` option, in the member's language: this channel's current or last night
    first, then the server's latest nights."""
    if interaction.guild_id is None:
        return []
    last = await store.last_night(interaction.channel_id or 0) if interaction.channel_id else None
    latest = await store.guild_nights(interaction.guild_id, limit=MAX_CHOICES)
    nights = ([last] if last is not None else []) + [s for s in latest if last is None or s.id != last.id]
    guild = interaction.guild

    def channel_name(channel_id: int) -> str:
        channel = guild.get_channel(channel_id) if guild is not None else None
        return channel.name if channel is not None else str(channel_id)

    return night_choices(nights, channel_name, typed, lang=reader_language(interaction))
