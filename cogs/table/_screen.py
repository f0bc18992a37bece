"""The table message as a pure function: the table's state in, the embed and the components out.

Made for a phone (about 40 characters a line, the fewest taps): one embed whose description holds the state at
a glance (the game and round, the pot, one line per player, whose turn and his clock, this hand's last
actions), the buttons of the player to act, and a row of seat buttons for everyone (My hand, Join, Sit out or
in, Rebuy, Leave). No I/O and no clock here: what changes with time comes in as a ``Screen``. Tested without
Discord.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import discord

from bot.cardfaces import card_text
from bot.poker import Game, Legal, get_game
from bot.rules_text import GAME_BLURBS
from bot.tables import Table
from bot.tables.tournament import tournament_of
from cogs import render

from .. import tournament_views
from . import _text
from ._text import CardText, chips, mention
from ._views import (
    DEFAULT_STRUCTURE,
    ActionButton,
    ChoiceSelect,
    DealButton,
    SeatButton,
    StructureSelect,
)

MAX_LOG_LINES = 5
COLOUR = discord.Colour.dark_green()
DONE_COLOUR = discord.Colour.dark_grey()


@dataclass(frozen=True, slots=True)
class Screen:
    """What the table message shows besides the table itself."""

    recent: Sequence[str] = ()  # this hand's last public lines, oldest first
    deadline: float | None = None  # when the clock of the player to act (or of the chooser) runs out, Unix time
    pending_game: str | None = None  # dealer's choice: the game picked, not dealt yet
    pending_structure: str | None = None  # dealer's choice: the structure picked for the next deal
    choice_number: int = 0  # tells one dealer's-choice menu from the next (their custom_ids differ)
    card: CardText = field(default=card_text)  # how a card is drawn (an emoji, or text)
    notices: Sequence[str] = ()  # lines for everyone (a player whose DMs are closed)
    show_finished: bool = False  # between hands, the page still shows the hand just over


SEATS_IN_HAND = 0  # the seat row during a hand: on top
ACTIONS = 1  # the turn's buttons (and Amount… under them): lowest, nearest the thumb
SEATS_BETWEEN_HANDS = 3  # under the dealer's-choice menus and Deal

def embed(table: Table, screen: Screen) -> discord.Embed:
    """The table as everyone sees it now."""
    if table.live is not None:
        return _hand_embed(table, screen)
    if screen.show_finished and table.last_hand is not None:
        return finished_embed(table, screen)
    return _lobby_embed(table, screen)


def _hand_embed(table: Table, screen: Screen) -> discord.Embed:
    live = table.live
    assert live is not None
    hand, users = live.hand, live.users
    lines = [f"{_text.stakes_short(hand)} · {_text.round_line(hand)}", _text.pot_line(hand, users), ""]
    lines += _text.player_lines(hand, users, screen.card)
    waiting = [s for s in table.record.seats if s.user_id not in users]
    lines += [f"{mention(s.user_id)} {chips(s.stack)} · {_seat_state(s.sitting_out, s.leaving, s.stack)}"
              for s in waiting]
    actor = table.actor()
    legal = table.legal()
    if actor is not None and legal is not None:
        lines += ["", f"**{mention(actor)}: {_prompt(legal)}**" + _clock(screen.deadline)]
    if screen.recent:
        lines += ["", *(f"· {line}" for line in screen.recent[-MAX_LOG_LINES:])]
    lines += _tournament_lines(table)
    lines += list(screen.notices)
    return discord.Embed(title=f"{hand.game.name} · #{live.record.number}", description="\n".join(lines),
                         colour=COLOUR)


def _tournament_lines(table: Table) -> list[str]:
    """A tournament table's level, the next one and the time left (issue 15); nothing at a cash table."""
    found = tournament_views.tournament_field(table)
    return [] if found is None else ["", f"**{found.name}**", found.value]


def _prompt(legal: Legal) -> str:
    if legal.phase == "drawing":
        return "your draw"
    if legal.can_check:
        return "check or bet" if legal.can_raise else "your check"
    call = f"call {chips(legal.call_amount)}"
    return f"{call}, raise or fold" if legal.can_raise else f"{call} or fold"


def _clock(deadline: float | None) -> str:
    return f" · ⏱ <t:{int(deadline)}:R>" if deadline else ""


def _seat_state(sitting_out: bool, leaving: bool, stack: int) -> str:
    if sitting_out:
        return "sitting out"
    if leaving:
        return "leaving"
    return "no chips" if stack == 0 else "in next hand"


