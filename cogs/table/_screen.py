"""The table message as a pure function: the table's state in, the embed and the components out.

No I/O and no clock here: whatever changes with time (the clock's deadline, the last lines of the log, the
structure the dealer picked but has not dealt yet) comes in as a ``Screen``. Tested without Discord.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import discord

from bot import render
from bot.poker import Game, Legal, get_game
from bot.tables import Table

from .. import tournament_views
from ._views import DEFAULT_STRUCTURE, ActionButton, ChoiceSelect, StructureSelect

MAX_LOG_LINES = 6


@dataclass(frozen=True, slots=True)
class Screen:
    """What the table message shows besides the table itself."""

    recent: Sequence[str] = ()  # the last lines of the log, oldest first
    deadline: float | None = None  # when the clock of the player to act (or of the chooser) runs out, Unix time
    pending_structure: str | None = None  # dealer's choice: the structure picked for the next deal
    choice_number: int = 0  # tells one dealer's-choice menu from the next (their custom_ids differ)


def embed(table: Table, screen: Screen) -> discord.Embed:
    """The table as everyone sees it: game, stakes, seats, pots, whose turn, last actions."""
    settings = table.settings
    hand = table.hand
    live = table.live
    game: Game | None
    if hand is not None and live is not None:
        game = hand.game
        title = f"{game.name} — hand #{live.record.number}"
        structure = hand.stakes.structure
    else:
        game = None if settings.is_dealers_choice else get_game(settings.game)
        title = "Dealer's choice" if game is None else game.name
        structure = None
    result = discord.Embed(title=title, description=render.stakes_line(settings, game, structure),
                           colour=discord.Colour.dark_green())
    if hand is not None and live is not None:
        lines = render.seat_lines(hand, live.users)
        lines += [f"{render.mention(s.user_id)} {render.chips(s.stack)} · "
                  + ("sitting out" if s.sitting_out else "leaving" if s.leaving
                     else "no chips" if s.stack == 0 else "dealt in from the next hand")
                  for s in table.record.seats if s.user_id not in live.users]
        result.add_field(name="Players", value="\n".join(lines), inline=False)
        result.add_field(name="Pot", value=render.pots_line(hand), inline=True)
        actor = table.actor()
        if actor is not None:
            clock = f" (clock <t:{int(screen.deadline)}:R>)" if screen.deadline else ""
            what = "to draw" if hand.phase == "drawing" else "to act"
            result.add_field(name="Turn", value=f"{render.mention(actor)} {what}{clock}", inline=True)
    else:
        seats = table.record.seats
        lines = [f"{render.mention(s.user_id)} {render.chips(s.stack)}"
                 + (" · sitting out" if s.sitting_out else "") for s in seats]
        result.add_field(name=f"Seats ({len(seats)}/{settings.max_seats})", value="\n".join(lines) or "empty",
                         inline=False)
        chooser = table.chooser()
        if chooser is not None and not table.paused:
            what = "the next game"
            if settings.dealer_picks_structure:
                pending = screen.pending_structure
                what += f" (structure: {render.STRUCTURE_NAMES[pending]})" if pending else " and its structure"
            result.add_field(name="Dealer's choice", value=f"{render.mention(chooser)} picks {what}")
        elif table.paused:
            result.add_field(name="Waiting", value="The host starts the game with `/poker start`.")
    if table.record.carried_pot and hand is None:
        result.add_field(name="Carried pot", value=render.chips(table.record.carried_pot), inline=True)
    if (tournament := tournament_views.tournament_field(table)) is not None:  # issue 15: the level, the next, time left
        result.add_field(name=tournament.name, value=tournament.value, inline=False)
    if screen.recent:
        result.add_field(name="Last actions", value="\n".join(screen.recent[-MAX_LOG_LINES:]), inline=False)
    return result


def view(table: Table, screen: Screen) -> discord.ui.View:
    """The buttons for the player to act (or the dealer's choice select)."""
    result = discord.ui.View(timeout=None)
    live = table.live
    legal = table.legal()
    if live is None:
        chooser = table.chooser()
        if chooser is not None and not table.paused:
            number = screen.choice_number
            options = [discord.SelectOption(label=g.name, value=g.id) for g in table.choices()][:25]
            result.add_item(ChoiceSelect(table.id, number, options))
            if table.settings.dealer_picks_structure:
                pending = screen.pending_structure
                kinds = [(DEFAULT_STRUCTURE, "Each game's own structure"), *render.STRUCTURE_NAMES.items()]
                result.add_item(StructureSelect(table.id, number, [
                    discord.SelectOption(label=name, value=value, default=value == (pending or DEFAULT_STRUCTURE))
                    for value, name in kinds]))
        return result
    t, h, s = table.id, live.record.id, live.seq
    if legal is not None and legal.phase == "betting":
        result.add_item(ActionButton(t, h, s, "fold", "Fold", discord.ButtonStyle.danger, row=0))
        label = "Check" if legal.can_check else f"Call {render.chips(legal.call_amount)}"
        result.add_item(ActionButton(t, h, s, "cc", label, discord.ButtonStyle.success, row=0))
        if legal.can_raise:
            _raise_buttons(result, table, legal)
    elif legal is not None and legal.phase == "drawing":
        result.add_item(ActionButton(t, h, s, "draw", "Draw…", discord.ButtonStyle.primary, row=0))
        result.add_item(ActionButton(t, h, s, "pat", "Stand pat", discord.ButtonStyle.secondary, row=0))
    result.add_item(ActionButton(t, h, s, "hand", "My hand", discord.ButtonStyle.secondary, row=1))
    return result


def _raise_buttons(result: discord.ui.View, table: Table, legal: Legal) -> None:
    assert table.live is not None
    t, h, s = table.id, table.live.record.id, table.live.seq
    word = "Bet" if legal.is_bet else "Raise to"
    style = discord.ButtonStyle.primary
    result.add_item(ActionButton(t, h, s, "min", f"{word} {render.chips(legal.min_raise_to)}", style, row=0))
    if legal.min_raise_to == legal.max_raise_to:
        return
    if legal.min_raise_to < legal.pot_raise_to < legal.max_raise_to:
        result.add_item(ActionButton(t, h, s, "pot", f"Pot {render.chips(legal.pot_raise_to)}", style, row=0))
    all_in = table.hand is not None and table.hand.stakes.structure == "no-limit"
    label = f"{'All in' if all_in else 'Max'} {render.chips(legal.max_raise_to)}"
    result.add_item(ActionButton(t, h, s, "max", label, style, row=0))
    result.add_item(ActionButton(t, h, s, "amount", "Amount…", discord.ButtonStyle.secondary, row=1))


def closed_embed() -> discord.Embed:
    """The message of a closed table: no buttons left to click."""
    return discord.Embed(title="Table closed", description="Everyone was cashed out. `/poker create` opens "
                         "a new table.", colour=discord.Colour.dark_grey())


def moved_embed(guild_id: int, channel_id: int, message_id: int | None) -> discord.Embed:
    """An older table message (after ``/poker table`` posted a new one): its buttons go, a link stays."""
    link = f"https://discord.com/channels/{guild_id}/{channel_id}/{message_id}"
    return discord.Embed(title="The table moved", description=f"It is now [this message]({link}).",
                         colour=discord.Colour.dark_grey())
