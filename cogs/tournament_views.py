"""Tournaments as players see them: the level lines of the table message, the registration message's embed, and
the news posted in the channel (who is out, the final standings). Pure: the table's tournament in, text out (the
buttons and the commands are ``cogs.table._tournament``'s).

The rules and the chips are the table layer's (``bot.tables.tournament``) and the store's: this module shows. Every
function words its text in ``lang``: the table's language for what the channel reads (the table message, the
registration message, the news), the member's for ``/poker tournament status``.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import reduce
from typing import NamedTuple

import discord

from bot.i18n import ENGLISH, Language, say
from bot.poker import Structure
from bot.tables import Table
from bot.tables import tournament as mode
from bot.tables.tournament import Broke, Eliminated, Finished, News, TournamentMode, tournament_of
from bot.tournament import Break, Placing, format_levels, format_payouts, next_level, shares_for
from cogs import render
from cogs.render import chips, mention

MAX_LISTED = 25  # players named in an embed field


class EmbedField(NamedTuple):
    """An embed field: the table message's tournament lines."""

    name: str
    value: str


# ------------------------------------------------------------------ the table message's lines


def tournament_field(table: Table, at: float | None = None, *, lang: Language = ENGLISH) -> EmbedField | None:
    """The tournament's lines for the table message (None at a cash table): the level, the next one and when it
    comes, the players left and the prize pool; before the start, the registrations; at the end, the winners.
    ``at``: the tournament time to show (default: now)."""
    t = tournament_of(table)
    if t is None:
        return None
    state = t.state
    if state.stage == "registering":
        first = state.schedule[0].describe(structure_of(table), lang=lang)
        return EmbedField(say(lang, "Tournament: registration open"), "\n".join([
            say(lang, "{count} registered · prize pool {pool}", count=state.entrants, pool=state.prize_pool),
            say(lang, "First level {level}; the host starts with `/poker tournament start`.", level=first)]))
    if state.stage != "running":
        return EmbedField(say(lang, "Tournament over"), _podium(state.placings(), t, lang))
    when = mode.now() if at is None else at
    step = state.next_hand(when)
    structure = structure_of(table)
    ends = "" if step.seconds_left is None or step.status == "paused" else \
        f"<t:{int(mode.CLOCK.wall(when + step.seconds_left))}:R>"  # a paused clock's level does not end by itself
    level = step.level.describe(structure, lang=lang)
    if isinstance(state.schedule[step.step], Break):
        lines = [say(lang, "Break: play resumes {ends} at {level}", ends=ends, level=level) if ends
                 else say(lang, "Break, then {level}", level=level)]
    else:
        lines = [say(lang, "Level {number} of {levels}: {level}", number=str(t.level_number(step.step)),
                     levels=str(t.levels), level=level)]
        coming = next_level(state.schedule, step.step)
        if coming is None:
            lines.append(say(lang, "Last level: the blinds rise no more"))
        elif ends:
            lines.append(say(lang, "Next: {level} {ends}", level=coming.describe(structure, lang=lang), ends=ends))
        else:
            lines.append(say(lang, "Next: {level}", level=coming.describe(structure, lang=lang)))
    if step.status == "paused":
        left = step.seconds_left
        lines.append(say(lang, "Paused by the host ({time} left in this level)", time=_minutes(left))
                     if left is not None else say(lang, "Paused by the host"))
    alive = len(state.standing.alive)
    lines.append(say(lang, "{alive} of {entrants} players left · prize pool {pool}", alive=alive,
                     entrants=state.entrants, pool=state.prize_pool))
    if state.awaiting_rebuy:
        names = ", ".join(mention(b.player) for b in state.awaiting_rebuy)
        lines.append(say(lang, "No chips left: {names} may rebuy", names=names))
    return EmbedField(say(lang, "Tournament"), "\n".join(lines))


def structure_of(table: Table) -> Structure | None:
    settings = table.settings
    game = settings.single_game
    return None if game is None else settings.structure_for(game)


def _minutes(seconds: float) -> str:
    whole = max(0, int(seconds))
    return f"{whole // 60}:{whole % 60:02d}"


def _podium(placings: Sequence[Placing], t: TournamentMode, lang: Language) -> str:
    prizes = {e.user_id: e.prize or 0 for e in t.record.entries}
    return "\n".join(placing_line(p, prizes, lang=lang) for p in placings[:3]) or say(lang, "Nobody played.")


# ------------------------------------------------------------------ the registration message


def lobby_embed(table: Table, *, lang: Language = ENGLISH) -> discord.Embed:
    """The tournament's registration message: its settings, the players, the pool, and what happens now."""
    t = tournament_of(table)
    assert t is not None
    state = t.state
    settings = table.settings
    game = render.table_name(settings, lang=lang)
    structure = structure_of(table)
    minutes = next((s.minutes for s in state.schedule), 0)
    about = [say(lang, "Buy-in {amount}", amount=state.buy_in),
             say(lang, "{amount} chips each", amount=state.starting_chips),
             say(lang, "{minutes}-minute levels", minutes=format(float(minutes), "g"))]
    if structure:
        about.append(render.structure_name(structure, lang))
    embed = discord.Embed(title=say(lang, "Tournament: {game}", game=game), colour=discord.Colour.gold(),
                          description=" · ".join(about))
    blinds = format_levels(state.schedule, lang=lang)
    embed.add_field(name=say(lang, "Blinds"), value=blinds if len(blinds) <= 1000 else blinds[:1000] + "…",
                    inline=False)
    shares = shares_for(max(2, state.entrants), state.payouts)
    paid = " · ".join(say(lang, "{place} {amount} ({share}%)", place=ordinal(place, lang), amount=amount,
                          share=format_payouts([share], lang=lang))
                      for place, (share, amount) in enumerate(zip(shares, state.payout_amounts()), start=1))
    embed.add_field(name=say(lang, "Payouts"), value=paid, inline=True)
    embed.add_field(name=say(lang, "Prize pool"), value=chips(state.prize_pool, lang=lang), inline=True)
    options = []
    if state.late_registration_levels:  # "level(s)": the English of today, kept (no plural for a count of 1)
        options.append(say(lang, "late registration for {count} level(s)", count=state.late_registration_levels))
    if state.rebuy_levels:
        options.append(say(lang, "rebuys for {count} level(s)", count=state.rebuy_levels))
    if options:
        embed.add_field(name=say(lang, "Options"), value=", ".join(options), inline=True)
    embed.add_field(name=say(lang, "Players ({count})", count=state.entrants),
                    value=_players(state.placings(), state.standing.alive, lang, finished=state.status == "finished"),
                    inline=False)
    embed.add_field(name=say(lang, "Status"), value=_status(table, lang), inline=False)
    return embed


