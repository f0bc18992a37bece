"""The table message's components as a pure function of the table's state: the buttons of the player to act (or
the dealer's-choice menu) and the seat buttons, each from its declaration (``cogs.table._turn``,
``cogs.table._seats``, ``cogs.table._choice``).

In the order Discord shows them, for a phone: during a hand one short row of seat buttons on top, the turn's
buttons under it (nearest the thumb), three to a row (Fold, Call, Raise; then Pot, All in, Amount… in pot and no
limit: two rows, not the three a phone made of five buttons and Amount…); between hands the menu, then the seat
buttons.
"""

from __future__ import annotations

import discord

from bot.tables import Table

from . import _choice
from ._screen import Screen
from ._seats import SEAT_ACTIONS
from ._turn import ACTIONS_ROW, TURN_ACTIONS

SEATS_IN_HAND = 0  # the seat row during a hand: on top
SEATS_BETWEEN_HANDS = 3  # under the dealer's-choice menus and Deal
TURN_ROW = 3  # the turn's buttons a row holds: three fit a phone's width; more (pot, no limit) go on a second row


def view(table: Table, screen: Screen) -> discord.ui.View:
    """The buttons: the player to act's (or the dealer's-choice menu), and the seat buttons."""
    result = discord.ui.View(timeout=None)
    live = table.live
    seats = [action.button(table.id, SEATS_IN_HAND if live is not None else SEATS_BETWEEN_HANDS)
             for action in SEAT_ACTIONS if action.offered(table)]
    if live is None:
        if not screen.show_finished:  # the menu comes on the next hand's own message
            for item in _choice.menu(table, screen):
                result.add_item(item)
        for button in seats:
            result.add_item(button)
        return result
    for button in seats:
        result.add_item(button)
    legal = table.legal()
    if legal is not None:
        offered = [action for action in TURN_ACTIONS if action.phase == legal.phase and action.offered(legal)]
        for i, action in enumerate(offered):
            row = ACTIONS_ROW + (i >= TURN_ROW and len(offered) > TURN_ROW)
            result.add_item(action.button(table.id, live.record.id, live.seq, legal, row=row))
    return result