def finished_embed(table: Table, screen: Screen) -> discord.Embed:
    """The hand just over: who won what and with what, the hands shown, carried chips."""
    hand, users = table.last_hand, table.last_users
    assert hand is not None
    number = table.last_number
    lines = _text.showdown_lines(hand, users, screen.card)
    lines += ["", *(f"{mention(u)} {chips(s)}" for u, s in zip(users, hand.stacks))]
    step = table.next()
    after = {"paused": "Paused: the host deals again with `/poker table resume`.",
             "players": "Waiting for a second player with chips."}.get(step.reason, "Next hand in a moment.")
    if step.kind == "choose" and step.user is not None:
        after = f"Next: {mention(step.user)} picks the game."
    if tournament_of(table) is not None:
        after = ""
    lines += ["", after] if after else []
    lines += _tournament_lines(table)
    lines += list(screen.notices)
    title = f"{hand.game.name} · #{number}" if number else hand.game.name
    return discord.Embed(title=title, description="\n".join(lines), colour=COLOUR)


def summary_embed(table: Table) -> discord.Embed | None:
    """A finished hand's message once the next one is under way: one line, no buttons."""
    hand, users = table.last_hand, table.last_users
    if hand is None or not hand.is_complete:
        return None
    return discord.Embed(description=_text.summary_line(hand, users, table.last_number), colour=DONE_COLOUR)


def _lobby_embed(table: Table, screen: Screen) -> discord.Embed:
    settings = table.settings
    game: Game | None = None if settings.is_dealers_choice else get_game(settings.game)
    title = "Dealer's choice" if game is None else game.name
    seats = table.record.seats
    lines = [render.stakes_line(settings, game, None, sep="\n"), ""]
    lines += [f"{mention(s.user_id)} {chips(s.stack)}" + (" · sitting out" if s.sitting_out else "")
              for s in seats] or ["No one is seated yet: press **Join**."]
    lines.append(f"{len(seats)}/{settings.max_seats} seats")
    step = table.next()
    if step.kind == "choose" and step.user is not None:
        lines += ["", f"**{mention(step.user)} picks the next game**" + _clock(screen.deadline)]
        if screen.pending_game is not None:
            picked = get_game(screen.pending_game).name
            if screen.pending_structure:
                picked += f" · {render.STRUCTURE_NAMES[screen.pending_structure]}"
            lines.append(f"Picked: {picked}. Press **Deal** to deal it.")
    elif step.reason == "paused":
        lines += ["", "Paused: the host deals with `/poker start`."]
    elif step.reason == "players":
        lines += ["", "Waiting for a second player with chips."]
    if table.record.carried_pot:
        lines.append(f"🔁 {chips(table.record.carried_pot)} carried to the next deal")
    lines += _tournament_lines(table)
    lines += list(screen.notices)
    return discord.Embed(title=title, description="\n".join(lines), colour=COLOUR)


def view(table: Table, screen: Screen) -> discord.ui.View:
    """The buttons: the player to act's (or the dealer's-choice menu), then the seat buttons."""
    result = discord.ui.View(timeout=None)
    live = table.live
    legal = table.legal()
    if live is not None:  # in the order Discord shows them: the seat row on top during a hand
        _seat_buttons(result, table)
    if live is None and not screen.show_finished:  # the menu comes on the next hand's own message
        _choice_items(result, table, screen)
    elif legal is not None and legal.phase == "betting":
        _betting_buttons(result, table, legal)
    elif legal is not None and legal.phase == "drawing" and live is not None:
        t, h, s = table.id, live.record.id, live.seq
        result.add_item(ActionButton(t, h, s, "draw", "Draw…", discord.ButtonStyle.primary, row=ACTIONS))
        result.add_item(ActionButton(t, h, s, "pat", "Stand pat", discord.ButtonStyle.secondary, row=ACTIONS))
    if live is None:
        _seat_buttons(result, table)
    return result