def _players(placings: Sequence[Placing], alive: Sequence[int], lang: Language, *, finished: bool) -> str:
    """Those still in, then those out with their places; a place for the last one in only once it is over (a lone
    registrant is not "1st")."""
    lines = [mention(p) for p in alive] if not finished else []
    lines += [f"{mention(p)} ({ordinal(placing.place, lang)})" for placing in placings for p in placing.players
              if p not in alive or finished]
    if len(lines) > MAX_LISTED:
        lines = [*lines[:MAX_LISTED], say(lang, "and {count} more", count=len(lines) - MAX_LISTED)]
    return ", ".join(lines) or say(lang, "Nobody yet: press Register.")


def _status(table: Table, lang: Language) -> str:
    t = tournament_of(table)
    assert t is not None
    state = t.state
    if state.stage == "registering":
        return say(lang, "Registration is open. The host starts the tournament with `/poker tournament start`.")
    if state.stage == "cancelled":
        return say(lang, "Cancelled: every buy-in and rebuy was returned.")
    if state.stage == "finished":
        return say(lang, "Over. {podium}", podium=_podium(state.placings(), t, lang).replace("\n", " · "))
    said = [say(lang, "Paused by the host.") if state.status == "paused" else say(lang, "Under way.")]
    if state.can_register_late(mode.now()):
        said.append(say(lang, "Late registration is open."))
    return " ".join(said)


def ordinal(place: int, lang: Language) -> str:
    """A place in ``lang``: ``1st``, ``22nd``, ``13th`` (each English ending a text of its own; 1 alone, as a
    language may write the first place unlike the 21st: French ``1er``, ``21e``)."""
    number = str(place)
    if place == 1:
        return say(lang, "1st")
    if 10 <= place % 100 <= 20:
        return say(lang, "{place}th", place=number)
    last = place % 10
    if last == 1:
        return say(lang, "{place}st", place=number)
    if last == 2:
        return say(lang, "{place}nd", place=number)
    if last == 3:
        return say(lang, "{place}rd", place=number)
    return say(lang, "{place}th", place=number)


def _both(names: Sequence[str], lang: Language) -> str:
    """``A and B and C`` in ``lang``."""
    return reduce(lambda first, second: say(lang, "{first} and {second}", first=first, second=second), names)


def places_of(placing: Placing, *, lang: Language = ENGLISH) -> str:
    """Where a player (or players out together) finished: ``4th place``, ``3rd and 4th places``."""
    places = [ordinal(p, lang) for p in placing.places]
    if len(places) == 1:
        return say(lang, "{place} place", place=places[0])
    return say(lang, "{places} and {last} places", places=", ".join(places[:-1]), last=places[-1])


def placing_line(placing: Placing, prizes: dict[int, int], *, lang: Language) -> str:
    """A place of the standings: ``1st. @alice — 200``, ``2nd. @bob and @carol (tied) — 50 / 50``."""
    place = ordinal(placing.place, lang)
    names = _both([mention(p) for p in placing.players], lang)
    won = [prizes.get(p, 0) for p in placing.players]
    if len(placing.players) == 1:
        if not any(won):
            return say(lang, "{place}. {names}", place=place, names=names)
        return say(lang, "{place}. {names} — {prize}", place=place, names=names, prize=won[0])
    if not any(won):
        return say(lang, "{place}. {names} (tied)", place=place, names=names)
    return say(lang, "{place}. {names} (tied) — {prizes}", place=place, names=names,
               prizes=" / ".join(chips(w, lang=lang) for w in won))


def news_text(news: News, *, lang: Language = ENGLISH) -> str | None:
    """The channel line of a piece of news (None: nothing to post)."""
    if isinstance(news, Eliminated):
        lines = []
        for placing in news.placings:
            names = _both([mention(p) for p in placing.players], lang)
            places = places_of(placing, lang=lang)
            lines.append(say(lang, "{names} is out of the tournament in {places}.", names=names, places=places)
                         if len(placing.players) == 1 else
                         say(lang, "{names} are out of the tournament, sharing in {places}.", names=names,
                             places=places))
        return "\n".join(lines)
    if isinstance(news, Broke):
        names = _both([mention(p) for p in news.players], lang)
        if len(news.players) == 1:
            return say(lang, "{names} has no chips left: press Rebuy on the tournament message to stay in (until the "
                       "next hand ends, or for a minute when the table waits).", names=names)
        return say(lang, "{names} have no chips left: press Rebuy on the tournament message to stay in (until the "
                   "next hand ends, or for a minute when the table waits).", names=names)
    if isinstance(news, Finished):
        prizes = dict(news.prizes)
        return "\n".join([say(lang, "**Final standings**"),
                          *(placing_line(p, prizes, lang=lang) for p in news.placings)])
    return None
