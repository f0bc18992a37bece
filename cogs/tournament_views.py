"""Tournaments as players see them: the level lines of the table message, the registration message's embed, and
the news posted in the channel (who is out, the final standings). Pure: the table's tournament in, text out (the
buttons and the commands are ``cogs.table._tournament``'s).

The rules and the chips are the table layer's (``bot.tables.tournament``) and the store's: this module shows.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

import discord

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
            f"First level {first.describe(structure_of(table))}; the host starts with `/poker tournament start`."))
    if state.stage != "running":
        return EmbedField("Tournament over", _podium(state.placings(), t))
    when = mode.now() if at is None else at
    step = state.next_hand(when)
    structure = structure_of(table)
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


def structure_of(table: Table) -> Structure | None:
    settings = table.settings
    game = settings.single_game
    return None if game is None else settings.structure_for(game)


def _minutes(seconds: float) -> str:
    whole = max(0, int(seconds))
    return f"{whole // 60}:{whole % 60:02d}"


def _podium(placings: Sequence[Placing], t: TournamentMode) -> str:
    prizes = {e.user_id: e.prize or 0 for e in t.record.entries}
    return "\n".join(placing_line(p, prizes) for p in placings[:3]) or "Nobody played."


# ------------------------------------------------------------------ the registration message


def lobby_embed(table: Table) -> discord.Embed:
    """The tournament's registration message: its settings, the players, the pool, and what happens now."""
    t = tournament_of(table)
    assert t is not None
    state = t.state
    settings = table.settings
    game = render.table_name(settings)
    structure = structure_of(table)
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
    embed.add_field(name=f"Players ({state.entrants})",
                    value=_players(state.placings(), state.standing.alive, finished=state.status == "finished"),
                    inline=False)
    embed.add_field(name="Status", value=_status(table), inline=False)
    return embed


def _players(placings: Sequence[Placing], alive: Sequence[int], *, finished: bool) -> str:
    """Those still in, then those out with their places; a place for the last one in only once it is over (a lone
    registrant is not "1st")."""
    lines = [mention(p) for p in alive] if not finished else []
    lines += [f"{mention(p)} ({_ordinal(placing.place)})" for placing in placings for p in placing.players
              if p not in alive or finished]
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


def _ordinal(place: int) -> str:
    suffix = "th" if 10 <= place % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(place % 10, "th")
    return f"{place}{suffix}"


def places_of(placing: Placing) -> str:
    """Where a player (or players out together) finished: ``4th place``, ``3rd and 4th places``."""
    places = list(placing.places)
    if len(places) == 1:
        return f"{_ordinal(places[0])} place"
    return " and ".join([", ".join(_ordinal(p) for p in places[:-1]), _ordinal(places[-1])]) + " places"


def placing_line(placing: Placing, prizes: dict[int, int]) -> str:
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
            lines.append(f"{names} {verb} out of the tournament{share} in {places_of(placing)}.")
        return "\n".join(lines)
    if isinstance(news, Broke):
        names = " and ".join(mention(p) for p in news.players)
        return (f"{names} {'has' if len(news.players) == 1 else 'have'} no chips left: press Rebuy on the tournament"
                " message to stay in (until the next hand ends, or for a minute when the table waits).")
    if isinstance(news, Finished):
        prizes = dict(news.prizes)
        return "**Final standings**\n" + "\n".join(placing_line(p, prizes) for p in news.placings)
    return None