def _betting_buttons(result: discord.ui.View, table: Table, legal: Legal) -> None:
    live = table.live
    assert live is not None
    t, h, s = table.id, live.record.id, live.seq
    if not legal.can_check:  # folding is offered only when it costs something to stay in
        result.add_item(ActionButton(t, h, s, "fold", "Fold", discord.ButtonStyle.danger, row=ACTIONS))
    label = "Check" if legal.can_check else f"Call {chips(legal.call_amount)}"
    if legal.call_is_all_in and not legal.can_check:
        label += " (all in)"
    result.add_item(ActionButton(t, h, s, "cc", label, discord.ButtonStyle.success, row=ACTIONS))
    if not legal.can_raise:
        return
    word = "Bet" if legal.is_bet else "Raise to"
    style = discord.ButtonStyle.primary
    low, high = legal.min_raise_to, legal.max_raise_to
    all_in = legal.all_in_to
    min_label = f"{word} {chips(low)}" + (" (all in)" if low == all_in else "")
    result.add_item(ActionButton(t, h, s, "min" if low != all_in else "allin", min_label, style, row=ACTIONS))
    if low == high:
        return
    if low < legal.pot_raise_to < high:
        result.add_item(ActionButton(t, h, s, "pot", f"Pot {chips(legal.pot_raise_to)}", style, row=ACTIONS))
    top = "All in" if high == all_in else "Max"
    result.add_item(ActionButton(t, h, s, "allin" if high == all_in else "max", f"{top} {chips(high)}",
                                 discord.ButtonStyle.danger if high == all_in else style, row=ACTIONS))
    result.add_item(ActionButton(t, h, s, "amount", "Amount…", discord.ButtonStyle.secondary, row=ACTIONS + 1))


def _choice_items(result: discord.ui.View, table: Table, screen: Screen) -> None:
    step = table.next()
    if step.kind != "choose":
        return
    number = screen.choice_number
    picked = screen.pending_game
    options = [discord.SelectOption(label=g.name[:100], value=g.id, description=GAME_BLURBS.get(g.id, "")[:100] or None,
                                    default=g.id == picked)
               for g in table.choices()][:25]
    result.add_item(ChoiceSelect(table.id, number, options))
    if table.settings.dealer_picks_structure:
        pending = screen.pending_structure
        kinds = [(DEFAULT_STRUCTURE, "Each game's own structure"), *render.STRUCTURE_NAMES.items()]
        result.add_item(StructureSelect(table.id, number, [
            discord.SelectOption(label=name, value=value, default=value == (pending or DEFAULT_STRUCTURE))
            for value, name in kinds]))
    label = f"Deal {get_game(picked).name}"[:80] if picked else "Pick a game first"
    result.add_item(DealButton(table.id, number, label, disabled=picked is None))


def _seat_buttons(result: discord.ui.View, table: Table) -> None:
    """During a hand one short row above the turn's buttons (so those are nearest the thumb): My hand, Sit out /
    in and Leave; between hands, under everything: Join (a seat free), Sit out / in, Rebuy… and Leave."""
    t = table.id
    if table.live is not None:
        result.add_item(SeatButton(t, "hand", "My hand", discord.ButtonStyle.secondary, row=SEATS_IN_HAND))
        result.add_item(SeatButton(t, "sit", "Sit out / in", discord.ButtonStyle.secondary, row=SEATS_IN_HAND))
        result.add_item(SeatButton(t, "leave", "Leave", discord.ButtonStyle.secondary, row=SEATS_IN_HAND))
        return
    row = SEATS_BETWEEN_HANDS
    if len(table.record.seats) < table.settings.max_seats:
        result.add_item(SeatButton(t, "join", "Join", discord.ButtonStyle.success, row=row))
    result.add_item(SeatButton(t, "sit", "Sit out / in", discord.ButtonStyle.secondary, row=row))
    result.add_item(SeatButton(t, "rebuy", "Rebuy…", discord.ButtonStyle.secondary, row=row))
    result.add_item(SeatButton(t, "leave", "Leave", discord.ButtonStyle.secondary, row=row))


def closed_embed(last: discord.Embed | None = None) -> discord.Embed:
    """The message of a closed table: no buttons left to click. ``last``: the summary of the hand it showed
    (kept first, so the night's list of hands has no gap)."""
    closing = "Everyone was cashed out. `/poker create` opens a new table."
    description = f"{last.description}\n\n{closing}" if last is not None and last.description else closing
    return discord.Embed(title="Table closed", description=description, colour=DONE_COLOUR)


def moved_embed(guild_id: int, channel_id: int, message_id: int | None) -> discord.Embed:
    """An older table message (after ``/poker table show`` posted a new one): its buttons go, a link stays."""
    link = f"https://discord.com/channels/{guild_id}/{channel_id}/{message_id}"
    return discord.Embed(title="The table moved", description=f"It is now [this message]({link}).",
                         colour=DONE_COLOUR)
